"""Slack, Telegram, Discord and the signed webhook against a local HTTP server that plays the platform:
what is sent (method, path, headers, body, signature), mentions that cannot be abused, rate limits with
each platform's retry hint, and errors that never carry a token or the message text."""

from __future__ import annotations

import hashlib
import hmac
import json
import logging
import re
import time
import traceback
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from typing import Any

import pytest

from cronbell.adapters.chat import build_sender
from cronbell.adapters.chat.base import ChatMessage, PermanentChatError, TransientChatError
from cronbell.adapters.chat.discord import DiscordBotSender, DiscordChatSender
from cronbell.adapters.chat.slack import SlackChatSender
from cronbell.adapters.chat.telegram import TelegramChatSender
from cronbell.adapters.chat.webhook import WebhookChatSender
from cronbell.core.text.chat_text import WORD_JOINER, agent_answer_message, notice_message, reminder_message
from cronbell.settings import PLATFORM_SECRET_ENV, Settings
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
    Seen,
    store_secret,
)
from tests.support.html import parse_html

WEBHOOK_SECRET = "shared-webhook-secret"
ATTACK = "<!channel> <!here> <!everyone> @channel @here @everyone <@U0BADBAD1> <@&123> <https://evil.example|x>"


# ---- a local platform: records every request, answers scripted replies -----------------------------


class _Records(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)

    def text(self) -> str:
        """Everything a log line could show: the message and every extra field."""
        return "\n".join(f"{r.getMessage()} {r.__dict__!r}" for r in self.records)


@pytest.fixture
def logs() -> Iterator[_Records]:
    handler = _Records()
    root = logging.getLogger()
    level = root.level
    root.addHandler(handler)
    root.setLevel(logging.DEBUG)
    try:
        yield handler
    finally:
        root.removeHandler(handler)
        root.setLevel(level)


def shown(err: BaseException) -> str:
    """All that an uncaught exception would print, chained causes included."""
    return "".join(traceback.format_exception(err)) + repr(err)


def slack(platform: FakePlatform, token: str = SLACK_TOKEN) -> SlackChatSender:
    return SlackChatSender(lambda: token, api_url=platform.url + "/api", timeout=5)


def telegram(platform: FakePlatform) -> TelegramChatSender:
    return TelegramChatSender(lambda: TELEGRAM_TOKEN, api_url=platform.url, timeout=5)


def discord(platform: FakePlatform, query: str = "") -> DiscordChatSender:
    url = f"{platform.url}/api/webhooks/1234/{DISCORD_TOKEN}{query}"
    return DiscordChatSender(lambda: url, timeout=5)


# ---- Slack ---------------------------------------------------------------------------------------------


def test_slack_posts_a_reminder_mentioning_the_slack_user(platform: FakePlatform) -> None:
    platform.default = SLACK_OK
    message = reminder_message("C0123ABCD", "U012AB3CD", "Stand-up & <retro> > 5 min", "en")
    assert slack(platform).send(message, KEY, deadline=time.monotonic() + 10) == "1700000000.000100"

    [seen] = platform.requests
    assert (seen.method, seen.path) == ("POST", "/api/chat.postMessage")
    assert seen.headers["authorization"] == f"Bearer {SLACK_TOKEN}"
    assert seen.headers["content-type"] == "application/json; charset=utf-8"
    assert seen.json() == {
        "channel": "C0123ABCD",
        "text": "⏰ <@U012AB3CD> Reminder: Stand-up &amp; &lt;retro&gt; &gt; 5 min",
        "unfurl_links": False,
    }


