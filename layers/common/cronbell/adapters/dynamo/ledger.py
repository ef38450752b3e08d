"""The delivery ledger: one slot (`codec.SlotRef`: room, owner, scheduled time) claimed before
posting, done after.

A stored schedule's claim is one transaction with its item (marked in flight, so a delete
cannot succeed while a post is under way); a template schedule has no item, so its slot alone is
claimed, and completed, with one conditional write each (no transaction: half the units)."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime, timedelta
from typing import Any

from cronbell.adapters.aws import AwsError
from cronbell.adapters.dynamo import codec
from cronbell.adapters.dynamo.codec import BUMP, CLAIMED, DONE, INFLIGHT, SENT, SlotRef, dump, key, schedule_sk
from cronbell.adapters.dynamo.expressions import Update, same_version
from cronbell.adapters.dynamo.retirement import Retirement
from cronbell.adapters.dynamo.table import CONDITION_FAILED, cancelled
from cronbell.core.domain import models
from cronbell.core.domain.errors import Busy, Conflict
from cronbell.core.domain.firing import waited_turn
from cronbell.core.domain.instants import iso_utc
from cronbell.core.domain.models import Schedule
from cronbell.core.domain.ports import Claim, Finish, OpenClaim
from cronbell.core.domain.runs import DELIVERED, Run

# a slot may be claimed when it has never been, or when its claim outlived the lease (a crash)
_SLOT_FREE = "attribute_not_exists(sk) OR (#st = :claimed AND lease_until < :t)"
_CLAIM_SCHEDULE = "SET inflight_slot = :slot, inflight_until = :until, inflight_attempts = :n"
_SCHEDULE_IDLE = "(attribute_not_exists(inflight_until) OR inflight_until < :t OR inflight_slot = :slot)"
# a slot's run is recorded once: a write that ends a slot never overwrites one already done
_NOT_DONE = "(attribute_not_exists(#st) OR #st <> :done)"


def _already_done(err: AwsError, slot_write: dict[str, Any]) -> bool:
    """Whether a cancelled transaction whose first item is `slot_write` failed because the slot is
    done already: a retry of a write that was applied but whose answer never came back."""
    old = cancelled(err, [slot_write]).get(codec.identity(slot_write))
    return old is not None and codec.state_of(old) == DONE


def _done_waiting(update: Update, schedule: Schedule, slot: str) -> None:
    """A run started by hand that waited its turn is done (`slot`: its ledger key): its time leaves the
    schedule's `manual_waiting`; any other that waits still does."""
    waited = waited_turn(schedule, slot)
    if waited is not None:
        if schedule.manual_waiting == {waited}:  # as a whole: 0.4.0 kept one slot as a string
            update.remove(codec.WAITING)
        else:
            update.delete(codec.WAITING, {waited})


