"""The store kept in memory: the ports of `cronbell.core.domain.ports` with the DynamoDB store's
semantics (versions and conditional writes, the room's count and keys, slot claims and their
leases, runs, quiet hours), for tests and tools that need no table. Deterministic: it reads no
clock (every time comes from its caller) and hands out copies, never the objects it keeps.

The room's count is kept as the table keeps it: an upper bound that a user's delete leaves high and
a create that finds the room full recounts. The reconciler's scans are not kept here yet: they raise
NotImplementedError."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import TYPE_CHECKING, Any, NoReturn

from cronbell.adapters.memory.ledger import SlotLedger
from cronbell.adapters.memory.quiet import QuietStore
from cronbell.adapters.memory.repeats import RepeatLedger
from cronbell.core.domain.models import Schedule
from cronbell.core.domain.ports import OpenClaim, Pointer, Store, TableScan
from cronbell.core.domain.runs import Run


class MemoryStore(SlotLedger, RepeatLedger, QuietStore):
    """Every port of the store on dictionaries."""

    # --- not kept in memory yet ----------------------------------------------------------------
    def _absent(self, port: str) -> NoReturn:
        raise NotImplementedError(f"the in-memory store does not keep {port} yet")

    def scan(self, now: datetime) -> TableScan:
        self._absent("scans")

    def move_retired(self, room_id: str, schedule_id: str, image: Mapping[str, Any] | None = None) -> bool:
        self._absent("scans")

    def finalize_deleted(self, schedule: Schedule, now: datetime) -> bool:
        self._absent("scans")

    def copy_audit(self, schedule: Schedule) -> bool:
        self._absent("scans")

    def drop_pointer(self, pointer: Pointer) -> bool:
        self._absent("scans")

    def close_claim(self, claim: OpenClaim, now: datetime, run: Run, schedule: Schedule | None) -> bool:
        self._absent("scans")


if TYPE_CHECKING:  # the type checker holds it to every port of the store
    _conforms: Store = MemoryStore()


__all__ = ["MemoryStore"]
