"""Human previews of schedules, instants in a zone and in UTC (`instants.instant`), and DST warnings."""

from __future__ import annotations

from datetime import UTC, datetime
from zoneinfo import ZoneInfo

import pytest

from cronbell.core.domain.instants import instant
from cronbell.core.language.recurring import parse_recurring
from cronbell.core.text.preview import describe_at, describe_cron, dst_notes
from tests.support.memory_stack import MemoryStack

MADRID = ZoneInfo("Europe/Madrid")
NEW_YORK = ZoneInfo("America/New_York")
KOLKATA = ZoneInfo("Asia/Kolkata")
ADELAIDE = ZoneInfo("Australia/Adelaide")
JAN_1 = datetime(2026, 1, 1, tzinfo=UTC)

DESCRIPTIONS = [
    ("0 9 L * *", "on the last day of every month at 09:00", "el último día de cada mes a las 09:00"),
    ("0 9 L 2 *", "on the last day of February at 09:00", "el último día de febrero a las 09:00"),
    ("0 10 * * 1#1", "on the first Monday of every month at 10:00", "el primer lunes de cada mes a las 10:00"),
    ("0 17 * * L5", "on the last Friday of every month at 17:00", "el último viernes de cada mes a las 17:00"),
    (
        "0 10 * 1,7 5#3",
        "on the third Friday of January and July at 10:00",
        "el tercer viernes de enero y julio a las 10:00",
    ),
    ("0 10 * * 1", "every Monday at 10:00", "todos los lunes a las 10:00"),
    ("every monday at 10", "every Monday at 10:00", "todos los lunes a las 10:00"),
    ("0 9 * * *", "every day at 09:00", "todos los días a las 09:00"),
    ("0 1 * * *", "every day at 01:00", "todos los días a la 01:00"),
    ("0 9,17 * * *", "every day at 09:00 and 17:00", "todos los días a las 09:00 y 17:00"),
    ("30 8 * * 1-5", "every weekday (Monday to Friday) at 08:30", "de lunes a viernes a las 08:30"),
    ("0 10 * * 0,6", "every Saturday and Sunday at 10:00", "los sábados y domingos a las 10:00"),
    (
        "0 9 * * 1,3,5",
        "every Monday, Wednesday and Friday at 09:00",
        "los lunes, miércoles y viernes a las 09:00",
    ),
    ("0 9 * * 5-7", "every day from Friday to Sunday at 09:00", "de viernes a domingo a las 09:00"),
    ("30 9 * * 7", "every Sunday at 09:30", "todos los domingos a las 09:30"),
    ("0 10 * * 0-5", "every day except Saturday at 10:00", "todos los días salvo los sábados a las 10:00"),
    (
        "0 9 * * 1,2,3,4,6",
        "every day except Friday and Sunday at 09:00",
        "todos los días salvo los viernes y domingos a las 09:00",
    ),
    ("0 9 * * 1-6", "every day from Monday to Saturday at 09:00", "de lunes a sábado a las 09:00"),
    ("0 9 1 * *", "on day 1 of every month at 09:00", "el día 1 de cada mes a las 09:00"),
    ("0 9 1,15 * *", "on days 1 and 15 of every month at 09:00", "los días 1 y 15 de cada mes a las 09:00"),
    ("0 9 25 12 *", "every year on 25 December at 09:00", "cada año el 25 de diciembre a las 09:00"),
    ("0 9 1 1,7 *", "on day 1 of January and July at 09:00", "el día 1 de enero y julio a las 09:00"),
    ("0 9 * 12 *", "every day in December at 09:00", "todos los días de diciembre a las 09:00"),
    (
        "0 12 1 * 1",
        "on day 1 of every month and every Monday at 12:00",
        "el día 1 de cada mes y todos los lunes a las 12:00",
    ),
    ("*/15 * * * *", "every 15 minutes", "cada 15 minutos"),
    ("* * * * *", "every minute", "cada minuto"),
    ("0 * * * *", "every hour on the hour", "cada hora en punto"),
    ("15 * * * *", "every hour at minute 15", "cada hora en el minuto 15"),
    ("0 */2 * * *", "every 2 hours on the hour", "cada 2 horas en punto"),
    (
        "*/15 9-17 * * 1-5",
        "every 15 minutes between 09:00 and 17:45, every weekday (Monday to Friday)",
        "cada 15 minutos entre las 09:00 y las 17:45, de lunes a viernes",
    ),
    (
        "0,30 8,12,16,20 * * *",
        "every 30 minutes during hours 08, 12, 16 and 20",
        "cada 30 minutos durante las horas 08, 12, 16 y 20",
    ),
    (
        "5,35 */3 * * *",
        "every 3 hours at minutes 5 and 35",
        "cada 3 horas en los minutos 5 y 35",
    ),
]


