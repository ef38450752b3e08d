"""When EventBridge Scheduler fires the entries moto holds, read independently of cronbell: an AWS
six-field cron (weekdays 1-7 from Sunday, `?`, `L`, `#`) is rewritten for croniter and walked over
local wall times in the entry's zone (tests/support/cron_oracle.py); `at()` is a wall time in its
zone; State, StartDate and EndDate apply."""

from __future__ import annotations

import json
import re
import uuid
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from tests.support.cron_oracle import cron_fires, wall_time_to_utc

DAY_NAMES = ("SUN", "MON", "TUE", "WED", "THU", "FRI", "SAT")


def _weekday(token: str) -> str:
    """One AWS weekday (1-7 from Sunday, or a name) as croniter's (0-6 from Sunday)."""
    if token.upper() in DAY_NAMES:
        return str(DAY_NAMES.index(token.upper()))
    return str(int(token) - 1)


def _weekdays(field: str) -> str:
    if field in ("?", "*"):
        return "*"
    out = []
    for part in field.split(","):
        if m := re.fullmatch(r"(\w+)#(\d)", part):
            out.append(f"{_weekday(m[1])}#{m[2]}")
        elif m := re.fullmatch(r"(\w+)L", part):
            out.append(f"L{_weekday(m[1])}")
        elif m := re.fullmatch(r"(\w+)-(\w+)(/\d+)?", part):
            out.append(f"{_weekday(m[1])}-{_weekday(m[2])}{m[3] or ''}")
        else:
            out.append(_weekday(part))
    return ",".join(out)


def five_fields(aws: str) -> str:
    """`cron(M H DOM MON DOW YEAR)`'s fields as a croniter expression (years other than * refused)."""
    minute, hour, dom, month, dow, year = aws.split()
    if year != "*" or "W" in dom:
        raise ValueError(f"not read by this oracle: {aws}")
    return " ".join([minute, hour, "*" if dom == "?" else dom, month, _weekdays(dow)])


@dataclass(frozen=True)
class Due:
    when: datetime  # UTC
    entry: str
    event: dict[str, Any]


def _slot_text(when: datetime) -> str:
    return when.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def entry_fires(entry: dict[str, Any], after: datetime, until: datetime) -> list[datetime]:
    """Every instant in (after, until] at which Scheduler fires this entry."""
    if entry.get("State", "ENABLED") != "ENABLED":
        return []
    expression = entry["ScheduleExpression"]
    tz = ZoneInfo(entry.get("ScheduleExpressionTimezone") or "UTC")
    start, end = entry.get("StartDate"), entry.get("EndDate")
    if m := re.fullmatch(r"at\((.+)\)", expression):
        wall = datetime.fromisoformat(m[1])
        when = wall_time_to_utc(wall, tz) or (wall + timedelta(hours=1)).replace(tzinfo=tz).astimezone(UTC)
        found = [when] if after < when <= until else []
    elif m := re.fullmatch(r"cron\((.+)\)", expression):
        found = cron_fires(five_fields(m[1]), str(tz), after, until)
    else:
        raise ValueError(f"not read by this oracle: {expression}")
    if start is not None:
        found = [t for t in found if t >= start]
    if end is not None:
        found = [t for t in found if t <= end]
    return found


def due(entries: dict[str, dict[str, Any]], after: datetime, until: datetime) -> list[Due]:
    """The fires of every entry in (after, until], in time order, with the Input Scheduler sends."""
    out = []
    for name, entry in entries.items():
        for when in entry_fires(entry, after, until):
            raw = entry["Target"]["Input"]
            raw = raw.replace("<aws.scheduler.scheduled-time>", _slot_text(when))
            raw = raw.replace("<aws.scheduler.execution-id>", str(uuid.uuid4()))
            raw = raw.replace("<aws.scheduler.attempt-number>", "1")
            out.append(Due(when, name, json.loads(raw)))
    return sorted(out, key=lambda d: (d.when, d.entry))
