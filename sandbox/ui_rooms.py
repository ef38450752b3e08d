"""The console's rooms: each room's schedules as list_reminders shows them, one row each, with the settings of
the third round (repeat until done, business days, quiet hours holding an occurrence), and each user's quiet
hours in the room as get_quiet_hours answers them, with the occurrences they hold now."""

from __future__ import annotations

from html import escape
from typing import Any
from urllib.parse import urlencode
from zoneinfo import ZoneInfo

from cronbell.core.domain.quiet_hours import DAYS
from sandbox.ui_format import run_notes, when, zone
from sandbox.ui_view import Room


def _last_run(schedule: dict[str, Any], tz: ZoneInfo) -> str:
    run = schedule.get("last_run")
    if isinstance(run, dict):
        outcome = escape(str(run.get("outcome", "")))
        reason = f" ({escape(str(run['reason']))})" if run.get("reason") else ""
        shown = f'{when(run.get("scheduled_time"), tz)} <span class="tag {outcome}">{outcome}</span>{reason}'
        return shown + run_notes(run, tz)
    return when(schedule.get("last_fired"), tz)


def _settings(s: dict[str, Any]) -> str:
    """The schedule's repeat and business-day settings that are set, by their public names."""
    shown = []
    if s.get("repeat_every"):
        shown.append(f"repeat_every {escape(str(s['repeat_every']))} min")
        if s.get("repeat_times"):
            shown.append(f"repeat_times {escape(str(s['repeat_times']))}")
        if s.get("escalate_to"):
            shown.append(f"escalate_to {escape(str(s['escalate_to']))}")
    if s.get("skip_holidays"):
        shown.append(f"skip_holidays {escape(str(s['skip_holidays']))}")
    if s.get("business_days"):
        shown.append("business_days")
    if s.get("business_day_of_month"):
        nth = s["business_day_of_month"]
        shown.append(f"business_day_of_month {'last' if nth == -1 else escape(str(nth))}")
    if s.get("on_holiday") and (s.get("on_holiday") != "skip" or s.get("skip_holidays")):
        shown.append(f"on_holiday {escape(str(s['on_holiday']))}")
    spans = " ".join(f'<span class="setting">{text}</span>' for text in shown)
    return f'<div class="extras">{spans}</div>' if shown else ""


def _held(s: dict[str, Any], tz: ZoneInfo) -> str:
    """Each occurrence quiet hours hold now, with its release; else when they will hold its next
    occurrence (`held_until`, which names the earliest release of an occurrence held now first)."""
    shown = [
        f"{when(h.get('slot'), tz)} held by quiet hours until {when(h.get('until'), tz)}"
        for h in s.get("held_now") or []
    ]
    if not shown and s.get("held_until"):
        shown = [f"held by quiet hours until {when(s['held_until'], tz)}"]
    spans = " ".join(f'<span class="held">{text}</span>' for text in shown)
    return f'<div class="extras">{spans}</div>' if shown else ""


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
        f"<td>{escape(str(s.get('description') or s.get('schedule') or ''))}{_settings(s)}</td>"
        f"<td>{escape(str(s.get('timezone', '')))}</td>"
        f'<td><span class="tag {status}">{status}</span></td>'
        f'<td class="next t">{when(s.get("next_fire"), tz)}{_held(s, tz)}</td>'
        f'<td class="t">{_last_run(s, tz)}</td>'
        "</tr>"
    )


def room_section(room: Room) -> str:
    head = (
        f'<section class="room" data-room="{escape(room.room_id)}"><h3>{escape(room.room_id)}'
        f" <small>{len(room.schedules)} schedule(s)</small></h3>"
    )
    if room.error:
        return head + f'<p class="error">{escape(room.error)}</p>{_quiet(room.quiet)}</section>'
    if not room.schedules:
        return head + f'<p class="empty">No schedules.</p>{_quiet(room.quiet)}</section>'
    rows = "".join(_schedule_row(s, room.room_id) for s in room.schedules)
    return (
        head + "<table><thead><tr><th>id</th><th>what</th><th>when</th><th>zone</th><th>status</th>"
        "<th>next fire (schedule's zone)</th><th>last run (schedule's zone)</th></tr></thead>"
        f"<tbody>{rows}</tbody></table>{_quiet(room.quiet)}</section>"
    )


def _quiet_row(user: dict[str, Any]) -> str:
    who = escape(str(user.get("user_id", "")))
    head = f'<tr class="quiet-hours" data-user="{who}"><td>{who}</td>'
    rule = user.get("quiet_hours")
    if user.get("error") or not isinstance(rule, dict):
        return head + f'<td colspan="5" class="error">{escape(str(user.get("error") or "not read"))}</td></tr>'
    tz = zone(str(rule.get("timezone") or "UTC"))
    days = [str(d) for d in rule.get("days") or []]
    period = user.get("next_period") or {}
    held = user.get("held") or []
    holding = (
        ", ".join(
            f"<code>{escape(str(h.get('schedule_id', '')))}</code> due {when(h.get('slot'), tz)}"
            f" until {when(h.get('until'), tz)}"
            for h in held
        )
        if held
        else '<span class="empty">nothing</span>'
    )
    return (
        head + f'<td class="t">{escape(str(rule.get("start", "")))}–{escape(str(rule.get("end", "")))}</td>'
        f"<td>{escape(str(rule.get('timezone', '')))}</td>"
        f"<td>{'every day' if days == list(DAYS) else escape(', '.join(days))}</td>"
        f'<td class="t">{when(period.get("start"), tz)} – {when(period.get("end"), tz)}</td>'
        f"<td>{holding}</td></tr>"
    )


def _quiet(users: list[dict[str, Any]]) -> str:
    """Each user's quiet hours in the room: the rule, its next period (or the one under way) and the
    occurrences it holds now, all in the rule's zone."""
    if not users:
        return ""
    rows = "".join(_quiet_row(u) for u in users)
    return (
        '<table class="quiet"><thead><tr><th>quiet hours of</th><th>hours</th><th>zone</th><th>days</th>'
        "<th>next period (its zone)</th><th>holding now</th></tr></thead>"
        f"<tbody>{rows}</tbody></table>"
    )
