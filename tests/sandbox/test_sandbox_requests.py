"""Every route of the sandbox's HTTP port checks a request before it acts on it: the Host must name the
sandbox, a browser's Origin must be the sandbox's own page, and a body has a Content-Length of at most
Lambda's 6 MB. A web page elsewhere can neither invoke a function (create reminders in any room) nor post the
console's form (move the clock)."""

from __future__ import annotations

import http.client
import json
import socket
from collections.abc import Iterator
from contextlib import contextmanager
from types import SimpleNamespace
from typing import Any

import pytest

from sandbox.server import MAX_REQUEST_BYTES, Refused, SandboxHTTPServer, check_request
from tests.support.sandbox_http import RecordingRuntime, serving

PORT = 3001


@contextmanager
def _serving() -> Iterator[tuple[SandboxHTTPServer, RecordingRuntime, list[Any]]]:
    runtime = RecordingRuntime()
    moves: list[Any] = []

    def move_clock(request: Any) -> tuple[int, dict[str, Any]]:
        moves.append(request)
        return 200, {"now": "2030-01-01T00:01:00Z", "fired": []}

    with serving(SimpleNamespace(runtime=runtime, ready=True, move_clock=move_clock, engine=None)) as httpd:
        yield httpd, runtime, moves


@pytest.fixture
def server() -> Iterator[tuple[int, RecordingRuntime, list[Any]]]:
    with _serving() as (httpd, runtime, moves):
        yield httpd.server_address[1], runtime, moves


def _request(port: int, method: str, path: str, body: bytes | None, headers: dict[str, str]) -> tuple[int, Any]:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    connection.putrequest(method, path, skip_host=True, skip_accept_encoding=True)
    for key, value in headers.items():
        connection.putheader(key, value)
    connection.endheaders(body)
    answer = connection.getresponse()
    data = answer.read()
    connection.close()
    return answer.status, (
        json.loads(data) if data and answer.getheader("Content-Type") == "application/json" else data
    )


INVOKE = "/2015-03-31/functions/ToolsFunction/invocations"


def test_a_page_elsewhere_cannot_invoke_a_function(server: Any) -> None:
    port, runtime, _ = server
    body = b'{"tool": "create_reminder"}'
    for origin in ("http://evil.example", "null", f"http://127.0.0.1:{port + 1}", f"https://127.0.0.1:{port}"):
        status, answer = _request(
            port,
            "POST",
            INVOKE,
            body,
            {"Host": f"127.0.0.1:{port}", "Origin": origin, "Content-Length": str(len(body))},
        )
        assert status == 403, origin
        assert "may not call the sandbox" in answer["message"]
    assert runtime.invoked == []


def test_a_page_elsewhere_cannot_move_the_clock_with_the_console_form(server: Any) -> None:
    port, _, moves = server
    body = b"move=next"
    headers = {
        "Host": f"127.0.0.1:{port}",
        "Origin": "http://evil.example",
        "Content-Type": "application/x-www-form-urlencoded",
        "Content-Length": str(len(body)),
    }
    assert _request(port, "POST", "/_sandbox/ui/clock", body, headers)[0] == 403
    assert (
        _request(port, "POST", "/_sandbox/clock", b'{"advance": "P1D"}', {**headers, "Content-Length": "18"})[0] == 403
    )
    assert moves == []


def test_a_rebound_host_name_is_refused_on_every_route(server: Any) -> None:
    port, runtime, moves = server
    for method, path, body in (
        ("GET", "/_sandbox/clock", None),
        ("GET", "/_sandbox/ui", None),
        ("POST", INVOKE, b"{}"),
        ("POST", "/_sandbox/clock", b"{}"),
        ("GET", "/mcp", None),
    ):
        headers = {"Host": f"evil.example:{port}"}
        if body is not None:
            headers["Content-Length"] = str(len(body))
        status, answer = _request(port, method, path, body, headers)
        assert status == 421, path
        assert "is not this sandbox" in answer["message"]
    assert runtime.invoked == [] and moves == []


def test_the_sandboxs_own_page_and_clients_without_an_origin_are_served(server: Any) -> None:
    port, runtime, _ = server
    body = b'{"tool": "x"}'
    for host, origin in ((f"127.0.0.1:{port}", f"http://127.0.0.1:{port}"), (f"localhost:{port}", None)):
        headers = {"Host": host, "Content-Length": str(len(body))}
        if origin:
            headers["Origin"] = origin
        assert _request(port, "POST", INVOKE, body, headers) == (200, {"ok": True})
    assert len(runtime.invoked) == 2


