"""Business days in the pure core: the occurrences `core/domain/business.py` places agree with the reference
model's brute-force reading (tests/model/reference.py) over two years of public holidays, DST changes
and year ends; the fire side tells occurrences, moved ones and days off apart; the phrases."""

from __future__ import annotations

import itertools
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest

from cronbell.core.domain.cron.fires import anchored
from cronbell.core.domain.refusals import ToolError
from cronbell.core.domain.timing import Timing
from cronbell.core.language.business_phrases import read_phrase
from cronbell.core.language.clocks import normalize
from cronbell.core.language.recurring import parse_recurring
from tests.model.reference import Room, Schedule

START = datetime(2026, 11, 20, 8, tzinfo=UTC)
DAYS = 500
MADRID = ZoneInfo("Europe/Madrid")

CASES = [
    (cron, nth, flags)
    for cron, nth in [
        ("0 9 * * 1-5", 0),
        ("0 10 * * *", 0),
        ("30 2 * * *", 0),
        ("0 9 15 * *", 0),
        ("0 12 24,31 12 *", 0),
        ("0 10 * * 4,5", 0),
        ("0 9 * * *", 1),
        ("0 17 * * *", -1),
        ("0 9 * * *", 23),
    ]
    for flags in itertools.product([False, True], ["skip", "before", "after"])
]


def timing(cron: str, zone: str, calendar: str, business_days: bool, nth: int, on_holiday: str) -> Timing:
    base = Timing.every(parse_recurring(cron, 5), ZoneInfo(zone)).ends_with(None, 0, calendar)
    return replace(base, business_days=business_days and not nth, business_day=nth, on_holiday=on_holiday)


@pytest.mark.parametrize(("cron", "nth", "flags"), CASES)
@pytest.mark.parametrize(("calendar", "zone"), [("ES", "Europe/Madrid"), ("US", "America/New_York"), ("GB", "UTC")])
def test_the_core_places_occurrences_as_the_model_does(
    cron: str, nth: int, flags: tuple[bool, str], calendar: str, zone: str
) -> None:
    business_days, on_holiday = flags
    t = timing(cron, zone, calendar, business_days, nth, on_holiday)
    end = START + timedelta(days=DAYS)
    got = [x.astimezone(UTC) for x in t.upcoming(START, 60) if x <= end]
    model = Schedule("x", "message", zone, cron=cron, calendar=calendar, on_holiday=on_holiday)
    model.business_days, model.business_day = business_days and not nth, nth
    room = Room(now=START)
    want = room.upcoming(model, limit=60, horizon_days=DAYS)
    assert got == want[: len(got)] and len(got) == min(60, len(want))
    for at in got[:12]:  # and the fire side reads each one back as the model does
        assert t.moved_from(at) == room.moved_from(model, at)
        assert t.fires_at(at) and not t.off_interval(at)


@pytest.mark.parametrize(
    ("cron", "nth", "flags"), [c for c in CASES if c[2][1] != "skip"] + [("0 9 * * 1", 0, (False, "after"))]
)
def test_the_entries_reach_every_occurrence_and_one_instant_once_where_the_days_allow(
    cron: str, nth: int, flags: tuple[bool, str]
) -> None:
    """Two entries firing one instant invoke the fire function twice for one slot: the second meets the
    first's claim and fails so that Lambda retries it, a function error (and FireErrorsAlarm) on every
    such day. The extra entry of moved occurrences fired every weekday beside the expression's own, also
    on the days the own one fires. Now it fires only on the weekdays the own one leaves out, where the
    expression picks days of the week; days of the month may still meet it a few days a year."""
    from sandbox.expressions import ScheduleTiming, next_fire

    t = timing(cron, "Europe/Madrid", "ES", flags[0], nth, flags[1])
    end = START + timedelta(days=120)
    fires: list[datetime] = []
    for expression in t.expressions:
        entry, at = ScheduleTiming(expression, "Europe/Madrid"), START
        while (at := next_fire(entry, at)) is not None and at <= end:  # type: ignore[assignment]
            fires.append(at)
    reached = set(fires)
    for occurrence in t.upcoming(START, 200):
        if occurrence.astimezone(UTC) <= end:
            assert occurrence.astimezone(UTC) in reached, occurrence
    fields = cron.split()
    if fields[2] == "*" and fields[3] == "*" and not nth:  # days of the week only: never one instant twice
        assert len(fires) == len(reached), t.expressions


def test_christmas_moves_before_and_after_and_the_original_time_fires_nothing() -> None:
    before = timing("0 9 25 12 *", "Europe/Madrid", "ES", False, 0, "before")
    after = replace(before, on_holiday="after")
    christmas = datetime(2026, 12, 25, 9, tzinfo=MADRID)
    assert before.upcoming(START, 1) == [datetime(2026, 12, 24, 9, tzinfo=MADRID)]
    assert after.upcoming(START, 1) == [datetime(2026, 12, 28, 9, tzinfo=MADRID)]  # Friday, then a weekend
    assert before.moved_from(datetime(2026, 12, 24, 9, tzinfo=MADRID)) == christmas
    assert before.off_interval(christmas) and not before.fires_at(christmas)
    assert before.off_interval(datetime(2026, 12, 23, 9, tzinfo=MADRID))  # the weekday entry, nothing moved there
    assert before.expressions == ("cron(0 9 25 12 ? *)", "cron(0 9 ? * 2-6 *)")
    skipped = replace(before, on_holiday="skip")
    assert skipped.upcoming(START, 1)[0].year > 2026  # skipped, not moved
    assert skipped.is_holiday(christmas) and skipped.expressions == ("cron(0 9 25 12 ? *)",)


