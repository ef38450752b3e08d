"""moto in server mode, with each request applied atomically.

moto's backends are not thread-safe (concurrent DynamoDB transactions can corrupt its state),
while AWS applies every API request atomically. Serialising requests restores that: concurrent
clients still race exactly as they would against AWS, one whole request at a time.

A server can also answer the boto3 clients of its own process without HTTP (`in_process=True`): a
request addressed to its URL is handed to the same WSGI application (same lock, same counts, same
state) as an environ built in memory, so a function run in the sandbox's process does not pay for a
socket, an HTTP parse and a thread per AWS call; a JSON-protocol request goes on to the moto handler its
URL routes to without Flask's dispatch (`_Atomic.answer`). Outside callers still reach it over HTTP.

A queue can be diverted (`divert_queue`): what EventBridge's rules deliver to it is handed to a receiver in
this process, as the JSON text the queue would have held, rather than stored. moto's SQS works out every
attribute of a queue (counts over all held messages) for each message sent, so a queue that only records
events cost more per message the more it held.
"""

from __future__ import annotations

import base64
import io
import json
import threading
from collections import Counter
from collections.abc import Callable, Iterable
from datetime import datetime
from http import HTTPStatus
from typing import Any
from urllib.parse import unquote, urlsplit

import boto3
from botocore.awsrequest import AWSPreparedRequest, AWSResponse
from botocore.handlers import BUILTIN_HANDLERS
from moto.moto_server.threaded_moto_server import MotoRequestHandler
from moto.server import DomainDispatcherApplication, create_backend_app
from werkzeug.serving import BaseWSGIServer, make_server

from sandbox import motofast
from sandbox.origins import Foreign, check_origin
from sandbox.transaction_tokens import Answer, TransactionTokens


class _QuietHandler(MotoRequestHandler):
    def log_request(self, code: int | str = "-", size: int | str = "-") -> None:
        pass


_TABLE_WRITES = {"PutItem", "UpdateItem", "DeleteItem", "BatchWriteItem", "TransactWriteItems", "ExecuteStatement"}
_TABLE_WRITES |= {"BatchExecuteStatement", "ExecuteTransaction"}


_UNROUTED: Any = object()  # a path not routed yet


