"""What the use cases need from the outside world, in the domain's words.

The store (schedules, the slot ledger, reconciliation scans), the Scheduler entries and the agents
are small interfaces here; `cronbell.adapters` implements them. Adapters translate their SDK's
failures into the exceptions below and in `errors.py`, so no use case knows which SDK sits behind an
interface.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from enum import StrEnum
from typing import TYPE_CHECKING, Any, Protocol

from cronbell.core.domain import runs
from cronbell.core.domain.messages import ChatMessage
from cronbell.core.domain.models import Schedule
from cronbell.core.domain.phrases import Phrase
from cronbell.core.domain.quiet_hours import QuietHours
from cronbell.core.domain.runs import Run
from cronbell.core.values import value

if TYPE_CHECKING:  # the projector's own module: a fire or a tool call never loads it for this
    from cronbell.core.domain.projection import Target


# --- chat delivery ---------------------------------------------------------------------------
class TransientChatError(Exception):
    """Delivery may succeed later: rate limited past the deadline, 5xx, timeout, connection error."""


class PermanentChatError(Exception):
    """Delivery will not succeed by retrying (bad token, not in the room, ...): record it, do not retry.

    `reason` is short and safe to log and store: an error code and status, never a token or message text.
    `room_gone`: the room itself is gone or closed to the bot (deleted, left, forbidden), so later runs
    will fail too; any other permanent refusal concerns this one message only.
    """

    def __init__(self, reason: str, room_gone: bool = False) -> None:
        super().__init__(reason)
        self.reason = reason
        self.room_gone = room_gone

    @property
    def run_reason(self) -> str:
        """The failed run's reason: `too_large` for a message the platform finds too large, else `chat_refused`."""
        return runs.TOO_LARGE if "TOO_LARGE" in self.reason.upper() else runs.CHAT_REFUSED


class UnknownWorkspace(PermanentChatError):
    """The room's workspace has no bot token here (not in the token map, not in the installation store):
    the post is never made with another workspace's token."""

    run_reason = runs.UNKNOWN_WORKSPACE

    def __init__(self) -> None:
        super().__init__("no bot token for the room's workspace")


class ChatSender(Protocol):
    def send(self, message: ChatMessage, idempotency_key: str, deadline: float | None = None) -> str:
        """Post the message; returns the platform's message id.

        The same `idempotency_key` must not post twice. `deadline` is a `time.monotonic()` value past
        which the sender must not wait (for a rate limit or a slow server).
        """
        ...


class AgentError(Exception):
    """The agent failed or could not be reached; `said` says why, short and safe to show: a catalog
    phrase (said in the room's language in its notice, in English in the log and the run) or a text."""

    def __init__(self, said: str | Phrase) -> None:
        super().__init__(said.key if isinstance(said, Phrase) else said)
        self.said = said


class AgentTimeout(AgentError):
    pass


class UnknownAgent(AgentError):
    pass


# --- outcomes --------------------------------------------------------------------------------
class Claim(StrEnum):
    """What claiming one (schedule, scheduled time) slot for delivery found."""

    CLAIMED = "claimed"  # this attempt delivers it
    DUPLICATE = "duplicate"  # done already
    HELD = "held"  # claimed by an attempt whose lease is not over (running, or dead and not yet known)
    BUSY = "busy"  # another slot of the schedule is being delivered
    INACTIVE = "inactive"  # the schedule is no longer active
    SENT = "sent"  # an earlier attempt ended its run but could not record it: record what it noted
    CHANGED = "changed"  # the schedule changed since it was read: read it again and decide again


class RepeatClaim(StrEnum):
    """What claiming one repeat (or the escalation) of an occurrence found."""

    CLAIMED = "claimed"  # this attempt posts it
    DUPLICATE = "duplicate"  # posted already (a duplicate or a retry): the chain goes on
    ACKNOWLEDGED = "acknowledged"  # the occurrence was acknowledged: the chain ends
    STOPPED = "stopped"  # no longer the current occurrence, or the schedule paused or deleted: it ends


