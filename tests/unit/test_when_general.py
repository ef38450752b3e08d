"""The one-shot grammar made general, family by family, in English and Spanish: any phrase of a family's
shape reads, not only the examples it was shown. Expected instants are worked out here with plain date
arithmetic from `NOW`, Wednesday 2026-05-13 10:23 in Madrid, or the case's own; every rule that picks one
reading of an ambiguous phrase is checked to say so in the answer."""

from __future__ import annotations

from datetime import date, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest

from cronbell.core.contract import errors
from cronbell.core.domain.refusals import ToolError
from cronbell.core.language.recurring import parse_recurring
from cronbell.core.language.when import parse_one_shot

MADRID = ZoneInfo("Europe/Madrid")
NEW_YORK = ZoneInfo("America/New_York")
NOW = datetime(2026, 5, 13, 10, 23, tzinfo=MADRID)
EN_WEEKDAYS = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
ES_WEEKDAYS = ["lunes", "martes", "miércoles", "jueves", "viernes", "sábado", "domingo"]
EN_MONTHS = ["january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
             "november", "december"]  # fmt: skip
ES_MONTHS = ["enero", "febrero", "marzo", "abril", "mayo", "junio", "julio", "agosto", "septiembre", "octubre",
             "noviembre", "diciembre"]  # fmt: skip
EN_ORDINALS = [
    "first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth", "eleventh",
    "twelfth", "thirteenth", "fourteenth", "fifteenth", "sixteenth", "seventeenth", "eighteenth", "nineteenth",
    "twentieth", "twenty-first", "twenty second", "twenty-third", "twenty fourth", "twenty-fifth", "twenty sixth",
    "twenty-seventh", "twenty eighth", "twenty-ninth", "thirtieth", "thirty-first",
]  # fmt: skip
ES_NUMBERS = [
    "uno", "dos", "tres", "cuatro", "cinco", "seis", "siete", "ocho", "nueve", "diez", "once", "doce", "trece",
    "catorce", "quince", "dieciséis", "diecisiete", "dieciocho", "diecinueve", "veinte", "veintiuno", "veintidós",
    "veintitrés", "veinticuatro", "veinticinco", "veintiséis", "veintisiete", "veintiocho", "veintinueve", "treinta",
    "treinta y uno",
]  # fmt: skip
EN_HOURS = ["one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve"]
ES_HOURS = ["una", "dos", "tres", "cuatro", "cinco", "seis", "siete", "ocho", "nueve", "diez", "once", "doce"]
EN_MINUTES = {1: "oh one", 7: "oh seven", 13: "thirteen", 21: "twenty-one", 38: "thirty eight", 42: "forty-two",
              59: "fifty nine"}  # fmt: skip
ES_MINUTES = {3: "tres", 13: "trece", 21: "veintiuno", 38: "treinta y ocho", 45: "cuarenta y cinco",
              59: "cincuenta y nueve"}  # fmt: skip


def read(text: str, language: str = "en", now: datetime = NOW, zone: ZoneInfo = MADRID) -> datetime:
    return parse_one_shot(text, now, zone, language).at


def notes(text: str, language: str = "en", now: datetime = NOW, zone: ZoneInfo = MADRID) -> str:
    return " ".join(parse_one_shot(text, now, zone, language).notes)


def refused(text: str, language: str = "en", now: datetime = NOW, zone: ZoneInfo = MADRID) -> str:
    with pytest.raises(ToolError) as info:
        parse_one_shot(text, now, zone, language)
    return errors.message(info.value, language)


def wall(day: date, hour: int = 9, minute: int = 0) -> datetime:
    return datetime(day.year, day.month, day.day, hour, minute, tzinfo=MADRID)


def coming(weekday: int, today_too: bool = False) -> date:
    ahead = (weekday - NOW.weekday()) % 7
    return NOW.date() + timedelta(days=ahead if ahead or today_too else 7)


def next_date(month: int, day: int, hour: int = 9, minute: int = 0) -> datetime:
    when = wall(date(NOW.year, month, day), hour, minute)
    return when if when > NOW else wall(date(NOW.year + 1, month, day), hour, minute)


# --- clocks with seconds ------------------------------------------------------------------------------------


