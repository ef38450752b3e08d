"""The DynamoDB single-table store, composed of parts that each hold the one `table.Table` and
each implement one port of `cronbell.core.domain.ports` in full:

  schedules.Schedules   the room's schedules (with rooms.Rooms: its count and pointers)
  retirement.Retirement a schedule retired with its slot and run, in one transaction, or moved
  ledger.SlotLedger     the delivery slots and their runs (with claims.SlotClaims: a slot's claim)
  repeats.RepeatLedger  an occurrence's repeats, its escalation and its acknowledgement
  scans.TableScans      the reconciler's reads and repairs
  quiet.QuietStore      each user's quiet hours in a room
  held.HeldStore        occurrences held by quiet hours and their release

`DynamoStore` is these parts at once (it inherits each), so every port method is the part's own
and a part reaches another's (a retirement frees the room's place) on `self`. `codec` owns every
item's shape and `expressions` builds their update expressions. Every failure reaches callers as a
domain error."""

from __future__ import annotations

from typing import Any

from cronbell.adapters.dynamo.held import HeldStore
from cronbell.adapters.dynamo.ledger import SlotLedger
from cronbell.adapters.dynamo.quiet import QuietStore
from cronbell.adapters.dynamo.repeats import RepeatLedger
from cronbell.adapters.dynamo.scans import TableScans
from cronbell.adapters.dynamo.schedules import Schedules
from cronbell.adapters.dynamo.table import Table


class DynamoStore(Schedules, SlotLedger, RepeatLedger, TableScans, QuietStore, HeldStore):
    """The `cronbell.core.domain.ports.Store` on one DynamoDB table."""

    def __init__(self, client: Any, table: str, retention_days: int) -> None:
        self.table = Table(client, table, retention_days)
        super().__init__(self.table)


__all__ = ["DynamoStore"]
