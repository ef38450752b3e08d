"""The template's functions run in this process as Lambda would run them: handler loading, a Lambda-like
context, unhandled errors in Lambda's shape, timeouts, and asynchronous invocation with retries and an
on-failure destination."""

from __future__ import annotations

import heapq
import importlib.util
import itertools
import json
import logging
import os
import sys
import threading
import time
import traceback
import uuid
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path
from types import ModuleType
from typing import Any

from sandbox.clock import SandboxClock, iso
from sandbox.lambda_context import ClientContext, LambdaContext
from sandbox.lambda_context import parse_client_context as parse_client_context  # the server imports it here
from sandbox.stack import FunctionSpec

log = logging.getLogger("sandbox.lambda")

UNHANDLED = "Unhandled"

# (queue ARN, message body) -> None
QueueSender = Callable[[str, str], None]


# ---------------------------------------------------------------------------------------- runtime


@dataclass
class InvokeResult:
    payload: bytes  # the handler's answer as JSON, or Lambda's error JSON
    function_error: str | None  # "Unhandled" when the handler raised, timed out or answered non-JSON
    request_id: str

    @property
    def ok(self) -> bool:
        return self.function_error is None


@dataclass
class AsyncOutcome:
    result: InvokeResult
    attempts: int
    retry_at: datetime | None = None  # when Lambda tries the event again (None: it will not)


# Lambda's asynchronous retries of a handler error: about a minute after the first attempt, about two after
# the second (plus queueing); the sandbox keeps the spacing in its clock's time
RETRY_SPACING_SECONDS = (60, 120)


@dataclass(order=True)
class PendingRetry:
    """An asynchronous event Lambda will try again at `due`."""

    due: datetime
    order: int
    spec: FunctionSpec = field(compare=False)
    payload: bytes = field(compare=False)
    attempt: int = field(compare=False)  # the number of the attempt to make


def error_payload(err: BaseException, tb: Any = None) -> dict[str, Any]:
    """Lambda's JSON for an unhandled error."""
    frames = traceback.extract_tb(tb if tb is not None else err.__traceback__)
    return {
        "errorMessage": str(err),
        "errorType": type(err).__name__,
        "stackTrace": traceback.format_list(frames),
    }


class FunctionNotFound(LookupError):
    pass


class FunctionError(Exception):
    """An error a function reported already in Lambda's shape (a built function's process)."""

    def __init__(self, payload: dict[str, Any]) -> None:
        super().__init__(payload.get("errorMessage", ""))
        self.payload = payload


# A loaded function: Lambda's handler signature.
Handler = Callable[[Any, Any], Any]


