"""No secret and no message text in the logs: over a full scenario through the real handlers (create,
list, agent jobs, fires delivered, refused and retried by the homeserver, failing agents), at INFO,
neither the chat token nor any message, prompt or agent answer appears in any log line.

The homeserver is a small stand-in that behaves like the Matrix client-server API for sending and, when
it refuses, echoes the message and the token back in its error, as careless servers and proxies do.
"""

from __future__ import annotations

import io
import json
import logging
import uuid
from collections.abc import Iterator
from typing import Any

import pytest

from cronbell.adapters import agents
from cronbell.observability import logger
from cronbell.usecases.fire import RetryLater
from tests.support.aws import Stack
from tests.support.envelopes import envelope
from tests.support.handlers import invoke
from tests.support.matrix_stand_in import MatrixStandIn, forget_wiring, matrix_env


class FakeAgentClient:
    """Stands in for the agents' Lambda client: answers as the agent with that prompt would."""

    def __init__(self, answers: dict[str, dict[str, Any]]) -> None:
        self.answers = answers  # marker in the prompt -> Invoke response fields

    def invoke(self, FunctionName: str, InvocationType: str, Payload: bytes) -> dict[str, Any]:
        request = json.loads(Payload)
        for marker, response in self.answers.items():
            if marker in request["prompt"]:
                payload = json.dumps(response.get("payload", {})).encode()
                return {"StatusCode": 200, **response.get("extra", {}), "Payload": io.BytesIO(payload)}
        raise AssertionError(f"unexpected agent call {request}")


class Capture(logging.Handler):
    """Every record of the cronbell logger tree, formatted exactly as Powertools writes it."""

    def __init__(self) -> None:
        super().__init__(level=logging.NOTSET)
        self.setFormatter(logger.registered_formatter)
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(self.format(record))
        self.lines.append(repr(record.__dict__))  # extras and arguments, however a formatter shows them


@pytest.fixture
def capture(monkeypatch: pytest.MonkeyPatch) -> Iterator[Capture]:
    monkeypatch.setenv("POWERTOOLS_LOG_LEVEL", "INFO")
    monkeypatch.setenv("LOG_LEVEL", "INFO")
    previous = logger.log_level
    logger.setLevel("INFO")
    handler = Capture()
    cronbell_logger = logging.getLogger(logger.service)
    cronbell_logger.addHandler(handler)
    yield handler
    cronbell_logger.removeHandler(handler)
    logger.setLevel(previous)
    forget_wiring()  # the environment goes back as it was; so must the adapters built from it


def secret(kind: str) -> str:
    """A unique ASCII marker (so JSON or HTML escaping can never hide a leak from the search)."""
    return f"{kind}{uuid.uuid4().hex}"


def test_no_token_nor_message_text_in_any_log_line(
    stack: Stack,
    capture: Capture,
    capfd: pytest.CaptureFixture[str],
    caplog: pytest.LogCaptureFixture,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    caplog.set_level(logging.INFO)
    token, message, prompt, answer, failing = (secret(k) for k in ("syt", "msg", "prompt", "answer", "failing"))
    flaky, closed = "!flaky:example.org", "!closed:example.org"
    with MatrixStandIn(token, refuse={flaky: 502, closed: 403}) as matrix:
        matrix_env(stack, monkeypatch, matrix.url, token)
        agent_client = FakeAgentClient(
            {
                prompt: {"payload": {"text": f"Here you are: {answer}"}},
                failing: {
                    "payload": {"errorMessage": f"crashed on {failing}"},
                    "extra": {"FunctionError": "Unhandled"},
                },
            }
        )
        monkeypatch.setattr(agents, "_client", lambda read_timeout: agent_client)

        def tool(name: str, args: dict[str, Any], room: str = "!room1:example.org") -> dict[str, Any]:
            result: dict[str, Any] = invoke("tools", envelope(name, args, room=room))
            return result

        def fire(room: str, sid: str, slot: str) -> dict[str, Any]:
            event = {"room_id": room, "reminder_id": sid, "scheduled_time": slot, "execution_id": "e", "attempt": "1"}
            try:
                result: dict[str, Any] = invoke("fire", event)
            except RetryLater:
                return {"outcome": "retry"}
            return result

        once = tool("create_reminder", {"message": f"Call {message}", "time": "2026-11-30 10:00"})
        daily = tool("create_reminder", {"message": f"Water {message}", "cron": "0 9 * * *"}, room=flaky)
        refused = tool("create_reminder", {"message": f"Pay {message}", "cron": "0 9 * * *"}, room=closed)
        job = tool("cron_create", {"name": "digest", "prompt": f"Summarise {prompt}", "cron_expr": "0 18 * * *"})
        broken = tool("cron_create", {"name": "broken", "prompt": f"Do {failing}", "cron_expr": "0 19 * * *"})
        assert all(a["ok"] for a in (once, daily, refused, job, broken))
        bad = tool("create_reminder", {"message": f"Late {message}", "time": f"whenever {message}"})
        assert bad["error"]["code"] == "invalid_time"
        assert tool("list_reminders", {"include_inactive": True})["ok"]
        assert tool("update_reminder", {"id": job["result"]["id"], "prompt": f"Summarise again {prompt}"})["ok"]

        stack.clock.advance(hours=1)
        assert fire("!room1:example.org", once["result"]["id"], "2026-11-30T09:00:00Z")["outcome"] == "delivered"
        assert fire(flaky, daily["result"]["id"], "2026-11-30T08:00:00Z")["outcome"] == "retry"
        assert fire(closed, refused["result"]["id"], "2026-11-30T08:00:00Z")["outcome"] == "delivery_failed"
        assert fire("!room1:example.org", job["result"]["id"], "2026-11-30T17:00:00Z")["outcome"] == "delivered"
        # a failing agent: a failed run, and the room gets one notice
        assert fire("!room1:example.org", broken["result"]["id"], "2026-11-30T18:00:00Z")["outcome"] == "failed"
        assert tool("delete_reminder", {"id": job["result"]["id"]})["ok"]

    # the scenario really carried the secrets: they reached the homeserver and the logs were captured
    texts = [m["body"] for m in matrix.received]
    assert any(message in t for t in texts) and any(answer in t for t in texts)
    assert any("tool answered" in line for line in capture.lines)
    assert any("fire done" in line for line in capture.lines)
    assert any("delivery failed for good" in line for line in capture.lines)

    out, err = capfd.readouterr()
    lines = capture.lines + out.splitlines() + err.splitlines()
    lines += [f"{r.name} {r.levelname} {r.getMessage()} {r.__dict__!r}" for r in caplog.records]
    for value in (token, message, prompt, answer, failing):
        leaks = [line for line in lines if value in line]
        assert leaks == [], f"{value[:6]}... leaked into the logs: {leaks[:3]}"
