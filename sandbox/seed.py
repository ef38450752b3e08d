"""What `python -m sandbox invoke` creates first for an event that names a schedule.

Every `invoke` starts an empty sandbox, so an event that deletes, runs or fires a schedule would only
meet "not found". The schedule it names is created first through the ToolsFunction, in the event's room:
a name becomes an agent call of that name (found again by name); an id becomes a reminder, whose new id
takes the place of the event's (ids are generated, never chosen). Each seed is said in one line.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

_LAYER_SOURCE = str(Path(__file__).resolve().parents[1] / "layers" / "common")
if _LAYER_SOURCE not in sys.path:  # cronbell's own rule for ids, whichever code the functions run
    sys.path.append(_LAYER_SOURCE)

from cronbell.core.models import looks_like_id  # noqa: E402

# A function's logical id and an event in, the function's JSON answer out.
Invoke = Callable[[str, dict[str, Any]], Any]

TOOLS = "ToolsFunction"
FIRE = "FireFunction"
TARGET_ARGUMENTS = ("id", "target")  # where a tools event names the schedule it acts on
SEED_USER = "@sandbox:localhost"


def _create(invoke: Invoke, reference: str, context: dict[str, Any]) -> str:
    """A schedule for `reference` in the context's room; its id."""
    if looks_like_id(reference):
        envelope = {
            "tool": "create_reminder",
            "arguments": {"message": "Seeded by sandbox invoke", "time": "in 1 hour"},
            "context": context,
        }
    else:
        envelope = {
            "tool": "cron_create",
            "arguments": {"name": reference, "prompt": f"Run '{reference}'", "cron_expr": "0 18 * * 1-5"},
            "context": {**context, "agent_id": "echo"},
        }
    answer = invoke(TOOLS, envelope)
    if not isinstance(answer, dict) or not answer.get("ok"):
        raise RuntimeError(f"seeding {reference!r} failed: {json.dumps(answer)}")
    schedule_id: str = answer["result"]["id"]
    return schedule_id


def seed(function: str, event: Any, invoke: Invoke) -> tuple[Any, list[str]]:
    """The event to run (an id replaced by the seeded schedule's) and one line per seed."""
    if not isinstance(event, dict):
        return event, []
    if function == FIRE and isinstance(event.get("reminder_id"), str) and isinstance(event.get("room_id"), str):
        new_id = _create(invoke, event["reminder_id"], {"room_id": event["room_id"], "user_id": SEED_USER})
        note = f"seeded reminder {new_id} in {event['room_id']}; it stands for the event's {event['reminder_id']}"
        return {**event, "reminder_id": new_id}, [note]
    arguments, context = event.get("arguments"), event.get("context")
    if function != TOOLS or not isinstance(arguments, dict) or not isinstance(context, dict):
        return event, []
    for key in TARGET_ARGUMENTS:
        reference = arguments.get(key)
        if isinstance(reference, str) and reference:
            new_id = _create(invoke, reference, context)
            room = context.get("room_id")
            if looks_like_id(reference):
                note = f"seeded reminder {new_id} in {room}; it stands for the event's {reference}"
                return {**event, "arguments": {**arguments, key: new_id}}, [note]
            return event, [f"seeded agent call {reference!r} ({new_id}) in {room}"]
    return event, []


def rooms_of(event: Any) -> list[str]:
    """The rooms an event acts in (a fire's room, the envelope's or the Bedrock session's)."""
    if not isinstance(event, dict):
        return []
    found = [event.get("room_id")]
    for key in ("context", "sessionAttributes"):
        part = event.get(key)
        if isinstance(part, dict):
            found.append(part.get("room_id"))
    return [room for room in dict.fromkeys(found) if isinstance(room, str) and room]
