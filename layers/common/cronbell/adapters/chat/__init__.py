"""Chat delivery: one small interface (`ChatSender`) and a sender per platform (Matrix, Slack, Telegram,
Discord, and a signed generic webhook), chosen per deployment by `CHAT_BACKEND`."""

from __future__ import annotations

from collections.abc import Callable

from cronbell.adapters.chat.base import ChatMessage, ChatSender, PermanentChatError, TransientChatError
from cronbell.settings import Settings

__all__ = [
    "BACKENDS",
    "ChatMessage",
    "ChatSender",
    "PermanentChatError",
    "TransientChatError",
    "build_sender",
]

BACKENDS = ("matrix", "slack", "telegram", "discord", "webhook")


def _secret(settings: Settings, refresh: bool = False) -> Callable[[], str]:
    """Reads the chat secret on each send (Powertools caches it; `refresh` reads past the cache),
    never when the sender is built."""
    from cronbell.adapters.secrets import chat_token

    secret_ref = settings.chat_token_secret
    return lambda: chat_token(secret_ref, refresh)


def build_sender(settings: Settings) -> ChatSender:
    """The sender the deployment's settings choose (`chat_backend`, one of BACKENDS)."""
    backend = settings.chat_backend.strip().lower()
    if backend in ("slack", "telegram", "discord") and not settings.chat_token_secret:
        raise ValueError(f"the {backend} chat backend needs CHAT_TOKEN_SECRET")
    if backend == "matrix":
        from cronbell.adapters.chat.matrix import MatrixChatSender

        if not settings.matrix_homeserver_url or not settings.chat_token_secret:
            raise ValueError("the matrix chat backend needs MATRIX_HOMESERVER_URL and CHAT_TOKEN_SECRET")
        return MatrixChatSender(
            settings.matrix_homeserver_url, _secret(settings), token_refresher=_secret(settings, refresh=True)
        )
    if backend == "slack":
        from cronbell.adapters.chat.slack import SlackChatSender

        return SlackChatSender(_secret(settings), api_url=settings.slack_api_url)
    if backend == "telegram":
        from cronbell.adapters.chat.telegram import TelegramChatSender

        return TelegramChatSender(_secret(settings), api_url=settings.telegram_api_url)
    if backend == "discord":
        from cronbell.adapters.chat.discord import DiscordChatSender

        return DiscordChatSender(_secret(settings))  # the secret holds the webhook URL
    if backend == "webhook":
        from cronbell.adapters.chat.webhook import WebhookChatSender

        if not settings.chat_webhook_url:
            raise ValueError("the webhook chat backend needs CHAT_WEBHOOK_URL")
        signing = _secret(settings) if settings.chat_token_secret else None
        return WebhookChatSender(settings.chat_webhook_url, secret_provider=signing)
    raise ValueError(f"unknown chat backend {settings.chat_backend!r} (expected one of {', '.join(BACKENDS)})")
