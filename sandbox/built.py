"""`serve --built`: the functions as `sam build` left them in `.aws-sam/build`, each run in processes of
its own under the runtime's Python, as `sam local start-lambda` runs them in containers (without Docker).

Every function has its own environment variables and path (its folder, then its layers' `python/`
folders), imports nothing from the source tree, and runs one invocation at a time per process; a busy
function gets another process, as Lambda scales out. A process that outlives its timeout is killed.
"""

from __future__ import annotations

import json
import os
import selectors
import subprocess
import threading
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from sandbox.clock import SandboxClock, iso
from sandbox.lambda_api import FunctionError
from sandbox.lambda_context import LambdaContext
from sandbox.stack import FunctionSpec

BUILD_DIR = Path(".aws-sam") / "build"
RUNTIME_VENV = Path(".venv-runtime")
WORKER = Path(__file__).with_name("runtime_worker.py")
START_TIMEOUT = 60.0  # seconds for a process to import its handler (a cold start)


class BuildMissing(RuntimeError):
    """What `--built` needs is not there; the message says how to make it."""


def built_root(root: Path) -> Path:
    """The folder `sam build` wrote (its template names the built code relative to it)."""
    folder = root / BUILD_DIR
    if not (folder / "template.yaml").is_file():
        raise BuildMissing(f"no {BUILD_DIR}/template.yaml: run `make build` first")
    return folder


def runtime_python(root: Path) -> str:
    """The Python 3.12 virtualenv with boto3 that stands in for the Lambda runtime (`make build` makes it)."""
    python = root / RUNTIME_VENV / "bin" / "python"
    if not python.exists():
        raise BuildMissing(f"no {RUNTIME_VENV}: run `make build` first")
    return str(python)


def layer_paths(spec: FunctionSpec) -> list[Path]:
    """Where Lambda mounts a built layer's content on the path: its `python/` folder (/opt/python)."""
    return [path / "python" if (path / "python").is_dir() else path for path in spec.layer_dirs]


def lambda_environment(spec: FunctionSpec, base: Mapping[str, str]) -> dict[str, str]:
    """The process environment: the sandbox's AWS settings, the function's variables, Lambda's own."""
    env = {key: value for key, value in base.items() if not key.startswith("PYTHON")}
    env.update(spec.environment)
    env.update(
        {
            "AWS_LAMBDA_FUNCTION_NAME": spec.name,
            "AWS_LAMBDA_FUNCTION_MEMORY_SIZE": str(spec.memory),
            "AWS_LAMBDA_FUNCTION_VERSION": "$LATEST",
            "AWS_LAMBDA_LOG_GROUP_NAME": f"/aws/lambda/{spec.name}",
            "AWS_EXECUTION_ENV": "AWS_Lambda_python3.12",
            "LAMBDA_TASK_ROOT": str(spec.code_dir),
            "TZ": ":UTC",
            "PYTHONUNBUFFERED": "1",
        }
    )
    return env


# A forwarded AWS request -> its answer (sandbox.aws_server.answer_forwarded)
AwsAnswer = Callable[[dict[str, Any]], dict[str, Any]]


