"""Calendar phrases, read as a set of parts in any order, not phrase by phrase: a time of day, a part of
the day, a relative day, a weekday, a day number or ordinal, a month, a year, a numeric date, "the last
day of the month", "end of the day". Each part may appear once; anything left over that is not a
filler word ("at", "on", "the", "el", "de", ...) makes the text unreadable, so nothing is guessed.

Resolution (documented in docs/skill.md, stated in the answer when a default is used):
  - no time of day: a part of the day takes its default hour (PART_HOURS), "end of the day" is
    END_OF_DAY_HOUR, any other day is DEFAULT_HOUR;
  - a relative day ("tomorrow") or "this morning" / "tonight" fixes the date; other parts must agree;
  - otherwise the date is the first one, from today, whose time is still ahead and that agrees with
    every part named (weekday and day number: the next date where both agree); "next <weekday>", and a
    weekday alone without a time of day or "this", is never today; "<weekday> next week" is that day of
    the week after this one; "the 1st of next month" is in next month; a full date with its year is
    taken as it is (a past one is refused as past);
  - a numeric date follows the locale: its region's order (en-US month/day, en-GB and es-MX day/month),
    else its language's (`lexicon.month_first`); one that only reads the other way is refused, said why;
  - a night hour before 06:00 ("tonight at 1", "saturday at 12 at night") is after that day's night, said;
    without a day ("at 1 at night") it is the next one; midnight or 12am with a day is that day's start, said;
  - a weekday with a day of the month and no month ("wednesday 14") is the next date they agree on within a
    year, the day said; after an English weekday, 1 to 12 may be an hour and is refused;
  - a numeric date that reads in either order ("05/11") is read in the locale's, said; a dotted number
    alone that may be a date or a clock ("5.12") is refused; a clock's seconds are left out, said;
  - "this evening at 12" is midnight, said.
"""

from __future__ import annotations

import re
from dataclasses import replace
from datetime import date, datetime, timedelta
from zoneinfo import ZoneInfo

from cronbell.core.domain.phrases import phrase
from cronbell.core.language import day_parts, lexicon
from cronbell.core.language.clocks import (
    PART_HOURS_RANGE,
    PERIOD_OF,
    NoClockError,
    Unreadable,
    parse_clock,
    parse_clock_in,
    valid_date,
    wall,
)
from cronbell.core.language.day_parts import Parts, afternoon_hour, next_of_two, said_clock, twelve_hour
from cronbell.core.language.day_words import (
    CLOCK,
    CLOCK_AT,
    END,
    FILLERS,
    NAMED_CLOCK,
    NAMED_CLOCKS,
    NUM,
    ORD,
    alternatives,
    never,
    prepare,
    take,
    words_of,
)
from cronbell.core.language.lexicon import PART_HOURS
from cronbell.core.text.texts import Word, say

DEFAULT_HOUR = 9  # a day named without a time of day
TWELVE = 12  # "friday 8": a number after a weekday that may be an hour on a 12-hour clock is refused
END_OF_DAY_HOUR = 18
# the hours a clock with its own am/pm or period may have within a named part of the day
_SMALL_HOURS = lexicon.own("CLOCK_SMALL_HOURS")
NEAR_DAYS = 366  # "wednesday 14": refused when they do not agree within a year
SEARCH_DAYS = 366 * 9  # a weekday meets any day number within months, and 29 February within 8 years

