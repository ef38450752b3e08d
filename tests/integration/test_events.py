"""Every file in events/ goes through its handler, in the order a conversation would use them."""

from __future__ import annotations

import json
from collections.abc import Callable
from types import SimpleNamespace
from typing import Any

import pytest

from cronbell import wiring
from cronbell.core.domain import refusals
from tests.support.aws import Stack
from tests.support.handlers import EVENTS, LambdaContext, configure_env, invoke, load_handler
from tests.support.lambda_timing import at_slot

# What an AgentCore Gateway puts in the Lambda client context (the event is only the arguments).
GATEWAY = {"bedrockAgentCoreToolName": "cronbell___create_reminder", "bedrockAgentCoreMessageVersion": "1.0"}

ORDER = [
    "tools-create-reminder-es.json",
    "tools-create-reminder-rfc3339.json",
    "tools-create-recurring.json",
    "tools-invalid-time.json",
    "tools-unknown-tool.json",
    "tools-list-reminders.json",
    "tools-delete-reminder.json",
    "tools-cron-create.json",
    "tools-cron-list.json",
    "tools-run-now.json",
    "tools-cron-delete.json",
    "fire-scheduler.json",
    "echo-agent.json",
    "bedrock-create-reminder.json",
    "bedrock-list-reminders.json",
    "agentcore-create-reminder.json",
    "projector-stream.json",
    "reconcile-daily.json",
]


def bedrock(response: dict[str, Any]) -> Any:
    return json.loads(response["response"]["functionResponse"]["responseBody"]["TEXT"]["body"])


def ok(answer: dict[str, Any]) -> bool:
    return answer["ok"] is True


def error(code: str) -> Callable[[dict[str, Any]], bool]:
    return lambda answer: answer["ok"] is False and answer["error"]["code"] == code


EXPECT: dict[str, Callable[[Any], bool]] = {
    "tools-create-reminder-es.json": lambda a: ok(a) and "Son las" in a["text"],
    "tools-create-reminder-rfc3339.json": lambda a: ok(a) and a["result"]["next_fire"]["utc"] == "2030-01-15T09:30:00Z",
    "tools-create-recurring.json": lambda a: ok(a) and a["result"]["recurring"],
    "tools-invalid-time.json": error(refusals.INVALID_TIME),
    "tools-unknown-tool.json": error(refusals.UNKNOWN_TOOL),
    "tools-list-reminders.json": lambda a: ok(a) and len(a["result"]["schedules"]) == 3,
    "tools-delete-reminder.json": error(refusals.NOT_FOUND),  # an id from another deployment
    "tools-cron-create.json": lambda a: ok(a) and a["result"]["kind"] == "agent_call",
    "tools-cron-list.json": lambda a: ok(a) and any(j["name"] == "daily summary" for j in a["result"]),
    "tools-run-now.json": lambda a: ok(a) and a["result"]["started"],
    "tools-cron-delete.json": ok,
    "fire-scheduler.json": lambda a: a["outcome"] == "unknown_schedule",
    "echo-agent.json": lambda a: a == {"text": "echo: Summarise the day"},
    "bedrock-create-reminder.json": lambda a: (
        "responseState" not in a["response"]["functionResponse"] and bedrock(a)["ok"] is True
    ),
    "bedrock-list-reminders.json": lambda a: len(bedrock(a)["result"]["schedules"]) == 1,
    "agentcore-create-reminder.json": lambda a: (
        a["isError"] is False and json.loads(a["content"][0]["text"])["result"]["recurring"] is True
    ),
    "projector-stream.json": lambda a: a == {"batchItemFailures": []},
    "reconcile-daily.json": lambda a: a["errors"] == 0 and a["schedules"] >= 1,  # the conversation's schedules
}


def test_every_event_file_is_covered() -> None:
    assert sorted(p.name for p in EVENTS) == sorted(ORDER) == sorted(EXPECT)


def test_events_through_their_handlers(stack: Stack, monkeypatch: pytest.MonkeyPatch) -> None:
    configure_env(stack)
    monkeypatch.setenv("MCP_ROOM_ID", "!agentcore:example.org")
    monkeypatch.setenv("MCP_USER_ID", "@ana:example.org")
    started: list[dict[str, Any]] = []
    wiring.deps().start_fire = started.append
    by_name = {p.name: p for p in EVENTS}
    for name in ORDER:
        event = json.loads(by_name[name].read_text())
        prefix = name.split("-")[0]
        function = {"fire": "fire", "echo": "echo_agent", "projector": "projector", "reconcile": "reconcile"}.get(
            prefix, "tools"
        )
        if prefix == "agentcore":
            context = LambdaContext(function_name="tools", client_context=SimpleNamespace(custom=GATEWAY))
            answer = load_handler("tools").lambda_handler(event, context)
        else:
            if prefix == "fire":  # a fire that comes past the grace a just-created one-shot may need
                at_slot(stack.clock, event)
                stack.clock.advance(minutes=2)
            answer = invoke(function, event)
        json.dumps(answer)
        assert EXPECT[name](answer), (name, answer)
    assert len(started) == 1 and started[0]["reminder_id"]
    # the stream record's schedule has its entry, as its item says
    (record,) = json.loads(by_name["projector-stream.json"].read_text())["Records"]
    image = record["dynamodb"]["NewImage"]
    entry = stack.scheduler.get_schedule(Name=image["id"]["S"], GroupName=stack.settings.schedule_group)
    assert entry["ScheduleExpression"] == image["expressions"]["L"][0]["S"] and entry["State"] == "ENABLED"
