"""update_reminder, pause/resume, snooze_reminder and skip_next on a moto server."""

from __future__ import annotations

from typing import Any

import pytest

from cronbell.core.domain import refusals
from cronbell.usecases import tools
from tests.support.aws import Stack
from tests.support.envelopes import envelope
from tests.support.faults import CallLog, faulty_deps
from tests.support.tools import assert_consistent, call, fire_at, live_items, ok


def item(stack: Stack, sid: str) -> dict[str, Any]:
    return next(i for i in stack.items() if i["sk"] == f"s#{sid}")


def test_update_time_keeps_the_id_and_moves_the_entry(stack: Stack) -> None:
    sid = ok(call(stack, "create_reminder", {"message": "Dentist", "time": "2026-12-01 09:00"}))["id"]
    result = ok(call(stack, "update_reminder", {"id": sid, "time": "2026-12-02 10:30", "message": "Dentist!"}))
    assert result["id"] == sid and result["next_fire"]["local"] == "2026-12-02T10:30:00+01:00"
    assert stack.entries()[sid]["ScheduleExpression"] == "at(2026-12-02T09:30:00)"
    assert item(stack, sid)["text"] == "Dentist!"
    assert_consistent(stack)


def test_update_one_shot_to_two_entry_cron_and_back(stack: Stack) -> None:
    sid = ok(call(stack, "create_reminder", {"message": "Pay", "time": "2026-12-01 09:00"}))["id"]
    ok(call(stack, "update_reminder", {"id": sid, "cron": "0 9 1 * 5"}))
    entries = stack.entries()
    assert set(entries) == {sid, f"{sid}-2"}
    assert all(e["ActionAfterCompletion"] == "NONE" for e in entries.values())
    assert entries[sid]["ScheduleExpressionTimezone"] == "Europe/Madrid"
    assert_consistent(stack)
    ok(call(stack, "update_reminder", {"id": sid, "time": "2026-12-03 08:00"}))
    entries = stack.entries()
    assert set(entries) == {sid} and entries[sid]["ActionAfterCompletion"] == "DELETE"
    assert_consistent(stack)


def test_update_timezone_of_recurring(stack: Stack) -> None:
    sid = ok(call(stack, "create_reminder", {"message": "x", "cron": "0 9 * * *"}))["id"]
    result = ok(call(stack, "update_reminder", {"id": sid, "timezone": "America/New_York"}))
    assert result["timezone"] == "America/New_York"
    assert stack.entries()[sid]["ScheduleExpressionTimezone"] == "America/New_York"


@pytest.mark.parametrize(
    ("args", "code"),
    [
        ({"prompt": "x"}, refusals.INVALID_ARGUMENTS),
        ({"target_agent": "echo"}, refusals.INVALID_ARGUMENTS),
        ({"time": "yesterday at noon"}, refusals.TIME_IN_PAST),
        ({"time": "2026-11-29 10:00"}, refusals.TIME_IN_PAST),
        ({"cron": "* * * * *"}, refusals.TOO_FREQUENT),
        ({"timezone": "Nowhere/Land"}, refusals.INVALID_TIMEZONE),
        ({}, refusals.INVALID_ARGUMENTS),
    ],
)
def test_update_refusals_change_nothing(stack: Stack, args: dict[str, Any], code: str) -> None:
    sid = ok(call(stack, "create_reminder", {"message": "x", "cron": "0 9 * * *"}))["id"]
    before, entries = stack.items(), stack.entries()
    answer = call(stack, "update_reminder", {"id": sid, **args})
    assert answer["ok"] is False and answer["error"]["code"] == code, answer
    assert stack.items() == before and stack.entries() == entries


def test_update_into_a_duplicate_is_refused(stack: Stack) -> None:
    ok(call(stack, "create_reminder", {"message": "a", "cron": "0 9 * * *"}))
    sid = ok(call(stack, "create_reminder", {"message": "b", "cron": "0 9 * * *"}))["id"]
    answer = call(stack, "update_reminder", {"id": sid, "message": "a"})
    assert answer["error"]["code"] == refusals.DUPLICATE
    assert item(stack, sid)["text"] == "b"
    assert_consistent(stack)


def test_update_other_rooms_schedule_is_not_found(stack: Stack) -> None:
    sid = ok(call(stack, "create_reminder", {"message": "a", "cron": "0 9 * * *"}))["id"]
    answer = tools.handle(envelope("update_reminder", {"id": sid, "message": "b"}, room="!other:x"), stack.deps())
    assert answer["error"]["code"] == refusals.NOT_FOUND


def test_update_agent_call_fields(stack: Stack) -> None:
    sid = ok(call(stack, "cron_create", {"name": "sum", "prompt": "p", "cron_expr": "0 18 * * *"}))["id"]
    result = ok(call(stack, "update_reminder", {"id": sid, "prompt": "new prompt", "name": "summary"}))
    assert result["name"] == "summary" and item(stack, sid)["prompt"] == "new prompt"
    assert call(stack, "update_reminder", {"id": sid, "channel": "!else:x"})["error"]["code"] == (
        refusals.FORBIDDEN_CHANNEL
    )
    assert call(stack, "update_reminder", {"id": sid, "message": "x"})["error"]["code"] == refusals.INVALID_ARGUMENTS


