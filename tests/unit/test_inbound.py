"""The inbound adapters, pure: Bedrock Agents and AgentCore Gateway events to envelopes, answers back."""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from cronbell import inbound
from cronbell.core.contract import arguments as a
from cronbell.core.contract import envelope as contract
from cronbell.core.contract import errors, validation
from cronbell.core.contract.envelope import ADAPTER_REFUSAL, failure, parse_request, success
from cronbell.core.domain import refusals
from cronbell.core.domain.refusals import ToolError
from cronbell.inbound import agentcore, bedrock_agents

ROOT = Path(__file__).resolve().parents[2]
SESSION = {
    "room_id": "!abc:example.org",
    "user_id": "@ana:example.org",
    "agent_id": "echo",
    "timezone": "Europe/Madrid",
    "locale": "es",
}


def bedrock_event(function: str, *params: tuple[str, str, str], session: Any = None) -> dict[str, Any]:
    return {
        "messageVersion": "1.0",
        "agent": {"name": "bot", "id": "AGENT1", "alias": "ALIAS1", "version": "1"},
        "inputText": "remind me",
        "sessionId": "s-1",
        "actionGroup": "cronbell",
        "function": function,
        "parameters": [{"name": n, "type": t, "value": v} for n, t, v in params],
        "sessionAttributes": dict(SESSION) if session is None else session,
        "promptSessionAttributes": {"turn": "3"},
    }


class Recorder:
    """The use case's place: records the envelopes it is given and answers a fixed answer."""

    def __init__(self, answer: dict[str, Any] | None = None, raises: Exception | None = None) -> None:
        self.envelopes: list[dict[str, Any]] = []
        self.answer = answer or success({"id": "k3v9q2m8xa"}, "Scheduled.")
        self.raises = raises

    def __call__(self, envelope: dict[str, Any]) -> dict[str, Any]:
        if isinstance(adapter_refused := envelope.get(ADAPTER_REFUSAL), ToolError):  # as the use case, running nothing
            return contract.refused(adapter_refused, envelope["context"].get("locale"))
        self.envelopes.append(envelope)
        if self.raises:
            raise self.raises
        return self.answer


def refusal_of(event: dict[str, Any]) -> ToolError:
    """The refusal of an event's parameters, which the adapter hands the use case to say."""
    said = bedrock_agents.to_envelope(event).get(ADAPTER_REFUSAL)
    assert isinstance(said, ToolError)
    return said


def body(response: dict[str, Any]) -> dict[str, Any]:
    text = response["response"]["functionResponse"]["responseBody"]["TEXT"]["body"]
    return json.loads(text)


def refused(code: str) -> dict[str, Any]:
    return failure(ToolError(code, "no"), "Could not do that: no")


# --- Bedrock: parameter types --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("kind", "value", "expected"),
    [
        ("integer", "42", 42),
        ("integer", " -7 ", -7),
        ("integer", "60.0", 60),
        ("number", "1.5", 1.5),
        ("number", "3", 3),
        ("boolean", "true", True),
        ("boolean", "False", False),
        ("boolean", "yes", True),
        ("boolean", "0", False),
        ("array", '["daily-analysis", "weather"]', ["daily-analysis", "weather"]),
        ("array", "[daily-analysis, weather]", ["daily-analysis", "weather"]),
        ("array", "['a', \"b\"]", ["a", "b"]),
        ("array", "[]", []),
        ("array", "", []),
        ("array", "daily-analysis, weather", ["daily-analysis", "weather"]),
        ("array", "solo", ["solo"]),
        ("string", " 9 ", " 9 "),
        ("string", "true", "true"),
        ("STRING", "x", "x"),
    ],
)
def test_parameters_become_json_types(kind: str, value: str, expected: Any) -> None:
    result = bedrock_agents.coerce("p", kind, value)
    assert result == expected and type(result) is type(expected)


