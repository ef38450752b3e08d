"""The README's excerpt of `make demo` is what the demo prints today (ids, room ids, ports and the
password differ on every run; `...` stands for lines left out, a line ending in `...` for its rest)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = [pytest.mark.slow, pytest.mark.e2e, pytest.mark.matrix, pytest.mark.xdist_group("matrix")]

ROOT = Path(__file__).resolve().parents[2]
VARYING = [
    (re.compile(r"\b[2-9a-hjkmnp-z]{10}\b"), "<id>"),  # schedule ids (cronbell.core.domain.models' alphabet)
    (re.compile(r"![A-Za-z0-9_-]+(:[a-z.]+)?"), "<room>"),
    (re.compile(r"127\.0\.0\.1:\d+"), "127.0.0.1:<port>"),
    (re.compile(r"(login \S+) / \S+"), r"\1 / <password>"),
]


def normal(line: str) -> str:
    for pattern, replacement in VARYING:
        line = pattern.sub(replacement, line)
    return line.rstrip()


def readme_excerpt() -> list[str]:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    after = text.split("excerpt of what it prints", 1)[1]
    block = after.split("```\n", 2)[1]
    return [line for line in block.splitlines() if line.strip()]


def test_the_readme_excerpt_is_what_make_demo_prints() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "sandbox", "demo"], cwd=ROOT, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr[-3000:]
    printed = [normal(line) for line in done.stdout.splitlines()]
    position = 0
    for line in readme_excerpt():
        if line == "...":
            continue
        wanted = normal(line)
        prefix = wanted.endswith(" ...")
        matches = [
            i
            for i in range(position, len(printed))
            if (printed[i].startswith(wanted[:-3]) if prefix else printed[i] == wanted)
        ]
        assert matches, f"README line not printed (in this order) by the demo:\n{line}\n\n{done.stdout}"
        position = matches[0] + 1
