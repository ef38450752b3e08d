"""A plain JSON webhook as a chat backend: the local sandbox's sink, or a bridge to any platform.

Each POST carries `Idempotency-Key: <schedule id>-<slot>` (also in the body): a receiver that
remembers keys posts each slot once, even when a lost answer makes cronbell retry.

With a shared secret, each POST is signed:

    X-Cronbell-Timestamp: <unix seconds>
    X-Cronbell-Signature: sha256=<hex HMAC-SHA256(secret, "<timestamp>." + raw body bytes)>

A receiver recomputes the HMAC over the timestamp header, a ".", and the body exactly as received,
compares in constant time, and rejects a timestamp far from its own clock (five minutes, say) so a
captured request cannot be replayed later. Every retry is signed afresh. Without a secret (the
local sandbox) the headers are left out.
"""

from __future__ import annotations

import hashlib
import hmac
import time
from collections.abc import Callable
from typing import TYPE_CHECKING

from cronbell.adapters.chat.base import (
    ChatMessage,
    PermanentChatError,
    RetryAfter,
    TransientChatError,
    header,
    json_body,
    request_body,
    seconds,
    secret_from,
    send_with_retries,
)

SIGNATURE_HEADER = "X-Cronbell-Signature"
TIMESTAMP_HEADER = "X-Cronbell-Timestamp"

if TYPE_CHECKING:
    from cronbell.settings import Settings


def signature(secret: str, timestamp: str, body: bytes) -> str:
    """The `X-Cronbell-Signature` value for a body sent at `timestamp`."""
    mac = hmac.new(secret.encode("utf-8"), timestamp.encode("ascii") + b"." + body, hashlib.sha256)
    return "sha256=" + mac.hexdigest()


class WebhookChatSender:
    """POSTs `{room_id, text, html, mentions, idempotency_key, parts, thread_id, actions}` with an
    `Idempotency-Key` header, signed when `secret_provider` is given."""

    def __init__(
        self,
        url: str,
        timeout: float = 10.0,
        max_attempts: int = 10,
        max_rate_limit_wait: float = 30.0,
        secret_provider: Callable[[], str] | None = None,
        wall_clock: Callable[[], float] = time.time,
    ) -> None:
        self.url = url
        self.timeout = timeout
        self.max_attempts = max_attempts
        self.max_rate_limit_wait = max_rate_limit_wait  # only when no deadline is given
        self.secret_provider = secret_provider
        # the real time, not cronbell's (possibly virtual) clock: the receiver checks it against its own
        self.wall_clock = wall_clock

    def send(self, message: ChatMessage, idempotency_key: str, deadline: float | None = None) -> str:
        payload = {
            "room_id": message.room_id,
            "text": message.text,
            "html": message.html,
            "mentions": list(message.mentions),
            "idempotency_key": idempotency_key,
            "parts": [{"style": span.style, "text": span.text} for span in message.parts()],
            "thread_id": message.thread_id or None,
            "actions": [{**a.as_dict(), "payload": a.payload} for a in message.actions],
        }
        body = json_body(payload)
        secret = secret_from(self.secret_provider, "webhook signing secret") if self.secret_provider else None

        def attempt(timeout: float) -> str | RetryAfter:
            headers = {"Idempotency-Key": idempotency_key}
            if secret is not None:
                timestamp = str(int(self.wall_clock()))
                headers[TIMESTAMP_HEADER] = timestamp
                headers[SIGNATURE_HEADER] = signature(secret, timestamp, body)
            answer = request_body("POST", self.url, body, headers, timeout)
            if 200 <= answer.status < 300:
                data = answer.body
                if isinstance(data, dict) and data.get("id") not in (None, ""):
                    return str(data["id"])
                return idempotency_key
            if answer.status == 429:
                wait = seconds(header(answer.headers, "Retry-After"))
                return RetryAfter(1.0 if wait is None else wait)
            if answer.status >= 500:
                raise TransientChatError(f"webhook answered {answer.status}")
            raise PermanentChatError(f"webhook answered {answer.status}", room_gone=answer.status in (403, 404, 410))

        return send_with_retries(attempt, deadline, self.timeout, self.max_attempts, self.max_rate_limit_wait)


def sender(
    settings: Settings, secret: Callable[[], str] | None, refresh: Callable[[], str] | None = None
) -> WebhookChatSender:
    """The deployment's generic webhook (cronbell.core.domain.platforms), signed when it has a secret."""
    return WebhookChatSender(settings.chat_webhook_url, secret_provider=secret)
