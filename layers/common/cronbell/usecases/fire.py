"""The fire path: one (schedule, scheduled time) slot delivered at most once.

1. resolve what the fire delivers: a stored schedule (unknown or retired: send nothing, remove
   the orphan Scheduler entries) or a schedule declared in template.yaml (its action inline);
2. claim the slot (a conditional write; a duplicate or concurrent invocation stops here);
3. post the message, or call the agent and post its answer;
4. complete the slot and record the fire (a one-shot becomes `fired`, leaving the room count).
A transient failure gives the claim back and raises, so Lambda's async retry runs again and,
when retries run out, the event lands in the dead-letter queue. A permanent refusal by the chat
platform is recorded as `delivery_failed` and not retried; it ends the schedule only when the room
is gone or forbidden (or the schedule had no other run).
"""

from __future__ import annotations

import logging
import re
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from cronbell.adapters.chat.base import ChatMessage, PermanentChatError, TransientChatError
from cronbell.core import chat_text, models, routing
from cronbell.core.actions import Action, reminder_actions
from cronbell.core.fire_event import FireEvent
from cronbell.core.instants import iso_utc, parse_iso
from cronbell.core.models import Schedule
from cronbell.core.ports import AgentError, AgentTimeout, BackendError, Claim, Conflict, Outcome
from cronbell.core.prompts import agent_request, fill_prompt
from cronbell.usecases.deps import Deps

log = logging.getLogger(__name__)
UNKNOWN_GRACE_SECONDS = 90
DELIVERY_MARGIN_SECONDS = 20  # a chat post with its retries, after any agent call
HELD_POLL_SECONDS = 15  # how often a held slot is looked at again while it is waited out
EARLY_SECONDS = 60  # Scheduler may invoke a target up to about a minute around its time
Remaining = Callable[[], float]
# a chat platform's refusal that means the room is gone or the bot may not post there (403/404)
_ROOM_GONE = re.compile(r"\b(403|404)\b|M_FORBIDDEN|M_NOT_FOUND|channel_not_found|not_in_channel|is_archived")


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


def fire(event: FireEvent, deps: Deps, remaining_seconds: Remaining = lambda: 60.0) -> dict[str, Any]:
    result: dict[str, Any] = {"schedule_id": event.schedule_id, "slot": event.slot}
    job = _static_job(event, deps) if event.static else _stored_job(event, deps)
    if not isinstance(job, _Job):
        return {**result, **job}
    if job.kind == models.AGENT_CALL and not _agents_ready(deps):
        return {**result, "outcome": Outcome.NO_AGENTS}
    schedule = job.schedule
    claim = _claim(job, event, deps, remaining_seconds)
    if claim == Claim.DUPLICATE:
        deps.metric("DuplicateSuppressed", 1)
        return {**result, "outcome": Outcome.DUPLICATE}
    if claim == Claim.BUSY:
        raise RetryLater("another slot of this schedule is being delivered")
    one_shot = schedule is not None and not schedule.recurring and not event.manual  # its one run
    if claim == Claim.SENT:  # posted by an attempt that could not record it: record, never post again
        _record(job, event, deps, Outcome.DELIVERED, "recorded on retry", models.FIRED if one_shot else "")
        return {**result, "outcome": Outcome.DELIVERED, "recovered": True}
    if claim != Claim.CLAIMED:
        return {**result, "outcome": Outcome.INACTIVE}

    try:
        outcome, detail = _deliver(job, event, deps, remaining_seconds)
    except BaseException:
        deps.store.release_slot(event.room_id, event.schedule_id, event.slot, schedule)
        raise
    final = models.FIRED if one_shot else ""
    # one failed run never ends a schedule that has more to come: only a room gone or forbidden does
    ends = schedule is not None and outcome == Outcome.DELIVERY_FAILED and (one_shot or _ROOM_GONE.search(detail))
    if ends:
        final = models.DELIVERY_FAILED
    _record(job, event, deps, outcome, detail, final)
    if outcome == Outcome.DELIVERY_FAILED:
        if ends and schedule is not None:
            _remove_orphans(schedule.scheduler_names, deps)
        return {**result, "outcome": outcome, "reason": detail}
    return {**result, "outcome": outcome, "message_id": detail}


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
    if schedule.status == models.PAUSED:
        return {"outcome": Outcome.PAUSED}
    if schedule.status != models.ACTIVE:
        _remove_orphans(schedule.scheduler_names, deps)
        return {"outcome": Outcome.INACTIVE, "status": schedule.status}
    if not _own_slot(schedule, event, deps.now()):
        log.error("fire for a time that is not one of the schedule's own; nothing sent")
        return {"outcome": Outcome.INVALID_INPUT}
    if event.slot in schedule.timing.skips:
        return {"outcome": Outcome.SKIPPED}
    settings = deps.settings
    if schedule.output_room != schedule.room_id and schedule.output_room not in settings.allowed_output_rooms:
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


