"""Amazon Bedrock AgentCore Gateway Lambda targets (MCP tools): flat arguments in, MCP tool result out.

The gateway invokes the function with the tool's arguments as the event and puts everything else in the
Lambda client context, `context.client_context.custom`: `bedrockAgentCoreToolName` (`<target>___<tool>`),
`bedrockAgentCoreGatewayId`, `bedrockAgentCoreTargetId`, `bedrockAgentCoreMessageVersion`,
`bedrockAgentCoreAwsRequestId`, `bedrockAgentCoreMcpMessageId`, and, when the target's
`metadataConfiguration.allowedRequestHeaders` allowlists request headers, `bedrockAgentCorePropagatedHeaders`
(header name -> value, as the MCP client or a gateway request interceptor sent them).

Identity never comes from the arguments (the model writes those). It comes from one of two places the
deployment chooses, checked in this order:

1. pinned: the function's environment names the room (`MCP_ROOM_ID`, `MCP_USER_ID`, and optionally
   `MCP_AGENT_ID`, `MCP_TIMEZONE`, `MCP_LOCALE`, `MCP_THREAD_ID`, `MCP_PLATFORM`): one gateway target (and
   function) serves one room; propagated headers are then ignored;
2. propagated headers, only when `MCP_TRUST_PROPAGATED_HEADERS=true`: `X-Cronbell-Room-Id`,
   `X-Cronbell-User-Id` (and optionally `X-Cronbell-Agent-Id`, `-Timezone`, `-Locale`, `-Thread-Id`,
   `-Platform`), written by the bot's MCP client code or by a request interceptor from verified token
   claims, never by the model.

Thread, platform and Slack workspace route the posts exactly as the tools envelope's `context.thread_id`,
`context.platform` and `context.team_id` do.

With neither, every call is refused with `missing_context` and a message that says what to configure.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from cronbell.core.domain.refusals import refusal
from cronbell.core.text.texts import Listing
from cronbell.inbound.common import Call, answer, answer_text

TOOL_NAME_KEY = "bedrockAgentCoreToolName"
HEADERS_KEY = "bedrockAgentCorePropagatedHeaders"
# Client-context keys worth logging with each call (ids only, never header values).
TRACE_KEYS = (
    "bedrockAgentCoreGatewayId",
    "bedrockAgentCoreTargetId",
    "bedrockAgentCoreMessageVersion",
    "bedrockAgentCoreAwsRequestId",
    "bedrockAgentCoreMcpMessageId",
)
DELIMITER = "___"

ENV_CONTEXT = {
    "room_id": "MCP_ROOM_ID",
    "user_id": "MCP_USER_ID",
    "agent_id": "MCP_AGENT_ID",
    "timezone": "MCP_TIMEZONE",
    "locale": "MCP_LOCALE",
    "thread_id": "MCP_THREAD_ID",
    "platform": "MCP_PLATFORM",
    "team_id": "MCP_TEAM_ID",
}
TRUST_HEADERS_ENV = "MCP_TRUST_PROPAGATED_HEADERS"
HEADER_CONTEXT = {
    "room_id": "X-Cronbell-Room-Id",
    "user_id": "X-Cronbell-User-Id",
    "agent_id": "X-Cronbell-Agent-Id",
    "timezone": "X-Cronbell-Timezone",
    "locale": "X-Cronbell-Locale",
    "thread_id": "X-Cronbell-Thread-Id",
    "platform": "X-Cronbell-Platform",
    "team_id": "X-Cronbell-Team-Id",
}


_TRUSTED_NAMES = {name.lower(): name for name in HEADER_CONTEXT.values()}


def client_custom(context: Any) -> dict[str, Any] | None:
    """`context.client_context.custom` when the invoker sent one."""
    custom = getattr(getattr(context, "client_context", None), "custom", None)
    return custom if isinstance(custom, dict) else None


def is_call(custom: Mapping[str, Any] | None) -> bool:
    return custom is not None and TOOL_NAME_KEY in custom


def tool_name(qualified: str) -> str:
    """`cronbell___create_reminder` -> `create_reminder`: the gateway prefixes the target's name."""
    # Target names hold no underscore, so the first delimiter ends the prefix. AWS's naming page has shown
    # both `___` and `__`; the longer one is tried first.
    for delimiter in (DELIMITER, "__"):
        if delimiter in qualified:
            return qualified.split(delimiter, 1)[1]
    return qualified


