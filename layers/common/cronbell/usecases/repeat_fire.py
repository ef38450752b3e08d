"""The fire of a repeat, or of the escalation, of an occurrence delivered already (core/domain/repeats.py).

1. read the schedule and decide (`core/domain/repeats.decide`: pure): a deleted or paused schedule, or an
   occurrence that is no longer the current one, ends the chain with nothing posted;
   a repeat (not the escalation) whose fire finds its user inside their quiet hours posts nothing:
   it is due again at the end of that period (kept on the run's slot, under an entry name of its own);
2. claim the post on the occurrence's run (the store's conditional write): posted already, or
   acknowledged, or stopped meanwhile, and nothing is posted; a duplicate still makes sure the
   chain's next entry exists;
   the claim also keeps the chain's next fire on the run's slot, whose projection is its entry;
3. post into the occurrence's room and thread. A post that fails transiently gives the claim back
   and raises, so Lambda's retry posts it.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from datetime import datetime
from typing import Any

from cronbell.core.domain import repeats, routing
from cronbell.core.domain.fire_event import FireEvent
from cronbell.core.domain.instants import iso_utc
from cronbell.core.domain.messages import ChatMessage
from cronbell.core.domain.models import LIVE_STATUSES, Schedule
from cronbell.core.domain.ports import Outcome, PermanentChatError, RepeatClaim, TransientChatError
from cronbell.core.domain.quiet_hours import period_at
from cronbell.core.text import chat_text
from cronbell.core.text.action_labels import delivered_actions
from cronbell.usecases import fire_writes as writes
from cronbell.usecases.deps import Deps
from cronbell.usecases.fire_writes import RetryLater

log = logging.getLogger(__name__)
Remaining = Callable[[], float]


def fire(event: FireEvent, deps: Deps, remaining_seconds: Remaining) -> dict[str, Any]:
    schedule = deps.store.get(event.room_id, event.schedule_id)
    chain = repeats.RepeatFire(event.repeat_of, event.repeat)
    verdict = repeats.decide(schedule, chain, event.slot, deps.now())
    answer: dict[str, Any] = {"repeat_of": chain.occurrence, "repeat": chain.number}
    if not verdict.post or schedule is None:
        log.info(f"{verdict.why}; nothing posted")
        return {**answer, "outcome": "stopped"}
    quiet_until = None if verdict.escalation else _quiet_until(schedule, deps)
    if quiet_until is not None:  # posts nothing: due again at the end of the period
        if not deps.store.defer_repeat(schedule, chain.occurrence, chain.number, iso_utc(quiet_until)):
            return {**answer, "outcome": "stopped"}
        deps.metric("HeldByQuietHours", 1)
        return {**answer, "outcome": Outcome.HELD, "held_until": iso_utc(quiet_until)}
    following = repeats.following(schedule, chain, event.at)
    claim = deps.store.claim_repeat(schedule, chain.occurrence, chain.number, verdict.escalation, following)
    if claim in (RepeatClaim.ACKNOWLEDGED, RepeatClaim.STOPPED):
        return {**answer, "outcome": str(claim)}
    if claim == RepeatClaim.DUPLICATE:
        deps.metric("DuplicateSuppressed", 1)
        return {**answer, "outcome": "duplicate"}
    message_id: str | None = None
    try:
        message_id = _post(schedule, chain, verdict.escalation, deps, remaining_seconds)
    finally:  # not posted: a transient failure (Lambda's retry posts it) or a refusal for good (never counted)
        if message_id is None:
            deps.store.release_repeat(schedule, chain.occurrence, chain.number, verdict.escalation)
    if message_id is None:
        return {**answer, "outcome": Outcome.DELIVERY_FAILED}  # no event says it was posted
    if verdict.escalation:
        run = deps.store.run_at(schedule.room_id, schedule.id, chain.occurrence)
        if run is not None:
            writes.announce_repeat("Run Escalated", run, schedule, deps)
    deps.metric("Escalated" if verdict.escalation else "Repeated", 1)
    return {**answer, "outcome": "escalated" if verdict.escalation else "repeated", "message_id": message_id}


def _quiet_until(schedule: Schedule, deps: Deps) -> datetime | None:
    """The end of the quiet period its user is in at the start of this fire, if any. No rule is read
    for a user a live schedule says has none; a fired one-shot's copy is not marked when a rule comes
    later (the rule marks live schedules only), so its repeats always read it."""
    if schedule.quiet_hours_set is False and schedule.status in LIVE_STATUSES:
        return None
    rule = deps.store.quiet_hours(schedule.room_id, schedule.user_id)
    period = period_at(rule, deps.now()) if rule is not None else None
    return period.end if period is not None else None


def _post(
    schedule: Schedule, chain: repeats.RepeatFire, escalation: bool, deps: Deps, remaining_seconds: Remaining
) -> str | None:
    """Post the repeat (the reminder again, with its actions) or the escalation, in the occurrence's
    room and thread; an escalation to another room goes to that room's main timeline. None when the
    chat platform refused it for good (no retry would post it)."""
    deadline = time.monotonic() + max(1.0, remaining_seconds() - 10.0)
    key = repeats.occurrence_key(schedule.id, chain.occurrence, chain, escalation)
    room, thread = schedule.output_room, schedule.output_thread
    if escalation:
        target = repeats.escalation_room(schedule, deps.settings.allowed_output_rooms, deps.settings.default_platform)
        # a room no longer allowed is told in the schedule's own room, never mentioned as a user
        mention = repeats.escalation_mention(schedule.escalate_to)
        message = chat_text.escalation_message(
            room, mention, schedule.user_id, schedule.text, schedule.repeat_times, schedule.locale
        )
        if target:
            room, thread = target, ""
        actions: tuple[Any, ...] = ()
    else:
        message = chat_text.reminder_message(room, schedule.user_id, schedule.text, schedule.locale)
        message = chat_text.with_note(
            message, chat_text.repeat_note(chain.number, schedule.repeat_times, schedule.locale)
        )
        actions = delivered_actions(schedule, schedule.locale, chain.occurrence)
    try:
        return delivery_post(deps, routing.addressed(message, room, thread, actions), key, deadline)
    except PermanentChatError as err:
        log.error("repeat refused by the chat platform", extra={"reason": err.reason, "escalation": escalation})
        deps.metric("DeliveryFailed", 1)
        return None


def delivery_post(deps: Deps, message: ChatMessage, key: str, deadline: float) -> str:
    try:
        return deps.chat().send(message, idempotency_key=key, deadline=deadline)
    except TransientChatError as err:
        raise RetryLater(f"chat delivery failed, will retry: {err}") from err
