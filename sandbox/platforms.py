"""Loopback stand-ins of the chat platforms' HTTP APIs, so the real senders run end to end on a laptop:
Slack's Web API (`chat.postMessage`, a bot token per workspace), Discord's REST API (`POST
/channels/{id}/messages` with a bot token) and Telegram's Bot API (`sendMessage`, the token in the path).

Each checks the token as the platform would (an unknown one is refused the platform's way) and records
the post in the sandbox's message list with its `platform`, `workspace` (the Slack team whose token
posted it) and the thread the request names (Slack's `thread_ts`; Telegram's topic or the message it
answers). A Discord bot posts into a thread by posting to the thread's own channel, and its request names
no thread besides: the post is listed under that channel's id. A test can ask one to answer its next posts
429 with the platform's retry hint.
"""

from __future__ import annotations

import itertools
import re
import secrets
import threading
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from cronbell.core.domain.actions import BadPayload, decode
from sandbox.chat import SinkChat

PLATFORMS = ("slack", "discord", "telegram")
DEFAULT_SLACK_TEAMS = ("T0SANDBOX",)
_SLACK_MENTION = re.compile(r"<@([UW][A-Z0-9]+)>")
_TELEGRAM_MENTION = re.compile(r'href="tg://user\?id=([0-9]+)"')


@dataclass(frozen=True)
class Answer:
    status: int
    body: dict[str, Any]
    headers: dict[str, str] = field(default_factory=dict)


def _action(label: Any, payload: Any) -> dict[str, Any] | None:
    """A button as the messages endpoint shows it: its label and the tool call its payload stands for."""
    try:
        call = decode(payload)
    except BadPayload:
        return None
    return {"label": str(label), **call}


def _actions(buttons: Iterable[tuple[Any, Any]]) -> list[dict[str, Any]]:
    return [shown for shown in (_action(label, payload) for label, payload in buttons) if shown is not None]


def _message_id(value: Any) -> str | None:
    """A Telegram message id as the request gives it (an integer, or its digits in a string)."""
    if isinstance(value, int) and not isinstance(value, bool) and value > 0:
        return str(value)
    if isinstance(value, str) and value.strip().isdigit():
        return value.strip()
    return None


def telegram_thread(body: dict[str, Any]) -> str | None:
    """The thread a `sendMessage` carries, in `context.thread_id`'s forms (docs/chat-platforms.md): a forum
    topic's `message_thread_id` ("42"), else the message it answers, `reply_parameters.message_id` or the older
    `reply_to_message_id` ("reply:77"); None for the chat's main timeline."""
    topic = body.get("message_thread_id")
    if topic is not None:
        return str(topic)
    reply = body.get("reply_parameters")
    replied = _message_id(reply.get("message_id")) if isinstance(reply, dict) else None
    replied = replied or _message_id(body.get("reply_to_message_id"))
    return f"reply:{replied}" if replied is not None else None


