"""The DynamoDB single-table store, split by concern: `codec` (keys, items <-> domain values),
`schedules` (schedules, room counts, dedupe pointers), `slots` (the delivery ledger) and
`scans` (the reconciler's reads). Every failure reaches callers as a domain error."""

from __future__ import annotations

from cronbell.adapters.dynamo.scans import TableScans
from cronbell.adapters.dynamo.slots import SlotLedger


class DynamoStore(SlotLedger, TableScans):
    """The `cronbell.core.ports.Store` on one DynamoDB table."""


__all__ = ["DynamoStore"]
