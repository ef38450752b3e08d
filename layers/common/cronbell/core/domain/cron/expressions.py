"""Cron fields written out as expressions: the normalized standard one (what croniter reads, so `A-A` is
never written as a range) and EventBridge Scheduler's, which numbers weekdays 1-7 from Sunday and needs
`?` in one day field, so "either day field" becomes two expressions whose union is the schedule (a day
matching both fires once per expression: the fire side de-duplicates on (schedule, scheduled time));
and the `at(...)` expression of a one-shot."""

from __future__ import annotations

from datetime import datetime
from itertools import pairwise

from cronbell.core.domain.cron.fields import BY_DOM, BY_DOW, EITHER, EVERY_DAY, CronFields, parse_fields
from cronbell.core.domain.cron.spec import CronSpec


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


def normalized(fields: CronFields) -> str:
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