class _Atomic:
    def __init__(self, app: Callable[..., Iterable[bytes]]) -> None:
        self._app = app
        self.lock = threading.Lock()
        self.port = 0  # the server's, once bound: the Host its clients name
        self.calls: Counter[str] = Counter()
        self.scheduler_writes = 0  # requests that may have changed Scheduler's state
        self.table_writes = 0  # DynamoDB requests that may have written an item (and a stream record)
        self._tokens = TransactionTokens()  # a transaction botocore retries is applied once, as by DynamoDB
        self._routes: dict[tuple[Any, str], Callable[..., Any] | None] = {}  # (application, path) -> its handler

    def _count(self, environ: dict[str, Any]) -> None:
        target = environ.get("HTTP_X_AMZ_TARGET", "")
        action = target.rsplit(".", 1)[-1] if target else f"{environ.get('REQUEST_METHOD')} {environ.get('PATH_INFO')}"
        if not environ.get("PATH_INFO", "").startswith("/moto-api"):
            self.calls[action] += 1
        if environ.get("REQUEST_METHOD") != "GET" and "/scheduler/" in environ.get("HTTP_AUTHORIZATION", ""):
            self.scheduler_writes += 1
        if target.startswith("DynamoDB_") and action in _TABLE_WRITES:
            self.table_writes += 1

    def __call__(self, environ: dict[str, Any], start_response: Callable[..., Any]) -> list[bytes]:
        try:  # over HTTP: only clients of this machine that name this server (see sandbox/origins.py)
            check_origin(self.port, environ.get("HTTP_HOST"), environ.get("HTTP_ORIGIN"))
        except Foreign as foreign:
            body = json.dumps({"__type": foreign.code, "message": foreign.message}).encode()
            start_response(f"{foreign.status} {foreign.code}", [("Content-Type", "application/json")])
            return [body]
        status, headers, body = self._applied(environ, lambda: self._through_wsgi(environ))
        try:
            line = f"{status} {HTTPStatus(status).phrase}"
        except ValueError:  # a code without a standard phrase
            line = str(status)
        start_response(line, headers)
        return [body]

    def answer(self, environ: dict[str, Any]) -> Answer:
        """A request of this process, answered as the WSGI application would. A JSON-protocol request (a POST
        naming its action in X-Amz-Target, as DynamoDB's and EventBridge's are) goes straight to the moto
        handler its URL routes to, called as moto's Flask view calls it (the same request class built from the
        same environ, the same URL and headers), without Flask's request context, CORS headers and response
        object, which cost a tenth of a fire."""
        handler = self._handler(environ)
        if handler is None:
            return self._applied(environ, lambda: self._through_wsgi(environ))
        return self._applied(environ, lambda: _by_handler(handler, environ))

    def _applied(self, environ: dict[str, Any], run: Callable[[], Answer]) -> Answer:
        """One request applied alone: counted, then run (or a retried transaction's answer repeated)."""
        with self.lock:
            self._count(environ)
            return self._tokens.answered(environ, run)

    def _through_wsgi(self, environ: dict[str, Any]) -> Answer:
        started: dict[str, Any] = {}

        def start_response(status: str, headers: list[tuple[str, str]], exc_info: Any = None) -> None:
            started["status"], started["headers"] = status, headers

        body = b"".join(self._app(environ, start_response))
        return int(started["status"].split(" ", 1)[0]), list(started["headers"]), body

    def _handler(self, environ: dict[str, Any]) -> Callable[..., Any] | None:
        if environ.get("REQUEST_METHOD") != "POST" or not environ.get("HTTP_X_AMZ_TARGET"):
            return None
        from werkzeug.exceptions import HTTPException

        app = self._app.get_application(environ)  # type: ignore[attr-defined]
        path = environ.get("PATH_INFO", "")
        routable = not app.url_map.host_matching  # the route depends on the path alone (every request a POST)
        known = self._routes.get((app, path), _UNROUTED) if routable else _UNROUTED
        if known is not _UNROUTED:
            return known
        try:
            endpoint, _ = app.url_map.bind_to_environ(environ).match()
            handler = getattr(app.view_functions[endpoint], "callback", None)
        except HTTPException:  # no route: the application answers
            handler = None
        if routable:
            if len(self._routes) >= 256:
                self._routes.clear()
            self._routes[app, path] = handler
        return handler


def _by_handler(handler: Callable[..., Any], environ: dict[str, Any]) -> Answer:
    """A request answered by its moto handler, as moto's Flask view calls it and answers its errors."""
    from botocore.exceptions import ClientError
    from moto.moto_api import recorder
    from moto.moto_server.werkzeug_app import BackendRequest

    request = BackendRequest(environ)
    recorder._record_request(request)
    try:
        result = handler(request, request.raw_url, dict(request.headers))
    except ClientError as exc:
        result = 400, {}, exc.response["Error"]["Message"]
    status, headers, content = result if len(result) == 3 else (200, {}, result)
    body = content.encode() if isinstance(content, str) else bytes(content or b"")
    return int(str(status).split(" ", 1)[0]), [(str(k), str(v)) for k, v in headers.items()], body


class _Raw(io.BytesIO):
    """A response body as botocore reads it from urllib3."""

    def stream(self, **_: Any) -> Iterable[bytes]:
        while chunk := self.read(65536):
            yield chunk


_local_servers: dict[str, _Atomic] = {}  # URL -> the application answering it in this process
_diverted: dict[tuple[str, str, str], Callable[[str], None]] = {}  # (account, region, queue) -> its receiver


