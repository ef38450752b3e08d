"""Python code run in a fresh interpreter, with the layer and the project importable as a Lambda sees
them: what a module imports on load cannot leak in from the test process."""

from __future__ import annotations

import os
import subprocess
import sys

from tests.support.aws import ROOT


def run_python(code: str) -> str:
    """Its standard output; the test fails with its standard error if it does not exit cleanly."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(["layers/common", "."])}
    env.pop("AWS_LAMBDA_FUNCTION_NAME", None)  # no clients built while importing
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60, check=False
    )
    assert done.returncode == 0, done.stderr
    return done.stdout
