"""Ends and calendars through the sandbox over virtual days around Christmas: a daily reminder that skips
Spain's public holidays, one that runs three times, and one that ends on its `until` day."""

from __future__ import annotations

from typing import Any
from zoneinfo import ZoneInfo

import pytest

from tests.support.sandbox import Bot, StartSandbox, instant

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

DAY = 86400
MADRID = ZoneInfo("Europe/Madrid")


def item(bot: Bot, schedule_id: str) -> dict[str, Any]:
    (found,) = [
        s for s in bot.call("list_reminders", include_inactive=True)["result"]["schedules"] if s["id"] == schedule_id
    ]
    return dict(found)


def entries(bot: Bot, schedule_id: str) -> list[str]:
    names = [s["Name"] for s in bot.scheduler_client().list_schedules(GroupName="cronbell")["Schedules"]]
    return [n for n in names if n.split("-")[0] == schedule_id]


def test_holidays_count_and_until_over_christmas_week(start_sandbox: StartSandbox) -> None:
    sandbox = start_sandbox("--start", "2026-12-20T12:00:00Z")  # Sunday 20 December, 13:00 in Madrid
    daily, thrice, until = (
        Bot(sandbox, "!daily:localhost"),
        Bot(sandbox, "!thrice:localhost"),
        Bot(sandbox, "!until:localhost"),
    )
    holiday_id = daily.create(message="stand-up", cron="0 10 * * *", skip_holidays="ES")
    count_id = thrice.create(message="take the pill", cron="0 11 * * *", count=3)
    until_id = until.create(message="advent", cron="0 12 * * *", until="2026-12-23")
    assert [f["local"][:10] for f in item(daily, holiday_id)["next_fires"]] == [
        "2026-12-21",
        "2026-12-22",
        "2026-12-23",
    ]
    assert [f["local"][:10] for f in item(thrice, count_id)["next_fires"]] == ["2026-12-21", "2026-12-22", "2026-12-23"]

    fired: list[dict[str, Any]] = []
    for _ in range(8):  # to Monday 28 December, 13:00 in Madrid
        fired += daily.advance(DAY)
    assert all(f["ok"] for f in fired), fired

    # the holiday calendar: every day posts but Christmas Day
    days = [instant(m["ts"]).astimezone(MADRID).date().isoformat() for m in daily.messages()]
    assert days == ["2026-12-21", "2026-12-22", "2026-12-23", "2026-12-24", "2026-12-26", "2026-12-27", "2026-12-28"]
    runs = daily.call("reminder_history", id=holiday_id, limit=10)["result"]["runs"]
    skipped = [(r["scheduled_time"], r["reason"]) for r in runs if r["outcome"] == "skipped"]
    assert skipped == [("2026-12-25T10:00:00+01:00", "holiday")]
    assert item(daily, holiday_id)["status"] == "active" and entries(daily, holiday_id) == [holiday_id]

    # count: three deliveries, then completed, its Scheduler entry gone and nothing more fired
    assert [m["text"] for m in thrice.messages()] == [thrice.messages()[0]["text"]] * 3
    done = item(thrice, count_id)
    assert (done["status"], done["delivered_count"], done["next_fire"]) == ("completed", 3, None)
    assert entries(thrice, count_id) == []
    assert [f["scheduled_time"][:10] for f in fired if f["schedule"] == count_id] == [
        "2026-12-21",
        "2026-12-22",
        "2026-12-23",
    ]

    # until: posts through its day, then completed
    days = [instant(m["ts"]).astimezone(MADRID).date().isoformat() for m in until.messages()]
    assert days == ["2026-12-21", "2026-12-22", "2026-12-23"]
    assert item(until, until_id)["status"] == "completed" and entries(until, until_id) == []
