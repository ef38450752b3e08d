"""Quick actions on a delivered message, and the button payload codec both ways.

An action is a tool call (`{"label", "tool", "arguments"}`) that the bot forwards to the tools
function with the room's own context when a user taps its button. A button carries only a compact
payload ("cb1 s k3v9q2m8xa 10"): it fits Telegram's 64-byte callback data and Discord's 100-character
custom id, and `decode` turns it back into exactly the action's tool call.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from cronbell.core import texts

PREFIX = "cb1"
SNOOZE_MINUTES = 10
MAX_PAYLOAD_BYTES = 64  # Telegram's callback_data limit, the smallest of the platforms
_ID = re.compile(r"^[0-9a-z]{1,50}$")  # "cb1 s <50> 99999" is 62 bytes
_CODES = {"snooze_reminder": "s", "skip_next": "k"}
_TOOLS = {code: tool for tool, code in _CODES.items()}


class BadPayload(ValueError):
    """A button payload that is not one of cronbell's."""


@dataclass(frozen=True)
class Action:
    label: str
    tool: str
    arguments: dict[str, Any]

    def call(self) -> dict[str, Any]:
        """The tool call the bot forwards (it adds the room's `context`)."""
        return {"tool": self.tool, "arguments": dict(self.arguments)}

    def as_dict(self) -> dict[str, Any]:
        return {"label": self.label, **self.call()}

    @property
    def payload(self) -> str:
        return encode(self.tool, self.arguments)


def reminder_actions(schedule_id: str, recurring: bool, locale: str) -> tuple[Action, ...]:
    """Snooze 10 minutes, and for a recurring reminder skip the next occurrence; labels in `locale`."""
    snooze = Action(
        texts.say("chat.action.snooze_reminder", locale, minutes=SNOOZE_MINUTES),
        "snooze_reminder",
        {"id": schedule_id, "minutes": SNOOZE_MINUTES},
    )
    if not recurring:
        return (snooze,)
    return snooze, Action(texts.say("chat.action.skip_next", locale), "skip_next", {"id": schedule_id})


def encode(tool: str, arguments: dict[str, Any]) -> str:
    """The button payload of a tool call; raises ValueError for a call no button carries."""
    code = _CODES.get(tool)
    schedule_id = arguments.get("id")
    if code is None or not isinstance(schedule_id, str) or not _ID.match(schedule_id):
        raise ValueError(f"no button payload for {tool}")
    parts = [PREFIX, code, schedule_id]
    if tool == "snooze_reminder":
        minutes = arguments.get("minutes")
        if not isinstance(minutes, int) or isinstance(minutes, bool) or not 1 <= minutes <= 99999:
            raise ValueError("snooze minutes must be a whole number")
        parts.append(str(minutes))
    payload = " ".join(parts)
    if len(payload.encode("utf-8")) > MAX_PAYLOAD_BYTES:
        raise ValueError("payload too long for a button")
    return payload


def decode(payload: str) -> dict[str, Any]:
    """`{"tool", "arguments"}` of a button payload; raises BadPayload for anything else."""
    parts = payload.split(" ") if isinstance(payload, str) else []
    if len(parts) < 3 or parts[0] != PREFIX or parts[1] not in _TOOLS or not _ID.match(parts[2]):
        raise BadPayload("not a cronbell button payload")
    tool = _TOOLS[parts[1]]
    arguments: dict[str, Any] = {"id": parts[2]}
    if tool == "snooze_reminder":
        if len(parts) != 4 or not parts[3].isdigit():
            raise BadPayload("a snooze payload ends with its minutes")
        arguments["minutes"] = int(parts[3])
    elif len(parts) != 3:
        raise BadPayload("unexpected fields in the payload")
    if encode(tool, arguments) != payload:  # one payload per call: no leading zeros, no variants
        raise BadPayload("not a canonical cronbell button payload")
    return {"tool": tool, "arguments": arguments}
