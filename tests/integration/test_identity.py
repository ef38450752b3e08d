"""Identity only from context: a room, user or agent named in the model's arguments never changes who
is acting or where, and an agent's answers go only to this room or one the deployment allows."""

from __future__ import annotations

import json
from types import SimpleNamespace
from typing import Any

import pytest

from cronbell.core.domain import refusals
from cronbell.usecases import tools
from tests.support.aws import FakeClock, Stack, provision
from tests.support.envelopes import OTHER_ROOM, ROOM, USER, envelope
from tests.support.handlers import LambdaContext, configure_env, invoke, load_handler
from tests.support.registry import TOOL_ARGUMENTS

INTRUDER = {"room_id": OTHER_ROOM, "user_id": "@mallory:example.org", "agent_id": "echo"}


def seed(stack: Stack) -> dict[str, str]:
    deps = stack.deps()
    reminder = tools.handle(envelope("create_reminder", {"message": "Pay rent", "cron": "0 9 * * 1"}), deps)
    job = tools.handle(
        envelope("cron_create", {"name": "digest", "prompt": "Summarise", "cron_expr": "0 18 * * *"}), deps
    )
    assert reminder["ok"] and job["ok"], (reminder, job)
    return {"reminder": reminder["result"]["id"], "job": job["result"]["id"]}


def valid_arguments(tool: str, ids: dict[str, str]) -> dict[str, Any]:
    """Arguments each tool accepts as they are, naming the seeded schedules."""
    table: dict[str, dict[str, Any]] = {
        "create_reminder": {"message": "Stand up", "time": "2026-12-01 09:00"},
        "list_reminders": {"include_inactive": True},
        "delete_reminder": {"id": ids["reminder"]},
        "cron_create": {"name": "daily", "prompt": "Summarise the day", "cron_expr": "0 19 * * *"},
        "cron_list": {},
        "cron_delete": {"id": ids["job"]},
        "run_now": {"target": ids["job"]},
        "update_reminder": {"id": ids["reminder"], "message": "Pay the rent"},
        "pause_reminder": {"id": ids["reminder"]},
        "resume_reminder": {"id": ids["reminder"]},
        "snooze_reminder": {"id": ids["reminder"], "minutes": 30},
        "skip_next": {"id": ids["reminder"]},
        "reminder_history": {"id": ids["reminder"], "limit": 5},
        "done_reminder": {"id": ids["reminder"]},
        "set_quiet_hours": {"start": "22:00", "end": "07:30", "days": ["fri"]},
        "get_quiet_hours": {},
        "clear_quiet_hours": {},
    }
    return table[tool]


def state(stack: Stack) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    return sorted(stack.items(), key=lambda row: (row["room_id"], row["sk"])), stack.entries()


def code(answer: dict[str, Any]) -> str:
    return "ok" if answer["ok"] else str(answer["error"]["code"])


@pytest.mark.parametrize("tool", sorted(TOOL_ARGUMENTS))
def test_identity_in_arguments_is_refused_and_changes_nothing(stack: Stack, tool: str) -> None:
    ids = seed(stack)
    started: list[dict[str, Any]] = []
    deps = stack.deps(start_fire=started.append)
    args = valid_arguments(tool, ids)
    before = state(stack)
    for key, value in INTRUDER.items():
        for form in ({**args, key: value}, json.dumps({**args, key: value})):
            answer = tools.handle({**envelope(tool), "arguments": form}, deps)
            assert code(answer) == refusals.INVALID_ARGUMENTS, (key, answer)
            assert key in answer["error"]["message"]
    assert state(stack) == before and started == []
    # the same arguments without the intruding key are not refused for their shape
    assert code(tools.handle(envelope(tool, args), deps)) not in (refusals.INVALID_ARGUMENTS, refusals.INTERNAL_ERROR)


