"""No operation's DynamoDB units rise above the figures recorded in bench/cost_baseline.json.

`python -m bench.cost` drives every operation through the real handlers on a moto server and computes
each call's units from the items it touched (bench/units.py). A change that makes an item larger, adds a
write or turns a write into a transaction shows here; one that lowers them is recorded with
`python -m bench.cost --record`."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.aws import ROOT

BASELINE = ROOT / "bench" / "cost_baseline.json"


@pytest.mark.slow
def test_no_operation_costs_more_units_than_recorded(tmp_path: Path) -> None:
    out = tmp_path / "cost.json"
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT / "layers" / "common"), str(ROOT)])}
    for name in [n for n in env if n.startswith("AWS_")]:
        env.pop(name)  # the bench starts its own moto server
    subprocess.run(
        [sys.executable, "-m", "bench.cost", "--json", str(out)],
        cwd=ROOT,
        env=env,
        check=True,
        stdout=subprocess.DEVNULL,
        timeout=300,
    )
    measured = json.loads(out.read_text())["ops"]
    recorded = json.loads(BASELINE.read_text())
    assert set(measured) == set(recorded), "record the operations with python -m bench.cost --record"
    risen = {
        name: {"recorded": units, "now": {k: measured[name][k] for k in units}}
        for name, units in recorded.items()
        if any(measured[name][k] > limit for k, limit in units.items())
    }
    assert risen == {}
    assert measured["fire one-shot"]["write_units"] >= 1  # the units really were computed
