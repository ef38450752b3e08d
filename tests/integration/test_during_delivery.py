"""Changes that meet a delivery under way: refused as `busy` (the answer never says a change was
made that the fire then overwrites), and accepted once the delivery is over."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from typing import Any

import pytest

from cronbell.core.domain import refusals
from cronbell.core.domain.fire_event import parse_fire_event
from cronbell.core.domain.models import Schedule
from cronbell.usecases import fire as fire_uc
from cronbell.usecases import tools
from tests.support.aws import Stack
from tests.support.chat import RecordingChat
from tests.support.envelopes import ROOM, envelope
from tests.support.tools import call, ok


class SlowAgents:
    """An agent that answers only when the test lets it."""

    configured = True

    def __init__(self) -> None:
        self.called = threading.Event()
        self.release = threading.Event()

    def call(self, agent_id: str, request: dict[str, Any], timeout_seconds: int) -> str:
        self.called.set()
        assert self.release.wait(30)
        return "the answer"


ONE_SHOT = {"name": "report", "prompt": "p", "fire_at": "2026-11-30 09:10"}
DAILY = {"name": "report", "prompt": "p", "cron_expr": "0 9 * * *"}
CHANGES = {
    "update_reminder": (ONE_SHOT, {"time": "2026-11-30 20:05", "prompt": "new"}),
    "snooze_reminder": (ONE_SHOT, {"minutes": 30}),
    "pause_reminder": (ONE_SHOT, {}),
    "skip_next": (DAILY, {}),
}


@pytest.mark.parametrize("tool", list(CHANGES))
def test_a_change_during_a_delivery_is_refused_as_busy_then_accepted(stack: Stack, tool: str) -> None:
    created, args = CHANGES[tool]
    sid = ok(call(stack, "cron_create", created))["id"]
    stack.clock.advance(minutes=10)  # 09:10 Madrid: the one-shot's time, after the daily's
    slot = "2026-11-30T08:10:00Z" if created is ONE_SHOT else "2026-11-30T08:00:00Z"
    agents = SlowAgents()
    deps = stack.deps(chat=lambda: RecordingChat(), agents=agents)
    event = parse_fire_event({"room_id": ROOM, "reminder_id": sid, "scheduled_time": slot}, stack.clock.now())
    with ThreadPoolExecutor(1) as pool:
        delivery = pool.submit(fire_uc.fire, event, deps, lambda: 300.0)
        assert agents.called.wait(30)
        before = next(i for i in stack.items() if i["sk"] == f"s#{sid}")
        answer = call(stack, tool, {"id": sid, **args})
        assert not answer["ok"] and answer["error"]["code"] == refusals.BUSY, answer
        assert next(i for i in stack.items() if i["sk"] == f"s#{sid}") == before  # nothing changed
        agents.release.set()
        assert delivery.result()["outcome"] == "delivered"
    if created is DAILY:  # once the delivery is over, the same call goes through
        ok(call(stack, tool, {"id": sid, **args}))
    else:  # the one-shot fired; a snooze brings it back at a new time
        ok(call(stack, "snooze_reminder", {"id": sid, "minutes": 30}))


class ReadBefore:
    """The store, but its `get` answers the schedule as it was before the delivery claimed it: the
    tool read it just before the claim landed."""

    def __init__(self, store: Any, schedule: Schedule) -> None:
        self._store = store
        self._schedule = schedule

    def get(self, room_id: str, schedule_id: str) -> Schedule:
        return replace(self._schedule)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._store, name)


def _definitions(stack: Stack) -> dict[str, tuple[str, str]]:
    return {name: (e["ScheduleExpression"], e["State"]) for name, e in stack.entries().items()}


@pytest.mark.parametrize("tool", ["update_reminder", "snooze_reminder"])
def test_a_one_shot_change_whose_write_meets_the_claim_puts_no_fired_entry_back(stack: Stack, tool: str) -> None:
    """The claim lands between the change's read and its item write, after Scheduler deleted the
    one-shot's one-time entry (it fired): the change is refused as busy and leaves no entry, neither
    the new one it wrote nor the old one it never had to put back."""
    created, args = CHANGES[tool]
    sid = ok(call(stack, "cron_create", created))["id"]
    stack.clock.advance(minutes=10)
    read = stack.deps().store.get(ROOM, sid)
    assert read is not None and not read.held(stack.clock.now())
    stack.remove_entry(sid)  # Scheduler: a one-time entry that fired
    agents = SlowAgents()
    deps = stack.deps(chat=lambda: RecordingChat(), agents=agents)
    event = parse_fire_event(
        {"room_id": ROOM, "reminder_id": sid, "scheduled_time": "2026-11-30T08:10:00Z"}, stack.clock.now()
    )
    with ThreadPoolExecutor(1) as pool:
        delivery = pool.submit(fire_uc.fire, event, deps, lambda: 300.0)
        assert agents.called.wait(30)
        items, entries = stack.items(), _definitions(stack)
        answer = tools.handle(envelope(tool, {"id": sid, **args}), stack.deps(store=ReadBefore(deps.store, read)))
        assert not answer["ok"] and answer["error"]["code"] == refusals.BUSY, answer
        assert _definitions(stack) == entries == {}
        assert stack.items() == items
        agents.release.set()
        assert delivery.result()["outcome"] == "delivered"
