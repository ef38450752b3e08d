"""A schedule's occurrences still to come, counted from now or from its last regular run, whichever is
later (Scheduler may invoke up to a minute early)."""

from __future__ import annotations

from datetime import datetime

from cronbell.core.domain import models
from cronbell.core.domain.models import Schedule


def upcoming(schedule: Schedule, now: datetime, count: int) -> list[datetime]:
    """The next fire instants (aware, in the schedule's zone) still to be run; none unless active."""
    if schedule.status != models.ACTIVE:
        return []
    timing = schedule.timing
    return timing.upcoming(ran_through(schedule, now), count, schedule.delivered_count, schedule.done_through)


def ran_through(schedule: Schedule, now: datetime) -> datetime:
    """The instant after which a schedule's occurrences are still to come: `now`, or the scheduled
    time of its last regular run when that is later (Scheduler may invoke up to a minute early, so
    an occurrence can be run before its time: it is not the next one any more)."""
    ran = schedule.last_regular()
    return now if ran is None else max(now, ran)


def ran_already(schedule: Schedule, occurrence: datetime, now: datetime) -> bool:
    """Whether `occurrence` is past or run already: at or before `ran_through`, or a regular occurrence
    whose original time is at or before the schedule's watermark (`done_through`), wherever it moved."""
    return occurrence <= ran_through(schedule, now) or schedule.timing.ran_already(occurrence, schedule.done_through)
