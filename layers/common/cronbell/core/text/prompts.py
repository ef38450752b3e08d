"""Prompts given to agents: placeholders filled from the schedule, nothing else touched."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

PLACEHOLDERS = ("now", "room_id", "scheduled_time", "schedule_id", "name", "timezone", "workspace")
_TOKEN = re.compile(r"\{(" + "|".join(PLACEHOLDERS) + r")\}")


def fill_prompt(template: str, fields: Mapping[str, str]) -> str:
    """Replace `{now}`, `{room_id}`, ... with their values. Other braces (JSON, code) stay as written."""
    return _TOKEN.sub(lambda m: fields.get(m.group(1), m.group(0)), template)


def agent_request(
    prompt: str,
    skills: list[str],
    room_id: str,
    schedule_id: str,
    slot: str,
    previous: dict[str, str] | None = None,
    platform: str | None = None,
    workspace: str = "",
) -> dict[str, Any]:
    """The agent contract's request; `previous` is the schedule's last delivered answer,
    `platform` the chat platform `room_id` lives on (named even when it is the deployment's only one) and
    `workspace` its workspace (a Slack team id; null when the room names none)."""
    return {
        "kind": "task",
        "from": "cronbell",
        "prompt": prompt,
        "skills": list(skills),
        "room_id": room_id,
        "schedule_id": schedule_id,
        "scheduled_time": slot,
        "previous": previous,
        "platform": platform,
        "workspace": workspace or None,
    }
