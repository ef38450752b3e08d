"""Repeat until done, then escalate (core/domain/repeats.py): the one-time entries of an occurrence's
repeats, each claimed on the occurrence's run, the Done button, and what stops the repeats (a moto
server and the fire use case; the clock starts on Monday 30 Nov 2026, 09:00 in Madrid)."""

from __future__ import annotations

import json
from datetime import timedelta

from cronbell.core.domain.actions import decode
from cronbell.core.domain.instants import iso_utc, parse_iso
from tests.support.aws import Stack
from tests.support.chat import PermanentChatError, RecordingChat
from tests.support.repeats import BOSS, SLOT, create, fire_entry, history, repeat_entries
from tests.support.tools import call, fire_at, ok


def test_repeats_run_out_then_the_escalation_is_posted_once(stack: Stack) -> None:
    sid = create(stack, repeat_times=2, escalate_to=BOSS)
    chat = RecordingChat()
    assert fire_at(stack, sid, SLOT, chat)["outcome"] == "delivered"
    first = repeat_entries(stack, sid)
    assert list(first) == [f"{sid}-repeat-1"]
    assert first[f"{sid}-repeat-1"]["ScheduleExpression"] == "at(2026-11-30T09:40:00)"
    assert first[f"{sid}-repeat-1"]["State"] == "ENABLED"  # the one-shot is fired; its repeats go on
    assert next(a.tool for a in chat.sent[-1][0].actions) == "done_reminder"
    for number in (1, 2):
        entry = repeat_entries(stack, sid)[f"{sid}-repeat-{number}"]
        assert fire_entry(stack, entry, chat)["outcome"] == "repeated"
        assert fire_entry(stack, entry, chat)["outcome"] == "duplicate"  # a duplicate posts nothing
    escalation = repeat_entries(stack, sid)[f"{sid}-repeat-3"]
    assert escalation["ScheduleExpression"] == "at(2026-11-30T10:00:00)"
    assert fire_entry(stack, escalation, chat)["outcome"] == "escalated"
    assert fire_entry(stack, escalation, chat)["outcome"] == "duplicate"
    keys = [key for _, key in chat.sent]
    assert keys == [f"{sid}-{SLOT}", f"{sid}-{SLOT}-repeat-1", f"{sid}-{SLOT}-repeat-2", f"{sid}-{SLOT}-escalation"]
    message = chat.sent[-1][0]
    assert BOSS in message.mentions and "Take the pills" in message.text and "2 reminder(s)" in message.text
    assert "2 of 2" not in message.text and "Reminder 2 of 2" in chat.sent[2][0].text
    (run,) = history(stack, sid)
    assert (run["repeats"], run["escalated"], run["acknowledged_at"]) == (2, True, None)
    late = call(stack, "done_reminder", {"id": sid})  # late, but it is done: recorded, and said to stop nothing
    assert ok(late)["acknowledged"] is True
    assert "were all posted already, so nothing more was coming" in late["text"] and "repeats stop" not in late["text"]
    assert history(stack, sid)[0]["acknowledged_at"] == iso_utc(stack.clock.now())


def test_the_done_button_stops_every_later_repeat_and_the_escalation(stack: Stack) -> None:
    sid = create(stack, repeat_times=3, escalate_to=BOSS)
    chat = RecordingChat()
    fire_at(stack, sid, SLOT, chat)
    fire_entry(stack, repeat_entries(stack, sid)[f"{sid}-repeat-1"], chat)
    pending = repeat_entries(stack, sid)[f"{sid}-repeat-2"]
    (done,) = [decode(a.payload) for a in chat.sent[-1][0].actions if a.tool == "done_reminder"]
    assert done == {"tool": "done_reminder", "arguments": {"id": sid}}
    stack.clock.current += timedelta(minutes=3)
    answer = call(stack, "done_reminder", done["arguments"], locale="es")
    assert answer["ok"] and answer["result"]["acknowledged"] is True
    assert "Confirmado" in answer["text"] and "sus repeticiones se detienen" in answer["text"]
    again = call(stack, "done_reminder", done["arguments"])
    assert again["result"]["acknowledged"] is False and "no occurrence repeating" in again["text"]
    assert not {f"{sid}-repeat-2", f"{sid}-repeat-3"} & set(repeat_entries(stack, sid))  # projected away
    posts = len(chat.sent)
    assert fire_entry(stack, pending, chat)["outcome"] == "acknowledged"  # had it fired meanwhile
    assert len(chat.sent) == posts and f"{sid}-repeat-3" not in repeat_entries(stack, sid)
    (run,) = history(stack, sid)
    assert run["repeats"] == 1 and run["escalated"] is False
    assert parse_iso(run["acknowledged_at"]) == parse_iso("2026-11-30T09:43:00Z")


