"""Whole-table reads and repairs for the reconciler."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from cronbell.adapters.aws import AwsError
from cronbell.adapters.dynamo import codec
from cronbell.adapters.dynamo.codec import ROOM_SK, dump, key
from cronbell.adapters.dynamo.table import CANCELLED, Table
from cronbell.core import models
from cronbell.core.ports import Pointer, TableScan


class TableScans(Table):
    def scan(self, now: datetime) -> TableScan:
        """Every schedule in the table (TTL-expired ones left out), room counter and dedupe pointer."""
        found = TableScan()
        kwargs: dict[str, Any] = {"TableName": self._table}
        while True:
            out = self._db.scan(**kwargs)
            for raw in out.get("Items", []):
                room, sk = raw["room_id"]["S"], raw["sk"]["S"]
                if sk == ROOM_SK:
                    found.counters[room] = int(raw.get("live", {}).get("N", "0"))
                elif sk.startswith((codec.POINTER, codec.NAME)):
                    found.pointers.append(codec.pointer_from_item(raw))
                elif sk.startswith(codec.SCHEDULE) and not codec.is_expired(raw, now):
                    found.schedules.append(codec.schedule_from_item(raw))
            if "LastEvaluatedKey" not in out:
                return found
            kwargs["ExclusiveStartKey"] = out["LastEvaluatedKey"]

    def drop_pointer(self, pointer: Pointer) -> bool:
        """Remove a dedupe pointer whose schedule is no longer live, checked in the same
        transaction; False when it is live again or the pointer moved on."""
        try:
            self._transact(
                [
                    {
                        "ConditionCheck": {
                            "TableName": self._table,
                            "Key": key(pointer.room_id, codec.schedule_sk(pointer.schedule_id)),
                            "ConditionExpression": "attribute_not_exists(sk) OR NOT (#s IN (:active, :paused))",
                            "ExpressionAttributeNames": {"#s": "status"},
                            "ExpressionAttributeValues": dump({":active": models.ACTIVE, ":paused": models.PAUSED}),
                        }
                    },
                    {
                        "Delete": {
                            "TableName": self._table,
                            "Key": key(pointer.room_id, codec.pointer_sk(pointer)),
                            "ConditionExpression": "schedule_id = :id",
                            "ExpressionAttributeValues": dump({":id": pointer.schedule_id}),
                        }
                    },
                ]
            )
        except AwsError as err:
            if err.code == CANCELLED:
                return False
            raise
        return True
