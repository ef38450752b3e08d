#!/usr/bin/env bash
# Static security scan of template.yaml with checkov.
# checkov pins its own (older) boto3, pydantic and friends, so it lives in its own virtualenv,
# .venv-checkov, created on first use. Extra arguments are passed to checkov.
set -euo pipefail
cd "$(dirname "$0")/.."

PY="${PY:-python3}"
VENV=.venv-checkov
CHECKOV_VERSION=3.3.30
STAMP="$VENV/.installed-$CHECKOV_VERSION"

if [ ! -f "$STAMP" ]; then
    test -x "$VENV/bin/python" || "$PY" -m venv "$VENV"
    "$VENV/bin/pip" install -q --upgrade pip
    "$VENV/bin/pip" install -q "checkov==$CHECKOV_VERSION"
    touch "$STAMP"
fi

# --skip-download: run offline, without fetching guidelines or policies from the platform.
exec "$VENV/bin/checkov" -f template.yaml --framework cloudformation \
    --skip-download --compact --quiet "$@"
