"""The interleaving seam: a fire whose every boundary between two AWS calls can run a change tool.

A boundary is the instant after one of the fire's DynamoDB calls returned, or after its chat post.
The seam wraps the boto3 DynamoDB client that the fire's store uses and the chat sender it posts
with, so it needs no name of the fire's own functions: at boundary k it runs the change through
the real tools handler (the tools envelope, `functions/tools/app.py`), then lets the fire go on.

A cell (`play`) is: the schedule created through the tools handler; its first occurrence fired
through the real fire handler (`functions/fire/app.py`) with the change at boundary k, optionally
with the fire's next DynamoDB calls failing or its process killed with SIGKILL there; then every
later event, in time order on the fake clock: Lambda's retries of an attempt that raised (about 1
and then 2 minutes later, each attempt with the template's fire timeout as its remaining time), the
fire run_now started, and each fire Scheduler would send from the entries in moto (the moved
one-shot at its new time, the next occurrences, a snooze's one-time entry) up to the horizon. Every
invocation that ends hands its writes to the table's stream, which the projector applies as the cell
says (`tests/support/stream_play.py`: promptly, late, again, interleaved across items); Scheduler is
read only once every record is applied. What
the room saw, what the tools answered and the schedule's history become an `Observation`, judged by
`tests.support.interleave_verdict.verdict`.
"""

from __future__ import annotations

import contextlib
import copy
import dataclasses
import functools
import json
import random
import threading
import uuid
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from types import ModuleType
from typing import Any

from botocore.exceptions import ReadTimeoutError

from cronbell.adapters.chat.base import ChatMessage
from cronbell.adapters.dynamo import DynamoStore
from cronbell.usecases.deps import Deps
from sandbox.engine import fill_context
from sandbox.expressions import ScheduleTiming, next_fire
from tests.support import fire_worker
from tests.support.aws import START, Stack
from tests.support.envelopes import envelope
from tests.support.faults import FAILURES
from tests.support.handlers import LambdaContext, configure_env, load_handler
from tests.support.interleave_verdict import Answer, Change, Observation, Plan, Post, Reached, Run
from tests.support.lambda_timing import RETRY_GAPS_SECONDS, FileChat, fire_timeout_seconds
from tests.support.stream_play import Stream

_FIRE_TIMEOUT = fire_timeout_seconds()
BEFORE = -1  # the boundary before the fire's first call: the change, then the whole fire
ARRIVAL = timedelta(seconds=1)  # Scheduler's invoke reaches the function just after the slot
FAULT_MODES = ("throttling", "500", "timeout", "timeout after write")


def _utc(value: str) -> datetime:
    return datetime.fromisoformat(value.replace("Z", "+00:00")).astimezone(UTC)


@dataclass(frozen=True)
class Kind:
    """A schedule kind of the cells: how it is created and what it does (written out by hand)."""

    name: str
    tool: str
    args: dict[str, Any]
    plan: Plan
    pause_first: bool = False  # paused just before its first fire arrives (the invoke raced the pause)
    horizon: timedelta = timedelta(days=1, hours=3)  # Scheduler's fires are played this long after the first
    quiet: dict[str, Any] | None = None  # its user's quiet hours, set before the create (holding none of it)


@dataclass(frozen=True)
class Fault:
    """The fire's next `times` DynamoDB calls after the change fail (`mode` of FAULT_MODES), or,
    with mode `kill`, its process dies of SIGKILL at the change's boundary."""

    mode: str
    times: int = 1


@dataclass(frozen=True)
class Cell:
    kind: Kind
    changes: tuple[tuple[Change, int], ...]  # each change with the boundary of the first fire it runs at
    fault: Fault | None = None
    arrival: timedelta = ARRIVAL  # when the first fire starts, after its slot (negative: early)
    fault_at: int | None = None  # the boundary after which the fault begins (default: the last change's)
    stream: str = "prompt"  # how the projector meets the table's stream (tests/support/stream_play.py)
    seed: int = 0  # the stream's choices (which records come again, in which order)

    @property
    def label(self) -> str:
        parts = [self.kind.name, *(f"{c.tool}{json.dumps(c.args)}@{b}" for c, b in self.changes)]
        if self.fault_at is not None:
            parts.append(f"fault after boundary {self.fault_at}")
        if self.fault:
            parts.append(f"{self.fault.mode} x{self.fault.times}" if self.fault.mode != "kill" else "SIGKILL")
        if self.arrival != ARRIVAL:
            parts.append(f"arriving {self.arrival.total_seconds():+.0f}s")
        if self.stream != "prompt":
            parts.append(f"stream {self.stream} (seed {self.seed})")
        return " | ".join(parts)


