"""Chat delivery: one small interface (`ChatSender`), a Matrix sender and a webhook sender."""

from __future__ import annotations

from cronbell.adapters.chat.base import ChatMessage, ChatSender, PermanentChatError, TransientChatError
from cronbell.settings import Settings

__all__ = ["ChatMessage", "ChatSender", "PermanentChatError", "TransientChatError", "build_sender"]


def build_sender(settings: Settings) -> ChatSender:
    """The sender the deployment's settings choose (`chat_backend`: "matrix" or "webhook")."""
    backend = settings.chat_backend.strip().lower()
    if backend == "matrix":
        from cronbell.adapters.chat.matrix import MatrixChatSender
        from cronbell.adapters.secrets import chat_token

        if not settings.matrix_homeserver_url or not settings.chat_token_secret:
            raise ValueError("the matrix chat backend needs MATRIX_HOMESERVER_URL and CHAT_TOKEN_SECRET")
        secret_ref = settings.chat_token_secret
        return MatrixChatSender(settings.matrix_homeserver_url, lambda: chat_token(secret_ref))
    if backend == "webhook":
        from cronbell.adapters.chat.webhook import WebhookChatSender

        if not settings.chat_webhook_url:
            raise ValueError("the webhook chat backend needs CHAT_WEBHOOK_URL")
        return WebhookChatSender(settings.chat_webhook_url)
    raise ValueError(f"unknown chat backend {settings.chat_backend!r} (expected matrix or webhook)")
