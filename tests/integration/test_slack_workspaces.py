"""A Slack app in several workspaces, and a Discord bot in many channels, wired from a deployment's settings:
the installations a Bolt app keeps in S3 are read in the layout slack_sdk's `AmazonS3InstallationStore`
writes (slack_sdk itself writes them here, to moto's S3), a token map secret serves the workspaces it
names, and the Discord bot posts to the channel each room id names. The platforms are a local HTTP server
that records each request's token."""

from __future__ import annotations

import json
import time

import boto3
import pytest
from slack_sdk.oauth.installation_store import Installation
from slack_sdk.oauth.installation_store.amazon_s3 import AmazonS3InstallationStore

from cronbell.adapters import aws as aws_clients
from cronbell.adapters.chat import build_sender
from cronbell.core.domain import routing
from cronbell.core.domain.ports import PermanentChatError, UnknownWorkspace
from cronbell.core.text.chat_text import reminder_message
from cronbell.settings import Settings
from tests.support.fake_platform import DISCORD_OK, KEY, SLACK_OK, FakePlatform, Reply, store_secret

BUCKET = "bolt-installations"
CLIENT_ID = "1111111111.2222222222"


@pytest.fixture
def installations(aws: None) -> AmazonS3InstallationStore:
    """A Bolt app's installation store on moto's S3, as slack_sdk writes it."""
    aws_clients.client.cache_clear()  # the functions' clients, made anew inside this AWS
    s3 = boto3.client("s3", region_name="us-east-1")
    s3.create_bucket(Bucket=BUCKET)
    store = AmazonS3InstallationStore(s3_client=s3, bucket_name=BUCKET, client_id=CLIENT_ID)
    for team, token in (("T0ALPHA", "xoxb-alpha-installed"), ("T0BRAVO", "xoxb-bravo-installed")):
        store.save(Installation(user_id="U0INSTALLER", team_id=team, bot_token=token, bot_id=f"B{team}"))
    return store


def addressed(room: str, team: str, platform: str = "slack") -> object:
    key = routing.room_key(platform, room, "matrix", team)
    return routing.addressed(reminder_message(room, "U0ANA1234", "stand-up", "en"), key)


def test_each_workspace_posts_with_the_bot_token_its_bolt_installation_holds(
    installations: AmazonS3InstallationStore, platform: FakePlatform
) -> None:
    platform.default = SLACK_OK
    settings = Settings.from_env(
        {
            "CHAT_BACKEND": "matrix,slack",
            "MATRIX_HOMESERVER_URL": "https://matrix.example.org",
            "MATRIX_TOKEN_SECRET": "unused",
            "SLACK_INSTALLATION_BUCKET": BUCKET,
            "SLACK_CLIENT_ID": CLIENT_ID,
            "SLACK_API_URL": platform.url + "/api",
        }
    )
    sender = build_sender(settings)
    for team in ("T0ALPHA", "T0BRAVO", "T0ALPHA"):
        sender.send(addressed("C0SHARED", team), KEY, deadline=time.monotonic() + 10)  # type: ignore[arg-type]
    with pytest.raises(UnknownWorkspace):
        sender.send(addressed("C0SHARED", "T0CHARLIE"), KEY)  # type: ignore[arg-type]

    tokens = [seen.headers["authorization"] for seen in platform.requests]
    assert tokens == ["Bearer xoxb-alpha-installed", "Bearer xoxb-bravo-installed", "Bearer xoxb-alpha-installed"]
    assert {seen.json()["channel"] for seen in platform.requests} == {"C0SHARED"}
    # what slack_sdk reads back is what was used: the same layout both ways
    assert installations.find_bot(enterprise_id=None, team_id="T0BRAVO").bot_token == "xoxb-bravo-installed"


def test_a_token_map_secret_serves_exactly_the_workspaces_it_names(aws: None, platform: FakePlatform) -> None:
    platform.default = SLACK_OK
    arn = store_secret("slack-map", json.dumps({"T0ALPHA": "xoxb-alpha", "T0BRAVO": "xoxb-bravo"}))
    sender = build_sender(
        Settings.from_env({"CHAT_BACKEND": "slack", "SLACK_TOKEN_SECRET": arn, "SLACK_API_URL": platform.url})
    )
    sender.send(addressed("C0ONE", "T0BRAVO"), KEY)  # type: ignore[arg-type]
    sender.send(addressed("C0ONE", "T0ALPHA"), KEY)  # type: ignore[arg-type]
    for team in ("T0CHARLIE", ""):  # unknown, and a room naming no workspace among two
        with pytest.raises(UnknownWorkspace):
            sender.send(addressed("C0ONE", team), KEY)  # type: ignore[arg-type]
    assert [seen.headers["authorization"] for seen in platform.requests] == ["Bearer xoxb-bravo", "Bearer xoxb-alpha"]