class _Process:
    """One execution environment: a worker process with its handler imported."""

    def __init__(self, python: str, spec: FunctionSpec, env: Mapping[str, str], aws: AwsAnswer | None) -> None:
        command = [python, "-I", str(WORKER), spec.handler, str(spec.code_dir), *map(str, layer_paths(spec))]
        self.proc = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=dict(env))
        self._started = False
        self._aws = aws
        assert self.proc.stdout is not None
        self._selector = selectors.DefaultSelector()  # one for the process's life: a call reads many lines
        self._selector.register(self.proc.stdout, selectors.EVENT_READ)

    def _line(self, timeout: float) -> dict[str, Any] | None:
        """The next answer line, or None when the process ended or the time ran out."""
        assert self.proc.stdout is not None
        if not self._selector.select(max(0.0, timeout)):
            return None
        line = self.proc.stdout.readline()
        return json.loads(line) if line else None

    def call(self, request: Mapping[str, Any], timeout: float) -> dict[str, Any]:
        if not self._started:
            if self._line(START_TIMEOUT) is None:
                raise FunctionError(_runtime_error("Runtime.ExitError", "the runtime process did not start"))
            self._started = True
        self._send(request)
        deadline = time.monotonic() + timeout
        while (answer := self._line(deadline - time.monotonic())) is not None and "aws" in answer:
            if self._aws is None:
                break
            self._send({"aws_answer": self._aws(answer["aws"])})  # an AWS call the handler is waiting on
        if answer is None or "aws" in answer:
            # its time ran out, or its output ended first: it exited (a process just killed may not be
            # reaped yet, so poll() alone would take it for one still running)
            timed_out = time.monotonic() >= deadline and self.proc.poll() is None
            self.close()
            if timed_out:
                raise FunctionError(
                    _runtime_error("Sandbox.Timedout", f"Task timed out after {request['timeout']:.2f} seconds")
                )
            raise FunctionError(_runtime_error("Runtime.ExitError", "the runtime process exited"))
        return answer

    def _send(self, message: Mapping[str, Any]) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write((json.dumps(message) + "\n").encode())
        self.proc.stdin.flush()

    def close(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait()
        self._selector.close()
        for stream in (self.proc.stdin, self.proc.stdout):
            if stream is not None:
                stream.close()


def _runtime_error(error_type: str, message: str) -> dict[str, Any]:
    return {"errorMessage": message, "errorType": error_type, "stackTrace": []}


class BuiltFunction:
    """A function's handler as the sandbox's Lambda runtime calls it, run in worker processes: a built one, or
    (`aws` given) one of the source tree whose AWS calls the sandbox answers over the worker's streams."""

    ends_at_timeout = True  # a call that outlives its timeout kills its process and says so

    def __init__(
        self,
        python: str,
        spec: FunctionSpec,
        env: Mapping[str, str],
        clock: SandboxClock,
        aws: AwsAnswer | None = None,
        warm: int = 1,
    ) -> None:
        self.python = python
        self.spec = spec
        self.env = dict(env)
        self.clock = clock
        self._aws = aws
        self._idle: list[_Process] = []
        self._all: list[_Process] = []
        self._lock = threading.Lock()
        self._closed = False
        self.warm(warm)  # as after a first call

    def __call__(self, event: Any, context: LambdaContext) -> Any:
        with self._lock:
            if self._closed:
                raise FunctionError(_runtime_error("Runtime.ExitError", "the sandbox is stopping"))
            if self._idle:
                process = self._idle.pop()
            else:
                process = self._start()
                self._all.append(process)
        request = {
            "event": event,
            "now": iso(self.clock.now()) if self.clock.virtual else None,
            "request_id": context.aws_request_id,
            "function_arn": context.invoked_function_arn,
            "timeout": context.get_remaining_time_in_millis() / 1000,
            "client_context": context.client_context.data if context.client_context else None,
        }
        try:
            answer = process.call(request, request["timeout"])
        except BaseException:
            with self._lock:
                if process in self._all:
                    self._all.remove(process)
            process.close()
            raise
        with self._lock:
            if self._closed:
                process.close()
            else:
                self._idle.append(process)
        if "error" in answer:
            raise FunctionError(answer["error"])
        return answer["value"]

    def warm(self, count: int) -> None:
        """Have at least `count` processes ready for calls (each imports its handler in the background)."""
        with self._lock:
            while not self._closed and len(self._all) < count:
                process = self._start()
                self._all.append(process)
                self._idle.append(process)

    def pids(self) -> list[int]:
        """The processes running the function now."""
        with self._lock:
            return [process.proc.pid for process in self._all]

    def _start(self) -> _Process:
        return _Process(self.python, self.spec, self.env, self._aws)

    def close(self) -> None:
        with self._lock:
            self._closed = True
            processes, self._all, self._idle = self._all, [], []
        for process in processes:
            process.close()


def built_functions(specs: Mapping[str, FunctionSpec], python: str, clock: SandboxClock) -> dict[str, BuiltFunction]:
    """One `BuiltFunction` per function, each with a process already importing its handler."""
    base = dict(os.environ)
    return {name: BuiltFunction(python, spec, lambda_environment(spec, base), clock) for name, spec in specs.items()}
