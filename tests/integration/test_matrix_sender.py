"""The Matrix sender against a real Synapse homeserver: what the user sees, idempotency, errors, 429s."""

from __future__ import annotations

import json
import time
import uuid
from typing import Any

import boto3
import pytest

from cronbell.adapters.chat import build_sender
from cronbell.adapters.chat import matrix as matrix_module
from cronbell.adapters.chat.base import (
    ChatMessage,
    HttpAnswer,
    PermanentChatError,
    TransientChatError,
    request_json,
)
from cronbell.adapters.chat.matrix import MatrixChatSender
from cronbell.adapters.secrets import chat_token
from cronbell.core.text.chat_text import agent_answer_message, notice_message, reminder_message
from cronbell.settings import Settings
from sandbox.synapse import MatrixRoom, SynapseServer
from tests.support.aws import free_port

pytestmark = [pytest.mark.xdist_group("matrix")]


def sender_for(server: SynapseServer, room: MatrixRoom, token: str | None = None) -> MatrixChatSender:
    return MatrixChatSender(server.url, lambda: token or room.bot_token, timeout=5)


def fresh_room(server: SynapseServer) -> MatrixRoom:
    suffix = uuid.uuid4().hex[:8]
    return server.provision_room(bot=f"bot-{suffix}", user=f"ana-{suffix}")


def key() -> str:
    return f"r{uuid.uuid4().hex[:10]}#2026-12-01T09:00:00Z"


@pytest.mark.matrix
@pytest.mark.slow
def test_a_reminder_reaches_the_user_with_a_mention(synapse: SynapseServer, matrix_room: MatrixRoom) -> None:
    message = reminder_message(matrix_room.room_id, matrix_room.user_id, "Team meeting", "en")
    event_id = sender_for(synapse, matrix_room).send(message, key(), deadline=time.monotonic() + 10)

    [seen] = synapse.messages(matrix_room.user_token, matrix_room.room_id)
    localpart = matrix_room.user_id[1:].split(":")[0]
    assert seen["event_id"] == event_id
    assert seen["sender"] == matrix_room.bot_id
    assert seen["body"] == f"⏰ @{localpart} Reminder: Team meeting"
    assert seen["formatted_body"] == (
        f'⏰ <a href="https://matrix.to/#/{matrix_room.user_id}">@{localpart}</a> Reminder: Team meeting'
    )
    assert seen["mentions"] == [matrix_room.user_id]


@pytest.mark.matrix
@pytest.mark.slow
def test_html_injection_and_room_mentions_arrive_defused(synapse: SynapseServer, matrix_room: MatrixRoom) -> None:
    attack = '@room <img src=x onerror=alert(1)><a href="https://evil.example">x</a>'
    sender = sender_for(synapse, matrix_room)
    sender.send(reminder_message(matrix_room.room_id, matrix_room.user_id, attack, "es"), key())
    sender.send(agent_answer_message(matrix_room.room_id, "<b>daily</b>", attack, "en"), key())
    sender.send(notice_message(matrix_room.room_id, attack), key())

    seen = synapse.messages(matrix_room.user_token, matrix_room.room_id)
    assert len(seen) == 3
    assert "Recordatorio:" in seen[0]["body"]
    for event in seen:
        html = event["formatted_body"]
        assert "<img" not in html and "evil.example" not in html.split("&lt;a href=")[0]
        assert "&lt;img src=x onerror=alert(1)&gt;" in html
        for text in (event["body"], html):
            assert "@room" not in text.lower()
            assert "@\u2060room" in text
    assert seen[1]["mentions"] == [] and "&lt;b&gt;daily&lt;/b&gt;" in seen[1]["formatted_body"]


@pytest.mark.matrix
@pytest.mark.slow
def test_an_answer_too_large_for_one_event_arrives_cut_with_a_marker(
    synapse: SynapseServer, matrix_room: MatrixRoom
) -> None:
    """Control characters take six bytes each in the event's JSON, twice (body and formatted body): an
    answer of 7,990 of them was a 72 KB event that Synapse refused (413). It must arrive, cut visibly."""
    message = agent_answer_message(matrix_room.room_id, "digest", "\x01" * 7990, "en")
    content = matrix_module.message_content(message)
    assert matrix_module.content_bytes(content) <= matrix_module.MAX_CONTENT_BYTES
    event_id = sender_for(synapse, matrix_room).send(message, key(), deadline=time.monotonic() + 10)

    [seen] = synapse.messages(matrix_room.user_token, matrix_room.room_id)
    assert seen["event_id"] == event_id
    assert seen["body"].startswith("🤖 Scheduled task: digest\n\x01")
    assert seen["body"].endswith(matrix_module.CUT_MARKER)
    assert seen["formatted_body"].endswith("<br>[…]")