@pytest.mark.parametrize(
    ("kind", "value"),
    [("integer", "abc"), ("integer", "1.5"), ("number", "nan"), ("number", "ten"), ("boolean", "maybe")],
)
def test_parameters_that_do_not_fit_their_type_are_refused(kind: str, value: str) -> None:
    with pytest.raises(ToolError) as err:
        bedrock_agents.coerce("p", kind, value)
    assert err.value.code == refusals.INVALID_ARGUMENTS
    assert "`p`" in errors.message(err.value) and kind in errors.message(err.value)


def test_coerced_parameters_satisfy_the_strict_argument_models() -> None:
    event = bedrock_event(
        "cron_create",
        ("name", "string", "daily summary"),
        ("prompt", "string", "Summarise the day"),
        ("cron_expr", "string", "0 18 * * *"),
        ("skills", "array", "[daily-analysis, weather]"),
        ("recurring", "boolean", "true"),
        ("timeout_seconds", "integer", "60"),
    )
    envelope = bedrock_agents.to_envelope(event)
    args = a.parse(a.CronCreate, envelope["arguments"])
    assert args.skills == ["daily-analysis", "weather"]
    assert args.recurring is True and args.timeout_seconds == 60
    listing = bedrock_agents.to_envelope(bedrock_event("list_reminders", ("include_inactive", "boolean", "TRUE")))
    assert a.parse(a.ListReminders, listing["arguments"]).include_inactive is True


# --- Bedrock: rare arguments in one `options` JSON parameter -------------------------------------


def _as_bedrock(tool: str, arguments: dict[str, Any]) -> dict[str, Any]:
    """A call as Bedrock sends it for the generated definition: parameters as text, the rest in options."""
    definition = {
        f["name"]: f for f in json.loads((ROOT / "docs/tools/bedrock-agent-functions.json").read_text())["functions"]
    }
    declared = definition[tool]["parameters"]
    params = [
        (name, declared[name]["type"], json.dumps(value) if not isinstance(value, str) else value)
        for name, value in arguments.items()
        if name in declared
    ]
    options = {name: value for name, value in arguments.items() if name not in declared}
    if options:
        params.append(("options", "string", json.dumps(options)))
    return bedrock_event(tool, *params)


def test_every_tool_round_trips_through_its_generated_bedrock_definition() -> None:
    calls = {
        "cron_create": {"name": "digest", "prompt": "Summarise", "cron_expr": "0 9 * * 1", "skills": ["web"],
                        "channel": "!other:example.org", "target_agent": "echo", "recurring": True,
                        "timezone": "Europe/Madrid", "timeout_seconds": 60},
        "update_reminder": {"id": "k3v9q2m8xa", "time": "in 2 hours", "prompt": "New prompt", "name": "digest2",
                            "count": 0, "until": "never", "skip_holidays": "none"},
        "create_reminder": {"message": "Stand-up", "cron": "0 9 * * 1", "recurring": True, "timezone": "UTC",
                            "until": "2026-12-24", "count": 3, "skip_holidays": "ES-MD"},
        "snooze_reminder": {"id": "k3v9q2m8xa", "minutes": 15},
    }  # fmt: skip
    for tool, arguments in calls.items():
        envelope = bedrock_agents.to_envelope(_as_bedrock(tool, arguments))
        assert envelope["arguments"] == arguments, tool
        assert validation.parse(tool, envelope["arguments"]).as_dict().items() >= arguments.items()


def test_options_values_are_typed_like_parameters() -> None:
    event = bedrock_event(
        "cron_create",
        ("name", "string", "digest"),
        ("prompt", "string", "Summarise"),
        ("options", "string", '{"timeout_seconds": "60", "recurring": "yes", "skills": "[web, news]"}'),
    )
    args = bedrock_agents.to_envelope(event)["arguments"]
    assert args["timeout_seconds"] == 60 and args["recurring"] is True and args["skills"] == ["web", "news"]