@pytest.mark.parametrize("seconds", [0, 1, 30, 59])
@pytest.mark.parametrize(("text", "language", "hour"), [
    ("{h}:{m}:{s} pm", "en", 18), ("at {h24}:{m}:{s}", "en", 18), ("las {h24}:{m}:{s}", "es", 18),
    ("a las {h24}:{m}:{s}", "es", 18), ("{h}:{m}:{s} pm", "es", 18),
])  # fmt: skip
def test_a_clock_with_seconds_is_on_its_minute_and_says_so(text: str, language: str, hour: int, seconds: int) -> None:
    said = text.format(h=hour - 12, h24=hour, m="15", s=f"{seconds:02d}")
    assert read(said, language) == wall(NOW.date(), hour, 15)
    assert "18:15" in notes(said, language)


def test_seconds_out_of_range_are_not_a_clock() -> None:
    refused("6:15:75 pm")


# --- the end of a named day --------------------------------------------------------------------------------


@pytest.mark.parametrize("weekday", range(7))
@pytest.mark.parametrize(("shape", "language"), [
    ("end of {}", "en"), ("by the end of {}", "en"), ("at the end of {}", "en"), ("al final del {}", "es"),
    ("para el final del {}", "es"), ("hasta el final del {}", "es"),
])  # fmt: skip
def test_the_end_of_any_weekday_is_its_18_00(shape: str, language: str, weekday: int) -> None:
    name = (EN_WEEKDAYS if language == "en" else ES_WEEKDAYS)[weekday]
    assert read(shape.format(name), language) == wall(coming(weekday, today_too=True), 18)


@pytest.mark.parametrize(("text", "language"), [("end of tomorrow", "en"), ("al final de mañana", "es")])
def test_the_end_of_tomorrow(text: str, language: str) -> None:
    assert read(text, language) == wall(NOW.date() + timedelta(days=1), 18)


@pytest.mark.parametrize(("text", "language"), [("end of the year", "en"), ("end of next week", "en")])
def test_the_end_of_what_is_not_a_day_is_not_guessed(text: str, language: str) -> None:
    refused(text, language)


# --- amounts counted from another day ------------------------------------------------------------------------


@pytest.mark.parametrize("count", [1, 2, 3, 5, 10, 12])
@pytest.mark.parametrize("weekday", range(7))
def test_days_and_weeks_from_any_weekday(count: int, weekday: int) -> None:
    assert read(f"{count} days from {EN_WEEKDAYS[weekday]}") == wall(coming(weekday) + timedelta(days=count))
    assert read(f"{count} weeks after {EN_WEEKDAYS[weekday]}") == wall(coming(weekday) + timedelta(weeks=count))
    es = f"{count} días después del {ES_WEEKDAYS[weekday]}"
    assert read(es, "es") == wall(coming(weekday) + timedelta(days=count))
    es = f"{count} semanas antes del {ES_WEEKDAYS[weekday]}"
    if coming(weekday) - timedelta(weeks=count) > NOW.date():
        assert read(es, "es") == wall(coming(weekday) - timedelta(weeks=count))


@pytest.mark.parametrize(("text", "language", "expected"), [
    ("three weeks after tomorrow", "en", wall(date(2026, 6, 4))),
    ("two months from monday", "en", wall(date(2026, 7, 18))),
    ("10 days before halloween", "en", wall(date(2026, 10, 21))),
    ("3 days after christmas at 8pm", "en", wall(date(2026, 12, 28), 20)),
    ("2 days after friday at 3pm", "en", wall(date(2026, 5, 17), 15)),
    ("dos semanas después de mañana", "es", wall(date(2026, 5, 28))),
    ("5 días antes de navidad", "es", wall(date(2026, 12, 20))),
    ("tres días después del viernes a las 17:00", "es", wall(date(2026, 5, 18), 17)),
])  # fmt: skip
def test_amounts_from_days_and_holidays(text: str, language: str, expected: datetime) -> None:
    assert read(text, language) == expected


def test_minutes_past_a_clock_in_words_stay_a_clock() -> None:
    assert read("ten after nine pm") == wall(NOW.date(), 21, 10)


@pytest.mark.parametrize(
    ("text", "language"), [("in 2 years on halloween", "en"), ("dentro de 2 años en navidad", "es")]
)
def test_an_amount_ahead_then_a_day(text: str, language: str) -> None:
    at = read(text, language)
    assert at.year == NOW.year + 2 and (at.month, at.day) in ((10, 31), (12, 25))


