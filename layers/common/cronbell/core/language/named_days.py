"""Named holidays and observances in a one-shot phrase ("on Christmas", "Thanksgiving at noon", "Nochebuena
a las 21:00", "el día de la madre"): the name is looked up in each language's lexicon (HOLIDAYS), its date
found for the user's country, and the phrase read again with that date in place of the name.

The dates come from core/language/holiday_dates.py. A name the country does not keep is refused, naming
the country; so is a phrase that names a day the lexicon does not know."""

from __future__ import annotations

import re
from datetime import date, datetime
from functools import cache
from zoneinfo import ZoneInfo

from cronbell.core.domain.phrases import phrase
from cronbell.core.language import lexicon
from cronbell.core.language.clocks import Unreadable
from cronbell.core.language.days import read_calendar
from cronbell.core.text.texts import say

# a phrase that names a day the lexicon does not know: "on festivus day", "el dia del orgullo friki"
_UNKNOWN = re.compile(
    rf"^(?:{lexicon.some('UNKNOWN_DAY_LEAD')})*(?:[a-z']+ ){{0,3}}(?:{lexicon.some('UNKNOWN_DAY_END')})$"
    rf"|^(?:{lexicon.some('UNKNOWN_DAY')})$"
)


_NEXT_YEAR = rf"\b(?:{lexicon.some('HOLIDAY_NEXT_YEAR')})(?!\w)"
_THIS_YEAR = rf"\b(?:{lexicon.some('HOLIDAY_THIS_YEAR')})(?!\w)"


@cache
def _names() -> re.Pattern[str]:
    return re.compile(
        rf"(?:\b(?:{lexicon.some('HOLIDAY_NEXT')}) )?\b(?P<name>{lexicon.alternatives(lexicon.HOLIDAYS)})\b"
        rf"(?:,? (?:(?:{lexicon.some('HOLIDAY_YEAR_LEAD')}) )?(?P<year>\d{{4}})\b)?"
    )


def find(t: str) -> tuple[re.Match[str], str] | None:
    """The holiday a normalized phrase names (the match and its key), or None."""
    match = _names().search(t)
    return (match, lexicon.HOLIDAYS[match["name"]]) if match else None


def dates(key: str, country: str | None, first_year: int, said: str) -> tuple[list[date], str]:
    """The holiday's dates from `first_year` on (three years) and the country they are from: the user's,
    or for a holiday of another calendar the user's country does not keep, a country that keeps it
    (HOMES); or Unreadable naming the country. The tables of dates are read only when a holiday is named."""
    from cronbell.core.language.holiday_dates import HOMES, holiday_date

    for where in dict.fromkeys(c for c in (country, HOMES.get(key)) if c):
        found = [d for year in range(first_year, first_year + 3) if (d := holiday_date(key, year, where))]
        if found:
            return found, where
    if not country:
        raise Unreadable(phrase("reason.holiday_no_country", name=said))
    raise Unreadable(phrase("reason.holiday_not_there", name=said, country=country))


def unknown(t: str, country: str | None) -> Unreadable | None:
    """The reason for a phrase that names a day the lexicon does not know ('on Festivus Day')."""
    if _UNKNOWN.fullmatch(t):
        return Unreadable(phrase("reason.holiday_unknown", name=t, country=country or "?"))
    return None


def read_holiday(
    t: str,
    found: tuple[re.Match[str], str],
    now_local: datetime,
    tz: ZoneInfo,
    language: str,
    notes: list[str],
    whole_day: bool,
    country: str | None,
) -> datetime | None:
    """'christmas eve at 8pm': the phrase read again with the holiday's next date (in `country`) in its place."""
    match, key = found
    year = int(match["year"]) if match["year"] else None
    for years_ahead, pattern in enumerate((_THIS_YEAR, _NEXT_YEAR)):  # "christmas next year", "esta navidad"
        named_year = re.search(pattern, t) if year is None else None
        again = (
            find(re.sub(r" +", " ", f"{t[: named_year.start()]} {t[named_year.end() :]}").strip())
            if named_year
            else None
        )
        if named_year and again:
            t = re.sub(r" +", " ", f"{t[: named_year.start()]} {t[named_year.end() :]}").strip()
            (match, key), year = again, now_local.year + years_ahead
    said = match["name"]
    days, where = dates(key, country, year or now_local.year, said)
    for day in days:
        if year is not None and day.year != year:
            raise Unreadable(phrase("reason.holiday_not_there", name=said, country=where))
        read: list[str] = []
        text = f"{t[: match.start()]} {day.isoformat()} {t[match.end() :]}"
        at = read_calendar(re.sub(r" +", " ", text).strip(), now_local, tz, language, read, whole_day)
        if at is None:
            return None
        if year is not None or at > now_local:
            if where == country:
                notes.append(say("note.holiday", language, name=said, country=where, date=day.isoformat()))
            else:  # "diwali" in Spain: its date in India, said
                home = country or "?"
                notes.append(
                    say("note.holiday_elsewhere", language, name=said, home=home, country=where, date=day.isoformat())
                )
            notes.extend(read)
            return at
    return None