@pytest.mark.parametrize(
    ("value", "why"),
    [
        ('{"timezone": "Europe/Madrid"', "is not valid JSON"),
        ('["timezone"]', "is not a JSON object"),
        ("timezone=UTC", "is not valid JSON"),
        ('{"timeout_seconds": "soon"}', "is not a whole number"),
    ],
)
def test_bad_options_are_a_structured_refusal_the_model_can_fix(value: str, why: str) -> None:
    event = bedrock_event(
        "cron_create", ("name", "string", "d"), ("prompt", "string", "p"), ("options", "string", value)
    )
    err = refusal_of(event)
    assert err.code == refusals.INVALID_ARGUMENTS and why in errors.message(err)
    assert "`options" in errors.message(err)
    answer = bedrock_agents.handle(event, Recorder())
    assert answer["response"]["functionResponse"]["responseState"] == "REPROMPT"
    assert body(answer)["error"]["code"] == refusals.INVALID_ARGUMENTS


def test_an_argument_both_as_parameter_and_in_options_is_refused() -> None:
    event = bedrock_event(
        "cron_create",
        ("name", "string", "d"),
        ("prompt", "string", "p"),
        ("options", "string", '{"name": "other"}'),
    )
    assert "both as a parameter and in `options`" in errors.message(refusal_of(event))
    unknown = bedrock_event("cron_create", ("name", "string", "d"), ("prompt", "string", "p"),
                            ("options", "string", '{"room_id": "!other:x"}'))  # fmt: skip
    with pytest.raises(ToolError) as err:
        validation.parse("cron_create", bedrock_agents.to_envelope(unknown)["arguments"])
    assert err.value.code == refusals.INVALID_ARGUMENTS  # options never carry identity


# --- Bedrock: event -> envelope ------------------------------------------------------------------


def test_event_becomes_the_envelope_with_identity_from_session_attributes() -> None:
    event = bedrock_event("create_reminder", ("message", "string", "Dentista"), ("time", "string", "mañana a las 9"))
    envelope = bedrock_agents.to_envelope(event)
    assert envelope == {
        "tool": "create_reminder",
        "arguments": {"message": "Dentista", "time": "mañana a las 9"},
        "context": SESSION,
    }
    request = parse_request(envelope)  # the use case reads it as a plain envelope
    assert request.context.room_id == "!abc:example.org" and request.context.locale == "es"


def test_parameters_never_change_identity() -> None:
    event = bedrock_event(
        "create_reminder",
        ("message", "string", "x"),
        ("time", "string", "in 5 minutes"),
        ("room_id", "string", "!other:example.org"),
        ("user_id", "string", "@mallory:example.org"),
    )
    envelope = bedrock_agents.to_envelope(event)
    assert envelope["context"]["room_id"] == "!abc:example.org"
    assert envelope["context"]["user_id"] == "@ana:example.org"
    with pytest.raises(ToolError) as err:  # and the strict model refuses them as arguments
        a.parse(a.CreateReminder, envelope["arguments"])
    assert err.value.code == refusals.INVALID_ARGUMENTS and "room_id" in errors.message(err.value)


def test_optional_session_attributes_are_left_out() -> None:
    session = {"room_id": "!abc:example.org", "user_id": "@ana:example.org", "locale": ""}
    envelope = bedrock_agents.to_envelope(bedrock_event("cron_list", session=session))
    assert envelope["context"] == {"room_id": "!abc:example.org", "user_id": "@ana:example.org"}
    assert envelope["arguments"] == {}


@pytest.mark.parametrize(
    "session",
    [{}, {"room_id": "!abc:example.org"}, {"user_id": "@ana:example.org"}, None],
    ids=["empty", "no-user", "no-room", "absent"],
)
def test_missing_room_or_user_is_a_failure_and_the_use_case_is_not_called(session: Any) -> None:
    event = bedrock_event("cron_list")
    if session is None:
        del event["sessionAttributes"]
    else:
        event["sessionAttributes"] = session
    call = Recorder()
    response = bedrock_agents.handle(event, call)
    assert call.envelopes == []
    assert response["response"]["functionResponse"]["responseState"] == "FAILURE"
    answer = body(response)
    assert answer["ok"] is False and answer["error"]["code"] == refusals.MISSING_CONTEXT
    assert "sessionAttributes" in answer["error"]["message"]