class PlatformStandIns:
    """The three stand-ins and their tokens: one Slack bot token per team of `slack_teams` (any other team
    has none), one Discord bot token, one Telegram bot token."""

    def __init__(self, sink: SinkChat, slack_teams: Iterable[str] = DEFAULT_SLACK_TEAMS) -> None:
        self.sink = sink
        self.slack_tokens = {team: f"xoxb-{team.lower()}-{secrets.token_hex(8)}" for team in slack_teams}
        self.discord_token = f"sandbox-discord.{secrets.token_urlsafe(18)}"
        self.telegram_token = f"{secrets.randbelow(9 * 10**8) + 10**8}:{secrets.token_urlsafe(24)}"
        self._lock = threading.Lock()
        self._limited: dict[str, list[float]] = {p: [] for p in PLATFORMS}  # retry hints of the next 429s
        self.rate_limited: dict[str, int] = dict.fromkeys(PLATFORMS, 0)  # 429s answered so far
        self._numbers = itertools.count(1)  # each platform's message ids, in its own shape

    # ------------------------------------------------------------------ rate limits, for the tests

    def limit(self, platform: str, count: int, retry_after: float) -> dict[str, Any]:
        """The next `count` posts to `platform` are answered 429, asking to wait `retry_after` seconds."""
        if platform not in PLATFORMS:
            raise ValueError(f"platform must be one of {', '.join(PLATFORMS)}")
        if not 0 <= count <= 100 or not 0 <= retry_after <= 60:
            raise ValueError("count must be 0-100 and retry_after 0-60 seconds")
        with self._lock:
            self._limited[platform] = [float(retry_after)] * count
            return self.limits()

    def limits(self) -> dict[str, Any]:
        return {p: {"pending": len(self._limited[p]), "answered": self.rate_limited[p]} for p in PLATFORMS}

    def _take_limit(self, platform: str) -> float | None:
        with self._lock:
            if not self._limited[platform]:
                return None
            self.rate_limited[platform] += 1
            return self._limited[platform].pop(0)

    # ------------------------------------------------------------------ the platforms

    def slack_post(self, authorization: str, body: Any) -> Answer:
        """`chat.postMessage`: Slack answers 200 with `ok: false` for a bad token or request."""
        scheme, _, token = authorization.partition(" ")
        team = next((t for t, known in self.slack_tokens.items() if scheme == "Bearer" and known == token), None)
        if team is None:
            return Answer(200, {"ok": False, "error": "invalid_auth"})
        wait = self._take_limit("slack")
        if wait is not None:
            return Answer(429, {"ok": False, "error": "ratelimited"}, {"Retry-After": f"{wait:g}"})
        if not isinstance(body, dict) or not isinstance(body.get("channel"), str) or not body.get("text"):
            return Answer(200, {"ok": False, "error": "invalid_arguments"})
        text = str(body["text"])
        buttons = [
            (element.get("text", {}).get("text"), element.get("value"))
            for block in body.get("blocks") or []
            if isinstance(block, dict) and block.get("type") == "actions"
            for element in block.get("elements") or []
            if isinstance(element, dict)
        ]
        ts = self.sink.record(
            "slack",
            body["channel"],
            text,
            mentions=_SLACK_MENTION.findall(text),
            thread_id=body.get("thread_ts"),
            actions=_actions(buttons),
            workspace=team,
            message_id=f"{1_700_000_000 + next(self._numbers)}.000100",
        )
        return Answer(200, {"ok": True, "channel": body["channel"], "ts": ts})

    def discord_post(self, authorization: str, channel: str, body: Any) -> Answer:
        """`POST /channels/{channel}/messages` as a bot."""
        if authorization != f"Bot {self.discord_token}":
            return Answer(401, {"message": "401: Unauthorized", "code": 0})
        wait = self._take_limit("discord")
        if wait is not None:
            return Answer(
                429,
                {"message": "You are being rate limited.", "retry_after": wait, "global": False},
                {"Retry-After": f"{wait:g}", "X-RateLimit-Remaining": "0"},
            )
        if not channel.isdigit():
            return Answer(404, {"message": "Unknown Channel", "code": 10003})
        if not isinstance(body, dict) or not isinstance(body.get("content"), str):
            return Answer(400, {"message": "Cannot send an empty message", "code": 50006})
        allowed = body.get("allowed_mentions") or {}
        buttons = [
            (component.get("label"), component.get("custom_id"))
            for row in body.get("components") or []
            if isinstance(row, dict)
            for component in row.get("components") or []
            if isinstance(component, dict)
        ]
        message_id = self.sink.record(
            "discord",
            channel,
            body["content"],
            mentions=[str(u) for u in allowed.get("users") or []] if isinstance(allowed, dict) else [],
            actions=_actions(buttons),
            message_id=str(1_200_000_000_000_000_000 + next(self._numbers)),
        )
        return Answer(200, {"id": message_id, "channel_id": channel, "content": body["content"]})

    def telegram_send(self, token: str, body: Any) -> Answer:
        """`/bot<token>/sendMessage`."""
        if token != self.telegram_token:
            return Answer(401, {"ok": False, "error_code": 401, "description": "Unauthorized"})
        wait = self._take_limit("telegram")
        if wait is not None:
            hint = {"retry_after": int(wait) if wait == int(wait) else wait}
            return Answer(
                429,
                {"ok": False, "error_code": 429, "description": "Too Many Requests", "parameters": hint},
            )
        if not isinstance(body, dict) or body.get("chat_id") in (None, "") or not body.get("text"):
            return Answer(400, {"ok": False, "error_code": 400, "description": "Bad Request: message text is empty"})
        keyboard = (body.get("reply_markup") or {}).get("inline_keyboard") or []
        buttons = [
            (button.get("text"), button.get("callback_data"))
            for row in keyboard
            if isinstance(row, list)
            for button in row
            if isinstance(button, dict)
        ]
        text = str(body["text"])
        number = next(self._numbers)
        self.sink.record(
            "telegram",
            str(body["chat_id"]),
            text,
            html=text,
            mentions=_TELEGRAM_MENTION.findall(text),
            thread_id=telegram_thread(body),
            actions=_actions(buttons),
            message_id=str(number),
        )
        return Answer(200, {"ok": True, "result": {"message_id": number, "chat": {"id": body["chat_id"]}}})
