"""An occurrence a change names (skip_next and snooze_reminder's `occurrence`): read, said, checked."""

from __future__ import annotations

from datetime import UTC, datetime
from zoneinfo import ZoneInfo

from cronbell.core.domain.instants import iso_utc, parse_iso
from cronbell.core.domain.models import Schedule
from cronbell.core.domain.refusals import refusal
from cronbell.core.domain.upcoming import ran_already, upcoming
from cronbell.core.text import texts


def said_at(instant: datetime, schedule: Schedule) -> texts.Moment:
    """An occurrence as a sentence names it, with its weekday, in the schedule's zone."""
    return texts.Moment(instant, ZoneInfo(schedule.timezone))


def read_occurrence(text: str, schedule: Schedule) -> datetime:
    """The instant an `occurrence` argument names (RFC3339 with its offset), in the schedule's zone."""
    try:
        return parse_iso(text).astimezone(ZoneInfo(schedule.timezone))
    except ValueError:
        raise refusal("invalid_arguments.occurrence", text=text) from None


def is_coming(schedule: Schedule, occurrence: datetime, now: datetime) -> bool:
    """Whether `occurrence` is one of the schedule's coming occurrences (not skipped, not past its end)."""
    timing = schedule.timing
    if ran_already(schedule, occurrence, now) or not timing.fires_at(occurrence):
        return False
    if iso_utc(occurrence) in timing.skips:
        return False
    if timing.off_interval(occurrence) or timing.is_holiday(occurrence):
        return False
    if timing.until is not None and occurrence > timing.until:
        return False
    if timing.count:
        wanted = occurrence.astimezone(UTC)
        return wanted in [t.astimezone(UTC) for t in upcoming(schedule, now, timing.count - schedule.delivered_count)]
    return True
