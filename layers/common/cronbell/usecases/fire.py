"""The fire path: one (schedule, scheduled time) slot delivered at most once.

1. read the schedule (unknown or retired: send nothing, remove the orphan Scheduler entries);
2. claim the slot (a conditional transaction; a duplicate or concurrent invocation stops here);
3. post the message, or call the agent and post its answer;
4. complete the slot and record the fire (a one-shot becomes `fired`, leaving the room count).
A transient failure gives the claim back and raises, so Lambda's async retry runs again and,
when retries run out, the event lands in the dead-letter queue. A permanent refusal by the chat
platform is recorded as `delivery_failed` and not retried.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from cronbell.adapters.agents import AgentError, AgentTimeout
from cronbell.adapters.chat.base import ChatMessage, ChatSender, PermanentChatError, TransientChatError
from cronbell.adapters.store import BUSY, CLAIMED, DUPLICATE, Conflict
from cronbell.core import chat_text, models
from cronbell.core.fire_event import FireEvent
from cronbell.core.instants import parse_iso
from cronbell.core.models import Schedule
from cronbell.usecases.deps import Deps

log = logging.getLogger(__name__)

# outcomes (the fire function's answer and log say which happened)
DELIVERED = "delivered"
DUPLICATE_SUPPRESSED = "duplicate"
UNKNOWN = "unknown_schedule"
INACTIVE = "inactive"
PAUSED = "paused"
DELIVERY_FAILED = "delivery_failed"
NOTHING_TO_POST = "empty_answer"
NO_AGENTS = "no_agents_configured"


class RetryLater(Exception):
    """Raised to make Lambda retry the event (its async retries, then the dead-letter queue)."""


class Agents:
    """The agent port (see adapters.agents.LambdaAgents)."""

    configured: bool

    def call(self, agent_id: str, request: dict[str, Any], timeout_seconds: int) -> str: ...


@dataclass
class FireDeps:
    deps: Deps
    chat: Callable[[], ChatSender]  # built on first use: the token is fetched only when needed
    agents: Any = None  # Agents
    metric: Callable[[str, float], None] = field(default=lambda name, value: None)
    remaining_seconds: Callable[[], float] = field(default=lambda: 60.0)


def fire(event: FireEvent, fd: FireDeps) -> dict[str, Any]:
    deps = fd.deps
    result: dict[str, Any] = {"schedule_id": event.reminder_id, "slot": event.slot}
    schedule = deps.store.get(event.room_id, event.reminder_id)
    if schedule is None:
        _remove_orphans(models.scheduler_names(event.reminder_id, 2), deps)
        log.warning("fire for an unknown schedule; orphan entries removed")
        return {**result, "outcome": UNKNOWN}
    if schedule.status == models.PAUSED:
        return {**result, "outcome": PAUSED}
    if schedule.status != models.ACTIVE:
        _remove_orphans(schedule.scheduler_names, deps)
        return {**result, "outcome": INACTIVE, "status": schedule.status}
    if schedule.kind == models.AGENT_CALL and (fd.agents is None or not fd.agents.configured):
        log.warning("agent_call skipped: no agents configured in this deployment")
        fd.metric("AgentsNotConfigured", 1)
        return {**result, "outcome": NO_AGENTS}

    claim = deps.store.claim_slot(schedule, event.slot, deps.now(), deps.settings.slot_lease_seconds)
    if claim == DUPLICATE:
        fd.metric("DuplicateSuppressed", 1)
        return {**result, "outcome": DUPLICATE_SUPPRESSED}
    if claim == BUSY:
        raise RetryLater("another slot of this schedule is being delivered")
    if claim != CLAIMED:
        return {**result, "outcome": INACTIVE}

    try:
        message = _compose(schedule, event, fd)
        if message is None:
            _complete(schedule, event, fd, NOTHING_TO_POST)
            return {**result, "outcome": NOTHING_TO_POST}
        deadline = time.monotonic() + max(1.0, fd.remaining_seconds() - 10.0)
        message_id = fd.chat().send(message, idempotency_key=f"{schedule.id}-{event.slot}", deadline=deadline)
    except PermanentChatError as err:
        log.error("delivery refused by the chat platform", extra={"reason": err.reason})
        fd.metric("DeliveryFailed", 1)
        _complete(schedule, event, fd, DELIVERY_FAILED, err.reason, final=models.DELIVERY_FAILED)
        _remove_orphans(schedule.scheduler_names, deps)
        return {**result, "outcome": DELIVERY_FAILED, "reason": err.reason}
    except TransientChatError as err:
        deps.store.release_slot(schedule, event.slot)
        raise RetryLater(f"chat delivery failed, will retry: {err}") from err
    except BaseException:
        deps.store.release_slot(schedule, event.slot)
        raise

    _complete(schedule, event, fd, DELIVERED, message_id)
    fd.metric("Fired", 1)
    fd.metric("FireLatencySeconds", (deps.now() - parse_iso(event.slot)).total_seconds())
    return {**result, "outcome": DELIVERED, "message_id": message_id}


def _compose(schedule: Schedule, event: FireEvent, fd: FireDeps) -> ChatMessage | None:
    if schedule.kind == models.MESSAGE:
        return chat_text.reminder_message(schedule.output_room, schedule.user_id, schedule.text, schedule.locale)
    settings = fd.deps.settings
    timeout = min(
        schedule.agent_timeout_seconds or settings.agent_timeout_seconds,
        settings.agent_timeout_max_seconds,
    )
    request = {
        "kind": "task",
        "from": "cronbell",
        "prompt": schedule.prompt,
        "skills": list(schedule.skills),
        "room_id": schedule.output_room,
        "schedule_id": schedule.id,
        "scheduled_time": event.slot,
    }
    try:
        answer = fd.agents.call(schedule.target_agent, request, timeout)
    except AgentTimeout as err:
        log.error("agent timed out", extra={"agent": schedule.target_agent})
        fd.metric("AgentFailed", 1)
        return chat_text.notice_message(schedule.output_room, f"⚠️ {schedule.name or schedule.id}: {err.reason}")
    except AgentError as err:
        log.error("agent failed", extra={"agent": schedule.target_agent, "reason": err.reason})
        fd.metric("AgentFailed", 1)
        return chat_text.notice_message(schedule.output_room, f"⚠️ {schedule.name or schedule.id}: {err.reason}")
    if not answer:
        log.info("agent answered nothing; nothing posted", extra={"agent": schedule.target_agent})
        return None
    return chat_text.agent_answer_message(schedule.output_room, schedule.name, answer, schedule.locale)


def _complete(
    schedule: Schedule, event: FireEvent, fd: FireDeps, outcome: str, detail: str = "", final: str = ""
) -> None:
    if not final and not schedule.recurring:
        final = models.FIRED
    try:
        fd.deps.store.complete_slot(schedule, event.slot, fd.deps.now(), outcome, detail, final_status=final)
    except Conflict:
        # Deleted while we held the slot can only happen past the lease; the post went out once.
        log.warning("schedule changed during delivery", extra={"outcome": outcome})


def _remove_orphans(names: list[str], deps: Deps) -> None:
    for name in names:
        try:
            deps.scheduler.delete(name)
        except Exception:  # best effort: the reconciler sweeps what is left
            log.warning("could not remove scheduler entry", extra={"entry": name})
