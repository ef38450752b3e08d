"""The sandbox console, `GET /_sandbox/ui`: rooms and their schedules (with their repeat and business-day
settings and what quiet hours hold), each user's quiet hours in a room, recent runs (outcome and reason),
messages (actions, mentions, thread), the events the stack published, its dead-letter queues, one schedule's
history (`?room=R&schedule=ID`), a filter by room (`?room=R`), and buttons that move the virtual clock. One
server-rendered page that reloads itself every few seconds, no script and no build step.

Schedules are read as a bot reads them, through the ToolsFunction's `list_reminders` with each room's
context, and each user's quiet hours through `get_quiet_hours` with that user's; what no tool shows (repeat
settings, the users with quiet hours, the occurrences held now) is read from the table by sandbox/ui_table.py.
Rooms are the partition keys of the schedule table and the rooms in Scheduler's targets. This module
reads and moves the clock; the page is written by sandbox/ui_page.py (rooms: sandbox/ui_rooms.py)."""

from __future__ import annotations

import json
from datetime import timedelta
from typing import TYPE_CHECKING, Any

from botocore.exceptions import BotoCoreError, ClientError

from cronbell.core.domain.errors import BackendError
from sandbox.clock import iso
from sandbox.ui_page import render
from sandbox.ui_table import Held, TableReader
from sandbox.ui_view import Console, Room

if TYPE_CHECKING:
    from sandbox.facade import Running

__all__ = ["Console", "Room", "move_request", "moved_note", "read", "render", "room_ids"]

CONSOLE_USER = "@console:sandbox"
RECENT_MESSAGES = 25
RECENT_FIRES = 25
RECENT_EVENTS = 25
MOVES = {"hour": timedelta(hours=1), "day": timedelta(days=1), "week": timedelta(weeks=1)}


# ---------------------------------------------------------------------------------------- reading


def read(sandbox: Running, room: str = "", schedule: str = "") -> Console:
    timezone = sandbox.options.timezone or "UTC"
    every_room = room_ids(sandbox)
    shown = [r for r in every_room if r == room] if room else every_room
    reader = _reader(sandbox)
    rooms = [_room(sandbox, room_id, timezone, reader) for room_id in shown]
    messages = [m for r in rooms for m in sandbox.messages(r.room_id)]
    messages.sort(key=lambda m: str(m.get("ts", "")), reverse=True)
    events = [e for r in rooms for e in sandbox.events(r.room_id)][-RECENT_EVENTS:]
    engine = sandbox.engine
    fires = [_fire(f) for f in reversed(engine.recent)][:RECENT_FIRES] if engine else []
    return Console(
        room_filter=room,
        all_rooms=every_room,
        events=list(reversed(events)),
        dead_letters=sandbox.dead_letters(),
        history=_history(sandbox, room, schedule, timezone) if room and schedule else None,
        now=sandbox.clock.now(),
        timezone=timezone,
        virtual=sandbox.clock.virtual,
        next_fire=engine.next_due() if engine else None,
        rooms=rooms,
        fires=fires,
        messages=messages[:RECENT_MESSAGES],
    )


def room_ids(sandbox: Running) -> list[str]:
    """Every room with a stored item or a Scheduler entry, sorted."""
    found: set[str] = set()
    stack = sandbox.stack
    if stack is not None and "ScheduleTable" in stack.resources:
        dynamodb = sandbox.client("dynamodb")
        table = stack.physical_name("ScheduleTable")
        key = next(k["AttributeName"] for k in dynamodb.describe_table(TableName=table)["Table"]["KeySchema"])
        for page in dynamodb.get_paginator("scan").paginate(
            TableName=table, ProjectionExpression="#k", ExpressionAttributeNames={"#k": key}
        ):
            found.update(item[key]["S"] for item in page.get("Items", []) if "S" in item.get(key, {}))
    if sandbox.engine is not None:
        for schedule in sandbox.engine.schedules():
            try:
                room = json.loads(schedule.get("Target", {}).get("Input") or "{}").get("room_id")
            except ValueError:
                continue
            if isinstance(room, str) and room:
                found.add(room)
    return sorted(found)


def _context(room_id: str, timezone: str, user_id: str = CONSOLE_USER) -> dict[str, Any]:
    return {"room_id": room_id, "user_id": user_id, "agent_id": "console", "timezone": timezone}


def _error(answer: dict[str, Any]) -> str:
    return str((answer.get("error") or {}).get("message") or answer)


def _reader(sandbox: Running) -> TableReader | None:
    stack = sandbox.stack
    if stack is None or "ScheduleTable" not in stack.resources:
        return None
    return TableReader(sandbox.client("dynamodb"), stack.physical_name("ScheduleTable"))


def _room(sandbox: Running, room_id: str, timezone: str, reader: TableReader | None) -> Room:
    answer = sandbox.call_tool("list_reminders", {"include_inactive": True}, _context(room_id, timezone))
    room = Room(room_id, list(answer["result"].get("schedules", []))) if answer.get("ok") else Room(room_id)
    room.error = "" if answer.get("ok") else _error(answer)
    if reader is None:
        return room
    try:
        settings = reader.repeat_settings(room_id, sandbox.clock.now())
        held = reader.held(room_id)
        users = reader.quiet_users(room_id)
    except (BackendError, BotoCoreError, ClientError) as err:
        room.error = room.error or f"the schedule table could not be read: {err}"
        return room
    for schedule in room.schedules:
        schedule.update(settings.get(str(schedule.get("id")), {}))
        schedule["held_now"] = [{"slot": h.slot, "until": h.until} for h in held if h.schedule_id == schedule.get("id")]
    room.quiet = [_quiet_hours(sandbox, room_id, user, timezone, held) for user in users]
    return room


def _quiet_hours(sandbox: Running, room_id: str, user_id: str, timezone: str, held: list[Held]) -> dict[str, Any]:
    """A user's quiet hours in the room as get_quiet_hours answers that user, and what they hold now."""
    answer = sandbox.call_tool("get_quiet_hours", {}, _context(room_id, timezone, user_id))
    if not answer.get("ok"):
        return {"user_id": user_id, "error": _error(answer)}
    mine = [{"schedule_id": h.schedule_id, "slot": h.slot, "until": h.until} for h in held if h.user_id == user_id]
    return {"user_id": user_id, **answer["result"], "held": mine}


def _fire(fired: Any) -> dict[str, Any]:
    return {**fired.to_dict(), "outcome": fired.outcome, "reason": fired.reason}


def _history(sandbox: Running, room_id: str, schedule_id: str, timezone: str) -> tuple[str, list[dict[str, Any]], str]:
    answer = sandbox.call_tool("reminder_history", {"id": schedule_id}, _context(room_id, timezone))
    if not answer.get("ok"):
        return schedule_id, [], _error(answer)
    return schedule_id, list(answer["result"].get("runs", [])), ""


# ---------------------------------------------------------------------------------------- moving


def move_request(move: str, sandbox: Running) -> dict[str, Any] | None:
    """The `POST /_sandbox/clock` body for a console button, or None when there is nothing to move to."""
    if move in MOVES:
        return {"advance_seconds": MOVES[move].total_seconds()}
    if move == "next" and sandbox.engine is not None:
        due = sandbox.engine.next_due()
        return {"set": iso(due)} if due is not None else None
    return None


def moved_note(answer: dict[str, Any]) -> str:
    fired = answer.get("fired", [])
    failed = sum(1 for f in fired if not f.get("ok"))
    text = f"Clock moved to {answer.get('now', '?')}: {len(fired)} fired"
    return text + (f", {failed} failed" if failed else "")
