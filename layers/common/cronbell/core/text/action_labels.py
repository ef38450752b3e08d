"""The buttons under a post, labelled in the reader's language: snooze, skip the next occurrence, and Done
for a reminder that repeats until acknowledged (core/domain/actions.py carries them as tool calls)."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime
from typing import Any

from cronbell.core.domain.actions import SNOOZE_MINUTES, Action, iso_occurrence
from cronbell.core.domain.instants import parse_iso
from cronbell.core.domain.models import Schedule
from cronbell.core.domain.upcoming import upcoming
from cronbell.core.text import texts


def reminder_actions(
    schedule_id: str,
    recurring: bool,
    locale: str,
    occurrence: datetime | str | None = None,
    following: datetime | str | None = None,
) -> tuple[Action, ...]:
    """Snooze 10 minutes, and for a recurring reminder skip the next occurrence; labels in `locale`.

    With `occurrence` (the delivered one), snooze names it and skip names `following` (the next
    occurrence after it); a recurring reminder with an occurrence but nothing following has no skip."""
    snooze_args: dict[str, Any] = {"id": schedule_id, "minutes": SNOOZE_MINUTES}
    if occurrence is not None:
        snooze_args["occurrence"] = iso_occurrence(occurrence)
    snooze = Action(
        texts.say("chat.action.snooze_reminder", locale, minutes=SNOOZE_MINUTES), "snooze_reminder", snooze_args
    )
    if not recurring or (occurrence is not None and following is None):
        return (snooze,)
    skip_args: dict[str, Any] = {"id": schedule_id}
    if following is not None:
        skip_args["occurrence"] = iso_occurrence(following)
    return snooze, Action(texts.say("chat.action.skip_next", locale), "skip_next", skip_args)


def delivered_actions(schedule: Schedule, locale: str, slot: str = "") -> tuple[Action, ...]:
    """The actions under the post of `slot` (RFC3339), the occurrence being delivered: snooze names
    it, skip names the occurrence that comes after it. Without a slot, the actions name none."""
    done = done_actions(schedule, locale)
    if not slot:
        return (*done, *reminder_actions(schedule.id, schedule.recurring, locale))
    delivered = parse_iso(slot)
    after = upcoming(replace(schedule, delivered_count=schedule.delivered_count + 1), delivered, 1)
    return (*done, *reminder_actions(schedule.id, schedule.recurring, locale, delivered, after[0] if after else None))


def released_actions(schedule: Schedule, locale: str, slot: str, now: datetime) -> tuple[Action, ...]:
    """The actions of an occurrence a quiet-hours release lists: snooze names it (delivered now), skip
    the schedule's next occurrence still to come after `now` (the one right after it may be past or
    held too). `schedule` is as read at the release, its held occurrences counted."""
    after = upcoming(schedule, now, 1) if schedule.recurring else []
    following = after[0] if after else None
    return (
        *done_actions(schedule, locale),
        *reminder_actions(schedule.id, schedule.recurring, locale, slot, following),
    )


def done_actions(schedule: Schedule, locale: str) -> tuple[Action, ...]:
    """Done (`done_reminder {id}`), under the posts of a reminder that repeats until acknowledged."""
    if schedule.repeat_every <= 0 or schedule.kind != "message":
        return ()
    return (Action(texts.say("chat.action.done_reminder", locale), "done_reminder", {"id": schedule.id}),)