class Outcome(StrEnum):
    """How one fire ended: the fire function's answer, its log and its metrics say which."""

    DELIVERED = "delivered"
    DUPLICATE = "duplicate"
    UNKNOWN = "unknown_schedule"
    INACTIVE = "inactive"
    PAUSED = "paused"
    DELIVERY_FAILED = "delivery_failed"
    NOTHING_TO_POST = "empty_answer"
    NO_AGENTS = "no_agents_configured"
    INVALID_INPUT = "invalid_input"
    SKIPPED = "skipped"  # skip_next, or the occurrence a snooze moved
    FAILED = "failed"  # the agent failed: recorded as a failed run, not as delivered
    MISSED = "missed"  # a recurring run that started too late to be worth posting
    PLATFORM_GONE = "platform_not_configured"  # its room's chat platform was removed from the deployment
    FORBIDDEN_CHANNEL = "forbidden_channel"  # its output room is no longer allowed by the deployment
    OFF_INTERVAL = "off_interval"  # the off week or day of an every-N schedule: no occurrence, no run
    COMPLETED = "completed"  # past its end (`until`, `count`): nothing sent, the schedule completed
    HELD = "held"  # in its user's quiet hours: posted by the release at the end of the period
    RELEASED = "released"  # a quiet-hours release posted what was held
    AWAITS_RELEASE = "awaits_release"  # its `count` is used by held occurrences: the release completes it
    WAITING = "waiting"  # a run started by hand waits in the item for the delivery under way


# --- values the store hands back -------------------------------------------------------------
@value
class RoomCount:
    live: int
    rev: int | None  # None: written before revisions were kept


@value
class Pointer:
    """A pointer naming the live schedule that holds a key of the room: a dedupe key (action,
    time, zone, person) or a name."""

    room_id: str
    key: str
    schedule_id: str
    kind: str = "dedupe"  # dedupe | name


@value
class Finish:
    """What completing a slot records besides the slot: its run and, for a stored schedule, the
    streak and pause the failure policy decided and the answer the next run is given. `room_gone`:
    the platform said no later run can post there (the schedule ends)."""

    run: Run
    streak: int = 0
    pause: bool = False
    answer: dict[str, str] | None = None
    room_gone: bool = False
    repeat_slot: str | None = None  # the occurrence that repeats from now on ("" stops; None: unchanged)
    repeat_due: str = ""  # with repeat_slot: when its first repeat is due (RFC3339 UTC), kept on its slot
    counted: bool = False  # a held occurrence's run: its hold counted it against `count` already
    held_ahead: int = 0  # with counted: its schedule's held runs its release records from this one on
    release: str = ""  # and the end of its period (RFC3339 UTC): no longer one of the schedule's releases


@value
class OpenClaim:
    """A slot an attempt claimed and did not complete: a delivery under way, or one whose every
    attempt died."""

    room_id: str
    owner: str  # the schedule's id, or a template schedule's name
    slot: str  # the occurrence as Scheduler names it (UTC)
    claimed_at: datetime
    message_id: str | None = None  # set when the message went out before the attempt died
    noted: Finish | None = None  # the run (and verdict) an attempt ended and could not record
    on_schedule: bool = False  # found as its schedule's mark alone (`claimed_at`: when its lease ends)


@dataclass
class TableScan:
    schedules: list[Schedule] = field(default_factory=list)
    counters: dict[str, int] = field(default_factory=dict)
    pointers: list[Pointer] = field(default_factory=list)
    deleted: list[Schedule] = field(default_factory=list)  # audit copies still live, no live item: deleted
    uncopied: list[Schedule] = field(default_factory=list)  # live schedules written before audit copies
    claims: list[OpenClaim] = field(default_factory=list)
    # occurrences held by quiet hours, by release (room, user, end of the period): (schedule id, slot)
    held: dict[tuple[str, str, str], list[tuple[str, str]]] = field(default_factory=dict)
    released: set[tuple[str, str, str]] = field(default_factory=set)  # the releases done
    quiet_users: dict[str, set[str]] = field(default_factory=dict)  # by room: the users with quiet hours


