"""Schedules: read, created, changed, skipped, deleted; each write with the room's count and pointers
(rooms.py) and the audit copy in the same transaction.

A live schedule lives under `s#<id>`, and every transaction that creates it or changes its
definition also writes its audit copy under `x#<id>` (codec). A retirement (fired, missed,
completed, ...) is one transaction (retirement.py). A user's delete is one conditional DeleteItem
of the live item: the audit copy it leaves still says live and is read as deleted (the reconciler
finalizes it), and the room's place and pointers are freed lazily (rooms.py). Either way the room's
listing (one Query on `s#`) reads live schedules only.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import datetime
from typing import Any

from cronbell.adapters.aws import AwsError
from cronbell.adapters.dynamo import codec
from cronbell.adapters.dynamo.codec import ROOM_SK, SlotRef, dump, key, load, retired_sk, schedule_sk
from cronbell.adapters.dynamo.expressions import IDLE, LIVE, Update
from cronbell.adapters.dynamo.retirement import move_to_retired_key
from cronbell.adapters.dynamo.rooms import Rooms
from cronbell.adapters.dynamo.table import CONDITION_FAILED, ITEM_CONFLICT, cancelled
from cronbell.core.domain import models
from cronbell.core.domain.errors import (
    Busy,
    Conflict,
    Duplicate,
    Gone,
    LimitReached,
    NameTaken,
    QuietHoursChanged,
    TooSoon,
)
from cronbell.core.domain.instants import iso_utc
from cronbell.core.domain.models import Schedule

log = logging.getLogger(__name__)
_WRITE_ATTEMPTS = 6  # a stale pointer and a recount each cost one more; the rest is for races
_NO_RUN_SINCE = "attribute_not_exists(last_manual_run) OR last_manual_run <= :since"


class Schedules(Rooms):
    # --- reads -----------------------------------------------------------------------------
    def get(self, room_id: str, schedule_id: str) -> Schedule | None:
        """The schedule, live or retired: one read for a live one, a second for a retired one. A copy
        that says live, read after no live item was found, may be the audit copy of a schedule that a
        parallel call brought back to life between the two reads: the live item is read once more. One
        retired under its live key and not moved yet (the projector's lag) is moved first, so that a
        write on what is read finds it under the key its status names (`codec.item_key`)."""
        item = self._t.get(key(room_id, schedule_sk(schedule_id)))
        if item is not None and codec.says_live(item):
            return codec.schedule_from_item(item)
        if item is not None:  # retired in place, not moved yet: moved first, so what is read is where it says
            move_to_retired_key(self._t, item, schedule_id)
        return self.get_retired(room_id, schedule_id)

    def get_retired(self, room_id: str, schedule_id: str) -> Schedule | None:
        """`get` once no live item was found: the retired copy (or the live item again, see `get`)."""
        copy = self._t.get(key(room_id, retired_sk(schedule_id)))
        if copy is None:
            return None
        if codec.says_live(copy) and (again := self._t.get(key(room_id, schedule_sk(schedule_id)))) is not None:
            if codec.says_live(again):
                return codec.schedule_from_item(again)
            move_to_retired_key(self._t, again, schedule_id)  # retired in place since the first read
            return self.get(room_id, schedule_id)
        return codec.retired_from_item(copy)

    def _retired(self, room_id: str, schedule_id: str) -> Schedule | None:
        """The retired copy of a schedule with no live item (codec.retired_from_item)."""
        item = self._t.get(key(room_id, retired_sk(schedule_id)))
        return codec.retired_from_item(item) if item is not None else None

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
        return self._t.query_all(
            KeyConditionExpression="room_id = :r AND begins_with(sk, :p)",
            ExpressionAttributeValues=dump({":r": room_id, ":p": prefix}),
        )

    # --- writes ----------------------------------------------------------------------------
    def insert(self, schedule: Schedule, max_per_room: int) -> None:
        """Write a new live schedule, its audit copy, its dedupe pointer and the room count in one
        transaction.

        Raises LimitReached, Duplicate, Conflict, QuietHoursChanged or BackendError."""
        put = {
            "Put": {
                "TableName": self._t.name,
                "Item": dump(codec.schedule_item(schedule)),
                "ConditionExpression": "attribute_not_exists(sk)",
            }
        }
        room = schedule.room_id
        unset = schedule.user_id if schedule.quiet_hours_set is False else ""  # read as absent
        self._write_taking_place(
            room,
            max_per_room,
            lambda stale: [
                self.take_place(room, max_per_room, unset),
                put,
                self._audit(schedule),
                *(self.point(sk, schedule, stale) for sk in codec.pointer_sks(schedule)),
            ],
            quiet_unset=(unset,) if unset else (),
        )

    def _audit(self, schedule: Schedule) -> dict[str, Any]:
        """Write a live schedule's audit copy: what a user's delete leaves (module docstring)."""
        return {"Put": {"TableName": self._t.name, "Item": dump(codec.audit_item(schedule))}}

    def replace(self, old: Schedule, new: Schedule, max_per_room: int, now: datetime) -> None:
        """Write `new` over `old` if nobody changed it meanwhile (same version) and no delivery
        holds it, with its audit copy, moving the dedupe pointer and, when a retired schedule comes
        back to life (a snoozed one-shot), taking a place under the room limit, all in one
        transaction.

        Raises Busy, Conflict, Duplicate(existing id) or LimitReached."""
        room = new.room_id
        new.version = old.version + 1
        was_live = old.status in models.LIVE_STATUSES
        items = self._overwrite(old, new, now) if was_live else self._revive(old, new, now)
        held = set(codec.pointer_sks(old)) if was_live else set()
        wanted = codec.pointer_sks(new)
        items += [self.drop(room, sk) for sk in sorted(held - set(wanted))]
        unset = new.user_id if not was_live and new.quiet_hours_set is False else ""  # as insert's
        if not was_live:
            items.append(self.take_place(room, max_per_room, unset))
        claims = [sk for sk in wanted if sk not in held]
        self._write_taking_place(
            room,
            max_per_room,
            lambda stale: [*items, *(self.point(sk, new, stale) for sk in claims)],
            now,
            quiet_unset=(unset,) if unset else (),
        )

    def _overwrite(self, old: Schedule, new: Schedule, now: datetime) -> list[dict[str, Any]]:
        """A live schedule's item rewritten as `new` (an end, calendar or exemption it no longer has removed),
        with its audit copy."""
        fields = {k: v for k, v in codec.schedule_fields(new).items() if k != "last_manual_run"}
        update = Update().set_all(fields).remove(*codec.LEGACY, *(k for k in codec.WHEN_SET if k not in fields))
        if new.status in models.LIVE_STATUSES:
            update.remove("expires_at")
        condition = f"attribute_exists(sk) AND #v0 = :v0 AND {IDLE}"
        request = update.request(condition, {"#v0": "version"}, {":v0": old.version, ":t": iso_utc(now)})
        write = {
            "TableName": self._t.name,
            "Key": key(new.room_id, schedule_sk(new.id)),
            **request,
            "ReturnValuesOnConditionCheckFailure": "ALL_OLD",
        }
        return [{"Update": write}, self._audit(new)]

    def _revive(self, old: Schedule, new: Schedule, now: datetime) -> list[dict[str, Any]]:
        """A retired schedule coming back to life is written under its live key, and its retired
        copy becomes its audit copy (a copy retired before retired keys, still under the live key,
        is overwritten in place), unless a run started by hand is being delivered from it. The runs
        started by hand that waited on the retired copy wait on the live item: the delivery they
        waited for has ended, so each keeps its entry and is delivered once. The run that retired it,
        which its retired copy kept as its final run, is written to its slot, as its history."""
        unchanged = f"attribute_not_exists(sk) OR (version = :v AND {IDLE})"
        final = codec.final_run(self._t.get(key(old.room_id, retired_sk(old.id))) or {})
        history = []
        if final is not None:
            slot, outcome, run = final
            done = codec.run_item(SlotRef(old.room_id, old.id, slot), run, self._t.expires(now), outcome)
            history = [{"Put": {"TableName": self._t.name, "Item": dump(done)}}]
        return history + [
            {
                "Put": {
                    "TableName": self._t.name,
                    "Item": dump(item),
                    "ConditionExpression": unchanged,
                    "ExpressionAttributeValues": dump({":v": old.version, ":t": iso_utc(now)}),
                    "ReturnValuesOnConditionCheckFailure": "ALL_OLD",
                }
            }
            for item in (codec.audit_item(new), codec.waiting_item(new))
        ]

    def _write_taking_place(
        self,
        room: str,
        max_per_room: int,
        build: Callable[[dict[str, str]], list[Any]],
        now: datetime | None = None,
        quiet_unset: tuple[str, ...] = (),
    ) -> None:
        """Run the transaction `build(stale)` makes, which may take a place in the room and claim
        pointers. When it fails only because a pointer names a schedule no longer live, or because
        the counter still counts deleted schedules, mend that and run it again.

        Raises Duplicate, NameTaken, LimitReached, Busy (a delivery holds the schedule's item; only
        with `now`), Conflict (the schedule's own item was not as expected) or QuietHoursChanged (a
        user of `quiet_unset`, whose rule was read as absent, has one now)."""
        stale: dict[str, str] = {}
        recounted = False
        for _ in range(_WRITE_ATTEMPTS):
            items = build(stale)
            try:
                self._t.transact(items)
                return
            except AwsError as err:
                failed = {sk: old for (_, sk), old in cancelled(err, items).items()}
                if not failed:
                    raise
            own = next((old for sk, old in failed.items() if sk.startswith((codec.SCHEDULE, codec.RETIRED))), None)
            if own is not None:
                raise Busy(room) if now is not None and codec.in_flight(own, now) else Conflict(room)
            if codec.room_quiet_users(failed.get(ROOM_SK, {})) & set(quiet_unset):
                raise QuietHoursChanged(room)
            pointers = sorted(sk for sk in failed if sk.startswith((codec.POINTER, codec.NAME)))
            if pointers:  # a dedupe pointer (d#) before a name (n#): an identical create is a duplicate
                self._stale_pointers(room, pointers, failed, stale)
                continue
            if recounted:
                raise LimitReached()  # full by a count taken since this create began
            counted = self.recount(room, codec.room_count(failed.get(ROOM_SK, {})))
            if counted is not None and counted >= max_per_room:
                raise LimitReached()
            recounted = counted is not None  # None: the counter moved meanwhile; try, count again
        raise Conflict(room)

    def _stale_pointers(
        self, room: str, pointers: list[str], failed: dict[str, dict[str, Any]], stale: dict[str, str]
    ) -> None:
        """Each pointer that failed names a live schedule (Duplicate, NameTaken) or is stale: taken
        over by the next attempt."""
        for sk in pointers:
            holder_id = codec.pointer_target(failed[sk])
            holder = self.get(room, holder_id)
            if holder is not None and holder.status in models.LIVE_STATUSES:
                raise Duplicate(holder) if sk.startswith(codec.POINTER) else NameTaken(holder)
            stale[sk] = holder_id

    def set_skip(self, schedule: Schedule, slot: str, now: datetime) -> None:
        """Add one occurrence not to deliver to those already skipped. Raises Busy while a
        delivery holds the schedule, Conflict if it changed."""
        update = Update().set("skips", sorted(schedule.timing.skips | {slot})).clause("version = version + :one", one=1)
        update.remove(*codec.LEGACY)
        values = {":v": schedule.version, ":active": models.ACTIVE, ":t": iso_utc(now)}
        try:
            self._t.db.update_item(
                TableName=self._t.name,
                Key=key(schedule.room_id, schedule_sk(schedule.id)),
                **update.request(f"version = :v AND #s = :active AND {IDLE}", {"#s": "status"}, values),
                ReturnValuesOnConditionCheckFailure="ALL_OLD",
            )
        except AwsError as err:
            if err.code == CONDITION_FAILED:
                busy = codec.in_flight(err.response.get("Item") or {}, now)
                raise (Busy(schedule.id) if busy else Conflict(schedule.id)) from err
            raise

    def mark_manual_run(self, schedule: Schedule, slot: str, not_since: str) -> None:
        """Record a run started by hand for `slot`, unless one was recorded after `not_since`: the
        fire function accepts that slot as the schedule's own. It is kept apart from the
        schedule's version (no change waits for it). Raises TooSoon, or Conflict when the
        schedule is no longer active."""
        try:
            self._t.db.update_item(
                TableName=self._t.name,
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

    def wait_manual(self, schedule: Schedule, slot: str, now: datetime) -> bool:
        """Keep a run started by hand (`slot`) waiting on the schedule, beside any other that waits, for
        the delivery under way, which must still hold it; the version moves, so that delivery's record
        reads it. False when no delivery holds the schedule any more: start it now instead. (Also
        False while one slot waits as a string, as 0.4.0 wrote it: until that run is delivered.)"""
        update = Update().add(codec.WAITING, {slot}).clause(codec.BUMP, z=0, one=1)
        condition = "#s = :active AND inflight_until >= :t AND (attribute_not_exists(#w) OR attribute_type(#w, :ss))"
        values = {":active": models.ACTIVE, ":t": iso_utc(now), ":ss": "SS"}
        try:
            self._t.db.update_item(
                TableName=self._t.name,
                Key=key(schedule.room_id, schedule_sk(schedule.id)),
                **update.request(condition, {"#s": "status", "#w": codec.WAITING}, values),
            )
        except AwsError as err:
            if err.code != CONDITION_FAILED:
                raise
            return False
        return True

    def unmark_manual_run(self, schedule: Schedule, slot: str) -> None:
        """Forget a manual run that could not be started, unless another has been recorded since."""
        self._t.db.update_item(
            TableName=self._t.name,
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
            out = self._t.db.delete_item(
                TableName=self._t.name,
                Key=key(room_id, schedule_sk(schedule_id)),
                ConditionExpression=f"{LIVE} AND {IDLE}",
                ExpressionAttributeNames={"#s": "status"},
                ExpressionAttributeValues=dump(
                    {":active": models.ACTIVE, ":paused": models.PAUSED, ":t": iso_utc(now)}
                ),
                ReturnValues="ALL_OLD",
                ReturnValuesOnConditionCheckFailure="ALL_OLD",
            )
        except AwsError as err:
            refused = self._refused_delete(err, room_id, schedule_id)
            if refused is None:
                raise
            raise refused from err
        deleted = codec.schedule_from_item(out["Attributes"])
        if deleted.last_run is not None:
            self._keep_runs(deleted)
        return deleted

    def _refused_delete(self, err: AwsError, room_id: str, schedule_id: str) -> Exception | None:
        """What a refused delete means (None: a failure that is not a refusal)."""
        if err.code == ITEM_CONFLICT:
            return Busy(schedule_id)  # a fire's transaction is writing the item right now
        if err.code != CONDITION_FAILED:
            return None
        old = err.response.get("Item")
        if old is None:  # no live item: only a retired copy can say what it was
            return Gone(self._retired(room_id, schedule_id))
        if codec.says_live(old):
            return Busy(schedule_id)  # live, so held by a delivery
        return Gone(codec.schedule_from_item(old))

    def _keep_runs(self, deleted: Schedule) -> None:
        """Give the audit copy a deleted schedule leaves its run fields as they were (a fire writes
        them on the live item only), so a listing with `include_inactive` shows its last run. Only
        for a schedule that ran; best effort: the copy stays as it was if this fails."""
        update = Update().set_all(codec.run_counters(deleted))
        try:
            self._t.db.update_item(
                TableName=self._t.name,
                Key=key(deleted.room_id, retired_sk(deleted.id)),
                **update.request("attribute_exists(sk)"),
            )
        except AwsError:
            log.warning("a deleted schedule's audit copy keeps its older run fields", extra={"schedule_id": deleted.id})
