"""One-shot time grammar: English and Spanish phrases, refusals, time zones and DST."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo, available_timezones

import pytest

from cronbell.core.contract import errors
from cronbell.core.domain.refusals import INVALID_TIME, INVALID_TIMEZONE, TIME_IN_PAST, ToolError
from cronbell.core.language.when import CLOSEST_FORMS, OneShot, accepted_forms, parse_one_shot, parse_until
from cronbell.core.language.zone_ids import ABBREVIATIONS, resolve_timezone

MADRID = ZoneInfo("Europe/Madrid")
NEW_YORK = ZoneInfo("America/New_York")
KOLKATA = ZoneInfo("Asia/Kolkata")
ADELAIDE = ZoneInfo("Australia/Adelaide")
# Wednesday 13 May 2026, 10:23:17 in Madrid (UTC+02:00)
NOW = datetime(2026, 5, 13, 10, 23, 17, 500, tzinfo=MADRID)

ENGLISH = [
    # dictated a.m./p.m., a clock of four digits after a word, a place in next month, the end of next month
    ("at five thirty p m tomorrow", "2026-05-14T17:30:00+02:00"),
    ("tomorrow at seven a m", "2026-05-14T07:00:00+02:00"),
    ("tomorrow 0800", "2026-05-14T08:00:00+02:00"),
    ("first monday of next month", "2026-06-01T09:00:00+02:00"),
    ("the last friday of next month at 5pm", "2026-06-26T17:00:00+02:00"),
    # "of the month": the coming one (it was read as a past Friday, and the first Monday as one that is a 1st)
    ("the last friday of the month at 5pm", "2026-05-29T17:00:00+02:00"),
    ("the first monday of the month", "2026-06-01T09:00:00+02:00"),
    ("the 2nd tuesday of the month at 10", "2026-06-09T10:00:00+02:00"),
    ("end of next month at 10am", "2026-06-30T10:00:00+02:00"),
    ("next business day", "2026-05-14T09:00:00+02:00"),  # a day named without a time: 09:00, said
    ("in 1 business day", "2026-05-14T10:23:00+02:00"),  # an amount of days keeps the time of day
    ("2026-12-31T23:59:00Z", "2027-01-01T00:59:00+01:00"),
    ("2026-12-31T23:59:00+01:00", "2026-12-31T23:59:00+01:00"),
    ("2026-07-01t08:00:00-04:00", "2026-07-01T14:00:00+02:00"),
    ("2026-06-01T09:00:00", "2026-06-01T09:00:00+02:00"),
    ("2026-06-01 09:00", "2026-06-01T09:00:00+02:00"),
    ("2026-06-01 9:00", "2026-06-01T09:00:00+02:00"),
    ("11:00", "2026-05-13T11:00:00+02:00"),
    ("09:00", "2026-05-14T09:00:00+02:00"),
    ("10:23", "2026-05-13T22:23:00+02:00"),  # 12-hour clock: the next 10:23 is tonight
    ("09:30", "2026-05-14T09:30:00+02:00"),  # a leading zero is the 24-hour clock
    ("at 7pm", "2026-05-13T19:00:00+02:00"),
    ("at noon", "2026-05-13T12:00:00+02:00"),
    ("in 30 minutes", "2026-05-13T10:53:17+02:00"),
    ("In 2 Hours", "2026-05-13T12:23:17+02:00"),
    ("in an hour", "2026-05-13T11:23:17+02:00"),
    ("in half an hour", "2026-05-13T10:53:17+02:00"),
    ("in 1 hour and 30 minutes", "2026-05-13T11:53:17+02:00"),
    ("in 3 days", "2026-05-16T10:23:17+02:00"),
    ("in 90 min", "2026-05-13T11:53:17+02:00"),
    ("tomorrow at 9", "2026-05-14T09:00:00+02:00"),
    ("tomorrow at 9:30am", "2026-05-14T09:30:00+02:00"),
    ("Tomorrow 9 p.m.", "2026-05-14T21:00:00+02:00"),
    ("tomorrow at 12am", "2026-05-14T00:00:00+02:00"),
    ("9am tomorrow", "2026-05-14T09:00:00+02:00"),
    ("today at 18:00", "2026-05-13T18:00:00+02:00"),
    ("the day after tomorrow at 9", "2026-05-15T09:00:00+02:00"),
    ("next monday at 10", "2026-05-18T10:00:00+02:00"),
    ("monday at 10", "2026-05-18T10:00:00+02:00"),
    ("on Friday at 5pm", "2026-05-15T17:00:00+02:00"),
    ("wednesday at 11", "2026-05-13T11:00:00+02:00"),  # today, still ahead
    ("wednesday at 9", "2026-05-20T09:00:00+02:00"),  # today's is past: next week
    ("next wednesday at 11", "2026-05-20T11:00:00+02:00"),  # "next" is never today
    ("next sun at 8:15", "2026-05-17T08:15:00+02:00"),
    ("december 1 at 9", "2026-12-01T09:00:00+01:00"),
    ("Dec 1st 2026 at 9:15", "2026-12-01T09:15:00+01:00"),
    ("on the 4th of july at 8pm", "2026-07-04T20:00:00+02:00"),
    ("in 1h30m", "2026-05-13T11:53:17+02:00"),
    ("in 2h 15m", "2026-05-13T12:38:17+02:00"),
    ("in 45m", "2026-05-13T11:08:17+02:00"),
    ("in an hour and a half", "2026-05-13T11:53:17+02:00"),
    ("in 3 days at 9am", "2026-05-16T09:00:00+02:00"),
    ("in 2 weeks at 10:30", "2026-05-27T10:30:00+02:00"),
    ("tonight at 8", "2026-05-13T20:00:00+02:00"),
    ("tonight at 12", "2026-05-14T00:00:00+02:00"),  # midnight
    ("tonight at 1", "2026-05-14T01:00:00+02:00"),  # after midnight: tomorrow's date
    ("at 7 this evening", "2026-05-13T19:00:00+02:00"),
    ("this afternoon at 3:30", "2026-05-13T15:30:00+02:00"),
    ("this morning at 11", "2026-05-13T11:00:00+02:00"),
    ("tomorrow at half past 9", "2026-05-14T09:30:00+02:00"),
    ("quarter to 5 pm", "2026-05-13T16:45:00+02:00"),
    ("quarter past 10 tomorrow", "2026-05-14T10:15:00+02:00"),
    ("the 13th at 11", "2026-05-13T11:00:00+02:00"),  # today, still ahead
    ("the 13th at 9", "2026-06-13T09:00:00+02:00"),  # today's is past: next month
    ("on the 31st at 9", "2026-05-31T09:00:00+02:00"),
]

SPANISH = [
    ("el primer lunes del mes que viene", "2026-06-01T09:00:00+02:00"),
    ("el último viernes del mes a las 17", "2026-05-29T17:00:00+02:00"),
    ("el primer lunes del mes a las 9", "2026-06-01T09:00:00+02:00"),
    ("a fin del mes que viene a las 10", "2026-06-30T10:00:00+02:00"),
    ("al final del mes próximo a las 10", "2026-06-30T10:00:00+02:00"),
    ("mñana a las 9", "2026-05-14T09:00:00+02:00"),
    ("mañana a un cuarto para las 8", "2026-05-14T07:45:00+02:00"),  # Mexico: 7:45
    ("mañana veinte para las nueve", "2026-05-14T08:40:00+02:00"),
    ("mñn a las 8", "2026-05-14T08:00:00+02:00"),
    ("el próximo día hábil", "2026-05-14T09:00:00+02:00"),
    ("mañana a las 10 hora canaria", "2026-05-14T11:00:00+02:00"),
    ("mañana a las 10 hora de la ciudad de méxico", "2026-05-14T18:00:00+02:00"),
    ("en 30 minutos", "2026-05-13T10:53:17+02:00"),
    ("en una hora", "2026-05-13T11:23:17+02:00"),
    ("en un minuto", "2026-05-13T10:24:17+02:00"),
    ("dentro de 2 horas", "2026-05-13T12:23:17+02:00"),
    ("en 3 días", "2026-05-16T10:23:17+02:00"),
    ("dentro de 1 dia", "2026-05-14T10:23:17+02:00"),
    ("en 2 horas y media", "2026-05-13T12:53:17+02:00"),
    ("en media hora", "2026-05-13T10:53:17+02:00"),
    ("en 1 hora y 15 minutos", "2026-05-13T11:38:17+02:00"),
    ("mañana a las 9", "2026-05-14T09:00:00+02:00"),
    ("Mañana a las 9:30", "2026-05-14T09:30:00+02:00"),
    ("MAÑANA A LAS 10 DE LA MAÑANA", "2026-05-14T10:00:00+02:00"),
    ("manana a las 21:00", "2026-05-14T21:00:00+02:00"),
    ("mañana a las 6 de la tarde", "2026-05-14T18:00:00+02:00"),
    ("mañana a la 1", "2026-05-14T13:00:00+02:00"),  # with a day, an hour of 1 to 5 is in the afternoon
    ("mañana a las 8 menos cuarto", "2026-05-14T07:45:00+02:00"),
    ("hoy a las 18:00", "2026-05-13T18:00:00+02:00"),
    ("pasado mañana a las 9", "2026-05-15T09:00:00+02:00"),
    ("el lunes a las 10", "2026-05-18T10:00:00+02:00"),
    ("el próximo lunes a las 10", "2026-05-18T10:00:00+02:00"),
    ("el lunes que viene a las 10:30", "2026-05-18T10:30:00+02:00"),
    ("el miércoles a las 9", "2026-05-20T09:00:00+02:00"),
    ("el miércoles a las 12", "2026-05-13T12:00:00+02:00"),
    ("el próximo miércoles a las 12", "2026-05-20T12:00:00+02:00"),
    ("el viernes a las 17:30", "2026-05-15T17:30:00+02:00"),
    ("el sábado a mediodía", "2026-05-16T12:00:00+02:00"),
    ("el domingo a las 10 de la noche", "2026-05-17T22:00:00+02:00"),
    ("el 1 de diciembre a las 9", "2026-12-01T09:00:00+01:00"),
    ("el 24 de diciembre de 2026 a las 20:00", "2026-12-24T20:00:00+01:00"),
    ("a las 21:00", "2026-05-13T21:00:00+02:00"),
    ("a las 9 y media de la noche", "2026-05-13T21:30:00+02:00"),
    ("a las 10", "2026-05-13T22:00:00+02:00"),  # 12-hour clock: 10:00 has passed, 22:00 is next
    ("a las 10 de la mañana", "2026-05-14T10:00:00+02:00"),  # 10:00 today has passed: tomorrow
    ("en 1h30m", "2026-05-13T11:53:17+02:00"),
    ("dentro de 3 días a las 9", "2026-05-16T09:00:00+02:00"),
    ("en 2 semanas a las 10", "2026-05-27T10:00:00+02:00"),
    ("esta noche a las 10", "2026-05-13T22:00:00+02:00"),
    ("esta tarde a las 5 y media", "2026-05-13T17:30:00+02:00"),
    ("a las 5 esta tarde", "2026-05-13T17:00:00+02:00"),
    ("esta mañana a las 11", "2026-05-13T11:00:00+02:00"),
    ("el día 20 a las 18:00", "2026-05-20T18:00:00+02:00"),
    ("el dia 5 a las 9", "2026-06-05T09:00:00+02:00"),
]


@pytest.mark.parametrize(("text", "expected"), ENGLISH)
def test_english_phrases(text: str, expected: str) -> None:
    got = parse_one_shot(text, NOW, MADRID, "en")
    assert got.at.isoformat() == expected
    assert got.at.tzinfo == MADRID and got.at.microsecond == 0 and got.at > NOW


@pytest.mark.parametrize(("text", "expected"), SPANISH)
def test_spanish_phrases(text: str, expected: str) -> None:
    got = parse_one_shot(text, NOW, MADRID, "es")
    assert got.at.isoformat() == expected
    assert got.at > NOW


@pytest.mark.parametrize("language", ["en", "es"])
def test_every_form_the_refusal_advertises_is_accepted(language: str) -> None:
    for line in accepted_forms(language):
        for example in line.split(" / "):
            example = example.split(" (")[0]
            assert parse_one_shot(example, NOW, MADRID, language).at > NOW, example


def test_tables_are_large_enough() -> None:
    assert len(ENGLISH) >= 20 and len(SPANISH) >= 20


def test_language_of_the_phrase_does_not_depend_on_locale() -> None:
    assert parse_one_shot("mañana a las 9", NOW, MADRID, "en") == parse_one_shot("tomorrow at 9", NOW, MADRID, "es")


def test_now_in_another_zone_is_the_same_instant() -> None:
    utc_now = NOW.astimezone(UTC)
    assert parse_one_shot("11:00", utc_now, MADRID).at == parse_one_shot("11:00", NOW, MADRID).at
    # "tomorrow" is tomorrow in the schedule's zone: at 23:30 UTC it is already Thursday in Kolkata
    late = datetime(2026, 5, 13, 23, 30, tzinfo=UTC)
    assert parse_one_shot("tomorrow at 9", late, KOLKATA).at.isoformat() == "2026-05-15T09:00:00+05:30"
    assert parse_one_shot("tomorrow at 9", late, NEW_YORK).at.isoformat() == "2026-05-14T09:00:00-04:00"


def test_naive_now_is_a_programming_error() -> None:
    with pytest.raises(ValueError):
        parse_one_shot("11:00", datetime(2026, 5, 13, 10, 0), MADRID)


INVALID = [
    "",
    "   ",
    "asdf",
    "9",  # a bare number is not a time
    "next blursday at 10",
    "tomorrow at 25:00",
    "tomorrow at 9:75",
    "at 13pm",
    "el 30 de febrero a las 9",
    "2026-02-30 10:00",
    "2026-13-01T10:00:00Z",
    "in minutes",
    "in 100000 days",
    "every day at 9",  # recurring, not a one-shot
    "in 3 hours at 9",  # only whole days take a time of day
    "half to 5",
    "the 32nd at 9",
    "el dia 31 de febrero a las 9",
    "13/05/2026 10:00",  # not a month/day date: refused, never read the other way
    "mañana de madrugada",  # the small hours have no default hour
    "next week",
    "december",
    "tomorrow friday",  # tomorrow is Thursday
    "at 9 and at 10",
    "tomorrow at 9 tomorrow",
]


@pytest.mark.parametrize("text", INVALID)
def test_invalid_phrases(text: str) -> None:
    with pytest.raises(ToolError) as info:
        parse_one_shot(text, NOW, MADRID, "en")
    assert info.value.code == INVALID_TIME
    named = [line.removeprefix("- ") for line in errors.message(info.value).splitlines()[1:]]
    assert 1 <= len(named) <= CLOSEST_FORMS  # a few lines: the closest forms, not all of them
    forms = [form.strip() for line in errors.as_dict(info.value)["details"]["accepted"] for form in line.split(" / ")]
    assert all(any(form.startswith(name) for form in forms) for name in named), named
    assert "tomorrow at 9" in " ".join(errors.as_dict(info.value)["details"]["accepted"])  # the details hold every form


def test_the_closest_forms_are_named() -> None:
    def named(text: str) -> list[str]:
        with pytest.raises(ToolError) as info:
            parse_one_shot(text, NOW, MADRID, "en")
        return [line.removeprefix("- ") for line in errors.message(info.value).splitlines()[1:]]

    assert named("next blursday at 10")[0] == "next monday at 10"
    assert named("2026-13-01T10:00:00Z")[0].startswith("2026-12-31T23:59:00Z")
    assert named("blah") == ["2026-12-31 23:59", "tomorrow at 9", "in 30 minutes"]  # nothing alike: the general ones


@pytest.mark.parametrize("text", ["last friday", "yesterday at 9", "2 days ago", "ayer a las 9", "2020-01-01 09:00"])
def test_a_time_in_the_past_is_time_in_past_whatever_its_form(text: str) -> None:
    with pytest.raises(ToolError) as info:
        parse_one_shot(text, NOW, MADRID, "en")
    assert info.value.code == TIME_IN_PAST
    assert "it is now" in errors.message(info.value)


def test_invalid_message_in_spanish() -> None:
    with pytest.raises(ToolError) as info:
        parse_one_shot("pronto", NOW, MADRID, "es-ES")
    assert info.value.code == INVALID_TIME
    assert errors.message(info.value, "es").startswith("No entiendo la hora 'pronto'")
    assert "mañana a las 9" in errors.message(info.value, "es")


def test_day_without_time_says_what_is_missing() -> None:
    with pytest.raises(ToolError) as info:
        parse_one_shot("mañana de madrugada", NOW, MADRID, "en")
    assert "a time of day is missing" in errors.message(info.value)


@pytest.mark.parametrize("hour", [8, 15])
def test_later_today_without_a_time_asks_for_it_whatever_the_hour(hour: int) -> None:
    """Not today's 09:00 (a time in the past after nine, a time that is not "later" before it)."""
    now = NOW.replace(hour=hour)
    with pytest.raises(ToolError) as info:
        parse_one_shot("later today", now, MADRID, "en")
    assert info.value.code == INVALID_TIME
    assert "a time of day is missing" in errors.message(info.value)
    assert parse_one_shot("later today at 6pm", now, MADRID, "en").at.hour == 18
    assert parse_one_shot("later today in the evening", now, MADRID, "en").at.hour == 19
    # as an end (`until`), a day without a time is that day's last second: "later today" too
    assert parse_until("later today", now, MADRID, "en").at == now.replace(hour=23, minute=59, second=59, microsecond=0)