def test_a_message_that_fits_is_not_cut() -> None:
    message = agent_answer_message("!r:x", "digest", "é<&>" * 1500, "en")
    assert matrix_module.message_content(message)["body"] == message.text
    assert matrix_module.message_content(message)["formatted_body"] == message.html


@pytest.mark.matrix
@pytest.mark.slow
def test_the_same_idempotency_key_posts_once(synapse: SynapseServer, matrix_room: MatrixRoom) -> None:
    sender = sender_for(synapse, matrix_room)
    message = reminder_message(matrix_room.room_id, matrix_room.user_id, "only once", "en")
    same = key()
    first = sender.send(message, same)
    again = sender.send(message, same)
    # a fresh sender (a new Lambda instance) with the same bot token is deduplicated too
    third = sender_for(synapse, matrix_room).send(message, same)
    other = sender.send(message, key())

    assert first == again == third
    assert other != first
    events = synapse.messages(matrix_room.user_token, matrix_room.room_id)
    assert [e["event_id"] for e in events] == [first, other]


@pytest.mark.matrix
@pytest.mark.slow
def test_a_room_the_bot_is_not_in_is_a_permanent_error(synapse: SynapseServer, matrix_room: MatrixRoom) -> None:
    _, stranger_token = synapse.register(f"stranger-{uuid.uuid4().hex[:8]}")
    foreign_room = synapse.create_room(stranger_token)
    sender = sender_for(synapse, matrix_room)
    for room_id in (foreign_room, f"!doesnotexist:{synapse.server_name}", "not a room id"):
        secret_text = "private words"
        with pytest.raises(PermanentChatError) as err:
            sender.send(ChatMessage(room_id, secret_text, secret_text), key())
        assert err.value.reason == "M_FORBIDDEN (403)"
        assert err.value.room_gone
        assert secret_text not in str(err.value) and matrix_room.bot_token not in str(err.value)
    assert synapse.messages(stranger_token, foreign_room) == []


@pytest.mark.matrix
@pytest.mark.slow
def test_a_bad_token_is_a_permanent_error(synapse: SynapseServer, matrix_room: MatrixRoom) -> None:
    bad = "syt_not_a_real_token_" + uuid.uuid4().hex
    message = reminder_message(matrix_room.room_id, matrix_room.user_id, "x", "en")
    with pytest.raises(PermanentChatError) as err:
        sender_for(synapse, matrix_room, token=bad).send(message, key())
    assert err.value.reason == "M_UNKNOWN_TOKEN (401)"
    assert not err.value.room_gone  # a deployment problem, not this room's
    assert bad not in repr(err.value)
    assert synapse.messages(matrix_room.user_token, matrix_room.room_id) == []


