"""The sandbox console, `GET /_sandbox/ui`: rooms and their schedules, recent runs (outcome and reason),
messages (actions, mentions, thread), the events the stack published, its dead-letter queues, one schedule's
history (`?room=R&schedule=ID`), a filter by room (`?room=R`), and buttons that move the virtual clock. One
server-rendered page that reloads itself every few seconds, no script and no build step.

Schedules are read as a bot reads them, through the ToolsFunction's `list_reminders` with each room's
context; rooms are the partition keys of the schedule table and the rooms in Scheduler's targets."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from html import escape
from typing import TYPE_CHECKING, Any
from urllib.parse import urlencode
from zoneinfo import ZoneInfo

from sandbox.clock import iso, parse_instant

if TYPE_CHECKING:
    from sandbox.app import Sandbox

CONSOLE_USER = "@console:sandbox"
RECENT_MESSAGES = 25
RECENT_FIRES = 25
RECENT_EVENTS = 25
REFRESH_SECONDS = 5  # the page reloads itself, so a change made by a bot shows without a click
MOVES = {"hour": timedelta(hours=1), "day": timedelta(days=1), "week": timedelta(weeks=1)}


@dataclass
class Room:
    room_id: str
    schedules: list[dict[str, Any]] = field(default_factory=list)
    error: str = ""


@dataclass
class Console:
    now: datetime
    timezone: str
    virtual: bool
    next_fire: datetime | None
    rooms: list[Room]
    fires: list[dict[str, Any]]
    messages: list[dict[str, Any]]
    room_filter: str = ""
    all_rooms: list[str] = field(default_factory=list)
    events: list[dict[str, Any]] = field(default_factory=list)
    dead_letters: list[dict[str, Any]] = field(default_factory=list)
    history: tuple[str, list[dict[str, Any]], str] | None = None  # schedule id, its runs (newest first), error


# ---------------------------------------------------------------------------------------- reading


def read(sandbox: Sandbox, room: str = "", schedule: str = "") -> Console:
    timezone = sandbox.options.timezone or "UTC"
    every_room = room_ids(sandbox)
    shown = [r for r in every_room if r == room] if room else every_room
    rooms = [_room(sandbox, room_id, timezone) for room_id in shown]
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


def room_ids(sandbox: Sandbox) -> list[str]:
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


def _room(sandbox: Sandbox, room_id: str, timezone: str) -> Room:
    answer = sandbox.call_tool(
        "list_reminders",
        {"include_inactive": True},
        {"room_id": room_id, "user_id": CONSOLE_USER, "agent_id": "console", "timezone": timezone},
    )
    if not answer.get("ok"):
        return Room(room_id, error=str((answer.get("error") or {}).get("message") or answer))
    return Room(room_id, list(answer["result"].get("schedules", [])))


def _fire(fired: Any) -> dict[str, Any]:
    return {**fired.to_dict(), "outcome": fired.outcome, "reason": fired.reason}


def _history(sandbox: Sandbox, room_id: str, schedule_id: str, timezone: str) -> tuple[str, list[dict[str, Any]], str]:
    answer = sandbox.call_tool(
        "reminder_history",
        {"id": schedule_id},
        {"room_id": room_id, "user_id": CONSOLE_USER, "agent_id": "console", "timezone": timezone},
    )
    if not answer.get("ok"):
        return schedule_id, [], str((answer.get("error") or {}).get("message") or answer)
    return schedule_id, list(answer["result"].get("runs", [])), ""


# ---------------------------------------------------------------------------------------- moving


def move_request(move: str, sandbox: Sandbox) -> dict[str, Any] | None:
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


# ---------------------------------------------------------------------------------------- rendering


def _when(value: Any, tz: ZoneInfo) -> str:
    """An instant (ISO text or a {local, utc} pair) as `2030-01-08 09:00` in the schedule's zone."""
    if isinstance(value, dict):
        value = value.get("local") or value.get("utc")
    if not value:
        return "—"
    try:
        instant = parse_instant(str(value))
    except ValueError:
        return escape(str(value))
    return instant.astimezone(tz).strftime("%Y-%m-%d %H:%M")


def _zone(name: str) -> ZoneInfo:
    try:
        return ZoneInfo(name)
    except (ValueError, KeyError):
        return ZoneInfo("UTC")


