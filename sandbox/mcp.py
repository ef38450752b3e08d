"""MCP for any agent, locally: the tools of one set, `docs/tools/full/mcp-tools.json` (every tool, the default)
or `docs/tools/essential/mcp-tools.json` (`tools=essential` in the URL, `--tools essential` over stdio), each
call run by ToolsFunction through the sandbox's Lambda Invoke API, as a bot's own code would call it. The set
only chooses what `tools/list` shows: ToolsFunction runs any tool it is called with (a button's tool, say).

The context (room, user, agent, zone, locale, thread, platform, Slack team) is what the bot's code would set: the `/mcp`
URL's query string over streamable HTTP, the command line over stdio; never the model's arguments, which reach
ToolsFunction unchanged, so a `room_id` argument is refused there exactly as it is for a bot.

The protocol is the official MCP Python SDK's (a development dependency, imported only when MCP is used); its
streamable HTTP app (`HttpEndpoint`) is mounted at `/mcp` in the sandbox's ASGI application. Whatever `/mcp` refuses
(a URL without its context, a body over `MAX_BODY_BYTES`, a batch or any other body that is no JSON-RPC message) is
answered with a JSON-RPC error object, as an MCP client reads it.
"""

from __future__ import annotations

import asyncio
import collections
import json
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import anyio
import mcp_types as types
import pydantic
import pydantic_core
from mcp.server import Server, ServerRequestContext
from mcp.server.stdio import stdio_server
from mcp.server.streamable_http_manager import StreamableHTTPSessionManager
from mcp.server.transport_security import TransportSecuritySettings

ROOT = Path(__file__).resolve().parent.parent
TOOL_SETS = ("full", "essential")  # cronbell.usecases.tools.TOOL_SETS: each set's file under docs/tools/
TOOLS_DIR = ROOT / "docs" / "tools"
TOOLS_FUNCTION = "ToolsFunction"
SERVER_NAME = "cronbell-sandbox"
CONTEXT_KEYS = ("room_id", "user_id", "agent_id", "timezone", "locale", "thread_id", "platform", "team_id")
REQUIRED_CONTEXT = ("room_id", "user_id")
INVOKE_TIMEOUT = 120.0  # seconds; above any function's timeout in template.yaml
INTERNAL_ERROR = "internal_error"  # the tools contract's code for a failure that is not the caller's
MAX_BODY_BYTES = 4 * 1024 * 1024  # the largest request body `/mcp` takes (the MCP SDK's own default limit)
ID_READ_BYTES = 8 * 1024 * 1024  # a body over the limit up to this size is read for its id
DRAINED_BYTES = 64 * 1024 * 1024  # a larger one up to this size is read and dropped before the answer
BATCH_REFUSED = "batches are not supported: send one request per POST"  # MCP's transport takes one message a POST

Invoke = Callable[[dict[str, Any]], dict[str, Any]]
ContextOf = Callable[[ServerRequestContext[Any, Any]], dict[str, str]]
SetOf = Callable[[ServerRequestContext[Any, Any]], str]


class MissingContext(ValueError):
    """The URL or the command line names no room or no user, or a tool set there is none of."""


# ---------------------------------------------------------------------------------------- contract


def context_from(values: Mapping[str, str | None]) -> dict[str, str]:
    """The tools envelope's `context` from trusted values: room and user required, the rest when given."""
    context = {key: value for key in CONTEXT_KEYS if (value := (values.get(key) or "").strip())}
    missing = [key for key in REQUIRED_CONTEXT if key not in context]
    if missing:
        raise MissingContext(
            f"the MCP endpoint needs {' and '.join(missing)} in its URL's query string, as a bot's code sets them: "
            "/mcp?room_id=ROOM&user_id=USER[&agent_id=AGENT&timezone=TZ&locale=LOCALE&thread_id=T&platform=P&team_id=T]"
        )
    return context


def tool_set_from(values: Mapping[str, str | None]) -> str:
    """The tool set a URL's query string (`tools`) or the command line names; the full set when none."""
    chosen = (values.get("tools") or "").strip() or TOOL_SETS[0]
    if chosen not in TOOL_SETS:
        raise MissingContext(f"tools={chosen} is no tool set: use one of {', '.join(TOOL_SETS)}")
    return chosen


def tools_file(tool_set: str) -> Path:
    return TOOLS_DIR / tool_set / "mcp-tools.json"


def load_tools(path: Path) -> types.ListToolsResult:
    """`tools/list`: the generated file itself, read on every call so it stays the one source."""
    return types.ListToolsResult.model_validate(json.loads(path.read_text(encoding="utf-8")))


