"""The fire path: one (schedule, scheduled time) slot delivered at most once.

1. resolve what the fire delivers: a stored schedule (unknown or retired: send nothing, remove
   the orphan Scheduler entries) or a schedule declared in template.yaml (its action inline);
2. claim the slot (a conditional write; a duplicate or concurrent invocation stops here);
3. post the message, or call the agent and post its answer;
4. complete the slot and record the fire (a one-shot becomes `fired`, leaving the room count)
   with its run, the failure streak and any pause the failure policy decides, in one transaction;
5. announce the finished run (EventBridge, when a bus is configured) and count it by reason.
An occurrence that is not delivered (paused, skipped, too late) is recorded as a run before any
claim. Every occurrence that reaches this function thus ends as exactly one run.
A transient failure gives the claim back and raises, so Lambda's async retry runs again; on the
last attempt (counted by the claim) a chat still unreachable ends the run `failed`/`chat_error`
under the failure policy. Other failures that outlast the retries land in the dead-letter queue.
A permanent refusal by the chat platform is recorded as `delivery_failed` and not retried; it ends
the schedule only when the room is gone or forbidden (or the schedule had no other run).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from typing import Any

from cronbell.adapters.chat.base import ChatMessage, PermanentChatError, TransientChatError
from cronbell.core import chat_text, models, routing, runs, texts
from cronbell.core.actions import Action, delivered_actions
from cronbell.core.fire_event import FireEvent
from cronbell.core.instants import iso_utc, parse_iso
from cronbell.core.models import Schedule
from cronbell.core.ports import AgentError, AgentTimeout, BackendError, Busy, Claim, Conflict, Finish, Outcome
from cronbell.core.prompts import agent_request, fill_prompt
from cronbell.core.runs import Run
from cronbell.usecases.deps import Deps

log = logging.getLogger(__name__)
UNKNOWN_GRACE_SECONDS = 90
DELIVERY_MARGIN_SECONDS = 20  # a chat post with its retries, after any agent call
HELD_POLL_SECONDS = 15  # how often a held slot is looked at again while it is waited out
EARLY_SECONDS = 60  # Scheduler may invoke a target up to about a minute around its time
Remaining = Callable[[], float]
# a chat platform's refusal that means the room is gone or the bot may not post there (403/404)


class RetryLater(Exception):
    """Raised to make Lambda retry the event (its async retries, then the dead-letter queue)."""


@dataclass(frozen=True)
class _Job:
    """What one slot delivers, whatever kind of schedule it came from."""

    kind: str
    room_id: str  # where the message goes
    label: str  # schedule name or id, for notices
    locale: str
    text: str = ""
    user_id: str = ""
    target_agent: str = ""
    prompt: str = ""
    skills: tuple[str, ...] = ()
    timeout: int = 0
    timezone: str = "UTC"
    schedule: Schedule | None = None  # the stored schedule; None for a template schedule
    thread_id: str = ""  # the thread of room_id its posts go into


@dataclass(frozen=True)
class _Delivery:
    """What delivering one slot did: the run's outcome and reason, what was posted."""

    outcome: str  # a runs outcome
    reason: str | None = None
    message_id: str | None = None
    answer: str = ""  # the agent's answer, given to its next run as `previous`
    detail: str = ""  # the platform's or agent's own words for a failure, for the log and answer
    room_gone: bool = False  # the platform said the room is gone or closed to the bot: no later run can post
    verdict: runs.Verdict = field(default_factory=lambda: runs.Verdict(0))


