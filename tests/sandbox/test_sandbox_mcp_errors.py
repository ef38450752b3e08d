"""What `/mcp` refuses, it answers as a JSON-RPC 2.0 error object, the shape an MCP client reads: a body over the
endpoint's limit (below or above Lambda's 6 MB, the port's limit for every other route), a batch, and any other
body that is no JSON-RPC message, never a plain-text body or a validation library's report. Real HTTP against
the sandbox's port, served in-process; the official MCP client against it for the oversized calls."""

from __future__ import annotations

import http.client
import json
from collections.abc import Iterator
from types import SimpleNamespace
from typing import Any

import anyio
import pytest
from mcp import Client, MCPError
from mcp_types import INVALID_PARAMS, INVALID_REQUEST

from sandbox.mcp import MAX_BODY_BYTES
from sandbox.server import MAX_REQUEST_BYTES
from tests.support.sandbox_http import RecordingRuntime, serving

QUERY = "room_id=!r:localhost&user_id=%40ana%3Alocalhost"
INVOKE = "/2015-03-31/functions/ToolsFunction/invocations"
TOOLS_ANSWER = json.dumps(
    {
        "ok": True,
        "result": {"now": {"local": "2030-01-07T09:00:00+01:00", "utc": "2030-01-07T08:00:00Z"}, "schedules": []},
        "text": "No reminders here.",
    }
).encode()


@pytest.fixture
def served() -> Iterator[tuple[int, RecordingRuntime]]:
    runtime = RecordingRuntime(TOOLS_ANSWER)
    with serving(SimpleNamespace(runtime=runtime, ready=True, engine=None)) as httpd:
        yield httpd.server_address[1], runtime


def _post(port: int, path: str, body: bytes, **extra: str) -> tuple[int, dict[str, str], bytes]:
    """POST `body` (sent whole), as an MCP client posts a message; the status, headers and body of the answer."""
    headers = {
        "Host": f"127.0.0.1:{port}",
        "Content-Type": "application/json",
        "Accept": "application/json, text/event-stream",
        "Content-Length": str(len(body)),
        **extra,
    }
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        connection.request("POST", path, body, headers)
        answer = connection.getresponse()
        return answer.status, {k.lower(): v for k, v in answer.getheaders()}, answer.read()
    finally:
        connection.close()


def _jsonrpc_error(headers: dict[str, str], data: bytes) -> dict[str, Any]:
    """The answer's body, checked to be one JSON-RPC 2.0 error object and nothing else."""
    assert headers["content-type"] == "application/json", data[:300]
    answer = json.loads(data)
    assert set(answer) == {"jsonrpc", "id", "error"} and answer["jsonrpc"] == "2.0", answer
    assert set(answer["error"]) == {"code", "message"} and isinstance(answer["error"]["code"], int), answer
    assert "pydantic" not in data.decode() and "validation error" not in data.decode().lower(), answer
    return answer


def _call(size: int, request_id: int = 99) -> bytes:
    """A `tools/call` whose body is `size` bytes or a few more."""
    filler = "a" * size
    message = {
        "jsonrpc": "2.0",
        "id": request_id,
        "method": "tools/call",
        "params": {"name": "create_reminder", "arguments": {"message": filler}},
    }
    return json.dumps(message).encode()


# ---------------------------------------------------------------------------------------- too large


@pytest.mark.parametrize(
    ("size", "answered"),
    [
        (MAX_BODY_BYTES + 1024, 99),  # over the MCP limit, under the port's: read, and answered with its id
        (MAX_REQUEST_BYTES + 1024, 99),  # over Lambda's 6 MB too, which answered every route in Lambda's shape
    ],
    ids=["over-the-mcp-limit", "over-lambdas-6-mb"],
)
def test_an_oversized_mcp_request_is_answered_a_json_rpc_error_that_says_the_limit(
    served: tuple[int, RecordingRuntime], size: int, answered: int
) -> None:
    port, runtime = served
    body = _call(size)
    status, headers, data = _post(port, f"/mcp?{QUERY}", body)
    assert status == 413
    answer = _jsonrpc_error(headers, data)
    assert answer["id"] == answered
    assert answer["error"]["code"] == INVALID_REQUEST
    assert f"the request body is {len(body)} bytes" in answer["error"]["message"]
    assert f"over the MCP endpoint's limit of {MAX_BODY_BYTES} bytes (4 MiB)" in answer["error"]["message"]
    assert runtime.invoked == []

    # the connection was kept in step: the same port answers the next request as before
    status, _, data = _post(port, f"/mcp?{QUERY}", b'{"jsonrpc": "2.0", "id": 1, "method": "tools/list"}')
    assert status == 200 and json.loads(data)["id"] == 1


