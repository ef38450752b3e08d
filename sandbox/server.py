"""The sandbox's HTTP port, one ASGI application (Starlette, served by uvicorn): Lambda's Invoke API, the
sandbox's own `/_sandbox/*` routes, the console and the MCP SDK's streamable HTTP app at `/mcp`. Every request
passes `check_request` before it is routed; `/mcp` answers a body too large itself, as a JSON-RPC error."""

from __future__ import annotations

import json
import logging
import socket
import sys
import threading
import urllib.parse
from collections.abc import Awaitable, Callable, MutableMapping
from typing import TYPE_CHECKING, Any

import h11
import uvicorn
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import HTMLResponse, RedirectResponse, Response
from starlette.routing import Route
from uvicorn.protocols.http.h11_impl import H11Protocol

from sandbox import ui
from sandbox.lambda_api import FunctionNotFound, parse_client_context
from sandbox.origins import Foreign, check_origin
from sandbox.platforms import Answer

if TYPE_CHECKING:
    from sandbox.facade import Running

log = logging.getLogger("sandbox.http")

Scope = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[MutableMapping[str, Any]]]
Send = Callable[[MutableMapping[str, Any]], Awaitable[None]]

MAX_REQUEST_BYTES = 6 * 1024 * 1024  # Lambda's limit on an Invoke request (6,291,456 bytes), for every route
MCP_PATH = "/mcp"  # but this one: it answers a body over its own, smaller limit as JSON-RPC (sandbox/mcp.py)


class Refused(Exception):
    """A request answered before its body is read: its status, error code and message."""

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status, self.code, self.message = status, code, message


def check_request(
    port: int, method: str, host: str | None, origin: str | None, content_length: str | None, chunked: bool
) -> int:
    """The number of body bytes to read, or `Refused`: the Host must name this server (a DNS-rebinding page
    names another); an Origin, when a browser sends one, must be this server's own page (a page elsewhere
    must not create reminders or move the clock); a body comes with a Content-Length that is a whole number
    of bytes no larger than Lambda's 6 MB."""
    try:
        check_origin(port, host, origin)
    except Foreign as foreign:
        raise Refused(foreign.status, foreign.code, foreign.message) from None
    if content_length is None:
        if chunked:
            raise Refused(411, "LengthRequired", "a chunked body is not accepted: send a Content-Length")
        if method == "POST":
            raise Refused(411, "LengthRequired", "a POST needs a Content-Length (0 for no body)")
        return 0
    text = content_length.strip()
    if not text.isdigit():
        raise Refused(400, "InvalidContentLength", f"Content-Length {content_length!r} is not a whole number of bytes")
    length = int(text)
    if length > MAX_REQUEST_BYTES:
        raise Refused(
            413,
            "RequestEntityTooLargeException",
            f"Request must be smaller than {MAX_REQUEST_BYTES} bytes for the InvokeFunction operation",
        )
    return length


class _Checked:
    """ASGI middleware: `check_request` on every HTTP request, before any route reads it."""

    def __init__(self, app: Any, port: Callable[[], int]) -> None:
        self.app, self.port = app, port

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope["headers"]}
        try:
            check_request(
                self.port(),
                scope["method"],
                headers.get("host"),
                headers.get("origin"),
                headers.get("content-length"),
                "chunked" in headers.get("transfer-encoding", "").lower(),
            )
        except Refused as refused:
            if refused.status == 413 and scope.get("path") == MCP_PATH:
                # an MCP client reads a JSON-RPC error, which `/mcp` answers with its own limit (sandbox/mcp.py)
                await self.app(scope, receive, send)
                return
            answer = _aws_error(refused.status, refused.code, refused.message)
            answer.headers["Connection"] = "close"  # the body is not read: the connection cannot be reused
            await answer(scope, receive, send)
            return
        await self.app(scope, receive, send)


