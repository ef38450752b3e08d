"""The interleaving cells: the schedule kinds, the change tools, and which of them meet.

Every time here is written out by hand from the creating arguments (Madrid is UTC+1 in winter),
never computed by cronbell, so the verdict has an independent account of what each schedule means.
"""

from __future__ import annotations

import random
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path

from tests.support import figures
from tests.support.aws import Stack
from tests.support.interleave import ARRIVAL, BEFORE, FAULT_MODES, Cell, Fault, Kind, boundary_labels, play
from tests.support.interleave_verdict import Change, Plan, verdict
from tests.support.stream_play import MODES


def _daily(hour: int, minute: int = 0) -> tuple[datetime, ...]:
    """Days 0..3 (30 November to 3 December 2026) at hour:minute UTC."""
    return tuple(datetime(2026, 11, 30, hour, minute, tzinfo=UTC) + timedelta(days=d) for d in range(4))


OLD, NEW = "OLD-TEXT", "NEW-TEXT"
THREE = timedelta(days=2, hours=3)  # a recurrence's first three occurrences
DAILY = _daily(9)  # "0 10 * * *" in Madrid
MOVED = _daily(10, 30)  # "30 11 * * *" in Madrid
ONE_SHOT_AT = datetime(2026, 11, 30, 9, tzinfo=UTC)  # "2026-11-30 10:00" in Madrid
MOVED_AT = datetime(2026, 11, 30, 19, 5, tzinfo=UTC)  # "2026-11-30 20:05" in Madrid
UNTIL = datetime(2026, 12, 1, 21, tzinfo=UTC)  # "2026-12-01 22:00" in Madrid: after the second

ONE_SHOT = Kind(
    "one-shot",
    "create_reminder",
    {"message": OLD, "time": "2026-11-30 10:00"},
    Plan((ONE_SHOT_AT,), OLD, recurring=False),
    horizon=timedelta(hours=12),
)
RECURRING = Kind(
    "recurring", "create_reminder", {"message": OLD, "cron": "0 10 * * *"}, Plan(DAILY, OLD, True), horizon=THREE
)
COUNTED = Kind(
    "recurring, count 2",
    "create_reminder",
    {"message": OLD, "cron": "0 10 * * *", "count": 2},
    Plan(DAILY, OLD, True, count=2),
    horizon=timedelta(days=3, hours=3),
)
LAST = Kind(
    "recurring, count 1",
    "create_reminder",
    {"message": OLD, "cron": "0 10 * * *", "count": 1},
    Plan(DAILY, OLD, True, count=1),
    horizon=timedelta(days=3, hours=3),
)
AGENT = Kind(
    "agent call",
    "cron_create",
    {"name": "job", "prompt": "OLD-PROMPT", "cron_expr": "0 10 * * *"},
    Plan(DAILY, "echo: OLD-PROMPT", True),
    horizon=THREE,
)
# reminders of a user with quiet hours (02:00-03:00 in Madrid: none of the cells' times falls in them):
# their fires read the rule between the claim and the post
QUIET_HOURS = {"start": "02:00", "end": "03:00"}
ONE_SHOT_QUIET = replace(ONE_SHOT, name="one-shot, quiet hours", quiet=QUIET_HOURS)
RECURRING_QUIET = replace(RECURRING, name="recurring, quiet hours", quiet=QUIET_HOURS)


def paused(kind: Kind) -> Kind:
    return replace(kind, name=f"{kind.name}, paused", plan=replace(kind.plan, paused=True), pause_first=True)


TEXT = Change("update_reminder", {"message": NEW}, "text", text=NEW)
PROMPT = Change("update_reminder", {"prompt": "NEW-PROMPT"}, "text", text="echo: NEW-PROMPT")
MOVE_ONCE = Change(
    "update_reminder", {"time": "2026-11-30 20:05", "message": NEW}, "move", text=NEW, occurrences=(MOVED_AT,)
)
MOVE_CRON = Change("update_reminder", {"cron": "30 11 * * *"}, "move", occurrences=MOVED)
COUNT_1 = Change("update_reminder", {"count": 1}, "count", count=1)
COUNT_3 = Change("update_reminder", {"count": 3}, "count", count=3)
ENDS = Change("update_reminder", {"until": "2026-12-01 22:00"}, "until", until=UNTIL)
SKIP = Change("skip_next", {}, "skip")
SNOOZE = Change("snooze_reminder", {"minutes": 30}, "snooze")
PAUSE = Change("pause_reminder", {}, "pause")
RESUME = Change("resume_reminder", {}, "resume")
DELETE = Change("delete_reminder", {}, "delete")
RUN_NOW = Change("run_now", {"kind": "cron"}, "run_now")