PAST = [
    "2026-05-13 10:00",
    "2026-05-13T08:23:00Z",  # 10:23:00 in Madrid, 17 s ago
    "2020-01-01T00:00:00Z",
    "today at 9am",
    "hoy a las 10:23 de la mañana",
    "hoy a las 09:00",
    "in 0 minutes",
    "el 1 de enero de 2026 a las 9",
]


@pytest.mark.parametrize("text", PAST)
def test_past_times_are_refused_with_the_current_time(text: str) -> None:
    with pytest.raises(ToolError) as info:
        parse_one_shot(text, NOW, MADRID, "en")
    assert info.value.code == TIME_IN_PAST
    assert "it is now Wednesday 13 May 2026, 10:23 (Europe/Madrid, UTC+02:00)" in errors.message(info.value)
    assert errors.as_dict(info.value)["details"] == {
        "now": {"local": "2026-05-13T10:23:17+02:00", "utc": "2026-05-13T08:23:17Z"}
    }


def test_past_time_message_in_spanish() -> None:
    with pytest.raises(ToolError) as info:
        parse_one_shot("hoy a las 9 de la mañana", NOW, MADRID, "es")
    assert info.value.code == TIME_IN_PAST
    assert "ahora es miércoles 13 de mayo de 2026, 10:23 (Europe/Madrid" in errors.message(info.value, "es")


