"""A schedule leaving the live set (missed, completed, failed) in one transaction: its live item goes,
its final copy takes its place under its retired key, and the room's place and pointers are freed with
it, or lazily (rooms.py). A fire's record retires its schedule under its live key instead (ledger.py),
and `move_to_retired_key` moves it from there."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from cronbell.adapters.aws import AwsError
from cronbell.adapters.dynamo import codec
from cronbell.adapters.dynamo.codec import SlotRef, dump, key, schedule_sk
from cronbell.adapters.dynamo.expressions import IDLE, LIVE, history_written, same_version
from cronbell.adapters.dynamo.rooms import Rooms
from cronbell.adapters.dynamo.table import CANCELLED, CONDITION_FAILED, Table, cancelled
from cronbell.core.domain import models
from cronbell.core.domain.errors import Busy, Conflict
from cronbell.core.domain.instants import iso_utc
from cronbell.core.domain.models import Schedule
from cronbell.core.domain.runs import Run

# run_now records its manual run apart from the version: a retirement written from an earlier read
# would drop it, and the manual fire would then find no run of its own to deliver
_SAME_MANUAL_RUN = "(attribute_not_exists(last_manual_run) OR last_manual_run = :manual)"
SlotRun = tuple[str, Run] | None  # (slot, run): a run recorded with the retirement
# a move writes its copy over an older one, or the audit copy of the same version, never over a copy it
# moved already (a manual run's claim on it does not move its version) or a newer one
_NO_MOVED_COPY = (
    f"attribute_not_exists(sk) OR attribute_not_exists(version) OR version < :v OR (version = :v AND {LIVE})"
)
_AS_MOVED = "#s = :s AND (attribute_not_exists(version) OR version = :v)"


def move_to_retired_key(t: Table, raw: dict[str, Any], schedule_id: str) -> bool:
    """Move a schedule retired under its live key (raw, as read: a fire's record retires it there) to
    its retired key, with plain writes: its copy (`codec.moved_item`), its run's slot done when an
    attempt left an item there, then its live item, only while that is still as read. Each write is
    idempotent, so the stream's redelivery, a reader that meets it first and the reconciler may all
    move it; one stopped halfway leaves the live item to be moved again. False when it is live, or no
    longer as read."""
    if codec.says_live(raw):
        return False
    version = int(raw.get("version", {}).get("N", "0"))
    try:
        t.db.put_item(
            TableName=t.name,
            Item=codec.moved_item(raw, schedule_id),
            ConditionExpression=_NO_MOVED_COPY,
            ExpressionAttributeNames={"#s": "status"},
            ExpressionAttributeValues=dump({":v": version, ":active": models.ACTIVE, ":paused": models.PAUSED}),
        )
    except AwsError as err:
        if err.code != CONDITION_FAILED:
            raise
    _end_its_slot(t, raw)
    values = dump({":s": raw["status"]["S"], ":v": version})
    try:
        t.db.delete_item(
            TableName=t.name,
            Key={"room_id": raw["room_id"], "sk": raw["sk"]},
            ConditionExpression=_AS_MOVED,
            ExpressionAttributeNames={"#s": "status"},
            ExpressionAttributeValues=values,
        )
    except AwsError as err:
        if err.code != CONDITION_FAILED:
            raise
        return False
    return True


def _end_its_slot(t: Table, raw: dict[str, Any]) -> None:
    """The slot of the run that retired the schedule, done with that run when an attempt left an item
    there (a claim kept when another slot took the schedule over, a run noted `sent`); otherwise the
    reconciler would end that item as a run of its own. Its run stays the copy's final run. The read
    is eventually consistent: such an item was written an attempt before the record."""
    history = codec.unwritten_run(raw)
    if history is None:
        return
    ref = SlotRef(history.room_id, history.owner, history.slot)
    found = t.db.get_item(TableName=t.name, Key=ref.key).get("Item")
    if found is None or codec.state_of(found) == codec.DONE:
        return
    expires = int(raw.get("expires_at", {}).get("N", "0"))
    try:
        t.db.update_item(TableName=t.name, **history_written(history, ref, expires))
    except AwsError as err:
        if err.code != CONDITION_FAILED:
            raise


class Retirement(Rooms):
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
        changes: dict[str, Any] = {}
        before: list[dict[str, Any]] = []
        if run is not None:
            slot, finished = run
            changes["last_run"] = codec.last_run_fields(finished)
            item = codec.run_item(SlotRef(schedule.room_id, schedule.id, slot), finished, self._t.expires(now))
            before.append({"Put": {"TableName": self._t.name, "Item": dump(item)}})
        self.finish(schedule, status, now, reason=reason, changes=changes, before=before, idle=True, as_read=as_read)

    def finish(
        self,
        schedule: Schedule,
        status: str,
        now: datetime,
        *,
        reason: str = "",
        changes: dict[str, Any] | None = None,
        before: list[dict[str, Any]] | None = None,
        idle: bool = False,
        as_read: bool = False,
        free_place: bool = True,
    ) -> None:
        """Retire `schedule` (as read, plus `changes`) in one transaction, after the writes of
        `before`. The live item must still be live (and idle, with `idle`; at the version read,
        with `as_read`). With `free_place`, the room counts one less and its pointers are dropped
        in the same transaction; without, they are freed lazily. Raises Busy while a delivery holds
        it, Conflict otherwise (the cause, the cancelled transaction, says which item failed)."""
        final = {
            "status": status,
            "expires_at": self._t.expires(now),
            "updated_at": iso_utc(now),
            "version": schedule.version + 1,
            **({"status_reason": reason} if reason else {}),
            **(changes or {}),
        }
        condition, values = self._still_live(schedule, now, idle, as_read)
        items = [
            *(before or []),
            {
                "Delete": {
                    "TableName": self._t.name,
                    "Key": key(schedule.room_id, schedule_sk(schedule.id)),
                    "ConditionExpression": condition,
                    "ExpressionAttributeNames": {"#s": "status"},
                    "ExpressionAttributeValues": dump(values),
                    "ReturnValuesOnConditionCheckFailure": "ALL_OLD",
                }
            },
            {"Put": {"TableName": self._t.name, "Item": dump(codec.retired_item(schedule, final))}},
            *(self.free(schedule) if free_place else []),
        ]
        try:
            self._t.transact(items)
        except AwsError as err:
            if err.code != CANCELLED:
                raise
            old = cancelled(err, items).get((schedule.room_id, schedule_sk(schedule.id)), {})
            manual = str(old.get("last_manual_run", {}).get("S", ""))
            if as_read and (codec.stored_version(old) != schedule.version or manual != schedule.last_manual_run):
                raise Conflict(schedule.id) from err  # changed (or run_now answered) since it was read
            if codec.says_live(old) and codec.in_flight(old, now):
                raise Busy(schedule.id) from err
            raise Conflict(schedule.id) from err

    @staticmethod
    def _still_live(schedule: Schedule, now: datetime, idle: bool, as_read: bool) -> tuple[str, dict[str, Any]]:
        condition = LIVE
        values: dict[str, Any] = {":active": models.ACTIVE, ":paused": models.PAUSED}
        if idle:
            condition += f" AND {IDLE}"
            values[":t"] = iso_utc(now)
        if as_read:  # and no run_now answered since the read: its retired copy keeps that manual run
            unchanged, version = same_version(schedule)
            condition += f" AND {unchanged} AND {_SAME_MANUAL_RUN}"
            values.update(version)
            values[":manual"] = schedule.last_manual_run
        return condition, values
