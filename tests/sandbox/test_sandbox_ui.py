"""The console page is built from plain data: every text it shows is escaped, times are in each zone."""

from __future__ import annotations

from datetime import UTC, datetime

from sandbox.ui import Console, Room, moved_note, render

NOW = datetime(2030, 1, 7, 8, 0, tzinfo=UTC)


def console(**overrides: object) -> Console:
    values: dict[str, object] = {
        "now": NOW,
        "timezone": "Europe/Madrid",
        "virtual": True,
        "next_fire": datetime(2030, 1, 7, 9, 0, tzinfo=UTC),
        "rooms": [],
        "fires": [],
        "messages": [],
    }
    values.update(overrides)
    return Console(**values)  # type: ignore[arg-type]


def test_text_from_rooms_schedules_and_messages_is_escaped() -> None:
    hostile = '<script>alert("x")</script>'
    schedule = {"id": "abc", "preview": hostile, "description": hostile, "timezone": "UTC", "status": "active"}
    message = {"room_id": hostile, "text": hostile, "ts": "2030-01-07T07:59:00Z"}
    page = render(console(rooms=[Room(hostile, [schedule])], messages=[message]), note=hostile)
    assert "<script>" not in page
    assert page.count("&lt;script&gt;") >= 5


def test_times_are_shown_in_each_schedules_zone_and_the_clock_in_the_deployments() -> None:
    schedule = {
        "id": "abc",
        "preview": "stand-up",
        "timezone": "America/New_York",
        "status": "active",
        "next_fire": {"local": "2030-01-07T09:00:00-05:00", "utc": "2030-01-07T14:00:00Z"},
        "last_run": {"scheduled_time": "2030-01-06T09:00:00-05:00", "outcome": "failed", "reason": "chat_error"},
    }
    page = render(console(rooms=[Room("!r:x", [schedule])]))
    assert "2030-01-07 09:00" in page and "2030-01-06 09:00" in page
    assert 'class="tag failed">failed</span> (chat_error)' in page
    assert "Mon 07 Jan 2030 09:00:00" in page  # 08:00Z in Madrid
    assert "Next fire (Mon 07 Jan 10:00)" in page


def test_no_clock_buttons_with_the_real_clock_and_no_next_fire_button_when_nothing_is_due() -> None:
    assert "<button" not in render(console(virtual=False))
    assert 'id="move-next" disabled' in render(console(next_fire=None))


def test_moved_note_counts_fires_and_failures() -> None:
    fired = [{"ok": True}, {"ok": False}, {"ok": True}]
    assert moved_note({"now": "2030-01-07T09:00:00Z", "fired": fired}) == (
        "Clock moved to 2030-01-07T09:00:00Z: 3 fired, 1 failed"
    )
