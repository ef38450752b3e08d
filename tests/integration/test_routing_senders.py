"""Threads and quick actions per platform, against a local HTTP server that plays the platform: the
exact request (thread fields, buttons, payload sizes), the repeat of a slot still dropped where the
platform has a key for it, and several platforms routed in one deployment."""

from __future__ import annotations

import json
import urllib.parse
from dataclasses import replace
from datetime import UTC, datetime

import pytest

from cronbell.adapters.chat import RoutingSender, build_sender
from cronbell.adapters.chat.base import PermanentChatError
from cronbell.adapters.chat.discord import DiscordChatSender
from cronbell.adapters.chat.slack import SlackChatSender
from cronbell.adapters.chat.telegram import TelegramChatSender
from cronbell.adapters.chat.webhook import WebhookChatSender
from cronbell.core.domain.actions import MAX_ID, decode, encode
from cronbell.core.domain.messages import ChatMessage
from cronbell.core.text.action_labels import reminder_actions
from cronbell.core.text.chat_text import reminder_message
from cronbell.settings import Settings
from sandbox.chat import SinkChat
from sandbox.clock import VirtualClock
from tests.support.fake_platform import (
    DISCORD_OK,
    DISCORD_TOKEN,
    KEY,
    SLACK_OK,
    SLACK_TOKEN,
    TELEGRAM_OK,
    TELEGRAM_TOKEN,
    FakePlatform,
    Reply,
    store_secret,
)

LONGEST_ID = "z" * MAX_ID  # the codec's longest id: every payload of it must still fit
SID = "k3v9q2m8xa"
DELIVERED = "2030-01-07T09:00:00Z"  # the occurrence a post delivers: its snooze names it
FOLLOWING = "2030-01-08T09:00:00Z"  # and its skip names the next one


def message(
    thread: str = "", schedule_id: str = SID, recurring: bool = True, locale: str = "en", named: bool = True
) -> ChatMessage:
    base = reminder_message("C0123", "U0ANA", "Stand up", locale)
    occurrences = (DELIVERED, FOLLOWING) if named else ()
    return replace(base, thread_id=thread, actions=reminder_actions(schedule_id, recurring, locale, *occurrences))


def snooze_call(schedule_id: str = SID) -> dict:
    return {"tool": "snooze_reminder", "arguments": {"id": schedule_id, "minutes": 10, "occurrence": DELIVERED}}


def skip_call(schedule_id: str = SID) -> dict:
    return {"tool": "skip_next", "arguments": {"id": schedule_id, "occurrence": FOLLOWING}}


def test_slack_posts_in_the_thread_with_block_kit_buttons(platform: FakePlatform) -> None:
    platform.script(SLACK_OK)
    SlackChatSender(lambda: SLACK_TOKEN, api_url=platform.url).send(message("1733050000.000100"), KEY)
    body = platform.requests[0].json()
    assert body["channel"] == "C0123" and body["thread_ts"] == "1733050000.000100"
    section, actions = body["blocks"]
    assert section == {"type": "section", "text": {"type": "mrkdwn", "text": body["text"]}}
    assert [(b["type"], b["text"]["text"], b["action_id"]) for b in actions["elements"]] == [
        ("button", "Snooze 10 min", "cronbell_0"),
        ("button", "Skip next", "cronbell_1"),
    ]
    assert [decode(b["value"]) for b in actions["elements"]] == [snooze_call(), skip_call()]


def test_slack_without_thread_or_actions_sends_neither(platform: FakePlatform) -> None:
    platform.script(SLACK_OK)
    plain = reminder_message("C0123", "U0ANA", "x", "en")
    SlackChatSender(lambda: SLACK_TOKEN, api_url=platform.url).send(plain, KEY)
    assert set(platform.requests[0].json()) == {"channel", "text", "unfurl_links"}


def test_telegram_posts_in_the_forum_topic_with_an_inline_keyboard(platform: FakePlatform) -> None:
    platform.script(TELEGRAM_OK, TELEGRAM_OK)
    sender = TelegramChatSender(lambda: TELEGRAM_TOKEN, api_url=platform.url)
    sender.send(replace(message("42", locale="es"), room_id="-1001234567890"), KEY)
    sender.send(replace(message("reply:77", LONGEST_ID), room_id="-1001234567890"), KEY)
    topic, reply = (seen.json() for seen in platform.requests)
    assert topic["chat_id"] == -1001234567890 and topic["message_thread_id"] == 42
    (row,) = topic["reply_markup"]["inline_keyboard"]
    assert [b["text"] for b in row] == ["Posponer 10 min", "Saltar la próxima"]
    assert [decode(b["callback_data"]) for b in row] == [snooze_call(), skip_call()]
    assert "message_thread_id" not in reply
    assert reply["reply_parameters"] == {"message_id": 77, "allow_sending_without_reply": True}
    (row,) = reply["reply_markup"]["inline_keyboard"]
    assert [decode(b["callback_data"]) for b in row] == [snooze_call(LONGEST_ID), skip_call(LONGEST_ID)]
    assert [len(b["callback_data"].encode()) for b in row] == [
        len(f"cb1 s {LONGEST_ID} 10 123456"),  # 2030 is six base-36 digits
        len(f"cb1 k {LONGEST_ID} 123456"),
    ]
    assert all(1 <= len(b["callback_data"].encode()) <= 64 for b in row)  # Telegram's limit


