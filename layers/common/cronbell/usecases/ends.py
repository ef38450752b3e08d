"""A recurrence whose end passed while it was paused: `until` behind it, or its `count` used. Such a
schedule has no occurrence left, so it ends `completed` wherever it is next looked at: by
resume_reminder (which answers that it has ended) and by the daily reconciler."""

from __future__ import annotations

import logging
from typing import Any

from cronbell.core.domain import models
from cronbell.core.domain.errors import BackendError, Busy, Conflict
from cronbell.core.domain.models import Schedule
from cronbell.core.domain.refusals import refusal
from cronbell.core.text import texts
from cronbell.usecases.change_writes import ChangedMeanwhile
from cronbell.usecases.deps import Deps

log = logging.getLogger(__name__)


def ended(schedule: Schedule, deps: Deps) -> bool:
    """Whether a live recurrence has no occurrence left after now (its end passed or its count is used)."""
    return schedule.recurring and schedule.timing.finished_after(deps.now(), schedule.delivered_count)


ENDED_WHILE_PAUSED = "ended_while_paused"  # the status_reason of a schedule completed while paused


def complete(schedule: Schedule, deps: Deps) -> None:
    """Retire `schedule` as `completed` (its room place and pointers freed in the same transaction;
    its entries go with its live item); one paused keeps that it ended so, for its resume's answer.
    Raises Busy while a delivery holds it, Conflict when it changed meanwhile, BackendError."""
    reason = ENDED_WHILE_PAUSED if schedule.status == models.PAUSED else ""
    deps.store.retire(schedule, models.COMPLETED, deps.now(), reason)


def ended_while_paused(
    schedule: Schedule, now: dict[str, str], now_text: str, locale: str, deps: Deps
) -> dict[str, Any]:
    """resume_reminder's answer for a schedule whose end passed while it was paused: it is completed (by this
    call, or already by the daily reconciler)."""
    try:
        if schedule.status == models.PAUSED:
            complete(schedule, deps)
    except Busy:
        raise refusal("busy") from None
    except Conflict:
        raise ChangedMeanwhile("backend_error.changed_meanwhile") from None
    except BackendError as err:
        raise refusal("backend_error.not_saved_change") from err
    return {
        "result": {"id": schedule.id, "status": models.COMPLETED, "next_fire": None, "now": now},
        "text": texts.say("ended_while_paused", locale, id=schedule.id, now=now_text),
    }
