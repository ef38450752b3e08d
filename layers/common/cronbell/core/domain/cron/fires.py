"""The next fire times of a cron spec in a zone, as Scheduler fires them there: a local time that does
not exist that day is skipped, a repeated one fires once (the first); only the days an interval keeps."""

from __future__ import annotations

import calendar
from collections.abc import Callable, Iterator
from dataclasses import replace
from datetime import UTC, date, datetime, time, timedelta
from itertools import islice
from zoneinfo import ZoneInfo

from cronbell.core.domain.cron.expressions import normalized
from cronbell.core.domain.cron.fields import MONTHS, CronFields, parse_fields
from cronbell.core.domain.cron.spec import CronSpec
from cronbell.core.domain.zones import MAX_YEAR, NONEXISTENT, localize


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
    skipped: bool = False,
) -> Iterator[datetime]:
    """The fires strictly after `after`, in order, lazily (as `next_fires`). A local day for which
    `passed_over` is true is left out whole, at the cost of one call (a holiday: every fire of it
    goes at once); none after the local date `last_day`. With `skipped`, a local time the clocks skip
    is one too (moved on by the gap), once its wall time is past `after`'s."""
    fields = parse_fields(spec.expr)
    times = sorted(fields.times())
    after_utc = after.astimezone(UTC)  # compare instants: same-zone comparisons ignore `fold`
    wall = after.astimezone(tz).replace(tzinfo=None)
    for day in fire_days(fields, wall.date()):
        if last_day is not None and day > last_day:
            return
        if not spec.keeps(day) or (passed_over is not None and passed_over(day)):
            continue
        for hour, minute in times:
            naive = datetime(day.year, day.month, day.day, hour, minute)
            aware, kind = localize(naive, tz)
            if (not skipped or naive <= wall) if kind == NONEXISTENT else aware.astimezone(UTC) <= after_utc:
                continue
            yield aware


def anchored(spec: CronSpec, now: datetime, tz: ZoneInfo, keep: date | None = None) -> CronSpec:
    """The spec with its interval anchored at the local date of its first occurrence: after `now`, or
    on or after the start date the phrase named ('... from 2026-12-14'); `keep` is an anchor kept as
    it is (the same recurrence moved to another zone). Every N months (N divides 12) is then written
    as the months it fires in, counted from that first occurrence: a plain expression, read back the
    same in any zone, whose entry fires in those months only."""
    if spec.interval is None:
        return spec
    anchor = keep
    if anchor is None:
        start = spec.interval.anchor
        after = datetime.combine(start, time(), tz) - timedelta(seconds=1) if start else now
        anchor = _first_day(replace(spec, interval=None), after, tz) or start or now.astimezone(tz).date()
    if spec.interval.unit == MONTHS:
        return _in_months(spec, anchor.month, spec.interval.every)
    return replace(spec, interval=replace(spec.interval, anchor=anchor))


def _first_day(spec: CronSpec, after: datetime, tz: ZoneInfo) -> date | None:
    """The local date of the first occurrence after `after`, a day whose time the clocks skip included: an
    interval counts from the day said, so `every 7 days at 2:30` said the day before a spring-forward
    Sunday stays on Sundays (that first one does not happen)."""
    first = next(fires_after(spec, after, tz, skipped=True), None)
    return first.date() if first is not None else None


def _in_months(spec: CronSpec, first: int, every: int) -> CronSpec:
    """A monthly spec restricted to every `every`-th month from month `first`."""
    minute, hour, dom, _, dow = spec.expr.split()
    months = ",".join(str((first - 1 + step) % 12 + 1) for step in range(0, 12, every))
    expr = normalized(parse_fields(f"{minute} {hour} {dom} {months} {dow}"))
    return CronSpec(expr=expr, source=expr)
