"""Recurring schedules: five-field cron (plus macros and plain phrases), its EventBridge translation,
and its next fire times in a zone.

Semantics are those of standard cron as croniter reads them:
  - fields `MIN HOUR DOM MON DOW`; `*`, numbers, lists, ranges, steps (`*/15`, `1-10/2`, `5/10`),
    JAN-DEC and SUN-SAT (three letters), Sunday as 0 or 7; a range may wrap in the month and weekday
    fields (`FRI-MON`, `NOV-FEB`); `?` is read as `*` in the two day fields;
  - a day field is unrestricted when it is `*`, or when it covers every value and the other day field is
    written with a `*`; when both are restricted a day matches if either matches (cron's rule);
  - `A-A` is the single value A (croniter would read the whole cycle: the normalized expression never
    contains such a range, so croniter reading `CronSpec.expr` agrees with this module).
EventBridge numbers weekdays 1-7 from Sunday and needs `?` in one day field, so "either" becomes two
expressions whose union is the schedule (a day matching both fires once per expression: the fire
side de-duplicates on (schedule, scheduled time)).

Every N weeks on given weekdays and every N days at a time cannot be written in cron: they are a weekly
(or daily) expression plus an `Interval` (N and an anchor, the local date of the first occurrence). The
entry fires every week (or day) in the zone, so DST stays right, and only the days the interval keeps
are occurrences: next fires and previews list only those, and the fire side posts nothing on the others.
"""

from __future__ import annotations

import calendar
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from datetime import UTC, date, datetime, time, timedelta
from itertools import islice, pairwise
from zoneinfo import ZoneInfo

from cronbell.core.clocks import (
    MAX_YEAR,
    NONEXISTENT,
    localize,
    normalize,
)
from cronbell.core.cron_phrases import DAYS, WEEKS, phrase_to_cron, split_interval
from cronbell.core.errors import ToolError, refusal
from cronbell.core.texts import Phrase, phrase

MACROS = {
    "@hourly": "0 * * * *",
    "@daily": "0 0 * * *",
    "@midnight": "0 0 * * *",
    "@weekly": "0 0 * * 0",
    "@monthly": "0 0 1 * *",
    "@yearly": "0 0 1 1 *",
    "@annually": "0 0 1 1 *",
}
_MONTH_NAMES = ("JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC")
_DOW_NAMES = ("SUN", "MON", "TUE", "WED", "THU", "FRI", "SAT")
_BOUNDS = ((0, 59), (0, 23), (1, 31), (1, 12), (0, 7))
_MAX_DAYS = (31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31)

EVERY_DAY = "every"  # both day fields unrestricted
BY_DOM = "dom"
BY_DOW = "dow"
EITHER = "either"  # both restricted: day-of-month OR day-of-week


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


@dataclass(frozen=True)
class CronFields:
    """The expanded meaning of a five-field expression. Weekdays use cron numbers: 0 = Sunday."""

    minutes: tuple[int, ...]
    hours: tuple[int, ...]
    days: tuple[int, ...]
    months: tuple[int, ...]
    weekdays: tuple[int, ...]
    day_rule: str
    last_day: bool = False  # `L` in the day-of-month field (days is empty)
    nth: int = 0  # `W#N` (N) or `LW` (-1) in the day-of-week field: the weekday's place in the month

    def day_matches(self, d: date) -> bool:
        if d.month not in self.months:
            return False
        by_dom = (d + timedelta(days=1)).day == 1 if self.last_day else d.day in self.days
        by_dow = (d.weekday() + 1) % 7 in self.weekdays and self._in_place(d)
        if self.day_rule == EVERY_DAY:
            return True
        if self.day_rule == BY_DOM:
            return by_dom
        if self.day_rule == BY_DOW:
            return by_dow
        return by_dom or by_dow

    def _in_place(self, d: date) -> bool:
        if self.nth > 0:
            return (d.day - 1) // 7 + 1 == self.nth
        return self.nth == 0 or d.day + 7 > calendar.monthrange(d.year, d.month)[1]

    def times(self) -> list[tuple[int, int]]:
        return [(h, m) for h in self.hours for m in self.minutes]

    def dom_part_fires(self) -> bool:
        """Whether some (month, day) pair of the day-of-month part exists (29 February counts)."""
        return self.last_day or any(d <= _MAX_DAYS[m - 1] for m in self.months for d in self.days)


