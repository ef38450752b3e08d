"""Snooze and skip_next at their edges: a paused schedule, a schedule's end, a snoozed occurrence
skipped, and the buttons under a delivered post, which name their occurrence (a moto server and the
fire use case; the clock starts on Monday 30 Nov 2026, 09:00 in Madrid)."""

from __future__ import annotations

from typing import Any
from zoneinfo import ZoneInfo

from cronbell.core.domain import refusals
from cronbell.core.domain.actions import decode
from tests.support.aws import Stack
from tests.support.chat import RecordingChat
from tests.support.tools import assert_consistent, call, fire_at, ok, schedule_item


def unchanged(stack: Stack, answer: dict[str, Any], code: str, before: tuple[Any, Any]) -> dict[str, Any]:
    assert answer["ok"] is False and answer["error"]["code"] == code, answer
    assert (stack.items(), stack.entries()) == before
    return answer


def state(stack: Stack) -> tuple[Any, Any]:
    return stack.items(), stack.entries()


def buttons(chat: RecordingChat) -> list[dict[str, Any]]:
    """The tool calls of the buttons under the last post, decoded from their payloads."""
    message, _ = chat.sent[-1]
    return [decode(action.payload) for action in message.actions]


# --- H2: a paused schedule, and a snooze that would move an occurrence earlier --------------------


def test_snoozing_a_paused_one_shot_before_its_time_is_refused_and_leaves_it_paused(stack: Stack) -> None:
    sid = ok(call(stack, "create_reminder", {"message": "Dentist", "time": "2026-12-02 09:00"}))["id"]
    ok(call(stack, "pause_reminder", {"id": sid}))
    before = state(stack)
    answer = unchanged(
        stack, call(stack, "snooze_reminder", {"id": sid, "minutes": 10}), refusals.INVALID_STATE, before
    )
    assert "paused" in answer["text"] and "Wednesday 2 December 2026, 09:00" in answer["text"]
    spanish = call(stack, "snooze_reminder", {"id": sid, "minutes": 10}, locale="es")
    assert "está en pausa" in spanish["text"] and "resume_reminder" in spanish["text"]
    listed = ok(call(stack, "list_reminders"))["schedules"][0]
    assert listed["status"] == "paused" and listed["next_fire"] is None
    daily = ok(call(stack, "create_reminder", {"message": "y", "cron": "0 10 * * *"}))["id"]
    ok(call(stack, "pause_reminder", {"id": daily}))
    before = state(stack)
    answer = unchanged(
        stack, call(stack, "snooze_reminder", {"id": daily, "minutes": 5}), refusals.INVALID_STATE, before
    )
    assert "resume_reminder" in answer["text"] and "Monday 30 November 2026, 10:00" in answer["text"]


def test_a_snooze_until_a_time_never_moves_an_occurrence_earlier(stack: Stack) -> None:
    one = ok(call(stack, "create_reminder", {"message": "x", "time": "2026-11-30 18:00"}))["id"]
    daily = ok(call(stack, "create_reminder", {"message": "y", "cron": "0 18 * * *"}))["id"]
    before = state(stack)
    for sid in (one, daily):
        answer = call(stack, "snooze_reminder", {"id": sid, "until": "2026-11-30 12:00"})
        unchanged(stack, answer, refusals.INVALID_TIME, before)
        assert "Monday 30 November 2026, 18:00" in answer["text"]
        assert (
            "posponer es retrasar" in call(stack, "snooze_reminder", {"id": sid, "until": "12:00"}, locale="es")["text"]
        )
    later = ok(call(stack, "snooze_reminder", {"id": one, "until": "2026-11-30 19:00"}))
    assert later["next_fire"]["local"] == "2026-11-30T19:00:00+01:00"
    assert ok(call(stack, "snooze_reminder", {"id": one, "minutes": 10}))["next_fire"]["local"] == (
        "2026-11-30T19:10:00+01:00"
    )


# --- H3: a snooze past the schedule's end ---------------------------------------------------------


