"""`python -m sandbox invoke`: one event, in a fresh sandbox, doing what its name says.

Every `invoke` starts an empty sandbox, so an event that deletes, runs or fires a schedule would only
meet "not found". The schedule it names is created first through the ToolsFunction, in the event's room:
a name becomes an agent call of that name (found again by name); an id becomes a reminder, whose new id
takes the place of the event's (ids are generated, never chosen). Each seed is said in one line, and so
is each message the functions posted. What an event cannot carry itself (an AgentCore Gateway call's
client context, the function environment of a target pinned to one room) comes from
`events/invoke/<the event's file name>`.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sandbox.clock import parse_instant
from sandbox.lambda_api import InvokeResult
from sandbox.lambda_context import ClientContext

if TYPE_CHECKING:
    from sandbox.app import Sandbox

_LAYER_SOURCE = str(Path(__file__).resolve().parents[1] / "layers" / "common")
if _LAYER_SOURCE not in sys.path:  # cronbell's own rule for ids, whichever code the functions run
    sys.path.append(_LAYER_SOURCE)

from cronbell.core.domain.models import looks_like_id  # noqa: E402

# A function's logical id and an event in, the function's JSON answer out.
Invoke = Callable[[str, dict[str, Any]], Any]

TOOLS = "ToolsFunction"
FIRE = "FireFunction"
TARGET_ARGUMENTS = ("id", "target")  # where a tools event names the schedule it acts on
SEED_USER = "@sandbox:localhost"


def _create(invoke: Invoke, reference: str, context: dict[str, Any], time: str = "in 1 hour") -> str:
    """A schedule for `reference` in the context's room (a reminder due at `time`); its id."""
    if looks_like_id(reference):
        envelope = {
            "tool": "create_reminder",
            "arguments": {"message": "Seeded by sandbox invoke", "time": time},
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


def seed(function: str, event: Any, invoke: Invoke, due: datetime | None = None) -> tuple[Any, list[str]]:
    """The event to run (an id replaced by the seeded schedule's) and one line per seed. A fire's schedule is
    a reminder due at `due` (its scheduled time): the fire function delivers a stored schedule only at its
    own occurrences."""
    if not isinstance(event, dict):
        return event, []
    if function == FIRE and isinstance(event.get("reminder_id"), str) and isinstance(event.get("room_id"), str):
        when = due.isoformat().replace("+00:00", "Z") if due else "in 1 hour"
        new_id = _create(invoke, event["reminder_id"], {"room_id": event["room_id"], "user_id": SEED_USER}, when)
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


def scheduled_time(event: Any) -> datetime | None:
    """A fire event's scheduled time, when it holds one (not Scheduler's unfilled placeholder)."""
    raw = event.get("scheduled_time") if isinstance(event, dict) else None
    try:
        return parse_instant(raw) if isinstance(raw, str) else None
    except ValueError:
        return None


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


@dataclass
class InvokeExtras:
    """What `events/invoke/<name>` adds to the event `<name>`."""

    path: str = ""
    client_context: dict[str, Any] | None = None
    environment: dict[str, str] = field(default_factory=dict)

    def summary(self) -> str:
        parts = ["client context"] if self.client_context is not None else []
        return ", ".join(parts + [f"{key}={value}" for key, value in self.environment.items()])


def invoke_extras(event_path: str | None) -> InvokeExtras:
    if not event_path or event_path == "-":
        return InvokeExtras()
    path = Path(event_path).parent / "invoke" / Path(event_path).name
    if not path.is_file():
        return InvokeExtras()
    data = json.loads(path.read_text(encoding="utf-8"))
    return InvokeExtras(str(path), data.get("client_context"), dict(data.get("environment") or {}))


def run_event(sandbox: Sandbox, function: str, event: Any, extras: InvokeExtras) -> InvokeResult:
    """Seed what the event names, run it, wait for what it started, and say what was posted."""
    runtime = sandbox.runtime
    assert runtime is not None

    def call(name: str, seed_event: dict[str, Any]) -> Any:
        return json.loads(runtime.invoke(runtime.find(name), json.dumps(seed_event).encode()).payload)

    due = scheduled_time(event) if function == FIRE else None
    if due is not None and sandbox.clock.virtual:  # seeded before its time, fired at it, as Scheduler would
        sandbox.clock.set(due - timedelta(minutes=10))
    event, notes = seed(function, event, call, due)
    if due is not None and sandbox.clock.virtual:
        sandbox.clock.set(due)
    for note in notes:
        print(note, file=sys.stderr)
    client_context = ClientContext(extras.client_context) if extras.client_context is not None else None
    result = runtime.invoke(runtime.find(function), json.dumps(event).encode(), client_context)
    runtime.wait_background()
    for room in rooms_of(event):
        for message in sandbox.messages(room):
            print(f"posted in {room}: {message['text']}", file=sys.stderr)
    return result
