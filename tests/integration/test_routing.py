"""Routing on a moto server: threads stored and used by every post, several platforms in one
deployment (the same room id on two platforms is two rooms), quick actions on delivered reminders."""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

import pytest

from cronbell.core.domain import refusals
from cronbell.core.domain.actions import decode
from cronbell.core.domain.fire_event import parse_fire_event
from cronbell.usecases import fire as fire_uc
from cronbell.usecases import tools
from tests.support.aws import Stack
from tests.support.chat import RecordingChat
from tests.support.envelopes import ROOM, envelope
from tests.support.tools import assert_consistent, live_items, ok

THREAD = "$root:example.org"


def call(stack: Stack, tool: str, args: dict[str, Any], **context: str) -> dict[str, Any]:
    event = envelope(tool, args, room=context.pop("room", ROOM))
    event["context"].update(context)
    answer = tools.handle(event, stack.deps())
    json.dumps(answer)
    return answer


def fire_entry(stack: Stack, chat: RecordingChat, schedule_id: str, slot: str) -> dict[str, Any]:
    """Fire with the Input of the schedule's own Scheduler entry, context attributes filled in."""
    entry = stack.entries()[schedule_id]
    event = json.loads(entry["Target"]["Input"])
    event.update(scheduled_time=slot, execution_id="x", attempt="1")
    return fire_uc.fire(parse_fire_event(event, stack.clock.now()), stack.deps(chat=lambda: chat))


@pytest.fixture
def multi(stack: Stack) -> Stack:
    stack.settings = replace(stack.settings, chat_backend="matrix,slack,telegram")
    return stack


def test_a_reminder_made_in_a_thread_is_stored_listed_and_delivered_in_it(stack: Stack) -> None:
    sid = ok(call(stack, "create_reminder", {"message": "Reply to Marta", "cron": "0 10 * * *"}, thread_id=THREAD))[
        "id"
    ]
    (item,) = live_items(stack)
    assert item["thread_id"] == THREAD
    (listed,) = ok(call(stack, "list_reminders", {}))["schedules"]
    assert listed["thread_id"] == THREAD
    chat = RecordingChat()
    stack.clock.advance(hours=2)
    assert fire_entry(stack, chat, sid, "2026-11-30T09:00:00Z")["outcome"] == "delivered"
    [(message, _key)] = chat.sent
    assert (message.room_id, message.thread_id, message.platform) == (ROOM, THREAD, "")
    # recurring: snooze 10 minutes and skip the next one, each decoding to exactly its tool call
    # snooze names the occurrence delivered, skip the one after it
    assert [a.as_dict() for a in message.actions] == [
        {
            "label": "Snooze 10 min",
            "tool": "snooze_reminder",
            "arguments": {"id": sid, "minutes": 10, "occurrence": "2026-11-30T09:00:00Z"},
        },
        {"label": "Skip next", "tool": "skip_next", "arguments": {"id": sid, "occurrence": "2026-12-01T09:00:00Z"}},
    ]
    assert [decode(a.payload) for a in message.actions] == [a.call() for a in message.actions]


def test_an_agent_answer_to_another_room_goes_to_its_main_timeline(stack: Stack) -> None:
    stack.settings = replace(stack.settings, allowed_output_rooms=("!news:example.org",))
    args = {"name": "digest", "prompt": "p", "cron_expr": "0 10 * * *", "channel": "!news:example.org"}
    other = ok(call(stack, "cron_create", args, thread_id=THREAD))
    here = ok(call(stack, "cron_create", {**args, "name": "here", "channel": ROOM}, thread_id=THREAD))
    assert other["channel"] == "!news:example.org"

    class Echo:
        configured = True

        def call(self, agent: str, request: dict[str, Any], timeout: int) -> str:
            return "echo: " + request["prompt"]

    chat = RecordingChat()
    stack.clock.advance(hours=2)
    for sid in (other["id"], here["id"]):
        entry = json.loads(stack.entries()[sid]["Target"]["Input"])
        entry.update(scheduled_time="2026-11-30T09:00:00Z")
        fire_uc.fire(parse_fire_event(entry, stack.clock.now()), stack.deps(chat=lambda: chat, agents=Echo()))
    assert [(m.room_id, m.thread_id, m.actions) for m, _ in chat.sent] == [
        ("!news:example.org", "", ()),
        (ROOM, THREAD, ()),
    ]


def test_the_same_room_id_on_two_platforms_is_two_rooms(multi: Stack) -> None:
    args = {"message": "Standup", "cron": "0 10 * * 1"}
    on_matrix = ok(call(multi, "create_reminder", args, room="C0123"))["id"]
    on_slack = ok(call(multi, "create_reminder", args, room="C0123", platform="slack"))["id"]
    on_telegram = ok(call(multi, "create_reminder", args, room="C0123", platform="Telegram"))["id"]
    assert len({on_matrix, on_slack, on_telegram}) == 3  # not duplicates of each other
    for platform, sid in (("", on_matrix), ("matrix", on_matrix), ("slack", on_slack), ("telegram", on_telegram)):
        listed = ok(call(multi, "list_reminders", {}, room="C0123", platform=platform))["schedules"]
        assert [s["id"] for s in listed] == [sid]
    # a room of one platform cannot delete the same id string's schedules on another
    refused = call(multi, "delete_reminder", {"id": on_slack}, room="C0123", platform="telegram")
    assert refused["error"]["code"] == refusals.NOT_FOUND
    assert_consistent(multi)

    chat = RecordingChat()
    multi.clock.advance(hours=2)
    for sid in (on_matrix, on_slack, on_telegram):
        assert fire_entry(multi, chat, sid, "2026-11-30T09:00:00Z")["outcome"] == "delivered"
    assert [(m.platform, m.room_id) for m, _ in chat.sent] == [("", "C0123"), ("slack", "C0123"), ("telegram", "C0123")]