def tool_result(answer: dict[str, Any]) -> types.CallToolResult:
    """The tools answer as an MCP result: the answer itself as structured content, and the whole answer as JSON
    in the one text item, as AgentCore Gateway returns it (many hosts show the model only `content`: the ids,
    times and codes must be there too)."""
    return types.CallToolResult(
        content=[types.TextContent(type="text", text=json.dumps(answer, ensure_ascii=False))],
        structured_content=answer,
        is_error=not answer.get("ok"),
    )


def request_id(body: bytes) -> str | int | None:
    """The id of the JSON-RPC request in `body`, for an error answered before the SDK reads it; None (null)
    when no id can be read, as JSON-RPC 2.0 answers a parse error or an invalid request: a body that is not
    JSON, a batch, a message without `"jsonrpc": "2.0"` and a `method`, an id that is neither a string nor an
    integer (MCP's request ids), or a notification (it has none)."""
    try:
        message = json.loads(body)
    except (ValueError, RecursionError):
        return None
    if not isinstance(message, dict) or message.get("jsonrpc") != "2.0" or not isinstance(message.get("method"), str):
        return None
    found = message.get("id")
    if isinstance(found, bool) or not isinstance(found, str | int):
        return None
    return found


async def read_body(receive: Any) -> bytes:
    """An ASGI request's whole body (its Content-Length is checked first: at most `ID_READ_BYTES`)."""
    chunks: list[bytes] = []
    while True:
        message = await receive()
        if message.get("type") != "http.request":  # the client went away
            break
        chunks.append(message.get("body", b""))
        if not message.get("more_body"):
            break
    return b"".join(chunks)


async def drain_body(receive: Any) -> None:
    """Read an ASGI request's body to its end, keeping none of it."""
    while True:
        message = await receive()
        if message.get("type") != "http.request" or not message.get("more_body"):
            break


def failure_answer(message: str) -> dict[str, Any]:
    """A tools-shaped answer for a call that never got one (the function crashed, the sandbox is down)."""
    return {"ok": False, "error": {"code": INTERNAL_ERROR, "message": message}, "text": message}


# ---------------------------------------------------------------------------------------- Invoke API


class LambdaInvoker:
    """ToolsFunction through the Lambda Invoke API at `lambda_url` (`RequestResponse`), as a bot invokes it."""

    def __init__(self, lambda_url: str, function: str = TOOLS_FUNCTION) -> None:
        self.url = f"{lambda_url.rstrip('/')}/2015-03-31/functions/{urllib.parse.quote(function)}/invocations"
        self.lambda_url = lambda_url

    def __call__(self, event: dict[str, Any]) -> dict[str, Any]:
        request = urllib.request.Request(
            self.url, data=json.dumps(event).encode(), method="POST", headers={"Content-Type": "application/json"}
        )
        try:
            with urllib.request.urlopen(request, timeout=INVOKE_TIMEOUT) as response:
                payload = json.load(response)
                function_error = response.headers.get("X-Amz-Function-Error")
        except urllib.error.HTTPError as err:
            return failure_answer(f"the Lambda endpoint refused the call ({err.code}): {err.read().decode()[:500]}")
        except (OSError, ValueError) as err:
            return failure_answer(
                f"cannot reach the sandbox at {self.lambda_url} ({err}); start it with `python -m sandbox serve`"
            )
        if function_error or not isinstance(payload, dict):
            detail = payload.get("errorMessage") if isinstance(payload, dict) else payload
            return failure_answer(f"{TOOLS_FUNCTION} failed: {detail}")
        return payload


# ---------------------------------------------------------------------------------------- the server


def build_server(invoke: Invoke, context_of: ContextOf, set_of: SetOf) -> Server[Any]:
    """An MCP server whose tools are cronbell's: listed from the file of the caller's set, each call one
    ToolsFunction invocation."""

    async def list_tools(
        ctx: ServerRequestContext[Any, Any], params: types.PaginatedRequestParams | None
    ) -> types.ListToolsResult:
        return load_tools(tools_file(set_of(ctx)))

    async def call_tool(
        ctx: ServerRequestContext[Any, Any], params: types.CallToolRequestParams
    ) -> types.CallToolResult:
        event = {"tool": params.name, "arguments": params.arguments or {}, "context": context_of(ctx)}
        answer = await anyio.to_thread.run_sync(invoke, event)
        return tool_result(answer)

    return Server(SERVER_NAME, version="1", on_list_tools=list_tools, on_call_tool=call_tool)


def _query(ctx: ServerRequestContext[Any, Any]) -> Mapping[str, str]:
    request = ctx.request
    if request is None:  # the HTTP transport always attaches its request
        raise MissingContext("this call came without an HTTP request to read the context from")
    query: Mapping[str, str] = request.query_params
    return query


