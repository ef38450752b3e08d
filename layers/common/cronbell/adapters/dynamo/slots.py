"""The delivery ledger: one (owner, scheduled time) slot claimed before posting, done after.

A stored schedule's claim is one transaction with its item (marked in flight, so a delete
cannot succeed while a post is under way); a template schedule has no item, so its slot alone is
claimed with the same condition."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from cronbell.adapters.aws import AwsError
from cronbell.adapters.dynamo import codec
from cronbell.adapters.dynamo.codec import (
    BUMP,
    CLAIMED,
    DONE,
    INFLIGHT,
    SENT,
    claim_from_item,
    dump,
    epoch,
    identity,
    key,
    load,
    noted_dict,
    run_from_item,
    schedule_sk,
    slot_prefix,
    slot_sk,
)
from cronbell.adapters.dynamo.schedules import ScheduleTable, same_version, stored_version
from cronbell.adapters.dynamo.table import CONDITION_FAILED, cancelled
from cronbell.core import models
from cronbell.core.instants import iso_utc, parse_iso
from cronbell.core.models import Schedule
from cronbell.core.ports import Busy, Claim, Conflict, Finish, OpenClaim
from cronbell.core.runs import DELIVERED, Run

_RECORD_FIRE = f"SET last_fired_at = :t, fire_count = if_not_exists(fire_count, :z) + :one, {BUMP} REMOVE {INFLIGHT}"
# a slot may be claimed when it has never been, or when its claim outlived the lease (a crash)
_SLOT_FREE = "attribute_not_exists(sk) OR (#st = :claimed AND lease_until < :t)"
_CLAIM_SCHEDULE = "SET inflight_slot = :slot, inflight_until = :until, inflight_attempts = :n"
_SCHEDULE_IDLE = "(attribute_not_exists(inflight_until) OR inflight_until < :t OR inflight_slot = :slot)"
# a slot's run is recorded once: a write that ends a slot never overwrites one already done
_NOT_DONE = "(attribute_not_exists(#st) OR #st <> :done)"


def _already_done(err: AwsError, slot_write: dict[str, Any]) -> bool:
    """Whether a cancelled transaction whose first item is `slot_write` failed because the slot is
    done already: a retry of a write that was applied but whose answer never came back."""
    old = cancelled(err, [slot_write]).get(identity(slot_write))
    return old is not None and load(old).get("state") == DONE


class SlotLedger(ScheduleTable):
    def claim_slot(
        self, room_id: str, owner: str, slot: str, now: datetime, lease_seconds: int, schedule: Schedule | None
    ) -> Claim:
        """Claim one slot for delivery. DUPLICATE: done; HELD: claimed by an attempt whose lease
        is not over; SENT: posted by
        an attempt that could not record it; BUSY: another slot of the schedule is being
        delivered; INACTIVE: the schedule is no longer active; CHANGED: the schedule is not at the
        version read (a change, skip, snooze or another run landed since): read it again. A claim
        older than its lease (a crashed attempt) is taken over."""
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
            unchanged, version = same_version(schedule)
            items.insert(
                0,
                {
                    "Update": {
                        "TableName": self._table,
                        "Key": key(room_id, schedule_sk(schedule.id)),
                        "UpdateExpression": _CLAIM_SCHEDULE,
                        "ConditionExpression": f"#s = :active AND {_SCHEDULE_IDLE} AND {unchanged}",
                        "ExpressionAttributeNames": {"#s": "status"},
                        "ExpressionAttributeValues": dump(
                            {
                                **version,
                                ":slot": slot,
                                ":t": t,
                                ":until": until,
                                ":active": models.ACTIVE,
                                ":n": schedule.delivery_attempt(slot),
                            }
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
            raw = next(iter(failed.values()))
            if raw and schedule is not None and stored_version(raw) != schedule.version:
                return Claim.CHANGED
            old = load(raw)
            return Claim.BUSY if old.get("status") == models.ACTIVE else Claim.INACTIVE
        return Claim.CLAIMED

    def held_until(self, room_id: str, owner: str, slot: str) -> datetime | None:
        """When the claim on a slot ends (its lease), or None when it is not claimed."""
        out = self._db.get_item(TableName=self._table, Key=key(room_id, slot_sk(owner, slot)), ConsistentRead=True)
        item = load(out.get("Item") or {})
        return parse_iso(item["lease_until"]) if item.get("state") == CLAIMED else None

    def mark_slot_sent(self, room_id: str, owner: str, slot: str, message_id: str, noted: Finish | None = None) -> bool:
        """Note that the slot's run ended (its message went out, or it failed), when recording it
        failed: the retry (or the reconciler) then records what is noted, the run's real outcome and
        verdict, instead of delivering again. The claim stays held meanwhile. False when the slot is
        done already (a record that was applied though its answer was lost): nothing is written."""
        values: dict[str, Any] = {":sent": SENT, ":d": message_id, ":done": DONE}
        expression = "SET #st = :sent, detail = :d"
        if noted is not None:
            expression += ", noted = :n"
            values[":n"] = noted_dict(noted)
        try:
            self._db.update_item(
                TableName=self._table,
                Key=key(room_id, slot_sk(owner, slot)),
                UpdateExpression=expression,
                ConditionExpression=_NOT_DONE,
                ExpressionAttributeNames={"#st": "state"},
                ExpressionAttributeValues=dump(values),
            )
        except AwsError as err:
            if err.code == CONDITION_FAILED:
                return False
            raise
        return True

    def open_claim(self, room_id: str, owner: str, slot: str) -> OpenClaim | None:
        """The slot's claim as it stands (with what an attempt noted on it); None once done."""
        out = self._db.get_item(TableName=self._table, Key=key(room_id, slot_sk(owner, slot)), ConsistentRead=True)
        return claim_from_item(out.get("Item") or {"sk": {"S": ""}})

    def release_slot(self, room_id: str, owner: str, slot: str, schedule: Schedule | None) -> None:
        """Give a claim back after a failed attempt, so Lambda's retry can deliver at once. The
        schedule keeps the slot and its count of attempts, so the retry knows which one it is."""
        items: list[dict[str, Any]] = [
            {"Delete": {"TableName": self._table, "Key": key(room_id, slot_sk(owner, slot))}}
        ]
        if schedule is not None:
            items.append(
                {
                    "Update": {
                        "TableName": self._table,
                        "Key": key(room_id, schedule_sk(schedule.id)),
                        "UpdateExpression": "REMOVE inflight_until",
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
        finish: Finish | None = None,
    ) -> None:
        """Mark a slot done (outcome `delivered`, `failed`, ...) with its run, record the fire on
        the schedule (last run, failure streak, a pause the failure policy decided, the answer
        the next run is given) and clear its busy mark, in one transaction. With `final_status`
        (fired, delivery_failed) the schedule also leaves the live set. The schedule must still be
        at the version read (`schedule.version`): Conflict otherwise, and nothing is written. A slot
        done already is left as it is, and the call succeeds: its run was recorded by this same
        write, applied though its answer was lost (a record is never counted twice)."""
        done: dict[str, Any] = {":done": DONE, ":o": str(outcome)}
        slot_set = "SET #st = :done, outcome = :o"
        if finish is not None:
            slot_set += ", run = :run"
            done[":run"] = codec.run_fields(finish.run)
        slot_set += f" REMOVE {codec.CLAIM_ONLY}"
        slot_update = {
            "Update": {
                "TableName": self._table,
                "Key": key(room_id, slot_sk(owner, slot)),
                "UpdateExpression": slot_set,
                "ConditionExpression": _NOT_DONE,
                "ExpressionAttributeNames": {"#st": "state"},
                "ExpressionAttributeValues": dump(done),
                "ReturnValuesOnConditionCheckFailure": "ALL_OLD",
            }
        }
        try:
            self._record(room_id, slot_update, now, outcome, detail, schedule, final_status, finish)
        except AwsError as err:
            if not _already_done(err, slot_update):
                raise
        except (Conflict, Busy) as err:  # the schedule's condition failed too, or alone
            cause = err.__cause__
            if not (isinstance(cause, AwsError) and _already_done(cause, slot_update)):
                raise

    def _record(
        self,
        room_id: str,
        slot_update: dict[str, Any],
        now: datetime,
        outcome: str,
        detail: str,
        schedule: Schedule | None,
        final_status: str,
        finish: Finish | None,
    ) -> None:
        """complete_slot's transaction: the slot's write first (its cancellation reason is read)."""
        if schedule is None:
            self._transact([slot_update])
            return
        ran: dict[str, Any] = {}
        if finish is not None:
            ran = {"last_run": codec.run_fields(finish.run), "failure_streak": finish.streak}
            if finish.answer is not None:
                ran["last_answer"] = finish.answer
            if finish.run.outcome == DELIVERED and not finish.run.manual:  # what `count` counts
                ran["delivered_count"] = schedule.delivered_count + 1
        if final_status:
            fired = {"last_fired_at": iso_utc(now), "fire_count": schedule.fire_count + 1, **ran}
            if final_status == models.FIRED:
                fired["fired_at"] = iso_utc(now)
            delivered = finish.run.outcome == DELIVERED if finish is not None else outcome == DELIVERED
            reason = "" if delivered else detail  # a delivered run's detail is its message id, no reason
            self._finish(
                schedule,
                final_status,
                now,
                reason=reason,
                extra_set=fired,
                extra_items=[slot_update],
                as_read=True,
                free_place=False,
            )
            return
        values: dict[str, Any] = {":t": iso_utc(now), ":z": 0, ":one": 1}
        names: dict[str, str] = {}
        expression = _RECORD_FIRE
        if finish is not None and finish.pause:
            ran.update({"status": models.PAUSED, "status_reason": "failing", "updated_at": iso_utc(now)})
        for i, (name, value) in enumerate(ran.items()):
            names[f"#r{i}"] = name
            values[f":r{i}"] = value
        if ran:
            sets = ", ".join(f"#r{i} = :r{i}" for i in range(len(ran)))
            expression = expression.replace(" REMOVE ", f", {sets} REMOVE ")
        unchanged, version = same_version(schedule)
        values.update(version)
        record: dict[str, Any] = {
            "TableName": self._table,
            "Key": key(room_id, schedule_sk(schedule.id)),
            "UpdateExpression": expression,
            "ConditionExpression": f"attribute_exists(sk) AND {unchanged}",
            "ExpressionAttributeValues": dump(values),
        }
        if names:
            record["ExpressionAttributeNames"] = names
        items = [slot_update, {"Update": record}]
        try:
            self._transact(items)
        except AwsError as err:
            failed = cancelled(err, items)
            if (room_id, schedule_sk(schedule.id)) in failed:
                raise Conflict(schedule.id) from err
            raise

    def record_run(self, schedule: Schedule, slot: str, now: datetime, run: Run) -> bool:
        """Record a run that needed no delivery (skipped, missed) as a done slot, with the
        schedule's last run, in one transaction. False when the slot was already recorded (a
        duplicate invocation): nothing changes then. Conflict when the schedule is no longer at the
        version read (or gone): nothing is written, and the fire decides again."""
        room = schedule.room_id
        slot_put = {
            "Put": {
                "TableName": self._table,
                "Item": dump(self._run_item(room, schedule.id, slot, now, run)),
                "ConditionExpression": "attribute_not_exists(sk)",
            }
        }
        unchanged, version = same_version(schedule)
        last = {
            "Update": {
                "TableName": self._table,
                "Key": key(room, schedule_sk(schedule.id)),
                "UpdateExpression": f"SET last_run = :run, {BUMP}",
                "ConditionExpression": f"attribute_exists(sk) AND {unchanged}",
                "ExpressionAttributeValues": dump({":run": codec.run_fields(run), ":z": 0, ":one": 1, **version}),
            }
        }
        try:
            self._transact([slot_put, last])
        except AwsError as err:
            failed = cancelled(err, [slot_put, last])
            if (room, slot_sk(schedule.id, slot)) in failed:
                return False
            if failed:
                raise Conflict(schedule.id) from err
            raise
        return True

    def record_static_run(self, room_id: str, owner: str, slot: str, now: datetime, run: Run) -> bool:
        """Record a run of a template schedule that needed no delivery (too late) as a done slot;
        it has no item to hold a last run. False when the slot was already recorded."""
        try:
            self._db.put_item(
                TableName=self._table,
                Item=dump(self._run_item(room_id, owner, slot, now, run)),
                ConditionExpression="attribute_not_exists(sk)",
            )
        except AwsError as err:
            if err.code == CONDITION_FAILED:
                return False
            raise
        return True

    def runs(self, room_id: str, owner: str, limit: int) -> list[Run]:
        """A schedule's runs, newest first: one Query over its own slots only."""
        out = self._db.query(
            TableName=self._table,
            KeyConditionExpression="room_id = :r AND begins_with(sk, :p)",
            ExpressionAttributeValues=dump({":r": room_id, ":p": slot_prefix(owner)}),
            ScanIndexForward=False,
            Limit=limit,
        )
        found = (run_from_item(item) for item in out.get("Items", []))
        return [run for run in found if run is not None]
