"""What the use cases are given: the ports and configuration, built once by `cronbell.wiring`."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from cronbell.core.domain import models
from cronbell.core.domain.ports import Agents, ChatSender, Entries, Events, Store
from cronbell.settings import Settings


def _no_chat() -> ChatSender:
    raise RuntimeError("no chat sender in these dependencies")


@dataclass
class Deps:
    settings: Settings
    store: Store
    scheduler: Entries
    now: Callable[[], datetime]
    new_id: Callable[[], str] = models.new_id
    # run_now: hands a fire event to the fire function asynchronously, as Scheduler would
    start_fire: Callable[[dict[str, Any]], None] | None = None
    sleep: Callable[[float], None] = field(default=lambda s: None)
    chat: Callable[[], ChatSender] = _no_chat  # built on first use: its token is fetched only then
    agents: Agents | None = None
    prompt_file: Callable[[str], str] = field(default=lambda name: "")  # a template under prompts/
    metric: Callable[[str, float], None] = field(default=lambda name, value: None)
    # a run's outcome counted by reason (Powertools Metrics: one dimension, the reason)
    run_metric: Callable[[str, str], None] = field(default=lambda outcome, reason: None)
    events: Events | None = None  # None: no bus configured
