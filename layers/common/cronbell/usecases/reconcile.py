"""The reconciler: brings DynamoDB and Scheduler back into agreement after crashes and outages.

- an active schedule whose entry is missing gets it back, unless it is a one-shot whose time
  passed long enough ago that no retry can still deliver it: that one is marked `missed` (and,
  by the deployment's policy, a short notice is posted);
- an entry of ours that no live schedule owns is deleted;
- an entry that differs from its schedule's projection (expression, zone, state, Input, target,
  start, end: changed behind cronbell's back, or a projection lost) is written again;
- a room counter that disagrees with its live schedules is recounted (a delete leaves it high);
- a dedupe pointer whose schedule is no longer live is removed (a delete leaves it behind);
- a schedule retired under its live key (before retired schedules had keys of their own) moves
  to its retired key, so the room's listing stops reading it;
- the audit copy of a schedule a user deleted (its live item removed alone, the copy still
  saying live) is finalized: status `deleted`, with its retention TTL;
- a live schedule written before audit copies existed gets its copy;
- a slot still claimed when no attempt of its event can be alive any more (every attempt died)
  ends as its run: the run an attempt ended and noted on the slot (delivered or failed, with its
  reason and the failure policy's verdict), else `missed` (`lost`); a live one-shot's regular slot
  is left to the missed path above, which records it with the schedule's end;
- occurrences held by quiet hours whose period ended (before the grace window) with no entry of
  their release left (lost with Scheduler) get that entry again, to fire a minute on: they are
  posted then, not at the period's end. A held one-shot is never marked missed: it waits for its release.
Anything changed within the grace window is left alone (a create or update may be half done).
Every action is idempotent or conditional, so two runs at once do no harm.
"""

from __future__ import annotations

import logging
from collections import Counter
from collections.abc import Callable
from dataclasses import asdict, dataclass
from datetime import datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from cronbell.core.domain import models, projection, quiet_hours, routing, runs
from cronbell.core.domain.errors import BackendError, Busy, Conflict
from cronbell.core.domain.instants import iso_utc, parse_iso
from cronbell.core.domain.ledger_slots import slot_time
from cronbell.core.domain.models import Schedule
from cronbell.core.domain.ports import EntryState, OpenClaim, TableScan
from cronbell.core.domain.runs import Run
from cronbell.core.text import chat_text
from cronbell.usecases import ends
from cronbell.usecases.deps import Deps
from cronbell.usecases.fire_writes import announce

log = logging.getLogger(__name__)
RELEASE_AGAIN = timedelta(minutes=1)  # a lost release's entry, written again, fires this long after


@dataclass
class Report:
    schedules: int = 0
    entries: int = 0
    recreated: int = 0
    state_fixed: int = 0
    drift_repaired: int = 0
    orphans_deleted: int = 0
    missed: int = 0
    notices: int = 0
    counters_repaired: int = 0
    pointers_removed: int = 0
    retired_moved: int = 0
    deletes_finalized: int = 0
    audit_copied: int = 0
    claims_closed: int = 0
    releases_rewritten: int = 0
    quiet_marked: int = 0
    errors: int = 0

    def to_dict(self) -> dict[str, int]:
        return asdict(self)


@dataclass
class _Pass:
    """What every repair pass reads: one scan of the table and one listing of the entries."""

    deps: Deps
    now: datetime
    settled: datetime  # anything changed after this is left alone (a create or update may be half done)
    table: TableScan
    entries: dict[str, EntryState]
    live: list[Schedule]
    report: Report


def reconcile(deps: Deps) -> Report:
    now = deps.now()
    table = deps.store.scan(now)
    entries = {e.name: e for e in deps.scheduler.list_entries()}
    live = [s for s in table.schedules if s.status in models.LIVE_STATUSES]
    report = Report(schedules=len(table.schedules), entries=len(entries))
    settled = now - timedelta(seconds=deps.settings.reconcile_grace_seconds)
    run = _Pass(deps, now, settled, table, entries, live, report)
    for repair in _PASSES:
        repair(run)
    log.info("reconciled", extra=report.to_dict())
    return report