# --- the cell's log ------------------------------------------------------------------------------


@dataclass
class Event:
    """One event handed to the fire function, and what became of Lambda's attempts at it."""

    payload: dict[str, Any]
    started_seq: int = -1
    ended_seq: int = -1
    outcomes: list[str] = field(default_factory=list)
    dead_lettered: bool = False

    @property
    def slot(self) -> datetime:
        return _utc(self.payload["scheduled_time"])

    @property
    def manual(self) -> bool:
        return self.payload.get("run_now") is True


@dataclass
class Log:
    """Everything the cell saw, in order (`seq`)."""

    seq: int = 0
    boundaries: list[str] = field(default_factory=list)  # the first attempt's boundaries
    posts: dict[str, Post] = field(default_factory=dict)  # by idempotency key: what the room shows
    sends: Counter[tuple[datetime, bool]] = field(default_factory=Counter)
    events: list[Event] = field(default_factory=list)
    answers: list[tuple[Change, Answer]] = field(default_factory=list)
    died_after_post: bool = False
    # a fault: how many more DynamoDB calls of the fires fail, once armed
    failing: int = 0
    failure: str = ""

    def tick(self) -> int:
        self.seq += 1
        return self.seq


class _Client:
    """The fire's DynamoDB client: each call is a boundary; armed faults fail the next calls."""

    def __init__(self, client: Any, attempt: Attempt) -> None:
        self._client = client
        self._attempt = attempt

    def __getattr__(self, name: str) -> Any:
        attr = getattr(self._client, name)
        if name in ("meta", "exceptions", "get_paginator") or not callable(attr):
            return attr

        def call(*args: Any, **kwargs: Any) -> Any:
            log = self._attempt.log
            if log.failing and log.failure != "timeout after write":
                log.failing -= 1
                log.tick()
                raise FAILURES[log.failure](name)
            out = attr(*args, **kwargs)
            if log.failing:  # the write was made; the answer never came back
                log.failing -= 1
                log.tick()
                raise ReadTimeoutError(endpoint_url="http://dynamodb")
            self._attempt.boundary(name)
            return out

        return call


class _Chat:
    """The fire's chat sender: like Matrix with a transaction id, a repeated key is posted once."""

    def __init__(self, attempt: Attempt) -> None:
        self._attempt = attempt

    def send(self, message: ChatMessage, idempotency_key: str, deadline: float | None = None) -> str:
        a = self._attempt
        event = a.event
        seq = a.log.tick()
        a.log.sends[(event.slot, event.manual)] += 1
        post = Post(seq, event.slot, event.manual, message.text, a.stack.clock.now())
        a.log.posts.setdefault(idempotency_key, post)
        a.boundary("post")
        return f"$ev-{idempotency_key}"


@dataclass
class Attempt:
    """One attempt of the fire function at one event, with a change waiting at one boundary."""

    stack: Stack
    log: Log
    event: Event
    hooks: dict[int, Callable[[], None]] = field(default_factory=dict)
    first: bool = False  # the first attempt of the first fire: its boundaries are the cell's
    count: int = 0
    pause: Callable[[], None] | None = None  # at every boundary: other calls run meanwhile

    def boundary(self, label: str) -> None:
        self.log.tick()
        if self.first:
            self.log.boundaries.append(label)
        hook = self.hooks.pop(self.count, None)
        self.count += 1
        if hook is not None:
            hook()
        if self.pause is not None:
            self.pause()

    def deps(self) -> Deps:
        s = self.stack.settings
        return self.stack.deps(
            store=DynamoStore(_Client(self.stack.ddb, self), s.table_name, s.retention_days),
            chat=lambda: _Chat(self),
            agents=fire_worker.EchoAgents(),
            sleep=lambda seconds: self.stack.clock.advance(seconds=seconds),
        )


