"""Every write of a fire: runs, completed slots, completions, pauses, holds, repeats, events. A fire
writes items only: the Scheduler entries they call for follow from them (`usecases/project.py`).

The fire use case (`usecases/fire.py`) decides (`core/domain/firing.py`), claims and delivers; this module
writes what that came to. A write that meets a schedule changed since it was read raises
`Changed` (before anything was delivered: the fire reads and decides again) or, after a delivery,
settles the run again against the schedule as it is now, so a stale status, streak or count is
never written. A write that fails raises, so Lambda retries the event; a run is recorded once
(its slot is written conditionally).
"""

from __future__ import annotations

import logging
from dataclasses import replace
from datetime import datetime
from typing import Any

from cronbell.core.domain import models, repeats, routing, runs, settlement
from cronbell.core.domain.errors import BackendError, Busy, Conflict, Released
from cronbell.core.domain.fire_event import FireEvent
from cronbell.core.domain.firing import Job, Undelivered
from cronbell.core.domain.instants import iso_utc
from cronbell.core.domain.ledger_slots import ledger_slot
from cronbell.core.domain.models import Schedule
from cronbell.core.domain.ports import Finish, Outcome
from cronbell.core.domain.runs import Run
from cronbell.core.domain.settlement import Delivery
from cronbell.usecases.deps import Deps

log = logging.getLogger(__name__)
RECORD_TRIES = 3


class RetryLater(Exception):
    """Raised to make Lambda retry the event (its async retries, then the dead-letter queue). `answer`: an
    agent's answer the attempt got and could not post, kept for the retry (`fire_slot.Slot.held`)."""

    answer = ""


class Changed(Exception):
    """The schedule changed between the fire's read and its write: read it again, decide again."""


def run_of(
    event: FireEvent,
    zone: str,
    outcome: str,
    reason: str | None,
    late: int,
    message_id: str | None,
    schedule: Schedule | None = None,
) -> Run:
    """The run of one fire; a regular occurrence that `on_holiday` moved carries its original time."""
    moved = None if schedule is None or event.manual else schedule.timing.moved_from(event.at)
    return Run(
        scheduled_time=runs.local_time(event.slot, zone),
        outcome=outcome,
        reason=reason,
        manual=event.manual,
        late_seconds=late,
        message_id=message_id,
        moved_from=moved.isoformat(timespec="seconds") if moved is not None else None,
    )


def slot_key(event: FireEvent) -> str:
    return ledger_slot(event.slot, event.manual)


# --- before any delivery ----------------------------------------------------------------------
def remove_own_entries(names: tuple[str, ...], event: FireEvent, deps: Deps) -> None:
    """A fire for no schedule marks the entries that fire this id in this room for removal (the
    projection removes each only if its Input fires them). Best effort: the reconciler sweeps the rest."""
    if not names:
        return
    try:
        deps.store.mark_orphan(event.room_id, event.schedule_id, names, deps.now())
    except BackendError:
        log.warning("could not mark orphan entries", extra={"entries": list(names)})


def complete(schedule: Schedule, deps: Deps) -> None:
    """A recurrence past its end becomes `completed` (if still as read) and its entries are removed."""
    try:
        deps.store.retire(schedule, models.COMPLETED, deps.now(), as_read=True)
    except Conflict as err:
        raise Changed() from err
    except Busy:
        log.info("schedule busy while completing it; its next fire tries again")
        return
    except BackendError:
        log.warning("could not complete a schedule past its end; its next fire tries again")


def undelivered(decision: Undelivered, event: FireEvent, deps: Deps) -> bool:
    """Record an occurrence that is not delivered (paused, skipped, too late) as its run, completing
    the schedule in the same write when it was its last. False: a duplicate invocation of an
    occurrence already recorded. A write that fails raises (Lambda retries; the slot is written
    conditionally, so the run is recorded once)."""
    run = run_of(event, decision.timezone, decision.outcome, decision.reason, decision.late, None, decision.schedule)
    schedule = decision.schedule
    now = deps.now()
    if schedule is None:  # a template schedule: no item to hold a last run
        if not deps.store.record_static_run(event.room_id, event.schedule_id, slot_key(event), now, run):
            return False
        announce(run, event.schedule_id, event.room_id, deps, None)
        return True
    try:
        if decision.completes:
            deps.store.retire(schedule, models.COMPLETED, now, run=(slot_key(event), run), as_read=True)
        elif not deps.store.record_run(schedule, slot_key(event), now, run):
            return False
    except Conflict as err:
        raise Changed() from err
    except Busy as err:  # another slot of the schedule is being delivered: its retry completes it
        raise RetryLater("the schedule is being delivered; its last run is recorded on the retry") from err
    announce(run, event.schedule_id, event.room_id, deps, schedule)
    return True


