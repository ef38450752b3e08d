"""What `sam build` made, for the tests that run it: the `built` fixture (`.aws-sam/build`, rebuilt when
stale), offered to every test by tests/conftest.py."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from sandbox.built import BUILD_DIR, RUNTIME_VENV

__all__ = ["BUILD_DIR", "BUILT", "built"]

ROOT = Path(__file__).resolve().parents[2]
BUILT = ROOT / BUILD_DIR
SOURCES = ("template.yaml", "samconfig.toml", "functions", "layers/common", "layers/calendars")


def _newest_source() -> float:
    newest = 0.0
    for name in SOURCES:
        path = ROOT / name
        files = (
            [path] if path.is_file() else [p for p in path.rglob("*") if p.is_file() and "__pycache__" not in p.parts]
        )
        newest = max([newest, *(p.stat().st_mtime for p in files)])
    return newest


@pytest.fixture(scope="session")
def built() -> Path:
    """`.aws-sam/build`, rebuilt with `make build` when missing or older than its sources (`make test`
    has just built it)."""
    template = BUILT / "template.yaml"
    fresh = template.exists() and template.stat().st_mtime >= _newest_source()
    if not fresh or not (ROOT / RUNTIME_VENV / "bin" / "python").exists():
        subprocess.run(["make", "-s", "build"], cwd=ROOT, check=True, capture_output=True, timeout=900)
    return BUILT