# --- a weekday with a day of the month -----------------------------------------------------------------------


def agree(weekday: int, day: int) -> date | None:
    """The next date after today that is that weekday and day of the month, within a year."""
    found = NOW.date() + timedelta(days=1)
    while not (found.weekday() == weekday and found.day == day):
        found += timedelta(days=1)
    return found if found - NOW.date() <= timedelta(days=366) else None


@pytest.mark.parametrize("day", range(13, 32))
@pytest.mark.parametrize("weekday", range(7))
def test_a_weekday_with_a_day_past_twelve_is_the_next_date_both_agree_on(weekday: int, day: int) -> None:
    agreed = agree(weekday, day)
    if agreed is None:  # none near: refused
        assert "not a" in refused(f"{EN_WEEKDAYS[weekday]} {day}") and refused(f"el {ES_WEEKDAYS[weekday]} {day}", "es")
        return
    expected = wall(agreed)
    assert read(f"{EN_WEEKDAYS[weekday]} {day}") == expected
    assert "day of the month" in notes(f"{EN_WEEKDAYS[weekday]} {day}")
    assert read(f"{EN_WEEKDAYS[weekday]} the {day}th".replace("1th", "1st").replace("2th", "2nd").replace("3th", "3rd")
                .replace("11st", "11th").replace("12nd", "12th").replace("13rd", "13th")) == expected  # fmt: skip
    assert read(f"el {ES_WEEKDAYS[weekday]} {day}", "es") == expected


@pytest.mark.parametrize("day", range(1, 13))
def test_a_weekday_with_a_number_that_may_be_an_hour_is_refused(day: int) -> None:
    assert "could be the day of the month or the hour" in refused(f"friday {day}")


def test_a_weekday_that_is_not_the_dates_is_refused() -> None:
    assert "not a" in refused("friday may 14")  # Thursday
    refused("el viernes 14 de mayo", "es")


# --- numbers and ordinals in words ---------------------------------------------------------------------------


@pytest.mark.parametrize("day", range(1, 32))
def test_any_ordinal_in_words_with_a_month(day: int) -> None:
    month = 12 if day <= 31 else 1
    word = EN_ORDINALS[day - 1]
    assert read(f"{EN_MONTHS[month - 1]} {word}") == next_date(month, day)
    assert read(f"the {word} of {EN_MONTHS[month - 1]} at half past seven pm") == next_date(month, day, 19, 30)


@pytest.mark.parametrize("day", range(1, 32))
def test_any_day_number_in_spanish_words(day: int) -> None:
    said = f"el {ES_NUMBERS[day - 1]} de diciembre a las siete y media de la tarde"
    assert read(said, "es") == next_date(12, day, 19, 30)


@pytest.mark.parametrize(("minute", "words"), EN_MINUTES.items())
def test_any_minute_in_english_words(minute: int, words: str) -> None:
    assert read(f"tomorrow at eleven {words} pm") == wall(NOW.date() + timedelta(days=1), 23, minute)


@pytest.mark.parametrize(("minute", "words"), ES_MINUTES.items())
def test_any_minute_in_spanish_words(minute: int, words: str) -> None:
    said = f"mañana a las nueve y {words} de la noche"
    assert read(said, "es") == wall(NOW.date() + timedelta(days=1), 21, minute)


# --- the coming weekday --------------------------------------------------------------------------------------


@pytest.mark.parametrize("weekday", range(7))
@pytest.mark.parametrize(("shape", "language"), [
    ("this coming {}", "en"), ("the following {}", "en"), ("the coming {}", "en"), ("el {} siguiente", "es"),
    ("este próximo {}", "es"), ("este {} que viene", "es"),
])  # fmt: skip
def test_the_coming_weekday_is_never_today(shape: str, language: str, weekday: int) -> None:
    name = (EN_WEEKDAYS if language == "en" else ES_WEEKDAYS)[weekday]
    assert read(shape.format(name), language) == wall(coming(weekday))


# --- clock words with a part of the day ----------------------------------------------------------------------


