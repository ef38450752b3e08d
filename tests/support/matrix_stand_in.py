"""A stand-in Matrix homeserver on loopback, and the functions' environment pointed at it."""

from __future__ import annotations

import json
import threading
import urllib.parse
import uuid
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import boto3
import pytest

from cronbell import wiring
from tests.support.aws import ACCOUNT, REGION, Stack
from tests.support.handlers import configure_env

SEND_PATH = "/_matrix/client/v3/rooms/"
ECHO_ARN = f"arn:aws:lambda:{REGION}:{ACCOUNT}:function:EchoAgentFunction:live"  # the agent's alias


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


def matrix_secret(stack: Stack, token: str) -> str:
    """A Secrets Manager secret holding the bot's token (fresh name: Powertools caches by name)."""
    secrets = boto3.client("secretsmanager", region_name=REGION, endpoint_url=stack.endpoint)
    name = f"cronbell/bot-{uuid.uuid4().hex[:8]}"
    return str(secrets.create_secret(Name=name, SecretString=json.dumps({"access_token": token}))["ARN"])
