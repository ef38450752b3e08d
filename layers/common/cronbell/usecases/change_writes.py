"""A change written to the table: one conditional write of the schedule's item (its Scheduler entries
are the projection of the version written, `usecases/project.py`)."""

from __future__ import annotations

import logging

from cronbell.core.domain.errors import (
    BackendError,
    Busy,
    Conflict,
    Duplicate,
    LimitReached,
    NameTaken,
    QuietHoursChanged,
)
from cronbell.core.domain.instants import stored_second
from cronbell.core.domain.models import Schedule
from cronbell.core.domain.refusals import ToolError, refusal
from cronbell.usecases.deps import Deps
from cronbell.usecases.planning import name_taken

log = logging.getLogger(__name__)


def apply(old: Schedule, new: Schedule, deps: Deps) -> None:
    """Write `new` over `old`, conditioned on `old`'s version: a schedule a delivery holds (as read) is
    refused `busy` before anything is written; a refusal changes nothing. Its Scheduler entries follow
    from the item (the projection, `usecases/project.py`)."""
    new.updated_at = stored_second(deps.now())
    if old.held(deps.now()):
        raise busy()
    try:
        _write(old, new, deps)
    except BackendError as err:
        log.error("change failed", extra={"schedule_id": old.id, "error": str(err)})
        raise refusal("backend_error.not_saved_change") from err


def _write(old: Schedule, new: Schedule, deps: Deps) -> None:
    try:
        try:
            deps.store.replace(old, new, deps.settings.max_per_room, deps.now())
        except QuietHoursChanged:
            # a fired one-shot brought back (snoozed, moved) whose user has set quiet hours since it
            # fired: its retired copy says they have none, the room lists them: it is written as having some
            new.quiet_hours_set = True
            deps.store.replace(old, new, deps.settings.max_per_room, deps.now())
    except Busy:
        raise busy() from None
    except NameTaken as taken:
        raise name_taken(new.name, taken) from None
    except Duplicate as dup:
        raise refusal("duplicate", id=dup.existing.id) from None
    except LimitReached:
        raise refusal("limit_reached.change") from None
    except Conflict:
        raise ChangedMeanwhile("backend_error.changed_list") from None


def busy() -> ToolError:
    """A change that meets a delivery under way is refused, never applied and then lost."""
    return refusal("busy")


class ChangedMeanwhile(Exception):
    """Another call changed the schedule between this call's read and its write: nothing was written.
    Parallel tool calls on one schedule are normal traffic, so the tool call is run again on what the
    schedule is now (`usecases/tools.handle`); `key` is the refusal once those tries run out."""

    def __init__(self, key: str) -> None:
        super().__init__(key)
        self.key = key
