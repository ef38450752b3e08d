"""The reconciler on a moto server: missing entries, orphans, missed one-shots, counters."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from typing import Any

from cronbell.usecases import tools
from cronbell.usecases.reconcile import reconcile
from tests.support.aws import Stack, template_yaml
from tests.support.chat import RecordingChat
from tests.support.envelopes import ROOM, envelope
from tests.support.tools import assert_consistent, call, fire_at, ok, schedule_item


def run(stack: Stack, chat: RecordingChat | None = None) -> dict[str, int]:
    """One reconciler pass on a stack whose entries the projector has brought up to date (it follows
    every write within seconds; the reconciler runs daily)."""
    stack.project()
    recorder = chat or RecordingChat()
    return reconcile(stack.deps(chat=lambda: recorder)).to_dict()


def item(stack: Stack, sid: str) -> dict[str, Any]:
    return schedule_item(stack, sid)


def test_nothing_to_do_on_a_consistent_stack(stack: Stack) -> None:
    ok(call(stack, "create_reminder", {"message": "a", "cron": "0 9 1 * 5"}))
    ok(call(stack, "create_reminder", {"message": "b", "time": "2026-12-01 09:00"}))
    stack.clock.advance(hours=1)
    report = run(stack)
    assert report["schedules"] == 2 and report["entries"] == 3
    assert report["recreated"] == report["orphans_deleted"] == report["missed"] == report["counters_repaired"] == 0


def test_missing_entries_are_recreated_after_the_grace_window(stack: Stack) -> None:
    sid = ok(call(stack, "create_reminder", {"message": "a", "cron": "0 9 1 * 5"}))["id"]
    stack.remove_entry(f"{sid}-2")
    assert run(stack)["recreated"] == 0  # just created: may be mid-operation
    stack.clock.advance(minutes=16)
    assert run(stack)["recreated"] == 1
    assert stack.entries()[f"{sid}-2"]["ScheduleExpression"] == item(stack, sid)["expressions"][1]
    assert_consistent(stack)


def test_orphan_entries_are_deleted_but_not_static_or_fresh_ones(stack: Stack) -> None:
    """The template's own schedules share the group (the reconciler's daily run among them): never orphans."""
    template_names = {
        r["Properties"]["Name"]
        for r in template_yaml()["Resources"].values()
        if r["Type"] == "AWS::Scheduler::Schedule"
    }
    assert {"daily-analysis", "cronbell-reconcile"} <= template_names
    stack.plant_entry("abcdefghjk")
    stack.plant_entry("abcdefghjk-2", owner="abcdefghjk")
    for name in template_names:
        stack.plant_entry(name)
    stack.clock.advance(minutes=16)
    report = run(stack)
    assert report["orphans_deleted"] == 2
    assert set(stack.entries()) == template_names


def test_fresh_orphan_is_left_alone(stack: Stack) -> None:
    stack.plant_entry("abcdefghjk")
    stack.clock.advance(minutes=10)
    assert run(stack)["orphans_deleted"] == 0 and "abcdefghjk" in stack.entries()


def test_lost_one_shot_is_marked_missed_with_one_notice(stack: Stack) -> None:
    sid = ok(call(stack, "create_reminder", {"message": "Llamar", "time": "2026-11-30 10:00"}, locale="es"))["id"]
    stack.remove_entry(sid)  # fired, never delivered
    stack.clock.advance(hours=2)
    assert run(stack)["missed"] == 0  # a Lambda retry may still deliver it
    stack.clock.advance(hours=7)
    chat = RecordingChat()
    with ThreadPoolExecutor(2) as pool:
        reports = list(pool.map(lambda _: run(stack, chat), range(2)))
    assert sum(r["missed"] for r in reports) == 1 and len(chat.sent) == 1
    message, _ = chat.sent[0]
    assert "Recordatorio perdido" in message.text and "Llamar" in message.text and message.room_id == ROOM
    assert "(era para el lunes 30 de noviembre, 10:00)" in message.text
    assert item(stack, sid)["status"] == "missed"
    assert_consistent(stack)
    # the occurrence that never reached the fire function is one run, missed/lost, in its history
    lost = {"scheduled_time": "2026-11-30T10:00:00+01:00", "outcome": "missed", "reason": "lost"}
    (found,) = ok(call(stack, "reminder_history", {"id": sid}))["runs"]
    unset = {"acknowledged_at": None, "repeats": 0, "escalated": False}  # a run that never repeated
    unset["moved_from"] = None  # nor moved
    assert found == {**lost, "manual": False, "late_seconds": 0, "message_id": None, **unset}
    assert {**item(stack, sid)["last_run"], **unset} == found  # stored without the unset repeat fields


def test_silent_policy_marks_without_notice(moto_endpoint: str, clock: Any) -> None:
    from tests.support.aws import provision

    stack = provision(moto_endpoint, clock, missed_policy="silent")
    sid = ok(call(stack, "create_reminder", {"message": "x", "time": "2026-11-30 10:00"}))["id"]
    stack.remove_entry(sid)
    stack.clock.advance(hours=9)
    chat = RecordingChat()
    assert run(stack, chat)["missed"] == 1 and chat.sent == []


def test_paused_entry_state_is_corrected(stack: Stack) -> None:
    sid = ok(call(stack, "create_reminder", {"message": "a", "cron": "0 9 * * *"}))["id"]
    ok(call(stack, "pause_reminder", {"id": sid}))
    stack.project()
    current = stack.scheduler.get_schedule(Name=sid, GroupName=stack.settings.schedule_group)
    kept = ("ScheduleExpression", "ScheduleExpressionTimezone", "ActionAfterCompletion", "Target", "Description")
    stack.scheduler.update_schedule(  # the same entry but its state
        Name=sid,
        GroupName=stack.settings.schedule_group,
        FlexibleTimeWindow={"Mode": "OFF"},
        State="ENABLED",
        **{field: current[field] for field in kept},
    )
    stack.clock.advance(minutes=16)
    report = run(stack)
    assert report["state_fixed"] == 1 and report["drift_repaired"] == report["recreated"] == 0
    assert stack.entries()[sid]["State"] == "DISABLED"


def test_stale_counter_is_repaired(stack: Stack) -> None:
    ok(call(stack, "create_reminder", {"message": "a", "cron": "0 9 * * *"}))
    stack.ddb.update_item(
        TableName=stack.settings.table_name,
        Key={"room_id": {"S": ROOM}, "sk": {"S": "room"}},
        UpdateExpression="SET live = :n",
        ExpressionAttributeValues={":n": {"N": "7"}},
    )
    stack.clock.advance(minutes=16)
    assert run(stack)["counters_repaired"] == 1
    assert_consistent(stack)
    answer = tools.handle(envelope("list_reminders"), stack.deps())
    assert len(answer["result"]["schedules"]) == 1


def test_a_missed_agent_call_is_named_never_quoted(stack: Stack) -> None:
    prompt = "Use the key sk-live-123 to pull the numbers"
    sid = ok(call(stack, "cron_create", {"name": "numbers", "prompt": prompt, "fire_at": "2026-11-30 10:00"}))["id"]
    stack.remove_entry(sid)
    stack.clock.advance(hours=9)
    chat = RecordingChat()
    assert run(stack, chat)["missed"] == 1
    [(message, _)] = chat.sent
    assert "numbers" in message.text and "sk-live-123" not in message.text and prompt not in message.text


def test_schedules_retired_under_their_live_key_move_to_their_retired_key(stack: Stack) -> None:
    """What deletes and fires left before retired schedules had keys of their own."""
    kept = ok(call(stack, "create_reminder", {"message": "keep", "cron": "0 9 * * *"}))["id"]
    old = ok(call(stack, "create_reminder", {"message": "old", "cron": "0 10 * * *"}))["id"]
    stack.project()
    stack.ddb.update_item(
        TableName=stack.settings.table_name,
        Key={"room_id": {"S": ROOM}, "sk": {"S": f"s#{old}"}},
        UpdateExpression="SET #s = :d, expires_at = :e",
        ExpressionAttributeNames={"#s": "status"},
        ExpressionAttributeValues={":d": {"S": "deleted"}, ":e": {"N": "4102444800"}},
    )
    stack.stream_records()  # its change never reached the projector (which would have moved it)
    stack.scheduler.delete_schedule(Name=old, GroupName=stack.settings.schedule_group)
    assert old not in stack.entries() and kept in stack.entries()
    before = item(stack, old)
    assert run(stack)["retired_moved"] == 1
    after = item(stack, old)
    assert after["sk"] == f"x#{old}" and {**after, "sk": before["sk"]} == before  # moved as it was
    assert [s["id"] for s in ok(call(stack, "list_reminders"))["schedules"]] == [kept]
    assert ok(call(stack, "reminder_history", {"id": old}))["id"] == old
    assert run(stack)["retired_moved"] == 0
    assert_consistent(stack)


def test_the_scan_leaves_run_records_on_the_server(stack: Stack) -> None:
    """Runs pile up (one per occurrence, kept for the retention days); the reconciler needs none of them, so
    its scan filters them out where they are stored: they are neither sent nor parsed, and nothing it
    repairs changes."""
    sid = ok(call(stack, "create_reminder", {"message": "daily", "cron": "0 9 * * *", "timezone": "UTC"}))["id"]
    for day in range(1, 6):
        assert fire_at(stack, sid, f"2026-12-0{day}T09:00:00Z")["outcome"] == "delivered"
    runs = [i for i in stack.items() if i["sk"].startswith("f#")]
    assert len(runs) == 5
    pages: list[dict[str, Any]] = []
    stack.ddb.meta.events.register("after-call.dynamodb.Scan", lambda parsed, **_: pages.append(parsed))
    report = run(stack)
    returned = [raw["sk"]["S"] for page in pages for raw in page["Items"]]
    assert returned and not [sk for sk in returned if sk.startswith("f#")]
    assert sum(page["ScannedCount"] for page in pages) == len(stack.items())  # every item was read
    assert report["schedules"] == 1 and report["recreated"] == report["counters_repaired"] == 0
    assert_consistent(stack)
