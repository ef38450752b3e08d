"""Recurring schedules: a five-field cron expression, a macro or a plain phrase read into a `CronSpec`,
validated (never fires, too frequent), and every N weeks or days as an `Interval`. The fields' meaning is
in cron_fields, their expressions (normalized, EventBridge) in cron_expressions, the fire times in
cron_fires.

Every N weeks on given weekdays and every N days at a time cannot be written in cron: they are a weekly
(or daily) expression plus an `Interval` (N and an anchor, the local date of the first occurrence). The
entry fires every week (or day) in the zone, so DST stays right, and only the days the interval keeps
are occurrences: next fires and previews list only those, and the fire side posts nothing on the others.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from datetime import date, datetime, time, timedelta
from itertools import pairwise
from zoneinfo import ZoneInfo

from cronbell.core.contract.errors import ToolError, refusal
from cronbell.core.domain.cron_expressions import normalized
from cronbell.core.domain.cron_fields import BY_DOM, BY_DOW, EVERY_DAY, CronFields, FieldError, parse_fields
from cronbell.core.domain.cron_fires import next_fires
from cronbell.core.language.clocks import normalize
from cronbell.core.language.cron_phrases import DAYS, WEEKS, phrase_to_cron, split_interval
from cronbell.core.text.texts import Phrase, phrase

MACROS = {
    "@hourly": "0 * * * *",
    "@daily": "0 0 * * *",
    "@midnight": "0 0 * * *",
    "@weekly": "0 0 * * 0",
    "@monthly": "0 0 1 * *",
    "@yearly": "0 0 1 1 *",
    "@annually": "0 0 1 1 *",
}


@dataclass(frozen=True)
class Interval:
    """Every `every` weeks or days, counted from `anchor`, the local date of the first occurrence.

    Weeks run Monday to Sunday: "every 2 weeks on Tuesday and Thursday" fires on both days of the
    anchor's week (from the anchor on), of the week two weeks later, and so on. Parity is decided by
    local dates, so a DST change, a year boundary or a 53-week year never shifts it. As parsed, the
    anchor is the start date the caller named, if any; `anchored` makes it the first occurrence."""

    every: int
    unit: str  # WEEKS or DAYS
    anchor: date | None = None

    def keeps(self, day: date) -> bool:
        """Whether `day` (a local date the expression fires on) is one of the interval's."""
        if self.anchor is None:
            return True
        if day < self.anchor:
            return False
        if self.unit == WEEKS:
            weeks = (_monday(day) - _monday(self.anchor)).days // 7
            return weeks % self.every == 0
        return (day - self.anchor).days % self.every == 0


def _monday(day: date) -> date:
    return day - timedelta(days=day.weekday())


@dataclass(frozen=True)
class CronSpec:
    expr: str  # normalized standard five-field expression, what croniter reads
    source: str  # the text as the caller gave it
    interval: Interval | None = None  # every N weeks or days: `expr` is then weekly or daily

    def keeps(self, day: date) -> bool:
        return self.interval is None or self.interval.keeps(day)


def _cron_error(source: str, reason: Phrase) -> ToolError:
    return refusal("invalid_cron", {"reason": reason}, source=source, reason=reason)


def _shortest_gap(fields: CronFields, enough: int) -> int:
    """Minimum minutes between two consecutive fires, in wall-clock time; exact when under `enough`,
    otherwise possibly a lower bound that is at least `enough`."""
    minutes = sorted(h * 60 + m for h, m in fields.times())
    gap = min((b - a for a, b in pairwise(minutes)), default=10**9)
    spread = minutes[-1] - minutes[0]
    if 1440 - spread >= gap or min(gap, 1440 - spread) >= enough:
        return min(gap, 1440 - spread)
    # the last fire of a day and the first of the next fire day may be closer: find the fewest days
    # between two fire days over a window that holds every weekday, month length and leap year
    previous: date | None = None
    fewest = 10**6
    day = date(2024, 1, 1)
    while day.year < 2053 and fewest > 1:
        if fields.day_matches(day):
            if previous is not None:
                fewest = min(fewest, (day - previous).days)
            previous = day
        day += timedelta(days=1)
    return min(gap, fewest * 1440 - spread)