def test_a_second_workspace_added_keeps_the_rooms_made_without_a_team_on_the_default_ones_token(
    installations: AmazonS3InstallationStore, platform: FakePlatform
) -> None:
    """A deployment in one workspace (one token; its bot sent no team_id) grows a second: the first
    workspace's rooms, keyed without a team, keep posting with its token once the secret names it the
    default; new rooms name their workspace, read from the Bolt store. Without the default they fail,
    as rooms of no known workspace."""
    platform.default = SLACK_OK
    old = addressed("C0LEGACY", "")
    env = {"CHAT_BACKEND": "slack", "SLACK_API_URL": platform.url}
    arn = store_secret("slack-one", "xoxb-first")
    build_sender(Settings.from_env({**env, "SLACK_TOKEN_SECRET": arn})).send(old, KEY)  # type: ignore[arg-type]
    grown = {"SLACK_INSTALLATION_BUCKET": BUCKET, "SLACK_CLIENT_ID": CLIENT_ID}
    two = store_secret("slack-two", json.dumps({"T0ALPHA": "xoxb-first", "T0BRAVO": "xoxb-second"}))
    with pytest.raises(UnknownWorkspace):
        build_sender(Settings.from_env({**env, **grown, "SLACK_TOKEN_SECRET": two})).send(old, KEY)  # type: ignore[arg-type]
    both = store_secret("slack-both", json.dumps({"T0ALPHA": "xoxb-first", "T0BRAVO": "xoxb-2", "default": "T0ALPHA"}))
    sender = build_sender(Settings.from_env({**env, **grown, "SLACK_TOKEN_SECRET": both}))
    sender.send(old, KEY)  # type: ignore[arg-type]
    sender.send(addressed("C0NEW", "T0BRAVO"), KEY)  # type: ignore[arg-type]
    tokens = [seen.headers["authorization"] for seen in platform.requests]
    assert tokens == ["Bearer xoxb-first", "Bearer xoxb-first", "Bearer xoxb-bravo-installed"]


def test_a_slack_deployment_without_a_token_or_a_whole_store_is_refused_at_start() -> None:
    with pytest.raises(ValueError, match="SLACK_INSTALLATION_BUCKET and SLACK_CLIENT_ID"):
        build_sender(Settings.from_env({"CHAT_BACKEND": "slack", "SLACK_INSTALLATION_BUCKET": BUCKET}))


def test_a_discord_bot_posts_to_the_channel_each_room_names(aws: None, platform: FakePlatform) -> None:
    platform.default = DISCORD_OK
    arn = store_secret("discord-bot", "bot-token-secret")
    sender = build_sender(
        Settings.from_env(
            {"CHAT_BACKEND": "discord", "DISCORD_BOT_TOKEN_SECRET": arn, "DISCORD_API_URL": platform.url + "/api/v10"}
        )
    )
    for channel in ("1100000000000000001", "1100000000000000002"):
        message = routing.addressed(reminder_message(channel, "301234567890123456", "@here look", "en"), channel)
        assert sender.send(message, KEY) == "1180000000000000001"

    paths = [seen.path for seen in platform.requests]
    assert paths == [
        "/api/v10/channels/1100000000000000001/messages",
        "/api/v10/channels/1100000000000000002/messages",
    ]
    for seen in platform.requests:
        assert seen.headers["authorization"] == "Bot bot-token-secret"
        body = seen.json()
        assert body["allowed_mentions"] == {"parse": [], "users": ["301234567890123456"]}
        assert body["content"].startswith("⏰ <@301234567890123456> Reminder: ")


def test_a_token_slack_no_longer_takes_is_read_anew_from_the_store_once(
    installations: AmazonS3InstallationStore, platform: FakePlatform
) -> None:
    settings = Settings.from_env(
        {
            "CHAT_BACKEND": "slack",
            "SLACK_INSTALLATION_BUCKET": BUCKET,
            "SLACK_CLIENT_ID": CLIENT_ID,
            "SLACK_API_URL": platform.url,
        }
    )
    sender = build_sender(settings)
    platform.script(SLACK_OK)
    sender.send(addressed("C0ONE", "T0ALPHA"), KEY)  # type: ignore[arg-type]
    # the app is reinstalled: a new bot token in the store, the cached one revoked
    installations.save(Installation(user_id="U0INSTALLER", team_id="T0ALPHA", bot_token="xoxb-alpha-new"))
    platform.script(Reply(200, {"ok": False, "error": "invalid_auth"}), SLACK_OK)
    sender.send(addressed("C0ONE", "T0ALPHA"), KEY)  # type: ignore[arg-type]
    # a token refused even when read anew is the deployment's problem: refused, not retried forever
    platform.script(
        Reply(200, {"ok": False, "error": "invalid_auth"}), Reply(200, {"ok": False, "error": "invalid_auth"})
    )
    with pytest.raises(PermanentChatError, match="invalid_auth"):
        sender.send(addressed("C0ONE", "T0ALPHA"), KEY)  # type: ignore[arg-type]

    tokens = [seen.headers["authorization"].removeprefix("Bearer ") for seen in platform.requests]
    assert tokens == [
        "xoxb-alpha-installed",
        "xoxb-alpha-installed",
        "xoxb-alpha-new",
        "xoxb-alpha-new",
        "xoxb-alpha-new",
    ]
