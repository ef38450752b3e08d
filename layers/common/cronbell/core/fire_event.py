"""The fire function's input: what Scheduler sends (the fire contract), validated."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from cronbell.core.instants import iso_utc, parse_iso


class BadFireEvent(ValueError):
    pass


@dataclass(frozen=True)
class FireEvent:
    room_id: str
    reminder_id: str
    slot: str  # the scheduled time, RFC3339 UTC: with reminder_id, the unit of exactly-once
    execution_id: str = ""
    attempt: int = 1


def _text(event: dict[str, Any], key: str, required: bool = True) -> str:
    value = event.get(key, "")
    if not isinstance(value, str) or (required and not value.strip()) or len(value) > 255:
        raise BadFireEvent(f"`{key}` must be a non-empty string")
    return value.strip()


def parse_fire_event(event: Any, now: datetime) -> FireEvent:
    """Scheduler's Input with its context attributes filled in. A `scheduled_time` that is not
    an instant (an unfilled placeholder, a hand-made test event) means now."""
    if not isinstance(event, dict):
        raise BadFireEvent("the fire input must be a JSON object")
    room_id = _text(event, "room_id")
    reminder_id = _text(event, "reminder_id")
    raw_time = event.get("scheduled_time")
    try:
        slot = iso_utc(parse_iso(raw_time)) if isinstance(raw_time, str) else iso_utc(now)
    except ValueError:
        slot = iso_utc(now)
    attempt_raw = event.get("attempt", 1)
    try:
        attempt = int(attempt_raw) if isinstance(attempt_raw, (int, str)) else 1
    except ValueError:
        attempt = 1
    execution = event.get("execution_id", "")
    return FireEvent(
        room_id=room_id,
        reminder_id=reminder_id,
        slot=slot,
        execution_id=execution if isinstance(execution, str) else "",
        attempt=attempt,
    )