@pytest.mark.parametrize("hour", range(1, 12))
def test_any_hour_in_words_with_a_part_of_the_day(hour: int) -> None:
    today = NOW.date()
    if hour <= 5:
        assert read(f"{EN_HOURS[hour - 1]} in the afternoon") == wall(today, hour + 12)
        assert read(f"a las {ES_HOURS[hour - 1]} de la tarde".replace("las una", "la una"), "es") == wall(
            today, hour + 12
        )
    if hour >= 6:
        at = wall(today, hour, 15) if (hour, 15) > (10, 23) else wall(today + timedelta(days=1), hour, 15)
        assert read(f"a quarter past {EN_HOURS[hour - 1]} in the morning") == at
        assert read(f"las {ES_HOURS[hour - 1]} y cuarto de la mañana", "es") == at
        assert read(f"las {ES_HOURS[hour - 1]} y veinte de la noche", "es") == wall(today, hour + 12, 20)
        assert read(f"{hour} menos cuarto pm", "es") == wall(today, hour + 11, 45)


@pytest.mark.parametrize(("text", "language"), [
    ("midnight", "en"), ("mid-night", "en"), ("midnite", "en"), ("12 midnight", "en"), ("12:00 midnight", "en"),
    ("medianoche", "es"), ("media noche", "es"), ("a la medianoche", "es"),
])  # fmt: skip
def test_midnight_however_spelled(text: str, language: str) -> None:
    assert read(text, language) == wall(NOW.date() + timedelta(days=1), 0)


@pytest.mark.parametrize(("text", "minute"), [("this evening at 12", 0), ("this evening at 12:30", 30)])
def test_twelve_in_the_evening_is_midnight_and_said(text: str, minute: int) -> None:
    assert read(text) == wall(NOW.date() + timedelta(days=1), 0, minute)
    assert "midnight" in notes(text)


# --- date layouts ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize("month", range(1, 13))
def test_date_layouts_with_the_month_in_words_or_digits(month: int) -> None:
    expected = wall(date(2027, month, 5))
    mon = EN_MONTHS[month - 1][:3]
    for said in (f"2027{month:02d}05", f"{mon}-05-2027", f"2027/{mon}/05", f"05/{mon}/2027", f"05-{mon}-2027"):
        assert read(said) == expected, said
    assert read(f"{mon}/5/2027 4:30pm") == expected.replace(hour=16, minute=30)
    assert read(f"05.{month:02d}.2027 16:30", "es") == expected.replace(hour=16, minute=30)
    assert read(f"5 del {month}", "es") == next_date(month, 5)
    assert read(f"{mon}/5") == next_date(month, 5)


@pytest.mark.parametrize(
    ("text", "month"), [("1.º de diciembre", 12), ("el 1º de marzo", 3), ("el 1.º de mayo a las 9", 5)]
)
def test_a_spanish_ordinal_mark(text: str, month: int) -> None:
    assert read(text, "es") == next_date(month, 1)


@pytest.mark.parametrize(("text", "language"), [("5.12", "en"), ("11.10", "en"), ("3.04", "es"), ("5.12", "es")])
def test_a_bare_dotted_number_that_may_be_a_date_is_refused(text: str, language: str) -> None:
    refused(text, language)
    assert read(f"at {text}") is not None  # with "at" it is a time of day


def test_a_dotted_clock_that_cannot_be_a_date_still_reads() -> None:
    assert read("9.30").minute == 30


# --- holidays ---------------------------------------------------------------------------------------------------

NY_NOW = datetime(2026, 11, 20, 16, 5, tzinfo=NEW_YORK)


@pytest.mark.parametrize(("text", "expected"), [
    ("next memorial day", date(2027, 5, 31)), ("this labor day", date(2027, 9, 6)),
    ("halloween 2028", date(2028, 10, 31)), ("in 2 years on thanksgiving", date(2028, 11, 23)),
    ("saint paddy's day", date(2027, 3, 17)), ("washington's birthday", date(2027, 2, 15)),
    ("whit monday", date(2027, 5, 17)), ("easter monday", date(2027, 3, 29)),
])  # fmt: skip
def test_holidays_with_a_modifier_or_another_spelling(text: str, expected: date) -> None:
    at = read(text, now=NY_NOW, zone=NEW_YORK)
    assert at.date() == expected and at.hour == 9


