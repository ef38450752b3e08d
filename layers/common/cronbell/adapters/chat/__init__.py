"""Chat delivery: one small interface (`ChatSender`) and a sender per platform (Matrix, Slack, Telegram,
Discord, and a signed generic webhook), chosen per deployment by `CHAT_BACKEND` (one backend, or several routed by
`context.platform`), each reading its token from its own secret."""

from __future__ import annotations

from collections.abc import Callable

from cronbell.adapters.chat.base import ChatMessage, ChatSender, PermanentChatError, TransientChatError
from cronbell.core.routing import PLATFORMS
from cronbell.settings import PLATFORM_SECRET_ENV, Settings

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

BACKENDS = PLATFORMS


def _secret(settings: Settings, platform: str, refresh: bool = False) -> Callable[[], str]:
    """Reads the platform's token from its secret on each send (Powertools caches it; `refresh` reads past
    the cache), never when the sender is built."""
    from cronbell.adapters.secrets import chat_token

    secret_ref = settings.chat_secret(platform)
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
    secret_ref = settings.chat_secret(backend)
    missing = [
        *(["MATRIX_HOMESERVER_URL"] if backend == "matrix" and not settings.matrix_homeserver_url else []),
        *(["CHAT_WEBHOOK_URL"] if backend == "webhook" and not settings.chat_webhook_url else []),
    ]
    if backend in ("matrix", "slack", "telegram", "discord") and not secret_ref:  # the webhook may go unsigned
        missing.append(f"{PLATFORM_SECRET_ENV[backend]} (or CHAT_TOKEN_SECRET)")
    if missing:
        raise ValueError(f"the {backend} chat backend needs {' and '.join(missing)}")
    if backend == "matrix":
        from cronbell.adapters.chat.matrix import MatrixChatSender

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

        signing = _secret(settings, backend) if secret_ref else None
        return WebhookChatSender(settings.chat_webhook_url, secret_provider=signing)
    raise ValueError(f"unknown chat backend {backend!r} (expected one of {', '.join(BACKENDS)})")
