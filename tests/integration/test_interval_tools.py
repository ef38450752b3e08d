"""Every N weeks and every N days through the tools and the fire use case, stored on a moto server.

The test clock starts on Monday 30 November 2026 at 09:00 in Madrid."""

from __future__ import annotations

from typing import Any

from tests.support.aws import Stack
from tests.support.chat import RecordingChat
from tests.support.tools import assert_consistent, call, fire_at, ok, schedule_item

EVERY_OTHER_MONDAY = {"message": "Sprint review", "cron": "every other monday at 10"}


def item(stack: Stack, sid: str) -> dict[str, Any]:
    return schedule_item(stack, sid)


def slots(stack: Stack, sid: str) -> list[str]:
    return sorted(i["sk"] for i in stack.items() if i["sk"].startswith(f"f#{sid}#"))


def test_every_other_monday_is_stored_as_a_weekly_entry_and_read_back_with_its_interval(stack: Stack) -> None:
    created = ok(call(stack, "create_reminder", EVERY_OTHER_MONDAY))
    sid = created["id"]
    assert created["schedule"] == "every 2 weeks on Mon at 10:00 from 2026-11-30"
    assert created["description"] == "every 2 weeks on Monday at 10:00, from 2026-11-30"
    assert [t["local"] for t in created["next_fires"]] == [
        "2026-11-30T10:00:00+01:00",
        "2026-12-14T10:00:00+01:00",
        "2026-12-28T10:00:00+01:00",
    ]
    entry = stack.entries()[sid]
    assert (entry["ScheduleExpression"], entry["ScheduleExpressionTimezone"]) == ("cron(0 10 ? * 2 *)", "Europe/Madrid")
    stored = item(stack, sid)
    assert stored["cron"] == "0 10 * * 1" and stored["cron_source"] == "every other monday at 10"
    assert stored["interval"] == {"every": 2, "unit": "weeks", "anchor": "2026-11-30"}
    (listed,) = ok(call(stack, "list_reminders"))["schedules"]
    assert listed["schedule"] == created["schedule"] and listed["next_fires"] == created["next_fires"]
    assert_consistent(stack)


def test_an_agent_call_every_three_days_in_spanish(stack: Stack) -> None:
    created = call(
        stack, "cron_create", {"name": "resumen", "prompt": "resume", "cron_expr": "cada 3 días a las 9"}, locale="es"
    )
    sid = ok(created)["id"]
    assert "cada 3 días a las 09:00, desde el 2026-12-01" in created["text"], created["text"]
    (listed,) = ok(call(stack, "cron_list"))
    assert listed["id"] == sid and listed["cron_expr"] == "every 3 days at 09:00 from 2026-12-01"
    assert listed["next_fire"] == "2026-12-01T09:00:00+01:00"  # 09:00 today is not after now: it starts tomorrow
    assert stack.entries()[sid]["ScheduleExpression"] == "cron(0 9 * * ? *)"
    assert item(stack, sid)["interval"] == {"every": 3, "unit": "days", "anchor": "2026-12-01"}


def test_the_off_week_posts_nothing_records_no_run_and_claims_no_slot(stack: Stack) -> None:
    sid = ok(call(stack, "create_reminder", EVERY_OTHER_MONDAY))["id"]
    chat = RecordingChat()
    assert fire_at(stack, sid, "2026-11-30T09:00:00Z", chat)["outcome"] == "delivered"
    first_run = item(stack, sid)["last_run"]
    assert fire_at(stack, sid, "2026-12-07T09:00:00Z", chat)["outcome"] == "off_interval"
    assert len(chat.sent) == 1 and slots(stack, sid) == [f"f#{sid}#2026-11-30T09:00:00Z"]
    assert item(stack, sid)["last_run"] == first_run
    assert fire_at(stack, sid, "2026-12-14T09:00:00Z", chat)["outcome"] == "delivered"
    runs = ok(call(stack, "reminder_history", {"id": sid}))["runs"]
    assert [r["scheduled_time"] for r in runs] == ["2026-12-14T10:00:00+01:00", "2026-11-30T10:00:00+01:00"]
    assert len(chat.sent) == 2


