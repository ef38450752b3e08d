"""Repeat until done where it meets older features: chat outages on Lambda's last attempt, a
`repeat_times` changed mid-chain, a `count` or `until` that ends the schedule, run_now, and an
escalation room the deployment no longer allows (a moto server and the fire use case; the clock
starts on Monday 30 Nov 2026, 09:00 in Madrid)."""

from __future__ import annotations

from typing import Any

import pytest

from cronbell.usecases.fire_writes import RetryLater
from tests.support.aws import Stack
from tests.support.chat import RecordingChat, TransientChatError
from tests.support.repeats import BOSS, SLOT, create, fire_entry, history, repeat_entries, run_now
from tests.support.tools import call, fire_at, ok


class DownChat(RecordingChat):
    """A chat platform that answers 503 while `down` is set."""

    down: bool = False

    def send(self, message: Any, idempotency_key: str, deadline: float | None = None) -> str:
        if self.down:
            raise TransientChatError("503")
        return super().send(message, idempotency_key, deadline)


def test_a_repeat_lost_to_an_outage_on_every_attempt_leaves_the_later_repeats_and_the_escalation(
    stack: Stack,
) -> None:
    sid = create(stack, repeat_times=3, escalate_to=BOSS)
    chat = DownChat()
    assert fire_at(stack, sid, SLOT, chat)["outcome"] == "delivered"
    fire_entry(stack, repeat_entries(stack, sid)[f"{sid}-repeat-1"], chat)
    chat.down = True
    second = repeat_entries(stack, sid)[f"{sid}-repeat-2"]
    for _ in range(3):  # Lambda's first attempt and its two retries all meet the outage
        with pytest.raises(RetryLater):
            fire_entry(stack, second, chat)
    chat.down = False
    assert fire_entry(stack, repeat_entries(stack, sid)[f"{sid}-repeat-3"], chat)["outcome"] == "repeated"
    assert fire_entry(stack, repeat_entries(stack, sid)[f"{sid}-repeat-4"], chat)["outcome"] == "escalated"
    assert [key.rsplit("-", 1)[-1] for _, key in chat.sent][-2:] == ["3", "escalation"]


def test_repeat_times_lowered_below_the_repeats_posted_escalates_once_at_the_next_fire(stack: Stack) -> None:
    args = {"message": "Water", "cron": "30 10 * * *", "repeat_every": 10, "repeat_times": 6}
    sid = ok(call(stack, "create_reminder", {**args, "escalate_to": BOSS}))["id"]
    chat = RecordingChat()
    fire_at(stack, sid, SLOT, chat)
    for number in (1, 2, 3):
        fire_entry(stack, repeat_entries(stack, sid)[f"{sid}-repeat-{number}"], chat)
    ok(call(stack, "update_reminder", {"id": sid, "repeat_times": 2}))
    assert fire_entry(stack, repeat_entries(stack, sid)[f"{sid}-repeat-4"], chat)["outcome"] == "escalated"
    assert sum(1 for _, key in chat.sent if key.endswith("-escalation")) == 1
    (run,) = history(stack, sid)
    assert (run["repeats"], run["escalated"]) == (3, True)


def test_the_last_counted_occurrence_still_repeats_and_escalates(stack: Stack) -> None:
    args = {"message": "Water", "cron": "30 10 * * *", "count": 1, "repeat_every": 10, "repeat_times": 1}
    sid = ok(call(stack, "create_reminder", {**args, "escalate_to": BOSS}))["id"]
    chat = RecordingChat()
    assert fire_at(stack, sid, SLOT, chat)["outcome"] == "delivered"
    assert fire_entry(stack, repeat_entries(stack, sid)[f"{sid}-repeat-1"], chat)["outcome"] == "repeated"
    assert fire_entry(stack, repeat_entries(stack, sid)[f"{sid}-repeat-2"], chat)["outcome"] == "escalated"
    (run,) = history(stack, sid)
    assert (run["repeats"], run["escalated"]) == (1, True)


def test_run_now_never_repeats_and_leaves_the_current_occurrences_repeats(stack: Stack) -> None:
    sid = ok(call(stack, "create_reminder", {"message": "Water", "cron": "30 10 * * *", "repeat_every": 10}))["id"]
    chat = RecordingChat()
    fire_at(stack, sid, SLOT, chat)
    stack.clock.current = stack.clock.current.replace(minute=35)
    answer, fired = run_now(stack, sid, chat)
    assert answer["ok"] and fired is not None and fired["outcome"] == "delivered", (answer, fired)
    names = [n for n in stack.entries() if "-repeat-" in n]
    assert len(names) == 1  # the regular occurrence's first repeat only
    assert fire_entry(stack, repeat_entries(stack, sid)[f"{sid}-repeat-1"], chat)["outcome"] == "repeated"
    done = ok(call(stack, "done_reminder", {"id": sid}))
    assert done["acknowledged"] is True and done["occurrence"] == SLOT


def test_an_escalation_to_a_room_no_longer_allowed_is_told_in_the_schedules_room_without_mentioning_the_room(
    moto_endpoint: str, clock: Any
) -> None:
    from tests.support.aws import provision

    stack = provision(moto_endpoint, clock, allowed_output_rooms=("!ops:example.org",))
    sid = create(stack, repeat_times=1, escalate_to="!ops:example.org")
    chat = RecordingChat()
    fire_at(stack, sid, SLOT, chat)
    fire_entry(stack, repeat_entries(stack, sid)[f"{sid}-repeat-1"], chat)
    stack.settings = type(stack.settings)(**{**stack.settings.__dict__, "allowed_output_rooms": ()})
    assert fire_entry(stack, repeat_entries(stack, sid)[f"{sid}-repeat-2"], chat)["outcome"] == "escalated"
    message = chat.sent[-1][0]
    assert message.room_id != "!ops:example.org"
    assert "!ops:example.org" not in message.mentions, message