# the evening is afternoon hours on a 12-hour clock ("quarter to six in the evening" is 17:45)
_PERIODS = {**PERIOD_OF, **lexicon.union("PARTS_ON_THE_CLOCK")}
_NIGHT_PARTS = frozenset(lexicon.each("NIGHT_PARTS"))  # a small hour in these is the next day's
# before or after a weekday: the coming one, or this week's ("next friday", "el viernes que viene", "this friday")
_NEXT_OR_THIS = f"{lexicon.either('NEXT')}|{lexicon.either('THIS')}"
_NEXT = frozenset(lexicon.either("NEXT").split("|"))
_THIS = frozenset(lexicon.either("THIS").split("|"))
_NEXT_AFTER = lexicon.either("NEXT_AFTER")
_AFTER_NEXT = lexicon.some("AFTER_NEXT")
_BEFORE_DAY_NUMBER = frozenset(lexicon.each("BEFORE_DAY_NUMBER"))
_CLOCK_MARKS = rf"[:.h]|am|pm|{lexicon.either('CLOCK_MARKS')}"
_DAY_BEFORE_PART = rf"\d{{1,2}} (?:{lexicon.some('DAY_NUMBER_BEFORE_PART')}) \w+"
_THIS_PART_ALONE: dict[str, str] = lexicon.union("THIS_PART_ALONE")
_EARLY_PART = lexicon.own("EARLY_PART")
_NIGHT_CLOCK = rf"(?:{lexicon.some('CLOCK_PERIOD_BEFORE')}) {lexicon.own('CLOCK_NIGHT')}$"  # "2 de la noche"
_OF, _OF_THE = lexicon.either("OF"), lexicon.either("OF_THE")
# the phrases of a calendar, each language's joined, read in turn by _parts; {month} is filled in there
_END_OF_DAY = rf"\b(?:{lexicon.some('END_OF_DAY')})\b"
_LAST_DAY = rf"\b(?:{lexicon.some('LAST_DAY')})"
_END_OF_MONTH = rf"\b(?:{lexicon.some('END_OF_MONTH')})\b"
_END_OF_WEEK = rf"\b(?:{lexicon.some('END_OF_WEEK')})\b"
_END_OF_NAMED_DAY = rf"\b(?:{lexicon.some('END_OF_NAMED_DAY')})"
_THIS_WEEKEND = rf"\b(?:{lexicon.some('THIS_WEEKEND')})\b"
_EARLY = rf"\b(?:{lexicon.some('EARLY')})\b"
_THIS_PART = (
    rf"\b(?P<this>{never(lexicon.alternatives(_THIS_PART_ALONE))})\b"
    rf"|\b(?P<this2>{lexicon.some('THIS_PART_LEAD')}) (?P<p>{lexicon.some('THIS_PARTS')})\b"
)
_PART = (
    rf"\b(?:{lexicon.some('PART_LEAD')}) (?P<p>{lexicon.some('PARTS_AFTER_LEAD')})\b"
    rf"|\b(?P<p2>{lexicon.some('PARTS_ALONE')})\b"
)
_DAY_AFTER_TOMORROW = rf"\b(?:{lexicon.some('DAY_AFTER_TOMORROW')})\b"
TOMORROW = rf"\b(?:{lexicon.some('TOMORROW')})\b"  # also read by when.py, to say a small-hours reading
_TODAY = rf"\b(?:{lexicon.some('TODAY')})\b"
_LATER_TODAY = re.compile(rf"\b(?:{lexicon.some('LATER_TODAY')})\b")
_NEXT_WEEK = rf"\b(?:{_OF})?(?:{lexicon.some('NEXT_WEEK')})\b"
_NEXT_MONTH = rf"\b(?:{_OF_THE})?(?:{lexicon.some('NEXT_MONTH')})\b"
_THIS_MONTH = rf"\b(?:{_OF})?(?:{lexicon.some('THIS_MONTH')})\b"
_OF_MONTH = rf"\b(?:{lexicon.some('OF_MONTH')})\b"
_NEXT_YEAR = rf"\b(?:{_OF_THE})?(?:{lexicon.some('NEXT_YEAR')})\b"
_THIS_WEEK = rf"\b(?:{_OF})?(?:{lexicon.some('THIS_WEEK')})\b"
_POSITION_OF = lexicon.some("POSITION_OF")
_NEXT_DATE = rf"\b(?:{lexicon.some('NEXT_DATE')})"  # "el próximo 15 de mayo", "el próximo día 15": left out
_MONTH_DAY_ARTICLE, _DAY_ARTICLE = lexicon.either("MONTH_DAY_ARTICLE"), lexicon.some("DAY_ARTICLE")
_DAY_LEAD = rf"\b(?:{lexicon.some('DAY_LEAD')})"