class SlotLedger(Retirement):
    def claim_slot(
        self, room_id: str, owner: str, slot: str, now: datetime, lease_seconds: int, schedule: Schedule | None
    ) -> Claim:
        """Claim one slot for delivery. DUPLICATE: done; HELD: claimed by an attempt whose lease
        is not over; SENT: posted by an attempt that could not record it; BUSY: another slot of the
        schedule is being delivered; INACTIVE: the schedule is no longer active; CHANGED: the
        schedule is not at the version read (a change, skip, snooze or another run landed since):
        read it again. A claim older than its lease (a crashed attempt) is taken over."""
        ref = SlotRef(room_id, owner, slot)
        t = iso_utc(now)
        until = iso_utc(now + timedelta(seconds=lease_seconds))
        put = {
            "Put": {
                "TableName": self._t.name,
                "Item": dump(codec.claim_item(ref, t, until, self._t.expires(now))),
                "ConditionExpression": _SLOT_FREE,
                "ExpressionAttributeNames": {"#st": "state"},
                "ExpressionAttributeValues": dump({":claimed": CLAIMED, ":t": t}),
                "ReturnValuesOnConditionCheckFailure": "ALL_OLD",
            }
        }
        if schedule is None:  # a template schedule: its slot alone, one conditional write
            return self._claim_alone(ref, put["Put"])
        items = [self._mark_in_flight(ref, schedule, t, until), put]
        try:
            self._t.transact(items)
        except AwsError as err:
            failed = cancelled(err, items)
            if not failed:
                raise
            return _refused_claim(ref, failed, schedule)
        return Claim.CLAIMED

    def _claim_alone(self, ref: SlotRef, put: dict[str, Any]) -> Claim:
        try:
            self._t.db.put_item(**put)
        except AwsError as err:
            if err.code != CONDITION_FAILED:
                raise
            return _refused_claim(ref, {ref.identity: err.response.get("Item") or {}}, None)
        return Claim.CLAIMED

    def _mark_in_flight(self, ref: SlotRef, schedule: Schedule, t: str, until: str) -> dict[str, Any]:
        """The schedule's part of a claim: still active, at the version read, and held by no other
        slot. A schedule that ran out after run_now was answered (its manual run is still delivered)
        is marked on its retired copy, still in the final status read."""
        unchanged, version = same_version(schedule)
        values = {
            **version,
            ":slot": ref.slot,
            ":t": t,
            ":until": until,
            ":active": _claimable_status(schedule),
            ":n": schedule.delivery_attempt(ref.slot),
        }
        return {
            "Update": {
                "TableName": self._t.name,
                "Key": codec.item_key(schedule),
                "UpdateExpression": _CLAIM_SCHEDULE,
                "ConditionExpression": f"#s = :active AND {_SCHEDULE_IDLE} AND {unchanged}",
                "ExpressionAttributeNames": {"#s": "status"},
                "ExpressionAttributeValues": dump(values),
                "ReturnValuesOnConditionCheckFailure": "ALL_OLD",
            }
        }

    def held_until(self, room_id: str, owner: str, slot: str) -> datetime | None:
        """When the claim on a slot ends (its lease), or None when it is not claimed."""
        return codec.lease_from_item(self._t.get(SlotRef(room_id, owner, slot).key) or {})

    def mark_slot_sent(self, room_id: str, owner: str, slot: str, message_id: str, noted: Finish | None = None) -> bool:
        """Note that the slot's run ended (its message went out, or it failed), when recording it
        failed: the retry (or the reconciler) then records what is noted, the run's real outcome and
        verdict, instead of delivering again. The claim stays held meanwhile. False when the slot is
        done already (a record that was applied though its answer was lost): nothing is written."""
        update = Update().clause("#st = :sent", sent=SENT).set("detail", message_id)
        if noted is not None:
            update.set("noted", codec.noted_dict(noted))
        try:
            self._t.db.update_item(
                TableName=self._t.name,
                Key=SlotRef(room_id, owner, slot).key,
                **update.request(_NOT_DONE, {"#st": "state"}, {":done": DONE}),
            )
        except AwsError as err:
            if err.code == CONDITION_FAILED:
                return False
            raise
        return True

    def open_claim(self, room_id: str, owner: str, slot: str) -> OpenClaim | None:
        """The slot's claim as it stands (with what an attempt noted on it); None once done."""
        return codec.claim_from_item(self._t.get(SlotRef(room_id, owner, slot).key) or {"sk": {"S": ""}})

    def release_slot(self, room_id: str, owner: str, slot: str, schedule: Schedule | None) -> None:
        """Give a claim back after a failed attempt, so Lambda's retry can deliver at once. The
        schedule keeps the slot and its count of attempts, so the retry knows which one it is."""
        items: list[dict[str, Any]] = [
            {"Delete": {"TableName": self._t.name, "Key": SlotRef(room_id, owner, slot).key}}
        ]
        if schedule is not None:
            schedule_key = codec.item_key(schedule)
            items.append(
                {
                    "Update": {
                        "TableName": self._t.name,
                        "Key": schedule_key,
                        "UpdateExpression": "REMOVE inflight_until",
                    }
                }
            )
        self._t.transact(items)

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
        update = Update().clause("#st = :done", done=DONE).set("outcome", str(outcome))
        if finish is not None:
            update.set("run", codec.run_fields(finish.run))
            if finish.repeat_slot and finish.repeat_due:  # its projection is the first repeat's entry
                update.set(codec.NEXT_REPEAT, codec.next_repeat(1, finish.repeat_due))
        update.remove(codec.CLAIM_ONLY)
        slot_update = {
            "Update": {
                "TableName": self._t.name,
                "Key": SlotRef(room_id, owner, slot).key,
                **update.request(_NOT_DONE, {"#st": "state"}),
                "ReturnValuesOnConditionCheckFailure": "ALL_OLD",
            }
        }
        if schedule is None:  # a template schedule: its slot alone, one conditional write
            self._complete_alone(slot_update["Update"])
            return
        try:
            if final_status:
                self._retire_with(slot_update, now, outcome, detail, schedule, final_status, finish)
            else:
                self._record_with(slot_update, slot, now, schedule, finish)
        except AwsError as err:
            if not _already_done(err, slot_update):
                raise
        except (Conflict, Busy) as err:  # the schedule's condition failed too, or alone
            cause = err.__cause__
            if not (isinstance(cause, AwsError) and _already_done(cause, slot_update)):
                raise

    def _complete_alone(self, update: dict[str, Any]) -> None:
        """A template schedule's slot done; its condition fails only when the slot is done already
        (this same write, applied though its answer was lost): nothing more to do then."""
        try:
            self._t.db.update_item(**update)
        except AwsError as err:
            if err.code != CONDITION_FAILED:
                raise

    def _retire_with(
        self,
        slot_update: dict[str, Any],
        now: datetime,
        outcome: str,
        detail: str,
        schedule: Schedule,
        final_status: str,
        finish: Finish | None,
    ) -> None:
        """The slot done and its schedule retired (fired, delivery_failed, completed) in one
        transaction; its room place and pointers are freed lazily."""
        fired = {"last_fired_at": iso_utc(now), "fire_count": schedule.fire_count + 1, **_ran(schedule, finish)}
        if final_status == models.FIRED:
            fired["fired_at"] = iso_utc(now)
        delivered = finish.run.outcome == DELIVERED if finish is not None else outcome == DELIVERED
        if finish is not None and finish.counted and not delivered:  # a failed run gives its hold's count back
            fired["delivered_count"] = max(0, schedule.delivered_count - 1)
        reason = "" if delivered else detail  # a delivered run's detail is its message id, no reason
        if finish is not None and finish.release:  # its copy no longer waits for the release recording it
            schedule = replace(schedule, releases=schedule.releases - {finish.release})
        self.finish(
            schedule,
            final_status,
            now,
            reason=reason,
            changes=fired,
            before=[slot_update],
            as_read=True,
            free_place=False,
        )

    def _record_with(
        self, slot_update: dict[str, Any], slot: str, now: datetime, schedule: Schedule, finish: Finish | None
    ) -> None:
        """The slot done and the fire recorded on its schedule, still at the version read, in one
        transaction; Conflict when the schedule changed since."""
        update = Update().set("last_fired_at", iso_utc(now))
        update.clause("fire_count = if_not_exists(fire_count, :z) + :one", z=0, one=1).clause(BUMP)
        update.set_all(_ran(schedule, finish))
        if finish is not None and finish.pause:
            update.set_all({"status": models.PAUSED, "status_reason": "failing", "updated_at": iso_utc(now)})
        if finish is not None and finish.counted and finish.run.outcome != DELIVERED:
            update.clause("delivered_count = delivered_count - :one", one=1)  # a failed run gives its hold's count back
        update.remove(INFLIGHT)
        _done_waiting(update, schedule, slot)
        if finish is not None and finish.release:  # a held occurrence released: no longer held until then
            update.delete(codec.RELEASES, {finish.release})
        unchanged, version = same_version(schedule)
        record = {
            "TableName": self._t.name,
            "Key": codec.item_key(schedule),
            **update.request(f"attribute_exists(sk) AND {unchanged}", values=version),
        }
        items = [slot_update, {"Update": record}]
        try:
            self._t.transact(items)
        except AwsError as err:
            if codec.identity({"Update": record}) in cancelled(err, items):
                raise Conflict(schedule.id) from err
            raise

    def record_run(self, schedule: Schedule, slot: str, now: datetime, run: Run) -> bool:
        """Record a run that needed no delivery (skipped, missed) as a done slot, with the
        schedule's last run, in one transaction. False when the slot was already recorded (a
        duplicate invocation): nothing changes then. Conflict when the schedule is no longer at the
        version read (or gone): nothing is written, and the fire decides again."""
        ref = SlotRef(schedule.room_id, schedule.id, slot)
        slot_put = {
            "Put": {
                "TableName": self._t.name,
                "Item": dump(codec.run_item(ref, run, self._t.expires(now))),
                "ConditionExpression": "attribute_not_exists(sk)",
            }
        }
        unchanged, version = same_version(schedule)
        update = Update().set("last_run", codec.last_run_fields(run)).clause(BUMP, z=0, one=1)
        _done_waiting(update, schedule, slot)
        last = {
            "Update": {
                "TableName": self._t.name,
                "Key": key(ref.room_id, schedule_sk(schedule.id)),
                **update.request(f"attribute_exists(sk) AND {unchanged}", values=version),
            }
        }
        try:
            self._t.transact([slot_put, last])
        except AwsError as err:
            failed = cancelled(err, [slot_put, last])
            if ref.identity in failed:
                return False
            if failed:
                raise Conflict(schedule.id) from err
            raise
        return True

    def record_static_run(self, room_id: str, owner: str, slot: str, now: datetime, run: Run) -> bool:
        """Record a run of a template schedule that needed no delivery (too late) as a done slot;
        it has no item to hold a last run. False when the slot was already recorded."""
        try:
            self._t.db.put_item(
                TableName=self._t.name,
                Item=dump(codec.run_item(SlotRef(room_id, owner, slot), run, self._t.expires(now))),
                ConditionExpression="attribute_not_exists(sk)",
            )
        except AwsError as err:
            if err.code == CONDITION_FAILED:
                return False
            raise
        return True

    def runs(self, room_id: str, owner: str, limit: int) -> list[Run]:
        """A schedule's runs, newest first: one Query over its own slots only."""
        out = self._t.db.query(
            TableName=self._t.name,
            KeyConditionExpression="room_id = :r AND begins_with(sk, :p)",
            ExpressionAttributeValues=dump({":r": room_id, ":p": codec.slot_prefix(owner)}),
            ScanIndexForward=False,
            Limit=limit,
        )
        found = (codec.run_from_item(item) for item in out.get("Items", []))
        return [run for run in found if run is not None]