def _raw_headers(custom: Mapping[str, Any]) -> dict[str, Any]:
    raw = custom.get(HEADERS_KEY)
    if isinstance(raw, str):
        try:
            raw = json.loads(raw)
        except ValueError:
            raw = None
    return raw if isinstance(raw, dict) else {}


def propagated_headers(custom: Mapping[str, Any]) -> dict[str, Any]:
    """The propagated headers, keyed by lower-case name (HTTP header names are case-insensitive)."""
    return {str(name).lower(): value for name, value in _raw_headers(custom).items()}


def _given_twice(custom: Mapping[str, Any]) -> str | None:
    """The first identity header given more than once: under two spellings of its name (one would silently
    win over the other), or as a comma-joined list (how HTTP combines a repeated header)."""
    seen: set[str] = set()
    for name, value in _raw_headers(custom).items():
        folded = str(name).lower()
        if folded in _TRUSTED_NAMES and (folded in seen or (isinstance(value, str) and "," in value)):
            return _TRUSTED_NAMES[folded]
        seen.add(folded)
    return None


def _enabled(value: str | None) -> bool:
    return (value or "").strip().lower() in ("1", "true", "yes")


def trusted_context(custom: Mapping[str, Any], environ: Mapping[str, str]) -> dict[str, Any]:
    """The envelope's `context` from what the deployment trusts; raises ToolError(missing_context)."""
    if environ.get("MCP_ROOM_ID"):
        context = {key: environ[var] for key, var in ENV_CONTEXT.items() if environ.get(var)}
        if "user_id" not in context:
            raise refusal("missing_context.user_not_pinned")
        return context
    if _enabled(environ.get(TRUST_HEADERS_ENV)):
        twice = _given_twice(custom)
        if twice is not None:  # which one the interceptor checked is unknown: neither is trusted
            raise refusal("missing_context.header_twice", name=twice)
        headers = propagated_headers(custom)
        context = {
            key: headers[name.lower()]
            for key, name in HEADER_CONTEXT.items()
            if headers.get(name.lower()) not in (None, "")
        }
        missing = tuple(f"`{HEADER_CONTEXT[key]}`" for key in ("room_id", "user_id") if key not in context)
        if not missing:
            return context
        raise refusal("missing_context.headers_missing", headers=Listing(missing, ", ", "preview.and"))
    raise refusal("missing_context.not_configured")


def reader_locale(custom: Mapping[str, Any], environ: Mapping[str, str]) -> str | None:
    """The locale a refusal is said in: where `trusted_context` would take it from (the environment when
    the room is pinned or headers are not trusted, else the propagated header), before it is complete."""
    pinned = environ.get(ENV_CONTEXT["locale"])
    if environ.get(ENV_CONTEXT["room_id"]) or not _enabled(environ.get(TRUST_HEADERS_ENV)):
        return pinned
    header = propagated_headers(custom).get(HEADER_CONTEXT["locale"].lower())
    return header if isinstance(header, str) and header else pinned


def to_envelope(arguments: Any, custom: Mapping[str, Any], environ: Mapping[str, str]) -> dict[str, Any]:
    """`{tool, arguments, context}` from a gateway call; raises ToolError when identity is not configured."""
    context = trusted_context(custom, environ)
    qualified = custom.get(TOOL_NAME_KEY)
    if not isinstance(qualified, str) or not qualified:
        raise refusal("invalid_request.tool_name", field=TOOL_NAME_KEY)
    return {"tool": tool_name(qualified), "arguments": arguments, "context": context}


def to_result(answer: Mapping[str, Any]) -> dict[str, Any]:
    """MCP's tool result: the answer's JSON text as one text item, `isError` when it is a refusal."""
    return {
        "content": [{"type": "text", "text": answer_text(dict(answer))}],
        "isError": not answer.get("ok"),
    }


def handle(arguments: Any, custom: Mapping[str, Any], environ: Mapping[str, str], call: Call) -> dict[str, Any]:
    """One gateway tool call through the tools use case; never raises."""
    return to_result(answer(lambda: to_envelope(arguments, custom, environ), call, reader_locale(custom, environ)))
