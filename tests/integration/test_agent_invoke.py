"""The agent is invoked once per run, over real HTTP: a read timeout is the run's `agent_timeout`, never a
second invoke (botocore's `max_attempts` counts retries: 1 sent every timed-out request twice, and an agent
with side effects ran twice; with a long `timeout_seconds` the two attempts outlasted the fire function)."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import ClassVar

import pytest

from cronbell.adapters import agents
from cronbell.adapters.agents import LambdaAgents
from cronbell.core.domain.ports import AgentTimeout


class SlowLambda(BaseHTTPRequestHandler):
    """Lambda's Invoke API answering after `delay` seconds; counts the invokes it was sent."""

    invokes: ClassVar[list[float]] = []
    delay = 3.0

    def do_POST(self) -> None:
        type(self).invokes.append(time.monotonic())
        self.rfile.read(int(self.headers.get("Content-Length") or 0))
        time.sleep(self.delay)
        body = b'{"text": "late"}'
        try:
            self.send_response(200)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
        except OSError:
            pass  # the caller stopped waiting

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def slow_lambda(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[float]]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), SlowLambda)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    SlowLambda.invokes = []
    monkeypatch.setenv("AWS_ENDPOINT_URL_LAMBDA", f"http://127.0.0.1:{server.server_address[1]}")
    for name, value in (
        ("AWS_ACCESS_KEY_ID", "test"),
        ("AWS_SECRET_ACCESS_KEY", "test"),
        ("AWS_DEFAULT_REGION", "us-east-1"),
    ):
        monkeypatch.setenv(name, value)
    agents._client.cache_clear()
    yield SlowLambda.invokes
    agents._client.cache_clear()
    server.shutdown()


def test_an_agent_that_outlasts_its_timeout_is_invoked_once_and_the_run_is_its_timeout(
    slow_lambda: list[float],
) -> None:
    started = time.monotonic()
    with pytest.raises(AgentTimeout):
        LambdaAgents({"slow": "slow-agent"}).call("slow", {"prompt": "p"}, timeout_seconds=1)
    waited = time.monotonic() - started
    time.sleep(SlowLambda.delay + 0.5)  # a retry, had there been one, would have reached the server by now
    assert len(slow_lambda) == 1, slow_lambda
    assert waited < 2.5  # its timeout, once; not twice
