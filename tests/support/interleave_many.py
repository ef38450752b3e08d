"""Several tool calls on one schedule at once, with its fire and a reconciler pass in flight, interleaved
at every AWS call boundary.

Each call (an actor) runs in a thread of its own and stops after each of its AWS calls (a DynamoDB call,
a Scheduler call, the fire's chat post); one actor runs at a time, as an `order` says: `(actor, n)`
runs it for n more boundaries (None: to its end), `(WAIT, m)` lets m minutes pass with every actor
where it stopped (Lambda's retries of an attempt that raised run meanwhile: a slow delivery). What the
order leaves, runs to its end in actor order. The actors: the kind's first fire (actor 0, when the
group has one), then the tool calls through the real tools handler, then a reconciler pass (when it
has one). An invocation that ends hands its writes to the table's stream (`tests/support/stream_play.py`,
in the group's mode); a run_now's manual fire is Lambda's asynchronous invoke (played at once when
nothing is in flight, else during a wait or after).

`judge_group` checks the contract for changes of one schedule at once (docs/semantics.md, "What is
listed is what fires"), besides `tests.support.interleave_verdict.verdict`, which places each change
answered ok where its write landed:
- once everything settled, Scheduler holds the projection of the item's last version, and the next
  fire Scheduler would send is the one the listing shows;
- a change refused wrote nothing;
- a run_now answered ok is delivered, whatever delivery was under way (never lost to Lambda's retries).
"""

from __future__ import annotations

import copy
import json
import random
import threading
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any
from unittest import mock

from cronbell.core.domain import projection
from tests.support.aws import START, Stack
from tests.support.envelopes import envelope
from tests.support.handlers import LambdaContext, load_handler
from tests.support.interleave import Cell, Event, Kind, Player, _created, _wired, _z, cell_stack
from tests.support.interleave_verdict import Answer, Change, Observation, minute, verdict
from tests.support.lambda_timing import fire_timeout_seconds

WAIT = -1  # an order's step that lets minutes pass
FIRE_TIMEOUT_SECONDS = fire_timeout_seconds()  # the template's: Lambda ends a fire attempt then
BEFORE_THE_FIRE = timedelta(minutes=30)  # calls with no fire in flight run this long after the creation
WRITES = {"put_item", "update_item", "delete_item", "transact_write_items", "batch_write_item"}
# The store's modules that move a schedule retired under its live key to its retired key, on the projector's
# behalf, whoever reads it first: that move changes nothing a user sees, so a refused call's read that makes it
# has written nothing of its own (a module added here that moves is missed loudly: its writes count).
MOVERS = ("cronbell.adapters.dynamo.schedules", "cronbell.adapters.dynamo.claims", "cronbell.adapters.dynamo.scans")
_moving = threading.local()


@contextmanager
def moves_are_the_projectors() -> Iterator[None]:
    """While it lasts, the writes of `retirement.move_to_retired_key` are noted as no actor's."""
    from cronbell.adapters.dynamo import retirement

    def move(*args: Any, **kwargs: Any) -> bool:
        _moving.active = True
        try:
            return retirement.move_to_retired_key(*args, **kwargs)
        finally:
            _moving.active = False

    with ExitStack() as patches:
        for name in MOVERS:
            patches.enter_context(mock.patch(f"{name}.move_to_retired_key", move))
        yield


@dataclass(frozen=True)
class Group:
    """Changes of one schedule at once (2 to 4 tool calls), optionally with its first fire and a
    reconciler pass in flight, played in `order`."""

    kind: Kind
    changes: tuple[Change, ...]
    fire: bool = True
    reconciler: bool = False
    order: tuple[tuple[int, int | None], ...] = ()
    stream: str = "prompt"
    seed: int = 0

    @property
    def actors(self) -> list[str]:
        names = ["fire"] if self.fire else []
        names += [f"{c.tool}{json.dumps(c.args)}" for c in self.changes]
        return names + (["reconciler"] if self.reconciler else [])

    @property
    def label(self) -> str:
        names = self.actors
        steps = [f"wait {n}m" if a == WAIT else f"{names[a]} x{'end' if n is None else n}" for a, n in self.order]
        stream = f" | stream {self.stream} (seed {self.seed})" if self.stream != "prompt" else ""
        return f"{self.kind.name} | {' + '.join(names)} | {' ; '.join(steps) or 'in turn'}{stream}"


