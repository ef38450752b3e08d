"""When an EventBridge Scheduler schedule fires: `at()`, `cron()` and `rate()` in a time zone.

Pure functions: every instant is an aware UTC datetime passed in. Semantics follow Scheduler:
- `at(yyyy-mm-ddThh:mm:ss)` is local wall time in the schedule's zone; StartDate/EndDate do not apply.
- `cron(min hour dom month dow year)` is evaluated in local wall time (aws-croniter), then the zone is
  attached: a local time that does not exist that day (spring forward) is skipped, and a local time that
  happens twice (fall back) fires once, at its first occurrence.
- `rate(N unit)` fires every N units from its anchor (the StartDate, else when the schedule appeared).
- Recurring schedules fire only within [StartDate, EndDate].
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from functools import lru_cache
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from aws_croniter import AwsCroniter

_AT = re.compile(r"^at\((\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2})?)\)$")
_CRON = re.compile(r"^cron\((.+)\)$")
_RATE = re.compile(r"^rate\((\d+)\s+(minute|minutes|hour|hours|day|days)\)$")
_UNIT_SECONDS = {"minute": 60, "hour": 3600, "day": 86400}

# a cron whose next local match is this far off is treated as never firing again
_MAX_CRON_STEPS = 5000


class ExpressionError(ValueError):
    """A schedule expression or time zone Scheduler would have refused."""


@dataclass(frozen=True)
class ScheduleTiming:
    """What decides a schedule's fire times."""

    expression: str
    timezone: str = "UTC"
    start: datetime | None = None  # StartDate (UTC)
    end: datetime | None = None  # EndDate (UTC)
    anchor: datetime | None = None  # rate(): when the schedule appeared, used without a StartDate

    @property
    def one_time(self) -> bool:
        return self.expression.strip().startswith("at(")


def zone(name: str) -> ZoneInfo:
    try:
        return ZoneInfo(name or "UTC")
    except (ZoneInfoNotFoundError, ValueError):
        raise ExpressionError(f"unknown time zone {name!r}") from None


def validate(timing: ScheduleTiming) -> None:
    """Raise ExpressionError if Scheduler would refuse the expression or the zone."""
    zone(timing.timezone)
    expression = timing.expression.strip()
    if _AT.match(expression) or _RATE.match(expression):
        if (m := _RATE.match(expression)) and int(m.group(1)) < 1:
            raise ExpressionError("a rate must be at least 1")
        return
    m = _CRON.match(expression)
    if not m:
        raise ExpressionError(f"not a Scheduler expression: {expression!r}")
    _cron(m.group(1).strip())


@lru_cache(maxsize=4096)
def _cron(fields: str) -> AwsCroniter:
    """A parsed cron expression (parsing costs more than stepping, and a schedule is stepped often)."""
    try:
        return AwsCroniter(fields)
    except Exception as err:  # aws-croniter raises several types for invalid fields
        raise ExpressionError(f"invalid cron expression cron({fields}): {err}") from None


def local_to_utc(wall: datetime, tz: ZoneInfo) -> datetime | None:
    """A naive local wall time in `tz` as UTC; None if that wall time does not exist (DST gap).
    A repeated wall time (DST overlap) maps to its first occurrence."""
    aware = wall.replace(tzinfo=tz, fold=0)
    utc = aware.astimezone(UTC)
    if utc.astimezone(tz).replace(tzinfo=None) != wall:
        return None
    return utc


def next_fire(timing: ScheduleTiming, after: datetime) -> datetime | None:
    """The first fire time strictly after `after` (aware), or None if the schedule never fires again."""
    validate(timing)
    after = after.astimezone(UTC)
    expression = timing.expression.strip()
    tz = zone(timing.timezone)
    if m := _AT.match(expression):
        wall = datetime.fromisoformat(m.group(1))
        when = wall.replace(tzinfo=tz, fold=0).astimezone(UTC)
        return when if when > after else None
    if timing.start is not None and after < timing.start:
        after = timing.start - timedelta(microseconds=1)
    if m := _RATE.match(expression):
        found = _next_rate(int(m.group(1)) * _UNIT_SECONDS[m.group(2).rstrip("s")], timing, after)
    else:
        m = _CRON.match(expression)
        assert m is not None
        found = _next_cron(_cron(m.group(1).strip()), tz, after)
    if found is None or (timing.end is not None and found > timing.end):
        return None
    return found


def fires_between(timing: ScheduleTiming, after: datetime, until: datetime, limit: int = 100_000) -> list[datetime]:
    """Every fire time t with after < t <= until, in order."""
    out: list[datetime] = []
    cursor = after
    while len(out) < limit:
        when = next_fire(timing, cursor)
        if when is None or when > until:
            break
        out.append(when)
        cursor = when
    return out


def _next_rate(interval_seconds: int, timing: ScheduleTiming, after: datetime) -> datetime | None:
    anchor = timing.start or timing.anchor
    if anchor is None:
        raise ExpressionError("a rate() schedule needs a StartDate or an anchor")
    anchor = anchor.astimezone(UTC)
    if after < anchor:
        return anchor
    steps = int((after - anchor).total_seconds() // interval_seconds) + 1
    return anchor + timedelta(seconds=steps * interval_seconds)


def _next_cron(cron: AwsCroniter, tz: ZoneInfo, after: datetime) -> datetime | None:
    # aws-croniter has no zones: step through local wall times (tagged UTC for the library) and keep
    # the first that exists and lies after `after` once placed in the zone. Cron fires on whole minutes, and
    # aws-croniter skips a fire when asked from a sub-second instant just before it (9:00 asked from
    # 08:59:59.999999 answers 9:00 the next day), so it is asked from the whole minute at or before `after`.
    wall = after.astimezone(tz).replace(tzinfo=UTC, second=0, microsecond=0)
    for _ in range(_MAX_CRON_STEPS):
        (candidate,) = cron.get_next(wall)
        if candidate is None:
            return None
        wall = candidate
        utc = local_to_utc(candidate.replace(tzinfo=None), tz)
        if utc is not None and utc > after:
            return utc
    return None
