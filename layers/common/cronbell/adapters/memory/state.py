"""What the in-memory store keeps, shared by its parts: each part is one concern of the store,
and `MemoryStore` inherits every part, as `DynamoStore` does."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from cronbell.core.domain import models
from cronbell.core.domain.models import Schedule
from cronbell.core.domain.ports import Finish, RoomCount
from cronbell.core.domain.quiet_hours import QuietHours
from cronbell.core.domain.runs import Run
from cronbell.core.values import value

CLAIMED, SENT, DONE = "claimed", "sent", "done"
HELD, OPEN = "held", "open"  # a slot held by quiet hours; a release whose claim was given back
Key = tuple[str, str]  # (room, schedule id)


@dataclass
class Slot:
    state: str
    claimed_at: datetime | None = None
    lease_until: datetime | None = None
    message_id: str | None = None
    noted: Finish | None = None
    outcome: str = ""
    run: Run | None = None


@value
class Release:
    state: str
    lease_until: datetime | None = None
    attempts: int = 0


def lease_ended(lease_until: datetime | None, now: datetime) -> bool:
    """Whether a claim's lease is over at `now` (a claim without one never held anything)."""
    return lease_until is None or lease_until < now


def pointer_keys(schedule: Schedule) -> list[str]:
    """The keys of the room a live schedule holds: its dedupe key (first), and its name."""
    return [f"d#{schedule.dedupe_key}", *([f"n#{models.name_key(schedule.name)}"] if schedule.name else [])]


def idle(schedule: Schedule, now: datetime) -> bool:
    return not schedule.held(now)


class State:
    """The dictionaries every part reads and writes."""

    def __init__(self) -> None:
        self._live: dict[Key, Schedule] = {}
        self._copies: dict[Key, Schedule] = {}  # audit copies of live schedules, retired schedules
        self._counts: dict[str, RoomCount] = {}
        self._pointers: dict[tuple[str, str], str] = {}  # (room, key) -> schedule id
        self._slots: dict[tuple[str, str, str], Slot] = {}  # (room, owner, slot)
        self._quiet: dict[Key, QuietHours] = {}
        self._held: set[tuple[str, str, str, str, str]] = set()  # (room, user, until, schedule id, slot)
        self._releases: dict[tuple[str, str, str], Release] = {}  # (room, user, until)
        self.orphans: list[tuple[str, str, tuple[str, ...]]] = []  # entries marked for the projection to remove
