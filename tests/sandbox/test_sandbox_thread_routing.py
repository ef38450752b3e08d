"""A post to a platform's stand-in is listed by `/_sandbox/messages` with the thread its request carried, in
`context.thread_id`'s forms (docs/chat-platforms.md): the real senders post over HTTP to the sandbox's port,
served in-process, and the room is read back from it."""

from __future__ import annotations

import json
import urllib.parse
import urllib.request
from collections.abc import Iterator
from datetime import UTC, datetime
from types import SimpleNamespace
from typing import Any

import pytest

from cronbell.adapters.chat.discord import DiscordBotSender
from cronbell.adapters.chat.telegram import TelegramChatSender
from cronbell.core.domain.messages import ChatMessage
from sandbox.chat import SinkChat
from sandbox.clock import VirtualClock
from sandbox.platforms import PlatformStandIns
from tests.support.sandbox_http import serving

CHAT = "-1001234567890"
CHANNEL, THREAD_CHANNEL = "1100000000000000001", "1100000000000000002"


@pytest.fixture
def port_and_stand_ins() -> Iterator[tuple[int, PlatformStandIns]]:
    sink = SinkChat(VirtualClock(datetime(2030, 1, 7, 8, tzinfo=UTC)))
    stand_ins = PlatformStandIns(sink)
    sandbox = SimpleNamespace(ready=True, runtime=None, engine=None, sink=sink, platforms=stand_ins)
    sandbox.messages = sink.messages
    with serving(sandbox) as httpd:
        yield httpd.server_address[1], stand_ins


def _messages(port: int, room: str) -> list[dict[str, Any]]:
    url = f"http://127.0.0.1:{port}/_sandbox/messages?" + urllib.parse.urlencode({"room_id": room})
    with urllib.request.urlopen(url, timeout=10) as answer:
        listed: list[dict[str, Any]] = json.load(answer)
    return listed


def _send_message(port: int, token: str, body: dict[str, Any]) -> dict[str, Any]:
    request = urllib.request.Request(
        f"http://127.0.0.1:{port}/_sandbox/telegram/bot{token}/sendMessage",
        data=json.dumps(body).encode(),
        headers={"Content-Type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=10) as answer:
        sent: dict[str, Any] = json.load(answer)
    return sent


def test_a_telegram_reply_is_listed_in_its_thread_as_a_topic_is(
    port_and_stand_ins: tuple[int, PlatformStandIns],
) -> None:
    """The Telegram sender turns `reply:77` into `reply_parameters` and `42` into `message_thread_id`; both come
    back from the messages endpoint as the thread the schedule was made in, the main timeline as null."""
    port, stand_ins = port_and_stand_ins
    sender = TelegramChatSender(lambda: stand_ins.telegram_token, api_url=f"http://127.0.0.1:{port}/_sandbox/telegram")
    for thread, text in (("reply:77", "a reply"), ("42", "in topic 42"), ("", "in the chat")):
        assert sender.send(ChatMessage(room_id=CHAT, text=text, html=text, thread_id=thread), "key")

    listed = _messages(port, CHAT)
    assert [(m["text"], m["thread_id"], m["platform"]) for m in listed] == [
        ("a reply", "reply:77", "telegram"),
        ("in topic 42", "42", "telegram"),
        ("in the chat", None, "telegram"),
    ]


@pytest.mark.parametrize(
    ("fields", "thread"),
    [
        ({"reply_parameters": {"message_id": 78, "allow_sending_without_reply": True}}, "reply:78"),
        ({"reply_parameters": {"message_id": "79"}}, "reply:79"),
        ({"reply_to_message_id": 80}, "reply:80"),  # the Bot API's older spelling of a reply
        ({"message_thread_id": 42, "reply_parameters": {"message_id": 81}}, "42"),  # a reply in a topic: the topic
        ({"reply_parameters": {"message_id": True}}, None),  # no message id: no thread
        ({"reply_parameters": "77"}, None),
    ],
    ids=["reply-parameters", "string-id", "reply-to-message-id", "reply-in-a-topic", "boolean-id", "not-an-object"],
)
def test_each_way_a_telegram_request_names_its_thread_is_recorded(
    port_and_stand_ins: tuple[int, PlatformStandIns], fields: dict[str, Any], thread: str | None
) -> None:
    port, stand_ins = port_and_stand_ins
    sent = _send_message(port, stand_ins.telegram_token, {"chat_id": int(CHAT), "text": "hi", **fields})
    assert sent["ok"] is True
    (message,) = _messages(port, CHAT)
    assert message["thread_id"] == thread


def test_a_discord_post_to_a_thread_is_listed_under_the_threads_channel(
    port_and_stand_ins: tuple[int, PlatformStandIns],
) -> None:
    """A Discord thread is a channel: the bot posts to `/channels/<thread id>/messages` and the request names no
    other thread, so the post is the thread channel's, on its main timeline, and none is the parent's."""
    port, stand_ins = port_and_stand_ins
    sender = DiscordBotSender(
        lambda: stand_ins.discord_token, api_url=f"http://127.0.0.1:{port}/_sandbox/discord/api/v10"
    )
    assert sender.send(ChatMessage(room_id=CHANNEL, text="in the thread", html="", thread_id=THREAD_CHANNEL), "k")
    assert sender.send(ChatMessage(room_id=CHANNEL, text="in the channel", html=""), "k")

    assert [(m["text"], m["thread_id"]) for m in _messages(port, THREAD_CHANNEL)] == [("in the thread", None)]
    assert [(m["text"], m["thread_id"]) for m in _messages(port, CHANNEL)] == [("in the channel", None)]
