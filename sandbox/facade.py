"""What the sandbox's HTTP server and console read and do: the running `Sandbox` (sandbox/app.py)
is one. They take this instead of importing the module that builds them, so the imports run one way
(app -> server -> ui -> ui_page -> ui_rooms, with the view's records in ui_view)."""

from __future__ import annotations

from typing import Any, Protocol

from sandbox.chat import SinkChat
from sandbox.clock import SandboxClock
from sandbox.engine import SchedulerEngine
from sandbox.lambda_api import LambdaRuntime
from sandbox.platforms import PlatformStandIns
from sandbox.stack import Deployment


class Settings(Protocol):
    timezone: str


class Running(Protocol):
    options: Any  # read for `timezone` (Settings)
    clock: SandboxClock
    runtime: LambdaRuntime | None
    engine: SchedulerEngine | None
    sink: SinkChat
    platforms: PlatformStandIns
    stack: Deployment | None
    lambda_endpoint: str
    ready: bool

    def client(self, service: str) -> Any: ...
    def call_tool(self, tool: str, arguments: dict[str, Any], context: dict[str, Any]) -> dict[str, Any]: ...
    def dead_letters(self) -> list[dict[str, Any]]: ...
    def now_iso(self) -> str: ...
    def move_clock(self, body: dict[str, Any]) -> tuple[int, dict[str, Any]]: ...
    def messages(self, room_id: str) -> list[dict[str, Any]]: ...
    def events(self, room_id: str) -> list[dict[str, Any]]: ...
    def info(self) -> dict[str, Any]: ...