def hold(schedule: Schedule, event: FireEvent, until: datetime, deps: Deps) -> bool:
    """Hold a claimed occurrence until `until` (docs/semantics.md, "Quiet hours"): the slot held, the
    occurrence counted, the period's end added to the schedule's `releases` and the held item
    written, in one transaction (the release's entry follows from `releases`). The claim given back
    on a failure makes the retry hold again. False, with the slot still claimed: the period's release
    began already (what it posts is final), so the occurrence is delivered now."""
    try:
        deps.store.hold_slot(schedule, slot_key(event), deps.now(), iso_utc(until))
    except Released:
        log.info("the period's release began already; the occurrence is delivered now")
        return False
    except Conflict as err:  # the claim is given back (fire_slot.Slot.held): decided again
        raise Changed() from err
    deps.metric("HeldByQuietHours", 1)
    return True


# --- repeat until done (core/domain/repeats.py) --------------------------------------------------------
def repeat_slot(schedule: Schedule | None, event: FireEvent, outcome: str) -> str | None:
    """The occurrence a delivered regular run of a repeating schedule makes the current one (its
    record writes it); None leaves the schedule's current occurrence as it is."""
    if schedule is None or event.manual or outcome != runs.DELIVERED or not repeats.repeats(schedule):
        return None
    return event.slot


def first_repeat(schedule: Schedule | None, event: FireEvent, late: int) -> str:
    """When the first repeat of a delivered regular occurrence is due (RFC3339 UTC; "" when it does
    not repeat): its record keeps it on the occurrence's slot, whose projection is the repeat's entry."""
    if schedule is None or event.manual or not repeats.repeats(schedule):
        return ""
    return iso_utc(repeats.due(repeats.started(event.slot, late), schedule.repeat_every, 1))


def announce_repeat(detail_type: str, run: Run, schedule: Schedule, deps: Deps) -> None:
    """`Run Acknowledged` or `Run Escalated`, with the run as `detail` (and where it is)."""
    if deps.events is None:
        return
    place = {
        "schedule_id": schedule.id,
        "room_id": routing.bare_room(schedule.output_room),
        "thread_id": schedule.output_thread or None,
        "platform": platform_of(schedule.output_room, deps),
    }
    try:
        deps.events.publish(detail_type, {**run.to_dict(), **place})
    except BackendError:
        log.warning("repeat event not published", extra={"detail_type": detail_type})


# --- after a delivery -------------------------------------------------------------------------
def record(job: Job, event: FireEvent, deps: Deps, done: Delivery, late: int) -> settlement.Settlement:
    """Record a delivered or failed run with what it does to its schedule. The run's outcome is
    final; what it does to the schedule is settled against the schedule as it is when written (a
    change that landed meanwhile is honoured, never overwritten). The claim is never given back:
    when the record keeps failing, the slot notes the run, and Lambda's retry records exactly it."""
    zone = job.timezone if job.schedule is None else job.schedule.timezone
    run = run_of(event, zone, done.outcome, done.reason, late, done.message_id, job.schedule)
    answer = runs.previous(run.scheduled_time, done.answer) if done.answer else None
    schedule = job.schedule
    pause_after = deps.settings.auto_pause_after
    settled = settlement.settle(schedule, event, done.outcome, done.reason, done.room_gone, done.pausable, pause_after)
    current = repeat_slot(schedule, event, done.outcome)
    due = first_repeat(schedule, event, late) if current else ""
    finish = Finish(run, settled.streak, settled.pause, answer, done.room_gone, current, repeat_due=due)
    return write_finish(job, event, deps, finish, done.pausable, done.detail, settled)


