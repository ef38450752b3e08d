"""The fire path: one (schedule, scheduled time) slot delivered at most once.

1. read the schedule (unknown or retired: send nothing, remove the orphan Scheduler entries);
2. claim the slot (a conditional transaction; a duplicate or concurrent invocation stops here);
3. post the message, or call the agent and post its answer;
4. complete the slot and record the fire (a one-shot becomes `fired`, leaving the room count).
A transient failure gives the claim back and raises, so Lambda's async retry runs again and,
when retries run out, the event lands in the dead-letter queue. A permanent refusal by the chat
platform is recorded as `delivery_failed` and not retried.

Schedules declared in template.yaml carry their action inline and have no item: their slot is
claimed with a conditional put of its own.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from botocore.exceptions import BotoCoreError, ClientError

from cronbell.adapters.agents import AgentError, AgentTimeout
from cronbell.adapters.chat.base import ChatMessage, ChatSender, PermanentChatError, TransientChatError
from cronbell.adapters.store import BUSY, CLAIMED, DUPLICATE, SENT, Conflict
from cronbell.core import chat_text, models
from cronbell.core.fire_event import FireEvent, StaticAction
from cronbell.core.instants import iso_utc, parse_iso
from cronbell.core.models import Schedule
from cronbell.core.prompts import agent_request, fill_prompt
from cronbell.usecases.deps import Deps

log = logging.getLogger(__name__)
AWS_ERRORS = (ClientError, BotoCoreError)
UNKNOWN_GRACE_SECONDS = 90

# outcomes (the fire function's answer and log say which happened)
DELIVERED = "delivered"
DUPLICATE_SUPPRESSED = "duplicate"
UNKNOWN = "unknown_schedule"
INACTIVE = "inactive"
PAUSED = "paused"
DELIVERY_FAILED = "delivery_failed"
NOTHING_TO_POST = "empty_answer"
NO_AGENTS = "no_agents_configured"
INVALID_INPUT = "invalid_input"
SKIPPED = "skipped"  # skip_next, or the occurrence a snooze moved


class RetryLater(Exception):
    """Raised to make Lambda retry the event (its async retries, then the dead-letter queue)."""


class Agents(Protocol):
    @property
    def configured(self) -> bool: ...

    def call(self, agent_id: str, request: dict[str, Any], timeout_seconds: int) -> str: ...


@dataclass
class FireDeps:
    deps: Deps
    chat: Callable[[], ChatSender]  # built on first use: the token is fetched only when needed
    agents: Agents | None = None
    prompt_file: Callable[[str], str] = field(default=lambda name: "")  # a template under prompts/
    metric: Callable[[str, float], None] = field(default=lambda name, value: None)
    remaining_seconds: Callable[[], float] = field(default=lambda: 60.0)
    sleep: Callable[[float], None] = time.sleep


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


def fire(event: FireEvent, fd: FireDeps) -> dict[str, Any]:
    if event.static is not None:
        return _fire_static(event, event.static, fd)
    deps = fd.deps
    result: dict[str, Any] = {"schedule_id": event.reminder_id, "slot": event.slot}
    schedule = deps.store.get(event.room_id, event.reminder_id)
    if schedule is None:
        age = (deps.now() - parse_iso(event.slot)).total_seconds()
        if event.on_time and 0 <= age < UNKNOWN_GRACE_SECONDS:
            # a one-shot due within a minute of its creation can fire before its item is written
            raise RetryLater("no schedule yet for this fire; it may still be being created")
        for name in [*models.scheduler_names(event.reminder_id, 2), models.snooze_name(event.reminder_id)]:
            try:
                deps.scheduler.delete_if_fires(name, event.room_id, event.reminder_id)
            except Exception:  # best effort: the reconciler sweeps what is left
                log.warning("could not remove scheduler entry", extra={"entry": name})
        log.warning("fire for an unknown schedule; its own orphan entries removed")
        return {**result, "outcome": UNKNOWN}
    if schedule.status == models.PAUSED:
        return {**result, "outcome": PAUSED}
    if schedule.status != models.ACTIVE:
        _remove_orphans(schedule.scheduler_names, deps)
        return {**result, "outcome": INACTIVE, "status": schedule.status}
    if schedule.skip_slot == event.slot:
        return {**result, "outcome": SKIPPED}
    if schedule.kind == models.AGENT_CALL and not _agents_ready(fd):
        return {**result, "outcome": NO_AGENTS}

    claim = deps.store.claim_slot(schedule, event.slot, deps.now(), _lease(fd))
    if claim == DUPLICATE:
        fd.metric("DuplicateSuppressed", 1)
        return {**result, "outcome": DUPLICATE_SUPPRESSED}
    if claim == BUSY:
        raise RetryLater("another slot of this schedule is being delivered")
    if claim == SENT:  # posted by an attempt that could not record it: record, never post again
        _record(schedule, event, fd, DELIVERED, "recorded on retry", "" if schedule.recurring else models.FIRED)
        return {**result, "outcome": DELIVERED, "recovered": True}
    if claim != CLAIMED:
        return {**result, "outcome": INACTIVE}

    final = "" if schedule.recurring else models.FIRED
    try:
        outcome, detail = _deliver(_job_of(schedule, fd), event, fd)
    except BaseException:
        deps.store.release_slot(schedule, event.slot)
        raise
    if outcome == DELIVERY_FAILED:
        final = models.DELIVERY_FAILED
    _record(schedule, event, fd, outcome, detail, final)
    if outcome == DELIVERY_FAILED:
        _remove_orphans(schedule.scheduler_names, deps)
        return {**result, "outcome": outcome, "reason": detail}
    return {**result, "outcome": outcome, "message_id": detail}


def _record(schedule: Schedule, event: FireEvent, fd: FireDeps, outcome: str, detail: str, final: str) -> None:
    """Record a delivery. The message is out, so the claim is never given back: after a few
    tries the slot is marked sent and Lambda's retry records it without posting again."""
    store = fd.deps.store
    for attempt in range(3):
        try:
            store.complete_slot(schedule, event.slot, fd.deps.now(), outcome, detail, final_status=final)
            return
        except Conflict:
            log.warning("schedule changed during delivery", extra={"outcome": outcome})
            return
        except AWS_ERRORS:
            fd.sleep(0.2 * 2**attempt)
    try:
        store.mark_slot_sent(schedule, event.slot, detail)
    except AWS_ERRORS:
        log.error("delivered but not recorded; the claim stays held so it is not posted again")
        return
    raise RetryLater("delivered but not recorded yet; the retry records it")