def _json(status: int, body: Any = None, headers: dict[str, str] | None = None) -> Response:
    if body is None:
        return Response(status_code=status, headers=headers, media_type="application/json")
    return Response(json.dumps(body), status_code=status, headers=headers, media_type="application/json")


def _aws_error(status: int, code: str, message: str) -> Response:
    return _json(status, {"Type": "User", "message": message}, {"x-amzn-ErrorType": code})


def build_app(sandbox: Running, port: Callable[[], int]) -> Any:
    """The whole port as one ASGI application; `/mcp` starts the MCP SDK on its first request."""
    mcp_app = _LazyMcp(sandbox)

    async def health(request: Request) -> Response:
        return _json(200, {"ok": True}) if sandbox.ready else _json(503, {"ok": False})

    async def clock(request: Request) -> Response:
        if request.method == "GET":
            return _json(200, {"now": sandbox.now_iso()})
        data = await _json_body(request)
        if isinstance(data, Response):
            return data
        status, answer = await run_in_threadpool(sandbox.move_clock, data)
        return _json(status, answer)

    def _room_read(read: Callable[[str], Any]) -> Callable[[Request], Awaitable[Response]]:
        async def endpoint(request: Request) -> Response:
            room_id = request.query_params.get("room_id", "")
            if not room_id:
                return _json(400, {"error": "room_id is required"})
            return _json(200, await run_in_threadpool(read, room_id))

        return endpoint

    async def info(request: Request) -> Response:
        return _json(200, await run_in_threadpool(sandbox.info))

    async def console(request: Request) -> Response:
        if not sandbox.ready:
            return _json(503, {"error": "the sandbox is starting"})
        q = request.query_params
        page = await run_in_threadpool(
            lambda: ui.render(ui.read(sandbox, q.get("room", ""), q.get("schedule", "")), q.get("note", ""))
        )
        return HTMLResponse(page)

    async def console_move(request: Request) -> Response:
        """A console button: move the clock, then show the console again (a form post, then a redirect)."""
        move = dict(urllib.parse.parse_qsl((await request.body()).decode("utf-8", errors="replace"))).get("move", "")
        move_request = ui.move_request(move, sandbox)
        if move_request is None:
            note = "Nothing is scheduled to fire." if move == "next" else f"Unknown move {move!r}."
        else:
            status, answer = await run_in_threadpool(sandbox.move_clock, move_request)
            note = ui.moved_note(answer) if status == 200 else str(answer.get("error"))
        return RedirectResponse("/_sandbox/ui?" + urllib.parse.urlencode({"note": note}), status_code=303)

    async def sink(request: Request) -> Response:
        body = await request.body()
        data = await _json_body(request)
        if isinstance(data, Response):
            return data
        sink = sandbox.sink
        try:
            sink.check_signature(
                body, request.headers.get("X-Cronbell-Timestamp", ""), request.headers.get("X-Cronbell-Signature", "")
            )
            message_id = sink.receive(data, request.headers.get("Idempotency-Key", ""))
        except PermissionError as err:
            return _json(401, {"error": str(err)})
        except ValueError as err:
            return _json(400, {"error": str(err)})
        return _json(200, {"id": message_id})

    async def slack(request: Request) -> Response:
        data = await _json_body(request)
        if isinstance(data, Response):
            return data
        return _answer(sandbox.platforms.slack_post(request.headers.get("Authorization", ""), data))

    async def discord(request: Request) -> Response:
        data = await _json_body(request)
        if isinstance(data, Response):
            return data
        channel = request.path_params["channel"]
        return _answer(sandbox.platforms.discord_post(request.headers.get("Authorization", ""), channel, data))

    async def telegram(request: Request) -> Response:
        data = await _json_body(request)
        if isinstance(data, Response):
            return data
        return _answer(sandbox.platforms.telegram_send(request.path_params["token"], data))

    async def rate_limit(request: Request) -> Response:
        """For the tests: `{"platform", "count", "retry_after"}` makes that stand-in answer its next `count`
        posts 429; GET reads what is pending and how many were answered so."""
        if request.method == "GET":
            return _json(200, sandbox.platforms.limits())
        data = await _json_body(request)
        if isinstance(data, Response):
            return data
        try:
            limits = sandbox.platforms.limit(
                str(data.get("platform")), int(data.get("count", 1)), float(data.get("retry_after", 1))
            )
        except (TypeError, ValueError, AttributeError) as err:
            return _json(400, {"error": str(err)})
        return _json(200, limits)

    async def invoke(request: Request) -> Response:
        payload = await request.body()
        name = request.path_params["name"]
        qualifier = request.query_params.get("Qualifier")  # boto3's `Qualifier=`: the same as `name:qualifier`
        if qualifier:
            name = f"{name}:{qualifier}"
        return await run_in_threadpool(_invoke, sandbox, name, payload, request.headers)

    async def not_found(request: Request, exc: Exception) -> Response:
        status = exc.status_code if isinstance(exc, HTTPException) else 500
        return _json(status, {"error": f"no route {request.url.path}" if status in (404, 405) else str(exc)})

    routes = [
        Route("/_sandbox/health", health, methods=["GET"]),
        Route("/_sandbox/clock", clock, methods=["GET", "POST"]),
        Route("/_sandbox/messages", _room_read(lambda room: sandbox.messages(room)), methods=["GET"]),
        Route("/_sandbox/events", _room_read(lambda room: sandbox.events(room)), methods=["GET"]),
        Route("/_sandbox/info", info, methods=["GET"]),
        Route("/_sandbox/ui", console, methods=["GET"]),
        Route("/_sandbox/ui/clock", console_move, methods=["POST"]),
        Route("/_sandbox/sink", sink, methods=["POST"]),
        Route("/_sandbox/slack/api/chat.postMessage", slack, methods=["POST"]),
        Route("/_sandbox/discord/api/v10/channels/{channel}/messages", discord, methods=["POST"]),
        Route("/_sandbox/telegram/bot{token}/sendMessage", telegram, methods=["POST"]),
        Route("/_sandbox/chat/rate-limit", rate_limit, methods=["GET", "POST"]),
        Route("/2015-03-31/functions/{name}/invocations", invoke, methods=["POST"]),
        Route("/2015-03-31/functions/{name}/invocations/", invoke, methods=["POST"]),
        Route(MCP_PATH, mcp_app),
    ]
    app = Starlette(routes=routes, exception_handlers={404: not_found, 405: not_found}, lifespan=mcp_app.lifespan)
    return _Checked(app, port)


