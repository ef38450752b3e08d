"""A plain JSON webhook as a chat backend: the local sandbox's sink, or a bridge to any platform."""

from __future__ import annotations

from collections.abc import Mapping

from cronbell.adapters.chat.base import (
    ChatMessage,
    PermanentChatError,
    TransientChatError,
    request_json,
    request_timeout,
    wait_for_rate_limit,
)


def _retry_after(headers: Mapping[str, str]) -> float:
    """Seconds from a Retry-After header given in seconds; one second when absent or an HTTP date."""
    for name, value in headers.items():
        if name.lower() == "retry-after":
            try:
                return float(value)
            except ValueError:
                return 1.0
    return 1.0


class WebhookChatSender:
    """POSTs `{room_id, text, html, mentions, idempotency_key}` with an `Idempotency-Key` header."""

    def __init__(
        self,
        url: str,
        timeout: float = 10.0,
        max_attempts: int = 10,
        max_rate_limit_wait: float = 30.0,
    ) -> None:
        self.url = url
        self.timeout = timeout
        self.max_attempts = max_attempts
        self.max_rate_limit_wait = max_rate_limit_wait  # only when no deadline is given

    def send(self, message: ChatMessage, idempotency_key: str, deadline: float | None = None) -> str:
        payload = {
            "room_id": message.room_id,
            "text": message.text,
            "html": message.html,
            "mentions": list(message.mentions),
            "idempotency_key": idempotency_key,
        }
        headers = {"Idempotency-Key": idempotency_key}
        for _ in range(self.max_attempts):
            answer = request_json("POST", self.url, payload, headers, request_timeout(deadline, self.timeout))
            if 200 <= answer.status < 300:
                body = answer.body
                if isinstance(body, dict) and body.get("id") not in (None, ""):
                    return str(body["id"])
                return idempotency_key
            if answer.status == 429:
                wait_for_rate_limit(_retry_after(answer.headers), deadline, self.max_rate_limit_wait)
                continue
            if answer.status >= 500:
                raise TransientChatError(f"webhook answered {answer.status}")
            raise PermanentChatError(f"webhook answered {answer.status}")
        raise TransientChatError(f"still rate limited after {self.max_attempts} attempts")