def test_slack_text_cannot_ping_anyone_else(platform: FakePlatform) -> None:
    platform.default = SLACK_OK
    sender = slack(platform)
    sender.send(reminder_message("C1", "U012AB3CD", ATTACK, "en"), KEY)
    sender.send(agent_answer_message("C1", "<!here> daily", ATTACK, "es"), KEY)
    sender.send(reminder_message("C1", "@ana:example.org", "not a Slack id", "en"), KEY)

    texts = [seen.json()["text"] for seen in platform.requests]
    # the only Slack markup left is the mention of the reminder's own user
    assert texts[0].count("<") == 1 and texts[0].startswith("⏰ <@U012AB3CD> Reminder: ")
    assert "&lt;!channel&gt; &lt;!here&gt; &lt;!everyone&gt;" in texts[0]
    assert "&lt;@U0BADBAD1&gt;" in texts[0] and "&lt;https://evil.example|x&gt;" in texts[0]
    for word in ("channel", "here", "everyone"):
        assert f"@{WORD_JOINER}{word}" in texts[0]
        assert f"@{word}" not in texts[1]
    assert texts[1].startswith("🤖 *Tarea programada: &lt;!here&gt; daily*\n") and "<" not in texts[1]
    assert texts[2] == "⏰ @ana Reminder: not a Slack id"


def test_slack_rate_limit_waits_for_retry_after_then_posts(platform: FakePlatform, logs: _Records) -> None:
    platform.script(Reply(429, {"ok": False, "error": "ratelimited"}, {"Retry-After": "1"}), SLACK_OK)
    ts = slack(platform).send(notice_message("C1", "after the wait"), KEY, deadline=time.monotonic() + 10)

    first, second = platform.requests
    assert ts == "1700000000.000100"
    assert second.at - first.at >= 0.95
    assert first.body == second.body
    assert any("rate limit" in r.getMessage() for r in logs.records)


def test_slack_rate_limit_past_the_deadline_is_transient(platform: FakePlatform) -> None:
    platform.script(Reply(429, {"ok": False, "error": "ratelimited"}, {"Retry-After": "30"}))
    with pytest.raises(TransientChatError, match=r"^rate limited \(retry after 30.0 s\)"):
        slack(platform).send(notice_message("C1", "x"), KEY, deadline=time.monotonic() + 3)
    assert len(platform.requests) == 1


@pytest.mark.parametrize(
    "error", ["channel_not_found", "not_in_channel", "invalid_auth", "account_inactive", "is_archived"]
)
def test_slack_refusals_are_permanent(platform: FakePlatform, error: str) -> None:
    platform.default = Reply(200, {"ok": False, "error": error})
    with pytest.raises(PermanentChatError) as err:
        slack(platform).send(notice_message("C1", "private words"), KEY)
    assert err.value.reason == f"slack {error} (200)"
    assert err.value.room_gone == (error in ("channel_not_found", "not_in_channel", "is_archived"))
    assert len(platform.requests) == 1


@pytest.mark.parametrize(
    ("reply", "reason"),
    [
        (Reply(503, None), "slack answered 503"),
        (Reply(500, {"ok": False, "error": "internal_error"}), "slack answered 500"),
        (Reply(200, {"ok": False, "error": "fatal_error"}), "slack fatal_error (200)"),
    ],
)
def test_slack_server_trouble_is_transient(platform: FakePlatform, reply: Reply, reason: str) -> None:
    platform.default = reply
    with pytest.raises(TransientChatError, match=f"^{re.escape(reason)}$"):
        slack(platform).send(notice_message("C1", "x"), KEY)
    assert len(platform.requests) == 1


# ---- Telegram ------------------------------------------------------------------------------------------


def test_telegram_posts_html_with_a_user_link(platform: FakePlatform) -> None:
    platform.default = TELEGRAM_OK
    message = reminder_message("-1001234567890", "42", "1 < 2 & <b>bold</b>, ask @bob or a@b.example", "en")
    assert telegram(platform).send(message, KEY, deadline=time.monotonic() + 10) == "77"

    [seen] = platform.requests
    assert (seen.method, seen.path) == ("POST", f"/bot{TELEGRAM_TOKEN}/sendMessage")
    assert seen.headers["content-type"] == "application/json"
    body = seen.json()
    assert body == {
        "chat_id": -1001234567890,
        "text": (
            '⏰ <a href="tg://user?id=42">@42</a> Reminder: 1 &lt; 2 &amp; &lt;b&gt;bold&lt;/b&gt;, '
            f"ask @{WORD_JOINER}bob or a@b.example"
        ),
        "parse_mode": "HTML",
        "disable_web_page_preview": True,
    }
    assert parse_html(body["text"]).tags == [("a", {"href": "tg://user?id=42"})]