class LambdaRuntime:
    """The template's functions, loaded once into this process and invoked by name or ARN."""

    def __init__(
        self,
        specs: Mapping[str, FunctionSpec],
        clock: SandboxClock,
        send_to_queue: QueueSender,
        handlers: Mapping[str, Handler] | None = None,
        scale_out: Callable[[FunctionSpec], Handler] | None = None,
    ) -> None:
        """`handlers` replaces importing the functions into this process (`serve --built`). `scale_out` makes
        the execution environments an invocation gets when it asks for one of its own (`separate=True`, the
        scheduler engine's concurrent fires): processes, as Lambda scales a busy function out."""
        self.specs = dict(specs)
        self.clock = clock
        self.send_to_queue = send_to_queue
        self._external = dict(handlers or {})
        self._handlers: dict[str, Handler] = {}
        self._scale_out = scale_out
        self._separate: dict[str, Handler] = {}
        self._background: set[threading.Thread] = set()
        self._lock = threading.Lock()
        # run after every invocation but its own, before its answer: the stream mappings (sandbox/streams.py)
        self.settle: Callable[[], None] | None = None
        self._retries: list[PendingRetry] = []  # a heap, by due time
        self._retry_order = itertools.count()

    # ------------------------------------------------------------------ lookup and loading

    def find(self, name_or_arn: str) -> FunctionSpec:
        """By logical id, physical name, or (partial) ARN with an optional qualifier: `$LATEST`, a version, or
        one of the function's aliases (an alias it does not have is not found, as Lambda answers)."""
        name = name_or_arn.split(":function:", 1)[1] if ":function:" in name_or_arn else name_or_arn
        name, _, qualifier = name.partition(":")
        for spec in self.specs.values():
            if name in (spec.logical_id, spec.name):
                if qualifier and qualifier != "$LATEST" and not qualifier.isdigit() and qualifier not in spec.aliases:
                    break
                return spec
        raise FunctionNotFound(name_or_arn)

    def load(self) -> None:
        """Import every handler with its own environment on top of the shared one, then leave the union
        of all environments set (the functions share this process; the template gives equal names equal
        values)."""
        if self._external:
            self._handlers = dict(self._external)
            return
        for spec in self.specs.values():
            for path in [*spec.layer_dirs, spec.code_dir]:
                if str(path) not in sys.path:
                    sys.path.insert(0, str(path))
        union: dict[str, str] = {}
        for spec in self.specs.values():
            for key, value in spec.environment.items():
                if key in union and union[key] != value:
                    log.warning("functions disagree on %s; the sandbox keeps one value", key)
                union.setdefault(key, value)
        for spec in self.specs.values():
            os.environ.update(spec.environment)
            try:
                self._handlers[spec.logical_id] = _load_handler(spec)
            except Exception as err:  # Lambda answers every invocation with the import error
                log.error("%s: cannot load %s: %s", spec.logical_id, spec.handler, err)
                self._handlers[spec.logical_id] = _import_error_handler(spec, err)
        os.environ.update(union)

    # ------------------------------------------------------------------ invocation

    def invoke(
        self,
        spec: FunctionSpec,
        payload: bytes,
        client_context: ClientContext | None = None,
        *,
        separate: bool = False,
        settle: bool = True,
    ) -> InvokeResult:
        """A synchronous (RequestResponse) invocation. Raises ValueError for a payload that is not JSON.
        `separate`: in an execution environment other than this process's, when the runtime can make one.
        `settle`: the table's stream is applied (`self.settle`) before the answer, as it is to every
        invocation but the stream's own."""
        try:
            event = json.loads(payload) if payload.strip() else {}
        except RecursionError:  # JSON nested deeper than the runtime's parser goes: its error, as in Lambda
            body = {
                "errorMessage": "Unable to unmarshal input: nested too deeply",
                "errorType": "Runtime.UnmarshalError",
            }
            return InvokeResult(json.dumps({**body, "stackTrace": []}).encode(), UNHANDLED, str(uuid.uuid4()))
        try:
            return self._run(spec, event, client_context, separate)
        finally:
            if settle and self.settle is not None:
                self.settle()

    def _run(
        self, spec: FunctionSpec, event: Any, client_context: ClientContext | None, separate: bool
    ) -> InvokeResult:
        request_id = str(uuid.uuid4())
        context = LambdaContext(spec.name, spec.arn, spec.memory, spec.timeout, request_id, client_context)
        handler = self._separate_handler(spec) if separate else None
        if handler is None:
            handler = self._handlers.get(spec.logical_id)
        if handler is None:
            handler = self._handlers[spec.logical_id] = _load_handler(spec)
        outcome: dict[str, Any] = {}

        def run() -> None:
            try:
                outcome["value"] = handler(event, context)
            except BaseException as err:  # a handler error of any kind is the function's error
                outcome["error"] = err

        if getattr(handler, "ends_at_timeout", False):  # a process that is killed at its timeout
            run()
        else:
            worker = threading.Thread(target=run, name=f"lambda-{spec.logical_id}", daemon=True)
            worker.start()
            worker.join(spec.timeout)
        if "value" not in outcome and "error" not in outcome:
            stamp = iso(self.clock.now())
            body: dict[str, Any] = {
                "errorMessage": f"{stamp} {request_id} Task timed out after {spec.timeout:.2f} seconds",
                "errorType": "Sandbox.Timedout",
            }
            log.error("%s timed out after %s s", spec.logical_id, spec.timeout)
            return InvokeResult(json.dumps(body).encode(), UNHANDLED, request_id)
        if "error" in outcome:
            err = outcome["error"]
            reported = err.payload if isinstance(err, FunctionError) else error_payload(err)
            log.error("%s raised %s: %s", spec.logical_id, reported["errorType"], err)
            return InvokeResult(json.dumps(reported).encode(), UNHANDLED, request_id)
        try:
            answer = json.dumps(outcome.get("value"))
        except (TypeError, ValueError) as err:
            body = {"errorMessage": f"Unable to marshal response: {err}", "errorType": "Runtime.MarshalError"}
            return InvokeResult(json.dumps(body).encode(), UNHANDLED, request_id)
        return InvokeResult(answer.encode(), None, request_id)

    def _separate_handler(self, spec: FunctionSpec) -> Handler | None:
        if self._scale_out is None:
            return None
        with self._lock:
            handler = self._separate.get(spec.logical_id)
            if handler is None:
                handler = self._separate[spec.logical_id] = self._scale_out(spec)
            return handler

    def warm(self, name_or_arn: str, count: int) -> None:
        """Start `count` further execution environments of a function now, as provisioned concurrency keeps
        them, so fires due together do not wait for cold starts (a runtime that cannot scale out: nothing)."""
        handler = self._separate_handler(self.find(name_or_arn))
        warm = getattr(handler, "warm", None)
        if warm is not None:
            warm(count)

    def process_ids(self) -> list[int]:
        """The processes the functions run in besides this one (built or scaled out), as far as they say."""
        with self._lock:
            handlers = [*self._external.values(), *self._separate.values()]
        return [pid for handler in handlers for pid in getattr(handler, "pids", list)()]

    def invoke_event(
        self, spec: FunctionSpec, payload: bytes, *, separate: bool = False, attempt: int = 1
    ) -> AsyncOutcome:
        """One attempt at an asynchronous (Event) invocation. A handler error is tried again as Lambda does,
        `MaximumRetryAttempts` times, about 1 and then 2 minutes later on the sandbox's clock (`due_retries`,
        which the scheduler engine runs as its clock passes them); when the retries run out, the event goes
        to the on-failure destination or the dead-letter queue."""
        try:
            result = self.invoke(spec, payload, separate=separate)
        except ValueError as err:  # not JSON: never retried
            result = InvokeResult(json.dumps(error_payload(err)).encode(), UNHANDLED, str(uuid.uuid4()))
            self._dead_letter(spec, payload, result, attempt)
            return AsyncOutcome(result, attempt)
        if result.ok:
            return AsyncOutcome(result, attempt)
        if attempt <= max(0, spec.max_retry_attempts):
            spacing = RETRY_SPACING_SECONDS[min(attempt, len(RETRY_SPACING_SECONDS)) - 1]
            due = self.clock.now() + timedelta(seconds=spacing)
            with self._lock:
                heapq.heappush(self._retries, PendingRetry(due, next(self._retry_order), spec, payload, attempt + 1))
            return AsyncOutcome(result, attempt, retry_at=due)
        self._dead_letter(spec, payload, result, attempt)
        return AsyncOutcome(result, attempt)

    def next_retry(self) -> datetime | None:
        """When the earliest pending retry is due."""
        with self._lock:
            return self._retries[0].due if self._retries else None

    def due_retries(self, until: datetime) -> list[PendingRetry]:
        """The pending retries due at or before `until`, earliest first, taken off the queue."""
        out = []
        with self._lock:
            while self._retries and self._retries[0].due <= until:
                out.append(heapq.heappop(self._retries))
        return out

    def retry(self, pending: PendingRetry) -> AsyncOutcome:
        return self.invoke_event(pending.spec, pending.payload, attempt=pending.attempt)

    def close(self) -> None:
        """Stop what runs outside this process (a built function's processes, the scaled-out ones)."""
        with self._lock:
            separate, self._separate, self._scale_out = list(self._separate.values()), {}, None
        for handler in [*self._external.values(), *separate]:
            close = getattr(handler, "close", None)
            if close is not None:
                close()

    def invoke_event_background(self, spec: FunctionSpec, payload: bytes) -> None:
        thread = threading.Thread(target=self._background_run, args=(spec, payload), daemon=True)
        with self._lock:
            self._background.add(thread)
        thread.start()

    def _background_run(self, spec: FunctionSpec, payload: bytes) -> None:
        try:
            self.invoke_event(spec, payload)
        finally:
            with self._lock:
                self._background.discard(threading.current_thread())

    def wait_background(self, timeout: float = 30.0) -> None:
        """Wait for asynchronous invocations still running (used before reading results)."""
        deadline = time.monotonic() + timeout
        while True:
            with self._lock:
                threads = list(self._background)
            if not threads or time.monotonic() > deadline:
                return
            threads[0].join(max(0.0, deadline - time.monotonic()))

    def _dead_letter(self, spec: FunctionSpec, payload: bytes, result: InvokeResult, attempts: int) -> None:
        try:
            request_payload: Any = json.loads(payload)
        except ValueError:
            request_payload = payload.decode("utf-8", errors="replace")
        if spec.on_failure_arn:
            record = {
                "version": "1.0",
                "timestamp": iso(self.clock.now()),
                "requestContext": {
                    "requestId": result.request_id,
                    "functionArn": f"{spec.arn}:$LATEST",
                    "condition": "RetriesExhausted",
                    "approximateInvokeCount": attempts,
                },
                "requestPayload": request_payload,
                "responseContext": {
                    "statusCode": 200,
                    "executedVersion": "$LATEST",
                    "functionError": result.function_error,
                },
                "responsePayload": json.loads(result.payload),
            }
            self.send_to_queue(spec.on_failure_arn, json.dumps(record))
        elif spec.dead_letter_arn:
            self.send_to_queue(spec.dead_letter_arn, payload.decode("utf-8", errors="replace"))
        else:
            log.error("%s failed %d times; the event is dropped (no destination)", spec.logical_id, attempts)


class ImportModuleError(Exception):
    pass


def _import_error_handler(spec: FunctionSpec, err: Exception) -> Callable[[Any, Any], Any]:
    message = f"Unable to import module '{spec.handler.rpartition('.')[0]}': {err}"

    def handler(event: Any, context: Any) -> Any:
        raise ImportModuleError(message)

    return handler


def _load_handler(spec: FunctionSpec) -> Callable[[Any, Any], Any]:
    """Load `module.function` from the function's CodeUri under a module name unique to the function
    (every handler module is called `app`)."""
    module_path, _, function_name = spec.handler.rpartition(".")
    file = spec.code_dir / Path(*module_path.split(".")).with_suffix(".py")
    unique = f"_sandbox_{spec.logical_id}_{module_path.replace('.', '_')}"
    module_spec = importlib.util.spec_from_file_location(unique, file)
    if module_spec is None or module_spec.loader is None:
        raise FunctionNotFound(f"{spec.logical_id}: no handler module at {file}")
    module: ModuleType = importlib.util.module_from_spec(module_spec)
    sys.modules[unique] = module
    module_spec.loader.exec_module(module)
    handler: Callable[[Any, Any], Any] = getattr(module, function_name)
    return handler
