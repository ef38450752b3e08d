"""Recurring phrases in English and Spanish ('every monday at 10', 'cada 15 minutos', 'el primer lunes
de cada mes a las 9'), read into a standard five-field cron expression. A phrase needs a time of day.
'every other monday at 10' and 'cada 3 días a las 9' are first split into their interval and the weekly
or daily phrase that remains."""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import date

from cronbell.core.domain.cron.fields import DAYS, MONTHS, WEEKS
from cronbell.core.domain.phrases import Phrase, phrase
from cronbell.core.domain.zones import MAX_YEAR
from cronbell.core.language import lexicon
from cronbell.core.language.clocks import PART_HOURS_RANGE, PERIOD_OF, names_its_period, parse_clock, parse_clock_in
from cronbell.core.language.cron_days import (
    AND,
    DAY_WORD,
    PLURAL_ENDINGS,
    WD_ITEM,
    day_fields,
    full_matches,
    several_places,
    split_exception,
    weekdays,
    without_days,
)
from cronbell.core.language.cron_windows import DAYS_START, ON_DAYS, window
from cronbell.core.language.day_parts import in_the_afternoon
from cronbell.core.language.day_words import in_digits


def _part_of_day(days: str) -> str | None:
    """'every morning', 'cada noche', 'todas las tardes' -> the part of the day the hour is read in."""
    if days in _PART_EVERY_DAY:  # 'nightly'
        return _PART_EVERY_DAY[days]
    match = re.fullmatch(_EACH_PART, days)
    return match["part"] if match and match["part"] in PERIOD_OF and match["part"] not in _PARTS_NOT_EACH else None


_EACH_PART = rf"(?:{lexicon.either('EACH_PART')}) (?P<part>[a-z]+?)s?"
_PARTS_NOT_EACH = set(lexicon.each("PARTS_NOT_EACH"))
_PART_EVERY_DAY: dict[str, str] = lexicon.union("PART_EVERY_DAY")


def days_said_last(t: str) -> str | None:
    """'every morning at 6:30 on weekdays': a daily schedule, then the days it runs on."""
    found = _on_days(t, phrase_to_cron)
    return found if isinstance(found, str) else None


def _on_days(t: str, read: Callable[[str], str | Phrase | None]) -> str | Phrase | None:
    """What `read` makes of what comes before the days ('every 10 minutes on weekdays', 'cada hora los
    lunes'), when it fires every day, on those days instead; a reason `read` refuses it for, as it is."""
    match = re.fullmatch(ON_DAYS, t)
    fields = day_fields(match["days"]) if match else None
    if match is None or fields is None:
        return None
    daily = read(match["every"])
    if not isinstance(daily, str):
        return daily
    return f"{daily.removesuffix(' * * *')} {fields}" if daily.endswith(" * * *") else None


_HOURLY = frozenset(lexicon.each("HOURLY"))
_HOURLY_MINUTE_NAMED: dict[str, int] = lexicon.union("HOURLY_MINUTE_NAMED")
_HOURLY_AT = tuple(  # the minute of every hour, in the group `m` or named
    rf"(?:{lexicon.alternatives(_HOURLY)}),? {minute}"
    for minute in (rf"(?P<named>{lexicon.alternatives(_HOURLY_MINUTE_NAMED)})", *lexicon.each("HOURLY_MINUTE"))
)
_EVERY_MINUTE = frozenset(lexicon.each("EVERY_MINUTE"))
_NUMBERS: dict[str, int] = lexicon.union("NUMBERS")  # "every four hours"
_COUNT_SAID = rf"\d+|{lexicon.alternatives(_NUMBERS)}"
_EVERY_N = (
    rf"(?:{lexicon.either('EACH')}) (?:(?P<n>{_COUNT_SAID}) (?:(?P<hours>{lexicon.either('HOUR_UNITS')})"
    rf"|{lexicon.either('MINUTE_UNITS')})|(?P<half>{lexicon.either('HALF_HOUR')})"
    rf"|(?P<quarter>{lexicon.either('QUARTER_HOUR')}))"
)


