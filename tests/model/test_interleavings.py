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

import os
import random
from datetime import timedelta
from pathlib import Path

import pytest

from tests.support import figures
from tests.support.aws import Stack
from tests.support.interleave import ARRIVAL, BEFORE, Cell, Fault, Kind, boundary_labels
from tests.support.interleave_cells import (
    AGENT,
    COUNT_1,
    COUNT_3,
    COUNTED,
    MOVE_CRON,
    MOVE_ONCE,
    ONE_SHOT,
    ONE_SHOT_QUIET,
    PAUSE,
    RECURRING,
    RECURRING_QUIET,
    RUN_NOW,
    SKIP,
    SNOOZE,
    boundaries,
    fault_for,
    judge,
    lookup,
    matrix_ids,
    random_cells,
    tally,
)
from tests.support.interleave_verdict import Change
from tests.support.stream_play import MODES

pytestmark = pytest.mark.slow


CASES = matrix_ids()
IDS = [f"{k}|{c}|{a.total_seconds():+.0f}s" for k, c, a in CASES]
ON_TIME = [case for case in CASES if case[2] == ARRIVAL]


@pytest.mark.parametrize(("kind_name", "change_id", "arrival"), CASES, ids=IDS)
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


@pytest.mark.parametrize(("kind_name", "change_id", "arrival"), ON_TIME, ids=[IDS[CASES.index(c)] for c in ON_TIME])
def test_a_change_at_every_boundary_then_a_dynamodb_fault_and_lambdas_retries(
    base: Stack, tmp_path: Path, kind_name: str, change_id: str, arrival: timedelta
) -> None:
    """After the change, the fire's next DynamoDB calls fail (a mode and a count in rotation over
    the cells, so every mode meets every boundary); Lambda retries on its own spacing. The table's
    stream reaches the projector in rotation too: promptly, late, twice, interleaved across items."""
    kind, change = lookup(kind_name, change_id)
    problems: list[str] = []
    spots = [b for b in boundaries(base, kind, arrival, tmp_path) if b != BEFORE]
    first = ON_TIME.index((kind_name, change_id, arrival)) * 5
    for n, boundary in enumerate(spots):
        mode = MODES[(first + n) % len(MODES)]  # and the stream in rotation: late, again, interleaved
        cell = Cell(kind, ((change, boundary),), fault_for(first + n), arrival, stream=mode, seed=first + n)
        problems += judge(base, cell, tmp_path)
    tally(cells=len(spots), faults=len(spots), violations=len(problems))
    assert not problems, "\n".join(problems)


# a change where the fire's process is killed with SIGKILL, then Lambda's retry: each kind twice, so
# that each of the four boundaries (after the read, the claim, the post, the record) meets a kill
# twice, with eight different tools (each cell costs a process, about three seconds); and reminders
# of a user with quiet hours, whose fires read them after the claim (QUIET: after that read)
READ, CLAIM, POST, RECORD, QUIET = range(5)
KILLS: dict[str, tuple[Kind, tuple[tuple[Change, int], ...]]] = {
    "one-shot": (ONE_SHOT, ((MOVE_ONCE, READ), (SNOOZE, CLAIM))),
    "recurring": (RECURRING, ((SKIP, POST), (MOVE_CRON, RECORD))),
    "counted": (COUNTED, ((COUNT_1, CLAIM), (COUNT_3, POST))),
    "agent": (AGENT, ((RUN_NOW, READ), (PAUSE, RECORD))),
    "one-shot, quiet hours": (ONE_SHOT_QUIET, ((MOVE_ONCE, QUIET), (SNOOZE, POST))),
    "recurring, quiet hours": (RECURRING_QUIET, ((SKIP, QUIET), (MOVE_CRON, CLAIM))),
}


@pytest.mark.parametrize("kind_name", list(KILLS))
def test_a_change_at_a_boundary_where_the_fire_is_killed_then_lambdas_retries(
    base: Stack, tmp_path: Path, kind_name: str
) -> None:
    kind, cells = KILLS[kind_name]
    labels = boundary_labels(base, kind, ARRIVAL, tmp_path)
    post = labels.index("post")  # a reminder's fire reads its user's quiet hours between claim and post
    expected = ["batch_get_item", "update_item", *(["get_item"] if kind.quiet else []), "post"]
    assert labels[: post + 1] == expected and post == len(labels) - 2, labels  # only when they have some
    at = {READ: 0, CLAIM: 1, POST: post, RECORD: post + 1, QUIET: post - 1}
    problems: list[str] = []
    for change, boundary in cells:
        problems += judge(base, Cell(kind, ((change, at[boundary]),), Fault("kill")), tmp_path)
    tally(cells=len(cells), kills=len(cells), violations=len(problems))
    assert not problems, "\n".join(problems)


def test_random_pairs_of_changes_with_a_fault_when_verifying(base: Stack, tmp_path: Path) -> None:
    """`make verify` (CRONBELL_VERIFY=1): seeded random cells of two changes at two boundaries of
    one fire, with a fault or none. The seed is printed; CRONBELL_VERIFY_SEED replays one."""
    if os.environ.get("CRONBELL_VERIFY") != "1":
        return
    seed = int(os.environ.get("CRONBELL_VERIFY_SEED") or random.SystemRandom().randrange(10**6))
    n = int(os.environ.get("CRONBELL_VERIFY_CELLS") or 300)
    print(f"\ninterleavings: seed {seed}, {n} cells (CRONBELL_VERIFY_SEED={seed} replays them)")
    problems: list[str] = []
    cells = random_cells(seed, n, base, tmp_path)
    for cell in cells:
        problems += judge(base, cell, tmp_path)
    faults = sum(1 for c in cells if c.fault is not None)
    tally(cells=len(cells), faults=faults, violations=len(problems))
    figures.add("interleavings (verify)", seed=seed, cells=len(cells), violations=len(problems))
    assert not problems, f"seed {seed}:\n" + "\n".join(problems)