def test_telegram_without_a_numeric_user_id_mentions_in_plain_text(platform: FakePlatform) -> None:
    platform.default = TELEGRAM_OK
    sender = telegram(platform)
    sender.send(reminder_message("@mychannel", "ana_smith", "tea", "es"), KEY)
    sender.send(agent_answer_message("123", "<i>weekly</i>", "line 1\nline <2>", "en"), KEY)

    first, second = (seen.json() for seen in platform.requests)
    assert first["chat_id"] == "@mychannel"
    assert first["text"] == "⏰ @ana_smith Recordatorio: tea"
    assert second["chat_id"] == 123
    assert second["text"] == "🤖 <b>Scheduled task: &lt;i&gt;weekly&lt;/i&gt;</b>\nline 1\nline &lt;2&gt;"


def test_telegram_long_answers_fit_its_limit(platform: FakePlatform) -> None:
    platform.default = TELEGRAM_OK
    telegram(platform).send(agent_answer_message("123", "n", "<" * 6000, "en"), KEY)
    telegram(platform).send(agent_answer_message("123", "n", "@ab " * 1500, "en"), KEY)
    for seen in platform.requests:
        visible = parse_html(seen.json()["text"]).text
        assert 4000 < len(visible) <= 4096 and visible.endswith("…")


def test_telegram_rate_limit_waits_for_retry_after_then_posts(platform: FakePlatform) -> None:
    too_many = {"ok": False, "error_code": 429, "description": "Too Many Requests: retry after 1"}
    platform.script(Reply(429, {**too_many, "parameters": {"retry_after": 1}}), TELEGRAM_OK)
    assert telegram(platform).send(notice_message("123", "x"), KEY, deadline=time.monotonic() + 10) == "77"
    first, second = platform.requests
    assert second.at - first.at >= 0.95


def test_telegram_rate_limit_past_the_deadline_is_transient(platform: FakePlatform) -> None:
    platform.script(Reply(429, {"ok": False, "error_code": 429, "parameters": {"retry_after": 35}}))
    with pytest.raises(TransientChatError, match=r"^rate limited \(retry after 35.0 s\)"):
        telegram(platform).send(notice_message("123", "x"), KEY, deadline=time.monotonic() + 3)
    assert len(platform.requests) == 1


@pytest.mark.parametrize(
    ("status", "description", "reason"),
    [
        (400, "Bad Request: chat not found", "telegram answered 400: chat not found"),
        (403, "Forbidden: bot was blocked by the user", "telegram answered 403: bot was blocked by the user"),
        (403, "Forbidden: bot was kicked from the supergroup chat", "telegram answered 403: bot was kicked"),
        (401, "Unauthorized", "telegram answered 401: Unauthorized"),
        (400, "Bad Request: can't parse entities: private words at byte 3", "telegram answered 400"),
    ],
)
def test_telegram_refusals_are_permanent(platform: FakePlatform, status: int, description: str, reason: str) -> None:
    platform.default = Reply(status, {"ok": False, "error_code": status, "description": description})
    with pytest.raises(PermanentChatError) as err:
        telegram(platform).send(notice_message("123", "private words"), KEY)
    assert err.value.reason == reason
    assert err.value.room_gone == (status == 403 or "chat not found" in description)
    assert len(platform.requests) == 1


def test_telegram_server_trouble_is_transient(platform: FakePlatform) -> None:
    platform.default = Reply(502, None)
    with pytest.raises(TransientChatError, match=r"^telegram answered 502$"):
        telegram(platform).send(notice_message("123", "x"), KEY)


# ---- Discord -------------------------------------------------------------------------------------------

ANA_DISCORD = "123456789012345678"