def test_a_snooze_past_until_is_refused_in_both_languages(stack: Stack) -> None:
    sid = ok(call(stack, "create_reminder", {"message": "x", "cron": "0 10 * * *", "until": "2026-12-01"}))["id"]
    before = state(stack)
    answer = call(stack, "snooze_reminder", {"id": sid, "until": "2026-12-03 09:00"})
    unchanged(stack, answer, refusals.INVALID_TIME, before)
    assert "ends on Tuesday 1 December 2026" in answer["text"] and "update_reminder" in answer["text"]
    spanish = call(stack, "snooze_reminder", {"id": sid, "minutes": 3 * 24 * 60}, locale="es")
    unchanged(stack, spanish, refusals.INVALID_TIME, before)
    said = spanish["text"]
    assert "termina el martes 1 de diciembre de 2026" in said and "sin más ejecuciones" not in said
    inside = ok(call(stack, "snooze_reminder", {"id": sid, "until": "2026-12-01 20:00"}))
    assert inside["next_fire"]["local"] == "2026-12-01T10:00:00+01:00"
    assert "2026-12-01T20:00:00+01:00" in [f["local"] for f in inside["next_fires"]]
    assert fire_at(stack, sid, "2026-11-30T09:00:00Z")["outcome"] == "skipped"
    assert fire_at(stack, sid, "2026-12-01T19:00:00Z")["outcome"] == "delivered"


def test_a_snooze_past_the_last_counted_run_is_refused(stack: Stack) -> None:
    sid = ok(call(stack, "create_reminder", {"message": "x", "cron": "0 10 * * *", "count": 1}))["id"]
    before = state(stack)
    answer = call(stack, "snooze_reminder", {"id": sid, "minutes": 2 * 24 * 60})  # after 1 Dec, the last
    unchanged(stack, answer, refusals.INVALID_TIME, before)
    assert (
        "count" in answer["text"]
        and "aumenta" in call(stack, "snooze_reminder", {"id": sid, "minutes": 2 * 24 * 60}, locale="es")["text"]
    )


def test_the_snooze_answer_names_where_the_occurrence_went(stack: Stack) -> None:
    sid = ok(call(stack, "create_reminder", {"message": "x", "cron": "0 10 * * *"}))["id"]
    answer = call(stack, "snooze_reminder", {"id": sid, "minutes": 2 * 24 * 60})  # today's, to Wednesday
    assert "Snoozed" in answer["text"] and " to Wednesday 2 December, 10:00" in answer["text"]
    assert "next Tuesday 1 December, 10:00" in answer["text"]
    assert ok(answer)["next_fire"]["local"] == "2026-12-01T10:00:00+01:00"
    spanish = call(stack, "snooze_reminder", {"id": sid, "minutes": 60}, locale="es")["text"]
    assert "Se pospone" in spanish and "al martes 1 de diciembre, 11:00" in spanish  # tomorrow's, one hour


# --- H4: skipping a snoozed occurrence ------------------------------------------------------------


def test_skipping_a_snoozed_occurrence_leaves_it_out_and_the_next_skip_takes_the_next_one(stack: Stack) -> None:
    sid = ok(call(stack, "create_reminder", {"message": "x", "cron": "0 10 * * *"}))["id"]
    ok(call(stack, "snooze_reminder", {"id": sid, "minutes": 30}))  # today 10:00 -> 10:30
    first = ok(call(stack, "skip_next", {"id": sid}))
    assert first["skipped"] == "2026-11-30T09:30:00Z"
    assert first["next_fire"]["local"] == "2026-12-01T10:00:00+01:00"
    assert "2026-11-30T10:30:00+01:00" not in [f["local"] for f in first["next_fires"]]
    second = ok(call(stack, "skip_next", {"id": sid}))
    assert second["skipped"] == "2026-12-01T09:00:00Z"
    assert second["next_fire"]["local"] == "2026-12-02T10:00:00+01:00"
    assert ok(call(stack, "list_reminders"))["schedules"][0]["next_fire"]["local"] == "2026-12-02T10:00:00+01:00"
    assert_consistent(stack)
    assert fire_at(stack, sid, "2026-11-30T09:00:00Z")["outcome"] == "skipped"
    assert fire_at(stack, sid, "2026-11-30T09:30:00Z")["outcome"] == "skipped"
    assert fire_at(stack, sid, "2026-12-01T09:00:00Z")["outcome"] == "skipped"
    assert fire_at(stack, sid, "2026-12-02T09:00:00Z")["outcome"] == "delivered"
    runs = ok(call(stack, "reminder_history", {"id": sid}))["runs"]
    assert [(r["scheduled_time"], r["reason"]) for r in runs][1:] == [
        ("2026-12-01T10:00:00+01:00", "skip_next"),
        ("2026-11-30T10:30:00+01:00", "skip_next"),
        ("2026-11-30T10:00:00+01:00", "snoozed"),
    ]


# --- M4: the buttons under a delivered post name their occurrence ---------------------------------