class _FireContext(LambdaContext):
    """Lambda's context for one attempt: the template's fire timeout, counted on the fake clock."""

    def __init__(self, clock: Any) -> None:
        super().__init__(function_name="fire")
        self._clock = clock
        self._start = clock.now()
        self._timeout = _FIRE_TIMEOUT

    def get_remaining_time_in_millis(self) -> int:
        return int((self._timeout - (self._clock.now() - self._start).total_seconds()) * 1000)


_WIRED = threading.local()  # per thread: calls of one handler may be under way at once in several


@contextmanager
def _wired(module: ModuleType, deps: Deps) -> Iterator[None]:
    """The handler module's composition root answers `deps` for this one call (in this thread)."""
    if not hasattr(module, "wired_by_tests"):
        own = module.deps
        module.wired_by_tests = True  # type: ignore[attr-defined]
        module.deps = lambda: getattr(_WIRED, module.__name__, None) or own()  # type: ignore[attr-defined]
    before = getattr(_WIRED, module.__name__, None)
    setattr(_WIRED, module.__name__, deps)
    try:
        yield
    finally:
        setattr(_WIRED, module.__name__, before)


# --- a cell --------------------------------------------------------------------------------------


@dataclass
class Player:
    stack: Stack
    cell: Cell
    work: Path  # where a killed worker's chat file goes
    room: str
    log: Log = field(default_factory=Log)
    sid: str = ""
    pending: list[tuple[datetime, int, Event]] = field(default_factory=list)  # Lambda attempts to come
    attempts: dict[int, int] = field(default_factory=dict)  # id(event) -> attempts made
    started: list[dict[str, Any]] = field(default_factory=list)  # run_now's asynchronous fires
    _details: dict[tuple[str, Any], dict[str, Any]] = field(default_factory=dict)
    stream: Stream = field(init=False)

    def __post_init__(self) -> None:
        self.stream = Stream(self.stack, self.cell.stream, random.Random(self.cell.seed))

    def entries(self) -> dict[str, dict[str, Any]]:
        """The group's Scheduler entries in full (GetSchedule), read again only once modified, once
        every change written so far is projected."""
        self.stream.flush()
        scheduler, group = self.stack.scheduler, self.stack.settings.schedule_group
        out = {}
        for page in scheduler.get_paginator("list_schedules").paginate(GroupName=group):
            for summary in page["Schedules"]:
                key = (summary["Name"], summary.get("LastModificationDate"))
                if key not in self._details:
                    detail = scheduler.get_schedule(Name=summary["Name"], GroupName=group)
                    detail.pop("ResponseMetadata", None)
                    self._details[key] = detail
                out[summary["Name"]] = self._details[key]
        return out

    def snapshot(self) -> tuple[list[Any], dict[str, Any]]:
        """The room's items and the entries as they are (an entry put back as it was is unchanged)."""
        from boto3.dynamodb.types import TypeDeserializer

        d = TypeDeserializer()
        raw = []
        for page in self.stack.ddb.get_paginator("query").paginate(
            TableName=self.stack.settings.table_name,
            KeyConditionExpression="room_id = :r",
            ExpressionAttributeValues={":r": {"S": self.room}},
            ConsistentRead=True,
        ):
            raw += page["Items"]
        items = sorted(({k: d.deserialize(v) for k, v in i.items()} for i in raw), key=lambda i: i["sk"])
        entries = {n: _as_written(e) for n, e in self.entries().items()}
        return items, entries

    # --- the tools ---
    def tool(self, tool: str, args: dict[str, Any]) -> dict[str, Any]:
        deps = self.stack.deps(
            sleep=lambda seconds: self.stack.clock.advance(seconds=seconds), start_fire=self.started.append
        )
        module = load_handler("tools")
        with _wired(module, deps):
            answer: dict[str, Any] = module.lambda_handler(
                envelope(tool, args, room=self.room), LambdaContext(function_name="tools")
            )
        self.stream.settle()  # the invocation is over: its writes reach the projector
        json.dumps(answer)
        return answer

    def change(self, change: Change) -> None:
        self.stack.write_histories()  # a run the fire recorded reaches its slot from the stream, not from this tool
        before = self.snapshot()
        reference = {"target": self.sid} if change.tool == "run_now" else {"id": self.sid}
        answer = self.tool(change.tool, {**change.args, **reference})
        changed = self.snapshot() != before
        code = "" if answer["ok"] else str(answer["error"]["code"]).split(".")[0]
        result = answer.get("result") or {}
        self.log.answers.append(
            (change, Answer(answer["ok"], code, self.log.tick(), self.stack.clock.now(), result, changed))
        )
        for payload in self.started:  # Lambda's async invoke: the manual fire starts at once
            self.start(Event(payload), self.stack.clock.now())
        self.started.clear()

    # --- the fire ---
    def start(self, event: Event, when: datetime) -> None:
        self.log.events.append(event)
        self.pending.append((when, self.log.tick(), event))

    def attempt(
        self,
        event: Event,
        hooks: dict[int, Callable[[], None]] | None = None,
        first: bool = False,
        pause: Callable[[], None] | None = None,
    ) -> None:
        """One attempt of the fire handler; one that raises is queued for Lambda's retry."""
        n = self.attempts.get(id(event), 0) + 1
        self.attempts[id(event)] = n
        if event.started_seq < 0:
            event.started_seq = self.log.tick()
        attempt = Attempt(self.stack, self.log, event, dict(hooks or {}), first, pause=pause)
        module = load_handler("fire")
        payload = {**event.payload, "attempt": str(n)} if not event.manual else event.payload
        try:
            with _wired(module, attempt.deps()):
                out = module.lambda_handler(payload, _FireContext(self.stack.clock))
            event.outcomes.append(str(out.get("outcome")))
        except Exception as err:  # a fire raising is Lambda's cue to retry
            event.outcomes.append(f"raised {type(err).__name__}")
            if n <= len(RETRY_GAPS_SECONDS):
                due = self.stack.clock.now() + timedelta(seconds=RETRY_GAPS_SECONDS[n - 1])
                self.pending.append((due, self.log.tick(), event))
            else:
                event.dead_lettered = True
        self.stream.settle()
        event.ended_seq = self.log.tick()

    def killed(self, event: Event, at: str) -> None:
        """The first attempt in a worker process that dies of SIGKILL at `at`; Lambda retries it."""
        self.attempts[id(event)] = 1
        event.started_seq = self.log.tick()
        chat = FileChat(self.work / f"chat-{uuid.uuid4().hex}.jsonl")
        fire_worker.kill_a_worker(self.stack, {**event.payload, "attempt": "1"}, chat.path, at)
        if chat.path.exists():
            for line in chat.path.read_text(encoding="utf-8").splitlines():
                sent = json.loads(line)
                self.log.sends[(event.slot, event.manual)] += 1
                post = Post(self.log.tick(), event.slot, event.manual, sent["text"], self.stack.clock.now())
                self.log.posts.setdefault(sent["key"], post)
        self.log.died_after_post = self.log.died_after_post or at == "post"
        event.outcomes.append("killed")
        self.stream.settle()
        event.ended_seq = self.log.tick()
        self.pending.append((self.stack.clock.now() + timedelta(seconds=RETRY_GAPS_SECONDS[0]), self.log.tick(), event))

    # --- Scheduler ---
    def next_scheduled(
        self, after: datetime, entries: dict[str, dict[str, Any]] | None = None, unfired: bool = False
    ) -> tuple[datetime, dict[str, Any]] | None:
        """The earliest fire after `after` among the schedule's enabled Scheduler entries (of `entries`,
        by default all of them). With `unfired`, a one-time entry fires at its time even when that is
        not after `after`: still there, it has not fired (Scheduler deletes it once it has), as a run
        waiting its turn whose entry the first fire's record wrote for the minute that fire is for."""
        found: list[tuple[datetime, str, dict[str, Any]]] = []
        for name, entry in (self.entries() if entries is None else entries).items():
            target = entry.get("Target", {})
            if entry.get("State", "ENABLED") != "ENABLED" or self.sid not in target.get("Input", ""):
                continue
            timing = ScheduleTiming(
                expression=entry["ScheduleExpression"],
                timezone=entry.get("ScheduleExpressionTimezone") or "UTC",
                start=_aware(entry.get("StartDate")),
                end=_aware(entry.get("EndDate")),
            )
            one_time = unfired and entry.get("ActionAfterCompletion") == "DELETE"
            when = next_fire(timing, datetime.min.replace(tzinfo=UTC) if one_time else after)
            if when is not None:
                found.append((when, name, entry))
        if not found:
            return None
        when, _, entry = min(found, key=lambda f: (f[0], f[1]))
        return when, entry

    def fired_by_scheduler(self, when: datetime) -> None:
        """Scheduler invoked the first fire: a one-time entry due then is deleted, as after any fire."""
        for entry in self.entries().values():
            expression = entry["ScheduleExpression"]
            if entry.get("ActionAfterCompletion") == "DELETE" and self.sid in entry["Target"].get("Input", ""):
                timing = ScheduleTiming(expression, entry.get("ScheduleExpressionTimezone") or "UTC")
                if next_fire(timing, when - timedelta(seconds=1)) == when:
                    self.stack.scheduler.delete_schedule(Name=entry["Name"], GroupName=entry["GroupName"])

    def scheduler_fire(self, when: datetime, entry: dict[str, Any]) -> None:
        raw = fill_context(
            entry["Target"]["Input"], arn=entry["Arn"], scheduled=when, execution_id=str(uuid.uuid4()), attempt=1
        )
        self.start(Event(json.loads(raw)), when + ARRIVAL)
        if entry.get("ActionAfterCompletion") == "DELETE":  # Scheduler deletes a one-time entry once it fired
            with contextlib.suppress(self.stack.scheduler.exceptions.ResourceNotFoundException):
                self.stack.scheduler.delete_schedule(Name=entry["Name"], GroupName=entry["GroupName"])

    def play_out(self, cursor: datetime, horizon: datetime) -> Observation:
        """Every later event in time order up to `horizon`: Lambda's retries and the fires Scheduler
        sends from the entries; then what the cell showed."""
        p, clock = self, self.stack.clock
        while True:
            scheduled = p.next_scheduled(cursor, unfired=True)
            p.pending.sort(key=lambda item: (item[0], item[1]))
            retry = p.pending[0] if p.pending else None
            if retry is not None and (scheduled is None or retry[0] <= scheduled[0] + ARRIVAL):
                if retry[0] > horizon:
                    break
                p.pending.pop(0)
                clock.current = max(clock.current, retry[0])
                p.attempt(retry[2])
                continue
            if scheduled is None or scheduled[0] > horizon:
                break
            when, entry = scheduled
            clock.current = max(clock.current, when)
            p.scheduler_fire(when, entry)
            cursor = when
        for _, _, event in p.pending:  # retries past the horizon: not played, counted as the queue's
            event.dead_lettered = True

        history = p.tool("reminder_history", {"id": p.sid, "limit": 50})
        assert history["ok"], history
        runs = [
            Run(_utc(r["scheduled_time"]), r["outcome"], r.get("reason"), bool(r.get("manual")))
            for r in history["result"]["runs"]
        ]
        reached = [
            Reached(e.slot, e.manual, e.started_seq, e.ended_seq, e.dead_lettered, e.outcomes[-1:] == ["waiting"])
            for e in p.log.events
            if e.started_seq >= 0
        ]
        return Observation(
            plan=self.cell.kind.plan,
            changes=p.log.answers,
            posts=sorted(p.log.posts.values(), key=lambda post: post.seq),
            sends=p.log.sends,
            reached=reached,
            runs=runs,
            horizon=horizon,
            died_after_post=p.log.died_after_post,
            notes=[
                f"{e.slot.isoformat()}{' manual' if e.manual else ''}: {', '.join(e.outcomes)}" for e in p.log.events
            ]
            + [f"boundaries {p.log.boundaries}"],
        )