def _interval(t: str, within_a_day: bool = False) -> str | Phrase | None:
    """'every 15 minutes', 'hourly', 'every hour at :30' -> cron; `within_a_day`: the hours of a window
    are listed, so every N hours need not divide 24 ('every 5 hours from 8 to 20': 8, 13, 18)."""
    if t in _HOURLY:
        return "0 * * * *"
    at_minute = next(full_matches(_HOURLY_AT, t), None)  # "every hour at :30", "cada hora y media"
    if at_minute:
        said = at_minute.groupdict()
        minute = _HOURLY_MINUTE_NAMED[said["named"]] if said.get("named") else int(said["m"])
        return f"{minute} * * * *" if minute < 60 else None
    if t in _EVERY_MINUTE:
        return "* * * * *"
    match = re.fullmatch(_EVERY_N, t)
    if not match:
        return None
    count = match["n"]
    n = (int(count) if count.isdigit() else _NUMBERS[count]) if count else 30 if match["half"] else 15
    if match["hours"]:
        if n < 1 or (24 % n and not (within_a_day and n < 24)):
            return phrase("cron.hours_divide")
        return "0 * * * *" if n == 1 else f"0 */{n} * * *"
    if n < 1 or 60 % n:
        return phrase("cron.minutes_divide")
    return "* * * * *" if n == 1 else f"*/{n} * * * *"


def _clocks(text: str, part: str | None = None) -> tuple[str, str] | Phrase | None:
    """One time of day, or several sharing the minute ('9 and 17'), as cron (minute, hour) fields;
    with a part of the day ('noche', 'evening'), each hour is read in it, and must be one of its hours.
    In a list, a part said once at its end is every time's ('at 7 and 8 in the evening': 19:00 and
    20:00) unless the times are said apart ('at 8 and at 8 in the evening', 'at 9 in the morning and
    at 5 in the afternoon'): then each time has its own."""
    whole = _in_part(text) if part is None else None
    single = _read_clock(*whole) if whole else _read_clock(text, part)
    if single is not None:
        return str(single[1]), str(single[0])
    pieces = re.split(_LIST_SEPARATOR, text)
    said, apart = [p for p in pieces[0::2] if p], any(pieces[1::2])
    if len(said) < 2:
        return None
    own: list[tuple[str, str | None]] = [(p, part) if part else _in_part(p) or (p, None) for p in said]
    if part is None and not apart and all(named is None for _, named in own[:-1]) and own[-1][1]:
        own = _sharing_the_part(own)
    clocks = [_read_clock(p, named) for p, named in own]
    if any(c is None for c in clocks):
        return None
    if all(named is None for _, named in own):
        clocks = _in_the_order_said(said, clocks)
    minutes = {c[1] for c in clocks if c}
    if len(minutes) != 1:  # '9:00 and 13:30': cron's hours share their minutes
        return phrase("cron.one_minute", times=", ".join(f"{h:02d}:{m:02d}" for h, m in sorted(filter(None, clocks))))
    hours = sorted({c[0] for c in clocks if c})
    return str(minutes.pop()), ",".join(str(h) for h in hours)


def _sharing_the_part(own: list[tuple[str, str | None]]) -> list[tuple[str, str | None]]:
    """A part of the day said once, after the last time of a list, is also each earlier time's that
    reads in it before the time after it ('at 7 and 8 in the evening': 19:00 and 20:00); one that
    does not is read as said ('at 10 and 2 in the afternoon': 10:00 and 14:00; 'at 8 and 8 in the
    evening': 08:00 and 20:00), as is one that says its own ('at 6am and 8 in the evening')."""
    last_text, part = own[-1]
    out = [own[-1]]
    after = _read_clock(last_text, part)
    for text, _ in reversed(own[:-1]):
        shared = None if names_its_period(text) else _read_clock(text, part)
        if shared is not None and after is not None and shared < after:
            out.append((text, part))
            after = shared
        else:
            out.append((text, None))
            after = None  # a time read as said: the earlier ones are read as said too
    return out[::-1]


def _in_part(text: str) -> tuple[str, str] | None:
    """'8 in the morning' -> ('8', 'morning'): a time and the part of the day said after it."""
    found = re.fullmatch(_CLOCK_IN_PART, text)
    return (found["clock"], found["part"]) if found and found["part"] in PERIOD_OF else None


def _read_clock(text: str, part: str | None) -> tuple[int, int] | None:
    """A time of day, read in `part` of the day when one is said for it ('every evening at 5': 17:00); a bare
    hour of 1 to 5 is the afternoon's, as a one-shot with a day reads it ('every friday at 4': 16:00)."""
    if part is None:
        clock = parse_clock(text)
        return (clock[0] % 12 + 12, clock[1]) if clock is not None and in_the_afternoon(text, clock) else clock
    period = PERIOD_OF[part]
    got = parse_clock_in(text, period)  # "every morning at 9pm": not a time of the morning
    if got is None or got[0] not in PART_HOURS_RANGE[period]:
        return None
    if part in _ON_THE_CLOCK and 0 < got[0] < 6 and not names_its_period(text):
        return got[0] + 12, got[1]  # "every evening at 5": 17:00, as a one-shot reads it
    return got


