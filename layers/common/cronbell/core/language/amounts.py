"""Amounts of time from now in English and Spanish: "30 minutes", "an hour and a half", "1h30m", "two
weeks", "in 2 years" (months and years on the calendar, days on the wall clock, the rest elapsed); whole
days ahead at a time of day ("3 days at 9am"); and counted days ("3 weekdays", "dos sábados")."""

from __future__ import annotations

import re
from calendar import monthrange
from collections.abc import Callable
from datetime import UTC, date, datetime, time, timedelta
from zoneinfo import ZoneInfo

from cronbell.core.domain.zones import is_second_occurrence
from cronbell.core.language import lexicon
from cronbell.core.language.clocks import (
    WEEKDAY_WORDS,
    second_occurrence_note,
    wall,
)
from cronbell.core.language.day_parts import clock_on_a_day
from cronbell.core.language.days import DEFAULT_HOUR
from cronbell.core.text.texts import date_text, say
from cronbell.core.values import value

_AT = rf"(?:{lexicon.either('AMOUNT_AT')}|@)"
_AMOUNT = (
    rf"(?P<n>\d+)\s*(?:(?P<seconds>{lexicon.either('AMOUNT_SECONDS')})|(?P<minutes>{lexicon.either('AMOUNT_MINUTES')})"
    rf"|(?P<hours>{lexicon.either('AMOUNT_HOURS')})|(?P<days>{lexicon.either('AMOUNT_DAYS')})"
    rf"|(?P<weeks>{lexicon.either('AMOUNT_WEEKS')})|(?P<months>{lexicon.either('AMOUNT_MONTHS')})"
    rf"|(?P<years>{lexicon.either('AMOUNT_YEARS')}))"
)
_NUMBER_WORDS = lexicon.NUMBER_WORDS
_NUMBER = "|".join(sorted((re.escape(w) for w in _NUMBER_WORDS), key=len, reverse=True))
# an amount as the grammar writes it, read back by the grammar
_IN_HOURS, _IN_MINUTES = lexicon.own("AMOUNT_IN_HOURS"), lexicon.own("AMOUNT_IN_MINUTES")
_HOUR_WORD = lexicon.either("AMOUNT_HOUR_WORD")
_FRACTION = rf"\b(?:(\d+) )?([13]/4|1/2) (?:{lexicon.either('AMOUNT_FRACTION_OF')})?(?:{_HOUR_WORD})\b"
# whole phrases that name an amount ("half an hour", "un par de"), each language's in turn, and the amount
_PHRASES = [
    (rf"\b(?:{said})\b", meant) for module in lexicon.LANGUAGES.values() for said, meant in module.AMOUNTS.items()
]
# a half or a quarter of an hour after a number of hours ("two hours and a half", "hora y media")
_HOURS_AND = [
    (rf"(?:\b({_NUMBER}|\d+) )?\b(?:{_HOUR_WORD}) (?:{lexicon.either(ending)})\b", minutes)
    for ending, minutes in (("AMOUNT_AND_A_HALF", 30), ("AMOUNT_AND_A_QUARTER", 15))
]
_NUMBER_AND_A_HALF = rf"\b({_NUMBER}|\d+) (?:{lexicon.some('AMOUNT_NUMBER_AND_A_HALF')})\b"
_DECIMAL_HOURS = rf"\b(\d+)[.,](\d+) ?(?:{lexicon.either('AMOUNT_HOURS')})\b"


def _hours_and(minutes: int) -> Callable[[re.Match[str]], str]:
    """'(two) hours and a half' -> '2 hours 30 minutes'; no number of hours is one hour ('hora y media')."""

    def spell(match: re.Match[str]) -> str:
        count = match[1] or "1"
        return f"{_IN_HOURS.format(n=_NUMBER_WORDS.get(count, count))} {_IN_MINUTES.format(n=minutes)}"

    return spell


_FRACTIONS = {"1/4": 15, "1/2": 30, "3/4": 45}
_APPROXIMATELY = lexicon.alternatives(lexicon.APPROXIMATELY)


_IN_TIME = rf"(?<=[a-z])(?:{lexicon.some('AMOUNT_IN_TIME')})$"


