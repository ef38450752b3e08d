"""The tools envelope: `{tool, arguments, context}` in, `{ok, result|error, text}` out."""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any

from cronbell.core.contract import errors
from cronbell.core.domain.platforms import REGISTRY
from cronbell.core.domain.refusals import ToolError, refusal
from cronbell.core.domain.routing import room_key
from cronbell.core.text import texts
from cronbell.core.values import value

MAX_ID = 255


@value
class Context:
    """Who is acting and where: written by the bot's code, never by the model."""

    room_id: str
    user_id: str
    agent_id: str = ""
    timezone: str = ""
    locale: str = ""
    thread_id: str = ""  # the thread the conversation happens in, if any
    platform: str = ""  # which configured chat backend the room lives on ("" = the default)
    team_id: str = ""  # the Slack workspace the room is in (its bot token is that workspace's)


@value
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
            raise refusal("missing_context.required", name=name)
        return ""
    if not isinstance(value, str) or len(value) > MAX_ID or not value.isprintable():
        raise refusal("missing_context.printable", name=name)
    return value


def said_locale(event: Any) -> str:
    """The locale the envelope's context asks for, read on its own ("" when none can be read), so that a
    refusal of the rest of the context (a malformed room id) is said in the caller's language too."""
    ctx = event.get("context") if isinstance(event, dict) else None
    try:
        return _field(ctx, "locale", False) if isinstance(ctx, dict) else ""
    except ToolError:
        return ""


# An inbound adapter that read the event's trusted context but refused its arguments (a Bedrock parameter
# that is not of its declared type) puts the refusal here, in process: the use case says it as it says its
# own, with `now` in the caller's zone. Only a ToolError counts, which no JSON sent by a caller can be.
ADAPTER_REFUSAL = "_adapter_refusal"


def parse_request(event: Any) -> Request:
    if not isinstance(event, dict):
        raise refusal("invalid_request")
    tool = event.get("tool")
    if not isinstance(tool, str) or not tool:
        raise refusal("invalid_request.tool")
    ctx = event.get("context")
    if not isinstance(ctx, dict):
        raise refusal("missing_context")
    context = Context(
        room_id=_field(ctx, "room_id", True),
        user_id=_field(ctx, "user_id", True),
        agent_id=_field(ctx, "agent_id", False),
        timezone=_field(ctx, "timezone", False),
        locale=_field(ctx, "locale", False),
        thread_id=_field(ctx, "thread_id", False),
        platform=_field(ctx, "platform", False).lower(),
        team_id=_field(ctx, "team_id", False),
    )
    return Request(tool=tool[:100], arguments=event.get("arguments"), context=context)


def success(result: Any, text: str) -> dict[str, Any]:
    return {"ok": True, "result": result, "text": text}


def failure(error: ToolError, text: str, locale: str | None = "en") -> dict[str, Any]:
    return {"ok": False, "error": errors.as_dict(error, locale), "text": text}


def refused(error: ToolError, locale: str | None) -> dict[str, Any]:
    """The answer to a refusal, every word of it in the language of `locale`."""
    message = errors.message(error, locale)
    return failure(error, texts.say("error", locale, message=message), locale)


def refuse_room_form(ctx: Context, settings: Any) -> None:
    """A room or thread id that cannot be its platform's (a Discord bot's channel ids are numbers): refused
    now, where the bot sees it, not as a failed run at the first fire."""
    entry = REGISTRY.get(ctx.platform or settings.default_platform)
    if entry is None or not entry.room_ids or (entry.room_ids_with and not getattr(settings, entry.room_ids_with)):
        return
    for name, found in (("room_id", ctx.room_id), ("thread_id", ctx.thread_id)):
        if found and not re.fullmatch(entry.room_ids, found):
            raise refusal(f"missing_context.room_form.{entry.name}", name=name, value=found)


def routed(ctx: Context, platforms: tuple[str, ...]) -> Context:
    """The context with its room keyed by platform (`platforms`: the configured ones, the default
    first). A platform the deployment does not configure is refused."""
    platform = ctx.platform or platforms[0]
    if platform not in platforms:
        raise refusal("unknown_platform", platform=ctx.platform, configured=", ".join(platforms))
    space = ctx.team_id if REGISTRY[platform].workspaces else ""
    return replace(ctx, platform=platform, room_id=room_key(platform, ctx.room_id, platforms[0], space))
