"""The timing value: which instants are a schedule's own fire times, across a DST change."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest

from cronbell.core.cron import parse_recurring
from cronbell.core.timing import Timing

MADRID = ZoneInfo("Europe/Madrid")


def every(expr: str) -> Timing:
    return Timing.every(parse_recurring(expr, 5, "en"), MADRID)


@pytest.mark.parametrize(
    ("expr", "instant", "fires"),
    [
        # 27 Oct 2030: Madrid's 02:00-03:00 happens twice; Scheduler fires a repeated time once, the first
        ("*/30 * * * *", datetime(2030, 10, 27, 0, 0, tzinfo=UTC), True),  # 02:00 CEST
        ("*/30 * * * *", datetime(2030, 10, 27, 0, 30, tzinfo=UTC), True),  # 02:30 CEST
        ("*/30 * * * *", datetime(2030, 10, 27, 1, 0, tzinfo=UTC), False),  # 02:00 CET, the second time
        ("*/30 * * * *", datetime(2030, 10, 27, 2, 0, tzinfo=UTC), True),  # 03:00 CET
        ("30 2 * * *", datetime(2030, 10, 27, 0, 30, tzinfo=UTC), True),
        # 30 Mar 2031: 02:00-03:00 does not exist that day
        ("30 2 * * *", datetime(2031, 3, 30, 0, 30, tzinfo=UTC), False),
        ("0 9 * * *", datetime(2030, 10, 27, 8, 0, tzinfo=UTC), True),
        ("0 9 * * *", datetime(2030, 10, 27, 8, 1, tzinfo=UTC), False),
    ],
)
def test_fires_at_compares_instants_even_in_a_repeated_hour(expr: str, instant: datetime, fires: bool) -> None:
    assert every(expr).fires_at(instant) is fires
    assert every(expr).fires_at(instant.astimezone(MADRID)) is fires


def test_a_one_shot_and_a_snooze_in_the_repeated_hour_are_its_own() -> None:
    first_two = datetime(2030, 10, 27, 0, 15, tzinfo=UTC)  # 02:15 CEST
    once = Timing.once(first_two, MADRID)
    assert once.fires_at(first_two) and not once.fires_at(first_two + timedelta(hours=1))
    snoozed = every("0 9 * * *").snoozed(
        datetime(2030, 10, 26, 7, 0, tzinfo=UTC), first_two, datetime(2030, 10, 26, 7, 1, tzinfo=UTC)
    )
    assert snoozed.fires_at(first_two)
