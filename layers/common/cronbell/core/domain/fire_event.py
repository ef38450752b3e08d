"""The fire contract: the Input every fire carries (written for Scheduler entries and run_now,
read by the fire function), validated. Its public key for the schedule is `reminder_id`
(the fire Input, a public contract); inside cronbell it is the schedule id.
"""

from __future__ import annotations

import json
import re
from datetime import datetime
from functools import cached_property
from typing import Any

from cronbell.core.domain.instants import iso_utc, parse_iso
from cronbell.core.values import value

SCHEDULE_KEY = "reminder_id"  # the public name of the schedule id in the Input


class BadFireEvent(ValueError):
    pass


def scheduler_input(room_id: str, schedule_id: str) -> str:
    """The Target.Input of a schedule's Scheduler entries; Scheduler fills in its context
    attributes at fire time."""
    return json.dumps(
        {
            "room_id": room_id,
            SCHEDULE_KEY: schedule_id,
            "scheduled_time": "<aws.scheduler.scheduled-time>",
            "execution_id": "<aws.scheduler.execution-id>",
            "attempt": "<aws.scheduler.attempt-number>",
        }
    )


def repeat_input(room_id: str, schedule_id: str, occurrence: str, number: int) -> str:
    """The Target.Input of a repeat's one-time entry (core/domain/repeats.py): the regular Input plus the
    occurrence it posts again (`repeat_of`, RFC3339 UTC) and which post after it (`repeat`)."""
    data = json.loads(scheduler_input(room_id, schedule_id))
    return json.dumps({**data, "repeat_of": occurrence, "repeat": number})


def release_input(room_id: str, user_id: str, until: str) -> str:
    """The Target.Input of a quiet-hours release's one-time entry: the regular Input with no
    schedule, and whose period (`release_user`, `release_until`: RFC3339 UTC) it releases."""
    data = json.loads(scheduler_input(room_id, ""))
    return json.dumps({**data, "release_user": user_id, "release_until": until})


def manual_input(room_id: str, schedule_id: str, scheduled_time: str, execution_id: str) -> dict[str, Any]:
    """The Input of a run started by hand (run_now), as Scheduler would send it."""
    return {
        "room_id": room_id,
        SCHEDULE_KEY: schedule_id,
        "scheduled_time": scheduled_time,
        "execution_id": execution_id,
        "attempt": "1",
        "run_now": True,
    }


def fires(raw_input: str, room_id: str, schedule_id: str) -> bool:
    """Whether an entry's Input fires this (room, schedule)."""
    try:
        data = json.loads(raw_input or "{}")
    except ValueError:
        return False
    return isinstance(data, dict) and (data.get("room_id"), data.get(SCHEDULE_KEY)) == (room_id, schedule_id)


@value
class StaticAction:
    """A schedule declared in template.yaml: the fire function's own declaration (its
    STATIC_SCHEDULES), never what an Input says."""

    name: str
    room_id: str
    target_agent: str
    prompt: str = ""
    prompt_template: str = ""  # a file under the fire function's prompts/ folder
    skills: tuple[str, ...] = ()
    timezone: str = "UTC"
    cron_expr: str = ""  # when it runs, in five-field cron (the template's own ScheduleExpression, for listings)


@value
class FireEvent:
    room_id: str
    schedule_id: str  # for a static schedule: "static-<name>"
    slot: str  # the scheduled time, RFC3339 UTC: with schedule_id, the unit of exactly-once
    execution_id: str = ""
    attempt: int = 1
    static: str = ""  # the name of a schedule declared in template.yaml
    on_time: bool = True  # False when the Input carried no scheduled time (a hand-made event)
    manual: bool = False  # a run started by hand (run_now): the regular schedule does not change
    repeat_of: str = ""  # a repeat's fire: the occurrence (RFC3339 UTC) it posts again
    repeat: int = 0  # which post after the occurrence (the escalation: repeat_times + 1)
    release_user: str = ""  # a quiet-hours release: the user whose held occurrences it posts
    release_until: str = ""  # and the end of their period (RFC3339 UTC)

    @cached_property
    def at(self) -> datetime:
        """The scheduled time as an instant (UTC), read from `slot` once per fire."""
        return parse_iso(self.slot)


def _text(event: dict[str, Any], key: str, required: bool = True) -> str:
    """A short text field (a room key is a room id of up to 255 characters, with its platform)."""
    value = event.get(key, "")
    if not isinstance(value, str) or (required and not value.strip()) or len(value) > 300:
        raise BadFireEvent(f"`{key}` must be a non-empty string")
    return value.strip()


