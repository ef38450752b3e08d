"""The afternoon rule as a recurring phrase's answer says it: which bare hours of 1 to 5 the phrase said
were read in the afternoon ('every friday at 4': 16:00), for the answer's notes (usecases/planning.py)."""

from __future__ import annotations

import re

from cronbell.core.language import lexicon
from cronbell.core.language.clocks import PERIOD_OF
from cronbell.core.language.cron_days import AND
from cronbell.core.language.day_words import in_digits

_AT_WORDS = "|".join(lexicon.each("AT"))
_SAID_BARE = re.compile(r"(?<![\d:.])(?P<h>[1-5])(?:[:.](?P<m>[0-5]\d))?(?![\d:.a-z]| (?:am|pm)\b)")
_CLOCK_SAID = r"\d{1,2}(?:[:.]\d\d)?"
# times listed after 'at' ('at 9:30 and 5:30', 'a las 9 y a las 3'): each is a clock, whatever read it
_CLOCK_LIST = re.compile(
    rf"\b(?:{_AT_WORDS}) {_CLOCK_SAID}(?:(?:,| (?:{AND})) (?:(?:{_AT_WORDS}) )?{_CLOCK_SAID}(?![\d:.]))*"
)


def read_in_the_afternoon(
    t: str, times: list[tuple[int, int]], plain: list[tuple[int, int]] | None = None
) -> list[tuple[str, str]]:
    """Each bare hour of 1 to 5 a phrase said (normalized text) that its schedule (`times`, (hour, minute)
    as it fires) reads in the afternoon, with the time read ('every friday at 4': ('4', '16:00')), for the
    answer's notes; none when the phrase names a part of the day (its hours are read in it). `plain`: the
    times the phrase gives without the rule (day_parts.without_the_afternoon_rule): a number neither listed
    as a time after 'at' nor moved by the rule ('every 2 hours', 'el día 3') is no hour read in the
    afternoon, and when the phrase lists its times after 'at', a number outside that list is none either
    ('every 2 weeks on sunday at 2:30': the 2 of the weeks is a count)."""
    said = in_digits(t)
    if any(word in PERIOD_OF for word in said.split()):
        return []
    listed = [span.span() for span in _CLOCK_LIST.finditer(said)]
    found: dict[str, str] = {}
    for bare in _SAID_BARE.finditer(said):
        hour, minute = int(bare["h"]), bare["m"]
        minutes = [m for h, m in times if h == hour + 12 and (minute is None or m == int(minute))]
        a_clock = any(start <= bare.start() < end for start, end in listed)  # or a count, a day: 'every 2 hours'
        if (
            minutes
            and (a_clock or (not listed and (plain is None or any(h == hour for h, _ in plain))))
            and not any(h == hour for h, _ in times)
        ):
            found.setdefault(bare[0], f"{hour + 12:02d}:{minutes[0]:02d}")
    return list(found.items())