def _as_written(entry: dict[str, Any]) -> dict[str, Any]:
    """An entry's definition: what it fires, when and how; not when it was last written (an entry
    put back as it was is the same entry)."""
    out = {k: v for k, v in entry.items() if k not in ("CreationDate", "LastModificationDate")}
    out["Description"] = str(out.get("Description", "")).split("; written ")[0]
    return out


def _aware(value: Any) -> datetime | None:
    if value in (None, ""):
        return None
    if isinstance(value, datetime):
        return value.astimezone(UTC) if value.tzinfo else value.replace(tzinfo=UTC)
    return _utc(str(value))


_CELLS = iter(range(1, 10**9))


def cell_stack(base: Stack) -> tuple[Stack, str]:
    """A stack of its own for one cell on the shared table: a new room and a new schedule group, so
    no cell sees another's items or entries and nothing is reset (the base's clients are reused)."""
    n = next(_CELLS)
    stack = copy.copy(base)
    stack.settings = dataclasses.replace(base.settings, schedule_group=f"{base.settings.schedule_group}-{n}")
    base.scheduler.create_schedule_group(Name=stack.settings.schedule_group)
    Stream(stack).discard()  # what earlier cells left on the table's stream is theirs
    return stack, f"!cell{n}:example.org"


def _created(stack: Stack, room: str, cell: Cell, work: Path) -> tuple[Player, datetime]:
    """The cell's schedule created (and paused, for a paused kind), the clock at its first fire."""
    stack.clock.current = START
    configure_env(stack)
    p = Player(stack, cell, work, room)
    kind = cell.kind
    if kind.quiet is not None:
        quiet = p.tool("set_quiet_hours", kind.quiet)
        assert quiet["ok"], quiet
    created = p.tool(kind.tool, kind.args)
    assert created["ok"], created
    p.sid = str(created["result"]["id"])
    if kind.pause_first:
        paused = p.tool("pause_reminder", {"id": p.sid})
        assert paused["ok"], paused
    first_slot = kind.plan.occurrences[0]
    stack.clock.current = first_slot + cell.arrival
    return p, first_slot


