"""What the tools show of schedules that are no longer live: fired, completed and deleted ones, in
the listing with `include_inactive` and in their history (a moto server and the fire use case)."""

from __future__ import annotations

from typing import Any

import pytest

from cronbell.core.domain.fire_event import parse_fire_event
from cronbell.usecases import fire as fire_uc
from cronbell.usecases import tools
from tests.support.aws import Stack
from tests.support.chat import RecordingChat
from tests.support.envelopes import ROOM, envelope
from tests.support.faults import CallLog, faulty_deps
from tests.support.lambda_timing import at_slot
from tests.support.tools import call, fire_at, ok


class Echo:
    configured = True

    def call(self, agent: str, request: dict[str, Any], timeout: int) -> str:
        return "echo: " + request["prompt"]


def fire_agent(stack: Stack, sid: str, slot: str) -> dict[str, Any]:
    """Fire one of ROOM's agent calls at `slot`, with an agent that echoes its prompt."""
    event = {"room_id": ROOM, "reminder_id": sid, "scheduled_time": slot}
    at_slot(stack.clock, event)
    chat = RecordingChat()
    return fire_uc.fire(parse_fire_event(event, stack.clock.now()), stack.deps(chat=lambda: chat, agents=Echo()))


def listed(stack: Stack, **kw: object) -> dict[str, dict]:
    return {s["id"]: s for s in ok(call(stack, "list_reminders", {"include_inactive": True}, **kw))["schedules"]}


def test_a_fired_or_completed_schedule_has_no_status_reason(stack: Stack) -> None:
    once = ok(call(stack, "create_reminder", {"message": "once", "time": "2026-11-30 09:30"}))["id"]
    counted = ok(call(stack, "create_reminder", {"message": "twice", "cron": "0 10 * * *", "count": 1}))["id"]
    fired = fire_at(stack, once, "2026-11-30T08:30:00Z")
    assert fired["outcome"] == "delivered"
    assert fire_at(stack, counted, "2026-11-30T09:00:00Z")["outcome"] == "delivered"
    shown = listed(stack)
    assert shown[once]["status"] == "fired" and shown[counted]["status"] == "completed"
    for sid in (once, counted):
        assert "status_reason" not in shown[sid], shown[sid]  # not the last message's id
        assert shown[sid]["last_run"]["outcome"] == "delivered"
    assert shown[once]["last_run"]["message_id"] == fired["message_id"]  # where the message id belongs


def test_the_history_of_a_fired_or_completed_schedule_is_found_by_its_name(stack: Stack) -> None:
    once = ok(call(stack, "cron_create", {"name": "Launch", "prompt": "p", "fire_at": "2026-11-30T08:30:00Z"}))["id"]
    counted = ok(call(stack, "cron_create", {"name": "Digest", "prompt": "q", "cron_expr": "0 10 * * *", "count": 1}))
    for sid, slot in ((once, "2026-11-30T08:30:00Z"), (counted["id"], "2026-11-30T09:00:00Z")):
        assert fire_agent(stack, sid, slot)["outcome"] == "delivered"
    shown = listed(stack)
    assert (shown[once]["status"], shown[counted["id"]]["status"]) == ("fired", "completed")
    for name, sid in (("launch", once), ("DIGEST", counted["id"])):
        history = ok(call(stack, "reminder_history", {"id": name}))
        assert history["id"] == sid and len(history["runs"]) == 1, history
    # a live schedule of the same name is the one a name finds
    again = ok(call(stack, "cron_create", {"name": "Launch", "prompt": "p2", "cron_expr": "0 12 * * *"}))["id"]
    assert ok(call(stack, "reminder_history", {"id": "launch"}))["id"] == again


def test_the_newest_of_several_retired_schedules_of_one_name_is_the_one_found(stack: Stack) -> None:
    first = ok(call(stack, "cron_create", {"name": "Launch", "prompt": "p", "fire_at": "2026-11-30T08:30:00Z"}))["id"]
    assert fire_agent(stack, first, "2026-11-30T08:30:00Z")["outcome"] == "delivered"
    second = ok(call(stack, "cron_create", {"name": "Launch", "prompt": "p", "fire_at": "2026-11-30T09:30:00Z"}))["id"]
    assert fire_agent(stack, second, "2026-11-30T09:30:00Z")["outcome"] == "delivered"
    assert ok(call(stack, "reminder_history", {"id": "Launch"}))["id"] == second


def test_a_deleted_schedule_listed_keeps_its_last_run(stack: Stack) -> None:
    sid = ok(call(stack, "create_reminder", {"message": "daily", "cron": "0 10 * * *"}))["id"]
    assert fire_at(stack, sid, "2026-11-30T09:00:00Z")["outcome"] == "delivered"
    ok(call(stack, "delete_reminder", {"id": sid}))
    shown = listed(stack)[sid]
    assert shown["status"] == "deleted"
    assert shown["last_run"] is not None and shown["last_run"]["outcome"] == "delivered"
    assert shown["last_run"]["scheduled_time"] == "2026-11-30T10:00:00+01:00"
    assert shown["fire_count"] == 1 and shown["last_fired"] is not None


@pytest.mark.parametrize("failure", ["throttling", "500", "timeout"])
def test_a_delete_whose_audit_copy_cannot_take_its_runs_is_still_a_delete(stack: Stack, failure: str) -> None:
    sid = ok(call(stack, "create_reminder", {"message": "daily", "cron": "0 10 * * *"}))["id"]
    assert fire_at(stack, sid, "2026-11-30T09:00:00Z")["outcome"] == "delivered"
    log = CallLog(fail_at=1, failure=failure)  # DeleteItem, then the audit copy's UpdateItem
    answer = tools.handle(envelope("delete_reminder", {"id": sid}), faulty_deps(stack, log))
    assert answer["ok"] and log.calls[:2] == ["delete_item", "update_item"], (answer, log.calls)
    assert listed(stack)[sid]["status"] == "deleted" and stack.entries() == {}
