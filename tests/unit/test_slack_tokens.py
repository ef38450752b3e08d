"""Which Slack bot token posts to a room: its workspace's, from a token secret (one token, or a map by team
id) or a Bolt app's installation store; a workspace without one is UnknownWorkspace, never another's token.
The store is read here through a stand-in S3 client; tests/integration/test_slack_workspaces.py reads what
slack_sdk itself writes to moto's S3."""

from __future__ import annotations

import io
import json
from typing import Any

import pytest

from cronbell.adapters.aws import AwsError
from cronbell.adapters.chat.base import secret_from
from cronbell.adapters.chat.slack_tokens import InstallationStore, WorkspaceTokens, installation_key, token_for
from cronbell.adapters.secrets import SecretShape
from cronbell.core.domain import routing
from cronbell.core.domain.ports import PermanentChatError, TransientChatError, UnknownWorkspace

MAP = json.dumps({"T0ALPHA": "xoxb-alpha", "T0BRAVO": " xoxb-bravo "})


@pytest.mark.parametrize(
    ("value", "workspace", "token"),
    [
        (MAP, "T0ALPHA", "xoxb-alpha"),
        (MAP, "T0BRAVO", "xoxb-bravo"),
        (MAP.encode(), "T0ALPHA", "xoxb-alpha"),
        (json.dumps({"T0ONLY": "xoxb-only"}), "", "xoxb-only"),  # one workspace: a room naming none is its
        ("xoxb-single", "T0ANY", "xoxb-single"),  # one raw token serves every room
        (json.dumps({"access_token": "xoxb-wrapped"}), "T0ANY", "xoxb-wrapped"),
        (json.dumps({"matrix": "syt_x", "slack": {"T0ALPHA": "xoxb-shared"}}), "T0ALPHA", "xoxb-shared"),
        (json.dumps({"matrix": "syt_x", "slack": "xoxb-shared-one"}), "T0ALPHA", "xoxb-shared-one"),
        (json.dumps({"T1": "xoxb-one", "T2": "xoxb-two"}), "T2", "xoxb-two"),  # short ids, as the README's sandbox
        (json.dumps({"E1": "xoxb-org"}), "", "xoxb-org"),
        # a second workspace added: rooms made before the bot sent team_id keep the first one's token
        (json.dumps({"T0ALPHA": "xoxb-alpha", "T0BRAVO": "xoxb-bravo", "default": "T0ALPHA"}), "", "xoxb-alpha"),
        (json.dumps({"T0ALPHA": "xoxb-alpha", "T0BRAVO": "xoxb-bravo", "default": "T0ALPHA"}), "T0BRAVO", "xoxb-bravo"),
        (json.dumps({"slack": {"T0ALPHA": "xoxb-a", "T0BRAVO": "xoxb-b", "default": "T0BRAVO"}}), "", "xoxb-b"),
    ],
)
def test_the_token_of_the_rooms_workspace(value: object, workspace: str, token: str) -> None:
    assert token_for(value, workspace) == token


@pytest.mark.parametrize(
    ("value", "workspace"),
    [
        (MAP, "T0CHARLIE"),
        (MAP, ""),  # several workspaces and a room naming none: none of them
        (json.dumps({"T0ALPHA": ""}), "T0ALPHA"),
        (json.dumps({"slack": {"T0ALPHA": "xoxb-a"}}), "T0BRAVO"),
        # a default without a token
        (json.dumps({"T0ALPHA": "xoxb-a", "T0BRAVO": "xoxb-b", "default": "T0CHARLIE"}), ""),
    ],
)
def test_a_workspace_the_map_does_not_name_has_no_token(value: object, workspace: str) -> None:
    with pytest.raises(UnknownWorkspace) as err:
        token_for(value, workspace)
    assert isinstance(err.value, PermanentChatError) and err.value.run_reason == "unknown_workspace"
    assert "xoxb" not in str(err.value)


@pytest.mark.parametrize(
    "value",
    [
        {"T0ALPHA": "xoxb-alpha", "fallback": "xoxb-fallback"},
        {"T0ALPHA": "xoxb-alpha", "t0bravo": "xoxb-bravo"},
        {"xoxb-reversed": "T0ALPHA", "T0BRAVO": "xoxb-bravo"},
    ],
)
def test_a_map_with_a_key_that_is_not_a_team_id_is_refused_naming_no_key(value: dict[str, str]) -> None:
    """Read as one token, such a map failed every workspace as a chat outage; it is said for what it is,
    through the provider's failure (which keeps no other message: it may hold the secret)."""
    with pytest.raises(SecretShape) as err:
        token_for(json.dumps(value), "T0ALPHA")
    assert "1 of its keys" in str(err.value) and "xoxb" not in str(err.value) and "T0" not in str(err.value)
    with pytest.raises(TransientChatError) as outage:
        secret_from(lambda: token_for(json.dumps(value), "T0ALPHA"), "Slack token")
    assert str(outage.value) == f"Slack token lookup failed: {err.value}"
    with pytest.raises(TransientChatError, match=r"^Slack token lookup failed \(ValueError\)$"):  # any other
        secret_from(lambda: token_for("{not json", "T0ALPHA"), "Slack token")


