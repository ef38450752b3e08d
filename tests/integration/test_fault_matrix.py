"""Fault-injection matrix: every operation, every AWS call in turn failing (throttling, 500,
timeout) or the process "crashing" right after it; then the normal retry path (the bot calls the
tool again, Lambda retries the fire) and the reconciler run, and the five invariants are checked.

Prints the table operation x call -> outcome and the number of violations (must be 0).
"""

from __future__ import annotations

import threading
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

import pytest

from cronbell.adapters.aws import AwsError
from cronbell.adapters.chat.base import ChatMessage
from cronbell.adapters.dynamo import DynamoStore
from cronbell.adapters.scheduler import SchedulerGateway
from cronbell.core.domain.fire_event import parse_fire_event
from cronbell.core.domain.runs import Run
from cronbell.usecases import fire as fire_uc
from cronbell.usecases import tools
from cronbell.usecases.deps import Deps
from cronbell.usecases.reconcile import reconcile
from tests.support.aws import Stack, provision
from tests.support.envelopes import OTHER_ROOM, ROOM, envelope
from tests.support.faults import CallLog, Crash
from tests.support.lambda_timing import RETRY_GAPS_SECONDS, at_slot, lambda_retries, remaining_on
from tests.support.tools import assert_consistent, schedule_item

pytestmark = pytest.mark.slow

MODES = ("throttling", "500", "timeout", "crash")


@dataclass
class IdempotentChat:
    """A chat platform that, like Matrix with a transaction id, posts a repeated key once."""

    attempts: Counter[str] = field(default_factory=Counter)
    posted: dict[str, ChatMessage] = field(default_factory=dict)
    crash_after_send: bool = False
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def send(self, message: ChatMessage, idempotency_key: str, deadline: float | None = None) -> str:
        with self._lock:
            self.attempts[idempotency_key] += 1
            self.posted.setdefault(idempotency_key, message)
        if self.crash_after_send:
            self.crash_after_send = False
            raise Crash("after the chat post")
        return idempotency_key


class EchoAgents:
    configured = True

    def call(self, agent_id: str, request: dict[str, Any], timeout_seconds: int) -> str:
        return f"echo: {request['prompt']}"


@dataclass
class Cell:
    op: str
    call: str
    mode: str
    outcome: str = ""
    violations: list[str] = field(default_factory=list)


def deps_with(stack: Stack, log: CallLog, started: list[dict[str, Any]]) -> Deps:
    s = stack.settings

    def start_fire(event: dict[str, Any]) -> None:  # lambda:InvokeFunction (Event) is an AWS call too
        index = len(log.calls)
        log.calls.append("invoke")
        if index == log.fail_at:
            from tests.support.faults import FAILURES

            raise AwsError(FAILURES[log.failure]("invoke"))  # as the wiring's start_fire raises it
        started.append(event)
        if index == log.crash_after:
            raise Crash("invoke")

    return stack.deps(
        store=DynamoStore(log.wrap(stack.ddb), s.table_name, s.retention_days),
        scheduler=SchedulerGateway(
            log.wrap(stack.scheduler), s.schedule_group, s.fire_function_arn, s.scheduler_role_arn, s.scheduler_dlq_arn
        ),
        start_fire=start_fire,
    )


def run_fire(stack: Stack, deps: Deps, chat: IdempotentChat, event: dict[str, Any]) -> dict[str, Any]:
    """One attempt of the fire function, with its real timeout; its waits move the fake clock."""
    at_slot(stack.clock, event)
    wired = replace(deps, chat=lambda: chat, agents=EchoAgents(), sleep=lambda s: stack.clock.advance(seconds=s))
    return fire_uc.fire(parse_fire_event(event, stack.clock.now()), wired, remaining_on(stack.clock))


def create(stack: Stack, tool: str, args: dict[str, Any]) -> str:
    answer = tools.handle(envelope(tool, args), stack.deps())
    assert answer["ok"], answer
    return str(answer["result"]["id"])


MESSAGE = ("create_reminder", {"message": "m", "time": "2026-11-30 10:00"})
RECURRING = ("create_reminder", {"message": "r", "cron": "0 9 1 * 5"})
AGENT = ("cron_create", {"name": "job", "prompt": "p", "cron_expr": "0 18 * * *"})
SLOTS = {"fire one-shot": "2026-11-30T09:00:00Z", "fire recurring": "2026-12-01T08:00:00Z"}


