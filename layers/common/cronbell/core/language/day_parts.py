"""The parts a calendar phrase names (core/language/days.py reads them), and the 12-hour rule: an hour of 1 to 12
said without am/pm, a part of the day or a day other than today is whichever of its two readings comes first,
never more than 12 hours away; with a day named, an hour of 1 to 5 is in the afternoon. The answer says
which reading was taken."""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, fields, replace
from datetime import date, datetime, timedelta
from zoneinfo import ZoneInfo

from cronbell.core.domain.phrases import phrase
from cronbell.core.language.clocks import Unreadable, parse_clock, valid_date, wall
from cronbell.core.language.lexicon import some
from cronbell.core.text.texts import say


@dataclass
class Parts:
    clock: str | None = None  # the clock's text, read once the part of the day is known
    part: str | None = None  # morning, tarde, ...
    this_part: bool = False  # "this morning", "tonight", "esta tarde": today
    offset: int | None = None  # today 0, tomorrow 1, the day after 2
    weekday: int | None = None
    next_week: bool = False  # "next friday": never today
    after_next: bool = False  # "friday after next": the one a week after the coming one
    this_week: bool = False  # "this friday": today too
    day: int | None = None
    month: int | None = None
    year: int | None = None
    last_day: bool = False
    end_of_day: bool = False
    week_ahead: bool = False  # "friday next week": the weekday in the week (Monday to Sunday) after this one
    month_ahead: int | None = None  # "the 1st of next month" 1, "the 20th of this month" 0
    of_month: bool = False  # "the first of the month": a day number follows or precedes
    year_ahead: bool = False  # "june 5th next year"
    weekend: bool = False  # "this weekend": its next Saturday or Sunday
    week_this: bool = False  # "thursday this week": the weekday in this week (Monday to Sunday), never the next
    position: int | None = None  # "the 2nd monday of june" 2, "the last" -1
    bare_day: bool = False  # English "friday 8": a number after a weekday, without "the" or an ordinal
    order_said: str | None = None  # a numeric date that reads in either order ("05/11"), read in the language's

    def set(self, **values: object) -> None:
        for name, value in values.items():
            if given(getattr(self, name)):
                raise Unreadable(phrase("reason.twice"))
            setattr(self, name, value)

    def names_a_day(self) -> bool:
        return any(given(getattr(self, f.name)) for f in fields(self)[1:])  # all but the clock


def given(value: object) -> bool:
    """A part is given when it is not None or False; 0 is a value (Monday, today)."""
    return value is not None and value is not False


_BARE_CLOCK = re.compile(
    rf"(?:(?:{some('CLOCK_HALF_WORD')}|{some('CLOCK_QUARTER_WORD')}) (?:{some('CLOCK_PAST')}|{some('CLOCK_TO')}) )?"
    r"(?:[1-9]|1[0-2])(?:[:.][0-5]\d(?::[0-5]\d)?)?"
    rf"(?: (?:{some('CLOCK_HALF')}|{some('CLOCK_QUARTER')}|{some('CLOCK_QUARTER_TO')}"
    rf"|(?:{some('CLOCK_PLUS')}) \d{{1,2}}|(?:{some('CLOCK_MINUS')}) \d{{1,2}}))?"
    rf"(?: (?:{some('CLOCK_SHARP')}))?"
)


def twelve_hour(p: Parts) -> bool:
    """A clock of 1 to 12 without am/pm, a part of the day or a day other than today: it has two readings."""
    if p.clock is None or p.part is not None or not _BARE_CLOCK.fullmatch(p.clock):
        return False
    others = replace(p, clock=None, offset=None)
    return p.offset in (None, 0) and not others.names_a_day()


AFTERNOON_HOURS = range(1, 6)  # with a day named, an hour of 1 to 5 alone is in the afternoon


_AFTERNOON_RULE = ContextVar("afternoon_rule", default=True)


@contextmanager
def without_the_afternoon_rule() -> Iterator[None]:
    """Read as if a bare hour were never the afternoon's: what a phrase would say without the rule, so
    the hours the rule moved are known from the reading itself (cron_phrases.read_in_the_afternoon)."""
    token = _AFTERNOON_RULE.set(False)
    try:
        yield
    finally:
        _AFTERNOON_RULE.reset(token)


