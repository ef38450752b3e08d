"""A city named in a phrase reads as the same zone in every process, whatever the hash seed (the zone ids
come from an unordered set, and several name the same city)."""

from __future__ import annotations

import json
import os
import subprocess
import sys

from tests.support.aws import ROOT

_PRINT = (
    "import json; from cronbell.core.language import named_zones as z; "
    "print(json.dumps([z._cities()[c] for c in ('buenos aires', 'indianapolis', 'kolkata', 'new york')]))"
)


def _zones(seed: str) -> list[str]:
    env = {**os.environ, "PYTHONHASHSEED": seed, "PYTHONPATH": f"{ROOT / 'layers' / 'common'}{os.pathsep}{ROOT}"}
    out = subprocess.run([sys.executable, "-c", _PRINT], env=env, capture_output=True, text=True, check=True)
    return json.loads(out.stdout)


def test_a_city_is_the_same_zone_whatever_the_hash_seed() -> None:
    first = _zones("1")
    assert all(_zones(seed) == first for seed in ("2", "3", "4"))
