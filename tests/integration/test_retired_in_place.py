"""A fire whose run ends its schedule retires it under its live key; the projector (or a reader, or the
reconciler) moves it to its retired key, the run kept there as its final run. What the move must not
undo: the slot an earlier attempt left an item on, and a manual run's claim on the moved copy."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any

from cronbell.adapters.dynamo.codec import stream_change
from cronbell.core.domain.fire_event import parse_fire_event
from cronbell.usecases import fire as fire_uc
from cronbell.usecases.fire_writes import RetryLater
from cronbell.usecases.project import apply
from cronbell.usecases.reconcile import reconcile
from tests.support.aws import Stack
from tests.support.chat import RecordingChat
from tests.support.envelopes import ROOM
from tests.support.repeats import run_now
from tests.support.tools import call, ok, slot_state, wait_on_its_delivery

SLOT = "2026-11-30T09:00:00Z"  # the one-shot's own time: 10:00 in Madrid


class Events:
    def __init__(self) -> None:
        self.sent: list[tuple[str, dict[str, Any]]] = []

    def publish(self, detail_type: str, detail: dict[str, Any]) -> None:
        self.sent.append((detail_type, detail))


def test_a_retiring_run_whose_slot_holds_a_kept_dead_claim_is_not_later_closed_as_lost(stack: Stack) -> None:
    """The one-shot's own attempt claims its slot and dies; a run_now after the lease takes the schedule
    over, so the slot's item is written `claimed` (the dead claim kept). Lambda's retry of the slot then
    delivers it and retires the one-shot: the move makes that item done with the run, so the reconciler
    never closes it as `missed (lost)` (a delivered run shown lost, and its `Run Finished` published
    again)."""
    sid = ok(call(stack, "create_reminder", {"message": "r", "time": "2026-11-30 10:00"}))["id"]
    stack.clock.current = stack.clock.now().replace(hour=9, minute=0, second=1)
    store = stack.deps().store
    # the own attempt claims the slot, then dies (killed, timed out): its claim is never given back
    lease = stack.settings.slot_lease_seconds
    assert store.claim_slot(ROOM, sid, SLOT, stack.clock.now(), lease, store.get(ROOM, sid)) == "claimed"
    stack.clock.advance(seconds=stack.settings.slot_lease_seconds + 5)
    chat = RecordingChat()
    answer, fired = run_now(stack, sid, chat)  # the user, who saw nothing, runs it by hand
    assert answer["ok"] and fired is not None and fired["outcome"] == "delivered", (answer, fired)
    assert slot_state(stack, sid, SLOT) == "claimed"  # the dead claim kept on the slot's own item

    stack.clock.advance(seconds=60)  # Lambda's retry of the own slot, within the lateness allowed
    event = {"room_id": ROOM, "reminder_id": sid, "scheduled_time": SLOT, "execution_id": "e", "attempt": "2"}
    retried = fire_uc.fire(parse_fire_event(event, stack.clock.now()), stack.deps(chat=lambda: chat), lambda: 300.0)
    assert retried["outcome"] == "delivered", retried
    assert len(chat.sent) == 2

    stack.clock.advance(seconds=stack.settings.missed_after_seconds + 60)
    stack.project()
    events = Events()
    report = reconcile(stack.deps(chat=RecordingChat, events=events)).to_dict()
    runs = ok(call(stack, "reminder_history", {"id": sid}))["runs"]
    own = [r for r in runs if not r["manual"]]
    assert [r["outcome"] for r in own] == ["delivered"], runs
    assert slot_state(stack, sid, SLOT) == "done"
    assert report["claims_closed"] == 0 and events.sent == [], (report, events.sent)


WAITED = "2026-11-30T09:00:30Z"  # a run_now answered while the one-shot's own delivery held it


def test_the_projectors_redelivered_move_does_not_free_a_retired_copy_claimed_by_its_waiting_run(
    stack: Stack,
) -> None:
    """A one-shot fires with a run_now waiting on it (it waits on the retired copy). The projector's
    batch with the fire's records is delivered again (a later record of the batch failed, or its
    answer was lost) while the waiting run's manual fire holds its claim on the retired copy: the move
    applied again never writes over the copy it moved (a claim does not move the version), so a
    duplicate invocation of the waiting run's entry meets the claim and is retried, not posted twice."""
    sid = ok(call(stack, "create_reminder", {"message": "Waited for", "time": "2026-11-30 10:00"}))["id"]
    stack.project()
    wait_on_its_delivery(stack, sid, WAITED)
    stack.clock.current = datetime(2026, 11, 30, 9, 0, 5, tzinfo=UTC)
    chat = RecordingChat()
    event = {"room_id": ROOM, "reminder_id": sid, "scheduled_time": SLOT}
    own = fire_uc.fire(parse_fire_event(event, stack.clock.now()), stack.deps(chat=lambda: chat), lambda: 300.0)
    assert own["outcome"] == "delivered"
    batch = stack.stream_records()  # the fire's records, as the projector's batch holds them
    deps = stack.deps()
    for record in batch:
        apply(stream_change(record), deps)
    entry = stack.entries()[f"{sid}-now"]
    stack.clock.current = datetime.fromisoformat(entry["ScheduleExpression"][3:-1]).replace(tzinfo=UTC)
    waiting = json.loads(entry["Target"]["Input"])
    again: list[dict[str, Any]] = []

    class Redelivered(RecordingChat):
        def send(self, message: Any, idempotency_key: str, deadline: float | None = None) -> str:
            if not again and len(self.sent) == 1:  # the waiting run's post, its claim held on x#<id>
                for record in batch:  # the batch delivered again
                    apply(stream_change(record), stack.deps())
                again.append({"outcome": "started"})
                try:  # a duplicate invocation of the waiting run's entry, meanwhile
                    again[0] = fire_uc.fire(
                        parse_fire_event(waiting, stack.clock.now()), stack.deps(chat=lambda: self), lambda: 300.0
                    )
                except RetryLater:
                    again[0] = {"outcome": "retry_later"}  # the claim holds: Lambda retries it later
            return super().send(message, idempotency_key, deadline)

    posts = Redelivered()
    posts.sent = list(chat.sent)
    first = fire_uc.fire(parse_fire_event(waiting, stack.clock.now()), stack.deps(chat=lambda: posts), lambda: 300.0)
    assert first["outcome"] == "delivered", first
    assert len(posts.sent) == 2, posts.sent  # the own post and the waiting run's, once each
    assert again == [{"outcome": "retry_later"}], again
