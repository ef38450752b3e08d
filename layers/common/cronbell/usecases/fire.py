"""The fire path: one (schedule, scheduled time) slot delivered at most once.

1. read the schedule (or the template's declaration) and decide what the fire does
   (`core/domain/firing.decide`: pure, it writes nothing);
2. claim the slot: a conditional write, on the schedule's version as read, so a duplicate or
   concurrent invocation stops here and a change that landed since the read makes the fire read
   and decide again;
3. post the message, or call the agent and post its answer (or, for an agent call that cannot run
   at all, tell the rooms it failed): `usecases/fire_delivery.py`;
4. hand the run to the one writer (`usecases/fire_writes.py`): the slot completed with the run,
   the schedule's last run, streak, count, final status and any pause, in one transaction; the
   finished run announced.
An occurrence that is not delivered (paused, skipped, too late) is recorded as a run without a
claim. Every occurrence that reaches this function thus ends as exactly one run.
A transient failure gives the claim back and raises, so Lambda's async retry runs again; on the
last attempt (counted by the claim) a chat still unreachable ends the run `failed`/`chat_error`
under the failure policy. Other failures that outlast the retries land in the dead-letter queue.
A permanent refusal by the chat platform is recorded as `delivery_failed` and not retried; it ends
the schedule only when the room is gone or forbidden (or the schedule had no other run).
"""

from __future__ import annotations

import logging
from dataclasses import replace
from datetime import datetime
from typing import Any

from cronbell.core.domain import firing, routing, runs, settlement
from cronbell.core.domain.fire_event import FireEvent
from cronbell.core.domain.firing import Decision, Deliver, Failure, Job, Limits
from cronbell.core.domain.ports import Claim, Finish, Outcome
from cronbell.core.domain.quiet_hours import holding
from cronbell.core.domain.settlement import Delivery
from cronbell.usecases import fire_delivery as delivery
from cronbell.usecases import fire_writes as writes
from cronbell.usecases import quiet_release, repeat_fire
from cronbell.usecases.deps import Deps
from cronbell.usecases.fire_slot import Remaining, Slot
from cronbell.usecases.fire_writes import Changed, RetryLater, announce

__all__ = ["RetryLater", "announce", "fire"]

log = logging.getLogger(__name__)
DECISIONS = 3  # reads and decisions of one fire while changes keep landing between read and write


def fire(event: FireEvent, deps: Deps, remaining_seconds: Remaining = lambda: 60.0) -> dict[str, Any]:
    result: dict[str, Any] = {"schedule_id": event.schedule_id, "slot": event.slot}
    if event.release_user:  # the end of a user's quiet hours: what they held is posted
        return quiet_release.fire(event, deps, remaining_seconds)
    if event.repeat:  # a repeat (or the escalation) of an occurrence delivered already
        return {**result, **repeat_fire.fire(event, deps, remaining_seconds)}
    if event.static:  # the template writes its room as AnalysisOutputRoom takes it: bare or platform-qualified
        event = replace(event, room_id=routing.allowed_key(event.room_id, deps.settings.default_platform))
    for _ in range(DECISIONS):
        try:
            return {**result, **_fire_once(event, deps, remaining_seconds)}
        except Changed:
            log.info("schedule changed between the fire's read and its write; read and decided again")
    raise RetryLater("the schedule kept changing while this fire decided")


def _fire_once(event: FireEvent, deps: Deps, remaining_seconds: Remaining) -> dict[str, Any]:
    decision, seen = _decide(event, deps)
    if isinstance(decision, firing.Undelivered) and seen is not None:
        return {"outcome": Outcome.DUPLICATE}  # its slot holds its run (or its hold) already
    if not isinstance(decision, Deliver):
        return _carry_out(decision, event, deps)
    job = decision.job
    slot = Slot(job, event, deps)
    claim = seen if seen in (Claim.DUPLICATE, Claim.SENT) else slot.claim(remaining_seconds, slot_read=seen is None)
    if claim == Claim.CHANGED:
        raise Changed()
    if claim == Claim.DUPLICATE:
        deps.metric("DuplicateSuppressed", 1)
        return {"outcome": Outcome.DUPLICATE}
    if claim == Claim.BUSY:
        return _wait_turn(job, event, deps)
    if claim == Claim.SENT:  # ended by an attempt that could not record it: record what it noted
        return _recover(job, event, deps, decision.late)
    if claim != Claim.CLAIMED:
        return {"outcome": Outcome.INACTIVE}
    with slot.held():
        # read only once the slot is this attempt's: a duplicate stops before it
        until = _held_until(job, event, deps) if decision.failure is None else None
        if until is not None and job.schedule is not None and writes.hold(job.schedule, event, until, deps):
            return {"outcome": Outcome.HELD, "held_until": until.isoformat(timespec="seconds")}
        done = _deliver(decision, slot, remaining_seconds)
    return _answer(done, slot.settle(done, decision.late), decision.failure)


def _deliver(decision: Deliver, slot: Slot, remaining_seconds: Remaining) -> Delivery:
    """Post (or call the agent and post); a chat still unreachable on Lambda's last attempt ends
    the run under the failure policy instead of raising once more."""
    job, event, deps = slot.job, slot.event, slot.deps
    streak = job.schedule.failure_streak if job.schedule is not None else 0
    try:
        if decision.failure is not None:
            return delivery.fail_early(job, decision.failure, event, deps, remaining_seconds, streak)
        return delivery.deliver(job, event, deps, remaining_seconds, decision.late, streak)
    except RetryLater as retry:
        if not slot.last_attempt():
            raise
        return delivery.chat_outage(streak, deps, str(retry))