def fire(event: FireEvent, deps: Deps, remaining_seconds: Remaining = lambda: 60.0) -> dict[str, Any]:
    result: dict[str, Any] = {"schedule_id": event.schedule_id, "slot": event.slot}
    started = deps.now()
    job = _static_job(event, deps) if event.static else _stored_job(event, deps)
    if not isinstance(job, _Job):
        return {**result, **job}
    if job.kind == models.AGENT_CALL and not _agents_ready(deps):
        return {**result, "outcome": Outcome.NO_AGENTS}
    schedule = job.schedule
    late = 0 if event.manual else runs.late_seconds(event.slot, started)
    if schedule is not None and runs.too_late(
        late, schedule.recurring, event.manual, deps.settings.max_lateness_minutes
    ):
        if not _record_undelivered(schedule, event, deps, runs.MISSED, runs.TOO_LATE, late):
            return {**result, "outcome": Outcome.DUPLICATE}  # a late copy of an occurrence already run
        _complete_if_finished(schedule, event, deps)
        return {**result, "outcome": Outcome.MISSED, "reason": runs.TOO_LATE}
    if event.static and runs.too_late(late, True, event.manual, deps.settings.max_lateness_minutes):
        return {**result, **_static_too_late(job, event, deps, late)}
    claim = _claim(job, event, deps, remaining_seconds)
    if claim == Claim.DUPLICATE:
        deps.metric("DuplicateSuppressed", 1)
        return {**result, "outcome": Outcome.DUPLICATE}
    if claim == Claim.BUSY:
        raise RetryLater("another slot of this schedule is being delivered")
    one_shot = schedule is not None and not schedule.recurring and not event.manual  # its one run
    streak = schedule.failure_streak if schedule is not None else 0
    if claim == Claim.SENT:  # posted by an attempt that could not record it: record, never post again
        sent = _Delivery(runs.DELIVERED, verdict=runs.judge(runs.DELIVERED, streak, 0))
        final = models.FIRED if one_shot else _end_status(schedule, event, delivered=True)
        _record(job, event, deps, sent, late, Outcome.DELIVERED, "recorded on retry", final)
        if final == models.COMPLETED and schedule is not None:
            _remove_orphans(schedule.scheduler_names, deps)
        return {**result, "outcome": Outcome.DELIVERED, "recovered": True}
    if claim != Claim.CLAIMED:
        return {**result, "outcome": Outcome.INACTIVE}

    try:
        done = _deliver(job, event, deps, remaining_seconds, late, streak)
    except RetryLater as retry:
        if not _last_attempt(job, event, deps):
            deps.store.release_slot(event.room_id, event.schedule_id, event.slot, schedule)
            raise
        done = _chat_outage(streak, deps, str(retry))
    except BaseException:
        deps.store.release_slot(event.room_id, event.schedule_id, event.slot, schedule)
        raise
    outcome, detail = _fire_outcome(done)
    final = models.FIRED if one_shot else _end_status(schedule, event, done.outcome == runs.DELIVERED)
    if one_shot and done.reason == runs.CHAT_ERROR:
        final = models.DELIVERY_FAILED  # its only occurrence never reached the room
    # one failed run never ends a schedule that has more to come: only a room gone or forbidden does
    ends = schedule is not None and outcome == Outcome.DELIVERY_FAILED and (one_shot or done.room_gone)
    if ends:
        final = models.DELIVERY_FAILED
    _record(job, event, deps, done, late, outcome, detail, final)
    if final == models.COMPLETED and schedule is not None:  # its last run: nothing is left to fire
        _remove_orphans(schedule.scheduler_names, deps)
    if outcome == Outcome.DELIVERY_FAILED:
        if ends and schedule is not None:
            _remove_orphans(schedule.scheduler_names, deps)
        return {**result, "outcome": outcome, "reason": detail}
    if outcome == Outcome.FAILED:
        return {**result, "outcome": outcome, "reason": detail, "paused": done.verdict.pause}
    return {**result, "outcome": outcome, "message_id": detail}


def _fire_outcome(done: _Delivery) -> tuple[Outcome, str]:
    """The fire function's own outcome (its answer and log) for a run."""
    if done.outcome == runs.DELIVERED:
        return Outcome.DELIVERED, done.message_id or ""
    if done.outcome == runs.SKIPPED:
        return Outcome.NOTHING_TO_POST, ""
    if done.reason in (runs.AGENT_TIMEOUT, runs.AGENT_ERROR, runs.CHAT_ERROR):
        return Outcome.FAILED, done.reason or ""
    return Outcome.DELIVERY_FAILED, done.detail