def play(base: Stack, cell: Cell, work: Path) -> Observation:
    """Play one cell (on a room and schedule group of its own) and return what it showed."""
    at = ""
    if cell.fault is not None and cell.fault.mode == "kill":
        arm = cell.fault_at if cell.fault_at is not None else max(b for _, b in cell.changes)
        at = kill_spec(boundary_labels(base, cell.kind, cell.arrival, work), arm)
    stack, room = cell_stack(base)
    p, first_slot = _created(stack, room, cell, work)
    horizon = first_slot + cell.kind.horizon
    first = Event({"room_id": room, "reminder_id": p.sid, "scheduled_time": _z(first_slot)})
    p.log.events.append(first)
    p.fired_by_scheduler(first_slot)
    fault = cell.fault

    hooks: dict[int, Callable[[], None]] = {}
    for change, boundary in cell.changes:
        if boundary == BEFORE:
            p.change(change)
        else:
            hooks[boundary] = _then(hooks.get(boundary), functools.partial(p.change, change))
    if fault is not None and fault.mode != "kill":

        def armed() -> None:
            p.log.failing, p.log.failure = fault.times, fault.mode

        arm = cell.fault_at if cell.fault_at is not None else max((b for _, b in cell.changes), default=BEFORE)
        if arm == BEFORE:
            armed()
        else:
            hooks[arm] = _then(hooks.get(arm), armed)

    if at:
        p.killed(first, at)
        for change, _ in cell.changes:
            p.change(change)
    else:
        p.attempt(first, hooks, first=True)

    return p.play_out(first_slot, horizon)