def test_duplicate_or_nameless_parameters_are_refused() -> None:
    twice = bedrock_event("delete_reminder", ("id", "string", "a"), ("id", "string", "b"))
    response = bedrock_agents.handle(twice, Recorder())
    assert body(response)["error"]["code"] == refusals.INVALID_ARGUMENTS
    assert response["response"]["functionResponse"]["responseState"] == "REPROMPT"
    nameless = bedrock_event("delete_reminder")
    nameless["parameters"] = [{"type": "string", "value": "x"}]
    response = bedrock_agents.handle(nameless, Recorder())
    assert body(response)["error"]["code"] == refusals.INVALID_REQUEST
    assert response["response"]["functionResponse"]["responseState"] == "FAILURE"


def test_an_event_without_function_is_refused_not_raised() -> None:
    event = bedrock_event("cron_list")
    del event["function"]
    response = bedrock_agents.handle(event, Recorder())
    assert body(response)["error"]["code"] == refusals.INVALID_REQUEST
    assert "detalles de función" in body(response)["error"]["message"]  # said in the session's locale
    event["sessionAttributes"]["locale"] = "en-GB"
    assert "function details" in body(bedrock_agents.handle(event, Recorder()))["error"]["message"]


def openapi_event(session: Any = None) -> dict[str, Any]:
    """The event of an action group defined with an OpenAPI schema (a misconfigured cronbell one)."""
    event = bedrock_event("", session=session)
    del event["function"]
    event["apiPath"] = "/reminders"
    event["httpMethod"] = "POST"
    event["parameters"] = [{"name": "room_id", "type": "string", "value": "!evil:example.org"}]
    properties = [
        {"name": "message", "type": "string", "value": "hi"},
        {"name": "time", "type": "string", "value": "in 5 minutes"},
    ]
    event["requestBody"] = {"content": {"application/json": {"properties": properties}}}
    return event


def api_body(response: dict[str, Any]) -> dict[str, Any]:
    return json.loads(response["response"]["responseBody"]["application/json"]["body"])


def test_an_openapi_schema_event_is_refused_in_the_openapi_shape_and_runs_nothing() -> None:
    event = openapi_event()
    call = Recorder()
    response = bedrock_agents.handle(event, call)
    assert call.envelopes == []
    answer = api_body(response)
    assert response == {
        "messageVersion": "1.0",
        "response": {
            "actionGroup": "cronbell",
            "apiPath": "/reminders",
            "httpMethod": "POST",
            "httpStatusCode": 400,
            "responseBody": {"application/json": {"body": json.dumps(answer, ensure_ascii=False)}},
        },
        "sessionAttributes": SESSION,
        "promptSessionAttributes": {"turn": "3"},
    }
    assert answer["ok"] is False and answer["error"]["code"] == refusals.INVALID_REQUEST
    assert "detalles de función" in answer["error"]["message"]  # said in the session's locale
    event["sessionAttributes"]["locale"] = "en"
    message = api_body(bedrock_agents.handle(event, call))["error"]["message"]
    assert "OpenAPI" in message and "'/reminders'" in message and "function details" in message
    assert call.envelopes == []


@pytest.mark.parametrize("session", [{}, {"room_id": "!abc:example.org"}], ids=["empty", "no-user"])
def test_an_openapi_schema_event_is_refused_for_its_shape_before_its_session(session: Any) -> None:
    response = bedrock_agents.handle(openapi_event(session), Recorder())
    assert response["response"]["httpStatusCode"] == 400
    assert api_body(response)["error"]["code"] == refusals.INVALID_REQUEST
    assert "functionResponse" not in response["response"]


def test_openapi_refusal_matches_what_powertools_builds() -> None:
    from aws_lambda_powertools.event_handler.api_gateway import BedrockResponse
    from aws_lambda_powertools.event_handler.bedrock_agent import BedrockResponseBuilder
    from aws_lambda_powertools.utilities.data_classes import BedrockAgentEvent

    event = openapi_event()
    ours = bedrock_agents.handle(event, Recorder())
    theirs = BedrockResponseBuilder(
        BedrockResponse(
            body=api_body(ours),
            status_code=400,
            session_attributes=event["sessionAttributes"],
            prompt_session_attributes=event["promptSessionAttributes"],
        ),
        serializer=lambda o: json.dumps(o, ensure_ascii=False),
    ).build(BedrockAgentEvent(event))
    assert ours == theirs


