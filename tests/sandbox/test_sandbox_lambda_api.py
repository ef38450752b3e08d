"""The sandbox's Lambda Invoke endpoint, driven by an unchanged boto3 lambda client."""

from __future__ import annotations

import base64
import json
import textwrap
import threading
import time
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import boto3
import pytest
from botocore.config import Config

from sandbox.clock import VirtualClock
from sandbox.lambda_api import LambdaRuntime
from sandbox.server import SandboxHTTPServer
from sandbox.stack import FunctionSpec

HANDLER = textwrap.dedent(
    """
    import time

    EVENTS = []

    def lambda_handler(event, context):
        EVENTS.append(event)
        action = event.get("do")
        if action == "fail":
            raise ValueError("bad input: " + str(event.get("why")))
        if action == "sleep":
            time.sleep(event["seconds"])
        if action == "context":
            cc = context.client_context
            return {
                "function_name": context.function_name,
                "arn": context.invoked_function_arn,
                "memory": context.memory_limit_in_mb,
                "remaining": context.get_remaining_time_in_millis(),
                "request_id": context.aws_request_id,
                "custom": cc.custom if cc else None,
                "env": cc.env if cc else None,
                "app_title": cc.client.app_title if cc and cc.client else None,
            }
        return {"echo": event}
    """
)


@pytest.fixture
def endpoint(tmp_path: Path) -> Iterator[tuple[Any, list[tuple[str, str]], LambdaRuntime]]:
    (tmp_path / "app.py").write_text(HANDLER, encoding="utf-8")
    spec = FunctionSpec(
        logical_id="ToolsFunction",
        name="ToolsFunction",
        arn="arn:aws:lambda:us-east-1:123456789012:function:ToolsFunction",
        code_dir=tmp_path,
        handler="app.lambda_handler",
        timeout=1,
        memory=256,
        environment={},
        max_retry_attempts=2,
        on_failure_arn="arn:aws:sqs:us-east-1:123456789012:dlq",
        aliases=("live",),
    )
    dead_letters: list[tuple[str, str]] = []
    runtime = LambdaRuntime(
        {"ToolsFunction": spec},
        VirtualClock(datetime(2030, 1, 1, tzinfo=UTC)),
        lambda arn, body: dead_letters.append((arn, body)),
    )
    runtime.load()
    server = SandboxHTTPServer(0, SimpleNamespace(runtime=runtime, ready=True))  # type: ignore[arg-type]
    threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True).start()
    client = boto3.client(
        "lambda",
        endpoint_url=f"http://127.0.0.1:{server.server_address[1]}",
        region_name="us-east-1",
        aws_access_key_id="test",
        aws_secret_access_key="test",
        config=Config(retries={"max_attempts": 1}, read_timeout=10),
    )
    yield client, dead_letters, runtime
    server.shutdown()
    server.server_close()


def test_sync_invoke_by_name_and_by_arn(endpoint: Any) -> None:
    client, _, _ = endpoint
    for name in ("ToolsFunction", "arn:aws:lambda:us-east-1:123456789012:function:ToolsFunction"):
        answer = client.invoke(FunctionName=name, Payload=json.dumps({"tool": "x"}))
        assert answer["StatusCode"] == 200
        assert "FunctionError" not in answer
        assert json.load(answer["Payload"]) == {"echo": {"tool": "x"}}


def test_unhandled_error_has_lambdas_header_and_shape(endpoint: Any) -> None:
    client, _, _ = endpoint
    answer = client.invoke(FunctionName="ToolsFunction", Payload=json.dumps({"do": "fail", "why": "nope"}))
    assert answer["StatusCode"] == 200
    assert answer["FunctionError"] == "Unhandled"
    body = json.load(answer["Payload"])
    assert body["errorType"] == "ValueError"
    assert body["errorMessage"] == "bad input: nope"
    assert any("lambda_handler" in frame for frame in body["stackTrace"])


def test_a_payload_nested_deeper_than_the_runtime_parses_is_its_unmarshal_error(endpoint: Any) -> None:
    """JSON nested 5,000 deep: Lambda takes it and Python's runtime cannot read it (Runtime.UnmarshalError);
    the sandbox answered 500 and dropped the connection. The next call on the same client still works."""
    client, _, _ = endpoint
    deep = b'{"tool": ' + b"[" * 5000 + b"]" * 5000 + b"}"
    answer = client.invoke(FunctionName="ToolsFunction", Payload=deep)
    assert answer["StatusCode"] == 200 and answer["FunctionError"] == "Unhandled"
    assert json.load(answer["Payload"])["errorType"] == "Runtime.UnmarshalError"
    assert json.load(client.invoke(FunctionName="ToolsFunction", Payload=b'{"tool": "x"}')["Payload"]) == {
        "echo": {"tool": "x"}
    }