def test_day_and_month_without_year_rolls_to_next_year_with_a_note() -> None:
    got = parse_one_shot("march 15 at 10", NOW, MADRID, "en")
    assert got.at.isoformat() == "2027-03-15T10:00:00+01:00"
    assert got.notes == ("No year given: taken as 2027.",)
    assert parse_one_shot("el 15 de marzo a las 10", NOW, MADRID, "es").notes == ("Sin año: se entiende 2027.",)
    # later this year: no note
    assert parse_one_shot("june 1 at 10", NOW, MADRID).notes == ()


# --- DST ----------------------------------------------------------------------------------------------


def test_madrid_spring_gap_is_shifted_forward_with_a_note() -> None:
    now = datetime(2026, 3, 27, 12, 0, tzinfo=MADRID)  # a Friday
    got = parse_one_shot("2026-03-29 02:30", now, MADRID, "en")
    assert got.at.isoformat() == "2026-03-29T03:30:00+02:00"
    assert got.notes == (
        "2026-03-29 02:30 does not exist in Europe/Madrid (clocks go forward); using 03:30 (UTC+02:00) instead.",
    )
    spanish = parse_one_shot("el domingo a las 2:30 de la madrugada", now, MADRID, "es")
    assert spanish.at.isoformat() == "2026-03-29T03:30:00+02:00"
    assert "no existe en Europe/Madrid" in spanish.notes[0]