@pytest.mark.parametrize(("text", "english", "spanish"), DESCRIPTIONS)
def test_describe_cron(text: str, english: str, spanish: str) -> None:
    spec = parse_recurring(text, 1)
    assert describe_cron(spec, "en") == english
    assert describe_cron(spec, "es") == spanish
    assert describe_cron(spec, "es-MX") == spanish
    assert describe_cron(spec, "fr") == english  # anything else falls back to English


def test_describe_at() -> None:
    at = datetime(2026, 12, 1, 9, 0, tzinfo=MADRID)
    assert describe_at(at, "en") == "at 2026-12-01 09:00 (Europe/Madrid)"
    assert describe_at(at, "es") == "el 2026-12-01 a las 09:00 (Europe/Madrid)"
    assert describe_at(at.replace(hour=1), "es") == "el 2026-12-01 a la 01:00 (Europe/Madrid)"
    assert describe_at(at.astimezone(UTC), "en") == "at 2026-12-01 08:00 (UTC)"


def test_instant_in_zone_and_utc() -> None:
    at = datetime(2026, 12, 1, 9, 0, tzinfo=MADRID)
    assert instant(at, MADRID) == {"local": "2026-12-01T09:00:00+01:00", "utc": "2026-12-01T08:00:00Z"}
    assert instant(at, NEW_YORK) == {"local": "2026-12-01T03:00:00-05:00", "utc": "2026-12-01T08:00:00Z"}
    assert instant(at, KOLKATA)["local"] == "2026-12-01T13:30:00+05:30"
    summer = datetime(2026, 7, 1, 6, 0, 30, 999, tzinfo=UTC)
    assert instant(summer, MADRID) == {"local": "2026-07-01T08:00:30+02:00", "utc": "2026-07-01T06:00:30Z"}


def test_madrid_notes_for_spring_and_autumn() -> None:
    spec = parse_recurring("30 2 * * *", 1)
    assert dst_notes(spec, JAN_1, MADRID, "en") == [
        "On Sunday 29 March 2026 clocks in Europe/Madrid go forward from 02:00 to 03:00: the 02:30 run does not happen "
        "that day (Scheduler skips a local time that does not exist).",
        "On Sunday 25 October 2026 clocks in Europe/Madrid go back from 03:00 to 02:00: 02:30 happens twice and the "
        "schedule runs once, at the first occurrence (UTC+02:00).",
    ]
    spanish = dst_notes(spec, JAN_1, MADRID, "es")
    assert spanish[0].startswith(
        "El domingo 29 de marzo de 2026 en Europe/Madrid los relojes se adelantan de 02:00 a 03:00"
    )
    assert "la ejecución de las 02:30 no ocurre ese día" in spanish[0]
    assert "se ejecuta una sola vez, en la primera (UTC+02:00)" in spanish[1]


