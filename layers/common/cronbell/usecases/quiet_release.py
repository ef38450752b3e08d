"""The release of a user's quiet hours in a room (docs/semantics.md, "Quiet hours"): one post that
lists every occurrence held for them in the period, then each held run recorded.

1. claim the release (a conditional write that counts the attempts): a release done stops here; one
   another attempt holds is waited out while this invocation has time for it (that attempt finishes, or
   it died and its lease is taken over), else this attempt raises, so Lambda retries it later;
2. read each held occurrence's schedule: a deleted one's is dropped (nothing posted, no run);
3. write the first repeat's entry of each repeating reminder, counted from the release (as a
   delivery writes it before its post);
4. post one message into the room's main timeline, each held reminder with its actions, under an
   idempotency key of the release, so a retry after a crash between the post and the record is not
   posted twice;
5. record each held run `delivered`/`quiet_hours` on its slot (a one-shot fires, a `count` used by
   holds completes its schedule, a repeating reminder's occurrence becomes its current one), remove
   its held item, announce it; then the release is done. A transient chat failure gives the claim
   back and raises, so Lambda retries it; on Lambda's last attempt each held run ends
   `failed`/`chat_error` instead, and a chat that refuses the post ends each `failed`/`chat_refused`,
   each under its schedule's failure policy.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import replace
from datetime import datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from cronbell.core.domain import firing, models, repeats, routing, runs, settlement
from cronbell.core.domain.fire_event import FireEvent
from cronbell.core.domain.instants import iso_utc, parse_iso
from cronbell.core.domain.models import Schedule
from cronbell.core.domain.ports import Finish, Outcome, PermanentChatError
from cronbell.core.text import chat_text, texts
from cronbell.core.text.action_labels import released_actions
from cronbell.usecases import fire_writes as writes
from cronbell.usecases.deps import Deps
from cronbell.usecases.fire_slot import DELIVERY_MARGIN_SECONDS, wait_out
from cronbell.usecases.fire_writes import RetryLater
from cronbell.usecases.repeat_fire import delivery_post

log = logging.getLogger(__name__)
Remaining = Callable[[], float]
EARLY_SECONDS = 60  # a release fired before its period ends is a hand-made one: nothing is posted


def fire(event: FireEvent, deps: Deps, remaining_seconds: Remaining) -> dict[str, Any]:
    room, user, until = event.room_id, event.release_user, event.release_until
    answer: dict[str, Any] = {"release_user": user, "release_until": until}
    started = deps.now()
    if parse_iso(until) > started + timedelta(seconds=EARLY_SECONDS):
        log.error("release fired before its period ends; nothing posted")
        return {**answer, "outcome": Outcome.INVALID_INPUT}
    attempt = _claim(room, user, until, deps, remaining_seconds)
    if not attempt:
        deps.metric("DuplicateSuppressed", 1)
        return {**answer, "outcome": Outcome.DUPLICATE}
    try:
        held = _still_held(room, user, until, deps)
        if not held:
            deps.store.end_release(room, user, until, done=True)
            return {**answer, "outcome": Outcome.RELEASED, "released": 0}
        message_id, reason = _post(room, user, until, held, deps, remaining_seconds)
    except RetryLater as retry:
        if attempt <= deps.settings.fire_retries:  # not Lambda's last attempt: its retry posts it
            deps.store.end_release(room, user, until, done=False)
            raise
        log.error("chat unreachable on the last attempt; the held runs end failed", extra={"reason": str(retry)})
        message_id, reason = "", runs.CHAT_ERROR
    except BaseException:
        deps.store.end_release(room, user, until, done=False)
        raise
    repeating = _repeating(held)
    for number, (schedule, slot) in enumerate(held):
        later = sum(1 for other, _ in held[number:] if other.id == schedule.id)
        if any(other.id == schedule.id for other, _ in held[:number]):  # its record changed it: read it again
            schedule = deps.store.get(room, schedule.id) or schedule
        due = _first_repeat(schedule, started) if (schedule.id, slot) in repeating else ""
        _record(schedule, slot, later, started, reason, message_id, deps, until, due)
        deps.store.drop_held(room, user, until, schedule.id, slot)
    deps.store.end_release(room, user, until, done=True)
    return {**answer, "outcome": Outcome.RELEASED, "released": len(held), "message_id": message_id}


def _claim(room: str, user: str, until: str, deps: Deps, remaining_seconds: Remaining) -> int:
    """This attempt's number at the release, or 0 when it is done. A claim another attempt holds is waited out,
    as a fire waits out a held slot (`fire_slot.Slot.claim`): a retry of a release whose attempt was killed
    meets its claim for as long as its lease, longer than Lambda's retries take to come."""
    budget = remaining_seconds()  # also bounds the waits should the clock read stand still
    while True:
        lease = min(deps.settings.slot_lease_seconds, int(remaining_seconds()) + 5)
        attempt = deps.store.claim_release(room, user, until, deps.now(), lease)
        held = None if attempt else deps.store.release_held_until(room, user, until)
        if held is None:
            return attempt
        budget -= wait_out(held, DELIVERY_MARGIN_SECONDS, budget, remaining_seconds, deps)


