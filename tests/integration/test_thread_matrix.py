"""Threads on a real Synapse homeserver: a reminder made in a thread is posted into that thread (it is
among the root event's `/relations`) and nowhere else; the same slot's repeat posts nothing more."""

from __future__ import annotations

import urllib.parse
import uuid

import pytest

from cronbell.core.domain.actions import encode
from sandbox.synapse import SynapseServer
from tests.support.aws import Stack
from tests.support.envelopes import envelope, fire_input
from tests.support.handlers import invoke
from tests.support.synapse_rooms import fresh_room, matrix_env

pytestmark = [pytest.mark.matrix, pytest.mark.slow]


def test_a_reminder_made_in_a_thread_is_posted_in_it_and_nowhere_else(stack: Stack, synapse: SynapseServer) -> None:
    room = fresh_room(synapse)
    matrix_env(stack, synapse, room.bot_token)
    quoted = urllib.parse.quote(room.room_id, safe="")
    root = synapse.request(
        "PUT",
        f"/_matrix/client/v3/rooms/{quoted}/send/m.room.message/{uuid.uuid4().hex}",
        {"msgtype": "m.text", "body": "Planning thread"},
        token=room.user_token,
    )["event_id"]
    event = envelope("create_reminder", {"message": "Reply here", "cron": "0 10 * * *"}, room=room.room_id)
    event["context"].update(user_id=room.user_id, thread_id=root)
    answer = invoke("tools", event)
    assert answer["ok"], answer
    sid = answer["result"]["id"]
    other = invoke(
        "tools",
        envelope(
            "create_reminder",
            {"message": "Main timeline", "time": "2026-11-30 10:00"},
            room=room.room_id,
            user=room.user_id,
        ),
    )
    assert other["ok"], other
    stack.clock.advance(hours=1)
    slot = fire_input(room.room_id, sid)
    assert invoke("fire", slot)["outcome"] == "delivered"
    assert invoke("fire", {**slot, "attempt": "2"})["outcome"] == "duplicate"
    assert invoke("fire", fire_input(room.room_id, other["result"]["id"]))["outcome"] == "delivered"

    relations = synapse.request(
        "GET",
        f"/_matrix/client/v1/rooms/{quoted}/relations/{urllib.parse.quote(root, safe='')}/m.thread",
        token=room.user_token,
    )["chunk"]
    (in_thread,) = relations
    content = in_thread["content"]
    assert in_thread["sender"] == room.bot_id and "Reply here" in content["body"]
    assert content["m.relates_to"] == {
        "rel_type": "m.thread",
        "event_id": root,
        "is_falling_back": True,
        "m.in_reply_to": {"event_id": root},
    }
    snooze = {"id": sid, "minutes": 10, "occurrence": "2026-11-30T09:00:00Z"}  # the occurrence delivered
    skip = {"id": sid, "occurrence": "2026-12-01T09:00:00Z"}  # and the one after it
    assert content["org.cronbell.actions"] == [
        {
            "label": "Snooze 10 min",
            "tool": "snooze_reminder",
            "arguments": snooze,
            "payload": encode("snooze_reminder", snooze),
        },
        {"label": "Skip next", "tool": "skip_next", "arguments": skip, "payload": encode("skip_next", skip)},
    ]
    by_bot = [m for m in synapse.messages(room.user_token, room.room_id) if m["sender"] == room.bot_id]
    assert [(m["thread_id"], "Reply here" in m["body"]) for m in by_bot] == [(root, True), (None, False)]
