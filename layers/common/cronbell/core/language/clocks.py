"""Wall-clock words and times shared by the one-shot and the recurring grammar: weekday and month
names, normalized text, times of day, parts of the day, and local times across DST changes."""

from __future__ import annotations

import re
import unicodedata
from datetime import date, datetime, tzinfo

from cronbell.core.domain.phrases import Phrase
from cronbell.core.domain.zones import EXISTS, NONEXISTENT, format_offset, localize, tz_label
from cronbell.core.language import lexicon
from cronbell.core.language.lexicon import MONTH_WORDS, NAMED_CLOCKS, PERIOD_OF, WEEKDAY_WORDS
from cronbell.core.text.texts import say

__all__ = ["MONTH_WORDS", "PERIOD_OF", "WEEKDAY_WORDS"]  # read from here by the grammar modules


class NoClockError(Exception):
    """A day was named without a time of day, in a way that has no default hour."""


class Unreadable(Exception):
    """The text reads, but not as one instant: the reason is said to the user."""

    def __init__(self, reason: Phrase) -> None:
        super().__init__(reason.key)
        self.reason = reason


# emoji and other pictographs, their skin tones, joiners and variation selectors: a word's room, no meaning
_PICTURES = frozenset({"So", "Sk", "Cf", "Me", "Co", "Cn"})


def normalize(text: str) -> str:
    """Lowercase, strip accents and emoji, 'a.m.' -> 'am', collapse blanks, drop trailing punctuation."""
    decomposed = unicodedata.normalize("NFKD", text)
    plain = "".join(
        " " if unicodedata.category(c) in _PICTURES or c == "\ufe0f" else c
        for c in decomposed
        if not unicodedata.combining(c)
    ).lower()
    plain = re.sub(r"\b([ap])\.\s?m\.?(?=\s|$)", r"\1m", plain)
    plain = re.sub(r"(?<=\w) ([ap]) m(?=\s|$)", r" \1m", plain)  # "3:30 p m", dictated "five thirty p m"
    plain = re.sub(r"\s+", " ", plain).strip()
    return plain.rstrip(".!?;, ").strip()


# words of courtesy around a time ("remind me on friday at 3pm please", "por favor, mañana a las 9", "every
# day at 9, thanks"), never within a name (a holiday's thanks)
_NOT_IN_A_NAME = "".join(rf"(?<!\b{re.escape(word)} )" for word in lexicon.each("COURTESY_NOT_AFTER"))
_COURTESY = rf"{_NOT_IN_A_NAME}\b(?:{lexicon.alternatives(lexicon.COURTESY)})\b"


def without_courtesy(t: str) -> str:
    """A normalized phrase without its words of courtesy."""
    return re.sub(r"^[\s,]+|[\s,]+$", "", re.sub(r"\s+", " ", re.sub(_COURTESY, " ", t)))


# --- time of day -----------------------------------------------------------------------------------


_MORNING, _AFTERNOON = lexicon.own("CLOCK_MORNING"), lexicon.own("CLOCK_AFTERNOON")
_NIGHT, _SMALL_HOURS = lexicon.own("CLOCK_NIGHT"), lexicon.own("CLOCK_SMALL_HOURS")
# the hours a part of the day holds: a clock read in it must be one ("9 de la mañana", not "9pm in the morning")
PART_HOURS_RANGE = {
    _MORNING: range(1, 13),  # "3 in the morning" is 03:00, "de la madrugada" too
    _AFTERNOON: range(12, 24),
    _NIGHT: (*range(17, 24), *range(6)),
    _SMALL_HOURS: range(7),
}
_SHARP = f"{lexicon.some('CLOCK_SHARP')}|{lexicon.some('CLOCK_HOURS')}"
_CLOCK = re.compile(
    r"(?P<h>\d{1,2})(?:(?::|\.|h)(?P<m>\d{2})(?::[0-5]\d)?)?h?"
    r"(?:\s*(?P<ampm>am|pm))?"
    rf"(?:\s+(?P<frac>(?P<half>{lexicon.some('CLOCK_HALF')})|(?P<quarter>{lexicon.some('CLOCK_QUARTER')})"
    rf"|(?P<quarter_to>{lexicon.some('CLOCK_QUARTER_TO')})|(?:{lexicon.some('CLOCK_PLUS')}) (?P<ym>\d{{1,2}})"
    rf"|(?:{lexicon.some('CLOCK_MINUS')}) (?P<mm>\d{{1,2}})))?"
    r"(?:\s*(?P<ampm2>am|pm))?"  # "9 menos cuarto pm"
    rf"(?:\s+(?:{_SHARP})(?=\s+(?:{lexicon.some('CLOCK_PERIOD_LEAD')})\s))?"  # "5 o'clock in the afternoon"
    rf"(?:\s+(?:{lexicon.some('CLOCK_PERIOD_BEFORE')})\s+(?P<period>{_MORNING}|{_AFTERNOON}|{_NIGHT}|{_SMALL_HOURS})"
    rf"|\s+(?P<mid>{lexicon.some('CLOCK_MIDDAY')}))?"
    rf"(?:\s+(?:{_SHARP}))?"
)
_PAST_OR_TO = re.compile(
    rf"^(?:(?P<half>{lexicon.some('CLOCK_HALF_WORD')})|(?P<quarter>{lexicon.some('CLOCK_QUARTER_WORD')})) "
    rf"(?:(?P<past>{lexicon.some('CLOCK_PAST')})|(?P<to>{lexicon.some('CLOCK_TO')})) (?P<h>\d{{1,2}})\b"
)
_OWN_PERIOD = re.compile("am|pm|" + lexicon.some("CLOCK_OWN_PERIOD"))
_IN_PART = lexicon.own("CLOCK_IN_PART")