def _ran(schedule: Schedule, finish: Finish | None) -> dict[str, Any]:
    """What a finished run writes on its schedule: its last run, streak, answer and count."""
    if finish is None:
        return {}
    ran: dict[str, Any] = {"last_run": codec.last_run_fields(finish.run), "failure_streak": finish.streak}
    if finish.answer is not None:
        ran["last_answer"] = finish.answer
    if finish.run.outcome == DELIVERED and not finish.run.manual and not finish.counted:  # what `count` counts
        ran["delivered_count"] = schedule.delivered_count + 1
    if finish.repeat_slot is not None:  # the occurrence that repeats from now on (core/domain/repeats.py)
        ran["repeat_slot"] = finish.repeat_slot
    return ran


def _refused_claim(ref: SlotRef, failed: dict[codec.Key, dict[str, Any]], schedule: Schedule | None) -> Claim:
    """What a cancelled claim found: the slot taken (done, held, sent) or the schedule changed,
    busy with another slot, or no longer active."""
    held = failed.get(ref.identity)
    if held is not None:
        state = codec.state_of(held)
        return {SENT: Claim.SENT, CLAIMED: Claim.HELD}.get(state, Claim.DUPLICATE)
    raw = next(iter(failed.values()))
    if raw and schedule is not None and codec.stored_version(raw) != schedule.version:
        return Claim.CHANGED
    claimable = _claimable_status(schedule) if schedule is not None else models.ACTIVE
    return Claim.BUSY if raw and codec.status_of(raw) == claimable else Claim.INACTIVE


def _claimable_status(schedule: Schedule) -> str:
    """The status a schedule's item must still have for one of its slots to be claimed: active, or
    for a manual run of a schedule that ran out since run_now was answered, the final status read."""
    return schedule.status if schedule.status in models.RAN_OUT else models.ACTIVE