def _exactly(text: str) -> str:
    """'about 20 minutes', '20 minutes or so', 'unos 20 minutos', "an hour's time" -> the amount named."""
    return re.sub(rf"^(?:{_APPROXIMATELY}) |,? (?:{_APPROXIMATELY})$|{_IN_TIME}", "", text)


def _fraction(match: re.Match[str]) -> str:
    minutes = _IN_MINUTES.format(n=_FRACTIONS[match[2]])
    return f"{_IN_HOURS.format(n=match[1])} {minutes}" if match[1] else minutes


def _words_to_digits(text: str) -> str:
    """'two weeks' -> '2 weeks', 'a fortnight' -> '2 weeks', 'half an hour' -> '30 minutes', 'hora y media' ->
    '1 hours 30 minutes', 'two and a half hours' -> '2 hours 30 minutes', '1.5 hours' -> '90 minutes',
    '1/4 hour' -> '15 minutes', '1 1/2 hours' -> '1 hours 30 minutes'."""
    text = re.sub(_FRACTION, _fraction, text)
    for said, meant in _PHRASES:
        text = re.sub(said, meant, text)
    for pattern, minutes in _HOURS_AND:  # before "a" is read as one
        text = re.sub(pattern, _hours_and(minutes), text)
    text = re.sub(_NUMBER_AND_A_HALF, lambda m: f"{_IN_HOURS.format(n=m[1])} {_IN_MINUTES.format(n=30)}", text)
    text = re.sub(rf"\b({_NUMBER})\s+(?=[a-z])", lambda m: f"{_NUMBER_WORDS[m[1]]} ", text)
    # a decimal number of hours that is a whole number of minutes: "1.5 hours", "2,25 horas"
    text = re.sub(_DECIMAL_HOURS, _decimal_hours, text)
    return re.sub(r"\b(\d+)h(\d{1,2})\b", r"\1h\2m", text)  # "1h30"


def _decimal_hours(match: re.Match[str]) -> str:
    """'1.5 hours' -> '90 minutes' when the hours are whole minutes; else as said."""
    minutes, rest = divmod(int(match[1] + match[2]) * 60, 10 ** len(match[2]))
    return _IN_MINUTES.format(n=minutes) if not rest else match[0]


@value
class Amount:
    months: int  # months and years: calendar arithmetic on the wall clock
    days: int  # days and weeks: whole days on the wall clock
    elapsed: timedelta  # hours, minutes and seconds: elapsed time
    seconds: bool  # a number of seconds was named: the result is rounded up to the minute


# amounts are separated by a comma, "and", "y", or nothing at all before a number ("1h30m")
_PARTS = rf"\s*(?:,|\b(?:{lexicon.either('AND')})\b)\s*|\s+(?=\d)|(?<=[a-z])(?=\d)"


def read_amount(rest: str) -> Amount | None:
    """'30 minutes', 'an hour', '1 hour and 30 minutes', '1h30m', 'two weeks', 'in 2 years'."""
    rest = _words_to_digits(_exactly(rest))
    parts = [p for p in re.split(_PARTS, rest) if p]
    if not parts:
        return None
    months, days, elapsed, seconds = 0, 0, timedelta(0), False
    for part in parts:
        match = re.fullmatch(_AMOUNT, part)
        if not match:
            return None
        count = int(match["n"])
        if match["seconds"]:
            elapsed += timedelta(seconds=count)
            seconds = True
        elif match["months"]:
            months += count
        elif match["years"]:
            months += 12 * count
        elif match["weeks"]:
            days += 7 * count
        elif match["days"]:
            days += count
        elif match["hours"]:
            elapsed += timedelta(hours=count)
        else:
            elapsed += timedelta(minutes=count)
    return Amount(months, days, elapsed, seconds)


def _add_months(day: date, months: int, language: str, notes: list[str]) -> date:
    """The same day of the month `months` later; in a month without that day, its last day (as calendars
    and date libraries count "in a month" from 31 January), and a note says so."""
    index = day.year * 12 + day.month - 1 + months
    year, month = divmod(index, 12)
    last = monthrange(year, month + 1)[1]
    if day.day <= last:
        return date(year, month + 1, day.day)
    moved = date(year, month + 1, last)
    notes.append(
        say("note.month_end", language, day=day.day, date=date_text(datetime.combine(moved, time()), language))
    )
    return moved