def _record(job: _Job, event: FireEvent, deps: Deps, outcome: str, detail: str, final: str) -> None:
    """Record a delivery. The message is out, so the claim is never given back: after a few
    tries the slot is marked sent and Lambda's retry records it without posting again."""
    store = deps.store
    for attempt in range(3):
        try:
            store.complete_slot(
                event.room_id, event.schedule_id, event.slot, deps.now(), outcome, detail, job.schedule, final
            )
            return
        except Conflict:
            log.warning("schedule changed during delivery", extra={"outcome": outcome})
            return
        except BackendError:
            deps.sleep(0.2 * 2**attempt)
    try:
        store.mark_slot_sent(event.room_id, event.schedule_id, event.slot, detail)
    except BackendError:
        log.error("delivered but not recorded; the claim stays held so it is not posted again")
        return
    raise RetryLater("delivered but not recorded yet; the retry records it")


def _agents_ready(deps: Deps) -> bool:
    if deps.agents is None or not deps.agents.configured:
        log.warning("agent_call skipped: no agents configured in this deployment")
        deps.metric("AgentsNotConfigured", 1)
        return False
    return True


def _deliver(job: _Job, event: FireEvent, deps: Deps, remaining_seconds: Remaining) -> tuple[Outcome, str]:
    """Compose and post. Returns (outcome, message id or reason); raises RetryLater when the
    chat platform may accept it later."""
    composed = _compose(job, event, deps)
    if composed is None:
        return Outcome.NOTHING_TO_POST, ""
    message = routing.addressed(composed, job.room_id, job.thread_id, _actions(job))
    deadline = time.monotonic() + max(1.0, remaining_seconds() - 10.0)
    try:
        message_id = deps.chat().send(message, idempotency_key=f"{event.schedule_id}-{event.slot}", deadline=deadline)
    except PermanentChatError as err:
        log.error("delivery refused by the chat platform", extra={"reason": err.reason})
        deps.metric("DeliveryFailed", 1)
        return Outcome.DELIVERY_FAILED, err.reason
    except TransientChatError as err:
        raise RetryLater(f"chat delivery failed, will retry: {err}") from err
    deps.metric("Fired", 1)
    deps.metric("FireLatencySeconds", (deps.now() - parse_iso(event.slot)).total_seconds())
    return Outcome.DELIVERED, message_id


def _actions(job: _Job) -> tuple[Action, ...]:
    """A delivered reminder's quick actions (snooze; skip the next one when it recurs)."""
    if job.kind != models.MESSAGE or job.schedule is None:
        return ()
    return reminder_actions(job.schedule.id, job.schedule.recurring, job.locale)


def _compose(job: _Job, event: FireEvent, deps: Deps) -> ChatMessage | None:
    if job.kind == models.MESSAGE:
        return chat_text.reminder_message(job.room_id, job.user_id, job.text, job.locale)
    assert deps.agents is not None
    fields = {
        "now": iso_utc(deps.now()),
        "room_id": routing.bare_room(job.room_id),
        "scheduled_time": event.slot,
        "schedule_id": event.schedule_id,
        "name": job.label,
        "timezone": job.timezone,
    }
    request = agent_request(
        fill_prompt(job.prompt, fields), list(job.skills), routing.bare_room(job.room_id), event.schedule_id, event.slot
    )
    try:
        answer = deps.agents.call(job.target_agent, request, job.timeout)
    except AgentError as err:
        level = "timed out" if isinstance(err, AgentTimeout) else "failed"
        log.error(f"agent {level}", extra={"agent": job.target_agent, "reason": err.reason})
        deps.metric("AgentFailed", 1)
        return chat_text.agent_failed_message(job.room_id, job.label, err.said, job.locale)
    if not answer:
        log.info("agent answered nothing; nothing posted", extra={"agent": job.target_agent})
        return None
    return chat_text.agent_answer_message(job.room_id, job.label, answer, job.locale)


def _remove_orphans(names: list[str], deps: Deps) -> None:
    for name in names:
        try:
            deps.scheduler.delete(name)
        except Exception:  # best effort: the reconciler sweeps what is left
            log.warning("could not remove scheduler entry", extra={"entry": name})
