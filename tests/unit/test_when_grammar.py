"""The calendar grammar (core/language/days.py) and the amounts of time, as a user writes them, in English and
Spanish, in three zones and across the autumn DST change. Expected wall-clock times are worked out by
hand from a calendar for a fixed `now`: Friday 2026-10-23 10:00 local time. Madrid's clocks go back on
Sunday 2026-10-25 (03:00 -> 02:00), New York's on Sunday 2026-11-01; Tokyo keeps UTC+09:00."""

from __future__ import annotations

from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cronbell.core.contract import errors
from cronbell.core.domain.refusals import INVALID_TIME, TIME_IN_PAST, ToolError
from cronbell.core.language.recurring import parse_recurring
from cronbell.core.language.when import parse_one_shot

ZONES = [ZoneInfo("Europe/Madrid"), ZoneInfo("America/New_York"), ZoneInfo("Asia/Tokyo")]
MADRID, NEW_YORK, TOKYO = ZONES
# (summer offset, winter offset, the winter that follows `now` as wall-clock times)
OFFSETS = {
    "Europe/Madrid": (2, 1, datetime(2026, 10, 25, 3, 0), datetime(2027, 3, 28, 2, 0)),
    "America/New_York": (-4, -5, datetime(2026, 11, 1, 2, 0), datetime(2027, 3, 14, 2, 0)),
    "Asia/Tokyo": (9, 9, datetime(2026, 1, 1), datetime(2026, 1, 1)),
}


def now_in(zone: ZoneInfo) -> datetime:
    return datetime(2026, 10, 23, 10, 0, tzinfo=zone)


def offset_at(zone: ZoneInfo, wall: datetime) -> timedelta:
    summer, winter, start, end = OFFSETS[zone.key]
    return timedelta(hours=winter if start <= wall < end else summer)


DEFAULT = "default"  # the answer says which default hour it took

