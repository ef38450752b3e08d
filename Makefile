# cronbell: the commands a developer and CI use. `make demo` and `make test` set everything up themselves.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
# The SAM CLI and a stand-in for the Lambda runtime (Python 3.12 with boto3) live in virtualenvs of their own.
SAM_VENV := .venv-sam
SAM_STAMP := $(SAM_VENV)/.installed
RUNTIME_VENV := .venv-runtime
RUNTIME_STAMP := $(RUNTIME_VENV)/.installed
# The runtime's Python, first on PATH for `sam build` (its python3.12 workflow) and layers/common/Makefile.
RUNTIME_PY = $(shell scripts/runtime-python.sh)
WITH_RUNTIME = PATH="$(dir $(RUNTIME_PY)):$$PATH" SAM_CLI_TELEMETRY=0
export PYTHONPATH := layers/common:.

.PHONY: deploy demo redrive test lint typecheck checkov unit sandbox-tests integration e2e local format clean venv schemas bench build browser smoke

venv: $(STAMP)

$(STAMP): requirements-dev.txt layers/common/requirements.txt layers/calendars/requirements.txt
	test -x $(BIN)/python || $(PY) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -r requirements-dev.txt
	touch $(STAMP)

$(SAM_STAMP): requirements-sam.txt
	test -x $(SAM_VENV)/bin/python || $(PY) -m venv $(SAM_VENV)
	$(SAM_VENV)/bin/pip install -q -r requirements-sam.txt
	touch $(SAM_STAMP)

$(RUNTIME_STAMP): requirements-runtime.txt
	@test -n "$(RUNTIME_PY)"
	test -x $(RUNTIME_VENV)/bin/python || "$(RUNTIME_PY)" -m venv $(RUNTIME_VENV)
	$(RUNTIME_VENV)/bin/pip install -q -r requirements-runtime.txt
	touch $(RUNTIME_STAMP)

# `sam validate --lint` and `sam build` (no container): .aws-sam/build is what `sam deploy` ships, what
# `python -m sandbox serve --built` runs and what tests/build checks.
build: $(SAM_STAMP) $(RUNTIME_STAMP)
	@test -n "$(RUNTIME_PY)"
	$(WITH_RUNTIME) $(SAM_VENV)/bin/sam validate --lint
	$(WITH_RUNTIME) $(SAM_VENV)/bin/sam build

# `sam deploy` of what `make build` built, with the project's SAM CLI (ARGS: e.g. --guided, --config-env dev).
deploy: build
	$(WITH_RUNTIME) $(SAM_VENV)/bin/sam deploy $(ARGS)

# Against a deployed stack, with your AWS credentials: creates, lists, runs now and deletes one reminder in
# ROOM (PLATFORM: the room's platform when the stack has several; TEAM: a Slack room's workspace). scripts/smoke.py says what it checks.
smoke: $(STAMP)
	@test -n "$(STACK)" && test -n "$(ROOM)" || { echo "usage: make smoke STACK=name ROOM=room-id [PLATFORM=slack] [TEAM=T0123] [REGION=eu-west-1]" >&2; exit 2; }
	$(BIN)/python scripts/smoke.py --stack '$(STACK)' --room '$(ROOM)' $(if $(PLATFORM),--platform '$(PLATFORM)') $(if $(TEAM),--team '$(TEAM)') $(if $(REGION),--region '$(REGION)')

# Against a deployed stack: lists the fires waiting in its dead-letter queues; APPLY=1 invokes the fire
# function's alias with each and deletes it (scripts/redrive.py, docs/operations.md).
redrive: $(STAMP)
	@test -n "$(STACK)" || { echo "usage: make redrive STACK=name [APPLY=1] [REGION=eu-west-1]" >&2; exit 2; }
	$(BIN)/python scripts/redrive.py --stack '$(STACK)' $(if $(APPLY),--apply) $(if $(REGION),--region '$(REGION)')

demo: $(STAMP)
	$(BIN)/python -m sandbox demo

# Flags go to `python -m sandbox serve`: make local ARGS="--lambda-port 3301" (after `make build`: ARGS=--built).
local: $(STAMP)
	$(BIN)/python -m sandbox serve --chat matrix --log-file sandbox-functions.log $(ARGS)

test: lint typecheck checkov build browser
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

# The pure tier, in seconds: no process, no server (the slow property searches are left to `make test`).
unit: $(STAMP)
	$(BIN)/python -m pytest tests/unit -m "not slow" -n 0

# The sandbox's own parts (moto server, Lambda endpoint, engine, function processes).
sandbox-tests: $(STAMP)
	$(BIN)/python -m pytest tests/sandbox

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
	rm -rf $(VENV) $(SAM_VENV) $(RUNTIME_VENV) .aws-sam .pytest_cache .mypy_cache .ruff_cache

# The long model-based search (about 20 minutes; the seed is printed: CRONBELL_VERIFY_SEED=N repeats it,
# CRONBELL_VERIFY_MINUTES sets the time, CRONBELL_MODEL_EXCLUDE=H4,C1 leaves known defect areas out).
.PHONY: verify
verify: $(STAMP)
	CRONBELL_VERIFY=1 $(BIN)/python -m pytest tests/model -p no:cacheprovider -s