@pytest.mark.parametrize(
    ("length", "status", "words"),
    [
        (None, 411, "needs a Content-Length"),
        ("-1", 400, "Content-Length is not a whole number of bytes"),
        ("12abc", 400, "Content-Length is not a whole number of bytes"),
        ("1e3", 400, "Content-Length is not a whole number of bytes"),
        (str(MAX_REQUEST_BYTES + 1), 413, f"smaller than {MAX_REQUEST_BYTES} bytes"),
    ],
)
def test_a_body_without_a_sound_content_length_is_refused_unread(
    server: Any, length: str | None, status: int, words: str
) -> None:
    port, runtime, _ = server
    headers = {"Host": f"127.0.0.1:{port}"}
    if length is not None:
        headers["Content-Length"] = length
    got, answer = _request(port, "POST", INVOKE, None, headers)
    assert got == status
    assert words in answer["message"]
    assert runtime.invoked == []


def test_a_chunked_body_is_refused_with_a_request_for_its_length() -> None:
    with pytest.raises(Refused) as refused:
        check_request(PORT, "POST", f"127.0.0.1:{PORT}", None, None, chunked=True)
    assert refused.value.status == 411


def test_a_body_of_exactly_six_megabytes_is_read() -> None:
    assert (
        check_request(PORT, "POST", f"localhost:{PORT}", None, str(MAX_REQUEST_BYTES), chunked=False)
        == MAX_REQUEST_BYTES
    )
    assert check_request(PORT, "GET", f"127.0.0.1:{PORT}", None, None, chunked=False) == 0


def test_an_answer_leaves_at_once_its_connection_does_not_wait_to_fill_a_segment() -> None:
    """The headers and the body of an answer are written apart; with Nagle's algorithm on, the body would wait
    for the client's delayed acknowledgement of the headers (some 40 ms on Linux) on every request."""
    with _serving() as (httpd, _, _):
        port = httpd.server_address[1]
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        connection.request("GET", "/_sandbox/health", headers={"Host": f"127.0.0.1:{port}"})
        answer = connection.getresponse()
        answer.read()
        assert answer.status == 200
        accepted = [c.transport.get_extra_info("socket") for c in httpd.open_connections()]
        no_delay = [s.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY) for s in accepted]
        connection.close()
    assert len(no_delay) == 1
    assert no_delay[0] != 0


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        (b'{"jsonrpc": "2.0", "id": 7, "method": "tools/list"}', 7),
        (b'{"jsonrpc": "2.0", "id": "call-1", "method": "tools/call", "params": {"name": "cron_list"}}', "call-1"),
        (b'{"jsonrpc": "2.0", "id": 0, "method": "initialize"}', 0),
        (b'{"jsonrpc": "2.0", "method": "notifications/initialized"}', None),  # a notification has no id
        (b'{"jsonrpc": "2.0", "id": true, "method": "tools/list"}', None),
        (b'{"jsonrpc": "2.0", "id": 1.5, "method": "tools/list"}', None),
        (b'{"id": 7, "method": "tools/list"}', None),  # not JSON-RPC 2.0
        (b'{"jsonrpc": "2.0", "id": 7}', None),  # no method: not a request
        (b'[{"jsonrpc": "2.0", "id": 7, "method": "tools/list"}]', None),  # a batch
        (b'{"jsonrpc": "2.0", "id": 7, ', None),  # not JSON
        (b"", None),
    ],
    ids=[
        "integer-id",
        "string-id",
        "zero-id",
        "notification",
        "boolean-id",
        "fractional-id",
        "no-jsonrpc",
        "no-method",
        "batch",
        "not-json",
        "empty",
    ],
)
def test_an_mcp_request_without_room_or_user_is_answered_with_its_own_id(
    server: Any, body: bytes, expected: Any
) -> None:
    port, runtime, _ = server
    headers = {
        "Host": f"127.0.0.1:{port}",
        "Content-Type": "application/json",
        "Accept": "application/json, text/event-stream",
        "Content-Length": str(len(body)),
    }
    for query, words in (
        ("user_id=%40ana%3Alocalhost", "needs room_id in its URL's query string"),
        ("room_id=!r:localhost&user_id=%40ana%3Alocalhost&tools=tiny", "tools=tiny is no tool set"),
    ):
        status, answer = _request(port, "POST", f"/mcp?{query}", body, headers)
        assert status == 400, query
        assert answer["jsonrpc"] == "2.0" and answer["id"] == expected and type(answer["id"]) is type(expected)
        assert answer["error"]["code"] == -32602 and words in answer["error"]["message"]
    assert runtime.invoked == []
