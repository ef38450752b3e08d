"""The HTTP endpoints on the Lambda port: Lambda's Invoke API plus the sandbox's own `/_sandbox/*` routes."""

from __future__ import annotations

import json
import logging
import queue
import re
import threading
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import TYPE_CHECKING, Any

from sandbox import ui
from sandbox.lambda_api import FunctionNotFound, parse_client_context

if TYPE_CHECKING:
    from sandbox.app import Sandbox
    from sandbox.mcp import HttpEndpoint

log = logging.getLogger("sandbox.http")

_INVOKE = re.compile(r"^/2015-03-31/functions/([^/]+)/invocations/?$")
_MCP = "/mcp"
MAX_REQUEST_BYTES = 6 * 1024 * 1024  # Lambda's limit on an Invoke request (6,291,456 bytes), for every route


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
    allowed_hosts = {f"127.0.0.1:{port}", f"localhost:{port}"}
    if (host or "").strip().lower() not in allowed_hosts:
        raise Refused(421, "InvalidHost", f"Host {host!r} is not this sandbox: use 127.0.0.1:{port}")
    if origin is not None and origin.strip().lower() not in {f"http://{name}" for name in allowed_hosts}:
        raise Refused(403, "InvalidOrigin", f"Origin {origin!r} may not call the sandbox (only its own pages may)")
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


class SandboxHTTPServer(ThreadingHTTPServer):
    """A thread per request, as ThreadingHTTPServer serves them, but a thread that has answered waits for the
    next request rather than ending (a storm's posts to the webhook sink would start a thread each)."""

    daemon_threads = True
    allow_reuse_address = True

    def __init__(self, port: int, sandbox: Sandbox) -> None:
        super().__init__(("127.0.0.1", port), _Handler)
        self.sandbox = sandbox
        self._mcp: HttpEndpoint | None = None
        self._mcp_lock = threading.Lock()
        self._waiting: queue.SimpleQueue[tuple[Any, Any] | None] = queue.SimpleQueue()
        self._idle = 0
        self._idle_lock = threading.Lock()

    def process_request(self, request: Any, client_address: Any) -> None:
        with self._idle_lock:
            if self._idle:
                self._idle -= 1
                self._waiting.put((request, client_address))
                return
        threading.Thread(target=self._serve, args=(request, client_address), daemon=True).start()

    def _serve(self, request: Any, client_address: Any) -> None:
        while True:
            self.process_request_thread(request, client_address)
            with self._idle_lock:
                self._idle += 1
            if (taken := self._waiting.get()) is None:
                return
            request, client_address = taken

    def mcp(self) -> HttpEndpoint:
        """The MCP endpoint, started by its first request (the SDK is imported only when MCP is used)."""
        with self._mcp_lock:
            if self._mcp is None:
                from sandbox.mcp import HttpEndpoint

                self._mcp = HttpEndpoint(self.sandbox.lambda_endpoint)
            return self._mcp

    def server_close(self) -> None:
        super().server_close()
        with self._idle_lock:
            idle, self._idle = self._idle, 0
        for _ in range(idle):
            self._waiting.put(None)
        if self._mcp is not None:
            self._mcp.close()


