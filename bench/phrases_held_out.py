"""The held-out phrases of the time grammar: written before the grammar was made general, never tuned
against, and scored apart by bench/phrases.py. Each family is a set of shapes people write (chat, email,
formal, sloppy), filled in with many values; the instant each phrase means is worked out here with plain
date arithmetic, not with the grammar, so the table is a reference the grammar is measured against.

    python -m bench.phrases_held_out    # writes tests/unit/held_out_corpus.tsv

Conventions of the readings (the grammar's, stated in docs/skill.md): a day without a time of day is at
09:00; "morning" 09:00, "afternoon" 15:00, "evening" 19:00, "night" 21:00 when no clock is said; the end of
a day is 18:00; a weekday alone is the coming one, never today; a date without a year is its next one; a
clock's seconds are left out (reminders fire on the minute); a weekday with a day of the month is the next
date where both agree; a phrase that contradicts itself, or reads two ways at once, is refused.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from datetime import date, datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

ROOT = Path(__file__).resolve().parents[1]
TABLE = ROOT / "tests" / "unit" / "held_out_corpus.tsv"
RECURRING_TABLE = ROOT / "tests" / "unit" / "held_out_recurring.tsv"
REFUSE = "refuse"

# the reference moments: (language, zone, now)
NOWS = {
    "en": [("America/New_York", datetime(2026, 11, 20, 16, 5)), ("Europe/London", datetime(2026, 5, 13, 10, 23))],
    "es": [("Europe/Madrid", datetime(2026, 5, 13, 10, 23)), ("America/Mexico_City", datetime(2027, 1, 3, 8, 10))],
}
EN_WEEKDAYS = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
EN_WEEKDAYS_SHORT = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
ES_WEEKDAYS = ["lunes", "martes", "miércoles", "jueves", "viernes", "sábado", "domingo"]
EN_MONTHS = [
    "january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november",
    "december",
]  # fmt: skip
EN_MONTHS_SHORT = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
ES_MONTHS = [
    "enero", "febrero", "marzo", "abril", "mayo", "junio", "julio", "agosto", "septiembre", "octubre", "noviembre",
    "diciembre",
]  # fmt: skip
EN_UNITS = ["", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve"]
EN_ORDINALS = [
    "", "first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth", "eleventh",
    "twelfth", "thirteenth", "fourteenth", "fifteenth", "sixteenth", "seventeenth", "eighteenth", "nineteenth",
    "twentieth", "twenty first", "twenty-second", "twenty third", "twenty-fourth", "twenty fifth", "twenty-sixth",
    "twenty seventh", "twenty-eighth", "twenty ninth", "thirtieth", "thirty first",
]  # fmt: skip
ES_NUMBERS = [
    "", "uno", "dos", "tres", "cuatro", "cinco", "seis", "siete", "ocho", "nueve", "diez", "once", "doce", "trece",
    "catorce", "quince", "dieciséis", "diecisiete", "dieciocho", "diecinueve", "veinte", "veintiuno", "veintidós",
    "veintitrés", "veinticuatro", "veinticinco", "veintiséis", "veintisiete", "veintiocho", "veintinueve", "treinta",
    "treinta y uno",
]  # fmt: skip
ES_HOURS = ["", "una", "dos", "tres", "cuatro", "cinco", "seis", "siete", "ocho", "nueve", "diez", "once", "doce"]


def ordinal(n: int) -> str:
    return f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


def at(d: date, hour: int = 9, minute: int = 0) -> datetime:
    return datetime(d.year, d.month, d.day, hour, minute)


def next_weekday(now: datetime, weekday: int, today_too: bool = False) -> date:
    ahead = (weekday - now.weekday()) % 7
    return now.date() + timedelta(days=ahead if ahead or today_too else 7)


def next_date(now: datetime, month: int, day: int, hour: int = 9, minute: int = 0) -> datetime:
    for year in range(now.year, now.year + 9):
        try:
            when = datetime(year, month, day, hour, minute)
        except ValueError:
            continue
        if when > now:
            return when
    raise ValueError((month, day))


def clock_ahead(now: datetime, hour: int, minute: int) -> datetime:
    """The next time of day at hour:minute (24-hour), today or tomorrow."""
    today = at(now.date(), hour, minute)
    return today if today > now else today + timedelta(days=1)


def add_months(d: date, months: int) -> date:
    year, month = divmod(d.year * 12 + d.month - 1 + months, 12)
    return date(year, month + 1, d.day)


Row = tuple[str, str, str, datetime, str, "datetime | None", str]  # phrase, language, zone, now, kind, at, family


def each_now(language: str) -> Iterator[tuple[str, datetime]]:
    yield from NOWS[language]


def seconds() -> Iterator[Row]:
    family = "seconds"
    for zone, now in each_now("en"):
        tomorrow = now.date() + timedelta(days=1)
        for h, m, s in ((6, 15, 45), (7, 30, 10), (11, 2, 59), (3, 45, 30), (9, 9, 9)):
            yield f"{h}:{m:02d}:{s:02d} pm", "en", zone, now, "time", clock_ahead(now, h + 12, m), family
            yield f"tomorrow at {h}:{m:02d}:{s:02d} AM", "en", zone, now, "datetime", at(tomorrow, h, m), family
            yield f"{h + 12}:{m:02d}:{s:02d} tomorrow", "en", zone, now, "datetime", at(tomorrow, h + 12, m), family
            yield f"at {h + 12}:{m:02d}:{s:02d}", "en", zone, now, "time", clock_ahead(now, h + 12, m), family
    for zone, now in each_now("es"):
        tomorrow = now.date() + timedelta(days=1)
        for h, m, s in ((18, 15, 45), (19, 30, 10), (21, 2, 59), (15, 45, 30), (22, 9, 9)):
            yield f"las {h}:{m:02d}:{s:02d}", "es", zone, now, "time", clock_ahead(now, h, m), family
            yield f"a las {h}:{m:02d}:{s:02d}", "es", zone, now, "time", clock_ahead(now, h, m), family
            yield f"mañana a las {h}:{m:02d}:{s:02d}", "es", zone, now, "datetime", at(tomorrow, h, m), family
            yield f"{h - 12}:{m:02d}:{s:02d} pm", "es", zone, now, "time", clock_ahead(now, h, m), family


def end_of_day() -> Iterator[Row]:
    family = "end_of_day"
    for zone, now in each_now("en"):
        for wd, name in enumerate(EN_WEEKDAYS):
            d = next_weekday(now, wd, today_too=at(now.date(), 18) > now)
            yield f"end of {name}", "en", zone, now, "date", at(d, 18), family
            yield f"by the end of {name}", "en", zone, now, "date", at(d, 18), family
            yield f"at the end of {EN_WEEKDAYS_SHORT[wd]}", "en", zone, now, "date", at(d, 18), family
        yield "end of tomorrow", "en", zone, now, "date", at(now.date() + timedelta(days=1), 18), family
        yield "by the end of tomorrow", "en", zone, now, "date", at(now.date() + timedelta(days=1), 18), family
    for zone, now in each_now("es"):
        for wd, name in enumerate(ES_WEEKDAYS):
            d = next_weekday(now, wd, today_too=at(now.date(), 18) > now)
            yield f"al final del {name}", "es", zone, now, "date", at(d, 18), family
            yield f"para el final del {name}", "es", zone, now, "date", at(d, 18), family
            yield f"a final del {name}", "es", zone, now, "date", at(d, 18), family
        yield "al final de mañana", "es", zone, now, "date", at(now.date() + timedelta(days=1), 18), family
        yield "para el final de mañana", "es", zone, now, "date", at(now.date() + timedelta(days=1), 18), family


def from_a_day() -> Iterator[Row]:
    family = "from_a_day"
    for zone, now in each_now("en"):
        tomorrow = now.date() + timedelta(days=1)
        for n in (2, 3, 5, 10):
            for wd in (0, 2, 4):
                d = next_weekday(now, wd) + timedelta(days=n)
                yield f"{n} days from {EN_WEEKDAYS[wd]}", "en", zone, now, "relative", at(d), family
                yield f"{EN_UNITS[n]} days after {EN_WEEKDAYS[wd]}", "en", zone, now, "relative", at(d), family
            d = tomorrow + timedelta(weeks=n)
            yield f"{EN_UNITS[n]} weeks after tomorrow", "en", zone, now, "relative", at(d), family
            yield f"{n} weeks from tomorrow", "en", zone, now, "relative", at(d), family
            d = add_months(now.date(), n)
            yield f"{EN_UNITS[n]} months from today", "en", zone, now, "relative", at(d, now.hour, now.minute), family
            first = next_date(now, 12, 25)
            d = first.date() - timedelta(days=n)
            yield f"{n} days before christmas", "en", zone, now, "relative", at(d), family
            d = next_date(now, 10, 31).date() - timedelta(days=n)
            yield f"{n} days before halloween", "en", zone, now, "relative", at(d), family
            d = next_weekday(now, 4) + timedelta(days=n)
            yield f"{n} days after friday at 3pm", "en", zone, now, "relative", at(d, 15), family
    for zone, now in each_now("es"):
        tomorrow = now.date() + timedelta(days=1)
        for n in (2, 3, 5, 10):
            for wd in (0, 2, 4):
                d = next_weekday(now, wd) + timedelta(days=n)
                yield f"{n} días después del {ES_WEEKDAYS[wd]}", "es", zone, now, "relative", at(d), family
                d = next_weekday(now, wd) + timedelta(weeks=n)
                said = f"{ES_NUMBERS[n]} semanas después del {ES_WEEKDAYS[wd]}"
                yield said, "es", zone, now, "relative", at(d), family
            d = tomorrow + timedelta(weeks=n)
            yield f"{ES_NUMBERS[n]} semanas después de mañana", "es", zone, now, "relative", at(d), family
            d = next_date(now, 12, 25).date() - timedelta(days=n)
            yield f"{n} días antes de navidad", "es", zone, now, "relative", at(d), family
            d = next_weekday(now, 4) + timedelta(days=n)
            yield f"{n} días después del viernes a las 17:00", "es", zone, now, "relative", at(d, 17), family


def weekday_with_day() -> Iterator[Row]:
    family = "weekday_day"

    def agree(now: datetime, wd: int, day: int, hour: int = 9) -> date | None:
        d = now.date()
        for _ in range(400):
            if d.weekday() == wd and d.day == day and at(d, hour) > now:
                return d
            d += timedelta(days=1)
        return None

    for zone, now in each_now("en"):
        for day in (13, 14, 17, 22, 25, 28):
            for wd in range(7):
                d = agree(now, wd, day)
                if d is None:
                    continue
                name = EN_WEEKDAYS[wd]
                yield f"{name} {day}", "en", zone, now, "date", at(d), family
                yield f"{name} the {ordinal(day)}", "en", zone, now, "date", at(d), family
                d = agree(now, wd, day, 16) or d
                yield f"{EN_WEEKDAYS_SHORT[wd]} {ordinal(day)} at 4pm", "en", zone, now, "datetime", at(d, 16), family
        for wd in range(7):  # a weekday that is not the date's
            d = now.date() + timedelta(days=3)
            if d.weekday() != wd:
                month = EN_MONTHS[d.month - 1]
                yield f"{EN_WEEKDAYS[wd]} {month} {d.day}", "en", zone, now, "date", None, family
    for zone, now in each_now("es"):
        for day in (13, 14, 17, 22, 25, 28):
            for wd in range(7):
                d = agree(now, wd, day)
                if d is None:
                    continue
                name = ES_WEEKDAYS[wd]
                yield f"el {name} {day}", "es", zone, now, "date", at(d), family
                yield f"{name} {day}", "es", zone, now, "date", at(d), family
                d = agree(now, wd, day, 16) or d
                yield f"el {name} día {day} a las 16:00", "es", zone, now, "datetime", at(d, 16), family
        for wd in range(7):
            d = now.date() + timedelta(days=3)
            if d.weekday() != wd:
                month = ES_MONTHS[d.month - 1]
                yield f"el {ES_WEEKDAYS[wd]} {d.day} de {month}", "es", zone, now, "date", None, family


def number_words() -> Iterator[Row]:
    family = "number_words"
    for zone, now in each_now("en"):
        for month in (3, 6, 9, 12):
            for day in (1, 5, 9, 12, 21, 22, 23, 30):
                name, ord_ = EN_MONTHS[month - 1], EN_ORDINALS[day]
                yield f"{name} {ord_}", "en", zone, now, "date", next_date(now, month, day), family
                yield f"the {ord_} of {name}", "en", zone, now, "date", next_date(now, month, day), family
                when = next_date(now, month, day, 19, 30)
                yield f"{name} the {ord_} at half past seven pm", "en", zone, now, "datetime", when, family
                when = next_date(now, month, day, 10, 15)
                yield f"{name} {ord_} at ten fifteen am", "en", zone, now, "datetime", when, family
    for zone, now in each_now("es"):
        for month in (3, 6, 9, 12):
            for day in (1, 5, 9, 12, 21, 22, 23, 30):
                name, num = ES_MONTHS[month - 1], ES_NUMBERS[day]
                yield f"el {num} de {name}", "es", zone, now, "date", next_date(now, month, day), family
                when = next_date(now, month, day, 19, 30)
                yield f"el {num} de {name} a las siete y media de la tarde", "es", zone, now, "datetime", when, family
                when = next_date(now, month, day, 10, 15)
                yield f"{num} de {name} a las diez y cuarto", "es", zone, now, "datetime", when, family


def coming_weekday() -> Iterator[Row]:
    family = "coming_weekday"
    for zone, now in each_now("en"):
        for wd, name in enumerate(EN_WEEKDAYS):
            d = next_weekday(now, wd)
            for shape in ("this coming {}", "the following {}", "the coming {}", "coming {}", "This coming {}"):
                yield shape.format(name), "en", zone, now, "date", at(d), family
            yield f"this coming {name} at 10am", "en", zone, now, "datetime", at(d, 10), family
    for zone, now in each_now("es"):
        for wd, name in enumerate(ES_WEEKDAYS):
            d = next_weekday(now, wd)
            shapes = ("el {} siguiente", "este próximo {}", "el {} que viene", "este {} que viene", "el próximo {}")
            for shape in shapes:
                yield shape.format(name), "es", zone, now, "date", at(d), family
            yield f"el {name} siguiente a las 10", "es", zone, now, "datetime", at(d, 10), family


def clock_parts() -> Iterator[Row]:
    family = "clock_parts"
    for zone, now in each_now("en"):
        for h in range(1, 12):
            word = EN_UNITS[h]
            if h <= 5:
                yield f"{word} in the afternoon", "en", zone, now, "time", clock_ahead(now, h + 12, 0), family
            if 6 <= h <= 11:
                yield f"{word} in the morning", "en", zone, now, "time", clock_ahead(now, h, 0), family
                when = clock_ahead(now, h, 15)
                yield f"a quarter past {word} in the morning", "en", zone, now, "time", when, family
            if 6 <= h <= 11:
                when = clock_ahead(now, h + 12, 30)
                yield f"half past {word} in the evening", "en", zone, now, "time", when, family
                yield f"{word} in the evening", "en", zone, now, "time", clock_ahead(now, h + 12, 0), family
        midnight = at(now.date() + timedelta(days=1), 0)
        for said in ("midnight", "at midnight", "mid-night", "midnite", "12 midnight", "12:00 midnight", "Midnight"):
            yield said, "en", zone, now, "time", midnight, family
        yield "this evening at 12", "en", zone, now, "time", midnight, family
        yield "tonight at twelve", "en", zone, now, "time", midnight, family
    for zone, now in each_now("es"):
        for h in range(1, 12):
            word = ES_HOURS[h]
            article = "la" if h == 1 else "las"
            if h <= 7:
                yield f"{article} {word} de la tarde", "es", zone, now, "time", clock_ahead(now, h + 12, 0), family
            if 8 <= h <= 11:
                when = clock_ahead(now, h + 12, 20)
                yield f"{article} {word} y veinte de la noche", "es", zone, now, "time", when, family
                when = clock_ahead(now, h + 12 - 1, 45)
                yield f"{h} menos cuarto pm", "es", zone, now, "time", when, family
            if 6 <= h <= 11:
                when = clock_ahead(now, h, 15)
                yield f"{article} {word} y cuarto de la mañana", "es", zone, now, "time", when, family
        midnight = at(now.date() + timedelta(days=1), 0)
        for said in ("medianoche", "a medianoche", "a la medianoche", "media noche", "las 12 de la noche"):
            yield said, "es", zone, now, "time", midnight, family


def layouts() -> Iterator[Row]:
    family = "layouts"
    for zone, now in each_now("en"):
        for y, mo, d in ((2027, 11, 5), (2027, 2, 14), (2028, 7, 30), (2027, 9, 1)):
            mon = EN_MONTHS_SHORT[mo - 1]
            when = at(date(y, mo, d))
            for said in (
                f"{y}{mo:02d}{d:02d}", f"{mon}-{d:02d}-{y}", f"{y}/{mon}/{d:02d}", f"{d:02d}/{mon}/{y}",
                f"{d:02d}-{mon}-{y}", f"{mon} {d}, {y}", f"{d} {mon} {y}", f"{y}.{mo:02d}.{d:02d}",
            ):  # fmt: skip
                yield said, "en", zone, now, "date", when, family
            yield f"{mon}/{d}/{y} 4:30pm", "en", zone, now, "datetime", at(date(y, mo, d), 16, 30), family
        for mo, d in ((11, 5), (12, 24), (3, 9), (8, 15)):
            mon = EN_MONTHS_SHORT[mo - 1]
            yield f"{mon}/{d}", "en", zone, now, "date", next_date(now, mo, d), family
            yield f"{mon}-{d}", "en", zone, now, "date", next_date(now, mo, d), family
        for said in ("5.12", "3.04", "11.10"):  # a date or a time: refused
            yield said, "en", zone, now, "time", None, family
    for zone, now in each_now("es"):
        for y, mo, d in ((2027, 11, 5), (2027, 2, 14), (2028, 7, 30), (2027, 9, 1)):
            when = at(date(y, mo, d))
            for said in (f"{y}{mo:02d}{d:02d}", f"{d:02d}.{mo:02d}.{y}", f"{d}/{mo}/{y}", f"{d}-{mo}-{y}"):
                yield said, "es", zone, now, "date", when, family
            yield f"{d:02d}.{mo:02d}.{y} 16:30", "es", zone, now, "datetime", at(date(y, mo, d), 16, 30), family
        for mo, d in ((11, 5), (12, 24), (3, 9), (8, 15), (12, 1)):
            yield f"{d} del {mo}", "es", zone, now, "date", next_date(now, mo, d), family
            yield f"el {d} del {mo}", "es", zone, now, "date", next_date(now, mo, d), family
        yield "1.º de diciembre", "es", zone, now, "date", next_date(now, 12, 1), family
        yield "1º de diciembre", "es", zone, now, "date", next_date(now, 12, 1), family
        yield "el 1.º de marzo", "es", zone, now, "date", next_date(now, 3, 1), family
        for said in ("5.12", "3.04", "11.10"):
            yield said, "es", zone, now, "time", None, family


def holiday_rows() -> Iterator[Row]:
    """Named holidays by their next date in the country (the US for English, Spain and Mexico for Spanish),
    and holidays of other calendars in a country that keeps them, from the `holidays` package."""
    import holidays

    family = "holidays"

    def library(country: str, now: datetime, *names: str, years: int = 3) -> date | None:
        found = holidays.country_holidays(country, years=range(now.year, now.year + years), language="en_US")
        for day, name in sorted(found.items()):
            lowered = name.casefold()
            if "observed" in lowered or "eve" in lowered.split():
                continue
            if any(n in lowered for n in names) and at(day) > now:
                return day
        return None

    zone, now = "America/New_York", datetime(2026, 11, 20, 16, 5)
    us = {
        "memorial day": library("US", now, "memorial day"),
        "labor day": library("US", now, "labor day"),
        "thanksgiving": library("US", now, "thanksgiving"),
        "washington's birthday": library("US", now, "washington's birthday"),
    }
    for said, day in (
        ("next memorial day", us["memorial day"]), ("this memorial day", us["memorial day"]),
        ("this labor day", us["labor day"]), ("next labor day", us["labor day"]),
        ("labor day", us["labor day"]), ("next thanksgiving", us["thanksgiving"]),
        ("washington's birthday", us["washington's birthday"]), ("Washington's Birthday", us["washington's birthday"]),
        ("saint paddy's day", date(2027, 3, 17)), ("st paddy's day", date(2027, 3, 17)),
        ("st. paddys day", date(2027, 3, 17)), ("halloween 2028", date(2028, 10, 31)),
        ("halloween 2027", date(2027, 10, 31)), ("christmas 2027", date(2027, 12, 25)),
        ("next halloween", date(2027, 10, 31)), ("this halloween", date(2027, 10, 31)),
        ("easter monday", date(2027, 3, 29)), ("whit monday", date(2027, 5, 17)),
        ("next easter", date(2027, 3, 28)), ("new year's day 2028", date(2028, 1, 1)),
    ):  # fmt: skip
        assert day is not None, said
        yield said, "en", zone, now, "date", at(day), family
        yield f"{said} at 6pm", "en", zone, now, "datetime", at(day, 18), family
    thanksgiving_2028 = holidays.country_holidays("US", years=2028, language="en_US")
    day = next(d for d, n in thanksgiving_2028.items() if "thanksgiving" in n.casefold())
    yield "in 2 years on thanksgiving", "en", zone, now, "date", at(day), family
    memorial_2028 = holidays.country_holidays("US", years=2028, language="en_US")
    day = next(d for d, n in memorial_2028.items() if "memorial" in n.casefold())
    yield "memorial day 2028", "en", zone, now, "date", at(day), family
    others = (  # a holiday of another calendar, where a country keeps it
        ("diwali", "IN", ("diwali",)), ("yom kippur", "IL", ("yom kippur",)), ("eid al-adha", "SA", ("eid al-adha",)),
        ("chinese new year", "CN", ("chinese new year", "spring festival")),
        ("rosh hashanah", "IL", ("rosh hashanah",)), ("eid al-fitr", "SA", ("eid al-fitr",)),
        ("holi", "IN", ("holi",)), ("passover", "IL", ("passover", "pesach")),
    )  # fmt: skip
    for zone_other, now_other in (("America/New_York", now), ("Europe/Madrid", datetime(2026, 5, 13, 10, 23))):
        for said, country, names in others:
            found = library(country, now_other, *names)
            if found is None:
                continue
            yield said, "en", zone_other, now_other, "date", at(found), family
            yield f"on {said} at 8pm", "en", zone_other, now_other, "datetime", at(found, 20), family
    zone, now = "Europe/Madrid", datetime(2026, 5, 13, 10, 23)
    for said, day in (
        ("navidad de 2027", date(2027, 12, 25)), ("la próxima navidad", date(2026, 12, 25)),
        ("esta navidad", date(2026, 12, 25)), ("el lunes de pascua", date(2027, 3, 29)),
        ("nochebuena de 2027", date(2027, 12, 24)), ("el próximo año nuevo", date(2027, 1, 1)),
        ("halloween de 2028", date(2028, 10, 31)), ("el próximo halloween", date(2026, 10, 31)),
        ("lunes de pentecostés", date(2026, 5, 25)), ("el día de reyes de 2028", date(2028, 1, 6)),
    ):  # fmt: skip
        yield said, "es", zone, now, "date", at(day), family
        yield f"{said} a las 18:00", "es", zone, now, "datetime", at(day, 18), family
    for said, country, names in (
        ("diwali", "IN", ("diwali",)), ("yom kipur", "IL", ("yom kippur",)),
        ("año nuevo chino", "CN", ("chinese new year", "spring festival")),
        ("fiesta del cordero", "SA", ("eid al-adha",)), ("fin del ramadán", "SA", ("eid al-fitr",)),
    ):  # fmt: skip
        found = library(country, now, *names)
        if found is not None:
            yield said, "es", zone, now, "date", at(found), family
            yield f"el {said} a las 20:00", "es", zone, now, "datetime", at(found, 20), family


def refusals() -> Iterator[Row]:
    """Phrases that contradict themselves or read two ways: refused in both languages."""
    family = "contradictions"
    for zone, now in each_now("en"):
        for ahead in range(1, 8):
            d = now.date() + timedelta(days=ahead)
            wrong = EN_WEEKDAYS[(d.weekday() + 2) % 7]
            yield f"{wrong}, {EN_MONTHS[d.month - 1]} {d.day} at 10am", "en", zone, now, "datetime", None, family
            yield f"{wrong} {d.day} {EN_MONTHS_SHORT[d.month - 1]} {d.year}", "en", zone, now, "date", None, family
    for zone, now in each_now("es"):
        for ahead in range(1, 8):
            d = now.date() + timedelta(days=ahead)
            wrong = ES_WEEKDAYS[(d.weekday() + 2) % 7]
            yield f"el {wrong} {d.day} de {ES_MONTHS[d.month - 1]} a las 10", "es", zone, now, "datetime", None, family
            yield f"{wrong} {d.day}/{d.month}/{d.year}", "es", zone, now, "date", None, family


RECURRING = (
    ("the {o} of every month at {h}", "en"), ("every month on the {o} at {h}", "en"),
    ("on the {o} of each month at {h}:30", "en"), ("monthly on the {o} at {h}pm", "en"),
    ("el día {d} de cada mes a las {h}", "es"), ("cada mes el día {d} a las {h}", "es"),
    ("todos los meses el {d} a las {h}:30", "es"), ("el {d} de cada mes a las {h} de la tarde", "es"),
)  # fmt: skip


def recurring_once() -> Iterator[Row]:
    """A recurring phrase sent as a one-shot time: its next occurrence."""
    for zone, now in (*NOWS["en"], *NOWS["es"]):
        language = "en" if (zone, now) in NOWS["en"] else "es"
        for shape, shape_language in RECURRING:
            if shape_language != language:
                continue
            for d, h in ((3, 8), (21, 10), (28, 11)):
                pm = shape.endswith("pm") or shape.endswith("tarde")
                minute = 30 if ":30" in shape else 0
                for ahead in range(3):
                    year, month = divmod(now.year * 12 + now.month - 1 + ahead, 12)
                    when = datetime(year, month + 1, d, h + 12 if pm else h, minute)
                    if when > now:
                        break
                said = shape.format(o=ordinal(d), d=d, h=h)
                yield said, language, zone, now, "datetime", when, "recurring"


FAMILIES = (
    seconds, end_of_day, from_a_day, weekday_with_day, number_words, coming_weekday, clock_parts, layouts,
    holiday_rows, refusals, recurring_once,
)  # fmt: skip


def recurring_rows() -> Iterator[tuple[str, str, str]]:
    for shape, language in RECURRING:
        for d, h in ((3, 8), (21, 10), (15, 7), (28, 11)):
            said = shape.format(o=ordinal(d), d=d, h=h)
            pm = shape.endswith("pm") or shape.endswith("tarde")
            minute = 30 if ":30" in shape else 0
            yield said, language, f"{minute} {h + 12 if pm else h} {d} * *"


def rows() -> list[Row]:
    found = [row for family in FAMILIES for row in family()]
    return [row for row in found if row[5] is None or row[5] > row[3]]


def write() -> int:
    header = (
        "# Held-out phrases (bench/phrases_held_out.py writes them; do not edit by hand), scored apart by\n"
        "# bench/phrases.py. Columns: phrase, language, IANA zone, reference now, kind, expected or 'refuse', family.\n"
    )
    lines = [
        f"{p}\t{lang}\t{zone}\t{now:%Y-%m-%dT%H:%M}\t{kind}\t{f'{at:%Y-%m-%d %H:%M}' if at else REFUSE}\t{family}"
        for p, lang, zone, now, kind, at, family in rows()
    ]
    TABLE.write_text(header + "\n".join(lines) + "\n", encoding="utf-8")
    recurring = [f"{p}\t{lang}\t{expr}" for p, lang, expr in recurring_rows()]
    RECURRING_TABLE.write_text(
        "# Held-out recurring phrases (bench/phrases_held_out.py writes them). Columns: phrase, language, expected.\n"
        + "\n".join(recurring)
        + "\n",
        encoding="utf-8",
    )
    print(f"{len(lines)} one-shot and {len(recurring)} recurring held-out phrases")
    return 0


if __name__ == "__main__":
    ZoneInfo("UTC")
    sys.exit(write())
