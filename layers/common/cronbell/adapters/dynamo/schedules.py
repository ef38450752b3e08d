"""Schedules, the room's live count and its pointers (dedupe keys, names), written together.

A live schedule lives under `s#<id>`, and every transaction that creates it or changes its
definition also writes its audit copy under `x#<id>` (codec). A fire's retirement (fired,
missed, completed, ...) is one transaction that removes the live item, writes the final retired
copy, counts one place less in the room and drops its pointers. A user's delete is one
conditional DeleteItem of the live item: the audit copy it leaves still says live and is read as
deleted (the reconciler finalizes it), and the room's place and pointers are freed lazily:
- `live` is an upper bound, never below the true count, so the limit always holds. A create that
  finds the room full recounts it (a consistent query, stored only if `rev` has not moved).
- a pointer naming a schedule no longer live is taken over by the next identical create, and
  the reconciler removes the rest.
Either way the room's listing (one Query on `s#`) reads live schedules only.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import datetime
from typing import Any

from cronbell.adapters.aws import AwsError
from cronbell.adapters.dynamo import codec
from cronbell.adapters.dynamo.codec import ROOM_SK, dump, epoch, key, load, retired_sk, schedule_sk
from cronbell.adapters.dynamo.table import CONDITION_FAILED, Table, cancelled
from cronbell.core import models
from cronbell.core.instants import iso_utc
from cronbell.core.models import Schedule
from cronbell.core.ports import Busy, Conflict, Duplicate, Gone, LimitReached, NameTaken, RoomCount, TooSoon
from cronbell.core.runs import Run

log = logging.getLogger(__name__)
_COUNT_IN = "SET live = if_not_exists(live, :zero) + :one, rev = if_not_exists(rev, :zero) + :one"
_COUNT_OUT = "SET live = if_not_exists(live, :one) - :one, rev = if_not_exists(rev, :zero) + :one"
_WRITE_ATTEMPTS = 6  # a stale pointer and a recount each cost one more; the rest is for races
IDLE = "(attribute_not_exists(inflight_until) OR inflight_until < :t)"
SlotRun = tuple[str, Run] | None  # (slot, run): a run recorded with a change
_NO_RUN_SINCE = "attribute_not_exists(last_manual_run) OR last_manual_run <= :since"


def same_version(schedule: Schedule) -> tuple[str, dict[str, Any]]:
    """The condition that the schedule's item is still at the version `schedule` was read at (an item
    written before versions were kept reads as version 0), and its value."""
    if schedule.version:
        return "version = :ver", {":ver": schedule.version}
    return "(attribute_not_exists(version) OR version = :ver)", {":ver": 0}


def stored_version(item: dict[str, Any]) -> int:
    """The version of a schedule item (raw), 0 when it has none."""
    return int(item.get("version", {}).get("N", "0"))


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
            own = next((old for sk, old in failed.items() if sk.startswith((codec.SCHEDULE, codec.RETIRED))), None)
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
        """The schedule, live or retired: one read for a live one, a second for a retired one."""
        out = self._db.get_item(TableName=self._table, Key=key(room_id, schedule_sk(schedule_id)), ConsistentRead=True)
        if "Item" in out:
            return codec.schedule_from_item(out["Item"])
        return self._retired(room_id, schedule_id)

    def _retired(self, room_id: str, schedule_id: str) -> Schedule | None:
        """The retired copy of a schedule with no live item (codec.retired_from_item)."""
        out = self._db.get_item(TableName=self._table, Key=key(room_id, retired_sk(schedule_id)), ConsistentRead=True)
        return codec.retired_from_item(out["Item"]) if "Item" in out else None

    def list_room(self, room_id: str, now: datetime, retired: bool = False) -> list[Schedule]:
        """The room's live schedules (one Query that reads no retired one) and, with `retired`,
        those kept for audit and not yet expired by their retention TTL; oldest first. The audit
        copies are read first: a schedule created meanwhile then shows once, as live, and a copy
        whose live item is gone is a deleted schedule's."""
        copies = self._query_prefix(room_id, codec.RETIRED) if retired else []
        raw = self._query_prefix(room_id, codec.SCHEDULE)
        live = {item["id"]["S"] for item in raw}
        items = [codec.schedule_from_item(item) for item in raw if not codec.is_expired(item, now)]
        items += [
            codec.retired_from_item(item)
            for item in copies
            if item["id"]["S"] not in live and not codec.is_expired(item, now)
        ]
        items.sort(key=lambda s: s.created_at)
        return items

    def _query_prefix(self, room_id: str, prefix: str) -> list[dict[str, Any]]:
        return self._query_all(
            KeyConditionExpression="room_id = :r AND begins_with(sk, :p)",
            ExpressionAttributeValues=dump({":r": room_id, ":p": prefix}),
        )

    def room_count(self, room_id: str) -> RoomCount | None:
        out = self._db.get_item(TableName=self._table, Key=key(room_id, ROOM_SK), ConsistentRead=True)
        return codec.room_count(out.get("Item") or {})

    # --- writes ----------------------------------------------------------------------------
    def insert(self, schedule: Schedule, max_per_room: int) -> None:
        """Write a new live schedule, its audit copy, its dedupe pointer and the room count in one
        transaction.

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
                self._audit(schedule),
                *(self._claim(sk, schedule, stale) for sk in codec.pointer_sks(schedule)),
            ],
        )

    def _audit(self, schedule: Schedule) -> dict[str, Any]:
        """Write a live schedule's audit copy: what a user's delete leaves (module docstring)."""
        return {"Put": {"TableName": self._table, "Item": dump(codec.audit_item(schedule))}}

    def replace(self, old: Schedule, new: Schedule, max_per_room: int, now: datetime) -> None:
        """Write `new` over `old` if nobody changed it meanwhile (same version) and no delivery
        holds it, with its audit copy, moving the dedupe pointer and, when a retired schedule comes
        back to life (a snoozed one-shot), taking a place under the room limit, all in one
        transaction.

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
        was_live = old.status in models.LIVE_STATUSES
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
            },
            self._audit(new),
        ]
        if not was_live:
            items = self._revive(old, new)
        held = set(codec.pointer_sks(old)) if was_live else set()
        wanted = codec.pointer_sks(new)
        items += [{"Delete": {"TableName": self._table, "Key": key(room, sk)}} for sk in sorted(held - set(wanted))]
        if not was_live:
            items.append(self._take_place(room, max_per_room))
        claims = [sk for sk in wanted if sk not in held]
        self._write_taking_place(
            room, max_per_room, lambda stale: [*items, *(self._claim(sk, new, stale) for sk in claims)], now
        )

    def _revive(self, old: Schedule, new: Schedule) -> list[dict[str, Any]]:
        """A retired schedule coming back to life is written under its live key, and its retired
        copy becomes its audit copy (a copy retired before retired keys, still under the live key,
        is overwritten in place)."""
        unchanged = "attribute_not_exists(sk) OR version = :v"
        return [
            {
                "Put": {
                    "TableName": self._table,
                    "Item": dump(item),
                    "ConditionExpression": unchanged,
                    "ExpressionAttributeValues": dump({":v": old.version}),
                    "ReturnValuesOnConditionCheckFailure": "ALL_OLD",
                }
            }
            for item in (codec.audit_item(new), codec.schedule_item(new))
        ]

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
        """Delete a live, idle schedule and return it as it was: one conditional DeleteItem of its
        live item. Its audit copy stays and is read as deleted; its room place and pointers are
        freed lazily (module docstring).

        Raises Busy while a delivery holds it, Gone when it is not live (or does not exist)."""
        try:
            out = self._db.delete_item(
                TableName=self._table,
                Key=key(room_id, schedule_sk(schedule_id)),
                ConditionExpression=f"#s IN (:active, :paused) AND {IDLE}",
                ExpressionAttributeNames={"#s": "status"},
                ExpressionAttributeValues=dump(
                    {":active": models.ACTIVE, ":paused": models.PAUSED, ":t": iso_utc(now)}
                ),
                ReturnValues="ALL_OLD",
                ReturnValuesOnConditionCheckFailure="ALL_OLD",
            )
        except AwsError as err:
            if err.code == "TransactionConflictException":
                raise Busy(schedule_id) from err  # a fire's transaction is writing the item right now
            if err.code != CONDITION_FAILED:
                raise
            old = err.response.get("Item")
            if old is None:  # no live item: only a retired copy can say what it was
                raise Gone(self._retired(room_id, schedule_id)) from err
            if load(old).get("status") in models.LIVE_STATUSES:
                raise Busy(schedule_id) from err  # live, so held by a delivery
            raise Gone(codec.schedule_from_item(old)) from err
        deleted = codec.schedule_from_item(out["Attributes"])
        if deleted.last_run is not None:
            self._keep_runs(deleted)
        return deleted

    def _keep_runs(self, deleted: Schedule) -> None:
        """Give the audit copy a deleted schedule leaves its run fields as they were (a fire writes
        them on the live item only), so a listing with `include_inactive` shows its last run. Only
        for a schedule that ran; best effort: the copy stays as it was if this fails."""
        fields = {
            "last_run": deleted.last_run,
            "fire_count": deleted.fire_count,
            "last_fired_at": deleted.last_fired_at,
            "delivered_count": deleted.delivered_count,
            "failure_streak": deleted.failure_streak,
        }
        names = {f"#{i}": name for i, name in enumerate(fields)}
        values = {f":{i}": value for i, value in enumerate(fields.values())}
        try:
            self._db.update_item(
                TableName=self._table,
                Key=key(deleted.room_id, retired_sk(deleted.id)),
                UpdateExpression="SET " + ", ".join(f"#{i} = :{i}" for i in range(len(fields))),
                ConditionExpression="attribute_exists(sk)",
                ExpressionAttributeNames=names,
                ExpressionAttributeValues=dump(values),
            )
        except AwsError:
            log.warning("a deleted schedule's audit copy keeps its older run fields", extra={"schedule_id": deleted.id})

    def retire(
        self,
        schedule: Schedule,
        status: str,
        now: datetime,
        reason: str = "",
        run: SlotRun = None,
        *,
        as_read: bool = False,
    ) -> None:
        """Move a live schedule to a final status (missed, completed), atomically freeing its room
        place and dedupe pointer, with the run of `run` = (slot, run) recorded in the same
        transaction. Raises Busy while a delivery holds it, Conflict if not live (or, with
        `as_read`, no longer at the version read)."""
        extra_set: dict[str, Any] = {}
        extra_items: list[dict[str, Any]] = []
        if run is not None:
            slot, finished = run
            extra_set["last_run"] = codec.run_fields(finished)
            item = self._run_item(schedule.room_id, schedule.id, slot, now, finished)
            extra_items.append({"Put": {"TableName": self._table, "Item": dump(item)}})
        self._finish(
            schedule,
            status,
            now,
            reason=reason,
            extra_set=extra_set,
            extra_items=extra_items,
            require_idle=True,
            as_read=as_read,
        )

    def _run_item(self, room_id: str, owner: str, slot: str, now: datetime, run: Run) -> dict[str, Any]:
        """A done slot that holds a run which needed no delivery (skipped, missed)."""
        return {
            "room_id": room_id,
            "sk": codec.slot_sk(owner, slot),
            "state": "done",
            "outcome": run.outcome,
            "run": codec.run_fields(run),
            "expires_at": epoch(now + self._retention),
        }

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
        as_read: bool = False,
        free_place: bool = True,
    ) -> None:
        """Retire `schedule` (as read, plus `extra_set`) in one transaction: its live item goes,
        the retired copy takes its place under its retired key and, with `free_place`, the room
        counts one less and its pointers are dropped (without, they are freed lazily, as a user's
        delete frees them). The live item must still be live (and idle, when asked). Raises Busy
        while a delivery holds it, Conflict otherwise."""
        sets: dict[str, Any] = {
            "status": status,
            "expires_at": epoch(now + self._retention),
            "updated_at": iso_utc(now),
            "version": schedule.version + 1,
        }
        if reason:
            sets["status_reason"] = reason
        sets.update(extra_set or {})
        retired = {**codec.schedule_item(schedule), **sets, "sk": retired_sk(schedule.id)}
        condition = "#s IN (:active, :paused)"
        values: dict[str, Any] = {":active": models.ACTIVE, ":paused": models.PAUSED}
        if require_idle:
            condition += f" AND {IDLE}"
            values[":t"] = iso_utc(now)
        if as_read:
            unchanged, version = same_version(schedule)
            condition += f" AND {unchanged}"
            values.update(version)
        room = schedule.room_id
        items = [
            *(extra_items or []),
            {
                "Delete": {
                    "TableName": self._table,
                    "Key": key(room, schedule_sk(schedule.id)),
                    "ConditionExpression": condition,
                    "ExpressionAttributeNames": {"#s": "status"},
                    "ExpressionAttributeValues": dump(values),
                    "ReturnValuesOnConditionCheckFailure": "ALL_OLD",
                }
            },
            {"Put": {"TableName": self._table, "Item": dump(retired)}},
        ]
        if free_place:
            items.append(
                {
                    "Update": {
                        "TableName": self._table,
                        "Key": key(room, ROOM_SK),
                        "UpdateExpression": _COUNT_OUT,
                        "ExpressionAttributeValues": dump({":one": 1, ":zero": 0}),
                    }
                }
            )
            items += [
                {"Delete": {"TableName": self._table, "Key": key(room, sk)}} for sk in codec.pointer_sks(schedule)
            ]
        try:
            self._transact(items)
        except AwsError as err:
            if err.code != "TransactionCanceledException":
                raise
            old = cancelled(err, items).get((room, schedule_sk(schedule.id)), {})
            if as_read and stored_version(old) != schedule.version:
                raise Conflict(schedule.id) from err  # changed since it was read
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