def _in_the_order_said(said: list[str], clocks: list[tuple[int, int] | None]) -> list[tuple[int, int] | None]:
    """'at 9 and 5': a bare hour said after a later one of the morning (or noon) is the afternoon's,
    17:00, as 'from 9 to 5' reads; one with its period ('5am'), on a 24-hour clock ('05:00') or named
    ('midnight') is kept."""
    out: list[tuple[int, int] | None] = []
    last = -1
    for text, clock in zip(said, clocks, strict=True):
        if clock is not None:
            hour, minute = clock
            if hour < last <= 12 and re.match(r"[1-9]", text) and not names_its_period(text):
                clock = (hour + 12, minute)
            last = clock[0]
        out.append(clock)
    return out


_AT_WORDS = "|".join(lexicon.each("AT"))
_AT_ANY = "|".join(filter(None, (_AT_WORDS, lexicon.either("AT_NAMED"))))  # 'at', 'a las', 'a' (mediodía)
_LIST_SEPARATOR = rf"\s*(?:,|{AND})\s*((?:{_AT_ANY}) )?"  # its group: an 'at' said again
_ON_THE_CLOCK = lexicon.union("PARTS_ON_THE_CLOCK")  # "evening": its small hours are the afternoon's
_CLOCK_IN_PART = rf"(?P<clock>.+?) (?:{lexicon.some('PART_LEAD')}) (?P<part>{lexicon.some('PARTS_AFTER_LEAD')})"
_TIMES: dict[str, int] = lexicon.union("TIMES")
_TIMES_A_DAY = "|".join(_TIMES)
_PER_DAY = rf"(?P<n>{_TIMES_A_DAY}) (?:{lexicon.either('PER')}) (?:{DAY_WORD}),? (?P<rest>.+)"
_PER_WEEK = rf"(?P<n>{_TIMES_A_DAY}) (?:{lexicon.either('PER_WEEK')}),? (?P<rest>.+)"
_AT = rf"(?:{_AT_ANY}|@)"
_EVERY_DAY = lexicon.own("EVERY_DAY")
_EVERY = lexicon.own("EVERY")


def phrase_to_cron(t: str) -> str | Phrase | None:
    """A recurring phrase in normalized text -> a five-field expression (a Phrase: the reason of a known refusal);
    numbers said in words are read as digits ('every month on the third at eight')."""
    found = _phrase_to_cron(t)
    digits = in_digits(t) if not isinstance(found, str) else t
    again = _phrase_to_cron(digits) if digits != t else None
    return again if again is not None else found


def _phrase_to_cron(t: str) -> str | Phrase | None:
    exception = split_exception(t)
    if exception is not None:
        return without_days(_phrase_to_cron(exception[0]), exception[1])
    interval = window(t, _interval) or _interval(t) or _on_days(t, _interval)
    if interval is not None:
        return interval
    per_week = re.fullmatch(_PER_WEEK, t)
    if per_week:  # "twice a week on tuesday and friday at 9": as many days as it says
        found = _phrase_to_cron(per_week["rest"])
        dom_month_dow = found.split()[2:] if isinstance(found, str) else ["", "", ""]
        dow = dom_month_dow[2] if dom_month_dow[:2] == ["*", "*"] and re.fullmatch(r"[\d,-]+", dom_month_dow[2]) else ""
        return found if dow and len(weekdays(dow)) == _TIMES[per_week["n"]] else None
    times = re.fullmatch(_PER_DAY, t)
    if times:  # "twice a day at 9 and 21": every day, at as many times as it says
        t = f"{_EVERY_DAY} {times['rest']}"
        said = _clocks(re.sub(rf"^(?:{_AT_WORDS}) ", "", times["rest"]))
        if not isinstance(said, tuple) or len(said[1].split(",")) != _TIMES[times["n"]]:
            return said if isinstance(said, Phrase) else None
    at = _AT
    candidates = []
    bare_clock = r"\d{1,2}(?:[:.h]\d{2})?h? ?(?:am|pm)?"  # a time of day without "at": "every tuesday 14:00"
    for match in (
        re.fullmatch(rf"(?P<days>.+?),? {at} (?P<clock>.+)", t),
        re.fullmatch(rf"{at} (?P<clock>.+?),? (?P<days>{DAYS_START}\b.*)", t),
        re.fullmatch(rf"(?P<days>.+?),? (?P<clock>{bare_clock})", t),
        re.fullmatch(rf"(?P<clock>{bare_clock}),? (?P<days>{DAYS_START}\b.*)", t),
    ):
        if match:
            candidates.append((match["days"], match["clock"]))
    refused: Phrase | None = None  # times the days take, at different minutes: said when nothing reads
    for days, clock_text in candidates:
        part = _part_of_day(days)  # "every morning": every day, the hour read in the morning
        fields = "* * *" if part is not None else None
        if part is None:
            days, part = _days_in_part(days)  # "every monday morning": mondays, read in the morning
        clock = _clocks(clock_text, part)
        fields = fields or day_fields(days)
        if isinstance(clock, tuple) and fields is not None:
            minute, hour = clock
            return f"{minute} {hour} {fields}"
        refused = refused or (clock if isinstance(clock, Phrase) and fields is not None else None)
    if refused is not None:
        return refused
    if any(several_places(days) for days, _ in candidates):
        return phrase("cron.one_place")
    return None


