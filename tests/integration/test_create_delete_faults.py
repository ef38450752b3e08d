"""Invariant 1 under injected failures: a failure at any AWS call of create or delete leaves no
half-made schedule, and the answer says it failed. A tool call writes items only; a failure of
Scheduler belongs to the projection of the change, which raises (the stream delivers the change
again) or, refused, ends the schedule failed: never a live schedule without its entries."""

from __future__ import annotations

from typing import Any

import pytest

from cronbell.adapters.dynamo.codec import stream_change
from cronbell.core.domain import refusals
from cronbell.usecases import tools
from cronbell.usecases.project import apply
from tests.support.aws import Stack
from tests.support.envelopes import envelope
from tests.support.faults import CallLog, Crash, faulty_deps
from tests.support.tools import assert_consistent, call, live_items, ok, schedule_item

CREATES = {
    "one-shot": ("create_reminder", {"message": "x", "time": "2026-12-01 09:00"}),
    "two-entry cron": ("create_reminder", {"message": "x", "cron": "0 9 1 * 5"}),
    "cron_create": ("cron_create", {"name": "n", "prompt": "p", "cron_expr": "0 18 * * *"}),
}


def count_calls_again(stack: Stack, tool: str, args: dict[str, Any]) -> int:
    """The calls of creating a schedule that was created and deleted before, which is what every
    round below does: its dedupe pointer still names the deleted one (deletes free it lazily)."""
    for _ in range(2):
        log = CallLog()
        ok(tools.handle(envelope(tool, args), faulty_deps(stack, log)))
        ok(tools.handle(envelope("delete_reminder", {"id": live_items(stack)[0]["id"]}), stack.deps()))
    return len(log.calls)


@pytest.mark.parametrize("case", sorted(CREATES))
@pytest.mark.parametrize("failure", ["throttling", "500", "timeout"])
def test_create_failure_at_each_call(stack: Stack, case: str, failure: str) -> None:
    tool, args = CREATES[case]
    for index in range(count_calls_again(stack, tool, args)):
        log = CallLog(fail_at=index, failure=failure)
        answer = tools.handle(envelope(tool, args), faulty_deps(stack, log))
        assert answer["ok"] is False, (index, log.calls)
        assert answer["error"]["code"] == refusals.BACKEND_ERROR
        assert live_items(stack) == []
        assert stack.entries() == {}
        assert_consistent(stack)


@pytest.mark.parametrize("case", sorted(CREATES))
def test_create_crash_after_each_call_never_leaves_a_live_item_without_entries(stack: Stack, case: str) -> None:
    tool, args = CREATES[case]
    for index in range(count_calls_again(stack, tool, args)):
        log = CallLog(crash_after=index)
        with pytest.raises(Crash):
            tools.handle(envelope(tool, args), faulty_deps(stack, log))
        assert not [name for name in log.calls if not name.endswith(("_item", "_items"))]  # DynamoDB only
        entries = stack.entries()
        for item in live_items(stack):
            assert item["id"] in entries  # never an active item that cannot fire
        assert_consistent(stack)
        for item in live_items(stack):
            ok(tools.handle(envelope("delete_reminder", {"id": item["id"]}), stack.deps()))


def projector_calls(stack: Stack, tool: str, args: dict[str, Any]) -> int:
    """The Scheduler calls of projecting a create (the item written without fault)."""
    ok(tools.handle(envelope(tool, args), stack.deps()))
    log = CallLog()
    for record in stack.stream_records():
        apply(stream_change(record), faulty_deps(stack, log))
    ok(call(stack, "delete_reminder", {"id": live_items(stack)[0]["id"]}))
    stack.project()
    return len(log.calls)


@pytest.mark.parametrize("case", sorted(CREATES))
@pytest.mark.parametrize("failure", ["throttling", "500", "timeout"])
def test_a_projection_failing_at_each_call_raises_and_delivered_again_writes_the_entries(
    stack: Stack, case: str, failure: str
) -> None:
    """The create is answered ok once its item is written; a Scheduler failure while projecting it
    raises, so the stream delivers the change again, and that delivery writes every entry."""
    tool, args = CREATES[case]
    for index in range(projector_calls(stack, tool, args)):
        sid = ok(tools.handle(envelope(tool, args), stack.deps()))["id"]
        records = stack.stream_records()
        log = CallLog(fail_at=index, failure=failure)
        with pytest.raises(Exception):  # noqa: B017 (whatever the failure, the change is not done)
            for record in records:
                apply(stream_change(record), faulty_deps(stack, log))
        for record in records:  # the stream's next delivery of the same records
            apply(stream_change(record), stack.deps())
        assert schedule_item(stack, sid)["status"] == "active"
        assert_consistent(stack)
        ok(call(stack, "delete_reminder", {"id": sid}))
        assert stack.entries() == {}


