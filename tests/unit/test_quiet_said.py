"""How an answer says that quiet hours hold a schedule: its next fire, and the release of what is held; a
release before the next fire is an earlier occurrence's, and said so (it read as if the next fire were
held until before its own time)."""

from __future__ import annotations

from datetime import UTC, datetime

from tests.support.memory_stack import MemoryStack


def test_an_occurrence_held_now_is_said_apart_from_the_next_fire() -> None:
    stack = MemoryStack()  # Monday 30 November 2026, 09:00 in Madrid
    assert stack.call("set_quiet_hours", {"start": "22:00", "end": "07:30", "timezone": "Europe/Madrid"})["ok"]
    made = stack.call("create_reminder", {"message": "night", "cron": "0 23 * * *", "timezone": "Europe/Madrid"})
    sid = made["result"]["id"]
    coming = stack.call("list_reminders")["text"]
    assert "next Monday 30 November, 23:00, held by quiet hours until Tuesday 1 December, 07:30" in coming
    assert stack.fire(sid, "2026-11-30T22:00:00Z")["outcome"] == "held"
    stack.clock.current = datetime(2026, 11, 30, 22, 31, tzinfo=UTC)
    text = stack.call("list_reminders")["text"]
    assert (
        "next Tuesday 1 December, 23:00, an earlier occurrence held by quiet hours until Tuesday 1 December, 07:30"
        in text
    )
    spanish = stack.call("list_reminders", locale="es")["text"]
    assert "una vez anterior retenida por las horas de silencio hasta el martes 1 de diciembre, 07:30" in spanish, (
        spanish
    )
