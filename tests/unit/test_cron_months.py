"""Every N months ('every 3 months on the 1st at 9', 'quarterly', 'cada dos meses el primer lunes'), the
minute of every hour ('every hour at :30', 'cada hora a y media'), every N hours within a window of the
day ('every 5 hours from 8 to 20'), a phrase that names its days but no time of day, and one that says
its end ('... until december 31'): read through the grammar and the tools, as a user's model sends them."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, date, datetime
from zoneinfo import ZoneInfo

import pytest

from cronbell.core.contract import errors
from cronbell.core.domain.cron.fields import parse_fields
from cronbell.core.domain.cron.fires import anchored, next_fires
from cronbell.core.domain.refusals import INVALID_CRON, ToolError
from cronbell.core.language.recurring import parse_recurring
from tests.support.envelopes import ROOM
from tests.support.memory_stack import MemoryStack

MADRID = ZoneInfo("Europe/Madrid")
NOW = datetime(2026, 12, 5, 9, 0, tzinfo=UTC)  # Saturday 5 December 2026, 10:00 in Madrid


def read(text: str, now: datetime = NOW) -> str:
    """The expression a phrase is stored as, once anchored at `now` in Madrid."""
    spec = anchored(parse_recurring(text, 5), now, MADRID)
    assert spec.interval is None  # every N months is written as its months: no interval is stored
    return spec.expr


@pytest.mark.parametrize(
    ("text", "expr"),
    [
        # the first occurrence is the next one after now (1 January), the months counted from it
        ("every 3 months on the 1st at 9am", "0 9 1 */3 *"),
        ("quarterly on the 1st at 9", "0 9 1 */3 *"),
        ("every quarter on the 1st at 09:00", "0 9 1 */3 *"),
        ("every three months on the 1st at 9", "0 9 1 */3 *"),
        # the 15th of this month is still ahead: December is the first month
        ("every 6 months on the 15th at 10", "0 10 15 6,12 *"),
        ("semiannually on the 15th at 10", "0 10 15 6,12 *"),
        ("every other month on the 15th at 9", "0 9 15 2,4,6,8,10,12 *"),
        ("every 4 months on the 1st and 20th at 8", "0 8 1,20 4,8,12 *"),
        ("every 2 months on the first monday at 9", "0 9 * 2,4,6,8,10,12 1#1"),  # 7 December is ahead
        ("every 3 months on the last day at 17:00", "0 17 L 3,6,9,12 *"),
        ("every 3 months on the last friday at 5pm", "0 17 * 3,6,9,12 L5"),
        ("every 12 months on the 3rd at 9", "0 9 3 1 *"),  # 3 December has passed: next January
        ("cada 3 meses el día 1 a las 9", "0 9 1 */3 *"),
        ("trimestralmente el día 1 a las 9", "0 9 1 */3 *"),
        ("cada dos meses el primer lunes a las 9", "0 9 * 2,4,6,8,10,12 1#1"),
        ("un mes sí y otro no el día 10 a las 9", "0 9 10 2,4,6,8,10,12 *"),
        ("mes por medio el día 10 a las 9", "0 9 10 2,4,6,8,10,12 *"),
        ("semestralmente el día 15 a las 10", "0 10 15 6,12 *"),
        # one month is the plain monthly phrase, which now also takes its place after 'every month'
        ("every 1 month on the 15th at 9", "0 9 15 * *"),
        ("every month on the last friday at 5pm", "0 17 * * L5"),
        ("cada mes el último viernes a las 17", "0 17 * * L5"),
    ],
)
def test_every_n_months_is_written_as_the_months_it_fires_in(text: str, expr: str) -> None:
    assert read(text) == expr


def test_the_months_count_from_the_first_occurrence_after_now_or_the_start_date() -> None:
    assert read("every 3 months on the 1st at 9", datetime(2027, 2, 10, tzinfo=UTC)) == "0 9 1 3,6,9,12 *"
    assert read("every 3 months on the 1st at 9 from 2027-02-01") == "0 9 1 2,5,8,11 *"
    fires = next_fires(anchored(parse_recurring("quarterly on the 1st at 9", 5), NOW, MADRID), NOW, MADRID, 5)
    assert [f.date() for f in fires] == [date(2027, m, 1) for m in (1, 4, 7, 10)] + [date(2028, 1, 1)]
    assert {f.hour for f in fires} == {9}


def test_quarterly_is_the_calendar_s_quarters_whenever_it_is_said() -> None:
    later = datetime(2027, 2, 10, tzinfo=UTC)  # every 3 months would count from 1 March
    assert read("quarterly on the 1st at 9", later) == "0 9 1 */3 *"  # January, April, July, October
    assert read("every quarter on the 15th at 10", later) == "0 10 15 */3 *"
    assert read("cada trimestre el día 1 a las 9", later) == "0 9 1 */3 *"
    assert read("quarterly on the last friday at 5pm", later) == "0 17 * 3,6,9,12 L5"  # counted from the end
    assert read("trimestralmente el último día a las 18:00", later) == "0 18 L 3,6,9,12 *"
    assert read("every 3 months on the 1st at 9", later) == "0 9 1 3,6,9,12 *"  # counted from its first
    with pytest.raises(ToolError):  # the calendar's quarters take no start date
        parse_recurring("quarterly on the 1st at 9 from 2027-02-01", 5)


def test_a_place_a_recurring_phrase_names_is_its_zone_unless_the_caller_gives_another() -> None:
    stack = MemoryStack()  # the room's user is in Europe/Madrid
    made = stack.call("create_reminder", {"message": "call", "cron": "every friday at 5pm new york time"})
    assert made["ok"], made
    result = made["result"]
    assert result["timezone"] == "America/New_York"
    assert [f["utc"] for f in result["next_fires"][:2]] == ["2026-12-04T22:00:00Z", "2026-12-11T22:00:00Z"]
    assert "America/New_York" in result["notes"][0] and "23:00 in Europe/Madrid" in result["notes"][0]
    same = {"message": "call", "cron": "todos los días a las 8 hora de méxico", "timezone": "America/Mexico_City"}
    assert stack.call("create_reminder", same)["result"]["timezone"] == "America/Mexico_City"
    other = {"message": "call", "cron": "every friday at 5pm new york time", "timezone": "Europe/Madrid"}
    refused = stack.call("create_reminder", other)
    assert refused["error"]["code"] == "invalid_cron" and "timezone" in refused["error"]["message"]
    offset = stack.call("create_reminder", {"message": "call", "cron": "every sunday at 10pm CET"})
    assert offset["error"]["code"] == "invalid_cron" and "(CET)" in offset["error"]["message"]
    assert "Europe/Paris" in offset["error"]["message"]  # the place to pass in `timezone`
    assert len(stack.call("list_reminders")["result"]["schedules"]) == 2  # the refusals changed nothing


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("every 5 months on the 1st at 9", "every N months needs N to divide 12"),
        ("every 3 months at 9", "every N months needs days of the month and a time"),
        ("every 3 months on monday at 9", "every N months needs days of the month and a time"),
        # the days named but not the time: that is what is missing ("days of the month" were given)
        (
            "every 3 months on the 1st",
            "it names the days but no time of day; add one, e.g. 'every 3 months on the 1st at 9'",
        ),
        ("quarterly on the last friday", "add one, e.g. 'quarterly on the last friday at 9'"),
        ("every 13 months on the 1st at 9", "N must be 1-12"),
        ("cada 5 meses el día 1 a las 9", "every N months needs N to divide 12"),
        # a window never runs across midnight
        ("every 15 minutes between 17 and 9", "the hours must run from the first to a later one"),
        ("every hour from 11 to 11", "the hours must run from the first to a later one"),
        ("every hour from 9pm to 5", "the hours must run from the first to a later one"),
        # without a window, every N hours still divides the day, and the refusal names the window form
        ("every 5 hours", "(1, 2, 3, 4, 6, 8, 12), or hours to run between ('every 5 hours from 8 to 20')"),
        ("every 30 hours from 6 to 23", "every N hours needs N to divide 24"),
    ],
)
def test_refusals_say_why(text: str, reason: str) -> None:
    with pytest.raises(ToolError) as caught:
        parse_recurring(text, 5)
    assert caught.value.code == INVALID_CRON
    assert reason in errors.message(caught.value, "en"), errors.message(caught.value, "en")


def test_a_quarterly_reminder_through_the_tools_keeps_its_months_in_a_new_zone() -> None:
    stack = MemoryStack()  # now: 30 November 2026, 09:00 in Madrid
    made = stack.call("create_reminder", {"message": "quarterly report", "cron": "every 3 months on the 1st at 9"})
    assert made["ok"], made
    reminder = made["result"]
    assert reminder["schedule"] == "0 9 1 3,6,9,12 *"
    assert reminder["description"] == "on day 1 of March, June, September and December at 09:00"
    assert [f["local"][:10] for f in reminder["next_fires"]] == ["2026-12-01", "2027-03-01", "2027-06-01"]
    stack.clock.current = datetime(2027, 1, 20, tzinfo=UTC)  # a zone change later does not count again
    moved = stack.call("update_reminder", {"id": reminder["id"], "timezone": "America/New_York"})
    assert moved["ok"], moved
    assert moved["result"]["schedule"] == "0 9 1 3,6,9,12 *"
    assert moved["result"]["next_fire"]["local"] == "2027-03-01T09:00:00-05:00"


@pytest.mark.parametrize(
    ("text", "expr"),
    [
        # the minute of every hour
        ("every hour at :30", "30 * * * *"),
        ("every hour at 30 past", "30 * * * *"),
        ("each hour at 5 minutes past the hour", "5 * * * *"),
        ("hourly at quarter past", "15 * * * *"),
        ("every hour on the half hour", "30 * * * *"),
        ("every hour, on the hour", "0 * * * *"),
        ("every hour at 45 past between 9 and 17", "45 9-16 * * *"),
        ("cada hora a los 20 minutos", "20 * * * *"),
        ("cada hora, a y media", "30 * * * *"),
        ("cada hora en punto", "0 * * * *"),
        # every N hours within a window of the day: N need not divide 24
        ("every 5 hours from 8 to 20", "0 8,13,18 * * *"),
        ("every 5 hours between 8am and 11pm", "0 8,13,18 * * *"),
        ("every 7 hours from 6 to 23 on weekdays", "0 6,13,20 * * 1-5"),
        ("cada 5 horas de 8 a 20", "0 8,13,18 * * *"),
        # a bare second hour before the first is the afternoon's: office hours
        ("every hour from 9 to 5", "0 9-16 * * *"),
        ("every 30 minutes between 8 and 6 on weekdays", "0,30 8-17 * * 1-5"),
        ("cada hora de 9 a 5", "0 9-16 * * *"),
    ],
)
def test_hourly_phrases_are_read_as(text: str, expr: str) -> None:
    assert parse_recurring(text, 5).expr == expr


@pytest.mark.parametrize("text", ["cada hora y media", "every hour at :75"])
def test_an_hour_and_a_half_is_not_read_as_half_past(text: str) -> None:
    with pytest.raises(ToolError):  # 'cada hora y media' is every 90 minutes, which cron cannot say
        parse_recurring(text, 5)


@pytest.mark.parametrize(
    ("text", "locale", "fix", "also"),
    [
        # days without a time: the phrase to send instead
        ("every monday", "en", "every monday at 9", ""),
        ("weekdays", "en", "weekdays at 9", ""),
        ("every month on the 15th", "en", "every month on the 15th at 9", ""),
        ("annually on june 1", "en", "annually on june 1 at 9", ""),
        ("on the first monday of every month", "en", "on the first monday of every month at 9", ""),
        ("every day except sunday", "en", "every day except sunday at 9", ""),
        ("every morning", "en", "every morning at 9", ""),
        ("every monday morning", "en", "every monday morning at 9", ""),
        ("cada noche", "es", "cada noche a las 9", ""),
        ("todos los lunes", "es", "todos los lunes a las 9", ""),
        ("el día 5 de cada mes", "es", "el día 5 de cada mes a las 9", ""),
        # an end said in the phrase: the schedule that reads, and the arguments the rest goes in
        ("every monday at 9 until december 31", "en", "every monday at 9", "`until`"),
        ("every day at 9 for 5 days", "en", "every day at 9", "`count`"),
        ("every weekday at 9 except holidays", "en", "every weekday at 9", "`skip_holidays`"),
        ("every 2 weeks on monday at 10 starting next monday", "en", "every 2 weeks on monday at 10", "`until`"),
        ("Todos los días a las 8 durante 5 días", "es", "Todos los días a las 8", "`count`"),
        ("de lunes a viernes a las 9 excepto festivos", "es", "de lunes a viernes a las 9", "`skip_holidays`"),
        # a start said as a weekday: when it starts, never the days it runs on ('from monday to friday' is)
        ("every day at 9 from monday", "en", "every day at 9", "a start date only after every N"),
        ("daily at 9 from wed", "en", "daily at 9", "a start date only after every N"),
        ("every hour from monday", "en", "every hour", "a start date only after every N"),
        ("every day at 9 starting monday", "en", "every day at 9", "a start date only after every N"),
        (
            "every 2 hours from 8am to 8pm on weekdays from monday",
            "en",
            "every 2 hours from 8am to 8pm on weekdays",
            "",
        ),
        ("todos los días a las 9 desde el lunes", "es", "todos los días a las 9", "una fecha de inicio solo tras"),
        # a zone said in the phrase: the schedule that reads, and the argument the zone goes in
        ("every monday at 10:00 UTC", "en", "every monday at 10:00", "(UTC) goes in `timezone`"),
        ("every weekday at 9am EST", "en", "every weekday at 9am", "(EST) goes in `timezone`"),
        ("every day at 9 new york time", "en", "every day at 9", "(America/New_York)"),
        ("todos los lunes a las 10 hora de Madrid", "es", "todos los lunes a las 10", "(Europe/Madrid) va en"),
    ],
)
def test_refusals_quote_a_phrase_that_reads(text: str, locale: str, fix: str, also: str) -> None:
    with pytest.raises(ToolError) as caught:
        parse_recurring(text, 5)
    message = errors.message(caught.value, locale)
    assert f"'{fix}'" in message and also in message, message
    parse_fields(parse_recurring(fix, 5).expr)  # the phrase the refusal quotes is read


def test_a_zone_change_keeps_the_schedule_as_stored_and_never_reads_its_phrase_again() -> None:
    """A phrase stored by an earlier release may read otherwise now (`every friday at 4` was 04:00 before a
    bare hour of 1 to 5 became the afternoon's): moving it to another zone keeps the time it fires at."""
    stack = MemoryStack()
    made = stack.call("create_reminder", {"message": "backup", "cron": "every friday at 4"})
    assert made["ok"] and made["result"]["schedule"] == "0 16 * * 5", made
    sid = made["result"]["id"]
    stored = stack.store.get(ROOM, sid)
    assert stored is not None
    stack.store._live[(ROOM, sid)].timing = replace(stored.timing, cron="0 4 * * 5")  # as the release before kept it
    moved = stack.call("update_reminder", {"id": sid, "timezone": "America/New_York"})
    assert moved["ok"], moved
    assert moved["result"]["schedule"] == "0 4 * * 5"
    assert moved["result"]["next_fire"]["local"] == "2026-12-04T04:00:00-05:00"
