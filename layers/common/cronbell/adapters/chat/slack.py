"""Slack delivery through the Web API's `chat.postMessage`, with the standard library only.

Slack has no idempotency key for posting: exactly-once rests on the fire use case's slot claim in
DynamoDB, which lets one invocation per slot reach this sender. A request whose answer is lost
(a timeout after Slack accepted it) is retried and may post twice.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from cronbell.adapters.chat.base import (
    ApiSender,
    ChatMessage,
    PermanentChatError,
    RetryAfter,
    TransientChatError,
    header,
    request_json,
    seconds,
    secret_from,
    send_with_retries,
)
from cronbell.adapters.chat.slack_tokens import InstallationStore, WorkspaceTokens
from cronbell.core.domain.messages import MENTION, STRONG
from cronbell.core.text.chat_text import WORD_JOINER, button_rows, mention_label

DEFAULT_API_URL = "https://slack.com/api"
USER_ID = re.compile(r"^[UW][A-Z0-9]{2,}$")  # U… for users, W… for Enterprise Grid users
_BROADCAST = re.compile(r"@(?=(?:channel|here|everyone)(?![A-Za-z0-9_]))", re.IGNORECASE)
_ERROR_CODE = re.compile(r"^[a-z0-9_]{1,64}$")
# `ok: false` errors worth a retry; every other error code is the request's fault and permanent
# (channel_not_found, not_in_channel, invalid_auth, account_inactive, is_archived, msg_too_long, ...)
TRANSIENT_ERRORS = frozenset({"ratelimited", "internal_error", "fatal_error", "service_unavailable", "request_timeout"})
ROOM_GONE = frozenset({"channel_not_found", "not_in_channel", "is_archived", "channel_is_archived"})
STALE_TOKEN = ("slack invalid_auth", "slack token_expired", "slack token_revoked")  # worth reading the token anew

if TYPE_CHECKING:
    from cronbell.settings import Settings


def escape(text: str) -> str:
    """Slack's control characters as entities, so text can never form `<@U…>`, `<!channel>` or a link.
    A bare "@channel", "@here" or "@everyone" gets a word joiner after the "@" as well."""
    text = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    return _BROADCAST.sub("@" + WORD_JOINER, text)


def slack_text(message: ChatMessage) -> str:
    """The message as Slack mrkdwn: `<@U…>` for a Slack user id, else a plain "@name"."""
    out = []
    for span in message.parts():
        if span.style == MENTION:
            out.append(f"<@{span.text}>" if USER_ID.match(span.text) else escape(mention_label(span.text)))
        elif span.style == STRONG:
            out.append(f"*{escape(span.text)}*")
        else:
            out.append(escape(span.text))
    return "".join(out)


SECTION_CHARS = 3000  # a section block's text limit; the full text stays in `text`
ROW_BUTTONS, MAX_BLOCKS, BUTTON_CHARS = 25, 50, 75  # an actions block's elements, a message's blocks, a label


def slack_payload(message: ChatMessage) -> dict[str, Any]:
    """`chat.postMessage`'s body: the text, `thread_ts` for a thread, and the quick actions as Block Kit
    buttons, one actions block per row (a section repeats the text, since a message with blocks shows
    the blocks)."""
    text = slack_text(message)
    payload: dict[str, Any] = {"channel": message.room_id, "text": text, "unfurl_links": False}
    if message.thread_id:
        payload["thread_ts"] = message.thread_id
    if message.actions:
        shown = text if len(text) <= SECTION_CHARS else text[: SECTION_CHARS - 1] + "…"
        blocks: list[dict[str, Any]] = [{"type": "section", "text": {"type": "mrkdwn", "text": shown}}]
        number = 0
        for i, row in enumerate(button_rows(message.actions, ROW_BUTTONS, MAX_BLOCKS - 1)):
            buttons = []
            for action in row:
                button = {"type": "button", "text": {"type": "plain_text", "text": action.label[:BUTTON_CHARS]}}
                buttons.append({**button, "action_id": f"cronbell_{number}", "value": action.payload})
                number += 1
            block_id = "cronbell_actions" if i == 0 else f"cronbell_actions_{i}"
            blocks.append({"type": "actions", "block_id": block_id, "elements": buttons})
        payload["blocks"] = blocks
    return payload


class SlackChatSender(ApiSender):
    """Posts as the Slack app whose bot token (`xoxb-…`) `token_provider` returns, or, given the
    deployment's `WorkspaceTokens`, the token of each message's workspace; `room_id` is a channel id
    (C…, G… or a DM's D…)."""

    default_api_url = DEFAULT_API_URL

    def send(self, message: ChatMessage, idempotency_key: str, deadline: float | None = None) -> str:
        """Returns the message's `ts`. `idempotency_key` is unused: Slack has none (see the module). A token
        Slack no longer takes (rotated, reinstalled) is read once more past the caches and the post tried
        again with it."""
        tokens = self.token_provider
        if not isinstance(tokens, WorkspaceTokens):
            return self._post(message, tokens, deadline)
        try:
            return self._post(message, lambda: tokens.of(message.workspace), deadline)
        except PermanentChatError as err:
            if not err.reason.startswith(STALE_TOKEN):
                raise
        return self._post(message, lambda: tokens.of(message.workspace, fresh=True), deadline)

    def _post(self, message: ChatMessage, provider: Callable[[], str], deadline: float | None) -> str:
        url = f"{self.api_url}/chat.postMessage"
        payload = slack_payload(message)
        headers = {
            "Authorization": f"Bearer {secret_from(provider, 'Slack token')}",
            "Content-Type": "application/json; charset=utf-8",
        }

        def attempt(timeout: float) -> str | RetryAfter:
            answer = request_json("POST", url, payload, headers, timeout)
            body = answer.body if isinstance(answer.body, dict) else {}
            error = str(body.get("error") or "")
            error = error if _ERROR_CODE.match(error) else "error"
            if answer.status == 429 or error == "ratelimited":
                wait = seconds(header(answer.headers, "Retry-After"))
                return RetryAfter(1.0 if wait is None else wait)
            if answer.status >= 500:
                raise TransientChatError(f"slack answered {answer.status}")
            if answer.status == 200 and body.get("ok") is True:
                return str(body.get("ts") or "")
            if answer.status == 200 and not body:
                raise TransientChatError("slack answered 200 without a JSON body")
            if error in TRANSIENT_ERRORS:
                raise TransientChatError(f"slack {error} ({answer.status})")
            raise PermanentChatError(f"slack {error} ({answer.status})", room_gone=error in ROOM_GONE)

        return send_with_retries(attempt, deadline, self.timeout, self.max_attempts, self.max_rate_limit_wait)


def sender(
    settings: Settings, secret: Callable[[], str] | None, refresh: Callable[[], str] | None = None
) -> SlackChatSender:
    """The deployment's Slack sender (cronbell.core.domain.platforms): a token per workspace, from the token
    secret (one token, or a map by team id) or the Bolt app's installation store (adapters/chat/slack_tokens.py)."""
    from cronbell.adapters.secrets import secret_value

    ref = settings.chat_secret("slack")
    store = None
    if settings.slack_installation_bucket and settings.slack_client_id:
        from cronbell.adapters import aws

        s3 = aws.Translating(aws.client("s3"))
        store = InstallationStore(s3, settings.slack_installation_bucket, settings.slack_client_id)
    tokens = WorkspaceTokens((lambda fresh=False: secret_value(ref, fresh)) if ref else None, store)
    return SlackChatSender(tokens, api_url=settings.slack_api_url)