def _install_diversion() -> None:
    """EventBridge's delivery to an SQS target hands the message to the queue's receiver, if it has one."""
    from moto.core.utils import iso_8601_datetime_without_milliseconds, utcfromtimestamp
    from moto.events.models import Rule

    send = Rule._send_to_sqs_queue
    if getattr(send, "diverts", False):
        return

    def send_or_divert(self: Any, resource_id: str, event: dict[str, Any], group_id: str | None = None) -> None:
        receive = _diverted.get((self.account_id, self.region_name, resource_id))
        if receive is None or group_id:
            return send(self, resource_id, event, group_id)
        if "time" in event:  # as moto writes the message body
            event["time"] = iso_8601_datetime_without_milliseconds(utcfromtimestamp(float(event["time"])))  # type: ignore[arg-type]
        receive(json.dumps(event))
        return None

    send_or_divert.diverts = True  # type: ignore[attr-defined]
    Rule._send_to_sqs_queue = send_or_divert  # type: ignore[method-assign]


def _body_bytes(body: Any) -> bytes:
    if body is None:
        return b""
    if isinstance(body, bytes | bytearray):
        return bytes(body)
    if isinstance(body, str):
        return body.encode()
    data = body.read()
    return data.encode() if isinstance(data, str) else bytes(data)


def _environ(method: str, url: str, headers: Iterable[tuple[str, Any]], data: bytes) -> dict[str, Any]:
    """The WSGI environ werkzeug's server would build for this request."""
    parts = urlsplit(url)
    environ: dict[str, Any] = {
        "REQUEST_METHOD": method,
        "SCRIPT_NAME": "",
        "PATH_INFO": unquote(parts.path, "latin-1") or "/",
        "RAW_URI": parts.path + (f"?{parts.query}" if parts.query else ""),
        "REQUEST_URI": parts.path + (f"?{parts.query}" if parts.query else ""),
        "QUERY_STRING": parts.query,
        "SERVER_NAME": parts.hostname or "127.0.0.1",
        "SERVER_PORT": str(parts.port or 80),
        "SERVER_PROTOCOL": "HTTP/1.1",
        "REMOTE_ADDR": "127.0.0.1",
        "wsgi.version": (1, 0),
        "wsgi.url_scheme": parts.scheme or "http",
        "wsgi.input": io.BytesIO(data),
        "wsgi.errors": io.StringIO(),
        "wsgi.multithread": True,
        "wsgi.multiprocess": False,
        "wsgi.run_once": False,
        "CONTENT_LENGTH": str(len(data)),
        "HTTP_HOST": parts.netloc,
    }
    for name, value in headers:
        value = value.decode("latin-1") if isinstance(value, bytes) else str(value)
        key = name.upper().replace("-", "_")
        if key == "CONTENT_TYPE":
            environ["CONTENT_TYPE"] = value
        elif key != "CONTENT_LENGTH":
            environ[f"HTTP_{key}"] = value
    return environ


_RECORD_TEXTS = frozenset({"StreamViewType", "SequenceNumber"})
_RECORD_IMAGES = frozenset({"Keys", "NewImage", "OldImage"})


def _plain_stream_record(record: dict[str, Any], images: dict[str, Any]) -> bool:
    """Whether botocore's parse of GetRecords' answer gives this record of moto's back as it is, but for its
    creation time (a datetime, which GetRecords writes as epoch seconds): text fields, an integer size and
    item images without binary values."""
    if not all(isinstance(value, str) for key, value in record.items() if key != "dynamodb"):
        return False
    for key, value in images.items():
        if key in _RECORD_IMAGES:
            plain = motofast.plain_image(value)
        elif key in _RECORD_TEXTS:
            plain = isinstance(value, str)
        elif key == "SizeBytes":
            plain = type(value) is int
        else:
            plain = key == "ApproximateCreationDateTime" and isinstance(value, datetime)
        if not plain:
            return False
    return "ApproximateCreationDateTime" in images


def _server_for(url: str) -> _Atomic | None:
    parts = urlsplit(url)
    return _local_servers.get(f"{parts.scheme}://{parts.netloc}")