@pytest.mark.parametrize("failure", ["throttling", "500", "timeout"])
def test_update_failure_at_each_call_restores_everything(stack: Stack, failure: str) -> None:
    sid = ok(call(stack, "create_reminder", {"message": "Pay", "time": "2026-12-01 09:00"}))["id"]
    change = {"id": sid, "cron": "0 9 1 * 5"}
    probe = CallLog()
    ok(tools.handle(envelope("update_reminder", change), faulty_deps(stack, probe)))
    ok(tools.handle(envelope("update_reminder", {"id": sid, "time": "2026-12-01 09:00"}), stack.deps()))
    for fail_at in range(len(probe.calls)):
        before_items, before_entries = stack.items(), stack.entries()
        log = CallLog(fail_at=fail_at, failure=failure)
        answer = tools.handle(envelope("update_reminder", change), faulty_deps(stack, log))
        assert answer["ok"] is False and answer["error"]["code"] == refusals.BACKEND_ERROR, (fail_at, log.calls)
        assert stack.items() == before_items
        expressions = {
            k: (v["ScheduleExpression"], v["ScheduleExpressionTimezone"]) for k, v in stack.entries().items()
        }
        assert expressions == {
            k: (v["ScheduleExpression"], v["ScheduleExpressionTimezone"]) for k, v in before_entries.items()
        }
        assert_consistent(stack)


def test_pause_and_resume(stack: Stack) -> None:
    sid = ok(call(stack, "create_reminder", {"message": "x", "cron": "0 9 1 * 5"}))["id"]
    ok(call(stack, "pause_reminder", {"id": sid}))
    assert {e["State"] for e in stack.entries().values()} == {"DISABLED"}
    assert item(stack, sid)["status"] == "paused"
    listed = ok(call(stack, "list_reminders"))["schedules"][0]
    assert listed["enabled"] is False and listed["next_fire"] is None
    assert fire_at(stack, sid, "2026-12-04T08:00:00Z")["outcome"] == "paused"
    assert call(stack, "pause_reminder", {"id": sid})["error"]["code"] == refusals.INVALID_STATE
    result = ok(call(stack, "resume_reminder", {"id": sid}))
    assert result["enabled"] is True and result["next_fire"] is not None
    assert {e["State"] for e in stack.entries().values()} == {"ENABLED"}
    assert call(stack, "resume_reminder", {"id": sid})["error"]["code"] == refusals.INVALID_STATE
    assert_consistent(stack)


def test_paused_one_shot_past_its_time_cannot_resume(stack: Stack) -> None:
    sid = ok(call(stack, "create_reminder", {"message": "x", "time": "2026-11-30 10:00"}))["id"]
    ok(call(stack, "pause_reminder", {"id": sid}))
    stack.clock.advance(hours=2)
    assert call(stack, "resume_reminder", {"id": sid})["error"]["code"] == refusals.TIME_IN_PAST
    result = ok(call(stack, "snooze_reminder", {"id": sid, "minutes": 5}))
    assert result["status"] == "active"


def test_skip_next_skips_exactly_one_occurrence(stack: Stack) -> None:
    sid = ok(call(stack, "create_reminder", {"message": "x", "cron": "0 10 * * *"}))["id"]
    result = ok(call(stack, "skip_next", {"id": sid}))
    assert result["skipped"] == "2026-11-30T09:00:00Z"
    assert result["next_fire"]["local"] == "2026-12-01T10:00:00+01:00"
    assert fire_at(stack, sid, "2026-11-30T09:00:00Z")["outcome"] == "skipped"
    assert fire_at(stack, sid, "2026-12-01T09:00:00Z")["outcome"] == "delivered"
    one = ok(call(stack, "create_reminder", {"message": "y", "time": "2026-12-05 09:00"}))["id"]
    assert call(stack, "skip_next", {"id": one})["error"]["code"] == refusals.INVALID_STATE


def test_snooze_fired_one_shot_brings_it_back(stack: Stack) -> None:
    sid = ok(call(stack, "create_reminder", {"message": "x", "time": "2026-11-30 09:30"}))["id"]
    stack.clock.advance(minutes=30)
    assert fire_at(stack, sid, "2026-11-30T08:30:00Z")["outcome"] == "delivered"
    stack.remove_entry(sid)  # ActionAfterCompletion
    assert live_items(stack) == []
    result = ok(call(stack, "snooze_reminder", {"id": sid, "minutes": 10}))
    assert result["status"] == "active" and result["next_fire"]["utc"] == "2026-11-30T08:40:00Z"
    assert stack.entries()[sid]["ScheduleExpression"] == "at(2026-11-30T08:40:00)"
    assert_consistent(stack)
    assert fire_at(stack, sid, "2026-11-30T08:40:00Z")["outcome"] == "delivered"


