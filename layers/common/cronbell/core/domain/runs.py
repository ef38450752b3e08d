"""Runs: what happened to each occurrence that reached the fire function, and the failure policy.

Pure: the fire use case gives the facts (times, what delivery did) and gets back the run to
record, the schedule's new streak and what to tell the room.
"""

from __future__ import annotations

from dataclasses import asdict
from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo

from cronbell.core.domain.instants import parse_iso
from cronbell.core.values import value

# outcomes
DELIVERED, FAILED, SKIPPED, MISSED = "delivered", "failed", "skipped", "missed"
OUTCOMES = (DELIVERED, FAILED, SKIPPED, MISSED)
# reasons
AGENT_TIMEOUT, AGENT_ERROR = "agent_timeout", "agent_error"
CHAT_REFUSED, CHAT_ERROR, TOO_LARGE = "chat_refused", "chat_error", "too_large"
UNKNOWN_WORKSPACE = "unknown_workspace"  # the room's workspace has no bot token in this deployment
# a post the platform refused, this one alone: it never pauses the schedule. A workspace without a token
# is refused every time until the deployment changes, so it counts towards the pause, as a removed platform
REFUSED = (CHAT_REFUSED, TOO_LARGE)
EMPTY_ANSWER, SKIP_NEXT, SNOOZED, HOLIDAY, PAUSED = "empty_answer", "skip_next", "snoozed", "holiday", "paused"
TOO_LATE, LOST = "too_late", "lost"
QUIET_HOURS = "quiet_hours"  # delivered by the release of its user's quiet hours

LATE_NOTE_SECONDS = 300  # a one-shot more than this late says so in its message
PREVIOUS_TEXT_CHARS = 4000  # how much of the last answer an agent is given as `previous`


@value
class Run:
    """One occurrence's ending, as `reminder_history` and `last_run` show it."""

    scheduled_time: str  # RFC3339 with the offset of the schedule's zone
    outcome: str
    reason: str | None = None
    manual: bool = False
    late_seconds: int = 0
    message_id: str | None = None
    moved_from: str | None = None  # RFC3339 in the zone: the original time of an occurrence `on_holiday` moved
    # repeat until done (core/domain/repeats.py); a run of a schedule that does not repeat has none of them
    acknowledged_at: str | None = None  # RFC3339 UTC of done_reminder on this occurrence
    repeats: int = 0  # posts after the first
    escalated: bool = False

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    def stored(self) -> dict[str, Any]:
        """The run as the store keeps it: the repeat fields only once they say something (a run of a
        schedule that does not repeat costs no more than before them); `from_dict` reads both."""
        data = asdict(self)
        for name, unset in _UNSET.items():
            if data[name] == unset:
                del data[name]
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Run:
        return cls(
            scheduled_time=str(data["scheduled_time"]),
            outcome=str(data["outcome"]),
            reason=str(data["reason"]) if data.get("reason") else None,
            manual=bool(data.get("manual", False)),
            late_seconds=int(data.get("late_seconds") or 0),
            message_id=str(data["message_id"]) if data.get("message_id") else None,
            moved_from=str(data["moved_from"]) if data.get("moved_from") else None,
            acknowledged_at=str(data["acknowledged_at"]) if data.get("acknowledged_at") else None,
            repeats=int(data.get("repeats") or 0),
            escalated=bool(data.get("escalated", False)),
        )


_UNSET: dict[str, Any] = {"acknowledged_at": None, "repeats": 0, "escalated": False}


def local_time(slot: str, zone: str) -> str:
    """A slot (RFC3339 UTC) in the schedule's zone, with its offset."""
    return parse_iso(slot).astimezone(ZoneInfo(zone)).isoformat(timespec="seconds")


def late_seconds(slot: str, started: datetime) -> int:
    """Start of delivery minus the scheduled time, never negative."""
    return max(0, int((started - parse_iso(slot)).total_seconds()))


def too_late(late: int, recurring: bool, manual: bool, max_lateness_minutes: int) -> bool:
    """A recurring, scheduled run that starts more than the allowed lateness after its time is
    not delivered; a one-shot always is (its only chance), and so is a run started by hand."""
    return recurring and not manual and max_lateness_minutes > 0 and late > max_lateness_minutes * 60


@value
class Verdict:
    """What a finished run does to its schedule: the new streak, and at most one notice."""

    streak: int
    notice: str | None = None  # failing | recovered | paused
    pause: bool = False


def judge(outcome: str, streak: int, auto_pause_after: int) -> Verdict:
    """The failure policy. The first failure of a streak is told once, later ones are silent;
    after `auto_pause_after` failures in a row the schedule pauses (told once); the first
    delivery after a streak says it works again. Skipped and missed runs leave the streak."""
    if outcome == FAILED:
        now_failing = streak + 1
        if auto_pause_after > 0 and now_failing >= auto_pause_after:
            return Verdict(now_failing, "paused", pause=True)
        return Verdict(now_failing, "failing" if now_failing == 1 else None)
    if outcome == DELIVERED:
        return Verdict(0, "recovered" if streak > 0 else None)
    return Verdict(streak)


def previous(scheduled_time: str, text: str) -> dict[str, str]:
    """The `previous` of an agent request: the last delivered answer, cut."""
    return {"scheduled_time": scheduled_time, "text": text[:PREVIOUS_TEXT_CHARS]}


@value
class History:
    """A run its schedule's item recorded and its slot does not hold yet (the ledger writes it from
    the table's stream): where, which slot, the fire's outcome and the run."""

    room_id: str
    owner: str
    slot: str
    outcome: str
    run: Run
