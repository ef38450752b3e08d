"""Public-holiday calendars: `skip_holidays` codes and whether a local date is a holiday there.

A code is an ISO 3166-1 alpha-2 country with an optional subdivision (`ES`, `ES-MD`, `US-CA`,
`GB-SCT`). The dates come from the `holidays` package, which is imported here, inside the functions
that read a calendar, and nowhere else: a cold start pays for it only when a schedule uses one
(tests/unit/test_end_and_holiday_rules.py holds the handlers to that).
"""

from __future__ import annotations

import re
from datetime import date
from functools import lru_cache
from typing import Any

_CODE = re.compile(r"([A-Z]{2})(?:-([A-Z0-9]{1,3}))?")
FORMS = "ES, ES-MD, US, US-CA, GB-SCT"  # examples shown when a code is refused


class UnknownCalendar(ValueError):
    """A code that is not of the accepted form, or that the holiday data does not know."""


def normalize(code: str) -> str:
    """The calendar's canonical code (upper case, `-` between country and subdivision), or
    UnknownCalendar."""
    text = code.strip().upper().replace("_", "-")
    match = _CODE.fullmatch(text)
    if match is None:
        raise UnknownCalendar(code)
    _calendar(text)  # raises for a country or subdivision the data does not have
    return text


def is_holiday(code: str, day: date) -> bool:
    """Whether `day` (a local date) is a public holiday in the calendar `code` (normalized)."""
    return day in _calendar(code)


@lru_cache(maxsize=32)
def _calendar(code: str) -> Any:
    """The calendar of one code; it computes each year's holidays the first time a date of it is read."""
    import holidays  # lazily: about 40 ms and a few MB, only for schedules with a calendar

    country, _, subdivision = code.partition("-")
    if country == "UK" or not country.isascii():  # an alias the library accepts, not ISO 3166-1
        raise UnknownCalendar(code)
    try:
        return holidays.country_holidays(country, subdiv=subdivision or None)
    except NotImplementedError:
        raise UnknownCalendar(code) from None