def _last_run(schedule: dict[str, Any], tz: ZoneInfo) -> str:
    run = schedule.get("last_run")
    if isinstance(run, dict):
        outcome = escape(str(run.get("outcome", "")))
        reason = f" ({escape(str(run['reason']))})" if run.get("reason") else ""
        return f'{_when(run.get("scheduled_time"), tz)} <span class="tag {outcome}">{outcome}</span>{reason}'
    return _when(schedule.get("last_fired"), tz)


def _schedule_row(s: dict[str, Any], room_id: str) -> str:
    tz = _zone(str(s.get("timezone") or "UTC"))
    link = "/_sandbox/ui?" + urlencode({"room": room_id, "schedule": str(s.get("id", ""))})
    status = escape(str(s.get("status", "")))
    what = escape(str(s.get("name") or s.get("preview") or ""))
    if s.get("kind") == "agent_call":
        what = f'<span class="tag agent">agent {escape(str(s.get("target_agent", "")))}</span> {what}'
    return (
        f'<tr class="schedule" data-id="{escape(str(s.get("id", "")))}">'
        f'<td><a class="history" href="{escape(link)}"><code>{escape(str(s.get("id", "")))}</code></a></td>'
        f"<td>{what}</td>"
        f"<td>{escape(str(s.get('description') or s.get('schedule') or ''))}</td>"
        f"<td>{escape(str(s.get('timezone', '')))}</td>"
        f'<td><span class="tag {status}">{status}</span></td>'
        f'<td class="next t">{_when(s.get("next_fire"), tz)}</td>'
        f'<td class="t">{_last_run(s, tz)}</td>'
        "</tr>"
    )


def _room_section(room: Room) -> str:
    head = (
        f'<section class="room" data-room="{escape(room.room_id)}"><h3>{escape(room.room_id)}'
        f" <small>{len(room.schedules)} schedule(s)</small></h3>"
    )
    if room.error:
        return head + f'<p class="error">{escape(room.error)}</p></section>'
    if not room.schedules:
        return head + '<p class="empty">No schedules.</p></section>'
    rows = "".join(_schedule_row(s, room.room_id) for s in room.schedules)
    return (
        head + "<table><thead><tr><th>id</th><th>what</th><th>when</th><th>zone</th><th>status</th>"
        "<th>next fire (schedule's zone)</th><th>last run (schedule's zone)</th></tr></thead>"
        f"<tbody>{rows}</tbody></table></section>"
    )


def _outcome(ok: bool, outcome: str, reason: str) -> str:
    """A run's outcome as a tag (the target's own word, else whether it ran), and its reason."""
    word = outcome or ("ran" if ok else "failed")
    kind = escape(word if outcome else ("delivered" if ok else "failed"))
    return f'<span class="tag {kind}">{escape(word)}</span>' + (
        f' <span class="reason">{escape(reason)}</span>' if reason else ""
    )


def _fires(fires: list[dict[str, Any]], tz: ZoneInfo, zone: str) -> str:
    if not fires:
        return '<p class="empty">Nothing has fired yet.</p>'
    rows = "".join(
        f'<tr class="fire"><td class="t">{_when(f["scheduled_time"], tz)}</td>'
        f"<td><code>{escape(f['schedule'])}</code></td>"
        f"<td>{_outcome(bool(f['ok']), str(f.get('outcome') or ''), str(f.get('reason') or ''))}</td></tr>"
        for f in fires
    )
    return (
        f"<table><thead><tr><th>scheduled ({escape(zone)})</th><th>schedule</th><th>outcome</th></tr></thead>"
        f"<tbody>{rows}</tbody></table>"
    )


def _history_panel(history: tuple[str, list[dict[str, Any]], str], tz: ZoneInfo, zone: str) -> str:
    schedule_id, runs, error = history
    head = f'<h2>History of <code>{escape(schedule_id)}</code></h2><div class="panel" id="history">'
    if error:
        return head + f'<p class="error">{escape(error)}</p></div>'
    if not runs:
        return head + '<p class="empty">No runs yet.</p></div>'
    rows = "".join(
        f'<tr class="run"><td class="t">{_when(r.get("scheduled_time"), tz)}</td>'
        f"<td>{_outcome(r.get('outcome') == 'delivered', str(r.get('outcome') or ''), str(r.get('reason') or ''))}</td>"
        f"<td>{'manual' if r.get('manual') else ''}</td><td>{escape(str(r.get('late_seconds', '')))}</td></tr>"
        for r in runs
    )
    return (
        head + f"<table><thead><tr><th>scheduled ({escape(zone)})</th><th>outcome</th><th></th><th>late (s)</th>"
        f"</tr></thead><tbody>{rows}</tbody></table></div>"
    )


