"""What the tools show of a schedule: ids, previews, next fires in the schedule's zone and UTC."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any
from zoneinfo import ZoneInfo

from cronbell.core.domain import models
from cronbell.core.domain.business import AFTER, BEFORE, LAST
from cronbell.core.domain.cron.fields import parse_fields
from cronbell.core.domain.cron.fires import next_fires
from cronbell.core.domain.fire_event import StaticAction
from cronbell.core.domain.instants import instant, iso_utc
from cronbell.core.domain.models import Schedule
from cronbell.core.domain.routing import bare_room
from cronbell.core.domain.timing import Timing
from cronbell.core.domain.upcoming import upcoming
from cronbell.core.text import texts
from cronbell.core.text.preview import describe_at, describe_cron, dst_notes

PREVIEW_CHARS = 80
# the statuses whose `status_reason` says why (failing, the platform's refusal, ...); a fired or
# completed schedule's item may hold its last delivery's message id there, which is no reason
REASONED_STATUSES = (models.PAUSED, models.DELIVERY_FAILED, models.MISSED, models.FAILED)


def describe(schedule: Schedule, locale: str) -> str:
    timing = schedule.timing
    if not timing.recurring:
        return describe_at(timing.local_at, locale)
    if timing.business_day:  # the expression gives only the times of day
        clocks = texts.join([f"{h:02d}:{m:02d}" for h, m in sorted(parse_fields(timing.cron).times())], locale)
        key = "preview.business_day_last" if timing.business_day == LAST else "preview.business_day"
        first = texts.say(key, locale, n=timing.business_day, clocks=clocks)
        return ", ".join([first, *describe_ends(timing, locale)])
    return ", ".join([describe_cron(timing.spec, locale), *describe_ends(timing, locale)])


def describe_ends(timing: Timing, locale: str) -> list[str]:
    """'until 24 Dec 2026', '3 times', 'skipping public holidays in ES': what ends a recurrence."""
    out = []
    if timing.until is not None:
        out.append(texts.say("ends.until", locale, date=short_date(timing.until.astimezone(timing.tz), locale)))
    if timing.count:
        out.append(texts.say("ends.count_one" if timing.count == 1 else "ends.count", locale, count=timing.count))
    if timing.business_day:
        out.append(texts.say("ends.calendar", locale, calendar=timing.calendar))
    elif timing.business_days:
        out.append(texts.say("ends.business_days", locale, calendar=timing.calendar))
    elif timing.calendar:
        out.append(texts.say("ends.holidays", locale, calendar=timing.calendar))
    if timing.on_holiday in (BEFORE, AFTER):
        out.append(texts.say(f"ends.moved_{timing.on_holiday}", locale))
    return out


def short_date(local: datetime, locale: str) -> str:
    """'Thursday 24 December 2026' / 'jueves 24 de diciembre de 2026', with the time of day unless it is
    the end of the day ('Thursday 24 December 2026, 18:00')."""
    if (local.hour, local.minute) == (23, 59):
        return texts.date_text(local, locale)
    return texts.when_text(local, local.tzinfo or UTC, locale)


def ends_view(schedule: Schedule) -> dict[str, Any]:
    """The end and calendar fields of list items and answers (null when there are none)."""
    timing = schedule.timing
    return {
        "until": timing.until.astimezone(timing.tz).isoformat(timespec="seconds") if timing.until else None,
        "count": timing.count or None,
        "delivered_count": schedule.delivered_count,
        "skip_holidays": timing.calendar or None,
        "business_days": timing.business_days,
        "business_day_of_month": timing.business_day or None,
        "on_holiday": timing.on_holiday,
    }


def preview(text: str) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= PREVIEW_CHARS else flat[: PREVIEW_CHARS - 1] + "…"


def held_text(held: datetime | None, tz: ZoneInfo) -> str | None:
    """`held_until` as items show it: RFC3339 in the schedule's zone, or null."""
    return held.astimezone(tz).isoformat(timespec="seconds") if held is not None else None