def bedrock_event(tool: str, parameters: dict[str, Any]) -> dict[str, Any]:
    return {
        "messageVersion": "1.0",
        "actionGroup": "cronbell",
        "function": tool,
        "parameters": [{"name": k, "type": "string", "value": v} for k, v in parameters.items()],
        "sessionAttributes": {"room_id": ROOM, "user_id": USER, "agent_id": "echo"},
        "promptSessionAttributes": {},
    }


def test_identity_parameters_are_refused_through_bedrock_and_the_gateway(
    stack: Stack, monkeypatch: pytest.MonkeyPatch
) -> None:
    configure_env(stack)
    monkeypatch.setenv("MCP_ROOM_ID", ROOM)
    monkeypatch.setenv("MCP_USER_ID", USER)
    before = state(stack)
    args = {"message": "Stand up", "time": "2026-12-01 09:00"}
    for key, value in INTRUDER.items():
        response = invoke("tools", bedrock_event("create_reminder", {**args, key: value}))
        body = json.loads(response["response"]["functionResponse"]["responseBody"]["TEXT"]["body"])
        assert code(body) == refusals.INVALID_ARGUMENTS and key in body["error"]["message"], body

        custom = {"bedrockAgentCoreToolName": "cronbell___create_reminder"}
        context = LambdaContext(function_name="tools", client_context=SimpleNamespace(custom=custom))
        result = load_handler("tools").lambda_handler({**args, key: value}, context)
        answer = json.loads(result["content"][0]["text"])
        assert result["isError"] is True and code(answer) == refusals.INVALID_ARGUMENTS, answer
    assert state(stack) == before


def test_another_rooms_context_cannot_reach_a_schedule_by_id(stack: Stack) -> None:
    ids = seed(stack)
    started: list[dict[str, Any]] = []
    deps = stack.deps(start_fire=started.append)
    before = state(stack)
    by_id = [tool for tool in sorted(TOOL_ARGUMENTS) if {"id", "target"} & set(TOOL_ARGUMENTS[tool].model_fields)]
    assert len(by_id) >= 8
    for tool in by_id:
        for sid in ids.values():
            args = {**valid_arguments(tool, ids), **({"target": sid} if tool == "run_now" else {"id": sid})}
            answer = tools.handle(envelope(tool, args, room=OTHER_ROOM), deps)
            assert code(answer) == refusals.NOT_FOUND, (tool, answer)
    listed = tools.handle(envelope("list_reminders", {"include_inactive": True}, room=OTHER_ROOM), deps)
    assert listed["ok"] and listed["result"]["schedules"] == []
    assert state(stack) == before and started == []


def test_model_written_channel_to_a_room_not_allowed_is_forbidden(stack: Stack) -> None:
    ids = seed(stack)
    deps = stack.deps()
    before = state(stack)
    job = {"name": "elsewhere", "prompt": "Summarise", "cron_expr": "0 7 * * *", "channel": OTHER_ROOM}
    answer = tools.handle(envelope("cron_create", job), deps)
    assert code(answer) == refusals.FORBIDDEN_CHANNEL, answer
    answer = tools.handle(envelope("update_reminder", {"id": ids["job"], "channel": OTHER_ROOM}), deps)
    assert code(answer) == refusals.FORBIDDEN_CHANNEL, answer
    assert state(stack) == before


def test_channel_the_deployment_allows_is_accepted(moto_endpoint: str, clock: FakeClock) -> None:
    stack = provision(moto_endpoint, clock, allowed_output_rooms=(OTHER_ROOM,))
    job = {"name": "elsewhere", "prompt": "Summarise", "cron_expr": "0 7 * * *", "channel": OTHER_ROOM}
    answer = tools.handle(envelope("cron_create", job), stack.deps())
    assert answer["ok"], answer
    [item] = [row for row in stack.items() if row["sk"].startswith("s#")]
    # the schedule belongs to the room that asked; only its answers go to the allowed room
    assert item["room_id"] == ROOM and item["channel"] == OTHER_ROOM
    entry = stack.entries()[answer["result"]["id"]]
    assert json.loads(entry["Target"]["Input"])["room_id"] == ROOM