COMMON = (SNOOZE, PAUSE, DELETE, RUN_NOW)
MATRIX: dict[str, tuple[Kind, tuple[Change, ...]]] = {
    "one-shot": (ONE_SHOT, (TEXT, MOVE_ONCE, *COMMON)),
    "recurring": (RECURRING, (TEXT, MOVE_CRON, COUNT_1, ENDS, SKIP, *COMMON)),
    "counted": (COUNTED, (TEXT, COUNT_3, COUNT_1, ENDS, SKIP, *COMMON)),
    "agent": (AGENT, (PROMPT, MOVE_CRON, ENDS, SKIP, *COMMON)),
    "one-shot paused": (paused(ONE_SHOT), (RESUME,)),
    "recurring paused": (paused(RECURRING), (RESUME,)),
    "agent paused": (paused(AGENT), (RESUME,)),
}
# an invoke up to a minute early (Scheduler's window): a skip or snooze answered then targets the
# occurrence whose fire is already under way
EARLY = timedelta(seconds=-30)
EARLY_MATRIX = {name: (MATRIX[name][0], (SKIP, SNOOZE)) for name in ("recurring", "counted", "agent")}
# an attempt two minutes late (Lambda's retry after a chat outage), past Scheduler's minute: run_now is
# not refused then, even when that occurrence is the schedule's last and completes it; a snooze is
# refused `busy` until that late occurrence has run (it would leave the snoozed one beyond `count`)
LATE = timedelta(minutes=2)
LATE_MATRIX: dict[str, tuple[Kind, tuple[Change, ...]]] = {
    "last, late": (LAST, (RUN_NOW, TEXT, SKIP, SNOOZE, PAUSE, DELETE))
}


def matrix_ids() -> list[tuple[str, str, timedelta]]:
    """(kind, change tool and effect, arrival) of every deterministic test."""
    out = [(name, _change_id(c), ARRIVAL) for name, (_, changes) in MATRIX.items() for c in changes]
    out += [(name, _change_id(c), EARLY) for name, (_, changes) in EARLY_MATRIX.items() for c in changes]
    out += [(name, _change_id(c), LATE) for name, (_, changes) in LATE_MATRIX.items() for c in changes]
    return out


def _change_id(change: Change) -> str:
    return f"{change.tool}:{change.effect}:{','.join(f'{k}={v}' for k, v in change.args.items())}"


def lookup(kind_name: str, change_id: str) -> tuple[Kind, Change]:
    kind, changes = {**MATRIX, **LATE_MATRIX}[kind_name]
    return kind, next(c for c in changes if _change_id(c) == change_id)


def fault_for(n: int) -> Fault:
    """The n-th fault of a rotation through every mode and 1 to 3 failures."""
    return Fault(FAULT_MODES[n % len(FAULT_MODES)], 1 + (n // len(FAULT_MODES)) % 3)


# --- running cells -----------------------------------------------------------------------------


def judge(base: Stack, cell: Cell, work: Path) -> list[str]:
    """Play a cell and return its violations, each prefixed with the cell's label and what happened."""
    observation = play(base, cell, work)
    problems = verdict(observation)
    if not problems:
        return []
    answers = [f"{c.tool} -> {'ok' if a.ok else a.code} (seq {a.seq})" for c, a in observation.changes]
    context = "; ".join(answers + observation.notes)
    return [f"[{cell.label}] {problem}  ({context})" for problem in problems]


def boundaries(base: Stack, kind: Kind, arrival: timedelta, work: Path) -> list[int]:
    """BEFORE and every boundary of the kind's first attempt."""
    return [BEFORE, *range(len(boundary_labels(base, kind, arrival, work)))]


def tally(cells: int = 0, faults: int = 0, kills: int = 0, violations: int = 0) -> None:
    figures.add("interleavings", interleavings=cells, faults=faults, kills=kills, violations=violations)


def random_cells(seed: int, n: int, base: Stack, work: Path) -> list[Cell]:
    """`n` cells of two changes at random boundaries of one fire, with a random fault or none, the
    table's stream delivered in a random way."""
    rng = random.Random(seed)
    names = [name for name in MATRIX if "paused" not in name]
    out = []
    for _ in range(n):
        kind, changes = MATRIX[rng.choice(names)]
        arrival = rng.choice([ARRIVAL, ARRIVAL, EARLY])
        spots = boundaries(base, kind, arrival, work)
        picked = tuple(sorted(((rng.choice(changes), rng.choice(spots)) for _ in range(2)), key=lambda cb: cb[1]))
        roll = rng.random()
        fault = None if roll < 0.4 else fault_for(rng.randrange(12))
        out.append(Cell(kind, picked, fault, arrival, stream=rng.choice(MODES), seed=rng.randrange(10**6)))
    return out
