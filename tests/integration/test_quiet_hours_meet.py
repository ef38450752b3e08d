"""Quiet hours where they meet the other features (docs/semantics.md, "Quiet hours"): a held
occurrence and a change, a release and a fire in the same minute, a release and a change landing
while it posts (a moto server and the fire use case; the clock starts on Monday 30 Nov 2026, 09:00
in Madrid)."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from cronbell.adapters.chat.base import ChatMessage
from cronbell.core.domain.fire_event import parse_fire_event
from cronbell.core.domain.instants import parse_iso
from cronbell.usecases import fire as fire_uc
from tests.support.aws import Stack
from tests.support.chat import RecordingChat
from tests.support.envelopes import ROOM, USER
from tests.support.lambda_timing import at_slot
from tests.support.tools import call, fire_at, ok, schedule_item

NIGHT = {"start": "22:00", "end": "07:00"}  # Madrid: 21:00Z to 06:00Z


@dataclass
class HookedChat(RecordingChat):
    """A chat that runs `during` (once) while it takes a post: a change landing meanwhile."""

    during: list[Callable[[], None]] = field(default_factory=list)

    def send(self, message: ChatMessage, idempotency_key: str, deadline: float | None = None) -> str:
        while self.during:
            self.during.pop(0)()
        return super().send(message, idempotency_key, deadline)


def create(stack: Stack, **arguments: Any) -> str:
    sid: str = ok(call(stack, "create_reminder", arguments))["id"]
    return sid


def release_entry(stack: Stack) -> dict[str, Any]:
    (entry,) = [e for e in stack.entries().values() if "release_user" in json.loads(e["Target"]["Input"])]
    return entry


def fire_entry(stack: Stack, entry: dict[str, Any], chat: RecordingChat, at: datetime | None = None) -> dict[str, Any]:
    """Fire a one-time entry as Scheduler would (at its time, or at `at`, which Scheduler's minute
    allows around it): its Input with the scheduled time filled in."""
    event = json.loads(entry["Target"]["Input"])
    event.update(scheduled_time=entry["ScheduleExpression"][3:-1] + "Z", execution_id="x", attempt="1")
    if at is None:
        at_slot(stack.clock, event)
    else:
        stack.clock.current = at
    return fire_uc.fire(parse_fire_event(event, stack.clock.now()), stack.deps(chat=lambda: chat))


def runs_of(stack: Stack, sid: str) -> list[tuple[str, str | None]]:
    found = ok(call(stack, "reminder_history", {"id": sid}))["runs"]
    return [(r["outcome"], r["reason"]) for r in found]


def test_a_held_one_shot_given_a_new_time_is_released_and_still_fires_at_its_new_time(stack: Stack) -> None:
    pills = create(stack, message="Take the pills", time="2026-11-30 23:00")
    ok(call(stack, "set_quiet_hours", NIGHT))
    chat = RecordingChat()
    assert fire_at(stack, pills, "2026-11-30T22:00:00Z", chat)["outcome"] == "held"
    stack.clock.current = parse_iso("2026-11-30T22:30:00Z")
    updated = ok(call(stack, "update_reminder", {"id": pills, "time": "2026-12-01 10:00"}))
    assert updated["next_fire"]["local"].startswith("2026-12-01T10:00"), updated["next_fire"]
    assert fire_entry(stack, release_entry(stack), chat)["released"] == 1  # the held post, as it was due
    item = schedule_item(stack, pills)
    assert item["status"] == "active", item  # the change answered ok is kept: its new time is to come
    assert ok(call(stack, "list_reminders"))["schedules"][0]["next_fire"]["local"].startswith("2026-12-01T10:00")
    assert fire_at(stack, pills, "2026-12-01T09:00:00Z", chat)["outcome"] == "delivered"
    assert schedule_item(stack, pills)["status"] == "fired"
    assert runs_of(stack, pills) == [("delivered", None), ("delivered", "quiet_hours")]
    assert len(chat.sent) == 2


def test_a_held_one_shot_snoozed_before_its_release_comes_back_after_it(stack: Stack) -> None:
    pills = create(stack, message="Take the pills", time="2026-11-30 23:00")
    ok(call(stack, "set_quiet_hours", NIGHT))
    chat = RecordingChat()
    assert fire_at(stack, pills, "2026-11-30T22:00:00Z", chat)["outcome"] == "held"
    stack.clock.current = parse_iso("2026-12-01T05:30:00Z")
    snoozed = ok(call(stack, "snooze_reminder", {"id": pills, "minutes": 60}))
    assert snoozed["snoozed_to"] == "2026-12-01T06:30:00Z"
    assert fire_entry(stack, release_entry(stack), chat)["released"] == 1
    assert schedule_item(stack, pills)["status"] == "active"
    assert fire_at(stack, pills, "2026-12-01T06:30:00Z", chat)["outcome"] == "delivered"
    assert schedule_item(stack, pills)["status"] == "fired"
    assert len(chat.sent) == 2


def test_a_change_landing_while_a_release_posts_does_not_count_the_held_occurrence_twice(stack: Stack) -> None:
    sid = create(stack, message="Water the plants", cron="0 6 * * *", count=2)
    ok(call(stack, "set_quiet_hours", NIGHT))
    chat = HookedChat()
    assert fire_at(stack, sid, "2026-12-01T05:00:00Z", chat)["outcome"] == "held"
    chat.during.append(lambda: ok(call(stack, "update_reminder", {"id": sid, "message": "Water the ferns"})))
    assert fire_entry(stack, release_entry(stack), chat)["released"] == 1
    item = schedule_item(stack, sid)
    assert (item["status"], item["delivered_count"]) == ("active", 1), item  # one post of two so far
    assert runs_of(stack, sid) == [("delivered", "quiet_hours")]
    listed = ok(call(stack, "list_reminders"))["schedules"][0]
    assert listed["next_fire"]["local"] == "2026-12-02T06:00:00+01:00"


def test_an_occurrence_held_after_its_periods_release_ran_is_delivered_not_lost(stack: Stack) -> None:
    pills = create(stack, message="Take the pills", time="2026-11-30 23:00")
    door = create(stack, message="Unlock the door", cron="59 6 * * *")  # 05:59Z, the period's last minute
    ok(call(stack, "set_quiet_hours", NIGHT))
    chat = RecordingChat()
    assert fire_at(stack, pills, "2026-11-30T22:00:00Z", chat)["outcome"] == "held"
    # Scheduler invokes the release half a minute before its time: it posts what is held then
    released = fire_entry(stack, release_entry(stack), chat, at=parse_iso("2026-12-01T05:59:30Z"))
    assert released["released"] == 1
    event = {"room_id": ROOM, "reminder_id": door, "scheduled_time": "2026-12-01T05:59:00Z"}
    stack.clock.current = parse_iso("2026-12-01T05:59:40Z")  # still quiet: the period ends at 06:00Z
    answer = fire_uc.fire(parse_fire_event(event, stack.clock.now()), stack.deps(chat=lambda: chat))
    assert answer["outcome"] == "delivered", answer  # no release is left to post it
    assert runs_of(stack, door) == [("delivered", None)]
    assert [m.mentions for m, _ in chat.sent] == [(USER,), (USER,)]
    assert not [i for i in stack.items() if i["sk"].startswith("h#")]


def test_an_occurrence_moved_off_a_holiday_into_quiet_hours_is_held_and_released_with_its_original_time(
    stack: Stack,
) -> None:
    sid = create(stack, message="Stand-up notes", cron="0 6 * * 2", skip_holidays="ES", on_holiday="after")
    ok(call(stack, "set_quiet_hours", NIGHT))
    chat = RecordingChat()
    # Tuesday 8 December is a holiday: its 06:00 moves to Wednesday 06:00, inside her quiet hours
    assert fire_at(stack, sid, "2026-12-08T05:00:00Z", chat)["outcome"] != "held"
    assert fire_at(stack, sid, "2026-12-09T05:00:00Z", chat)["outcome"] == "held"
    assert fire_entry(stack, release_entry(stack), chat)["released"] == 1
    (run,) = ok(call(stack, "reminder_history", {"id": sid}))["runs"]
    assert (run["outcome"], run["reason"], run["moved_from"]) == (
        "delivered",
        "quiet_hours",
        "2026-12-08T06:00:00+01:00",
    )
    assert len(chat.sent) == 1
