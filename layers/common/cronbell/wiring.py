"""The composition root: every function's dependencies (store, Scheduler, chat sender, agents,
clock, configuration) built once per execution environment and reused across invocations."""

from __future__ import annotations

import json
import logging
import os
from collections.abc import Callable
from dataclasses import replace
from datetime import datetime
from functools import cache
from pathlib import Path
from typing import Any

from cronbell.adapters import aws, clock
from cronbell.adapters.agents import LambdaAgents
from cronbell.adapters.dynamo import DynamoStore
from cronbell.adapters.events import BusEvents
from cronbell.adapters.scheduler import SchedulerGateway
from cronbell.core.text import texts
from cronbell.observability import count, count_run
from cronbell.settings import Settings
from cronbell.usecases.deps import Deps

# prompt templates ship with the fire function (its code root in Lambda)
_PROMPTS = Path(os.environ.get("LAMBDA_TASK_ROOT") or Path(__file__).resolve().parents[3] / "functions" / "fire")


@cache
def settings() -> Settings:
    """The deployment's settings; every sentence the process says from then on names only the tools of
    the set its bots show (`TOOL_SET`)."""
    s = Settings.from_env()
    texts.show_tool_set(s.tool_set)
    return s


def _start_fire(s: Settings, client: Callable[[str], Any]) -> Any:
    def start(event: dict[str, Any]) -> None:
        aws.translated(
            client("lambda").invoke,
            FunctionName=s.fire_function_arn,
            InvocationType="Event",
            Payload=json.dumps(event).encode(),
        )

    return start


@cache
def _prompt_file(name: str) -> str:
    """A prompt template shipped with the fire function (names are checked: no paths)."""
    return (_PROMPTS / "prompts" / Path(name).name).read_text(encoding="utf-8")


def build(
    s: Settings,
    client: Callable[[str], Any] = aws.client,
    now: Callable[[], datetime] = clock.now,
    **replaced: Any,
) -> Deps:
    """Every dependency of the use cases, from the settings and an AWS client factory. The functions
    use it through `deps()`; the integration tests build theirs with it too (their own clients and
    clock, and `replaced` for what they stand in for: the chat, the agents, sleeping, ...)."""
    built = Deps(
        settings=s,
        store=DynamoStore(client("dynamodb"), s.table_name, s.retention_days),
        scheduler=SchedulerGateway(
            aws.Lazy(lambda: client("scheduler")),
            s.schedule_group,
            s.fire_function_arn,
            s.scheduler_role_arn,
            s.scheduler_dlq_arn,
        ),
        now=now,
        start_fire=_start_fire(s, client) if s.fire_function_arn else None,
        sleep=clock.sleep,
        chat=cache(lambda: build_sender(s)),
        agents=LambdaAgents(s.agents),
        prompt_file=_prompt_file,
        metric=count,
        run_metric=count_run,
        # built at its first event: of the tool calls, only done_reminder announces one
        events=BusEvents(aws.Lazy(lambda: client("events")), s.event_bus_name) if s.event_bus_name else None,
    )
    return replace(built, **replaced) if replaced else built


@cache
def deps() -> Deps:
    return build(settings())


def warm_up() -> None:
    """In Lambda, build the clients while the function initialises, not while the first caller
    waits. A failure is left to the first invocation, which builds them again and fails as usual."""
    if not os.environ.get("AWS_LAMBDA_FUNCTION_NAME"):
        return
    try:
        deps()
    except Exception:
        logging.getLogger(__name__).warning("clients not built at init; the first invocation will", exc_info=True)


def build_sender(settings: Settings) -> Any:
    """The chat sender, its adapters imported when first built: the tools function never posts."""
    from cronbell.adapters.chat import build_sender as build

    return build(settings)