def _then(first: Callable[[], None] | None, then: Callable[[], None]) -> Callable[[], None]:
    def both() -> None:
        if first is not None:
            first()
        then()

    return both


def _z(t: datetime) -> str:
    return t.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


# --- where a worker process dies ----------------------------------------------------------------

_LABELS: dict[tuple[str, timedelta], list[str]] = {}


def boundary_labels(base: Stack, kind: Kind, arrival: timedelta, work: Path) -> list[str]:
    """The boundaries of a kind's first attempt when nothing interferes (played once, then kept):
    what each boundary follows, a DynamoDB operation or `post`."""
    key = (kind.name, arrival)
    if key not in _LABELS:
        cell = Cell(kind, (), arrival=arrival)
        stack, room = cell_stack(base)
        p, first_slot = _created(stack, room, cell, work)
        p.attempt(Event({"room_id": room, "reminder_id": p.sid, "scheduled_time": _z(first_slot)}), first=True)
        _LABELS[key] = list(p.log.boundaries)
    return _LABELS[key]


def kill_spec(labels: list[str], boundary: int) -> str:
    """The worker's `at` for dying at `boundary`: after its post, or after its n-th DynamoDB call."""
    if labels[boundary] == "post":
        return "post"
    return f"call:{sum(1 for label in labels[: boundary + 1] if label != 'post') - 1}"
