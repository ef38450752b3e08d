"""Chat delivery: one small interface (`ChatSender`) and a sender per platform (Matrix, Slack, Telegram,
Discord, and a signed generic webhook), chosen per deployment by `CHAT_BACKEND` (one backend, or several routed by
`context.platform`)."""

from __future__ import annotations

from collections.abc import Callable

from cronbell.adapters.chat.base import ChatMessage, ChatSender, PermanentChatError, TransientChatError
from cronbell.settings import Settings

__all__ = [
    "BACKENDS",
    "ChatMessage",
    "ChatSender",
    "PermanentChatError",
    "RoutingSender",
    "TransientChatError",
    "build_sender",
    "platform_sender",
]

BACKENDS = ("matrix", "slack", "telegram", "discord", "webhook")


def _secret(settings: Settings, platform: str, refresh: bool = False) -> Callable[[], str]:
    """Reads the platform's token from the chat secret on each send (Powertools caches it; `refresh`
    reads past the cache), never when the sender is built. With several backends the secret is a JSON
    object holding each platform's own token under its name."""
    from cronbell.adapters.secrets import chat_token

    secret_ref = settings.chat_token_secret
    return lambda: chat_token(secret_ref, refresh, platform)


def build_sender(settings: Settings) -> ChatSender:
    """The sender of the deployment's chat backends: the one sender when one is configured, else a
    router that hands each message to the sender of its platform."""
    backends = settings.chat_backends
    senders = {backend: platform_sender(settings, backend) for backend in backends}
    if len(senders) == 1:
        return senders[backends[0]]
    return RoutingSender(senders, default=backends[0])


class RoutingSender:
    """Several platforms in one deployment: `message.platform` ("" = the default) picks the sender."""

    def __init__(self, senders: dict[str, ChatSender], default: str) -> None:
        self.senders = senders
        self.default = default

    def send(self, message: ChatMessage, idempotency_key: str, deadline: float | None = None) -> str:
        sender = self.senders.get(message.platform or self.default)
        if sender is None:
            raise PermanentChatError("the room's chat platform is not configured in this deployment")
        return sender.send(message, idempotency_key, deadline)


def platform_sender(settings: Settings, backend: str) -> ChatSender:
    """The sender of one backend (one of BACKENDS), with that platform's secret."""
    secret_ref = settings.chat_token_secret
    if backend in ("slack", "telegram", "discord") and not secret_ref:
        raise ValueError(f"the {backend} chat backend needs CHAT_TOKEN_SECRET")
    if backend == "matrix":
        from cronbell.adapters.chat.matrix import MatrixChatSender

        if not settings.matrix_homeserver_url or not secret_ref:
            raise ValueError("the matrix chat backend needs MATRIX_HOMESERVER_URL and its token secret")
        return MatrixChatSender(
            settings.matrix_homeserver_url,
            _secret(settings, backend),
            token_refresher=_secret(settings, backend, refresh=True),
        )
    if backend == "slack":
        from cronbell.adapters.chat.slack import SlackChatSender

        return SlackChatSender(_secret(settings, backend), api_url=settings.slack_api_url)
    if backend == "telegram":
        from cronbell.adapters.chat.telegram import TelegramChatSender

        return TelegramChatSender(_secret(settings, backend), api_url=settings.telegram_api_url)
    if backend == "discord":
        from cronbell.adapters.chat.discord import DiscordChatSender

        return DiscordChatSender(_secret(settings, backend))  # the secret holds the webhook URL
    if backend == "webhook":
        from cronbell.adapters.chat.webhook import WebhookChatSender

        if not settings.chat_webhook_url:
            raise ValueError("the webhook chat backend needs CHAT_WEBHOOK_URL")
        signing = _secret(settings, backend) if secret_ref else None
        return WebhookChatSender(settings.chat_webhook_url, secret_provider=signing)
    raise ValueError(f"unknown chat backend {backend!r} (expected one of {', '.join(BACKENDS)})")
