"""One Lambda execution environment for `serve --built`: runs under the runtime's Python (3.12, with
only the standard library and boto3, as Lambda's image has), imports one handler from what `sam build`
produced, and runs the invocations the sandbox sends it, one at a time.

    python -I runtime_worker.py HANDLER CODE_DIR [LAYER_DIR ...]

The path is Lambda's: the function's folder first, then each layer's folder (`/opt/python`), then the
runtime's own packages; the working directory is the function's folder. Invocations arrive as JSON lines
on standard input; answers leave as JSON lines on the original standard output, which is then pointed at
standard error so that whatever the handler prints is a log line, as in Lambda.

The virtual clock: each invocation carries the sandbox's `now` (null with the real clock), which this
process installs into `cronbell.adapters.clock` (the one place cronbell reads the time), as the
in-process sandbox does.

With `SANDBOX_AWS_FORWARD` set to the sandbox's AWS endpoint, the AWS requests the handler makes to it do not
go over HTTP: each is written as a JSON line `{"aws": request}` on the answers stream, and the sandbox,
which holds moto's state, writes `{"aws_answer": response}` back on standard input (the same requests and
answers, without a socket and an HTTP server thread per call). Other endpoints are reached over HTTP.
"""

from __future__ import annotations

import base64
import importlib
import io
import json
import os
import sys
import time
import traceback
from datetime import UTC, datetime, timedelta
from typing import IO, Any

_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
del sys.path[0]  # this script's folder is no part of the function's path
sys.path.insert(0, _ROOT)
from sandbox.lambda_context import ClientContext, LambdaContext  # noqa: E402

sys.path.remove(_ROOT)


class _InvocationClock:
    """The sandbox's time as of the invocation being run (virtual clock), else the system's. The virtual
    instant stands still while the invocation runs, but for what it waits: a function that sleeps sees
    that much time pass, as in Lambda, so a retry that waits out a dead attempt's claim sees its lease
    end (the claim's lease is at least the function's timeout, so the attempt is gone by then)."""

    def __init__(self) -> None:
        self.at: datetime | None = None

    def now(self) -> datetime:
        return self.at if self.at is not None else datetime.now(UTC)

    def sleep(self, seconds: float) -> None:
        time.sleep(seconds)
        if self.at is not None:
            self.at += timedelta(seconds=seconds)


def error_payload(err: BaseException, error_type: str | None = None) -> dict[str, Any]:
    """Lambda's JSON for an unhandled error."""
    return {
        "errorMessage": str(err),
        "errorType": error_type or type(err).__name__,
        "stackTrace": traceback.format_list(traceback.extract_tb(err.__traceback__)),
    }


class _Body(io.BytesIO):
    """A response body as botocore reads it from urllib3."""

    def stream(self, **_: Any) -> Any:
        while chunk := self.read(65536):
            yield chunk


def _forward_aws(endpoint: str, answers: IO[str], replies: IO[str]) -> None:
    """Hand every request to `endpoint` to the sandbox over the worker's own streams (see the module's note).
    Registered before the handler is imported, so the clients it builds at init consult it."""
    from botocore.awsrequest import AWSResponse
    from botocore.handlers import BUILTIN_HANDLERS

    def send(request: Any, **_: Any) -> Any:
        if not request.url.startswith(endpoint):
            return None
        body = request.body
        if body is not None and not isinstance(body, bytes | bytearray | str):
            body = body.read()  # a file-like body
        data = body.encode() if isinstance(body, str) else bytes(body or b"")
        headers = {k: v.decode("latin-1") if isinstance(v, bytes) else str(v) for k, v in request.headers.items()}
        forwarded = {"method": request.method, "url": request.url, "headers": headers,
                     "body": base64.b64encode(data).decode()}  # fmt: skip
        answers.write(json.dumps({"aws": forwarded}) + "\n")
        answers.flush()
        reply = json.loads(replies.readline())["aws_answer"]
        return AWSResponse(request.url, reply["status"], reply["headers"], _Body(base64.b64decode(reply["body"])))

    BUILTIN_HANDLERS.append(("before-send", send))


def _load(handler: str) -> Any:
    module_name, _, function_name = handler.rpartition(".")
    return getattr(importlib.import_module(module_name), function_name)


def main(argv: list[str]) -> int:
    handler_name, code_dir, *layer_dirs = argv
    answers = os.fdopen(os.dup(1), "w", encoding="utf-8")
    os.dup2(2, 1)  # the handler's prints and logs go to standard error
    # a line at a time, as Lambda writes them: Powertools prints metrics to standard output, which a pipe
    # buffers, and a worker stopped with its invocation done would take them with it
    sys.stdout.reconfigure(line_buffering=True)  # type: ignore[union-attr]
    sys.path[:0] = [code_dir, *layer_dirs]
    os.chdir(code_dir)
    clock = _InvocationClock()
    if os.environ.get("SANDBOX_AWS_FORWARD"):
        _forward_aws(os.environ["SANDBOX_AWS_FORWARD"], answers, sys.stdin)
    try:
        handler = _load(handler_name)
        load_error = None
    except Exception as err:  # Lambda answers every invocation with the import error
        handler, load_error = (
            None,
            error_payload(
                Exception(f"Unable to import module '{handler_name.rpartition('.')[0]}': {err}"),
                "Runtime.ImportModuleError",
            ),
        )
    clock_module = sys.modules.get("cronbell.adapters.clock")
    if clock_module is not None:
        clock_module.install(clock)
    answers.write(json.dumps({"ready": True, "python": sys.version.split()[0]}) + "\n")
    answers.flush()
    while line := sys.stdin.readline():
        request = json.loads(line)
        clock.at = datetime.fromisoformat(request["now"].replace("Z", "+00:00")) if request.get("now") else None
        client = request.get("client_context")
        context = LambdaContext(
            os.environ["AWS_LAMBDA_FUNCTION_NAME"],
            request["function_arn"],
            int(os.environ["AWS_LAMBDA_FUNCTION_MEMORY_SIZE"]),
            request["timeout"],
            request["request_id"],
            ClientContext(client) if isinstance(client, dict) else None,
        )
        try:
            if handler is None:
                raise RuntimeError("no handler")
            value = handler(request["event"], context)
            try:
                answer = json.dumps({"value": value})
            except (TypeError, ValueError) as err:
                answer = json.dumps({"error": {"errorMessage": f"Unable to marshal response: {err}",
                                               "errorType": "Runtime.MarshalError"}})  # fmt: skip
        except Exception as err:
            answer = json.dumps({"error": load_error or error_payload(err)})
        answers.write(answer + "\n")
        answers.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
