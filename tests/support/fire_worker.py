"""A fire function process that is killed with SIGKILL at a chosen point, as Lambda's runtime is
when it runs out of memory: no `except`, no `finally`, nothing after the kill runs.

Run as `python -m tests.support.fire_worker '<json>'` with the moto endpoint, the settings, the
fake time, the fire Input, the chat file and where to die: "claim" (after the slot is claimed,
before the post), "post" (right after the post, before it is recorded) or "call:N" (right after the
fire's DynamoDB call number N, counted from 0, returned). Tests start it with `kill_a_worker`.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from dataclasses import asdict
from pathlib import Path
from typing import Any

from cronbell.adapters.chat.base import ChatMessage
from cronbell.core.domain.fire_event import parse_fire_event
from cronbell.core.domain.instants import parse_iso
from cronbell.settings import Settings
from cronbell.usecases import fire
from tests.support.aws import ROOT, FakeClock, Stack, set_aws_env
from tests.support.lambda_timing import FileChat, remaining_on


def die() -> None:
    os.kill(os.getpid(), signal.SIGKILL)


class EchoAgents:
    configured = True

    def call(self, agent_id: str, request: dict[str, Any], timeout_seconds: int) -> str:
        return f"echo: {request['prompt']}"


class DyingChat(FileChat):
    def __init__(self, path: Path, at: str) -> None:
        super().__init__(path)
        self.at = at

    def send(self, message: ChatMessage, idempotency_key: str, deadline: float | None = None) -> str:
        if self.at == "claim":
            die()
        out = super().send(message, idempotency_key, deadline)
        if self.at == "post":
            die()
        return out


class DyingClient:
    """A DynamoDB client whose process dies right after its call number `after` returned."""

    def __init__(self, client: Any, after: int) -> None:
        self._client = client
        self._after = after
        self._calls = 0

    def __getattr__(self, name: str) -> Any:
        attr = getattr(self._client, name)
        if name in ("meta", "exceptions", "get_paginator") or not callable(attr):
            return attr

        def call(*args: Any, **kwargs: Any) -> Any:
            out = attr(*args, **kwargs)
            self._calls += 1
            if self._calls > self._after:
                die()
            return out

        return call


def stack_spec(stack: Stack, **more: Any) -> str:
    """A worker's argument: this stack's endpoint and settings at its current (fake) time, and `more`."""
    now = stack.clock.now().isoformat()
    return json.dumps({"endpoint": stack.endpoint, "settings": asdict(stack.settings), "now": now, **more}, default=str)


def stack_of(args: dict[str, Any]) -> Stack:
    """The stack a worker's argument names, on its own clients, at the time it says."""
    set_aws_env(args["endpoint"])
    settings = Settings(**{k: tuple(v) if isinstance(v, list) else v for k, v in args["settings"].items()})
    return Stack(endpoint=args["endpoint"], clock=FakeClock(parse_iso(args["now"])), settings=settings)


def run_worker(module: str, argument: str, ends: tuple[int, ...]) -> int:
    """Run `python -m module argument` with the layer importable; its exit code, which must be in `ends`
    (a negative code: the signal that killed it)."""
    env = {**os.environ, "PYTHONPATH": f"{ROOT / 'layers' / 'common'}{os.pathsep}{ROOT}"}
    done = subprocess.run([sys.executable, "-m", module, argument], cwd=ROOT, env=env, capture_output=True, timeout=120)
    assert done.returncode in ends, done.stderr.decode()[-2000:]
    return done.returncode


def kill_a_worker(stack: Stack, event: dict[str, Any], chat: Path, at: str) -> None:
    """Run one worker process for this fire Input and check that it died of SIGKILL where told."""
    run_worker("tests.support.fire_worker", stack_spec(stack, event=event, chat=str(chat), at=at), (-signal.SIGKILL,))


def main(raw: str) -> None:
    args = json.loads(raw)
    stack = stack_of(args)
    clock = stack.clock
    chat = DyingChat(Path(args["chat"]), args["at"])
    if args["at"].startswith("call:"):
        stack.ddb = DyingClient(stack.ddb, int(args["at"].removeprefix("call:")))
    deps = stack.deps(chat=lambda: chat, agents=EchoAgents())
    fire.fire(parse_fire_event(args["event"], clock.now()), deps, remaining_seconds=remaining_on(clock))
    sys.exit(3)  # never reached: the worker dies inside the fire


if __name__ == "__main__":
    main(sys.argv[1])