def _parts(t: str, language: str, month_first: bool) -> Parts | None:
    p = Parts()
    undecided: list[str] = []  # a dotted number read as a clock that may be a date ("5.12")
    s = f" {prepare(t, language)} "
    weekdays, months = words_of(language)
    wd, mon = alternatives(weekdays), alternatives(months)
    day_words = {*weekdays, *months, *_BEFORE_DAY_NUMBER}
    positions = lexicon.alternatives(lexicon.POSITIONS)

    def numeric(m: re.Match[str]) -> None:
        a, b = int(m["a"]), int(m["b"])
        year = int(m["y"]) if m["y"] else None
        year = year + 2000 if year is not None and year < 100 else year
        month, day = (a, b) if month_first else (b, a)
        if not 1 <= month <= 12 or not 1 <= day <= 31:
            raise Unreadable(
                phrase("reason.not_month_day" if month_first else "reason.not_day_month", text=m[0].strip())
            )
        p.set(day=day, month=month, year=year)
        if a != b and a <= TWELVE and b <= TWELVE:  # "05/11": either order is a date; the one read is said
            p.order_said = m[0].strip()

    def iso(m: re.Match[str]) -> None:
        p.set(year=int(m["y"]), month=int(m["mo"]), day=int(m["d"]))

    def clock(m: re.Match[str]) -> bool:
        text, at = m["c"], m["at"]
        marked = at or re.search(_CLOCK_MARKS, text)
        if not marked or parse_clock(text) is None or p.clock is not None:
            return False
        dotted = re.fullmatch(r"(\d{1,2})\.(\d{2})", text)
        if dotted and not at and 1 <= int(dotted[1]) <= 31 and 1 <= int(dotted[2]) <= 12:
            undecided.append(text)  # "5.12": the 5th of December, or 5:12?
        before = m.string[: m.start()].split()[-1:]
        if not at and re.fullmatch(_DAY_BEFORE_PART, text) and before and before[0] in day_words:
            return False  # "el viernes 12 por la mañana": the 12 is the day ("8 de la tarde" is an hour)
        p.set(clock=text)
        return True

    def named(m: re.Match[str]) -> None:
        p.set(clock=m["c"])

    def relative(days: int) -> object:
        return lambda m: p.set(offset=days)

    def position(m: re.Match[str]) -> None:
        p.set(weekday=weekdays[m["wd"]], position=lexicon.POSITIONS[m["n"]])

    def weekday(m: re.Match[str]) -> None:
        p.set(weekday=weekdays[m["wd"]])
        if m["later"]:  # "friday after next": a week after the coming one
            p.set(next_week=True, after_next=True)
        elif m["pre"] in _NEXT or m["post"]:
            p.set(next_week=True)
        elif m["pre"] in _THIS:
            p.set(this_week=True)

    def month(m: re.Match[str]) -> None:
        p.set(month=months[m["mon"]])

    def day(m: re.Match[str]) -> None:
        number = int(m["d"])
        if not 1 <= number <= 31:
            raise Unreadable(phrase("reason.no_such_day"))
        p.set(day=number)

    def day_after_weekday(m: re.Match[str]) -> None:
        day(m)
        p.bare_day = lexicon.of(language).bare_day_after_weekday and not m["the"] and not m["ord"]

    def year(m: re.Match[str]) -> None:
        p.set(year=int(m["y"]))

    steps: list[tuple[str, str, object]] = [
        (rf"{NUM}(?P<y>\d{{4}})[-/.](?P<mo>\d{{1,2}})[-/.](?P<d>\d{{1,2}}){END}", "<d>", iso),
        (rf"{NUM}(?P<a>\d{{1,2}})/(?P<b>\d{{1,2}})(?:/(?P<y>\d{{4}}|\d{{2}}))?{END}", "<d>", numeric),
        (rf"{NUM}(?P<a>\d{{1,2}})-(?P<b>\d{{1,2}})(?:-(?P<y>\d{{4}}|\d{{2}}))?{END}", "<d>", numeric),
        (rf"{NUM}(?P<a>\d{{1,2}})\.(?P<b>\d{{1,2}})\.(?P<y>\d{{4}}|\d{{2}}){END}", "<d>", numeric),
        (_END_OF_DAY, "<e>", lambda m: p.set(end_of_day=True)),
        (_LAST_DAY.replace("{month}", mon), "<d>", lambda m: p.set(last_day=True)),
        (_END_OF_MONTH, "<d>", lambda m: p.set(last_day=True, end_of_day=True)),
        (_END_OF_WEEK, "<w>", lambda m: p.set(weekday=4, end_of_day=True)),
        (_END_OF_NAMED_DAY, "<e>", lambda m: p.set(end_of_day=True)),
        (_THIS_WEEKEND, "<w>", lambda m: p.set(weekend=True)),
        (_EARLY, "<p>", lambda m: p.set(part=_EARLY_PART)),
        (rf"\b{NAMED_CLOCK}\b", "<c>", named),
        (rf"(?:\b(?P<at>{CLOCK_AT}) )?{NUM}(?P<c>{CLOCK}){END}", "<c>", clock),
        (_THIS_PART, "<p>", lambda m: p.set(part=m["p"] or _THIS_PART_ALONE[m["this"]], this_part=True)),
        (_PART, "<p>", lambda m: p.set(part=m["p"] or m["p2"])),
        (_DAY_AFTER_TOMORROW, "<r>", relative(2)),
        (TOMORROW, "<r>", relative(1)),
        (_TODAY, "<r>", relative(0)),
        (_NEXT_WEEK, "<k>", lambda m: p.set(week_ahead=True)),
        (_NEXT_MONTH, "<n>", lambda m: p.set(month_ahead=1)),
        (_THIS_MONTH, "<n>", lambda m: p.set(month_ahead=0)),
        (_OF_MONTH, "<o>", lambda m: p.set(of_month=True)),
        (_NEXT_YEAR, "<y>", lambda m: p.set(year_ahead=True)),
        (_THIS_WEEK, "<k>", lambda m: p.set(week_this=True)),
        (rf"{NUM}(?P<n>{positions}) (?P<wd>{wd}) (?=(?:{_POSITION_OF})\b|<n>|<o>)", "<w>", position),
        (_NEXT_DATE, " ", lambda m: None),
        (
            rf"\b(?:(?P<pre>{_NEXT_OR_THIS}) )?(?P<wd>{wd})\b(?: (?P<post>{_NEXT_AFTER})| (?P<later>{_AFTER_NEXT}))?",
            "<w>",
            weekday,
        ),
        (rf"\b(?P<mon>{mon})\b", "<m>", month),
        (rf"<m> ?,? (?:{_MONTH_DAY_ARTICLE})?(?P<d>\d{{1,2}}){ORD}?{END}", "<m> <d>", day),
        (rf"{NUM}(?P<d>\d{{1,2}}){ORD}? (?:{_OF})?<m>", "<d> <m>", day),
        (rf"<w> ?,? (?P<the>{_DAY_ARTICLE})?(?P<d>\d{{1,2}})(?P<ord>{ORD})?{END}", "<w> <d>", day_after_weekday),
        (rf"{NUM}(?P<d>\d{{1,2}}){ORD}{END}", "<d>", day),
        (rf"{_DAY_LEAD}(?P<d>\d{{1,2}}){END}", "<d>", day),
        (rf"{NUM}(?P<y>(?:19|2\d)\d\d){END}", "<y>", year),
    ]
    for pattern, marker, read in steps:
        s = take(s, pattern, marker, read)
    if p.clock is None and (p.offset is not None or p.part is not None):  # "tomorrow 9"
        s = take(s, rf"{NUM}(?P<c>\d{{1,2}}){END}", "<c>", lambda m: p.set(clock=m["c"]))
    left = [w for w in re.split(r"[\s,]+", s) if w and w not in FILLERS and not re.fullmatch(r"<\w>", w)]
    if left or not (p.clock or p.names_a_day()):
        return None
    if p.bare_day and p.clock is None and (p.day or 0) <= TWELVE:  # "friday 8": the 8th, or 8 o'clock?
        raise Unreadable(phrase("reason.day_or_hour", number=p.day))
    if undecided and not p.names_a_day():  # with a day named, "5.12" is a clock
        raise Unreadable(phrase("reason.date_or_clock", text=undecided[0]))
    return p