@dataclass
class Scenario:
    """One operation: its preparation, its faulty run, and its normal retry path."""

    prepare: Callable[[Stack], dict[str, Any]]
    run: Callable[[Stack, Deps, dict[str, Any], IdempotentChat], Any]
    kind: str  # "tool" | "fire"


def tool_scenario(tool: str, args_of: Callable[[dict[str, Any]], dict[str, Any]]) -> Scenario:
    return Scenario(
        prepare=lambda stack: {},
        run=lambda stack, deps, ctx, chat: tools.handle(envelope(tool, args_of(ctx)), deps),
        kind="tool",
    )


def fire_scenario(created: tuple[str, dict[str, Any]], slot: str) -> Scenario:
    def prepare(stack: Stack) -> dict[str, Any]:
        sid = create(stack, *created)
        stack.clock.advance(hours=1)
        return {"id": sid, "event": {"room_id": ROOM, "reminder_id": sid, "scheduled_time": slot}}

    return Scenario(
        prepare=prepare,
        run=lambda stack, deps, ctx, chat: run_fire(stack, deps, chat, ctx["event"]),
        kind="fire",
    )


SCENARIOS: dict[str, Scenario] = {
    "create message": tool_scenario(*[MESSAGE[0]], lambda ctx: MESSAGE[1]),
    "create recurring (2 entries)": tool_scenario(RECURRING[0], lambda ctx: RECURRING[1]),
    "cron_create": tool_scenario(AGENT[0], lambda ctx: AGENT[1]),
    "delete": Scenario(
        prepare=lambda stack: {"id": create(stack, *RECURRING)},
        run=lambda stack, deps, ctx, chat: tools.handle(envelope("delete_reminder", {"id": ctx["id"]}), deps),
        kind="tool",
    ),
    "fire one-shot": fire_scenario(MESSAGE, SLOTS["fire one-shot"]),
    "fire recurring": fire_scenario(RECURRING, "2026-12-04T08:00:00Z"),
    "agent_call fire": fire_scenario(AGENT, "2026-11-30T17:00:00Z"),
    "run_now": Scenario(
        prepare=lambda stack: {"id": create(stack, *AGENT)},
        run=lambda stack, deps, ctx, chat: tools.handle(
            envelope("run_now", {"kind": "cron", "target": ctx["id"]}), deps
        ),
        kind="tool",
    ),
}


def snapshot(stack: Stack) -> tuple[list[Any], dict[str, Any]]:
    return stack.items(), stack.entries()


def other_room(stack: Stack) -> list[Any]:
    return [i for i in stack.items() if i["room_id"] == OTHER_ROOM]


