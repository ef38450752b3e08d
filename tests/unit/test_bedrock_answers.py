"""Bedrock Agents answers through the real use case: each stays under the 25 KB Bedrock takes from an action
group's Lambda (a full room's listing leaves out of its items what says nothing, then its last items, saying
how many), and a parameter the adapter cannot convert is refused with `now`, as every answer is."""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

import pytest

from cronbell.inbound import bedrock_agents
from cronbell.inbound.fitted import BEDROCK_RESPONSE_BYTES, size
from cronbell.usecases import tools
from tests.support.envelopes import ROOM, USER
from tests.support.memory_stack import MemoryStack

SESSION = {"room_id": ROOM, "user_id": USER, "agent_id": "echo", "timezone": "Europe/Madrid", "locale": "en"}


def listing(stack: MemoryStack, function: str, *params: tuple[str, str, str]) -> tuple[dict[str, Any], Any]:
    event = {
        "messageVersion": "1.0",
        "actionGroup": "cronbell",
        "function": function,
        "parameters": [{"name": n, "type": t, "value": v} for n, t, v in params],
        "sessionAttributes": SESSION,
    }
    response = bedrock_agents.handle(event, lambda envelope: tools.handle(envelope, stack.deps()))
    return response, json.loads(response["response"]["functionResponse"]["responseBody"]["TEXT"]["body"])


def room_of(count: int, words: int, agent_calls: bool = False) -> tuple[MemoryStack, list[str]]:
    """`count` daily reminders (or agent calls, whose names are listed whole) in one room, each with an end."""
    stack, ids = MemoryStack(), []
    stack.settings = replace(stack.settings, agents={"echo": "EchoAgentFunction"})
    for n in range(count):
        said = f"plants {n} " + "and the ferns on the balcony " * words
        if agent_calls:
            arguments = {"name": said.strip()[:100], "prompt": "check the weather", "cron_expr": f"{n} 9 * * *"}
            made = stack.call("cron_create", arguments)
        else:
            arguments = {"message": said, "cron": f"{n} 9 * * *", "until": "2027-06-30"}
            made = stack.call("create_reminder", arguments)
        assert made["ok"], made
        ids.append(made["result"]["id"])
    return stack, ids


def test_a_small_listing_is_the_answer_as_it_is() -> None:
    stack, _ = room_of(3, 1)
    _, answer = listing(stack, "list_reminders")
    assert answer == stack.call("list_reminders") and "next_fires" in answer["result"]["schedules"][0]


@pytest.mark.parametrize("function", ["list_reminders", "cron_list"])
def test_a_full_room_fits_with_every_schedule_named(function: str) -> None:
    """50 schedules, the deployment's default limit per room, each with an end: about 45 KB as the use case
    answers them."""
    stack, ids = room_of(50, 1) if function == "list_reminders" else room_of(50, 3, agent_calls=True)
    unfitted = stack.call(function)
    assert len(json.dumps(unfitted, ensure_ascii=False)) > BEDROCK_RESPONSE_BYTES
    response, answer = listing(stack, function)
    assert size(response) <= BEDROCK_RESPONSE_BYTES
    items = answer["result"]["schedules"] if function == "list_reminders" else answer["result"]
    assert [item["id"] for item in items] == ids  # none left out: each leaves out what it has null
    if function == "list_reminders":
        assert all("next_fires" not in item and "held_until" not in item for item in items)
        assert items[0]["until"] == "2027-06-30T23:59:59+02:00" and "not_shown" not in answer["result"]


def test_a_listing_that_cannot_fit_whole_says_how_many_it_leaves_out() -> None:
    stack, ids = room_of(50, 4)
    for sid in ids[:40]:  # ended schedules are listed with include_inactive: their copies kept for audit
        assert stack.call("delete_reminder", {"id": sid})["ok"]
    for n in range(40):
        assert stack.call("create_reminder", {"message": f"more {n} " + "x" * 150, "cron": f"{n} 10 * * *"})["ok"]
    response, answer = listing(stack, "list_reminders", ("include_inactive", "boolean", "true"))
    assert size(response) <= BEDROCK_RESPONSE_BYTES
    shown, hidden = answer["result"]["schedules"], answer["result"]["not_shown"]
    assert hidden > 0 and len(shown) + hidden == len(
        stack.call("list_reminders", {"include_inactive": True})["result"]["schedules"]
    )
    assert f"{hidden} more are not in this answer, which must stay under 25 KB" in answer["text"]


@pytest.mark.parametrize(
    "params",
    [
        (("id", "string", "k3v9q2m8xa"), ("limit", "integer", "ten")),  # not of its declared type
        (("id", "string", "k3v9q2m8xa"), ("options", "string", "{not json")),
        (("id", "string", "k3v9q2m8xa"), ("options", "string", '{"id": "other"}')),  # both ways
    ],
)
def test_a_parameter_bedrock_could_not_convert_is_refused_with_now_as_every_answer(params: Any) -> None:
    """The adapter's refusal is said by the use case, like its own: `now` in the details and the text."""
    stack, _ = room_of(1, 0)
    _, answer = listing(stack, "reminder_history", *params)
    assert answer["error"]["code"] == "invalid_arguments", answer
    assert answer["error"]["details"]["now"] == {"local": "2026-11-30T09:00:00+01:00", "utc": "2026-11-30T08:00:00Z"}
    assert answer["text"].endswith("Now it is 09:00 on Monday 30 November 2026 (Europe/Madrid).")
