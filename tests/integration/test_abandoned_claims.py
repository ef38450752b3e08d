"""A slot whose every attempt died (SIGKILL in a worker process, as an out-of-memory runtime is killed)
stays claimed; once no retry of its event can be alive, the reconciler ends it as its run, so every
occurrence that reached the fire function shows in `reminder_history`, exactly once."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from cronbell.core.domain.ports import Finish
from cronbell.core.domain.runs import Run
from cronbell.usecases.reconcile import reconcile
from tests.support import fire_worker
from tests.support.aws import Stack
from tests.support.chat import RecordingChat
from tests.support.envelopes import ROOM
from tests.support.lambda_timing import RETRY_GAPS_SECONDS, FileChat
from tests.support.tools import assert_consistent, call, fire_at, ok, schedule_item, slot_state

SLOT = "2026-11-30T09:00:00Z"  # 10:00 in Madrid, an hour after the stack's start


class Events:
    def __init__(self) -> None:
        self.sent: list[tuple[str, dict[str, Any]]] = []

    def publish(self, detail_type: str, detail: dict[str, Any]) -> None:
        self.sent.append((detail_type, detail))


def run(stack: Stack, events: Events | None = None) -> dict[str, int]:
    stack.project()  # the projector follows every write within seconds; the reconciler runs daily
    return reconcile(stack.deps(chat=RecordingChat, events=events)).to_dict()


def history(stack: Stack, sid: str) -> list[dict[str, Any]]:
    runs: list[dict[str, Any]] = ok(call(stack, "reminder_history", {"id": sid}))["runs"]
    return runs


def kill_every_attempt(stack: Stack, sid: str, chat: Path, at: str) -> None:
    """Scheduler's event and Lambda's two retries, each process killed where told; every retry comes
    after the dead attempt's lease, so it takes the claim over, and dies too."""
    event = {"room_id": ROOM, "reminder_id": sid, "scheduled_time": SLOT, "execution_id": "e", "attempt": "1"}
    for gap in (0, *RETRY_GAPS_SECONDS):
        stack.clock.advance(seconds=gap + stack.settings.slot_lease_seconds if gap else 1)
        fire_worker.kill_a_worker(stack, event, chat, at)
        assert slot_state(stack, sid, SLOT) == "claimed"


@pytest.mark.parametrize("at", ["claim", "post"])
@pytest.mark.parametrize(
    "tool,args",
    [
        ("create_reminder", {"message": "r", "cron": "0 10 * * *"}),
        ("cron_create", {"name": "job", "prompt": "p", "cron_expr": "0 10 * * *"}),
    ],
    ids=["recurring", "agent call"],
)
def test_a_slot_whose_every_attempt_died_ends_as_one_lost_run(
    stack: Stack, tmp_path: Path, tool: str, args: dict[str, Any], at: str
) -> None:
    sid = ok(call(stack, tool, args))["id"]
    stack.clock.advance(hours=1)
    chat = FileChat(tmp_path / "chat.jsonl")
    kill_every_attempt(stack, sid, chat.path, at)
    assert history(stack, sid) == []

    assert run(stack)["claims_closed"] == 0  # a retry could still be alive: left alone
    assert slot_state(stack, sid, SLOT) == "claimed"

    stack.clock.advance(seconds=stack.settings.missed_after_seconds)
    events = Events()
    assert run(stack, events)["claims_closed"] == 1
    expected = {"scheduled_time": "2026-11-30T10:00:00+01:00", "outcome": "missed", "reason": "lost"}
    runs = history(stack, sid)
    assert len(runs) == 1 and runs[0].items() >= expected.items()
    assert slot_state(stack, sid, SLOT) == "done"
    schedule = schedule_item(stack, sid)
    assert schedule["status"] == "active" and schedule["last_run"].items() >= expected.items()
    assert not {"inflight_slot", "inflight_until", "inflight_attempts", "inflight_at"} & schedule.keys()
    assert [(kind, d["schedule_id"], d["outcome"], d["reason"]) for kind, d in events.sent] == [
        ("Run Finished", sid, "missed", "lost")
    ]
    # an attempt killed after its post left the message in the room: it is there once, never again
    assert chat.posted() == ({f"{sid}-{SLOT}"} if at == "post" else set())

    assert run(stack)["claims_closed"] == 0  # closed once
    assert len(history(stack, sid)) == 1
    assert_consistent(stack)
    if tool == "create_reminder":  # the schedule goes on (an agent call needs an agent, not set here)
        assert fire_at(stack, sid, "2026-12-01T09:00:00Z")["outcome"] == "delivered"
        assert [r["outcome"] for r in history(stack, sid)] == ["delivered", "missed"]