# --- Bedrock: answer -> response -----------------------------------------------------------------


def test_success_response_shape_keeps_session_attributes() -> None:
    event = bedrock_event("list_reminders", ("include_inactive", "boolean", "false"))
    answer = success({"schedules": []}, "No hay programaciones en esta sala.")
    call = Recorder(answer)
    response = bedrock_agents.handle(event, call)
    assert call.envelopes[0]["arguments"] == {"include_inactive": False}
    assert response == {
        "messageVersion": "1.0",
        "response": {
            "actionGroup": "cronbell",
            "function": "list_reminders",
            "functionResponse": {"responseBody": {"TEXT": {"body": json.dumps(answer, ensure_ascii=False)}}},
        },
        "sessionAttributes": SESSION,
        "promptSessionAttributes": {"turn": "3"},
    }
    assert "programaciones" in response["response"]["functionResponse"]["responseBody"]["TEXT"]["body"]


@pytest.mark.parametrize(
    "code",
    [
        refusals.INVALID_TIME,
        refusals.INVALID_ARGUMENTS,
        refusals.TIME_IN_PAST,
        refusals.INVALID_CRON,
        refusals.TOO_FREQUENT,
        refusals.NEVER_FIRES,
        refusals.INVALID_TIMEZONE,
        refusals.TOO_LONG,
        refusals.NOT_FOUND,
        refusals.AMBIGUOUS,
        refusals.UNKNOWN_TOOL,
        refusals.FORBIDDEN_CHANNEL,
        refusals.UNKNOWN_AGENT,
        refusals.LIMIT_REACHED,
    ],
)
def test_errors_the_model_can_fix_reprompt(code: str) -> None:
    response = bedrock_agents.handle(bedrock_event("cron_list"), Recorder(refused(code)))
    assert response["response"]["functionResponse"]["responseState"] == "REPROMPT"
    assert body(response)["error"]["code"] == code


@pytest.mark.parametrize(
    "code",
    [
        refusals.MISSING_CONTEXT,
        refusals.BACKEND_ERROR,
        refusals.INTERNAL_ERROR,
        refusals.INVALID_REQUEST,
        refusals.UNKNOWN_PLATFORM,  # from the session attributes, which the model does not write
    ],
)
def test_errors_the_model_cannot_fix_fail(code: str) -> None:
    response = bedrock_agents.handle(bedrock_event("cron_list"), Recorder(refused(code)))
    assert response["response"]["functionResponse"]["responseState"] == "FAILURE"


def test_an_exception_becomes_a_structured_failure_not_an_error_body() -> None:
    response = bedrock_agents.handle(bedrock_event("cron_list"), Recorder(raises=RuntimeError("boom")))
    text = response["response"]["functionResponse"]["responseBody"]["TEXT"]["body"]
    assert not text.startswith("Error")
    assert json.loads(text)["error"]["code"] == refusals.INTERNAL_ERROR
    assert "boom" not in text
    assert response["response"]["functionResponse"]["responseState"] == "FAILURE"


@pytest.mark.parametrize("answer", [success({"id": "x"}, "ok"), refused(refusals.INVALID_TIME)])
def test_response_matches_what_powertools_builds(answer: dict[str, Any]) -> None:
    from aws_lambda_powertools.event_handler.bedrock_agent_function import (
        BedrockFunctionResponse,
        BedrockFunctionsResponseBuilder,
    )
    from aws_lambda_powertools.utilities.data_classes import BedrockAgentFunctionEvent

    event = bedrock_event("cron_list")
    ours = bedrock_agents.to_response(event, answer)
    theirs = BedrockFunctionsResponseBuilder(
        BedrockFunctionResponse(body=answer, response_state=bedrock_agents.response_state(answer))
    ).build(BedrockAgentFunctionEvent(event), serializer=lambda o: json.dumps(o, ensure_ascii=False))
    assert ours == theirs