def days_ahead_at(rest: str, now_local: datetime, tz: ZoneInfo, language: str, notes: list[str]) -> datetime | None:
    """'3 days at 9am', '2 semanas a las 10': whole days ahead, at a time of day."""
    match = re.fullmatch(rf"(?P<amount>.+?),? {_AT} (?P<clock>.+)", rest)
    amount = read_amount(match["amount"]) if match else None
    clock = clock_on_a_day(match["clock"], language, notes) if match and amount else None
    if amount is None or clock is None or amount.elapsed or not (amount.days or amount.months):
        return None
    day = _add_months(now_local.date(), amount.months, language, notes) + timedelta(days=amount.days)
    return wall(datetime(day.year, day.month, day.day, clock[0], clock[1]), tz, language, notes)


_PLURAL = lexicon.alternatives(set(lexicon.each("PLURAL_ENDINGS")))
_COUNTED = (
    rf"(?P<n>\d{{1,2}}) (?:(?P<workday>{lexicon.some('COUNTED_WORKDAYS')})"
    rf"|(?P<wd>{lexicon.alternatives(WEEKDAY_WORDS)})(?:{_PLURAL})?)"
)


def counts_days(rest: str) -> bool:
    """Whether `rest` counts days of a kind ('3 weekdays', 'dos sabados'), as counted_days reads them."""
    return re.fullmatch(_COUNTED, _words_to_digits(rest)) is not None


def counted_days(rest: str, now_local: datetime, tz: ZoneInfo, language: str, notes: list[str]) -> datetime | None:
    """'3 weekdays' (Monday to Friday after today, at the time it is now), 'four saturdays' / 'dos sábados'
    (the Nth of that weekday after today, at the default hour); either at a time of day ('2 business days
    at 9')."""
    at = re.fullmatch(rf"(?P<count>.+?),? {_AT} (?P<clock>.+)", rest)
    match = re.fullmatch(_COUNTED, _words_to_digits(at["count"] if at else rest))
    clock = clock_on_a_day(at["clock"], language, notes) if at and match else None
    if match is None or not 1 <= int(match["n"]) <= 60 or (at and clock is None):
        return None
    day, left = now_local.date(), int(match["n"])
    while left:
        day += timedelta(days=1)
        left -= day.weekday() < 5 if match["workday"] else day.weekday() == WEEKDAY_WORDS[match["wd"]]
    if clock is not None:
        return wall(datetime(day.year, day.month, day.day, *clock), tz, language, notes)
    if match["workday"]:
        return wall(datetime.combine(day, now_local.time().replace(second=0, microsecond=0)), tz, language, notes)
    notes.append(say("default_hour", language, clock=f"{DEFAULT_HOUR:02d}:00"))
    return wall(datetime(day.year, day.month, day.day, DEFAULT_HOUR), tz, language, notes)


def after_amount(
    amount: Amount, now_local: datetime, tz: ZoneInfo, language: str, notes: list[str], sign: int = 1
) -> datetime:
    """Whole days, months and years keep the wall-clock time (across a DST change too); the rest is
    elapsed time; a number of seconds rounds the result up to the minute (Scheduler's precision).
    `now_local` is the instant counted from (another day's: "5 days from monday"); `sign` -1 counts back."""
    base = now_local.replace(microsecond=0)
    if amount.days or amount.months:
        day = _add_months(base.date(), sign * amount.months, language, notes) + timedelta(days=sign * amount.days)
        base = wall(datetime.combine(day, base.time().replace(tzinfo=None)), tz, language, notes)
    at = (base.astimezone(UTC) + sign * amount.elapsed).astimezone(tz)
    if amount.seconds and at.second:
        at = (at.astimezone(UTC) + timedelta(seconds=60 - at.second)).astimezone(tz)
    if is_second_occurrence(at):
        notes.append(second_occurrence_note(at, tz, language))
    return at