def _fire_static(event: FireEvent, action: StaticAction, fd: FireDeps) -> dict[str, Any]:
    deps = fd.deps
    result: dict[str, Any] = {"schedule_id": event.reminder_id, "slot": event.slot}
    if action.name not in deps.settings.static_schedules:
        log.error("static Input names a schedule the template does not declare")
        return {**result, "outcome": INVALID_INPUT}
    if not _agents_ready(fd):
        return {**result, "outcome": NO_AGENTS}
    try:
        template = fd.prompt_file(action.prompt_template) if action.prompt_template else action.prompt
    except OSError:
        log.error("static schedule names a prompt file this function does not ship")
        return {**result, "outcome": INVALID_INPUT}
    store, lease = deps.store, _lease(fd)
    if not store.claim_static_slot(event.room_id, event.reminder_id, event.slot, deps.now(), lease):
        fd.metric("DuplicateSuppressed", 1)
        return {**result, "outcome": DUPLICATE_SUPPRESSED}
    job = _Job(
        kind=models.AGENT_CALL,
        room_id=event.room_id,
        label=action.name,
        locale=deps.settings.default_locale,
        target_agent=action.target_agent,
        prompt=template,
        skills=action.skills,
        timeout=deps.settings.agent_timeout_seconds,
    )
    try:
        outcome, detail = _deliver(job, event, fd, timezone=action.timezone)
    except BaseException:
        store.release_static_slot(event.room_id, event.reminder_id, event.slot)
        raise
    store.complete_static_slot(event.room_id, event.reminder_id, event.slot, deps.now(), outcome, detail)
    return {**result, "outcome": outcome, "detail": detail}


def _lease(fd: FireDeps) -> int:
    """A claim holds until this invocation is certainly over (Lambda stops it at its timeout), so a
    concurrent duplicate stands aside while Lambda's retry of a killed attempt takes over."""
    return min(fd.deps.settings.slot_lease_seconds, int(fd.remaining_seconds()) + 5)


def _agents_ready(fd: FireDeps) -> bool:
    if fd.agents is None or not fd.agents.configured:
        log.warning("agent_call skipped: no agents configured in this deployment")
        fd.metric("AgentsNotConfigured", 1)
        return False
    return True


def _job_of(schedule: Schedule, fd: FireDeps) -> _Job:
    settings = fd.deps.settings
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
            schedule.agent_timeout_seconds or settings.agent_timeout_seconds,
            settings.agent_timeout_max_seconds,
        ),
    )


def _deliver(job: _Job, event: FireEvent, fd: FireDeps, timezone: str = "UTC") -> tuple[str, str]:
    """Compose and post. Returns (outcome, message id or reason); raises RetryLater when the
    chat platform may accept it later."""
    message = _compose(job, event, fd, timezone)
    if message is None:
        return NOTHING_TO_POST, ""
    deadline = time.monotonic() + max(1.0, fd.remaining_seconds() - 10.0)
    try:
        message_id = fd.chat().send(message, idempotency_key=f"{event.reminder_id}-{event.slot}", deadline=deadline)
    except PermanentChatError as err:
        log.error("delivery refused by the chat platform", extra={"reason": err.reason})
        fd.metric("DeliveryFailed", 1)
        return DELIVERY_FAILED, err.reason
    except TransientChatError as err:
        raise RetryLater(f"chat delivery failed, will retry: {err}") from err
    fd.metric("Fired", 1)
    fd.metric("FireLatencySeconds", (fd.deps.now() - parse_iso(event.slot)).total_seconds())
    return DELIVERED, message_id


def _compose(job: _Job, event: FireEvent, fd: FireDeps, timezone: str) -> ChatMessage | None:
    if job.kind == models.MESSAGE:
        return chat_text.reminder_message(job.room_id, job.user_id, job.text, job.locale)
    assert fd.agents is not None
    fields = {
        "now": iso_utc(fd.deps.now()),
        "room_id": job.room_id,
        "scheduled_time": event.slot,
        "schedule_id": event.reminder_id,
        "name": job.label,
        "timezone": timezone,
    }
    request = agent_request(
        fill_prompt(job.prompt, fields), list(job.skills), job.room_id, event.reminder_id, event.slot
    )
    try:
        answer = fd.agents.call(job.target_agent, request, job.timeout)
    except AgentError as err:
        level = "timed out" if isinstance(err, AgentTimeout) else "failed"
        log.error(f"agent {level}", extra={"agent": job.target_agent, "reason": err.reason})
        fd.metric("AgentFailed", 1)
        return chat_text.notice_message(job.room_id, f"⚠️ {job.label}: {err.reason}")
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
