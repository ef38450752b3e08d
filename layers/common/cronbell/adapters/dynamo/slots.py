"""The delivery ledger: one (owner, scheduled time) slot claimed before posting, done after.

A stored schedule's claim is one transaction with its item (marked in flight, so a delete
cannot succeed while a post is under way); a template schedule has no item, so its slot alone is
claimed with the same condition."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from cronbell.adapters.aws import AwsError
from cronbell.adapters.dynamo.codec import dump, epoch, key, load, schedule_sk, slot_sk
from cronbell.adapters.dynamo.schedules import ScheduleTable
from cronbell.adapters.dynamo.table import cancelled
from cronbell.core import models
from cronbell.core.instants import iso_utc, parse_iso
from cronbell.core.models import Schedule
from cronbell.core.ports import Claim

CLAIMED, SENT, DONE = "claimed", "sent", "done"  # a slot's states
_RECORD_FIRE = (
    "SET last_fired_at = :t, fire_count = if_not_exists(fire_count, :z) + :one REMOVE inflight_slot, inflight_until"
)
# a slot may be claimed when it has never been, or when its claim outlived the lease (a crash)
_SLOT_FREE = "attribute_not_exists(sk) OR (#st = :claimed AND lease_until < :t)"
_SCHEDULE_IDLE = "(attribute_not_exists(inflight_until) OR inflight_until < :t OR inflight_slot = :slot)"


class SlotLedger(ScheduleTable):
    def claim_slot(
        self, room_id: str, owner: str, slot: str, now: datetime, lease_seconds: int, schedule: Schedule | None
    ) -> Claim:
        """Claim one slot for delivery. DUPLICATE: done; HELD: claimed by an attempt whose lease
        is not over; SENT: posted by
        an attempt that could not record it; BUSY: another slot of the schedule is being
        delivered; INACTIVE: the schedule is no longer active. A claim older than its lease (a
        crashed attempt) is taken over."""
        t = iso_utc(now)
        until = iso_utc(now + timedelta(seconds=lease_seconds))
        put = {
            "Put": {
                "TableName": self._table,
                "Item": dump(
                    {
                        "room_id": room_id,
                        "sk": slot_sk(owner, slot),
                        "state": CLAIMED,
                        "claimed_at": t,
                        "lease_until": until,
                        "expires_at": epoch(now + self._retention),
                    }
                ),
                "ConditionExpression": _SLOT_FREE,
                "ExpressionAttributeNames": {"#st": "state"},
                "ExpressionAttributeValues": dump({":claimed": CLAIMED, ":t": t}),
                "ReturnValuesOnConditionCheckFailure": "ALL_OLD",
            }
        }
        items = [put]
        if schedule is not None:
            items.insert(
                0,
                {
                    "Update": {
                        "TableName": self._table,
                        "Key": key(room_id, schedule_sk(schedule.id)),
                        "UpdateExpression": "SET inflight_slot = :slot, inflight_until = :until",
                        "ConditionExpression": "#s = :active AND " + _SCHEDULE_IDLE,
                        "ExpressionAttributeNames": {"#s": "status"},
                        "ExpressionAttributeValues": dump(
                            {":slot": slot, ":t": t, ":until": until, ":active": models.ACTIVE}
                        ),
                        "ReturnValuesOnConditionCheckFailure": "ALL_OLD",
                    }
                },
            )
        try:
            self._transact(items)
        except AwsError as err:
            failed = cancelled(err, items)
            if not failed:
                raise
            held = failed.get((room_id, slot_sk(owner, slot)))
            if held is not None:
                state = str(load(held).get("state", ""))
                return {SENT: Claim.SENT, CLAIMED: Claim.HELD}.get(state, Claim.DUPLICATE)
            old = load(next(iter(failed.values())))
            return Claim.BUSY if old.get("status") == models.ACTIVE else Claim.INACTIVE
        return Claim.CLAIMED

    def held_until(self, room_id: str, owner: str, slot: str) -> datetime | None:
        """When the claim on a slot ends (its lease), or None when it is not claimed."""
        out = self._db.get_item(TableName=self._table, Key=key(room_id, slot_sk(owner, slot)), ConsistentRead=True)
        item = load(out.get("Item") or {})
        return parse_iso(item["lease_until"]) if item.get("state") == CLAIMED else None

    def mark_slot_sent(self, room_id: str, owner: str, slot: str, message_id: str) -> None:
        """Note that the slot's message went out, when recording the fire itself failed: the
        retry then records it instead of posting again. The claim stays held meanwhile."""
        self._db.update_item(
            TableName=self._table,
            Key=key(room_id, slot_sk(owner, slot)),
            UpdateExpression="SET #st = :sent, detail = :d",
            ExpressionAttributeNames={"#st": "state"},
            ExpressionAttributeValues=dump({":sent": SENT, ":d": message_id}),
        )

    def release_slot(self, room_id: str, owner: str, slot: str, schedule: Schedule | None) -> None:
        """Give a claim back after a failed attempt, so Lambda's retry can deliver at once."""
        items: list[dict[str, Any]] = [
            {"Delete": {"TableName": self._table, "Key": key(room_id, slot_sk(owner, slot))}}
        ]
        if schedule is not None:
            items.append(
                {
                    "Update": {
                        "TableName": self._table,
                        "Key": key(room_id, schedule_sk(schedule.id)),
                        "UpdateExpression": "REMOVE inflight_slot, inflight_until",
                    }
                }
            )
        self._transact(items)

    def complete_slot(
        self,
        room_id: str,
        owner: str,
        slot: str,
        now: datetime,
        outcome: str,
        detail: str = "",
        schedule: Schedule | None = None,
        final_status: str = "",
    ) -> None:
        """Mark a slot done (outcome `delivered`, `failed`, ...), record the fire on the schedule
        and clear its busy mark. With `final_status` (fired, delivery_failed) the schedule also
        leaves the live set, in the same transaction."""
        slot_update = {
            "Update": {
                "TableName": self._table,
                "Key": key(room_id, slot_sk(owner, slot)),
                "UpdateExpression": "SET #st = :done, outcome = :o, detail = :d, completed_at = :t",
                "ExpressionAttributeNames": {"#st": "state"},
                "ExpressionAttributeValues": dump(
                    {":done": DONE, ":o": str(outcome), ":d": detail, ":t": iso_utc(now)}
                ),
            }
        }
        if schedule is None:
            self._transact([slot_update])
            return
        if final_status:
            fired = {"last_fired_at": iso_utc(now), "fire_count": schedule.fire_count + 1}
            if final_status == models.FIRED:
                fired["fired_at"] = iso_utc(now)
            self._finish(schedule, final_status, now, reason=detail, extra_set=fired, extra_items=[slot_update])
            return
        record = {
            "Update": {
                "TableName": self._table,
                "Key": key(room_id, schedule_sk(schedule.id)),
                "UpdateExpression": _RECORD_FIRE,
                "ConditionExpression": "attribute_exists(sk)",
                "ExpressionAttributeValues": dump({":t": iso_utc(now), ":z": 0, ":one": 1}),
            }
        }
        self._transact([slot_update, record])