def query_context(ctx: ServerRequestContext[Any, Any]) -> dict[str, str]:
    """The context of an HTTP call: the query string of the request that carried it."""
    return context_from(_query(ctx))


def query_tool_set(ctx: ServerRequestContext[Any, Any]) -> str:
    """The tool set of an HTTP call: `tools` in the query string of the request that carried it."""
    return tool_set_from(_query(ctx))


# ---------------------------------------------------------------------------------------- stdio


def serve_stdio(lambda_url: str, context: dict[str, str], tool_set: str = TOOL_SETS[0]) -> None:
    """`python -m sandbox mcp`: the same server over stdin/stdout, with the context and the tool set of the
    command line."""
    server = build_server(LambdaInvoker(lambda_url), lambda ctx: context, lambda ctx: tool_set)

    async def run() -> None:
        async with stdio_server() as (read_stream, write_stream):
            await server.run(read_stream, write_stream, server.create_initialization_options())

    anyio.run(run)


# ---------------------------------------------------------------------------------------- streamable HTTP


class HttpEndpoint:
    """`/mcp`: the SDK's streamable HTTP transport (stateless, JSON answers: every request carries its own
    context, so there is no session to keep), an ASGI app mounted in the sandbox's HTTP port
    (sandbox/server.py). The SDK's session manager runs in a task of the port's event loop from the first
    request until `close`."""

    def __init__(self, lambda_url: str) -> None:
        port = urllib.parse.urlsplit(lambda_url).port
        self.manager = StreamableHTTPSessionManager(
            app=build_server(LambdaInvoker(lambda_url), query_context, query_tool_set),
            json_response=True,
            stateless=True,
            max_request_body_size=MAX_BODY_BYTES,  # checked first here, to answer as JSON-RPC (`_too_large`)
            security_settings=TransportSecuritySettings(  # a web page must not drive the local stack
                allowed_hosts=[f"127.0.0.1:{port}", f"localhost:{port}"],
                allowed_origins=[f"http://127.0.0.1:{port}", f"http://localhost:{port}"],
            ),
        )
        self._started = asyncio.Event()
        self._stop = asyncio.Event()
        self._task: asyncio.Task[None] | None = None

    async def _run(self) -> None:
        async with self.manager.run():
            self._started.set()
            await self._stop.wait()

    async def close(self) -> None:
        if self._task is not None:
            self._stop.set()
            await self._task

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        """Answer one request. A body over `MAX_BODY_BYTES`, a URL without room or user or naming no tool set of
        ours, and a body that is no JSON-RPC message the SDK takes (a batch, say) are refused before the SDK sees
        them, with a JSON-RPC error the MCP client shows as is: its id is the request's, read from the body (null
        when the body has none to read)."""
        length = _headers(scope).get("content-length", "0").strip()
        if length.isdigit() and int(length) > MAX_BODY_BYTES:  # the port has refused any other Content-Length
            await _too_large(scope, receive, send, int(length))
            return
        pairs = urllib.parse.parse_qsl(scope.get("query_string", b"").decode("latin-1"), keep_blank_values=True)
        query = dict(pairs)  # the last of a name given twice, as the SDK reads it
        try:
            named = collections.Counter(key for key, _ in pairs)
            twice = sorted(key for key in CONTEXT_KEYS if named[key] > 1)
            if twice:
                raise MissingContext(f"the MCP endpoint's URL names {' and '.join(twice)} more than once")
            context_from(query)
            tool_set_from(query)
        except MissingContext as err:
            await _refuse(send, request_id(await read_body(receive)), types.INVALID_PARAMS, str(err))
            return
        if scope.get("method") == "POST":  # read here, then handed to the SDK as it came
            body = await read_body(receive)
            refused = refusal(body)
            if refused is not None:
                answered, code, message = refused
                await _refuse(send, answered, code, message)
                return
            receive = _replayed(body, receive)
        if self._task is None:
            self._task = asyncio.create_task(self._run())
        await self._started.wait()
        await self.manager.handle_request(scope, receive, send)


async def _refuse(
    send: Any, answered: str | int | None, code: int, message: str, status: int = 400, close: bool = False
) -> None:
    """A JSON-RPC error answered before the SDK sees the request (HTTP 400 unless said otherwise); `close` when
    the request's body is left unread, so the connection cannot carry another request."""
    data = json.dumps({"jsonrpc": "2.0", "id": answered, "error": {"code": code, "message": message}}).encode()
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(data)).encode())]
    if close:
        headers.append((b"connection", b"close"))
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": data})