# --- parsing ---------------------------------------------------------------------------------------


def _cron_error(source: str, reason: Phrase) -> ToolError:
    return refusal("invalid_cron", {"reason": reason}, source=source, reason=reason)


class _FieldError(ValueError):
    """An invalid field; the reason is a catalog phrase (str() is its English text)."""

    def __init__(self, key: str, **values: object) -> None:
        self.reason = phrase(key, **values)
        super().__init__(self.reason.render("en"))


_FIELDS = ("field.minute", "field.hour", "field.day_of_month", "field.month", "field.day_of_week")


def _field(index: int) -> Phrase:
    return phrase(_FIELDS[index])


def _value(token: str, index: int) -> int:
    upper = token.upper()
    if index == 3 and upper in _MONTH_NAMES:
        return _MONTH_NAMES.index(upper) + 1
    if index == 4 and upper in _DOW_NAMES:
        return _DOW_NAMES.index(upper)
    if not token.isdigit() or len(token) > 2:
        raise _FieldError("cron.not_a_value", token=token, field=_field(index))
    value = int(token)
    lo, hi = _BOUNDS[index]
    if not lo <= value <= hi:
        raise _FieldError("cron.out_of_range", field=_field(index), value=value, lo=lo, hi=hi)
    return value


def _expand(raw: str, index: int) -> set[int]:
    lo, hi = _BOUNDS[index]
    cycle_hi = 6 if index == 4 else hi  # `*/N` and `A/N` in the weekday field run over 0-6
    out: set[int] = set()
    for item in raw.split(","):
        match = re.fullmatch(r"(\*|\?|[0-9A-Za-z]+(?:-[0-9A-Za-z]+)?)(?:/(\d+))?", item)
        if not match:
            raise _FieldError("cron.bad_item", item=item, field=_field(index))
        base, step_text = match.group(1), match.group(2)
        step = int(step_text) if step_text else 1
        if step < 1 or (step_text and len(step_text) > 2):
            raise _FieldError("cron.bad_step", step=step_text, field=_field(index))
        if base == "?":
            if index not in (2, 4) or step_text:
                raise _FieldError("cron.question_mark")
            base = "*"
        if base == "*":
            values = list(range(lo, cycle_hi + 1, step))
        elif "-" in base:
            first_text, last_text = base.split("-")
            first, last = _value(first_text, index), _value(last_text, index)
            if index == 4 and last == 0 and first > 0:
                last = 7  # FRI-SUN, 5-0
            if first > last:
                if index not in (3, 4) or step_text:
                    raise _FieldError("cron.backwards", range=base, field=_field(index))
                values = list(range(first, hi + 1)) + list(range(lo, last + 1))
            else:
                values = list(range(first, last + 1, step))
        else:
            first = _value(base, index)
            values = list(range(first, (cycle_hi if first <= cycle_hi else hi) + 1, step)) if step_text else [first]
        out.update(values)
    if index == 4:
        out = {0 if v == 7 else v for v in out}
    return out


def parse_fields(expr: str) -> CronFields:
    """Expand a five-field expression. Raises ValueError with a reason on any invalid field."""
    parts = expr.split()
    if len(parts) != 5:
        raise _FieldError("cron.field_count", count=len(parts))
    special = _positions(parts)
    if special is not None:
        return special
    sets = [_expand(part, i) for i, part in enumerate(parts)]
    dom_raw, dow_raw = parts[2], parts[4]
    dom_full = len(sets[2]) == 31
    dow_full = len(sets[4]) == 7
    dom_star = dom_raw in ("*", "?") or (dom_full and "*" in dow_raw)
    dow_star = dow_raw in ("*", "?") or (dow_full and "*" in dom_raw)
    if dom_star and dow_star:
        rule = EVERY_DAY
    elif dow_star:
        rule = EVERY_DAY if dom_full else BY_DOM
    elif dom_star:
        rule = EVERY_DAY if dow_full else BY_DOW
    else:
        rule = EVERY_DAY if dom_full or dow_full else EITHER
    minutes, hours, days, months, weekdays = (tuple(sorted(s)) for s in sets)
    return CronFields(minutes, hours, days, months, weekdays, rule)