class Events:
    def __init__(self) -> None:
        self.sent: list[tuple[str, dict[str, Any]]] = []

    def publish(self, detail_type: str, detail: dict[str, Any]) -> None:
        self.sent.append((detail_type, detail))


@pytest.mark.parametrize("case", sorted(CREATES))
def test_a_projection_scheduler_refuses_ends_the_schedule_failed(stack: Stack, case: str) -> None:
    """Scheduler refuses an entry as it is (validation, a quota): the schedule is listed failed,
    `scheduler_refused`, with its event; it is never left active without its entries."""
    tool, args = CREATES[case]
    sid = ok(tools.handle(envelope(tool, args), stack.deps()))["id"]
    log = CallLog(fail_at=0, failure="refused")  # a new entry is created at once: CreateSchedule is refused
    events = Events()
    deps = faulty_deps(stack, log)
    deps.events = events
    for record in stack.stream_records():
        apply(stream_change(record), deps)
    assert log.calls[:1] == ["create_schedule"]
    item = schedule_item(stack, sid)
    assert (item["status"], item["status_reason"]) == ("failed", "scheduler_refused")
    [(kind, detail)] = events.sent
    assert kind == "Schedule Failed" and detail["schedule_id"] == sid
    assert (detail["status"], detail["status_reason"]) == ("failed", "scheduler_refused")
    listed = ok(call(stack, "list_reminders", {"include_inactive": True}))["schedules"]
    assert [(s["id"], s["status"]) for s in listed] == [(sid, "failed")]
    assert live_items(stack) == [] and stack.entries() == {}  # its retirement projected: nothing left
    assert_consistent(stack)


@pytest.mark.parametrize("failure", ["throttling", "500", "timeout"])
def test_delete_failure_at_each_call(stack: Stack, failure: str) -> None:
    """A delete is one write of the item: failed, it is refused and changes nothing; done, its
    projection removes the entries."""
    sid = ok(tools.handle(envelope(*CREATES["two-entry cron"]), stack.deps()))["id"]
    log = CallLog()
    ok(tools.handle(envelope("delete_reminder", {"id": sid}), faulty_deps(stack, log)))
    assert log.calls == ["delete_item"]
    sid = ok(tools.handle(envelope(*CREATES["two-entry cron"]), stack.deps()))["id"]
    stack.project()
    log = CallLog(fail_at=0, failure=failure)
    answer = tools.handle(envelope("delete_reminder", {"id": sid}), faulty_deps(stack, log))
    assert answer["ok"] is False and answer["error"]["code"] == refusals.BACKEND_ERROR
    assert [i["id"] for i in live_items(stack)] == [sid] and len(stack.entries()) == 2
    assert_consistent(stack)
    ok(tools.handle(envelope("delete_reminder", {"id": sid}), stack.deps()))
    assert live_items(stack) == [] and stack.entries() == {}
    assert_consistent(stack)


@pytest.mark.parametrize("case", sorted(CREATES))
def test_a_create_colliding_with_another_transaction_is_written_on_the_next_try(stack: Stack, case: str) -> None:
    tool, args = CREATES[case]
    reads = ["get_item"] if tool == "create_reminder" else []  # a reminder's user's quiet hours, read first
    log = CallLog(fail_at=len(reads), failure="conflict")  # its one transaction
    result = ok(tools.handle(envelope(tool, args), faulty_deps(stack, log)))
    assert log.calls == reads + ["transact_write_items"] * 2
    assert [item["id"] for item in live_items(stack)] == [result["id"]]
    assert_consistent(stack)


def test_a_delete_meeting_a_fires_transaction_waits_and_goes_through(stack: Stack) -> None:
    sid = ok(tools.handle(envelope(*CREATES["one-shot"]), stack.deps()))["id"]
    log = CallLog(fail_at=0, failure="item conflict")  # the claim of a fire holds the item
    ok(tools.handle(envelope("delete_reminder", {"id": sid}), faulty_deps(stack, log)))
    assert log.calls == ["delete_item", "delete_item"]  # its entry goes with the projection
    assert live_items(stack) == [] and stack.entries() == {}
    assert_consistent(stack)
