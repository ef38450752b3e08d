"""What the use cases are given: adapters and configuration, built by `cronbell.wiring`."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from cronbell.adapters.scheduler import SchedulerGateway
from cronbell.adapters.store import ScheduleStore
from cronbell.core import models
from cronbell.settings import Settings


@dataclass
class Deps:
    settings: Settings
    store: ScheduleStore
    scheduler: SchedulerGateway
    now: Callable[[], datetime]
    new_id: Callable[[], str] = models.new_id
    # run_now: hands a fire event to the fire function asynchronously, as Scheduler would
    start_fire: Callable[[dict[str, Any]], None] | None = None
    sleep: Callable[[float], None] = field(default=lambda s: None)
