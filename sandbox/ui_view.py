"""The console's view: what the page shows of the rooms, their schedules and the clock, read once per
request (sandbox/ui.py reads it; sandbox/ui_page.py and sandbox/ui_rooms.py render it)."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any


@dataclass
class Room:
    room_id: str
    schedules: list[dict[str, Any]] = field(default_factory=list)  # list_reminders items, with what the table adds
    error: str = ""
    quiet: list[dict[str, Any]] = field(default_factory=list)  # each user's get_quiet_hours result, `user_id`, `held`


@dataclass
class Console:
    now: datetime
    timezone: str
    virtual: bool
    next_fire: datetime | None
    rooms: list[Room]
    fires: list[dict[str, Any]]
    messages: list[dict[str, Any]]
    room_filter: str = ""
    all_rooms: list[str] = field(default_factory=list)
    events: list[dict[str, Any]] = field(default_factory=list)
    dead_letters: list[dict[str, Any]] = field(default_factory=list)
    history: tuple[str, list[dict[str, Any]], str] | None = None  # schedule id, its runs (newest first), error
