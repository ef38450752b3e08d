"""An occurrence's repeats, its escalation and its acknowledgement, on its done slot."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime

from cronbell.adapters.memory.schedules import Schedules
from cronbell.adapters.memory.state import DONE, Slot
from cronbell.core.domain import models
from cronbell.core.domain.instants import iso_utc
from cronbell.core.domain.models import Schedule
from cronbell.core.domain.ports import RepeatClaim


class RepeatLedger(Schedules):
    # --- Repeats -------------------------------------------------------------------------------
    def _repeating(self, schedule: Schedule, occurrence: str) -> Slot | None:
        """The occurrence's done slot while it is the schedule's current one, and the schedule
        neither paused nor deleted; None otherwise."""
        key = (schedule.room_id, schedule.id)
        stored = self._live.get(key) if schedule.status in models.LIVE_STATUSES else self._copies.get(key)
        if stored is None or stored.repeat_slot != occurrence:
            return None
        status = stored.status if key in self._live else self._as_retired(stored).status
        if status in (models.PAUSED, models.DELETED):
            return None
        return self._done(schedule, occurrence)

    def _done(self, schedule: Schedule, occurrence: str) -> Slot | None:
        held = self._slots.get((schedule.room_id, schedule.id, occurrence))
        return held if held is not None and held.state == DONE and held.run is not None else None

    def claim_repeat(
        self,
        schedule: Schedule,
        occurrence: str,
        number: int,
        escalation: bool,
        following: tuple[int, str] | None = None,
    ) -> RepeatClaim:
        done = self._done(schedule, occurrence)
        run = done.run if done is not None else None
        if run is None or done is None:
            return RepeatClaim.STOPPED
        if run.acknowledged_at:
            return RepeatClaim.ACKNOWLEDGED
        if run.repeats >= number or (escalation and run.escalated):
            return RepeatClaim.DUPLICATE
        if self._repeating(schedule, occurrence) is None:
            return RepeatClaim.STOPPED
        done.run = replace(run, escalated=True) if escalation else replace(run, repeats=number)
        return RepeatClaim.CLAIMED

    def defer_repeat(self, schedule: Schedule, occurrence: str, number: int, due: str) -> bool:
        done = self._repeating(schedule, occurrence)
        run = done.run if done is not None else None
        return run is not None and run.repeats < number and not run.acknowledged_at

    def mark_orphan(self, room_id: str, schedule_id: str, names: tuple[str, ...], now: datetime) -> None:
        self.orphans.append((room_id, schedule_id, names))

    def release_repeat(self, schedule: Schedule, occurrence: str, number: int, escalation: bool) -> None:
        done = self._done(schedule, occurrence)
        if done is None or done.run is None:
            return
        if escalation and done.run.escalated:
            done.run = replace(done.run, escalated=False)
        elif not escalation and done.run.repeats == number:
            done.run = replace(done.run, repeats=number - 1)

    def acknowledge(self, schedule: Schedule, occurrence: str, now: datetime) -> bool:
        done = self._repeating(schedule, occurrence)
        if done is None or done.run is None or done.run.acknowledged_at:
            return False
        done.run = replace(done.run, acknowledged_at=iso_utc(now))
        return True
