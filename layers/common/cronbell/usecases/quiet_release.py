"""The release of a user's quiet hours in a room (docs/semantics.md, "Quiet hours"): one post that
lists every occurrence held for them in the period, then each held run recorded.

1. claim the release (a conditional write): a duplicate, or an attempt still under way, stops here;
2. read each held occurrence's schedule: a deleted one's is dropped (nothing posted, no run);
3. post one message into the room's main timeline, under an idempotency key of the release, so a
   retry after a crash between the post and the record is not posted twice;
4. record each held run `delivered`/`quiet_hours` on its slot (a one-shot fires), remove its held
   item, announce it; then the release is done. A transient chat failure gives the claim back and
   raises, so Lambda retries it; a chat that refuses the post ends each held run `failed`.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import replace
from datetime import datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from cronbell.core.domain import firing, models, routing, runs
from cronbell.core.domain.fire_event import FireEvent
from cronbell.core.domain.instants import parse_iso
from cronbell.core.domain.models import Schedule
from cronbell.core.domain.ports import Finish, Outcome, PermanentChatError
from cronbell.core.text import chat_text, texts
from cronbell.usecases import fire_writes as writes
from cronbell.usecases.deps import Deps
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
    lease = min(deps.settings.slot_lease_seconds, int(remaining_seconds()) + 5)
    if not deps.store.claim_release(room, user, until, started, lease):
        deps.metric("DuplicateSuppressed", 1)
        return {**answer, "outcome": Outcome.DUPLICATE}
    try:
        held = _still_held(room, user, until, deps)
        if not held:
            deps.store.end_release(room, user, until, done=True)
            return {**answer, "outcome": Outcome.RELEASED, "released": 0}
        message_id, refused = _post(room, user, until, held, deps, remaining_seconds)
    except BaseException:
        deps.store.end_release(room, user, until, done=False)
        raise
    outcome, reason = (runs.FAILED, runs.CHAT_REFUSED) if refused else (runs.DELIVERED, runs.QUIET_HOURS)
    for number, (schedule, slot) in enumerate(held):
        later = sum(1 for other, _ in held[number:] if other.id == schedule.id)
        _record(schedule, slot, later, started, outcome, reason, message_id, deps, until)
        deps.store.drop_held(room, user, until, schedule.id, slot)
    deps.store.end_release(room, user, until, done=True)
    return {**answer, "outcome": Outcome.RELEASED, "released": len(held), "message_id": message_id}


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


def _post(
    room: str, user: str, until: str, held: list[tuple[Schedule, str]], deps: Deps, remaining_seconds: Remaining
) -> tuple[str, bool]:
    """Post the release (no actions: one post lists several reminders); (message id, refused)."""
    locale = held[0][0].locale
    year = deps.now().year
    items = [
        (schedule.text, texts.when_text(parse_iso(slot), ZoneInfo(schedule.timezone), locale, year))
        for schedule, slot in held
    ]
    message = chat_text.release_message(room, user, items, locale)
    deadline = time.monotonic() + max(1.0, remaining_seconds() - 10.0)
    key = f"{routing.bare_room(room)}-release-{user}-{until}"
    try:
        return delivery_post(deps, routing.addressed(message, room), key, deadline), False
    except PermanentChatError as err:
        log.error("release refused by the chat platform", extra={"reason": err.reason})
        deps.metric("DeliveryFailed", 1)
        return "", True


def _record(
    schedule: Schedule,
    slot: str,
    later: int,
    started: datetime,
    outcome: str,
    reason: str,
    message_id: str,
    deps: Deps,
    until: str,
) -> None:
    """Record one held run on its slot. Its hold counted it already: it is settled as the schedule
    was before this and its later held occurrences were counted (`later`, this one included)."""
    event = FireEvent(schedule.room_id, schedule.id, slot)
    late = runs.late_seconds(slot, started)
    run = writes.run_of(event, schedule.timezone, outcome, reason, late, message_id or None, schedule)
    before = replace(schedule, delivered_count=max(0, schedule.delivered_count - later))
    pause_after = deps.settings.auto_pause_after
    settled = firing.settle(before, event, outcome, reason, False, outcome == runs.DELIVERED, pause_after)
    finish = Finish(run, settled.streak, settled.pause, counted=True, release=until)
    job = firing.Job(kind=schedule.kind, room_id=schedule.output_room, label=schedule.id, locale=schedule.locale)
    writes.write_finish(replace(job, schedule=before), event, deps, finish, True, reason)
