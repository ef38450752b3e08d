"""Matrix delivery through the client-server API, with the standard library only."""

from __future__ import annotations

import hashlib
import html
import json
import time
import urllib.parse
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from cronbell.adapters.chat.base import (
    ChatMessage,
    PermanentChatError,
    TransientChatError,
    request_json,
    request_timeout,
    wait_for_rate_limit,
)

if TYPE_CHECKING:
    from cronbell.settings import Settings


def txn_id(idempotency_key: str) -> str:
    """A transaction id derived from the idempotency key: Synapse answers a repeated PUT with the same
    txnId (from the same access token) with the first event instead of posting again."""
    return "cronbell-" + hashlib.sha256(idempotency_key.encode("utf-8")).hexdigest()[:40]


MAX_CONTENT_BYTES = 60_000
"""Synapse refuses an event over 65,536 bytes of canonical JSON (413 M_TOO_LARGE); the event's own
fields (ids, hashes, signatures, room and sender) take the rest."""
ROOM_GONE = (403, 404)  # not a member, banned, unknown room
CUT_MARKER = "\n[…]"


def content_bytes(content: dict[str, Any]) -> int:
    """The content's size as the homeserver counts it: compact JSON, UTF-8, control characters escaped
    (six bytes each, in `body` and again in `formatted_body`)."""
    return len(json.dumps(content, ensure_ascii=False, separators=(",", ":")).encode("utf-8"))


ACTIONS_KEY = "org.cronbell.actions"  # quick actions, for clients and bots that read them


def _content(message: ChatMessage, body: str, formatted: str) -> dict[str, Any]:
    content: dict[str, Any] = {
        "msgtype": "m.text",
        "body": body,
        "format": "org.matrix.custom.html",
        "formatted_body": formatted,
        "m.mentions": {"user_ids": list(message.mentions)},
    }
    if message.thread_id:
        # a thread reply, with the reply fallback for clients that do not show threads
        content["m.relates_to"] = {
            "rel_type": "m.thread",
            "event_id": message.thread_id,
            "is_falling_back": True,
            "m.in_reply_to": {"event_id": message.thread_id},
        }
    if message.actions:
        content[ACTIONS_KEY] = [{**a.as_dict(), "payload": a.payload} for a in message.actions]
    return content


def _cut(message: ChatMessage, keep: int) -> dict[str, Any]:
    body = message.text[:keep].rstrip() + CUT_MARKER
    return _content(message, body, html.escape(body, quote=False).replace("\n", "<br>"))


def message_content(message: ChatMessage) -> dict[str, Any]:
    """The event content; a message too large for one event is cut, with a visible marker, to the longest
    start that fits (its HTML then is the escaped plain text)."""
    content = _content(message, message.text, message.html)
    if content_bytes(content) <= MAX_CONTENT_BYTES:
        return content
    low, high = 0, len(message.text)
    while low < high:
        keep = (low + high + 1) // 2
        if content_bytes(_cut(message, keep)) <= MAX_CONTENT_BYTES:
            low = keep
        else:
            high = keep - 1
    return _cut(message, low)


class MatrixChatSender:
    """Posts `m.room.message` events as the bot user whose access token `token_provider` returns."""

    def __init__(
        self,
        homeserver_url: str,
        token_provider: Callable[[], str],
        timeout: float = 10.0,
        max_attempts: int = 10,
        max_rate_limit_wait: float = 30.0,
        token_refresher: Callable[[], str] | None = None,
    ) -> None:
        self.homeserver_url = homeserver_url.rstrip("/")
        self.token_provider = token_provider
        self.token_refresher = token_refresher  # reads the secret again, past its cache (a rotated token)
        self.timeout = timeout
        self.max_attempts = max_attempts
        self.max_rate_limit_wait = max_rate_limit_wait  # only when no deadline is given

    def send(self, message: ChatMessage, idempotency_key: str, deadline: float | None = None) -> str:
        url = (
            f"{self.homeserver_url}/_matrix/client/v3/rooms/{urllib.parse.quote(message.room_id, safe='')}"
            f"/send/m.room.message/{urllib.parse.quote(txn_id(idempotency_key), safe='')}"
        )
        content = message_content(message)
        headers = {"Authorization": f"Bearer {self._token(self.token_provider)}"}
        refreshed = False
        for _ in range(self.max_attempts):
            started = time.monotonic()
            answer = request_json("PUT", url, content, headers, request_timeout(deadline, self.timeout))
            body = answer.body if isinstance(answer.body, dict) else {}
            errcode = str(body.get("errcode") or "HTTP")
            if 200 <= answer.status < 300:
                event_id = body.get("event_id")
                if not isinstance(event_id, str) or not event_id:
                    raise TransientChatError(f"no event_id in the answer ({answer.status})")
                return event_id
            if answer.status == 429:
                retry_after_ms = body.get("retry_after_ms")
                retry_after = retry_after_ms / 1000 if isinstance(retry_after_ms, int | float) else 1.0
                # counted from when the request left: Synapse measures it on arrival, then stalls the answer
                wait = started + retry_after - time.monotonic()
                wait_for_rate_limit(wait, deadline, self.max_rate_limit_wait)
                continue
            if answer.status >= 500:
                raise TransientChatError(f"{errcode} ({answer.status})")
            if answer.status == 401 and self.token_refresher is not None and not refreshed:
                refreshed = True  # the cached token may have been rotated: read the secret once more
                headers = {"Authorization": f"Bearer {self._token(self.token_refresher)}"}
                continue
            raise PermanentChatError(f"{errcode} ({answer.status})", room_gone=answer.status in ROOM_GONE)
        raise TransientChatError(f"still rate limited after {self.max_attempts} attempts")

    @staticmethod
    def _token(provider: Callable[[], str]) -> str:
        try:
            token = provider()
        except Exception as err:  # the token store failing is worth a retry; its message may hold secrets
            raise TransientChatError(f"chat token lookup failed ({type(err).__name__})") from None
        if not token:
            raise PermanentChatError("chat token is empty")
        return token


def sender(settings: Settings, secret: Callable[[], str], refresh: Callable[[], str]) -> MatrixChatSender:
    """The deployment's Matrix sender (cronbell.core.domain.platforms): its homeserver, its token, read again on a
    401."""
    return MatrixChatSender(settings.matrix_homeserver_url, secret, token_refresher=refresh)
