# cronbell: the commands a developer and CI use. `make demo` and `make test` set everything up themselves.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
export PYTHONPATH := layers/common:.

.PHONY: demo test lint typecheck checkov unit integration e2e local format clean venv schemas bench browser

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

test: lint typecheck checkov browser
	$(BIN)/python -m pytest -n 2 --dist loadgroup

# Debian's Chromium, its driver and an emoji font, for the sandbox console's browser test (skipped when present)
BROWSER_PACKAGES := chromium chromium-driver fonts-noto-color-emoji
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
browser:
	@command -v chromium >/dev/null && command -v chromedriver >/dev/null && fc-list 2>/dev/null | grep -qi "color emoji" \
		|| { $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq $(BROWSER_PACKAGES); }

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

e2e: $(STAMP) browser
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
