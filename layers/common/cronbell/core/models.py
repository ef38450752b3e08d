"""The schedule as cronbell stores it, and the small value types around it."""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import asdict, dataclass, field
from typing import Any

# kinds of action
MESSAGE = "message"  # post a reminder text to the room, mentioning the user
AGENT_CALL = "agent_call"  # give a prompt to an agent and post its answer

# statuses
ACTIVE = "active"
PAUSED = "paused"
FIRED = "fired"  # one-shot delivered
DELETED = "deleted"
MISSED = "missed"  # one-shot whose time passed without delivery
DELIVERY_FAILED = "delivery_failed"  # the chat platform refused permanently

LIVE_STATUSES = (ACTIVE, PAUSED)  # count against the room limit, own Scheduler entries

_ID_ALPHABET = "23456789abcdefghjkmnpqrstuvwxyz"  # no 0/o, 1/l/i: easy to read back
ID_LENGTH = 10


def new_id() -> str:
    """A short, lowercase, unambiguous id that is also a valid Scheduler schedule name."""
    return "".join(secrets.choice(_ID_ALPHABET) for _ in range(ID_LENGTH))


def looks_like_id(text: str) -> bool:
    return len(text) == ID_LENGTH and all(c in _ID_ALPHABET for c in text)


@dataclass(frozen=True)
class Entry:
    """One EventBridge Scheduler schedule that fires a cronbell schedule."""

    name: str
    expression: str  # at(...) or cron(...)
    timezone: str
    one_time: bool


@dataclass
class Schedule:
    """One schedule of a room. `at` (one-shot, local ISO time) or `cron` (recurring) is set."""

    id: str
    room_id: str
    user_id: str
    agent_id: str
    kind: str
    timezone: str
    locale: str
    created_at: str  # RFC3339 UTC
    updated_at: str = ""  # RFC3339 UTC of the last change
    text: str = ""  # message text (MESSAGE)
    prompt: str = ""  # prompt (AGENT_CALL)
    name: str = ""
    skills: list[str] = field(default_factory=list)
    channel: str = ""  # output room; defaults to room_id
    target_agent: str = ""
    agent_timeout_seconds: int = 0  # 0: the deployment default
    at: str = ""  # one-shot: local time with its offset, "2026-12-01T09:00:00+01:00"
    cron: str = ""  # recurring: normalized five-field expression
    cron_source: str = ""  # what the caller wrote, if it differs from `cron`
    expressions: list[str] = field(default_factory=list)  # Scheduler expressions, one per entry
    status: str = ACTIVE
    fire_count: int = 0
    last_fired_at: str = ""
    fired_at: str = ""
    status_reason: str = ""
    dedupe_key: str = ""
    version: int = 0  # bumped by every change: the condition of optimistic updates
    skip_slot: str = ""  # RFC3339 UTC of one occurrence not to deliver (skip_next)
    snooze_at: str = ""  # at(...) in UTC of an extra one-time entry (a snoozed occurrence)

    @property
    def recurring(self) -> bool:
        return bool(self.cron)

    @property
    def output_room(self) -> str:
        return self.channel or self.room_id

    @property
    def body(self) -> str:
        return self.prompt if self.kind == AGENT_CALL else self.text

    @property
    def scheduler_names(self) -> list[str]:
        names = scheduler_names(self.id, len(self.expressions) or 1)
        return [*names, snooze_name(self.id)] if self.snooze_at else names

    def entries(self) -> list[Entry]:
        """The Scheduler entries this schedule owns while live. One-shots are `at()` in UTC, so
        an instant in a repeated DST hour is never ambiguous; cron runs in the schedule's zone."""
        if self.status not in LIVE_STATUSES:
            return []
        zone = self.timezone if self.recurring else "UTC"
        names = scheduler_names(self.id, len(self.expressions))
        out = [Entry(n, e, zone, not self.recurring) for n, e in zip(names, self.expressions, strict=True)]
        if self.snooze_at:
            out.append(Entry(snooze_name(self.id), self.snooze_at, "UTC", True))
        return out

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Schedule:
        known = cls.__dataclass_fields__
        return cls(**{k: v for k, v in data.items() if k in known})


def scheduler_names(schedule_id: str, count: int) -> list[str]:
    """Scheduler entry names of a schedule: the id, then id-2, id-3... for extra entries."""
    return [schedule_id] + [f"{schedule_id}-{i}" for i in range(2, count + 1)]


def owner_of(entry_name: str) -> str | None:
    """The schedule id an entry name belongs to, if it is one of ours (static schedules from the
    template have other names)."""
    base = entry_name.split("-", 1)[0]
    if not looks_like_id(base):
        return None
    rest = entry_name[len(base) :]
    return base if rest in ("", "-snooze") or (rest[1:].isdigit() and rest.startswith("-")) else None


def snooze_name(schedule_id: str) -> str:
    """The extra one-time entry that delivers a snoozed occurrence of a recurring schedule."""
    return f"{schedule_id}-snooze"


def dedupe_key(kind: str, body: str, when: str, timezone: str, target: str, channel: str) -> str:
    """Same action, same schedule, same zone, same room output: the same key."""
    raw = "\x1f".join((kind, body.strip(), when, timezone, target, channel))
    return hashlib.sha256(raw.encode()).hexdigest()[:24]
