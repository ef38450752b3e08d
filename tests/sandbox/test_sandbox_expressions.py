"""When the sandbox's scheduler fires a schedule: at(), cron() and rate() in a time zone, DST, start/end."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest

from sandbox.expressions import (
    ExpressionError,
    ScheduleTiming,
    fires_between,
    local_to_utc,
    next_fire,
    validate,
)
from tests.support.cron_oracle import cron_fires

MADRID = ZoneInfo("Europe/Madrid")


def utc(text: str) -> datetime:
    return datetime.fromisoformat(text).replace(tzinfo=UTC)


# ------------------------------------------------------------------------------------------ at()


def test_at_is_local_wall_time_in_the_schedule_zone() -> None:
    timing = ScheduleTiming("at(2027-01-15T09:30:00)", "Europe/Madrid")
    assert next_fire(timing, utc("2027-01-01T00:00:00")) == utc("2027-01-15T08:30:00")  # CET = UTC+1
    summer = ScheduleTiming("at(2027-07-15T09:30:00)", "Europe/Madrid")
    assert next_fire(summer, utc("2027-01-01T00:00:00")) == utc("2027-07-15T07:30:00")  # CEST = UTC+2


def test_at_fires_once_and_never_again() -> None:
    timing = ScheduleTiming("at(2027-01-15T09:30:00)")
    when = utc("2027-01-15T09:30:00")
    assert next_fire(timing, when - timedelta(seconds=1)) == when
    assert next_fire(timing, when) is None
    assert fires_between(timing, utc("2027-01-01T00:00:00"), utc("2028-01-01T00:00:00")) == [when]


def test_at_ignores_start_and_end_dates() -> None:
    timing = ScheduleTiming("at(2027-01-15T09:30:00)", start=utc("2027-02-01T00:00:00"), end=utc("2027-01-02T00:00:00"))
    assert next_fire(timing, utc("2027-01-01T00:00:00")) == utc("2027-01-15T09:30:00")


# ------------------------------------------------------------------------------------------ cron()


def test_weekly_cron_fires_on_mondays_at_ten_local() -> None:
    timing = ScheduleTiming("cron(0 10 ? * MON *)", "Europe/Madrid")
    fires = fires_between(timing, utc("2027-01-01T00:00:00"), utc("2027-01-31T23:59:00"))
    assert fires == [utc(f"2027-01-{day:02d}T09:00:00") for day in (4, 11, 18, 25)]
    assert all(f.astimezone(MADRID).weekday() == 0 for f in fires)


def test_numbered_weekday_two_is_monday_as_in_eventbridge() -> None:
    timing = ScheduleTiming("cron(0 10 ? * 2 *)", "UTC")
    assert next_fire(timing, utc("2027-01-01T00:00:00")) == utc("2027-01-04T10:00:00")


def test_daily_cron_keeps_local_time_across_spring_forward() -> None:
    # Europe/Madrid moves from UTC+1 to UTC+2 on Sunday 2027-03-28 at 02:00 local.
    timing = ScheduleTiming("cron(0 9 * * ? *)", "Europe/Madrid")
    fires = fires_between(timing, utc("2027-03-26T12:00:00"), utc("2027-03-30T12:00:00"))
    assert fires == [
        utc("2027-03-27T08:00:00"),
        utc("2027-03-28T07:00:00"),
        utc("2027-03-29T07:00:00"),
        utc("2027-03-30T07:00:00"),
    ]


def test_nonexistent_local_time_is_skipped_that_day() -> None:
    timing = ScheduleTiming("cron(30 2 * * ? *)", "Europe/Madrid")
    fires = fires_between(timing, utc("2027-03-26T12:00:00"), utc("2027-03-30T12:00:00"))
    # 27th (CET), no 28th (02:30 does not exist), 29th and 30th (CEST)
    assert fires == [utc("2027-03-27T01:30:00"), utc("2027-03-29T00:30:00"), utc("2027-03-30T00:30:00")]


def test_repeated_local_time_fires_once_on_fall_back() -> None:
    # 2027-10-31: 03:00 CEST becomes 02:00 CET, so 02:30 happens twice.
    timing = ScheduleTiming("cron(30 2 * * ? *)", "Europe/Madrid")
    fires = fires_between(timing, utc("2027-10-29T12:00:00"), utc("2027-11-02T12:00:00"))
    assert fires == [
        utc("2027-10-30T00:30:00"),
        utc("2027-10-31T00:30:00"),  # the first 02:30, still CEST
        utc("2027-11-01T01:30:00"),
        utc("2027-11-02T01:30:00"),
    ]


def test_every_quarter_hour_through_fall_back_never_repeats_a_wall_time() -> None:
    timing = ScheduleTiming("cron(0/15 * * * ? *)", "Europe/Madrid")
    fires = fires_between(timing, utc("2027-10-30T23:50:00"), utc("2027-10-31T03:10:00"))
    walls = [f.astimezone(MADRID).strftime("%H:%M") for f in fires]
    assert len(walls) == len(set(walls))
    assert fires == sorted(fires)
    assert "02:30" in walls


def test_local_to_utc_names_gaps_and_takes_the_first_of_a_fold() -> None:
    assert local_to_utc(datetime(2027, 3, 28, 2, 30), MADRID) is None
    assert local_to_utc(datetime(2027, 10, 31, 2, 30), MADRID) == utc("2027-10-31T00:30:00")


def test_cron_respects_start_and_end_dates() -> None:
    timing = ScheduleTiming(
        "cron(0 12 * * ? *)", "UTC", start=utc("2027-05-03T00:00:00"), end=utc("2027-05-05T12:00:00")
    )
    fires = fires_between(timing, utc("2027-05-01T00:00:00"), utc("2027-05-31T00:00:00"))
    assert fires == [utc("2027-05-03T12:00:00"), utc("2027-05-04T12:00:00"), utc("2027-05-05T12:00:00")]


def test_cron_with_a_year_stops_after_it() -> None:
    timing = ScheduleTiming("cron(0 12 1 1 ? 2027)", "UTC")
    assert next_fire(timing, utc("2026-06-01T00:00:00")) == utc("2027-01-01T12:00:00")
    assert next_fire(timing, utc("2027-01-01T12:00:00")) is None


# ------------------------------------------------------------------------------------------ rate()


def test_rate_counts_from_its_anchor() -> None:
    anchor = utc("2027-01-01T10:00:00")
    timing = ScheduleTiming("rate(15 minutes)", anchor=anchor)
    fires = fires_between(timing, anchor, utc("2027-01-01T11:00:00"))
    assert fires == [anchor + timedelta(minutes=15 * k) for k in range(1, 5)]


def test_rate_with_a_start_date_fires_from_the_start_and_stops_at_the_end() -> None:
    timing = ScheduleTiming(
        "rate(1 day)",
        start=utc("2027-01-10T06:00:00"),
        end=utc("2027-01-12T06:00:00"),
        anchor=utc("2027-01-01T00:00:00"),
    )
    fires = fires_between(timing, utc("2027-01-01T00:00:00"), utc("2027-02-01T00:00:00"))
    assert fires == [utc("2027-01-10T06:00:00"), utc("2027-01-11T06:00:00"), utc("2027-01-12T06:00:00")]


def test_rate_hours_singular_and_plural() -> None:
    anchor = utc("2027-01-01T00:00:00")
    assert next_fire(ScheduleTiming("rate(1 hour)", anchor=anchor), anchor) == utc("2027-01-01T01:00:00")
    assert next_fire(ScheduleTiming("rate(2 hours)", anchor=anchor), anchor) == utc("2027-01-01T02:00:00")


# ------------------------------------------------------------------------------------------ refusals


@pytest.mark.parametrize(
    ("expression", "zone"),
    [
        ("cron(hello)", "UTC"),
        ("cron(0 10 * * 1)", "UTC"),  # five fields: Unix cron, not EventBridge
        ("cron(0 10 * * 2 *)", "UTC"),  # neither day field is '?'
        ("rate(5 weeks)", "UTC"),
        ("every day", "UTC"),
        ("cron(0 10 * * ? *)", "Mars/Olympus"),
    ],
)
def test_invalid_expressions_and_zones_are_refused(expression: str, zone: str) -> None:
    with pytest.raises(ExpressionError):
        validate(ScheduleTiming(expression, zone))


# ------------------------------------------------------------------------------------------ whole minutes


COINCIDING = [  # (EventBridge expression, the five-field original it was translated from)
    ("cron(0 9 * * ? *)", "0 9 * * *"),
    ("cron(0/30 * * * ? *)", "*/30 * * * *"),
    ("cron(15 2 ? * SUN *)", "15 2 * * 0"),
    ("cron(0 0 1 * ? *)", "0 0 1 * *"),
]


@pytest.mark.parametrize(("expression", "original"), COINCIDING)
@pytest.mark.parametrize("timezone", ["Europe/Madrid", "America/New_York", "UTC"])
def test_next_fire_from_sub_second_instants_matches_croniter(expression: str, original: str, timezone: str) -> None:
    """From any instant, even a microsecond before a fire, the next fire is the one the original means.
    Two months around a DST change in each direction, probed just before, at and after every fire."""
    timing = ScheduleTiming(expression, timezone)
    for begin, end in (("2027-02-20T00:00:00", "2027-04-20T00:00:00"), ("2027-09-25T00:00:00", "2027-11-20T00:00:00")):
        expected = cron_fires(original, timezone, utc(begin), utc(end))
        assert expected
        probes = [utc(begin)]
        for fire in expected:
            probes += [fire - timedelta(microseconds=1), fire - timedelta(seconds=0.4), fire]
            probes += [fire + timedelta(microseconds=1), fire + timedelta(seconds=59.999)]
        for probe in probes:
            want = next((f for f in expected if f > probe), None)
            if want is None:
                continue
            assert next_fire(timing, probe) == want, probe
