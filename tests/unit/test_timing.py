"""The timing value: which instants are a schedule's own fire times, across a DST change."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest

from cronbell.core.domain.timing import Timing
from cronbell.core.language.recurring import parse_recurring

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


def test_a_snoozed_occurrence_skipped_since_is_no_upcoming_fire_and_does_not_use_the_count() -> None:
    """skip_next on a snoozed occurrence: the timing leaves it out, as the fire does, so a `count`
    recurrence is not finished early by a fire that will never be delivered."""
    now = datetime(2026, 11, 30, 8, tzinfo=UTC)
    nine = datetime(2026, 11, 30, 9, tzinfo=UTC)  # 10:00 in Madrid
    timing = every("0 10 * * *").ends_with(None, 3, "")
    snoozed = timing.snoozed(nine, nine + timedelta(minutes=30), now)
    skipped = snoozed.skipping(nine + timedelta(minutes=30))
    days = [nine + timedelta(days=d) for d in (1, 2, 3)]
    assert [t.astimezone(UTC) for t in skipped.upcoming(now, 5)] == days
    # one delivered so far: the next two are left, and the skipped snooze is not one of them
    assert [t.astimezone(UTC) for t in skipped.upcoming(now, 5, delivered=1)] == days[:2]
    assert not skipped.finished_after(days[0], 2)
    # ending today: once its 10:00 is run (skipped, snoozed away), nothing is left to deliver
    last = every("0 10 * * *").ends_with(nine + timedelta(minutes=45), 0, "")
    last = last.snoozed(nine, nine + timedelta(minutes=30), now).skipping(nine + timedelta(minutes=30))
    assert last.upcoming(now, 3) == []
    assert last.finished_after(nine, 0)


def test_an_occurrence_run_early_is_no_longer_the_next_one_in_views() -> None:
    """Scheduler may invoke up to a minute early: once the 10:00 occurrence has its run (delivered
    at 09:59:30), next_fire, next_fires and cron_list's next_fire show tomorrow's at 09:59:45."""
    from cronbell.core.domain import models
    from cronbell.core.domain.models import Schedule
    from cronbell.core.domain.upcoming import upcoming
    from cronbell.core.text.views import cron_view, schedule_view

    s = Schedule(
        id="k3v9q2m8xa", room_id="!r:x", user_id="@u:x", agent_id="a", kind=models.MESSAGE,
        timing=every("0 10 * * *"), locale="en", created_at=datetime(2026, 11, 29, 12, tzinfo=UTC), text="stand-up",
    )  # fmt: skip
    now = datetime(2026, 11, 30, 9, 59, 45, tzinfo=MADRID)
    ten = datetime(2026, 11, 30, 10, tzinfo=MADRID)
    assert upcoming(s, now, 1) == [ten]
    s.last_run = {"scheduled_time": "2026-11-30T10:00:00+01:00", "outcome": "delivered", "manual": False}
    tomorrow = ten + timedelta(days=1)
    assert upcoming(s, now, 2) == [tomorrow, tomorrow + timedelta(days=1)]
    assert schedule_view(s, now, "en")["next_fire"]["local"] == "2026-12-01T10:00:00+01:00"
    assert cron_view(s, now)["next_fire"] == "2026-12-01T10:00:00+01:00"
    # a manual run says nothing of the regular occurrences
    s.last_run = {"scheduled_time": "2026-11-30T09:59:40+01:00", "outcome": "delivered", "manual": True}
    assert upcoming(s, now, 1) == [ten]