def write_finish(
    job: Job,
    event: FireEvent,
    deps: Deps,
    finish: Finish,
    pausable: bool,
    detail: str,
    settled: settlement.Settlement | None = None,
) -> settlement.Settlement:
    """Complete the slot with `finish` (its streak and pause as decided against `job.schedule`, in
    `settled` when the caller settled it already)."""
    store, schedule = deps.store, job.schedule
    run = finish.run
    outcome = settlement.fire_outcome(run.outcome, run.reason)
    note = detail if outcome == Outcome.DELIVERY_FAILED else (run.message_id or run.reason or "")
    if settled is None:
        settled = _settled(schedule, event, finish, pausable, deps)
    stale, failures, conflicts = False, 0, 0
    while failures < RECORD_TRIES and conflicts <= RECORD_TRIES:  # a change read again costs no try
        try:
            if stale:  # changed since read: settle the run against the schedule as it is now
                schedule = _fresh(event, deps)
                settled, stale = _settle(schedule, event, finish, pausable, deps), False
            store.complete_slot(
                event.room_id,
                event.schedule_id,
                slot_key(event),
                deps.now(),
                outcome,
                note,
                schedule,
                settled.final,
                replace(finish, streak=settled.streak, pause=settled.pause),
            )
            break
        except Conflict:
            log.info("schedule changed during delivery; its run is settled against the change")
            stale, conflicts = True, conflicts + 1
        except BackendError:
            deps.sleep(0.2 * 2**failures)
            failures += 1
    else:
        noted = replace(finish, streak=settled.streak, pause=settled.pause)
        try:
            sent = run.message_id or ""
            marked = store.mark_slot_sent(event.room_id, event.schedule_id, slot_key(event), sent, deps.now(), noted)
        except BackendError:
            log.error("run ended but not recorded; the claim stays held so it is not delivered again")
            return settled
        if marked:
            raise RetryLater("run ended but not recorded yet; the retry records it")
        log.info("the slot is done already: a record whose answer was lost had been applied")
    announce(run, event.schedule_id, event.room_id, deps, schedule, pause=settled.pause, streak=settled.streak)
    return settled


def _settled(
    schedule: Schedule | None, event: FireEvent, finish: Finish, pausable: bool, deps: Deps
) -> settlement.Settlement:
    """The settlement of a finish whose streak and pause were decided already (kept as decided)."""
    settled = _settle(schedule, event, finish, pausable, deps)
    return replace(settled, streak=finish.streak, pause=finish.pause and not settled.final)


def _settle(
    schedule: Schedule | None, event: FireEvent, finish: Finish, pausable: bool, deps: Deps
) -> settlement.Settlement:
    """What the finished run does to `schedule`. A released held run is settled against the `count`
    without the holds its release records from it on (their holds counted them already), however
    often the schedule is read again: a hold is counted once."""
    run = finish.run
    if schedule is not None and finish.held_ahead:
        schedule = replace(schedule, delivered_count=max(0, schedule.delivered_count - finish.held_ahead))
    return settlement.settle(
        schedule, event, run.outcome, run.reason, finish.room_gone, pausable, deps.settings.auto_pause_after
    )


def _fresh(event: FireEvent, deps: Deps) -> Schedule | None:
    """The schedule as it is now, if it is still live (a deleted one's run is recorded on its slot)."""
    schedule = deps.store.get(event.room_id, event.schedule_id)
    return schedule if schedule is not None and schedule.status in models.LIVE_STATUSES else None


def platform_of(room_key: str, deps: Deps) -> str:
    """The chat platform a room (a store key) lives on, named even when it is the default one."""
    return routing.split_room_key(room_key)[0] or deps.settings.default_platform


def _own_place(schedule_id: str, room_id: str, schedule: Schedule | None, deps: Deps) -> dict[str, Any]:
    """Where an event says the schedule is: its own room, that room's thread, platform and workspace
    (a Slack team id; null when the room names none), so the same channel id in two workspaces is told apart."""
    thread_id = (schedule.thread_id or None) if schedule is not None else None
    bare = routing.bare_room(room_id)
    return {
        "schedule_id": schedule_id,
        "room_id": bare,
        "thread_id": thread_id,
        "platform": platform_of(room_id, deps),
        "workspace": routing.workspace(room_id) or None,
    }


def announce(
    run: Run,
    schedule_id: str,
    room_id: str,
    deps: Deps,
    schedule: Schedule | None,
    pause: bool = False,
    streak: int | None = None,
) -> None:
    """Count the finished run by reason and publish it (and a policy pause) when a bus is set.
    The run is recorded already: an event that cannot be sent is logged, never retried."""
    deps.run_metric(run.outcome, run.reason or "")
    if deps.events is None:
        return
    place = _own_place(schedule_id, room_id, schedule, deps)
    detail = {**run.to_dict(), **place}
    if schedule is not None and schedule.output_room != schedule.room_id:  # the post (message_id) is there
        detail["output_room_id"] = routing.bare_room(schedule.output_room)
    try:
        deps.events.publish("Run Finished", detail)
        if pause:
            paused: dict[str, Any] = dict(place)
            if schedule is not None:
                failures = streak if streak is not None else schedule.failure_streak + 1
                paused.update(name=schedule.name or None, status_reason="failing", failure_streak=failures)
            deps.events.publish("Schedule Paused", paused)
    except BackendError:
        log.warning("run event not published", extra={"outcome": run.outcome})