def test_context_and_client_context(endpoint: Any) -> None:
    client, _, _ = endpoint
    client_context = {
        "custom": {"bedrockAgentCoreToolName": "cronbell___list_reminders"},
        "env": {"locale": "es"},
        "client": {"app_title": "bot"},
    }
    answer = client.invoke(
        FunctionName="ToolsFunction",
        Payload=json.dumps({"do": "context"}),
        ClientContext=base64.b64encode(json.dumps(client_context).encode()).decode(),
    )
    body = json.load(answer["Payload"])
    assert body["function_name"] == "ToolsFunction"
    assert body["arn"].endswith(":function:ToolsFunction")
    assert body["memory"] == "256"
    assert 0 < body["remaining"] <= 1000
    assert body["request_id"]
    assert body["custom"] == client_context["custom"]
    assert body["env"] == {"locale": "es"}
    assert body["app_title"] == "bot"


def test_an_alias_reaches_its_function_and_an_alias_it_lacks_is_not_found(endpoint: Any) -> None:
    """What Scheduler's entries and the tools invoke: the alias ARN (`...:function:NAME:live`), or the name
    with boto3's Qualifier; `$LATEST` and a version too. An alias the function lacks: Lambda's 404."""
    client, _, _ = endpoint
    arn = "arn:aws:lambda:us-east-1:123456789012:function:ToolsFunction"
    for name, qualifier in ((f"{arn}:live", None), ("ToolsFunction", "live"), (f"{arn}:$LATEST", None), (arn, "3")):
        extra = {"Qualifier": qualifier} if qualifier else {}
        answer = client.invoke(FunctionName=name, Payload=json.dumps({"tool": "x"}), **extra)
        assert json.load(answer["Payload"]) == {"echo": {"tool": "x"}}, name
    for name, qualifier in ((f"{arn}:canary", None), ("ToolsFunction", "canary")):
        extra = {"Qualifier": qualifier} if qualifier else {}
        with pytest.raises(client.exceptions.ResourceNotFoundException):
            client.invoke(FunctionName=name, Payload=b"{}", **extra)


def test_unknown_function_is_resource_not_found(endpoint: Any) -> None:
    client, _, _ = endpoint
    with pytest.raises(client.exceptions.ResourceNotFoundException):
        client.invoke(FunctionName="NoSuchFunction", Payload=b"{}")


def test_timeout_is_an_unhandled_error(endpoint: Any) -> None:
    client, _, _ = endpoint
    answer = client.invoke(FunctionName="ToolsFunction", Payload=json.dumps({"do": "sleep", "seconds": 1.5}))
    assert answer["FunctionError"] == "Unhandled"
    assert "Task timed out after 1.00 seconds" in json.load(answer["Payload"])["errorMessage"]


def test_event_invocation_answers_202_then_retries_and_dead_letters(endpoint: Any) -> None:
    client, dead_letters, runtime = endpoint
    answer = client.invoke(
        FunctionName="ToolsFunction",
        InvocationType="Event",
        Payload=json.dumps({"do": "fail", "why": "async"}),
    )
    assert answer["StatusCode"] == 202
    runtime.wait_background()
    # Lambda's spacing, on the sandbox's clock: the second attempt a minute on, the third two more
    start = runtime.clock.now()
    for attempt, later in ((2, 60), (3, 180)):
        assert not dead_letters
        due = runtime.next_retry()
        assert due == start + timedelta(seconds=later)
        assert runtime.due_retries(due - timedelta(seconds=1)) == []  # never before its time
        runtime.clock.set(due)
        (pending,) = runtime.due_retries(due)
        assert pending.attempt == attempt
        runtime.retry(pending)
    assert runtime.next_retry() is None
    ((arn, body),) = dead_letters
    assert arn == "arn:aws:sqs:us-east-1:123456789012:dlq"
    record = json.loads(body)
    assert record["requestContext"]["approximateInvokeCount"] == 3
    assert record["requestPayload"] == {"do": "fail", "why": "async"}
    assert record["responseContext"]["functionError"] == "Unhandled"


def test_concurrent_invocations_run_in_parallel(endpoint: Any) -> None:
    client, _, _ = endpoint
    began = time.monotonic()
    threads = [
        threading.Thread(
            target=client.invoke,
            kwargs={"FunctionName": "ToolsFunction", "Payload": json.dumps({"do": "sleep", "seconds": 0.4})},
        )
        for _ in range(4)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert time.monotonic() - began < 1.2  # serial would take 1.6 s