def _hour_and_minute(p: Parts, language: str, notes: list[str]) -> tuple[int, int]:
    if p.clock is not None:
        period = _SMALL_HOURS if p.part == _SMALL_HOURS else _PERIODS.get(p.part or "")
        named = re.fullmatch(NAMED_CLOCKS, p.clock)  # "midnight tonight": the clock names its own hour
        got = parse_clock_in(p.clock, period) if period and not named else parse_clock(p.clock)
        if got is None:
            raise Unreadable(phrase("reason.no_clock"))
        if period and got[0] not in PART_HOURS_RANGE[period]:  # "9 de la mañana" "de la tarde"
            raise Unreadable(phrase("reason.twice"))
        if p.part in _NIGHT_PARTS and got[0] == TWELVE and not named and not re.search("am|pm", p.clock):
            got = (0, got[1])  # "this evening at 12": midnight, said
            notes.append(say("note.evening_twelve", language, said=p.clock, clock=f"{got[0]:02d}:{got[1]:02d}"))
        return got
    if p.end_of_day:
        hour = END_OF_DAY_HOUR
    elif p.part is not None:
        if p.part not in PART_HOURS:
            raise NoClockError(p.part)
        hour = PART_HOURS[p.part]
    else:
        hour = DEFAULT_HOUR
    notes.append(say("default_hour", language, clock=f"{hour:02d}:00"))
    return hour, 0


