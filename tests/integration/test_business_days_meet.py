"""Business days where they meet changes: an occurrence that `on_holiday` moved and that ran is not
run again when a change moves it elsewhere (a moto server; the clock starts on Monday 30 Nov 2026,
09:00 in Madrid; Friday 25 December 2026 is a holiday in Spain)."""

from __future__ import annotations

from datetime import UTC, datetime

from tests.support.aws import Stack
from tests.support.chat import RecordingChat
from tests.support.tools import call, fire_at, ok


def test_an_occurrence_moved_and_run_is_not_run_again_after_on_holiday_changes(stack: Stack) -> None:
    args = {"message": "pay", "cron": "0 9 25 12 *", "skip_holidays": "ES", "on_holiday": "before"}
    sid = ok(call(stack, "create_reminder", args))["id"]
    chat = RecordingChat()
    assert fire_at(stack, sid, "2026-12-24T08:00:00Z", chat)["outcome"] == "delivered"  # 25 Dec moved to the 24th
    stack.clock.current = datetime(2026, 12, 24, 10, tzinfo=UTC)
    changed = ok(call(stack, "update_reminder", {"id": sid, "on_holiday": "after"}))
    assert changed["next_fire"]["local"].startswith("2027-")  # 25 Dec 2026 ran: next year's is next
    assert fire_at(stack, sid, "2026-12-28T08:00:00Z", chat)["outcome"] == "off_interval"
    runs = ok(call(stack, "reminder_history", {"id": sid}))["runs"]
    assert [r["moved_from"] for r in runs] == ["2026-12-25T09:00:00+01:00"]  # one run for that occurrence
    assert len(chat.sent) == 1


def moved_and_run(stack: Stack, chat: RecordingChat) -> str:
    """25 December 2026 moved `before` and delivered on the 24th; the clock at 10:00 that day."""
    args = {"message": "pay", "cron": "0 9 25 12 *", "skip_holidays": "ES", "on_holiday": "before"}
    sid = ok(call(stack, "create_reminder", args))["id"]
    assert fire_at(stack, sid, "2026-12-24T08:00:00Z", chat)["outcome"] == "delivered"
    stack.clock.current = datetime(2026, 12, 24, 10, tzinfo=UTC)
    return sid


def test_an_occurrence_moved_and_run_records_no_holiday_run_after_on_holiday_becomes_skip(stack: Stack) -> None:
    chat = RecordingChat()
    sid = moved_and_run(stack, chat)
    ok(call(stack, "update_reminder", {"id": sid, "on_holiday": "skip"}))
    assert fire_at(stack, sid, "2026-12-25T08:00:00Z", chat)["outcome"] == "off_interval"
    runs = ok(call(stack, "reminder_history", {"id": sid}))["runs"]
    assert [(r["outcome"], r["moved_from"]) for r in runs] == [("delivered", "2026-12-25T09:00:00+01:00")]
    assert len(chat.sent) == 1


def test_an_occurrence_moved_and_run_is_neither_skipped_nor_snoozed_by_name_where_it_moved(stack: Stack) -> None:
    chat = RecordingChat()
    sid = moved_and_run(stack, chat)
    ok(call(stack, "update_reminder", {"id": sid, "on_holiday": "after"}))
    monday = "2026-12-28T09:00:00+01:00"
    skip = call(stack, "skip_next", {"id": sid, "occurrence": monday})
    assert skip["ok"] is False and skip["error"]["code"] == "invalid_state", skip  # run already
    snooze = call(stack, "snooze_reminder", {"id": sid, "minutes": 10, "occurrence": monday})
    assert snooze["ok"] is False and snooze["error"]["code"] == "invalid_arguments", snooze  # no coming one
    skipped = ok(call(stack, "skip_next", {"id": sid}))  # the next one is next year's
    assert skipped["skipped"].startswith("2027-")
