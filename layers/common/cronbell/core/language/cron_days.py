"""The days a recurring phrase names, as the cron day fields 'DOM MON DOW': weekdays and their sets
('mondays and fridays', 'monday to friday', 'weekdays'), days of the month ('the 1st and 15th of every
month'), places in the month ('the last friday of every month'), days of the year ('every december 25'),
and days left out ('every day except sunday')."""

from __future__ import annotations

import re
from collections.abc import Iterator

from cronbell.core.domain.phrases import Phrase
from cronbell.core.language import lexicon
from cronbell.core.language.clocks import MONTH_WORDS, WEEKDAY_WORDS

_WEEKDAYS = {**WEEKDAY_WORDS, **lexicon.union("WEEKDAYS_OWN")}  # 'weds', 'lun', 'vie': a schedule's days
_WD_WORD = "|".join(sorted(_WEEKDAYS, key=len, reverse=True))
PLURAL_ENDINGS = sorted(set(lexicon.each("PLURAL_ENDINGS")), key=len)  # the shortest first
WD_ITEM = rf"(?:{_WD_WORD})(?:{lexicon.alternatives(PLURAL_ENDINGS)})?"  # mondays, sabados
_DAILY = rf"(?:{lexicon.either('DAILY')})"
_WORKDAYS = lexicon.either("WORKDAYS")
_WEEKENDS = lexicon.either("WEEKENDS")
AND = rf"\b(?:{lexicon.either('AND')})\b"
_AND_WEEKDAYS = rf"\b(?:{lexicon.either('AND_WEEKDAYS')})\b"
_WEEKDAYS_LEAD = rf"^(?:{lexicon.either('WEEKDAYS_LEAD')})\s+"
_WEEKDAY_LEAD = rf"^(?:{lexicon.either('WEEKDAY_LEAD')})\s+"
_WEEKDAYS_FROM = rf"^(?:{lexicon.either('WEEKDAYS_FROM')})\s+"
_SPAN = rf"([a-z]+) ?- ?([a-z]+)|([a-z]+) (?:{lexicon.either('THROUGH')}) ([a-z]+)"


def _weekday_number(word: str) -> int | None:
    """'monday', 'mondays', 'sabados' -> cron weekday; only a plural ending is dropped ('martes 8' is no weekday)."""
    plural = [word[: -len(ending)] for ending in PLURAL_ENDINGS if word.endswith(ending)]
    for candidate in (word, *plural):
        if candidate in _WEEKDAYS:
            return (_WEEKDAYS[candidate] + 1) % 7  # Monday 0 -> cron 1, Sunday 6 -> cron 0
    return None


def _weekday_set(text: str) -> str | None:
    """'monday', 'mondays and fridays', 'lunes, miercoles y viernes', 'monday to friday' -> cron DOW.
    'from' names the first day of a span ('from monday to friday'); alone ('every day at 9 from monday')
    it names when a schedule starts, not the days it runs on: None."""
    spans_only = re.match(_WEEKDAYS_FROM, text) is not None
    text = re.sub(_WEEKDAYS_LEAD, "", text)
    found: list[int] = []
    for part in re.split(rf"\s*(?:,|{_AND_WEEKDAYS}|&|/)\s*", text):  # 'tue/thu' too
        if not part:
            continue
        span = re.fullmatch(_SPAN, part)
        if spans_only and not span:
            return None
        if span:
            first, last = (span.group(1), span.group(2)) if span.group(1) else (span.group(3), span.group(4))
            a, b = _weekday_number(first), _weekday_number(last)
            if a is None or b is None:
                return None
            span_values = range(a, b + 1) if a <= b else [*range(a, 7), *range(0, b + 1)]  # friday to monday
            found.extend(span_values)
            continue
        whole = range(1, 6) if re.fullmatch(_WORKDAYS, part) else (0, 6) if re.fullmatch(_WEEKENDS, part) else ()
        if whole:  # 'weekdays and saturday'
            found.extend(whole)
            continue
        part = re.sub(_WEEKDAY_LEAD, "", part)
        numbers = [_weekday_number(word) for word in part.split(" ")]  # 'mon wed fri': a list without commas
        if None in numbers:
            return None
        found.extend(n for n in numbers if n is not None)
    return ",".join(str(v) for v in sorted(set(found))) if found else None