@pytest.fixture
def statuses(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The HTTP status of every request the Matrix sender makes, in order."""
    seen: list[int] = []

    def recording(*args: Any, **kwargs: Any) -> HttpAnswer:
        answer = request_json(*args, **kwargs)
        seen.append(answer.status)
        return answer

    monkeypatch.setattr(matrix_module, "request_json", recording)
    return seen


@pytest.mark.matrix
@pytest.mark.slow
def test_a_burst_waits_out_rate_limits(rate_limited_synapse: SynapseServer, statuses: list[int]) -> None:
    room = fresh_room(rate_limited_synapse)
    sender = sender_for(rate_limited_synapse, room)
    ids = [
        sender.send(notice_message(room.room_id, f"burst {i}"), key(), deadline=time.monotonic() + 30) for i in range(3)
    ]

    # the first sends fit the burst allowance (then one message per 2 s): the rest met 429s and waited
    assert 429 in statuses
    assert statuses.count(200) == 3 and set(statuses) == {200, 429}
    seen = rate_limited_synapse.messages(room.user_token, room.room_id)
    assert [e["event_id"] for e in seen] == ids
    assert [e["body"] for e in seen] == [f"burst {i}" for i in range(3)]


@pytest.mark.matrix
@pytest.mark.slow
def test_a_rate_limit_past_the_deadline_is_transient(rate_limited_synapse: SynapseServer, statuses: list[int]) -> None:
    room = fresh_room(rate_limited_synapse)
    sender = sender_for(rate_limited_synapse, room)
    sent = 0
    with pytest.raises(TransientChatError, match=r"^rate limited"):
        for i in range(8):
            # time for the request (a 429 comes after a 0.5 s pause), not for a retry_after_ms of ~2 s
            sender.send(notice_message(room.room_id, f"hurry {i}"), key(), deadline=time.monotonic() + 1.2)
            sent += 1
    assert statuses == [200] * sent + [429], "gave up on the first 429 instead of waiting"
    assert len(rate_limited_synapse.messages(room.user_token, room.room_id)) == sent


def test_an_unreachable_homeserver_is_transient() -> None:
    sender = MatrixChatSender(f"http://127.0.0.1:{free_port()}", lambda: "token", timeout=2)
    with pytest.raises(TransientChatError, match="connection failed"):
        sender.send(ChatMessage("!r:localhost", "t", "t"), key())


def test_a_passed_deadline_sends_nothing() -> None:
    sender = MatrixChatSender(f"http://127.0.0.1:{free_port()}", lambda: "token")
    with pytest.raises(TransientChatError, match="deadline"):
        sender.send(ChatMessage("!r:localhost", "t", "t"), key(), deadline=time.monotonic() - 1)


def test_a_failing_token_lookup_is_transient_and_says_nothing_of_the_secret() -> None:
    def broken() -> str:
        raise RuntimeError("secret value leaked here")

    with pytest.raises(TransientChatError) as err:
        MatrixChatSender("http://127.0.0.1:1", broken).send(ChatMessage("!r:localhost", "t", "t"), key())
    assert "leaked" not in str(err.value)


# ---- the bot token, looked up in Secrets Manager / SSM (moto) and used against Synapse ---------------


@pytest.mark.matrix
@pytest.mark.slow
def test_build_sender_reads_the_token_from_secrets_manager(
    aws: None, synapse: SynapseServer, matrix_room: MatrixRoom
) -> None:
    arn = boto3.client("secretsmanager").create_secret(
        Name="cronbell/matrix-bot", SecretString=json.dumps({"access_token": matrix_room.bot_token})
    )["ARN"]
    settings = Settings(chat_backend="matrix", matrix_homeserver_url=synapse.url, chat_token_secret=arn)
    event_id = build_sender(settings).send(
        reminder_message(matrix_room.room_id, matrix_room.user_id, "via secret", "en"), key()
    )
    [seen] = synapse.messages(matrix_room.user_token, matrix_room.room_id)
    assert seen["event_id"] == event_id and seen["sender"] == matrix_room.bot_id


def test_chat_token_accepts_raw_json_and_ssm_values(aws: None) -> None:
    sm = boto3.client("secretsmanager")
    sm.create_secret(Name="raw", SecretString="  syt_raw_token\n")
    sm.create_secret(Name="json", SecretString='{"access_token": "syt_json_token", "user_id": "@bot:x"}')
    sm.create_secret(Name="no-token", SecretString='{"user_id": "@bot:x"}')
    boto3.client("ssm").put_parameter(Name="/cronbell/token", Value="syt_ssm_token", Type="SecureString")

    assert chat_token("raw") == "syt_raw_token"
    assert chat_token("json") == "syt_json_token"
    assert chat_token("ssm:/cronbell/token") == "syt_ssm_token"
    with pytest.raises(ValueError, match="no access_token"):
        chat_token("no-token")
    with pytest.raises(ValueError):
        chat_token("")


def test_build_sender_refuses_incomplete_settings() -> None:
    with pytest.raises(ValueError, match="MATRIX_HOMESERVER_URL"):
        build_sender(Settings(chat_backend="matrix"))
    with pytest.raises(ValueError, match="CHAT_WEBHOOK_URL"):
        build_sender(Settings(chat_backend="webhook"))
    with pytest.raises(ValueError, match="unknown chat backend"):
        build_sender(Settings(chat_backend="carrier-pigeon"))


def test_a_homeserver_url_that_is_not_http_is_permanent() -> None:
    sender = MatrixChatSender("ftp://homeserver.example", lambda: "token")
    with pytest.raises(PermanentChatError, match="http"):
        sender.send(ChatMessage("!r:localhost", "t", "t"), key())