def test_madrid_autumn_overlap_takes_the_first_occurrence() -> None:
    now = datetime(2026, 10, 20, 12, 0, tzinfo=MADRID)
    got = parse_one_shot("2026-10-25 02:30", now, MADRID)
    assert got.at.isoformat() == "2026-10-25T02:30:00+02:00"
    assert got.at.astimezone(UTC) == datetime(2026, 10, 25, 0, 30, tzinfo=UTC)
    assert got.notes == (
        "2026-10-25 02:30 happens twice in Europe/Madrid (clocks go back); using the first one (UTC+02:00).",
    )


def test_new_york_spring_and_autumn() -> None:
    now = datetime(2026, 3, 1, 12, 0, tzinfo=NEW_YORK)
    spring = parse_one_shot("2026-03-08 02:15", now, NEW_YORK)
    assert spring.at.isoformat() == "2026-03-08T03:15:00-04:00" and len(spring.notes) == 1
    autumn = parse_one_shot("2026-11-01 01:30", now, NEW_YORK)
    assert autumn.at.isoformat() == "2026-11-01T01:30:00-04:00" and "happens twice" in autumn.notes[0]
    # RFC3339 with an offset is an exact instant: the second 01:30 is kept, and named
    second = parse_one_shot("2026-11-01T01:30:00-05:00", now, NEW_YORK)
    assert second.at.astimezone(UTC) == datetime(2026, 11, 1, 6, 30, tzinfo=UTC)
    assert second.at.utcoffset() == timedelta(hours=-5)