# (text, language, expected wall-clock time, whether a default hour was used)
CALENDAR = [
    # a date without a time of day, at the default hour
    ("tomorrow", "en", "2026-10-24 09:00", DEFAULT),
    ("friday", "en", "2026-10-30 09:00", DEFAULT),  # today's 09:00 has passed
    ("next friday", "en", "2026-10-30 09:00", DEFAULT),
    ("December 27", "en", "2026-12-27 09:00", DEFAULT),
    ("friday the 13th", "en", "2026-11-13 09:00", DEFAULT),
    ("el día 18", "es", "2026-11-18 09:00", DEFAULT),
    ("el viernes", "es", "2026-10-30 09:00", DEFAULT),
    ("mañana", "es", "2026-10-24 09:00", DEFAULT),
    # weekday with a day number or ordinal: the next date where both agree
    ("tuesday the 8th at 9", "en", "2026-12-08 09:00", ""),
    ("tuesday december 8 at 9", "en", "2026-12-08 09:00", ""),
    ("Tuesday, December 8, 2026 at 9:15", "en", "2026-12-08 09:15", ""),
    ("el martes 8 a las 9", "es", "2026-12-08 09:00", ""),
    ("el martes 8 de diciembre a las 9", "es", "2026-12-08 09:00", ""),
    # a day number alone; months and ordinals in any order
    ("the 8th at 9", "en", "2026-11-08 09:00", ""),
    ("el 8 a las 9", "es", "2026-11-08 09:00", ""),
    ("the twenty-first of november at 6pm", "en", "2026-11-21 18:00", ""),
    ("dec. 1st, 2026 at 9", "en", "2026-12-01 09:00", ""),
    ("nov 3 at 8:45", "en", "2026-11-03 08:45", ""),
    ("el primero de diciembre a las 10", "es", "2026-12-01 10:00", ""),
    ("el 3 de nov a las 8", "es", "2026-11-03 08:00", ""),
    ("the first of march at 9", "en", "2027-03-01 09:00", ""),
    # times alone
    ("7:56 pm", "en", "2026-10-23 19:56", ""),
    ("3 p.m.", "en", "2026-10-23 15:00", ""),
    ("9a", "en", "2026-10-24 09:00", ""),  # 09:00 today has passed
    ("11p", "en", "2026-10-23 23:00", ""),
    ("12 noon", "en", "2026-10-23 12:00", ""),
    ("noonish", "en", "2026-10-23 12:00", ""),
    ("at midnight", "en", "2026-10-24 00:00", ""),
    ("a las 17h", "es", "2026-10-23 17:00", ""),
    ("at ten thirty", "en", "2026-10-23 10:30", ""),
    ("tomorrow at seven pm", "en", "2026-10-24 19:00", ""),
    ("half past ten tomorrow", "en", "2026-10-24 10:30", ""),
    ("ten o'clock tomorrow", "en", "2026-10-24 10:00", ""),
    ("at 5:30pm on friday", "en", "2026-10-23 17:30", ""),
    ("10am on the 24th", "en", "2026-10-24 10:00", ""),
    ("24 dec 2026 10:00", "en", "2026-12-24 10:00", ""),
    ("december 24th, 2026 10am", "en", "2026-12-24 10:00", ""),
    ("a las nueve y media", "es", "2026-10-23 21:30", ""),  # 12-hour clock: 09:30 has passed
    ("mañana a la una", "es", "2026-10-24 13:00", ""),  # with a day: the afternoon
    ("el lunes a las cinco de la tarde", "es", "2026-10-26 17:00", ""),
    ("el jueves que viene a las 10", "es", "2026-10-29 10:00", ""),
    # parts of the day, with and without a time
    ("tomorrow morning", "en", "2026-10-24 09:00", DEFAULT),
    ("tomorrow evening", "en", "2026-10-24 19:00", DEFAULT),
    ("this afternoon", "en", "2026-10-23 15:00", DEFAULT),
    ("tonight", "en", "2026-10-23 21:00", DEFAULT),
    ("tomorrow at 7 in the evening", "en", "2026-10-24 19:00", ""),
    ("monday morning at 8", "en", "2026-10-26 08:00", ""),
    ("mañana por la tarde", "es", "2026-10-24 15:00", DEFAULT),
    ("mañana por la tarde a las 5", "es", "2026-10-24 17:00", ""),
    ("mañana por la mañana", "es", "2026-10-24 09:00", DEFAULT),
    ("pasado mañana por la noche", "es", "2026-10-25 21:00", DEFAULT),
    ("esta noche", "es", "2026-10-23 21:00", DEFAULT),
    ("el lunes por la mañana a las 8", "es", "2026-10-26 08:00", ""),
    # end of the day, last day of the month
    ("end of the day", "en", "2026-10-23 18:00", DEFAULT),
    ("by the end of the day", "en", "2026-10-23 18:00", DEFAULT),
    ("al final del día", "es", "2026-10-23 18:00", DEFAULT),
    ("on the last day of the month at 9", "en", "2026-10-31 09:00", ""),
    ("the last day of the month", "en", "2026-10-31 09:00", DEFAULT),
    ("el último día del mes a las 9", "es", "2026-10-31 09:00", ""),
    # numeric dates by language, ISO-like forms
    ("12/24 8pm", "en", "2026-12-24 20:00", ""),
    ("12/24/2026 at 8:30", "en", "2026-12-24 08:30", ""),
    ("24/12 a las 20:00", "es", "2026-12-24 20:00", ""),
    ("24/12/2026 20:00", "es", "2026-12-24 20:00", ""),
    ("24-12-2026 a las 8", "es", "2026-12-24 08:00", ""),
    ("2026/12/24 10:00", "en", "2026-12-24 10:00", ""),
    ("2026-12-24", "en", "2026-12-24 09:00", DEFAULT),
    ("11-nov-2026", "en", "2026-11-11 09:00", DEFAULT),
    ("02-11-26", "es", "2026-11-02 09:00", DEFAULT),
    # Monday and today are days like any other (weekday 0, offset 0)
    ("monday", "en", "2026-10-26 09:00", DEFAULT),
    ("para el lunes", "es", "2026-10-26 09:00", DEFAULT),
    ("today at 11", "en", "2026-10-23 11:00", ""),
    # a weekday of next week, a day of next month
    ("friday next week", "en", "2026-10-30 09:00", DEFAULT),
    ("monday next week at 8", "en", "2026-10-26 08:00", ""),
    ("el viernes de la semana que viene", "es", "2026-10-30 09:00", DEFAULT),
    ("the first of next month", "en", "2026-11-01 09:00", DEFAULT),
    ("el 1 del mes que viene a las 10", "es", "2026-11-01 10:00", ""),
    ("the last day of next month", "en", "2026-11-30 09:00", DEFAULT),
    ("el primero de mes", "es", "2026-11-01 09:00", DEFAULT),
    # minutes past or to an hour, o'clock with a part of the day, a day number before a part of the day
    ("twenty to nine tomorrow", "en", "2026-10-24 08:40", ""),
    ("quarter to six tonight", "en", "2026-10-23 17:45", ""),
    ("quarter to six in the evening", "en", "2026-10-23 17:45", ""),
    ("a las doce menos diez", "es", "2026-10-23 11:50", ""),
    ("a las nueve y diez de la noche", "es", "2026-10-23 21:10", ""),
    ("at 5 o'clock in the afternoon", "en", "2026-10-23 17:00", ""),
    ("midnight tonight", "en", "2026-10-24 00:00", ""),
    ("el viernes 30 por la mañana", "es", "2026-10-30 09:00", DEFAULT),
    # abbreviations, courtesy
    ("lun 26 oct a las 8", "es", "2026-10-26 08:00", ""),
    ("fri. at 3pm", "en", "2026-10-23 15:00", ""),
    ("remind me on friday at 3pm please", "en", "2026-10-23 15:00", ""),
    ("Tomorrow @ 10:30am", "en", "2026-10-24 10:30", ""),
    ("por favor, el 1ro de noviembre a las 9", "es", "2026-11-01 09:00", ""),
    ("weds 10am", "en", "2026-10-28 10:00", ""),
    ("a las 15:00 h", "es", "2026-10-23 15:00", ""),
    ("el último día de noviembre", "es", "2026-11-30 09:00", DEFAULT),
    ("the last day of february at 8", "en", "2027-02-28 08:00", ""),
    # after a weekday, "de la tarde" belongs to an hour and "por la tarde" to the day
    ("friday 8 pm", "en", "2026-10-23 20:00", ""),
    ("el viernes 8 de la tarde", "es", "2026-10-23 20:00", ""),
    ("el viernes 30 por la tarde", "es", "2026-10-30 15:00", DEFAULT),
    # next year, "el próximo" before a day number
    ("june 5th next year", "en", "2027-06-05 09:00", DEFAULT),
    ("el 3 de marzo del año que viene", "es", "2027-03-03 09:00", DEFAULT),
    ("el próximo día 18", "es", "2026-11-18 09:00", DEFAULT),
]

