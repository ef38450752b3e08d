"""A chat platform that fails transiently (5xx, a timeout, a refused connection) on a real HTTP
socket, against Lambda's own retries on a fake clock: an outage shorter than the retries ends
`delivered` once; one that spans every attempt ends as exactly one `failed`/`chat_error` run, and
the room hears of it once, when the chat is back."""

from __future__ import annotations

import json
import socket
import threading
import time
from collections.abc import Callable, Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

from cronbell.adapters.chat.slack import SlackChatSender
from cronbell.core.domain.fire_event import parse_fire_event
from cronbell.usecases import fire as fire_uc
from tests.support.aws import Stack
from tests.support.envelopes import ROOM
from tests.support.fire_worker import kill_a_worker
from tests.support.lambda_timing import RETRY_GAPS_SECONDS, at_slot, lambda_retries
from tests.support.tools import call, ok, schedule_item

SLOT, NEXT_DAY = "2026-12-01T08:00:00Z", "2026-12-02T08:00:00Z"  # 09:00 in Madrid
REQUEST_TIMEOUT = 0.5  # the sender's own timeout; the "timeout" outage answers only after 2 s


class SlackPlatform:
    """`chat.postMessage` on loopback. `mode`: up, 503 (answers 503) or timeout (answers too late)."""

    def __init__(self) -> None:
        self.mode = "up"
        self.posted: list[str] = []
        platform = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = json.loads(self.rfile.read(int(self.headers.get("Content-Length") or 0)))
                mode = platform.mode  # as the request found it: a late answer is not a post once the chat is back
                if mode == "timeout":
                    time.sleep(2)
                status, answer = (503, {}) if mode == "503" else (200, {"ok": True, "ts": "1.1"})
                if mode == "up":
                    platform.posted.append(body["text"])
                data = json.dumps(answer).encode()
                try:
                    self.send_response(status)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(data)))
                    self.end_headers()
                    self.wfile.write(data)
                except OSError:
                    pass  # the sender gave up waiting

            def log_message(self, format: str, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, args=(0.02,), daemon=True).start()


