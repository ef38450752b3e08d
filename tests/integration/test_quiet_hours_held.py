"""Quiet hours while something is held (docs/semantics.md, "Quiet hours"): answers show the release
of an occurrence held now, a repeat that finds its user quiet moves to the period's end, and the
reconciler writes again a release whose entry was lost (a moto server and the fire use case; the
clock starts on Monday 30 Nov 2026, 09:00 in Madrid)."""

from __future__ import annotations

import json
from typing import Any

from cronbell.core.domain.fire_event import parse_fire_event
from cronbell.usecases import fire as fire_uc
from cronbell.usecases.reconcile import reconcile
from tests.support.aws import Stack
from tests.support.chat import RecordingChat
from tests.support.lambda_timing import at_slot
from tests.support.tools import call, fire_at, ok, schedule_item

NIGHT = {"start": "22:00", "end": "07:00"}  # Madrid: 21:00Z to 06:00Z
RELEASE = "2026-12-01T07:00:00+01:00"
BOSS = "@boss:example.org"


def create(stack: Stack, **arguments: Any) -> str:
    sid: str = ok(call(stack, "create_reminder", arguments))["id"]
    return sid


def release_entries(stack: Stack) -> dict[str, dict[str, Any]]:
    """The release entries, by name."""
    return {n: e for n, e in stack.entries().items() if "release_user" in json.loads(e["Target"]["Input"])}


def fire_entry(stack: Stack, entry: dict[str, Any], chat: RecordingChat) -> dict[str, Any]:
    """Fire a one-time entry as Scheduler would: its Input with the scheduled time filled in."""
    event = json.loads(entry["Target"]["Input"])
    event.update(scheduled_time=entry["ScheduleExpression"][3:-1] + "Z", execution_id="x", attempt="1")
    at_slot(stack.clock, event)
    return fire_uc.fire(parse_fire_event(event, stack.clock.now()), stack.deps(chat=lambda: chat))


def listed(stack: Stack, tool: str = "list_reminders") -> dict[str, dict[str, Any]]:
    answer = ok(call(stack, tool))
    items = answer if isinstance(answer, list) else answer["schedules"]
    return {s["id"]: s for s in items}


def test_answers_show_the_release_of_an_occurrence_held_now(stack: Stack) -> None:
    pills = create(stack, message="Take the pills", time="2026-11-30 23:00")
    plants = create(stack, message="Water the plants", cron="0 6 * * *")
    ok(call(stack, "set_quiet_hours", NIGHT))
    chat = RecordingChat()
    assert fire_at(stack, pills, "2026-11-30T22:00:00Z", chat)["outcome"] == "held"
    # a held one-shot stays active, with nothing to come, and shows its release
    one = listed(stack)[pills]
    assert (one["status"], one["next_fire"], one["held_until"]) == ("active", None, RELEASE)
    assert listed(stack, "cron_list")[pills]["held_until"] == RELEASE
    text = call(stack, "list_reminders")["text"]
    assert f"{pills} “Take the pills”, held by quiet hours until Tuesday 1 December, 07:00" in text, text
    updated = call(stack, "update_reminder", {"id": pills, "message": "Take the blue pills"})
    assert ok(updated)["held_until"] == RELEASE and ok(updated)["next_fire"] is None
    assert "“Take the blue pills”: held by quiet hours until Tuesday 1 December, 07:00." in updated["text"]

    assert fire_at(stack, plants, "2026-12-01T05:00:00Z", chat)["outcome"] == "held"
    # its next occurrence (Wednesday 06:00) would be held until Wednesday 07:00: the one held now comes first
    assert listed(stack)[plants]["held_until"] == RELEASE
    assert ok(call(stack, "pause_reminder", {"id": plants}))["status"] == "paused"
    paused = listed(stack)[plants]
    assert (paused["status"], paused["held_until"]) == ("paused", RELEASE)  # a pause does not stop a held post
    assert f"{plants} “Water the plants”, paused, held by quiet hours until" in call(stack, "list_reminders")["text"]
    assert chat.sent == []

    (entry,) = release_entries(stack).values()
    assert fire_entry(stack, entry, chat)["released"] == 2
    assert schedule_item(stack, pills)["status"] == "fired"
    assert "releases" not in schedule_item(stack, plants)  # released: held no more
    assert listed(stack)[plants]["held_until"] is None  # paused: nothing of it to come
    resumed = ok(call(stack, "resume_reminder", {"id": plants}))
    assert resumed["held_until"] == "2026-12-02T07:00:00+01:00"  # its next occurrence would be held


def repeat_entries(stack: Stack, sid: str) -> dict[int, dict[str, Any]]:
    """The repeat entries of a schedule's occurrence, by the number of the post they make."""
    found = {}
    for entry in stack.entries().values():
        data = json.loads(entry["Target"]["Input"])
        if data.get("reminder_id") == sid and "repeat" in data:
            found[int(data["repeat"])] = entry
    return found