def parse_recurring(text: str, min_interval_minutes: int, locale: str = "en") -> CronSpec:
    """A five-field expression, a macro or a phrase, validated.

    Raises INVALID_CRON, NEVER_FIRES or TOO_FREQUENT (shortest wall-clock gap under the minimum)."""
    source = text if isinstance(text, str) else ""
    stripped = " ".join(source.split())
    interval: Interval | None = None
    if not stripped:
        raise _cron_error(source, phrase("reason.empty"))
    if stripped.lower() in MACROS:
        expr = MACROS[stripped.lower()]
    elif stripped.startswith("@"):
        raise _cron_error(source, phrase("cron.unknown_macro", macro=stripped.split()[0]))
    elif re.fullmatch(r"(?:cron|rate|at)\(.*\)", stripped, flags=re.IGNORECASE):
        raise _cron_error(source, phrase("cron.eventbridge"))
    elif re.fullmatch(r"[0-9*/,?-]+ [0-9*/,?-]+( .*)?", stripped):
        expr = stripped
    else:
        split = split_interval(normalize(stripped))
        if isinstance(split, Phrase):
            raise _cron_error(source, split)
        every, unit, rest, start = split
        if start is not None and every == 1:
            raise _cron_error(source, phrase("cron.start_needs_interval"))
        found = phrase_to_cron(rest)
        if found is None and every > 1:
            raise _cron_error(source, phrase("cron.interval_weeks" if unit == WEEKS else "cron.interval_days"))
        if found is None:
            raise _cron_error(source, phrase("cron.unreadable"))
        if isinstance(found, Phrase):
            raise _cron_error(source, found)
        expr = found
        interval = Interval(every, unit, start) if every > 1 else None
    try:
        fields = parse_fields(expr)
    except FieldError as exc:
        raise _cron_error(source, exc.reason) from exc
    if interval is not None and not _interval_fits(fields, interval.unit):
        raise _cron_error(source, phrase("cron.interval_weeks" if interval.unit == WEEKS else "cron.interval_days"))
    if fields.day_rule == BY_DOM and not fields.dom_part_fires():
        raise refusal("never_fires", {"cron": expr}, source=source)
    gap = _shortest_gap(fields, min_interval_minutes)
    if gap < min_interval_minutes:
        details = {"cron": expr, "shortest_gap_minutes": gap, "min_interval_minutes": min_interval_minutes}
        raise refusal("too_frequent", details, source=source, gap=gap, minimum=min_interval_minutes)
    return CronSpec(expr=normalized(fields), source=source, interval=interval)


def _interval_fits(fields: CronFields, unit: str) -> bool:
    """Every N weeks takes weekdays in every month; every N days takes every day in every month."""
    days = fields.day_rule == BY_DOW and not fields.nth if unit == WEEKS else fields.day_rule == EVERY_DAY
    return days and len(fields.months) == 12


def anchored(spec: CronSpec, now: datetime, tz: ZoneInfo, keep: date | None = None) -> CronSpec:
    """The spec with its interval anchored at the local date of its first occurrence: after `now`, or
    on or after the start date the phrase named ('... from 2026-12-14'); `keep` is an anchor kept as
    it is (the same recurrence moved to another zone)."""
    if spec.interval is None:
        return spec
    anchor = keep
    if anchor is None:
        start = spec.interval.anchor
        after = datetime.combine(start, time(), tz) - timedelta(seconds=1) if start else now
        first = next_fires(replace(spec, interval=None), after, tz, 1)
        anchor = first[0].date() if first else start or now.astimezone(tz).date()
    return replace(spec, interval=replace(spec.interval, anchor=anchor))


_SHORT_DAYS = ("Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat")


def interval_text(spec: CronSpec) -> str:
    """The canonical phrase of an interval recurrence, which parse_recurring reads back to the same
    spec, weeks included: 'every 2 weeks on Mon and Thu at 10:00 from 2026-12-07',
    'every 3 days at 09:00 and 21:00 from 2026-12-01'."""
    assert spec.interval is not None
    fields = parse_fields(spec.expr)
    clocks = " and ".join(f"{h:02d}:{m:02d}" for h, m in sorted(fields.times()))
    start = f" from {spec.interval.anchor.isoformat()}" if spec.interval.anchor else ""
    if spec.interval.unit == DAYS:
        return f"every {spec.interval.every} days at {clocks}{start}"
    names = [_SHORT_DAYS[d] for d in sorted(fields.weekdays, key=lambda v: (v + 6) % 7)]
    days = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
    return f"every {spec.interval.every} weeks on {days} at {clocks}{start}"