def _static_too_late(job: _Job, event: FireEvent, deps: Deps, late: int) -> dict[str, Any]:
    """A template schedule recurs: a run that starts too late is missed, as a stored one's is."""
    run = _run(event, job.timezone, runs.MISSED, runs.TOO_LATE, late, None)
    if not deps.store.record_static_run(event.room_id, event.schedule_id, event.slot, deps.now(), run):
        return {"outcome": Outcome.DUPLICATE}
    announce(run, event.schedule_id, event.room_id, deps, None)
    return {"outcome": Outcome.MISSED, "reason": runs.TOO_LATE}


def _last_attempt(job: _Job, event: FireEvent, deps: Deps) -> bool:
    """Whether this is Lambda's last attempt at the event (the claim counted the attempts). A
    template schedule has no item to count them on: its failures always go to Lambda's retries."""
    return job.schedule is not None and job.schedule.delivery_attempt(event.slot) > deps.settings.fire_retries


def _chat_outage(streak: int, deps: Deps, detail: str) -> _Delivery:
    """The chat platform failed on every attempt: a failed run under the failure policy. The room
    cannot be told now; the first delivered run after it says that it works again."""
    log.error("chat unreachable on the last attempt; recorded as a failed run", extra={"reason": detail})
    verdict = runs.judge(runs.FAILED, streak, deps.settings.auto_pause_after)
    return _Delivery(runs.FAILED, runs.CHAT_ERROR, verdict=verdict, detail=detail)


def _claim(job: _Job, event: FireEvent, deps: Deps, remaining_seconds: Remaining) -> Claim:
    """Claim the slot. A claim held by another attempt is waited out while this invocation has
    time left to deliver after it: that attempt either finishes (the slot is done) or is dead,
    and its lease, which ends when Lambda has certainly stopped it, is taken over. When the wait
    does not fit, raise, so that Lambda retries later: a held slot never ends a fire as done."""
    store = deps.store
    needed = DELIVERY_MARGIN_SECONDS + (job.timeout if job.kind == models.AGENT_CALL else 0)
    budget = remaining_seconds()  # also bounds the waits should the clock read stand still
    while True:
        lease = min(deps.settings.slot_lease_seconds, int(remaining_seconds()) + 5)
        claim = store.claim_slot(event.room_id, event.schedule_id, event.slot, deps.now(), lease, job.schedule)
        if claim != Claim.HELD:
            return claim
        until = store.held_until(event.room_id, event.schedule_id, event.slot)
        wait = max(1.0, (until - deps.now()).total_seconds() + 1) if until else 1.0
        if wait + needed > min(remaining_seconds(), budget):
            deps.metric("SlotHeld", 1)
            raise RetryLater("another attempt holds this slot; retry once its lease is over")
        step = min(wait, HELD_POLL_SECONDS)
        deps.sleep(step)
        budget -= step