_ORDINAL = rf"(?:{lexicon.either('ORDINAL_ENDINGS')})?"
_MONTH_DAYS = tuple(lexicon.each("MONTH_DAYS"))


def full_matches(patterns: tuple[str, ...], text: str) -> Iterator[re.Match[str]]:
    """Each pattern's full match of `text`, in the order the patterns are given."""
    return (match for pattern in patterns if (match := re.fullmatch(pattern, text)))


def _month_days(text: str) -> str | None:
    """'every month on the 1st', 'el dia 15 de cada mes', 'on the 1st and 15th of every month' -> DOM."""
    for match in full_matches(_MONTH_DAYS, text):
        days = []
        for said in re.split(rf"\s*(?:,|{AND})\s*(?:{lexicon.some('MONTH_DAY_AGAIN')})?", match["d"]):
            part = str(lexicon.DAY_NUMBERS.get(said, said))  # "el tres de cada mes"
            number = re.fullmatch(rf"(\d{{1,2}}){_ORDINAL}", part)
            if not number or not 1 <= int(number.group(1)) <= 31:
                return None
            days.append(int(number.group(1)))
        return ",".join(str(v) for v in sorted(set(days)))
    return None


_PLACES: dict[str, int] = lexicon.union("PLACES")
_PLACE = "|".join(_PLACES)
_OF_EVERY_MONTH = rf"(?:{lexicon.either('OF_EVERY_MONTH')})"
_OF_EVERY_QUARTER = rf"(?:{lexicon.either('OF_EVERY_QUARTER')})"
_PLACE_LEAD = rf"(?:(?:{lexicon.either('PLACE_LEAD')}) )?(?:(?:{lexicon.either('PLACE_ARTICLE')}) )?"
_DAY_WORDS = {module.DAY for module in lexicon.LANGUAGES.values()}
DAY_WORD = "|".join(module.DAY for module in lexicon.LANGUAGES.values())


_MONTH_PLACE_LEAD = rf"(?:{lexicon.either('MONTH_PLACE_LEAD')})"
_SEVERAL_PLACES = (
    rf"\b(?:{_PLACE})(?:\s*(?:,|{AND})\s*(?:(?:{lexicon.some('PLACE_ARTICLE')}) )?(?:{_PLACE}))+ (?:{WD_ITEM})\b"
)


def several_places(days: str) -> bool:
    """Whether days name more than one place of a weekday in the month ('every 2nd and 4th tuesday'):
    a schedule's cron holds one ('2#2'), so they are two reminders."""
    return re.search(_SEVERAL_PLACES, days) is not None


_MONTH_END = rf"(?:{lexicon.either('MONTH_END')})"
_PLACE_ALONE = rf"(?:{lexicon.either('PLACE_ALONE_LEAD')}) (?P<n>{lexicon.alternatives(lexicon.each('PLACE_ALONE'))})"