def test_a_dead_claim_taken_over_by_the_next_occurrence_still_ends_as_its_run(stack: Stack, tmp_path: Path) -> None:
    """A claim lives on its schedule's item; when the next occurrence fires before the reconciler runs,
    the dead claim's slot is written claimed before the schedule is taken over, so the reconciler
    still ends it as one lost run, and the later delivery stays the schedule's last run."""
    sid = ok(call(stack, "create_reminder", {"message": "r", "cron": "0 10 * * *"}))["id"]
    stack.clock.advance(hours=1)
    kill_every_attempt(stack, sid, FileChat(tmp_path / "chat.jsonl").path, "claim")
    assert fire_at(stack, sid, "2026-12-01T09:00:00Z")["outcome"] == "delivered"
    assert slot_state(stack, sid, SLOT) == "claimed"  # kept, though the schedule's mark moved on
    assert schedule_item(stack, sid)["done_1"] == "2026-12-01T09:00:00Z"

    stack.clock.advance(seconds=stack.settings.missed_after_seconds)
    assert run(stack)["claims_closed"] == 1
    runs = history(stack, sid)
    assert [(r["scheduled_time"], r["outcome"]) for r in runs] == [
        ("2026-12-01T10:00:00+01:00", "delivered"),
        ("2026-11-30T10:00:00+01:00", "missed"),
    ]
    assert Run.from_dict(schedule_item(stack, sid)["last_run"]) == Run.from_dict(runs[0])
    assert run(stack)["claims_closed"] == 0
    assert_consistent(stack)


def test_a_slot_whose_message_went_out_ends_delivered_and_a_later_run_stays_the_last(stack: Stack) -> None:
    """An attempt that posted, could not record it and noted the message on the slot (`sent`), then
    died with its retries: the run is `delivered`, with the message. An occurrence delivered after
    it stays the schedule's last run."""
    sid = ok(call(stack, "create_reminder", {"message": "r", "cron": "0 10 * * *"}))["id"]
    stack.clock.advance(hours=1, seconds=1)
    store = stack.deps().store
    schedule = store.get(ROOM, sid)
    assert store.claim_slot(ROOM, sid, SLOT, stack.clock.now(), 305, schedule) == "claimed"
    store.mark_slot_sent(ROOM, sid, SLOT, "$posted", stack.clock.now())
    stack.clock.advance(days=1)
    assert fire_at(stack, sid, "2026-12-01T09:00:00Z")["outcome"] == "delivered"

    assert run(stack)["claims_closed"] == 1
    runs = history(stack, sid)
    assert [(r["outcome"], r["message_id"]) for r in runs][1] == ("delivered", "$posted")
    assert runs[1]["scheduled_time"] == "2026-11-30T10:00:00+01:00"
    last = Run.from_dict(schedule_item(stack, sid)["last_run"])
    assert last == Run.from_dict(runs[0])  # the later run is still the last one
    assert_consistent(stack)


def test_a_pause_noted_on_an_abandoned_slot_disables_its_entries_in_the_same_pass(stack: Stack) -> None:
    """An attempt whose failed run paused the schedule (the failure policy) could not record it and
    died: the reconciler records the pause and disables the schedule's entries in the same pass, as
    the fire's own record would have, so the next occurrence is not fired at a paused schedule."""
    sid = ok(call(stack, "create_reminder", {"message": "r", "cron": "0 10 * * *"}))["id"]
    stack.clock.advance(hours=1, seconds=1)
    store = stack.deps().store
    schedule = store.get(ROOM, sid)
    assert store.claim_slot(ROOM, sid, SLOT, stack.clock.now(), 305, schedule) == "claimed"
    failed = Run("2026-11-30T10:00:00+01:00", "failed", "chat_error")
    store.mark_slot_sent(ROOM, sid, SLOT, "", stack.clock.now(), Finish(failed, streak=5, pause=True))
    assert {e["State"] for e in stack.entries().values()} == {"ENABLED"}
    stack.clock.advance(seconds=stack.settings.missed_after_seconds + 60)

    assert run(stack)["claims_closed"] == 1
    item = schedule_item(stack, sid)
    assert item["status"] == "paused" and item["status_reason"] == "failing"
    entries = stack.entries()
    assert entries and {e["State"] for e in entries.values()} == {"DISABLED"}
    assert_consistent(stack)


def test_a_live_one_shots_claim_is_left_to_the_missed_path(stack: Stack, tmp_path: Path) -> None:
    """A one-shot whose every attempt died is marked missed with its run when its entry is gone
    (Scheduler deletes it after firing); the sweep does not record a second run for it."""
    sid = ok(call(stack, "create_reminder", {"message": "m", "time": "2026-11-30 10:00"}))["id"]
    stack.clock.advance(hours=1)
    kill_every_attempt(stack, sid, tmp_path / "chat.jsonl", "claim")
    stack.clock.advance(seconds=stack.settings.missed_after_seconds)
    assert run(stack)["claims_closed"] == 0 and history(stack, sid) == []  # its entry is not gone yet
    stack.remove_entry(sid)
    report = run(stack)
    assert report["missed"] == 1 and report["claims_closed"] == 0
    assert [(r["outcome"], r["reason"]) for r in history(stack, sid)] == [("missed", "lost")]
    assert schedule_item(stack, sid)["status"] == "missed"
    assert run(stack)["claims_closed"] == 0
