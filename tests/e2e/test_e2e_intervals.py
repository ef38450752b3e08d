"""Every other week and every N days through the sandbox over six virtual weeks, across Madrid's
spring DST change (31 March 2030): Scheduler fires the weekly and daily entries every week and every
day, the real fire function posts only on the interval's days."""

from __future__ import annotations

from collections import Counter
from datetime import date, timedelta
from typing import Any
from zoneinfo import ZoneInfo

import pytest

from tests.support.sandbox import Bot, StartSandbox, instant

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

DAY = 86400
MADRID = ZoneInfo("Europe/Madrid")


def local_days(messages: list[dict[str, Any]], word: str) -> list[date]:
    return [instant(m["ts"]).astimezone(MADRID).date() for m in messages if word in m["text"]]


def test_every_other_monday_posts_on_alternate_mondays_and_every_three_days_on_every_third(
    start_sandbox: StartSandbox,
) -> None:
    sandbox = start_sandbox("--start", "2030-03-04T06:00:00Z")  # Monday, 07:00 in Madrid
    bot = Bot(sandbox, "!alternate:localhost")
    review = bot.create(message="Sprint review", cron="every other monday at 10")
    created = bot.call("create_reminder", locale="es", message="Regar las plantas", cron="cada 3 días a las 9")
    assert created["ok"], created
    water = created["result"]["id"]
    assert "cada 3 días a las 09:00" in created["text"]

    fired: list[dict[str, Any]] = []
    for _ in range(43):  # to Tuesday 16 April
        fired += bot.advance(DAY)

    messages = bot.messages()
    mondays = [date(2030, 3, 4), date(2030, 3, 18), date(2030, 4, 1), date(2030, 4, 15)]
    assert local_days(messages, "Sprint review") == mondays
    # every third day, across the month end and the DST change: 4 March ... 31 March, 3 April ... 15 April
    assert local_days(messages, "Regar las plantas") == [date(2030, 3, 4) + timedelta(days=3 * k) for k in range(15)]
    assert all(instant(m["ts"]).astimezone(MADRID).hour in (9, 10) for m in messages)  # local time kept

    # Scheduler invoked the fire function every Monday and every day: the other days posted nothing
    invocations = Counter(f["schedule"] for f in fired)
    assert invocations[review] == 7 and invocations[water] == 43 and all(f["ok"] for f in fired)

    runs = bot.call("reminder_history", id=review, limit=50)["result"]["runs"]
    assert [r["scheduled_time"] for r in runs] == [
        "2030-04-15T10:00:00+02:00",
        "2030-04-01T10:00:00+02:00",
        "2030-03-18T10:00:00+01:00",
        "2030-03-04T10:00:00+01:00",
    ]  # the off weeks are no occurrences: no run
    (item,) = [s for s in bot.call("list_reminders")["result"]["schedules"] if s["id"] == review]
    assert item["schedule"] == "every 2 weeks on Mon at 10:00 from 2030-03-04"
    assert item["next_fire"]["local"] == "2030-04-29T10:00:00+02:00"
    assert item["last_run"]["scheduled_time"] == "2030-04-15T10:00:00+02:00"
