"""Tool envelopes as a bot sends them."""

from __future__ import annotations

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
) -> dict[str, Any]:
    return {
        "tool": tool,
        "arguments": arguments or {},
        "context": {
            "room_id": room,
            "user_id": user,
            "agent_id": agent,
            "timezone": timezone,
            "locale": locale,
        },
    }
