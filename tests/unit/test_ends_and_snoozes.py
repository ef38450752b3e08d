"""New ends that would leave a pending snooze unposted are refused naming the snooze, also when nothing else
is left before the new end; a schedule without a holiday calendar is never told to have fewer holidays."""

from __future__ import annotations

from datetime import UTC, datetime

from tests.support.memory_stack import MemoryStack


def test_an_end_before_a_snooze_that_is_all_that_is_left_names_the_snooze() -> None:
    stack = MemoryStack()
    stack.clock.current = datetime(2027, 3, 31, 16, 50, tzinfo=UTC)
    sid = stack.call("create_reminder", {"message": "stretch", "cron": "0 * * * *"}, timezone="UTC")["result"]["id"]
    assert stack.call("snooze_reminder", {"id": sid, "minutes": 30}, timezone="UTC")["ok"]  # 17:00 -> 17:30
    answer = stack.call("update_reminder", {"id": sid, "until": "2027-03-31T17:10:00Z"}, timezone="UTC")
    assert answer["error"]["code"] == "invalid_arguments"
    assert "snoozed to" in answer["error"]["message"] and "17:30" in answer["error"]["message"]
    assert "holidays" not in answer["error"]["message"]
    listed = stack.call("list_reminders", {}, timezone="UTC")["result"]["schedules"]
    assert listed[0].get("until") is None  # nothing changed


def test_an_end_before_the_first_fire_mentions_holidays_only_with_a_calendar() -> None:
    stack = MemoryStack()
    stack.clock.current = datetime(2027, 3, 31, 16, 50, tzinfo=UTC)
    plain = stack.call("create_reminder", {"message": "a", "cron": "0 9 * * *", "until": "2027-03-31T18:00:00Z"})
    assert plain["error"]["code"] == "invalid_arguments" and "holidays" not in plain["error"]["message"]
    arguments = {"message": "b", "cron": "0 9 * * *", "until": "2027-03-31T18:00:00Z", "skip_holidays": "ES"}
    with_calendar = stack.call("create_reminder", arguments)
    assert with_calendar["error"]["code"] == "invalid_arguments" and "holidays" in with_calendar["error"]["message"]


def test_refusals_of_business_day_rules_name_the_rule() -> None:
    stack = MemoryStack()
    weekends = {"message": "c", "cron": "0 9 * * 6,0", "skip_holidays": "ES", "business_days": True}
    refused = stack.call("create_reminder", weekends)["error"]
    assert refused["code"] == "invalid_arguments" and "weekend" in refused["message"]
    one_shot = stack.call("create_reminder", {"message": "d", "time": "in 2 hours"})["result"]["id"]
    answer = stack.call("update_reminder", {"id": one_shot, "business_days": True})["error"]
    assert answer["code"] == "invalid_arguments" and "`business_days`" in answer["message"]