def names_days_only(t: str) -> bool:
    """Whether a phrase names days (or a part of every day) and no time: 'every monday', 'every
    morning', 'every day except sunday', 'el dia 5 de cada mes'. Numbers said in words are read as
    digits, as `phrase_to_cron` reads them ('the first of every month')."""
    exception = split_exception(t)
    said = exception[0] if exception is not None else t
    return any(
        _part_of_day(days) is not None or day_fields(_days_in_part(days)[0]) is not None
        for days in dict.fromkeys((said, in_digits(said)))
    )


_DAYS_IN_PART = (
    rf"(?P<days>.+?) (?:(?:{lexicon.some('PART_LEAD')}) )?(?P<part>{lexicon.alternatives(PERIOD_OF)})"
    rf"(?:{lexicon.alternatives(PLURAL_ENDINGS)})?"
)


def _days_in_part(days: str) -> tuple[str, str | None]:
    """'every monday morning', 'weekday evenings', 'los lunes por la tarde' -> (the days, the part of the
    day the hour is read in); (days, None) when no part of the day follows them."""
    match = re.fullmatch(_DAYS_IN_PART, days)
    if match is None or match["part"] in _PARTS_NOT_EACH:
        return days, None
    return match["days"], match["part"]


# --- every N weeks / every N days ------------------------------------------------------------------

MAX_EVERY = {WEEKS: 52, DAYS: 365, MONTHS: 12}
CALENDAR = "calendar_quarters"  # a unit of split_interval's: N months in the calendar's quarters
_COUNTS: dict[str, int] = lexicon.union("COUNTS")
_COUNT = rf"\d{{1,3}}(?:{lexicon.either('DAY_ORDINAL_ENDINGS')})?|" + "|".join(_COUNTS)  # 3, 3rd, three, third
_UNITS = {
    **dict.fromkeys(lexicon.each("WEEK_UNITS"), WEEKS),
    **dict.fromkeys(lexicon.each("DAY_UNITS"), DAYS),
    **dict.fromkeys(lexicon.each("MONTH_UNITS"), MONTHS),
}
_EVERY_N_MONTHS: dict[str, int] = lexicon.union("EVERY_N_MONTHS")
_CALENDAR_PERIODS = set(lexicon.each("CALENDAR_PERIODS"))
# a number of weeks said by its weekdays ('every 2 fridays', 'cada dos viernes'): a cardinal only, as
# 'every third monday' may be the month's third
_CARDINALS = rf"\d{{1,2}}|{lexicon.alternatives(set(lexicon.union('NUMBERS')) & set(_COUNTS))}"
_INTERVALS = (
    # every 2 weeks on tuesday and thursday at 9 / every other day at 8 / cada 2 semanas los martes a las 9
    rf"(?:{lexicon.either('EACH')}) (?P<n>{_COUNT}) (?P<unit>{lexicon.alternatives(_UNITS)})\b,? ?(?P<rest>.*)",
    # every 2 fridays at 5pm / cada dos viernes a las 17: every 2 weeks on friday
    rf"(?:{lexicon.either('EACH')}) (?P<n>{_CARDINALS}) (?P<days>{WD_ITEM})\b,? ?(?P<rest>.*)",
    # quarterly on the 1st at 9 / trimestralmente el dia 1 a las 9
    rf"(?P<months>{lexicon.alternatives(_EVERY_N_MONTHS)}),? ?(?P<rest>.*)",
    # each language's own: every other monday, biweekly, lunes por medio, un lunes sí y otro no
    *(pattern.replace("{weekday}", WD_ITEM) for pattern in lexicon.each("INTERVALS")),
)
_DAYS_FOR_WEEKS_LEAD = tuple(lexicon.each("DAYS_FOR_WEEKS_LEAD"))
_WEEKS_SAID_IN_DAYS = {days: every for _, days, _, every in lexicon.union("DAYS_FOR_WEEKS").values()}