def schedule_view(
    schedule: Schedule, now: datetime, locale: str, with_notes: bool = False, held: datetime | None = None
) -> dict[str, Any]:
    """One schedule as list_reminders and the create answers show it; `held`: the release of an
    occurrence held now, else the end of the quiet period that would hold its next occurrence
    (usecases/quiet.py decides it)."""
    tz = ZoneInfo(schedule.timezone)
    nexts = upcoming(schedule, now, 3 if schedule.recurring else 1)
    view: dict[str, Any] = {
        "id": schedule.id,
        "kind": schedule.kind,
        "name": schedule.name or None,
        "preview": preview(schedule.body),
        "recurring": schedule.recurring,
        "schedule": schedule.timing.text,
        "description": describe(schedule, locale),
        "timezone": schedule.timezone,
        "enabled": schedule.status == models.ACTIVE,
        "status": schedule.status,
        "next_fire": instant(nexts[0], tz) if nexts else None,
        "held_until": held_text(held, tz),
        "last_fired": iso_utc(schedule.last_fired_at) if schedule.last_fired_at else None,
        "fire_count": schedule.fire_count,
        "thread_id": schedule.thread_id or None,
        "last_run": schedule.last_run,
        "failure_streak": schedule.failure_streak,
        **ends_view(schedule),
    }
    if schedule.recurring:
        view["next_fires"] = [instant(t, tz) for t in nexts]
    if schedule.kind == models.AGENT_CALL:
        view["target_agent"] = schedule.target_agent
        view["channel"] = bare_room(schedule.output_room)
        view["skills"] = list(schedule.skills)
    if schedule.repeat_every:  # repeat until done: what update_reminder set, for the model to check
        view["repeat_every"] = schedule.repeat_every
        view["repeat_times"] = schedule.repeat_times
        view["escalate_to"] = schedule.escalate_to or None
    if schedule.status_reason and schedule.status in REASONED_STATUSES:
        view["status_reason"] = schedule.status_reason
    if with_notes and schedule.recurring and schedule.status == models.ACTIVE:
        notes = dst_notes(schedule.timing.spec, now, tz, locale, until=_last_fire(schedule, now))
        if notes:
            view["dst_notes"] = notes
    return view


def _last_fire(schedule: Schedule, now: datetime) -> datetime | None:
    """Where a recurrence ends: its `until`, or the fire that uses the last of its `count` when the
    look-ahead reaches it (no DST change after it concerns the schedule)."""
    timing = schedule.timing
    if not timing.count:
        return timing.until
    left = upcoming(schedule, now, timing.count - schedule.delivered_count)
    if left and len(left) == timing.count - schedule.delivered_count:
        return left[-1] if timing.until is None else min(left[-1], timing.until)
    return timing.until


def cron_view(schedule: Schedule, now: datetime, held: datetime | None = None) -> dict[str, Any]:
    """One schedule as cron_list shows it (the contract's fixed fields), and `held_until`."""
    tz = ZoneInfo(schedule.timezone)
    nexts = upcoming(schedule, now, 1)
    return {
        "id": schedule.id,
        "name": schedule.name or None,  # only a real name: one cron_delete and the others accept
        "cron_expr": schedule.timing.text if schedule.recurring else None,
        "fire_at": None if schedule.recurring else instant(schedule.timing.local_at, tz)["local"],
        "timezone": schedule.timezone,
        "enabled": schedule.status == models.ACTIVE,
        "kind": schedule.kind,
        "next_fire": instant(nexts[0], tz)["local"] if nexts else None,
        "held_until": held_text(held, tz),
        "last_run": schedule.last_run,
        "failure_streak": schedule.failure_streak,
        **ends_view(schedule),
    }


def template_schedule_view(action: StaticAction, now: datetime) -> dict[str, Any]:
    """A schedule template.yaml declares for this room, as list_reminders shows it: read only (no tool
    changes or deletes it; the deployment's parameters do)."""
    from cronbell.core.language.recurring import parse_recurring  # the recurring grammar: on first use

    tz = ZoneInfo(action.timezone)
    fires = next_fires(parse_recurring(action.cron_expr, 1), now, tz, 1) if action.cron_expr else []
    return {
        "name": action.name,
        "kind": models.AGENT_CALL,
        "cron_expr": action.cron_expr or None,
        "timezone": action.timezone,
        "target_agent": action.target_agent,
        "next_fire": instant(fires[0], tz) if fires else None,
        "read_only": True,
    }


# --- the shapes of `result`, as JSON Schema (read by scripts/schemas.py for the tools' output schemas) ---

