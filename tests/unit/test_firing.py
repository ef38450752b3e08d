"""What a fire does, decided without I/O from the schedule as read, the event, the time and the settings."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest

from cronbell.core.domain import firing, ledger_slots, models, runs, settlement
from cronbell.core.domain.fire_event import FireEvent
from cronbell.core.domain.firing import Limits
from cronbell.core.domain.models import Schedule
from cronbell.core.domain.ports import Outcome
from cronbell.core.domain.timing import Timing
from cronbell.core.language.recurring import parse_recurring

MADRID = ZoneInfo("Europe/Madrid")
SLOT = "2026-12-01T08:00:00Z"  # 09:00 in Madrid, a Tuesday
AT_SLOT = datetime(2026, 12, 1, 8, 0, tzinfo=UTC)


def daily(**fields: object) -> Schedule:
    timing = Timing.every(parse_recurring("0 9 * * *", 5, "en"), MADRID)
    base = Schedule(
        id="k3v9q2m8xa", room_id="!r:x", user_id="@u:x", agent_id="a", kind=models.MESSAGE, timing=timing,
        locale="en", created_at=datetime(2026, 11, 30, 8, tzinfo=UTC), text="stand-up",
    )  # fmt: skip
    return replace(base, **fields)  # type: ignore[arg-type]


def agent_call(**fields: object) -> Schedule:
    return daily(kind=models.AGENT_CALL, prompt="p", target_agent="echo", text="", **fields)


def event(slot: str = SLOT, **fields: object) -> FireEvent:
    return replace(FireEvent(room_id="!r:x", schedule_id="k3v9q2m8xa", slot=slot), **fields)  # type: ignore[arg-type]


def test_a_due_occurrence_is_delivered_and_the_decision_writes_nothing() -> None:
    decision = firing.decide(daily(), event(), AT_SLOT, Limits())
    assert isinstance(decision, firing.Deliver) and decision.failure is None and decision.late == 0
    assert decision.job.room_id == "!r:x" and decision.job.owner_room == "!r:x"


def test_no_schedule_waits_within_the_grace_then_is_an_orphan() -> None:
    assert isinstance(firing.decide(None, event(), AT_SLOT + timedelta(seconds=30), Limits()), firing.Wait)
    orphan = firing.decide(None, event(), AT_SLOT + timedelta(minutes=2), Limits())
    assert isinstance(orphan, firing.Orphan) and "k3v9q2m8xa" in orphan.names


@pytest.mark.parametrize("schedule_id", ["../k3v9q2m8xa", "a b", "x" * 58, "k3v9q2m8xa?"])
def test_an_orphan_whose_id_no_entry_could_have_names_no_entry(schedule_id: str) -> None:
    """Scheduler names an entry with letters, digits, `-`, `_` and `.` (64 at most, "-snooze" included):
    a forged id names no entry, so nothing is marked for removal."""
    orphan = firing.decide(None, event(schedule_id=schedule_id), AT_SLOT + timedelta(minutes=2), Limits())
    assert orphan == firing.Orphan(())


@pytest.mark.parametrize(
    ("schedule", "now", "expected"),
    [
        (daily(status=models.PAUSED), AT_SLOT, (runs.SKIPPED, runs.PAUSED, Outcome.PAUSED)),
        (daily(timing=daily().timing.skipping(AT_SLOT)), AT_SLOT, (runs.SKIPPED, runs.SKIP_NEXT, Outcome.SKIPPED)),
        (daily(), AT_SLOT + timedelta(minutes=61), (runs.MISSED, runs.TOO_LATE, Outcome.MISSED)),
    ],
    ids=["paused", "skipped", "too late"],
)
def test_undelivered_occurrences(schedule: Schedule, now: datetime, expected: tuple[str, str, Outcome]) -> None:
    decision = firing.decide(schedule, event(), now, Limits())
    assert isinstance(decision, firing.Undelivered)
    assert (decision.outcome, decision.reason, decision.answer) == expected


def test_the_last_undelivered_occurrence_completes_its_schedule_in_the_same_write() -> None:
    last = daily(timing=daily().timing.ends_with(datetime(2026, 12, 1, 9, 0, tzinfo=MADRID), 0, ""))
    skipped = replace(last, timing=last.timing.skipping(AT_SLOT))
    decision = firing.decide(skipped, event(), AT_SLOT, Limits())
    assert isinstance(decision, firing.Undelivered) and decision.completes


def test_a_fire_past_the_end_completes_and_a_retired_schedule_removes_its_entries() -> None:
    counted = daily(timing=daily().timing.ends_with(None, 2, ""), delivered_count=2)
    assert isinstance(firing.decide(counted, event(), AT_SLOT, Limits()), firing.Complete)
    retired = firing.decide(daily(status=models.FIRED), event(), AT_SLOT, Limits())
    assert isinstance(retired, firing.Retired) and retired.names == ("k3v9q2m8xa",)


def test_a_time_that_is_not_the_schedules_own_is_refused() -> None:
    decision = firing.decide(daily(), event("2026-12-01T08:30:00Z"), AT_SLOT + timedelta(minutes=30), Limits())
    assert decision == firing.Nothing(Outcome.INVALID_INPUT, decision.why)  # type: ignore[union-attr]


@pytest.mark.parametrize(
    ("schedule", "limits", "reason", "owner_only"),
    [
        (agent_call(channel="!news:x"), Limits(), runs.CHAT_REFUSED, True),
        (agent_call(), Limits(agents_configured=False), runs.AGENT_ERROR, False),
    ],
    ids=["output room no longer allowed", "no agents"],
)
def test_an_agent_call_that_cannot_run_is_delivered_as_a_failure(
    schedule: Schedule, limits: Limits, reason: str, owner_only: bool
) -> None:
    decision = firing.decide(schedule, event(), AT_SLOT, limits)
    assert isinstance(decision, firing.Deliver) and decision.failure is not None
    assert (decision.failure.reason, decision.failure.owner_only) == (reason, owner_only)


def test_a_failure_notice_goes_to_the_output_room_and_to_the_schedules_own_room() -> None:
    job = firing.stored_job(agent_call(channel="!news:x"), Limits())
    assert job.notice_rooms == [("!news:x", ""), ("!r:x", "")]
    assert firing.stored_job(agent_call(), Limits()).notice_rooms == [("!r:x", "")]


def test_settle_counts_the_streak_pauses_and_ends() -> None:
    failing = daily(failure_streak=4)
    paused = settlement.settle(failing, event(), runs.FAILED, runs.AGENT_ERROR, False, True, 5)
    assert (paused.final, paused.streak, paused.pause) == ("", 5, True)
    refused = settlement.settle(failing, event(), runs.FAILED, runs.CHAT_REFUSED, False, False, 5)
    assert (refused.streak, refused.pause) == (5, False)  # a refused post never pauses
    gone = settlement.settle(failing, event(), runs.FAILED, runs.CHAT_REFUSED, True, False, 5)
    assert gone.final == models.DELIVERY_FAILED and gone.remove_entries
    delivered = settlement.settle(failing, event(), runs.DELIVERED, None, False, True, 5)
    assert (delivered.final, delivered.streak) == ("", 0)
    counted = daily(timing=daily().timing.ends_with(None, 1, ""))
    assert settlement.settle(counted, event(), runs.DELIVERED, None, False, True, 5).final == models.COMPLETED
    manual = settlement.settle(counted, event(manual=True), runs.DELIVERED, None, False, True, 5)
    assert manual.final == ""  # a manual run is not counted


def test_a_failure_reaching_the_limit_on_the_last_occurrence_completes_without_a_pause() -> None:
    last = daily(failure_streak=4, timing=daily().timing.ends_with(datetime(2026, 12, 1, 9, 0, tzinfo=MADRID), 0, ""))
    ended = settlement.settle(last, event(), runs.FAILED, runs.AGENT_ERROR, False, True, 5)
    assert (ended.final, ended.streak, ended.pause, ended.remove_entries) == (models.COMPLETED, 5, False, True)
    told = settlement.failure_verdict(last, event(), 4, 5)
    assert (told.streak, told.notice, told.pause) == (5, None, False)  # no pause notice
    assert settlement.failure_verdict(last, event(), 0, 5).notice == "failing"
    assert settlement.failure_verdict(daily(), event(), 4, 5).notice == "paused"  # occurrences to come
    assert settlement.failure_verdict(last, event(manual=True), 4, 5).pause  # a manual run ends nothing


def test_a_manual_runs_ledger_slot_is_never_a_regular_occurrences() -> None:
    manual = ledger_slots.ledger_slot(SLOT, True)
    assert manual != ledger_slots.ledger_slot(SLOT, False) == SLOT
    assert ledger_slots.slot_time(manual) == (SLOT, True) and ledger_slots.slot_time(SLOT) == (SLOT, False)
    assert SLOT < manual < "2026-12-01T08:00:01Z"  # history keeps its order by time


def test_a_run_started_by_hand_takes_only_its_own_time_out_of_the_waiting_ones() -> None:
    later = "2026-12-01T08:05:00Z"
    waiting = daily(manual_waiting=frozenset({SLOT, later}))
    assert ledger_slots.waited_turn(waiting, ledger_slots.ledger_slot(SLOT, True)) == SLOT
    assert ledger_slots.waited_turn(waiting, ledger_slots.ledger_slot(later, True)) == later
    assert ledger_slots.waited_turn(waiting, SLOT) is None  # a regular occurrence at the same time waits for nothing
    assert ledger_slots.waited_turn(daily(), ledger_slots.ledger_slot(SLOT, True)) is None  # it started at once


def test_a_fire_past_the_end_of_a_paused_schedule_completes_it() -> None:
    ended = daily(status=models.PAUSED, timing=daily().timing.ends_with(AT_SLOT - timedelta(days=1), 0, ""))
    assert isinstance(firing.decide(ended, event(), AT_SLOT, Limits()), firing.Complete)
    counted = daily(status=models.PAUSED, timing=daily().timing.ends_with(None, 3, ""), delivered_count=3)
    assert isinstance(firing.decide(counted, event(), AT_SLOT, Limits()), firing.Complete)
    going = daily(status=models.PAUSED, timing=daily().timing.ends_with(None, 3, ""), delivered_count=2)
    assert isinstance(firing.decide(going, event(), AT_SLOT, Limits()), firing.Undelivered)


def test_a_manual_run_waiting_its_turn_is_the_schedules_own_though_a_later_one_was_recorded() -> None:
    later = "2026-11-30T08:05:01Z"
    waiting = daily(last_manual_run=later, manual_waiting=frozenset({SLOT, later}))
    assert isinstance(firing.decide(waiting, event(manual=True), AT_SLOT, Limits()), firing.Deliver)
    forged = daily(last_manual_run=later, manual_waiting=frozenset({later}))
    assert not isinstance(firing.decide(forged, event(manual=True), AT_SLOT, Limits()), firing.Deliver)


@pytest.mark.parametrize("status", models.RAN_OUT)
def test_a_manual_run_answered_before_its_schedule_ran_out_is_still_delivered(status: str) -> None:
    """run_now answered "started" (its slot recorded), then the schedule ended by its own runs: the
    manual fire still delivers its one run, and the run leaves the schedule as it ended. A manual
    slot run_now never recorded, a regular occurrence, or a deleted schedule deliver nothing."""
    ended = daily(status=status, last_manual_run=SLOT)
    decision = firing.decide(ended, event(manual=True), AT_SLOT, Limits())
    assert isinstance(decision, firing.Deliver) and decision.failure is None
    settled = settlement.settle(ended, event(manual=True), runs.FAILED, runs.CHAT_REFUSED, True, True, 1)
    assert settled == settlement.Settlement("", 1, False, False)
    forged = firing.decide(daily(status=status), event(manual=True), AT_SLOT, Limits())
    assert isinstance(forged, firing.Retired)
    assert isinstance(firing.decide(ended, event(), AT_SLOT, Limits()), firing.Retired)
    deleted = daily(status=models.DELETED, last_manual_run=SLOT)
    assert isinstance(firing.decide(deleted, event(manual=True), AT_SLOT, Limits()), firing.Retired)
