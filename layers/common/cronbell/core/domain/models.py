"""The schedule as cronbell stores it, and the small value types around it."""

from __future__ import annotations

import hashlib
import secrets
import unicodedata
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from cronbell.core.domain.instants import parse_iso, stored_second
from cronbell.core.domain.timing import Timing
from cronbell.core.values import value

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
COMPLETED = "completed"  # recurring, reached its end (`until` or `count`)
FAILED = "failed"  # Scheduler refused its entries (`status_reason` scheduler_refused): it never fires
SCHEDULER_REFUSED = "scheduler_refused"

LIVE_STATUSES = (ACTIVE, PAUSED)  # count against the room limit, own Scheduler entries
# the final statuses a schedule reaches through its own runs (never through its owner, as deleted)
RAN_OUT = (FIRED, COMPLETED, MISSED, DELIVERY_FAILED)

_ID_ALPHABET = "23456789abcdefghjkmnpqrstuvwxyz"  # no 0/o, 1/l/i: easy to read back
ID_LENGTH = 10


def new_id() -> str:
    """A short, lowercase, unambiguous id that is also a valid Scheduler schedule name."""
    return "".join(secrets.choice(_ID_ALPHABET) for _ in range(ID_LENGTH))


def looks_like_id(text: str) -> bool:
    return len(text) == ID_LENGTH and all(c in _ID_ALPHABET for c in text)


@value
class Entry:
    """One EventBridge Scheduler schedule that fires a cronbell schedule."""

    name: str
    expression: str  # at(...) or cron(...)
    timezone: str
    one_time: bool
    end_date: datetime | None = None  # Scheduler's EndDate: a recurring entry fires nothing after it
    repeat_of: str = ""  # a repeat's entry (core/domain/repeats.py): the occurrence it posts again (RFC3339 UTC)
    repeat: int = 0  # and which post after it (the escalation: repeat_times + 1)
    release_user: str = ""  # a quiet-hours release's entry: whose held occurrences it posts
    release_until: str = ""  # and the end of their period (RFC3339 UTC)


@dataclass
class Schedule:
    """One schedule of a room: who asked, what it does, and when (`timing`)."""

    id: str
    room_id: str
    user_id: str
    agent_id: str
    kind: str
    timing: Timing
    locale: str
    created_at: datetime
    updated_at: datetime | None = None  # the last change
    text: str = ""  # message text (MESSAGE)
    prompt: str = ""  # prompt (AGENT_CALL)
    name: str = ""
    skills: list[str] = field(default_factory=list)
    channel: str = ""  # output room; defaults to room_id
    thread_id: str = ""  # the thread of room_id its posts go into ("" = the main timeline)
    target_agent: str = ""
    agent_timeout_seconds: int = 0  # 0: the deployment default
    status: str = ACTIVE
    fire_count: int = 0
    last_fired_at: datetime | None = None
    fired_at: datetime | None = None  # a one-shot's delivery
    status_reason: str = ""
    dedupe_key: str = ""
    version: int = 0  # bumped by every change: the condition of optimistic updates
    last_run: dict[str, Any] | None = None  # the latest run (core.domain.runs.Run as a dict)
    failure_streak: int = 0  # failed runs in a row; 0 after a delivered one
    last_answer: dict[str, str] | None = None  # the last delivered agent answer: the next `previous`
    last_manual_run: str = ""  # RFC3339 UTC slot of the last run started by hand (run_now)
    # runs started by hand while another delivery of the schedule was under way: their slots wait
    # for that delivery to end (an entry of their own, `projection`), then are delivered in turn
    manual_waiting: frozenset[str] = frozenset()
    delivered_count: int = 0  # regular (not run_now) runs delivered: what `count` counts
    # the delivery ledger's count of attempts at the slot last claimed and not finished: Lambda's
    # asynchronous retries do not say which attempt an invocation is
    inflight_slot: str = ""
    inflight_attempts: int = 0
    inflight_until: datetime | None = None  # end of the open claim's lease: a delivery holds it until then
    # an agent's answer ({slot, text}) that its attempt could not post (the chat failed for now): Lambda's
    # retry of that slot posts it, without asking the agent again
    inflight_answer: dict[str, str] | None = None

    def kept_answer(self, slot: str) -> str:
        """The answer an earlier attempt at `slot` got from its agent and could not post ("" for none)."""
        kept = self.inflight_answer or {}
        return str(kept.get("text") or "") if kept.get("slot") == slot else ""

    # repeat until done (core/domain/repeats.py): minutes between posts (0: none), how many, whom to tell
    repeat_every: int = 0
    repeat_times: int = 0
    escalate_to: str = ""  # a user id mentioned in the room, or a room key
    repeat_slot: str = ""  # RFC3339 UTC of the occurrence that repeats now ("" = none)
    # a one-shot reminder whose time its user set while that time fell in their own quiet hours:
    # never held (docs/semantics.md, "Quiet hours")
    quiet_exempt: bool = False
    # whether its user had quiet hours in its room when it was written (or set them since): a
    # reminder's fire reads the user's rule only when True, or None (written before this was kept),
    # so a user who never set any pays no read for them
    quiet_hours_set: bool | None = None
    # the release times (RFC3339 UTC: the ends of their periods) of its occurrences held by quiet
    # hours now, waiting for their release; written by the hold and the release alone
    releases: frozenset[str] = frozenset()

    @property
    def recurring(self) -> bool:
        return self.timing.recurring

    def held(self, now: datetime) -> bool:
        """Whether a delivery held the schedule when it was read (its claim's lease not over at `now`)."""
        return self.inflight_until is not None and self.inflight_until >= stored_second(now)

    def delivery_attempt(self, slot: str) -> int:
        """The number of the attempt about to claim `slot`: 1 for the first."""
        return self.inflight_attempts + 1 if self.inflight_slot == slot else 1

    @property
    def timezone(self) -> str:
        return self.timing.zone

    def last_regular(self, name: str = "scheduled_time") -> datetime | None:
        """A time (`scheduled_time`, `moved_from`) of its last run when that run is a regular one."""
        last = self.last_run or {}
        if last.get("manual") or not last.get(name):
            return None
        try:
            return parse_iso(str(last[name]))
        except ValueError:
            return None

    @property
    def done_through(self) -> datetime | None:
        """The watermark of the occurrences that ran: the original time (`moved_from`, else the scheduled
        time) of its last regular run; None without one. An occurrence whose original time is at or before
        it is done, wherever a later change of `on_holiday` moved it (moves keep the order of occurrences).
        None too when nothing moves and its last run was not moved: every occurrence after that run is
        still to come, and a fire need not look for the occurrence it is. Never before the schedule was
        made: a time before that is none of its occurrences, wherever `on_holiday` would move it."""
        moved = self.last_regular("moved_from")
        if moved is None and not self.timing.rules.moves:
            return None
        ran = moved or self.last_regular()
        return self.created_at if ran is None else max(ran, self.created_at)

    @property
    def output_room(self) -> str:
        return self.channel or self.room_id

    @property
    def output_thread(self) -> str:
        """The thread posts go into: the schedule's thread when they go to its own room; an answer
        sent to another room goes to that room's main timeline."""
        return self.thread_id if self.output_room == self.room_id else ""

    @property
    def body(self) -> str:
        return self.prompt if self.kind == AGENT_CALL else self.text

    @property
    def scheduler_names(self) -> list[str]:
        names = scheduler_names(self.id, len(self.timing.expressions))
        return [*names, *(snooze_name(self.id, i) for i in range(len(self.timing.snoozes)))]

    def entries(self) -> list[Entry]:
        """The Scheduler entries this schedule owns while live."""
        if self.status not in LIVE_STATUSES:
            return []
        timing = self.timing
        names = scheduler_names(self.id, len(timing.expressions))
        zone, once = timing.expression_zone, not timing.recurring
        end = end_date(timing.until) if timing.recurring else None
        out = [Entry(n, e, zone, once, end) for n, e in zip(names, timing.expressions, strict=True)]
        for i, expression in enumerate(timing.snooze_expressions):
            out.append(Entry(snooze_name(self.id, i), expression, "UTC", True))
        return out

    def with_dedupe_key(self) -> Schedule:
        """Same action, same timing, same zone, same target, output room and thread, and for a reminder
        the same person reminded: the same key. Two people asking for the same reminder get two."""
        reminded = self.user_id if self.kind == MESSAGE else ""
        # the thread counts as part of the output place (keys of schedules without one are unchanged)
        place = self.output_room + (f"\x1f{self.output_thread}" if self.output_thread else "")
        when = self.timing.text + ends_text(self.timing)  # a schedule without ends keeps its key
        self.dedupe_key = dedupe_key(self.kind, self.body, when, self.timezone, self.target_agent, place, reminded)
        return self


