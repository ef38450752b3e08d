"""`serve --built`'s execution environments: a handler imported in a process of its own, with its own
environment and path, errors in Lambda's shape, a timeout that kills the process, the virtual clock."""

from __future__ import annotations

import json
import sys
import textwrap
import threading
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from sandbox.app import _InvocationTime
from sandbox.built import BuiltFunction, lambda_environment
from sandbox.clock import VirtualClock
from sandbox.lambda_api import LambdaRuntime
from sandbox.stack import FunctionSpec

HANDLER = textwrap.dedent(
    """
    import os, sys, time
    from cronbell.adapters import clock

    def lambda_handler(event, context):
        if event.get("do") == "fail":
            raise ValueError("bad input")
        if event.get("do") == "sleep":
            time.sleep(event["seconds"])
        if event.get("do") == "wait":  # as the use cases wait (deps.sleep)
            clock.sleep(event["seconds"])
        if event.get("do") == "die":  # as a SIGKILL ends it
            os.kill(os.getpid(), 9)
        print("a log line, not the answer")
        return {
            "now": clock.now().isoformat(),
            "greeting": os.environ.get("GREETING"),
            "path0": sys.path[0],
            "cwd": os.getcwd(),
            "function": context.function_name,
            "remaining_ms": context.get_remaining_time_in_millis(),
            "path": sys.path,
        }
    """
)
CLOCK = Path(__file__).resolve().parents[2] / "layers" / "common" / "cronbell" / "adapters" / "clock.py"
START = datetime(2030, 1, 7, 8, 0, tzinfo=UTC)


def _function(
    tmp_path: Path,
    source: str,
    timeout: int,
    environment: dict[str, str] | None = None,
    layers: list[Path] | None = None,
) -> FunctionSpec:
    """A function `Fn` whose handler is `source`, in a folder of its own."""
    code = tmp_path / "Fn"
    code.mkdir()
    (code / "app.py").write_text(source)
    return FunctionSpec(
        logical_id="Fn",
        name="Fn",
        arn="arn:aws:lambda:us-east-1:123456789012:function:Fn",
        code_dir=code,
        handler="app.lambda_handler",
        timeout=timeout,
        memory=128,
        environment=environment or {},
        layer_dirs=layers or [],
        max_retry_attempts=0,
    )


@pytest.fixture
def runtime(tmp_path: Path) -> Iterator[LambdaRuntime]:
    layer = tmp_path / "Layer" / "python" / "cronbell" / "adapters"
    layer.mkdir(parents=True)
    for folder in (layer.parent, layer):
        (folder / "__init__.py").write_text("")
    (layer / "clock.py").write_text(CLOCK.read_text())  # the layer's own clock module
    spec = _function(tmp_path, HANDLER, timeout=2, environment={"GREETING": "hola"}, layers=[tmp_path / "Layer"])
    clock = VirtualClock(START)
    function = BuiltFunction(sys.executable, spec, lambda_environment(spec, {"PYTHONPATH": "/nowhere"}), clock)
    runtime = LambdaRuntime({"Fn": spec}, clock, lambda arn, body: None, {"Fn": function})
    runtime.load()
    yield runtime
    runtime.close()


def _invoke(runtime: LambdaRuntime, event: dict[str, object]) -> tuple[str | None, dict[str, object]]:
    result = runtime.invoke(runtime.find("Fn"), json.dumps(event).encode())
    return result.function_error, json.loads(result.payload)


def test_a_built_function_runs_in_its_own_process_with_its_own_path_and_clock(runtime: LambdaRuntime) -> None:
    error, answer = _invoke(runtime, {})
    assert error is None, answer
    code_dir = str(runtime.find("Fn").code_dir)
    assert answer["now"] == START.isoformat()  # the sandbox's virtual clock, not the machine's
    assert answer["greeting"] == "hola" and answer["function"] == "Fn"
    assert answer["path0"] == code_dir and answer["cwd"] == code_dir
    root = str(Path(__file__).resolve().parents[2])
    assert not [p for p in answer["path"] if p in ("", root) or "layers/common" in p]  # type: ignore[union-attr]
    assert 0 < int(str(answer["remaining_ms"])) <= 2000
    runtime.clock.set(datetime(2030, 1, 8, tzinfo=UTC))
    assert _invoke(runtime, {})[1]["now"] == "2030-01-08T00:00:00+00:00"


def test_a_function_that_waits_sees_that_much_virtual_time_pass_and_the_next_starts_at_the_clock(
    runtime: LambdaRuntime,
) -> None:
    """The virtual instant stands still while an invocation runs, but for what the function waits: a
    retry waiting out a dead attempt's claim (15 s at a time) sees its lease end, as in Lambda, instead of
    giving up with the clock frozen. The next invocation starts at the sandbox's clock again."""
    error, answer = _invoke(runtime, {"do": "wait", "seconds": 0.25})
    assert error is None, answer
    assert answer["now"] == (START + timedelta(seconds=0.25)).isoformat()
    assert _invoke(runtime, {})[1]["now"] == START.isoformat()