# (text, language, expected wall-clock time): whole days, months and years keep the wall clock
AMOUNTS = [
    ("in two weeks", "en", "2026-11-06 10:00"),
    ("in a fortnight", "en", "2026-11-06 10:00"),
    ("a fortnight from now", "en", "2026-11-06 10:00"),
    ("in 2 years", "en", "2028-10-23 10:00"),
    ("in 3 months", "en", "2027-01-23 10:00"),
    ("in half an hour", "en", "2026-10-23 10:30"),
    ("30 minutes later", "en", "2026-10-23 10:30"),
    ("two hours from now", "en", "2026-10-23 12:00"),
    ("in 90 seconds", "en", "2026-10-23 10:02"),  # 10:01:30, rounded up to the minute
    ("in 1 second", "en", "2026-10-23 10:01"),
    ("dentro de dos semanas", "es", "2026-11-06 10:00"),
    ("en 90 segundos", "es", "2026-10-23 10:02"),
    ("dentro de 2 años", "es", "2028-10-23 10:00"),
    ("en tres horas", "es", "2026-10-23 13:00"),
    ("en una hora y media", "es", "2026-10-23 11:30"),
    ("dentro de una semana", "es", "2026-10-30 10:00"),
    ("in one hour", "en", "2026-10-23 11:00"),
    ("dentro de 10 días a las 9", "es", "2026-11-02 09:00"),
    ("in two and a half hours", "en", "2026-10-23 12:30"),
    ("in 1.5 hours", "en", "2026-10-23 11:30"),
    ("en hora y media", "es", "2026-10-23 11:30"),
    ("en una hora y cuarto", "es", "2026-10-23 11:15"),
    ("dentro de un par de horas", "es", "2026-10-23 12:00"),
    ("a week from today", "en", "2026-10-30 10:00"),
    ("en tres cuartos de hora", "es", "2026-10-23 10:45"),
    ("de hoy en ocho días", "es", "2026-10-30 10:00"),  # an idiom for a week
]


