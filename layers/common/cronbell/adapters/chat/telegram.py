"""Telegram delivery through the Bot API's `sendMessage`, with the standard library only.

The request URL holds the bot token (`/bot<token>/sendMessage`), so it is never logged and never
part of an error. Telegram has no idempotency key: exactly-once rests on the fire use case's slot
claim, and a request whose answer is lost may be retried and post twice.
"""

from __future__ import annotations

import html
import re
import urllib.parse
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from cronbell.adapters.chat.base import (
    ApiSender,
    ChatMessage,
    PermanentChatError,
    RetryAfter,
    StaleSecret,
    TransientChatError,
    header,
    request_json,
    seconds,
    send_with_retries,
    with_fresh_secret,
)
from cronbell.core.domain.messages import MENTION, STRONG, Span
from cronbell.core.text.chat_text import WORD_JOINER, button_rows, fit, mention_label

DEFAULT_API_URL = "https://api.telegram.org"
MAX_CHARS = 4096 - 64  # Telegram's limit counts the text after its HTML is parsed; room for the mention
ROW_BUTTONS, MAX_BUTTONS = 8, 100  # an inline keyboard's buttons a row, and in all
USER_ID = re.compile(r"^[0-9]{1,20}$")
_CHAT_ID = re.compile(r"^-?[0-9]{1,20}$")
# "@name" in user or agent text would notify that user: a word joiner keeps it from being a mention
_AT_NAME = re.compile(r"(?<![A-Za-z0-9_.])@(?=[A-Za-z0-9_])")
# short, fixed phrases from Telegram's error descriptions, kept in the error reason; any other
# description is dropped (it can quote the message)
_KNOWN_PROBLEMS = (
    "chat not found",
    "bot was blocked by the user",
    "bot was kicked",
    "bot is not a member",
    "not enough rights",
    "user is deactivated",
    "group chat was upgraded to a supergroup chat",
    "Unauthorized",
)

if TYPE_CHECKING:
    from cronbell.settings import Settings


def _defuse(text: str) -> str:
    return _AT_NAME.sub("@" + WORD_JOINER, text)


def telegram_html(message: ChatMessage) -> str:
    """The message in Telegram's HTML parse mode: `<b>` for the header, a `tg://user` link mentioning a
    numeric user id, a plain "@name" (Telegram's own username mention) otherwise; all text escaped."""
    # defused before fitting: the word joiners count against Telegram's limit, the HTML escapes do not
    ready = tuple(s if s.style == MENTION else Span(_defuse(s.text), s.style) for s in message.parts())
    out = []
    for span in fit(ready, MAX_CHARS):
        if span.style == MENTION:
            if USER_ID.match(span.text):
                out.append(f'<a href="tg://user?id={span.text}">@{span.text}</a>')
            else:
                out.append(html.escape(mention_label(span.text), quote=False))
        elif span.style == STRONG:
            out.append(f"<b>{html.escape(span.text, quote=False)}</b>")
        else:
            out.append(html.escape(span.text, quote=False))
    return "".join(out)


def chat_id(room_id: str) -> int | str:
    """A numeric chat id as a number; a channel's "@username" as given."""
    return int(room_id) if _CHAT_ID.match(room_id.strip()) else room_id


def _problem(body: dict[str, Any]) -> str:
    description = str(body.get("description") or "")
    return next((f": {p}" for p in _KNOWN_PROBLEMS if p.lower() in description.lower()), "")


def telegram_payload(message: ChatMessage) -> dict[str, Any]:
    """`sendMessage`'s body: a forum topic's `message_thread_id` (a numeric thread id) or else a reply
    to the thread's message, and the quick actions as an inline keyboard (a row per reminder)."""
    payload: dict[str, Any] = {
        "chat_id": chat_id(message.room_id),
        "text": telegram_html(message),
        "parse_mode": "HTML",
        "disable_web_page_preview": True,
    }
    thread = message.thread_id.strip()
    if thread.isdigit():
        payload["message_thread_id"] = int(thread)
    elif thread.startswith("reply:") and thread[6:].isdigit():
        payload["reply_parameters"] = {"message_id": int(thread[6:]), "allow_sending_without_reply": True}
    if message.actions:
        rows = button_rows(message.actions, ROW_BUTTONS, MAX_BUTTONS // ROW_BUTTONS)
        keyboard = [[{"text": a.label, "callback_data": a.payload} for a in row] for row in rows]
        payload["reply_markup"] = {"inline_keyboard": keyboard}
    return payload


class TelegramChatSender(ApiSender):
    """Posts as the bot whose token (`123456:ABC…`) `token_provider` returns; `room_id` is a chat id
    ("123456789", "-1001234567890") or a public channel's "@username"."""

    default_api_url = DEFAULT_API_URL

    def send(self, message: ChatMessage, idempotency_key: str, deadline: float | None = None) -> str:
        """Returns the message id. `idempotency_key` is unused: Telegram has none (see the module)."""
        payload = telegram_payload(message)
        return with_fresh_secret(
            lambda token: self._post(token, payload, deadline),
            self.token_provider,
            self.token_refresher,
            "Telegram token",
        )

    def _post(self, token: str, payload: dict[str, Any], deadline: float | None) -> str:
        url = f"{self.api_url}/bot{urllib.parse.quote(token, safe=':')}/sendMessage"

        def attempt(timeout: float) -> str | RetryAfter:
            answer = request_json("POST", url, payload, {}, timeout)
            body = answer.body if isinstance(answer.body, dict) else {}
            if answer.status == 429:
                # the hint is in the JSON body; a Retry-After header (from a proxy) is the fallback
                parameters = body.get("parameters")
                wait = seconds(parameters.get("retry_after")) if isinstance(parameters, dict) else None
                wait = seconds(header(answer.headers, "Retry-After")) if wait is None else wait
                return RetryAfter(1.0 if wait is None else wait)
            if answer.status >= 500:
                raise TransientChatError(f"telegram answered {answer.status}")
            if 200 <= answer.status < 300 and body.get("ok") is True:
                result = body.get("result")
                return str(result.get("message_id") or "") if isinstance(result, dict) else ""
            if 200 <= answer.status < 300:
                raise TransientChatError(f"telegram answered {answer.status} without ok")
            if answer.status == 401:  # the token itself (revoked, or rotated since it was read)
                raise StaleSecret(f"telegram answered 401{_problem(body)}")
            gone = answer.status == 403 or "chat not found" in str(body.get("description", "")).lower()
            raise PermanentChatError(f"telegram answered {answer.status}{_problem(body)}", room_gone=gone)

        return send_with_retries(attempt, deadline, self.timeout, self.max_attempts, self.max_rate_limit_wait)


def sender(
    settings: Settings, secret: Callable[[], str], refresh: Callable[[], str] | None = None
) -> TelegramChatSender:
    """The deployment's Telegram sender (cronbell.core.domain.platforms)."""
    return TelegramChatSender(secret, api_url=settings.telegram_api_url, token_refresher=refresh)
