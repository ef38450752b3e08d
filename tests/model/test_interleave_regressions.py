"""Every distinct counterexample the interleaving explorer found, as the smallest cell that shows it.

Each test plays one cell (tests/support/interleave.py) and asserts the verdict of
tests/support/interleave_verdict.py: a change answered ok takes effect or, refused, changed nothing;
nothing is posted twice; every occurrence that reached the fire function has exactly one run.
Boundaries are counted from 0 among the fire's AWS calls: after its read (0), its claim (1), its chat
post (2) and its record (3).
"""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest

from tests.support.aws import Stack
from tests.support.interleave import ARRIVAL, Cell, Fault, boundary_labels, play
from tests.support.interleave_cells import (
    COUNT_1,
    COUNTED,
    EARLY,
    LAST,
    LATE,
    MOVE_ONCE,
    ONE_SHOT,
    PAUSE,
    RECURRING,
    RUN_NOW,
    SKIP,
    SNOOZE,
    TEXT,
    paused,
)
from tests.support.interleave_verdict import Observation, verdict

pytestmark = pytest.mark.slow
READ, CLAIM, POST, RECORD = range(4)


def judged(base: Stack, cell: Cell, work: Path) -> tuple[Observation, list[str]]:
    observation = play(base, cell, work)
    return observation, verdict(observation)


# --- C2: a change between the fire's read and its claim is answered ok, then lost ---------------


def test_a_new_text_answered_between_the_read_and_the_claim_is_the_text_posted(base: Stack, tmp_path: Path) -> None:
    """update_reminder {message} after the fire read the schedule: answered ok, yet the fire posts
    the text it read."""
    observation, problems = judged(base, Cell(RECURRING, ((TEXT, READ),)), tmp_path)
    assert observation.changes[0][1].ok
    assert not problems, problems
    assert "NEW-TEXT" in observation.posts[0].text


def test_a_one_shot_moved_between_the_read_and_the_claim_posts_at_its_new_time_only(
    base: Stack, tmp_path: Path
) -> None:
    """update_reminder {time, message} on a one-shot after its fire's read: answered ok, yet the old
    text is posted at the old time, the one-shot is retired as fired and its new time never fires."""
    observation, problems = judged(base, Cell(ONE_SHOT, ((MOVE_ONCE, READ),)), tmp_path)
    assert observation.changes[0][1].ok
    assert not problems, problems


def test_a_one_shot_snoozed_between_the_read_and_the_claim_posts_at_the_snoozed_time(
    base: Stack, tmp_path: Path
) -> None:
    """snooze_reminder on a one-shot after its fire's read: answered ok (10:30), yet it posts at
    10:00 and never again."""
    observation, problems = judged(base, Cell(ONE_SHOT, ((SNOOZE, READ),)), tmp_path)
    assert observation.changes[0][1].ok
    assert not problems, problems


def test_a_schedule_paused_between_the_read_and_the_claim_ends_the_occurrence_as_a_run(
    base: Stack, tmp_path: Path
) -> None:
    """pause_reminder after the fire's read: nothing is posted (right), but the claim finds the
    schedule paused and the fire ends `inactive` with no run for an occurrence that reached it."""
    _, problems = judged(base, Cell(RECURRING, ((PAUSE, READ),)), tmp_path)
    assert not problems, problems


def test_an_occurrence_skipped_between_an_early_fires_read_and_its_claim_is_not_posted(
    base: Stack, tmp_path: Path
) -> None:
    """A fire arriving 30 s early (Scheduler's window; the fire accepts up to a minute) reads the
    schedule; skip_next then skips that very occurrence and is answered ok; the fire posts it."""
    _, problems = judged(base, Cell(RECURRING, ((SKIP, READ),), arrival=EARLY), tmp_path)
    assert not problems, problems


# --- a refusal that changes something -----------------------------------------------------------


@pytest.mark.parametrize("change", [MOVE_ONCE, SNOOZE], ids=["update_reminder time", "snooze_reminder"])
def test_a_one_shot_change_refused_as_busy_leaves_its_entries_as_they_were(
    base: Stack, tmp_path: Path, change: object
) -> None:
    """While its delivery holds a one-shot (after the claim), moving or snoozing it is refused as
    busy, but the change first rewrites the Scheduler entry and then puts back the one-time entry
    Scheduler already deleted when it fired: an `at()` entry in the past is left behind."""
    observation, problems = judged(base, Cell(ONE_SHOT, ((change, CLAIM),)), tmp_path)  # type: ignore[arg-type]
    assert observation.changes[0][1].code == "busy"
    assert not problems, problems


# --- run_now during a one-shot's own delivery ---------------------------------------------------


