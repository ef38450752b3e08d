"""Recurring phrases in English and Spanish ('every monday at 10', 'cada 15 minutos', 'el primer lunes
de cada mes a las 9'), read into a standard five-field cron expression. A phrase needs a time of day.
'every other monday at 10' and 'cada 3 días a las 9' are first split into their interval and the weekly
or daily phrase that remains."""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import date

from cronbell.core.language.clocks import MAX_YEAR, MONTH_WORDS, PERIOD_OF, WEEKDAY_WORDS, parse_clock, parse_clock_in
from cronbell.core.text.texts import Phrase, phrase

_WD_WORD = "|".join(sorted(WEEKDAY_WORDS, key=len, reverse=True))
_WD_ITEM = rf"(?:{_WD_WORD})(?:e?s)?"  # mondays, sabados
_DAILY = (
    r"(?:every ?day|each day|daily|every single day|todos los dias|cada dia|diariamente|a diario|"
    r"all days|todos los dias de la semana)"
)
_WORKDAYS = (
    r"(?:(?:every|each|on) )?(?:weekdays?|working days?|work ?days?|business days?)|"
    r"(?:todos )?(?:los )?(?:cada )?dias? (?:laborables?|habiles?|entre semana)|entre semana"
)
_WEEKENDS = (
    r"(?:(?:every|each|on|at) )?(?:the )?weekends?|(?:todos )?(?:los |cada )?fines? de semana|"
    r"(?:todos )?(?:los )?sabados y domingos|(?:every )?saturdays? and sundays?"
)


def _weekday_number(word: str) -> int | None:
    """'monday', 'mondays', 'sabados' -> cron weekday; only a plural ending is dropped ('martes 8' is no weekday)."""
    plural = [word[:-1]] if word.endswith("s") else []
    plural += [word[:-2]] if word.endswith("es") else []
    for candidate in (word, *plural):
        if candidate in WEEKDAY_WORDS:
            return (WEEKDAY_WORDS[candidate] + 1) % 7  # Monday 0 -> cron 1, Sunday 6 -> cron 0
    return None


def _weekday_set(text: str) -> str | None:
    """'monday', 'mondays and fridays', 'lunes, miercoles y viernes', 'monday to friday' -> cron DOW."""
    text = re.sub(r"^(?:every|each|on|todos los|todas las|cada|los|el|from|de)\s+", "", text)
    found: list[int] = []
    for part in re.split(r"\s*(?:,|\band\b|\by\b|\be\b|&)\s*", text):
        if not part:
            continue
        span = re.fullmatch(r"([a-z]+) ?- ?([a-z]+)|([a-z]+) (?:to|through|thru|until|a|hasta(?: el)?) ([a-z]+)", part)
        if span:
            first, last = (span.group(1), span.group(2)) if span.group(1) else (span.group(3), span.group(4))
            a, b = _weekday_number(first), _weekday_number(last)
            if a is None or b is None:
                return None
            span_values = range(a, b + 1) if a <= b else [*range(a, 7), *range(0, b + 1)]  # friday to monday
            found.extend(span_values)
            continue
        part = re.sub(r"^(?:every|each|on|los|el|cada)\s+", "", part)
        number = _weekday_number(part)
        if number is None:
            return None
        found.append(number)
    return ",".join(str(v) for v in sorted(set(found))) if found else None


_ORDINAL = r"(?:st|nd|rd|th|o)?"


def _matches(patterns: tuple[str, ...], text: str) -> Iterator[re.Match[str]]:
    """Each pattern's full match of `text`, in the order the patterns are given."""
    return (match for pattern in patterns if (match := re.fullmatch(pattern, text)))


def _month_days(text: str) -> str | None:
    """'every month on the 1st', 'el dia 15 de cada mes', 'on the 1st and 15th of every month' -> DOM."""
    patterns = (
        r"(?:every|each) month on (?:the )?(?:days? )?(?P<d>.+)",
        r"monthly on (?:the )?(?:days? )?(?P<d>.+)",
        r"(?:(?:on|every|each) (?:the )?|the )(?:days? )?(?P<d>.+?) of (?:every|each|the) month",
        r"(?:el|los) (?:dias? )?(?P<d>.+?) de (?:cada|todos los) mes(?:es)?",
        r"(?:cada|todos los) mes(?:es)? (?:el|los) (?:dias? )?(?P<d>.+)",
    )
    for match in _matches(patterns, text):
        days = []
        for part in re.split(r"\s*(?:,|\band\b|\by\b)\s*", match["d"]):
            number = re.fullmatch(rf"(\d{{1,2}}){_ORDINAL}", part)
            if not number or not 1 <= int(number.group(1)) <= 31:
                return None
            days.append(int(number.group(1)))
        return ",".join(str(v) for v in sorted(set(days)))
    return None


