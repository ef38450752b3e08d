"""Runs of holidays in a row: an hourly schedule across Christmas and New Year, a count that holds
whatever the holidays in between, and "would never fire" only when no occurrence is left at all.

A fire decides with the timing alone (usecases/fire.py): a fire past the end completes the
schedule (`ended_by`), a holiday is a skipped run, and after each run the schedule is completed
when `finished_after` says nothing is left. `walk` below makes those decisions for every
occurrence of the expression in turn, as Scheduler would fire them."""

from __future__ import annotations

import time
from datetime import UTC, date, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest

from cronbell.core.contract import errors
from cronbell.core.domain import refusals
from cronbell.core.domain.cron.fires import anchored, next_fires
from cronbell.core.domain.refusals import ToolError
from cronbell.core.domain.timing import HORIZON_YEARS, Timing
from cronbell.core.language.recurring import parse_recurring
from cronbell.usecases.planning import check_ends

MADRID = ZoneInfo("Europe/Madrid")
NEW_YORK = ZoneInfo("America/New_York")


def every(
    expr: str, tz: ZoneInfo = MADRID, *, until: datetime | None = None, count: int = 0, calendar: str = ""
) -> Timing:
    return Timing.every(parse_recurring(expr, 5, "en"), tz).ends_with(until, count, calendar)


def walk(timing: Timing, start: datetime, limit: int = 5000) -> tuple[list[datetime], list[datetime], datetime | None]:
    """(delivered, skipped as holidays, the slot after which it completed) when every fire of the
    expression from `start` on reaches the fire path."""
    delivered: list[datetime] = []
    holidays: list[datetime] = []
    for slot in next_fires(timing.spec, start, timing.tz, limit):
        if timing.ended_by(slot, len(delivered)):
            return delivered, holidays, slot
        if timing.is_holiday(slot):
            holidays.append(slot)
        else:
            delivered.append(slot)
        if timing.finished_after(slot, len(delivered)):
            return delivered, holidays, slot
    return delivered, holidays, None


def test_an_hourly_count_of_100_across_christmas_completes_after_100_deliveries() -> None:
    # Catalonia keeps 25 and 26 December: 48 hourly occurrences in a row are holidays
    timing = every("0 * * * *", count=100, calendar="ES-CT")
    start = datetime(2026, 12, 24, 20, 30, tzinfo=MADRID)
    delivered, holidays, last = walk(timing, start)
    assert len(delivered) == 100
    assert len(holidays) == 48 and {h.date() for h in holidays} == {date(2026, 12, 25), date(2026, 12, 26)}
    # 3 on the 24th, 24 a day from the 27th to the 30th, and the 31st at 00:00
    assert last == delivered[-1] == datetime(2026, 12, 31, 0, 0, tzinfo=MADRID)
    assert not any(timing.finished_after(d, i + 1) for i, d in enumerate(delivered[:-1]))


def test_an_hourly_until_across_new_year_delivers_up_to_its_end() -> None:
    until = datetime(2027, 1, 2, 5, 59, 59, tzinfo=MADRID)
    timing = every("30 * * * *", until=until, calendar="ES")
    delivered, holidays, last = walk(timing, datetime(2026, 12, 31, 21, 0, tzinfo=MADRID))
    assert [d.hour for d in delivered] == [21, 22, 23, 0, 1, 2, 3, 4, 5]
    assert len(holidays) == 24 and last == delivered[-1]


@pytest.mark.parametrize(
    ("expr", "tz", "calendar", "now", "expected"),
    [
        # the eve of a run of holidays: the next fire is after them, not "none"
        ("0 * * * *", MADRID, "ES", datetime(2026, 12, 24, 23, 30, tzinfo=MADRID), datetime(2026, 12, 26, 0, 0)),
        ("0 * * * *", MADRID, "ES-CT", datetime(2026, 12, 24, 23, 30, tzinfo=MADRID), datetime(2026, 12, 27, 0, 0)),
        ("*/5 * * * *", MADRID, "ES", datetime(2026, 12, 31, 23, 58, tzinfo=MADRID), datetime(2027, 1, 2, 0, 0)),
        ("0 10 * * *", MADRID, "ES", datetime(2026, 12, 24, 12, 0, tzinfo=MADRID), datetime(2026, 12, 26, 10, 0)),
        ("0 10 * * *", MADRID, "ES", datetime(2026, 12, 31, 12, 0, tzinfo=MADRID), datetime(2027, 1, 2, 10, 0)),
        ("0 * * * *", NEW_YORK, "US", datetime(2026, 12, 24, 23, 30, tzinfo=NEW_YORK), datetime(2026, 12, 26, 0, 0)),
        # Christmas on a Friday with a weekday schedule: Monday 28th is the next occurrence
        ("0 9 * * 1-5", NEW_YORK, "US", datetime(2026, 12, 24, 10, 0, tzinfo=NEW_YORK), datetime(2026, 12, 28, 9, 0)),
    ],
)
def test_the_next_fire_of_a_holiday_eve_lies_past_the_holidays(
    expr: str, tz: ZoneInfo, calendar: str, now: datetime, expected: datetime
) -> None:
    for timing in (every(expr, tz, calendar=calendar), every(expr, tz, calendar=calendar, count=100)):
        (first,) = timing.upcoming(now, 1)
        assert first == expected.replace(tzinfo=tz)
        assert not timing.finished_after(now, 0)
    check_ends(every(expr, tz, calendar=calendar, count=3), now, "en")  # no "would never fire"


