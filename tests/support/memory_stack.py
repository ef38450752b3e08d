"""The use cases on the in-memory store, with no AWS at all: tool calls and fires write the store
only (the projector, which writes Scheduler from the table's stream, is not part of them), so their
Deps get a Scheduler that refuses every call."""

from __future__ import annotations

import itertools
import json
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Any

from cronbell.adapters.memory import MemoryStore
from cronbell.core.domain.fire_event import parse_fire_event
from cronbell.core.domain.ports import EntryState
from cronbell.core.domain.projection import Target
from cronbell.settings import Settings
from cronbell.usecases import fire as fire_uc
from cronbell.usecases import tools
from cronbell.usecases.deps import Deps
from tests.support.aws import FIRE_ARN, GROUP, ROLE_ARN, START, TABLE, FakeClock
from tests.support.chat import RecordingChat
from tests.support.envelopes import ROOM, envelope


def _spelled(n: int) -> str:
    """The n-th id, in the ids' own alphabet and length: deterministic, unlike `models.new_id`."""
    digits = "23456789abcdefghjkmnpqrstuvwxyz"
    out = ""
    while n:
        n, d = divmod(n, len(digits))
        out = digits[d] + out
    return out.rjust(10, "m")


class NoScheduler:
    """Scheduler entries are the projector's to write: a use case that reaches for them fails."""

    def _refuse(self, *args: Any, **kwargs: Any) -> Any:
        raise AssertionError("a use case called Scheduler: entries are written by the projection alone")

    def put(self, target: Target, now: datetime, exists: bool = True) -> None:
        self._refuse()

    def drift(self, target: Target) -> str:
        return str(self._refuse())

    def written_at(self, name: str) -> datetime | None:
        return self._refuse()  # type: ignore[no-any-return]

    def list_entries(self) -> list[EntryState]:
        return list(self._refuse())

    def delete_if_fires(self, name: str, room_id: str, schedule_id: str) -> bool:
        return bool(self._refuse())

    def delete(self, name: str) -> bool:
        return bool(self._refuse())


@dataclass
class MemoryStack:
    """One deployment's use cases on a MemoryStore and a settable clock."""

    clock: FakeClock = field(default_factory=lambda: FakeClock(START))
    store: MemoryStore = field(default_factory=MemoryStore)
    chat: RecordingChat = field(default_factory=RecordingChat)
    started: list[dict[str, Any]] = field(default_factory=list)  # fire events run_now handed on
    settings: Settings = field(
        default_factory=lambda: Settings(
            table_name=TABLE,
            schedule_group=GROUP,
            fire_function_arn=FIRE_ARN,
            scheduler_role_arn=ROLE_ARN,
            default_timezone="UTC",
        )
    )

    def __post_init__(self) -> None:
        ids = (_spelled(n) for n in itertools.count(1))
        self._new_id = lambda: next(ids)

    def deps(self, **overrides: Any) -> Deps:
        built = Deps(
            settings=self.settings,
            store=self.store,
            scheduler=NoScheduler(),
            now=self.clock.now,
            new_id=self._new_id,
            start_fire=self.started.append,
            chat=lambda: self.chat,
        )
        return replace(built, **overrides) if overrides else built

    def call(self, tool: str, args: dict[str, Any] | None = None, **kw: Any) -> dict[str, Any]:
        answer = tools.handle(envelope(tool, args, **kw), self.deps())
        json.dumps(answer)  # always JSON
        return answer

    def fire(self, schedule_id: str, slot: str, room: str = ROOM) -> dict[str, Any]:
        """Fire a schedule for `slot` as Scheduler would, the clock moved to the slot if behind."""
        return self.fire_event({"room_id": room, "reminder_id": schedule_id, "scheduled_time": slot})

    def fire_event(self, event: dict[str, Any]) -> dict[str, Any]:
        slot = datetime.fromisoformat(str(event["scheduled_time"]).replace("Z", "+00:00"))
        if self.clock.now() < slot:
            self.clock.current = slot
        return fire_uc.fire(parse_fire_event(event, self.clock.now()), self.deps(), lambda: 300.0)
