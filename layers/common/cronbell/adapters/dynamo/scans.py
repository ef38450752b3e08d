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

    def move_retired(self, room_id: str, schedule_id: str) -> bool:
        """Move a schedule retired under its live key (as deletes and fires did before retired
        schedules had keys of their own) to its retired key, attributes and TTL as they are, so the
        room's listing stops reading it. False when it is live (again) or changed meanwhile."""
        out = self._db.get_item(
            TableName=self._table, Key=key(room_id, codec.schedule_sk(schedule_id)), ConsistentRead=True
        )
        raw = out.get("Item")
        if raw is None or raw.get("status", {}).get("S") in models.LIVE_STATUSES:
            return False
        unchanged = {":s": raw["status"], ":v": raw.get("version", {"N": "0"})}
        try:
            self._transact(
                [
                    {
                        "Delete": {
                            "TableName": self._table,
                            "Key": key(room_id, codec.schedule_sk(schedule_id)),
                            "ConditionExpression": "#s = :s AND (attribute_not_exists(version) OR version = :v)",
                            "ExpressionAttributeNames": {"#s": "status"},
                            "ExpressionAttributeValues": unchanged,
                        }
                    },
                    {"Put": {"TableName": self._table, "Item": {**raw, "sk": {"S": codec.retired_sk(schedule_id)}}}},
                ]
            )
        except AwsError as err:
            if err.code == CANCELLED:
                return False
            raise
        return True

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
