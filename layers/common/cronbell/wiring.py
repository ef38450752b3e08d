"""The composition root: adapters built from Settings once per process, reused across calls."""

from __future__ import annotations

import json
import logging
import os
import time
from functools import cache
from typing import Any

from cronbell.adapters import aws, clock
from cronbell.adapters.scheduler import SchedulerGateway
from cronbell.adapters.store import ScheduleStore
from cronbell.settings import Settings
from cronbell.usecases.deps import Deps


@cache
def settings() -> Settings:
    return Settings.from_env()


def _start_fire(s: Settings) -> Any:
    def start(event: dict[str, Any]) -> None:
        aws.client("lambda").invoke(
            FunctionName=s.fire_function_arn, InvocationType="Event", Payload=json.dumps(event).encode()
        )

    return start


@cache
def deps() -> Deps:
    s = settings()
    return Deps(
        settings=s,
        store=ScheduleStore(aws.client("dynamodb"), s.table_name, s.retention_days),
        scheduler=SchedulerGateway(
            aws.client("scheduler"),
            s.schedule_group,
            s.fire_function_arn,
            s.scheduler_role_arn,
            s.scheduler_dlq_arn,
        ),
        now=clock.now,
        start_fire=_start_fire(s) if s.fire_function_arn else None,
        sleep=time.sleep,
    )


def warm_up() -> None:
    """In Lambda, build the clients while the function initialises, not while the first caller
    waits. A failure is left to the first invocation, which builds them again and fails as usual."""
    if not os.environ.get("AWS_LAMBDA_FUNCTION_NAME"):
        return
    try:
        deps()
    except Exception:
        logging.getLogger(__name__).warning("clients not built at init; the first invocation will", exc_info=True)