def test_the_snooze_button_under_a_delivered_recurring_reminder_reminds_again_in_ten_minutes(stack: Stack) -> None:
    sid = ok(call(stack, "create_reminder", {"message": "Stand up", "cron": "0 10 * * *"}))["id"]
    chat = RecordingChat()
    assert fire_at(stack, sid, "2026-11-30T09:00:00Z", chat)["outcome"] == "delivered"
    snooze, skip = buttons(chat)
    assert snooze == {
        "tool": "snooze_reminder",
        "arguments": {"id": sid, "minutes": 10, "occurrence": "2026-11-30T09:00:00Z"},
    }
    assert skip == {"tool": "skip_next", "arguments": {"id": sid, "occurrence": "2026-12-01T09:00:00Z"}}
    stack.clock.advance(minutes=2)  # the tap, at 10:02
    result = ok(call(stack, snooze["tool"], snooze["arguments"]))
    assert [f["local"] for f in result["next_fires"]][:2] == ["2026-11-30T10:12:00+01:00", "2026-12-01T10:00:00+01:00"]
    assert_consistent(stack)
    again = RecordingChat()
    assert fire_at(stack, sid, "2026-11-30T09:12:00Z", again)["outcome"] == "delivered"
    assert again.sent[0][0].text.endswith("Stand up") or "Stand up" in again.sent[0][0].text
    assert fire_at(stack, sid, "2026-12-01T09:00:00Z")["outcome"] == "delivered"  # tomorrow's, untouched


def test_old_buttons_tapped_later_never_move_another_occurrence(stack: Stack) -> None:
    sid = ok(call(stack, "create_reminder", {"message": "Stand up", "cron": "0 10 * * *"}))["id"]
    chat = RecordingChat()
    assert fire_at(stack, sid, "2026-11-30T09:00:00Z", chat)["outcome"] == "delivered"
    snooze, skip = buttons(chat)
    assert fire_at(stack, sid, "2026-12-01T09:00:00Z")["outcome"] == "delivered"
    stack.clock.advance(hours=2)  # Tuesday 12:00: both of Monday's buttons are old now
    before = state(stack)
    refused = unchanged(stack, call(stack, skip["tool"], skip["arguments"]), refusals.INVALID_STATE, before)
    assert "already happened" in refused["text"]
    result = ok(call(stack, snooze["tool"], snooze["arguments"]))  # Monday's post, reminded again
    assert [f["local"] for f in result["next_fires"]][:2] == ["2026-12-01T12:10:00+01:00", "2026-12-02T10:00:00+01:00"]
    assert_consistent(stack)


def test_a_button_naming_a_coming_occurrence_acts_on_that_one(stack: Stack) -> None:
    sid = ok(call(stack, "create_reminder", {"message": "x", "cron": "0 10 * * *"}))["id"]
    skipped = ok(call(stack, "skip_next", {"id": sid, "occurrence": "2026-12-02T10:00:00+01:00"}))
    assert skipped["skipped"] == "2026-12-02T09:00:00Z"
    assert [f["local"] for f in skipped["next_fires"]] == [
        "2026-11-30T10:00:00+01:00",
        "2026-12-01T10:00:00+01:00",
        "2026-12-03T10:00:00+01:00",
    ]
    snoozed = ok(call(stack, "snooze_reminder", {"id": sid, "minutes": 5, "occurrence": "2026-12-01T09:00:00Z"}))
    assert [f["local"] for f in snoozed["next_fires"]][:2] == ["2026-11-30T10:00:00+01:00", "2026-12-01T10:05:00+01:00"]


def test_an_occurrence_that_is_not_the_schedules_is_refused(stack: Stack) -> None:
    sid = ok(call(stack, "create_reminder", {"message": "x", "cron": "0 10 * * *"}))["id"]
    one = ok(call(stack, "create_reminder", {"message": "y", "time": "2026-12-01 08:00"}))["id"]
    before = state(stack)
    for tool, args in [
        ("snooze_reminder", {"id": sid, "minutes": 10, "occurrence": "2026-11-30T09:07:00Z"}),
        ("skip_next", {"id": sid, "occurrence": "2026-12-01T10:30:00+01:00"}),
        ("snooze_reminder", {"id": one, "minutes": 10, "occurrence": "2026-12-01T09:00:00Z"}),
        ("snooze_reminder", {"id": sid, "minutes": 10, "occurrence": "2026-11-29T09:00:00Z"}),  # never delivered
    ]:
        unchanged(stack, call(stack, tool, args), refusals.INVALID_ARGUMENTS, before)
    for text in ("tomorrow", "2026-11-30 10:00", "2026-11-30T09:00:00"):  # no offset: not an instant
        answer = call(stack, "skip_next", {"id": sid, "occurrence": text})
        unchanged(stack, answer, refusals.INVALID_ARGUMENTS, before)
    assert "RFC3339" in answer["text"]