def test_discord_posts_content_that_pings_only_the_user(platform: FakePlatform) -> None:
    platform.default = DISCORD_OK
    message = reminder_message("general", ANA_DISCORD, ATTACK, "en")
    assert discord(platform).send(message, KEY, deadline=time.monotonic() + 10) == "1180000000000000001"

    [seen] = platform.requests
    assert (seen.method, seen.path) == ("POST", f"/api/webhooks/1234/{DISCORD_TOKEN}?wait=true")
    assert seen.headers["content-type"] == "application/json"
    assert "authorization" not in seen.headers
    assert seen.json() == {
        "content": f"⏰ <@{ANA_DISCORD}> Reminder: {ATTACK}",
        "allowed_mentions": {"parse": [], "users": [ANA_DISCORD]},
        "flags": 4,
    }


def test_discord_without_a_discord_user_id_pings_nobody(platform: FakePlatform) -> None:
    platform.default = DISCORD_OK
    sender = discord(platform, query="?thread_id=555&wait=false")
    sender.send(reminder_message("general", "ana_smith", "@everyone look", "en"), KEY)
    sender.send(agent_answer_message("general", "daily *digest*", "**All** good", "en"), KEY)

    first, second = platform.requests
    assert first.path == f"/api/webhooks/1234/{DISCORD_TOKEN}?thread_id=555&wait=true"
    assert first.json()["content"] == "⏰ @ana\\_smith Reminder: @everyone look"
    assert first.json()["allowed_mentions"] == {"parse": []}
    assert second.json()["content"] == "🤖 **Scheduled task: daily \\*digest\\***\n**All** good"


def test_discord_long_answers_fit_its_limit(platform: FakePlatform) -> None:
    platform.default = DISCORD_OK
    discord(platform).send(agent_answer_message("general", "n", "x" * 6000, "en"), KEY)
    discord(platform).send(agent_answer_message("general", "*" * 3000, "x" * 6000, "en"), KEY)
    for seen in platform.requests:
        content = seen.json()["content"]
        assert 1900 < len(content) <= 2000 and content.endswith("…")


def test_discord_rate_limit_waits_for_the_body_retry_after(platform: FakePlatform) -> None:
    limited = {"message": "You are being rate limited.", "retry_after": 0.4, "global": False}
    platform.script(Reply(429, limited, {"Retry-After": "1"}), DISCORD_OK)
    discord(platform).send(notice_message("general", "x"), KEY, deadline=time.monotonic() + 10)
    first, second = platform.requests
    assert 0.38 <= second.at - first.at < 0.9, "the precise JSON retry_after wins over the rounded header"


def test_discord_rate_limit_with_only_the_header(platform: FakePlatform) -> None:
    platform.script(Reply(429, None, {"Retry-After": "1"}), DISCORD_OK)
    discord(platform).send(notice_message("general", "x"), KEY, deadline=time.monotonic() + 10)
    first, second = platform.requests
    assert second.at - first.at >= 0.95


def test_discord_rate_limit_past_the_deadline_is_transient(platform: FakePlatform) -> None:
    platform.script(Reply(429, {"message": "You are being rate limited.", "retry_after": 12.5, "global": True}))
    with pytest.raises(TransientChatError, match=r"^rate limited \(retry after 12.5 s\)"):
        discord(platform).send(notice_message("general", "x"), KEY, deadline=time.monotonic() + 3)
    assert len(platform.requests) == 1


@pytest.mark.parametrize(
    ("reply", "reason"),
    [
        (Reply(404, {"message": "Unknown Webhook", "code": 10015}), "discord answered 404 code 10015"),
        (Reply(401, {"message": "Invalid Webhook Token", "code": 50027}), "discord answered 401 code 50027"),
        (Reply(400, {"content": ["Must be 2000 or fewer in length."]}), "discord answered 400"),
    ],
)
def test_discord_refusals_are_permanent(platform: FakePlatform, reply: Reply, reason: str) -> None:
    platform.default = reply
    with pytest.raises(PermanentChatError) as err:
        discord(platform).send(notice_message("general", "x"), KEY)
    assert err.value.reason == reason
    assert err.value.room_gone is False  # the deployment's webhook refused: no room of a schedule is gone