class _Handler(BaseHTTPRequestHandler):
    server: SandboxHTTPServer
    body = b""
    protocol_version = "HTTP/1.1"
    # headers and body go out in two writes: with Nagle's algorithm on, the second waits for the client's
    # delayed ACK (40 ms on Linux), which made every call on a kept-alive connection take 40 ms or more
    disable_nagle_algorithm = True

    def log_message(self, format: str, *args: Any) -> None:
        log.debug("%s " + format, self.address_string(), *args)

    # ------------------------------------------------------------------ plumbing

    def _checked(self) -> bool:
        """Read the body into `self.body` if the request passes `check_request`; else answer it and close."""
        try:
            length = check_request(
                self.server.server_address[1],
                self.command,
                self.headers.get("Host"),
                self.headers.get("Origin"),
                self.headers.get("Content-Length"),
                "chunked" in (self.headers.get("Transfer-Encoding") or "").lower(),
            )
        except Refused as refused:
            self.close_connection = True  # the body, if any, is not read: the connection cannot be reused
            self._send(refused.status, {"Type": "User", "message": refused.message}, {"x-amzn-ErrorType": refused.code})
            return False
        self.body = self.rfile.read(length) if length else b""
        return True

    def _send(self, status: int, body: Any = None, headers: dict[str, str] | None = None, raw: bool = False) -> None:
        data = b"" if body is None else (body if raw else json.dumps(body).encode())
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        for key, value in (headers or {}).items():
            self.send_header(key, value)
        self.end_headers()
        if data:
            self.wfile.write(data)

    def _page(self, html: str) -> None:
        data = html.encode()
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def _console_move(self, body: bytes) -> None:
        """A console button: move the clock, then show the console again (a form post, then a redirect)."""
        sandbox = self.server.sandbox
        move = dict(urllib.parse.parse_qsl(body.decode("utf-8", errors="replace"))).get("move", "")
        request = ui.move_request(move, sandbox)
        if request is None:
            note = "Nothing is scheduled to fire." if move == "next" else f"Unknown move {move!r}."
        else:
            status, answer = sandbox.move_clock(request)
            note = ui.moved_note(answer) if status == 200 else str(answer.get("error"))
        location = "/_sandbox/ui?" + urllib.parse.urlencode({"note": note})
        self.send_response(303)
        self.send_header("Location", location)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def _aws_error(self, status: int, code: str, message: str) -> None:
        self._send(status, {"Type": "User", "message": message}, {"x-amzn-ErrorType": code})

    # ------------------------------------------------------------------ routes

    def do_GET(self) -> None:
        if not self._checked():
            return
        url = urllib.parse.urlsplit(self.path)
        query = dict(urllib.parse.parse_qsl(url.query))
        sandbox = self.server.sandbox
        if url.path == _MCP:
            self.server.mcp().handle(self, b"")
        elif url.path == "/_sandbox/health":
            if sandbox.ready:
                self._send(200, {"ok": True})
            else:
                self._send(503, {"ok": False})
        elif url.path == "/_sandbox/clock":
            self._send(200, {"now": sandbox.now_iso()})
        elif url.path == "/_sandbox/messages":
            room_id = query.get("room_id", "")
            if not room_id:
                self._send(400, {"error": "room_id is required"})
            else:
                self._send(200, sandbox.messages(room_id))
        elif url.path == "/_sandbox/events":
            room_id = query.get("room_id", "")
            if not room_id:
                self._send(400, {"error": "room_id is required"})
            else:
                self._send(200, sandbox.events(room_id))
        elif url.path == "/_sandbox/info":
            self._send(200, sandbox.info())
        elif url.path == "/_sandbox/ui":
            if sandbox.ready:
                console = ui.read(sandbox, query.get("room", ""), query.get("schedule", ""))
                self._page(ui.render(console, query.get("note", "")))
            else:
                self._send(503, {"error": "the sandbox is starting"})
        else:
            self._send(404, {"error": f"no route {url.path}"})

    def do_POST(self) -> None:
        if not self._checked():
            return
        url = urllib.parse.urlsplit(self.path)
        body = self.body
        if url.path == "/_sandbox/ui/clock":
            self._console_move(body)
            return
        match = _INVOKE.match(url.path)
        if match:
            self._invoke(urllib.parse.unquote(match.group(1)), body)
            return
        if url.path == _MCP:
            self.server.mcp().handle(self, body)
            return
        try:
            data = json.loads(body) if body.strip() else {}
        except ValueError:
            self._send(400, {"error": "the body is not JSON"})
            return
        sandbox = self.server.sandbox
        if url.path == "/_sandbox/clock":
            status, answer = sandbox.move_clock(data)
            self._send(status, answer)
        elif url.path == "/_sandbox/sink":
            if sandbox.sink is None:
                self._send(404, {"error": "the sandbox is not running the sink chat backend"})
                return
            try:
                sandbox.sink.check_signature(
                    body, self.headers.get("X-Cronbell-Timestamp") or "", self.headers.get("X-Cronbell-Signature") or ""
                )
                message_id = sandbox.sink.receive(data, self.headers.get("Idempotency-Key") or "")
            except PermissionError as err:
                self._send(401, {"error": str(err)})
                return
            except ValueError as err:
                self._send(400, {"error": str(err)})
                return
            self._send(200, {"id": message_id})
        else:
            self._send(404, {"error": f"no route {url.path}"})

    def do_DELETE(self) -> None:
        if not self._checked():
            return
        if urllib.parse.urlsplit(self.path).path == _MCP:
            self.server.mcp().handle(self, self.body)
        else:
            self._send(404, {"error": f"no route {self.path}"})

    def _invoke(self, name: str, payload: bytes) -> None:
        runtime = self.server.sandbox.runtime
        if runtime is None:
            self._aws_error(503, "ServiceException", "the sandbox is starting")
            return
        try:
            spec = runtime.find(name)
        except FunctionNotFound:
            self._aws_error(404, "ResourceNotFoundException", f"Function not found: {name}")
            return
        kind = self.headers.get("X-Amz-Invocation-Type") or "RequestResponse"
        try:
            client_context = parse_client_context(self.headers.get("X-Amz-Client-Context"))
            if payload.strip():
                json.loads(payload)
        except ValueError as err:
            self._aws_error(400, "InvalidRequestContentException", f"Could not parse request body: {err}")
            return
        if kind == "DryRun":
            self._send(204)
        elif kind == "Event":
            runtime.invoke_event_background(spec, payload)
            self._send(202)
        elif kind == "RequestResponse":
            result = runtime.invoke(spec, payload, client_context)
            headers = {"X-Amz-Executed-Version": "$LATEST", "x-amzn-RequestId": result.request_id}
            if result.function_error:
                headers["X-Amz-Function-Error"] = result.function_error
            self._send(200, result.payload, headers, raw=True)
        else:
            self._aws_error(400, "InvalidParameterValueException", f"unknown invocation type {kind}")