_PLACES = {
    "first": 1, "1st": 1, "second": 2, "2nd": 2, "third": 3, "3rd": 3, "fourth": 4, "4th": 4, "fifth": 5,
    "5th": 5, "last": -1, "primer": 1, "primero": 1, "segundo": 2, "tercer": 3, "tercero": 3, "cuarto": 4,
    "quinto": 5, "ultimo": -1,
}  # fmt: skip
_PLACE = "|".join(_PLACES)
_OF_EVERY_MONTH = r"(?:of (?:every|each|the) month|every month|de cada mes|de todos los meses|del mes)"


def _month_place(text: str) -> str | None:
    """'the last day of every month', 'el primer lunes de cada mes', 'the last friday of every month'
    -> the cron day fields 'DOM * DOW' (`L`, `W#N`, `LW`)."""
    lead = r"(?:(?:on|every|each|el|cada|todos los) )?(?:the )?"
    match = re.fullmatch(rf"{lead}(?P<n>{_PLACE}) (?P<what>day|dia|{_WD_WORD}) {_OF_EVERY_MONTH}", text)
    if match is None:
        return None
    place = _PLACES[match["n"]]
    if match["what"] in ("day", "dia"):
        return "L * *" if place == -1 else f"{place} * *"
    weekday = _weekday_number(match["what"])
    return f"* * {weekday}#{place}" if place > 0 else f"* * L{weekday}"


_MONTH_WORD = "|".join(sorted(MONTH_WORDS, key=len, reverse=True))


def _day_of_year(text: str) -> str | None:
    """'every year on december 25', 'every 25th of december', 'cada 25 de diciembre' -> 'DOM MON'."""
    every = r"(?:every|each|yearly|annually|every year|each year)(?: on)?(?: the)?"
    patterns = (
        rf"{every} (?P<mon>{_MONTH_WORD}) (?P<d>\d{{1,2}}){_ORDINAL}",
        rf"{every} (?P<d>\d{{1,2}}){_ORDINAL} (?:of )?(?P<mon>{_MONTH_WORD})",
        rf"(?:cada|todos los) (?:anos? )?(?:el )?(?P<d>\d{{1,2}}) de (?P<mon>{_MONTH_WORD})",
        rf"(?:el )?(?P<d>\d{{1,2}}) de (?P<mon>{_MONTH_WORD}) de (?:cada|todos los) anos?",
    )
    for match in _matches(patterns, text):
        if 1 <= int(match["d"]) <= 31:
            return f"{int(match['d'])} {MONTH_WORDS[match['mon']]}"
    return None


def _part_of_day(days: str) -> str | None:
    """'every morning', 'cada noche', 'todas las tardes' -> the period the hour is read in."""
    match = re.fullmatch(r"(?:every|each|cada|todas las) (?P<part>[a-z]+?)s?", days)
    return PERIOD_OF.get(match["part"]) if match and match["part"] != "tonight" else None


_WINDOW = (
    r"(?P<every>.+?),? (?:between|from|entre|de|desde) (?:las? )?(?P<a>\d{1,2})(?::00|h)?"
    r" (?:and|to|until|till|y|a|hasta) (?:las? )?(?P<b>\d{1,2})(?::00|h)?"
)


def _window(t: str) -> str | Phrase | None:
    """'every 15 minutes between 9 and 17', 'cada hora de 8 a 20': the interval within those hours, from the
    first up to the last time before the second (17:00 itself is not included)."""
    match = re.fullmatch(_WINDOW, t)
    if match is None:
        return None
    every = _interval(match["every"])
    if not isinstance(every, str):
        return every
    first, last = int(match["a"]), int(match["b"])
    minute, hour, rest = every.split(" ", 2)
    if hour != "*" or not first < last <= 24:
        return phrase("cron.window")
    return f"{minute} {first}-{last - 1} {rest}" if last - 1 > first else f"{minute} {first} {rest}"


