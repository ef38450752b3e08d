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


def test_a_one_shot_whose_chat_stays_unreachable_through_the_last_retry_ends_delivery_failed() -> None:
    """docs/semantics.md: a post that never reached the room ends a one-shot `delivery_failed`, the outage's
    reason in `last_run`; each attempt before Lambda's last raises, so Lambda retries."""
    from cronbell.core.domain.ports import TransientChatError
    from cronbell.usecases.fire_writes import RetryLater

    stack = MemoryStack()
    made = stack.call("create_reminder", {"message": "x", "time": "in 10 minutes"})["result"]
    outage = TransientChatError("down")
    for attempt in range(1 + stack.settings.fire_retries):
        stack.chat.fail_with = outage
        if attempt < stack.settings.fire_retries:
            with pytest.raises(RetryLater):
                stack.fire(made["id"], made["next_fire"]["utc"])
        else:
            assert stack.fire(made["id"], made["next_fire"]["utc"])["reason"] == "chat_error"
    (item,) = stack.call("list_reminders", {"include_inactive": True})["result"]["schedules"]
    assert (item["status"], item["last_run"]["outcome"], item["last_run"]["reason"]) == (
        "delivery_failed",
        "failed",
        "chat_error",
    )
    assert stack.chat.sent == []