FIRST_START_YEAR = 2000  # a read-back start date is the schedule's first occurrence: never earlier
_START = rf",? (?:{lexicon.either('STARTING')}) (?P<start>\d{{4}}-\d{{2}}-\d{{2}})"
_LEADING_AT = rf"(?P<at>(?:{_AT_WORDS}|@) [^\s,]+(?: [ap]m)?),? (?P<rest>.+)"


def split_interval(t: str) -> tuple[int, str, str, date | None] | Phrase:
    """A normalized phrase -> (N, WEEKS, DAYS, MONTHS or CALENDAR, the weekly, daily or monthly phrase
    left, the start date it names); (1, "", t, None) when it names no interval; a Phrase: the reason an
    interval is refused.
    A leading time ('at 10 every other monday') is read as if it came last; a start date is ISO
    ('... from 2026-12-14', '... desde el 2026-12-14')."""
    start: date | None = None
    named = re.fullmatch(rf"(?P<rest>.+?){_START}", t)
    if named:
        try:
            start = date.fromisoformat(named["start"])
        except ValueError:
            return phrase("cron.bad_start", start=named["start"])
        if not FIRST_START_YEAR <= start.year <= MAX_YEAR:
            return phrase("cron.bad_start", start=named["start"])
        t = named["rest"]
    lead = re.fullmatch(_LEADING_AT, t)
    for text in [t, f"{lead['rest']} {lead['at']}"] if lead else [t]:
        found = _split(text)
        if found is not None and _nth_weekday(text):  # 'every second tuesday of the month': the month's second
            return 1, "", t, start
        if isinstance(found, Phrase):
            return found
        if found is not None:
            return (*found, start)
    return 1, "", t, start


def _nth_weekday(t: str) -> bool:
    """Whether a phrase reads whole as a weekday of the month ('every second tuesday of the month at 3pm':
    0 15 * * 2#2), which its ordinal could otherwise start as an interval ('every second tuesday')."""
    plain = phrase_to_cron(t)
    return isinstance(plain, str) and "#" in plain.split()[4]


def _split(t: str) -> tuple[int, str, str] | Phrase | None:
    if re.match(rf"(?:{_EVERY_N})\b", t):  # 'every quarter hour (from 8 to 18)': minutes, not a quarter of the year
        return None
    for pattern in _INTERVALS:
        match = re.fullmatch(pattern, t)
        if match is None:
            continue
        found = match.groupdict()
        count = found.get("n") or ("1" if found.get("once") else "2")  # 'every other', 'weekly'
        digits = re.match(r"\d+", count)  # '3', '3rd', '3er'
        every = int(digits[0]) if digits else _COUNTS[count]
        unit = _UNITS[found["unit"]] if found.get("unit") else WEEKS
        if found.get("months"):
            every, unit = _EVERY_N_MONTHS[found["months"]], MONTHS
            if found["months"] in _CALENDAR_PERIODS:
                return every, CALENDAR, _monthly(found["rest"].strip())
        rest = found["rest"].strip()
        if unit == DAYS and every in _WEEKS_SAID_IN_DAYS and t.startswith(_DAYS_FOR_WEEKS_LEAD):
            weeks = _WEEKS_SAID_IN_DAYS[every]  # 'cada quince dias' often means every two weeks
            return phrase("cron.days_for_weeks", days=every, weeks=weeks, exact=every // 7 * 7)
        if not 1 <= every <= MAX_EVERY[unit]:
            return phrase("cron.interval_count", most=MAX_EVERY[unit])
        if unit == DAYS:
            return every, unit, f"{_EVERY_DAY} {rest}".strip()
        if unit == MONTHS:  # the months it fires in are counted from its first occurrence (cron/fires.anchored)
            return (every, unit, _monthly(rest)) if 12 % every == 0 else phrase("cron.months_divide")
        if found.get("days"):  # 'every other monday and thursday at 10'
            rest = f"{found['days']} {rest}"
        if re.match(rf"(?:{WD_ITEM})\b", rest):
            rest = f"{_EVERY} {rest}"
        return every, unit, rest
    return None


def _monthly(rest: str) -> str:
    """What follows 'every 3 months' as a monthly phrase, in its own language ('on the 1st at 9' ->
    'every month on the 1st at 9', 'el dia 1 a las 9' -> 'cada mes el dia 1 a las 9')."""
    said = [f"{lead} {rest}".strip() for lead in lexicon.each("EVERY_MONTH")]
    return next((text for text in said if isinstance(phrase_to_cron(text), str)), said[0])