def test_first_and_last_business_days_of_months_that_start_or_end_on_a_day_off() -> None:
    first = timing("0 9 * * *", "Europe/Madrid", "ES", True, 1, "skip")
    last = replace(first, business_day=-1)
    starts = [t.date().isoformat() for t in first.upcoming(START, 4)]
    ends = [t.date().isoformat() for t in last.upcoming(START, 4)]
    # 1 January 2027 is a holiday (a Friday), then a weekend; 1 May 2027 is a Saturday
    assert starts == ["2026-12-01", "2027-01-04", "2027-02-01", "2027-03-01"]
    # 31 January 2027 is a Sunday, 28 February too
    assert ends == ["2026-11-30", "2026-12-31", "2027-01-29", "2027-02-26"]
    assert first.expressions == ("cron(0 9 ? * 2-6 *)",)


@pytest.mark.parametrize(
    ("words", "reading"),
    [
        ("every business day at 9", ("every business day at 9", 0)),  # read as weekdays, on business days
        ("Every working day at 8:30am", ("every working day at 8:30am", 0)),
        ("business days at 9", ("business days at 9", 0)),  # said without "every", as "weekdays at 9"
        ("every 30 minutes on working days", ("every 30 minutes on working days", 0)),
        ("the last business day of the month at 17:00", ("every day at 17:00", -1)),
        ("the 3rd business day of every month at 9", ("every day at 9", 3)),
        ("the first weekday of every month at 9", ("every day at 9", 1)),  # with its calendar's holidays too
        ("cada día laborable a las 9", ("cada dia laborable a las 9", 0)),
        ("todos los días hábiles a las 9", ("todos los dias habiles a las 9", 0)),
        ("días hábiles a las 9", ("dias habiles a las 9", 0)),
        ("el último día hábil del mes a las 17:00", ("todos los dias a las 17:00", -1)),
        ("el tercer día hábil del mes a las 9", ("todos los dias a las 9", 3)),
        ("el primer día hábil de cada mes a las 8", ("todos los dias a las 8", 1)),
    ],
)
def test_phrases(words: str, reading: tuple[str, int]) -> None:
    assert read_phrase(normalize(words)) == reading
    parse_recurring(reading[0], 5)  # the phrase it stands on is one the grammar reads


@pytest.mark.parametrize("words", ["el tercer día hábil del mes", "the 3rd business day", "every business hour at 9"])
def test_a_place_without_a_time_or_no_business_day_is_not_read(words: str) -> None:
    assert read_phrase(normalize(words)) is None


@pytest.mark.parametrize("words", ["every business day", "días hábiles"])
def test_business_days_without_a_time_are_refused_as_any_days_without_one_are(words: str) -> None:
    found = read_phrase(normalize(words))
    assert found is not None
    with pytest.raises(ToolError) as refused:
        parse_recurring(found[0], 5)
    assert refused.value.code == "invalid_cron"


@pytest.mark.parametrize("on_holiday", ["skip", "before", "after"])
@pytest.mark.parametrize("until_days", [5, 36, 40])
def test_until_bounds_moved_occurrences_as_the_model_does(on_holiday: str, until_days: int) -> None:
    until = datetime(2026, 12, 20, 8, tzinfo=UTC) + timedelta(days=until_days)  # across Christmas and New Year
    for cron in ("0 9 25 12 *", "0 9 1 * *", "0 10 * * *"):
        t = replace(timing(cron, "Europe/Madrid", "ES", cron == "0 10 * * *", 0, on_holiday), until=until)
        model = Schedule("x", "message", "Europe/Madrid", cron=cron, calendar="ES", on_holiday=on_holiday, until=until)
        model.business_days = cron == "0 10 * * *"
        got = [x.astimezone(UTC) for x in t.upcoming(START, 100)]
        assert got == Room(now=START).upcoming(model, limit=100), (cron, on_holiday, until)
        assert all(x <= until for x in got)


@pytest.mark.parametrize("on_holiday", ["before", "after"])
def test_every_other_week_moves_as_the_model_does(on_holiday: str) -> None:
    spec = anchored(parse_recurring("every other thursday at 10", 5), START, MADRID)
    t = replace(Timing.every(spec, MADRID).ends_with(None, 0, "ES"), on_holiday=on_holiday)
    model = Schedule("x", "message", "Europe/Madrid", cron="0 10 * * 4", calendar="ES", on_holiday=on_holiday)
    model.every, model.unit = 2, "weeks"
    room = Room(now=START)
    room.created(model)
    end = START + timedelta(days=DAYS)
    got = [x.astimezone(UTC) for x in t.upcoming(START, 40) if x <= end]
    assert got == room.upcoming(model, limit=40, horizon_days=DAYS)[: len(got)]
    assert any(room.moved_from(model, x) for x in got)  # some Thursday holiday moved
    for at in got:
        assert t.moved_from(at) == room.moved_from(model, at)


def test_count_counts_moved_runs_and_the_count_left_bounds_the_preview() -> None:
    t = replace(timing("0 9 25 12 *", "Europe/Madrid", "ES", False, 0, "after"), count=2)
    assert len(t.upcoming(START, 5)) == 2
    assert t.upcoming(START, 5, delivered=1) == [datetime(2026, 12, 28, 9, tzinfo=MADRID)]
    assert t.finished_after(datetime(2026, 12, 28, 9, tzinfo=MADRID), 2)
