"""An occurrence that has a run is never run again: the watermark of the original times run, read
without I/O by the timing, the schedule, the views and the fire's decision (docs/semantics.md,
"Business days"). Friday 25 December 2026 is a holiday in Spain."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime
from typing import Any
from zoneinfo import ZoneInfo

from cronbell.core.domain import business, firing, models
from cronbell.core.domain.business import Occurrence
from cronbell.core.domain.fire_event import FireEvent
from cronbell.core.domain.firing import Limits
from cronbell.core.domain.models import Schedule
from cronbell.core.domain.ports import Outcome
from cronbell.core.domain.runs import Run
from cronbell.core.domain.timing import Timing
from cronbell.core.domain.upcoming import ran_already, upcoming
from cronbell.core.language.recurring import parse_recurring

MADRID = ZoneInfo("Europe/Madrid")
XMAS = datetime(2026, 12, 25, 9, tzinfo=MADRID)
EVE = datetime(2026, 12, 24, 9, tzinfo=MADRID)
MONDAY = datetime(2026, 12, 28, 9, tzinfo=MADRID)  # the next business day after Christmas


def yearly(on_holiday: str, **fields: Any) -> Schedule:
    timing = Timing.every(parse_recurring("0 9 25 12 *", 5, "en"), MADRID)
    timing = replace(timing, calendar="ES", on_holiday=on_holiday)
    base = Schedule(
        id="k3v9q2m8xa", room_id="!r:x", user_id="@u:x", agent_id="a", kind=models.MESSAGE, timing=timing,
        locale="en", created_at=datetime(2026, 11, 30, 8, tzinfo=UTC), text="pay",
    )  # fmt: skip
    return replace(base, **fields)


def ran_on_the_eve(on_holiday: str, manual: bool = False) -> Schedule:
    """Delivered on the 24th as the 25th's occurrence (`before`), then set to `on_holiday`."""
    run = Run(EVE.isoformat(), "delivered", manual=manual, moved_from=None if manual else XMAS.isoformat())
    return yearly(on_holiday, last_run=run.to_dict(), delivered_count=0 if manual else 1)


def fire(slot: datetime) -> FireEvent:
    return FireEvent(room_id="!r:x", schedule_id="k3v9q2m8xa", slot=slot.astimezone(UTC).isoformat())


def test_an_occurrence_is_done_by_its_original_time() -> None:
    moved = Occurrence(MONDAY, moved_from=XMAS)
    assert moved.original == XMAS and Occurrence(EVE).original == EVE
    assert moved.done(XMAS) and moved.done(XMAS.astimezone(UTC)) and not moved.done(EVE)
    assert not moved.done(None)


def test_the_watermark_is_the_original_time_of_the_last_regular_run() -> None:
    assert yearly(business.AFTER).done_through == yearly(business.AFTER).created_at  # none run: its making
    assert yearly(business.SKIP).done_through is None  # nothing moves: no occurrence needs looking for
    assert ran_on_the_eve(business.AFTER).done_through == XMAS
    assert ran_on_the_eve(business.AFTER).last_regular() == EVE
    plain = yearly(business.AFTER, last_run=Run(EVE.isoformat(), "delivered").to_dict())
    assert plain.done_through == EVE  # no move: its own time
    assert ran_on_the_eve(business.AFTER, manual=True).done_through == yearly(business.AFTER).created_at


def test_an_occurrence_moved_past_its_run_is_no_coming_one() -> None:
    now = datetime(2026, 12, 24, 10, tzinfo=MADRID)
    after = ran_on_the_eve(business.AFTER)
    assert after.timing.upcoming(now, 1) == [MONDAY]  # without the watermark: it would run again
    assert upcoming(after, now, 1)[0].year == 2027
    assert ran_on_the_eve(business.SKIP).timing.ran_already(XMAS, XMAS)  # a holiday that stays: no second run
    assert after.timing.ran_already(MONDAY, XMAS) and ran_already(after, MONDAY, now)
    assert not after.timing.ran_already(MONDAY, EVE) and not after.timing.ran_already(MONDAY, None)
    next_year = datetime(2027, 12, 27, 9, tzinfo=MADRID)  # 25 Dec 2027 (a Saturday) moved `after`
    assert upcoming(after, now, 1) == [next_year] and not ran_already(after, next_year, now)
    assert not after.timing.ran_already(datetime(2027, 12, 24, 9, tzinfo=MADRID), XMAS)  # no occurrence there


def test_a_snoozed_fire_at_a_done_occurrences_time_is_no_done_occurrence() -> None:
    schedule = ran_on_the_eve(business.AFTER)
    snoozed = replace(schedule.timing, snoozes=(MONDAY,))
    assert not snoozed.ran_already(MONDAY, XMAS)


def test_the_fire_of_an_occurrence_moved_past_its_run_posts_nothing_and_records_nothing() -> None:
    at = MONDAY.astimezone(UTC)
    for status in (models.ACTIVE, models.PAUSED):
        decision = firing.decide(replace(ran_on_the_eve(business.AFTER), status=status), fire(MONDAY), at, Limits())
        assert isinstance(decision, firing.Nothing) and decision.outcome == Outcome.OFF_INTERVAL
    skipped = firing.decide(ran_on_the_eve(business.SKIP), fire(XMAS), XMAS.astimezone(UTC), Limits())
    assert isinstance(skipped, firing.Nothing) and skipped.outcome == Outcome.OFF_INTERVAL


def test_a_retry_of_the_last_runs_own_slot_and_a_manual_run_are_the_ledgers() -> None:
    schedule = ran_on_the_eve(business.BEFORE)
    assert not firing.ran_already(schedule, fire(EVE))  # the ledger answers it as a duplicate
    assert isinstance(firing.decide(schedule, fire(EVE), EVE.astimezone(UTC), Limits()), firing.Deliver)
    manual = replace(fire(MONDAY), manual=True)
    assert not firing.ran_already(ran_on_the_eve(business.AFTER), manual)
    assert not firing.ran_already(ran_on_the_eve(business.AFTER, manual=True), fire(MONDAY))


def test_an_occurrence_from_before_the_schedule_was_made_is_never_moved_into_its_life() -> None:
    """Made on Sunday 27 December, 'every 25 December at 9, after a holiday' has nothing to post on Monday
    28th: the 25th it would move there was before the schedule existed. Its first run is next year's."""
    made = yearly(business.AFTER, created_at=datetime(2026, 12, 27, 12, tzinfo=MADRID).astimezone(UTC))
    now = made.created_at
    assert upcoming(made, now, 1) == [datetime(2027, 12, 27, 9, tzinfo=MADRID)]  # 25 Dec 2027, a Saturday
    assert ran_already(made, MONDAY, now) and firing.ran_already(made, fire(MONDAY))
    older = yearly(business.AFTER)  # made on 30 November: the 25th is its own, moved to Monday 28th
    assert upcoming(older, now, 1) == [MONDAY] and not firing.ran_already(older, fire(MONDAY))