def _headers(scope: Any) -> dict[str, str]:
    return {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers", [])}


async def _too_large(scope: Any, receive: Any, send: Any, length: int) -> None:
    """A body over `MAX_BODY_BYTES`: an Invalid Request error that says the limit, HTTP 413. The body is read
    before the answer, so that a client still sending it reads the answer rather than a reset connection: up to
    `ID_READ_BYTES` to answer with the request's id, then dropped as it comes (id null). One over
    `DRAINED_BYTES`, or one its client will send only after a `100 Continue`, is left unread and the connection
    closed after the answer."""
    answered: str | int | None = None
    unread = length > DRAINED_BYTES or "100-continue" in _headers(scope).get("expect", "").lower()
    if unread:
        pass  # answered at once: a client waiting for `100 Continue` sends nothing more
    elif length <= ID_READ_BYTES:
        answered = request_id(await read_body(receive))
    else:
        await drain_body(receive)
    message = (
        f"Invalid Request: the request body is {length} bytes, over the MCP endpoint's limit of {MAX_BODY_BYTES} "
        f"bytes ({MAX_BODY_BYTES // (1024 * 1024)} MiB): send a smaller request"
    )
    await _refuse(send, answered, types.INVALID_REQUEST, message, status=413, close=unread)


def refusal(body: bytes) -> tuple[str | int | None, int, str] | None:
    """Why `body` is no JSON-RPC message the MCP SDK takes, as an Invalid Request error (or Invalid Params, for a
    `tools/call` whose params name no tool or carry arguments that are no object), with the id to answer it with
    (the body's own string or integer `id`, else null); None when the SDK takes it, or when the body is not
    JSON at all (the SDK answers that with its own parse error). The SDK itself would answer the rest with its
    validation library's whole report, a bare "Invalid request parameters", or, for a request whose id is
    null, a fraction or a boolean, take it for a notification and answer nothing."""
    try:
        message = pydantic_core.from_json(body)  # as the SDK parses it
    except ValueError:
        return None
    invalid = types.INVALID_REQUEST
    if isinstance(message, list):
        return None, invalid, f"Invalid Request: {BATCH_REFUSED}"
    if not isinstance(message, dict):
        return None, invalid, f"Invalid Request: the body is {_json_kind(message)}, not a JSON-RPC request object"
    if "id" in message and isinstance(message.get("method"), str):
        found = message["id"]
        if isinstance(found, bool) or not isinstance(found, str | int):
            return None, invalid, "Invalid Request: an id is a string or an integer"
    found = message.get("id")
    answered = found if isinstance(found, str | int) and not isinstance(found, bool) else None
    try:
        types.jsonrpc_message_adapter.validate_python(message, by_name=False)
    except pydantic.ValidationError:
        return answered, invalid, f"Invalid Request: {_what_is_wrong(message)}"
    if message.get("method") == "tools/call" and (wrong := _tool_call_params(message.get("params"))):
        return answered, types.INVALID_PARAMS, f"Invalid params: {wrong}"
    return None


def _tool_call_params(params: Any) -> str | None:
    """What keeps a `tools/call`'s params from naming a tool and its arguments, or None."""
    if not isinstance(params, dict):
        return 'tools/call takes params {"name": the tool, "arguments": an object}'
    if not isinstance(params.get("name"), str) or not params["name"]:
        return '"name" names the tool to call, a string (tools/list lists them)'
    if not isinstance(params.get("arguments"), dict | None):
        return '"arguments", when given, is an object of the tool\'s arguments by name'
    return None


def _json_kind(value: Any) -> str:
    if isinstance(value, str):
        return "a JSON string"
    if value is None:
        return "JSON null"
    if isinstance(value, bool):
        return "a JSON boolean"
    return "a JSON number"


def _what_is_wrong(message: dict[str, Any]) -> str:
    """What keeps a JSON object from being a JSON-RPC 2.0 request, notification or response, in a few words."""
    if message.get("jsonrpc") != "2.0":
        return 'a JSON-RPC request object has "jsonrpc": "2.0"'
    if "method" in message:
        if not isinstance(message["method"], str):
            return '"method" is a string, the name of the method'
        if not isinstance(message.get("params"), dict | None):
            return '"params", when given, is an object (MCP names its parameters)'
    elif "result" in message or "error" in message:
        return (
            'a JSON-RPC response has the "id" of its request and either a "result" object or an "error" object '
            'with an integer "code" and a string "message"'
        )
    else:
        return 'a JSON-RPC request object has a "method"'
    return "the body is not a JSON-RPC 2.0 request, notification or response object"


def _replayed(body: bytes, receive: Any) -> Any:
    """`receive` with the body read already given again first."""
    sent = False

    async def again() -> dict[str, Any]:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        return dict(await receive())

    return again
