"""Invariant 1 under injected failures: a failure at any AWS call of create or delete leaves no
half-made schedule, and the answer says it failed. A crash leaves at most entries that fire
nothing."""

from __future__ import annotations

from typing import Any

import pytest

from cronbell.core.contract import errors
from cronbell.usecases import tools
from tests.support.aws import Stack
from tests.support.envelopes import envelope
from tests.support.faults import CallLog, Crash, faulty_deps
from tests.support.tools import assert_consistent, live_items, ok

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
        assert answer["error"]["code"] == errors.BACKEND_ERROR
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
        entries = stack.entries()
        for item in live_items(stack):
            assert item["id"] in entries  # never an active item that cannot fire
        for name in list(entries):  # leftover entries are orphans: clean them for the next round
            stack.scheduler.delete_schedule(Name=name, GroupName=stack.settings.schedule_group)
        for item in live_items(stack):
            ok(tools.handle(envelope("delete_reminder", {"id": item["id"]}), stack.deps()))


@pytest.mark.parametrize("failure", ["throttling", "500", "timeout"])
def test_delete_failure_at_each_call(stack: Stack, failure: str) -> None:
    sid = ok(tools.handle(envelope(*CREATES["two-entry cron"]), stack.deps()))["id"]
    log = CallLog()
    ok(tools.handle(envelope("delete_reminder", {"id": sid}), faulty_deps(stack, log)))
    calls = len(log.calls)
    for index in range(calls):
        sid = ok(tools.handle(envelope(*CREATES["two-entry cron"]), stack.deps()))["id"]
        log = CallLog(fail_at=index, failure=failure)
        answer = tools.handle(envelope("delete_reminder", {"id": sid}), faulty_deps(stack, log))
        name = log.calls[index]
        if name == "delete_item":
            # before the item changed: refused, nothing changed
            assert answer["ok"] is False and answer["error"]["code"] == errors.BACKEND_ERROR
            assert_consistent(stack)
            ok(tools.handle(envelope("delete_reminder", {"id": sid}), stack.deps()))
        else:
            # the item is deleted (it never posts again); the entry it could not remove is named
            result = ok(answer)
            assert result["entries_pending_cleanup"]
            assert live_items(stack) == []
            for leftover in result["entries_pending_cleanup"]:
                stack.scheduler.delete_schedule(Name=leftover, GroupName=stack.settings.schedule_group)
        assert_consistent(stack)


@pytest.mark.parametrize("case", sorted(CREATES))
def test_a_create_colliding_with_another_transaction_is_written_on_the_next_try(stack: Stack, case: str) -> None:
    tool, args = CREATES[case]
    entries = 2 if case == "two-entry cron" else 1
    reads = ["get_item"] if tool == "create_reminder" else []  # a reminder's user's quiet hours, read first
    log = CallLog(fail_at=len(reads) + entries, failure="conflict")  # the transaction after the entries
    result = ok(tools.handle(envelope(tool, args), faulty_deps(stack, log)))
    assert log.calls == reads + ["create_schedule"] * entries + ["transact_write_items"] * 2
    assert [item["id"] for item in live_items(stack)] == [result["id"]]
    assert_consistent(stack)


def test_a_delete_meeting_a_fires_transaction_waits_and_goes_through(stack: Stack) -> None:
    sid = ok(tools.handle(envelope(*CREATES["one-shot"]), stack.deps()))["id"]
    log = CallLog(fail_at=0, failure="item conflict")  # the claim of a fire holds the item
    ok(tools.handle(envelope("delete_reminder", {"id": sid}), faulty_deps(stack, log)))
    assert log.calls == ["delete_item", "delete_item", "delete_schedule"]
    assert live_items(stack) == [] and stack.entries() == {}
    assert_consistent(stack)