@pytest.mark.parametrize("default", ["xoxb-fallback", 7, "t0alpha"])
def test_a_default_that_is_not_a_team_id_is_refused_naming_no_token(default: object) -> None:
    """A token put where the default's team id goes would otherwise serve rooms of an unknown workspace."""
    with pytest.raises(SecretShape) as err:
        token_for(json.dumps({"T0ALPHA": "xoxb-alpha", "default": default}), "")
    assert '"default"' in str(err.value) and "xoxb" not in str(err.value)


def test_the_installation_key_is_slack_sdks_layout() -> None:
    assert installation_key("1234.5678", "T0ALPHA") == "1234.5678/none-T0ALPHA/bot-latest"
    assert installation_key("1234.5678", "T0ALPHA", "E0GRID") == "1234.5678/E0GRID-T0ALPHA/bot-latest"


class FakeS3:
    """Objects by key; a missing one answers as S3 does (NoSuchKey), any other failure as given."""

    def __init__(self, objects: dict[str, Any], failure: str = "") -> None:
        self.objects = objects
        self.failure = failure
        self.reads: list[str] = []

    def get_object(self, Bucket: str, Key: str) -> dict[str, Any]:
        from botocore.exceptions import ClientError

        self.reads.append(Key)
        code = self.failure or ("" if Key in self.objects else "NoSuchKey")
        if code:
            raise AwsError(ClientError({"Error": {"Code": code, "Message": "no"}}, "GetObject"))
        body = self.objects[Key]
        return {"Body": io.BytesIO(body if isinstance(body, bytes) else json.dumps(body).encode())}


def test_the_store_reads_each_workspaces_bot_token_once_while_fresh() -> None:
    now = [0.0]
    s3 = FakeS3({"99.1/none-T0ALPHA/bot-latest": {"bot_token": "xoxb-alpha", "team_id": "T0ALPHA"}})
    store = InstallationStore(s3, "bucket", "99.1", max_age=300, now=lambda: now[0])
    assert store.bot_token("T0ALPHA") == "xoxb-alpha"
    assert store.bot_token("T0ALPHA") == "xoxb-alpha"
    assert s3.reads == ["99.1/none-T0ALPHA/bot-latest"]
    now[0] = 301.0  # a reinstall is read anew
    assert store.bot_token("T0ALPHA") == "xoxb-alpha"
    assert len(s3.reads) == 2


@pytest.mark.parametrize(
    ("objects", "team"),
    [
        ({}, "T0ALPHA"),  # never installed
        ({"99.1/none-T0ALPHA/bot-latest": {"user_token": "xoxp-x"}}, "T0ALPHA"),  # no bot in it
        ({"99.1/none-T0ALPHA/bot-latest": b"not json"}, "T0ALPHA"),
        ({}, ""),  # a room naming no workspace
        ({}, "../x"),  # never a key outside the client's prefix
    ],
)
def test_a_workspace_the_store_does_not_hold_is_unknown(objects: dict[str, Any], team: str) -> None:
    with pytest.raises(UnknownWorkspace):
        InstallationStore(FakeS3(objects), "bucket", "99.1").bot_token(team)


def test_a_failing_store_is_worth_a_retry_and_says_no_more_than_its_code() -> None:
    with pytest.raises(TransientChatError, match=r"read failed \(SlowDown\)"):
        InstallationStore(FakeS3({}, failure="SlowDown"), "bucket", "99.1").bot_token("T0ALPHA")


def test_with_a_store_rooms_naming_a_workspace_read_it_and_the_secret_serves_the_others() -> None:
    store = InstallationStore(FakeS3({"9.9/none-T0ALPHA/bot-latest": {"bot_token": "xoxb-stored"}}), "b", "9.9")
    both = WorkspaceTokens(lambda fresh=False: "xoxb-secret", store)
    assert both.of("T0ALPHA") == "xoxb-stored"
    assert both() == "xoxb-secret"
    with pytest.raises(UnknownWorkspace):
        both.of("T0BRAVO")  # the store decides for a named workspace: never the secret's token instead
    with pytest.raises(UnknownWorkspace):
        WorkspaceTokens(None, store).of("")
    with pytest.raises(UnknownWorkspace):
        WorkspaceTokens(None, None).of("T0ALPHA")


