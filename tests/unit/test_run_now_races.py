"""run_now meeting a change between its read and its write says what the schedule is now."""

from __future__ import annotations

from typing import Any

from cronbell.adapters.memory import MemoryStore
from cronbell.core.domain.models import Schedule
from tests.support.memory_stack import MemoryStack


class PausedMeanwhile(MemoryStore):
    """A store where `pause_reminder` lands just before run_now marks its run."""

    stack: MemoryStack

    def mark_manual_run(self, schedule: Schedule, slot: str, not_since: str) -> None:
        self.stack.call("pause_reminder", {"id": schedule.id})
        super().mark_manual_run(schedule, slot, not_since)


def test_run_now_that_meets_a_pause_says_the_schedule_is_paused_not_gone() -> None:
    store = PausedMeanwhile()
    stack = MemoryStack(store=store)
    store.stack = stack
    sid = stack.call("create_reminder", {"message": "stand up", "cron": "0 9 * * *"})["result"]["id"]
    answer: dict[str, Any] = stack.call("run_now", {"kind": "cron", "target": sid})
    assert not answer["ok"] and answer["error"]["code"] == "not_found"
    assert "paused" in answer["error"]["message"] and "resume it first" in answer["error"]["message"]
    assert stack.started == []  # nothing fired
    listed = stack.call("list_reminders", {})["result"]["schedules"]
    assert [s["status"] for s in listed] == ["paused"]
