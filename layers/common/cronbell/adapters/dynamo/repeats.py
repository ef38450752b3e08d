"""Repeat until done (core/domain/repeats.py) on the ledger's done slots: a repeat claimed, given back, an
occurrence acknowledged. Each write is conditioned on the occurrence's run (its `repeats`, its
`acknowledged_at`) and checks that the occurrence is still the schedule's current one
(`repeat_slot`) and the schedule neither paused nor deleted."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from cronbell.adapters.aws import AwsError
from cronbell.adapters.dynamo import codec
from cronbell.adapters.dynamo.codec import DONE, SlotRef, dump, identity, key, load, run_from_item
from cronbell.adapters.dynamo.table import Part, cancelled
from cronbell.core.domain import models
from cronbell.core.domain.instants import iso_utc
from cronbell.core.domain.models import Schedule
from cronbell.core.domain.ports import RepeatClaim
from cronbell.core.domain.runs import Run

# a run stores its repeat fields only once they are set (codec.run_fields): none yet reads as unset
_UNACKED = "(attribute_not_exists(#run.acknowledged_at) OR attribute_type(#run.acknowledged_at, :nul))"
_NOT_ESCALATED = "(attribute_not_exists(#run.escalated) OR #run.escalated = :no)"


class RepeatLedger(Part):
    def _items(
        self, schedule: Schedule, occurrence: str, run_set: str, run_condition: str, values: dict[str, Any]
    ) -> list[dict[str, Any]]:
        room = schedule.room_id
        live = schedule.status in models.LIVE_STATUSES
        sk = codec.schedule_sk(schedule.id) if live else codec.retired_sk(schedule.id)
        run_write = {
            "Update": {
                "TableName": self._t.name,
                "Key": SlotRef(room, schedule.id, occurrence).key,
                "UpdateExpression": run_set,
                "ConditionExpression": f"#st = :done AND {run_condition}",
                "ExpressionAttributeNames": {"#st": "state", "#run": "run"},
                "ExpressionAttributeValues": dump({":done": DONE, ":nul": "NULL", **values}),
                "ReturnValuesOnConditionCheckFailure": "ALL_OLD",
            }
        }
        current = {
            "ConditionCheck": {
                "TableName": self._t.name,
                "Key": key(room, sk),
                "ConditionExpression": "repeat_slot = :occ AND NOT (#s IN (:paused, :deleted))",
                "ExpressionAttributeNames": {"#s": "status"},
                "ExpressionAttributeValues": dump(
                    {":occ": occurrence, ":paused": models.PAUSED, ":deleted": models.DELETED}
                ),
            }
        }
        return [run_write, current]

    def claim_repeat(
        self,
        schedule: Schedule,
        occurrence: str,
        number: int,
        escalation: bool,
        following: tuple[int, str] | None = None,
    ) -> RepeatClaim:
        """Claim post `number` after `occurrence`: its run's `repeats` moves from below `number` to
        `number` (the escalation marks the run escalated) only while the run is unacknowledged and the
        occurrence is the schedule's current one: posted once, never after an acknowledgement
        written before the claim. A repeat that every attempt failed to post (its claim given back)
        does not hold up the ones after it: a later number claims over it, and it then finds itself
        posted already. The same write keeps the chain's next fire, `following` (number, due), on the
        slot (none after the last): its projection is that fire's entry."""
        before = "(attribute_not_exists(#run.repeats) OR #run.repeats < :k)"
        values: dict[str, Any] = {":k": number}
        if escalation:
            run_set, condition = "SET #run.escalated = :yes", f"{before} AND {_NOT_ESCALATED} AND {_UNACKED}"
            values.update({":yes": True, ":no": False})
        else:
            run_set, condition = "SET #run.repeats = :k", f"{before} AND {_UNACKED}"
        if following is not None:
            run_set += f", {codec.NEXT_REPEAT} = :next"
            values[":next"] = codec.next_repeat(*following)
        else:
            run_set += f" REMOVE {codec.NEXT_REPEAT}"
        items = self._items(schedule, occurrence, run_set, condition, values)
        try:
            self._t.transact(items)
        except AwsError as err:
            failed = cancelled(err, items)
            if not failed:
                raise
            old = failed.get(identity(items[0]))
            if old is None:
                return RepeatClaim.STOPPED
            run = load(old).get("run") or {}
            if run.get("acknowledged_at"):
                return RepeatClaim.ACKNOWLEDGED
            if int(run.get("repeats") or 0) >= number or (escalation and run.get("escalated")):
                return RepeatClaim.DUPLICATE
            return RepeatClaim.STOPPED
        return RepeatClaim.CLAIMED

    def release_repeat(self, schedule: Schedule, occurrence: str, number: int, escalation: bool) -> None:
        """Give a claimed post back (its chat post failed transiently), so Lambda's retry posts it."""
        values: dict[str, Any]
        if escalation:
            run_set, condition, values = (
                "SET #run.escalated = :no",
                "#run.escalated = :yes",
                {":no": False, ":yes": True},
            )
        else:
            run_set, condition, values = (
                "SET #run.repeats = :prev",
                "#run.repeats = :k",
                {":prev": number - 1, ":k": number},
            )
        self._t.db.update_item(
            TableName=self._t.name,
            Key=SlotRef(schedule.room_id, schedule.id, occurrence).key,
            UpdateExpression=run_set,
            ConditionExpression=condition,
            ExpressionAttributeNames={"#run": "run"},
            ExpressionAttributeValues=dump(values),
        )

    def defer_repeat(self, schedule: Schedule, occurrence: str, number: int, due: str) -> bool:
        """Repeat `number`, not posted yet, is due again at `due` (its user was quiet): kept on the slot
        under an entry name of its own. False when it no longer can be (posted, acknowledged, stopped)."""
        before = "(attribute_not_exists(#run.repeats) OR #run.repeats < :k)"
        run_set = f"SET {codec.NEXT_REPEAT} = :next"
        values = {":k": number, ":next": codec.next_repeat(number, due, moved=True)}
        items = self._items(schedule, occurrence, run_set, f"{before} AND {_UNACKED}", values)
        try:
            self._t.transact(items)
        except AwsError as err:
            if cancelled(err, items):
                return False
            raise
        return True

    def acknowledge(self, schedule: Schedule, occurrence: str, now: datetime) -> bool:
        """Acknowledge the schedule's current occurrence: its run gains `acknowledged_at` (and its
        pending repeat goes). False when it was acknowledged already or no longer repeats (a later
        occurrence, a snooze, a pause)."""
        run_set = f"SET #run.acknowledged_at = :at REMOVE {codec.NEXT_REPEAT}"
        items = self._items(schedule, occurrence, run_set, _UNACKED, {":at": iso_utc(now)})
        try:
            self._t.transact(items)
        except AwsError as err:
            if cancelled(err, items):
                return False
            raise
        return True

    def run_at(self, room_id: str, owner: str, slot: str) -> Run | None:
        """The run recorded on one slot, if it is done."""
        item = self._t.get(SlotRef(room_id, owner, slot).key)
        return run_from_item(item) if item is not None else None

    def mark_orphan(self, room_id: str, schedule_id: str, names: tuple[str, ...], now: datetime) -> None:
        """Mark the entries that fire a schedule with no item, for the projection to remove."""
        item = codec.orphan_item(room_id, schedule_id, names, self._t.expires(now))
        self._t.db.put_item(TableName=self._t.name, Item=dump(item))