def _interval(t: str) -> str | Phrase | None:
    t = re.sub(r"\b(?:half an hour|half hour|media hora)\b", "30 minutes", t)
    t = re.sub(r"\b(?:quarter of an hour|quarter hour|cuarto de hora)\b", "15 minutes", t)
    if t in ("hourly", "every hour", "each hour", "cada hora", "a cada hora"):
        return "0 * * * *"
    if t in ("every minute", "each minute", "cada minuto"):
        return "* * * * *"
    match = re.fullmatch(r"(?:every|each|cada) (?P<n>\d+) (?P<unit>minutes?|mins?|minutos?|hours?|hrs?|horas?)", t)
    if not match:
        return None
    n = int(match["n"])
    if match["unit"].startswith(("h",)):
        if n < 1 or 24 % n:
            return phrase("cron.hours_divide")
        return "0 * * * *" if n == 1 else f"0 */{n} * * *"
    if n < 1 or 60 % n:
        return phrase("cron.minutes_divide")
    return "* * * * *" if n == 1 else f"*/{n} * * * *"


def _clocks(text: str, period: str | None = None) -> tuple[str, str] | None:
    """One time of day, or several sharing the minute ('9 and 17'), as cron (minute, hour) fields;
    with a period ('noche'), each hour is read in that part of the day."""

    def read(clock_text: str) -> tuple[int, int] | None:
        return parse_clock_in(clock_text, period) if period else parse_clock(clock_text)

    single = read(text)
    if single is not None:
        return str(single[1]), str(single[0])
    parts = re.split(r"\s*(?:,|\band\b|\by\b)\s*(?:(?:at|a las|a la) )?", text)
    clocks = [read(p) for p in parts if p]
    if len(clocks) < 2 or any(c is None for c in clocks):
        return None
    minutes = {c[1] for c in clocks if c}
    if len(minutes) != 1:
        return None
    hours = sorted({c[0] for c in clocks if c})
    return str(minutes.pop()), ",".join(str(h) for h in hours)


_TIMES = {"twice": 2, "two times": 2, "three times": 3, "four times": 4, "dos veces": 2, "tres veces": 3}
_TIMES_A_DAY = "|".join(_TIMES)
_DAYS_START = (
    r"(?:everyday|every|each|on|todos|todas|cada|los|el|de|from|daily|weekdays|weekends"
    r"|diariamente|a diario|entre semana)"
)


def phrase_to_cron(t: str) -> str | Phrase | None:
    """A recurring phrase in normalized text -> a five-field expression (a Phrase: the reason of a known refusal)."""
    interval = _window(t) or _interval(t)
    if interval is not None:
        return interval
    times = re.fullmatch(rf"(?P<n>{_TIMES_A_DAY}) (?:a|per|al) (?:day|dia),? (?P<rest>.+)", t)
    if times:  # "twice a day at 9 and 21": every day, at as many times as it says
        t = f"every day {times['rest']}"
        said = _clocks(re.sub(r"^(?:at|a las|a la) ", "", times["rest"]))
        if said is None or len(said[1].split(",")) != _TIMES[times["n"]]:
            return None
    at = r"(?:at|a las|a la|@|a(?= mediodia| medianoche))"
    candidates = []
    bare_clock = r"\d{1,2}(?:[:.h]\d{2})?h? ?(?:am|pm)?"  # a time of day without "at": "every tuesday 14:00"
    for match in (
        re.fullmatch(rf"(?P<days>.+?),? {at} (?P<clock>.+)", t),
        re.fullmatch(rf"{at} (?P<clock>.+?),? (?P<days>{_DAYS_START}\b.*)", t),
        re.fullmatch(rf"(?P<days>.+?),? (?P<clock>{bare_clock})", t),
        re.fullmatch(rf"(?P<clock>{bare_clock}),? (?P<days>{_DAYS_START}\b.*)", t),
    ):
        if match:
            candidates.append((match["days"], match["clock"]))
    for days, clock_text in candidates:
        period = _part_of_day(days)
        clock = _clocks(clock_text, period)
        if clock is None:
            continue
        minute, hour = clock
        if period is not None:
            return f"{minute} {hour} * * *"
        place = _month_place(days)
        if place is not None:
            return f"{minute} {hour} {place}"
        yearly = _day_of_year(days)
        if yearly is not None:
            return f"{minute} {hour} {yearly} *"
        if re.fullmatch(_DAILY, days):
            return f"{minute} {hour} * * *"
        if re.fullmatch(_WORKDAYS, days):
            return f"{minute} {hour} * * 1-5"
        if re.fullmatch(_WEEKENDS, days):
            return f"{minute} {hour} * * 0,6"
        dom = _month_days(days)
        if dom is not None:
            return f"{minute} {hour} {dom} * *"
        dow = _weekday_set(days)
        if dow is not None:
            return f"{minute} {hour} * * {dow}"
    return None