@value
class EntryState:
    name: str
    state: str  # ENABLED | DISABLED


# --- interfaces ------------------------------------------------------------------------------
class Schedules(Protocol):
    """The room's schedules: read, created, changed, skipped, deleted, retired. Each write is
    conditioned on the schedule as read (Conflict, Gone) and keeps the room's limit (LimitReached)
    and its keys (Duplicate, NameTaken) atomically with it."""

    def get(self, room_id: str, schedule_id: str) -> Schedule | None: ...
    def list_room(self, room_id: str, now: datetime, retired: bool = False) -> list[Schedule]: ...
    def insert(self, schedule: Schedule, max_per_room: int) -> None: ...
    def replace(self, old: Schedule, new: Schedule, max_per_room: int, now: datetime) -> None: ...
    def set_skip(self, schedule: Schedule, slot: str, now: datetime) -> None: ...
    def mark_manual_run(self, schedule: Schedule, slot: str, not_since: str) -> None: ...
    def wait_manual(self, schedule: Schedule, slot: str, now: datetime) -> bool: ...
    def unmark_manual_run(self, schedule: Schedule, slot: str) -> None: ...
    def delete(self, room_id: str, schedule_id: str, now: datetime) -> Schedule: ...
    def retire(
        self,
        schedule: Schedule,
        status: str,
        now: datetime,
        reason: str = "",
        run: tuple[str, Run] | None = None,
        *,
        as_read: bool = False,
    ) -> None: ...


class Rooms(Protocol):
    """The room's live count: an upper bound kept with every create and retirement, recounted when
    a create finds the room full."""

    def room_count(self, room_id: str) -> RoomCount | None: ...
    def recount(self, room_id: str, seen: RoomCount | None) -> int | None: ...


class SlotLedger(Protocol):
    """Delivery slots: one (owner, scheduled time) is claimed before posting and done after.
    `schedule` is the stored schedule that owns the slot, or None for a template schedule (which
    has no item of its own; `owner` names it). Every write that also writes the schedule is
    conditioned on the schedule's version as read: CHANGED (claim) or Conflict (record) when a
    change landed since, so nothing is decided or recorded from a stale read. A fire reads its
    schedule and its slot together (`read_for_fire`: what the slot says already, None when it may be
    claimed) and then claims with `slot_read`, which the claim need not read again."""

    def read_for_fire(
        self, room_id: str, schedule_id: str, slot: str, now: datetime
    ) -> tuple[Schedule | None, Claim | None]: ...
    def claim_slot(
        self,
        room_id: str,
        owner: str,
        slot: str,
        now: datetime,
        lease_seconds: int,
        schedule: Schedule | None,
        slot_read: bool = False,
    ) -> Claim: ...
    def held_until(self, room_id: str, owner: str, slot: str) -> datetime | None: ...
    def mark_slot_sent(
        self,
        room_id: str,
        owner: str,
        slot: str,
        message_id: str,
        now: datetime,
        noted: Finish | None = None,
    ) -> bool: ...
    def open_claim(self, room_id: str, owner: str, slot: str) -> OpenClaim | None: ...
    def release_slot(
        self, room_id: str, owner: str, slot: str, schedule: Schedule | None, answer: str = ""
    ) -> None: ...
    def complete_slot(
        self,
        room_id: str,
        owner: str,
        slot: str,
        now: datetime,
        outcome: str,
        detail: str = "",
        schedule: Schedule | None = None,
        final_status: str = "",
        finish: Finish | None = None,
    ) -> None: ...


class Runs(Protocol):
    """The runs recorded on delivery slots (a slot's run, once), newest first."""

    def record_run(self, schedule: Schedule, slot: str, now: datetime, run: Run) -> bool: ...
    def record_static_run(self, room_id: str, owner: str, slot: str, now: datetime, run: Run) -> bool: ...
    def write_history(self, history: runs.History, now: datetime) -> None: ...
    def runs(self, room_id: str, owner: str, limit: int) -> list[Run]: ...
    def run_at(self, room_id: str, owner: str, slot: str) -> Run | None: ...