def _stored_job(event: FireEvent, deps: Deps) -> _Job | dict[str, Any]:
    """The job of a stored schedule, or the outcome that ends this fire before any claim."""
    schedule = deps.store.get(event.room_id, event.schedule_id)
    if schedule is None:
        age = (deps.now() - parse_iso(event.slot)).total_seconds()
        if event.on_time and 0 <= age < UNKNOWN_GRACE_SECONDS:
            # a one-shot due within a minute of its creation can fire before its item is written
            raise RetryLater("no schedule yet for this fire; it may still be being created")
        for name in [*models.scheduler_names(event.schedule_id, 2), models.snooze_name(event.schedule_id)]:
            try:
                deps.scheduler.delete_if_fires(name, event.room_id, event.schedule_id)
            except Exception:  # best effort: the reconciler sweeps what is left
                log.warning("could not remove scheduler entry", extra={"entry": name})
        log.warning("fire for an unknown schedule; its own orphan entries removed")
        return {"outcome": Outcome.UNKNOWN}
    if schedule.status in (models.ACTIVE, models.PAUSED) and _off_interval(schedule, event):
        return {"outcome": Outcome.OFF_INTERVAL}
    if schedule.status == models.PAUSED:
        _record_undelivered(schedule, event, deps, runs.SKIPPED, runs.PAUSED, 0)
        return {"outcome": Outcome.PAUSED}
    if schedule.status != models.ACTIVE:
        _remove_orphans(schedule.scheduler_names, deps)
        return {"outcome": Outcome.INACTIVE, "status": schedule.status}
    if not _own_slot(schedule, event, deps.now()):
        log.error("fire for a time that is not one of the schedule's own; nothing sent")
        return {"outcome": Outcome.INVALID_INPUT}
    slot = parse_iso(event.slot)
    if not event.manual and schedule.timing.ended_by(slot, schedule.delivered_count):
        _complete(schedule, deps)  # a fire past `until` (or `count`): Scheduler's EndDate aside
        return {"outcome": Outcome.COMPLETED}
    if event.slot in schedule.timing.skips:
        # skip_next skips it; a snooze skips it and adds a one-time entry: the timing knows which
        _record_undelivered(schedule, event, deps, runs.SKIPPED, schedule.timing.skip_reason(event.slot), 0)
        _complete_if_finished(schedule, event, deps)
        return {"outcome": Outcome.SKIPPED}
    if not event.manual and schedule.timing.is_holiday(slot):
        _record_undelivered(schedule, event, deps, runs.SKIPPED, runs.HOLIDAY, 0)
        _complete_if_finished(schedule, event, deps)
        return {"outcome": Outcome.SKIPPED, "reason": runs.HOLIDAY}
    settings = deps.settings
    if not routing.output_allowed(
        schedule.output_room, schedule.room_id, settings.allowed_output_rooms, settings.default_platform
    ):
        log.error("output room no longer allowed (ALLOWED_OUTPUT_ROOMS); nothing sent")
        deps.metric("ForbiddenChannel", 1)
        return {"outcome": Outcome.FORBIDDEN_CHANNEL}
    return _Job(
        kind=schedule.kind,
        room_id=schedule.output_room,
        label=schedule.name or schedule.id,
        locale=schedule.locale,
        text=schedule.text,
        user_id=schedule.user_id,
        target_agent=schedule.target_agent,
        prompt=schedule.prompt,
        skills=tuple(schedule.skills),
        timeout=min(
            schedule.agent_timeout_seconds or settings.agent_timeout_seconds, settings.agent_timeout_max_seconds
        ),
        schedule=schedule,
        thread_id=schedule.output_thread,
    )


def _off_interval(schedule: Schedule, event: FireEvent) -> bool:
    """The off week (or day) of an every-N-weeks or every-N-days schedule: its weekly or daily entry
    fires, but the day is no occurrence. Nothing is posted and no run is recorded (the run outcomes
    are those of occurrences), the slot is not claimed and last_run stays: the item already read
    decides it, so such a fire costs one GetItem."""
    if event.manual:
        return False
    if not schedule.timing.off_interval(parse_iso(event.slot)):
        return False
    log.info("off-interval fire of an every-N schedule; nothing to do", extra={"slot": event.slot})
    return True


def _end_status(schedule: Schedule | None, event: FireEvent, delivered: bool) -> str:
    """`completed` when this regular run is a recurrence's last (its `count` reached with this
    delivery, or no occurrence left before `until`): recorded in the same write as the run."""
    if schedule is None or event.manual or not schedule.recurring:
        return ""
    count = schedule.delivered_count + (1 if delivered else 0)
    return models.COMPLETED if schedule.timing.finished_after(parse_iso(event.slot), count) else ""


def _complete_if_finished(schedule: Schedule, event: FireEvent, deps: Deps) -> None:
    """After an occurrence that was not delivered (skipped, missed): complete the schedule when it
    was the last one before its end."""
    if not event.manual and _end_status(schedule, event, delivered=False):
        _complete(schedule, deps)


