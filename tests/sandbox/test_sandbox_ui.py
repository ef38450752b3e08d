"""The console page is built from plain data: every text it shows is escaped, times are in each zone."""

from __future__ import annotations

from datetime import UTC, datetime

from cronbell.core.domain.quiet_hours import DAYS
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


def _rows(page: str, css_class: str, key: str) -> dict[str, str]:
    """The visible text of each row of this class, by the value of its `key` attribute."""
    out = {}
    for chunk in page.split(f'<tr class="{css_class}" {key}="')[1:]:
        value, rest = chunk.split('"', 1)
        out[value] = " ".join(parse_html(rest[rest.index(">") + 1 : rest.index("</tr>")]).text.split())
    return out


PILLS = {
    "id": "pills",
    "preview": "Take the pills",
    "timezone": "Europe/Madrid",
    "status": "fired",
    "repeat_every": 10,
    "repeat_times": 2,
    "escalate_to": "@bob:x",
    "last_run": {
        "scheduled_time": "2030-01-05T09:00:00+01:00",
        "outcome": "delivered",
        "reason": None,
        "repeats": 2,
        "escalated": True,
        "acknowledged_at": None,
        "moved_from": None,
    },
}
RENT = {
    "id": "rent",
    "preview": "Pay the rent",
    "timezone": "Europe/Madrid",
    "status": "active",
    "skip_holidays": "ES",
    "business_days": True,
    "business_day_of_month": None,
    "on_holiday": "after",
    "last_run": {
        "scheduled_time": "2030-01-02T09:00:00+01:00",
        "outcome": "delivered",
        "moved_from": "2030-01-01T09:00:00+01:00",
        "repeats": 0,
        "escalated": False,
    },
}
CAT = {
    "id": "cat",
    "preview": "Feed the cat",
    "timezone": "Europe/Madrid",
    "status": "active",
    "on_holiday": "skip",
    "business_days": False,
    "next_fire": {"local": "2030-01-06T10:00:00+01:00", "utc": "2030-01-06T09:00:00Z"},
    "held_until": "2030-01-05T11:00:00+01:00",  # the release of the occurrence held now comes first
    "held_now": [{"slot": "2030-01-05T09:00:00Z", "until": "2030-01-05T10:00:00Z"}],
}
BOB_QUIET = {
    "user_id": "@bob:x",
    "quiet_hours": {"start": "09:30", "end": "11:00", "timezone": "Europe/Madrid", "days": ["mon", "sat", "sun"]},
    "next_period": {"start": "2030-01-05T09:30:00+01:00", "end": "2030-01-05T11:00:00+01:00"},
    "held": [{"schedule_id": "cat", "slot": "2030-01-05T09:00:00Z", "until": "2030-01-05T10:00:00Z"}],
}


def test_a_schedule_shows_its_repeat_and_business_day_settings_and_its_runs_repeats_and_move() -> None:
    page = render(console(rooms=[Room("!r:x", [PILLS, RENT, CAT])]))
    rows = _rows(page, "schedule", "data-id")
    assert "repeat_every 10 min" in rows["pills"] and "repeat_times 2" in rows["pills"]
    assert "escalate_to @bob:x" in rows["pills"]
    assert "2 repeats" in rows["pills"] and "escalated" in rows["pills"]  # its last run
    assert "acknowledged" not in rows["pills"] and "business" not in rows["pills"]
    assert "skip_holidays ES" in rows["rent"] and "business_days" in rows["rent"]
    assert "on_holiday after" in rows["rent"] and "business_day_of_month" not in rows["rent"]
    assert "moved from 2030-01-01 09:00" in rows["rent"] and "repeat" not in rows["rent"]
    monthly = render(console(rooms=[Room("!r:x", [{**RENT, "business_days": False, "business_day_of_month": -1}])]))
    assert "business_day_of_month last" in _rows(monthly, "schedule", "data-id")["rent"]
    assert "on_holiday" not in rows["cat"] and "repeat" not in rows["cat"]  # the defaults say nothing


def test_a_schedule_says_when_quiet_hours_hold_its_next_occurrence_and_the_one_held_now() -> None:
    coming = {**CAT, "held_until": "2030-01-06T11:00:00+01:00", "held_now": []}
    page = render(console(rooms=[Room("!r:x", [PILLS, CAT, {**coming, "id": "dog"}])]))
    cat, dog = _rows(page, "schedule", "data-id")["cat"], _rows(page, "schedule", "data-id")["dog"]
    assert "held by quiet hours until 2030-01-06 11:00" in dog  # held_until, in the schedule's zone
    assert "2030-01-05 10:00 held by quiet hours until 2030-01-05 11:00" in cat  # the occurrence held now
    assert cat.count("held by quiet hours") == 1  # its held_until names that same release: said once
    assert "held" not in _rows(page, "schedule", "data-id")["pills"]


