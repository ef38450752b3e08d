"""Chat delivery: one small interface (`ChatSender`) and a sender per platform (Matrix, Slack, Telegram,
Discord, and a signed generic webhook), chosen per deployment by `CHAT_BACKEND` (one backend, or several routed by
`context.platform`), each reading its token from its own secret."""

from __future__ import annotations

from collections.abc import Callable
from importlib import import_module

from cronbell.adapters.chat.base import ChatMessage, ChatSender, PermanentChatError, TransientChatError
from cronbell.core.domain import platforms
from cronbell.core.domain.platforms import PLATFORMS
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
    """The sender of one backend, as its entry in `cronbell.core.domain.platforms` declares it: the settings it
    needs are checked, then its module's `sender(settings, secret, refresh)` builds it with the
    platform's secret (`secret` None when the platform goes without one)."""
    platform = platforms.REGISTRY.get(backend)
    if platform is None:
        raise ValueError(f"unknown chat backend {backend!r} (expected one of {', '.join(BACKENDS)})")
    secret_ref = settings.chat_secret(backend)
    missing = [need.env for need in platform.needs if not getattr(settings, need.setting)]
    served_otherwise = any(all(getattr(settings, n.setting) for n in group) for group in platform.instead)
    if platform.secret_required and not secret_ref and not served_otherwise:
        others = "".join(f", or {' and '.join(n.env for n in group)}" for group in platform.instead)
        missing.append(f"{platform.secret.env} (or {platforms.SHARED_SECRET.env}{others})")
    if missing:
        raise ValueError(f"the {backend} chat backend needs {' and '.join(missing)}")
    build = import_module(platform.sender_module).sender
    secret = _secret(settings, backend) if secret_ref else None
    return build(settings, secret, _secret(settings, backend, refresh=True) if secret_ref else None)