def test_relative_times_are_elapsed_time_and_name_a_second_occurrence() -> None:
    now = datetime(2026, 11, 1, 1, 10, tzinfo=NEW_YORK)  # first 01:10, EDT
    got = parse_one_shot("in 1 hour", now, NEW_YORK)
    assert got.at.astimezone(UTC) - now.astimezone(UTC) == timedelta(hours=1)
    assert got.at.strftime("%H:%M") == "01:10" and got.at.utcoffset() == timedelta(hours=-5)
    assert got.notes and "this is the second one (UTC-05:00)" in got.notes[0]


def test_in_days_keeps_the_wall_clock_across_a_dst_change() -> None:
    now = datetime(2026, 3, 28, 9, 0, tzinfo=MADRID)
    got = parse_one_shot("in 1 day", now, MADRID)
    assert got.at.isoformat() == "2026-03-29T09:00:00+02:00"
    assert got.at.astimezone(UTC) - now.astimezone(UTC) == timedelta(hours=23)


def test_half_hour_offset_zones() -> None:
    now = datetime(2026, 5, 13, 8, 0, tzinfo=UTC)
    assert parse_one_shot("tomorrow at 9", now, KOLKATA).at.isoformat() == "2026-05-14T09:00:00+05:30"
    # Adelaide: clocks go forward on 2026-10-04 at 02:00 (+09:30 -> +10:30)
    gap = parse_one_shot("2026-10-04 02:30", now, ADELAIDE)
    assert gap.at.isoformat() == "2026-10-04T03:30:00+10:30" and gap.notes
    assert parse_one_shot("2026-10-05 02:30", now, ADELAIDE).notes == ()