def _fits(p: Parts, d: date) -> bool:
    return (
        (p.day is None or d.day == p.day)
        and (p.month is None or d.month == p.month)
        and (p.year is None or d.year == p.year)
        and (p.weekday is None or d.weekday() == p.weekday)
        and (not p.last_day or (d + timedelta(days=1)).day == 1)
        and (not p.weekend or d.weekday() >= 5)
        and (p.position is None or _in_place(d, p.position))
    )


def _in_place(d: date, position: int) -> bool:
    """Whether `d` is the `position`-th of its weekday in its month (-1: the last)."""
    if position < 0:
        return (d + timedelta(days=7)).month != d.month
    return (d.day - 1) // 7 == position - 1


def _mismatch(p: Parts) -> Unreadable:
    if p.weekday is not None:
        return Unreadable(phrase("reason.weekday_mismatch", weekday=Word("weekdays", p.weekday)))
    return Unreadable(phrase("reason.no_such_day"))


def _date(p: Parts, hm: tuple[int, int], now_local: datetime) -> date:
    today = now_local.date()
    if p.month_ahead is not None:  # "the 1st of next month": that month of this year or the next
        if p.month is not None or p.year is not None or (p.day is None and not p.last_day and p.position is None):
            raise Unreadable(phrase("reason.twice" if p.month is not None else "reason.day_missing"))
        year, month = divmod(today.year * 12 + today.month - 1 + p.month_ahead, 12)
        p = replace(p, month_ahead=None, month=month + 1, year=year)
        if p.day is not None and not valid_date(p.year or 0, p.month or 0, p.day):
            raise Unreadable(phrase("reason.no_such_day"))
    if p.year_ahead:
        if p.year is not None:
            raise Unreadable(phrase("reason.twice"))
        p = replace(p, year_ahead=False, year=today.year + 1)
    # "the first of the month" needs its day number; "the last friday of the month" is the coming one
    if p.of_month and p.day is None and p.position is None:
        raise Unreadable(phrase("reason.day_missing"))
    if p.week_ahead:
        if p.weekday is None:  # "next week" alone names no day
            raise Unreadable(phrase("reason.weekday_missing"))
        d = today + timedelta(days=7 - today.weekday() + p.weekday)
        if p.offset is not None or p.next_week:
            raise Unreadable(phrase("reason.twice"))
        if not _fits(p, d):
            raise _mismatch(p)
        return d
    if p.week_this:  # "thursday this week": that day of this week, or the past
        if p.weekday is None or p.offset is not None or p.week_ahead:
            raise Unreadable(phrase("reason.weekday_missing" if p.weekday is None else "reason.twice"))
        return today + timedelta(days=p.weekday - today.weekday())
    alone_day = p.weekday is None and p.day is None and not p.last_day and not p.weekend
    if p.offset is not None or p.this_part or (p.end_of_day and alone_day):
        d = today + timedelta(days=p.offset or 0)
        if not _fits(p, d):
            raise _mismatch(p)
        return d
    if p.year is not None and p.month is not None and p.day is not None:
        if not valid_date(p.year, p.month, p.day):
            raise Unreadable(phrase("reason.no_such_day"))
        d = date(p.year, p.month, p.day)
        if not _fits(p, d):
            raise _mismatch(p)
        return d
    if (p.month is not None or p.year is not None) and p.day is None and not p.last_day and p.position is None:
        raise Unreadable(phrase("reason.day_missing"))
    if p.month is not None and p.weekday is not None and p.position is None:
        # "tuesday december 8": the date is December 8's next one; the weekday only confirms it
        d = _date(replace(p, weekday=None), hm, now_local)
        if d.weekday() != p.weekday:
            raise _mismatch(p)
        return d
    # a weekday alone, said on that weekday, is next week's ("friday" on a Friday); with a time of day, a part
    # of the day or "this" it may be today ("friday at 5pm", "this friday")
    alone = p.weekday is not None and p.clock is None and p.part is None and p.day is None and p.month is None
    alone = alone and p.position is None and not (p.this_week or p.end_of_day or p.last_day)  # "the last friday of ..."
    start = today + timedelta(days=(1 if p.next_week or alone else 0) + (7 if p.after_next else 0))
    # a weekday with a day of the month and no month ("wednesday 14"): the next date both agree on within a year
    near = p.weekday is not None and p.day is not None and p.month is None and p.year is None
    for ahead in range(NEAR_DAYS if near else SEARCH_DAYS):
        d = start + timedelta(days=ahead)
        if _fits(p, d) and (d, hm) > (today, (now_local.hour, now_local.minute)):
            return d
    raise _mismatch(p)