def test_an_allowed_output_room_is_allowed_on_its_own_platform_only(multi: Stack) -> None:
    multi.settings = replace(multi.settings, allowed_output_rooms=("slack:C0999", "!news:example.org"))
    args = {"name": "digest", "prompt": "p", "cron_expr": "0 10 * * *", "channel": "C0999"}
    allowed = ok(call(multi, "cron_create", args, room="C0123", platform="slack"))
    for platform in ("telegram", ""):  # the same id string on another platform is another room
        refused = call(multi, "cron_create", args, room="C0123", platform=platform)
        assert refused["error"]["code"] == refusals.FORBIDDEN_CHANNEL, refused
    news = {**args, "name": "news", "channel": "!news:example.org"}
    assert ok(call(multi, "cron_create", news, room="!here:example.org"))["channel"] == "!news:example.org"
    refused = call(multi, "cron_create", news, room="C0123", platform="slack")  # a bare entry: the default platform
    assert refused["error"]["code"] == refusals.FORBIDDEN_CHANNEL

    class Echo:
        configured = True

        def call(self, agent: str, request: dict[str, Any], timeout: int) -> str:
            return "echo: " + request["prompt"]

    chat = RecordingChat()
    multi.clock.advance(hours=1)  # 09:00 UTC, 10:00 in Madrid
    deps = multi.deps(chat=lambda: chat, agents=Echo())
    event = json.loads(multi.entries()[allowed["id"]]["Target"]["Input"])
    event.update(scheduled_time="2026-11-30T09:00:00Z")
    assert fire_uc.fire(parse_fire_event(event, multi.clock.now()), deps)["outcome"] == "delivered"
    assert [(m.platform, m.room_id) for m, _ in chat.sent] == [("slack", "C0999")]
    # at fire time too: the entry moved to another platform's C0999, the schedule posts nowhere
    multi.settings = replace(multi.settings, allowed_output_rooms=("telegram:C0999",))
    event.update(scheduled_time="2026-12-01T09:00:00Z")
    multi.clock.advance(days=1)
    deps = multi.deps(chat=lambda: chat, agents=Echo())
    assert fire_uc.fire(parse_fire_event(event, multi.clock.now()), deps)["outcome"] == "forbidden_channel"
    # its failed run is told in the schedule's own room only, on its own platform
    assert [(m.platform, m.room_id) for m, _ in chat.sent[1:]] == [("slack", "C0123")]


@pytest.mark.parametrize("platform", ["discord", "irc", "slack"])
def test_a_platform_the_deployment_does_not_configure_is_refused(stack: Stack, platform: str) -> None:
    answer = call(stack, "create_reminder", {"message": "x", "time": "in 1 hour"}, platform=platform)
    assert answer["ok"] is False and answer["error"]["code"] == refusals.UNKNOWN_PLATFORM
    assert "matrix" in answer["error"]["message"]
    assert live_items(stack) == [] and stack.entries() == {}


def test_single_backend_deployments_keep_their_keys(stack: Stack) -> None:
    """A deployment with one backend keys rooms as before, named platform or not."""
    ok(call(stack, "create_reminder", {"message": "a", "time": "in 1 hour"}))
    ok(call(stack, "create_reminder", {"message": "b", "time": "in 1 hour"}, platform="matrix"))
    assert {i["room_id"] for i in live_items(stack)} == {ROOM}


def test_the_same_reminder_in_a_thread_and_in_the_main_timeline_is_two_reminders(stack: Stack) -> None:
    args = {"message": "Standup", "cron": "0 10 * * 1"}
    in_thread = ok(call(stack, "create_reminder", args, thread_id=THREAD))
    main = ok(call(stack, "create_reminder", args))
    again = ok(call(stack, "create_reminder", args, thread_id=THREAD))
    assert in_thread["id"] != main["id"]
    assert again["id"] == in_thread["id"]  # the same one in the same thread is a duplicate


def test_a_schedule_whose_platform_was_removed_fails_and_is_never_posted_elsewhere(multi: Stack) -> None:
    """Two platforms become one: a Slack room's reminder must not reach the same bare id on Matrix. Its
    occurrence ends as a failed run (`chat_refused`) under the failure policy, and nothing is posted."""
    args = {"message": "Standup", "cron": "0 10 * * *"}
    on_slack = ok(call(multi, "create_reminder", args, room="C0123", platform="slack"))["id"]
    on_matrix = ok(call(multi, "create_reminder", args, room="C0123"))["id"]
    multi.settings = replace(multi.settings, chat_backend="matrix")
    chat = RecordingChat()
    multi.clock.advance(hours=2)
    answer = fire_entry(multi, chat, on_slack, "2026-11-30T09:00:00Z")
    assert (answer["outcome"], answer["reason"]) == ("platform_not_configured", "chat_refused")
    assert chat.sent == []
    assert fire_entry(multi, chat, on_matrix, "2026-11-30T09:00:00Z")["outcome"] == "delivered"
    assert [(m.platform, m.room_id) for m, _ in chat.sent] == [("", "C0123")]
    multi.settings = replace(multi.settings, chat_backend="matrix,slack")
    history = ok(call(multi, "reminder_history", {"id": on_slack}, room="C0123", platform="slack"))["runs"]
    assert [(run["outcome"], run["reason"]) for run in history] == [("failed", "chat_refused")]
    (listed,) = ok(call(multi, "list_reminders", {}, room="C0123", platform="slack"))["schedules"]
    assert listed["failure_streak"] == 1