def test_result_is_a_one_shot() -> None:
    got = parse_one_shot("tomorrow at 9", NOW, MADRID)
    assert isinstance(got, OneShot) and got.notes == ()


# --- time zones ---------------------------------------------------------------------------------------


def test_resolve_timezone() -> None:
    assert resolve_timezone("America/New_York", "Europe/Madrid") == NEW_YORK
    assert resolve_timezone(None, "Europe/Madrid") == MADRID
    assert resolve_timezone("", "Europe/Madrid") == MADRID
    assert resolve_timezone("  Asia/Kolkata ", "UTC") == KOLKATA


NOT_ZONE_IDS = ["localtime", "posixrules", "Factory", "right/UTC", "posix/Europe/Madrid", "zone.tab", "tzdata.zi"]


@pytest.mark.parametrize(
    "name",
    ["Mars/Olympus", "../etc/passwd", "/etc/localtime", "Europe/", "CEST+2", *NOT_ZONE_IDS]
    + [name.upper() for name in NOT_ZONE_IDS],
)
def test_unknown_timezone(name: str) -> None:
    with pytest.raises(ToolError) as info:
        resolve_timezone(name, "Europe/Madrid")
    assert info.value.code == INVALID_TIMEZONE
    assert "IANA" in errors.message(info.value)