def test_previews_list_as_many_fires_as_asked_after_a_run_of_holidays() -> None:
    timing = every("*/15 * * * *", calendar="ES-CT")
    fires = timing.upcoming(datetime(2026, 12, 24, 23, 50, tzinfo=MADRID), 5)
    assert [(f.day, f.hour, f.minute) for f in fires] == [(27, 0, 0), (27, 0, 15), (27, 0, 30), (27, 0, 45), (27, 1, 0)]


def test_a_schedule_whose_every_occurrence_is_a_holiday_never_fires() -> None:
    christmas = every("0 9 25 12 *", NEW_YORK, calendar="US", count=3)  # a holiday every year there
    now = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)
    started = time.perf_counter()
    assert christmas.upcoming(now, 1) == []
    assert time.perf_counter() - started < 2  # HORIZON_YEARS Christmases looked at, a date each
    assert christmas.finished_after(now, 0)
    with pytest.raises(ToolError) as never:
        check_ends(christmas, now, "en")
    assert never.value.code == refusals.INVALID_ARGUMENTS and "never fire" in errors.message(never.value)
    assert f"{HORIZON_YEARS} years" in errors.message(never.value)
    assert f"próximos {HORIZON_YEARS} años" in errors.message(never.value, "es")
    # the same day and a Christmas Eve: it fires every year
    assert every("0 9 24 12 *", NEW_YORK, calendar="US").upcoming(now, 1) == [
        datetime(2026, 12, 24, 9, 0, tzinfo=NEW_YORK)
    ]
    # Spain's list moves Christmas on a Sunday to the regions (2033): the calendar's own dates decide
    assert every("0 9 25 12 *", calendar="ES").upcoming(now, 1) == [datetime(2033, 12, 25, 9, 0, tzinfo=MADRID)]


def test_an_until_that_only_holidays_precede_is_refused_and_one_past_them_is_not() -> None:
    now = datetime(2026, 12, 24, 23, 30, tzinfo=MADRID)
    short = every("0 * * * *", calendar="ES-CT", until=datetime(2026, 12, 26, 23, 59, 59, tzinfo=MADRID))
    assert short.upcoming(now, 1) == [] and short.finished_after(now, 0)
    with pytest.raises(ToolError):
        check_ends(short, now, "en")
    longer = every("0 * * * *", calendar="ES-CT", until=datetime(2026, 12, 27, 0, 0, tzinfo=MADRID))
    assert longer.upcoming(now, 5) == [datetime(2026, 12, 27, 0, 0, tzinfo=MADRID)]
    check_ends(longer, now, "en")


def test_the_horizon_is_long_enough_for_the_rarest_expression() -> None:
    # 29 February: no leap day between 2096 and 2104
    leap = every("0 9 29 2 *", count=2)
    (first,) = leap.upcoming(datetime(2096, 3, 1, tzinfo=UTC), 1)
    assert first.date() == date(2104, 2, 29)
    assert HORIZON_YEARS > 8


def test_a_snooze_onto_a_holiday_past_a_run_of_them_is_kept_and_counted() -> None:
    timing = every("0 * * * *", calendar="ES", count=2)
    now = datetime(2026, 12, 24, 22, 30, tzinfo=MADRID)
    eleven = datetime(2026, 12, 24, 23, 0, tzinfo=MADRID)
    snoozed = timing.snoozed(eleven, datetime(2026, 12, 25, 12, 0, tzinfo=MADRID), now)
    assert snoozed.upcoming(now, 5) == [
        datetime(2026, 12, 25, 12, 0, tzinfo=MADRID),
        datetime(2026, 12, 26, 0, 0, tzinfo=MADRID),
    ]
    # a snooze onto a regular occurrence's own instant is one fire
    onto = timing.snoozed(eleven, datetime(2026, 12, 26, 0, 0, tzinfo=MADRID), now)
    assert onto.upcoming(now, 2) == [
        datetime(2026, 12, 26, 0, 0, tzinfo=MADRID),
        datetime(2026, 12, 26, 1, 0, tzinfo=MADRID),
    ]


def test_a_weekly_schedule_in_a_year_of_holidays_on_its_day() -> None:
    # every 2 weeks on Friday, in New York: Christmas and New Year's Day 2027 are both Fridays
    spec = parse_recurring("every 2 weeks on friday at 9", 5, "en")
    timing = Timing.every(anchored(spec, datetime(2026, 12, 20, tzinfo=UTC), NEW_YORK), NEW_YORK)
    timing = timing.ends_with(None, 3, "US")
    fires = timing.upcoming(datetime(2026, 12, 20, tzinfo=UTC), 5)
    assert [f.date() for f in fires] == [date(2027, 1, 8), date(2027, 1, 22), date(2027, 2, 5)]
    assert fires[0] - timedelta(weeks=2) == datetime(2026, 12, 25, 9, 0, tzinfo=NEW_YORK)
