"""What the repeat and run_now tests share: a repeating reminder, its repeat entries fired as Scheduler
fires them, its history, and run_now with the fire it starts."""

from __future__ import annotations

import json
from typing import Any

from cronbell.core.domain import repeats
from cronbell.core.domain.fire_event import parse_fire_event
from cronbell.usecases import fire as fire_uc
from cronbell.usecases import tools
from tests.support.aws import Stack
from tests.support.chat import RecordingChat
from tests.support.envelopes import envelope
from tests.support.lambda_timing import at_slot
from tests.support.tools import call, ok

BOSS = "@boss:example.org"
SLOT = "2026-11-30T09:30:00Z"


def repeat_entries(stack: Stack, sid: str, slot: str = SLOT) -> dict[str, dict[str, Any]]:
    """The repeat entries of one occurrence, by `<id>-repeat-<k>`."""
    prefix = repeats.entry_name(sid, slot, 0)[:-1]
    return {f"{sid}-repeat-{n[len(prefix) :]}": e for n, e in stack.entries().items() if n.startswith(prefix)}


def fire_entry(stack: Stack, entry: dict[str, Any], chat: RecordingChat) -> dict[str, Any]:
    """Fire a one-time entry as Scheduler would: its Input with the scheduled time filled in."""
    when = entry["ScheduleExpression"][3:-1] + "Z"
    event = json.loads(entry["Target"]["Input"])
    event.update(scheduled_time=when, execution_id="x", attempt="1")
    at_slot(stack.clock, event)
    return fire_uc.fire(parse_fire_event(event, stack.clock.now()), stack.deps(chat=lambda: chat))


def history(stack: Stack, sid: str) -> list[dict[str, Any]]:
    runs: list[dict[str, Any]] = ok(call(stack, "reminder_history", {"id": sid}))["runs"]
    return runs


def create(stack: Stack, **extra: Any) -> str:
    arguments = {"message": "Take the pills", "time": "2026-11-30 10:30", "repeat_every": 10, **extra}
    sid: str = ok(call(stack, "create_reminder", arguments))["id"]
    return sid


class EchoAgents:
    configured = True

    def call(self, agent_id: str, request: dict[str, Any], timeout_seconds: int) -> str:
        return f"echo: {request['prompt']}"


def run_now(stack: Stack, target: str, chat: RecordingChat) -> tuple[dict[str, Any], dict[str, Any] | None]:
    """The tool's answer, and the outcome of the fire it started (None when it started none)."""
    started: list[dict[str, Any]] = []
    deps = stack.deps(start_fire=started.append, chat=lambda: chat, agents=EchoAgents())
    answer = tools.handle(envelope("run_now", {"target": target}), deps)
    if not started:
        return answer, None
    [event] = started
    return answer, fire_uc.fire(parse_fire_event(event, stack.clock.now()), deps, lambda: 300.0)
