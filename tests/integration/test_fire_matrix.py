"""The fire function end to end against a real Synapse homeserver: the token comes from Secrets
Manager (moto), the Input is exactly Scheduler's, and the room is read back as the user."""

from __future__ import annotations

import uuid
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import boto3
import pytest

from cronbell.usecases.fire import RetryLater
from sandbox.synapse import SynapseServer
from tests.support.aws import REGION, Stack
from tests.support.envelopes import envelope, fire_input
from tests.support.handlers import configure_env, invoke
from tests.support.synapse_rooms import fresh_room, matrix_env

pytestmark = [pytest.mark.matrix, pytest.mark.slow]


def create(room: str, user: str, **args: Any) -> str:
    answer = invoke("tools", envelope("create_reminder", args, room=room, user=user, locale="es"))
    assert answer["ok"], answer
    return str(answer["result"]["id"])


def test_reminder_reaches_the_room_with_mention_and_html(stack: Stack, synapse: SynapseServer) -> None:
    room = fresh_room(synapse)
    matrix_env(stack, synapse, room.bot_token)
    sid = create(room.room_id, room.user_id, message="Reunión <b>equipo</b> @room", time="2026-11-30 10:00")
    stack.clock.advance(hours=1)
    out = invoke("fire", fire_input(room.room_id, sid))
    assert out["outcome"] == "delivered", out
    [event] = synapse.messages(room.user_token, room.room_id)
    local = room.user_id.split(":")[0]
    assert event["sender"] == room.bot_id
    assert event["body"].startswith(f"⏰ {local} Recordatorio: Reunión <b>equipo</b>")
    assert "@room" not in event["body"]  # neutralised: it can never ping the whole room
    assert f'href="https://matrix.to/#/{room.user_id}"' in event["formatted_body"]
    assert "&lt;b&gt;equipo&lt;/b&gt;" in event["formatted_body"] and "<b>" not in event["formatted_body"]
    assert event["mentions"] == [room.user_id]
    listed = invoke("tools", envelope("list_reminders", {"include_inactive": True}, room=room.room_id))
    assert listed["result"]["schedules"][0]["status"] == "fired"


def test_same_slot_five_times_concurrently_gives_one_event(stack: Stack, synapse: SynapseServer) -> None:
    room = fresh_room(synapse)
    matrix_env(stack, synapse, room.bot_token)
    sid = create(room.room_id, room.user_id, message="Daily", cron="0 10 * * *")
    event = fire_input(room.room_id, sid)

    def attempt(i: int) -> str:
        try:
            return str(invoke("fire", {**event, "attempt": str(i)})["outcome"])
        except RetryLater:  # met the live claim: Lambda retries it later
            return "retry"

    with ThreadPoolExecutor(5) as pool:
        outcomes = sorted(pool.map(attempt, range(5)))
    # a copy that met the live claim asks for a retry; one that came after it finds the slot done
    assert outcomes[0] == "delivered" and set(outcomes[1:]) <= {"duplicate", "retry"}, outcomes
    assert invoke("fire", event)["outcome"] == "duplicate"  # a retry finds the slot done
    assert len(synapse.messages(room.user_token, room.room_id)) == 1
    # the next day is a new slot
    assert invoke("fire", fire_input(room.room_id, sid, "2026-12-01T09:00:00Z"))["outcome"] == "delivered"
    assert len(synapse.messages(room.user_token, room.room_id)) == 2


def test_room_the_bot_is_not_in_gives_delivery_failed_without_retry(stack: Stack, synapse: SynapseServer) -> None:
    room = fresh_room(synapse)
    _outsider, outsider_token = synapse.register(f"outsider-{uuid.uuid4().hex[:6]}")
    matrix_env(stack, synapse, outsider_token)  # the bot's token is not a member of the room
    sid = create(room.room_id, room.user_id, message="Hola", cron="0 10 * * *")
    out = invoke("fire", fire_input(room.room_id, sid))  # returns: Lambda will not retry it
    assert out["outcome"] == "delivery_failed" and "M_FORBIDDEN" in out["reason"]
    assert synapse.messages(room.user_token, room.room_id) == []
    listed = invoke("tools", envelope("list_reminders", {"include_inactive": True}, room=room.room_id))
    row = listed["result"]["schedules"][0]
    assert row["status"] == "delivery_failed" and "M_FORBIDDEN" in row["status_reason"]
    assert stack.entries() == {}  # no retry storm: its Scheduler entry is gone
    assert invoke("fire", fire_input(room.room_id, sid, "2026-12-01T09:00:00Z"))["outcome"] == "inactive"


def test_rate_limited_homeserver_is_waited_out(stack: Stack, rate_limited_synapse: SynapseServer) -> None:
    server = rate_limited_synapse
    room = fresh_room(server)
    matrix_env(stack, server, room.bot_token)
    ids = [create(room.room_id, room.user_id, message=f"m{i}", cron=f"{i} 10 * * *") for i in range(6)]
    outcomes = [
        invoke("fire", fire_input(room.room_id, sid, f"2026-11-30T09:0{i}:00Z"))["outcome"] for i, sid in enumerate(ids)
    ]
    assert outcomes == ["delivered"] * 6
    assert len(server.messages(room.user_token, room.room_id)) == 6


def test_rotated_token_is_read_again_instead_of_failing(stack: Stack, synapse: SynapseServer) -> None:
    suffix = uuid.uuid4().hex[:6]
    bot_id, old_token = synapse.register(f"rotor-{suffix}", password="s3cret-pass")
    user_id, user_token = synapse.register(f"ana-{suffix}")
    room_id = synapse.create_room(user_token, invite=[bot_id], name="rotation")
    synapse.join(old_token, room_id)
    secrets = boto3.client("secretsmanager", region_name=REGION, endpoint_url=stack.endpoint)
    arn = secrets.create_secret(Name=f"cronbell/rotating-{suffix}", SecretString=old_token)["ARN"]
    configure_env(stack, CHAT_BACKEND="matrix", MATRIX_HOMESERVER_URL=synapse.url, CHAT_TOKEN_SECRET=arn)
    first = create(room_id, user_id, message="uno", cron="0 10 * * *")
    assert invoke("fire", fire_input(room_id, first))["outcome"] == "delivered"  # the old token is cached now
    login = {"type": "m.login.password", "identifier": {"type": "m.id.user", "user": bot_id}, "password": "s3cret-pass"}
    new_token = synapse.request("POST", "/_matrix/client/v3/login", login)["access_token"]
    secrets.put_secret_value(SecretId=arn, SecretString=new_token)
    synapse.request("POST", "/_matrix/client/v3/logout", {}, token=old_token)  # the old token is revoked
    second = create(room_id, user_id, message="dos", cron="5 10 * * *")
    assert invoke("fire", fire_input(room_id, second, "2026-11-30T09:05:00Z"))["outcome"] == "delivered"
    assert [m["body"].rsplit(": ", 1)[1] for m in synapse.messages(user_token, room_id)] == ["uno", "dos"]