def test_run_now_during_or_just_before_a_one_shots_delivery_is_refused_as_busy(base: Stack, tmp_path: Path) -> None:
    """run_now on a one-shot whose fire holds its claim was answered ok ("started"); by the time
    the manual fire ran the one-shot was fired, so it ended `inactive`: no post and no run. The
    one-shot is being posted right then, once: run_now is refused as busy and changes nothing, at
    every boundary before its record (after it, the one-shot is fired and run_now finds it so)."""
    for boundary in (-1, READ, CLAIM, POST):
        observation, problems = judged(base, Cell(ONE_SHOT, ((RUN_NOW, boundary),)), tmp_path)
        assert observation.changes[0][1].code == "busy", boundary
        assert not problems, problems
        assert [p.manual for p in observation.posts] == [False]


@pytest.mark.parametrize("fault", [None, Fault("timeout after write", 2), Fault("timeout", 2)])
@pytest.mark.parametrize("boundary", [-1, READ, CLAIM, POST])
def test_run_now_during_a_recurrences_last_delivery_is_refused_as_busy(
    base: Stack, tmp_path: Path, boundary: int, fault: Fault | None
) -> None:
    """`make verify`, seed 288459: `count` lowered to 1, then run_now while the occurrence that uses
    it is delivered (here after the post, its record then timing out twice). run_now was answered
    "started", the delivery completed the schedule, and the manual fire, waiting for the delivery,
    then found it completed: no post and no run. The occurrence due or under way is the schedule's
    last: run_now is refused busy and changes nothing, at every boundary before its record. (A count
    lowered in that minute is refused `busy` itself now: the schedule is made with `count` 1.)"""
    cell = Cell(LAST, ((RUN_NOW, boundary),), fault)
    observation, problems = judged(base, cell, tmp_path)
    assert observation.changes[0][1].code == "busy", observation.changes[0][1]
    assert not problems, problems
    assert [p.manual for p in observation.posts] == [False]


@pytest.mark.parametrize("change", [COUNT_1, SKIP], ids=["count lowered", "skip_next"])
@pytest.mark.parametrize("arrival", [ARRIVAL, LATE], ids=["in its minute", "two minutes late"])
def test_a_skip_or_count_that_leaves_the_due_occurrence_the_last_is_refused_busy(
    base: Stack, tmp_path: Path, change: object, arrival: timedelta
) -> None:
    """A count lowered to what is left, or skip_next, while the occurrence that uses the last run is due
    (or may still come late): it was answered with a next fire after that occurrence, which never came,
    as the due one was posted and completed the schedule. Refused `busy`, changing nothing: both
    occurrences of `count` 2 are posted (a skip waits for the last one, then finds nothing left)."""
    kind = COUNTED if change is COUNT_1 else LAST
    observation, problems = judged(base, Cell(kind, ((change, -1),), arrival=arrival), tmp_path)  # type: ignore[arg-type]
    assert observation.changes[0][1].code == "busy", observation.changes[0][1]
    assert not problems, problems
    assert len(observation.posts) == (2 if kind is COUNTED else 1)


# --- a fire that arrived early, then a change in the same minute --------------------------------


@pytest.mark.parametrize("change", [SKIP, SNOOZE], ids=["skip_next", "snooze_reminder"])
def test_a_change_after_an_early_delivery_targets_the_next_occurrence_not_the_delivered_one(
    base: Stack, tmp_path: Path, change: object
) -> None:
    """An occurrence delivered 30 s early, then skip_next (or snooze) before its time: cronbell
    takes the occurrence already posted as the next one. skip_next answers that it skipped 10:00,
    which was posted, and tomorrow's still comes; snooze posts 10:00's message again at 10:30."""
    _, problems = judged(base, Cell(RECURRING, ((change, RECORD),), arrival=EARLY), tmp_path)  # type: ignore[arg-type]
    assert not problems, problems


# --- faults -------------------------------------------------------------------------------------


@pytest.mark.parametrize("times", [1, 3])
def test_a_record_applied_but_timed_out_counts_the_delivery_once(base: Stack, tmp_path: Path, times: int) -> None:
    """The fire's record is applied but its answer times out. Three times: the fire then marks the
    slot sent (over the done slot) and raises, and Lambda's retry records the delivery again from
    the re-read schedule, which already counted it. Once: a fire that re-reads the schedule before
    recording again counts it twice the same way. Either way a `count 2` schedule completes after
    one delivery."""
    cell = Cell(COUNTED, (), Fault("timeout after write", times), fault_at=POST)
    observation, problems = judged(base, cell, tmp_path)
    assert not problems, problems
    assert len([p for p in observation.posts if not p.manual]) == 2


def test_a_record_that_meets_a_change_and_then_three_failures_is_still_recorded(base: Stack, tmp_path: Path) -> None:
    """`make verify`: an early fire claims today's 10:00, skip_next is refused `busy`, run_now waits
    behind the delivery (the item changes), and after the post three DynamoDB calls time out. The
    record met the change, and re-reading the schedule failed outside the record's tries: the
    attempt raised with neither a record nor a note, and every retry failed too, so 10:00 was posted
    with no run. A re-read now costs one of the record's tries like any other failure."""
    cell = Cell(COUNTED, ((SKIP, CLAIM), (RUN_NOW, POST)), Fault("timeout after write", 3), EARLY)
    observation, problems = judged(base, cell, tmp_path)
    assert [c[1].ok for c in observation.changes] == [False, True]
    assert not problems, problems