def test_a_snooze_a_pause_or_a_later_occurrence_stops_the_current_repeats(stack: Stack) -> None:
    chat = RecordingChat()
    snoozed = create(stack, message="Stretch")
    fire_at(stack, snoozed, SLOT, chat)
    ok(call(stack, "snooze_reminder", {"id": snoozed, "minutes": 30}))
    entry = repeat_entries(stack, snoozed)[f"{snoozed}-repeat-1"]
    assert fire_entry(stack, entry, chat)["outcome"] == "stopped"
    assert ok(call(stack, "done_reminder", {"id": snoozed}))["acknowledged"] is False
    daily = ok(call(stack, "create_reminder", {"message": "Water", "cron": "0 12 * * *", "repeat_every": 30}))["id"]
    fire_at(stack, daily, "2026-11-30T11:00:00Z", chat)
    fire_at(stack, daily, "2026-12-01T11:00:00Z", chat)  # the next day's post is the current one now
    earlier = repeat_entries(stack, daily, "2026-11-30T11:00:00Z")[f"{daily}-repeat-1"]
    assert json.loads(earlier["Target"]["Input"])["repeat_of"] == "2026-11-30T11:00:00Z"  # names of its own
    assert fire_entry(stack, earlier, chat)["outcome"] == "stopped"  # superseded by the later occurrence
    ok(call(stack, "pause_reminder", {"id": daily}))
    ok(call(stack, "resume_reminder", {"id": daily}))  # resuming does not bring the repeats back
    latest = repeat_entries(stack, daily, "2026-12-01T11:00:00Z")[f"{daily}-repeat-1"]
    assert fire_entry(stack, latest, chat)["outcome"] == "stopped"
    gone = ok(call(stack, "create_reminder", {"message": "Walk", "cron": "0 14 * * *", "repeat_every": 5}))["id"]
    fire_at(stack, gone, "2026-12-01T13:00:00Z", chat)
    ok(call(stack, "delete_reminder", {"id": gone}))
    posts = len(chat.sent)
    entry = repeat_entries(stack, gone, "2026-12-01T13:00:00Z")[f"{gone}-repeat-1"]
    assert fire_entry(stack, entry, chat)["outcome"] == "stopped"
    assert len(chat.sent) == posts


def test_repeat_arguments_are_checked_and_agent_calls_never_repeat(stack: Stack) -> None:
    refused = call(stack, "create_reminder", {"message": "x", "time": "in 1 hour", "repeat_times": 2})
    assert refused["ok"] is False and refused["error"]["code"] == "invalid_arguments"
    assert "repeat_every" in refused["text"]
    low = call(stack, "create_reminder", {"message": "x", "time": "in 1 hour", "repeat_every": 4})
    assert low["ok"] is False and low["error"]["code"] == "invalid_arguments"
    room = call(
        stack, "create_reminder", {"message": "x", "time": "in 1 hour", "repeat_every": 5, "escalate_to": "!x:y"}
    )
    assert room["ok"] is False and room["error"]["code"] == "forbidden_channel"
    job = ok(call(stack, "cron_create", {"name": "j", "prompt": "p", "cron_expr": "0 9 * * *"}))["id"]
    update = call(stack, "update_reminder", {"id": job, "repeat_every": 10})
    assert update["ok"] is False and update["error"]["code"] == "invalid_arguments"
    sid = create(stack)
    ok(call(stack, "update_reminder", {"id": sid, "repeat_every": 0}))
    chat = RecordingChat()
    fire_at(stack, sid, SLOT, chat)
    assert not repeat_entries(stack, sid) and all(a.tool != "done_reminder" for a in chat.sent[-1][0].actions)


def test_an_escalation_the_chat_refuses_for_good_is_not_recorded_as_escalated(stack: Stack) -> None:
    """A refused escalation (a workspace without a token, a room the bot left) was recorded `escalated`,
    announced as `Run Escalated` and answered `escalated`, though nothing was posted anywhere."""
    sid = create(stack, repeat_times=1, escalate_to=BOSS)
    chat = RecordingChat()
    fire_at(stack, sid, SLOT, chat)
    fire_entry(stack, repeat_entries(stack, sid)[f"{sid}-repeat-1"], chat)
    escalation = repeat_entries(stack, sid)[f"{sid}-repeat-2"]
    posts = len(chat.sent)
    chat.fail_with = PermanentChatError("not_in_channel")
    assert fire_entry(stack, escalation, chat)["outcome"] == "delivery_failed"
    assert len(chat.sent) == posts
    (run,) = history(stack, sid)
    assert (run["repeats"], run["escalated"]) == (1, False)
    assert fire_entry(stack, escalation, chat)["outcome"] == "escalated"  # a later copy that gets through posts it once
    assert fire_entry(stack, escalation, chat)["outcome"] == "duplicate"
    assert history(stack, sid)[0]["escalated"] is True


def test_a_repeat_due_with_the_next_occurrence_is_not_posted_and_ends_the_chain(stack: Stack) -> None:
    """Every 15 minutes, repeated every 5: the third repeat would be due with the next occurrence, and two
    posts of one reminder in one minute are one too many. Whichever fire comes first, one post is made."""
    chat = RecordingChat()
    sid = ok(call(stack, "create_reminder", {"message": "Check the oven", "cron": "*/15 * * * *", "repeat_every": 5}))
    sid = sid["id"]
    first = "2026-11-30T08:15:00Z"
    fire_at(stack, sid, first, chat)
    for number in (1, 2):
        assert fire_entry(stack, repeat_entries(stack, sid, first)[f"{sid}-repeat-{number}"], chat)["outcome"] == (
            "repeated"
        )
    third = repeat_entries(stack, sid, first)[f"{sid}-repeat-3"]
    assert third["ScheduleExpression"] == "at(2026-11-30T08:30:00)"  # with the next occurrence
    posts = len(chat.sent)
    assert fire_entry(stack, third, chat)["outcome"] == "stopped"  # before the occurrence's own fire
    assert len(chat.sent) == posts and f"{sid}-repeat-4" not in repeat_entries(stack, sid, first)
    assert fire_at(stack, sid, "2026-11-30T08:30:00Z", chat)["outcome"] == "delivered"
    assert len(chat.sent) == posts + 1
    assert [run["repeats"] for run in history(stack, sid)] == [0, 2]  # newest first