def wall(text: str) -> datetime:
    return datetime.strptime(text, "%Y-%m-%d %H:%M")


@pytest.mark.parametrize("zone", ZONES, ids=lambda z: z.key)
@pytest.mark.parametrize(("text", "language", "expected", "default"), CALENDAR)
def test_calendar_phrases(text: str, language: str, expected: str, default: str, zone: ZoneInfo) -> None:
    got = parse_one_shot(text, now_in(zone), zone, language)
    want = wall(expected)
    assert got.at.replace(tzinfo=None) == want
    assert got.at.utcoffset() == offset_at(zone, want)
    said_default = [n for n in got.notes if n.startswith(("No time of day given", "Sin hora del día"))]
    assert bool(said_default) == (default == DEFAULT), got.notes
    if default:
        assert f"{want:%H:%M}" in said_default[0]


@pytest.mark.parametrize("zone", ZONES, ids=lambda z: z.key)
@pytest.mark.parametrize(("text", "language", "expected"), AMOUNTS)
def test_amounts_of_time(text: str, language: str, expected: str, zone: ZoneInfo) -> None:
    got = parse_one_shot(text, now_in(zone), zone, language)
    want = wall(expected)
    assert got.at.replace(tzinfo=None) == want
    assert got.at.second == 0 and got.at.utcoffset() == offset_at(zone, want)


def test_instants_across_the_autumn_change() -> None:
    """The exact instants, where elapsed time and wall-clock time differ."""
    madrid, new_york, tokyo = now_in(MADRID), now_in(NEW_YORK), now_in(TOKYO)
    cases = [
        ("sunday at 9", madrid, MADRID, "2026-10-25T09:00:00+01:00"),
        ("in 2 days", madrid, MADRID, "2026-10-25T10:00:00+01:00"),  # 49 hours: the wall clock is kept
        ("in 48 hours", madrid, MADRID, "2026-10-25T09:00:00+01:00"),  # elapsed time
        ("november 2 at 9", new_york, NEW_YORK, "2026-11-02T09:00:00-05:00"),
        ("in 10 days", new_york, NEW_YORK, "2026-11-02T10:00:00-05:00"),
        ("in 10 days", tokyo, TOKYO, "2026-11-02T10:00:00+09:00"),
    ]
    for text, now, zone, expected in cases:
        assert parse_one_shot(text, now, zone).at.isoformat() == expected, text


def test_a_repeated_wall_time_is_the_first_and_named() -> None:
    got = parse_one_shot("el domingo a las 2:30 de la madrugada", now_in(MADRID), MADRID, "es")
    assert got.at.isoformat() == "2026-10-25T02:30:00+02:00"
    assert "ocurre dos veces" in got.notes[0]
    got = parse_one_shot("november 1 at 1:30am", now_in(NEW_YORK), NEW_YORK, "en")
    assert got.at.isoformat() == "2026-11-01T01:30:00-04:00"
    assert "happens twice" in got.notes[0]