@pytest.mark.parametrize(("text", "language", "country"), [
    ("diwali", "en", "IN"), ("yom kippur", "en", "IL"), ("eid al-adha", "en", "SA"), ("chinese new year", "en", "CN"),
    ("año nuevo chino", "es", "CN"), ("yom kipur", "es", "IL"),
])  # fmt: skip
def test_a_holiday_of_another_calendar_names_the_country_whose_date_it_used(
    text: str, language: str, country: str
) -> None:
    import holidays

    at = read(text, language)
    kept = holidays.country_holidays(country, years=range(at.year - 1, at.year + 1), language="en_US")
    assert at.date() in kept
    assert country in notes(text, language)


@pytest.mark.parametrize(("text", "expected"), [
    ("navidad de 2027", date(2027, 12, 25)), ("la próxima navidad", date(2026, 12, 25)),
    ("el día de reyes de 2028", date(2028, 1, 6)), ("lunes de pentecostés", date(2026, 5, 25)),
])  # fmt: skip
def test_spanish_holidays_with_a_modifier(text: str, expected: date) -> None:
    assert read(text, "es").date() == expected


@pytest.mark.parametrize(("zone", "expected"), [("Asia/Kolkata", date(2027, 1, 26)), ("Europe/Rome", date(2027, 6, 2))])
def test_republic_day_is_the_one_of_the_user_s_country(zone: str, expected: date) -> None:
    assert read("republic day at 9", now=NY_NOW, zone=ZoneInfo(zone)).date() == expected


# --- recurring phrases sent as a one-shot ---------------------------------------------------------------------


@pytest.mark.parametrize("day", [1, 3, 15, 21, 28])
@pytest.mark.parametrize(("shape", "language"), [
    ("the {o} of every month at 10", "en"), ("every month on the {o} at 10", "en"),
    ("el día {d} de cada mes a las 10", "es"), ("cada mes el día {d} a las 10", "es"),
])  # fmt: skip
def test_a_monthly_phrase_as_a_one_shot_is_its_next_time_and_says_so(shape: str, language: str, day: int) -> None:
    said = shape.format(o=f"{day}{'st' if day in (1, 21) else 'rd' if day == 3 else 'th'}", d=day)
    assert parse_recurring(said, 5, language).expr == f"0 10 {day} * *"
    month = NOW.month if wall(date(NOW.year, NOW.month, day), 10) > NOW else NOW.month + 1
    assert read(said, language) == wall(date(NOW.year, month, day), 10)
    assert notes(said, language)


@pytest.mark.parametrize(("text", "language"), [("every day at 9", "en"), ("todos los lunes a las 9", "es")])
def test_a_daily_or_weekly_phrase_as_a_one_shot_is_still_refused(text: str, language: str) -> None:
    refused(text, language)


@pytest.mark.parametrize(("text", "language", "expected"), [
    ("trinity sunday", "en", date(2027, 5, 23)), ("corpus christi", "es", date(2027, 5, 27)),
    ("orthodox easter", "en", date(2027, 5, 2)), ("pascua ortodoxa", "es", date(2027, 5, 2)),
    ("election day", "en", date(2027, 11, 2)), ("administrative professionals day", "en", date(2027, 4, 21)),
    ("grandparents day", "en", date(2027, 9, 12)), ("st george's day", "en", date(2027, 4, 23)),
    ("día de la mujer", "es", date(2027, 3, 8)),
])  # fmt: skip
def test_observances_by_their_rule(text: str, language: str, expected: date) -> None:
    assert read(text, language, now=NY_NOW, zone=NEW_YORK).date() == expected


@pytest.mark.parametrize(("text", "country"), [
    ("shavuot", "IL"), ("mid-autumn festival", "CN"), ("dragon boat festival", "CN"), ("vesak", "IN"),
    ("king's day", "NL"), ("islamic new year", "AE"), ("chuseok", "KR"), ("janmashtami", "IN"),
])  # fmt: skip
def test_more_days_of_other_calendars_name_their_country(text: str, country: str) -> None:
    assert country in notes(text, now=NY_NOW, zone=NEW_YORK)