def _as_digits(match: re.Match[str]) -> str:
    """'half past 9' -> '9:30', 'quarter to 5' -> '4:45' ('quarter to 1' -> '12:45')."""
    hour = int(match["h"])
    if match["to"]:
        return f"{hour - 1 or 12}:45" if match["quarter"] else match[0]  # no "half to"
    return f"{hour}:{30 if match['half'] else 15:02d}"


_NAMED_CLOCKS = NAMED_CLOCKS


def parse_clock(text: str) -> tuple[int, int] | None:
    """A time of day in normalized text, as (hour, minute), or None if it is not one."""
    text = text.strip()
    if text in _NAMED_CLOCKS:
        return _NAMED_CLOCKS[text]
    text = _PAST_OR_TO.sub(_as_digits, text)
    match = _CLOCK.fullmatch(text)
    if not match:
        return None
    hour, minute = int(match["h"]), int(match["m"] or 0)
    frac, ampm, period = match["frac"], match["ampm"] or match["ampm2"], match["period"]
    if match["ampm"] and match["ampm2"]:
        return None
    before = 0  # minutes before the hour named: "las 9 menos cuarto de la noche" is 20:45
    if frac:
        if match["m"]:
            return None
        if match["half"]:
            minute = 30
        elif match["quarter"]:
            minute = 15
        elif match["quarter_to"] or match["mm"]:
            before = 15 if match["quarter_to"] else int(match["mm"])
            if not 1 <= before <= 59:
                return None
        else:
            minute = int(match["ym"])
    if minute > 59:
        return None
    if ampm:
        if period or match["mid"] or not 1 <= hour <= 12:
            return None
        hour = hour % 12 + (12 if ampm == "pm" else 0)
    elif period or match["mid"]:
        if hour > 12:
            # "21 de la noche": already a 24-hour clock; only accept a consistent period
            if period not in (_AFTERNOON, _NIGHT):
                return None
        elif period in (_AFTERNOON,) or match["mid"]:
            hour = hour if hour == 12 else hour + 12
        elif period == _NIGHT:
            hour = 0 if hour == 12 else (hour + 12 if hour >= 6 else hour)
        elif period in (_MORNING, _SMALL_HOURS) and hour == 12:
            hour = 0 if period == _SMALL_HOURS else 12
    if hour > 23:
        return None
    if before:
        hour, minute = divmod((hour * 60 - before) % (24 * 60), 60)
    return hour, minute


def names_its_period(text: str) -> bool:
    """Whether a time of day says its own part of the day ('9pm', '9 de la mañana')."""
    return _OWN_PERIOD.search(text) is not None


def parse_clock_in(text: str, period: str) -> tuple[int, int] | None:
    """A time of day read in a part of the day ('8' tonight is 20:00), unless it names its own or is named
    ('midnight': every night at midnight is 00:00)."""
    if text in NAMED_CLOCKS:
        return NAMED_CLOCKS[text]
    if not names_its_period(text):
        text += _IN_PART.format(period=period)
    return parse_clock(text)


def dst_note(naive: datetime, result: datetime, kind: str, tz: tzinfo, language: str) -> str:
    key = "note.nonexistent" if kind == NONEXISTENT else "note.ambiguous"
    wall, zone = f"{naive:%Y-%m-%d %H:%M}", tz_label(tz)
    return say(key, language, wall=wall, zone=zone, clock=f"{result:%H:%M}", offset=format_offset(result))


def second_occurrence_note(at: datetime, tz: tzinfo, language: str) -> str:
    wall = f"{at:%Y-%m-%d %H:%M}"
    return say("note.second_occurrence", language, wall=wall, zone=tz_label(tz), offset=format_offset(at))


def wall(naive: datetime, tz: tzinfo, language: str, notes: list[str]) -> datetime:
    aware, kind = localize(naive, tz)
    if kind != EXISTS:
        notes.append(dst_note(naive, aware, kind, tz, language))
    return aware


def valid_date(year: int, month: int, day: int) -> bool:
    try:
        date(year, month, day)
    except ValueError:
        return False
    return True