# --- AgentCore Gateway ---------------------------------------------------------------------------

PINNED = {"MCP_ROOM_ID": "!pinned:example.org", "MCP_USER_ID": "@ana:example.org", "MCP_TIMEZONE": "UTC"}
TRUST = {"MCP_TRUST_PROPAGATED_HEADERS": "true"}


def gateway_custom(tool: str = "cronbell___create_reminder", headers: Any = None) -> dict[str, Any]:
    custom: dict[str, Any] = {
        "bedrockAgentCoreToolName": tool,
        "bedrockAgentCoreMessageVersion": "1.0",
        "bedrockAgentCoreAwsRequestId": "req-1",
        "bedrockAgentCoreMcpMessageId": "7",
        "bedrockAgentCoreGatewayId": "gw-1",
        "bedrockAgentCoreTargetId": "tg-1",
    }
    if headers is not None:
        custom["bedrockAgentCorePropagatedHeaders"] = headers
    return custom


@pytest.mark.parametrize(
    ("qualified", "tool"),
    [
        ("cronbell___create_reminder", "create_reminder"),
        ("my-target___cron_list", "cron_list"),
        ("target__delete_reminder", "delete_reminder"),
        ("run_now", "run_now"),
    ],
)
def test_the_target_prefix_is_stripped(qualified: str, tool: str) -> None:
    assert agentcore.tool_name(qualified) == tool


def test_pinned_room_comes_from_the_environment_and_arguments_never_change_it() -> None:
    headers = {"X-Cronbell-Room-Id": "!header:example.org", "X-Cronbell-User-Id": "@eve:example.org"}
    arguments = {"message": "hi", "time": "in 5 minutes", "room_id": "!evil:example.org"}
    envelope = agentcore.to_envelope(arguments, gateway_custom(headers=headers), {**PINNED, **TRUST})
    assert envelope == {
        "tool": "create_reminder",
        "arguments": arguments,
        "context": {"room_id": "!pinned:example.org", "user_id": "@ana:example.org", "timezone": "UTC"},
    }


def test_a_pinned_room_without_user_is_a_configuration_error() -> None:
    with pytest.raises(ToolError) as err:
        agentcore.trusted_context(gateway_custom(), {"MCP_ROOM_ID": "!pinned:example.org"})
    assert err.value.code == refusals.MISSING_CONTEXT and "MCP_USER_ID" in errors.message(err.value)


def test_trusted_headers_give_identity_case_insensitively() -> None:
    headers = {
        "x-cronbell-room-id": "!header:example.org",
        "X-CRONBELL-USER-ID": "@bob:example.org",
        "X-Cronbell-Locale": "es",
        "Authorization": "Bearer secret",
    }
    context = agentcore.trusted_context(gateway_custom(headers=headers), TRUST)
    assert context == {"room_id": "!header:example.org", "user_id": "@bob:example.org", "locale": "es"}
    as_text = gateway_custom(headers=json.dumps(headers))
    assert agentcore.trusted_context(as_text, TRUST) == context


@pytest.mark.parametrize(
    "headers",
    [
        {"X-Cronbell-Room-Id": "!a:example.org", "x-cronbell-room-id": "!b:example.org", "X-Cronbell-User-Id": "@u:x"},
        {"X-Cronbell-Room-Id": "!a:example.org", "X-Cronbell-User-Id": "@ana:x", "x-cronbell-user-id": "@mallory:x"},
        {"X-Cronbell-Room-Id": "!a:example.org, !evil:example.org", "X-Cronbell-User-Id": "@ana:x"},
    ],
)
def test_an_identity_header_given_twice_is_refused_not_resolved_by_order(headers: dict[str, str]) -> None:
    """Header names are case-insensitive: two spellings of one (or HTTP's comma-joined repeat) let the copy
    that came last win over the one the gateway's interceptor set. Neither is trusted."""
    with pytest.raises(ToolError) as err:
        agentcore.trusted_context(gateway_custom(headers=headers), TRUST)
    assert err.value.code == refusals.MISSING_CONTEXT and "more than once" in errors.message(err.value)


