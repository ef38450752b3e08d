"""Whole-table reads and repairs for the reconciler."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from cronbell.adapters.aws import AwsError
from cronbell.adapters.dynamo import codec
from cronbell.adapters.dynamo.codec import BUMP, INFLIGHT, ROOM_SK, dump, key
from cronbell.adapters.dynamo.table import CANCELLED, Table
from cronbell.core import models
from cronbell.core.instants import iso_utc
from cronbell.core.models import Schedule
from cronbell.core.ports import OpenClaim, Pointer, TableScan
from cronbell.core.runs import DELIVERED, Run


class TableScans(Table):
    def scan(self, now: datetime) -> TableScan:
        """Every schedule under its live key (TTL-expired ones left out), room counter and dedupe
        pointer; the audit copies that still say live with no live item beside them (deleted by a
        user), and the live schedules that have no audit copy yet (written before there were).

        Also the slots still claimed (open claims). Done slots hold the runs, most of a table and none
        of this: the filter leaves them on the server (they are still read, and paid for, but neither
        sent nor parsed)."""
        found = TableScan()
        copies: dict[codec.Key, dict[str, Any]] = {}  # audit copies that still say live
        audited: set[codec.Key] = set()
        kwargs: dict[str, Any] = {
            "TableName": self._table,
            "FilterExpression": "NOT (begins_with(sk, :slot) AND #st = :done)",
            "ExpressionAttributeNames": {"#st": "state"},
            "ExpressionAttributeValues": dump({":slot": codec.SLOT, ":done": codec.DONE}),
        }
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
                elif sk.startswith(codec.SLOT):
                    if (claim := codec.claim_from_item(raw)) is not None:
                        found.claims.append(claim)
                elif sk.startswith(codec.RETIRED):
                    audited.add((room, sk[len(codec.RETIRED) :]))
                    if raw.get("status", {}).get("S") in models.LIVE_STATUSES:
                        copies[(room, sk[len(codec.RETIRED) :])] = raw
            if "LastEvaluatedKey" not in out:
                break
            kwargs["ExclusiveStartKey"] = out["LastEvaluatedKey"]
        under_live = {(s.room_id, s.id) for s in found.schedules}
        found.deleted = [codec.schedule_from_item(raw) for k, raw in copies.items() if k not in under_live]
        found.uncopied = [
            s for s in found.schedules if s.status in models.LIVE_STATUSES and (s.room_id, s.id) not in audited
        ]
        return found

    def finalize_deleted(self, schedule: Schedule, now: datetime) -> bool:
        """Mark the audit copy of a schedule a user deleted as deleted, with its retention TTL,
        checked in the same transaction to have no live item (a scan may see a copy before the
        live item a create wrote beside it). False when that changed meanwhile."""
        room = schedule.room_id
        return self._try(
            [
                {
                    "ConditionCheck": {
                        "TableName": self._table,
                        "Key": key(room, codec.schedule_sk(schedule.id)),
                        "ConditionExpression": "attribute_not_exists(sk)",
                    }
                },
                {
                    "Update": {
                        "TableName": self._table,
                        "Key": key(room, codec.retired_sk(schedule.id)),
                        "UpdateExpression": "SET #s = :d, expires_at = :e, updated_at = :t, version = :next",
                        "ConditionExpression": "version = :v AND #s IN (:active, :paused)",
                        "ExpressionAttributeNames": {"#s": "status"},
                        "ExpressionAttributeValues": dump(
                            {
                                ":d": models.DELETED,
                                ":e": codec.epoch(now + self._retention),
                                ":t": iso_utc(now),
                                ":v": schedule.version,
                                ":next": schedule.version + 1,
                                ":active": models.ACTIVE,
                                ":paused": models.PAUSED,
                            }
                        ),
                    }
                },
            ]
        )

    def copy_audit(self, schedule: Schedule) -> bool:
        """Write the audit copy of a live schedule written before there were any, checked in the
        same transaction to be at the version read. False when it changed meanwhile."""
        return self._try(
            [
                {
                    "ConditionCheck": {
                        "TableName": self._table,
                        "Key": key(schedule.room_id, codec.schedule_sk(schedule.id)),
                        "ConditionExpression": "version = :v",
                        "ExpressionAttributeValues": dump({":v": schedule.version}),
                    }
                },
                {
                    "Put": {
                        "TableName": self._table,
                        "Item": dump(codec.audit_item(schedule)),
                        "ConditionExpression": "attribute_not_exists(sk)",
                    }
                },
            ]
        )

    def close_claim(self, claim: OpenClaim, now: datetime, run: Run, schedule: Schedule | None) -> bool:
        """Record `run` on a slot whose claim no attempt will complete, as long as it is still the claim
        that was read (False otherwise), and on the schedule as its last run when that claim is still
        its latest (no later occurrence has been claimed since)."""
        room, slot = claim.room_id, codec.slot_sk(claim.owner, claim.slot)
        closed = self._try(
            [
                {
                    "Update": {
                        "TableName": self._table,
                        "Key": key(room, slot),
                        "UpdateExpression": f"SET #st = :done, outcome = :o, run = :run REMOVE {codec.CLAIM_ONLY}",
                        "ConditionExpression": "#st IN (:claimed, :sent) AND claimed_at = :c",
                        "ExpressionAttributeNames": {"#st": "state"},
                        "ExpressionAttributeValues": dump(
                            {
                                ":done": codec.DONE,
                                ":o": run.outcome,
                                ":run": codec.run_fields(run),
                                ":claimed": codec.CLAIMED,
                                ":sent": codec.SENT,
                                ":c": claim.claimed_at,
                            }
                        ),
                    }
                }
            ]
        )
        if closed and schedule is not None:
            sets = f"last_run = :run, {BUMP}"
            values: dict[str, Any] = {":run": codec.run_fields(run), ":slot": claim.slot, ":z": 0, ":one": 1}
            if claim.noted is not None or run.outcome == DELIVERED:  # what the attempt would have recorded
                sets += ", failure_streak = :streak"
                values[":streak"] = claim.noted.streak if claim.noted is not None else 0
            if run.outcome == DELIVERED and not run.manual:  # what `count` counts
                sets += ", delivered_count = if_not_exists(delivered_count, :z) + :one"
            if claim.noted is not None and claim.noted.pause:
                sets += ", #s = :paused, status_reason = :failing, updated_at = :t"
                values.update({":paused": models.PAUSED, ":failing": "failing", ":t": iso_utc(now)})
            update: dict[str, Any] = {
                "TableName": self._table,
                "Key": key(room, codec.schedule_sk(schedule.id)),
                "UpdateExpression": f"SET {sets} REMOVE {INFLIGHT}",
                "ConditionExpression": "inflight_slot = :slot",
                "ExpressionAttributeValues": dump(values),
            }
            if ":paused" in values:
                update["ExpressionAttributeNames"] = {"#s": "status"}
            self._try([{"Update": update}])
        return closed

    def _try(self, items: list[dict[str, Any]]) -> bool:
        """Run a conditional repair; False when a condition failed (something changed meanwhile)."""
        try:
            self._transact(items)
        except AwsError as err:
            if err.code == CANCELLED:
                return False
            raise
        return True

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
        return self._try(
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

    def drop_pointer(self, pointer: Pointer) -> bool:
        """Remove a dedupe pointer whose schedule is no longer live, checked in the same
        transaction; False when it is live again or the pointer moved on."""
        return self._try(
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
