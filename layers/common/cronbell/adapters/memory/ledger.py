"""Delivery slots, their claims and leases, and the runs recorded on them."""

from __future__ import annotations

from datetime import datetime, timedelta

from cronbell.adapters.memory.schedules import Schedules
from cronbell.adapters.memory.state import CLAIMED, DONE, SENT, Slot, lease_ended
from cronbell.core.domain import models
from cronbell.core.domain.errors import Conflict
from cronbell.core.domain.instants import stored_second
from cronbell.core.domain.ledger_slots import waited_turn
from cronbell.core.domain.models import Schedule
from cronbell.core.domain.ports import Claim, Finish, OpenClaim
from cronbell.core.domain.runs import DELIVERED, History, Run


class SlotLedger(Schedules):
    # --- SlotLedger --------------------------------------------------------------------------
    def read_for_fire(
        self, room_id: str, schedule_id: str, slot: str, now: datetime
    ) -> tuple[Schedule | None, Claim | None]:
        return self.get(room_id, schedule_id), self._verdict(room_id, schedule_id, slot, stored_second(now))

    def _verdict(self, room_id: str, owner: str, slot: str, t: datetime) -> Claim | None:
        """What the slot says before a claim; None when it may be claimed."""
        held = self._slots.get((room_id, owner, slot))
        if held is not None and not (held.state == CLAIMED and lease_ended(held.lease_until, t)):
            return {SENT: Claim.SENT, CLAIMED: Claim.HELD}.get(held.state, Claim.DUPLICATE)
        return None

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
        t = stored_second(now)
        verdict = self._verdict(room_id, owner, slot, t)  # as read: nothing can change it between two calls here
        if verdict is not None:
            return verdict
        lease_end = t + timedelta(seconds=lease_seconds)
        if schedule is not None:
            stored = self._live.get((room_id, schedule.id))
            claimable = models.ACTIVE if schedule.status in models.LIVE_STATUSES else schedule.status
            if stored is None:
                stored = self._copies.get((room_id, schedule.id))
                if stored is None or stored.status != claimable or claimable == models.ACTIVE:
                    return Claim.INACTIVE
            if stored.version != schedule.version:
                return Claim.CHANGED
            if stored.status != claimable:
                return Claim.INACTIVE
            if stored.held(now) and stored.inflight_slot != slot:
                return Claim.BUSY
            stored.inflight_slot, stored.inflight_until = slot, lease_end
            stored.inflight_attempts = schedule.delivery_attempt(slot)
        self._slots[(room_id, owner, slot)] = Slot(CLAIMED, claimed_at=t, lease_until=lease_end)
        return Claim.CLAIMED

    def held_until(self, room_id: str, owner: str, slot: str) -> datetime | None:
        held = self._slots.get((room_id, owner, slot))
        return held.lease_until if held is not None and held.state == CLAIMED else None

    def mark_slot_sent(
        self,
        room_id: str,
        owner: str,
        slot: str,
        message_id: str,
        now: datetime,
        noted: Finish | None = None,
    ) -> bool:
        held = self._slots.get((room_id, owner, slot))
        if held is not None and held.state == DONE:
            return False
        if held is None:
            held = self._slots[(room_id, owner, slot)] = Slot(SENT)
        held.state, held.message_id = SENT, message_id
        if noted is not None:
            held.noted = noted
        return True

    def open_claim(self, room_id: str, owner: str, slot: str) -> OpenClaim | None:
        held = self._slots.get((room_id, owner, slot))
        if held is None or held.state == DONE or held.claimed_at is None:
            return None  # as a stored slot without a claim's time
        return OpenClaim(room_id, owner, slot, held.claimed_at, held.message_id, held.noted)

    def release_slot(self, room_id: str, owner: str, slot: str, schedule: Schedule | None, answer: str = "") -> None:
        self._slots.pop((room_id, owner, slot), None)
        if schedule is not None:
            stored = self._live.get((room_id, schedule.id)) or self._copies.get((room_id, schedule.id))
            if stored is not None and stored.inflight_slot == slot:
                stored.inflight_until = None
                stored.inflight_answer = {"slot": slot, "text": answer} if answer else stored.inflight_answer

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
        held = self._slots.get((room_id, owner, slot))
        if held is not None and held.state == DONE:
            return  # recorded already: a record is never counted twice
        if schedule is not None:
            stored = self._as_read(schedule, retiring=bool(final_status))
            if stored is None:
                raise Conflict(schedule.id)
            self._ran(stored, finish)
            stored.inflight_until, stored.inflight_answer = None, None
            _done_waiting(stored, slot)
            if final_status:
                self._end(stored, final_status, now, detail)
            else:
                stored.version += 1
        self._slots[(room_id, owner, slot)] = Slot(DONE, outcome=str(outcome), run=finish.run if finish else None)

    def _as_read(self, schedule: Schedule, retiring: bool) -> Schedule | None:
        """The stored schedule a record writes, still at the version read: its live item, or (a run of
        a schedule retired since, never retired again) its retired copy."""
        key = (schedule.room_id, schedule.id)
        if schedule.status in models.LIVE_STATUSES:
            stored = self._live.get(key)
        elif retiring or key in self._live:
            stored = None
        else:
            stored = self._copies.get(key)
        return stored if stored is not None and stored.version == schedule.version else None

    @staticmethod
    def _ran(stored: Schedule, finish: Finish | None) -> None:
        if finish is None:
            return
        stored.last_run, stored.failure_streak = finish.run.stored(), finish.streak
        if finish.answer is not None:
            stored.last_answer = finish.answer
        if finish.run.outcome == DELIVERED and not finish.run.manual and not finish.counted:
            stored.delivered_count += 1
        if finish.repeat_slot is not None:
            stored.repeat_slot = finish.repeat_slot
        if finish.pause and stored.status == models.ACTIVE:
            stored.status = models.PAUSED
        if finish.release:  # a held occurrence released: no longer held until then
            stored.releases = stored.releases - {finish.release}

    # --- Runs --------------------------------------------------------------------------------
    def record_run(self, schedule: Schedule, slot: str, now: datetime, run: Run) -> bool:
        if (schedule.room_id, schedule.id, slot) in self._slots:
            return False
        stored = self._live.get((schedule.room_id, schedule.id))
        if stored is None or stored.version != schedule.version:
            raise Conflict(schedule.id)
        stored.last_run = run.stored()
        _done_waiting(stored, slot)
        stored.version += 1
        self._slots[(schedule.room_id, schedule.id, slot)] = Slot(DONE, outcome=run.outcome, run=run)
        return True

    def record_static_run(self, room_id: str, owner: str, slot: str, now: datetime, run: Run) -> bool:
        if (room_id, owner, slot) in self._slots:
            return False
        self._slots[(room_id, owner, slot)] = Slot(DONE, outcome=run.outcome, run=run)
        return True

    def write_history(self, history: History, now: datetime) -> None:
        """Its slot is written as its schedule records it (`complete_slot`): only one still open is."""
        held = self._slots.get((history.room_id, history.owner, history.slot))
        if held is None or held.state != DONE:
            self._slots[(history.room_id, history.owner, history.slot)] = Slot(
                DONE, outcome=history.outcome, run=history.run
            )

    def runs(self, room_id: str, owner: str, limit: int) -> list[Run]:
        mine = sorted((s for (r, o, s) in self._slots if (r, o) == (room_id, owner)), reverse=True)[:limit]
        found = (self._slots[(room_id, owner, s)].run for s in mine)
        return [run for run in found if run is not None]

    def run_at(self, room_id: str, owner: str, slot: str) -> Run | None:
        held = self._slots.get((room_id, owner, slot))
        return held.run if held is not None else None


def _done_waiting(stored: Schedule, slot: str) -> None:
    """A run started by hand that waited its turn is done; any other that waits still does."""
    waited = waited_turn(stored, slot)
    if waited is not None:
        stored.manual_waiting = stored.manual_waiting - {waited}
