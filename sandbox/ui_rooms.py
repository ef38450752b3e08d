"""The console's rooms: each room's schedules as list_reminders shows them, one row each."""

from __future__ import annotations

from html import escape
from typing import TYPE_CHECKING, Any
from urllib.parse import urlencode
from zoneinfo import ZoneInfo

from sandbox.ui_format import when, zone

if TYPE_CHECKING:
    from sandbox.ui import Room


def _last_run(schedule: dict[str, Any], tz: ZoneInfo) -> str:
    run = schedule.get("last_run")
    if isinstance(run, dict):
        outcome = escape(str(run.get("outcome", "")))
        reason = f" ({escape(str(run['reason']))})" if run.get("reason") else ""
        return f'{when(run.get("scheduled_time"), tz)} <span class="tag {outcome}">{outcome}</span>{reason}'
    return when(schedule.get("last_fired"), tz)


def _schedule_row(s: dict[str, Any], room_id: str) -> str:
    tz = zone(str(s.get("timezone") or "UTC"))
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
        f'<td class="next t">{when(s.get("next_fire"), tz)}</td>'
        f'<td class="t">{_last_run(s, tz)}</td>'
        "</tr>"
    )


def room_section(room: Room) -> str:
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
