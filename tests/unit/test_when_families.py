"""The families of one-shot phrases widened beyond the first grammar: fractions and approximations, clock
words and idioms, zones named in the phrase, dates without a time, counted days, named holidays and the
stated conventions. Expected times are worked out by hand for `NOW`, Wednesday 2026-05-13 10:23 in Madrid
(UTC+02:00), unless a case names its own."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

import pytest

from cronbell.core.contract import errors
from cronbell.core.domain.refusals import ToolError
from cronbell.core.language.when import parse_one_shot

MADRID = ZoneInfo("Europe/Madrid")
NEW_YORK = ZoneInfo("America/New_York")
NOW = datetime(2026, 5, 13, 10, 23, tzinfo=MADRID)


def local(text: str, language: str = "en", now: datetime = NOW, zone: ZoneInfo = MADRID) -> str:
    return f"{parse_one_shot(text, now, zone, language).at:%Y-%m-%d %H:%M}"


def notes(text: str, language: str = "en", now: datetime = NOW, zone: ZoneInfo = MADRID) -> tuple[str, ...]:
    return parse_one_shot(text, now, zone, language).notes


FRACTIONS = [
    ("in 1/4 hour", "en", "2026-05-13 10:38"),
    ("in 3/4 hour", "en", "2026-05-13 11:08"),
    ("in 1 1/2 hours", "en", "2026-05-13 11:53"),
    ("in a quarter hour", "en", "2026-05-13 10:38"),
    ("in about 20 minutes", "en", "2026-05-13 10:43"),
    ("in 20 minutes or so", "en", "2026-05-13 10:43"),
    ("in roughly an hour", "en", "2026-05-13 11:23"),
    ("en 1/2 hora", "es", "2026-05-13 10:53"),
    ("en unos 20 minutos", "es", "2026-05-13 10:43"),
    ("en 10 minutos aproximadamente", "es", "2026-05-13 10:33"),
    ("en más o menos una hora", "es", "2026-05-13 11:23"),
    ("en veinte horas", "es", "2026-05-14 06:23"),
]


@pytest.mark.parametrize(("text", "language", "expected"), FRACTIONS)
def test_fractions_and_approximate_amounts(text: str, language: str, expected: str) -> None:
    assert local(text, language) == expected


@pytest.mark.parametrize("text", ["in a few minutes", "en unos días", "in a day or two", "in about a while"])
def test_an_amount_without_a_number_is_refused(text: str) -> None:
    with pytest.raises(ToolError):
        parse_one_shot(text, NOW, MADRID, "en")


CLOCK_WORDS = [
    ("eleven fifteen am", "en", "2026-05-13 11:15"),
    ("seven oh five pm", "en", "2026-05-13 19:05"),
    ("a quarter past midday", "en", "2026-05-13 12:15"),
    ("quarter to midnight", "en", "2026-05-13 23:45"),
    ("ten after 4pm", "en", "2026-05-13 16:10"),
    ("at 4pm sharp", "en", "2026-05-13 16:00"),
    ("4ish", "en", "2026-05-13 16:00"),  # the 12-hour rule: 04:00 has passed
    ("at 5 pm-ish", "en", "2026-05-13 17:00"),
    ("at 1530", "en", "2026-05-13 15:30"),
    ("at 0930", "en", "2026-05-14 09:30"),
    ("las siete cero cinco pm", "es", "2026-05-13 19:05"),
    ("a las cuatro y veinte", "es", "2026-05-13 16:20"),
    ("a las 3 de la madrugada", "es", "2026-05-14 03:00"),
    ("sobre las 11", "es", "2026-05-13 11:00"),
]


@pytest.mark.parametrize(("text", "language", "expected"), CLOCK_WORDS)
def test_clock_words_and_idioms(text: str, language: str, expected: str) -> None:
    assert local(text, language) == expected


ZONES = [
    ("5pm CET", "en", "2026-05-13 18:00", "17:00 CET is 18:00 in Europe/Madrid"),  # CET is UTC+01:00 all year
    ("10am PST", "en", "2026-05-13 20:00", "10:00 PST is 20:00"),
    ("Friday 9:00 GMT", "en", "2026-05-15 11:00", "09:00 GMT is 11:00"),
    ("at 3pm ET", "en", "2026-05-13 21:00", "15:00 ET is 21:00"),  # New York's own offset, -04:00 in May
    ("at 9am New York time", "en", "2026-05-13 15:00", "09:00 America/New_York is 15:00"),
    ("at 14:00 UTC+3", "en", "2026-05-13 13:00", "14:00 UTC+3 is 13:00"),
    ("mañana a las 10 CET", "es", "2026-05-14 11:00", "10:00 CET son las 11:00"),
    ("a las 15:00 hora de Nueva York", "es", "2026-05-13 21:00", "15:00 America/New_York son las 21:00"),
]


@pytest.mark.parametrize(("text", "language", "expected", "said"), ZONES)
def test_a_zone_named_in_the_phrase_is_converted_and_both_are_said(
    text: str, language: str, expected: str, said: str
) -> None:
    assert local(text, language) == expected
    assert any(said in note for note in notes(text, language)), notes(text, language)


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("at 9am IST", "IST names more than one time zone (Asia/Kolkata, Asia/Jerusalem, Europe/Dublin)"),
        ("at 9 CST", "CST names more than one time zone (America/Chicago, Asia/Shanghai, America/Havana)"),
        ("at 9am UTC+19", "UTC+19 is not an offset from UTC"),
    ],
)
def test_a_zone_that_names_several_or_none_is_refused_with_the_reason(text: str, reason: str) -> None:
    with pytest.raises(ToolError) as info:
        parse_one_shot(text, NOW, MADRID, "en")
    assert reason in errors.message(info.value)


@pytest.mark.parametrize(
    ("text", "zone", "expected"),
    [
        ("tomorrow 9:30 AM IST", "Asia/Kolkata", "2026-05-14T09:30:00+05:30"),
        ("at 5pm IST", "Asia/Jerusalem", "2026-05-13T17:00:00+03:00"),  # IDT in May: IST is its winter name
        ("at 5pm IST", "Europe/Dublin", "2026-05-13T17:00:00+01:00"),
        ("at 5pm CST", "America/Chicago", "2026-05-13T17:00:00-05:00"),  # said in summer: the user's own clocks
        ("at 5pm CST", "Asia/Shanghai", "2026-05-13T17:00:00+08:00"),
        ("a las 17:00 CST", "America/Mexico_City", "2026-05-13T17:00:00-06:00"),
        ("at 9am AST", "America/Puerto_Rico", "2026-05-13T09:00:00-04:00"),
    ],
)
def test_an_abbreviation_of_several_zones_is_the_schedules_own_when_it_is_one_of_them(
    text: str, zone: str, expected: str
) -> None:
    tz = ZoneInfo(zone)
    got = parse_one_shot(text, NOW.astimezone(tz), tz, "en")
    assert got.at.isoformat() == expected
    assert any(zone in note for note in got.notes), got.notes


DATES = [  # NOW is Wednesday 2026-05-13 10:23
    ("the first monday of june", "en", "2026-06-01 09:00"),
    ("the last tuesday of april", "en", "2027-04-27 09:00"),
    ("the second sunday of may at 10am", "en", "2027-05-09 10:00"),
    ("el último viernes de noviembre", "es", "2026-11-27 09:00"),
    ("el tercer jueves de mayo", "es", "2026-05-21 09:00"),
    ("el seis de junio", "es", "2026-06-06 09:00"),
    ("el día doce", "es", "2026-06-12 09:00"),
    ("junio 6", "es", "2026-06-06 09:00"),
    ("6-16", "en", "2026-06-16 09:00"),
    ("16-6", "es", "2026-06-16 09:00"),
    ("friday this week", "en", "2026-05-15 09:00"),
    ("el jueves de esta semana", "es", "2026-05-14 09:00"),
]


@pytest.mark.parametrize(("text", "language", "expected"), DATES)
def test_dates_without_a_time_take_the_default_hour_and_say_it(text: str, language: str, expected: str) -> None:
    assert local(text, language) == expected
    if expected.endswith("09:00") and "am" not in text:
        assert any("09:00" in note for note in notes(text, language)), notes(text, language)


@pytest.mark.parametrize(("text", "language"), [("monday this week", "en"), ("el lunes de esta semana", "es")])
def test_a_weekday_of_this_week_already_past_is_refused(text: str, language: str) -> None:
    with pytest.raises(ToolError):
        parse_one_shot(text, NOW, MADRID, language)


CONVENTIONS = [
    ("next friday", "en", "2026-05-15 09:00"),  # the coming one, never today
    ("end of the day", "en", "2026-05-13 18:00"),
    ("end of the week", "en", "2026-05-15 18:00"),
    ("this weekend", "en", "2026-05-16 09:00"),
    ("end of the month", "en", "2026-05-31 18:00"),
    ("first thing tomorrow", "en", "2026-05-14 09:00"),
    ("a final de semana", "es", "2026-05-15 18:00"),
    ("este fin de semana", "es", "2026-05-16 09:00"),
    ("a fin de mes", "es", "2026-05-31 18:00"),
    ("mañana a primera hora", "es", "2026-05-14 09:00"),
]


@pytest.mark.parametrize(("text", "language", "expected"), CONVENTIONS)
def test_the_stated_conventions(text: str, language: str, expected: str) -> None:
    assert local(text, language) == expected


COUNTED = [  # NOW is Wednesday 2026-05-13 10:23
    ("four saturdays from now", "en", "2026-06-06 09:00"),
    ("2 mondays from now", "en", "2026-05-25 09:00"),
    ("in 3 weekdays", "en", "2026-05-18 10:23"),  # Thursday, Friday, Monday
    ("in 1 weekday", "en", "2026-05-14 10:23"),
    ("dentro de dos sábados", "es", "2026-05-23 09:00"),
]


@pytest.mark.parametrize(("text", "language", "expected"), COUNTED)
def test_counted_days(text: str, language: str, expected: str) -> None:
    assert local(text, language) == expected


NY_NOW = datetime(2026, 11, 2, 10, 0, tzinfo=NEW_YORK)  # Monday
HOLIDAYS = [  # (phrase, language, zone, now, expected)
    ("on Christmas", "en", MADRID, NOW, "2026-12-25 09:00"),
    ("Christmas Eve at 7pm", "en", MADRID, NOW, "2026-12-24 19:00"),
    ("Thanksgiving", "en", NEW_YORK, NY_NOW, "2026-11-26 09:00"),  # the fourth Thursday of November
    ("Mother's Day", "en", NEW_YORK, NY_NOW, "2027-05-09 09:00"),  # the second Sunday of May in the US
    ("el día de la madre", "es", MADRID, NOW, "2027-05-02 09:00"),  # the first Sunday of May in Spain
    ("el día de las madres", "es", ZoneInfo("America/Mexico_City"), NOW, "2027-05-10 09:00"),  # 10 May in Mexico
    ("Easter Monday", "en", MADRID, NOW, "2027-03-29 09:00"),
    ("Nochebuena a las 21:00", "es", MADRID, NOW, "2026-12-24 21:00"),
    ("Reyes", "es", MADRID, NOW, "2027-01-06 09:00"),
    ("christmas 2027", "en", MADRID, NOW, "2027-12-25 09:00"),
]


@pytest.mark.parametrize(("text", "language", "zone", "now", "expected"), HOLIDAYS)
def test_named_holidays_are_their_next_date_in_the_zone_country(
    text: str, language: str, zone: ZoneInfo, now: datetime, expected: str
) -> None:
    assert local(text, language, now, zone) == expected
    said = notes(text, language, now, zone)
    assert any(expected[:10] in note and any(c in note for c in ("ES", "US", "MX")) for note in said), said


def test_a_country_argument_decides_over_the_zone() -> None:
    got = parse_one_shot("Thanksgiving", NOW, MADRID, "en", country="US")
    assert f"{got.at:%Y-%m-%d %H:%M}" == "2026-11-26 09:00"


@pytest.mark.parametrize(
    ("text", "language", "said"),
    [
        ("Thanksgiving", "en", "thanksgiving is not a holiday in ES"),
        ("on Festivus Day", "en", "is not a holiday known in ES"),
        ("el día de San Patricio", "es", "no es una fiesta conocida en ES"),
    ],
)
def test_a_holiday_the_country_does_not_keep_is_refused_naming_the_country(text: str, language: str, said: str) -> None:
    with pytest.raises(ToolError) as info:
        parse_one_shot(text, NOW, MADRID, language)
    assert said in errors.message(info.value, language)


def test_a_holiday_in_a_zone_without_a_country_asks_for_one() -> None:
    with pytest.raises(ToolError) as info:
        parse_one_shot("on Christmas", NOW, ZoneInfo("UTC"), "en")
    assert "holiday of a country" in errors.message(info.value)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("half three", "2026-05-13 15:30"),
        ("tomorrow at half 5", "2026-05-14 17:30"),
        ("half an hour from now", "2026-05-13 10:53"),
    ],
)
def test_british_half_an_hour_after(text: str, expected: str) -> None:
    assert local(text) == expected