def awaits_release(schedule: Schedule) -> bool:
    """Whether a reminder whose fire finds its end reached has an occurrence held for a release: its
    `count` was used by holds, and the release completes it (until then it stays as it is)."""
    return schedule.kind == models.MESSAGE and bool(schedule.releases)


def _still_held(room: str, user: str, until: str, deps: Deps) -> list[tuple[Schedule, str]]:
    """The held occurrences whose schedule is still there, oldest first; a deleted one's held item
    is removed (it was due before the delete: nothing is posted for it)."""
    held: list[tuple[Schedule, str]] = []
    for schedule_id, slot in deps.store.held(room, user, until):
        schedule = deps.store.get(room, schedule_id)
        if schedule is None or schedule.status == models.DELETED:
            deps.store.drop_held(room, user, until, schedule_id, slot)
            continue
        held.append((schedule, slot))
    return held


def _repeating(held: list[tuple[Schedule, str]]) -> set[tuple[str, str]]:
    """The held occurrences that repeat once released: each repeating reminder's last one (the one its
    record makes current). A paused reminder's post is released, but it does not repeat."""
    last = {schedule.id: (schedule, slot) for schedule, slot in held}
    return {
        (schedule.id, slot)
        for schedule, slot in last.values()
        if repeats.repeats(schedule) and schedule.status != models.PAUSED
    }


def _first_repeat(schedule: Schedule, started: datetime) -> str:
    """A released occurrence repeats counted from the release's start."""
    return iso_utc(repeats.due(started, schedule.repeat_every, 1))


def _post(
    room: str, user: str, until: str, held: list[tuple[Schedule, str]], deps: Deps, remaining_seconds: Remaining
) -> tuple[str, str | None]:
    """Post the release, each held reminder with its actions; (message id, None) once posted, or
    ("", the refusal's reason) when the platform refuses it. A transient failure raises RetryLater."""
    locale = held[0][0].locale
    now = deps.now()
    items = [
        (
            schedule.text,
            texts.when_text(parse_iso(slot), ZoneInfo(schedule.timezone), locale, now.year),
            released_actions(schedule, locale, slot, now),
        )
        for schedule, slot in held
    ]
    message = chat_text.release_message(room, user, items, locale)
    deadline = time.monotonic() + max(1.0, remaining_seconds() - 10.0)
    key = f"{routing.bare_room(room)}-release-{user}-{until}"
    try:
        return delivery_post(deps, routing.addressed(message, room, "", message.actions), key, deadline), None
    except PermanentChatError as err:
        log.error("release refused by the chat platform", extra={"reason": err.reason})
        deps.metric("DeliveryFailed", 1)
        return "", err.run_reason


def _record(
    schedule: Schedule,
    slot: str,
    later: int,
    started: datetime,
    reason: str | None,
    message_id: str,
    deps: Deps,
    until: str,
    repeat_due: str = "",
) -> None:
    """Record one held run on its slot: delivered (`reason` None), or failed with `reason`. Its hold
    counted it already: it is settled as the schedule was before this and its later held occurrences
    were counted (`later`, this one included), so the last one of a `count` completes the schedule.
    A delivered one of a repeating reminder is its current occurrence from now on."""
    outcome = runs.DELIVERED if reason is None else runs.FAILED
    said = reason or runs.QUIET_HOURS
    pausable = reason not in runs.REFUSED  # a refused post does not pause, as on a delivery
    event = FireEvent(schedule.room_id, schedule.id, slot)
    late = runs.late_seconds(slot, started)
    run = writes.run_of(event, schedule.timezone, outcome, said, late, message_id or None, schedule)
    before = replace(schedule, delivered_count=max(0, schedule.delivered_count - later))
    pause_after = deps.settings.auto_pause_after
    settled = settlement.settle(before, event, outcome, said, False, pausable, pause_after)
    current = writes.repeat_slot(schedule, event, outcome)
    finish = Finish(
        run,
        settled.streak,
        settled.pause,
        counted=True,
        held_ahead=later,
        repeat_slot=current,
        repeat_due=repeat_due if current else "",
        release=until,
    )
    job = firing.Job(kind=schedule.kind, room_id=schedule.output_room, label=schedule.id, locale=schedule.locale)
    writes.write_finish(replace(job, schedule=schedule), event, deps, finish, pausable, said)
