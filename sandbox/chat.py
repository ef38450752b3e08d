"""The sandbox's chat backends: a webhook sink that records messages (and the posts of the platforms'
stand-ins, sandbox/platforms.py), or a real Matrix homeserver."""

from __future__ import annotations

import hashlib
import hmac
import threading
import uuid
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from sandbox.clock import SandboxClock, iso


class ChatBackend(Protocol):
    def messages(self, room_id: str) -> list[dict[str, Any]]:
        """`[{"room_id", "text", "html", "mentions", "ts", "thread_id", "actions", "platform", "workspace"}]`,
        oldest first; `ts` in the sandbox's time, `thread_id` null for the main timeline, `actions` the quick
        actions, `platform` the platform it was posted on, `workspace` the Slack team (else null)."""
        ...


MESSAGE_FIELDS = ("room_id", "text", "html", "mentions", "ts", "thread_id", "actions", "platform", "workspace")


def shown_actions(raw: list[Any]) -> list[dict[str, Any]]:
    """The quick actions as the messages endpoint shows them: `{label, tool, arguments}`."""
    return [{k: a.get(k) for k in ("label", "tool", "arguments")} for a in raw if isinstance(a, dict)]


class SinkChat:
    """Accepts the webhook sender's posts for any room. A repeated idempotency key is recorded once.
    With a signing secret (the one the sandbox provisions for the webhook platform), a post must carry a
    valid `X-Cronbell-Signature`, as a real receiver would demand."""

    def __init__(self, clock: SandboxClock, signing_secret: str = "") -> None:
        self.clock = clock
        self.signing_secret = signing_secret
        self._lock = threading.Lock()
        self._messages: list[dict[str, Any]] = []
        self._by_key: dict[str, str] = {}

    def check_signature(self, raw_body: bytes, timestamp: str, signature: str) -> None:
        """Raise PermissionError unless the post is signed with the secret (when there is one). The
        timestamp is not checked for freshness: the sandbox's clock may be virtual."""
        if not self.signing_secret:
            return
        mac = hmac.new(self.signing_secret.encode(), timestamp.encode() + b"." + raw_body, hashlib.sha256)
        if not timestamp or not hmac.compare_digest(signature, f"sha256={mac.hexdigest()}"):
            raise PermissionError("the post is not signed with the webhook's signing secret")

    def receive(self, body: dict[str, Any], idempotency_key: str = "") -> str:
        """Record one post; returns its message id (the first id again for a repeated key)."""
        key = idempotency_key or str(body.get("idempotency_key") or "")
        room_id = body.get("room_id")
        if not isinstance(room_id, str) or not room_id or not isinstance(body.get("text"), str):
            raise ValueError("a message needs room_id and text")
        mentions = body.get("mentions") or []
        if not isinstance(mentions, list):
            raise ValueError("mentions must be a list of user ids")
        thread_id = body.get("thread_id") or None
        actions = body.get("actions") or []
        if (thread_id is not None and not isinstance(thread_id, str)) or not isinstance(actions, list):
            raise ValueError("thread_id must be a string and actions a list")
        with self._lock:
            if key and key in self._by_key:
                return self._by_key[key]
        message_id = f"${uuid.uuid4().hex}"
        self.record(
            "webhook",
            room_id,
            body["text"],
            html=body.get("html") or "",
            mentions=[str(m) for m in mentions],
            thread_id=thread_id,
            actions=shown_actions(actions),
            message_id=message_id,
            idempotency_key=key,
        )
        return message_id

    def record(
        self,
        platform: str,
        room_id: str,
        text: str,
        *,
        html: str = "",
        mentions: list[str] | None = None,
        thread_id: str | None = None,
        actions: list[dict[str, Any]] | None = None,
        workspace: str | None = None,
        message_id: str = "",
        idempotency_key: str = "",
    ) -> str:
        """Record one post as a platform received it; returns its message id."""
        with self._lock:
            if idempotency_key and idempotency_key in self._by_key:
                return self._by_key[idempotency_key]
            message_id = message_id or f"${uuid.uuid4().hex}"
            self._messages.append(
                {
                    "id": message_id,
                    "room_id": room_id,
                    "text": text,
                    "html": html,
                    "mentions": list(mentions or []),
                    "ts": iso(self.clock.now()),
                    "thread_id": thread_id or None,
                    "actions": list(actions or []),
                    "platform": platform,
                    "workspace": workspace,
                    "idempotency_key": idempotency_key,
                }
            )
            if idempotency_key:
                self._by_key[idempotency_key] = message_id
            return message_id

    def messages(self, room_id: str) -> list[dict[str, Any]]:
        with self._lock:
            return [{k: m[k] for k in MESSAGE_FIELDS} for m in self._messages if m["room_id"] == room_id]


@dataclass
class MatrixAccounts:
    bot_user: str
    bot_token: str
    user: str
    user_token: str
    user_password: str
    room_id: str


class MatrixChat:
    """A Synapse homeserver on loopback with the bot, a user and a demo room; messages are read back as the
    bot (a member of every room it posts to) and placed on the sandbox's timeline."""

    def __init__(self, workdir: Path, clock: SandboxClock) -> None:
        from sandbox.synapse import SynapseServer

        self.clock = clock
        self.server = SynapseServer(workdir)
        self.accounts: MatrixAccounts | None = None

    @property
    def url(self) -> str:
        return self.server.url

    def start(self) -> MatrixAccounts:
        import secrets

        self.server.start()
        bot_user, bot_token = self.server.register("cronbell")
        _admin, admin_token = self.server.register("sandbox-admin", admin=True)
        user, user_token = self.server.register("ana")
        password = secrets.token_urlsafe(9)
        self.server.request(
            "POST",
            f"/_synapse/admin/v1/reset_password/{user}",
            {"new_password": password, "logout_devices": False},
            token=admin_token,
        )
        room_id = self.server.create_room(bot_token, invite=[user], name="cronbell sandbox")
        self.server.join(user_token, room_id)
        self.accounts = MatrixAccounts(bot_user, bot_token, user, user_token, password, room_id)
        return self.accounts

    def stop(self) -> None:
        self.server.stop()

    def messages(self, room_id: str) -> list[dict[str, Any]]:
        from sandbox.synapse import SynapseError

        assert self.accounts is not None
        try:
            events = self.server.messages(self.accounts.bot_token, room_id)
        except SynapseError:
            return []  # a room the bot never joined has no messages from it
        return [
            {
                "room_id": room_id,
                "text": event["body"],
                "html": event.get("formatted_body") or "",
                "mentions": list(event.get("mentions") or []),
                "ts": iso(self.clock.at_real_time(event["origin_server_ts"] / 1000.0)),
                "thread_id": event["thread_id"],
                "actions": shown_actions(event["actions"]),
                "platform": "matrix",
                "workspace": None,
            }
            for event in events
            if event["sender"] == self.accounts.bot_user
        ]
