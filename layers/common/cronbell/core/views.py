"""What the tools show of a schedule: ids, previews, next fires in the schedule's zone and UTC."""

from __future__ import annotations

from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo

from cronbell.core import models
from cronbell.core.cron import CronSpec, next_fires
from cronbell.core.instants import iso_utc
from cronbell.core.models import Schedule
from cronbell.core.preview import describe_at, describe_cron, dst_notes, instant

PREVIEW_CHARS = 80


def spec_of(schedule: Schedule) -> CronSpec:
    return CronSpec(expr=schedule.cron, source=schedule.cron_source or schedule.cron)


def local_at(schedule: Schedule) -> datetime:
    return datetime.fromisoformat(schedule.at).astimezone(ZoneInfo(schedule.timezone))


def snoozed_at(schedule: Schedule) -> datetime | None:
    """The extra occurrence of a snoozed recurring schedule, from its at(...) expression in UTC."""
    if not schedule.snooze_at:
        return None
    return datetime.fromisoformat(schedule.snooze_at[3:-1] + "+00:00").astimezone(ZoneInfo(schedule.timezone))


def upcoming(schedule: Schedule, now: datetime, count: int) -> list[datetime]:
    """The next fire instants (aware, in the schedule's zone); none unless active. A skipped
    occurrence is left out and a snoozed one is in."""
    if schedule.status != models.ACTIVE:
        return []
    tz = ZoneInfo(schedule.timezone)
    if not schedule.recurring:
        at = local_at(schedule)
        return [at] if at > now else []
    fires = [t for t in next_fires(spec_of(schedule), now, tz, count + 1) if iso_utc(t) != schedule.skip_slot]
    snoozed = snoozed_at(schedule)
    if snoozed is not None and snoozed > now:
        fires = sorted([*fires, snoozed])
    return fires[:count]


def describe(schedule: Schedule, locale: str) -> str:
    if schedule.recurring:
        return describe_cron(spec_of(schedule), locale)
    return describe_at(local_at(schedule), locale)


def preview(text: str) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= PREVIEW_CHARS else flat[: PREVIEW_CHARS - 1] + "…"


def schedule_view(schedule: Schedule, now: datetime, locale: str, with_notes: bool = False) -> dict[str, Any]:
    """One schedule as list_reminders and the create answers show it."""
    tz = ZoneInfo(schedule.timezone)
    nexts = upcoming(schedule, now, 3 if schedule.recurring else 1)
    view: dict[str, Any] = {
        "id": schedule.id,
        "kind": schedule.kind,
        "name": schedule.name or None,
        "preview": preview(schedule.body),
        "recurring": schedule.recurring,
        "schedule": schedule.cron if schedule.recurring else schedule.at,
        "description": describe(schedule, locale),
        "timezone": schedule.timezone,
        "enabled": schedule.status == models.ACTIVE,
        "status": schedule.status,
        "next_fire": instant(nexts[0], tz) if nexts else None,
        "last_fired": schedule.last_fired_at or None,
        "fire_count": schedule.fire_count,
    }
    if schedule.recurring:
        view["next_fires"] = [instant(t, tz) for t in nexts]
    if schedule.kind == models.AGENT_CALL:
        view["target_agent"] = schedule.target_agent
        view["channel"] = schedule.output_room
        view["skills"] = list(schedule.skills)
    if schedule.status_reason:
        view["status_reason"] = schedule.status_reason
    if with_notes and schedule.recurring and schedule.status == models.ACTIVE:
        notes = dst_notes(spec_of(schedule), now, tz, locale)
        if notes:
            view["dst_notes"] = notes
    return view


def cron_view(schedule: Schedule, now: datetime) -> dict[str, Any]:
    """One schedule as cron_list shows it (the contract's fixed fields)."""
    tz = ZoneInfo(schedule.timezone)
    nexts = upcoming(schedule, now, 1)
    return {
        "id": schedule.id,
        "name": schedule.name or preview(schedule.body),
        "cron_expr": schedule.cron or None,
        "fire_at": None if schedule.recurring else instant(local_at(schedule), tz)["local"],
        "timezone": schedule.timezone,
        "enabled": schedule.status == models.ACTIVE,
        "kind": schedule.kind,
        "next_fire": instant(nexts[0], tz)["local"] if nexts else None,
    }