def test_a_slack_rooms_key_keeps_its_workspace_and_its_posts_go_with_it() -> None:
    key = routing.room_key("slack", "C0SHARED", "matrix", "T0ALPHA")
    assert routing.split_room_key(key) == ("slack", "C0SHARED")
    assert routing.workspace(key) == "T0ALPHA"
    assert key != routing.room_key("slack", "C0SHARED", "matrix", "T0BRAVO")
    # the default platform's rooms keep their bare key without a workspace, and qualify it with one
    assert routing.room_key("slack", "C0SHARED", "slack") == "C0SHARED"
    assert routing.workspace(routing.room_key("slack", "C0SHARED", "slack", "T0ALPHA")) == "T0ALPHA"
    # an allowed room is allowed in the caller's workspace, and named there
    allowed = ("slack:C0NEWS",)
    news = routing.named_room("slack:C0NEWS", key, "matrix")
    assert news is not None and routing.workspace(news) == "T0ALPHA"
    assert routing.named_room("C0NEWS", key, "matrix") == news  # the caller's platform is the one meant
    assert routing.output_allowed(news, key, allowed, "matrix")
    elsewhere = routing.room_key("slack", "C0NEWS", "matrix", "T0BRAVO")
    assert not routing.output_allowed(elsewhere, key, allowed, "matrix")
    assert routing.named_room("matrix:!m:example.org", key, "matrix") is None  # another platform's room


def test_a_room_allowed_on_one_platform_is_never_reached_from_another() -> None:
    """AllowedOutputRooms names `slack:C9`: a Discord or default-platform caller naming it, with or
    without the prefix, reaches no Slack room."""
    discord = routing.room_key("discord", "923456789012345678", "webhook")
    webhook = routing.room_key("", "CW", "webhook")
    slack = routing.room_key("slack", "C9", "webhook")
    allowed = ("slack:C9",)
    for own in (discord, webhook):
        assert routing.named_room("slack:C9", own, "webhook") is None
        bare = routing.named_room("C9", own, "webhook")
        assert bare is not None and bare != slack
        assert not routing.output_allowed(bare, own, allowed, "webhook")
        assert not routing.output_allowed(slack, own, allowed, "webhook")  # a key stored by an older release
    caller = routing.room_key("slack", "CY", "webhook")
    assert routing.named_room("C9", caller, "webhook") == routing.named_room("slack:C9", caller, "webhook") == slack
    assert routing.output_allowed(slack, caller, allowed, "webhook")


def test_the_workspace_comes_from_every_trusted_context_and_keys_the_room() -> None:
    from cronbell.core.contract.envelope import parse_request, routed
    from cronbell.inbound import agentcore
    from cronbell.inbound.common import CONTEXT_KEYS
    from sandbox.mcp import context_from

    who = {"room_id": "C0SHARED", "user_id": "U0ANA1234", "platform": "slack", "team_id": "T0ALPHA"}
    request = parse_request({"tool": "list_reminders", "arguments": {}, "context": who})
    assert request.context.team_id == "T0ALPHA"
    assert routed(request.context, ("matrix", "slack")).room_id == "slack\x1fC0SHARED\x1fT0ALPHA"
    # without a team id, the room keeps the key it had before workspaces were named (its schedules stay)
    plain = parse_request({"tool": "x", "context": {k: v for k, v in who.items() if k != "team_id"}})
    assert routed(plain.context, ("matrix", "slack")).room_id == "slack\x1fC0SHARED"
    # a platform without workspaces ignores it: a Matrix room is keyed as always
    matrix = parse_request({"tool": "x", "context": {**who, "room_id": "!r:example.org", "platform": "matrix"}})
    assert routed(matrix.context, ("matrix", "slack")).room_id == "!r:example.org"
    assert "team_id" in CONTEXT_KEYS  # Bedrock Agents' session attributes
    pinned = {"MCP_ROOM_ID": "C0SHARED", "MCP_USER_ID": "U0ANA1234", "MCP_TEAM_ID": "T0ALPHA"}
    assert agentcore.trusted_context({}, pinned)["team_id"] == "T0ALPHA"
    headers = {
        agentcore.HEADERS_KEY: {"X-Cronbell-Room-Id": "C0", "X-Cronbell-User-Id": "U0", "X-Cronbell-Team-Id": "T0B"}
    }
    assert agentcore.trusted_context(headers, {agentcore.TRUST_HEADERS_ENV: "true"})["team_id"] == "T0B"
    assert context_from(who)["team_id"] == "T0ALPHA"  # the sandbox's MCP endpoint and stdio command