# --- every N weeks / every N days ------------------------------------------------------------------

WEEKS = "weeks"
DAYS = "days"
MAX_EVERY = {WEEKS: 52, DAYS: 365}
_COUNTS = {
    "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10,
    "eleven": 11, "twelve": 12, "other": 2, "second": 2, "alternate": 2,
    "dos": 2, "tres": 3, "cuatro": 4, "cinco": 5, "seis": 6, "siete": 7, "ocho": 8, "nueve": 9, "diez": 10,
    "once": 11, "doce": 12, "quince": 15, "otra": 2, "otro": 2,
}  # fmt: skip
_COUNT = r"\d{1,3}|" + "|".join(_COUNTS)
_UNITS = {"week": WEEKS, "weeks": WEEKS, "semana": WEEKS, "semanas": WEEKS,
          "day": DAYS, "days": DAYS, "dia": DAYS, "dias": DAYS}  # fmt: skip
_INTERVALS = (
    # every 2 weeks on tuesday and thursday at 9 / every other day at 8 / cada 2 semanas los martes a las 9
    rf"(?:every|each|cada) (?P<n>{_COUNT}) (?P<unit>weeks?|days?|semanas?|dias?)\b,? ?(?P<rest>.*)",
    # every other monday at 10 / alternate mondays at 10
    rf"(?:(?:every|each) (?P<n>other|second|alternate)|(?:on )?alternate) (?:(?P<unit>days?)|(?P<days>{_WD_ITEM}))\b"
    r",? ?(?P<rest>.*)",
    # biweekly on monday at 10 (read as every two weeks, its common meaning)
    r"(?:biweekly|fortnightly|(?:every|each|once a) fortnight),? (?P<rest>.*)",
    # lunes por medio a las 10 / dia por medio a las 8 / semana por medio los lunes a las 10
    rf"(?:(?:el|los|un|una) )?(?:(?P<unit>dias?|semanas?)|(?P<days>{_WD_ITEM})) por medio,? ?(?P<rest>.*)",
    # un lunes si y otro no a las 10 / un dia si y otro no a las 8
    rf"(?:(?:el|un|una) )?(?:(?P<unit>dias?|semanas?)|(?P<days>{_WD_ITEM})),? si,? y? ?(?:otro|uno|otra|una) no,? ?"
    r"(?P<rest>.*)",
)


FIRST_START_YEAR = 2000  # a read-back start date is the schedule's first occurrence: never earlier
_START = r",? (?:from|starting(?: on)?|beginning|desde(?: el)?|a partir del?|empezando el) (?P<start>\d{4}-\d{2}-\d{2})"


def split_interval(t: str) -> tuple[int, str, str, date | None] | Phrase:
    """A normalized phrase -> (N, WEEKS or DAYS, the weekly or daily phrase left, the start date it
    names); (1, "", t, None) when it names no interval; a Phrase: the reason an interval is refused.
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
    lead = re.fullmatch(r"(?P<at>(?:at|a las|a la|@) [^\s,]+(?: [ap]m)?),? (?P<rest>.+)", t)
    for text in [t, f"{lead['rest']} {lead['at']}"] if lead else [t]:
        found = _split(text)
        if isinstance(found, Phrase):
            return found
        if found is not None:
            return (*found, start)
    return 1, "", t, start


def _split(t: str) -> tuple[int, str, str] | Phrase | None:
    for pattern in _INTERVALS:
        match = re.fullmatch(pattern, t)
        if match is None:
            continue
        found = match.groupdict()
        count = found.get("n") or "2"
        every = int(count) if count.isdigit() else _COUNTS[count]
        unit = _UNITS[found["unit"]] if found.get("unit") else WEEKS
        rest = found["rest"].strip()
        if unit == DAYS and every == 15 and t.startswith("cada"):
            return phrase("cron.fifteen_days")  # 'cada quince dias' often means every two weeks
        if not 1 <= every <= MAX_EVERY[unit]:
            return phrase("cron.interval_count", most=MAX_EVERY[unit])
        if unit == DAYS:
            return every, unit, f"every day {rest}".strip()
        if found.get("days"):  # 'every other monday and thursday at 10'
            rest = f"{found['days']} {rest}"
        if re.match(rf"(?:{_WD_ITEM})\b", rest):
            rest = f"every {rest}"
        return every, unit, rest
    return None
