"""Tool envelopes as a bot sends them, and the fire Input as Scheduler sends it."""

from __future__ import annotations

import uuid
from typing import Any

ROOM = "!room1:example.org"
OTHER_ROOM = "!room2:example.org"
USER = "@ana:example.org"


def envelope(
    tool: str,
    arguments: dict[str, Any] | None = None,
    *,
    room: str = ROOM,
    user: str = USER,
    timezone: str = "Europe/Madrid",
    locale: str = "en",
    agent: str = "echo",
    platform: str = "",
) -> dict[str, Any]:
    context = {"room_id": room, "user_id": user, "agent_id": agent, "timezone": timezone, "locale": locale}
    if platform:
        context["platform"] = platform
    return {"tool": tool, "arguments": arguments or {}, "context": context}


def fire_input(room: str, sid: str, slot: str = "2026-11-30T09:00:00Z", attempt: int = 1) -> dict[str, Any]:
    return {
        "room_id": room,
        "reminder_id": sid,
        "scheduled_time": slot,
        "execution_id": str(uuid.uuid4()),
        "attempt": str(attempt),
    }