# ---- a secret rotated while the sender kept it cached ----------------------------------------------------

NEW_TELEGRAM_TOKEN = "654321:NEW-token"
NEW_DISCORD_TOKEN = "new-webhook-token"
UNAUTHORIZED = {"ok": False, "error_code": 401, "description": "Unauthorized"}


def test_a_rotated_telegram_token_is_read_again_once_and_the_post_goes_out(platform: FakePlatform) -> None:
    """A 401 from Telegram was permanent: for as long as the old token stayed cached, one-shots ended
    `delivery_failed`. The secret is read again past its cache and the post sent with the new token."""
    platform.script(Reply(401, UNAUTHORIZED), TELEGRAM_OK)
    rotated = TelegramChatSender(
        lambda: TELEGRAM_TOKEN, api_url=platform.url, timeout=5, token_refresher=lambda: NEW_TELEGRAM_TOKEN
    )
    assert rotated.send(notice_message("123", "x"), KEY)
    assert [seen.path.split("/")[1] for seen in platform.requests] == [
        f"bot{TELEGRAM_TOKEN}",
        f"bot{NEW_TELEGRAM_TOKEN}",
    ]
    platform.default = Reply(401, UNAUTHORIZED)  # refused again with the secret as it is now: permanent
    with pytest.raises(PermanentChatError) as err:
        rotated.send(notice_message("123", "x"), KEY)
    assert err.value.reason == "telegram answered 401: Unauthorized" and err.value.room_gone is False


def test_a_discord_webhook_made_anew_is_read_again_and_no_schedule_ends(platform: FakePlatform) -> None:
    """A webhook deleted and made again (its URL rotated in the secret) answered 404 to the cached URL,
    which ended every recurring schedule that fired meanwhile as if its room were gone."""
    platform.script(Reply(404, {"message": "Unknown Webhook", "code": 10015}), DISCORD_OK)
    old, new = (f"{platform.url}/api/webhooks/1234/{token}" for token in (DISCORD_TOKEN, NEW_DISCORD_TOKEN))
    sender = DiscordChatSender(lambda: old, timeout=5, url_refresher=lambda: new)
    assert sender.send(notice_message("general", "x"), KEY) == "1180000000000000001"
    assert [seen.path.split("?")[0].rsplit("/", 1)[1] for seen in platform.requests] == [
        DISCORD_TOKEN,
        NEW_DISCORD_TOKEN,
    ]


def test_a_rotated_discord_bot_token_is_read_again_once(platform: FakePlatform) -> None:
    platform.script(Reply(401, {"message": "401: Unauthorized", "code": 0}), DISCORD_OK)
    bot = DiscordBotSender(lambda: "old-bot", api_url=platform.url, timeout=5, token_refresher=lambda: "new-bot")
    assert bot.send(notice_message(ANA_DISCORD, "x"), KEY) == "1180000000000000001"
    assert [seen.headers["authorization"] for seen in platform.requests] == ["Bot old-bot", "Bot new-bot"]


def test_discord_server_trouble_is_transient(platform: FakePlatform) -> None:
    platform.default = Reply(500, {"message": "500: Internal Server Error", "code": 0})
    with pytest.raises(TransientChatError, match=r"^discord answered 500$"):
        discord(platform).send(notice_message("general", "x"), KEY)


# ---- the generic webhook -------------------------------------------------------------------------------


def verify(seen: Seen, secret: str) -> bool:
    """What a receiver does: HMAC-SHA256 over "<timestamp>." + the raw body, compared in constant time."""
    timestamp = seen.headers["x-cronbell-timestamp"]
    expected = hmac.new(secret.encode(), f"{timestamp}.".encode() + seen.body, hashlib.sha256).hexdigest()
    return hmac.compare_digest(seen.headers["x-cronbell-signature"], f"sha256={expected}")


