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
import threading
import urllib.parse
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import boto3
import pytest

from cronbell import wiring
from cronbell.adapters import agents
from cronbell.observability import logger
from cronbell.usecases.fire import RetryLater
from tests.support.aws import ACCOUNT, REGION, Stack
from tests.support.envelopes import envelope
from tests.support.handlers import configure_env, invoke, load_handler

SEND_PATH = "/_matrix/client/v3/rooms/"
ECHO_ARN = f"arn:aws:lambda:{REGION}:{ACCOUNT}:function:EchoAgentFunction"


@dataclass
class MatrixStandIn:
    """`PUT /_matrix/client/v3/rooms/{room}/send/m.room.message/{txnId}` on loopback.

    A room listed in `refuse` answers that HTTP status, with the message text and the token quoted
    in the error. The same token and txnId answer the same event id (Matrix's idempotency)."""

    token: str
    refuse: dict[str, int] = field(default_factory=dict)
    received: list[dict[str, Any]] = field(default_factory=list)
    _events: dict[str, str] = field(default_factory=dict)

    def __enter__(self) -> MatrixStandIn:
        stand_in = self

        class Handler(BaseHTTPRequestHandler):
            def do_PUT(self) -> None:
                body = json.loads(self.rfile.read(int(self.headers.get("Content-Length") or 0)) or b"{}")
                room, _, txn = self.path[len(SEND_PATH) :].partition("/send/m.room.message/")
                room = urllib.parse.unquote(room)
                if not self.path.startswith(SEND_PATH) or not txn:
                    return self._answer(404, {"errcode": "M_UNRECOGNIZED"})
                if self.headers.get("Authorization") != f"Bearer {stand_in.token}":
                    return self._answer(401, {"errcode": "M_UNKNOWN_TOKEN"})
                if room in stand_in.refuse:
                    leak = f"cannot send {body.get('body')!r} with token {stand_in.token}"
                    return self._answer(stand_in.refuse[room], {"errcode": "M_FORBIDDEN", "error": leak})
                stand_in.received.append({"room_id": room, "txn": txn, **body})
                event_id = stand_in._events.setdefault(txn, f"$event{len(stand_in._events) + 1}")
                return self._answer(200, {"event_id": event_id})

            def _answer(self, status: int, payload: dict[str, Any]) -> None:
                data = json.dumps(payload).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, format: str, *args: Any) -> None:
                pass

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(timeout=5)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self._server.server_address[1]}"


def matrix_env(stack: Stack, monkeypatch: pytest.MonkeyPatch, homeserver: str, token: str) -> None:
    """The functions' environment with Matrix delivery through the stand-in; restored by `monkeypatch`."""
    configure_env(stack)
    values = {
        "CHAT_BACKEND": "matrix",
        "MATRIX_HOMESERVER_URL": homeserver,
        "CHAT_TOKEN_SECRET": matrix_secret(stack, token),
        "AGENTS": json.dumps({"echo": ECHO_ARN}),
    }
    for name, value in values.items():
        monkeypatch.setenv(name, value)
    forget_wiring()


def forget_wiring() -> None:
    """Drop the adapters built from the environment, so the next call builds them from the current one."""
    wiring.settings.cache_clear()
    wiring.deps.cache_clear()
    load_handler("fire")._chat.cache_clear()


def matrix_secret(stack: Stack, token: str) -> str:
    """A Secrets Manager secret holding the bot's token (fresh name: Powertools caches by name)."""
    secrets = boto3.client("secretsmanager", region_name=REGION, endpoint_url=stack.endpoint)
    name = f"cronbell/bot-{uuid.uuid4().hex[:8]}"
    return str(secrets.create_secret(Name=name, SecretString=json.dumps({"access_token": token}))["ARN"])


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
        assert fire("!room1:example.org", broken["result"]["id"], "2026-11-30T18:00:00Z")["outcome"] == "delivered"
        assert tool("delete_reminder", {"id": job["result"]["id"]})["ok"]

    # the scenario really carried the secrets: they reached the homeserver and the logs were captured
    texts = [m["body"] for m in matrix.received]
    assert any(message in t for t in texts) and any(answer in t for t in texts)
    assert any("tool answered" in line for line in capture.lines)
    assert any("fire done" in line for line in capture.lines)
    assert any("delivery refused" in line for line in capture.lines)

    out, err = capfd.readouterr()
    lines = capture.lines + out.splitlines() + err.splitlines()
    lines += [f"{r.name} {r.levelname} {r.getMessage()} {r.__dict__!r}" for r in caplog.records]
    for value in (token, message, prompt, answer, failing):
        leaks = [line for line in lines if value in line]
        assert leaks == [], f"{value[:6]}... leaked into the logs: {leaks[:3]}"