def test_a_one_shots_snooze_button_brings_it_back_and_an_old_one_does_not_move_it_again(stack: Stack) -> None:
    sid = ok(call(stack, "create_reminder", {"message": "Call", "time": "2026-11-30 09:30"}))["id"]
    chat = RecordingChat()
    assert fire_at(stack, sid, "2026-11-30T08:30:00Z", chat)["outcome"] == "delivered"
    (snooze,) = buttons(chat)
    assert snooze["arguments"] == {"id": sid, "minutes": 10, "occurrence": "2026-11-30T08:30:00Z"}
    stack.remove_entry(sid)  # ActionAfterCompletion
    first = ok(call(stack, snooze["tool"], snooze["arguments"]))
    assert first["status"] == "active" and first["next_fire"]["utc"] == "2026-11-30T08:40:00Z"
    before = state(stack)
    answer = call(stack, snooze["tool"], snooze["arguments"])  # the same old button again
    unchanged(stack, answer, refusals.INVALID_STATE, before)
    assert "Monday 30 November 2026, 09:40" in answer["text"]


# --- a snooze while the last occurrence may still be delivered late -----------------------------


def test_a_snooze_while_the_last_counted_occurrence_may_still_be_delivered_late_is_refused_busy(
    stack: Stack,
) -> None:
    sid = ok(call(stack, "create_reminder", {"message": "x", "cron": "0 10 * * *", "count": 2}))["id"]
    gone = ok(call(stack, "create_reminder", {"message": "y", "cron": "0 9 * * *", "count": 1}))["id"]
    chat = RecordingChat()
    assert fire_at(stack, sid, "2026-11-30T09:00:00Z", chat)["outcome"] == "delivered"  # 1 of 2
    stack.clock.advance(hours=24, minutes=5)  # Tuesday 10:05: the last is not run, a retry may come
    before = state(stack)
    answer = unchanged(stack, call(stack, "snooze_reminder", {"id": sid, "minutes": 30}), refusals.BUSY, before)
    assert "last occurrence" in answer["text"] and "10:00" in answer["text"]
    spanish = call(stack, "snooze_reminder", {"id": sid, "minutes": 30}, locale="es")
    assert "última ejecución" in spanish["text"] and "10:00" in spanish["text"]
    snooze, _ = buttons(chat)  # the button under Monday's post
    unchanged(stack, call(stack, snooze["tool"], snooze["arguments"]), refusals.BUSY, before)
    # an ending occurrence passed more than MaxLatenessMinutes ago without its run: decided as usual
    assert ok(call(stack, "snooze_reminder", {"id": gone, "minutes": 30}))["snoozed_to"] == "2026-12-02T08:30:00Z"
    assert fire_at(stack, sid, "2026-12-01T09:00:00Z")["outcome"] == "delivered"  # the late attempt
    assert schedule_item(stack, sid)["status"] == "completed"


def test_a_snooze_of_a_new_single_run_recurrence_names_its_own_occurrence_never_one_before_it_was_made(
    stack: Stack,
) -> None:
    """Times before a schedule was made are none of its occurrences: a `count: 1` recurrence snoozed at
    once is snoozed, and one snoozed as its only occurrence is due is refused naming that occurrence,
    not one from the hour before (MaxLatenessMinutes back) when it did not exist yet."""
    stack.clock.current = stack.clock.current.replace(minute=2, second=0, microsecond=0)
    early = ok(call(stack, "create_reminder", {"message": "x", "cron": "*/5 * * * *", "count": 1}))["id"]
    assert ok(call(stack, "snooze_reminder", {"id": early, "minutes": 5}))["id"] == early
    sid = ok(call(stack, "create_reminder", {"message": "y", "cron": "*/5 * * * *", "count": 1}))["id"]
    hour = stack.clock.advance(minutes=2, seconds=40).astimezone(ZoneInfo("Europe/Madrid")).hour  # 20 s before :05
    before = state(stack)
    answer = unchanged(stack, call(stack, "snooze_reminder", {"id": sid, "minutes": 5}), refusals.BUSY, before)
    assert f"{hour:02d}:05" in answer["text"] and f"{hour - 1:02d}:05" not in answer["text"], answer["text"]