class Halt(BaseException):
    """Ends an actor's thread that the cell no longer runs (never caught by the code under test)."""


class Actor:
    """One invocation in a thread of its own that runs only while the conductor lets it."""

    def __init__(self, name: str, body: Callable[[Actor], None], back: threading.Semaphore) -> None:
        self.name = name
        self._body = body
        self._back = back
        self._go = threading.Semaphore(0)
        self._thread = threading.Thread(target=self._run, name=name, daemon=True)
        self.started = self.done = self.halted = False
        self.boundaries: list[str] = []
        self.writes: list[int] = []  # the log's seq after each write this actor made
        self.error: BaseException | None = None

    def _run(self) -> None:
        try:
            self._body(self)
        except Halt:
            pass
        except BaseException as err:  # reported by the cell
            self.error = err
        finally:
            self.done = True
            self._back.release()

    def pause(self, label: str = "") -> None:
        """At a boundary (in the actor's thread): hand over to the conductor until it is our turn again."""
        self.boundaries.append(label)
        self._back.release()
        self._go.acquire()
        if self.halted:
            raise Halt

    def step(self) -> None:
        """Run to the next boundary or the end (in the conductor's thread)."""
        if not self.started:
            self.started = True
            self._thread.start()
        else:
            self._go.release()
        self._back.acquire()

    def halt(self) -> None:
        if self.started and not self.done:
            self.halted = True
            self.step()


class Paused:
    """A boto3 client whose every call is a boundary of its actor (writes noted). With `room`, a scan
    answers that room's items only: the cells share one table, and a reconciler pass of one cell must
    not repair the schedules of the others (their entries are in other groups)."""

    def __init__(self, client: Any, actor: Actor, seq: Callable[[], int], room: str = "") -> None:
        self._client, self._actor, self._seq, self._room = client, actor, seq, room

    def __getattr__(self, name: str) -> Any:
        attr = getattr(self._client, name)
        if name in ("meta", "exceptions", "get_paginator") or not callable(attr):
            return attr

        def call(*args: Any, **kwargs: Any) -> Any:
            out = attr(*args, **kwargs)
            if name == "scan" and self._room:
                out = {**out, "Items": [i for i in out["Items"] if i.get("room_id", {}).get("S") == self._room]}
            if name in WRITES and not getattr(_moving, "active", False):
                self._actor.writes.append(self._seq())
            self._actor.pause(name)
            return out

        return call


@dataclass
class Played:
    observation: Observation
    problems: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


