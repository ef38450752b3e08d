"""Quiet hours on the fire path (docs/semantics.md, "Quiet hours"): an occurrence due in its user's
period is held, and one release entry at the period's end posts everything held for them (a moto
server and the fire use case; the clock starts on Monday 30 Nov 2026, 09:00 in Madrid)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from cronbell.core.domain.actions import decode
from cronbell.core.domain.fire_event import parse_fire_event
from cronbell.usecases import fire as fire_uc
from cronbell.usecases import tools
from cronbell.usecases.fire_writes import RetryLater
from tests.support import fire_worker
from tests.support.aws import Stack
from tests.support.chat import RecordingChat, TransientChatError
from tests.support.envelopes import ROOM, USER, envelope
from tests.support.fire_worker import EchoAgents
from tests.support.lambda_timing import RETRY_GAPS_SECONDS, FileChat, at_slot, lambda_retries
from tests.support.tools import call, fire_at, ok, schedule_item

BOB = "@bob:example.org"
NIGHT = {"start": "22:00", "end": "07:00"}  # Madrid: 21:00Z to 06:00Z
ANA_RELEASE = "2026-12-01T06:00:00Z"


def create(stack: Stack, user: str = USER, **arguments: Any) -> str:
    sid: str = ok(call(stack, "create_reminder", arguments, user=user))["id"]
    return sid


def releases(stack: Stack) -> dict[str, dict[str, Any]]:
    """The release entries, by the user whose held occurrences they post."""
    found = {}
    for entry in stack.entries().values():
        data = json.loads(entry["Target"]["Input"])
        if "release_user" in data:
            found[data["release_user"]] = entry
    return found


def fire_entry(stack: Stack, entry: dict[str, Any], chat: RecordingChat) -> dict[str, Any]:
    """Fire a one-time entry as Scheduler would: its Input with the scheduled time filled in."""
    event = json.loads(entry["Target"]["Input"])
    event.update(scheduled_time=entry["ScheduleExpression"][3:-1] + "Z", execution_id="x", attempt="1")
    at_slot(stack.clock, event)
    return fire_uc.fire(parse_fire_event(event, stack.clock.now()), stack.deps(chat=lambda: chat))


def runs_of(stack: Stack, sid: str, user: str = USER) -> list[tuple[str, str | None, int]]:
    found = ok(call(stack, "reminder_history", {"id": sid}, user=user))["runs"]
    return [(r["outcome"], r["reason"], r["late_seconds"]) for r in found]


def test_two_held_reminders_are_released_in_one_post_and_each_user_has_their_own(stack: Stack) -> None:
    pills = create(stack, message="Take the pills", time="2026-11-30 23:00")
    plants = create(stack, message="Water the plants", cron="0 6 * * *")
    call_bob = create(stack, BOB, message="Call mum", time="2026-11-30 23:30")
    ok(call(stack, "set_quiet_hours", NIGHT))
    ok(call(stack, "set_quiet_hours", {"start": "22:00", "end": "08:00"}, user=BOB))
    chat = RecordingChat()
    held = fire_at(stack, pills, "2026-11-30T22:00:00Z", chat)
    assert (held["outcome"], held["held_until"]) == ("held", "2026-12-01T07:00:00+01:00")
    assert fire_at(stack, pills, "2026-11-30T22:00:00Z", chat)["outcome"] == "duplicate"
    assert schedule_item(stack, pills)["status"] == "active"  # a held one-shot waits for its release
    assert fire_at(stack, call_bob, "2026-11-30T22:30:00Z", chat)["outcome"] == "held"
    assert fire_at(stack, plants, "2026-12-01T05:00:00Z", chat)["outcome"] == "held"
    assert chat.sent == [] and runs_of(stack, pills) == []
    entries = releases(stack)
    assert set(entries) == {USER, BOB}
    assert entries[USER]["ScheduleExpression"] == "at(2026-12-01T06:00:00)"
    assert entries[BOB]["ScheduleExpression"] == "at(2026-12-01T07:00:00)"

    released = fire_entry(stack, entries[USER], chat)
    assert (released["outcome"], released["released"]) == ("released", 2)
    ((message, key),) = chat.sent
    assert key == f"{ROOM}-release-{USER}-{ANA_RELEASE}"
    assert message.mentions == (USER,) and message.thread_id == ""
    assert message.text.count("@ana") == 1 and "Reminders held during your quiet hours" in message.text
    assert message.text.index("Take the pills") < message.text.index("Water the plants")
    assert "Monday 30 November, 23:00" in message.text and "Tuesday 1 December, 06:00" in message.text
    assert fire_entry(stack, entries[USER], chat)["outcome"] == "duplicate"  # posts nothing more
    assert len(chat.sent) == 1
    assert runs_of(stack, pills) == [("delivered", "quiet_hours", 8 * 3600)]
    assert runs_of(stack, plants) == [("delivered", "quiet_hours", 3600)]
    assert schedule_item(stack, pills)["status"] == "fired"
    assert schedule_item(stack, plants)["status"] == "active"
    assert not [i for i in stack.items() if i["sk"].startswith(f"h#{USER}#")]  # the held items are gone

    assert fire_entry(stack, entries[BOB], chat)["released"] == 1
    assert chat.sent[-1][0].mentions == (BOB,) and "Call mum" in chat.sent[-1][0].text
    assert runs_of(stack, call_bob, BOB) == [("delivered", "quiet_hours", 8 * 3600 + 1800)]


def test_the_release_speaks_spanish(stack: Stack) -> None:
    sid = ok(
        call(stack, "create_reminder", {"message": "Tomar las pastillas", "time": "2026-11-30 23:00"}, locale="es")
    )["id"]
    ok(call(stack, "set_quiet_hours", NIGHT, locale="es"))
    chat = RecordingChat()
    assert fire_at(stack, sid, "2026-11-30T22:00:00Z", chat)["outcome"] == "held"
    fire_entry(stack, releases(stack)[USER], chat)
    text = chat.sent[0][0].text
    assert "Recordatorios retenidos durante tus horas de silencio" in text and "Tomar las pastillas" in text
    assert "lunes 30 de noviembre, 23:00" in text


def test_agent_calls_run_now_and_an_exempt_one_shot_are_not_held(stack: Stack) -> None:
    ok(call(stack, "set_quiet_hours", NIGHT))
    exempt = create(stack, message="Night shift", time="2026-11-30 23:15")  # set inside her quiet hours
    agent = ok(call(stack, "cron_create", {"name": "digest", "prompt": "Summarise", "cron_expr": "30 23 * * *"}))["id"]
    nightly = create(stack, message="Lock the door", cron="45 23 * * *")
    chat = RecordingChat()
    assert fire_at(stack, exempt, "2026-11-30T22:15:00Z", chat)["outcome"] == "delivered"
    event = {"room_id": ROOM, "reminder_id": agent, "scheduled_time": "2026-11-30T22:30:00Z"}
    at_slot(stack.clock, event)
    deps = stack.deps(chat=lambda: chat, agents=EchoAgents())
    assert fire_uc.fire(parse_fire_event(event, stack.clock.now()), deps)["outcome"] == "delivered"
    assert fire_at(stack, nightly, "2026-11-30T22:45:00Z", chat)["outcome"] == "held"
    started: list[dict[str, Any]] = []
    ok(tools.handle(envelope("run_now", {"target": nightly}), stack.deps(start_fire=started.append)))
    (event,) = started
    assert event["run_now"] is True
    answer = fire_uc.fire(parse_fire_event(event, stack.clock.now()), stack.deps(chat=lambda: chat))
    assert answer["outcome"] == "delivered"
    assert len(chat.sent) == 3
    assert runs_of(stack, exempt) == [("delivered", None, 0)]


def test_a_deleted_schedules_held_occurrence_is_dropped(stack: Stack) -> None:
    kept = create(stack, message="Kept", time="2026-11-30 23:00")
    gone = create(stack, message="Gone", time="2026-11-30 23:30")
    ok(call(stack, "set_quiet_hours", NIGHT))
    chat = RecordingChat()
    assert fire_at(stack, kept, "2026-11-30T22:00:00Z", chat)["outcome"] == "held"
    assert fire_at(stack, gone, "2026-11-30T22:30:00Z", chat)["outcome"] == "held"
    ok(call(stack, "delete_reminder", {"id": gone}))
    assert fire_entry(stack, releases(stack)[USER], chat)["released"] == 1
    ((message, _),) = chat.sent
    assert "Kept" in message.text and "Gone" not in message.text
    assert not [i for i in stack.items() if i["sk"].startswith("h#")]


def test_a_release_the_chat_cannot_take_now_is_retried_and_posted_once(stack: Stack) -> None:
    sid = create(stack, message="Take the pills", time="2026-11-30 23:00")
    ok(call(stack, "set_quiet_hours", NIGHT))
    chat = RecordingChat()
    assert fire_at(stack, sid, "2026-11-30T22:00:00Z", chat)["outcome"] == "held"
    entry = releases(stack)[USER]
    early = dict(entry, ScheduleExpression="at(2026-12-01T05:00:00)")  # a hand-made release before the end
    assert fire_entry(stack, early, chat)["outcome"] == "invalid_input"
    chat.fail_with = TransientChatError("slack answered 503")
    with pytest.raises(RetryLater):
        fire_entry(stack, entry, chat)
    assert chat.sent == [] and runs_of(stack, sid) == []
    assert fire_entry(stack, entry, chat)["released"] == 1  # Lambda's retry: the claim was given back
    assert fire_entry(stack, entry, chat)["outcome"] == "duplicate"
    assert len(chat.sent) == 1 and runs_of(stack, sid) == [("delivered", "quiet_hours", 8 * 3600)]


@pytest.mark.parametrize("at", ["claim", "post"])
def test_a_release_killed_before_or_after_its_post_is_posted_once_by_lambdas_retries(
    stack: Stack, tmp_path: Path, at: str
) -> None:
    """The release's process dies (SIGKILL) holding its claim, before or right after its post. Lambda's
    retries, a minute and three later, meet that claim while its lease runs (the template's timeout): they
    wait it out and take it over, as a fire does a held slot, where they ended as duplicates and left the
    held reminder to the next day's reconciler. Posted once, its run recorded once."""
    sid = create(stack, message="Take the pills", time="2026-11-30 23:00")
    ok(call(stack, "set_quiet_hours", NIGHT))
    assert fire_at(stack, sid, "2026-11-30T22:00:00Z", RecordingChat())["outcome"] == "held"
    event = json.loads(releases(stack)[USER]["Target"]["Input"])
    event.update(scheduled_time=ANA_RELEASE, execution_id="e", attempt="1")
    at_slot(stack.clock, event)
    stack.clock.advance(seconds=1)
    chat = FileChat(tmp_path / "chat.jsonl")
    fire_worker.kill_a_worker(stack, event, chat.path, at)
    deps = stack.deps(chat=lambda: chat, sleep=lambda s: stack.clock.advance(seconds=s))

    def attempt(remaining: Any) -> dict[str, Any]:
        return fire_uc.fire(parse_fire_event(event, stack.clock.now()), deps, remaining_seconds=remaining)

    attempts = lambda_retries(stack.clock, attempt, first_gap=RETRY_GAPS_SECONDS[0])
    assert attempts.result is not None and attempts.result["outcome"] == "released", attempts.outcomes
    assert len(chat.posted()) == 1 and len(chat.attempts()) == (2 if at == "post" else 1)
    assert [(outcome, reason) for outcome, reason, _ in runs_of(stack, sid)] == [("delivered", "quiet_hours")]
    assert attempt(lambda: 300.0)["outcome"] == "duplicate"  # done: a later copy posts nothing


def repeat_entries(stack: Stack, sid: str) -> dict[str, dict[str, Any]]:
    """The repeat entries of a schedule, by the occurrence and number their Input names."""
    found = {}
    for entry in stack.entries().values():
        data = json.loads(entry["Target"]["Input"])
        if data.get("reminder_id") == sid and "repeat_of" in data:
            found[(data["repeat_of"], int(data["repeat"]))] = entry
    return found


def test_a_released_repeating_reminder_repeats_from_the_release_and_its_buttons_work(stack: Stack) -> None:
    sid = create(stack, message="Take the pills", cron="0 23 * * *", repeat_every=10, repeat_times=2)
    ok(call(stack, "set_quiet_hours", NIGHT))
    chat = RecordingChat()
    slot = "2026-11-30T22:00:00Z"
    assert fire_at(stack, sid, slot, chat)["outcome"] == "held"
    assert repeat_entries(stack, sid) == {}  # nothing repeats while it is held
    assert fire_entry(stack, releases(stack)[USER], chat)["released"] == 1
    first = repeat_entries(stack, sid)
    assert list(first) == [(slot, 1)]
    assert first[(slot, 1)]["ScheduleExpression"] == "at(2026-12-01T06:10:00)"  # counted from the release
    (release, _) = chat.sent[0]
    calls = {a.tool: a.arguments for a in release.actions}
    assert calls == {
        "done_reminder": {"id": sid},
        "snooze_reminder": {"id": sid, "minutes": 10, "occurrence": slot},
        "skip_next": {"id": sid, "occurrence": "2026-12-01T22:00:00Z"},  # the next one still to come
    }
    assert fire_entry(stack, first[(slot, 1)], chat)["outcome"] == "repeated"
    pending = repeat_entries(stack, sid)[(slot, 2)]
    repeat, key = chat.sent[-1]
    assert key == f"{sid}-{slot}-repeat-1" and "Take the pills" in repeat.text
    assert (history := ok(call(stack, "reminder_history", {"id": sid}))["runs"])[0]["repeats"] == 1
    assert history[0]["reason"] == "quiet_hours"
    assert ok(call(stack, "done_reminder", calls["done_reminder"]))["acknowledged"] is True
    assert (slot, 2) not in repeat_entries(stack, sid)  # done: the projection removed the pending repeat
    assert fire_entry(stack, pending, chat)["outcome"] == "acknowledged"  # had it fired meanwhile
    snoozed = ok(call(stack, "snooze_reminder", calls["snooze_reminder"]))  # reminded again from now
    assert snoozed["snoozed_to"] == "2026-12-01T06:30:00Z"


def test_a_release_the_chat_refuses_on_the_last_attempt_fails_each_held_run(stack: Stack) -> None:
    pills = create(stack, message="Take the pills", time="2026-11-30 23:00")
    plants = create(stack, message="Water the plants", cron="0 6 * * *")
    ok(call(stack, "set_quiet_hours", NIGHT))
    chat = RecordingChat()
    assert fire_at(stack, pills, "2026-11-30T22:00:00Z", chat)["outcome"] == "held"
    assert fire_at(stack, plants, "2026-12-01T05:00:00Z", chat)["outcome"] == "held"
    entry = releases(stack)[USER]
    for _ in range(2):  # the first attempt and Lambda's first retry give the claim back
        chat.fail_with = TransientChatError("slack answered 503")
        with pytest.raises(RetryLater):
            fire_entry(stack, entry, chat)
    chat.fail_with = TransientChatError("slack answered 503")
    answer = fire_entry(stack, entry, chat)  # the last attempt: the runs end failed, nothing raised
    assert (answer["outcome"], answer["released"]) == ("released", 2)
    assert chat.sent == []
    assert runs_of(stack, pills) == [("failed", "chat_error", 8 * 3600)]
    assert runs_of(stack, plants) == [("failed", "chat_error", 3600)]
    assert schedule_item(stack, pills)["status"] == "delivery_failed"
    plants_item = schedule_item(stack, plants)
    assert (plants_item["status"], plants_item["failure_streak"]) == ("active", 1)
    assert plants_item["delivered_count"] == 0  # its hold's count given back: a failed run never counts
    assert fire_entry(stack, entry, chat)["outcome"] == "duplicate"  # a copy after it posts nothing
    assert not [i for i in stack.items() if i["sk"].startswith("h#")]


def test_the_release_carries_each_held_reminders_actions_as_numbered_buttons(stack: Stack) -> None:
    pills = create(stack, message="Take the pills", time="2026-11-30 23:00", repeat_every=15)
    plants = create(stack, message="Water the plants", cron="0 6 * * *")
    ok(call(stack, "set_quiet_hours", NIGHT))
    chat = RecordingChat()
    fire_at(stack, pills, "2026-11-30T22:00:00Z", chat)
    fire_at(stack, plants, "2026-12-01T05:00:00Z", chat)
    fire_entry(stack, releases(stack)[USER], chat)
    ((message, _),) = chat.sent
    assert message.mentions == (USER,) and message.text.count("@ana") == 1
    assert "\n1. Take the pills" in message.text and "\n2. Water the plants" in message.text
    shown = [(a.label, a.tool, a.arguments, a.row) for a in message.actions]
    pills_at, plants_at, plants_next = "2026-11-30T22:00:00Z", "2026-12-01T05:00:00Z", "2026-12-02T05:00:00Z"
    assert shown == [
        ("1 · Done", "done_reminder", {"id": pills}, 0),
        ("1 · Snooze 10 min", "snooze_reminder", {"id": pills, "minutes": 10, "occurrence": pills_at}, 0),
        ("2 · Snooze 10 min", "snooze_reminder", {"id": plants, "minutes": 10, "occurrence": plants_at}, 1),
        ("2 · Skip next", "skip_next", {"id": plants, "occurrence": plants_next}, 1),
    ]
    for action in message.actions:  # each button is a tool call the room can make
        assert decode(action.payload) == action.call()


def test_a_count_used_by_held_occurrences_completes_at_the_release(stack: Stack) -> None:
    sid = create(stack, message="Hourly", cron="0 23,0,1,2 * * *", count=2)
    ok(call(stack, "set_quiet_hours", NIGHT))
    chat = RecordingChat()
    assert fire_at(stack, sid, "2026-11-30T22:00:00Z", chat)["outcome"] == "held"
    assert fire_at(stack, sid, "2026-11-30T23:00:00Z", chat)["outcome"] == "held"
    later = fire_at(stack, sid, "2026-12-01T00:00:00Z", chat)  # its count is used by the holds
    assert later["outcome"] == "awaits_release" and runs_of(stack, sid) == []
    assert schedule_item(stack, sid)["status"] == "active"  # as it is until the release
    own = [n for n in stack.entries() if n.startswith(sid)]
    assert own
    assert fire_entry(stack, releases(stack)[USER], chat)["released"] == 2
    assert len(chat.sent) == 1 and chat.sent[0][0].text.count("Hourly") == 2
    assert runs_of(stack, sid) == [("delivered", "quiet_hours", 7 * 3600), ("delivered", "quiet_hours", 8 * 3600)]
    completed = schedule_item(stack, sid)
    assert (completed["status"], completed["delivered_count"]) == ("completed", 2)  # each hold counted once
    assert not [n for n in stack.entries() if n.startswith(sid)]  # its entries removed at the release