def test_a_room_shows_each_users_quiet_hours_their_next_period_and_what_they_hold() -> None:
    always = {**BOB_QUIET, "user_id": "@ana:x", "held": []}
    always["quiet_hours"] = {"start": "22:00", "end": "07:30", "timezone": "America/New_York", "days": list(DAYS)}
    always["next_period"] = {"start": "2030-01-06T22:00:00-05:00", "end": "2030-01-07T07:30:00-05:00"}
    page = render(console(rooms=[Room("!r:x", [CAT], quiet=[BOB_QUIET, always])]))
    quiet = _rows(page, "quiet-hours", "data-user")
    assert set(quiet) == {"@bob:x", "@ana:x"}
    assert "09:30–11:00" in quiet["@bob:x"] and "Europe/Madrid" in quiet["@bob:x"]
    assert "mon, sat, sun" in quiet["@bob:x"]
    assert "2030-01-05 09:30 – 2030-01-05 11:00" in quiet["@bob:x"]  # its next period, in the rule's zone
    assert "cat due 2030-01-05 10:00" in quiet["@bob:x"]
    assert "22:00–07:30" in quiet["@ana:x"] and "every day" in quiet["@ana:x"]
    assert "2030-01-06 22:00 – 2030-01-07 07:30" in quiet["@ana:x"] and "nothing" in quiet["@ana:x"]
    # a room with quiet hours and no schedule shows them too
    alone = render(console(rooms=[Room("!q:x", [], quiet=[BOB_QUIET])]))
    assert set(_rows(alone, "quiet-hours", "data-user")) == {"@bob:x"}
    assert 'class="quiet-hours"' not in render(console(rooms=[Room("!r:x", [CAT])]))


def test_history_shows_each_runs_repeats_acknowledgement_escalation_move_and_the_quiet_hours_reason() -> None:
    runs = [
        {
            "scheduled_time": "2030-01-05T09:00:00Z",
            "outcome": "delivered",
            "reason": "quiet_hours",
            "late_seconds": 3600,
        },
        {
            "scheduled_time": "2030-01-04T08:00:00Z",
            "outcome": "delivered",
            "repeats": 1,
            "acknowledged_at": "2030-01-04T08:12:00Z",
            "escalated": False,
        },
        {"scheduled_time": "2030-01-03T08:00:00Z", "outcome": "delivered", "repeats": 2, "escalated": True},
        {"scheduled_time": "2030-01-02T08:00:00Z", "outcome": "delivered", "moved_from": "2030-01-01T09:00:00+01:00"},
    ]
    page = render(console(rooms=[Room("!r:x", [CAT])], room_filter="!r:x", history=("cat", runs, "")))
    history = [
        " ".join(parse_html(r[r.index(">") + 1 : r.index("</tr>")]).text.split())
        for r in page.split('<tr class="run"')[1:]
    ]
    assert "delivered quiet_hours" in history[0] and "3600" in history[0]
    assert "1 repeat" in history[1] and "acknowledged 2030-01-04 09:12" in history[1]  # in Madrid
    assert "escalated" not in history[1]
    assert "2 repeats" in history[2] and "escalated" in history[2]
    assert "moved from 2030-01-01 09:00" in history[3] and "repeat" not in history[3]


def test_repeat_settings_and_quiet_hours_are_escaped() -> None:
    hostile = '<script>alert("x")</script>'
    schedule = {**PILLS, "escalate_to": hostile, "skip_holidays": hostile, "on_holiday": hostile}
    schedule["last_run"] = {"scheduled_time": "x", "outcome": "delivered", "moved_from": hostile, "repeats": 1}
    quiet = {
        "user_id": hostile,
        "quiet_hours": {"start": hostile, "end": hostile, "timezone": hostile, "days": [hostile]},
        "next_period": {"start": hostile, "end": hostile},
        "held": [{"schedule_id": hostile, "slot": hostile, "until": hostile}],
    }
    held = {**CAT, "held_until": hostile, "held_now": [{"slot": hostile, "until": hostile}]}
    page = render(
        console(rooms=[Room(hostile, [schedule, held], quiet=[quiet, {"user_id": "@x:x", "error": hostile}])])
    )
    assert "<script>" not in page
