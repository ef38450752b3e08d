"""A recording chat sender for fire tests that are about cronbell, not the chat platform."""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field

from cronbell.adapters.chat.base import ChatMessage, PermanentChatError, TransientChatError


@dataclass
class RecordingChat:
    delay: float = 0.0
    fail_with: Exception | None = None  # raised (once per set) instead of posting
    sent: list[tuple[ChatMessage, str]] = field(default_factory=list)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def send(self, message: ChatMessage, idempotency_key: str, deadline: float | None = None) -> str:
        if self.delay:
            time.sleep(self.delay)
        with self._lock:
            if self.fail_with is not None:
                err, self.fail_with = self.fail_with, None
                raise err
            self.sent.append((message, idempotency_key))
            return f"$event{len(self.sent)}"


__all__ = ["PermanentChatError", "RecordingChat", "TransientChatError"]
