"""The notice a failed run posts: a recurring schedule's says that further failures stay quiet until it
works again; a one-shot's, which has no further run, says only that it failed, and the one-shot is
`fired` with its failed run as `last_run` (docs/semantics.md)."""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta
from typing import Any

import pytest

from cronbell.core.domain.fire_event import parse_fire_event
from cronbell.core.domain.ports import AgentError
from cronbell.usecases import fire as fire_uc
from tests.support.envelopes import ROOM
from tests.support.memory_stack import MemoryStack


class FailingAgents:
    configured = True

    def call(self, agent_id: str, request: dict[str, Any], timeout_seconds: int) -> str:
        raise AgentError("the agent crashed")


@pytest.mark.parametrize(
    ("when", "further"),
    [({"fire_at": "in 10 minutes"}, False), ({"cron_expr": "*/30 * * * *"}, True)],
    ids=["one-shot", "recurring"],
)
def test_a_failed_agent_call_says_further_failures_are_quiet_only_when_more_runs_come(
    when: dict[str, str], further: bool
) -> None:
    stack = MemoryStack()
    stack.settings = replace(stack.settings, agents={"echo": "EchoAgentFunction"})
    made = stack.call("cron_create", {"name": "digest", "prompt": "summarize", **when})
    assert made["ok"], made
    due = stack.clock.now() + timedelta(minutes=30)
    stack.clock.current = due
    slot = made["result"]["next_fire"]["utc"]
    event = parse_fire_event({"room_id": ROOM, "reminder_id": made["result"]["id"], "scheduled_time": slot}, due)
    answer = fire_uc.fire(event, stack.deps(agents=FailingAgents()), lambda: 300.0)
    assert answer["outcome"] == "failed", answer
    [(notice, _)] = stack.chat.sent
    assert "digest" in notice.text and "the agent crashed" in notice.text
    assert ("Further failures will not be announced" in notice.text) is further
    (listed,) = stack.call("list_reminders", {"include_inactive": True})["result"]["schedules"]
    assert listed["status"] == ("active" if further else "fired")  # a one-shot's run is over, failed or not
    assert (listed["last_run"]["outcome"], listed["last_run"]["reason"]) == ("failed", "agent_error")
