"""The tools envelope: `{tool, arguments, context}` in, `{ok, result|error, text}` out."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from cronbell.core.errors import INVALID_REQUEST, MISSING_CONTEXT, ToolError

MAX_ID = 255


@dataclass(frozen=True)
class Context:
    """Who is acting and where: written by the bot's code, never by the model."""

    room_id: str
    user_id: str
    agent_id: str = ""
    timezone: str = ""
    locale: str = ""
    thread_id: str = ""  # the thread the conversation happens in, if any
    platform: str = ""  # which configured chat backend the room lives on ("" = the default)


@dataclass(frozen=True)
class Request:
    tool: str
    arguments: Any
    context: Context


def _field(ctx: dict[str, Any], name: str, required: bool) -> str:
    value = ctx.get(name)
    if isinstance(value, str):
        value = value.strip()
    if value is None or value == "":
        if required:
            raise ToolError(MISSING_CONTEXT, f"context.{name} is required (set by the bot, not the model)")
        return ""
    if not isinstance(value, str) or len(value) > MAX_ID or not value.isprintable():
        raise ToolError(MISSING_CONTEXT, f"context.{name} must be a short printable string")
    return value


def parse_request(event: Any) -> Request:
    if not isinstance(event, dict):
        raise ToolError(INVALID_REQUEST, "the event must be a JSON object {tool, arguments, context}")
    tool = event.get("tool")
    if not isinstance(tool, str) or not tool:
        raise ToolError(INVALID_REQUEST, "`tool` must be a non-empty string")
    ctx = event.get("context")
    if not isinstance(ctx, dict):
        raise ToolError(MISSING_CONTEXT, "`context` with room_id and user_id is required")
    context = Context(
        room_id=_field(ctx, "room_id", True),
        user_id=_field(ctx, "user_id", True),
        agent_id=_field(ctx, "agent_id", False),
        timezone=_field(ctx, "timezone", False),
        locale=_field(ctx, "locale", False),
        thread_id=_field(ctx, "thread_id", False),
        platform=_field(ctx, "platform", False).lower(),
    )
    return Request(tool=tool[:100], arguments=event.get("arguments"), context=context)


def success(result: Any, text: str) -> dict[str, Any]:
    return {"ok": True, "result": result, "text": text}


def failure(error: ToolError, text: str) -> dict[str, Any]:
    return {"ok": False, "error": error.to_dict(), "text": text}
