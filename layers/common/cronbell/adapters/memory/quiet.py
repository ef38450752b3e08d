"""Each user's quiet hours in a room, the occurrences held until the end of a period, and its release."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime, timedelta

from cronbell.adapters.memory.state import CLAIMED, DONE, HELD, OPEN, Release, Slot, State, lease_ended
from cronbell.core.domain import models
from cronbell.core.domain.errors import Conflict, Released
from cronbell.core.domain.instants import stored_second
from cronbell.core.domain.models import Schedule
from cronbell.core.domain.quiet_hours import QuietHours


class QuietStore(State):
    # --- QuietRules --------------------------------------------------------------------------
    def quiet_hours(self, room_id: str, user_id: str) -> QuietHours | None:
        return self._quiet.get((room_id, user_id))

    def put_quiet_hours(self, room_id: str, user_id: str, rule: QuietHours) -> None:
        """The rule, and its user's reminders in the room marked as having one (each a new version)."""
        self._quiet[(room_id, user_id)] = rule
        self.mark_quiet_hours(room_id, user_id)

    def mark_quiet_hours(self, room_id: str, user_id: str) -> int:
        marked = 0
        for stored in self._live.values():
            mine = (stored.room_id, stored.user_id, stored.kind) == (room_id, user_id, models.MESSAGE)
            if mine and not stored.quiet_hours_set:
                stored.quiet_hours_set = True
                stored.version += 1
                marked += 1
        return marked

    def clear_quiet_hours(self, room_id: str, user_id: str) -> bool:
        return self._quiet.pop((room_id, user_id), None) is not None

    # --- Held ----------------------------------------------------------------------------------
    def hold_slot(self, schedule: Schedule, slot: str, now: datetime, until: str) -> None:
        release = self._releases.get((schedule.room_id, schedule.user_id, until))
        if release is not None and release.state != OPEN:
            raise Released(until)
        held = self._slots.get((schedule.room_id, schedule.id, slot))
        stored = self._live.get((schedule.room_id, schedule.id))
        if held is None or held.state != CLAIMED or stored is None or stored.version != schedule.version:
            raise Conflict(schedule.id)
        self._slots[(schedule.room_id, schedule.id, slot)] = Slot(HELD, outcome=HELD)
        stored.delivered_count += 1
        stored.version += 1
        stored.inflight_slot, stored.inflight_until, stored.inflight_attempts = "", None, 0
        stored.releases = stored.releases | {until}
        self._held.add((schedule.room_id, schedule.user_id, until, schedule.id, slot))

    def held(self, room_id: str, user_id: str, until: str) -> list[tuple[str, str]]:
        mine = [(sid, slot) for (r, u, t, sid, slot) in self._held if (r, u, t) == (room_id, user_id, until)]
        return sorted(mine, key=lambda held: held[1])

    def drop_held(self, room_id: str, user_id: str, until: str, schedule_id: str, slot: str) -> None:
        self._held.discard((room_id, user_id, until, schedule_id, slot))

    def claim_release(self, room_id: str, user_id: str, until: str, now: datetime, lease_seconds: int) -> int:
        key = (room_id, user_id, until)
        release = self._releases.get(key)
        t = stored_second(now)
        if release is not None and not (
            release.state == OPEN or (release.state == CLAIMED and lease_ended(release.lease_until, t))
        ):
            return 0
        attempts = (release.attempts if release else 0) + 1
        lease = t + timedelta(seconds=lease_seconds)
        self._releases[key] = Release(CLAIMED, lease, attempts)
        return attempts

    def release_held_until(self, room_id: str, user_id: str, until: str) -> datetime | None:
        release = self._releases.get((room_id, user_id, until))
        return release.lease_until if release is not None and release.state == CLAIMED else None

    def end_release(self, room_id: str, user_id: str, until: str, done: bool) -> None:
        key = (room_id, user_id, until)
        release = self._releases.get(key) or Release(OPEN)
        self._releases[key] = replace(release, state=DONE if done else OPEN)
