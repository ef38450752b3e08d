"""What the end-to-end tests drive the sandbox with: a bot on the tools contract, over boto3 and HTTP."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import boto3

from sandbox.demo import SandboxProcess
from tests.support.envelopes import envelope

ROOT = Path(__file__).resolve().parents[2]


class Bot:
    """A chat bot's code: the tools contract over `lambda:Invoke`, with its own room and user."""

    def __init__(
        self,
        sandbox: SandboxProcess,
        room_id: str,
        user_id: str = "@ana:localhost",
        thread_id: str = "",
        **context: str,
    ) -> None:
        self.sandbox = sandbox
        self.lambda_client = sandbox.lambda_client()
        self.room_id = room_id
        self.user_id = user_id
        self.thread_id = thread_id  # the thread the conversation is in ("" = the main timeline)
        self.context = context  # the rest of the bot's context: platform, team_id

    def call(self, tool: str, locale: str = "en", timezone: str = "Europe/Madrid", **arguments: Any) -> dict[str, Any]:
        event = envelope(tool, arguments, room=self.room_id, user=self.user_id, timezone=timezone, locale=locale)
        if self.thread_id:
            event["context"]["thread_id"] = self.thread_id
        event["context"].update(self.context)
        answer = self.lambda_client.invoke(FunctionName="ToolsFunction", Payload=json.dumps(event).encode())
        assert "FunctionError" not in answer, answer["Payload"].read()
        body: dict[str, Any] = json.load(answer["Payload"])
        return body

    def create(self, **arguments: Any) -> str:
        body = self.call("create_reminder", **arguments)
        assert body["ok"], body
        schedule_id: str = body["result"]["id"]
        return schedule_id

    def messages(self) -> list[dict[str, Any]]:
        return self.sandbox.messages(self.room_id)

    def advance(self, seconds: float) -> list[dict[str, Any]]:
        fired: list[dict[str, Any]] = self.sandbox.post("/_sandbox/clock", {"advance_seconds": seconds})["fired"]
        return fired

    def scheduler_client(self) -> Any:
        return boto3.client(
            "scheduler",
            endpoint_url=f"http://127.0.0.1:{self.sandbox.aws_port}",
            region_name="us-east-1",
            aws_access_key_id="test",
            aws_secret_access_key="test",
        )


def instant(text: str) -> datetime:
    return datetime.fromisoformat(text.replace("Z", "+00:00")).astimezone(UTC)


StartSandbox = Callable[..., SandboxProcess]


def aws_client(service: str, aws_url: str) -> Any:
    """A boto3 client of the sandbox's moto server."""
    return boto3.client(
        service, endpoint_url=aws_url, region_name="us-east-1", aws_access_key_id="test", aws_secret_access_key="test"
    )


def stand_in_stack(aws_url: str, name: str, outputs: dict[str, str]) -> None:
    """A stack in the sandbox's CloudFormation whose outputs name the sandbox's resources, as a deployed stack's
    name its own: what the scripts run against a stack (`make smoke`, `make redrive`) read."""
    template = {
        "Resources": {"StandIn": {"Type": "AWS::SQS::Queue", "Properties": {"QueueName": f"{name}-stand-in"}}},
        "Outputs": {key: {"Value": value} for key, value in outputs.items()},
    }
    aws_client("cloudformation", aws_url).create_stack(StackName=name, TemplateBody=json.dumps(template))


def run_script(script: str, sandbox: SandboxProcess, *args: str) -> subprocess.CompletedProcess[str]:
    """scripts/<script> as a team runs it against a stack, with the sandbox for AWS and its Lambda endpoint."""
    aws_url = f"http://127.0.0.1:{sandbox.aws_port}"
    env = {
        **os.environ,
        "AWS_ENDPOINT_URL": aws_url,
        "AWS_ENDPOINT_URL_LAMBDA": sandbox.url,
        "AWS_ACCESS_KEY_ID": "test",
        "AWS_SECRET_ACCESS_KEY": "test",
        "AWS_DEFAULT_REGION": "us-east-1",
    }
    env.pop("AWS_PROFILE", None)
    command = [sys.executable, f"scripts/{script}", *args]
    return subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=300, check=False)