def in_the_afternoon(text: str, clock: tuple[int, int]) -> bool:
    """Whether a time of day said for a day ('friday at 3', 'every friday at 4') is the afternoon's: a bare
    hour of 1 to 5 (people do not set reminders for 3 at night without saying so). The hour is the one said:
    'quarter to 6' (5:45) is of 6, as 'at 6' is, and stays in the morning."""
    if not _BARE_CLOCK.fullmatch(text) or not _AFTERNOON_RULE.get():
        return False
    named = re.search(r"\d+", text)
    return (int(named.group()) if named else clock[0]) in AFTERNOON_HOURS


def said_clock(text: str, hour: int, minute: int) -> str:
    """A clock as a note names it: as written, or, when the grammar rewrote it ('twenty to nine' is read as
    '9 menos 20'), as it reads: 8:40."""
    return text if not re.search("[a-z]", text) else f"{hour % 12 or 12}:{minute:02d}"


def clock_on_a_day(text: str, language: str, notes: list[str]) -> tuple[int, int] | None:
    """A time of day on a day ahead ('in 3 days at 3', 'in 2 business days at 4'): a bare hour of 1 to 5 is
    in the afternoon, said, as 'friday at 3' is."""
    clock = parse_clock(text)
    if clock is None or not in_the_afternoon(text, clock):
        return clock
    hour, minute = clock[0] % 12 + 12, clock[1]  # "quarter to 1": 12:45
    notes.append(say("note.afternoon_hour", language, said=said_clock(text, *clock), clock=f"{hour:02d}:{minute:02d}"))
    return hour, minute


def afternoon_hour(p: Parts, hour: int) -> bool:
    """'friday at 3', 'mañana a la una': with a day named, a bare hour of 1 to 5 is 13:00 to 17:59; 7 to 12
    stay as they are."""
    return p.clock is not None and p.part is None and in_the_afternoon(p.clock, (hour, 0))


def next_of_two(p: Parts, now_local: datetime, tz: ZoneInfo, language: str, notes: list[str]) -> datetime:
    """The 12-hour rule: '4:30' is whichever of 04:30 and 16:30 comes first (never more than 12 hours
    away); with 'today', the first of them still ahead today. The reading is said in the notes."""
    read = parse_clock(p.clock or "")
    if read is None:
        raise Unreadable(phrase("reason.no_clock"))
    hour, minute = read
    now_hm = (now_local.hour, now_local.minute)
    found: list[datetime] = []
    for h in sorted({hour % 12, hour % 12 + 12}):
        d = now_local.date() if (h, minute) > now_hm else now_local.date() + timedelta(days=1)
        if p.offset == 0 and d != now_local.date():
            continue
        found.append(datetime(d.year, d.month, d.day, h, minute))
    if not found:
        raise Unreadable(phrase("reason.past"))
    at = min(found)
    notes.append(say("note.twelve_hour", language, said=said_clock(p.clock or "", hour, minute), clock=f"{at:%H:%M}"))
    return wall(at, tz, language, notes)


def say_a_skipped_month(
    p: Parts, d: date, hm: tuple[int, int], now_local: datetime, language: str, notes: list[str]
) -> None:
    """A day number said without its month ("the 31st") that passed over a month with no such day before
    `d`, its date, is said in the notes: the reading is further off than the user may think."""
    if p.day is None or p.month is not None or p.year is not None or p.weekday is not None:
        return
    today, now_hm = now_local.date(), (now_local.hour, now_local.minute)
    year, month = today.year, today.month
    while (year, month) < (d.year, d.month):
        still_ahead = (year, month) != (today.year, today.month) or (p.day, *hm) > (today.day, *now_hm)
        if still_ahead and not valid_date(year, month, p.day):
            notes.append(say("note.day_skipped", language, day=p.day, date=d.isoformat()))
            return
        year, month = (year + 1, 1) if month == 12 else (year, month + 1)


def nearer_day_number(p: Parts, d: date, hm: tuple[int, int], now_local: datetime) -> date | None:
    """For a weekday with a day of the month and no month, read as `d` (the next date both agree on): the
    nearer date with that day of the month, on another weekday; None when `d` is the next one."""
    if p.weekday is None or p.day is None or p.month is not None or p.year is not None:
        return None
    today = now_local.date()
    ahead = today
    while ahead < d:
        if ahead.day == p.day and (ahead, hm) > (today, (now_local.hour, now_local.minute)):
            return ahead
        ahead += timedelta(days=1)
    return None