def _positions(parts: list[str]) -> CronFields | None:
    """`L` (last day of the month), `W#N` (the N-th weekday W) and `LW` (the last weekday W), as croniter
    writes them; each alone in its field, with `*` in the other day field. None for other expressions."""
    dom_raw, dow_raw = parts[2], parts[4].upper()
    nth = re.fullmatch(r"([0-7]|[A-Z]{3})#([1-5])", dow_raw)
    last = re.fullmatch(r"L([0-7])", dow_raw)
    if dom_raw.upper() != "L" and not nth and not last:
        return None
    if dom_raw.upper() == "L":
        if dow_raw not in ("*", "?"):
            raise _FieldError("cron.position_field", item="L", field=_field(2))
    elif dom_raw not in ("*", "?"):
        raise _FieldError("cron.position_field", item=parts[4], field=_field(4))
    minutes, hours, months = (tuple(sorted(_expand(parts[i], i))) for i in (0, 1, 3))
    if dom_raw.upper() == "L":
        return CronFields(minutes, hours, (), months, (), BY_DOM, last_day=True)
    found = nth or last
    assert found is not None
    weekday = _value(found.group(1), 4) % 7
    return CronFields(minutes, hours, (), months, (weekday,), BY_DOW, nth=int(nth.group(2)) if nth else -1)


def _runs(values: tuple[int, ...]) -> list[tuple[int, int]]:
    runs: list[tuple[int, int]] = []
    for v in values:
        if runs and v == runs[-1][1] + 1:
            runs[-1] = (runs[-1][0], v)
        else:
            runs.append((v, v))
    return runs


def _list_text(values: tuple[int, ...]) -> str:
    parts: list[str] = []
    for a, b in _runs(values):
        if b - a >= 2:
            parts.append(f"{a}-{b}")
        else:
            parts.extend(str(v) for v in range(a, b + 1))
    return ",".join(parts)


def _step_of(values: tuple[int, ...], hi: int) -> int | None:
    """The step s if values are start, start+s, ... up to the end of the field (s > 1, 3+ values)."""
    if len(values) < 3:
        return None
    step = values[1] - values[0]
    if step < 2 or any(b - a != step for a, b in pairwise(values)):
        return None
    return step if values[-1] + step > hi else None


def _unix_text(values: tuple[int, ...], lo: int, hi: int) -> str:
    if len(values) == hi - lo + 1:
        return "*"
    step = _step_of(values, hi)
    if step is not None and values[0] == lo:
        return f"*/{step}"
    return _list_text(values)


def _eb_text(values: tuple[int, ...], lo: int, hi: int) -> str:
    if len(values) == hi - lo + 1:
        return "*"
    step = _step_of(values, hi)
    if step is not None:
        return f"{values[0]}/{step}"
    return _list_text(values)


def _normalized(fields: CronFields) -> str:
    minute = _unix_text(fields.minutes, 0, 59)
    hour = _unix_text(fields.hours, 0, 23)
    month = _unix_text(fields.months, 1, 12)
    dom = _unix_text(fields.days, 1, 31) if fields.day_rule in (BY_DOM, EITHER) else "*"
    dow = _list_text(fields.weekdays) if fields.day_rule in (BY_DOW, EITHER) else "*"
    if fields.last_day:
        dom = "L"
    if fields.nth:
        dow = f"{fields.weekdays[0]}#{fields.nth}" if fields.nth > 0 else f"L{fields.weekdays[0]}"
    return f"{minute} {hour} {dom} {month} {dow}"


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
    except _FieldError as exc:
        raise _cron_error(source, exc.reason) from exc
    if interval is not None and not _interval_fits(fields, interval.unit):
        raise _cron_error(source, phrase("cron.interval_weeks" if interval.unit == WEEKS else "cron.interval_days"))
    if fields.day_rule == BY_DOM and not fields.dom_part_fires():
        raise refusal("never_fires", {"cron": expr}, source=source)
    gap = _shortest_gap(fields, min_interval_minutes)
    if gap < min_interval_minutes:
        details = {"cron": expr, "shortest_gap_minutes": gap, "min_interval_minutes": min_interval_minutes}
        raise refusal("too_frequent", details, source=source, gap=gap, minimum=min_interval_minutes)
    return CronSpec(expr=_normalized(fields), source=source, interval=interval)


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