class Repeats(Protocol):
    """An occurrence's repeats and escalation (core/domain/repeats.py): each claimed once, until the
    occurrence is acknowledged or no longer the current one."""

    def claim_repeat(
        self,
        schedule: Schedule,
        occurrence: str,
        number: int,
        escalation: bool,
        following: tuple[int, str] | None = None,
    ) -> RepeatClaim: ...
    def defer_repeat(self, schedule: Schedule, occurrence: str, number: int, due: str) -> bool: ...
    def mark_orphan(self, room_id: str, schedule_id: str, names: tuple[str, ...], now: datetime) -> None: ...
    def release_repeat(self, schedule: Schedule, occurrence: str, number: int, escalation: bool) -> None: ...
    def acknowledge(self, schedule: Schedule, occurrence: str, now: datetime) -> bool: ...


class Scans(Protocol):
    """Whole-table reads and repairs for the reconciler."""

    def scan(self, now: datetime) -> TableScan: ...
    def move_retired(self, room_id: str, schedule_id: str, image: Mapping[str, Any] | None = None) -> bool: ...
    def finalize_deleted(self, schedule: Schedule, now: datetime) -> bool: ...
    def copy_audit(self, schedule: Schedule) -> bool: ...
    def drop_pointer(self, pointer: Pointer) -> bool: ...
    def close_claim(self, claim: OpenClaim, now: datetime, run: Run, schedule: Schedule | None) -> bool: ...


class QuietRules(Protocol):
    """Each user's quiet hours in a room: one period rule per (room, user), replaced as a whole."""

    def quiet_hours(self, room_id: str, user_id: str) -> QuietHours | None: ...
    def put_quiet_hours(self, room_id: str, user_id: str, rule: QuietHours) -> None: ...
    def clear_quiet_hours(self, room_id: str, user_id: str) -> bool:
        """Remove the rule; True when there was one."""
        ...

    def mark_quiet_hours(self, room_id: str, user_id: str) -> int:
        """Mark the user's reminders in the room as having quiet hours (`Schedule.quiet_hours_set`);
        how many were not marked yet."""
        ...


class Held(Protocol):
    """Occurrences held by quiet hours until the end of their user's period, and its release."""

    def hold_slot(self, schedule: Schedule, slot: str, now: datetime, until: str) -> None: ...
    def held(self, room_id: str, user_id: str, until: str) -> list[tuple[str, str]]: ...
    def drop_held(self, room_id: str, user_id: str, until: str, schedule_id: str, slot: str) -> None: ...
    def claim_release(self, room_id: str, user_id: str, until: str, now: datetime, lease_seconds: int) -> int: ...
    def release_held_until(self, room_id: str, user_id: str, until: str) -> datetime | None: ...
    def end_release(self, room_id: str, user_id: str, until: str, done: bool) -> None: ...


class Store(Schedules, Rooms, SlotLedger, Runs, Repeats, Scans, QuietRules, Held, Protocol):
    """Everything cronbell keeps, as the union of its concerns: use cases call `deps.store.<method>`;
    a function that needs one concern alone may ask for that port."""


class Entries(Protocol):
    """The EventBridge Scheduler entries that fire schedules (written by the projection alone)."""

    def put(self, target: Target, now: datetime, exists: bool = True) -> None: ...
    def drift(self, target: Target) -> str: ...
    def written_at(self, name: str) -> datetime | None: ...
    def list_entries(self) -> list[EntryState]: ...
    def delete_if_fires(self, name: str, room_id: str, schedule_id: str) -> bool: ...
    def delete(self, name: str) -> bool: ...


class Events(Protocol):
    """Where finished runs and policy pauses are announced (an EventBridge bus)."""

    def publish(self, detail_type: str, detail: dict[str, Any]) -> None: ...


class Agents(Protocol):
    """Target agents, called synchronously with a timeout; raises AgentError."""

    @property
    def configured(self) -> bool: ...

    def call(self, agent_id: str, request: dict[str, Any], timeout_seconds: int) -> str: ...