@pytest.mark.parametrize(("text", "language", "expected"), [
    ("the day after christmas", "en", wall(date(2026, 12, 26))),
    ("el día después de navidad", "es", wall(date(2026, 12, 26))),
    ("5 days from now at 3pm", "en", wall(date(2026, 5, 18), 15)),
    ("3 días después a las 5 de la tarde", "es", wall(date(2026, 5, 16), 17)),
    ("this upcoming tuesday", "en", wall(date(2026, 5, 19))),
    ("friday after next", "en", wall(date(2026, 5, 22))),
    ("el viernes después del próximo", "es", wall(date(2026, 5, 22))),
    ("nine at night", "en", wall(date(2026, 5, 13), 21)),
    ("close of business friday", "en", wall(date(2026, 5, 15), 18)),
])  # fmt: skip
def test_more_shapes_of_the_families(text: str, language: str, expected: datetime) -> None:
    assert read(text, language) == expected


@pytest.mark.parametrize(("text", "language"), [("friday at midnight", "en"), ("el viernes a medianoche", "es")])
def test_midnight_with_a_day_is_its_start_and_says_so(text: str, language: str) -> None:
    assert read(text, language) == wall(date(2026, 5, 15), 0)
    assert "2026-05-15 00:00" in notes(text, language)


@pytest.mark.parametrize(("text", "expected"), [
    ("Thu, 04 Mar 2027 11:45:08 -0500", datetime(2027, 3, 4, 17, 45, tzinfo=MADRID)),
    ("18:40 +0900", datetime(2026, 5, 13, 11, 40, tzinfo=MADRID)),
])  # fmt: skip
def test_an_offset_after_a_clock_is_its_zone(text: str, expected: datetime) -> None:
    assert read(text) == expected


@pytest.mark.parametrize(("text", "language", "expected"), [
    ("every month the 21st at 10", "en", "0 10 21 * *"), ("every month on the twenty-first at 10", "en", "0 10 21 * *"),
    ("the third of every month at eight", "en", "0 8 3 * *"),
    ("every month on the 3rd at 8 in the evening", "en", "0 20 3 * *"),
    ("the 21st of every month at ten thirty", "en", "30 10 21 * *"), ("every monday at nine", "en", "0 9 * * 1"),
    ("todos los días 21 a las 10", "es", "0 10 21 * *"), ("mensualmente el día 21 a las 10", "es", "0 10 21 * *"),
    ("el tres de cada mes a las ocho", "es", "0 8 3 * *"), ("todos los lunes a las nueve y media", "es", "30 9 * * 1"),
])  # fmt: skip
def test_recurring_phrases_with_numbers_in_words_and_other_orders(text: str, language: str, expected: str) -> None:
    assert parse_recurring(text, 5, language).expr == expected


CARDINALS = ["one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve",
             "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen", "twenty"]  # fmt: skip
CARDINALS += [f"twenty{joint}{unit}" for unit, joint in zip(CARDINALS[:9], ["-", " "] * 5, strict=False)]
CARDINALS += ["thirty", "thirty-one"]


@pytest.mark.parametrize("day", range(1, 32))
def test_a_day_number_in_cardinal_words_after_its_month(day: int) -> None:
    assert read(f"december {CARDINALS[day - 1]}") == next_date(12, day)
    assert read(f"diciembre {ES_NUMBERS[day - 1]}", "es") == next_date(12, day)


@pytest.mark.parametrize("count", range(1, 32))
def test_any_count_in_words_in_an_amount(count: int) -> None:
    assert read(f"in {CARDINALS[count - 1]} days") == NOW + timedelta(days=count)
    assert read(f"dentro de {ES_NUMBERS[count - 1]} días", "es") == NOW + timedelta(days=count)


@pytest.mark.parametrize(("text", "language", "expected", "said"), [
    ("at 12 at night", "en", wall(date(2026, 5, 14), 0), False),
    ("at 1 at night", "en", wall(date(2026, 5, 14), 1), False),
    ("a las 2 de la noche", "es", wall(date(2026, 5, 14), 2), False),
    ("wednesday night at 1", "en", wall(date(2026, 5, 14), 1), True),
    ("saturday at 12 at night", "en", wall(date(2026, 5, 17), 0), True),
    ("el sábado a las 12 de la noche", "es", wall(date(2026, 5, 17), 0), True),
])  # fmt: skip
def test_a_small_hour_at_night_is_the_next_one_or_after_its_days_night(
    text: str, language: str, expected: datetime, said: bool
) -> None:
    assert read(text, language) == expected
    assert bool(notes(text, language)) == said  # a day's night past midnight is said