@pytest.mark.parametrize(
    ("zone", "now", "text", "expected"),
    [
        ("Australia/Lord_Howe", "2028-04-01T15:05:00+00:00", "01:50", "2028-04-02T01:50:00+10:30"),  # a 30-min repeat
        ("Australia/Lord_Howe", "2028-04-01T15:05:00+00:00", "1:50am", "2028-04-02T01:50:00+10:30"),
        ("Australia/Lord_Howe", "2028-04-01T15:05:00+00:00", "2028-04-02 01:50", "2028-04-02T01:50:00+10:30"),
        ("America/Santiago", "2028-04-02T03:10:00+00:00", "tonight at 11:50", "2028-04-01T23:50:00-04:00"),
        ("America/New_York", "2027-11-07T06:10:00+00:00", "01:50", "2027-11-07T01:50:00-05:00"),
        ("America/New_York", "2027-11-07T06:10:00+00:00", "a la 1:30", "2027-11-07T01:30:00-05:00"),
    ],
)
def test_a_repeated_wall_time_said_after_its_first_one_is_the_second_still_ahead(
    zone: str, now: str, text: str, expected: str
) -> None:
    """During the repeated hour, after the first 01:50 has passed, '01:50' is the second one: still ahead on
    the wall clock ("today, or tomorrow if past"), so not refused as past. The note names the second."""
    tz = ZoneInfo(zone)
    language = "es" if text.startswith("a la") else "en"
    got = parse_one_shot(text, datetime.fromisoformat(now), tz, language)
    assert got.at.isoformat() == expected and got.at.fold == 1
    said = got.notes[-1]
    assert ("second one" in said or "segunda" in said) and "first one" not in " ".join(got.notes)
    behind = {"Australia/Lord_Howe": "01:20", "America/Santiago": "23:00", "America/New_York": "01:05"}[zone]
    earlier = parse_one_shot(behind, datetime.fromisoformat(now), tz)
    assert earlier.at.date() > got.at.date()  # behind the wall clock: tomorrow's, as any past time of day


@pytest.mark.parametrize(
    ("now", "text", "language", "expected", "said"),
    [
        ("2027-04-12T10:00", "the 31st at 9", "en", "2027-05-31", True),  # April has no 31st
        ("2027-04-12T10:00", "el 31 a las 9", "es", "2027-05-31", True),
        ("2027-01-31T10:00", "the 31st at 9", "en", "2027-03-31", True),  # today's has passed, February has none
        ("2027-01-31T08:00", "the 31st at 9", "en", "2027-01-31", False),
        ("2027-04-12T10:00", "the 10th at 9", "en", "2027-05-10", False),  # the next month's: nothing skipped
        ("2027-12-31T10:00", "the 30th", "en", "2028-01-30", False),
    ],
)
def test_a_day_number_that_skips_a_month_without_it_says_so(
    now: str, text: str, language: str, expected: str, said: bool
) -> None:
    got = parse_one_shot(text, datetime.fromisoformat(now).replace(tzinfo=MADRID), MADRID, language)
    assert got.at.date().isoformat() == expected
    assert any(expected in n and ("no day" in n or "No hay un día" in n) for n in got.notes) == said, got.notes


def test_a_weekday_alone_said_on_that_weekday_is_next_weeks() -> None:
    """Before the default hour too, so the reading does not flip at 09:00; a time, a part of the day or
    "this" may name today."""
    early = datetime(2026, 10, 23, 8, 0, tzinfo=MADRID)  # a Friday
    cases = [
        ("friday", "en", "2026-10-30T09:00:00+01:00"),
        ("el viernes", "es", "2026-10-30T09:00:00+01:00"),
        ("this friday", "en", "2026-10-23T09:00:00+02:00"),
        ("friday at 5pm", "en", "2026-10-23T17:00:00+02:00"),
        ("el viernes por la tarde", "es", "2026-10-23T15:00:00+02:00"),
        ("friday the 23rd", "en", "2026-10-23T09:00:00+02:00"),
    ]
    for text, language, expected in cases:
        assert parse_one_shot(text, early, MADRID, language).at.isoformat() == expected, text