@dataclass
class Conductor:
    player: Player
    group: Group
    actors: list[Actor] = field(default_factory=list)
    back: threading.Semaphore = field(default_factory=lambda: threading.Semaphore(0))
    answers: dict[int, tuple[Change, dict[str, Any], datetime]] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)
    fire_started: datetime | None = None  # when the fire's first attempt began (its timeout counts from then)

    def paused_stack(self, actor: Actor, room: str = "") -> Stack:
        """The cell's stack whose DynamoDB and Scheduler clients stop after every call of `actor`."""
        stack = copy.copy(self.player.stack)
        stack.ddb = Paused(self.player.stack.ddb, actor, self.player.log.tick, room)
        stack.scheduler = Paused(self.player.stack.scheduler, actor, self.player.log.tick)
        return stack

    def tool_body(self, index: int, change: Change) -> Callable[[Actor], None]:
        p = self.player

        def body(actor: Actor) -> None:
            stack = self.paused_stack(actor)
            deps = stack.deps(sleep=lambda seconds: p.stack.clock.advance(seconds=seconds), start_fire=p.started.append)
            reference = {"target": p.sid} if change.tool == "run_now" else {"id": p.sid}
            module = load_handler("tools")
            with _wired(module, deps):
                call = envelope(change.tool, {**change.args, **reference}, room=p.room)
                answer = module.lambda_handler(call, LambdaContext(function_name="tools"))
            self.answers[index] = (change, answer, p.stack.clock.now())

        return body

    def fire_body(self, first: Event) -> Callable[[Actor], None]:
        def body(actor: Actor) -> None:
            self.fire_started = self.player.stack.clock.now()
            self.player.attempt(first, first=True, pause=actor.pause)

        return body

    def reconciler_body(self) -> Callable[[Actor], None]:
        from cronbell.usecases.reconcile import reconcile

        def body(actor: Actor) -> None:
            reconcile(self.paused_stack(actor, self.player.room).deps())

        return body

    def step(self, actor: Actor) -> None:
        actor.step()
        if actor.done:
            self.ended(actor)

    def ended(self, actor: Actor) -> None:
        """An invocation is over: its writes reach the stream; a manual fire run_now started is invoked."""
        p = self.player
        p.stream.settle()
        if actor.error is not None:
            self.problems.append(f"{actor.name} raised {type(actor.error).__name__}: {actor.error}")
        for payload in p.started:
            p.start(Event(payload), p.stack.clock.now())
        p.started.clear()
        if not any(a.started and not a.done for a in self.actors):
            self.lambda_due()

    def lambda_due(self) -> None:
        """Lambda's attempts due by now (a manual fire, a retry), each whole."""
        p = self.player
        while True:
            p.pending.sort(key=lambda item: (item[0], item[1]))
            if not p.pending or p.pending[0][0] > p.stack.clock.now():
                return
            _, _, event = p.pending.pop(0)
            p.attempt(event)

    def wait(self, minutes: int) -> None:
        """Minutes pass with the fire and the reconciler where they stopped (a slow delivery, a long
        pass); Lambda's attempts due meanwhile run. A tool call under way ends first: the tools
        function's timeout (30 s) ends any call long before a minute has passed. A fire under way is
        slow up to its own timeout, no longer: Lambda ends the attempt then, before its claim's lease
        does (`make verify`, seed 847299: five minutes inside one attempt let a change land under a
        post still to come)."""
        for actor in self.actors:
            while actor.name not in ("fire", "reconciler") and actor.started and not actor.done:
                self.step(actor)
        clock = self.player.stack.clock
        end = clock.now() + timedelta(minutes=minutes)
        if self.fire_started is not None and any(a.name == "fire" and a.started and not a.done for a in self.actors):
            end = min(end, self.fire_started + timedelta(seconds=FIRE_TIMEOUT_SECONDS - 5))
        while clock.now() < end:
            clock.current = min(end, clock.now() + timedelta(seconds=30))
            self.lambda_due()

    def run(self) -> None:
        for index, steps in self.group.order:
            if index == WAIT:
                self.wait(steps or 1)
                continue
            actor = self.actors[index]
            for _ in range(steps if steps is not None else 10**6):
                if actor.done:
                    break
                self.step(actor)
        for actor in self.actors:
            while not actor.done:
                self.step(actor)