_INSTANT = {
    "type": ["object", "null"],
    "description": "An instant in the schedule's zone and in UTC.",
    "properties": {"local": {"type": "string"}, "utc": {"type": "string"}},
}
_NOW = {**_INSTANT, "type": "object", "description": "The current time, in the context's or the schedule's zone."}
_RUN = {
    "type": ["object", "null"],
    "description": "What happened to one occurrence.",
    "properties": {
        "scheduled_time": {"type": "string"},
        "outcome": {"type": "string", "enum": ["delivered", "failed", "skipped", "missed"]},
        "reason": {"type": ["string", "null"]},
        "manual": {"type": "boolean"},
        "late_seconds": {"type": ["integer", "number", "null"]},
        "moved_from": {"type": ["string", "null"]},
        "acknowledged_at": {"type": ["string", "null"]},
        "repeats": {"type": "integer"},
        "escalated": {"type": "boolean"},
    },
}
_HELD = {
    "type": ["string", "null"],
    "description": (
        "RFC3339 in the schedule's zone: when quiet hours release an occurrence of it held now, else its next "
        "occurrence, if they will hold it."
    ),
}
_SCHEDULE = {
    "type": "object",
    "description": "One schedule as list_reminders shows it.",
    "properties": {
        "id": {"type": "string"},
        "kind": {"type": "string", "enum": [models.MESSAGE, models.AGENT_CALL]},
        "name": {"type": ["string", "null"]},
        "preview": {"type": "string"},
        "status": {"type": "string"},
        "enabled": {"type": "boolean"},
        "timezone": {"type": "string"},
        "next_fire": _INSTANT,
        "held_until": _HELD,
        "last_run": _RUN,
        "now": _NOW,
    },
    "required": ["id"],
}
_CRON_ITEM = {
    "type": "object",
    "properties": {
        "id": {"type": "string"},
        "name": {"type": ["string", "null"]},
        "cron_expr": {"type": ["string", "null"]},
        "fire_at": {"type": ["string", "null"]},
        "timezone": {"type": "string"},
        "enabled": {"type": "boolean"},
        "kind": {"type": "string"},
        "next_fire": {"type": ["string", "null"]},
        "held_until": _HELD,
    },
    "required": ["id", "kind", "next_fire"],
}
_QUIET = {
    "type": "object",
    "properties": {
        "quiet_hours": {
            "type": ["object", "null"],
            "description": "The caller's own quiet hours in this room, or null when there are none.",
            "properties": {
                "start": {"type": "string"},
                "end": {"type": "string"},
                "timezone": {"type": "string"},
                "days": {"type": "array", "items": {"type": "string"}},
            },
        },
        "next_period": {
            "type": ["object", "null"],
            "description": "The quiet period under way, else the next one (RFC3339 in the rule's zone).",
            "properties": {"start": {"type": "string"}, "end": {"type": "string"}},
        },
    },
    "required": ["quiet_hours", "next_period"],
}
RESULTS: dict[str, dict[str, Any]] = {
    "schedule": _SCHEDULE,
    "listing": {
        "type": "object",
        "properties": {
            "now": _NOW,
            "schedules": {"type": "array", "items": _SCHEDULE},
            "template_schedules": {
                "type": "array",
                "description": "The deployment's own schedules that post to this room, read only.",
                "items": {"type": "object"},
            },
        },
        "required": ["now", "schedules"],
    },
    "cron_list": {"type": "array", "items": _CRON_ITEM},
    "acknowledged": {
        "type": "object",
        "properties": {
            "id": {"type": "string"},
            "acknowledged": {"type": "boolean"},
            "occurrence": {"type": "string"},
            "now": _NOW,
        },
        "required": ["id", "acknowledged"],
    },
    "deleted": {
        "type": "object",
        "properties": {"id": {"type": "string"}, "deleted": {"type": "boolean"}, "now": _NOW},
        "required": ["id", "deleted"],
    },
    "run": {
        "type": "object",
        "properties": {"id": {"type": "string"}, "started": {"type": "boolean"}, "scheduled_time": {"type": "string"}},
        "required": ["id", "started"],
    },
    "quiet_hours": _QUIET,
    "quiet_cleared": {
        "type": "object",
        "properties": {"cleared": {"type": "boolean"}},
        "required": ["cleared"],
    },
    "history": {
        "type": "object",
        "properties": {"id": {"type": "string"}, "runs": {"type": "array", "items": _RUN}},
        "required": ["id", "runs"],
    },
}