def _events(events: list[dict[str, Any]]) -> str:
    if not events:
        return '<p class="empty">No events yet.</p>'
    rows = "".join(
        f'<tr class="event"><td>{escape(str(e.get("detail_type", "")))}</td>'
        f"<td><code>{escape(str(e.get('detail', {}).get('room_id', '')))}</code></td>"
        f'<td class="text"><code>{escape(json.dumps(e.get("detail", {}), ensure_ascii=False))}</code></td></tr>'
        for e in events
    )
    return f"<table><thead><tr><th>event</th><th>room</th><th>detail</th></tr></thead><tbody>{rows}</tbody></table>"


def _dead_letters(letters: list[dict[str, Any]]) -> str:
    if not letters:
        return '<p class="empty">The dead-letter queues are empty.</p>'
    rows = "".join(
        f'<tr class="dead-letter"><td><code>{escape(str(d["queue"]))}</code></td>'
        f'<td class="text"><code>{escape(str(d["body"]))}</code></td></tr>'
        for d in letters
    )
    return f"<table><thead><tr><th>queue</th><th>message</th></tr></thead><tbody>{rows}</tbody></table>"


def _room_filter(console: Console) -> str:
    options = '<option value="">every room</option>' + "".join(
        f'<option value="{escape(r)}"{" selected" if r == console.room_filter else ""}>{escape(r)}</option>'
        for r in console.all_rooms
    )
    return (
        '<form method="get" action="/_sandbox/ui" class="filter"><label for="room">Room</label> '
        f'<select name="room" id="room">{options}</select> <button type="submit" id="filter">Show</button></form>'
    )


def _messages(messages: list[dict[str, Any]], tz: ZoneInfo, zone: str) -> str:
    if not messages:
        return '<p class="empty">No messages yet.</p>'
    rows = "".join(
        f'<tr class="message"><td class="t">{_when(m.get("ts"), tz)}</td>'
        f"<td><code>{escape(str(m.get('room_id', '')))}</code></td>"
        f'<td class="text">{escape(str(m.get("text", "")))}{_message_extras(m)}</td></tr>'
        for m in messages
    )
    return (
        f"<table><thead><tr><th>posted ({escape(zone)})</th><th>room</th><th>text</th></tr></thead>"
        f"<tbody>{rows}</tbody></table>"
    )


def _message_extras(m: dict[str, Any]) -> str:
    """A message's mentions, thread and quick actions, under its text."""
    parts = []
    if m.get("mentions"):
        parts.append('<span class="mentions">mentions ' + ", ".join(escape(str(u)) for u in m["mentions"]) + "</span>")
    if m.get("thread_id"):
        parts.append(f'<span class="thread">in thread <code>{escape(str(m["thread_id"]))}</code></span>')
    for action in m.get("actions") or []:
        parts.append(
            f'<span class="tag action" title="{escape(str(action.get("tool", "")))} '
            f'{escape(json.dumps(action.get("arguments") or {}, ensure_ascii=False))}">'
            f"{escape(str(action.get('label', '')))}</span>"
        )
    return f'<div class="extras">{" ".join(parts)}</div>' if parts else ""


def _controls(console: Console) -> str:
    if not console.virtual:
        return '<p class="note">The clock is real: it moves by itself.</p>'
    next_label = "Next fire"
    if console.next_fire is not None:
        next_label += f" ({console.next_fire.astimezone(_zone(console.timezone)).strftime('%a %d %b %H:%M')})"
    buttons = [("hour", "+1 hour"), ("day", "+1 day"), ("week", "+1 week"), ("next", next_label)]
    inner = "".join(
        f'<button type="submit" name="move" value="{value}" id="move-{value}"'
        f"{' disabled' if value == 'next' and console.next_fire is None else ''}>{escape(label)}</button>"
        for value, label in buttons
    )
    return f'<form method="post" action="/_sandbox/ui/clock" class="controls">{inner}</form>'