def test_a_night_hour_after_midnight_is_the_next_day() -> None:
    assert parse_one_shot("tonight at 1", now_in(TOKYO), TOKYO).at.isoformat() == "2026-10-24T01:00:00+09:00"


def test_a_month_without_a_year_that_has_passed_is_next_year_with_a_note() -> None:
    got = parse_one_shot("march 8", now_in(MADRID), MADRID)
    assert got.at.isoformat() == "2027-03-08T09:00:00+01:00"
    assert "No year given: taken as 2027." in got.notes


def test_a_weekday_with_a_day_of_the_month_months_ahead_says_so_and_the_nearer_one_says_nothing() -> None:
    """'friday the 13th' is the next Friday the 13th, and 'tuesday the 15th' the next 15th on a Tuesday, months
    ahead when the nearer 15th is another weekday: the note says which date was read and which was nearer."""
    now = now_in(MADRID)
    later = parse_one_shot("sunday the 31st at 9", now, MADRID)
    assert later.at.date().isoformat() == "2027-01-31"  # said on Friday 23 October 2026
    said = f"read as {later.at.date().isoformat()}, the next date that is both that weekday and that day of the month"
    assert any(note.startswith(said) and "the nearer 2026-10-31 is another weekday" in note for note in later.notes)
    spanish = parse_one_shot("el domingo 31 a las 9", now, MADRID, "es")
    assert spanish.at == later.at and any("la más cercana, 2026-10-31" in note for note in spanish.notes)
    nearest = parse_one_shot("saturday the 31st at 9", now, MADRID)  # 31 October 2026 is a Saturday
    assert nearest.at.date().isoformat() == "2026-10-31" and not any("next date" in n for n in nearest.notes)


# (text, language, words the reason must contain)
REFUSED = [
    ("24/12 8pm", "en", "is not a month/day date"),
    ("12/24 a las 9", "es", "no es una fecha día/mes"),
    ("13/13", "en", "is not a month/day date"),
    ("tuesday december 9 at 9", "en", "that date is not a Tuesday"),  # 9 December 2026 is a Wednesday
    ("el martes 9 de diciembre", "es", "esa fecha no es martes"),
    ("tomorrow friday", "en", "that date is not a Friday"),  # tomorrow is Saturday
    ("december at 9", "en", "name the day of the month too"),
    ("tomorrow at 9 tomorrow", "en", "names a day or a time twice"),
    ("friday monday", "en", "names a day or a time twice"),
    ("mañana de madrugada", "es", "falta la hora del día"),
    ("the 32nd", "en", "there is no such day"),
    ("next week", "en", "name the day of the week too"),
    ("la semana que viene", "es", "indica también el día de la semana"),
    ("next month", "en", "name the day of the month too"),
    ("next year", "en", "name the day of the month too"),
    ("the 31st of next month", "en", "there is no such day"),
    ("next friday next week", "en", "names a day or a time twice"),
    ("friday 8 in the evening", "en", "8 could be the day of the month or the hour"),
    ("monday 9", "en", "9 could be the day of the month or the hour"),
    ("february 30 at 9", "en", "there is no such day"),
]

UNREADABLE = [
    "every friday at 9",  # repeats: a one-shot never guesses
    "next week",
    "soon",
    "9",
    "at 9 and at 10",
    "tomorrow or friday",
    "friday at 25:00",
    "a las 9 de la mañana de la tarde",
    "la semana que viene",
    "next month",
    "once upon a time",
    "5 to 9",  # a range, not twenty to nine
    "half to 9",
    "in 1.33 hours",  # not a whole number of minutes
]


@pytest.mark.parametrize(("text", "language", "reason"), REFUSED)
def test_ambiguous_or_contradictory_dates_are_refused_with_the_reason(text: str, language: str, reason: str) -> None:
    with pytest.raises(ToolError) as info:
        parse_one_shot(text, now_in(MADRID), MADRID, language)
    assert info.value.code == INVALID_TIME
    assert reason in errors.message(info.value, language)


