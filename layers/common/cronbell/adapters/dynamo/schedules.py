"""Schedules, the room's live count and its pointers (dedupe keys, names), written together.

A delete is one write to the schedule's item alone, so two things are freed lazily:
- `live` may still count schedules deleted since the room was last recounted: it is an upper
  bound, never below the true count, so the limit always holds. A create that finds the room
  full recounts it (a consistent query, stored only if `rev` has not moved) before refusing.
- a pointer may still name a schedule that is no longer live: the next identical create takes
  it over, and the reconciler removes the rest.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any

from cronbell.adapters.aws import AwsError
from cronbell.adapters.dynamo import codec
from cronbell.adapters.dynamo.codec import ROOM_SK, dump, epoch, key, load, schedule_sk
from cronbell.adapters.dynamo.table import CONDITION_FAILED, Table, cancelled
from cronbell.core import models
from cronbell.core.instants import iso_utc
from cronbell.core.models import Schedule
from cronbell.core.ports import Busy, Conflict, Duplicate, Gone, LimitReached, NameTaken, RoomCount, TooSoon

_COUNT_IN = "SET live = if_not_exists(live, :zero) + :one, rev = if_not_exists(rev, :zero) + :one"
_COUNT_OUT = "SET live = if_not_exists(live, :one) - :one, rev = if_not_exists(rev, :zero) + :one"
_WRITE_ATTEMPTS = 6  # a stale pointer and a recount each cost one more; the rest is for races
IDLE = "(attribute_not_exists(inflight_until) OR inflight_until < :t)"
_NO_RUN_SINCE = "attribute_not_exists(last_manual_run) OR last_manual_run <= :since"


def _in_flight(item: dict[str, Any], now: datetime) -> bool:
    """Whether a delivery holds the schedule stored in `item` (raw) at `now`."""
    return str(load(item).get("inflight_until", "")) >= iso_utc(now)


class ScheduleTable(Table):
    # --- transaction parts -------------------------------------------------------------------
    def _take_place(self, room: str, max_per_room: int) -> dict[str, Any]:
        """Count one more live schedule in the room, unless it is at its limit."""
        return {
            "Update": {
                "TableName": self._table,
                "Key": key(room, ROOM_SK),
                "UpdateExpression": _COUNT_IN,
                "ConditionExpression": "attribute_not_exists(live) OR live < :max",
                "ExpressionAttributeValues": dump({":zero": 0, ":one": 1, ":max": max_per_room}),
                "ReturnValuesOnConditionCheckFailure": "ALL_OLD",
            }
        }

    def _claim(self, sk: str, schedule: Schedule, stale: dict[str, str]) -> dict[str, Any]:
        """Point a key of the room (`sk`: a dedupe key, a name) at the schedule, unless the key is
        held (by another schedule than `stale[sk]`, one found no longer live)."""
        condition = "attribute_not_exists(sk)"
        values: dict[str, Any] = {}
        if sk in stale:
            condition += " OR schedule_id = :stale"
            values = {"ExpressionAttributeValues": dump({":stale": stale[sk]})}
        return {
            "Put": {
                "TableName": self._table,
                "Item": codec.pointer_item(schedule.room_id, sk, schedule.id),
                "ConditionExpression": condition,
                "ReturnValuesOnConditionCheckFailure": "ALL_OLD",
                **values,
            }
        }

    def _write_taking_place(
        self, room: str, max_per_room: int, build: Callable[[dict[str, str]], list[Any]], now: datetime | None = None
    ) -> None:
        """Run the transaction `build(stale)` makes, which may take a place in the room and claim
        pointers. When it fails only because a pointer names a schedule no longer live, or because
        the counter still counts deleted schedules, mend that and run it again.

        Raises Duplicate, NameTaken, LimitReached, Busy (a delivery holds the schedule's item; only
        with `now`) or Conflict (the schedule's own item was not as expected)."""
        stale: dict[str, str] = {}
        recounted = False
        for _ in range(_WRITE_ATTEMPTS):
            items = build(stale)
            try:
                self._transact(items)
                return
            except AwsError as err:
                failed = {sk: old for (_, sk), old in cancelled(err, items).items()}
                if not failed:
                    raise
            own = next((old for sk, old in failed.items() if sk.startswith(codec.SCHEDULE)), None)
            if own is not None:
                raise Busy(room) if now is not None and _in_flight(own, now) else Conflict(room)
            pointers = sorted(sk for sk in failed if sk.startswith((codec.POINTER, codec.NAME)))
            if pointers:  # a dedupe pointer (d#) before a name (n#): an identical create is a duplicate
                for sk in pointers:
                    holder_id = failed[sk].get("schedule_id", {}).get("S", "")
                    holder = self.get(room, holder_id)
                    if holder is not None and holder.status in models.LIVE_STATUSES:
                        raise Duplicate(holder) if sk.startswith(codec.POINTER) else NameTaken(holder)
                    stale[sk] = holder_id
                continue
            if recounted:
                raise LimitReached()  # full by a count taken since this create began
            counted = self.recount(room, codec.room_count(failed.get(ROOM_SK, {})))
            if counted is not None and counted >= max_per_room:
                raise LimitReached()
            recounted = counted is not None  # None: the counter moved meanwhile; try, count again
        raise Conflict(room)

    # --- reads -----------------------------------------------------------------------------
    def get(self, room_id: str, schedule_id: str) -> Schedule | None:
        out = self._db.get_item(TableName=self._table, Key=key(room_id, schedule_sk(schedule_id)), ConsistentRead=True)
        return codec.schedule_from_item(out["Item"]) if "Item" in out else None

    def list_room(self, room_id: str, now: datetime) -> list[Schedule]:
        """Every schedule of the room not yet expired by its retention TTL, oldest first."""
        raw = self._query_all(
            KeyConditionExpression="room_id = :r AND begins_with(sk, :p)",
            ExpressionAttributeValues=dump({":r": room_id, ":p": codec.SCHEDULE}),
        )
        items = [codec.schedule_from_item(item) for item in raw if not codec.is_expired(item, now)]
        items.sort(key=lambda s: s.created_at)
        return items

    def room_count(self, room_id: str) -> RoomCount | None:
        out = self._db.get_item(TableName=self._table, Key=key(room_id, ROOM_SK), ConsistentRead=True)
        return codec.room_count(out.get("Item") or {})

    # --- writes ----------------------------------------------------------------------------
    def insert(self, schedule: Schedule, max_per_room: int) -> None:
        """Write a new live schedule, its dedupe pointer and the room count in one transaction.

        Raises LimitReached, Duplicate, Conflict or BackendError."""
        put = {
            "Put": {
                "TableName": self._table,
                "Item": dump(codec.schedule_item(schedule)),
                "ConditionExpression": "attribute_not_exists(sk)",
            }
        }
        room = schedule.room_id
        self._write_taking_place(
            room,
            max_per_room,
            lambda stale: [
                self._take_place(room, max_per_room),
                put,
                *(self._claim(sk, schedule, stale) for sk in codec.pointer_sks(schedule)),
            ],
        )

    def replace(self, old: Schedule, new: Schedule, max_per_room: int, now: datetime) -> None:
        """Write `new` over `old` if nobody changed it meanwhile (same version) and no delivery
        holds it, moving the dedupe pointer and, when a retired schedule comes back to life (a
        snoozed one-shot), taking a place under the room limit, all in one transaction.

        Raises Busy, Conflict, Duplicate(existing id) or LimitReached."""
        room = new.room_id
        new.version = old.version + 1
        fields = {k: v for k, v in codec.schedule_fields(new).items() if k != "last_manual_run"}
        names = {f"#f{i}": k for i, k in enumerate(fields)}
        values = {f":f{i}": v for i, v in enumerate(fields.values())}
        update = "SET " + ", ".join(f"#f{i} = :f{i}" for i in range(len(fields)))
        cleared = {f"#e{i}": k for i, k in enumerate(k for k in codec.ENDS if k not in fields)}  # ends removed
        names.update(cleared)
        update += " REMOVE " + ", ".join(
            [*codec.LEGACY, *(["expires_at"] if new.status in models.LIVE_STATUSES else []), *cleared]
        )
        items: list[dict[str, Any]] = [
            {
                "Update": {
                    "TableName": self._table,
                    "Key": key(room, schedule_sk(new.id)),
                    "UpdateExpression": update,
                    "ConditionExpression": f"attribute_exists(sk) AND #v0 = :v0 AND {IDLE}",
                    "ExpressionAttributeNames": {**names, "#v0": "version"},
                    "ExpressionAttributeValues": dump({**values, ":v0": old.version, ":t": iso_utc(now)}),
                    "ReturnValuesOnConditionCheckFailure": "ALL_OLD",
                }
            }
        ]
        was_live = old.status in models.LIVE_STATUSES
        held = set(codec.pointer_sks(old)) if was_live else set()
        wanted = codec.pointer_sks(new)
        items += [{"Delete": {"TableName": self._table, "Key": key(room, sk)}} for sk in sorted(held - set(wanted))]
        if not was_live:
            items.append(self._take_place(room, max_per_room))
        claims = [sk for sk in wanted if sk not in held]
        self._write_taking_place(
            room, max_per_room, lambda stale: [*items, *(self._claim(sk, new, stale) for sk in claims)], now
        )

    def set_skip(self, schedule: Schedule, slot: str, now: datetime) -> None:
        """Add one occurrence not to deliver to those already skipped. Raises Busy while a
        delivery holds the schedule, Conflict if it changed."""
        try:
            self._db.update_item(
                TableName=self._table,
                Key=key(schedule.room_id, schedule_sk(schedule.id)),
                UpdateExpression="SET skips = :s, version = version + :one REMOVE " + ", ".join(codec.LEGACY),
                ConditionExpression=f"version = :v AND #s = :active AND {IDLE}",
                ExpressionAttributeNames={"#s": "status"},
                ExpressionAttributeValues=dump(
                    {
                        ":s": sorted(schedule.timing.skips | {slot}),
                        ":one": 1,
                        ":v": schedule.version,
                        ":active": models.ACTIVE,
                        ":t": iso_utc(now),
                    }
                ),
                ReturnValuesOnConditionCheckFailure="ALL_OLD",
            )
        except AwsError as err:
            if err.code == CONDITION_FAILED:
                busy = _in_flight(err.response.get("Item") or {}, now)
                raise (Busy(schedule.id) if busy else Conflict(schedule.id)) from err
            raise

    def mark_manual_run(self, schedule: Schedule, slot: str, not_since: str) -> None:
        """Record a run started by hand for `slot`, unless one was recorded after `not_since`: the
        fire function accepts that slot as the schedule's own. It is kept apart from the
        schedule's version (no change waits for it). Raises TooSoon, or Conflict when the
        schedule is no longer active."""
        try:
            self._db.update_item(
                TableName=self._table,
                Key=key(schedule.room_id, schedule_sk(schedule.id)),
                UpdateExpression="SET last_manual_run = :slot",
                ConditionExpression=f"#s = :active AND ({_NO_RUN_SINCE})",
                ExpressionAttributeNames={"#s": "status"},
                ExpressionAttributeValues=dump({":slot": slot, ":active": models.ACTIVE, ":since": not_since}),
                ReturnValuesOnConditionCheckFailure="ALL_OLD",
            )
        except AwsError as err:
            if err.code != CONDITION_FAILED:
                raise
            old = load(err.response.get("Item") or {})
            if old.get("status") == models.ACTIVE:
                raise TooSoon(str(old.get("last_manual_run", ""))) from err
            raise Conflict(schedule.id) from err

    def unmark_manual_run(self, schedule: Schedule, slot: str) -> None:
        """Forget a manual run that could not be started, unless another has been recorded since."""
        self._db.update_item(
            TableName=self._table,
            Key=key(schedule.room_id, schedule_sk(schedule.id)),
            UpdateExpression="SET last_manual_run = :previous",
            ConditionExpression="last_manual_run = :slot",
            ExpressionAttributeValues=dump({":slot": slot, ":previous": schedule.last_manual_run}),
        )

    def delete(self, room_id: str, schedule_id: str, now: datetime) -> Schedule:
        """Mark a live schedule deleted with one conditional write to its item, and return the
        schedule as it was. Its room place and dedupe pointer are freed lazily (module docstring).

        Raises Busy while a delivery holds it, Gone when it is not live (or does not exist)."""
        update = "SET #s = :deleted, expires_at = :e, updated_at = :t REMOVE inflight_slot, inflight_until"
        try:
            out = self._db.update_item(
                TableName=self._table,
                Key=key(room_id, schedule_sk(schedule_id)),
                UpdateExpression=update,
                ConditionExpression=f"#s IN (:active, :paused) AND {IDLE}",
                ExpressionAttributeNames={"#s": "status"},
                ExpressionAttributeValues=dump(
                    {
                        ":deleted": models.DELETED,
                        ":e": epoch(now + self._retention),
                        ":t": iso_utc(now),
                        ":active": models.ACTIVE,
                        ":paused": models.PAUSED,
                    }
                ),
                ReturnValues="ALL_OLD",
                ReturnValuesOnConditionCheckFailure="ALL_OLD",
            )
        except AwsError as err:
            if err.code == "TransactionConflictException":
                raise Busy(schedule_id) from err  # a fire's transaction is writing the item right now
            if err.code != CONDITION_FAILED:
                raise
            old = codec.schedule_from_item(err.response["Item"]) if err.response.get("Item") else None
            if old is not None and old.status in models.LIVE_STATUSES:
                raise Busy(schedule_id) from err
            raise Gone(old) from err
        return codec.schedule_from_item(out["Attributes"])

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
            "expires_at": epoch(now + self._retention),
            "updated_at": iso_utc(now),
        }
        if reason:
            sets["status_reason"] = reason
        sets.update(extra_set or {})
        names = {f"#a{i}": k for i, k in enumerate(sets)}
        values = {f":a{i}": v for i, v in enumerate(sets.values())}
        assignments = ", ".join(f"#a{i} = :a{i}" for i in range(len(sets)))
        condition = "#s IN (:active, :paused)"
        if require_idle:
            condition += f" AND {IDLE}"
            values[":t"] = iso_utc(now)
        room = schedule.room_id
        own = key(room, schedule_sk(schedule.id))
        items = [
            *(extra_items or []),
            {
                "Update": {
                    "TableName": self._table,
                    "Key": own,
                    "UpdateExpression": f"SET {assignments} REMOVE inflight_slot, inflight_until",
                    "ConditionExpression": condition,
                    "ExpressionAttributeNames": {**names, "#s": "status"},
                    "ReturnValuesOnConditionCheckFailure": "ALL_OLD",
                    "ExpressionAttributeValues": dump({**values, ":active": models.ACTIVE, ":paused": models.PAUSED}),
                }
            },
            {
                "Update": {
                    "TableName": self._table,
                    "Key": key(room, ROOM_SK),
                    "UpdateExpression": _COUNT_OUT,
                    "ExpressionAttributeValues": dump({":one": 1, ":zero": 0}),
                }
            },
            *({"Delete": {"TableName": self._table, "Key": key(room, sk)}} for sk in codec.pointer_sks(schedule)),
        ]
        try:
            self._transact(items)
        except AwsError as err:
            if err.code != "TransactionCanceledException":
                raise
            old = cancelled(err, items).get((room, schedule_sk(schedule.id)), {})
            if load(old).get("status") in models.LIVE_STATUSES and _in_flight(old, now):
                raise Busy(schedule.id) from err
            raise Conflict(schedule.id) from err

    # --- the room's live count -------------------------------------------------------------
    def recount(self, room_id: str, seen: RoomCount | None) -> int | None:
        """Count the room's live schedules with a consistent read, and store the count unless the
        counter moved since `seen` was read (any create, fire or earlier recount bumps `rev`).
        Returns the count, or None when the counter moved (count again, or let the caller retry)."""
        raw = self._query_all(
            KeyConditionExpression="room_id = :r AND begins_with(sk, :p)",
            ProjectionExpression="#s",
            ExpressionAttributeNames={"#s": "status"},
            ExpressionAttributeValues=dump({":r": room_id, ":p": codec.SCHEDULE}),
            ConsistentRead=True,
        )
        live = sum(1 for item in raw if item.get("status", {}).get("S") in models.LIVE_STATUSES)
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
                Key=key(room_id, ROOM_SK),
                UpdateExpression="SET live = :n, rev = if_not_exists(rev, :zero) + :one",
                ConditionExpression=condition,
                ExpressionAttributeValues=dump({":n": live, ":zero": 0, ":one": 1, **values}),
            )
        except AwsError as err:
            if err.code == CONDITION_FAILED:
                return None
            raise
        return live
