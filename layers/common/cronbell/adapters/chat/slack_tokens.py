"""Which bot token posts to a Slack room: its workspace's. A Slack bot token belongs to one workspace; a
room's workspace is its team id (`context.team_id`, kept in the room's store key: core/domain/routing.py).

Two sources, as Slack apps keep their tokens:
- the token secret (`SlackTokenSecretArn`, or the `slack` entry of the shared secret): one bot token (raw
  or `{"access_token": ...}`), which serves every room (a deployment in one workspace); or a JSON object
  of tokens by team id, `{"T0123": "xoxb-...", "T0456": "xoxb-..."}`, which serves exactly the workspaces
  it names; a room without a team id (made before the bot sent one) is served by the workspace the
  object's `"default"` names (`"default": "T0123"`), or by its only workspace;
- a Bolt app's installation store in S3 (`SlackInstallationBucket`, `SlackClientId`), read in the layout
  slack_sdk's `AmazonS3InstallationStore` writes: the object `<client id>/<enterprise id or none>-<team id
  or none>/bot-latest` holds the latest bot installation of a workspace as JSON, its token in `bot_token`.
  Workspaces outside an Enterprise Grid org are found by their team id alone (`none-<team id>`).

A workspace without a token raises UnknownWorkspace (the run fails `unknown_workspace`): the post is never
made with another workspace's token. Neither a token nor an object's body ever appears in an error.
"""

from __future__ import annotations

import json
import re
import threading
import time
from collections.abc import Callable
from typing import Any

from cronbell.adapters.secrets import SecretShape, token_from_value
from cronbell.core.domain.ports import TransientChatError, UnknownWorkspace

TEAM_ID = re.compile(r"^[TE][A-Z0-9]+$")  # a workspace (T…) or an Enterprise Grid org (E…)
NONE = "none"  # slack_sdk's stand-in for a missing enterprise or team id in its object keys
DEFAULT = "default"  # in a map of tokens: the team id whose token serves rooms that name no workspace
TOKEN_MAX_AGE_SECONDS = 300.0  # as long as the secrets' cache: a reinstalled workspace is read anew after it
MISSING = ("NoSuchKey", "404", "NotFound")  # S3's answers for an object that does not exist


def _json_object(value: object) -> dict[str, Any] | None:
    if isinstance(value, bytes | bytearray):
        value = bytes(value).decode("utf-8", "replace")
    if isinstance(value, dict):
        return value
    if not isinstance(value, str) or not value.strip().startswith("{"):
        return None
    try:
        data = json.loads(value)
    except ValueError:
        return None
    return data if isinstance(data, dict) else None


def token_for(value: object, workspace: str) -> str:
    """The bot token of `workspace` (a team id, "" when the room names none) in a token secret's value."""
    data = _json_object(value)
    if data is not None and isinstance(data.get("slack"), dict):  # the shared secret: each platform's entry
        data = data["slack"]
    if data and "access_token" not in data and any(isinstance(key, str) and TEAM_ID.match(key) for key in data):
        return _mapped(data, workspace)
    return token_from_value(value, "slack")


def _mapped(data: dict[str, Any], workspace: str) -> str:
    """The token of `workspace` in a map of tokens by team id (its `"default"` for a room naming none)."""
    tokens = {key: token for key, token in data.items() if key != DEFAULT}
    strays = sum(1 for key in tokens if not (isinstance(key, str) and TEAM_ID.match(key)))
    if strays:  # read as one token instead, it would fail every workspace; no key is named (one may be a token)
        raise SecretShape(f"the Slack token secret maps team ids to tokens, but {strays} of its keys are not")
    default = data.get(DEFAULT, "")
    if not (isinstance(default, str) and (not default or TEAM_ID.match(default))):
        raise SecretShape(f'the Slack token secret\'s "{DEFAULT}" is not a team id')
    if not workspace:  # a room made before the bot sent team_id: the default workspace, or the only one
        workspace = default or (next(iter(tokens)) if len(tokens) == 1 else "")
    token = tokens.get(workspace)
    if not isinstance(token, str) or not token.strip():
        raise UnknownWorkspace()
    return token.strip()


def installation_key(client_id: str, team_id: str, enterprise_id: str = "") -> str:
    """The object slack_sdk's AmazonS3InstallationStore keeps a workspace's latest bot installation in."""
    return f"{client_id}/{enterprise_id or NONE}-{team_id or NONE}/bot-latest"


class InstallationStore:
    """Reads bot tokens from a Bolt app's S3 installation store, one GetObject per workspace, each kept
    for TOKEN_MAX_AGE_SECONDS. `s3` is a boto3 S3 client whose failures are `AwsError` (adapters/aws.py)."""

    def __init__(
        self,
        s3: Any,
        bucket: str,
        client_id: str,
        max_age: float = TOKEN_MAX_AGE_SECONDS,
        now: Callable[[], float] = time.monotonic,
    ) -> None:
        self.s3 = s3
        self.bucket = bucket
        self.client_id = client_id
        self.max_age = max_age
        self.now = now
        self._lock = threading.Lock()
        self._cache: dict[str, tuple[float, str]] = {}

    def bot_token(self, team_id: str, fresh: bool = False) -> str:
        if not team_id or not TEAM_ID.match(team_id):
            raise UnknownWorkspace()
        with self._lock:
            cached = self._cache.get(team_id)
        if cached is not None and not fresh and self.now() - cached[0] < self.max_age:
            return cached[1]
        token = self._read(team_id)
        with self._lock:
            self._cache[team_id] = (self.now(), token)
        return token

    def _read(self, team_id: str) -> str:
        from cronbell.adapters.aws import AwsError

        try:
            answer = self.s3.get_object(Bucket=self.bucket, Key=installation_key(self.client_id, team_id))
            body = answer["Body"].read()
        except AwsError as err:
            if err.code in MISSING:
                raise UnknownWorkspace() from None
            raise TransientChatError(f"slack installation store read failed ({err.code or 'no answer'})") from None
        data = _json_object(body)
        token = data.get("bot_token") if data is not None else None
        if not isinstance(token, str) or not token.strip():
            raise UnknownWorkspace()  # an installation without a bot (a user-token-only install)
        return token.strip()


class WorkspaceTokens:
    """A Slack deployment's tokens: the installation store when one is configured, for rooms that name
    their workspace, else the token secret (`secret`: its value, read through the secrets cache)."""

    def __init__(self, secret: Callable[..., object] | None, store: InstallationStore | None) -> None:
        self.secret = secret  # `secret(fresh)`: its value, read past the cache when `fresh`
        self.store = store

    def __call__(self) -> str:
        """The token of a room that names no workspace."""
        return self.of("")

    def of(self, workspace: str, fresh: bool = False) -> str:
        """The bot token of `workspace`; `fresh` reads it past the caches (Slack refused the cached one)."""
        if self.store is not None and (workspace or self.secret is None):
            return self.store.bot_token(workspace, fresh)
        if self.secret is None:
            raise UnknownWorkspace()
        return token_for(self.secret(fresh), workspace)
