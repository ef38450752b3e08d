"""Audit copies: every transaction that creates a schedule or changes its definition writes its copy
under `x#<id>`, so a user's delete removes the live item alone (two AWS calls) and still leaves the
schedule readable, as deleted, until the reconciler finalizes its copy."""

from __future__ import annotations

from typing import Any

from cronbell.usecases.reconcile import reconcile
from tests.support.aws import Stack
from tests.support.chat import RecordingChat
from tests.support.envelopes import ROOM
from tests.support.tools import assert_consistent, call, fire_at, ok

LEDGER = ("inflight_slot", "inflight_until", "inflight_attempts", "last_manual_run")  # live item only


def run(stack: Stack) -> dict[str, int]:
    return reconcile(stack.deps(chat=lambda: RecordingChat())).to_dict()


def stored(stack: Stack, sid: str) -> dict[str, dict[str, Any]]:
    """The schedule's items by key prefix: `s#` (live) and `x#` (audit or retired copy)."""
    return {i["sk"][:2]: i for i in stack.items() if i["sk"] in (f"s#{sid}", f"x#{sid}")}


def same_content(live: dict[str, Any], copy: dict[str, Any]) -> bool:
    def content(item: dict[str, Any]) -> dict[str, Any]:
        return {k: v for k, v in item.items() if k not in ("sk", *LEDGER)}

    return content(live) == content(copy)


def listed(stack: Stack, **args: Any) -> dict[str, str]:
    schedules = ok(call(stack, "list_reminders", args))["schedules"]
    assert len({s["id"] for s in schedules}) == len(schedules)  # none listed twice
    return {s["id"]: s["status"] for s in schedules}


def test_a_create_and_a_change_write_the_audit_copy_in_their_transaction(stack: Stack) -> None:
    sid = ok(call(stack, "create_reminder", {"message": "water", "cron": "0 9 * * *"}))["id"]
    items = stored(stack, sid)
    assert same_content(items["s#"], items["x#"]) and "expires_at" not in items["x#"]
    ok(call(stack, "update_reminder", {"id": sid, "message": "water the plants"}))
    items = stored(stack, sid)
    assert items["x#"]["text"] == "water the plants" and same_content(items["s#"], items["x#"])
    ok(call(stack, "pause_reminder", {"id": sid}))
    items = stored(stack, sid)
    assert items["x#"]["status"] == "paused" and same_content(items["s#"], items["x#"])


def test_a_deleted_schedule_reads_as_deleted_until_the_reconciler_finalizes_it(stack: Stack) -> None:
    kept = ok(call(stack, "create_reminder", {"message": "keep", "cron": "0 9 * * *"}))["id"]
    gone = ok(call(stack, "create_reminder", {"message": "gone", "cron": "0 10 * * *"}))["id"]
    ok(call(stack, "delete_reminder", {"id": gone}))
    assert set(stored(stack, gone)) == {"x#"} and stored(stack, gone)["x#"]["status"] == "active"
    assert listed(stack) == {kept: "active"}
    assert listed(stack, include_inactive=True) == {kept: "active", gone: "deleted"}
    refused = call(stack, "delete_reminder", {"id": gone})
    assert refused["error"]["code"] == "not_found" and "(it is deleted)" in refused["error"]["message"]
    snoozed = call(stack, "snooze_reminder", {"id": gone, "minutes": 10})
    assert snoozed["error"]["code"] == "not_found"  # a deleted schedule never comes back
    assert {k: v for k, v in ok(call(stack, "reminder_history", {"id": gone})).items() if k != "now"} == {
        "id": gone,
        "runs": [],
    }

    report = run(stack)
    assert report["deletes_finalized"] == 1 and report["audit_copied"] == 0
    final = stored(stack, gone)["x#"]
    assert final["status"] == "deleted" and int(final["expires_at"]) > stack.clock.now().timestamp()
    assert listed(stack, include_inactive=True) == {kept: "active", gone: "deleted"}
    assert run(stack)["deletes_finalized"] == 0
    assert_consistent(stack)


def test_a_copy_whose_live_item_stands_beside_it_is_never_finalized(stack: Stack) -> None:
    """A scan reads `s#` before `x#`: a schedule created in between looks deleted to it. The
    finalization checks, in its own transaction, that no live item is there."""
    sid = ok(call(stack, "create_reminder", {"message": "new", "cron": "0 9 * * *"}))["id"]
    store = stack.deps().store
    schedule = store.get(ROOM, sid)
    assert schedule is not None
    before = stored(stack, sid)
    assert store.finalize_deleted(schedule, stack.clock.now()) is False
    assert stored(stack, sid) == before


def test_live_schedules_written_before_audit_copies_get_theirs(stack: Stack) -> None:
    sid = ok(call(stack, "create_reminder", {"message": "old", "cron": "0 9 * * *"}))["id"]
    stack.ddb.delete_item(TableName=stack.settings.table_name, Key={"room_id": {"S": ROOM}, "sk": {"S": f"x#{sid}"}})
    report = run(stack)
    assert report["audit_copied"] == 1 and report["deletes_finalized"] == 0
    items = stored(stack, sid)
    assert same_content(items["s#"], items["x#"])
    assert run(stack)["audit_copied"] == 0
    ok(call(stack, "delete_reminder", {"id": sid}))
    assert listed(stack, include_inactive=True) == {sid: "deleted"}


def test_a_fired_one_shot_snoozed_back_to_life_has_its_audit_copy(stack: Stack) -> None:
    sid = ok(call(stack, "create_reminder", {"message": "x", "time": "2026-11-30 09:30"}))["id"]
    stack.clock.advance(minutes=30)
    assert fire_at(stack, sid, "2026-11-30T08:30:00Z")["outcome"] == "delivered"
    assert set(stored(stack, sid)) == {"x#"} and stored(stack, sid)["x#"]["status"] == "fired"
    stack.remove_entry(sid)
    ok(call(stack, "snooze_reminder", {"id": sid, "minutes": 10}))
    items = stored(stack, sid)
    assert items["s#"]["status"] == items["x#"]["status"] == "active" and "expires_at" not in items["x#"]
    assert same_content(items["s#"], items["x#"])
    ok(call(stack, "delete_reminder", {"id": sid}))
    assert listed(stack, include_inactive=True) == {sid: "deleted"}
    assert_consistent(stack)