def test_headers_are_not_trusted_unless_the_deployment_says_so() -> None:
    headers = {"X-Cronbell-Room-Id": "!header:example.org", "X-Cronbell-User-Id": "@bob:example.org"}
    with pytest.raises(ToolError) as err:
        agentcore.trusted_context(gateway_custom(headers=headers), {"MCP_TRUST_PROPAGATED_HEADERS": "no"})
    assert err.value.code == refusals.MISSING_CONTEXT
    for needed in ("MCP_ROOM_ID", "MCP_USER_ID", "X-Cronbell-Room-Id", "MCP_TRUST_PROPAGATED_HEADERS"):
        assert needed in errors.message(err.value)


@pytest.mark.parametrize(
    ("headers", "said"),
    [
        ({"X-Cronbell-Room-Id": "!r:example.org"}, "`X-Cronbell-User-Id` did not arrive"),
        ({"X-Cronbell-User-Id": "@ana:example.org"}, "`X-Cronbell-Room-Id` did not arrive"),
        ({}, "`X-Cronbell-Room-Id` and `X-Cronbell-User-Id` did not arrive"),
    ],
)
def test_trusted_headers_that_did_not_arrive_are_named_with_what_to_allowlist(headers: Any, said: str) -> None:
    with pytest.raises(ToolError) as err:
        agentcore.trusted_context(gateway_custom(headers=headers), TRUST)
    message = errors.message(err.value)
    assert (
        err.value.code == refusals.MISSING_CONTEXT and message.startswith(said) and "allowedRequestHeaders" in message
    )


def test_no_trusted_identity_answers_an_mcp_error_and_calls_nothing() -> None:
    call = Recorder()
    result = agentcore.handle({"message": "x", "time": "in 5 minutes"}, gateway_custom(), {}, call)
    assert call.envelopes == []
    assert result["isError"] is True
    [item] = result["content"]
    assert item["type"] == "text"
    answer = json.loads(item["text"])
    assert answer["ok"] is False and answer["error"]["code"] == refusals.MISSING_CONTEXT
    assert "MCP_ROOM_ID" in answer["text"]


def test_gateway_call_reaches_the_use_case_and_answers_mcp_content() -> None:
    answer = success({"id": "k3v9q2m8xa"}, "Scheduled reminder k3v9q2m8xa.")
    call = Recorder(answer)
    result = agentcore.handle({"message": "x", "cron": "0 9 * * 1"}, gateway_custom(), PINNED, call)
    assert call.envelopes[0]["tool"] == "create_reminder"
    assert call.envelopes[0]["context"]["room_id"] == "!pinned:example.org"
    assert result == {"content": [{"type": "text", "text": json.dumps(answer)}], "isError": False}


def test_gateway_refusals_and_exceptions_are_mcp_errors() -> None:
    refusal = agentcore.handle({}, gateway_custom(), PINNED, Recorder(refused(refusals.INVALID_TIME)))
    assert refusal["isError"] is True
    assert json.loads(refusal["content"][0]["text"])["error"]["code"] == refusals.INVALID_TIME
    crash = agentcore.handle({}, gateway_custom(), PINNED, Recorder(raises=KeyError("x")))
    assert crash["isError"] is True
    assert json.loads(crash["content"][0]["text"])["error"]["code"] == refusals.INTERNAL_ERROR


# --- dispatch ------------------------------------------------------------------------------------


def lambda_context(custom: Any = None) -> Any:
    return SimpleNamespace(client_context=None if custom is None else SimpleNamespace(custom=custom))


def test_detect_each_shape() -> None:
    envelope = {"tool": "cron_list", "arguments": {}, "context": SESSION}
    assert inbound.detect(envelope, lambda_context()) == inbound.ENVELOPE
    assert inbound.detect(bedrock_event("cron_list"), lambda_context()) == inbound.BEDROCK_AGENT
    assert inbound.detect({"message": "x"}, lambda_context(gateway_custom())) == inbound.AGENTCORE
    assert inbound.detect(None, None) == inbound.ENVELOPE  # the use case answers invalid_request
    assert inbound.detect(envelope, lambda_context({"other": "client"})) == inbound.ENVELOPE