def test_the_webhook_signs_the_raw_body_with_a_timestamp(platform: FakePlatform) -> None:
    platform.default = Reply(200, {"id": "$m1"})
    sender = WebhookChatSender(platform.url + "/hook", secret_provider=lambda: WEBHOOK_SECRET, wall_clock=lambda: 1.7e9)
    message = reminder_message("room-1", "@ana:example.org", "tea <b>", "en")
    assert sender.send(message, KEY, deadline=time.monotonic() + 10) == "$m1"

    [seen] = platform.requests
    assert (seen.method, seen.path) == ("POST", "/hook")
    assert seen.headers["idempotency-key"] == KEY
    assert seen.headers["x-cronbell-timestamp"] == "1700000000"
    assert verify(seen, WEBHOOK_SECRET)
    assert not verify(seen, "another secret")
    replayed = Seen(seen.method, seen.path, {**seen.headers, "x-cronbell-timestamp": "1700009999"}, seen.body, 0)
    assert not verify(replayed, WEBHOOK_SECRET), "the timestamp is part of what is signed"
    assert seen.json() == {
        "room_id": "room-1",
        "text": message.text,
        "html": message.html,
        "mentions": ["@ana:example.org"],
        "idempotency_key": KEY,
        "parts": [
            {"style": "plain", "text": "⏰ "},
            {"style": "mention", "text": "@ana:example.org"},
            {"style": "plain", "text": " Reminder: "},
            {"style": "plain", "text": "tea <b>"},
        ],
        "thread_id": None,
        "actions": [],
    }


def test_the_unsigned_webhook_still_feeds_the_sandbox_sink(platform: FakePlatform) -> None:
    platform.default = Reply(204, None)
    sender = WebhookChatSender(platform.url + "/_sandbox/sink")
    message = reminder_message("room-1", "@ana:example.org", "tea", "en")
    assert sender.send(message, KEY) == KEY

    [seen] = platform.requests
    assert "x-cronbell-signature" not in seen.headers and "x-cronbell-timestamp" not in seen.headers
    sink = SinkChat(VirtualClock(datetime(2026, 12, 1, 9, tzinfo=UTC)))
    sink.receive(seen.json(), seen.headers["idempotency-key"])
    sink.receive(seen.json(), seen.headers["idempotency-key"])
    assert sink.messages("room-1") == [
        {
            "room_id": "room-1",
            "text": message.text,
            "html": message.html,
            "mentions": ["@ana:example.org"],
            "ts": "2026-12-01T09:00:00Z",
            "thread_id": None,
            "actions": [],
            "platform": "webhook",
            "workspace": None,
        }
    ]


def test_every_webhook_retry_is_signed_afresh(platform: FakePlatform) -> None:
    platform.script(Reply(429, None, {"Retry-After": "0.2"}), Reply(200, {"id": "m"}))
    clock = iter([1_700_000_000.0, 1_700_000_042.0])
    sender = WebhookChatSender(platform.url, secret_provider=lambda: WEBHOOK_SECRET, wall_clock=lambda: next(clock))
    sender.send(notice_message("room-1", "x"), KEY, deadline=time.monotonic() + 10)

    first, second = platform.requests
    assert second.at - first.at >= 0.19
    assert [s.headers["x-cronbell-timestamp"] for s in (first, second)] == ["1700000000", "1700000042"]
    assert verify(first, WEBHOOK_SECRET) and verify(second, WEBHOOK_SECRET)
    assert first.body == second.body and first.headers["idempotency-key"] == second.headers["idempotency-key"]


def test_webhook_failures(platform: FakePlatform) -> None:
    sender = WebhookChatSender(platform.url, secret_provider=lambda: WEBHOOK_SECRET)
    platform.script(Reply(429, None, {"Retry-After": "60"}), Reply(503), Reply(410))
    with pytest.raises(TransientChatError, match=r"^rate limited"):
        sender.send(notice_message("r", "x"), KEY, deadline=time.monotonic() + 3)
    with pytest.raises(TransientChatError, match=r"^webhook answered 503$"):
        sender.send(notice_message("r", "x"), KEY)
    with pytest.raises(PermanentChatError, match=r"^webhook answered 410$"):
        sender.send(notice_message("r", "x"), KEY)
    assert len(platform.requests) == 3


