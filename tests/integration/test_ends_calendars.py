"""until, count and skip_holidays on a moto server: stored, shown, refused, applied at fire time, and
the completion of a recurrence with its Scheduler entries gone."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from cronbell.core.domain import refusals
from cronbell.usecases.reconcile import reconcile
from tests.support.aws import Stack
from tests.support.chat import RecordingChat
from tests.support.tools import assert_consistent, call, fire_at, ok, schedule_item

# the stack starts on Monday 30 November 2026, 09:00 in Madrid


def item(stack: Stack, sid: str) -> dict[str, Any]:
    return schedule_item(stack, sid)


def room_live(stack: Stack) -> int:
    return int(next(i for i in stack.items() if i["sk"] == "room")["live"])


def test_ends_and_calendar_are_stored_shown_and_given_to_scheduler(stack: Stack) -> None:
    created = call(
        stack,
        "create_reminder",
        {"message": "stand-up", "cron": "0 10 * * *", "until": "2026-12-24", "count": 20, "skip_holidays": "es"},
    )
    result = ok(created)
    sid = result["id"]
    assert created["text"].startswith(
        f"Scheduled reminder {sid} “stand-up”: every day at 10:00, until Thursday 24 December 2026, 20 times,"
    )
    assert "skipping public holidays in ES" in created["text"]
    assert (result["until"], result["count"], result["skip_holidays"]) == ("2026-12-24T23:59:59+01:00", 20, "ES")
    assert result["delivered_count"] == 0
    stored = item(stack, sid)
    assert (stored["until"], stored["count"], stored["skip_holidays"]) == ("2026-12-24T23:59:59+01:00", 20, "ES")
    # Scheduler stops on its own a minute after the end (its EndDate is exclusive)
    assert stack.entries()[sid]["EndDate"] == datetime(2026, 12, 24, 23, 0, 59, tzinfo=UTC)
    (listed,) = ok(call(stack, "list_reminders"))["schedules"]
    assert (listed["until"], listed["count"], listed["skip_holidays"]) == ("2026-12-24T23:59:59+01:00", 20, "ES")
    # 8 December is a public holiday in Spain: the previews leave it out
    days = [f["local"][:10] for f in ok(call(stack, "list_reminders"))["schedules"][0]["next_fires"]]
    assert days == ["2026-11-30", "2026-12-01", "2026-12-02"]
    (job,) = ok(call(stack, "cron_list"))
    assert (job["until"], job["count"], job["skip_holidays"]) == ("2026-12-24T23:59:59+01:00", 20, "ES")
    spanish = call(stack, "create_reminder", {"message": "x", "cron": "0 8 * * 1", "count": 3}, locale="es")
    assert "todos los lunes a las 08:00, 3 veces" in spanish["text"], spanish["text"]
    assert_consistent(stack)


@pytest.mark.parametrize(
    ("args", "code", "words"),
    [
        ({"time": "tomorrow at 9", "count": 3}, refusals.INVALID_ARGUMENTS, "recurring schedules only"),
        ({"time": "tomorrow at 9", "skip_holidays": "ES"}, refusals.INVALID_ARGUMENTS, "recurring schedules only"),
        ({"cron": "0 9 * * *", "until": "2026-11-01"}, refusals.TIME_IN_PAST, "in the past"),
        ({"cron": "0 9 * * 5", "until": "2026-12-02 18:00"}, refusals.INVALID_ARGUMENTS, "never fire"),
        (
            {"cron": "0 9 8 12 *", "until": "2026-12-20", "skip_holidays": "ES"},
            refusals.INVALID_ARGUMENTS,
            "never fire",
        ),
        ({"cron": "0 9 * * *", "skip_holidays": "Atlantis"}, refusals.INVALID_ARGUMENTS, "ES-MD, US, US-CA, GB-SCT"),
        ({"cron": "0 9 * * *", "skip_holidays": "ES-XX"}, refusals.INVALID_ARGUMENTS, "ISO 3166-1"),
        ({"cron": "0 9 * * *", "count": 0}, refusals.INVALID_ARGUMENTS, "count"),
        ({"cron": "0 9 * * *", "count": 1001}, refusals.INVALID_ARGUMENTS, "count"),
        ({"cron": "0 9 * * *", "until": "whenever"}, refusals.INVALID_TIME, "The closest accepted forms"),
    ],
)
def test_refusals_are_structured_and_change_nothing(stack: Stack, args: dict[str, Any], code: str, words: str) -> None:
    answer = call(stack, "create_reminder", {"message": "x", **args})
    assert answer["ok"] is False and answer["error"]["code"] == code, answer
    assert words in answer["error"]["message"], answer["error"]["message"]
    assert stack.items() == [] and stack.entries() == {}


def test_cron_create_takes_the_same_ends(stack: Stack) -> None:
    result = ok(call(stack, "cron_create", {"name": "digest", "prompt": "p", "cron_expr": "0 18 * * 1-5", "count": 2}))
    assert result["count"] == 2 and len(result["next_fires"]) == 2
    refused = call(stack, "cron_create", {"name": "d2", "prompt": "p", "fire_at": "tomorrow at 9", "count": 2})
    assert refused["error"]["code"] == refusals.INVALID_ARGUMENTS


def test_count_completes_with_the_last_delivery(stack: Stack) -> None:
    chat = RecordingChat()
    sid = ok(call(stack, "create_reminder", {"message": "water the plants", "cron": "0 10 * * *", "count": 2}))["id"]
    assert room_live(stack) == 1
    assert fire_at(stack, sid, "2026-11-30T09:00:00Z", chat)["outcome"] == "delivered"
    assert item(stack, sid)["status"] == "active" and int(item(stack, sid)["delivered_count"]) == 1
    assert fire_at(stack, sid, "2026-12-01T09:00:00Z", chat)["outcome"] == "delivered"
    done = item(stack, sid)
    assert done["status"] == "completed" and int(done["delivered_count"]) == 2
    # the fire's retirement frees the room's place lazily, as a delete does; the reconciler recounts
    assert sid not in stack.entries() and room_live(stack) == 1
    reconcile(stack.deps())
    assert room_live(stack) == 0
    assert len(chat.sent) == 2
    # a late copy of a Scheduler fire finds it completed: nothing more is posted
    assert fire_at(stack, sid, "2026-12-02T09:00:00Z", chat)["outcome"] == "inactive"
    assert len(chat.sent) == 2
    assert ok(call(stack, "list_reminders"))["schedules"] == []
    (shown,) = ok(call(stack, "list_reminders", {"include_inactive": True}))["schedules"]
    assert shown["status"] == "completed" and shown["next_fire"] is None
    assert_consistent(stack)


def test_until_completes_on_its_day_and_a_fire_after_it_is_refused(stack: Stack) -> None:
    chat = RecordingChat()
    sid = ok(call(stack, "create_reminder", {"message": "x", "cron": "0 10 * * *", "until": "2026-12-01"}))["id"]
    assert fire_at(stack, sid, "2026-11-30T09:00:00Z", chat)["outcome"] == "delivered"
    assert item(stack, sid)["status"] == "active"
    assert fire_at(stack, sid, "2026-12-01T09:00:00Z", chat)["outcome"] == "delivered"
    assert item(stack, sid)["status"] == "completed" and stack.entries() == {}
    # the same end reached by a fire past `until` (an entry written without EndDate fires on)
    other = ok(call(stack, "create_reminder", {"message": "y", "cron": "0 11 * * *", "until": "2026-12-02"}))["id"]
    assert fire_at(stack, other, "2026-12-03T10:00:00Z", chat)["outcome"] == "completed"
    assert item(stack, other)["status"] == "completed" and stack.entries() == {}
    assert len(chat.sent) == 2
    assert_consistent(stack)


def test_a_holiday_is_a_skipped_run_and_posts_nothing(stack: Stack) -> None:
    chat = RecordingChat()
    sid = ok(call(stack, "create_reminder", {"message": "x", "cron": "0 10 * * *", "skip_holidays": "ES"}))["id"]
    assert fire_at(stack, sid, "2026-12-07T09:00:00Z", chat)["outcome"] == "delivered"
    skipped = fire_at(stack, sid, "2026-12-08T09:00:00Z", chat)  # Immaculate Conception
    assert skipped == {"schedule_id": sid, "slot": "2026-12-08T09:00:00Z", "outcome": "skipped", "reason": "holiday"}
    assert len(chat.sent) == 1
    runs = ok(call(stack, "reminder_history", {"id": sid}))["runs"]
    assert [(r["outcome"], r["reason"]) for r in runs] == [("skipped", "holiday"), ("delivered", None)]
    assert runs[0]["scheduled_time"] == "2026-12-08T10:00:00+01:00"
    # run_now is asked for by hand: a holiday does not stop it
    assert item(stack, sid)["status"] == "active"


def test_a_last_occurrence_on_a_holiday_completes_the_schedule(stack: Stack) -> None:
    chat = RecordingChat()
    args = {"message": "x", "cron": "0 10 * * *", "until": "2026-12-08", "skip_holidays": "ES"}
    sid = ok(call(stack, "create_reminder", args))["id"]
    assert fire_at(stack, sid, "2026-12-07T09:00:00Z", chat)["outcome"] == "delivered"
    assert item(stack, sid)["status"] == "completed"  # 8 December, its last day, is a holiday
    assert stack.entries() == {}


def test_update_sets_changes_and_clears_the_ends(stack: Stack) -> None:
    chat = RecordingChat()
    sid = ok(call(stack, "create_reminder", {"message": "x", "cron": "0 10 * * *"}))["id"]
    changed = call(stack, "update_reminder", {"id": sid, "count": 3, "until": "2026-12-31", "skip_holidays": "US-CA"})
    assert ", until Thursday 31 December 2026, 3 times, skipping public holidays in US-CA" in changed["text"]
    assert "EndDate" in stack.entries()[sid]
    # a new cron keeps the ends
    kept = ok(call(stack, "update_reminder", {"id": sid, "cron": "0 11 * * *"}))
    assert (kept["count"], kept["skip_holidays"]) == (3, "US-CA")
    assert fire_at(stack, sid, "2026-11-30T10:00:00Z", chat)["outcome"] == "delivered"
    refused = call(stack, "update_reminder", {"id": sid, "count": 1})
    assert refused["ok"] is False and refused["error"]["code"] == refusals.INVALID_ARGUMENTS
    assert "delivered 1 run" in refused["error"]["message"]
    cleared = ok(call(stack, "update_reminder", {"id": sid, "count": 0, "until": "never", "skip_holidays": "none"}))
    assert (cleared["count"], cleared["until"], cleared["skip_holidays"]) == (None, None, None)
    assert "EndDate" not in stack.entries()[sid]
    assert {"until", "count", "skip_holidays"}.isdisjoint(item(stack, sid))
    one_shot = ok(call(stack, "create_reminder", {"message": "y", "time": "tomorrow at 9"}))["id"]
    wrong = call(stack, "update_reminder", {"id": one_shot, "count": 2})
    assert wrong["error"]["code"] == refusals.INVALID_ARGUMENTS
    assert_consistent(stack)


def test_the_reconciler_completes_a_recurrence_past_its_end_instead_of_recreating_it(stack: Stack) -> None:
    sid = ok(call(stack, "create_reminder", {"message": "x", "cron": "0 10 * * *", "until": "2026-12-01"}))["id"]
    stack.clock.current = datetime(2026, 12, 3, 12, 0, tzinfo=UTC)
    stack.deps().scheduler.delete(sid)  # Scheduler is done with it
    reconcile(stack.deps())
    assert item(stack, sid)["status"] == "completed" and stack.entries() == {}
    assert room_live(stack) == 0


def test_a_schedule_paused_past_its_end_may_be_given_a_new_end_before_it_is_resumed(stack: Stack) -> None:
    sid = ok(call(stack, "create_reminder", {"message": "x", "cron": "0 10 * * *", "until": "2026-12-02"}))["id"]
    ok(call(stack, "pause_reminder", {"id": sid}))
    stack.clock.current = datetime(2026, 12, 5, 12, 0, tzinfo=UTC)
    ok(call(stack, "update_reminder", {"id": sid, "until": "2026-12-10"}))
    resumed = ok(call(stack, "resume_reminder", {"id": sid}))
    assert resumed["status"] == "active" and resumed["next_fire"]["local"] == "2026-12-06T10:00:00+01:00"
    assert_consistent(stack)


# --- runs of holidays: the eves of Christmas and New Year -----------------------------------------

MADRID_EVE = datetime(2026, 12, 24, 22, 30, tzinfo=UTC)  # 23:30 on Christmas Eve in Madrid
NEW_YEAR_EVE = datetime(2026, 12, 31, 22, 30, tzinfo=UTC)  # 23:30 on 31 December in Madrid


@pytest.mark.parametrize(
    ("now", "cron", "calendar", "first", "second"),
    [
        (MADRID_EVE, "0 * * * *", "ES", "2026-12-26T00:00:00+01:00", "2026-12-26T01:00:00+01:00"),
        (MADRID_EVE, "0 10 * * *", "ES", "2026-12-26T10:00:00+01:00", "2026-12-27T10:00:00+01:00"),
        (MADRID_EVE, "0 * * * *", "ES-CT", "2026-12-27T00:00:00+01:00", "2026-12-27T01:00:00+01:00"),
        (NEW_YEAR_EVE, "0 * * * *", "ES", "2027-01-02T00:00:00+01:00", "2027-01-02T01:00:00+01:00"),
        (NEW_YEAR_EVE, "0 10 * * *", "ES", "2027-01-02T10:00:00+01:00", "2027-01-03T10:00:00+01:00"),
        (NEW_YEAR_EVE, "30 * * * *", "US", "2027-01-02T00:30:00+01:00", "2027-01-02T01:30:00+01:00"),
    ],
)
def test_on_a_holiday_eve_the_tools_see_the_fires_past_the_holidays(
    stack: Stack, now: datetime, cron: str, calendar: str, first: str, second: str
) -> None:
    stack.clock.current = now
    created = call(stack, "create_reminder", {"message": "x", "cron": cron, "skip_holidays": calendar, "count": 100})
    result = ok(created)
    sid = result["id"]
    assert result["next_fire"]["local"] == first
    assert [f["local"] for f in result["next_fires"]][:2] == [first, second]
    (listed,) = ok(call(stack, "list_reminders"))["schedules"]
    assert listed["next_fire"]["local"] == first
    # an update that keeps the calendar is not "would never fire"
    updated = ok(call(stack, "update_reminder", {"id": sid, "count": 50, "until": "2027-01-31"}))
    assert updated["next_fire"]["local"] == first
    skipped = ok(call(stack, "skip_next", {"id": sid}))
    assert skipped["next_fire"]["local"] == second
    snoozed = call(stack, "snooze_reminder", {"id": sid, "minutes": 10})
    assert snoozed["ok"] is True, snoozed
    job = {"name": "digest", "prompt": "p", "cron_expr": cron, "skip_holidays": calendar}
    other = ok(call(stack, "cron_create", job))
    assert other["next_fire"]["local"] == first
    assert_consistent(stack)


def test_an_until_that_only_holidays_precede_is_refused_and_changes_nothing(stack: Stack) -> None:
    stack.clock.current = MADRID_EVE
    args = {"message": "x", "cron": "0 * * * *", "skip_holidays": "ES-CT", "until": "2026-12-26"}
    refused = call(stack, "create_reminder", args)
    assert refused["ok"] is False and refused["error"]["code"] == refusals.INVALID_ARGUMENTS
    assert "never fire" in refused["error"]["message"]
    assert stack.items() == [] and stack.entries() == {}
    ok(call(stack, "create_reminder", {**args, "until": "2026-12-27"}))


def test_an_hourly_count_across_christmas_completes_only_after_its_last_delivery(stack: Stack) -> None:
    chat = RecordingChat()
    stack.clock.current = datetime(2026, 12, 24, 19, 30, tzinfo=UTC)  # 20:30 in Madrid
    sid = ok(call(stack, "create_reminder", {"message": "x", "cron": "0 * * * *", "count": 6, "skip_holidays": "ES"}))[
        "id"
    ]
    outcomes = []
    for hour in range(20, 24 + 24 + 3):  # 21:00 on the 24th to 02:00 on the 26th, in UTC
        slot = datetime(2026, 12, 24, tzinfo=UTC) + timedelta(hours=hour)
        answer = fire_at(stack, sid, slot.strftime("%Y-%m-%dT%H:%M:%SZ"), chat)
        outcomes.append(answer["outcome"])
        if item(stack, sid)["status"] != "active":
            break
    # 21:00-23:00 on the 24th, 24 holiday runs, then 00:00-02:00 on the 26th
    assert outcomes == ["delivered"] * 3 + ["skipped"] * 24 + ["delivered"] * 3
    done = item(stack, sid)
    assert done["status"] == "completed" and int(done["delivered_count"]) == 6 and len(chat.sent) == 6
    assert stack.entries() == {} and room_live(stack) == 1  # freed lazily by the fire's retirement
    reconcile(stack.deps())
    assert room_live(stack) == 0


def test_until_today_and_tonight_through_the_tools_in_both_languages(stack: Stack) -> None:
    stack.clock.current = datetime(2026, 12, 1, 17, 0, tzinfo=UTC)  # 18:00 in Madrid
    today = ok(call(stack, "create_reminder", {"message": "a", "cron": "*/30 * * * *", "until": "today"}))
    assert today["until"] == "2026-12-01T23:59:59+01:00"
    hoy = ok(call(stack, "create_reminder", {"message": "b", "cron": "*/30 * * * *", "until": "hoy"}, locale="es"))
    assert hoy["until"] == "2026-12-01T23:59:59+01:00"
    date = ok(call(stack, "create_reminder", {"message": "c", "cron": "*/30 * * * *", "until": "2026-12-01"}))
    assert date["until"] == "2026-12-01T23:59:59+01:00"
    tonight = ok(call(stack, "create_reminder", {"message": "d", "cron": "*/30 * * * *", "until": "tonight"}))
    assert tonight["until"] == "2026-12-01T21:00:00+01:00" and tonight["next_fires"][-1]["local"] <= tonight["until"]
    noche = call(stack, "create_reminder", {"message": "e", "cron": "*/30 * * * *", "until": "esta noche"}, locale="es")
    assert ok(noche)["until"] == "2026-12-01T21:00:00+01:00"
    assert "hasta el martes 1 de diciembre de 2026, 21:00" in noche["text"], noche["text"]
    assert_consistent(stack)


# --- ends reached while paused ---------------------------------------------------------------------


def test_resuming_a_schedule_whose_until_passed_while_paused_completes_it(stack: Stack) -> None:
    sid = ok(call(stack, "create_reminder", {"message": "x", "cron": "0 10 * * *", "until": "2026-12-02"}))["id"]
    ok(call(stack, "pause_reminder", {"id": sid}))
    assert room_live(stack) == 1
    stack.clock.current = datetime(2026, 12, 5, 12, 0, tzinfo=UTC)
    answer = call(stack, "resume_reminder", {"id": sid})
    result = ok(answer)
    assert result["status"] == "completed" and result["id"] == sid
    assert "reached its end" in answer["text"] and "completed" in answer["text"]
    assert item(stack, sid)["status"] == "completed"
    assert stack.entries() == {} and room_live(stack) == 0
    assert ok(call(stack, "list_reminders"))["schedules"] == []
    again = call(stack, "resume_reminder", {"id": sid})  # a retried call answers as the first did
    assert ok(again)["status"] == "completed" and "reached its end" in again["text"]
    other = ok(call(stack, "create_reminder", {"message": "y", "cron": "0 10 * * *", "until": "2026-12-09"}))["id"]
    ok(call(stack, "delete_reminder", {"id": other}))
    assert call(stack, "resume_reminder", {"id": other})["error"]["code"] == "not_found"  # gone otherwise: refused
    assert_consistent(stack)


def test_resume_past_the_end_answers_in_spanish(stack: Stack) -> None:
    sid = ok(call(stack, "create_reminder", {"message": "x", "cron": "0 10 * * *", "until": "2026-12-02"}))["id"]
    ok(call(stack, "pause_reminder", {"id": sid}))
    stack.clock.current = datetime(2026, 12, 5, 12, 0, tzinfo=UTC)
    answer = call(stack, "resume_reminder", {"id": sid}, locale="es")
    assert ok(answer)["status"] == "completed"
    assert "llegó a su fin" in answer["text"] and "completad" in answer["text"], answer["text"]


def test_the_reconciler_completes_a_schedule_paused_past_its_end(stack: Stack) -> None:
    sid = ok(call(stack, "create_reminder", {"message": "x", "cron": "0 10 * * *", "until": "2026-12-02"}))["id"]
    ok(call(stack, "pause_reminder", {"id": sid}))
    kept = ok(call(stack, "create_reminder", {"message": "y", "cron": "0 11 * * *", "until": "2026-12-20"}))["id"]
    ok(call(stack, "pause_reminder", {"id": kept}))
    assert stack.entries()[sid]["State"] == "DISABLED"
    stack.clock.current = datetime(2026, 12, 5, 12, 0, tzinfo=UTC)
    report = reconcile(stack.deps())
    assert report.errors == 0
    assert item(stack, sid)["status"] == "completed" and sid not in stack.entries()
    assert item(stack, kept)["status"] == "paused" and kept in stack.entries()  # its end is still ahead
    assert room_live(stack) == 1
    reconcile(stack.deps())  # nothing more to do
    assert item(stack, sid)["status"] == "completed" and room_live(stack) == 1
    # its user resumes it after the reconciler's run: told it ended while paused, as before that run
    answer = call(stack, "resume_reminder", {"id": sid})
    assert ok(answer)["status"] == "completed" and ok(answer)["next_fire"] is None
    assert "reached its end (`until` or `count`) while it was paused" in answer["text"]
    assert item(stack, sid)["status"] == "completed" and room_live(stack) == 1
    assert_consistent(stack)
