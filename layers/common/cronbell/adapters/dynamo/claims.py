"""A slot's claim: the schedule's item marked in flight for it (one conditional write), or, for a
template schedule, which has no item, the slot's own item.

A stored schedule's slot gets an item only when something is written about it: its run (done), the
run an attempt ended and could not record (sent), its hold by quiet hours, or the claim of an attempt
that died, kept when another slot takes the schedule over. A claim therefore does not check the slot
item in the same write: the fire reads it with the schedule (`read_for_fire`), and every write that
ends a slot bumps the schedule's version (the claim is conditioned on the version read) and records
the slot among the schedule's last ones (`expressions.RECORDED`, which the claim checks too), so a read
that saw the slot free just before its run was recorded cannot lead to a second delivery."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from cronbell.adapters.aws import AwsError
from cronbell.adapters.dynamo import codec
from cronbell.adapters.dynamo.codec import CLAIMED, DONE, SENT, SlotRef, dump, key, schedule_sk
from cronbell.adapters.dynamo.expressions import NOT_DONE, NOT_RECORDED, Update, is_recorded, same_version
from cronbell.adapters.dynamo.retirement import move_to_retired_key
from cronbell.adapters.dynamo.table import CONDITION_FAILED, Part
from cronbell.core.domain import models
from cronbell.core.domain.instants import iso_utc
from cronbell.core.domain.models import Schedule
from cronbell.core.domain.ports import Claim, Finish, OpenClaim

# a template's slot may be claimed when it has never been, or when its claim outlived the lease (a crash)
_SLOT_FREE = "attribute_not_exists(sk) OR (#st = :claimed AND lease_until < :t)"
_CLAIM_SCHEDULE = "SET inflight_slot = :slot, inflight_until = :until, inflight_attempts = :n, inflight_at = :t"
_SCHEDULE_IDLE = "(attribute_not_exists(inflight_until) OR inflight_until < :t)"


def slot_verdict(item: dict[str, Any] | None, now: datetime) -> Claim | None:
    """What a slot's item (raw) says before a claim: DUPLICATE (done, or held by quiet hours), SENT,
    HELD (claimed by an attempt whose lease is not over); None when the slot may be claimed."""
    state = codec.state_of(item or {})
    if not state:
        return None
    if state == CLAIMED:
        lease = codec.lease_from_item(item or {})
        return Claim.HELD if lease is not None and lease >= now.replace(microsecond=0) else None
    return Claim.SENT if state == SENT else Claim.DUPLICATE


class SlotClaims(Part):
    def read_for_fire(
        self, room_id: str, schedule_id: str, slot: str, now: datetime
    ) -> tuple[Schedule | None, Claim | None]:
        """The schedule (as `get` reads it) and what its slot says already (`slot_verdict`), in one
        request while the schedule is live."""
        ref = SlotRef(room_id, schedule_id, slot)
        found = self._t.get_many([key(room_id, schedule_sk(schedule_id)), ref.key])
        live = found.get((room_id, schedule_sk(schedule_id)))
        verdict = slot_verdict(found.get(ref.identity), now)
        if live is not None and codec.says_live(live):
            return codec.schedule_from_item(live), verdict
        if live is not None:  # retired in place, not moved yet (as `Schedules.get`)
            move_to_retired_key(self._t, live, schedule_id)
        return self.get_retired(room_id, schedule_id), verdict  # type: ignore[attr-defined]

    def claim_slot(
        self,
        room_id: str,
        owner: str,
        slot: str,
        now: datetime,
        lease_seconds: int,
        schedule: Schedule | None,
        slot_read: bool = False,
    ) -> Claim:
        """Claim one slot for delivery. DUPLICATE: done; HELD: claimed by an attempt whose lease
        is not over; SENT: posted by an attempt that could not record it; BUSY: another slot of the
        schedule is being delivered; INACTIVE: the schedule is no longer active; CHANGED: the
        schedule is not at the version read (a change, skip, snooze or another run landed since):
        read it again. A claim older than its lease (a crashed attempt) is taken over. `slot_read`:
        the caller read the slot free with `schedule` (`read_for_fire`); otherwise it is read here."""
        ref = SlotRef(room_id, owner, slot)
        t = iso_utc(now)
        until = iso_utc(now + timedelta(seconds=lease_seconds))
        if schedule is None:  # a template schedule: its slot alone, one conditional write
            return self._claim_alone(ref, t, until, now)
        if not slot_read and (verdict := slot_verdict(self._t.get(ref.key), now)) is not None:
            return verdict
        self._keep_dead_claim(schedule, slot, now)
        unchanged, version = same_version(schedule)
        values = {
            **version,
            ":slot": slot,
            ":t": t,
            ":until": until,
            ":active": _claimable_status(schedule),
            ":n": schedule.delivery_attempt(slot),
        }
        try:
            self._t.update(
                Key=codec.item_key(schedule),
                UpdateExpression=_CLAIM_SCHEDULE,
                ConditionExpression=f"#s = :active AND {_SCHEDULE_IDLE} AND {unchanged} AND {NOT_RECORDED}",
                ExpressionAttributeNames={"#s": "status"},
                ExpressionAttributeValues=dump(values),
                ReturnValuesOnConditionCheckFailure="ALL_OLD",
            )
        except AwsError as err:
            if err.code != CONDITION_FAILED:
                raise
            return _refused(err.response.get("Item") or {}, slot, schedule, now)
        return Claim.CLAIMED

    def _claim_alone(self, ref: SlotRef, t: str, until: str, now: datetime) -> Claim:
        try:
            self._t.db.put_item(
                TableName=self._t.name,
                Item=dump(codec.claim_item(ref, t, until, self._t.expires(now))),
                ConditionExpression=_SLOT_FREE,
                ExpressionAttributeNames={"#st": "state"},
                ExpressionAttributeValues=dump({":claimed": CLAIMED, ":t": t}),
                ReturnValuesOnConditionCheckFailure="ALL_OLD",
            )
        except AwsError as err:
            if err.code != CONDITION_FAILED:
                raise
            return slot_verdict(err.response.get("Item"), now) or Claim.HELD
        return Claim.CLAIMED

    def _keep_dead_claim(self, schedule: Schedule, slot: str, now: datetime) -> None:
        """Before another slot takes the schedule over from an attempt that died (its lease over, its
        claim never given back), that slot is written claimed, so the reconciler still ends it as its
        run (scans.py) once no retry can come. Nothing is written when it has an item already."""
        dead, until = schedule.inflight_slot, schedule.inflight_until
        if not dead or dead == slot or until is None or until >= now.replace(microsecond=0):
            return
        lease = iso_utc(until)  # its claim's time is not kept: its lease's end stands for it
        try:
            self._t.db.put_item(
                TableName=self._t.name,
                Item=dump(
                    codec.claim_item(SlotRef(schedule.room_id, schedule.id, dead), lease, lease, self._t.expires(now))
                ),
                ConditionExpression="attribute_not_exists(sk)",
            )
        except AwsError as err:
            if err.code != CONDITION_FAILED:
                raise

    def held_until(self, room_id: str, owner: str, slot: str) -> datetime | None:
        """When the claim on a slot ends (its lease), or None when it is not claimed."""
        ref = SlotRef(room_id, owner, slot)
        found = self._t.get_many([ref.key, key(room_id, schedule_sk(owner))])
        lease = codec.lease_from_item(found.get(ref.identity) or {})
        schedule = found.get((room_id, schedule_sk(owner)))
        if lease is None and schedule is not None and codec.load(schedule).get("inflight_slot") == slot:
            return codec.schedule_from_item(schedule).inflight_until
        return lease

    def mark_slot_sent(
        self,
        room_id: str,
        owner: str,
        slot: str,
        message_id: str,
        now: datetime,
        noted: Finish | None = None,
    ) -> bool:
        """Note that the slot's run ended (its message went out, or it failed), when recording it
        failed: the retry (or the reconciler) then records what is noted, the run's real outcome and
        verdict, instead of delivering again. The claim stays held meanwhile. False when the slot is
        done already (a record that was applied though its answer was lost): nothing is written."""
        update = Update().clause("#st = :sent", sent=SENT).set("detail", message_id)
        update.clause("claimed_at = if_not_exists(claimed_at, :at)", at=iso_utc(now))  # the claim is on its schedule
        update.clause("expires_at = if_not_exists(expires_at, :exp)", exp=self._t.expires(now))
        if noted is not None:
            update.set("noted", codec.noted_dict(noted))
        try:
            self._t.db.update_item(
                TableName=self._t.name,
                Key=SlotRef(room_id, owner, slot).key,
                **update.request(NOT_DONE, {"#st": "state"}, {":done": DONE}),
            )
        except AwsError as err:
            if err.code == CONDITION_FAILED:
                return False
            raise
        return True

    def open_claim(self, room_id: str, owner: str, slot: str) -> OpenClaim | None:
        """The slot's claim as it stands (with what an attempt noted on it); None once done."""
        ref = SlotRef(room_id, owner, slot)
        found = self._t.get_many([ref.key, key(room_id, schedule_sk(owner))])
        if ref.identity in found:
            return codec.claim_from_item(found[ref.identity])
        mark = codec.claim_from_mark(found.get((room_id, schedule_sk(owner))) or {"sk": {"S": ""}})
        return mark if mark is not None and mark.slot == slot else None

    def release_slot(self, room_id: str, owner: str, slot: str, schedule: Schedule | None, answer: str = "") -> None:
        """Give a claim back after a failed attempt, so Lambda's retry can deliver at once. The
        schedule keeps the slot and its count of attempts, so the retry knows which one it is, and
        `answer`, an agent's answer the attempt could not post, so the retry posts it without asking
        again (a template schedule has no item to keep it on)."""
        if schedule is None:
            self._t.db.delete_item(TableName=self._t.name, Key=SlotRef(room_id, owner, slot).key)
            return
        kept = {":answer": {"slot": slot, "text": answer}} if answer else {}
        try:
            self._t.update(
                Key=codec.item_key(schedule),
                UpdateExpression="REMOVE inflight_until" + (" SET inflight_answer = :answer" if kept else ""),
                ConditionExpression="inflight_slot = :slot",
                ExpressionAttributeValues=dump({":slot": slot, **kept}),
            )
        except AwsError as err:
            if err.code != CONDITION_FAILED:  # another slot holds it now, or the item is gone: nothing to give back
                raise


def _refused(raw: dict[str, Any], slot: str, schedule: Schedule, now: datetime) -> Claim:
    """What a refused claim found on the schedule's item (raw, as it was): the slot recorded since,
    the schedule changed, no longer active, or held (by this slot's claim) or busy (with another)."""
    data = codec.load(raw) if raw else {}
    if raw and is_recorded(raw, slot):
        return Claim.DUPLICATE
    if raw and codec.stored_version(raw) != schedule.version:
        return Claim.CHANGED
    if not raw or codec.status_of(raw) != _claimable_status(schedule):
        return Claim.INACTIVE
    return Claim.HELD if data.get("inflight_slot") == slot and codec.in_flight(raw, now) else Claim.BUSY


def _claimable_status(schedule: Schedule) -> str:
    """The status a schedule's item must still have for one of its slots to be claimed: active, or
    for a manual run of a schedule that ran out since run_now was answered, the final status read."""
    return schedule.status if schedule.status in models.RAN_OUT else models.ACTIVE
