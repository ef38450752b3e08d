"""CHANGELOG.md leads with the version the project declares, and each release once, newest first."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_the_changelog_leads_with_the_projects_version() -> None:
    version = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["version"]
    releases = re.findall(r"^## (\d+\.\d+\.\d+) \(\d{4}-\d{2}-\d{2}\)$", (ROOT / "CHANGELOG.md").read_text(), re.M)
    assert releases[0] == version
    as_numbers = [tuple(int(part) for part in release.split(".")) for release in releases]
    assert as_numbers == sorted(set(as_numbers), reverse=True)  # newest first, each once