def _wait_turn(job: Job, event: FireEvent, deps: Deps) -> dict[str, Any]:
    """Another slot of the schedule is being delivered. A run started by hand waits for it in the item
    (its own entry fires once that delivery ends), however long the delivery takes; a regular
    occurrence is retried by Lambda (its next attempt comes a minute or more later)."""
    if event.manual and job.schedule is not None:
        if deps.store.wait_manual(job.schedule, event.slot, deps.now()):  # its time, as run_now keeps it
            return {"outcome": Outcome.WAITING}
        raise Changed()  # that delivery ended meanwhile: claim again
    raise RetryLater("another slot of this schedule is being delivered")


def _decide(event: FireEvent, deps: Deps) -> tuple[Decision, Claim | None]:
    """Read what the fire needs and decide (the decision itself reads and writes nothing); with it,
    what a stored schedule's slot says already (read with the schedule), None when it may be claimed."""
    settings = deps.settings
    limits = Limits(
        max_lateness_minutes=settings.max_lateness_minutes,
        allowed_output_rooms=settings.allowed_output_rooms,
        default_platform=settings.default_platform,
        agent_timeout_seconds=settings.agent_timeout_seconds,
        agent_timeout_max_seconds=settings.agent_timeout_max_seconds,
        agents_configured=deps.agents is not None and deps.agents.configured,
        auto_pause_after=settings.auto_pause_after,
        chat_backends=settings.chat_backends,
    )
    if event.static:
        action = settings.static_schedules.get(event.static)
        prompt: str | None = action.prompt if action is not None else ""
        if action is not None and action.prompt_template:
            try:
                prompt = deps.prompt_file(action.prompt_template)
            except OSError:
                prompt = None
        return firing.decide_static(action, prompt, event, deps.now(), limits, settings.default_locale), None
    schedule, seen = deps.store.read_for_fire(event.room_id, event.schedule_id, writes.slot_key(event), deps.now())
    return firing.decide(schedule, event, deps.now(), limits), seen


def _held_until(job: Job, event: FireEvent, deps: Deps) -> datetime | None:
    """The end of the quiet period that holds this occurrence, or None: its user's rule is read
    only for an occurrence quiet hours may hold (a reminder's) of a user who has set some."""
    if job.schedule is None or job.schedule.quiet_hours_set is False or not firing.holdable(job, event):
        return None
    period = holding(deps.store.quiet_hours(event.room_id, job.schedule.user_id), event.at, deps.now())
    return period.end if period is not None else None


def _carry_out(decision: Decision, event: FireEvent, deps: Deps) -> dict[str, Any]:
    """A decision that delivers nothing: its writes, and the fire's answer."""
    if isinstance(decision, firing.Wait):
        raise RetryLater(decision.why)
    if isinstance(decision, firing.Orphan):
        writes.remove_own_entries(decision.names, event, deps)
        log.warning("fire for an unknown schedule; its own orphan entries removed")
        return {"outcome": Outcome.UNKNOWN}
    if isinstance(decision, firing.Nothing):
        if decision.outcome == Outcome.INVALID_INPUT:
            log.error(f"{decision.why}; nothing sent")
        else:
            log.info(f"{decision.why}; nothing to do", extra={"slot": event.slot})
        return {"outcome": decision.outcome}
    if isinstance(decision, firing.Retired):  # its entries went with its live item
        return {"outcome": Outcome.INACTIVE, "status": decision.status}
    if isinstance(decision, firing.Complete):
        if quiet_release.awaits_release(decision.schedule):
            log.info("its end is reached by held occurrences; their release completes it")
            return {"outcome": Outcome.AWAITS_RELEASE}
        writes.complete(decision.schedule, deps)
        return {"outcome": Outcome.COMPLETED}
    assert isinstance(decision, firing.Undelivered)
    if not writes.undelivered(decision, event, deps):
        return {"outcome": Outcome.DUPLICATE}  # a copy of an occurrence already run
    answer: dict[str, Any] = {"outcome": decision.answer}
    if decision.said_reason:
        answer["reason"] = decision.reason
    return answer


def _answer(done: Delivery, settled: settlement.Settlement, failure: Failure | None) -> dict[str, Any]:
    outcome = settlement.fire_outcome(done.outcome, done.reason)
    if failure is not None:  # an agent call that could not run: its own outcome, the run's reason
        return {"outcome": failure.outcome, "reason": done.reason, "paused": settled.pause}
    if outcome == Outcome.DELIVERY_FAILED:
        return {"outcome": outcome, "reason": done.detail}
    if outcome == Outcome.FAILED:
        return {"outcome": outcome, "reason": done.reason or "", "paused": settled.pause}
    return {"outcome": outcome, "message_id": done.message_id or ""}


def _recover(job: Job, event: FireEvent, deps: Deps, late: int) -> dict[str, Any]:
    """Record the run an earlier attempt ended and noted on the slot (its real outcome, reason and
    verdict), never delivering again."""
    claim = deps.store.open_claim(event.room_id, event.schedule_id, writes.slot_key(event))
    noted = claim.noted if claim is not None else None
    if noted is None:  # noted before runs were: its message went out
        zone = job.schedule.timezone if job.schedule is not None else job.timezone
        message_id = claim.message_id if claim is not None else None
        run = writes.run_of(event, zone, runs.DELIVERED, None, late, message_id, job.schedule)
        noted = Finish(run)
    pausable = noted.pause or noted.run.reason not in runs.REFUSED
    outcome = settlement.fire_outcome(noted.run.outcome, noted.run.reason)
    writes.write_finish(job, event, deps, noted, pausable, noted.run.reason or "")
    return {"outcome": outcome, "recovered": True}