# ---- secrets and message text stay out of logs and errors ----------------------------------------------

PRIVATE = "private words 7f3a"


def _senders(platform: FakePlatform) -> list[tuple[str, Callable[[], Any], Reply, Reply, Reply]]:
    """Per platform: secret, sender factory, a refusal, a rate limit past any deadline, a success."""
    return [
        (
            SLACK_TOKEN,
            lambda: slack(platform),
            Reply(200, {"ok": False, "error": "invalid_auth", "warning": PRIVATE}),
            Reply(429, {"ok": False, "error": "ratelimited"}, {"Retry-After": "99"}),
            SLACK_OK,
        ),
        (
            TELEGRAM_TOKEN,
            lambda: telegram(platform),
            Reply(400, {"ok": False, "error_code": 400, "description": f"Bad Request: {PRIVATE}"}),
            Reply(429, {"ok": False, "error_code": 429, "parameters": {"retry_after": 99}}),
            TELEGRAM_OK,
        ),
        (
            DISCORD_TOKEN,
            lambda: discord(platform),
            Reply(404, {"message": f"Unknown Webhook {PRIVATE}", "code": 10015}),
            Reply(429, {"message": "slow down", "retry_after": 99.0, "global": False}),
            DISCORD_OK,
        ),
        (
            WEBHOOK_SECRET,
            lambda: WebhookChatSender(platform.url + "/hook", secret_provider=lambda: WEBHOOK_SECRET),
            Reply(400, {"error": PRIVATE}),
            Reply(429, None, {"Retry-After": "99"}),
            Reply(200, {"id": "w"}),
        ),
    ]


def test_no_log_or_error_holds_a_secret_or_the_text(platform: FakePlatform, logs: _Records) -> None:
    message = reminder_message("123", "42", PRIVATE, "en")
    errors: list[BaseException] = []
    for secret, make, refusal, rate_limit, success in _senders(platform):
        platform.default = success
        for reply in (
            refusal,
            rate_limit,
            Reply(502, {"error": PRIVATE}),
            Reply(429, None, {"Retry-After": "0"}),
        ):
            platform.script(reply)
            try:
                make().send(message, KEY, deadline=time.monotonic() + 2)
            except (PermanentChatError, TransientChatError) as err:
                errors.append(err)
        for error in errors:
            assert secret not in shown(error) and PRIVATE not in shown(error)
        assert secret not in logs.text() and PRIVATE not in logs.text()
    assert len(errors) == 12  # the zero-second rate limit was waited out and then posted
    assert len(platform.requests) == 4 * 5
    assert any("rate limit" in r.getMessage() for r in logs.records)


def test_an_unreachable_platform_is_transient_and_the_url_token_stays_hidden() -> None:
    with FakePlatform() as gone:
        url = gone.url
    for sender in (
        TelegramChatSender(lambda: TELEGRAM_TOKEN, api_url=url, timeout=2),
        DiscordChatSender(lambda: f"{url}/api/webhooks/1/{DISCORD_TOKEN}", timeout=2),
        SlackChatSender(lambda: SLACK_TOKEN, api_url=url, timeout=2),
    ):
        with pytest.raises(TransientChatError, match=r"^connection failed") as err:
            sender.send(notice_message("123", PRIVATE), KEY)
        text = shown(err.value)
        assert TELEGRAM_TOKEN not in text and DISCORD_TOKEN not in text and SLACK_TOKEN not in text


def test_a_failing_secret_lookup_is_transient_and_quiet(platform: FakePlatform) -> None:
    def broken() -> str:
        raise RuntimeError(f"the store said {SLACK_TOKEN}")

    for sender in (
        SlackChatSender(broken, api_url=platform.url),
        TelegramChatSender(broken, api_url=platform.url),
        DiscordChatSender(broken),
        WebhookChatSender(platform.url, secret_provider=broken),
    ):
        with pytest.raises(TransientChatError, match="lookup failed \\(RuntimeError\\)") as err:
            sender.send(ChatMessage("r", "t", "t"), KEY)
        assert SLACK_TOKEN not in shown(err.value)
    assert platform.requests == []


