"""The delivery ledger: one slot (`codec.SlotRef`: room, owner, scheduled time) claimed before
posting (claims.py), done after.

A run is recorded on its schedule's item in one conditional write (its last run, its version bumped,
the slot among its last recorded ones, which a claim checks, and the slot as `unwritten`); the
projector, fed by the table's stream, then writes the slot done with that run, as its history
(`write_history`), once however often the stream delivers the change. A record that ends its schedule
retires it under its live key in that same write; the projector moves it to its retired key, where the
run stays as its final run (`codec.FINAL_RUN`, read with the slots by `runs`). A held occurrence's run
and one whose slot's item projects a repeat keep the slot in one transaction with their item
(`_slot_in_record`); a template schedule has no item, so its slot alone is completed, with one
conditional write."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime
from typing import Any

from cronbell.adapters.aws import AwsError
from cronbell.adapters.dynamo import codec
from cronbell.adapters.dynamo.claims import SlotClaims
from cronbell.adapters.dynamo.codec import BUMP, DONE, INFLIGHT, SlotRef, dump
from cronbell.adapters.dynamo.expressions import (
    NOT_DONE,
    NOT_RECORDED,
    Update,
    history_written,
    is_recorded,
    recorded,
    same_version,
)
from cronbell.adapters.dynamo.retirement import Retirement
from cronbell.adapters.dynamo.table import CONDITION_FAILED, cancelled
from cronbell.core.domain import models
from cronbell.core.domain.errors import Busy, Conflict
from cronbell.core.domain.instants import iso_utc
from cronbell.core.domain.ledger_slots import waited_turn
from cronbell.core.domain.models import Schedule
from cronbell.core.domain.ports import Finish
from cronbell.core.domain.runs import DELIVERED, History, Run


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


class SlotLedger(Retirement, SlotClaims):
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
        """Record the fire on the schedule (last run, failure streak, a pause the failure policy
        decided, the answer the next run is given) and clear its busy mark, the slot then done with
        its run (outcome `delivered`, `failed`, ...) from the stream (`_record_with`). With
        `final_status` (fired, delivery_failed) the schedule also leaves the live set (`_retire_with`).
        The schedule must still be at the version read (`schedule.version`): Conflict otherwise, and
        nothing is written. A record applied already (this same write, though its answer was lost)
        is left as it is, and the call succeeds: a record is never counted twice."""
        update = Update().clause("#st = :done", done=DONE).set("outcome", str(outcome))
        if finish is not None:
            update.set("run", codec.run_fields(finish.run))
            if finish.repeat_slot and finish.repeat_due:  # its projection is the first repeat's entry
                update.set(codec.NEXT_REPEAT, codec.next_repeat(1, finish.repeat_due))
        update.clause("expires_at = if_not_exists(expires_at, :exp)", exp=self._t.expires(now))
        update.remove(codec.CLAIM_ONLY)
        slot_update = {
            "Update": {
                "TableName": self._t.name,
                "Key": SlotRef(room_id, owner, slot).key,
                **update.request(NOT_DONE, {"#st": "state"}),
                "ReturnValuesOnConditionCheckFailure": "ALL_OLD",
            }
        }
        if schedule is None:  # a template schedule: its slot alone, one conditional write
            self._complete_alone(slot_update["Update"])
            return
        try:
            if final_status:
                self._retire_with(slot_update, slot, now, outcome, detail, schedule, final_status, finish)
            else:
                self._record_with(slot_update, slot, str(outcome), now, schedule, finish)
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
        slot: str,
        now: datetime,
        outcome: str,
        detail: str,
        schedule: Schedule,
        final_status: str,
        finish: Finish | None,
    ) -> None:
        """The schedule retired (fired, delivery_failed, completed) with its run: in place, moved by the
        projector (`_retire_in_place`), or, as `_slot_in_record` says, moved with its slot done in one
        transaction; its room place and pointers are freed lazily."""
        fired = {"last_fired_at": iso_utc(now), "fire_count": schedule.fire_count + 1, **_ran(schedule, finish)}
        if final_status == models.FIRED:
            fired["fired_at"] = iso_utc(now)
        delivered = finish.run.outcome == DELIVERED if finish is not None else outcome == DELIVERED
        if finish is not None and finish.counted and not delivered:  # a failed run gives its hold's count back
            fired["delivered_count"] = max(0, schedule.delivered_count - 1)
        reason = "" if delivered else detail  # a delivered run's detail is its message id, no reason
        release = finish.release if finish is not None else ""  # no longer held until then: it is recorded
        if _slot_in_record(finish):
            if release:
                schedule = replace(schedule, releases=schedule.releases - {release})
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
            return
        fired[codec.UNWRITTEN] = {"slot": slot, "outcome": outcome}
        self._retire_in_place(schedule, final_status, now, reason, fired, slot, release)

    def _retire_in_place(
        self,
        schedule: Schedule,
        status: str,
        now: datetime,
        reason: str,
        changes: dict[str, Any],
        slot: str,
        release: str,
    ) -> None:
        """The schedule retired under its live key, with its run, in one conditional write (its item as
        `finish` would condition its move: live, at the version read, no run_now answered since). The
        projector moves it to its retired key (`retirement.move_to_retired_key`), the run kept there as
        its final run: a fire that ends its schedule costs one write here, not a transaction's two per
        item. A record applied already (its answer lost) is left as it is; Conflict otherwise."""
        final = {"status": status, "expires_at": self._t.expires(now), "updated_at": iso_utc(now)}
        final["version"] = schedule.version + 1
        if reason:
            final["status_reason"] = reason
        update = Update().set_all({**final, **changes}).remove(INFLIGHT)
        recorded(update, slot)
        if release:
            update.delete(codec.RELEASES, {release})
        condition, values = self._still_live(schedule, now, idle=False, as_read=True)
        try:
            self._t.update(
                Key=codec.item_key(schedule),
                **update.request(condition, {"#s": "status"}, values),
                ReturnValuesOnConditionCheckFailure="ALL_OLD",
            )
        except AwsError as err:
            if err.code != CONDITION_FAILED:
                raise
            old = err.response.get("Item") or {}
            if not (is_recorded(old, slot) and codec.status_of(old) == status):
                raise Conflict(schedule.id) from err

    def _record_with(
        self,
        slot_update: dict[str, Any],
        slot: str,
        outcome: str,
        now: datetime,
        schedule: Schedule,
        finish: Finish | None,
    ) -> None:
        """The fire recorded on its schedule, still at the version read, in one conditional write: it
        keeps the slot among the schedule's last recorded ones (which a claim checks) and applies
        once. The slot's done item, the run's history, is written from the table's stream
        (`write_history`), so a record costs one write, not a transaction's two per item; some keep
        the transaction (`_slot_in_record`). Conflict when the schedule changed since it was read."""
        update = Update().set("last_fired_at", iso_utc(now))
        update.clause("fire_count = if_not_exists(fire_count, :z) + :one", z=0, one=1).clause(BUMP)
        update.set_all(_ran(schedule, finish))
        if finish is not None and finish.pause:
            update.set_all({"status": models.PAUSED, "status_reason": "failing", "updated_at": iso_utc(now)})
        if finish is not None and finish.counted and finish.run.outcome != DELIVERED:
            update.clause("delivered_count = delivered_count - :one", one=1)  # a failed run gives its hold's count back
        update.remove(INFLIGHT)
        recorded(update, slot)
        _done_waiting(update, schedule, slot)
        if finish is not None and finish.release:  # a held occurrence released: no longer held until then
            update.delete(codec.RELEASES, {finish.release})
        if _slot_in_record(finish):
            self._record_in_one(slot_update, update, schedule)
            return
        update.set(codec.UNWRITTEN, {"slot": slot, "outcome": outcome})
        self._record_once(update, schedule, slot)

    def _record_in_one(self, slot_update: dict[str, Any], update: Update, schedule: Schedule) -> None:
        """The record and the slot done in one transaction, the slot's state making it apply once
        (`_slot_in_record`)."""
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

    def _record_once(self, update: Update, schedule: Schedule, slot: str) -> bool:
        """Write a slot's record on its schedule, still at the version read, unless the slot is among
        its last recorded ones already (this same write, applied though its answer was lost, or an
        earlier attempt's): False, and nothing is written then. Conflict when the schedule changed
        (or is gone)."""
        unchanged, version = same_version(schedule)
        try:
            self._t.update(
                Key=codec.item_key(schedule),
                **update.request(
                    f"attribute_exists(sk) AND {unchanged} AND {NOT_RECORDED}", values={**version, ":slot": slot}
                ),
                ReturnValuesOnConditionCheckFailure="ALL_OLD",
            )
        except AwsError as err:
            if err.code != CONDITION_FAILED:
                raise
            if not is_recorded(err.response.get("Item") or {}, slot):
                raise Conflict(schedule.id) from err
            return False
        return True

    def record_run(self, schedule: Schedule, slot: str, now: datetime, run: Run) -> bool:
        """Record a run that needed no delivery (skipped, missed) as the schedule's last run, its slot
        done from the stream (as `_record_with`). False when the slot was already recorded (a
        duplicate invocation): nothing changes then. Conflict when the schedule is no longer at the
        version read (or gone): nothing is written, and the fire decides again."""
        update = Update().set("last_run", codec.last_run_fields(run)).clause(BUMP, z=0, one=1)
        recorded(update, slot)
        _done_waiting(update, schedule, slot)
        update.set(codec.UNWRITTEN, {"slot": slot, "outcome": run.outcome})
        return self._record_once(update, schedule, slot)

    def write_history(self, history: History, now: datetime) -> None:
        """Write the done slot of a run its schedule recorded (`History`, read off the stream): its
        run and outcome, what an attempt noted on it while claimed removed. A slot done already
        (the same change delivered again) is left as it is."""
        ref = SlotRef(history.room_id, history.owner, history.slot)
        self._complete_alone({"TableName": self._t.name, **history_written(history, ref, self._t.expires(now))})

    def record_static_run(self, room_id: str, owner: str, slot: str, now: datetime, run: Run) -> bool:
        """Record a run that needed no delivery (a template schedule's, too late) as a done slot
        alone: a template has no item to hold a last run. False when the slot was already recorded."""
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
        """A schedule's runs, newest first: one Query over its own slots only, and the final run its
        retired copy keeps (`codec.FINAL_RUN`: the run whose record retired it has no slot item)."""
        out = self._t.db.query(
            TableName=self._t.name,
            KeyConditionExpression="room_id = :r AND begins_with(sk, :p)",
            ExpressionAttributeValues=dump({":r": room_id, ":p": codec.slot_prefix(owner)}),
            ScanIndexForward=False,
            Limit=limit,
        )
        prefix = codec.slot_prefix(owner)
        found = [(item["sk"]["S"].removeprefix(prefix), codec.run_from_item(item)) for item in out.get("Items", [])]
        retired = codec.key(room_id, codec.retired_sk(owner))
        copy = self._t.db.get_item(TableName=self._t.name, Key=retired, ProjectionExpression=codec.FINAL_RUN)
        final = codec.final_run(copy.get("Item") or {})
        if final is not None and all(slot != final[0] or run is None for slot, run in found):
            found = [pair for pair in found if pair[0] != final[0]] + [(final[0], final[2])]
            found = sorted(found, key=lambda pair: pair[0], reverse=True)[:limit]
        return [run for _, run in found if run is not None]


def _slot_in_record(finish: Finish | None) -> bool:
    """Whether a record writes its slot in its own transaction rather than leaving it to the projector:
    a record without its run, a held occurrence's run (its hold made the slot one of the schedule's
    recorded ones already: the slot's state is what makes the record apply once), and a run whose
    slot's item carries what its first repeat's entry is projected from."""
    return finish is None or finish.counted or bool(finish.repeat_slot and finish.repeat_due)


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