def _complete(schedule: Schedule, deps: Deps) -> None:
    """A recurrence past its end becomes `completed` and its Scheduler entries are removed."""
    try:
        deps.store.retire(schedule, models.COMPLETED, deps.now())
    except (Busy, Conflict):
        log.info("schedule changed or busy while completing it; left as it is")
        return
    except BackendError:
        log.warning("could not complete a schedule past its end; its next fire tries again")
        return
    _remove_orphans(schedule.scheduler_names, deps)


def _own_slot(schedule: Schedule, event: FireEvent, now: datetime) -> bool:
    """Whether the fire's scheduled time is one the schedule really has (a run_now's is the slot
    run_now recorded) and not in the future: a hand-made Input cannot fire a schedule early.
    Scheduler's and Lambda's retries carry the same scheduled time."""
    slot = parse_iso(event.slot)
    if slot > now + timedelta(seconds=EARLY_SECONDS):
        return False
    if event.manual:
        return event.slot == schedule.last_manual_run
    return schedule.timing.fires_at(slot)


def _static_job(event: FireEvent, deps: Deps) -> _Job | dict[str, Any]:
    """The job of a schedule declared in template.yaml: what it runs and where it posts come from
    the declaration, whatever else an Input says."""
    action = deps.settings.static_schedules.get(event.static)
    if action is None or event.room_id != action.room_id:
        log.error("static Input that the template does not declare (name or room)")
        return {"outcome": Outcome.INVALID_INPUT}
    try:
        prompt = deps.prompt_file(action.prompt_template) if action.prompt_template else action.prompt
    except OSError:
        log.error("static schedule names a prompt file this function does not ship")
        return {"outcome": Outcome.INVALID_INPUT}
    return _Job(
        kind=models.AGENT_CALL,
        room_id=event.room_id,
        label=action.name,
        locale=deps.settings.default_locale,
        target_agent=action.target_agent,
        prompt=prompt,
        skills=action.skills,
        timeout=deps.settings.agent_timeout_seconds,
        timezone=action.timezone,
    )


def _run(event: FireEvent, zone: str, outcome: str, reason: str | None, late: int, message_id: str | None) -> Run:
    return Run(
        scheduled_time=runs.local_time(event.slot, zone),
        outcome=outcome,
        reason=reason,
        manual=event.manual,
        late_seconds=late,
        message_id=message_id,
    )


def _record_undelivered(schedule: Schedule, event: FireEvent, deps: Deps, outcome: str, reason: str, late: int) -> bool:
    """Record an occurrence that is not delivered (paused, skipped, too late) as its run; a
    duplicate invocation of the same occurrence records nothing more (False: it had a run already)."""
    run = _run(event, schedule.timezone, outcome, reason, late, None)
    try:
        recorded = deps.store.record_run(schedule, event.slot, deps.now(), run)
    except BackendError:
        log.warning("run not recorded", extra={"outcome": outcome, "reason": reason})
        return True
    if recorded:
        announce(run, event.schedule_id, event.room_id, deps, schedule)
    return recorded


def _record(
    job: _Job, event: FireEvent, deps: Deps, done: _Delivery, late: int, outcome: str, detail: str, final: str
) -> None:
    """Record a delivery with its run. The message is out, so the claim is never given back:
    after a few tries the slot is marked sent and Lambda's retry records it without posting
    again."""
    store = deps.store
    run = _run(
        event,
        job.timezone if job.schedule is None else job.schedule.timezone,
        done.outcome,
        done.reason,
        late,
        done.message_id,
    )
    answer = runs.previous(run.scheduled_time, done.answer) if done.answer else None
    finish = Finish(run, done.verdict.streak, done.verdict.pause, answer)
    for attempt in range(3):
        try:
            store.complete_slot(
                event.room_id, event.schedule_id, event.slot, deps.now(), outcome, detail, job.schedule, final, finish
            )
            break
        except Conflict:
            log.warning("schedule changed during delivery", extra={"outcome": outcome})
            return
        except BackendError:
            deps.sleep(0.2 * 2**attempt)
    else:
        try:
            store.mark_slot_sent(event.room_id, event.schedule_id, event.slot, detail)
        except BackendError:
            log.error("delivered but not recorded; the claim stays held so it is not posted again")
            return
        raise RetryLater("delivered but not recorded yet; the retry records it")
    paused = done.verdict.pause and not final and job.schedule is not None
    if paused and job.schedule is not None:
        _disable_entries(replace(job.schedule, status=models.PAUSED), deps)
    announce(run, event.schedule_id, event.room_id, deps, job.schedule, pause=paused)