def parse_fire_event(event: Any, now: datetime) -> FireEvent:
    """Scheduler's Input with its context attributes filled in. A `scheduled_time` that is not
    an instant (an unfilled placeholder, a hand-made test event) means now."""
    if not isinstance(event, dict):
        raise BadFireEvent("the fire input must be a JSON object")
    room_id = _text(event, "room_id")
    static = _static(event) if "static" in event else ""
    release_user, release_until = _release(event)
    named = f"static-{static}" if static else ""
    schedule_id = "" if release_user else named or _text(event, SCHEDULE_KEY)
    raw_time = event.get("scheduled_time")
    on_time = True
    try:
        slot = iso_utc(parse_iso(raw_time)) if isinstance(raw_time, str) else ""
    except ValueError:
        slot = ""
    if not slot:
        slot, on_time = iso_utc(now), False
    attempt_raw = event.get("attempt", 1)
    try:
        attempt = int(attempt_raw) if isinstance(attempt_raw, (int, str)) else 1
    except ValueError:
        attempt = 1
    execution = event.get("execution_id", "")
    repeat_of, repeat = _repeat(event)
    return FireEvent(
        room_id=room_id,
        schedule_id=schedule_id,
        slot=slot,
        execution_id=execution if isinstance(execution, str) else "",
        attempt=attempt,
        static=static,
        on_time=on_time,
        manual=event.get("run_now") is True,
        repeat_of=repeat_of,
        repeat=repeat,
        release_user=release_user,
        release_until=release_until,
    )


def _release(event: dict[str, Any]) -> tuple[str, str]:
    """A release's user and period end, both or neither, and no schedule; anything else is refused."""
    if "release_user" not in event and "release_until" not in event:
        return "", ""
    raw = event.get("release_until")
    try:
        until = iso_utc(parse_iso(raw)) if isinstance(raw, str) else ""
    except ValueError:
        until = ""
    user = event.get("release_user")
    if not until or not isinstance(user, str) or not user.strip() or len(user) > 300:
        raise BadFireEvent("`release_user` must be a user id and `release_until` an RFC3339 instant")
    if event.get(SCHEDULE_KEY) or "static" in event or "repeat_of" in event or event.get("run_now"):
        raise BadFireEvent("a release names no schedule")
    return user.strip(), until


def _repeat(event: dict[str, Any]) -> tuple[str, int]:
    """A repeat's occurrence and number, both or neither; anything else is refused."""
    if "repeat_of" not in event and "repeat" not in event:
        return "", 0
    raw, number = event.get("repeat_of"), event.get("repeat")
    try:
        occurrence = iso_utc(parse_iso(raw)) if isinstance(raw, str) else ""
    except ValueError:
        occurrence = ""
    if not occurrence or isinstance(number, bool) or not isinstance(number, int) or not 1 <= number <= 100:
        raise BadFireEvent("`repeat_of` must be an RFC3339 instant and `repeat` a whole number from 1")
    return occurrence, number


_NAME = re.compile(r"^[A-Za-z0-9_.-]{1,64}$")


def _static(event: dict[str, Any]) -> str:
    name = _text(event, "static")
    if not _NAME.match(name):
        raise BadFireEvent("`static` must be the plain name of a schedule template.yaml declares")
    return name


def static_declarations(raw: str) -> dict[str, StaticAction]:
    """The template's schedules, as the fire function's environment declares them:
    {"<name>": {"room_id": ..., "target_agent": ..., "prompt_template" | "prompt": ..., ...}}."""
    declared = json.loads(raw or "{}")
    if not isinstance(declared, dict):
        raise BadFireEvent("STATIC_SCHEDULES must be a JSON object")
    return {name: _declared(name, action) for name, action in declared.items()}


def _declared(name: str, action: Any) -> StaticAction:
    if not _NAME.match(name) or not isinstance(action, dict):
        raise BadFireEvent("a static schedule needs a plain name and an action object")
    if action.get("kind", "agent_call") != "agent_call":
        raise BadFireEvent("static schedules run agent calls")
    template = action.get("prompt_template", "")
    prompt = action.get("prompt", "")
    skills = action.get("skills", [])
    if not isinstance(template, str) or not isinstance(prompt, str) or not (template or prompt):
        raise BadFireEvent("a static action needs `prompt` or `prompt_template`")
    if template and not _NAME.match(template):
        raise BadFireEvent("`prompt_template` must be a plain file name")
    if not isinstance(skills, list) or not all(isinstance(s, str) for s in skills):
        raise BadFireEvent("`skills` must be a list of strings")
    zone = action.get("timezone", "UTC")
    cron_expr = action.get("cron_expr", "")
    if not isinstance(cron_expr, str):
        raise BadFireEvent("`cron_expr` must be a five-field cron expression")
    return StaticAction(
        name=name,
        room_id=_text(action, "room_id"),
        target_agent=_text(action, "target_agent"),
        prompt=prompt,
        prompt_template=template,
        skills=tuple(skills),
        timezone=zone if isinstance(zone, str) else "UTC",
        cron_expr=cron_expr,
    )