def test_a_discord_webhook_url_that_is_not_http_is_permanent() -> None:
    with pytest.raises(PermanentChatError, match="not an http") as err:
        DiscordChatSender(lambda: f"ftp://discord.example/{DISCORD_TOKEN}").send(notice_message("g", "x"), KEY)
    assert DISCORD_TOKEN not in shown(err.value)


# ---- build_sender: the deployment's choice, secrets from Secrets Manager (moto), read lazily ----------


def test_build_sender_wires_each_platform_from_the_environment(aws: None, platform: FakePlatform) -> None:
    slack_arn = store_secret("slack", json.dumps({"access_token": SLACK_TOKEN}))
    telegram_arn = store_secret("telegram", TELEGRAM_TOKEN)
    discord_arn = store_secret("discord", f"{platform.url}/api/webhooks/9/{DISCORD_TOKEN}")
    webhook_arn = store_secret("webhook", WEBHOOK_SECRET)
    env = {"SLACK_API_URL": platform.url + "/slack/", "TELEGRAM_API_URL": platform.url + "/tg"}
    platform.script(SLACK_OK, TELEGRAM_OK, DISCORD_OK, Reply(200, {"id": "w"}), Reply(200, {"id": "u"}))
    message = notice_message("123", "hello")

    for backend, arn, extra in [
        ("SLACK", slack_arn, {}),
        ("telegram", telegram_arn, {}),
        ("discord", discord_arn, {}),
        ("webhook", webhook_arn, {"CHAT_WEBHOOK_URL": platform.url + "/hook"}),
        ("webhook", "", {"CHAT_WEBHOOK_URL": platform.url + "/hook"}),
    ]:
        own_secret = PLATFORM_SECRET_ENV[backend.lower()]  # each platform's own secret variable
        settings = Settings.from_env({**env, **extra, "CHAT_BACKEND": backend, own_secret: arn})
        build_sender(settings).send(message, KEY)

    paths = [seen.path for seen in platform.requests]
    assert paths == [
        "/slack/chat.postMessage",
        f"/tg/bot{TELEGRAM_TOKEN}/sendMessage",
        f"/api/webhooks/9/{DISCORD_TOKEN}?wait=true",
        "/hook",
        "/hook",
    ]
    assert platform.requests[0].headers["authorization"] == f"Bearer {SLACK_TOKEN}"
    assert verify(platform.requests[3], WEBHOOK_SECRET)
    assert "x-cronbell-signature" not in platform.requests[4].headers


def test_build_sender_reads_no_secret_until_the_first_send(aws: None, platform: FakePlatform) -> None:
    missing = "arn:aws:secretsmanager:us-east-1:123456789012:secret:cronbell/not-there-AbCdEf"
    for backend in ("slack", "telegram", "discord"):
        sender = build_sender(Settings(chat_backend=backend, chat_token_secret=missing, slack_api_url=platform.url))
        with pytest.raises(TransientChatError, match="lookup failed"):
            sender.send(notice_message("123", "x"), KEY)
    assert platform.requests == []


def test_settings_default_to_the_real_apis() -> None:
    settings = Settings.from_env({})
    assert (settings.slack_api_url, settings.telegram_api_url) == (
        "https://slack.com/api",
        "https://api.telegram.org",
    )
    assert Settings.from_env({"TELEGRAM_API_URL": "http://bot-api.local:8081/"}).telegram_api_url == (
        "http://bot-api.local:8081"
    )


def test_build_sender_refuses_incomplete_settings() -> None:
    for backend in ("slack", "telegram", "discord"):
        with pytest.raises(ValueError, match=rf"{PLATFORM_SECRET_ENV[backend]} \(or CHAT_TOKEN_SECRET[,)]"):
            build_sender(Settings(chat_backend=backend))
    with pytest.raises(ValueError, match="matrix, slack, telegram, discord, webhook"):
        build_sender(Settings(chat_backend="irc"))