def _repair_entries(run: _Pass) -> None:
    """Every live schedule's entries as its status says, or its end (completed, missed) when due."""
    for schedule in run.live:
        if not _changed_since(schedule, run.settled):
            _repair_schedule(schedule, run)


def _repair_schedule(schedule: Schedule, run: _Pass) -> None:
    deps, now, report = run.deps, run.now, run.report
    if schedule.status == models.PAUSED and ends.ended(schedule, deps):
        _complete(schedule, deps, report)  # its end passed while paused: no fire will complete it
        return
    wanted = projection.own_targets(schedule)
    missing = {t.name for t in wanted if t.name not in run.entries}
    if _ended_instead(schedule, bool(missing), run):
        return
    expected = [t for t in wanted if not projection.fired(t, now)]  # a fired one-time entry is gone
    repaired = []
    for target in expected:
        drift = "missing" if target.name in missing else _guarded_drift(target, run)
        if not drift or not _guard(report, _put, target, deps, now, drift != "missing"):
            continue
        repaired.append(target.name)
        if drift == "missing":
            report.recreated += 1
        elif drift == "State":
            report.state_fixed += 1
        else:
            report.drift_repaired += 1
        log.info("entry repaired", extra={"entry": target.name, "drift": drift})
    if repaired:
        _guard(report, _catch_up, schedule, repaired, deps, now)


CATCH_UP_READS = 5


def _catch_up(schedule: Schedule, names: list[str], deps: Deps, now: datetime) -> bool:
    """A repair is written from the version the scan read; a change may have landed since and the
    projector written its entries first. So the item is read again until it is the version the repair
    was written from, and each time it moved, the entries repaired are written as the new version
    projects them: whatever the projector writes after that read follows a later change."""
    seen = (schedule.version, schedule.status)  # a deleted one reads as its copy, of the same version
    for _ in range(CATCH_UP_READS):
        fresh = deps.store.get(schedule.room_id, schedule.id)
        if fresh is not None and (fresh.version, fresh.status) == seen:
            return True
        wanted = {t.name: t for t in projection.own_targets(fresh)} if fresh is not None else {}
        for name in names:
            target = wanted.get(name)
            if target is None:
                deps.scheduler.delete(name)
            elif not projection.fired(target, now):
                deps.scheduler.put(target, now)
        if fresh is None:
            return True
        seen = (fresh.version, fresh.status)
    log.warning("the schedule kept changing while repaired; the next run looks again", extra={"id": schedule.id})
    return False


def _guarded_drift(target: projection.Target, run: _Pass) -> str:
    try:
        return run.deps.scheduler.drift(target)
    except BackendError as err:
        run.report.errors += 1
        log.warning("entry not read; the next run retries", extra={"entry": target.name, "error": str(err)})
        return ""


def _put(target: projection.Target, deps: Deps, now: datetime, exists: bool) -> bool:
    deps.scheduler.put(target, now, exists)
    return True


def _ended_instead(schedule: Schedule, missing: bool, run: _Pass) -> bool:
    """Whether a schedule whose entries disagree is past its time instead: a one-shot that fired
    (missed, once no retry can deliver it) or a recurrence past its end (completed)."""
    deps, now = run.deps, run.now
    if not schedule.recurring and schedule.status == models.ACTIVE and schedule.timing.local_at <= now:
        lost = schedule.timing.local_at <= now - timedelta(seconds=deps.settings.missed_after_seconds)
        if missing and lost and not schedule.releases:  # a held one waits for its release
            _mark_missed(schedule, deps, run.report)
        return True  # its entry fired: a retry may still deliver it
    if schedule.recurring and schedule.timing.finished_after(now, schedule.delivered_count):
        # past its end (`until`, `count`): completed, not given its entries back
        if schedule.status == models.ACTIVE and missing:
            _complete(schedule, deps, run.report)
        return True
    return False