def _disable_entries(schedule: Schedule, deps: Deps) -> None:
    """A schedule the failure policy paused stops firing, as pause_reminder does. Best effort:
    a fire of an entry left enabled finds it paused and is recorded as skipped."""
    now = deps.now()
    for entry in schedule.entries():
        try:
            deps.scheduler.put_entry(entry, schedule, now)
        except BackendError:
            log.warning("entry of a paused schedule left enabled", extra={"entry": entry.name})


def announce(
    run: Run, schedule_id: str, room_id: str, deps: Deps, schedule: Schedule | None, pause: bool = False
) -> None:
    """Count the finished run by reason and publish it (and a policy pause) when a bus is set.
    The run is recorded already: an event that cannot be sent is logged, never retried."""
    deps.run_metric(run.outcome, run.reason or "")
    if deps.events is None:
        return
    room_id = routing.bare_room(room_id)
    thread_id = (schedule.output_thread or None) if schedule is not None else None
    detail = {**run.to_dict(), "schedule_id": schedule_id, "room_id": room_id, "thread_id": thread_id}
    try:
        deps.events.publish("Run Finished", detail)
        if pause:
            paused: dict[str, Any] = {"schedule_id": schedule_id, "room_id": room_id, "thread_id": thread_id}
            if schedule is not None:
                paused.update(
                    name=schedule.name or None, status_reason="failing", failure_streak=schedule.failure_streak + 1
                )
            deps.events.publish("Schedule Paused", paused)
    except BackendError:
        log.warning("run event not published", extra={"outcome": run.outcome})


def _agents_ready(deps: Deps) -> bool:
    if deps.agents is None or not deps.agents.configured:
        log.warning("agent_call skipped: no agents configured in this deployment")
        deps.metric("AgentsNotConfigured", 1)
        return False
    return True


def _deliver(
    job: _Job, event: FireEvent, deps: Deps, remaining_seconds: Remaining, late: int, streak: int
) -> _Delivery:
    """Compose and post; raises RetryLater when the chat platform may accept it later. A failed
    agent call is a failed run: the failure policy decides whether the room hears of it."""
    deadline = time.monotonic() + max(1.0, remaining_seconds() - 10.0)
    key = f"{event.schedule_id}-{event.slot}"
    if job.kind == models.MESSAGE:
        message = chat_text.reminder_message(job.room_id, job.user_id, job.text, job.locale)
        answer = ""
    else:
        try:
            answer = _ask(job, event, deps)
        except AgentError as err:
            reason = runs.AGENT_TIMEOUT if isinstance(err, AgentTimeout) else runs.AGENT_ERROR
            verdict = runs.judge(runs.FAILED, streak, deps.settings.auto_pause_after if job.schedule else 0)
            notice = _failure_notice(job, verdict, f"{reason}: {texts.render(err.said, job.locale)}")
            if notice is not None:  # the room hears once, not every time
                try:
                    _post(deps, job, notice, key, deadline)
                except PermanentChatError as refused:  # the run is failed either way
                    log.error("failure notice refused by the chat platform", extra={"reason": refused.reason})
            return _Delivery(runs.FAILED, reason, verdict=verdict, detail=err.reason)
        if not answer:
            log.info("agent answered nothing; nothing posted", extra={"agent": job.target_agent})
            return _Delivery(runs.SKIPPED, runs.EMPTY_ANSWER, verdict=runs.Verdict(streak))
        message = chat_text.agent_answer_message(job.room_id, job.label, answer, job.locale)
    verdict = runs.judge(runs.DELIVERED, streak, 0)
    if verdict.notice == "recovered":
        message = chat_text.with_note(message, texts.say("run_recovered", job.locale, name=job.label))
    if job.schedule is not None and not job.schedule.recurring and late > runs.LATE_NOTE_SECONDS:
        due = texts.clock_text(parse_iso(event.slot), job.schedule.timing.tz)
        message = chat_text.with_note(message, texts.say("late_note", job.locale, due=due))
    try:
        message_id = _post(deps, job, message, key, deadline, _actions(job, event.slot))
    except PermanentChatError as err:
        log.error("delivery refused by the chat platform", extra={"reason": err.reason})
        deps.metric("DeliveryFailed", 1)
        reason = runs.TOO_LARGE if "TOO_LARGE" in err.reason.upper() else runs.CHAT_REFUSED
        verdict = runs.Verdict(streak + 1)
        return _Delivery(runs.FAILED, reason, verdict=verdict, detail=err.reason, room_gone=err.room_gone)
    deps.metric("Fired", 1)
    deps.metric("FireLatencySeconds", (deps.now() - parse_iso(event.slot)).total_seconds())
    return _Delivery(runs.DELIVERED, None, message_id, answer, verdict=verdict)


