"""Every change tool at every boundary between two AWS calls of a fire, deterministically.

A fire of each schedule kind (a one-shot message, a recurring message, a recurring one with
`count`, an agent call of the echo agent; and each of them paused when the fire arrives, for
resume) is stopped after each of its DynamoDB calls and after its chat post, and a change tool runs
there through the real tools handler: update_reminder (new text or prompt, new time, raised or
lowered count, until), skip_next, snooze_reminder, pause_reminder, resume_reminder,
delete_reminder, run_now. Then the fire goes on, Lambda retries what raised, and every later fire
Scheduler would send is played. The same boundaries are played again with the fire's next
DynamoDB calls failing (throttling, a 500, a timeout, a timeout after the write was made; 1 to 3
times in a row) and, for a subset, with the process killed by SIGKILL there. Each cell is judged
by tests/support/interleave_verdict.py; the figures are printed at the end of the run.

With CRONBELL_VERIFY=1 a seeded random set of cells with two changes and a fault runs as well
(CRONBELL_VERIFY_SEED picks the seed, CRONBELL_VERIFY_CELLS how many).
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path

import pytest

from sandbox.aws_server import MotoServer
from tests.support.aws import FakeClock, Stack, provision
from tests.support.interleave import Cell
from tests.support.interleave_cells import (
    boundaries,
    judge,
    lookup,
    matrix_ids,
    tally,
)

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def local_moto(moto_endpoint: str) -> Iterator[str]:
    """A moto server that this process's clients reach without HTTP (a killed worker still reaches it
    over HTTP), with moto's transaction backup limited to the items a transaction names. (The
    session's server stays as it is; its fixture sets the test credentials.)"""
    server = MotoServer(in_process=True, fast_transactions=True).start()
    yield server.url
    server.stop()


@pytest.fixture
def base(local_moto: str, clock: FakeClock) -> Stack:
    return provision(local_moto, clock)


CASES = matrix_ids()


@pytest.mark.parametrize(
    ("kind_name", "change_id", "arrival"), CASES, ids=[f"{k}|{c}|{a.total_seconds():+.0f}s" for k, c, a in CASES]
)
def test_a_change_at_every_boundary_of_a_fire(
    base: Stack, tmp_path: Path, kind_name: str, change_id: str, arrival: timedelta
) -> None:
    kind, change = lookup(kind_name, change_id)
    problems: list[str] = []
    spots = boundaries(base, kind, arrival, tmp_path)
    for boundary in spots:
        problems += judge(base, Cell(kind, ((change, boundary),), arrival=arrival), tmp_path)
    tally(cells=len(spots), violations=len(problems))
    assert not problems, "\n".join(problems)