def test_discord_posts_in_the_thread_with_components(platform: FakePlatform) -> None:
    platform.script(DISCORD_OK)
    url = f"{platform.url}/api/webhooks/9/{DISCORD_TOKEN}?thread_id=1&wait=false"
    DiscordChatSender(lambda: url).send(message("1180000000000000001", LONGEST_ID), KEY)
    seen = platform.requests[0]
    path, _, query = seen.path.partition("?")
    assert path == f"/api/webhooks/9/{DISCORD_TOKEN}"
    assert urllib.parse.parse_qsl(query) == [("wait", "true"), ("thread_id", "1180000000000000001")]
    (row,) = seen.json()["components"]
    assert row["type"] == 1
    assert [(b["type"], b["label"]) for b in row["components"]] == [(2, "Snooze 10 min"), (2, "Skip next")]
    assert all(len(b["custom_id"]) <= 100 for b in row["components"])  # Discord's limit
    assert [decode(b["custom_id"]) for b in row["components"]] == [snooze_call(LONGEST_ID), skip_call(LONGEST_ID)]


def test_webhook_carries_thread_and_actions_and_a_repeated_slot_is_recorded_once(platform: FakePlatform) -> None:
    platform.script(Reply(200, {"id": "m1"}))
    WebhookChatSender(platform.url + "/hook").send(message("$root", recurring=False), KEY)
    body = platform.requests[0].json()
    assert body["thread_id"] == "$root"
    assert body["actions"] == [
        {
            "label": "Snooze 10 min",
            "tool": "snooze_reminder",
            "arguments": {"id": SID, "minutes": 10, "occurrence": DELIVERED},
            "payload": encode("snooze_reminder", snooze_call()["arguments"]),
        }
    ]
    assert [decode(a["payload"]) for a in body["actions"]] == [snooze_call()]
    # the sandbox's sink is a receiver that remembers keys: the same slot posted twice is one message
    sink = SinkChat(VirtualClock(datetime(2030, 1, 7, tzinfo=UTC)))
    first = sink.receive(body, KEY)
    assert sink.receive({**body, "text": "again"}, KEY) == first
    (shown,) = sink.messages("C0123")
    assert shown["thread_id"] == "$root" and shown["actions"] == [
        {k: v for k, v in body["actions"][0].items() if k != "payload"}
    ]


def test_several_platforms_each_with_its_own_secret(aws: None, platform: FakePlatform) -> None:
    env = {
        "CHAT_BACKEND": "slack, telegram",
        "SLACK_TOKEN_SECRET": store_secret("slack-token", json.dumps({"access_token": SLACK_TOKEN})),
        "TELEGRAM_TOKEN_SECRET": store_secret("telegram-token", TELEGRAM_TOKEN),
        "CHAT_TOKEN_SECRET": store_secret("shared-token", "not-for-any-platform-that-has-its-own"),
        "SLACK_API_URL": platform.url + "/slack",
        "TELEGRAM_API_URL": platform.url + "/tg",
    }
    assert_routes_with_each_token(build_sender(Settings.from_env(env)), platform)


def test_a_shared_secret_keyed_by_platform_still_works(aws: None, platform: FakePlatform) -> None:
    """Deployments from before each platform had its own secret keep their one JSON secret."""
    tokens = {"slack": {"access_token": SLACK_TOKEN}, "telegram": TELEGRAM_TOKEN, "matrix": "unused"}
    env = {
        "CHAT_BACKEND": "slack, telegram",
        "CHAT_TOKEN_SECRET": store_secret("chat-tokens", json.dumps(tokens)),
        "SLACK_API_URL": platform.url + "/slack",
        "TELEGRAM_API_URL": platform.url + "/tg",
    }
    assert_routes_with_each_token(build_sender(Settings.from_env(env)), platform)


def test_a_platform_without_its_own_secret_reads_the_shared_one(aws: None, platform: FakePlatform) -> None:
    env = {
        "CHAT_BACKEND": "slack,telegram",
        "SLACK_TOKEN_SECRET": store_secret("slack-own", SLACK_TOKEN),
        "CHAT_TOKEN_SECRET": store_secret("shared", TELEGRAM_TOKEN),
        "SLACK_API_URL": platform.url + "/slack",
        "TELEGRAM_API_URL": platform.url + "/tg",
    }
    assert_routes_with_each_token(build_sender(Settings.from_env(env)), platform)


def assert_routes_with_each_token(sender: object, platform: FakePlatform) -> None:
    """The default platform and a routed one each post with their own token; an unconfigured one is refused."""
    assert isinstance(sender, RoutingSender)
    platform.script(SLACK_OK, TELEGRAM_OK)
    sender.send(replace(message(), room_id="C0123"), KEY)  # the default platform: the first listed
    sender.send(replace(message(), room_id="123", platform="telegram"), KEY)
    assert [seen.path for seen in platform.requests] == [
        "/slack/chat.postMessage",
        f"/tg/bot{TELEGRAM_TOKEN}/sendMessage",
    ]
    assert platform.requests[0].headers["authorization"] == f"Bearer {SLACK_TOKEN}"
    with pytest.raises(PermanentChatError, match="not configured"):
        sender.send(replace(message(), platform="discord"), KEY)
    assert len(platform.requests) == 2


def test_a_second_platform_without_a_secret_is_refused_at_build() -> None:
    with pytest.raises(ValueError, match=r"telegram chat backend needs TELEGRAM_TOKEN_SECRET \(or CHAT_TOKEN_SECRET\)"):
        build_sender(Settings(chat_backend="webhook,telegram", chat_webhook_url="http://127.0.0.1:9/x"))
    with pytest.raises(ValueError, match="telegram chat backend needs TELEGRAM_TOKEN_SECRET"):  # another's is not its
        build_sender(Settings(chat_backend="slack,telegram", platform_secrets={"slack": "arn:slack-secret"}))