def read_calendar(
    t: str,
    now_local: datetime,
    tz: ZoneInfo,
    language: str,
    notes: list[str],
    whole_day: bool = False,
    month_first: bool | None = None,
) -> datetime | None:
    """The instant a calendar phrase names, or None when it is not one (see the module's rules). With
    `whole_day` (an end: `until`), a day named without a time of day, a part of the day or "end of the
    day" is the last second of that day (23:59:59), so today is one too; a phrase with any of those
    is the instant a one-shot would be. `month_first`: the order of a numeric date, from the reader's
    locale (`lexicon.month_first`); by default, the language's."""
    month_first = lexicon.month_first(language, "") if month_first is None else month_first
    p = _parts(t, language, month_first)
    if p is None:
        return None
    if p.clock and re.search(r"\d:\d\d:\d\d", p.clock):  # "6:15:45 pm": on the minute, said
        clock = parse_clock(re.sub(r"(?<=\d:\d\d):\d\d", "", p.clock)) or (0, 0)
        notes.append(say("note.seconds", language, said=p.clock, clock=f"{clock[0]:02d}:{clock[1]:02d}"))
    no_time = p.clock is None and p.part is None and not p.end_of_day
    day_end = whole_day and no_time
    if no_time and not whole_day and _LATER_TODAY.search(t):
        raise Unreadable(phrase("reason.no_clock"))  # "later today": not its 09:00, which may have passed
    if twelve_hour(p):
        return next_of_two(p, now_local, tz, language, notes)
    hour, minute = (23, 59) if day_end else _hour_and_minute(p, language, notes)
    if afternoon_hour(p, hour):  # "friday at 3": 15:00, said ("quarter to 1": 12:45)
        said = said_clock(p.clock or "", hour, minute)
        hour = hour % 12 + 12
        notes.append(say("note.afternoon_hour", language, said=said, clock=f"{hour:02d}:{minute:02d}"))
    # a small hour at night ("at 1 at night", "a las 12 de la noche") belongs to the night before it
    night = hour < 6 and p.clock is not None and (p.part in _NIGHT_PARTS or bool(re.search(_NIGHT_CLOCK, p.clock)))
    named_day = replace(p, clock=None, part=None).names_a_day()
    if night and not p.this_part and not named_day:
        today = now_local.date()  # no day named: the next 01:00
        d = today if (hour, minute) > (now_local.hour, now_local.minute) else today + timedelta(days=1)
    else:  # a day's end is after all its minutes; a night's small hours after all of its day's
        d = _date(p, (24, 0) if day_end else (hour + 24 if night else hour, minute), now_local)
        if night and not (p.this_part and now_local.hour < 6):
            d += timedelta(days=1)  # "tonight at 1" is after midnight; said after midnight, it is the coming one
            if named_day:  # "saturday at 12 at night": the night of Saturday, said
                notes.append(say("note.night_after", language, night=(d - timedelta(days=1)).isoformat(),
                                 date=d.isoformat(), clock=f"{hour:02d}:{minute:02d}"))  # fmt: skip
    if p.month is not None and p.year is None and d.year > now_local.year:
        notes.append(say("note.no_year", language, year=d.year))
    twelve_at_night = hour == 0 and p.clock is not None and not p.clock.startswith("0")  # not "00:30"
    if twelve_at_night and named_day and not night and p.offset != 0:  # "friday at midnight", "at 12am"
        notes.append(say("note.midnight_day", language, date=d.isoformat(), clock=f"{hour:02d}:{minute:02d}"))
    if p.order_said:
        order = "note.month_first" if month_first else "note.day_first"
        notes.append(say(order, language, said=p.order_said, date=d.isoformat()))
    day_parts.say_a_skipped_month(p, d, (hour, minute), now_local, language, notes)  # "the 31st" in April
    if p.bare_day and p.clock is None:  # "wednesday 14": the 14th, said
        notes.append(say("note.day_number", language, number=p.day, date=d.isoformat()))
    nearer = day_parts.nearer_day_number(p, d, (hour, minute), now_local)
    if nearer is not None:  # "tuesday the 15th" when the next 15th is a Monday: months ahead, said
        notes.append(say("note.weekday_day_later", language, date=d.isoformat(), nearer=nearer.isoformat()))
    return wall(datetime(d.year, d.month, d.day, hour, minute, 59 if day_end else 0), tz, language, notes)