def test_the_anchor_survives_unrelated_updates_and_a_new_zone_and_a_new_recurrence_re_anchors(stack: Stack) -> None:
    sid = ok(call(stack, "create_reminder", EVERY_OTHER_MONDAY))["id"]
    stack.clock.advance(days=7)  # Monday 7 December, an off week
    ok(call(stack, "update_reminder", {"id": sid, "message": "Sprint review (room 2)"}))
    assert item(stack, sid)["interval"]["anchor"] == "2026-11-30"
    moved = ok(call(stack, "update_reminder", {"id": sid, "timezone": "America/New_York"}))
    assert item(stack, sid)["interval"]["anchor"] == "2026-11-30"
    assert moved["next_fire"]["local"] == "2026-12-14T10:00:00-05:00"
    again = ok(call(stack, "update_reminder", {"id": sid, "cron": "every other monday at 10"}))
    assert item(stack, sid)["interval"]["anchor"] == "2026-12-07"  # today 10:00 New York is still ahead
    assert again["next_fire"]["local"] == "2026-12-07T10:00:00-05:00"
    assert_consistent(stack)


def test_skip_next_and_snooze_move_the_next_real_occurrence(stack: Stack) -> None:
    sid = ok(call(stack, "create_reminder", EVERY_OTHER_MONDAY))["id"]
    skipped = ok(call(stack, "skip_next", {"id": sid}))
    assert skipped["skipped"] == "2026-11-30T09:00:00Z"
    assert skipped["next_fire"]["local"] == "2026-12-14T10:00:00+01:00"
    snoozed = ok(call(stack, "snooze_reminder", {"id": sid, "minutes": 30}))
    assert [t["local"] for t in snoozed["next_fires"]] == [
        "2026-12-14T10:30:00+01:00",
        "2026-12-28T10:00:00+01:00",
        "2027-01-11T10:00:00+01:00",
    ]
    assert_consistent(stack)


def test_the_same_weeks_are_one_schedule_and_the_other_weeks_another(stack: Stack) -> None:
    first = ok(call(stack, "create_reminder", EVERY_OTHER_MONDAY))
    assert ok(call(stack, "create_reminder", EVERY_OTHER_MONDAY))["duplicate"] is True
    read_back = {"message": "Sprint review", "cron": first["schedule"]}  # 'every 2 weeks on Mon at 10:00 from ...'
    again = ok(call(stack, "create_reminder", read_back))
    assert again["duplicate"] is True and again["id"] == first["id"]
    stack.clock.advance(days=7)  # Monday 7 December: the same words now start on the other weeks
    other = ok(call(stack, "create_reminder", EVERY_OTHER_MONDAY))
    assert other["duplicate"] is False and other["next_fire"]["local"] == "2026-12-07T10:00:00+01:00"
    assert_consistent(stack)


def test_a_paused_schedule_records_its_real_occurrences_only(stack: Stack) -> None:
    """An entry left enabled while paused: its occurrence is a `skipped`, `paused` run; its off week is nothing."""
    sid = ok(call(stack, "create_reminder", EVERY_OTHER_MONDAY))["id"]
    ok(call(stack, "pause_reminder", {"id": sid}))
    chat = RecordingChat()
    assert fire_at(stack, sid, "2026-11-30T09:00:00Z", chat)["outcome"] == "paused"
    assert fire_at(stack, sid, "2026-12-07T09:00:00Z", chat)["outcome"] == "off_interval"
    runs = ok(call(stack, "reminder_history", {"id": sid}))["runs"]
    assert [(r["scheduled_time"], r["outcome"], r["reason"]) for r in runs] == [
        ("2026-11-30T10:00:00+01:00", "skipped", "paused")
    ]
    assert chat.sent == []