def _delete_orphan_entries(run: _Pass) -> None:
    """Entries of ours that no live schedule owns (once a create has had time to write its item)."""
    owned = {e.name for schedule in run.live for e in schedule.entries()}
    scheduler = run.deps.scheduler
    for name in run.entries:
        if models.owner_of(name) is None or name in owned:
            continue
        written = scheduler.written_at(name)
        if written is None or written > run.settled:
            continue  # a create writes the entry first and the item second: give it time
        if _guard(run.report, scheduler.delete, name):
            run.report.orphans_deleted += 1


def _recount_rooms(run: _Pass) -> None:
    counters = run.table.counters
    actual = Counter(s.room_id for s in run.live)
    for room in set(counters) | set(actual):
        if counters.get(room, 0) != actual[room] and _guard(run.report, _recount, room, run.deps):
            run.report.counters_repaired += 1


def _drop_pointers(run: _Pass) -> None:
    live_ids = {(s.room_id, s.id) for s in run.live}
    for pointer in run.table.pointers:
        if (pointer.room_id, pointer.schedule_id) in live_ids:
            continue
        if _guard(run.report, run.deps.store.drop_pointer, pointer):
            run.report.pointers_removed += 1


def _move_retired(run: _Pass) -> None:
    for schedule in run.table.schedules:
        if schedule.status in models.LIVE_STATUSES:
            continue
        if _guard(run.report, run.deps.store.move_retired, schedule.room_id, schedule.id):
            run.report.retired_moved += 1


def _finalize_deletes(run: _Pass) -> None:
    for schedule in run.table.deleted:
        if _guard(run.report, run.deps.store.finalize_deleted, schedule, run.now):
            run.report.deletes_finalized += 1


def _close_claims(run: _Pass) -> None:
    """Claims no attempt of their event can still complete; a live one-shot's regular slot is left
    to the missed path (`_repair_schedule`), which records it with the schedule's end."""
    by_id = {(s.room_id, s.id): s for s in run.live}
    abandoned = run.now - timedelta(seconds=run.deps.settings.missed_after_seconds)  # outlasts Lambda's retries
    for claim in run.table.claims:
        owner = by_id.get((claim.room_id, claim.owner))
        if owner is not None and not owner.recurring and not slot_time(claim.slot)[1]:
            continue
        if claim.claimed_at <= abandoned and _guard(run.report, _close_claim, claim, owner, run.deps):
            run.report.claims_closed += 1


def _copy_audits(run: _Pass) -> None:
    for schedule in run.table.uncopied:
        if _guard(run.report, run.deps.store.copy_audit, schedule):
            run.report.audit_copied += 1


def _rewrite_lost_releases(run: _Pass) -> None:
    """Occurrences held for a (room, user) whose period ended before the grace window, whose release
    is not done and has no entry left: its entry is written again (a release fired already and
    still under way finds its claim taken, and posts nothing more)."""
    for release, held in run.table.held.items():
        room, user, until = release
        if release in run.table.released or parse_iso(until) > run.settled:
            continue
        if quiet_hours.release_name(room, user, parse_iso(until)) in run.entries:
            continue
        if _guard(run.report, _rewrite_release, release, held, run):
            run.report.releases_rewritten += 1


def _mark_quiet_hours(run: _Pass) -> None:
    """A reminder whose user has quiet hours in its room and that does not say so (a set_quiet_hours
    whose marking failed part way): marked, so its fires read the rule again."""
    unmarked = {
        (s.room_id, s.user_id)
        for s in run.live
        if s.kind == models.MESSAGE
        and s.quiet_hours_set is False
        and s.user_id in run.table.quiet_users.get(s.room_id, set())
    }
    for room_id, user_id in sorted(unmarked):
        try:
            run.report.quiet_marked += run.deps.store.mark_quiet_hours(room_id, user_id)
        except BackendError as err:
            run.report.errors += 1
            log.warning("quiet hours not marked; the next run retries", extra={"room": room_id, "error": str(err)})


_PASSES: tuple[Callable[[_Pass], None], ...] = (
    _repair_entries,
    _delete_orphan_entries,
    _recount_rooms,
    _drop_pointers,
    _move_retired,
    _finalize_deletes,
    _close_claims,
    _copy_audits,
    _rewrite_lost_releases,
    _mark_quiet_hours,
)