def test_a_client_waiting_to_send_an_oversized_body_is_answered_at_once(served: tuple[int, RecordingRuntime]) -> None:
    """`Expect: 100-continue` (curl's, for a large body): the answer comes without the body, which is never sent."""
    port, _ = served
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    connection.putrequest("POST", f"/mcp?{QUERY}", skip_host=True, skip_accept_encoding=True)
    for key, value in {
        "Host": f"127.0.0.1:{port}",
        "Content-Type": "application/json",
        "Accept": "application/json, text/event-stream",
        "Content-Length": str(MAX_REQUEST_BYTES + 1),
        "Expect": "100-continue",
    }.items():
        connection.putheader(key, value)
    connection.endheaders()
    answer = connection.getresponse()
    data = answer.read()
    connection.close()
    assert answer.status == 413
    refused = _jsonrpc_error({k.lower(): v for k, v in answer.getheaders()}, data)
    assert refused["id"] is None and refused["error"]["code"] == INVALID_REQUEST
    assert f"limit of {MAX_BODY_BYTES} bytes" in refused["error"]["message"]


def test_other_routes_keep_lambdas_answer_to_a_body_over_6_mb(served: tuple[int, RecordingRuntime]) -> None:
    port, runtime = served
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    connection.putrequest("POST", INVOKE, skip_host=True, skip_accept_encoding=True)
    connection.putheader("Host", f"127.0.0.1:{port}")
    connection.putheader("Content-Length", str(MAX_REQUEST_BYTES + 1))
    connection.endheaders()
    answer = connection.getresponse()
    data = json.loads(answer.read())
    connection.close()
    assert answer.status == 413 and answer.getheader("x-amzn-ErrorType") == "RequestEntityTooLargeException"
    assert data == {
        "Type": "User",
        "message": f"Request must be smaller than {MAX_REQUEST_BYTES} bytes for the InvokeFunction operation",
    }
    assert runtime.invoked == []


def _leaves(error: BaseException) -> list[BaseException]:
    if isinstance(error, BaseExceptionGroup):
        return [leaf for inner in error.exceptions for leaf in _leaves(inner)]
    return [error]


@pytest.mark.parametrize("size", [MAX_BODY_BYTES + 1024, MAX_REQUEST_BYTES + 1024], ids=["5-mb", "7-mb"])
def test_the_mcp_client_shows_the_limit_of_a_call_too_large(served: tuple[int, RecordingRuntime], size: int) -> None:
    """The official client: a small call runs; a call too large fails with the endpoint's own error, not the
    client's stand-in for an answer it could not read ("Server returned an error response")."""
    port, runtime = served

    async def scenario() -> None:
        async with Client(f"http://127.0.0.1:{port}/mcp?{QUERY}") as client:
            small = await client.call_tool("list_reminders", {})
            assert small.structured_content == json.loads(TOOLS_ANSWER)
            await client.call_tool("create_reminder", {"message": "a" * size})

    with pytest.raises(BaseException) as raised:
        anyio.run(scenario)
    (error,) = _leaves(raised.value)
    assert isinstance(error, MCPError), error
    assert error.error.code == INVALID_REQUEST
    assert f"limit of {MAX_BODY_BYTES} bytes" in error.error.message
    assert len(runtime.invoked) == 1  # the small call only


# ---------------------------------------------------------------------------------------- not one request


BATCH = b'[{"jsonrpc":"2.0","id":12,"method":"tools/list"}]'


def test_a_batch_is_answered_that_batches_are_not_supported(served: tuple[int, RecordingRuntime]) -> None:
    port, runtime = served
    for body in (BATCH, b"[]", json.dumps([json.loads(_call(10, 1)), json.loads(_call(10, 2))]).encode()):
        status, headers, data = _post(port, f"/mcp?{QUERY}", body)
        assert status == 400
        answer = _jsonrpc_error(headers, data)
        assert answer["id"] is None
        assert answer["error"] == {
            "code": INVALID_REQUEST,
            "message": "Invalid Request: batches are not supported: send one request per POST",
        }
    assert runtime.invoked == []


