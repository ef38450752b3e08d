"""Business days through the sandbox over virtual days from Christmas to the end of January, in English
and Spanish: every business day across the year end with Spain's public holidays, occurrences moved
before and after a holiday (their runs carry `moved_from`), and the first and last business days of
months that start on a holiday and end on a weekend."""

from __future__ import annotations

from typing import Any
from zoneinfo import ZoneInfo

import pytest

from tests.support.sandbox import Bot, StartSandbox, instant

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

DAY = 86400
MADRID = ZoneInfo("Europe/Madrid")


def posted(bot: Bot) -> list[str]:
    """The local date and time of every post in the bot's room."""
    return [instant(m["ts"]).astimezone(MADRID).strftime("%Y-%m-%d %H:%M") for m in bot.messages()]


def delivered(bot: Bot, schedule_id: str, locale: str = "en") -> list[tuple[str, Any]]:
    runs = bot.call("reminder_history", locale=locale, id=schedule_id, limit=50)["result"]["runs"]
    return sorted((r["scheduled_time"], r["moved_from"]) for r in runs if r["outcome"] == "delivered")


def test_business_days_over_the_year_end(start_sandbox: StartSandbox) -> None:
    sandbox = start_sandbox("--start", "2026-12-20T12:00:00Z")  # Sunday 20 December, 13:00 in Madrid
    daily_en, daily_es = Bot(sandbox, "!daily-en:localhost"), Bot(sandbox, "!daily-es:localhost")
    moved_es, moved_en = Bot(sandbox, "!moved-es:localhost"), Bot(sandbox, "!moved-en:localhost")
    month_en, month_es = Bot(sandbox, "!month-en:localhost"), Bot(sandbox, "!month-es:localhost")

    every_en = daily_en.call("create_reminder", message="stand-up", cron="every business day at 9", skip_holidays="ES")
    every_es = daily_es.call(
        "create_reminder", locale="es", message="reunión", cron="cada día laborable a las 9", skip_holidays="ES"
    )
    assert every_en["ok"] and every_es["ok"], (every_en, every_es)
    assert "on business days in ES" in every_en["text"] and "en días hábiles de ES" in every_es["text"]
    # Christmas Eve falls on a Thursday and is worked; Christmas Day is moved back to it
    christmas = moved_es.call(
        "create_reminder",
        locale="es",
        message="regalos",
        cron="0 9 25 12 *",
        skip_holidays="ES",
        on_holiday="before",
    )
    new_year = moved_en.call(
        "create_reminder", message="pay rent", cron="0 9 1 * *", skip_holidays="ES", on_holiday="after"
    )
    assert christmas["result"]["next_fire"]["local"] == "2026-12-24T09:00:00+01:00", christmas
    assert "pasa al día hábil anterior" in christmas["text"]
    assert new_year["result"]["next_fire"]["local"] == "2027-01-04T09:00:00+01:00", new_year  # 1 Jan: Friday, holiday
    last = month_en.call("create_reminder", message="invoices", cron="the last business day of the month at 17:00")
    assert last["error"]["code"] == "invalid_arguments"  # no calendar: refused, nothing made
    last = month_en.call(
        "create_reminder", message="invoices", cron="the last business day of the month at 17:00", skip_holidays="ES"
    )
    first = month_es.call(
        "create_reminder",
        locale="es",
        message="nóminas",
        cron="el primer día hábil del mes a las 9",
        skip_holidays="ES",
    )
    assert last["ok"] and first["ok"], (last, first)

    fired: list[dict[str, Any]] = []
    for _ in range(41):  # to Saturday 30 January 2027, 13:00 in Madrid
        fired += daily_en.advance(DAY)
    assert all(f["ok"] for f in fired), [f for f in fired if not f["ok"]]

    # every business day: no weekend, no 25 December, 1 or 6 January, across the year end
    days = [p[:10] for p in posted(daily_en)]
    assert days[:10] == [
        "2026-12-21",
        "2026-12-22",
        "2026-12-23",
        "2026-12-24",
        "2026-12-28",
        "2026-12-29",
        "2026-12-30",
        "2026-12-31",
        "2027-01-04",
        "2027-01-05",
    ]
    assert "2027-01-06" not in days and len(days) == 10 + 17  # 7 January to 29 January: 17 working days
    assert [p[:10] for p in posted(daily_es)] == days
    runs = daily_en.call("reminder_history", id=every_en["result"]["id"], limit=50)["result"]["runs"]
    assert {r["outcome"] for r in runs} == {"delivered"}  # a day off is no occurrence: no run at all

    # moved before and after a holiday, once each, with the original time on the run
    assert posted(moved_es) == ["2026-12-24 09:00"]
    assert delivered(moved_es, christmas["result"]["id"], "es") == [
        ("2026-12-24T09:00:00+01:00", "2026-12-25T09:00:00+01:00")
    ]
    assert posted(moved_en) == ["2027-01-04 09:00"]  # 1 February is a Monday: not yet
    assert delivered(moved_en, new_year["result"]["id"]) == [("2027-01-04T09:00:00+01:00", "2027-01-01T09:00:00+01:00")]

    # the last business day of December (a Thursday) and of January (the 31st is a Sunday: Friday 29);
    # the first of January after New Year's Day and a weekend: Monday 4
    assert posted(month_en) == ["2026-12-31 17:00", "2027-01-29 17:00"]
    assert posted(month_es) == ["2027-01-04 09:00"]
    listed = month_es.call("list_reminders", locale="es")["result"]["schedules"]
    assert listed[0]["next_fire"]["local"] == "2027-02-01T09:00:00+01:00"
    assert listed[0]["business_day_of_month"] == 1
