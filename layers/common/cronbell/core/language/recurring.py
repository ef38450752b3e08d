"""A recurring schedule as the caller writes it (a five-field cron expression, a macro or a plain phrase,
with every N weeks or days) read into a `CronSpec` and validated: it fires, and not more often than the
deployment allows."""

from __future__ import annotations

import re
from datetime import tzinfo

from cronbell.core.domain.cron.expressions import normalized
from cronbell.core.domain.cron.fields import (
    BY_DOM,
    BY_DOW,
    DAYS,
    EVERY_DAY,
    MONTHS,
    WEEKS,
    CronFields,
    FieldError,
    parse_fields,
)
from cronbell.core.domain.cron.spec import CronSpec, Interval, shortest_gap
from cronbell.core.domain.phrases import Phrase, phrase
from cronbell.core.domain.refusals import ToolError, refusal
from cronbell.core.language import lexicon
from cronbell.core.language.clocks import Unreadable, normalize, without_courtesy
from cronbell.core.language.cron_days import AND
from cronbell.core.language.cron_phrases import (
    CALENDAR,
    days_said_last,
    names_days_only,
    phrase_to_cron,
    split_interval,
)
from cronbell.core.language.zone_ids import ABBREVIATIONS

MACROS = {
    "@hourly": "0 * * * *",
    "@daily": "0 0 * * *",
    "@midnight": "0 0 * * *",
    "@weekly": "0 0 * * 0",
    "@monthly": "0 0 1 * *",
    "@yearly": "0 0 1 1 *",
    "@annually": "0 0 1 1 *",
}


def _cron_error(source: str, reason: Phrase) -> ToolError:
    return refusal("invalid_cron", {"reason": reason}, source=source, reason=reason)


_SAID_APART_WORD = rf" (?:{lexicon.either('SAID_APART')})\b"


def _read_before_its_end(t: str, min_interval_minutes: int) -> str | None:
    """'every monday at 9 until december 31' -> 'every monday at 9': a schedule that reads once what
    follows it is left out, an end, a start or holidays, which go in arguments of their own."""
    for said in reversed(list(re.finditer(_SAID_APART_WORD, t))):  # the longest schedule that reads
        kept = t[: said.start()].rstrip(",")
        if kept and _reads(kept, min_interval_minutes):
            return kept
    return None


def read_without_its_zone(t: str, min_interval_minutes: int) -> tuple[str, tzinfo, str] | None:
    """'every monday at 10:00 utc' -> ('every monday at 10:00', UTC, 'UTC'): a schedule (normalized) that
    reads once the zone it names is left out, the zone and the words that named it."""
    from cronbell.core.language.named_zones import take_zone  # only for a phrase that did not read

    try:
        named = take_zone(t)
    except Unreadable:
        return None
    return named if named is not None and _reads(named[0], min_interval_minutes) else None


def _reads(t: str, min_interval_minutes: int) -> bool:
    """Whether a phrase reads as a schedule on its own."""
    try:
        parse_recurring(t, min_interval_minutes)
    except ToolError:
        return False
    return True


def is_expression(text: str) -> bool:
    """Whether a recurrence is written as five cron fields (its minute and hour in digits), not a phrase."""
    return re.fullmatch(r"[0-9*/,?-]+ [0-9*/,?-]+( .*)?", text) is not None