@pytest.mark.parametrize(("text", "language", "hour"), [
    ("twelve midnight", "en", 0), ("12 o'clock midnight", "en", 0), ("midnight-ish", "en", 0),
    ("twelve noon", "en", 12),
    ("12 o'clock noon", "en", 12), ("noontime", "en", 12), ("medio día", "es", 12), ("a medio día", "es", 12),
])  # fmt: skip
def test_noon_and_midnight_however_spelled(text: str, language: str, hour: int) -> None:
    assert read(text, language) == wall(NOW.date() + timedelta(days=1 if hour == 0 else 0), hour)


@pytest.mark.parametrize(("text", "language", "expected", "said"), [
    ("05/11/2027", "en", date(2027, 5, 11), True), ("05/11/2027", "es", date(2027, 11, 5), True),
    ("12/24/2026", "en", date(2026, 12, 24), False), ("24/12/2026", "es", date(2026, 12, 24), False),
])  # fmt: skip
def test_a_numeric_date_that_reads_either_way_says_which(text: str, language: str, expected: date, said: bool) -> None:
    assert read(text, language).date() == expected
    assert (expected.isoformat() in notes(text, language)) == said


@pytest.mark.parametrize(("text", "language", "country"), [
    ("hanukkah", "en", "IL"), ("purim", "en", "IL"), ("januca", "es", "IL"), ("onam", "en", "IN"),
    ("raksha bandhan", "en", "IN"), ("ganesh chaturthi", "en", "IN"),
])  # fmt: skip
def test_optional_days_of_a_holidays_home_are_read_there(text: str, language: str, country: str) -> None:
    import holidays

    at = read(text, language, now=NY_NOW, zone=NEW_YORK)
    kept = holidays.country_holidays(
        country, years=at.year, categories=holidays.country_holidays(country).supported_categories
    )
    assert at.date() in kept and country in notes(text, language, now=NY_NOW, zone=NEW_YORK)


@pytest.mark.parametrize(("text", "language", "expected"), [
    ("christmas next year", "en", date(2027, 12, 25)), ("next year's halloween", "en", date(2027, 10, 31)),
    ("navidad del año que viene", "es", date(2027, 12, 25)), ("this year's halloween", "en", date(2026, 10, 31)),
    ("christmas in 2 years", "en", date(2028, 12, 25)), ("navidad dentro de 2 años", "es", date(2028, 12, 25)),
    ("the friday after christmas", "en", date(2027, 1, 1)), ("the sunday before christmas", "en", date(2026, 12, 20)),
    ("el lunes antes de navidad", "es", date(2026, 12, 21)),
])  # fmt: skip
def test_a_holiday_with_its_year_or_a_weekday_counted_from_it(text: str, language: str, expected: date) -> None:
    assert read(text, language).date() == expected


@pytest.mark.parametrize(("text", "language", "expected"), [
    ("tmr 5pm", "en", wall(date(2026, 5, 14), 17)), ("2moro at 5pm", "en", wall(date(2026, 5, 14), 17)),
    ("nxt fri", "en", wall(date(2026, 5, 15))), ("friday - 5pm", "en", wall(date(2026, 5, 15), 17)),
    ("el próx. lunes", "es", wall(date(2026, 5, 18))), ("el lunes próx.", "es", wall(date(2026, 5, 18))),
])  # fmt: skip
def test_chat_abbreviations(text: str, language: str, expected: datetime) -> None:
    assert read(text, language) == expected


@pytest.mark.parametrize(("text", "language", "expected"), [
    ("5 business days from monday", "en", wall(date(2026, 5, 25))),
    ("3 weekdays after friday at 5pm", "en", wall(date(2026, 5, 20), 17)),
    ("3 días hábiles después del lunes", "es", wall(date(2026, 5, 21))),
    ("dentro de 3 días hábiles", "es", wall(date(2026, 5, 18), 10, 23)),
])  # fmt: skip
def test_working_days_counted_from_a_day(text: str, language: str, expected: datetime) -> None:
    assert read(text, language) == expected


@pytest.mark.parametrize(("text", "expected"), [
    ("3 in the AM", wall(date(2026, 5, 14), 3)), ("three in the am", wall(date(2026, 5, 14), 3)),
    ("at 8 in the PM", wall(date(2026, 5, 13), 20)),
])  # fmt: skip
def test_am_or_pm_after_in_the(text: str, expected: datetime) -> None:
    assert read(text) == expected
