"""A change brought to Scheduler and the table: entries first and the item second (a failed item
write puts the entries back), except when the change stops firing (pause): then the item first, so a
crash in between leaves at worst an entry whose fires are skipped, never an active item that cannot
fire."""

from __future__ import annotations

import logging

from cronbell.core.contract.errors import ToolError, refusal
from cronbell.core.domain import models
from cronbell.core.domain.instants import iso_utc
from cronbell.core.domain.models import Schedule
from cronbell.core.domain.ports import BackendError, Busy, Conflict, Duplicate, LimitReached, NameTaken
from cronbell.usecases.deps import Deps
from cronbell.usecases.planning import name_taken

log = logging.getLogger(__name__)


def apply(old: Schedule, new: Schedule, deps: Deps) -> None:
    """Bring the entries and the item to `new`. A schedule a delivery holds (as read) is refused
    `busy` before anything is written; a refusal that comes only with the item write (the claim
    landed since the read) puts every entry back exactly as it was, so a refusal changes nothing."""
    new.updated_at = iso_utc(deps.now())
    if old.held(deps.now()):
        raise busy()
    stops_firing = old.status == models.ACTIVE and new.status != models.ACTIVE
    try:
        if stops_firing:
            _write(old, new, deps)
            _sync(old, new, deps)
            return
        touched = _sync(old, new, deps)
        try:
            _write(old, new, deps)
        except BaseException:
            _restore(old, touched, deps)
            raise
    except BackendError as err:
        log.error("change failed", extra={"schedule_id": old.id, "error": str(err)})
        raise refusal("backend_error.not_saved_change") from err


def _write(old: Schedule, new: Schedule, deps: Deps) -> None:
    try:
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
        raise refusal("backend_error.changed_list") from None


def busy() -> ToolError:
    """A change that meets a delivery under way is refused, never applied and then lost."""
    return refusal("busy")


Touched = dict[str, bool]  # each entry name written, and whether an entry of that name was there before


def _sync(old: Schedule, new: Schedule, deps: Deps) -> Touched:
    """Make the Scheduler entries those of `new`; returns the names touched, for _restore."""
    before = {e.name: e for e in old.entries()}
    after = {e.name: e for e in new.entries()}
    touched: Touched = {}
    try:
        for name, entry in after.items():
            prev = before.get(name)
            if prev == entry and old.status == new.status:
                continue
            touched[name] = True  # not known yet: put back, should the write fail
            if prev is not None and prev.one_time != entry.one_time:
                # UpdateSchedule cannot be trusted to switch the kind
                touched[name] = deps.scheduler.delete(name)
                deps.scheduler.put_entry(entry, new, deps.now())
            else:
                touched[name] = deps.scheduler.put_entry(entry, new, deps.now())
        for name in before.keys() - after.keys():
            touched[name] = True
            touched[name] = deps.scheduler.delete(name)
    except BaseException:
        _restore(old, touched, deps)
        raise
    return touched


def _restore(old: Schedule, touched: Touched, deps: Deps) -> None:
    """Put the touched entries back as they were: an entry that was there is written as `old` has
    it; one that was not (a fired one-time entry Scheduler deleted) is deleted again."""
    before = {e.name: e for e in old.entries()}
    for name, existed in touched.items():
        try:
            if name in before and existed:
                deps.scheduler.put_entry(before[name], old, deps.now())
            else:
                deps.scheduler.delete(name)
        except BackendError:
            log.warning("could not restore scheduler entry; the reconciler will", extra={"entry": name})
