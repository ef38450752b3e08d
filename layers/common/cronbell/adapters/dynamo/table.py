"""The table every store part holds: its client (whose failures arrive as AwsError), its name, its
retention, and transactions whose cancellation reasons are read by item identity."""

from __future__ import annotations

import time
from datetime import datetime, timedelta
from typing import Any

from cronbell.adapters.aws import AwsError, Translating
from cronbell.adapters.dynamo.codec import Key, epoch, identity

_CONFLICT_PAUSE_SECONDS = 0.05  # times the attempt number
_CONFLICT_ATTEMPTS = 4
CANCELLED = "TransactionCanceledException"
CONDITION_FAILED = "ConditionalCheckFailedException"
ITEM_CONFLICT = "TransactionConflictException"  # a single-item write met a transaction on the same item


def cancelled(err: AwsError, items: list[dict[str, Any]]) -> dict[Key, dict[str, Any]]:
    """The items whose condition failed in a cancelled transaction, by identity, each with the
    item as it was (when the write asked for it). Empty when the transaction was not cancelled
    by a condition. DynamoDB lists the reasons in the order of the request's items."""
    if err.code != CANCELLED:
        return {}
    reasons = err.response.get("CancellationReasons") or []
    return {
        identity(item): reason.get("Item") or {}
        for item, reason in zip(items, reasons, strict=False)
        if reason.get("Code") == "ConditionalCheckFailed"
    }


def _only_conflicts(err: AwsError) -> bool:
    codes = {r.get("Code") for r in err.response.get("CancellationReasons") or []}
    return err.code == CANCELLED and codes <= {"None", "TransactionConflict"} and "TransactionConflict" in codes


class Table:
    """One DynamoDB table: the schedules, the ledger and the scans each hold it."""

    def __init__(self, client: Any, name: str, retention_days: int) -> None:
        self.db = Translating(client)
        self.name = name
        self.retention = timedelta(days=retention_days)

    def expires(self, now: datetime) -> int:
        """The TTL (epoch seconds) of an item retired or recorded at `now`."""
        return epoch(now + self.retention)

    def transact(self, items: list[dict[str, Any]]) -> None:
        """TransactWriteItems, run again after a pause while DynamoDB cancels it only because
        another transaction is writing one of the same items (TransactionConflict): two fires of
        one slot at once, or creates racing in one room."""
        for attempt in range(1, _CONFLICT_ATTEMPTS + 1):
            try:
                self.db.transact_write_items(TransactItems=items)
                return
            except AwsError as err:
                if attempt == _CONFLICT_ATTEMPTS or not _only_conflicts(err):
                    raise
            time.sleep(_CONFLICT_PAUSE_SECONDS * attempt)

    def update(self, **request: Any) -> None:
        """UpdateItem, run again after a pause while DynamoDB refuses it only because a transaction
        is writing the same item (TransactionConflictException): a claim meeting another's record."""
        for attempt in range(1, _CONFLICT_ATTEMPTS + 1):
            try:
                self.db.update_item(TableName=self.name, **request)
                return
            except AwsError as err:
                if attempt == _CONFLICT_ATTEMPTS or err.code != ITEM_CONFLICT:
                    raise
            time.sleep(_CONFLICT_PAUSE_SECONDS * attempt)

    def try_transact(self, items: list[dict[str, Any]]) -> bool:
        """A conditional repair; False when a condition failed (something changed meanwhile)."""
        try:
            self.transact(items)
        except AwsError as err:
            if err.code == CANCELLED:
                return False
            raise
        return True

    def get(self, key: dict[str, Any]) -> dict[str, Any] | None:
        """One item, read strongly consistent (raw), or None."""
        out = self.db.get_item(TableName=self.name, Key=key, ConsistentRead=True)
        item: dict[str, Any] | None = out.get("Item")
        return item

    def get_many(self, keys: list[dict[str, Any]]) -> dict[tuple[str, str], dict[str, Any]]:
        """Several items (at most 100) in one BatchGetItem, each read strongly consistent, by
        (room, sort key); an item not found is left out. Keys DynamoDB leaves unprocessed (throttled)
        are asked for again."""
        found: dict[tuple[str, str], dict[str, Any]] = {}
        request: dict[str, Any] = {self.name: {"Keys": keys, "ConsistentRead": True}}
        while request:
            out = self.db.batch_get_item(RequestItems=request)
            for item in out.get("Responses", {}).get(self.name, []):
                found[(item["room_id"]["S"], item["sk"]["S"])] = item
            request = out.get("UnprocessedKeys") or {}
        return found

    def query_all(self, **kwargs: Any) -> list[dict[str, Any]]:
        """Every item of a query, page after page."""
        items: list[dict[str, Any]] = []
        while True:
            out = self.db.query(TableName=self.name, **kwargs)
            items += out.get("Items", [])
            if "LastEvaluatedKey" not in out:
                return items
            kwargs["ExclusiveStartKey"] = out["LastEvaluatedKey"]


class Part:
    """One concern of the store on the shared table. `DynamoStore` inherits every part, so each
    port method is the part's own and the parts call one another's methods on `self`."""

    def __init__(self, table: Table) -> None:
        self._t = table