def test_a_repeat_that_finds_its_user_quiet_moves_to_the_periods_end_and_the_ones_after_it_follow(
    stack: Stack,
) -> None:
    sid = create(
        stack, message="Take the pills", time="2026-11-30 21:50", repeat_every=10, repeat_times=2, escalate_to=BOSS
    )
    ok(call(stack, "set_quiet_hours", NIGHT))
    chat = RecordingChat()
    assert fire_at(stack, sid, "2026-11-30T20:50:00Z", chat)["outcome"] == "delivered"  # 21:50 in Madrid
    (first,) = repeat_entries(stack, sid).values()
    assert first["ScheduleExpression"] == "at(2026-11-30T21:00:00)"  # 22:00 in Madrid: quiet
    moved = fire_entry(stack, first, chat)
    assert (moved["outcome"], moved["held_until"]) == ("held", "2026-12-01T06:00:00Z")
    assert len(chat.sent) == 1  # posts nothing
    # Scheduler deletes the one-time entry it fired, maybe after that fire wrote: the moved one is another
    stack.remove_entry(first["Name"])
    entries = repeat_entries(stack, sid)
    assert list(entries) == [1] and entries[1]["ScheduleExpression"] == "at(2026-12-01T06:00:00)"
    assert fire_entry(stack, entries[1], chat)["outcome"] == "repeated"
    second = repeat_entries(stack, sid)[2]
    assert second["ScheduleExpression"] == "at(2026-12-01T06:10:00)"  # repeat_every after the one before
    assert fire_entry(stack, second, chat)["outcome"] == "repeated"
    escalation = repeat_entries(stack, sid)[3]
    assert escalation["ScheduleExpression"] == "at(2026-12-01T06:20:00)"
    assert fire_entry(stack, escalation, chat)["outcome"] == "escalated"
    keys = [key for _, key in chat.sent]
    slot = "2026-11-30T20:50:00Z"
    assert keys == [f"{sid}-{slot}", f"{sid}-{slot}-repeat-1", f"{sid}-{slot}-repeat-2", f"{sid}-{slot}-escalation"]
    (run,) = ok(call(stack, "reminder_history", {"id": sid}))["runs"]
    assert (run["outcome"], run["repeats"], run["escalated"]) == ("delivered", 2, True)


def test_the_escalation_is_not_held(stack: Stack) -> None:
    sid = create(
        stack, message="Take the pills", time="2026-11-30 21:40", repeat_every=10, repeat_times=1, escalate_to=BOSS
    )
    ok(call(stack, "set_quiet_hours", NIGHT))
    chat = RecordingChat()
    assert fire_at(stack, sid, "2026-11-30T20:40:00Z", chat)["outcome"] == "delivered"
    assert fire_entry(stack, repeat_entries(stack, sid)[1], chat)["outcome"] == "repeated"  # 21:50: not quiet
    escalation = repeat_entries(stack, sid)[2]
    assert escalation["ScheduleExpression"] == "at(2026-11-30T21:00:00)"  # 22:00 in Madrid: quiet
    assert fire_entry(stack, escalation, chat)["outcome"] == "escalated"
    assert BOSS in chat.sent[-1][0].mentions


def test_the_reconciler_writes_again_a_release_whose_entry_was_lost(stack: Stack) -> None:
    pills = create(stack, message="Take the pills", time="2026-11-30 20:00")
    plants = create(stack, message="Water the plants", cron="0 6 * * *")
    ok(call(stack, "set_quiet_hours", {"start": "20:00", "end": "07:00"}))  # Madrid: 19:00Z to 06:00Z
    chat = RecordingChat()
    assert fire_at(stack, pills, "2026-11-30T19:00:00Z", chat)["outcome"] == "held"
    assert fire_at(stack, plants, "2026-12-01T05:00:00Z", chat)["outcome"] == "held"
    (name,) = release_entries(stack)
    stack.remove_entry(pills)  # it fired
    # past the missed threshold of a one-shot whose entry fired: a held one waits for its release
    assert reconcile(stack.deps(chat=lambda: chat)).to_dict()["missed"] == 0
    assert schedule_item(stack, pills)["status"] == "active"
    stack.remove_entry(name)  # lost with Scheduler
    stack.clock.advance(minutes=70)  # 06:10Z: the period ended, within the grace window
    assert reconcile(stack.deps(chat=lambda: chat)).to_dict()["releases_rewritten"] == 0
    stack.clock.advance(minutes=10)  # past the grace window
    report = reconcile(stack.deps(chat=lambda: chat)).to_dict()
    assert report["releases_rewritten"] == 1 and report["missed"] == 0
    entry = release_entries(stack)[name]
    assert entry["ScheduleExpression"] == "at(2026-12-01T06:21:00)" and entry["State"] == "ENABLED"  # a minute on
    assert json.loads(entry["Target"]["Input"])["release_until"] == "2026-12-01T06:00:00Z"
    assert reconcile(stack.deps(chat=lambda: chat)).to_dict()["releases_rewritten"] == 0  # it is there now
    released = fire_entry(stack, entry, chat)
    assert (released["outcome"], released["released"]) == ("released", 2)
    ((message, _),) = chat.sent
    assert "Take the pills" in message.text and "Water the plants" in message.text
    runs = ok(call(stack, "reminder_history", {"id": pills}))["runs"]
    assert [(r["outcome"], r["reason"], r["late_seconds"]) for r in runs] == [
        ("delivered", "quiet_hours", 11 * 3600 + 21 * 60)
    ]
    assert schedule_item(stack, pills)["status"] == "fired"
    stack.clock.advance(minutes=20)
    assert reconcile(stack.deps(chat=lambda: chat)).to_dict()["releases_rewritten"] == 0  # nothing held any more


def test_a_release_done_already_is_not_written_again(stack: Stack) -> None:
    pills = create(stack, message="Take the pills", time="2026-11-30 23:00")
    ok(call(stack, "set_quiet_hours", NIGHT))
    chat = RecordingChat()
    assert fire_at(stack, pills, "2026-11-30T22:00:00Z", chat)["outcome"] == "held"
    (entry,) = release_entries(stack).values()
    assert fire_entry(stack, entry, chat)["released"] == 1
    stack.remove_entry(entry["Name"])  # fired
    stack.clock.advance(hours=1)
    assert reconcile(stack.deps(chat=lambda: chat)).to_dict()["releases_rewritten"] == 0
    assert release_entries(stack) == {}
