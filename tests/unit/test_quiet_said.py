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


def test_pausing_while_an_occurrence_is_held_says_it_is_still_posted_and_shows_its_release() -> None:
    """The pause answered only id and status, and said the schedule would not fire, while the release still
    posts what the quiet hours hold (docs/semantics.md); it now answers the schedule as listed, release too."""
    stack = MemoryStack()  # Monday 30 November 2026, 09:00 in Madrid
    assert stack.call("set_quiet_hours", {"start": "22:00", "end": "07:30", "timezone": "Europe/Madrid"})["ok"]
    made = stack.call("create_reminder", {"message": "night", "cron": "0 23 * * *", "timezone": "Europe/Madrid"})
    sid = made["result"]["id"]
    assert stack.fire(sid, "2026-11-30T22:00:00Z")["outcome"] == "held"
    paused = stack.call("pause_reminder", {"id": sid})
    assert paused["result"]["status"] == "paused"
    assert paused["result"]["held_until"] == stack.call("list_reminders")["result"]["schedules"][0]["held_until"]
    assert paused["result"]["held_until"] is not None
    assert "still posted at their end, Tuesday 1 December, 07:30." in paused["text"], paused["text"]
    other = stack.call("create_reminder", {"message": "day", "cron": "0 12 * * *", "timezone": "Europe/Madrid"})
    plain = stack.call("pause_reminder", {"id": other["result"]["id"]})
    assert plain["result"]["held_until"] is None and "will not fire until resumed." in plain["text"]


def test_snoozing_an_occurrence_quiet_hours_hold_is_refused_as_not_delivered_yet() -> None:
    """docs/semantics.md, "Changes": an occurrence not delivered is `invalid_state`; a held one was refused as
    no occurrence of the schedule (`invalid_arguments`), which it is."""
    stack = MemoryStack()  # Monday 30 November 2026, 09:00 in Madrid
    assert stack.call("set_quiet_hours", {"start": "22:00", "end": "07:30", "timezone": "Europe/Madrid"})["ok"]
    made = stack.call("create_reminder", {"message": "night", "cron": "0 23 * * *", "timezone": "Europe/Madrid"})
    sid = made["result"]["id"]
    assert stack.fire(sid, "2026-11-30T22:00:00Z")["outcome"] == "held"
    stack.clock.current = datetime(2026, 11, 30, 22, 30, tzinfo=UTC)
    refused = stack.call("snooze_reminder", {"id": sid, "minutes": 10, "occurrence": "2026-11-30T22:00:00Z"})
    assert refused["error"]["code"] == "invalid_state", refused
    assert "held by quiet hours until Tuesday 1 December 2026, 07:30, when it is posted" in refused["error"]["message"]
    other = stack.call("snooze_reminder", {"id": sid, "minutes": 10, "occurrence": "2026-11-30T21:00:00Z"})
    assert other["error"]["code"] == "invalid_arguments"  # no occurrence of its own at 22:00 Madrid