def test_no_note_for_a_change_after_the_schedule_s_until() -> None:
    spec = parse_recurring("30 2 * * *", 1)
    until = datetime(2026, 4, 1, 0, 0, tzinfo=UTC)  # after spring's change, before autumn's
    (spring,) = dst_notes(spec, JAN_1, MADRID, "en", until=until)
    assert spring.startswith("On Sunday 29 March 2026")
    assert dst_notes(spec, JAN_1, MADRID, "en", until=datetime(2026, 3, 1, tzinfo=UTC)) == []


def test_new_york_notes_list_every_affected_time() -> None:
    spec = parse_recurring("*/15 1-2 * * *", 1)
    spring, autumn = dst_notes(spec, JAN_1, NEW_YORK, "en")
    assert "On Sunday 8 March 2026" in spring and "the runs at 02:00, 02:15, 02:30 and 02:45 do not happen" in spring
    assert "On Sunday 1 November 2026" in autumn and "01:00, 01:15, 01:30 and 01:45 happen twice" in autumn
    assert "(UTC-04:00)" in autumn


def test_notes_only_when_a_fire_time_is_affected() -> None:
    assert dst_notes(parse_recurring("0 9 * * *", 1), JAN_1, MADRID, "en") == []
    # Madrid changes on Sundays: a Monday 02:30 schedule is never affected
    assert dst_notes(parse_recurring("30 2 * * 1", 1), JAN_1, MADRID, "en") == []
    # 02:30 on Sundays is
    assert len(dst_notes(parse_recurring("30 2 * * 0", 1), JAN_1, MADRID, "en")) == 2
    # New York's gap is 02:00-03:00 and its overlap 01:00-02:00
    only_gap = dst_notes(parse_recurring("30 2 * * *", 1), JAN_1, NEW_YORK, "en")
    assert len(only_gap) == 1 and "go forward" in only_gap[0]
    only_overlap = dst_notes(parse_recurring("30 1 * * *", 1), JAN_1, NEW_YORK, "en")
    assert len(only_overlap) == 1 and "go back" in only_overlap[0]


def test_horizon_and_start() -> None:
    spec = parse_recurring("30 2 * * *", 1)
    assert len(dst_notes(spec, JAN_1, MADRID, "en", horizon_days=60)) == 0
    assert len(dst_notes(spec, JAN_1, MADRID, "en", horizon_days=100)) == 1
    after_spring = datetime(2026, 4, 1, tzinfo=UTC)
    notes = dst_notes(spec, after_spring, MADRID, "en")
    assert [n.split(" clocks")[0] for n in notes] == ["On Sunday 25 October 2026", "On Sunday 28 March 2027"]


def test_half_hour_zones() -> None:
    spec = parse_recurring("30 2 * * *", 1)
    assert dst_notes(spec, JAN_1, KOLKATA, "en") == []  # no DST
    adelaide = dst_notes(spec, JAN_1, ADELAIDE, "en")
    assert [n.split(" clocks")[0] for n in adelaide] == ["On Sunday 5 April 2026", "On Sunday 4 October 2026"]
    assert "go back from 03:00 to 02:00" in adelaide[0] and "(UTC+10:30)" in adelaide[0]
    assert "go forward from 02:00 to 03:00" in adelaide[1]


def test_no_note_for_a_change_after_the_run_that_uses_the_schedules_count() -> None:
    """A daily 02:30 with `count` 2 made on 13 March ends on the 16th (the 14th's 02:30 does not exist and is
    no run): the note names the change of the 14th and none of a later year."""
    stack = MemoryStack()
    stack.clock.current = datetime(2027, 3, 13, 15, 0, tzinfo=UTC)
    arguments = {"message": "pills", "cron": "every day at 2:30am", "timezone": "America/New_York"}
    counted = stack.call("create_reminder", {**arguments, "count": 2})["result"]["dst_notes"]
    endless = stack.call("create_reminder", {**arguments, "message": "water"})["result"]["dst_notes"]
    assert [note for note in counted if "2027" in note] == counted and len(counted) == 1
    assert any("2028" in note for note in endless)
