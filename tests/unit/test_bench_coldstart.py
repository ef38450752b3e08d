"""The cold-start bench measures boto3 as Lambda's runtime has it, without what only this virtualenv adds."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from bench.coldstart import NOT_IN_THE_RUNTIME, runtime_only

PROBE = (
    "import sys, boto3; boto3.client('dynamodb', region_name='us-east-1');"
    f" print(sorted(m for m in sys.modules if m.split('.')[0] in {NOT_IN_THE_RUNTIME!r}))"
)


def test_what_lambdas_runtime_lacks_is_not_loaded_by_the_floor(tmp_path: Path) -> None:
    hidden = runtime_only(tmp_path)
    env = {"PYTHONPATH": str(hidden), "PATH": "/usr/bin:/bin", "AWS_ACCESS_KEY_ID": "x", "AWS_SECRET_ACCESS_KEY": "x"}
    out = subprocess.run([sys.executable, "-c", PROBE], env=env, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]", out.stdout