def test_a_run_waiting_behind_an_early_delivery_fires_in_the_minute_that_delivery_was_for(
    base: Stack, tmp_path: Path
) -> None:
    """`make verify`, seed 661244: run_now lands while an early fire (30 s before 10:00) holds the
    slot; the fire's record writes the waiting run's entry for 10:00, the minute the fire was for.
    Scheduler fires it then; the cells had played only fires after that minute, so the run looked lost."""
    cell = Cell(COUNTED, ((TEXT, CLAIM), (RUN_NOW, CLAIM)), None, EARLY)
    observation, problems = judged(base, cell, tmp_path)
    assert [c[1].ok for c in observation.changes] == [False, True]
    assert not problems, problems
    assert [p for p in observation.posts if p.manual]


def test_a_snoozed_away_occurrence_lost_to_the_dead_letter_queue_is_not_the_next_one(
    base: Stack, tmp_path: Path
) -> None:
    """`make verify`, seed 768144: tomorrow's 10:00 snoozed to 10:30, today's 10:00 delivered, then
    skip_next after its record, and tomorrow's 10:00 fire (a `skipped`/`snoozed` run) failing all
    of Lambda's attempts. skip_next rightly skipped 10:30, the next fire; the verdict took the
    snoozed-away 10:00, whose event went to the dead-letter queue, for a coming occurrence."""
    probe = Cell(COUNTED, ())
    recorded = boundary_labels(base, COUNTED, probe.arrival, tmp_path).index("post") + 1
    cell = Cell(COUNTED, ((SNOOZE, -1), (SKIP, recorded)), Fault("timeout", 3))
    observation, problems = judged(base, cell, tmp_path)
    assert [c[1].ok for c in observation.changes] == [True, True]
    assert not problems, problems


def test_a_paused_run_whose_record_fails_is_retried_until_recorded(base: Stack, tmp_path: Path) -> None:
    """A fire for a paused schedule records a `skipped`/`paused` run; when that write fails
    (throttled), the fire logs it and ends `paused` without raising, so Lambda never retries and
    the occurrence has no run."""
    cell = Cell(paused(RECURRING), (), Fault("throttling", 1), fault_at=READ)
    _, problems = judged(base, cell, tmp_path)
    assert not problems, problems


def test_the_cells_own_clock_starts_each_cell_afresh(base: Stack, tmp_path: Path) -> None:
    """Two cells in a row on one stack do not see each other (a room and a group each)."""
    first, _ = judged(base, Cell(RECURRING, ()), tmp_path)
    second, problems = judged(base, Cell(RECURRING, ()), tmp_path)
    assert not problems, problems
    assert [p.slot for p in first.posts] == [p.slot for p in second.posts]
    assert len(second.posts) == 3 and second.posts[0].at - second.posts[0].slot == timedelta(seconds=1)


# --- run_now answered, then a late attempt at the last occurrence completes the schedule ---------


@pytest.mark.parametrize("boundary", [-1, READ], ids=["before its read", "after its read"])
def test_run_now_answered_before_a_late_last_occurrence_completes_the_schedule_still_runs(
    base: Stack, tmp_path: Path, boundary: int
) -> None:
    """A recurrence's last occurrence (`count` 1) reaches the fire function two minutes late (a retry
    after a chat outage), so run_now, called just before that attempt claims it (or after its read),
    is not refused `busy` and is answered "started". That attempt delivers the occurrence and
    completes the schedule; the manual fire then found it completed and ended with no post and no
    run. The manual run is delivered: it was answered "started" before the end."""
    cell = Cell(LAST, ((RUN_NOW, boundary),), arrival=LATE)
    observation, problems = judged(base, cell, tmp_path)
    assert [answer.ok for _, answer in observation.changes] == [True], observation.changes
    assert not problems, problems
    assert sorted(p.manual for p in observation.posts) == [False, True]
    assert sorted((r.outcome, r.manual) for r in observation.runs) == [("delivered", False), ("delivered", True)]


@pytest.mark.parametrize("boundary", [-1, READ])
def test_a_snooze_before_a_late_last_occurrence_is_delivered_is_refused_as_busy(
    base: Stack, tmp_path: Path, boundary: int
) -> None:
    """A daily reminder with `count` 1 whose occurrence reaches the fire function two minutes late
    (a retry after a chat outage). A snooze just before that attempt claims it was answered ok for
    the next day's occurrence; the late delivery then used the one `count` run and completed the
    schedule, so the snoozed occurrence was never posted. While the last occurrence is still to be
    delivered, a snooze is refused busy and changes nothing; that occurrence is posted once."""
    observation, problems = judged(base, Cell(LAST, ((SNOOZE, boundary),), arrival=LATE), tmp_path)
    assert observation.changes[0][1].code == "busy", observation.changes[0][1]
    assert not problems, problems
    assert [p.manual for p in observation.posts] == [False]
