"""Quick actions on a delivered message, and the button payload codec both ways.

An action is a tool call (`{"label", "tool", "arguments"}`) that the bot forwards to the tools
function with the room's own context when a user taps its button. A button carries only a compact
payload ("cb1 s k3v9q2m8xa 10 tvvr0g"): it fits Telegram's 64-byte callback data, Discord's
100-character custom id and Slack's button value, and `decode` turns it back into exactly the
action's tool call.

The actions under a delivered post name their occurrence, so that a button tapped later never acts
on another one: snooze carries the occurrence delivered (`occurrence`: it is reminded again that
many minutes from the tap), skip the occurrence that follows it (the one it skips). In a payload an
occurrence is its epoch second in base 36; in the tool call, RFC3339 UTC. Payloads written before
occurrences were named ("cb1 s <id> 10", "cb1 k <id>") still decode, to the call without one.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from cronbell.core.domain.instants import iso_utc, parse_iso
from cronbell.core.domain.refusals import ToolError, refusal
from cronbell.core.values import value

if TYPE_CHECKING:
    pass

PREFIX = "cb1"
SNOOZE_MINUTES = 10
MAX_PAYLOAD_BYTES = 64  # Telegram's callback_data limit, the smallest of the platforms
MAX_ID = 40  # "cb1 s <40> 99999 <7>" is 60 bytes
_ID = re.compile(rf"[0-9a-z]{{1,{MAX_ID}}}")
_MINUTES = re.compile(r"[1-9][0-9]{0,4}")  # ASCII digits only: "²" is a digit to str.isdigit
_OCCURRENCE = re.compile(r"[1-9a-z][0-9a-z]{5,6}")  # epoch seconds in base 36, from 2000 to the year 4453
_FIRST_OCCURRENCE = 946684800  # 2000-01-01: no button names an earlier one
_DIGITS = "0123456789abcdefghijklmnopqrstuvwxyz"
_CODES = {"snooze_reminder": "s", "skip_next": "k", "done_reminder": "d"}
_TOOLS = {code: tool for tool, code in _CODES.items()}


class BadPayload(ToolError, ValueError):
    """A button payload that is not one of cronbell's: a structured refusal (`invalid_arguments`, a
    catalog sentence saying what is wrong), so a bot answers it as it answers any refused call."""

    def __init__(self, variant: str) -> None:
        said = refusal(f"invalid_arguments.{variant}")
        super().__init__(said.code, said.said)


@value
class Action:
    label: str
    tool: str
    arguments: dict[str, Any]
    row: int = 0  # the row of buttons it goes in: a release has one per reminder it lists (not in the call)

    def call(self) -> dict[str, Any]:
        """The tool call the bot forwards (it adds the room's `context`)."""
        return {"tool": self.tool, "arguments": dict(self.arguments)}

    def as_dict(self) -> dict[str, Any]:
        return {"label": self.label, **self.call()}

    @property
    def payload(self) -> str:
        return encode(self.tool, self.arguments)


def iso_occurrence(occurrence: datetime | str) -> str:
    return iso_utc(parse_iso(occurrence) if isinstance(occurrence, str) else occurrence)


def _base36(number: int) -> str:
    out = ""
    while number:
        number, digit = divmod(number, 36)
        out = _DIGITS[digit] + out
    return out or "0"


def encode(tool: str, arguments: dict[str, Any]) -> str:
    """The button payload of a tool call; raises ValueError for a call no button carries."""
    code = _CODES.get(tool)
    schedule_id = arguments.get("id")
    if code is None or not isinstance(schedule_id, str) or not _ID.fullmatch(schedule_id):
        raise ValueError(f"no button payload for {tool}")
    allowed = {
        "id",
        *(["occurrence"] if tool != "done_reminder" else []),
        *(["minutes"] if tool == "snooze_reminder" else []),
    }
    if set(arguments) - allowed:
        raise ValueError(f"no button payload carries {', '.join(sorted(set(arguments) - allowed))}")
    parts = [PREFIX, code, schedule_id]
    if tool == "snooze_reminder":
        minutes = arguments.get("minutes")
        if not isinstance(minutes, int) or isinstance(minutes, bool) or not 1 <= minutes <= 99999:
            raise ValueError("snooze minutes must be a whole number")
        parts.append(str(minutes))
    occurrence = arguments.get("occurrence")
    if occurrence is not None:
        try:
            instant = parse_iso(occurrence) if isinstance(occurrence, str) else None
        except ValueError:
            instant = None
        seconds = int(instant.timestamp()) if instant is not None else 0
        if instant is None or instant.microsecond or not _FIRST_OCCURRENCE <= seconds < 36**7:
            raise ValueError("the occurrence must be an RFC3339 instant of whole seconds")
        parts.append(_base36(seconds))
    payload = " ".join(parts)
    if len(payload.encode("utf-8")) > MAX_PAYLOAD_BYTES:
        raise ValueError("payload too long for a button")
    return payload


def decode(payload: str) -> dict[str, Any]:
    """`{"tool", "arguments"}` of a button payload; raises BadPayload for anything else (never
    another error: a payload comes from a tap on a chat platform, not from cronbell)."""
    parts = payload.split(" ") if isinstance(payload, str) else []
    if len(parts) < 3 or parts[0] != PREFIX or parts[1] not in _TOOLS or not _ID.fullmatch(parts[2]):
        raise BadPayload("payload")
    tool = _TOOLS[parts[1]]
    arguments: dict[str, Any] = {"id": parts[2]}
    rest = parts[3:]
    if tool == "snooze_reminder":
        if not rest or not _MINUTES.fullmatch(rest[0]):
            raise BadPayload("payload_minutes")
        arguments["minutes"] = int(rest[0])
        rest = rest[1:]
    if len(rest) > (0 if tool == "done_reminder" else 1):  # Done names the schedule alone
        raise BadPayload("payload_fields")
    if rest:
        if not _OCCURRENCE.fullmatch(rest[0]):
            raise BadPayload("payload_occurrence")
        arguments["occurrence"] = iso_utc(datetime.fromtimestamp(int(rest[0], 36), UTC))
    if encode(tool, arguments) != payload:  # one payload per call: no leading zeros, no variants
        raise BadPayload("payload_canonical")
    return {"tool": tool, "arguments": arguments}