def test_snooze_pending_one_shot_until_a_phrase(stack: Stack) -> None:
    sid = ok(call(stack, "create_reminder", {"message": "x", "time": "2026-11-30 12:00"}))["id"]
    result = ok(call(stack, "snooze_reminder", {"id": sid, "until": "tomorrow at 9"}))
    assert result["next_fire"]["local"] == "2026-12-01T09:00:00+01:00"


def test_snooze_recurring_moves_only_the_next_occurrence(stack: Stack) -> None:
    sid = ok(call(stack, "create_reminder", {"message": "x", "cron": "0 10 * * *"}))["id"]
    result = ok(call(stack, "snooze_reminder", {"id": sid, "minutes": 30}))
    assert [f["local"] for f in result["next_fires"]][:2] == [
        "2026-11-30T10:30:00+01:00",
        "2026-12-01T10:00:00+01:00",
    ]
    assert stack.entries()[f"{sid}-snooze"]["ScheduleExpression"] == "at(2026-11-30T09:30:00)"
    assert fire_at(stack, sid, "2026-11-30T09:00:00Z")["outcome"] == "skipped"
    assert fire_at(stack, sid, "2026-11-30T09:30:00Z")["outcome"] == "delivered"
    stack.remove_entry(f"{sid}-snooze")  # Scheduler's own: a one-time entry that fired
    ok(call(stack, "delete_reminder", {"id": sid}))
    assert stack.entries() == {}


def test_snoozes_add_up(stack: Stack) -> None:
    """Daily at 12:00, snoozed 60 minutes twice: 14:00, and 12:00 stays skipped."""
    sid = ok(call(stack, "create_reminder", {"message": "x", "cron": "0 12 * * *"}))["id"]
    assert ok(call(stack, "snooze_reminder", {"id": sid, "minutes": 60}))["next_fire"]["local"].endswith(
        "T13:00:00+01:00"
    )
    second = ok(call(stack, "snooze_reminder", {"id": sid, "minutes": 60}))
    assert second["next_fire"]["local"] == "2026-11-30T14:00:00+01:00"
    assert stack.entries()[f"{sid}-snooze"]["ScheduleExpression"] == "at(2026-11-30T13:00:00)"
    assert_consistent(stack)
    assert fire_at(stack, sid, "2026-11-30T11:00:00Z")["outcome"] == "skipped"
    assert fire_at(stack, sid, "2026-11-30T13:00:00Z")["outcome"] == "delivered"
    assert fire_at(stack, sid, "2026-12-01T11:00:00Z")["outcome"] == "delivered"


def test_skips_form_a_set(stack: Stack) -> None:
    sid = ok(call(stack, "create_reminder", {"message": "x", "cron": "0 10 * * *"}))["id"]
    assert ok(call(stack, "skip_next", {"id": sid}))["skipped"] == "2026-11-30T09:00:00Z"
    second = ok(call(stack, "skip_next", {"id": sid}))
    assert second["skipped"] == "2026-12-01T09:00:00Z"
    assert second["next_fire"]["local"] == "2026-12-02T10:00:00+01:00"
    assert fire_at(stack, sid, "2026-11-30T09:00:00Z")["outcome"] == "skipped"
    assert fire_at(stack, sid, "2026-12-01T09:00:00Z")["outcome"] == "skipped"
    assert fire_at(stack, sid, "2026-12-02T09:00:00Z")["outcome"] == "delivered"


def test_a_skipped_run_says_whether_skip_next_or_a_snooze_skipped_it(stack: Stack) -> None:
    sid = ok(call(stack, "create_reminder", {"message": "x", "cron": "0 10 * * *"}))["id"]
    assert ok(call(stack, "skip_next", {"id": sid}))["skipped"] == "2026-11-30T09:00:00Z"
    snoozed = ok(call(stack, "snooze_reminder", {"id": sid, "minutes": 30}))  # the next one, 1 Dec
    assert snoozed["next_fire"]["local"] == "2026-12-01T10:30:00+01:00"
    assert fire_at(stack, sid, "2026-11-30T09:00:00Z")["outcome"] == "skipped"
    assert fire_at(stack, sid, "2026-12-01T09:00:00Z")["outcome"] == "skipped"
    assert fire_at(stack, sid, "2026-12-01T09:30:00Z")["outcome"] == "delivered"
    runs = ok(call(stack, "reminder_history", {"id": sid}))["runs"]
    assert [(r["scheduled_time"], r["outcome"], r["reason"]) for r in runs] == [
        ("2026-12-01T10:30:00+01:00", "delivered", None),
        ("2026-12-01T10:00:00+01:00", "skipped", "snoozed"),
        ("2026-11-30T10:00:00+01:00", "skipped", "skip_next"),
    ]
