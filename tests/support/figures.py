"""Figures a search reports (sequences, steps, interleavings, violations), printed at the end of the run.

A test adds to a named tally; pytest's terminal summary (tests/conftest.py) prints every tally, so
`make test` and `make verify` show what was searched, not only that it passed. Under xdist the
workers hand their tallies to the controller (tests/conftest.py), which prints the sum."""

from __future__ import annotations

from collections import Counter, defaultdict

TALLIES: defaultdict[str, Counter[str]] = defaultdict(Counter)


def add(search: str, **counts: int) -> None:
    """Add counts (e.g. sequences=1, steps=12) to the tally of one search."""
    TALLIES[search].update(counts)


def lines() -> list[str]:
    return [
        f"{search}: " + ", ".join(f"{name} {value}" for name, value in sorted(counts.items()))
        for search, counts in sorted(TALLIES.items())
    ]