def play_group(base: Stack, group: Group, work: Path) -> Played:
    """Play one group of changes at once, on a room and schedule group of its own."""
    stack, room = cell_stack(base)
    cell = Cell(group.kind, (), stream=group.stream, seed=group.seed)
    p, first_slot = _created(stack, room, cell, work)
    first = Event({"room_id": room, "reminder_id": p.sid, "scheduled_time": _z(first_slot)})
    if group.fire:
        p.log.events.append(first)
        p.fired_by_scheduler(first_slot)
    else:
        stack.clock.current = START + BEFORE_THE_FIRE
    c = Conductor(p, group)
    if group.fire:
        c.actors.append(Actor("fire", c.fire_body(first), c.back))
    offset = len(c.actors)
    for n, change in enumerate(group.changes):
        c.actors.append(Actor(f"{change.tool} #{n}", c.tool_body(offset + n, change), c.back))
    if group.reconciler:
        c.actors.append(Actor("reconciler", c.reconciler_body(), c.back))
    try:
        with moves_are_the_projectors():
            c.run()
    finally:
        for actor in c.actors:
            actor.halt()
    c.lambda_due()
    for index, (change, answer, at) in sorted(c.answers.items()):
        writes = c.actors[index].writes
        # a change lands at its last write; a delete at its first, the DeleteItem of the live item (what fires
        # read), its second only giving the audit copy the run fields the live item had
        landed = (writes[0] if change.effect == "delete" else writes[-1]) if writes else p.log.tick()
        code = "" if answer["ok"] else str(answer["error"]["code"]).split(".")[0]
        wrote = bool(writes) and not answer["ok"]
        p.log.answers.append((change, Answer(answer["ok"], code, landed, at, answer.get("result") or {}, wrote)))
    problems = list(c.problems) + settled_problems(p)
    cursor = first_slot if group.fire else stack.clock.now()
    observation = p.play_out(cursor, first_slot + group.kind.horizon)
    problems += manual_runs_delivered(observation)
    notes = [f"{a.name}: {a.boundaries}" for a in c.actors]
    return Played(observation, problems, notes)


def settled_problems(p: Player) -> list[str]:
    """Once every change is projected: the entries are the projection of the item's last version, and
    Scheduler's next fire of the schedule is the listing's."""
    p.stream.flush()
    now = p.stack.clock.now()
    deps = p.stack.deps()
    problems: list[str] = []
    item = deps.store.get(p.room, p.sid)
    wanted = projection.targets(item, now) if item is not None else {}
    for name, target in wanted.items():
        if projection.fired(target, now):
            continue
        drift = deps.scheduler.drift(target)
        if drift == "ScheduleExpression" and _waiting_due(p.entries().get(name), target):
            continue
        if drift:
            problems.append(f"entry {name}: {drift} differs from the projection of the item's last version")
    for name, entry in p.entries().items():
        fires = p.sid in entry.get("Target", {}).get("Input", "")
        if fires and name not in wanted:
            problems.append(f"entry {name} fires the schedule; its last version projects no such entry")
    listing = p.tool("list_reminders", {"include_inactive": True})
    listed = next((s for s in listing["result"]["schedules"] if s["id"] == p.sid), None)
    listed_next = None
    if listed is not None and listed.get("enabled") and listed.get("next_fire"):
        listed_next = minute(datetime.fromisoformat(listed["next_fire"]["utc"].replace("Z", "+00:00")))
    own = {n: e for n, e in p.entries().items() if not n.endswith(projection.WAITING_SUFFIX)}
    fires = _fires_until(p, own, now, listed_next)
    if listed_next is not None and listed_next not in fires:
        problems.append(f"listed next fire {listed_next}, Scheduler's coming fires {fires}")
    if listed_next is None and fires and (listed is None or listed["status"] != "active"):
        problems.append(f"listed {listed and listed['status']} with no next fire, Scheduler's coming fires {fires}")
    return problems


def _waiting_due(entry: dict[str, Any] | None, target: projection.Target) -> bool:
    """A waiting run's entry written for an earlier minute than its projection now says: the minute
    after the delivery it waited for ended, which has come by now (the projection of a run that
    waits with nothing under way is the next minute, whenever it is read)."""
    if entry is None or not target.name.endswith(projection.WAITING_SUFFIX):
        return False
    written = projection.fires_at(replace(target.entry, expression=entry["ScheduleExpression"]))
    return written <= projection.fires_at(target.entry)