# --- EventBridge and next fires --------------------------------------------------------------------


def eventbridge_expressions(spec: CronSpec) -> list[str]:
    """The EventBridge Scheduler cron expressions whose union fires exactly when `spec` does."""
    fields = parse_fields(spec.expr)
    minute = _eb_text(fields.minutes, 0, 59)
    hour = _eb_text(fields.hours, 0, 23)
    month = _eb_text(fields.months, 1, 12)
    dom = _eb_text(fields.days, 1, 31)
    dow = _list_text(tuple(v + 1 for v in fields.weekdays))  # 1 = SUN ... 7 = SAT
    if fields.last_day:
        dom = "L"
    if fields.nth:
        dow = f"{dow}#{fields.nth}" if fields.nth > 0 else f"{dow}L"
    if fields.day_rule == EVERY_DAY:
        return [f"cron({minute} {hour} * {month} ? *)"]
    if fields.day_rule == BY_DOM:
        return [f"cron({minute} {hour} {dom} {month} ? *)"]
    if fields.day_rule == BY_DOW:
        return [f"cron({minute} {hour} ? {month} {dow} *)"]
    out = [f"cron({minute} {hour} {dom} {month} ? *)"] if fields.dom_part_fires() else []
    return [*out, f"cron({minute} {hour} ? {month} {dow} *)"]


def at_expression(at: datetime) -> str:
    """`at(...)` with the wall-clock time of `at` in its own zone (read in ScheduleExpressionTimezone)."""
    return f"at({at:%Y-%m-%dT%H:%M:%S})"


def fire_days(fields: CronFields, start: date) -> Iterator[date]:
    """Days from `start` (included) on which the schedule fires, up to EventBridge's last year."""
    year, month, first = start.year, start.month, start.day
    while year <= MAX_YEAR:
        if month in fields.months:
            for day in range(first, calendar.monthrange(year, month)[1] + 1):
                candidate = date(year, month, day)
                if fields.day_matches(candidate):
                    yield candidate
        first = 1
        month += 1
        if month > 12:
            year, month = year + 1, 1


def next_fires(spec: CronSpec, after: datetime, tz: ZoneInfo, count: int) -> list[datetime]:
    """The next `count` fires strictly after `after`, aware in `tz`, as Scheduler fires them in that zone:
    a local time that does not exist that day is skipped, a repeated one fires once (the first)."""
    if count <= 0:
        return []
    return list(islice(fires_after(spec, after, tz), count))


def fires_after(
    spec: CronSpec,
    after: datetime,
    tz: ZoneInfo,
    *,
    passed_over: Callable[[date], bool] | None = None,
    last_day: date | None = None,
) -> Iterator[datetime]:
    """The fires strictly after `after`, in order, lazily (as `next_fires`). A local day for which
    `passed_over` is true is left out whole, at the cost of one call (a holiday: every fire of it
    goes at once); none after the local date `last_day`."""
    fields = parse_fields(spec.expr)
    times = sorted(fields.times())
    after_utc = after.astimezone(UTC)  # compare instants: same-zone comparisons ignore `fold`
    for day in fire_days(fields, after.astimezone(tz).date()):
        if last_day is not None and day > last_day:
            return
        if not spec.keeps(day) or (passed_over is not None and passed_over(day)):
            continue
        for hour, minute in times:
            aware, kind = localize(datetime(day.year, day.month, day.day, hour, minute), tz)
            if kind == NONEXISTENT or aware.astimezone(UTC) <= after_utc:
                continue
            yield aware
