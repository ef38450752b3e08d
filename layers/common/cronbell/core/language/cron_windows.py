"""An interval within hours of the day ('every 15 minutes between 9 and 17', 'every 2 hours from 8am to
8pm on weekdays', 'cada hora de 2 a 6 de la tarde') read into cron fields.

The hours are read as the times of one day are: a bare hour of 1 to 5 that starts a window is the
afternoon's ('from 1 to 5': 13:00 to 17:00), an end said on a 12-hour clock before its start is the
afternoon's ('from 9 to 5': office hours), an am or pm said on the end only is the start's too when the
start comes before the end so read ('between 1 and 4am', 'from 8 to 11pm'), and a part of the day said after
the two hours is both hours' ('from 2 to 6 in the afternoon', 'from 4 to 6 in the evening'). A window never
runs across midnight ('from 17 to 9' is refused)."""

from __future__ import annotations

import re
from collections.abc import Callable

from cronbell.core.domain.phrases import Phrase, phrase
from cronbell.core.language import lexicon
from cronbell.core.language.clocks import PERIOD_OF, parse_clock_in
from cronbell.core.language.cron_days import day_fields
from cronbell.core.language.day_parts import in_the_afternoon

Every = Callable[[str, bool], "str | Phrase | None"]  # an interval's cron; True: within a window's hours

DAYS_START = rf"(?:{lexicon.either('DAYS_START')})"
_ON_THE_CLOCK = lexicon.union("PARTS_ON_THE_CLOCK")  # "evening": its small hours are the afternoon's
ON_DAYS = rf"(?P<every>.+?),? (?P<days>{DAYS_START}\b.*)"  # an interval, then the days it runs on
_HOUR_ARTICLE = rf"(?:(?:{lexicon.either('HOUR_ARTICLE')}) )?"
_BOUND = r"(?P<{0}>\d{{1,2}})(?::00|h)?(?: ?(?P<{0}_half>am|pm))?"  # an hour of a window: "17", "5pm", "17:00"
_PART = rf"(?: (?:{lexicon.either('PART_LEAD')}) (?P<part>{lexicon.either('PARTS_AFTER_LEAD')}))?"
_WINDOW = (
    rf"(?P<every>.+?),? (?:{lexicon.either('WINDOW_FROM')}) {_HOUR_ARTICLE}{_BOUND.format('a')}"
    rf"(?: (?:{lexicon.either('WINDOW_TO')}) {_HOUR_ARTICLE}{_BOUND.format('b')})?{_PART}(?:,? (?P<days>.+))?"
)


def window(t: str, every: Every) -> str | Phrase | None:
    """The interval `every` reads within the hours said, from the first up to the last time before the
    second (17:00 itself is not included; without a second, to the day's end: 'every 4 hours starting
    at 6'), on the days named after it (every day without)."""
    match = re.fullmatch(_WINDOW, t)
    if match is None:
        return None
    said, days = match["every"], match["days"]
    ahead = re.fullmatch(ON_DAYS, said) if days is None else None
    if ahead and every(said, False) is None:  # 'every 10 minutes on weekdays between 9 and 17'
        said, days = ahead["every"], ahead["days"]
    interval = every(said, True)
    if not isinstance(interval, str):
        return interval
    bounds = _bounds(match)
    fields = day_fields(days) if days else "* * *"
    minute, hour, _ = interval.split(" ", 2)
    if bounds is None or fields is None or not (hour == "*" or hour.startswith("*/")):
        return None
    first, last = bounds
    if not first < last <= 24:
        return phrase("cron.window")
    if hour.startswith("*/"):  # every N hours: each N-th hour from the first
        return f"{minute} {','.join(str(h) for h in range(first, last, int(hour[2:])))} {fields}"
    return f"{minute} {first}-{last - 1} {fields}" if last - 1 > first else f"{minute} {first} {fields}"


def _bounds(match: re.Match[str]) -> tuple[int, int] | None:
    """The hours a window runs from and to (24: the day's end), as the module says they are read."""
    if match["part"] and not (match["a_half"] or match["b_half"]):  # 'from 2 to 6 in the afternoon'
        return _in_part(match)
    first = _hour(match, "a")
    if match["b_half"] and not match["a_half"] and int(match["a"]) <= 12:
        in_its_half = int(match["a"]) % 12 + (12 if match["b_half"] == "pm" else 0)
        if in_its_half < _hour(match, "b") or (match["b_half"] == "am" and _hour(match, "b") == 0):
            return in_its_half, _hour(match, "b") or 24  # 'from 1 to 4am', 'between 8 and 11pm': both of that half
    if not match["a_half"] and in_the_afternoon(match["a"], (first, 0)):
        first += 12  # 'from 1 to 5', 'every 4 hours starting at 2': the afternoon's, as 'every day at 2' is
    if not match["b"]:
        return first, 24
    last = _hour(match, "b")
    if last < first and not match["b_half"] and int(match["a"]) <= 12 and last + 12 <= 24:
        last += 12  # 'from 9 to 5': office hours, 09:00 to 17:00
    return first, last


def _in_part(match: re.Match[str]) -> tuple[int, int] | None:
    """Both hours read in the part of the day said after them. The evening's hours of 1 to 5 are the
    afternoon's on a 12-hour clock ('from 4 to 6 in the evening': 16:00 to 18:00, as 'at 4 in the evening'
    is), and a first hour of the small hours before an end later than noon is of that end's half of the
    day ('from 5 to 7 at night': 17:00 to 19:00); a part that is a period of its own (the small hours,
    'de 1 a 4 de la madrugada') reads as said."""
    part = match["part"]
    read = [parse_clock_in(match[bound], PERIOD_OF.get(part, part)) for bound in ("a", "b") if match[bound]]
    if any(clock is None for clock in read):
        return None
    hours = [clock[0] for clock in read if clock is not None]
    if part in _ON_THE_CLOCK:
        hours = [hour + 12 if 0 < hour < 6 else hour for hour in hours]
    if len(hours) > 1 and hours[0] < 12 <= hours[1] and hours[0] + 12 < hours[1]:
        hours[0] += 12
    return hours[0], (hours[1] or 24) if len(hours) > 1 else 24


def _hour(match: re.Match[str], bound: str) -> int:
    hour, half = int(match[bound]), match[f"{bound}_half"]
    return hour % 12 + (12 if half == "pm" else 0) if half and hour <= 12 else hour
