"""DynamoDB single-table store: the only module that knows item shapes and key layout.

Keys (partition `room_id`, sort `sk`):
  s#<id>              a schedule
  room                the room's counter (`live`, guarded by MaxPerRoom) and its revision (`rev`)
  d#<dedupe key>      points at the schedule with that action, time and zone
  f#<id>#<slot time>  one delivery slot: claimed before sending, done after (exactly once)

A delete is one write to the schedule's item alone, so two things are freed lazily:
- `live` may still count schedules deleted since the room was last recounted: it is an upper
  bound, never below the true count, so the limit always holds. A create that finds the room
  full recounts it (a consistent query, stored only if `rev` has not moved) before refusing.
- a pointer may still name a schedule that is no longer live: the next identical create takes
  it over, and the reconciler removes the rest.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from boto3.dynamodb.types import TypeDeserializer, TypeSerializer
from botocore.exceptions import ClientError

from cronbell.core import models
from cronbell.core.instants import iso_utc as _iso
from cronbell.core.models import Schedule

ROOM_SK = "room"
_COUNT_IN = "SET live = if_not_exists(live, :zero) + :one, rev = if_not_exists(rev, :zero) + :one"
_COUNT_OUT = "SET live = if_not_exists(live, :one) - :one, rev = if_not_exists(rev, :zero) + :one"
_CONFLICT_PAUSE_SECONDS = 0.05  # times the attempt number
_CONFLICT_ATTEMPTS = 4
_WRITE_ATTEMPTS = 6  # a stale pointer and a recount each cost one more; the rest is for races
_RECORD_FIRE = (
    "SET last_fired_at = :t, fire_count = if_not_exists(fire_count, :z) + :one REMOVE inflight_slot, inflight_until"
)
# a slot may be claimed when it has never been, or when its claim outlived the lease (a crash)
_SLOT_FREE = "attribute_not_exists(sk) OR (#st = :claimed AND lease_until < :t)"
_SCHEDULE_IDLE = "(attribute_not_exists(inflight_until) OR inflight_until < :t OR inflight_slot = :slot)"
_ser = TypeSerializer()
_deser = TypeDeserializer()


def schedule_sk(schedule_id: str) -> str:
    return f"s#{schedule_id}"


def dedupe_sk(key: str) -> str:
    return f"d#{key}"


def slot_sk(schedule_id: str, slot: str) -> str:
    return f"f#{schedule_id}#{slot}"


def _dump(values: dict[str, Any]) -> dict[str, Any]:
    return {k: _ser.serialize(v) for k, v in values.items()}


def _load(item: dict[str, Any]) -> dict[str, Any]:
    return {k: _deser.deserialize(v) for k, v in item.items()}


def _schedule_from_item(item: dict[str, Any]) -> Schedule:
    data = _load(item)
    for k in ("fire_count", "agent_timeout_seconds", "version"):
        if k in data:
            data[k] = int(data[k])
    return Schedule.from_dict(data)


def _sort_key(transact_item: dict[str, Any]) -> str:
    (write,) = transact_item.values()
    return str((write.get("Key") or write["Item"])["sk"]["S"])


def _only_conflicts(err: ClientError) -> bool:
    codes = {r.get("Code") for r in err.response.get("CancellationReasons") or []}
    return (
        err.response["Error"]["Code"] == "TransactionCanceledException"
        and codes <= {"None", "TransactionConflict"}
        and "TransactionConflict" in codes
    )


def _epoch(dt: datetime) -> int:
    return int(dt.timestamp())


# claim outcomes; SENT: an earlier attempt posted but could not record it, so record, do not post
CLAIMED, DUPLICATE, BUSY, INACTIVE, SENT = "claimed", "duplicate", "busy", "inactive", "sent"


class LimitReached(Exception):
    pass


class Duplicate(Exception):
    """A live schedule with the same action, time and zone exists."""

    def __init__(self, existing: Schedule) -> None:
        super().__init__(existing.id)
        self.existing = existing


class Conflict(Exception):
    """The item was not in the state the write expected (e.g. deleted meanwhile)."""


class Gone(Exception):
    """No live schedule: `old` is the item as it is (fired, deleted...), or None if there is none."""

    def __init__(self, old: Schedule | None) -> None:
        super().__init__(old.id if old else "")
        self.old = old


@dataclass(frozen=True)
class RoomCount:
    live: int
    rev: int | None  # None: written before revisions were kept

    @classmethod
    def from_item(cls, item: dict[str, Any]) -> RoomCount | None:
        if "live" not in item:
            return None
        return cls(int(item["live"]["N"]), int(item["rev"]["N"]) if "rev" in item else None)


class Busy(Exception):
    """A delivery of this schedule is under way; try again in a moment."""


@dataclass(frozen=True)
class Pointer:
    room_id: str
    key: str
    schedule_id: str


@dataclass
class TableScan:
    schedules: list[Schedule] = field(default_factory=list)
    counters: dict[str, int] = field(default_factory=dict)
    pointers: list[Pointer] = field(default_factory=list)


class ScheduleStore:
    def __init__(self, client: Any, table: str, retention_days: int) -> None:
        self._db = client
        self._table = table
        self._retention = timedelta(days=retention_days)

    def _transact(self, items: list[dict[str, Any]]) -> None:
        """TransactWriteItems, run again after a pause while DynamoDB cancels it only because
        another transaction is writing one of the same items (TransactionConflict): two fires of
        one slot at once, or creates racing in one room."""
        for attempt in range(1, _CONFLICT_ATTEMPTS + 1):
            try:
                self._db.transact_write_items(TransactItems=items)
                return
            except ClientError as err:
                if attempt == _CONFLICT_ATTEMPTS or not _only_conflicts(err):
                    raise
            time.sleep(_CONFLICT_PAUSE_SECONDS * attempt)

    # --- transaction parts -------------------------------------------------------------------
    def _take_place(self, room: str, max_per_room: int) -> dict[str, Any]:
        """Count one more live schedule in the room, unless it is at its limit."""
        return {
            "Update": {
                "TableName": self._table,
                "Key": _dump({"room_id": room, "sk": ROOM_SK}),
                "UpdateExpression": _COUNT_IN,
                "ConditionExpression": "attribute_not_exists(live) OR live < :max",
                "ExpressionAttributeValues": _dump({":zero": 0, ":one": 1, ":max": max_per_room}),
                "ReturnValuesOnConditionCheckFailure": "ALL_OLD",
            }
        }

    def _claim_dedupe(self, schedule: Schedule, stale: str | None) -> dict[str, Any]:
        """Point the schedule's dedupe key at it, unless the key is held (by another schedule than
        `stale`, one found no longer live)."""
        condition = "attribute_not_exists(sk)"
        values: dict[str, Any] = {}
        if stale:
            condition += " OR schedule_id = :stale"
            values = {"ExpressionAttributeValues": _dump({":stale": stale})}
        return {
            "Put": {
                "TableName": self._table,
                "Item": _dump(
                    {"room_id": schedule.room_id, "sk": dedupe_sk(schedule.dedupe_key), "schedule_id": schedule.id}
                ),
                "ConditionExpression": condition,
                "ReturnValuesOnConditionCheckFailure": "ALL_OLD",
                **values,
            }
        }

    def _write_taking_place(self, room: str, max_per_room: int, build: Callable[[str | None], list[Any]]) -> None:
        """Run the transaction `build(stale)` makes, which may take a place in the room and claim a
        dedupe pointer. When it fails only because the pointer names a schedule no longer live, or
        because the counter still counts deleted schedules, mend that and run it again.

        Raises Duplicate, LimitReached or Conflict (the schedule's own item was not as expected)."""
        stale: str | None = None
        recounted = False
        for _ in range(_WRITE_ATTEMPTS):
            items = build(stale)
            try:
                self._transact(items)
                return
            except ClientError as err:
                if err.response["Error"]["Code"] != "TransactionCanceledException":
                    raise
                reasons = err.response.get("CancellationReasons") or []
                failed = {
                    _sort_key(items[i]): r.get("Item") or {}
                    for i, r in enumerate(reasons)
                    if r.get("Code") == "ConditionalCheckFailed"
                }
                if not failed:
                    raise
            if any(sk.startswith("s#") for sk in failed):
                raise Conflict(room)
            pointer = next((item for sk, item in failed.items() if sk.startswith("d#")), None)
            if pointer is not None:
                holder_id = pointer.get("schedule_id", {}).get("S", "")
                holder = self.get(room, holder_id)
                if holder is not None and holder.status in models.LIVE_STATUSES:
                    raise Duplicate(holder)
                stale = holder_id
                continue
            if recounted:
                raise LimitReached()  # full by a count taken since this create began
            counted = self.recount(room, RoomCount.from_item(failed.get(ROOM_SK, {})))
            if counted is not None and counted >= max_per_room:
                raise LimitReached()
            recounted = counted is not None  # None: the counter moved meanwhile; try, count again
        raise Conflict(room)

    # --- reads -----------------------------------------------------------------------------
    def get(self, room_id: str, schedule_id: str) -> Schedule | None:
        out = self._db.get_item(
            TableName=self._table,
            Key=_dump({"room_id": room_id, "sk": schedule_sk(schedule_id)}),
            ConsistentRead=True,
        )
        return _schedule_from_item(out["Item"]) if "Item" in out else None

    def list_room(self, room_id: str, now: datetime) -> list[Schedule]:
        """Every schedule of the room not yet expired by its retention TTL, oldest first."""
        items: list[Schedule] = []
        kwargs: dict[str, Any] = {
            "TableName": self._table,
            "KeyConditionExpression": "room_id = :r AND begins_with(sk, :p)",
            "ExpressionAttributeValues": _dump({":r": room_id, ":p": "s#"}),
        }
        while True:
            out = self._db.query(**kwargs)
            for raw in out.get("Items", []):
                expires = raw.get("expires_at")
                if expires and int(expires["N"]) <= _epoch(now):
                    continue  # TTL deletion is lazy in DynamoDB (and absent in moto)
                items.append(_schedule_from_item(raw))
            if "LastEvaluatedKey" not in out:
                break
            kwargs["ExclusiveStartKey"] = out["LastEvaluatedKey"]
        items.sort(key=lambda s: s.created_at)
        return items

    # --- writes ----------------------------------------------------------------------------
    def insert(self, schedule: Schedule, max_per_room: int) -> None:
        """Write a new live schedule, its dedupe pointer and the room count in one transaction.

        Raises LimitReached, Duplicate, Conflict or ClientError.
        """
        item = {"room_id": schedule.room_id, "sk": schedule_sk(schedule.id), **schedule.to_dict()}
        put = {
            "Put": {"TableName": self._table, "Item": _dump(item), "ConditionExpression": "attribute_not_exists(sk)"}
        }
        self._write_taking_place(
            schedule.room_id,
            max_per_room,
            lambda stale: [self._take_place(schedule.room_id, max_per_room), put, self._claim_dedupe(schedule, stale)],
        )

    def replace(self, old: Schedule, new: Schedule, max_per_room: int) -> None:
        """Write `new` over `old` if nobody changed it meanwhile (same version), moving the dedupe
        pointer and, when a retired schedule comes back to life (a snoozed one-shot), taking a
        place under the room limit, all in one transaction.

        Raises Conflict, Duplicate(existing id) or LimitReached."""
        room = new.room_id
        new.version = old.version + 1
        fields = {k: v for k, v in new.to_dict().items() if k not in ("id", "room_id")}
        names = {f"#f{i}": k for i, k in enumerate(fields)}
        values = {f":f{i}": v for i, v in enumerate(fields.values())}
        update = "SET " + ", ".join(f"#f{i} = :f{i}" for i in range(len(fields)))
        if new.status in models.LIVE_STATUSES:
            update += " REMOVE expires_at"
        items: list[dict[str, Any]] = [
            {
                "Update": {
                    "TableName": self._table,
                    "Key": _dump({"room_id": room, "sk": schedule_sk(new.id)}),
                    "UpdateExpression": update,
                    "ConditionExpression": "attribute_exists(sk) AND #v0 = :v0",
                    "ExpressionAttributeNames": {**names, "#v0": "version"},
                    "ExpressionAttributeValues": _dump({**values, ":v0": old.version}),
                }
            }
        ]
        was_live = old.status in models.LIVE_STATUSES
        if was_live and new.dedupe_key != old.dedupe_key:
            items.append(
                {
                    "Delete": {
                        "TableName": self._table,
                        "Key": _dump({"room_id": room, "sk": dedupe_sk(old.dedupe_key)}),
                    }
                }
            )
        if not was_live:
            items.append(self._take_place(room, max_per_room))
        claims = not was_live or new.dedupe_key != old.dedupe_key
        self._write_taking_place(
            room, max_per_room, lambda stale: [*items, *([self._claim_dedupe(new, stale)] if claims else [])]
        )

    def set_skip(self, schedule: Schedule, slot: str) -> None:
        """Remember one occurrence not to deliver. Raises Conflict if the schedule changed."""
        try:
            self._db.update_item(
                TableName=self._table,
                Key=_dump({"room_id": schedule.room_id, "sk": schedule_sk(schedule.id)}),
                UpdateExpression="SET skip_slot = :s, version = version + :one",
                ConditionExpression="version = :v AND #s = :active",
                ExpressionAttributeNames={"#s": "status"},
                ExpressionAttributeValues=_dump(
                    {":s": slot, ":one": 1, ":v": schedule.version, ":active": models.ACTIVE}
                ),
            )
        except ClientError as err:
            if err.response["Error"]["Code"] == "ConditionalCheckFailedException":
                raise Conflict(schedule.id) from err
            raise

    def delete(self, room_id: str, schedule_id: str, now: datetime) -> Schedule:
        """Mark a live schedule deleted with one conditional write to its item, and return the
        schedule as it was. Its room place and dedupe pointer are freed lazily (module docstring).

        Raises Busy while a delivery holds it, Gone when it is not live (or does not exist)."""
        idle = "(attribute_not_exists(inflight_until) OR inflight_until < :t)"
        update = "SET #s = :deleted, expires_at = :e, updated_at = :t REMOVE inflight_slot, inflight_until"
        try:
            out = self._db.update_item(
                TableName=self._table,
                Key=_dump({"room_id": room_id, "sk": schedule_sk(schedule_id)}),
                UpdateExpression=update,
                ConditionExpression=f"#s IN (:active, :paused) AND {idle}",
                ExpressionAttributeNames={"#s": "status"},
                ExpressionAttributeValues=_dump(
                    {
                        ":deleted": models.DELETED,
                        ":e": _epoch(now + self._retention),
                        ":t": _iso(now),
                        ":active": models.ACTIVE,
                        ":paused": models.PAUSED,
                    }
                ),
                ReturnValues="ALL_OLD",
                ReturnValuesOnConditionCheckFailure="ALL_OLD",
            )
        except ClientError as err:
            if err.response["Error"]["Code"] == "TransactionConflictException":
                raise Busy(schedule_id) from err  # a fire's transaction is writing the item right now
            if err.response["Error"]["Code"] != "ConditionalCheckFailedException":
                raise
            old = _schedule_from_item(err.response["Item"]) if err.response.get("Item") else None
            if old is not None and old.status in models.LIVE_STATUSES:
                raise Busy(schedule_id) from err
            raise Gone(old) from err
        return _schedule_from_item(out["Attributes"])

    def retire(self, schedule: Schedule, status: str, now: datetime, reason: str = "") -> None:
        """Move a live schedule to a final status (missed), atomically freeing its room place and
        dedupe pointer. Raises Busy while a delivery holds it, Conflict if not live."""
        self._finish(schedule, status, now, reason=reason, require_idle=True)

    def _finish(
        self,
        schedule: Schedule,
        status: str,
        now: datetime,
        *,
        reason: str = "",
        extra_set: dict[str, Any] | None = None,
        extra_items: list[dict[str, Any]] | None = None,
        require_idle: bool = False,
    ) -> None:
        sets: dict[str, Any] = {
            "status": status,
            "expires_at": _epoch(now + self._retention),
            "updated_at": _iso(now),
        }
        if reason:
            sets["status_reason"] = reason
        sets.update(extra_set or {})
        names = {f"#a{i}": k for i, k in enumerate(sets)}
        values = {f":a{i}": v for i, v in enumerate(sets.values())}
        assignments = ", ".join(f"#a{i} = :a{i}" for i in range(len(sets)))
        update = f"SET {assignments} REMOVE inflight_slot, inflight_until"
        condition = "#s IN (:active, :paused)"
        if require_idle:
            condition += " AND (attribute_not_exists(inflight_until) OR inflight_until < :idle)"
            values[":idle"] = _iso(now)
        room = schedule.room_id
        try:
            self._transact(
                [
                    *(extra_items or []),
                    {
                        "Update": {
                            "TableName": self._table,
                            "Key": _dump({"room_id": room, "sk": schedule_sk(schedule.id)}),
                            "UpdateExpression": update,
                            "ConditionExpression": condition,
                            "ExpressionAttributeNames": {**names, "#s": "status"},
                            "ReturnValuesOnConditionCheckFailure": "ALL_OLD",
                            "ExpressionAttributeValues": _dump(
                                {**values, ":active": models.ACTIVE, ":paused": models.PAUSED}
                            ),
                        }
                    },
                    {
                        "Update": {
                            "TableName": self._table,
                            "Key": _dump({"room_id": room, "sk": ROOM_SK}),
                            "UpdateExpression": _COUNT_OUT,
                            "ExpressionAttributeValues": _dump({":one": 1, ":zero": 0}),
                        }
                    },
                    {
                        "Delete": {
                            "TableName": self._table,
                            "Key": _dump({"room_id": room, "sk": dedupe_sk(schedule.dedupe_key)}),
                        }
                    },
                ]
            )
        except ClientError as err:
            if err.response["Error"]["Code"] != "TransactionCanceledException":
                raise
            reasons = err.response.get("CancellationReasons") or []
            mine = reasons[len(extra_items or [])] if len(reasons) > len(extra_items or []) else {}
            old = _load(mine.get("Item") or {})
            if old.get("status") in models.LIVE_STATUSES and str(old.get("inflight_until", "")) >= _iso(now):
                raise Busy(schedule.id) from err
            raise Conflict(schedule.id) from err

    # --- delivery slots --------------------------------------------------------------------
    def claim_slot(self, schedule: Schedule, slot: str, now: datetime, lease_seconds: int) -> str:
        """Claim one (schedule, scheduled time) for delivery, in one transaction that also marks
        the schedule busy, so a delete cannot succeed while a post is under way.

        Returns CLAIMED, DUPLICATE (slot done or held by a live attempt), BUSY (another slot of
        this schedule is being delivered) or INACTIVE (no longer active). A claim older than the
        lease (a crashed attempt) is taken over."""
        t = _iso(now)
        until = _iso(now + timedelta(seconds=lease_seconds))
        key = {"room_id": schedule.room_id, "sk": slot_sk(schedule.id, slot)}
        try:
            self._transact(
                [
                    {
                        "Update": {
                            "TableName": self._table,
                            "Key": _dump({"room_id": schedule.room_id, "sk": schedule_sk(schedule.id)}),
                            "UpdateExpression": "SET inflight_slot = :slot, inflight_until = :until",
                            "ConditionExpression": "#s = :active AND " + _SCHEDULE_IDLE,
                            "ExpressionAttributeNames": {"#s": "status"},
                            "ExpressionAttributeValues": _dump(
                                {":slot": slot, ":t": t, ":until": until, ":active": models.ACTIVE}
                            ),
                            "ReturnValuesOnConditionCheckFailure": "ALL_OLD",
                        }
                    },
                    {
                        "Put": {
                            "TableName": self._table,
                            "Item": _dump(
                                {
                                    **key,
                                    "state": "claimed",
                                    "claimed_at": t,
                                    "lease_until": until,
                                    "expires_at": _epoch(now + self._retention),
                                }
                            ),
                            "ConditionExpression": _SLOT_FREE,
                            "ExpressionAttributeNames": {"#st": "state"},
                            "ExpressionAttributeValues": _dump({":claimed": "claimed", ":t": t}),
                            "ReturnValuesOnConditionCheckFailure": "ALL_OLD",
                        }
                    },
                ]
            )
        except ClientError as err:
            reasons = err.response.get("CancellationReasons") or []
            if err.response["Error"]["Code"] != "TransactionCanceledException" or len(reasons) != 2:
                raise
            if reasons[1].get("Code") == "ConditionalCheckFailed":
                held = _load(reasons[1].get("Item") or {})
                return SENT if held.get("state") == "sent" else DUPLICATE
            if reasons[0].get("Code") == "ConditionalCheckFailed":
                old = _load(reasons[0].get("Item") or {})
                return BUSY if old.get("status") == models.ACTIVE else INACTIVE
            raise
        return CLAIMED

    def mark_slot_sent(self, schedule: Schedule, slot: str, message_id: str) -> None:
        """Note that the slot's message went out, when recording the fire itself failed: the
        retry then records it instead of posting again. The claim stays held meanwhile."""
        self._db.update_item(
            TableName=self._table,
            Key=_dump({"room_id": schedule.room_id, "sk": slot_sk(schedule.id, slot)}),
            UpdateExpression="SET #st = :sent, detail = :d",
            ExpressionAttributeNames={"#st": "state"},
            ExpressionAttributeValues=_dump({":sent": "sent", ":d": message_id}),
        )

    def release_slot(self, schedule: Schedule, slot: str) -> None:
        """Give a claim back after a failed attempt, so Lambda's retry can deliver at once."""
        self._transact(
            [
                {
                    "Delete": {
                        "TableName": self._table,
                        "Key": _dump({"room_id": schedule.room_id, "sk": slot_sk(schedule.id, slot)}),
                    }
                },
                {
                    "Update": {
                        "TableName": self._table,
                        "Key": _dump({"room_id": schedule.room_id, "sk": schedule_sk(schedule.id)}),
                        "UpdateExpression": "REMOVE inflight_slot, inflight_until",
                    }
                },
            ]
        )

    def complete_slot(
        self,
        schedule: Schedule,
        slot: str,
        now: datetime,
        outcome: str,
        detail: str = "",
        final_status: str = "",
    ) -> None:
        """Mark a slot done (outcome `delivered`, `failed`, ...), record the fire on the schedule
        and clear its busy mark. With `final_status` (fired, delivery_failed) the schedule also
        leaves the live set, in the same transaction."""
        slot_update = {
            "Update": {
                "TableName": self._table,
                "Key": _dump({"room_id": schedule.room_id, "sk": slot_sk(schedule.id, slot)}),
                "UpdateExpression": "SET #st = :done, outcome = :o, detail = :d, completed_at = :t",
                "ExpressionAttributeNames": {"#st": "state"},
                "ExpressionAttributeValues": _dump({":done": "done", ":o": outcome, ":d": detail, ":t": _iso(now)}),
            }
        }
        if final_status:
            fired = {"last_fired_at": _iso(now), "fire_count": schedule.fire_count + 1}
            if final_status == models.FIRED:
                fired["fired_at"] = _iso(now)
            self._finish(schedule, final_status, now, reason=detail, extra_set=fired, extra_items=[slot_update])
            return
        self._transact(
            [
                slot_update,
                {
                    "Update": {
                        "TableName": self._table,
                        "Key": _dump({"room_id": schedule.room_id, "sk": schedule_sk(schedule.id)}),
                        "UpdateExpression": _RECORD_FIRE,
                        "ConditionExpression": "attribute_exists(sk)",
                        "ExpressionAttributeValues": _dump({":t": _iso(now), ":z": 0, ":one": 1}),
                    }
                },
            ]
        )

    # --- slots of schedules declared in the template (no item of their own) -----------------
    def claim_static_slot(self, room_id: str, key: str, slot: str, now: datetime, lease_seconds: int) -> bool:
        """Claim a slot with a conditional put; False when it is done or held by a live attempt."""
        try:
            self._db.put_item(
                TableName=self._table,
                Item=_dump(
                    {
                        "room_id": room_id,
                        "sk": slot_sk(key, slot),
                        "state": "claimed",
                        "claimed_at": _iso(now),
                        "lease_until": _iso(now + timedelta(seconds=lease_seconds)),
                        "expires_at": _epoch(now + self._retention),
                    }
                ),
                ConditionExpression=_SLOT_FREE,
                ExpressionAttributeNames={"#st": "state"},
                ExpressionAttributeValues=_dump({":claimed": "claimed", ":t": _iso(now)}),
            )
        except ClientError as err:
            if err.response["Error"]["Code"] == "ConditionalCheckFailedException":
                return False
            raise
        return True

    def release_static_slot(self, room_id: str, key: str, slot: str) -> None:
        self._db.delete_item(TableName=self._table, Key=_dump({"room_id": room_id, "sk": slot_sk(key, slot)}))

    def complete_static_slot(
        self, room_id: str, key: str, slot: str, now: datetime, outcome: str, detail: str = ""
    ) -> None:
        self._db.update_item(
            TableName=self._table,
            Key=_dump({"room_id": room_id, "sk": slot_sk(key, slot)}),
            UpdateExpression="SET #st = :done, outcome = :o, detail = :d, completed_at = :t",
            ExpressionAttributeNames={"#st": "state"},
            ExpressionAttributeValues=_dump({":done": "done", ":o": outcome, ":d": detail, ":t": _iso(now)}),
        )

    # --- reconciliation ---------------------------------------------------------------------
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
                elif sk.startswith("d#"):
                    found.pointers.append(Pointer(room, sk[2:], raw.get("schedule_id", {}).get("S", "")))
                elif sk.startswith("s#"):
                    expires = raw.get("expires_at")
                    if not expires or int(expires["N"]) > _epoch(now):
                        found.schedules.append(_schedule_from_item(raw))
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
                            "Key": _dump({"room_id": pointer.room_id, "sk": schedule_sk(pointer.schedule_id)}),
                            "ConditionExpression": "attribute_not_exists(sk) OR NOT (#s IN (:active, :paused))",
                            "ExpressionAttributeNames": {"#s": "status"},
                            "ExpressionAttributeValues": _dump({":active": models.ACTIVE, ":paused": models.PAUSED}),
                        }
                    },
                    {
                        "Delete": {
                            "TableName": self._table,
                            "Key": _dump({"room_id": pointer.room_id, "sk": dedupe_sk(pointer.key)}),
                            "ConditionExpression": "schedule_id = :id",
                            "ExpressionAttributeValues": _dump({":id": pointer.schedule_id}),
                        }
                    },
                ]
            )
        except ClientError as err:
            if err.response["Error"]["Code"] == "TransactionCanceledException":
                return False
            raise
        return True

    def room_count(self, room_id: str) -> RoomCount | None:
        out = self._db.get_item(
            TableName=self._table, Key=_dump({"room_id": room_id, "sk": ROOM_SK}), ConsistentRead=True
        )
        return RoomCount.from_item(out.get("Item") or {})

    def recount(self, room_id: str, seen: RoomCount | None) -> int | None:
        """Count the room's live schedules with a consistent read, and store the count unless the
        counter moved since `seen` was read (any create, fire or earlier recount bumps `rev`).
        Returns the count, or None when the counter moved (count again, or let the caller retry)."""
        kwargs: dict[str, Any] = {
            "TableName": self._table,
            "KeyConditionExpression": "room_id = :r AND begins_with(sk, :p)",
            "ProjectionExpression": "#s",
            "ExpressionAttributeNames": {"#s": "status"},
            "ExpressionAttributeValues": _dump({":r": room_id, ":p": "s#"}),
            "ConsistentRead": True,
        }
        live = 0
        while True:
            out = self._db.query(**kwargs)
            live += sum(1 for raw in out.get("Items", []) if raw.get("status", {}).get("S") in models.LIVE_STATUSES)
            if "LastEvaluatedKey" not in out:
                break
            kwargs["ExclusiveStartKey"] = out["LastEvaluatedKey"]
        if (seen.live if seen else 0) == live:
            return live
        values: dict[str, Any] = {}
        if seen is None:
            condition = "attribute_not_exists(live)"
        elif seen.rev is None:
            condition = "attribute_not_exists(rev)"
        else:
            condition, values = "rev = :rev", {":rev": seen.rev}
        try:
            self._db.update_item(
                TableName=self._table,
                Key=_dump({"room_id": room_id, "sk": ROOM_SK}),
                UpdateExpression="SET live = :n, rev = if_not_exists(rev, :zero) + :one",
                ConditionExpression=condition,
                ExpressionAttributeValues=_dump({":n": live, ":zero": 0, ":one": 1, **values}),
            )
        except ClientError as err:
            if err.response["Error"]["Code"] == "ConditionalCheckFailedException":
                return None
            raise
        return live
