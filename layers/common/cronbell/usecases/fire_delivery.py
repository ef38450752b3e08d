"""Delivering one claimed slot: the reminder posted, or the agent asked and its answer posted, or a
failed run's notice told to the rooms that must hear it. Returns what delivery did (a
`core/domain/settlement.Delivery`); it writes nothing to the store (`usecases/fire_writes.py` records it)."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable

from cronbell.core.domain import models, routing, runs, settlement
from cronbell.core.domain.actions import Action
from cronbell.core.domain.fire_event import FireEvent
from cronbell.core.domain.firing import Failure, Job
from cronbell.core.domain.instants import iso_utc
from cronbell.core.domain.messages import ChatMessage
from cronbell.core.domain.phrases import Phrase
from cronbell.core.domain.ports import AgentError, AgentTimeout, Outcome, PermanentChatError, TransientChatError
from cronbell.core.domain.settlement import Delivery
from cronbell.core.text import chat_text, texts
from cronbell.core.text.action_labels import delivered_actions
from cronbell.core.text.prompts import agent_request, fill_prompt
from cronbell.usecases import fire_writes as writes
from cronbell.usecases.deps import Deps
from cronbell.usecases.fire_writes import RetryLater

log = logging.getLogger(__name__)
Remaining = Callable[[], float]
KEPT_ANSWER_CHARS = 32_000  # of an answer kept for a retry: more than any platform posts (chat_text)


def chat_outage(streak: int, deps: Deps, detail: str) -> Delivery:
    """The chat platform failed on every attempt: a failed run under the failure policy. The room
    cannot be told now; the first delivered run after it says that it works again."""
    log.error("chat unreachable on the last attempt; recorded as a failed run", extra={"reason": detail})
    verdict = runs.judge(runs.FAILED, streak, deps.settings.auto_pause_after)
    return Delivery(runs.FAILED, runs.CHAT_ERROR, verdict=verdict, detail=detail)


_FAILURE_METRICS = {Outcome.FORBIDDEN_CHANNEL: "ForbiddenChannel", Outcome.PLATFORM_GONE: "PlatformGone"}


def fail_early(
    job: Job, failure: Failure, event: FireEvent, deps: Deps, remaining_seconds: Remaining, streak: int
) -> Delivery:
    """A run that cannot be delivered at all (its room's platform removed; an agent call with no agents
    or its output room no longer allowed) is a failed run: the failure policy decides whether its rooms
    hear of it, and a room on a platform the deployment no longer configures never does."""
    log.error(f"run not delivered: {failure.detail}")
    deps.metric(_FAILURE_METRICS.get(failure.outcome, "AgentsNotConfigured"), 1)
    deadline = time.monotonic() + max(1.0, remaining_seconds() - 10.0)
    verdict = settlement.failure_verdict(job.schedule, event, streak, deps.settings.auto_pause_after)
    rooms = [(job.owner_room, job.owner_thread)] if failure.owner_only else job.notice_rooms
    rooms = [(room, thread) for room, thread in rooms if not routing.platform_gone(room, deps.settings.chat_backends)]
    _tell_failure(job, verdict, failure.reason, failure.said, event, deps, deadline, rooms)
    return Delivery(runs.FAILED, failure.reason, verdict=verdict, detail=failure.detail)


def _tell_failure(
    job: Job,
    verdict: runs.Verdict,
    reason: str,
    said: str | Phrase,
    event: FireEvent,
    deps: Deps,
    deadline: float,
    rooms: list[tuple[str, str]],
) -> None:
    """The one notice a failure gets (at the start of a streak, or when it pauses the schedule), in
    every room that must hear it; the run is failed whether or not a room refuses it (a platform
    failing transiently raises RetryLater, as a post does)."""
    for room, thread in rooms:
        text = _failure_text(job, verdict, f"{reason}: {texts.render(said, job.locale)}", room)
        if text is None:
            return
        try:
            _post(deps, chat_text.notice_message(room, text), room, thread, _notice_key(event, room, job), deadline)
        except PermanentChatError as refused:
            log.error("failure notice refused by the chat platform", extra={"reason": refused.reason})


def _notice_key(event: FireEvent, room: str, job: Job) -> str:
    key = f"{event.schedule_id}-{writes.slot_key(event)}"
    return key if room == job.room_id else f"{key}-owner"


def _failure_text(job: Job, verdict: runs.Verdict, reason: str, room: str) -> str | None:
    """The notice for `room`: a pause names the tool that resumes it only in the room it can be resumed from
    (the schedule's own); an output room elsewhere is told where."""
    if verdict.notice == "failing":  # a one-shot has no further run to keep quiet about
        once = job.schedule is not None and not job.schedule.recurring
        return texts.say("run_failed_once" if once else "run_failing", job.locale, name=job.label, reason=reason)
    if verdict.notice == "paused" and job.schedule is not None:
        key = "run_paused" if room == job.schedule.room_id else "run_paused.elsewhere"
        return texts.say(key, job.locale, name=job.label, count=verdict.streak, id=job.schedule.id)
    return None


def deliver(job: Job, event: FireEvent, deps: Deps, remaining_seconds: Remaining, late: int, streak: int) -> Delivery:
    """Compose and post; raises RetryLater when the chat platform may accept it later. A failed
    agent call is a failed run: the failure policy decides whether the rooms hear of it."""
    deadline = time.monotonic() + max(1.0, remaining_seconds() - 10.0)
    key = f"{event.schedule_id}-{writes.slot_key(event)}"
    if job.kind == models.MESSAGE:
        message = chat_text.reminder_message(job.room_id, job.user_id, job.text, job.locale)
        answer = ""
    else:
        kept = job.schedule.kept_answer(writes.slot_key(event)) if job.schedule is not None else ""
        try:
            answer = kept or _ask(job, event, deps)  # asked once per run: a retry posts what an attempt got
        except AgentError as err:
            reason = runs.AGENT_TIMEOUT if isinstance(err, AgentTimeout) else runs.AGENT_ERROR
            verdict = settlement.failure_verdict(job.schedule, event, streak, deps.settings.auto_pause_after)
            _tell_failure(job, verdict, reason, err.said, event, deps, deadline, job.notice_rooms)
            return Delivery(runs.FAILED, reason, verdict=verdict, detail=str(texts.render(err.said, "en")))
        if not answer:
            log.info("agent answered nothing; nothing posted", extra={"agent": job.target_agent})
            return Delivery(runs.SKIPPED, runs.EMPTY_ANSWER, verdict=runs.Verdict(streak))
        message = chat_text.agent_answer_message(job.room_id, job.label, answer, job.locale)
    verdict = runs.judge(runs.DELIVERED, streak, 0)
    if verdict.notice == "recovered":
        message = chat_text.with_note(message, texts.say("run_recovered", job.locale, name=job.label))
    if job.schedule is not None and not job.schedule.recurring and late > runs.LATE_NOTE_SECONDS:
        note = chat_text.late_note(event.at, job.schedule.timing.tz, deps.now(), job.locale)
        message = chat_text.with_note(message, note)
    try:
        message_id = _post(deps, message, job.room_id, job.thread_id, key, deadline, _actions(job, event.slot))
    except RetryLater as retry:
        retry.answer = answer[:KEPT_ANSWER_CHARS]  # an agent's: Lambda's retry posts it without asking again
        raise
    except PermanentChatError as err:
        workspace = routing.workspace(job.room_id)
        where = {"workspace": workspace} if workspace else {}
        log.error("delivery failed for good", extra={"reason": err.reason, "run_reason": err.run_reason, **where})
        deps.metric("DeliveryFailed", 1)
        # a workspace without a token is refused every time: it counts towards the pause (no notice reaches it)
        pausable = err.run_reason not in runs.REFUSED
        pause_after = deps.settings.auto_pause_after
        judged = settlement.failure_verdict(job.schedule, event, streak, pause_after) if pausable else None
        return Delivery(
            runs.FAILED,
            err.run_reason,
            verdict=judged or runs.Verdict(streak + 1),
            detail=err.reason,
            room_gone=err.room_gone,
            pausable=pausable,
        )
    deps.metric("Fired", 1)
    deps.metric("FireLatencySeconds", (deps.now() - event.at).total_seconds())
    return Delivery(runs.DELIVERED, None, message_id, answer, verdict=verdict)


def _post(
    deps: Deps,
    message: ChatMessage,
    room: str,
    thread: str,
    key: str,
    deadline: float,
    actions: tuple[Action, ...] = (),
) -> str:
    """Post to a room (a store key) on its platform, in its thread; raises RetryLater for a
    transient failure."""
    message = routing.addressed(message, room, thread, actions)
    try:
        return deps.chat().send(message, idempotency_key=key, deadline=deadline)
    except TransientChatError as err:
        raise RetryLater(f"chat delivery failed, will retry: {err}") from err


def _actions(job: Job, slot: str) -> tuple[Action, ...]:
    """A delivered reminder's quick actions (snooze; skip the next one when it recurs), naming the
    occurrence delivered."""
    if job.kind != models.MESSAGE or job.schedule is None:
        return ()
    return delivered_actions(job.schedule, job.locale, slot)


def _ask(job: Job, event: FireEvent, deps: Deps) -> str:
    """Call the agent with the filled prompt and its last delivered answer; raises AgentError."""
    assert deps.agents is not None
    fields = {
        "now": iso_utc(deps.now()),
        "room_id": routing.bare_room(job.room_id),
        "scheduled_time": event.slot,
        "schedule_id": event.schedule_id,
        "name": job.label,
        "timezone": job.timezone,
        "workspace": routing.workspace(job.room_id),
    }
    previous = job.schedule.last_answer if job.schedule is not None else None
    request = agent_request(
        fill_prompt(job.prompt, fields),
        list(job.skills),
        routing.bare_room(job.room_id),
        event.schedule_id,
        event.slot,
        previous,
        platform=writes.platform_of(job.room_id, deps),
        workspace=routing.workspace(job.room_id),
    )
    try:
        return deps.agents.call(job.target_agent, request, job.timeout)
    except AgentError as err:
        level = "timed out" if isinstance(err, AgentTimeout) else "failed"
        log.error(f"agent {level}", extra={"agent": job.target_agent, "reason": str(texts.render(err.said, "en"))})
        deps.metric("AgentFailed", 1)
        raise