def end_date(until: datetime | None) -> datetime | None:
    """The EndDate of a recurring entry that ends at `until`: a minute later, so an occurrence at
    `until` itself still fires (Scheduler fires only before EndDate; the fire function refuses
    anything after `until` either way)."""
    return None if until is None else until + timedelta(minutes=1)


def ends_text(timing: Timing) -> str:
    """The ends and calendar as part of a dedupe key ("" when there are none)."""
    if not (timing.has_end or timing.calendar):
        return ""
    until = timing.until.isoformat() if timing.until else ""
    rules = timing.rules
    business = f"\x1f{rules.business_days:d}\x1f{rules.business_day}\x1f{rules.on_holiday}" if rules.any else ""
    return f"\x1f{until}\x1f{timing.count}\x1f{timing.calendar}{business}"


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
    numbered = rest.removeprefix("-snooze")
    if rest == "" or numbered == "" or (numbered[1:].isdigit() and numbered.startswith("-")):
        return base
    return None


def snooze_name(schedule_id: str, index: int = 0) -> str:
    """The extra one-time entries that deliver snoozed occurrences of a recurring schedule:
    id-snooze, then id-snooze-2, id-snooze-3..."""
    return f"{schedule_id}-snooze" + (f"-{index + 1}" if index else "")


def name_fold(name: str) -> str:
    """A name as names are compared: NFKC, case folded, without format characters (zero-width
    spaces and joiners, byte-order marks), spacing collapsed. Two names that read the same are one."""
    text = unicodedata.normalize("NFKC", name)
    text = "".join(c for c in text if unicodedata.category(c) != "Cf")
    return " ".join(unicodedata.normalize("NFKC", text.casefold()).split())


def name_key(name: str) -> str:
    """The key a live schedule's name holds in its room: names are unique as name_fold compares them
    (a plain name keeps the key it had when only case and spacing were folded)."""
    return hashlib.sha256(name_fold(name).encode()).hexdigest()[:24]


def dedupe_key(kind: str, body: str, when: str, timezone: str, target: str, channel: str, reminded: str) -> str:
    """The key an identical live schedule holds. An agent call's key is as it always was, so
    pointers written before `reminded` counted still dedupe."""
    parts = (kind, body.strip(), when, timezone, target, channel, *((reminded,) if reminded else ()))
    raw = "\x1f".join(parts)
    return hashlib.sha256(raw.encode()).hexdigest()[:24]