def parse_recurring(text: str, min_interval_minutes: int, locale: str = "en") -> CronSpec:
    """A five-field expression, a macro or a phrase, validated.

    Raises INVALID_CRON, NEVER_FIRES or TOO_FREQUENT (shortest wall-clock gap under the minimum)."""
    source = text if isinstance(text, str) else ""
    stripped = " ".join(source.split())
    interval: Interval | None = None
    calendar = False  # quarterly: the calendar's quarters, not counted from the first occurrence
    if not stripped:
        raise _cron_error(source, phrase("reason.empty"))
    if stripped.lower() in MACROS:
        expr = MACROS[stripped.lower()]
    elif stripped.startswith("@"):
        raise _cron_error(source, phrase("cron.unknown_macro", macro=stripped.split()[0]))
    elif re.fullmatch(r"(?:cron|rate|at)\(.*\)", stripped, flags=re.IGNORECASE):
        raise _cron_error(source, phrase("cron.eventbridge"))
    elif is_expression(stripped):
        expr = stripped
    else:
        split = split_interval(without_courtesy(normalize(stripped)))
        if isinstance(split, Phrase):
            raise _cron_error(source, split)
        every, unit, rest, start = split
        calendar = unit == CALENDAR
        unit = MONTHS if calendar else unit
        if start is not None and (every == 1 or calendar):
            raise _cron_error(source, phrase("cron.start_needs_interval"))
        found = phrase_to_cron(rest)
        if found is None and every == 1:
            found = days_said_last(rest) or _said_twice(rest)
        said = normalize(stripped)
        if found is None and (kept := _read_before_its_end(said, min_interval_minutes)):
            kept = stripped[: len(kept)] if len(said) == len(stripped) else kept  # as the user wrote it
            raise _cron_error(source, phrase("cron.said_apart", schedule=kept))
        if found is None and (zoned := read_without_its_zone(said, min_interval_minutes)):
            place = ABBREVIATIONS.get(zoned[2].casefold(), getattr(zoned[1], "key", "UTC"))
            raise _cron_error(source, phrase("cron.zone_apart", schedule=zoned[0], zone=zoned[2], place=place))
        if found is None and names_days_only(rest):  # 'every monday', 'quarterly on the 1st': the days, but when?
            raise _cron_error(source, phrase("cron.needs_time", days=stripped))
        if found is None and every > 1:
            raise _cron_error(source, _needs(unit))
        if found is None:
            raise _cron_error(source, phrase("cron.unreadable"))
        if isinstance(found, Phrase):
            raise _cron_error(source, found)
        expr = found
        interval = Interval(every, unit, start) if every > 1 and not calendar else None
    try:
        fields = parse_fields(expr)
    except FieldError as exc:
        raise _cron_error(source, exc.reason) from exc
    if interval is not None and not _interval_fits(fields, interval.unit):
        raise _cron_error(source, _needs(interval.unit))
    if calendar:
        if not _interval_fits(fields, MONTHS):
            raise _cron_error(source, _needs(MONTHS))
        expr = _in_calendar_periods(expr, every, last=fields.last_day or fields.nth < 0)
        fields = parse_fields(expr)
    if fields.day_rule == BY_DOM and not fields.dom_part_fires():
        raise refusal("never_fires", {"cron": expr}, source=source)
    gap = shortest_gap(fields, min_interval_minutes)
    if gap < min_interval_minutes:
        details = {"cron": expr, "shortest_gap_minutes": gap, "min_interval_minutes": min_interval_minutes}
        raise refusal("too_frequent", details, source=source, gap=gap, minimum=min_interval_minutes)
    return CronSpec(expr=normalized(fields), source=source, interval=interval)


_AT_LAST = rf"\b(?:{'|'.join(lexicon.each('AT'))}) $"  # 'at' ending the days both halves say


def _words_both_begin_with(left: str, right: str) -> str:
    """The words two phrases begin with, each followed by its space ('every day at ')."""
    said = ""
    for word, other in zip(left.split(" "), right.split(" "), strict=False):
        if word != other:
            break
        said += f"{word} "
    return said


def _said_twice(t: str) -> str | Phrase | None:
    """Two whole schedules joined by 'and': one when they differ only in the time, read as the times of
    one list ('every day at 9 and every day at 5' as 'every day at 9 and at 5': 09:00 and 17:00); else two,
    refused with both named ('every monday at 9 and every friday at 5': one reminder for each). None when
    no 'and' splits it into two."""
    for joint in re.finditer(rf" {AND} ", t):
        left, right = t[: joint.start()], t[joint.end() :]
        first, second = phrase_to_cron(left), phrase_to_cron(right)
        if not (isinstance(first, str) and isinstance(second, str)):
            continue
        said = re.sub(_AT_LAST, "", _words_both_begin_with(left, right))  # the days both say ('at' kept)
        (minute, hours, *days), (other_minute, other_hours, *other_days) = first.split(), second.split()
        if said and days == other_days:
            merged = phrase_to_cron(f"{left}{joint[0]}{right[len(said) :]}")
            if isinstance(merged, str):
                return merged
        if (minute, days) == (other_minute, other_days) and re.fullmatch(r"[\d,]+", f"{hours},{other_hours}"):
            return " ".join([minute, ",".join(sorted({*hours.split(","), *other_hours.split(",")}, key=int)), *days])
        return phrase("cron.two_schedules", first=left, second=right)
    return None


_NEEDS = {WEEKS: "cron.interval_weeks", DAYS: "cron.interval_days", MONTHS: "cron.interval_months"}


def _in_calendar_periods(expr: str, months: int, last: bool) -> str:
    """A monthly expression in the first month of each calendar quarter (`months`: 3; January, April,
    ...), or in the last when its day is counted from the month's end ('the last friday': March, June, ...)."""
    minute, hour, dom, _, dow = expr.split()
    first = months if last else 1
    return f"{minute} {hour} {dom} {','.join(str(m) for m in range(first, 13, months))} {dow}"


def _needs(unit: str) -> Phrase:
    """What every N of `unit` needs besides its N (a refusal's reason)."""
    return phrase(_NEEDS[unit])


def _interval_fits(fields: CronFields, unit: str) -> bool:
    """Every N weeks takes weekdays in every month; every N days takes every day in every month; every
    N months takes days of the month, or a place in it (the first monday), in every month."""
    if unit == MONTHS:
        days = fields.day_rule == BY_DOM or fields.last_day or fields.nth != 0
    else:
        days = fields.day_rule == BY_DOW and not fields.nth if unit == WEEKS else fields.day_rule == EVERY_DAY
    return days and len(fields.months) == 12
