"""run_now meeting a change between its read and its write says what the schedule is now."""

from __future__ import annotations

from typing import Any

from cronbell.adapters.memory import MemoryStore
from cronbell.core.domain.models import Schedule
from cronbell.core.text import texts
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
    assert not answer["ok"] and answer["error"]["code"] == "invalid_state"  # there, but not running
    assert "paused" in answer["error"]["message"] and "resume it first" in answer["error"]["message"]
    assert stack.started == []  # nothing fired
    listed = stack.call("list_reminders", {})["result"]["schedules"]
    assert [s["status"] for s in listed] == ["paused"]


def test_run_now_on_a_paused_schedule_says_what_the_bots_tools_can_do() -> None:
    """A paused schedule is there but not running: `invalid_state`, not `not_found` (which sends a model to
    list again for an id that is right). A deployment showing the essential set, which cannot resume, says to
    delete it and create it again."""
    stack = MemoryStack()
    sid = stack.call("create_reminder", {"message": "stand up", "cron": "0 9 * * *"})["result"]["id"]
    stack.call("pause_reminder", {"id": sid})
    full: dict[str, Any] = stack.call("run_now", {"kind": "cron", "target": sid})
    assert full["error"]["code"] == "invalid_state" and "resume_reminder" in full["error"]["message"]
    before = texts.show_tool_set("essential")
    try:
        essential: dict[str, Any] = stack.call("run_now", {"kind": "cron", "target": sid}, locale="es")
    finally:
        texts.show_tool_set(before)
    assert essential["error"]["code"] == "invalid_state"
    assert "elimínala y créala de nuevo" in essential["text"] and "resume" not in essential["text"]
    assert stack.started == []