def _joined(pairs: Iterable[tuple[str, str]]) -> dict[str, str]:
    headers: dict[str, str] = {}
    for name, value in pairs:
        headers[name] = f"{headers[name]}, {value}" if name in headers else value
    return headers


def answer_forwarded(request: dict[str, Any]) -> dict[str, Any]:
    """A request a function process of the sandbox forwarded (`sandbox/runtime_worker.py`), answered by the
    server of this process it is addressed to, in the same shape: method, url, headers, base64 body."""
    app = _server_for(request["url"])
    if app is None:
        return {"status": 502, "headers": {}, "body": ""}
    data = base64.b64decode(request["body"])
    status, pairs, body = app.answer(_environ(request["method"], request["url"], request["headers"].items(), data))
    return {"status": status, "headers": _joined(pairs), "body": base64.b64encode(body).decode()}


def _answer_in_process(request: AWSPreparedRequest, **_: Any) -> AWSResponse | None:
    """botocore's `before-send`: a request to a server of this process is answered without HTTP."""
    if not _local_servers:
        return None
    app = _server_for(request.url)
    if app is None:
        return None
    environ = _environ(request.method, request.url, request.headers.items(), _body_bytes(request.body))
    status, pairs, body = app.answer(environ)
    return AWSResponse(request.url, status, _joined(pairs), _Raw(body))


BUILTIN_HANDLERS.append(("before-send", _answer_in_process))  # clients created from now on consult it