def test_gateway_arguments_shaped_like_an_envelope_are_still_arguments() -> None:
    """The model writes a gateway event: a `context` in it must never become the identity."""
    forged = {"tool": "cron_list", "arguments": {}, "context": {"room_id": "!evil:example.org", "user_id": "@e"}}
    assert inbound.detect(forged, lambda_context(gateway_custom("t___cron_list"))) == inbound.AGENTCORE
    envelope = agentcore.to_envelope(forged, gateway_custom("t___cron_list"), PINNED)
    assert envelope["context"]["room_id"] == "!pinned:example.org"
    with pytest.raises(ToolError) as err:
        a.parse(a.CronList, envelope["arguments"])
    assert err.value.code == refusals.INVALID_ARGUMENTS


def test_an_agentcore_refusal_is_said_in_the_locale_the_trusted_context_would_carry() -> None:
    spanish = gateway_custom(headers={"X-Cronbell-Locale": "es"})
    assert agentcore.reader_locale(spanish, {**PINNED, "MCP_LOCALE": "en"}) == "en"  # pinned: headers ignored
    assert agentcore.reader_locale(spanish, {"MCP_LOCALE": "en"}) == "en"  # headers not trusted
    assert agentcore.reader_locale(spanish, {**TRUST, "MCP_LOCALE": "en"}) == "es"
    assert agentcore.reader_locale(gateway_custom(headers={}), {**TRUST, "MCP_LOCALE": "es"}) == "es"
    assert agentcore.reader_locale(gateway_custom(), {}) is None
    result = agentcore.handle({"message": "x"}, spanish, TRUST, Recorder())
    answer = json.loads(result["content"][0]["text"])
    assert answer["error"]["code"] == refusals.MISSING_CONTEXT and answer["text"].startswith("No se pudo hacer: ")


@pytest.mark.parametrize(
    ("kind", "value"),
    [("integer", "9" * 4301), ("number", "9" * 4400), ("integer", "-" + "1" * 5000), ("number", "+" + "7" * 10_000)],
)
def test_a_number_too_long_to_read_is_a_reprompt_with_a_structured_error(kind: str, value: str) -> None:
    event = bedrock_event("reminder_history", ("id", "string", "k3v9q2m8xa"), ("limit", kind, value))
    recorder = Recorder()
    answer = bedrock_agents.handle(event, recorder)
    assert answer["response"]["functionResponse"]["responseState"] == "REPROMPT"
    error = body(answer)["error"]
    assert error["code"] == refusals.INVALID_ARGUMENTS and "`limit`" in error["message"]
    assert len(error["message"]) < 400  # the value is not echoed whole
    assert recorder.envelopes == []


@pytest.mark.parametrize(
    "options",
    [
        '{"skills": ' + "[" * 5000 + "]" * 5000 + "}",
        '{"timezone": ' + '{"a": ' * 3000 + "1" + "}" * 3000 + "}",
        "[" * 100_000,
    ],
)
def test_options_nested_too_deeply_are_a_reprompt_with_a_structured_error(options: str) -> None:
    event = bedrock_event(
        "cron_create", ("name", "string", "d"), ("prompt", "string", "p"), ("options", "string", options)
    )
    recorder = Recorder()
    answer = bedrock_agents.handle(event, recorder)
    assert answer["response"]["functionResponse"]["responseState"] == "REPROMPT"
    error = body(answer)["error"]
    assert error["code"] == refusals.INVALID_ARGUMENTS and "`options`" in error["message"]
    assert len(error["message"]) < 400 and recorder.envelopes == []


def test_an_array_parameter_nested_too_deeply_is_refused_as_invalid_arguments() -> None:
    with pytest.raises(ToolError) as err:
        bedrock_agents.coerce("skills", "array", "[" * 5000 + "]" * 5000)
    assert err.value.code == refusals.INVALID_ARGUMENTS and "`skills`" in errors.message(err.value)
