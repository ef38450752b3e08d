"""How the console writes values: instants in a zone, outcome tags, and what a run says beyond its outcome
(moved off a holiday, repeated, acknowledged, escalated). Every text is escaped here or by the caller."""

from __future__ import annotations

from html import escape
from typing import Any
from zoneinfo import ZoneInfo

from sandbox.clock import parse_instant


def when(value: Any, tz: ZoneInfo) -> str:
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


def zone(name: str) -> ZoneInfo:
    try:
        return ZoneInfo(name)
    except (ValueError, KeyError):
        return ZoneInfo("UTC")


def outcome(ok: bool, word: str, reason: str) -> str:
    """A run's outcome as a tag (the target's own word, else whether it ran), and its reason."""
    shown = word or ("ran" if ok else "failed")
    kind = escape(shown if word else ("delivered" if ok else "failed"))
    return f'<span class="tag {kind}">{escape(shown)}</span>' + (
        f' <span class="reason">{escape(reason)}</span>' if reason else ""
    )


def run_notes(run: dict[str, Any], tz: ZoneInfo) -> str:
    """What a run says beyond its outcome, where set: the time `on_holiday` moved it from, its repeats, its
    acknowledgement and escalation (repeat until done)."""
    notes = []
    if run.get("moved_from"):
        notes.append(f"moved from {when(run['moved_from'], tz)}")
    repeats = run.get("repeats") or 0
    if isinstance(repeats, int) and repeats > 0:
        notes.append(f"{repeats} repeat{'s' if repeats > 1 else ''}")
    if run.get("acknowledged_at"):
        notes.append(f"acknowledged {when(run['acknowledged_at'], tz)}")
    if run.get("escalated"):
        notes.append("escalated")
    return "".join(f' <span class="run-note">{note}</span>' for note in notes)