def closed_port() -> str:
    """A loopback URL nobody listens on: connecting is refused."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return f"http://127.0.0.1:{probe.getsockname()[1]}"


@pytest.fixture
def platform() -> Iterator[SlackPlatform]:
    chat = SlackPlatform()
    yield chat
    chat.server.shutdown()
    chat.server.server_close()


def outage(platform: SlackPlatform, kind: str) -> Callable[[bool], SlackChatSender]:
    """The sender a fire gets while the chat is down (`down=True`) or back up."""
    dead = closed_port()

    def sender(down: bool) -> SlackChatSender:
        platform.mode = kind if down and kind != "refused" else "up"
        url = dead if down and kind == "refused" else platform.url
        return SlackChatSender(lambda: "xoxb-test", api_url=url + "/api", timeout=REQUEST_TIMEOUT)

    return sender


class CountingAgents:
    """The agents, each answer numbered by how many times they were asked."""

    configured = True

    def __init__(self) -> None:
        self.asked: list[dict[str, Any]] = []

    def call(self, agent_id: str, request: dict[str, Any], timeout_seconds: int) -> str:
        self.asked.append(request)
        return f"the digest, answer {len(self.asked)}"


def play(
    stack: Stack,
    sid: str,
    slot: str,
    sender: Callable[[bool], SlackChatSender],
    down_for: int,
    first_gap: int = 0,
    agents: Any = None,
) -> Any:
    """One Scheduler event and Lambda's retries of it (after an attempt `first_gap` seconds ago, if
    any); the chat is down for the first `down_for` attempts played here."""
    tried = 0

    def attempt(remaining: Callable[[], float]) -> dict[str, Any]:
        nonlocal tried
        chat = sender(tried < down_for)
        tried += 1
        more = {"agents": agents} if agents is not None else {}
        deps = stack.deps(chat=lambda: chat, sleep=lambda s: stack.clock.advance(seconds=s), **more)
        event = {"room_id": ROOM, "reminder_id": sid, "scheduled_time": slot, "execution_id": f"e{tried}"}
        return fire_uc.fire(parse_fire_event(event, stack.clock.now()), deps, remaining_seconds=remaining)

    at_slot(stack.clock, {"scheduled_time": slot})  # Scheduler's first attempt, at the schedule's time
    return lambda_retries(stack.clock, attempt, first_gap=first_gap)


def history(stack: Stack, sid: str) -> list[tuple[str, str | None]]:
    runs = ok(call(stack, "reminder_history", {"id": sid}))["runs"]
    return [(run["outcome"], run["reason"]) for run in runs]


@pytest.mark.parametrize("kind", ["503", "timeout", "refused"])
def test_an_outage_over_every_attempt_is_one_chat_error_run_told_once_when_the_chat_is_back(
    stack: Stack, platform: SlackPlatform, kind: str
) -> None:
    sid = ok(call(stack, "create_reminder", {"message": "stand up", "cron": "0 9 * * *"}))["id"]
    sender = outage(platform, kind)
    attempts = play(stack, sid, SLOT, sender, down_for=3)
    assert attempts.outcomes == ["raised RetryLater", "raised RetryLater", "failed"]
    assert attempts.result["reason"] == "chat_error"
    assert platform.posted == []
    assert history(stack, sid) == [("failed", "chat_error")]
    item = schedule_item(stack, sid)
    assert item["status"] == "active" and item["failure_streak"] == 1 and "inflight_attempts" not in item
    # the next occurrence, with the chat back: delivered, and it says once that it works again
    again = play(stack, sid, NEXT_DAY, sender, down_for=0)
    assert again.outcomes == ["delivered"]
    (posted,) = platform.posted
    assert "stand up" in posted and "works again" in posted
    assert history(stack, sid) == [("delivered", None), ("failed", "chat_error")]
    assert schedule_item(stack, sid)["failure_streak"] == 0


@pytest.mark.parametrize("kind", ["503", "timeout", "refused"])
def test_an_outage_shorter_than_the_retries_ends_delivered_once(
    stack: Stack, platform: SlackPlatform, kind: str
) -> None:
    sid = ok(call(stack, "create_reminder", {"message": "stand up", "cron": "0 9 * * *"}))["id"]
    attempts = play(stack, sid, SLOT, outage(platform, kind), down_for=2)
    assert attempts.outcomes == ["raised RetryLater", "raised RetryLater", "delivered"]
    (posted,) = platform.posted
    assert "works again" not in posted
    assert history(stack, sid) == [("delivered", None)]
    assert schedule_item(stack, sid)["failure_streak"] == 0


@pytest.mark.parametrize("down_for", [1, 2])
def test_an_agent_call_whose_post_met_an_outage_posts_its_answer_without_asking_the_agent_again(
    stack: Stack, platform: SlackPlatform, down_for: int
) -> None:
    """The agent is asked once per run: the answer an attempt could not post is kept with its slot, and
    Lambda's retry posts it (an agent with side effects ran once per chat hiccup before)."""
    sid = ok(call(stack, "cron_create", {"name": "digest", "prompt": "summarise", "cron_expr": "0 9 * * *"}))["id"]
    agents = CountingAgents()
    attempts = play(stack, sid, SLOT, outage(platform, "503"), down_for=down_for, agents=agents)
    assert attempts.outcomes == ["raised RetryLater"] * down_for + ["delivered"]
    assert len(agents.asked) == 1
    (posted,) = platform.posted
    assert "the digest, answer 1" in posted
    assert history(stack, sid) == [("delivered", None)]
    item = schedule_item(stack, sid)
    assert "inflight_answer" not in item and item["last_answer"]["text"] == "the digest, answer 1"
    # the next run asks again, as every run does
    assert play(stack, sid, NEXT_DAY, outage(platform, "503"), down_for=0, agents=agents).outcomes == ["delivered"]
    assert len(agents.asked) == 2


def test_a_one_shot_whose_every_attempt_met_an_outage_is_retired_failed(stack: Stack, platform: SlackPlatform) -> None:
    result = ok(call(stack, "create_reminder", {"message": "dentist", "time": "2026-12-01 09:00"}))
    attempts = play(stack, result["id"], result["next_fire"]["utc"], outage(platform, "503"), down_for=3)
    assert attempts.outcomes[-1] == "failed" and attempts.result["reason"] == "chat_error"
    item = schedule_item(stack, result["id"])
    assert item["sk"].startswith("x#") and item["status"] == "delivery_failed"
    assert history(stack, result["id"]) == [("failed", "chat_error")]


def test_an_attempt_killed_during_the_outage_counts_as_one_of_the_retries(
    stack: Stack, platform: SlackPlatform, tmp_path: Path
) -> None:
    """The first attempt claims the slot and its process is killed (SIGKILL) before the post
    returns; the next one waits its claim out and takes it over, so it is the second attempt."""
    sid = ok(call(stack, "create_reminder", {"message": "stand up", "cron": "0 9 * * *"}))["id"]
    at_slot(stack.clock, {"scheduled_time": SLOT})
    event = {"room_id": ROOM, "reminder_id": sid, "scheduled_time": SLOT, "execution_id": "e0", "attempt": "1"}
    kill_a_worker(stack, event, tmp_path / "chat.jsonl", "claim")
    attempts = play(stack, sid, SLOT, outage(platform, "503"), down_for=2, first_gap=RETRY_GAPS_SECONDS[0])
    assert attempts.outcomes == ["raised RetryLater", "failed"] and attempts.result["reason"] == "chat_error"
    assert platform.posted == [] and history(stack, sid) == [("failed", "chat_error")]
