"""An independent reading of a five-field cron expression: croniter walks local wall times in the zone,
and each is placed on the timeline as Scheduler does (a wall time that does not exist is skipped, one that
happens twice fires once, at its first occurrence)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

from croniter import croniter


def wall_time_to_utc(wall: datetime, tz: ZoneInfo) -> datetime | None:
    aware = wall.replace(tzinfo=tz, fold=0)
    back = aware.astimezone(UTC).astimezone(tz).replace(tzinfo=None)
    return aware.astimezone(UTC) if back == wall else None


def cron_fires(expression: str, timezone: str, after: datetime, until: datetime) -> list[datetime]:
    """Every fire t of the five-field `expression` in `timezone` with after < t <= until (aware UTC)."""
    tz = ZoneInfo(timezone)
    # start a day early in wall time, so no occurrence next to a DST change is missed, then filter
    walk = croniter(expression, (after.astimezone(tz) - timedelta(days=1)).replace(tzinfo=None))
    limit = (until.astimezone(tz) + timedelta(days=1)).replace(tzinfo=None)
    out: list[datetime] = []
    while (wall := walk.get_next(datetime)) <= limit:
        when = wall_time_to_utc(wall, tz)
        if when is not None and after < when <= until:
            out.append(when)
    return out