class MotoServer:
    """`start()` serves moto on 127.0.0.1:port in a background thread; `url` is its endpoint. With
    `in_process`, boto3 clients of this process created after `start()` reach it without HTTP."""

    def __init__(self, port: int = 0, *, fast_transactions: bool = False, in_process: bool = False) -> None:
        if fast_transactions:  # for the whole process: see sandbox/motofast.py
            motofast.install()
        self.in_process = in_process
        self._app = _Atomic(DomainDispatcherApplication(create_backend_app))
        self._server: BaseWSGIServer = make_server(
            "127.0.0.1", port, self._app, threaded=True, request_handler=_QuietHandler
        )
        self._app.port = self.port
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True, name="moto")
        self._diversions: list[tuple[str, str, str]] = []

    @property
    def port(self) -> int:
        return int(self._server.server_address[1])

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def calls(self) -> Counter[str]:
        """AWS API calls served so far, by action (DynamoDB targets, or method and path)."""
        return self._app.calls

    @property
    def scheduler_writes(self) -> int:
        """How many requests so far could have created, changed or deleted a schedule (the scheduler engine
        re-reads the schedules only when this moves)."""
        return self._app.scheduler_writes

    @property
    def table_writes(self) -> int:
        """How many DynamoDB requests so far could have written an item (the stream pumps read the
        stream only when this moved since they last found it read to its end)."""
        return self._app.table_writes

    def schedules(self, account_id: str, region: str) -> list[dict[str, Any]]:
        """Every schedule of every group as GetSchedule describes it, read from moto's state in one step
        (between two requests): the scheduler engine reads a thousand schedules this way in milliseconds,
        where a GetSchedule each costs seconds."""
        from moto.scheduler.models import scheduler_backends

        with self._app.lock:
            backend = scheduler_backends[account_id][region]
            return [s.to_dict() for group in backend.schedule_groups.values() for s in group.schedules.values()]

    def stream_records(
        self, stream_arn: str, shards: list[str], read_to: dict[str, str], limit: int
    ) -> list[Any] | None:
        """What `sandbox.streams.read_after` reads through DescribeStream, GetShardIterator and GetRecords, read
        from moto's state in one step: every shard's records after the last one read (`read_to`, brought
        forward), oldest first, each as botocore gives GetRecords' record (its creation time a datetime, as
        the wire's epoch seconds parse). None, having read nothing, when the API's answer could differ from
        moto's record as it is (a table or stream gone, a binary attribute): the caller asks the API."""
        from botocore.utils import parse_timestamp
        from moto.core.serialize import TimestampSerializer
        from moto.dynamodb.models import dynamodb_backends

        try:
            _, _, _, region, account, resource = stream_arn.split(":", 5)
            table_name = resource.split("/")[1]
        except (ValueError, IndexError):
            return None
        with self._app.lock:
            table = dynamodb_backends[account][region].tables.get(table_name)
            shard = getattr(table, "stream_shard", None)
            if shard is None or any(known != shard.id for known in shards):
                return None
            found: list[Any] = []
            for shard_id in shards or [shard.id]:
                after = read_to.get(shard_id)
                start = int(after) + 1 if after else shard.starting_sequence_number
                if start < shard.starting_sequence_number:
                    return None
                found.append((shard_id, shard.get(start, limit)))
        out: list[Any] = []
        last: dict[str, str] = {}
        for shard_id, records in found:
            for record in records:
                images = record.get("dynamodb")
                if not isinstance(images, dict):
                    return None
                if not _plain_stream_record(record, images):
                    return None
                created = parse_timestamp(
                    TimestampSerializer._timestamp_unixtimestamp(images["ApproximateCreationDateTime"])
                )
                out.append({**record, "dynamodb": {**images, "ApproximateCreationDateTime": created}})
            if records:
                last[shard_id] = records[-1]["dynamodb"]["SequenceNumber"]
        if not shards:
            shards.append(shard.id)
        read_to.update(last)
        return out

    def schedule(self, account_id: str, region: str, group: str, name: str) -> dict[str, Any] | None:
        """One schedule as GetSchedule describes it, read from moto's state in one step; None if it is gone."""
        from moto.scheduler.models import scheduler_backends

        with self._app.lock:
            schedules = scheduler_backends[account_id][region].schedule_groups.get(group or "default")
            found = schedules.schedules.get(name) if schedules is not None else None
            return found.to_dict() if found is not None else None

    def remove_schedule(self, account_id: str, region: str, group: str, name: str) -> bool:
        """Delete a schedule from moto's state in one step, as Scheduler removes a one-time schedule with
        ActionAfterCompletion DELETE itself (no API call, so no write to count); False if it was gone."""
        from moto.scheduler.models import scheduler_backends

        with self._app.lock:
            schedules = scheduler_backends[account_id][region].schedule_groups.get(group or "default")
            return schedules is not None and schedules.schedules.pop(name, None) is not None

    def leave_streams_to_the_sandbox(self) -> None:
        """Stop moto from handing a table's stream records to its own Lambda (which cannot run them, and
        empties the stream as it tries): the sandbox runs the event source mappings (sandbox/streams.py)."""
        from moto.dynamodb.models import dynamodb_backends

        with self._app.lock:
            for regions in dynamodb_backends.values():
                for backend in regions.values():
                    for table in backend.tables.values():
                        table.lambda_event_source_mappings.clear()

    def divert_queue(self, queue_arn: str, receive: Callable[[str], None]) -> None:
        """Hand `receive` every message an EventBridge rule delivers to this queue (the body as the queue
        would hold it), instead of storing it; until `stop()`."""
        _install_diversion()
        _, _, _, region, account, name = queue_arn.split(":", 5)
        with self._app.lock:
            _diverted[(account, region, name)] = receive
            self._diversions.append((account, region, name))

    def start(self) -> MotoServer:
        self._thread.start()
        if self.in_process:
            _local_servers[self.url] = self._app
            if boto3.DEFAULT_SESSION is not None:  # made before this module was imported, or already with it:
                events = boto3.DEFAULT_SESSION.events  # botocore calls every handler, so it must be there once
                events.unregister("before-send", unique_id=__name__)
                events.unregister("before-send", _answer_in_process)
                events.register("before-send", _answer_in_process, unique_id=__name__)
        return self

    def stop(self) -> None:
        _local_servers.pop(self.url, None)
        for key in self._diversions:
            _diverted.pop(key, None)
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(timeout=5)