def test_an_error_keeps_lambdas_shape_and_a_timeout_kills_the_process(runtime: LambdaRuntime) -> None:
    error, answer = _invoke(runtime, {"do": "fail"})
    assert error == "Unhandled"
    assert answer["errorType"] == "ValueError" and answer["errorMessage"] == "bad input"
    assert any("lambda_handler" in frame for frame in answer["stackTrace"])  # type: ignore[union-attr]
    error, answer = _invoke(runtime, {"do": "sleep", "seconds": 30})
    assert error == "Unhandled" and answer["errorType"] == "Sandbox.Timedout"
    error, answer = _invoke(runtime, {})  # a new process takes the killed one's place
    assert error is None and answer["greeting"] == "hola"


def test_a_process_killed_mid_invocation_is_an_exit_never_a_timeout(runtime: LambdaRuntime) -> None:
    """Its output ends before its time does: Runtime.ExitError, even before the dead process is reaped
    (it was once logged as timed out after the whole timeout, at the moment of the kill)."""
    for _ in range(10):
        error, answer = _invoke(runtime, {"do": "die"})
        assert error == "Unhandled" and answer["errorType"] == "Runtime.ExitError", answer
    assert _invoke(runtime, {})[0] is None


AWS_HANDLER = textwrap.dedent(
    """
    import boto3

    SQS = boto3.client("sqs")  # built at init, as the functions build theirs

    def lambda_handler(event, context):
        url = SQS.create_queue(QueueName=event["queue"])["QueueUrl"]
        SQS.send_message(QueueUrl=url, MessageBody="hello")
        try:
            SQS.get_queue_url(QueueName="no-such-queue")
        except SQS.exceptions.QueueDoesNotExist as err:
            missing = err.response["Error"]["Code"]
        return {"url": url, "missing": missing}
    """
)


def test_a_function_process_calls_the_sandboxs_moto_over_its_own_streams(tmp_path: Path) -> None:
    """A scaled-out function's AWS calls reach the moto of the sandbox's process without HTTP: here the
    server's listener is closed, so a request over HTTP would be refused, yet the calls are answered, errors
    in AWS's shape included, and counted and kept as the server's own."""
    from sandbox.aws_server import MotoServer, answer_forwarded

    server = MotoServer(in_process=True).start()
    server._server.shutdown()  # the listener goes; the server's state and its in-process answers stay
    server._server.server_close()
    spec = _function(tmp_path, AWS_HANDLER, timeout=20)
    aws = {"AWS_ENDPOINT_URL": server.url, "AWS_ACCESS_KEY_ID": "test", "AWS_SECRET_ACCESS_KEY": "test",
           "AWS_DEFAULT_REGION": "us-east-1", "SANDBOX_AWS_FORWARD": server.url}  # fmt: skip
    function = BuiltFunction(sys.executable, spec, lambda_environment(spec, aws), VirtualClock(START), answer_forwarded)
    runtime = LambdaRuntime({"Fn": spec}, VirtualClock(START), lambda arn, body: None, {"Fn": function})
    runtime.load()
    try:
        error, answer = _invoke(runtime, {"queue": "forwarded"})
        assert error is None, answer
        assert answer["missing"] == "AWS.SimpleQueueService.NonExistentQueue"
        assert server.calls["CreateQueue"] == 1 and server.calls["SendMessage"] == 1
        import boto3  # in this process, the same state

        sqs = boto3.client(
            "sqs", endpoint_url=server.url, region_name="us-east-1", aws_access_key_id="test", aws_secret_access_key="t"
        )
        body = sqs.receive_message(QueueUrl=str(answer["url"]))["Messages"][0]["Body"]
        assert body == "hello"
    finally:
        runtime.close()
        server.stop()


def test_what_a_handler_prints_is_written_at_once_even_if_its_process_is_then_killed(tmp_path: Path) -> None:
    """Powertools prints metrics to standard output. The worker points it at standard error, but `-I` ignores
    PYTHONUNBUFFERED, so a pipe kept the lines in the process's buffer and a process killed after its
    invocation (at the sandbox's stop, or a timeout) took them with it: fires run side by side lost `Fired`."""
    import subprocess

    from sandbox.built import WORKER

    spec = _function(tmp_path, 'def lambda_handler(event, context):\n    print("Fired 1")\n    return {}\n', 2)
    env = lambda_environment(spec, {})
    command = [sys.executable, "-I", str(WORKER), spec.handler, str(spec.code_dir)]
    worker = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    assert worker.stdin is not None and worker.stdout is not None and worker.stderr is not None
    assert json.loads(worker.stdout.readline())["ready"]
    request = {"event": {}, "function_arn": spec.arn, "timeout": 2, "request_id": "r-1", "now": None}
    worker.stdin.write((json.dumps(request) + "\n").encode())
    worker.stdin.flush()
    assert json.loads(worker.stdout.readline()) == {"value": {}}
    worker.kill()  # as a stop does, the invocation over
    worker.wait()
    assert "Fired 1" in worker.stderr.read().decode()


def test_a_function_run_in_the_sandboxs_process_sees_its_own_waiting_pass_and_no_other_does() -> None:
    """As a function process does: an invocation (a thread of its own) that waits sees that time pass on
    the virtual clock; the sandbox's instant, and every other invocation's, stand still."""
    clock = VirtualClock(START)
    seen: dict[str, datetime] = {}
    shared = _InvocationTime(clock)

    def invocation() -> None:
        shared.sleep(0.2)
        seen["after"] = shared.now()

    worker = threading.Thread(target=invocation)
    worker.start()
    worker.join()
    assert seen["after"] == START + timedelta(seconds=0.2)
    assert shared.now() == START and clock.now() == START