# words that name the past: refused as any time in the past is, with the time it is now
PAST_WORDS = [
    ("2 days ago", "en", "names a time in the past"),
    ("last friday", "en", "names a time in the past"),
    ("the day before yesterday", "en", "names a time in the past"),
    ("el lunes pasado", "es", "nombra un momento pasado"),
    ("hace dos horas", "es", "nombra un momento pasado"),
]


@pytest.mark.parametrize(("text", "language", "reason"), PAST_WORDS)
def test_words_that_name_the_past_are_a_time_in_the_past(text: str, language: str, reason: str) -> None:
    with pytest.raises(ToolError) as info:
        parse_one_shot(text, now_in(MADRID), MADRID, language)
    assert info.value.code == TIME_IN_PAST
    assert reason in errors.message(info.value, language)


@pytest.mark.parametrize("text", UNREADABLE)
def test_other_words_are_refused_not_guessed(text: str) -> None:
    with pytest.raises(ToolError) as info:
        parse_one_shot(text, now_in(MADRID), MADRID, "en")
    assert info.value.code == INVALID_TIME


def test_a_full_date_in_the_past_is_past_not_next_year() -> None:
    with pytest.raises(ToolError) as info:
        parse_one_shot("october 1 2026 at 9", now_in(MADRID), MADRID)
    assert info.value.code == TIME_IN_PAST
    with pytest.raises(ToolError) as info:
        parse_one_shot("today at 9am", now_in(MADRID), MADRID)
    assert info.value.code == TIME_IN_PAST


def test_a_month_later_than_a_day_the_month_lacks_is_its_last_day_and_says_so() -> None:
    """'in 1 month' on 31 January is 28 February, as calendars count it, never a refusal or 3 March; a year
    from 29 February is 28 February; a day every month has is kept as it is, with no note."""
    cases = [
        ("in 1 month", "en", datetime(2027, 1, 31, 10, 0), "2027-02-28T10:00:00+01:00", "That month has no day 31"),
        ("en un mes a las 9", "es", datetime(2027, 1, 31, 10, 0), "2027-02-28T09:00:00+01:00", "no tiene día 31"),
        ("in 3 months", "en", datetime(2027, 1, 31, 10, 0), "2027-04-30T10:00:00+02:00", "its last day is used"),
        ("in a year", "en", datetime(2028, 2, 29, 10, 0), "2029-02-28T10:00:00+01:00", "That month has no day 29"),
        ("in 1 month and 2 days", "en", datetime(2027, 1, 31, 10, 0), "2027-03-02T10:00:00+01:00", "no day 31"),
    ]
    for text, language, now, expected, note in cases:
        got = parse_one_shot(text, now.replace(tzinfo=MADRID), MADRID, language)
        assert got.at.isoformat() == expected, text
        assert any(note in n for n in got.notes), (text, got.notes)
    kept = parse_one_shot("in 2 months", datetime(2027, 1, 31, 10, 0, tzinfo=MADRID), MADRID)
    assert kept.at.isoformat() == "2027-03-31T10:00:00+02:00" and not any("no day" in n for n in kept.notes)


def test_a_time_typed_without_its_colon_is_read_as_hours_and_minutes() -> None:
    """'830' as phone keyboards leave '8:30', in both languages and in a recurrence; no hour past 23 and no
    minute past 59 is made up from four digits."""
    now = datetime(2026, 12, 15, 10, 20, tzinfo=MADRID)
    cases = [
        ("tomorrow at 830", "en", "2026-12-16T08:30:00+01:00"),
        ("tomorrow at 830pm", "en", "2026-12-16T20:30:00+01:00"),
        ("tomorrow at 1430", "en", "2026-12-16T14:30:00+01:00"),
        ("mañana a las 0945", "es", "2026-12-16T09:45:00+01:00"),
    ]
    for text, language, expected in cases:
        assert parse_one_shot(text, now, MADRID, language).at.isoformat() == expected, text
    assert parse_recurring("every weekday at 830", 5).expr == "30 8 * * 1-5"
    for text in ("tomorrow at 2460", "tomorrow at 2400", "tomorrow at 99"):
        with pytest.raises(ToolError):
            parse_one_shot(text, now, MADRID)


