"""Refusals say times as every other answer does, in the schedule's zone (the UTC instant stays in
`details`)."""

from __future__ import annotations

from tests.support.memory_stack import MemoryStack


def test_run_now_too_soon_says_the_last_manual_run_in_the_schedule_s_zone() -> None:
    stack = MemoryStack()  # Monday 30 November 2026, 09:00 in Madrid
    made = stack.call("create_reminder", {"message": "x", "cron": "0 10 * * *", "timezone": "Europe/Madrid"})
    assert stack.call("run_now", {"target": made["result"]["id"]})["ok"]
    refused = stack.call("run_now", {"target": made["result"]["id"]})["error"]
    assert refused["code"] == "too_frequent" and refused["details"]["last_run"] == "2026-11-30T08:00:00Z"
    assert "run by hand at Monday 30 November, 09:00;" in refused["message"]