def _answer(answer: Answer) -> Response:
    return Response(json.dumps(answer.body), answer.status, answer.headers, media_type="application/json")


async def _json_body(request: Request) -> Any:
    body = await request.body()
    try:
        return json.loads(body) if body.strip() else {}
    except ValueError:
        return _json(400, {"error": "the body is not JSON"})


def _invoke(sandbox: Running, name: str, payload: bytes, headers: Any) -> Response:
    """Lambda's Invoke: RequestResponse, Event (202, run in the background) and DryRun (204)."""
    runtime = sandbox.runtime
    if runtime is None:
        return _aws_error(503, "ServiceException", "the sandbox is starting")
    try:
        spec = runtime.find(name)
    except FunctionNotFound:
        return _aws_error(404, "ResourceNotFoundException", f"Function not found: {name}")
    kind = headers.get("X-Amz-Invocation-Type") or "RequestResponse"
    try:
        client_context = parse_client_context(headers.get("X-Amz-Client-Context"))
        if payload.strip():
            json.loads(payload)
    except ValueError as err:
        return _aws_error(400, "InvalidRequestContentException", f"Could not parse request body: {err}")
    except RecursionError:
        pass  # JSON, nested deeper than Python parses: Lambda takes it, and the runtime answers its error
    if kind == "DryRun":
        return Response(status_code=204)
    if kind == "Event":
        runtime.invoke_event_background(spec, payload)
        return _json(202)
    if kind == "RequestResponse":
        result = runtime.invoke(spec, payload, client_context)
        answer = {"X-Amz-Executed-Version": "$LATEST", "x-amzn-RequestId": result.request_id}
        if result.function_error:
            answer["X-Amz-Function-Error"] = result.function_error
        return Response(result.payload, status_code=200, headers=answer, media_type="application/json")
    return _aws_error(400, "InvalidParameterValueException", f"unknown invocation type {kind}")


