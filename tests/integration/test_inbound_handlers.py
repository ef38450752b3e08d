"""Bedrock Agents and AgentCore Gateway events through the tools function's handler, on the moto stack."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from cronbell.core.domain import refusals
from cronbell.core.domain.routing import room_key
from cronbell.inbound import agentcore
from tests.support.aws import ROOT, Stack
from tests.support.fake_platform import FakePlatform
from tests.support.handlers import LambdaContext, configure_env, invoke, load_handler
from tests.support.matrix_stand_in import MatrixStandIn, forget_wiring, matrix_env

EVENTS = Path(ROOT) / "events"
BEDROCK_ROOM = "!bedrock:example.org"  # the room in events/bedrock-*.json
PINNED_ROOM = "!pinned:example.org"
GATEWAY_TOOL = "cronbell___create_reminder"
THREAD = "$planning:example.org"
TOKEN = "syt_inbound_routing"


@pytest.fixture
def env(stack: Stack, monkeypatch: pytest.MonkeyPatch) -> Iterator[Stack]:
    configure_env(stack)
    for var in (*agentcore.ENV_CONTEXT.values(), agentcore.TRUST_HEADERS_ENV):
        monkeypatch.delenv(var, raising=False)
    yield stack


def call(event: Any, custom: dict[str, Any] | None = None) -> dict[str, Any]:
    context = LambdaContext(function_name="tools")
    if custom is not None:
        context.client_context = SimpleNamespace(custom=custom)
    response = load_handler("tools").lambda_handler(event, context)
    json.dumps(response)  # what Lambda returns must be JSON
    return response


def event_file(name: str) -> Any:
    return json.loads((EVENTS / name).read_text())


def bedrock_body(response: dict[str, Any]) -> dict[str, Any]:
    return json.loads(response["response"]["functionResponse"]["responseBody"]["TEXT"]["body"])


def mcp_answer(result: dict[str, Any]) -> dict[str, Any]:
    [item] = result["content"]
    assert item["type"] == "text"
    return json.loads(item["text"])


def gateway(tool: str = GATEWAY_TOOL, headers: dict[str, str] | None = None) -> dict[str, Any]:
    custom: dict[str, Any] = {
        "bedrockAgentCoreToolName": tool,
        "bedrockAgentCoreMessageVersion": "1.0",
        "bedrockAgentCoreGatewayId": "gw-1",
        "bedrockAgentCoreTargetId": "tg-1",
        "bedrockAgentCoreAwsRequestId": "req-1",
        "bedrockAgentCoreMcpMessageId": "1",
    }
    if headers is not None:
        custom["bedrockAgentCorePropagatedHeaders"] = headers
    return custom


def live(stack: Stack, room: str) -> list[dict[str, Any]]:
    return [i for i in stack.items() if i["sk"].startswith("s#") and i["room_id"] == room and i["status"] == "active"]


@pytest.fixture
def two_platforms(env: Stack, monkeypatch: pytest.MonkeyPatch, platform: FakePlatform) -> Iterator[MatrixStandIn]:
    """A deployment with two chat backends, a webhook (the default) and Matrix (a stand-in homeserver):
    only a call routed to Matrix can reach the stand-in."""
    with MatrixStandIn(TOKEN) as matrix:
        matrix_env(env, monkeypatch, matrix.url, TOKEN)
        monkeypatch.setenv("CHAT_BACKEND", "webhook,matrix")
        monkeypatch.setenv("CHAT_WEBHOOK_URL", f"{platform.url}/hook")
        forget_wiring()
        yield matrix


def fire_entry(stack: Stack, schedule_id: str, slot: str) -> str:
    """Fire a schedule with the Input of its own Scheduler entry, as Scheduler would at `slot`."""
    event = json.loads(stack.entries()[schedule_id]["Target"]["Input"])
    event.update(scheduled_time=slot, execution_id="x", attempt="1")
    return str(invoke("fire", event)["outcome"])


def assert_posted_in_thread(matrix: MatrixStandIn, room: str, text: str) -> None:
    (post,) = matrix.received
    assert post["room_id"] == room and text in post["body"]
    relation = post["m.relates_to"]
    assert (relation["rel_type"], relation["event_id"]) == ("m.thread", THREAD)


# --- Bedrock Agents ------------------------------------------------------------------------------


def test_bedrock_sample_events_create_then_list(env: Stack) -> None:
    created = call(event_file("bedrock-create-reminder.json"))
    assert created["messageVersion"] == "1.0"
    assert created["response"]["actionGroup"] == "cronbell"
    assert created["response"]["function"] == "create_reminder"
    assert "responseState" not in created["response"]["functionResponse"]
    assert created["sessionAttributes"]["room_id"] == BEDROCK_ROOM  # kept for the next turn
    answer = bedrock_body(created)
    assert answer["ok"] is True and "Son las" in answer["text"]
    assert answer["result"]["next_fire"]["local"] == "2026-12-01T09:00:00+01:00"  # mañana a las 9, Madrid
    [item] = live(env, BEDROCK_ROOM)
    assert item["user_id"] == "@lucia:example.org" and item["id"] == answer["result"]["id"]
    assert answer["result"]["id"] in env.entries()

    listed = bedrock_body(call(event_file("bedrock-list-reminders.json")))
    assert listed["ok"] is True
    assert [s["id"] for s in listed["result"]["schedules"]] == [answer["result"]["id"]]


def test_bedrock_cron_create_with_typed_parameters(env: Stack) -> None:
    event = event_file("bedrock-list-reminders.json")
    event["function"] = "cron_create"
    event["parameters"] = [
        {"name": "name", "type": "string", "value": "daily summary"},
        {"name": "prompt", "type": "string", "value": "Summarise the day"},
        {"name": "cron_expr", "type": "string", "value": "0 18 * * *"},
        {"name": "skills", "type": "array", "value": "[daily-analysis, weather]"},
        {"name": "recurring", "type": "boolean", "value": "true"},
        {"name": "timeout_seconds", "type": "integer", "value": "60"},
    ]
    answer = bedrock_body(call(event))
    assert answer["ok"] is True and answer["result"]["kind"] == "agent_call"
    [item] = live(env, BEDROCK_ROOM)
    assert item["skills"] == ["daily-analysis", "weather"]


def test_bedrock_bad_time_reprompts_and_changes_nothing(env: Stack) -> None:
    event = event_file("bedrock-create-reminder.json")
    event["parameters"][1]["value"] = "when pigs fly"
    response = call(event)
    assert response["response"]["functionResponse"]["responseState"] == "REPROMPT"
    assert bedrock_body(response)["error"]["code"] == refusals.INVALID_TIME
    assert live(env, BEDROCK_ROOM) == [] and env.entries() == {}


def test_bedrock_unknown_function_reprompts(env: Stack) -> None:
    event = event_file("bedrock-list-reminders.json")
    event["function"] = "reminders_everywhere"
    response = call(event)
    assert response["response"]["functionResponse"]["responseState"] == "REPROMPT"
    assert bedrock_body(response)["error"]["code"] == refusals.UNKNOWN_TOOL


def test_bedrock_without_session_room_fails_and_changes_nothing(env: Stack) -> None:
    event = event_file("bedrock-create-reminder.json")
    del event["sessionAttributes"]["room_id"]
    event["parameters"].append({"name": "room_id", "type": "string", "value": BEDROCK_ROOM})
    response = call(event)
    assert response["response"]["functionResponse"]["responseState"] == "FAILURE"
    assert bedrock_body(response)["error"]["code"] == refusals.MISSING_CONTEXT
    assert env.items() == [] and env.entries() == {}


def test_bedrock_session_thread_and_platform_route_the_reminder(
    env: Stack, two_platforms: MatrixStandIn, platform: FakePlatform
) -> None:
    event = event_file("bedrock-create-reminder.json")
    event["sessionAttributes"].update(thread_id=THREAD, platform="matrix")
    created = bedrock_body(call(event))
    assert created["ok"] is True, created
    sid = created["result"]["id"]
    [item] = live(env, room_key("matrix", BEDROCK_ROOM, "webhook"))
    assert item["thread_id"] == THREAD
    assert fire_entry(env, sid, "2026-12-01T08:00:00Z") == "delivered"  # mañana a las 9 in Madrid
    assert_posted_in_thread(two_platforms, BEDROCK_ROOM, "Llamar al dentista")
    assert platform.requests == []  # nothing went to the default platform


def test_bedrock_thread_or_platform_written_by_the_model_is_refused(env: Stack) -> None:
    for name, value in (("thread_id", THREAD), ("platform", "slack")):
        event = event_file("bedrock-create-reminder.json")
        event["parameters"].append({"name": name, "type": "string", "value": value})
        response = call(event)
        assert response["response"]["functionResponse"]["responseState"] == "REPROMPT"
        assert bedrock_body(response)["error"]["code"] == refusals.INVALID_ARGUMENTS
    assert env.items() == [] and env.entries() == {}


# --- AgentCore Gateway ---------------------------------------------------------------------------


def test_agentcore_sample_event_in_a_pinned_room(env: Stack, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MCP_ROOM_ID", PINNED_ROOM)
    monkeypatch.setenv("MCP_USER_ID", "@ana:example.org")
    result = call(event_file("agentcore-create-reminder.json"), gateway())
    assert result["isError"] is False
    answer = mcp_answer(result)
    assert answer["ok"] is True and answer["result"]["recurring"] is True
    [item] = live(env, PINNED_ROOM)
    assert item["user_id"] == "@ana:example.org" and item["timezone"] == "Europe/Madrid"

    listed = mcp_answer(call({}, gateway("cronbell___list_reminders")))
    assert [s["id"] for s in listed["result"]["schedules"]] == [item["id"]]


def test_agentcore_identity_from_trusted_headers(env: Stack, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MCP_TRUST_PROPAGATED_HEADERS", "true")
    headers = {"X-Cronbell-Room-Id": "!header:example.org", "X-Cronbell-User-Id": "@bob:example.org"}
    result = call({"message": "Water the plants", "time": "in 2 hours"}, gateway(headers=headers))
    assert result["isError"] is False, result
    [item] = live(env, "!header:example.org")
    assert item["user_id"] == "@bob:example.org"


@pytest.mark.parametrize("source", ["pinned", "headers"])
def test_agentcore_thread_and_platform_route_the_reminder(
    env: Stack, two_platforms: MatrixStandIn, platform: FakePlatform, monkeypatch: pytest.MonkeyPatch, source: str
) -> None:
    headers: dict[str, str] = {}
    if source == "pinned":
        pinned = {"ROOM_ID": PINNED_ROOM, "USER_ID": "@ana:example.org", "THREAD_ID": THREAD, "PLATFORM": "matrix"}
        for name, value in pinned.items():
            monkeypatch.setenv(f"MCP_{name}", value)
    else:
        monkeypatch.setenv("MCP_TRUST_PROPAGATED_HEADERS", "true")
        headers = {
            "X-Cronbell-Room-Id": PINNED_ROOM,
            "X-Cronbell-User-Id": "@ana:example.org",
            "X-Cronbell-Thread-Id": THREAD,
            "X-Cronbell-Platform": "matrix",
        }
    result = call({"message": "Water the plants", "time": "in 2 hours"}, gateway(headers=headers))
    answer = mcp_answer(result)
    assert answer["ok"] is True, answer
    [item] = live(env, room_key("matrix", PINNED_ROOM, "webhook"))
    assert item["thread_id"] == THREAD
    assert fire_entry(env, answer["result"]["id"], "2026-11-30T10:00:00Z") == "delivered"
    assert_posted_in_thread(two_platforms, PINNED_ROOM, "Water the plants")
    assert platform.requests == []


def test_agentcore_arguments_cannot_choose_the_room(env: Stack, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MCP_ROOM_ID", PINNED_ROOM)
    monkeypatch.setenv("MCP_USER_ID", "@ana:example.org")
    forged = {"message": "x", "time": "in 2 hours", "room_id": "!evil:example.org"}
    result = call(forged, gateway())
    assert result["isError"] is True
    assert mcp_answer(result)["error"]["code"] == refusals.INVALID_ARGUMENTS
    envelope_like = {"tool": "create_reminder", "arguments": forged, "context": {"room_id": "!evil:example.org"}}
    assert call(envelope_like, gateway())["isError"] is True
    assert env.items() == [] and env.entries() == {}


def test_agentcore_without_configured_identity_says_what_to_configure(env: Stack) -> None:
    headers = {"X-Cronbell-Room-Id": "!header:example.org", "X-Cronbell-User-Id": "@bob:example.org"}
    result = call(event_file("agentcore-create-reminder.json"), gateway(headers=headers))
    assert result["isError"] is True
    answer = mcp_answer(result)
    assert answer["error"]["code"] == refusals.MISSING_CONTEXT
    assert "MCP_ROOM_ID" in answer["error"]["message"]
    assert "MCP_TRUST_PROPAGATED_HEADERS" in answer["error"]["message"]
    assert env.items() == [] and env.entries() == {}


def test_plain_envelope_still_answers_the_contract(env: Stack) -> None:
    answer = call(event_file("tools-list-reminders.json"))
    assert answer["ok"] is True and answer["result"]["schedules"] == []