@pytest.mark.parametrize(
    ("body", "answered", "words"),
    [
        (b'"tools/list"', None, "the body is a JSON string, not a JSON-RPC request object"),
        (b"42", None, "the body is a JSON number"),
        (b"null", None, "the body is JSON null"),
        (b"true", None, "the body is a JSON boolean"),
        (b'{"jsonrpc": "2.0", "id": 3}', 3, 'has a "method"'),
        (b'{"id": 3, "method": "tools/list"}', 3, '"jsonrpc": "2.0"'),
        (b'{"jsonrpc": "1.0", "id": "a", "method": "tools/list"}', "a", '"jsonrpc": "2.0"'),
        (b'{"jsonrpc": "2.0", "id": 3, "method": 5}', 3, '"method" is a string'),
        (b'{"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": 5}', 3, '"params"'),
        (b'{"jsonrpc": "2.0", "id": 3, "method": "tools/list", "params": [1]}', 3, '"params"'),
        (b'{"jsonrpc": "2.0", "id": 4, "result": 5}', 4, '"result" object'),
        (b'{"jsonrpc": "2.0", "id": 4, "error": {"code": "x"}}', 4, 'an integer "code"'),
        (b'{"jsonrpc": "2.0", "id": null, "method": "tools/list"}', None, "an id is a string or an integer"),
    ],
)
def test_a_body_that_is_no_json_rpc_message_is_answered_invalid_request(
    served: tuple[int, RecordingRuntime], body: bytes, answered: Any, words: str
) -> None:
    port, runtime = served
    status, headers, data = _post(port, f"/mcp?{QUERY}", body)
    assert status == 400
    answer = _jsonrpc_error(headers, data)
    assert answer["id"] == answered and type(answer["id"]) is type(answered)
    assert answer["error"]["code"] == INVALID_REQUEST
    assert answer["error"]["message"].startswith("Invalid Request: ") and words in answer["error"]["message"]
    assert runtime.invoked == []


@pytest.mark.parametrize(
    ("params", "words"),
    [
        ({}, '"name" names the tool to call'),
        ({"name": 5}, '"name" names the tool to call'),
        ({"name": ""}, '"name" names the tool to call'),
        ({"name": "list_reminders", "arguments": [1]}, '"arguments", when given, is an object'),
        ({"name": "list_reminders", "arguments": "include_inactive"}, '"arguments", when given, is an object'),
    ],
)
def test_a_tools_call_that_names_no_tool_or_no_arguments_object_says_which(
    served: tuple[int, RecordingRuntime], params: dict[str, Any], words: str
) -> None:
    """The SDK answered these "Invalid request parameters", with nothing to say which."""
    port, runtime = served
    body = json.dumps({"jsonrpc": "2.0", "id": 9, "method": "tools/call", "params": params}).encode()
    status, headers, data = _post(port, f"/mcp?{QUERY}", body)
    answer = _jsonrpc_error(headers, data)
    assert status == 400 and answer["id"] == 9 and answer["error"]["code"] == INVALID_PARAMS
    assert answer["error"]["message"].startswith("Invalid params: ") and words in answer["error"]["message"]
    assert runtime.invoked == []


def test_a_request_a_notification_and_a_body_that_is_not_json_are_answered_as_before(
    served: tuple[int, RecordingRuntime],
) -> None:
    port, runtime = served
    status, _, data = _post(port, f"/mcp?{QUERY}", b'{"jsonrpc": "2.0", "id": 5, "method": "tools/list"}')
    assert status == 200 and json.loads(data)["id"] == 5 and json.loads(data)["result"]["tools"]
    status, _, data = _post(port, f"/mcp?{QUERY}", b'{"jsonrpc": "2.0", "method": "notifications/initialized"}')
    assert (status, data) == (202, b"")
    status, headers, data = _post(port, f"/mcp?{QUERY}", b'{"jsonrpc": "2.0", "id": 5, ')
    assert status == 400 and _jsonrpc_error(headers, data)["error"]["code"] == -32700  # Parse error
    assert runtime.invoked == []