def _month_place(text: str) -> str | None:
    """'the last day of every month', 'el primer lunes de cada mes', 'every month on the last friday',
    'every first monday', 'the end of every month' -> the cron day fields 'DOM * DOW' (`L`, `W#N`, `LW`);
    of every quarter, in the calendar quarter's first month (a place from its start) or its last."""
    said = rf"(?P<n>{_PLACE}) (?P<what>{DAY_WORD}|{_WD_WORD})"
    quarterly = re.fullmatch(rf"{_PLACE_LEAD}{said} {_OF_EVERY_QUARTER}", text)
    match = (
        quarterly
        or re.fullmatch(rf"{_PLACE_LEAD}{said} {_OF_EVERY_MONTH}", text)
        or re.fullmatch(rf"{_MONTH_PLACE_LEAD}{said}", text)
        or re.fullmatch(rf"{_PLACE_ALONE} (?P<what>{DAY_WORD}|{_WD_WORD})", text)
    )
    if match is None:
        return "L * *" if re.fullmatch(_MONTH_END, text) else None
    place = _PLACES[match["n"]]
    # of every quarter: a place from its start in its first month (1 January, ...), from its end in its last
    months = ("1,4,7,10" if place > 0 else "3,6,9,12") if quarterly else "*"
    if match["what"] in _DAY_WORDS:
        return f"L {months} *" if place == -1 else f"{place} {months} *"
    weekday = _weekday_number(match["what"])
    return f"* {months} {weekday}#{place}" if place > 0 else f"* {months} L{weekday}"


_MONTH_WORD = "|".join(sorted(MONTH_WORDS, key=len, reverse=True))
_DAYS_OF_YEAR = tuple(
    pattern.replace("{month}", _MONTH_WORD).replace("{ordinal}", _ORDINAL) for pattern in lexicon.each("DAYS_OF_YEAR")
)


def _day_of_year(text: str) -> str | None:
    """'every year on december 25', 'every 25th of december', 'cada 25 de diciembre' -> 'DOM MON'."""
    for match in full_matches(_DAYS_OF_YEAR, text):
        if 1 <= int(match["d"]) <= 31:
            return f"{int(match['d'])} {MONTH_WORDS[match['mon']]}"
    return None


_EXCEPT = rf",? \b(?:{lexicon.some('EXCEPT')})\b "


def split_exception(t: str) -> tuple[str, set[int]] | None:
    """'every day except sunday at 9', 'every day at 9 except weekends', 'todos los días menos el domingo a
    las 9' -> (the phrase without its exception, the weekdays it leaves out), or None without one."""
    match = re.search(_EXCEPT, t)
    if match is None:
        return None
    words = t[match.end() :].split()
    for n in range(len(words), 0, -1):  # the longest run of words that names days
        fields = day_fields(" ".join(words[:n]))
        if fields is not None and fields.startswith("* * "):
            rest = " ".join([t[: match.start()], *words[n:]])
            return rest, weekdays(fields.split()[2])
    return None


def weekdays(dow: str) -> set[int]:
    """A cron day-of-week field as written here ('*', '1-5', '0,6', '1,3,5') -> its weekdays."""
    if dow == "*":
        return set(range(7))
    if "-" in dow:
        first, last = dow.split("-")
        return set(range(int(first), int(last) + 1))
    return {int(day) for day in dow.split(",")}


def without_days(found: str | Phrase | None, days: set[int]) -> str | Phrase | None:
    """A weekly or daily expression without some of its weekdays; None when it has none of them, or
    nothing would be left, or it names days of the month."""
    if not isinstance(found, str):
        return found
    minute, hour, dom, month, dow = found.split()
    kept = weekdays(dow) - days
    if dom != "*" or month != "*" or not kept or kept == weekdays(dow):
        return None
    return f"{minute} {hour} * * {','.join(str(day) for day in sorted(kept))}"


def day_fields(days: str) -> str | None:
    """The cron day fields 'DOM MON DOW' of the days a phrase names: 'every monday', 'weekdays', 'the
    1st of every month', 'the last friday of every month', 'every year on december 25'."""
    place = _month_place(days)
    if place is not None:
        return place
    yearly = _day_of_year(days)
    if yearly is not None:
        return f"{yearly} *"
    if re.fullmatch(_DAILY, days):
        return "* * *"
    if re.fullmatch(_WORKDAYS, days):
        return "* * 1-5"
    if re.fullmatch(_WEEKENDS, days):
        return "* * 0,6"
    dom = _month_days(days)
    if dom is not None:
        return f"{dom} * *"
    dow = _weekday_set(days)
    return None if dow is None else f"* * {dow}"
