"""The one writer of Scheduler: each change of an item, as the table's stream keeps it, brought to
its entries (`core/domain/projection.py`); and the writer of a recorded run's history on its slot.

DynamoDB Streams delivers one item's changes in order, so applying the difference between each
change's old and new projection leaves an item's entries as its last version projects them. Every
write is idempotent (a whole definition, or a delete that may find nothing), so a change delivered
again does no harm. A write Scheduler refuses as it is (validation, a quota) is never silent: the
schedule ends `failed` (`scheduler_refused`) with an event `Schedule Failed`; any other failure
raises, so the stream delivers the change again (and, once its retries run out, to the on-failure
queue, which the reconciler's next pass makes good).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime

from cronbell.core.domain import models, projection
from cronbell.core.domain.errors import Busy, Conflict, EntryRefused
from cronbell.core.domain.models import Schedule
from cronbell.core.domain.ports import Store
from cronbell.core.domain.projection import Change, Projected, Target
from cronbell.usecases.deps import Deps

log = logging.getLogger(__name__)


@dataclass
class Applied:
    """What one change did to Scheduler."""

    written: int = 0
    deleted: int = 0
    refused: int = 0

    def add(self, other: Applied) -> None:
        self.written += other.written
        self.deleted += other.deleted
        self.refused += other.refused


def apply(change: Change, deps: Deps) -> Applied:
    """Write the run the change recorded on its schedule to its slot, as its history (once, however
    often the change is delivered); move a schedule a fire's record retired under its live key to its
    retired key; bring Scheduler from the projection of `change.old` to that of `change.new`."""
    write_items(change, deps.store, deps.now())
    plan = projection.plan(change.old, _waiting_elsewhere(change, deps) or change.new, deps.now())
    done = Applied()
    for name in plan.deletes:
        done.deleted += deps.scheduler.delete(name)
    for name, room_id, schedule_id in plan.deletes_if_fire:
        done.deleted += deps.scheduler.delete_if_fires(name, room_id, schedule_id)
    for target in plan.puts:
        try:
            deps.scheduler.put(target, deps.now(), exists=target.name not in plan.created)
            done.written += 1
        except EntryRefused as err:
            done.refused += 1
            _refused(change.new, target, str(err), deps)
            break  # the schedule ends failed: its other entries go with its next change
    return done


def write_items(change: Change, store: Store, now: datetime) -> None:
    """What a change asks of the table itself: the run it recorded written to its slot, as its history
    (once, however often the change is delivered), and a schedule a fire's record retired under its
    live key moved to its retired key."""
    if change.history is not None:
        store.write_history(change.history, now)
    if change.retired is not None and isinstance(change.new, Schedule):
        store.move_retired(change.new.room_id, change.new.id, change.retired)


def _waiting_elsewhere(change: Change, deps: Deps) -> Schedule | None:
    """The item that now holds the runs started by hand an item left with, still waiting: the
    retired copy when the delivery they waited for ended the schedule (a one-shot's own, a
    recurrence's last), whose stream record may follow or precede the live item's; the live item
    again when a snooze brought the schedule back to life. What the entries are brought to: those
    runs keep their entry and are delivered once, as run_now said (docs/semantics.md). None
    otherwise (a delete: they run nothing)."""
    old = change.old
    if change.new is not None or not isinstance(old, Schedule) or not old.manual_waiting:
        return None
    holder = deps.store.get(old.room_id, old.id)
    if holder is None or not holder.manual_waiting:
        return None
    return holder if holder.status in (*models.LIVE_STATUSES, *models.RAN_OUT) else None


def _refused(item: Projected, target: Target, why: str, deps: Deps) -> None:
    """A schedule whose entry Scheduler refuses ends `failed`: listed so, never active with no entry.
    Only a schedule's own entries end it; a refused repeat or release is logged and counted."""
    deps.metric("SchedulerRefused", 1)
    if not isinstance(item, Schedule) or item.status not in models.LIVE_STATUSES:
        log.error("scheduler refused an entry", extra={"entry": target.name, "error": why})
        return
    log.error("scheduler refused a schedule's entry; it ends failed", extra={"entry": target.name, "error": why})
    try:
        deps.store.retire(item, models.FAILED, deps.now(), reason=models.SCHEDULER_REFUSED, as_read=True)
    except Conflict:
        log.info("the schedule changed since; its next change is projected in turn")
        return
    except Busy:  # a delivery holds it: the stream delivers this change again
        raise
    if deps.events is not None:
        detail = {
            "schedule_id": item.id,
            "room_id": item.room_id,
            "name": item.name or None,
            "status": models.FAILED,
            "status_reason": models.SCHEDULER_REFUSED,
            "error": why[:500],
        }
        deps.events.publish("Schedule Failed", detail)
