"""The console page is built from plain data: every text it shows is escaped, times are in each zone."""

from __future__ import annotations

from datetime import UTC, datetime

from sandbox.ui import Console, Room, moved_note, render
from tests.support.html import parse_html

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
    assert 'name="move"' not in render(console(virtual=False))
    assert 'id="move-next" disabled' in render(console(next_fire=None))


def test_moved_note_counts_fires_and_failures() -> None:
    fired = [{"ok": True}, {"ok": False}, {"ok": True}]
    assert moved_note({"now": "2030-01-07T09:00:00Z", "fired": fired}) == (
        "Clock moved to 2030-01-07T09:00:00Z: 3 fired, 1 failed"
    )


def _text(page: str, element_id: str) -> str:
    """The visible text of the element with this id (a panel of the page)."""
    start = page.index(f'id="{element_id}"')
    end = page.index("</div>", start)
    return parse_html(page[page.index(">", start) + 1 : end]).text


def test_runs_show_their_outcome_and_reason_and_every_time_column_names_its_zone() -> None:
    fires = [
        {
            "schedule": "a1",
            "scheduled_time": "2030-01-07T07:00:00Z",
            "ok": True,
            "outcome": "skipped",
            "reason": "paused",
        },
        {"schedule": "b2", "scheduled_time": "2030-01-07T07:30:00Z", "ok": False, "outcome": "", "reason": ""},
    ]
    message = {"room_id": "!r:x", "text": "hi", "ts": "2030-01-07T07:59:00Z"}
    page = render(console(fires=fires, messages=[message]))
    runs = _text(page, "fires")
    assert "scheduled (Europe/Madrid)" in runs
    assert "skipped paused" in runs and "failed" in runs
    assert "posted (Europe/Madrid)" in _text(page, "messages")
    assert "next fire (schedule's zone)" in render(console(rooms=[Room("!r:x", [{"id": "a1", "timezone": "UTC"}])]))


def test_messages_show_their_mentions_thread_and_actions() -> None:
    message = {
        "room_id": "!r:x",
        "text": "⏰ Reminder: stand-up",
        "ts": "2030-01-07T07:59:00Z",
        "mentions": ["@ana:x"],
        "thread_id": "$root",
        "actions": [{"label": "Snooze 10 min", "tool": "snooze_reminder", "arguments": {"id": "a1"}}],
    }
    shown = _text(render(console(messages=[message])), "messages")
    assert "mentions @ana:x" in shown
    assert "in thread $root" in shown
    assert "Snooze 10 min" in shown


def test_events_and_dead_letters_have_panels_of_their_own() -> None:
    event = {"detail_type": "RunRecorded", "detail": {"room_id": "!r:x", "outcome": "failed"}}
    letter = {"queue": "FireDeadLetterQueue", "body": '{"schedule_id": "a1"}', "sent": 1.0}
    page = render(console(events=[event], dead_letters=[letter]))
    assert "RunRecorded" in _text(page, "events") and '"outcome": "failed"' in _text(page, "events")
    assert "FireDeadLetterQueue" in _text(page, "dead-letters")
    empty = render(console())
    assert "No events yet." in _text(empty, "events")
    assert "The dead-letter queues are empty." in _text(empty, "dead-letters")


def test_a_room_filter_lists_every_room_and_keeps_the_chosen_one_on_reload() -> None:
    page = render(console(all_rooms=["!a:x", "!b:x"], room_filter="!b:x", rooms=[Room("!b:x")]))
    tags = parse_html(page).tags
    options = [attrs for tag, attrs in tags if tag == "option"]
    assert [o["value"] for o in options] == ["", "!a:x", "!b:x"]
    assert [o["value"] for o in options if "selected" in o] == ["!b:x"]
    [refresh] = [attrs for tag, attrs in tags if tag == "meta" and attrs.get("http-equiv") == "refresh"]
    assert refresh["content"] == "5; url=/_sandbox/ui?room=%21b%3Ax"


def test_one_schedules_history_lists_its_runs_and_each_schedule_links_to_it() -> None:
    runs = [
        {"scheduled_time": "2030-01-07T07:00:00Z", "outcome": "failed", "reason": "chat_error", "late_seconds": 2},
        {"scheduled_time": "2030-01-06T07:00:00Z", "outcome": "delivered", "manual": True, "late_seconds": 0},
    ]
    schedule = {"id": "a1", "preview": "stand-up", "timezone": "UTC", "status": "active"}
    page = render(console(rooms=[Room("!r:x", [schedule])], room_filter="!r:x", history=("a1", runs, "")))
    history = _text(page, "history")
    assert "failed chat_error" in history and "delivered" in history and "manual" in history
    links = [attrs["href"] for tag, attrs in parse_html(page).tags if tag == "a" and attrs.get("class") == "history"]
    assert links == ["/_sandbox/ui?room=%21r%3Ax&schedule=a1"]
    [refresh] = [a for t, a in parse_html(page).tags if t == "meta" and a.get("http-equiv") == "refresh"]
    assert refresh["content"] == "5; url=/_sandbox/ui?room=%21r%3Ax&schedule=a1"


def test_text_in_the_new_panels_is_escaped() -> None:
    hostile = '<script>alert("x")</script>'
    message = {
        "room_id": "!r:x",
        "text": "t",
        "ts": "2030-01-07T07:59:00Z",
        "mentions": [hostile],
        "thread_id": hostile,
    }
    message["actions"] = [{"label": hostile, "tool": hostile, "arguments": {"x": hostile}}]
    page = render(
        console(
            messages=[message],
            events=[{"detail_type": hostile, "detail": {"room_id": hostile}}],
            dead_letters=[{"queue": hostile, "body": hostile, "sent": 0.0}],
            all_rooms=[hostile],
            history=(hostile, [{"outcome": hostile, "reason": hostile}], ""),
            fires=[{"schedule": hostile, "scheduled_time": "x", "ok": False, "outcome": hostile, "reason": hostile}],
        )
    )
    assert "<script>" not in page