def _post(
    deps: Deps, job: _Job, message: ChatMessage, key: str, deadline: float, actions: tuple[Action, ...] = ()
) -> str:
    """Post to the job's room on its platform, in its thread; raises RetryLater for a transient failure."""
    message = routing.addressed(message, job.room_id, job.thread_id, actions)
    try:
        return deps.chat().send(message, idempotency_key=key, deadline=deadline)
    except TransientChatError as err:
        raise RetryLater(f"chat delivery failed, will retry: {err}") from err


def _actions(job: _Job, slot: str = "") -> tuple[Action, ...]:
    """A delivered reminder's quick actions (snooze; skip the next one when it recurs)."""
    if job.kind != models.MESSAGE or job.schedule is None:
        return ()
    return delivered_actions(job.schedule, job.locale, slot)  # they name the occurrence delivered


def _failure_notice(job: _Job, verdict: runs.Verdict, reason: str) -> ChatMessage | None:
    """The one notice a failure gets: at the start of a streak, or when it pauses the schedule."""
    if verdict.notice == "failing":
        text = texts.say("run_failing", job.locale, name=job.label, reason=reason)
    elif verdict.notice == "paused" and job.schedule is not None:
        text = texts.say("run_paused", job.locale, name=job.label, count=verdict.streak, id=job.schedule.id)
    else:
        return None
    return chat_text.notice_message(job.room_id, text)


def _ask(job: _Job, event: FireEvent, deps: Deps) -> str:
    """Call the agent with the filled prompt and its last delivered answer; raises AgentError."""
    assert deps.agents is not None
    fields = {
        "now": iso_utc(deps.now()),
        "room_id": routing.bare_room(job.room_id),
        "scheduled_time": event.slot,
        "schedule_id": event.schedule_id,
        "name": job.label,
        "timezone": job.timezone,
    }
    previous = job.schedule.last_answer if job.schedule is not None else None
    request = agent_request(
        fill_prompt(job.prompt, fields),
        list(job.skills),
        routing.bare_room(job.room_id),
        event.schedule_id,
        event.slot,
        previous,
    )
    try:
        return deps.agents.call(job.target_agent, request, job.timeout)
    except AgentError as err:
        level = "timed out" if isinstance(err, AgentTimeout) else "failed"
        log.error(f"agent {level}", extra={"agent": job.target_agent, "reason": err.reason})
        deps.metric("AgentFailed", 1)
        raise


def _remove_orphans(names: list[str], deps: Deps) -> None:
    for name in names:
        try:
            deps.scheduler.delete(name)
        except Exception:  # best effort: the reconciler sweeps what is left
            log.warning("could not remove scheduler entry", extra={"entry": name})