@pytest.mark.parametrize(
    ("given", "zone"),
    [
        ("europe/madrid", "Europe/Madrid"),
        ("utc", "UTC"),
        ("AMERICA/NEW_YORK", "America/New_York"),
        ("etc/gmt+5", "Etc/GMT+5"),
        ("us/eastern", "US/Eastern"),
    ],
)
def test_zone_names_in_the_wrong_case_are_understood(given: str, zone: str) -> None:
    assert resolve_timezone(given, "UTC").key == zone


def test_every_zone_id_of_the_database_is_accepted_but_its_old_abbreviations() -> None:
    ids = {zone for zone in available_timezones() - {"localtime", "posixrules", "Factory"}}
    places = {zone for zone in ids if zone.casefold() not in ABBREVIATIONS}
    assert len(places) > 400
    assert all(resolve_timezone(zone, "UTC").key == zone for zone in places)
    assert all(resolve_timezone(zone.swapcase(), "UTC").key == zone for zone in places)


@pytest.mark.parametrize(
    ("name", "place"),
    [("EST", "America/New_York"), ("cet", "Europe/Paris"), ("HST", "Pacific/Honolulu"), ("PST", "America/Los_Angeles")],
)
def test_an_old_abbreviation_is_refused_naming_the_place_it_stands_for(name: str, place: str) -> None:
    """EST is UTC-05:00 all year: a reminder at 09:00 'EST' in July would post at 10:00 in New York."""
    with pytest.raises(ToolError) as refused:
        resolve_timezone(name, "UTC")
    assert refused.value.code == INVALID_TIMEZONE and refused.value.details["suggested"] == place
    assert place in errors.message(refused.value, "en") and place in errors.message(refused.value, "es")


def test_tomorrow_said_in_the_small_hours_says_which_day_it_is_read_as() -> None:
    """At 00:30 on Friday, "tomorrow at 9" is Saturday, as before, but someone still up may mean this
    morning: the reading was silent. It is said, in both languages, before 04:00 only."""
    small_hours = datetime(2026, 5, 15, 0, 30, tzinfo=MADRID)  # Friday
    got = parse_one_shot("tomorrow at 9", small_hours, MADRID)
    assert got.at.isoformat() == "2026-05-16T09:00:00+02:00"
    assert got.notes == (
        "It is 00:30, past midnight: 'tomorrow' is read as Saturday 16 May; for today, say 'today at 09:00'.",
    )
    es = parse_one_shot("mañana a las 9", small_hours, MADRID, "es")
    assert es.at == got.at and "'mañana' se entiende como sábado 16 de mayo" in es.notes[0]
    for text, now in (
        ("tomorrow at 9", small_hours.replace(hour=4)),  # morning: no note
        ("tomorrow at 2am", small_hours.replace(hour=3, minute=59)),  # "today at 02:00" is past: nothing to offer
        ("the day after tomorrow at 9", small_hours),
        ("hoy a las 9 de la mañana", small_hours),
    ):
        assert parse_one_shot(text, now, MADRID, "es" if "hoy" in text else "en").notes == (), text


def test_the_nth_weekday_of_the_month_said_on_that_day_is_today_while_its_time_is_to_come() -> None:
    """Said on the last Friday at 07:00, "the last friday of the month" was next month's: read as a weekday
    alone ("friday" on a Friday is next week's), though it names a date, as "the 27th" does."""
    friday = datetime(2026, 11, 27, 7, 0, tzinfo=MADRID)
    for text, language in (("the last friday of the month", "en"), ("el último viernes del mes", "es")):
        assert parse_one_shot(text, friday, MADRID, language).at.isoformat() == "2026-11-27T09:00:00+01:00", text
    later = friday.replace(hour=10)  # its 09:00 passed: next month's
    assert parse_one_shot("the last friday of the month", later, MADRID).at.isoformat() == "2026-12-25T09:00:00+01:00"
    monday = datetime(2027, 2, 1, 7, 0, tzinfo=MADRID)
    assert parse_one_shot("el primer lunes del mes", monday, MADRID, "es").at.isoformat() == "2027-02-01T09:00:00+01:00"