def _changed_since(schedule: Schedule, settled: datetime) -> bool:
    return (schedule.updated_at or schedule.created_at) > settled


def _complete(schedule: Schedule, deps: Deps, report: Report) -> None:
    try:
        _guard(report, ends.complete, schedule, deps)
    except (Busy, Conflict):
        return  # a delivery or a change got there first: the next run looks again


def _mark_missed(schedule: Schedule, deps: Deps, report: Report) -> None:
    """Only the run whose conditional write wins records the run and posts the notice."""
    slot = iso_utc(schedule.timing.local_at)
    run = Run(runs.local_time(slot, schedule.timezone), runs.MISSED, runs.LOST)
    try:  # the run that never reached the fire, recorded with the retirement
        deps.store.retire(schedule, models.MISSED, deps.now(), "entry lost", run=(slot, run))
    except (Busy, Conflict):
        return
    report.missed += 1
    announce(run, schedule.id, schedule.room_id, deps, schedule)
    if deps.settings.missed_policy != "notify":
        return
    # an agent call is named, never quoted: its prompt may hold what the room must not read
    what = schedule.text if schedule.kind == models.MESSAGE else (schedule.name or schedule.id)
    zone = ZoneInfo(schedule.timezone)
    line = chat_text.missed_text(schedule.user_id, what, schedule.timing.local_at, zone, deps.now(), schedule.locale)
    try:
        notice = chat_text.notice_message(schedule.output_room, line)
        notice = routing.addressed(notice, schedule.output_room, schedule.output_thread)
        deps.chat().send(notice, f"{schedule.id}-missed")
        report.notices += 1
    except Exception:  # the schedule is marked; a notice that cannot be posted is only logged
        log.warning("missed notice not posted", extra={"schedule_id": schedule.id})


def _close_claim(claim: OpenClaim, schedule: Schedule | None, deps: Deps) -> bool:
    """End an abandoned claim as its run: the run an attempt noted on it, with its real outcome,
    reason and verdict; else, from a slot noted before runs were, a delivered one; else `lost` (the
    schedule's zone, else UTC, gives its local time)."""
    slot, manual = slot_time(claim.slot)
    scheduled = runs.local_time(slot, schedule.timezone if schedule is not None else "UTC")
    if claim.noted is not None:
        run = claim.noted.run
    elif claim.message_id is not None:
        run = Run(scheduled, runs.DELIVERED, manual=manual, message_id=claim.message_id)
    else:
        run = Run(scheduled, runs.MISSED, runs.LOST, manual=manual)
    if not deps.store.close_claim(claim, deps.now(), run, schedule):
        return False
    paused = claim.noted is not None and claim.noted.pause and schedule is not None
    announce(run, claim.owner, claim.room_id, deps, schedule, pause=paused)
    return True


def _rewrite_release(release: tuple[str, str, str], held: list[tuple[str, str]], run: _Pass) -> bool:
    """Write a release's entry again, to fire a minute on. Its Input names the room from one of the
    schedules it holds; when none of them is left at all, nothing is posted: the held items go."""
    room, user, until = release
    live = {s.id: s for s in run.live if s.room_id == room}
    owner = next((found for sid, _ in held if (found := live.get(sid) or run.deps.store.get(room, sid))), None)
    if owner is None:
        for schedule_id, slot in held:
            run.deps.store.drop_held(room, user, until, schedule_id, slot)
        return False
    target = projection.release_target(room, user, parse_iso(until), run.now + RELEASE_AGAIN)
    run.deps.scheduler.put(target, run.now)
    return True


def _recount(room: str, deps: Deps) -> bool:
    """Count again, consistently (the store keeps the count only if the counter did not move
    meanwhile); True when the counter was wrong and now is right."""
    seen = deps.store.room_count(room)
    counted = deps.store.recount(room, seen)
    return counted is not None and counted != (seen.live if seen else 0)


def _guard(report: Report, action: Callable[..., Any], *args: Any) -> bool:
    try:
        return bool(action(*args))
    except BackendError as err:
        report.errors += 1
        log.warning("reconcile action failed; the next run retries", extra={"error": str(err)})
        return False