def test_a_weekday_misspelt_as_phone_keyboards_leave_it_is_that_weekday() -> None:
    """'wendsday', 'thrusday', 'firday': the weekday they misspell, one-shot or recurring, as 'tommorow'
    is tomorrow; the spelling is the only difference from the same phrase spelt right."""
    now = datetime(2026, 12, 15, 10, 20, tzinfo=MADRID)  # a Tuesday
    for wrong, right in [("wendsday", "wednesday"), ("thrusday", "thursday"), ("firday", "friday")]:
        said = parse_one_shot(f"{wrong} at 11am", now, MADRID).at
        assert said == parse_one_shot(f"{right} at 11am", now, MADRID).at, wrong
        assert parse_recurring(f"every {wrong} at 11am", 5).expr == parse_recurring(f"every {right} at 11am", 5).expr
    assert parse_recurring("every tuseday and thursdy at 9", 5).expr == "0 9 * * 2,4"


TOKENS = (
    "at", "on", "the", "of", "el", "de", "a las", "la", "next", "this", "tomorrow", "mañana", "hoy", "tonight",
    "morning", "tarde", "noche", "madrugada", "friday", "martes", "december", "dec.", "mayo", "8", "8th", "31",
    "32", "0", "2026", "1999", "9999", "9", "9:30", "25:00", "9am", "9a", "pm", "noon", "noonish", "12", "/",
    "12/24", "24/12", "2026-12-24", "0000-01-01", "in", "en", "dentro de", "2", "two", "una", "half", "quarter",
    "past", "to", "y media", "menos cuarto", "weeks", "years", "months", "seconds", "later", "from now",
    "last day of the month", "end of the day", "último día del mes", "first", "twenty-first", "primero", ",",
    "ten", "o'clock", "99999999999999999999", "días", "next week", "next month", "of the month", "twenty",
    "menos diez", "ago", "pasado", "@", "please", "1.5", "and a half", "lun", "11-nov-2026", "de la semana que viene",
)  # fmt: skip


@pytest.mark.slow
@settings(max_examples=600, deadline=None, derandomize=True)
@given(st.lists(st.sampled_from(TOKENS), min_size=1, max_size=7), st.sampled_from(["en", "es"]))
def test_any_mix_of_words_is_read_or_refused(words: list[str], language: str) -> None:
    """Never an unexpected error: a reading strictly after now, or a structured refusal."""
    now = now_in(MADRID)
    try:
        got = parse_one_shot(" ".join(words), now, MADRID, language)
    except ToolError as err:
        assert err.code in (INVALID_TIME, TIME_IN_PAST)
        return
    assert got.at > now and got.at.microsecond == 0


def test_quince_dias_is_fifteen_days_and_says_that_two_weeks_is_said_otherwise() -> None:
    """'dentro de quince días' is often meant as two weeks ('cada quince días' is refused as ambiguous): the
    one-shot keeps the words' reading, and says it; digits and English say what they mean, without a note."""
    now = now_in(MADRID)
    said = parse_one_shot("dentro de quince días a las 9", now, MADRID, "es")
    assert said.at.date().isoformat() == "2026-11-07"
    assert "'quince días' se entiende como 15 días (2026-11-07); para dos semanas di 'dos semanas'." in said.notes
    week = parse_one_shot("dentro de ocho días a las 9", now, MADRID, "es")  # often a week: said alike
    assert "'ocho días' se entiende como 8 días (2026-10-31); para una semana di 'una semana'." in week.notes
    for text, locale in (("dentro de 15 días a las 9", "es"), ("in fifteen days at 9", "en")):
        plain = parse_one_shot(text, now, MADRID, locale)
        assert plain.at == said.at and not any("15 d" in note for note in plain.notes)