class _LazyMcp:
    """`/mcp`: the MCP SDK's app (sandbox/mcp.py), imported and started by its first request."""

    def __init__(self, sandbox: Running) -> None:
        self.sandbox = sandbox
        self._endpoint: Any = None
        self._lock = threading.Lock()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        with self._lock:
            if self._endpoint is None:
                from sandbox.mcp import HttpEndpoint

                self._endpoint = HttpEndpoint(self.sandbox.lambda_endpoint)
        await self._endpoint(scope, receive, send)

    def lifespan(self, app: Any) -> Any:
        lazy = self

        class _Lifespan:
            async def __aenter__(self) -> None:
                return None

            async def __aexit__(self, *exc: object) -> None:
                if lazy._endpoint is not None:
                    await lazy._endpoint.close()

        return _Lifespan()


class _H11(H11Protocol):
    """uvicorn's HTTP/1.1 protocol, whose answer to a request h11 cannot read says why, in Lambda's error shape:
    a Content-Length that is not a whole number of bytes is refused there, before any route sees it."""

    def send_400_response(self, msg: str) -> None:
        error = sys.exc_info()[1]  # called while h11's error is being handled
        detail = str(error) if error is not None else msg
        if "content-length" in detail.lower():
            detail = "the Content-Length is not a whole number of bytes"
        data = json.dumps({"Type": "User", "message": f"Invalid HTTP request: {detail}"}).encode()
        headers = [
            (b"content-type", b"application/json"),
            (b"x-amzn-errortype", b"InvalidContentLength" if "Content-Length" in detail else b"BadRequest"),
            (b"connection", b"close"),
        ]
        self.transport.write(self.conn.send(h11.Response(status_code=400, headers=headers, reason=b"Bad Request")))
        self.transport.write(self.conn.send(h11.Data(data=data)))
        self.transport.write(self.conn.send(h11.EndOfMessage()))
        self.transport.close()


class SandboxHTTPServer:
    """The ASGI application on 127.0.0.1:port, served by uvicorn on a thread of its own: the socket is bound
    at once (its port goes into the functions' environment), requests are served from `serve_forever`."""

    def __init__(self, port: int, sandbox: Running) -> None:
        self.sandbox = sandbox
        # IPPROTO_TCP named, not left 0: asyncio sets TCP_NODELAY only on a socket whose proto says TCP, and
        # without it each answer's body waits for the client's delayed ACK of its headers (~40 ms a request)
        self._socket = socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)
        self._socket.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self._socket.bind(("127.0.0.1", port))
        self._socket.listen(256)
        self.server_address: tuple[str, int] = self._socket.getsockname()
        config = uvicorn.Config(
            build_app(sandbox, lambda: self.server_address[1]),
            log_level="warning",
            access_log=False,
            lifespan="on",
            http=_H11,
            timeout_keep_alive=75,
            timeout_graceful_shutdown=3,
        )
        self._server = uvicorn.Server(config)
        self._done = threading.Event()

    def serve_forever(self, poll_interval: float = 0.1) -> None:
        try:
            self._server.run(sockets=[self._socket])
        finally:
            self._done.set()

    def open_connections(self) -> list[Any]:
        """uvicorn's protocol objects of the connections open now (each has its `transport`)."""
        return list(self._server.server_state.connections)

    def shutdown(self) -> None:
        self._server.should_exit = True
        self._done.wait(10)

    def server_close(self) -> None:
        self._socket.close()
