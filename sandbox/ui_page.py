"""The console page, `GET /_sandbox/ui`: the header with the clock and its buttons, the room filter, one
schedule's history, the rooms (sandbox/ui_rooms.py), recent runs and messages, events and dead letters."""

from __future__ import annotations

import json
from html import escape
from typing import Any
from urllib.parse import urlencode
from zoneinfo import ZoneInfo

from sandbox.clock import iso
from sandbox.ui_format import outcome, run_notes, when, zone
from sandbox.ui_rooms import room_section
from sandbox.ui_view import Console

REFRESH_SECONDS = 5  # the page reloads itself, so a change made by a bot shows without a click


def _fires(fires: list[dict[str, Any]], tz: ZoneInfo, zone_name: str) -> str:
    if not fires:
        return '<p class="empty">Nothing has fired yet.</p>'
    rows = "".join(
        f'<tr class="fire"><td class="t">{when(f["scheduled_time"], tz)}</td>'
        f"<td><code>{escape(f['schedule'])}</code></td>"
        f"<td>{outcome(bool(f['ok']), str(f.get('outcome') or ''), str(f.get('reason') or ''))}</td></tr>"
        for f in fires
    )
    return (
        f"<table><thead><tr><th>scheduled ({escape(zone_name)})</th><th>schedule</th><th>outcome</th></tr></thead>"
        f"<tbody>{rows}</tbody></table>"
    )


def _history_panel(history: tuple[str, list[dict[str, Any]], str], tz: ZoneInfo, zone_name: str) -> str:
    schedule_id, runs, error = history
    head = f'<h2>History of <code>{escape(schedule_id)}</code></h2><div class="panel" id="history">'
    if error:
        return head + f'<p class="error">{escape(error)}</p></div>'
    if not runs:
        return head + '<p class="empty">No runs yet.</p></div>'
    rows = "".join(
        f'<tr class="run"><td class="t">{when(r.get("scheduled_time"), tz)}</td>'
        f"<td>{outcome(r.get('outcome') == 'delivered', str(r.get('outcome') or ''), str(r.get('reason') or ''))}"
        f"{run_notes(r, tz)}</td>"
        f"<td>{'manual' if r.get('manual') else ''}</td><td>{escape(str(r.get('late_seconds', '')))}</td></tr>"
        for r in runs
    )
    return (
        head + f"<table><thead><tr><th>scheduled ({escape(zone_name)})</th><th>outcome</th><th></th><th>late (s)</th>"
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


def _messages(messages: list[dict[str, Any]], tz: ZoneInfo, zone_name: str) -> str:
    if not messages:
        return '<p class="empty">No messages yet.</p>'
    rows = "".join(
        f'<tr class="message"><td class="t">{when(m.get("ts"), tz)}</td>'
        f"<td><code>{escape(str(m.get('room_id', '')))}</code></td>"
        f'<td class="text">{escape(str(m.get("text", "")))}{_message_extras(m)}</td></tr>'
        for m in messages
    )
    return (
        f"<table><thead><tr><th>posted ({escape(zone_name)})</th><th>room</th><th>text</th></tr></thead>"
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
        next_label += f" ({console.next_fire.astimezone(zone(console.timezone)).strftime('%a %d %b %H:%M')})"
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
.t .extras{white-space:normal}.setting{background:#eef0f4;border-radius:4px;padding:0 5px}
.held{background:#ece6ff;color:#4a2fa0;border-radius:4px;padding:0 5px}.run-note{color:#5a6478;font-size:12px}
table.quiet{margin-top:10px}table.quiet th:first-child{width:28%}
"""


def _self_url(console: Console) -> str:
    """The page as it is shown (its room and schedule), for the reload."""
    query = {"room": console.room_filter} if console.room_filter else {}
    if console.history is not None:
        query["schedule"] = console.history[0]
    return "/_sandbox/ui" + ("?" + urlencode(query) if query else "")


def render(console: Console, note: str = "") -> str:
    tz = zone(console.timezone)
    local = console.now.astimezone(tz)
    rooms = "".join(room_section(r) for r in console.rooms) or '<p class="empty">No rooms yet.</p>'
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
