# cronbell: the commands a developer and CI use. `make demo` and `make test` set everything up themselves.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
export PYTHONPATH := layers/common:.

.PHONY: demo test lint typecheck checkov unit integration e2e local format clean venv schemas bench

venv: $(STAMP)

$(STAMP): requirements-dev.txt layers/common/requirements.txt
	test -x $(BIN)/python || $(PY) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -r requirements-dev.txt
	touch $(STAMP)

demo: $(STAMP)
	$(BIN)/python -m sandbox demo

local: $(STAMP)
	$(BIN)/python -m sandbox serve --chat matrix

test: lint typecheck checkov
	$(BIN)/python -m pytest -n 2 --dist loadgroup

checkov:
	./scripts/checkov.sh

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

typecheck: $(STAMP)
	$(BIN)/mypy

unit: $(STAMP)
	$(BIN)/python -m pytest tests/unit

integration: $(STAMP)
	$(BIN)/python -m pytest tests/integration

e2e: $(STAMP)
	$(BIN)/python -m pytest tests/e2e

bench: $(STAMP)
	$(BIN)/python -m bench.run

schemas: $(STAMP)
	$(BIN)/python scripts/schemas.py

format: $(STAMP)
	$(BIN)/ruff format .
	$(BIN)/ruff check --fix .

clean:
	rm -rf $(VENV) .aws-sam .pytest_cache .mypy_cache .ruff_cache
