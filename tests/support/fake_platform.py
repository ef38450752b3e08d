"""A local HTTP server that plays a chat platform: records every request, answers scripted replies."""

from __future__ import annotations

import json
import threading
import time
from collections import deque
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import boto3


@dataclass
class Seen:
    method: str
    path: str
    headers: dict[str, str]  # names lowercased
    body: bytes
    at: float  # time.monotonic() on arrival

    def json(self) -> Any:
        return json.loads(self.body)


@dataclass
class Reply:
    status: int = 200
    body: Any = None
    headers: dict[str, str] = field(default_factory=dict)


class FakePlatform:
    def __init__(self) -> None:
        self.requests: list[Seen] = []
        self.replies: deque[Reply] = deque()
        self.default = Reply(200, {})
        platform = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length)
                headers = {k.lower(): v for k, v in self.headers.items()}
                platform.requests.append(Seen(self.command, self.path, headers, body, time.monotonic()))
                reply = platform.replies.popleft() if platform.replies else platform.default
                data = b"" if reply.body is None else json.dumps(reply.body).encode()
                self.send_response(reply.status)
                for name, value in reply.headers.items():
                    self.send_header(name, value)
                if data:
                    self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, format: str, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        self._thread = threading.Thread(target=self.server.serve_forever, args=(0.02,), daemon=True)

    def script(self, *replies: Reply) -> None:
        self.replies.extend(replies)

    def __enter__(self) -> FakePlatform:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.shutdown()
        self.server.server_close()


# ---- what each platform answers on success, and the credentials the tests give it -----------------

SLACK_TOKEN = "xoxb-1111-2222-secretslacktoken"
TELEGRAM_TOKEN = "123456:AAE-secret_telegram_token"
DISCORD_TOKEN = "secret-discord-webhook-token"
KEY = "rabc123-2026-12-01T09:00:00Z"  # an idempotency key: a schedule id and its slot

SLACK_OK = Reply(200, {"ok": True, "channel": "C0123ABCD", "ts": "1700000000.000100"})
TELEGRAM_OK = Reply(200, {"ok": True, "result": {"message_id": 77, "chat": {"id": -1001234567890}}})
DISCORD_OK = Reply(200, {"id": "1180000000000000001", "channel_id": "1170000000000000000"})


def store_secret(name: str, value: str) -> str:
    """A Secrets Manager secret in the AWS of the current environment; its ARN."""
    return str(boto3.client("secretsmanager").create_secret(Name=name, SecretString=value)["ARN"])
