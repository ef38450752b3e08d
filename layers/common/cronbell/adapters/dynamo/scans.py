"""Whole-table reads and repairs for the reconciler."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any

from cronbell.adapters.dynamo import codec, held
from cronbell.adapters.dynamo.codec import BUMP, INFLIGHT, ROOM_SK, dump, key
from cronbell.adapters.dynamo.expressions import LIVE, Update, recorded
from cronbell.adapters.dynamo.retirement import move_to_retired_key
from cronbell.adapters.dynamo.table import Part
from cronbell.core.domain import models
from cronbell.core.domain.instants import iso_utc
from cronbell.core.domain.models import Schedule
from cronbell.core.domain.ports import OpenClaim, Pointer, TableScan
from cronbell.core.domain.runs import DELIVERED, Run


class TableScans(Part):
    def scan(self, now: datetime) -> TableScan:
        """Every schedule under its live key (TTL-expired ones left out), room counter and dedupe
        pointer; the audit copies that still say live with no live item beside them (deleted by a
        user), and the live schedules that have no audit copy yet (written before there were).

        Also the slots still claimed (open claims), the occurrences held by quiet hours (by release)
        and the releases done. Done slots hold the runs, most of a table and none
        of this: the filter leaves them on the server (they are still read, and paid for, but neither
        sent nor parsed)."""
        found = _Found(TableScan(), now)
        kwargs: dict[str, Any] = {
            "TableName": self._t.name,
            "FilterExpression": "NOT (begins_with(sk, :slot) AND #st = :done)",
            "ExpressionAttributeNames": {"#st": "state"},
            "ExpressionAttributeValues": dump({":slot": codec.SLOT, ":done": codec.DONE}),
        }
        while True:
            out = self._t.db.scan(**kwargs)
            for raw in out.get("Items", []):
                found.add(raw)
            if "LastEvaluatedKey" not in out:
                return found.result()
            kwargs["ExclusiveStartKey"] = out["LastEvaluatedKey"]

    def finalize_deleted(self, schedule: Schedule, now: datetime) -> bool:
        """Mark the audit copy of a schedule a user deleted as deleted, with its retention TTL,
        checked in the same transaction to have no live item (a scan may see a copy before the
        live item a create wrote beside it). False when that changed meanwhile."""
        room = schedule.room_id
        return self._t.try_transact(
            [
                {
                    "ConditionCheck": {
                        "TableName": self._t.name,
                        "Key": key(room, codec.schedule_sk(schedule.id)),
                        "ConditionExpression": "attribute_not_exists(sk)",
                    }
                },
                {
                    "Update": {
                        "TableName": self._t.name,
                        "Key": key(room, codec.retired_sk(schedule.id)),
                        "UpdateExpression": "SET #s = :d, expires_at = :e, updated_at = :t, version = :next",
                        "ConditionExpression": "version = :v AND #s IN (:active, :paused)",
                        "ExpressionAttributeNames": {"#s": "status"},
                        "ExpressionAttributeValues": dump(
                            {
                                ":d": models.DELETED,
                                ":e": self._t.expires(now),
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
        return self._t.try_transact(
            [
                {
                    "ConditionCheck": {
                        "TableName": self._t.name,
                        "Key": key(schedule.room_id, codec.schedule_sk(schedule.id)),
                        "ConditionExpression": "version = :v",
                        "ExpressionAttributeValues": dump({":v": schedule.version}),
                    }
                },
                {
                    "Put": {
                        "TableName": self._t.name,
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
        update = Update().clause("#st = :done", done=codec.DONE).set("outcome", run.outcome)
        update.set("run", codec.run_fields(run)).remove(codec.CLAIM_ONLY)
        update.clause("expires_at = if_not_exists(expires_at, :exp)", exp=self._t.expires(now))
        values = {":claimed": codec.CLAIMED, ":sent": codec.SENT, ":c": iso_utc(claim.claimed_at)}
        closing = {
            "TableName": self._t.name,
            "Key": codec.SlotRef(claim.room_id, claim.owner, claim.slot).key,
            **update.request("#st IN (:claimed, :sent) AND claimed_at = :c", {"#st": "state"}, values),
        }
        if claim.on_schedule and schedule is not None:  # the claim is the mark alone: both, or neither
            closing.update(update.request("attribute_not_exists(sk)", {"#st": "state"}))
            mark = self._closed_on_schedule(claim, now, run, schedule)
            mark["ConditionExpression"] += (
                " AND (inflight_at = :c OR (attribute_not_exists(inflight_at) AND inflight_until = :c))"
            )
            mark["ExpressionAttributeValues"][":c"] = {"S": iso_utc(claim.claimed_at)}
            return self._t.try_transact([{"Update": closing}, {"Update": mark}])
        closed = self._t.try_transact([{"Update": closing}])
        if closed and schedule is not None:
            self._t.try_transact([{"Update": self._closed_on_schedule(claim, now, run, schedule)}])
        return closed

    def _closed_on_schedule(self, claim: OpenClaim, now: datetime, run: Run, schedule: Schedule) -> dict[str, Any]:
        """The schedule's part of a closed claim: what the attempt would have recorded, while that
        claim is still its latest."""
        update = Update().set("last_run", codec.last_run_fields(run)).clause(BUMP, z=0, one=1)
        if claim.noted is not None or run.outcome == DELIVERED:  # what the attempt would have recorded
            update.set("failure_streak", claim.noted.streak if claim.noted is not None else 0)
        if run.outcome == DELIVERED and not run.manual:  # what `count` counts
            update.clause("delivered_count = if_not_exists(delivered_count, :z) + :one")
        if claim.noted is not None and claim.noted.pause:
            update.set_all({"status": models.PAUSED, "status_reason": "failing", "updated_at": iso_utc(now)})
        update.remove(INFLIGHT)
        recorded(update, claim.slot)
        return {
            "TableName": self._t.name,
            "Key": key(claim.room_id, codec.schedule_sk(schedule.id)),
            **update.request("inflight_slot = :slot", values={":slot": claim.slot}),
        }

    def move_retired(self, room_id: str, schedule_id: str, image: Mapping[str, Any] | None = None) -> bool:
        """Move a schedule retired under its live key (by a fire's record, or by a delete or fire before
        retired schedules had keys of their own) to its retired key, attributes and TTL as they are
        (`retirement.move_to_retired_key`), so the room's listing stops reading it. `image`: the item
        as the stream's new image holds it (spares the read). False when it is live (again) or
        changed meanwhile."""
        raw = dict(image) if image is not None else self._t.get(key(room_id, codec.schedule_sk(schedule_id)))
        return raw is not None and move_to_retired_key(self._t, raw, schedule_id)

    def drop_pointer(self, pointer: Pointer) -> bool:
        """Remove a dedupe pointer whose schedule is no longer live, checked in the same
        transaction; False when it is live again or the pointer moved on."""
        return self._t.try_transact(
            [
                {
                    "ConditionCheck": {
                        "TableName": self._t.name,
                        "Key": key(pointer.room_id, codec.schedule_sk(pointer.schedule_id)),
                        "ConditionExpression": f"attribute_not_exists(sk) OR NOT ({LIVE})",
                        "ExpressionAttributeNames": {"#s": "status"},
                        "ExpressionAttributeValues": dump({":active": models.ACTIVE, ":paused": models.PAUSED}),
                    }
                },
                {
                    "Delete": {
                        "TableName": self._t.name,
                        "Key": key(pointer.room_id, codec.pointer_sk(pointer)),
                        "ConditionExpression": "schedule_id = :id",
                        "ExpressionAttributeValues": dump({":id": pointer.schedule_id}),
                    }
                },
            ]
        )


class _Found:
    """What a scan found, sorted by kind of item as the pages come."""

    def __init__(self, table: TableScan, now: datetime) -> None:
        self.table = table
        self._now = now
        self._copies: dict[codec.Key, dict[str, Any]] = {}  # audit copies that still say live
        self._audited: set[codec.Key] = set()
        self._marks: list[OpenClaim] = []  # claims found as a schedule's mark

    def add(self, raw: dict[str, Any]) -> None:
        room, sk = raw["room_id"]["S"], raw["sk"]["S"]
        found = self.table
        if sk == ROOM_SK:
            found.counters[room] = codec.live_count(raw)
            if users := codec.room_quiet_users(raw):
                found.quiet_users[room] = users
        elif sk.startswith((codec.POINTER, codec.NAME)):
            found.pointers.append(codec.pointer_from_item(raw))
        elif sk.startswith(codec.SCHEDULE) and not codec.is_expired(raw, self._now):
            found.schedules.append(codec.schedule_from_item(raw))
            if (mark := codec.claim_from_mark(raw)) is not None:  # a claim: live, or its attempt died
                self._marks.append(mark)
        elif sk.startswith(codec.SLOT):
            if (claim := codec.claim_from_item(raw)) is not None:
                found.claims.append(claim)
        elif sk.startswith(held.HELD_PREFIX) and not codec.is_expired(raw, self._now):
            found.held.setdefault(held.release_of(raw), []).append((raw["schedule_id"]["S"], raw["slot"]["S"]))
        elif sk.startswith(held.RELEASE_PREFIX) and codec.state_of(raw) == codec.DONE:
            found.released.add(held.release_of(raw))
        elif sk.startswith(codec.RETIRED):
            self._audited.add((room, sk[len(codec.RETIRED) :]))
            if codec.says_live(raw):
                self._copies[(room, sk[len(codec.RETIRED) :])] = raw

    def result(self) -> TableScan:
        found = self.table
        with_items = {(c.room_id, c.owner, c.slot) for c in found.claims}  # a slot's item says more than the mark
        found.claims += [c for c in self._marks if (c.room_id, c.owner, c.slot) not in with_items]
        under_live = {(s.room_id, s.id) for s in found.schedules}
        found.deleted = [codec.schedule_from_item(raw) for k, raw in self._copies.items() if k not in under_live]
        found.uncopied = [
            s for s in found.schedules if s.status in models.LIVE_STATUSES and (s.room_id, s.id) not in self._audited
        ]
        return found