def _fires_until(
    p: Player, entries: dict[str, dict[str, Any]], after: datetime, until: datetime | None
) -> list[datetime]:
    """Scheduler's fires of the schedule after `after`, up to `until` (the first only, without one);
    an earlier one is an occurrence skipped (its fire records it so)."""
    out: list[datetime] = []
    while (found := p.next_scheduled(after, entries)) is not None and len(out) < 50:
        out.append(minute(found[0]))
        if until is None or out[-1] >= until:
            break
        after = found[0]
    return out


def manual_runs_delivered(obs: Observation) -> list[str]:
    """A run_now answered ok is delivered (or its run says why not): never lost to Lambda's retries.
    A schedule deleted after it runs nothing (docs/semantics.md: its owner asked for that after)."""
    problems = []
    for change, answer in obs.changes:
        slot = answer.result.get("scheduled_time") if change.tool == "run_now" and answer.ok else None
        if not slot:
            continue
        if any(c.tool == "delete_reminder" and a.ok and a.seq > answer.seq for c, a in obs.changes):
            continue
        when = minute(datetime.fromisoformat(str(slot).replace("Z", "+00:00")).astimezone(UTC))
        lost = [r for r in obs.reached if r.manual and minute(r.slot) == when and r.dead_lettered]
        runs = [r for r in obs.runs if r.manual and minute(r.slot) == when]
        if lost or not runs:
            problems.append(f"run_now answered ok for {when.isoformat()}: no manual run (dead-lettered: {bool(lost)})")
    return problems


def judge_group(base: Stack, group: Group, work: Path) -> list[str]:
    """Play a group and return its violations, each prefixed with its label and what happened."""
    played = play_group(base, group, work)
    problems = played.problems + verdict(played.observation)
    if not problems:
        return []
    obs = played.observation
    answers = [f"{c.tool} -> {'ok' if a.ok else a.code} (landed {a.seq})" for c, a in obs.changes]
    context = "; ".join(answers + obs.notes + played.notes)
    return [f"[{group.label}] {problem}  ({context})" for problem in problems]


def random_order(rng: random.Random, actors: int, waits: bool) -> tuple[tuple[int, int | None], ...]:
    """A random interleaving: short runs of random actors (each 1 to 3 boundaries), sometimes a wait."""
    out: list[tuple[int, int | None]] = []
    for _ in range(rng.randint(actors, 4 * actors)):
        if waits and rng.random() < 0.08:
            out.append((WAIT, rng.choice([1, 2, 4])))
        else:
            out.append((rng.randrange(actors), rng.randint(1, 3)))
    return tuple(out)


def at_once(
    stack: Stack, calls: list[Callable[[Stack], Any]], order: tuple[tuple[int, int | None], ...]
) -> list[tuple[Any, int]]:
    """Run `calls` at once, each given the stack with clients that stop it after every AWS call, in
    `order` (then each to its end, in turn); answers what each returned and the step its last write
    landed at (or its end, with no write)."""
    back = threading.Semaphore(0)
    counter = iter(range(1, 10**9))
    results: dict[int, Any] = {}

    def body(n: int, call: Callable[[Stack], Any]) -> Callable[[Actor], None]:
        def run(actor: Actor) -> None:
            paused = copy.copy(stack)
            paused.ddb = Paused(stack.ddb, actor, lambda: next(counter))
            paused.scheduler = Paused(stack.scheduler, actor, lambda: next(counter))
            results[n] = call(paused)

        return run

    actors = [Actor(f"call {n}", body(n, call), back) for n, call in enumerate(calls)]
    ends: dict[int, int] = {}
    try:
        for index, steps in order:
            for _ in range(steps if steps is not None else 10**6):
                if actors[index].done:
                    break
                actors[index].step()
            if actors[index].done:
                ends.setdefault(index, next(counter))
        for index, actor in enumerate(actors):
            while not actor.done:
                actor.step()
            ends.setdefault(index, next(counter))
    finally:
        for actor in actors:
            actor.halt()
    for actor in actors:
        if actor.error is not None:
            raise actor.error
    return [(results.get(n), a.writes[-1] if a.writes else ends[n]) for n, a in enumerate(actors)]
