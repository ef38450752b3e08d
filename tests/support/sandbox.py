"""What the end-to-end tests drive the sandbox with: a bot on the tools contract, over boto3 and HTTP."""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

import boto3

from sandbox.demo import SandboxProcess
from tests.support.envelopes import envelope


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