def play(stack: Stack, name: str, fault: CallLog, mode: str, chat_crash: bool = False) -> Cell:
    scenario = SCENARIOS[name]
    tools.handle(envelope("create_reminder", {"message": "theirs", "cron": "0 7 * * *"}, room=OTHER_ROOM), stack.deps())
    ctx = scenario.prepare(stack)
    theirs = other_room(stack)
    before = snapshot(stack)
    chat = IdempotentChat(crash_after_send=chat_crash)
    started: list[dict[str, Any]] = []
    cell = Cell(name, "chat" if chat_crash else str(fault.fail_at if mode != "crash" else fault.crash_after), mode)
    failed = False
    try:
        answer = scenario.run(stack, deps_with(stack, fault, started), ctx, chat)
        if scenario.kind == "tool" and not answer["ok"]:
            failed = True
            if snapshot(stack) != before:
                cell.violations.append("a refused tool call changed state")
            cell.outcome = f"refused ({answer['error']['code']})"
        else:
            cell.outcome = "ok"
    except Crash:
        failed, cell.outcome = True, "crash"
    except Exception as err:  # a fire raising is Lambda's cue to retry
        failed, cell.outcome = True, f"raised {type(err).__name__}"

    healthy = deps_with(stack, CallLog(), started)
    if failed:  # the normal retry path
        if scenario.kind == "tool":
            answer = scenario.run(stack, healthy, ctx, chat)
            cell.outcome += " -> retried " + ("ok" if answer["ok"] else answer["error"]["code"])
        else:
            # Lambda's own retries: a minute after the failed attempt, then two minutes later
            retries = lambda_retries(
                stack.clock, lambda _: run_fire(stack, healthy, chat, ctx["event"]), RETRY_GAPS_SECONDS[0]
            )
            cell.outcome += " -> retried " + ", ".join(retries.outcomes)
            if retries.result is None:
                cell.violations.append("every retry failed: the event went to the dead-letter queue")
    for event in started:  # run_now's asynchronous fire
        run_fire(stack, healthy, chat, {**event})
    stack.clock.advance(minutes=20)
    reconcile(stack.deps(chat=lambda: chat))

    # invariant 1: items and entries agree, counters match
    try:
        assert_consistent(stack)
    except AssertionError as err:
        cell.violations.append(f"inconsistent: {err}")
    # invariant 2: one post per slot, and a fire is never lost
    # cronbell sends a slot once; only a crash between the post and its record sends it again, and
    # then with the same idempotency key, which the platform (Matrix transaction id) drops
    if any(n > 1 for n in chat.attempts.values()) and not chat_crash:
        cell.violations.append("a slot was sent twice")
    if scenario.kind == "fire" and len(chat.posted) != 1:
        cell.violations.append(f"{len(chat.posted)} posts for the slot")
    # a run_now that died after recording its run counts against MinIntervalMinutes: its retry is
    # refused as too_frequent (said, not silent), and the run posted once if it had been started
    # before the death, else not at all; otherwise exactly one post
    limited = cell.outcome == "crash -> retried too_frequent"
    if name == "run_now" and len(chat.posted) not in ((0, 1) if limited else (1,)):
        cell.violations.append(f"run_now posted {len(chat.posted)} times")
    # every occurrence that reached the fire function ends as exactly one run, recorded on the
    # schedule too (a crash between the post and the record included)
    if scenario.kind == "fire" or name == "run_now":
        runs = [r.to_dict() for r in stack.deps().store.runs(ROOM, ctx["id"], 50)]  # a one-shot's: on its copy
        if [r["outcome"] for r in runs] != ["delivered"] * len(chat.posted):  # a run_now never started: none
            cell.violations.append(f"runs recorded: {runs}")
        schedule = schedule_item(stack, ctx["id"])
        if runs and _run(schedule.get("last_run")) != _run(runs[0]):
            cell.violations.append("the schedule's last run is not the recorded run")
    # invariant 3: the other room is untouched
    if other_room(stack) != theirs:
        cell.violations.append("another room's schedules changed")
    # invariant 4: the room limit (counters are checked in invariant 1)
    live = [i for i in stack.items() if i["sk"].startswith("s#") and i["status"] in ("active", "paused")]
    if len([i for i in live if i["room_id"] == ROOM]) > stack.settings.max_per_room:
        cell.violations.append("room limit exceeded")
    return cell


def _run(stored: dict[str, Any] | None) -> dict[str, Any] | None:
    """A stored run as `reminder_history` shows it (a slot leaves out the fields at their defaults)."""
    return None if stored is None else Run.from_dict(stored).to_dict()


def test_fault_matrix(moto_endpoint: str, clock: Any, capsys: pytest.CaptureFixture[str]) -> None:
    cells: list[Cell] = []
    for name in SCENARIOS:
        probe_stack = provision(moto_endpoint, clock.__class__(clock.current))
        probe = CallLog()
        play(probe_stack, name, probe, "probe")
        calls = len([c for c in probe.calls]) if SCENARIOS[name].kind == "tool" else None
        count = calls if calls is not None else _fire_calls(moto_endpoint, clock, name)
        for index in range(count):
            for mode in MODES:
                stack = provision(moto_endpoint, clock.__class__(clock.current))
                fault = CallLog(crash_after=index) if mode == "crash" else CallLog(fail_at=index, failure=mode)
                cells.append(play(stack, name, fault, mode))
        if SCENARIOS[name].kind == "fire":
            stack = provision(moto_endpoint, clock.__class__(clock.current))
            cells.append(play(stack, name, CallLog(), "crash", chat_crash=True))
    violations = sum(len(c.violations) for c in cells)
    with capsys.disabled():
        print(f"\n{'operation':<30} {'call':>5} {'fault':<11} outcome")
        for c in cells:
            flag = "" if not c.violations else "  VIOLATION: " + "; ".join(c.violations)
            print(f"{c.op:<30} {c.call:>5} {c.mode:<11} {c.outcome}{flag}")
        print(f"{len(cells)} cells, {violations} violations")
    assert violations == 0


def _fire_calls(endpoint: str, clock: Any, name: str) -> int:
    """How many AWS calls the fire makes when nothing fails (the healthy run of the probe)."""
    stack = provision(endpoint, clock.__class__(clock.current))
    ctx = SCENARIOS[name].prepare(stack)
    log = CallLog()
    run_fire(stack, deps_with(stack, log, []), IdempotentChat(), ctx["event"])
    return len(log.calls)