STYLE = """
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:0;background:#f4f5f7;color:#1d2330}
header{background:#1d2330;color:#fff;padding:14px 24px;display:flex;align-items:center;gap:24px;flex-wrap:wrap}
header h1{font-size:18px;margin:0;font-weight:600}
.clock{font-variant-numeric:tabular-nums}.clock b{font-size:18px}.clock small{color:#aab3c5;margin-left:8px}
.controls{display:flex;gap:8px;margin-left:auto}
button{font:inherit;padding:6px 12px;border-radius:6px;border:1px solid #4b5568;background:#2f3747;color:#fff;
cursor:pointer}
button:hover{background:#3d4759}button:disabled{opacity:.45;cursor:default}
main{padding:16px 24px;max-width:1280px}
.note{background:#e8f1ff;border:1px solid #b9d3ff;padding:8px 12px;border-radius:6px}
h2{font-size:15px;margin:20px 0 8px;text-transform:uppercase;letter-spacing:.04em;color:#5a6478}
h3{font-size:14px;margin:0 0 6px}h3 small{color:#6b7487;font-weight:400;margin-left:6px}
section.room,.panel{background:#fff;border:1px solid #dde1e8;border-radius:8px;padding:12px 14px;margin-bottom:12px}
table{border-collapse:collapse;width:100%}th{text-align:left;color:#6b7487;font-weight:500;font-size:12px}
th,td{padding:5px 8px;border-bottom:1px solid #eef0f4;vertical-align:top}tr:last-child td{border-bottom:0}
code{font-size:12px;color:#374151}.t{white-space:nowrap;font-variant-numeric:tabular-nums}.text{white-space:pre-wrap;max-width:520px}
.tag{display:inline-block;padding:1px 7px;border-radius:10px;font-size:12px;background:#eef0f4}
.active,.delivered{background:#dcf5e3;color:#17612f}.fired,.completed{background:#e6e9f0;color:#3f4756}
.paused,.skipped{background:#fff3d6;color:#7a5300}.failed,.missed,.deleted{background:#fde2e1;color:#8f1d18}
.agent{background:#ece6ff;color:#4a2fa0}
.columns{display:grid;grid-template-columns:1fr 1.6fr;gap:12px}.empty{color:#8a93a5;margin:4px 0}
.error{color:#8f1d18}.extras{margin-top:3px;color:#5a6478;font-size:12px;display:flex;gap:8px;flex-wrap:wrap}
.action{background:#e8f1ff;color:#1d4f91}.reason{color:#5a6478;font-size:12px}.filter{margin:8px 0}
"""


def _self_url(console: Console) -> str:
    """The page as it is shown (its room and schedule), for the reload."""
    query = {"room": console.room_filter} if console.room_filter else {}
    if console.history is not None:
        query["schedule"] = console.history[0]
    return "/_sandbox/ui" + ("?" + urlencode(query) if query else "")


def render(console: Console, note: str = "") -> str:
    tz = _zone(console.timezone)
    local = console.now.astimezone(tz)
    rooms = "".join(_room_section(r) for r in console.rooms) or '<p class="empty">No rooms yet.</p>'
    return (
        '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>cronbell sandbox</title>'
        f'<meta http-equiv="refresh" content="{REFRESH_SECONDS}; url={escape(_self_url(console))}">'
        f'<meta name="viewport" content="width=device-width, initial-scale=1"><style>{STYLE}</style></head><body>'
        "<header><h1>cronbell sandbox</h1>"
        f'<div class="clock" id="now" data-now="{iso(console.now)}"><b>{local.strftime("%a %d %b %Y %H:%M:%S")}</b>'
        f"<small>{escape(console.timezone)} · {iso(console.now)} · {'virtual' if console.virtual else 'real'} clock"
        "</small></div>"
        f"{_controls(console)}</header><main>"
        + (f'<p class="note" id="note">{escape(note)}</p>' if note else "")
        + _room_filter(console)
        + (_history_panel(console.history, tz, console.timezone) if console.history is not None else "")
        + f"<h2>Rooms and schedules</h2>{rooms}"
        '<div class="columns"><div><h2>Recent runs</h2><div class="panel" id="fires">'
        f"{_fires(console.fires, tz, console.timezone)}</div></div>"
        '<div><h2>Recent messages</h2><div class="panel" id="messages">'
        f"{_messages(console.messages, tz, console.timezone)}</div></div></div>"
        f'<h2>Events published</h2><div class="panel" id="events">{_events(console.events)}</div>'
        f'<h2>Dead-letter queues</h2><div class="panel" id="dead-letters">{_dead_letters(console.dead_letters)}</div>'
        "</main></body></html>"
    )
