"""A snooze's answer says when quiet hours will hold the snoozed post, as every other answer about a
schedule does (the text a model relays is the user's only word on when it comes)."""

from __future__ import annotations

from datetime import UTC, datetime

from tests.support.memory_stack import MemoryStack


def test_a_snooze_into_quiet_hours_says_the_post_is_held_until_their_end() -> None:
    stack = MemoryStack()
    stack.clock.current = datetime(2027, 3, 8, 11, 31, tzinfo=UTC)
    assert stack.call("set_quiet_hours", {"start": "12:00", "end": "13:00"}, timezone="UTC")["ok"]
    sid = stack.call("create_reminder", {"message": "daily", "cron": "50 11 * * *"}, timezone="UTC")["result"]["id"]
    answer = stack.call("snooze_reminder", {"id": sid, "minutes": 15}, timezone="UTC")
    assert answer["result"]["held_until"].startswith("2027-03-08T13:00")
    assert "to Monday 8 March, 12:05, held by quiet hours until Monday 8 March, 13:00." in answer["text"]
    es = stack.call("snooze_reminder", {"id": sid, "minutes": 5}, timezone="UTC", locale="es")
    assert "retenido por las horas de silencio hasta el" in es["text"]
