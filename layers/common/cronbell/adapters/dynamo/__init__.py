"""The DynamoDB single-table store, composed of parts that each hold the one `table.Table`:
`schedules` (schedules, with `rooms`: the room's count and pointers, and `retirement`), `ledger`
(the delivery slots), `scans` (the reconciler's reads and repairs) and `quiet` (each user's quiet
hours in a room). `codec` owns every item's
shape and `expressions` builds their update expressions. Every failure reaches callers as a
domain error."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from cronbell.adapters.dynamo.held import HeldStore
from cronbell.adapters.dynamo.ledger import SlotLedger
from cronbell.adapters.dynamo.quiet import QuietStore
from cronbell.adapters.dynamo.repeats import RepeatLedger
from cronbell.adapters.dynamo.retirement import Retirement, SlotRun
from cronbell.adapters.dynamo.rooms import Rooms
from cronbell.adapters.dynamo.scans import TableScans
from cronbell.adapters.dynamo.schedules import Schedules
from cronbell.adapters.dynamo.table import Table
from cronbell.core.domain.models import Schedule
from cronbell.core.domain.ports import Claim, Finish, OpenClaim, Pointer, RepeatClaim, RoomCount, TableScan
from cronbell.core.domain.quiet_hours import QuietHours
from cronbell.core.domain.runs import Run


class DynamoStore:
    """The `cronbell.core.domain.ports.Store` on one DynamoDB table: each port method is one part's."""

    def __init__(self, client: Any, table: str, retention_days: int) -> None:
        self.table = Table(client, table, retention_days)
        self.rooms = Rooms(self.table)
        self.retirement = Retirement(self.table, self.rooms)
        self.schedules = Schedules(self.table, self.rooms)
        self.ledger = SlotLedger(self.table, self.retirement)
        self.scans = TableScans(self.table)
        self.repeats = RepeatLedger(self.table)
        self.quiet = QuietStore(self.table, self.rooms)
        self.held_store = HeldStore(self.table)

    # --- Schedules ---------------------------------------------------------------------------
    def get(self, room_id: str, schedule_id: str) -> Schedule | None:
        return self.schedules.get(room_id, schedule_id)

    def list_room(self, room_id: str, now: datetime, retired: bool = False) -> list[Schedule]:
        return self.schedules.list_room(room_id, now, retired)

    def insert(self, schedule: Schedule, max_per_room: int) -> None:
        self.schedules.insert(schedule, max_per_room)

    def replace(self, old: Schedule, new: Schedule, max_per_room: int, now: datetime) -> None:
        self.schedules.replace(old, new, max_per_room, now)

    def set_skip(self, schedule: Schedule, slot: str, now: datetime) -> None:
        self.schedules.set_skip(schedule, slot, now)

    def mark_manual_run(self, schedule: Schedule, slot: str, not_since: str) -> None:
        self.schedules.mark_manual_run(schedule, slot, not_since)

    def wait_manual(self, schedule: Schedule, slot: str, now: datetime) -> bool:
        return self.schedules.wait_manual(schedule, slot, now)

    def unmark_manual_run(self, schedule: Schedule, slot: str) -> None:
        self.schedules.unmark_manual_run(schedule, slot)

    def delete(self, room_id: str, schedule_id: str, now: datetime) -> Schedule:
        return self.schedules.delete(room_id, schedule_id, now)

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
        self.retirement.retire(schedule, status, now, reason, run, as_read=as_read)

    def room_count(self, room_id: str) -> RoomCount | None:
        return self.rooms.count(room_id)

    def recount(self, room_id: str, seen: RoomCount | None) -> int | None:
        return self.rooms.recount(room_id, seen)

    # --- Ledger ------------------------------------------------------------------------------
    def claim_slot(
        self, room_id: str, owner: str, slot: str, now: datetime, lease_seconds: int, schedule: Schedule | None
    ) -> Claim:
        return self.ledger.claim_slot(room_id, owner, slot, now, lease_seconds, schedule)

    def held_until(self, room_id: str, owner: str, slot: str) -> datetime | None:
        return self.ledger.held_until(room_id, owner, slot)

    def mark_slot_sent(self, room_id: str, owner: str, slot: str, message_id: str, noted: Finish | None = None) -> bool:
        return self.ledger.mark_slot_sent(room_id, owner, slot, message_id, noted)

    def open_claim(self, room_id: str, owner: str, slot: str) -> OpenClaim | None:
        return self.ledger.open_claim(room_id, owner, slot)

    def release_slot(self, room_id: str, owner: str, slot: str, schedule: Schedule | None) -> None:
        self.ledger.release_slot(room_id, owner, slot, schedule)

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
        self.ledger.complete_slot(room_id, owner, slot, now, outcome, detail, schedule, final_status, finish)

    def record_run(self, schedule: Schedule, slot: str, now: datetime, run: Run) -> bool:
        return self.ledger.record_run(schedule, slot, now, run)

    def record_static_run(self, room_id: str, owner: str, slot: str, now: datetime, run: Run) -> bool:
        return self.ledger.record_static_run(room_id, owner, slot, now, run)

    def runs(self, room_id: str, owner: str, limit: int) -> list[Run]:
        return self.ledger.runs(room_id, owner, limit)

    # --- Repeats (core/domain/repeats.py) -------------------------------------------------------------
    def run_at(self, room_id: str, owner: str, slot: str) -> Run | None:
        return self.repeats.run_at(room_id, owner, slot)

    def claim_repeat(
        self,
        schedule: Schedule,
        occurrence: str,
        number: int,
        escalation: bool,
        following: tuple[int, str] | None = None,
    ) -> RepeatClaim:
        return self.repeats.claim_repeat(schedule, occurrence, number, escalation, following)

    def defer_repeat(self, schedule: Schedule, occurrence: str, number: int, due: str) -> bool:
        return self.repeats.defer_repeat(schedule, occurrence, number, due)

    def mark_orphan(self, room_id: str, schedule_id: str, names: tuple[str, ...], now: datetime) -> None:
        self.repeats.mark_orphan(room_id, schedule_id, names, now)

    def release_repeat(self, schedule: Schedule, occurrence: str, number: int, escalation: bool) -> None:
        self.repeats.release_repeat(schedule, occurrence, number, escalation)

    def acknowledge(self, schedule: Schedule, occurrence: str, now: datetime) -> bool:
        return self.repeats.acknowledge(schedule, occurrence, now)

    # --- Scans -------------------------------------------------------------------------------
    def scan(self, now: datetime) -> TableScan:
        return self.scans.scan(now)

    def move_retired(self, room_id: str, schedule_id: str) -> bool:
        return self.scans.move_retired(room_id, schedule_id)

    def finalize_deleted(self, schedule: Schedule, now: datetime) -> bool:
        return self.scans.finalize_deleted(schedule, now)

    def copy_audit(self, schedule: Schedule) -> bool:
        return self.scans.copy_audit(schedule)

    def drop_pointer(self, pointer: Pointer) -> bool:
        return self.scans.drop_pointer(pointer)

    def close_claim(self, claim: OpenClaim, now: datetime, run: Run, schedule: Schedule | None) -> bool:
        return self.scans.close_claim(claim, now, run, schedule)

    # --- Quiet rules -------------------------------------------------------------------------
    def quiet_hours(self, room_id: str, user_id: str) -> QuietHours | None:
        return self.quiet.quiet_hours(room_id, user_id)

    def put_quiet_hours(self, room_id: str, user_id: str, rule: QuietHours) -> None:
        self.quiet.put_quiet_hours(room_id, user_id, rule)

    def clear_quiet_hours(self, room_id: str, user_id: str) -> bool:
        return self.quiet.clear_quiet_hours(room_id, user_id)

    # --- Held -------------------------------------------------------------------------------
    def hold_slot(self, schedule: Schedule, slot: str, now: datetime, until: str) -> None:
        self.held_store.hold_slot(schedule, slot, now, until)

    def held(self, room_id: str, user_id: str, until: str) -> list[tuple[str, str]]:
        return self.held_store.held(room_id, user_id, until)

    def drop_held(self, room_id: str, user_id: str, until: str, schedule_id: str, slot: str) -> None:
        self.held_store.drop_held(room_id, user_id, until, schedule_id, slot)

    def claim_release(self, room_id: str, user_id: str, until: str, now: datetime, lease_seconds: int) -> int:
        return self.held_store.claim_release(room_id, user_id, until, now, lease_seconds)

    def end_release(self, room_id: str, user_id: str, until: str, done: bool) -> None:
        self.held_store.end_release(room_id, user_id, until, done)


__all__ = ["DynamoStore"]
