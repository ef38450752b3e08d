"""Discord delivery with the standard library only, in one of two modes:

- a bot (`DiscordBotTokenSecretArn`): `POST /channels/{channel id}/messages` with `Authorization: Bot
  <token>`; the room id is the channel id (a thread's id for a thread), so one bot serves every server and
  channel it is in;
- a channel's incoming webhook (`DiscordWebhookSecretArn`): the webhook posts to its own channel, and
  `room_id` names the room in cronbell's store only.

Both send the same content, mentions and components. The webhook URL is a credential (anyone holding it
can post), so it comes from the secret store like a token and never appears in a log or an error. Discord
has no idempotency key: exactly-once rests on the fire use case's slot claim, and a request whose answer
is lost may post twice.
"""

from __future__ import annotations

import re
import urllib.parse
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from cronbell.adapters.chat.base import (
    ApiSender,
    ChatMessage,
    HttpAnswer,
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
from cronbell.core.text.chat_text import button_rows, fit, mention_label

SUPPRESS_EMBEDS = 1 << 2  # no link previews, like Slack's unfurl_links and Telegram's web page preview
MAX_CHARS = 2000 - 32  # Discord refuses content over 2000 characters; room for the mention's markup
USER_ID = re.compile(r"^[0-9]{15,21}$")  # a snowflake
DEFAULT_API_URL = "https://discord.com/api/v10"
_MARKDOWN = re.compile(r"([\\*_~`|])")

if TYPE_CHECKING:
    from cronbell.settings import Settings


def _literal(text: str) -> str:
    """Markdown characters escaped, for the header and the mention label (the body keeps its markdown)."""
    return _MARKDOWN.sub(r"\\\1", text)


def discord_payload(message: ChatMessage) -> dict[str, Any]:
    """`content` with `<@id>` for a Discord user id, and `allowed_mentions` that lets only that user be
    notified: no @everyone, @here, role or other user mention in the text ever pings."""
    users = sorted({s.text for s in message.parts() if s.style == MENTION and USER_ID.match(s.text)})
    # escaped before fitting, so the escapes count against Discord's limit
    ready = tuple(Span(_literal(s.text), STRONG) if s.style == STRONG else s for s in message.parts())
    out = []
    for span in fit(ready, MAX_CHARS):
        if span.style == MENTION:
            out.append(f"<@{span.text}>" if span.text in users else _literal(mention_label(span.text)))
        elif span.style == STRONG:
            out.append(f"**{span.text}**")
        else:
            out.append(span.text)
    allowed: dict[str, list[str]] = {"parse": []}
    if users:
        allowed["users"] = users
    payload: dict[str, Any] = {"content": "".join(out), "allowed_mentions": allowed, "flags": SUPPRESS_EMBEDS}
    if message.actions:
        payload["components"] = [
            {
                "type": ACTION_ROW,
                "components": [
                    {"type": BUTTON, "style": SECONDARY, "label": a.label[:80], "custom_id": a.payload} for a in row
                ],
            }
            for row in button_rows(message.actions, ROW_BUTTONS, MAX_ROWS)
        ]
    return payload


ACTION_ROW, BUTTON, SECONDARY = 1, 2, 2  # message component types and the grey button style
ROW_BUTTONS, MAX_ROWS = 5, 5  # Discord's limits: buttons in an action row, action rows in a message


def wait_url(webhook_url: str, thread_id: str = "") -> str:
    """The webhook URL with `wait=true`, so Discord answers with the message it created, and with
    `thread_id` to post into a thread of the webhook's channel (else the URL's own thread, if any)."""
    parts = urllib.parse.urlsplit(webhook_url)
    drop = ("wait", "thread_id") if thread_id else ("wait",)
    query = [(k, v) for k, v in urllib.parse.parse_qsl(parts.query, keep_blank_values=True) if k not in drop]
    query.append(("wait", "true"))
    if thread_id:
        query.append(("thread_id", thread_id))
    return urllib.parse.urlunsplit(parts._replace(query=urllib.parse.urlencode(query)))


def _retry_after(body: dict[str, Any], headers: dict[str, str]) -> float:
    """The JSON body's `retry_after` (seconds, a float), else the Retry-After header, else one second."""
    for value in (body.get("retry_after"), header(headers, "Retry-After")):
        wait = seconds(value)
        if wait is not None:
            return wait
    return 1.0


def _outcome(answer: HttpAnswer, webhook: bool) -> str | RetryAfter:
    """The message id of an answer to a post (webhook or bot), a rate limit to wait out, or the failure. The
    bot's token refused (401), or the webhook itself (401, 404: deleted, or its URL rotated), is the secret's
    failure, not the room's; a bot refused a channel (403, 404) has lost that room."""
    body = answer.body if isinstance(answer.body, dict) else {}
    if answer.status == 429:
        return RetryAfter(_retry_after(body, dict(answer.headers)))
    if answer.status >= 500:
        raise TransientChatError(f"discord answered {answer.status}")
    if 200 <= answer.status < 300:
        return str(body.get("id") or "")
    code = body.get("code")
    detail = f" code {code}" if isinstance(code, int) and not isinstance(code, bool) else ""
    said = f"discord answered {answer.status}{detail}"
    if answer.status == 401 or (webhook and answer.status == 404):
        raise StaleSecret(said)
    raise PermanentChatError(said, room_gone=not webhook and answer.status in (403, 404))


class DiscordBotSender(ApiSender):
    """Posts as the bot whose token `token_provider` returns, to the channel the room id names (or to the
    thread the message's thread id names: a Discord thread is a channel of its own)."""

    default_api_url = DEFAULT_API_URL

    def send(self, message: ChatMessage, idempotency_key: str, deadline: float | None = None) -> str:
        """Returns the message id. `idempotency_key` is unused: Discord has none (see the module)."""
        channel = (message.thread_id or message.room_id).strip()
        if not USER_ID.match(channel):  # channel ids are snowflakes, as user ids are
            raise PermanentChatError("the room id is not a Discord channel id", room_gone=True)
        url = f"{self.api_url}/channels/{channel}/messages"
        payload = discord_payload(message)

        def post(token: str) -> str:
            def attempt(timeout: float) -> str | RetryAfter:
                return _outcome(request_json("POST", url, payload, {"Authorization": f"Bot {token}"}, timeout), False)

            return send_with_retries(attempt, deadline, self.timeout, self.max_attempts, self.max_rate_limit_wait)

        return with_fresh_secret(post, self.token_provider, self.token_refresher, "Discord bot token")


class DiscordChatSender:
    """Posts through the webhook whose URL (`https://discord.com/api/webhooks/<id>/<token>`)
    `url_provider` returns."""

    def __init__(
        self,
        url_provider: Callable[[], str],
        timeout: float = 10.0,
        max_attempts: int = 10,
        max_rate_limit_wait: float = 30.0,
        url_refresher: Callable[[], str] | None = None,
    ) -> None:
        self.url_provider = url_provider
        self.url_refresher = url_refresher  # reads the secret past its cache (a webhook made anew)
        self.timeout = timeout
        self.max_attempts = max_attempts
        self.max_rate_limit_wait = max_rate_limit_wait  # only when no deadline is given

    def send(self, message: ChatMessage, idempotency_key: str, deadline: float | None = None) -> str:
        """Returns the message id. `idempotency_key` is unused: Discord has none (see the module)."""
        payload = discord_payload(message)

        def post(secret: str) -> str:
            try:
                url = wait_url(secret, message.thread_id)
            except ValueError:  # a malformed URL: say so without quoting it
                raise PermanentChatError("the Discord webhook URL does not parse") from None

            def attempt(timeout: float) -> str | RetryAfter:
                return _outcome(request_json("POST", url, payload, {}, timeout), True)

            return send_with_retries(attempt, deadline, self.timeout, self.max_attempts, self.max_rate_limit_wait)

        return with_fresh_secret(post, self.url_provider, self.url_refresher, "Discord webhook URL")


def sender(
    settings: Settings, secret: Callable[[], str] | None, refresh: Callable[[], str] | None = None
) -> DiscordChatSender | DiscordBotSender:
    """The deployment's Discord sender (cronbell.core.domain.platforms): the bot, when its token's secret is
    set, else the webhook whose URL the platform's secret holds."""
    bot_secret = settings.discord_bot_token_secret
    if bot_secret:
        from cronbell.adapters.secrets import chat_token

        return DiscordBotSender(
            lambda: chat_token(bot_secret, False, "discord"),
            api_url=settings.discord_api_url,
            token_refresher=lambda: chat_token(bot_secret, True, "discord"),
        )
    assert secret is not None  # the platform's entry requires one of the two (adapters/chat/__init__.py)
    return DiscordChatSender(secret, url_refresher=refresh)
