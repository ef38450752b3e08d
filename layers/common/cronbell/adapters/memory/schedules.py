"""The room's schedules, its count and its keys (dedupe keys, names), as schedules.py and rooms.py
keep them on the table."""

from __future__ import annotations

import copy
from dataclasses import replace
from datetime import datetime

from cronbell.adapters.memory.state import DONE, Slot, State, idle, pointer_keys
from cronbell.core.domain import models
from cronbell.core.domain.errors import (
    Busy,
    Conflict,
    Duplicate,
    Gone,
    LimitReached,
    NameTaken,
    QuietHoursChanged,
    TooSoon,
)
from cronbell.core.domain.models import Schedule
from cronbell.core.domain.ports import RoomCount
from cronbell.core.domain.runs import Run


class Schedules(State):
    # --- Schedules ---------------------------------------------------------------------------
    def get(self, room_id: str, schedule_id: str) -> Schedule | None:
        live = self._live.get((room_id, schedule_id))
        if live is not None:
            return copy.deepcopy(live)
        kept = self._copies.get((room_id, schedule_id))
        return self._as_retired(kept) if kept is not None else None

    @staticmethod
    def _as_retired(kept: Schedule) -> Schedule:
        """A copy with no live item beside it: one that still says live was deleted by its user."""
        out = copy.deepcopy(kept)
        return replace(out, status=models.DELETED) if out.status in models.LIVE_STATUSES else out

    def list_room(self, room_id: str, now: datetime, retired: bool = False) -> list[Schedule]:
        found = [copy.deepcopy(s) for (room, _), s in self._live.items() if room == room_id]
        if retired:
            found += [
                self._as_retired(s)
                for (room, sid), s in self._copies.items()
                if room == room_id and (room, sid) not in self._live
            ]
        return sorted(found, key=lambda s: s.created_at)

    def insert(self, schedule: Schedule, max_per_room: int) -> None:
        key = (schedule.room_id, schedule.id)
        if key in self._live:
            raise Conflict(schedule.room_id)
        self._check_quiet(schedule)
        self._claim_keys(schedule, pointer_keys(schedule))
        self._take_place(schedule.room_id, max_per_room)
        self._write_live(schedule)
        self._point(schedule, pointer_keys(schedule))

    def _check_quiet(self, schedule: Schedule) -> None:
        """A schedule written as its user having no quiet hours, whose user has set some since."""
        if schedule.quiet_hours_set is False and (schedule.room_id, schedule.user_id) in self._quiet:
            raise QuietHoursChanged(schedule.room_id)

    def replace(self, old: Schedule, new: Schedule, max_per_room: int, now: datetime) -> None:
        room, key = new.room_id, (new.room_id, new.id)
        new.version = old.version + 1
        was_live = old.status in models.LIVE_STATUSES
        if was_live:
            stored = self._live.get(key)
            if stored is None or stored.version != old.version:
                raise Conflict(room)
            if not idle(stored, now):
                raise Busy(room)
        else:
            standing = self._live.get(key) or self._copies.get(key)
            if standing is not None and standing.version != old.version:
                raise Conflict(room)
            if standing is not None and not idle(standing, now):  # a waiting run posted from the copy
                raise Busy(room)
            self._check_quiet(new)
        held = set(pointer_keys(old)) if was_live else set()
        claims = [k for k in pointer_keys(new) if k not in held]
        self._claim_keys(new, claims)
        if not was_live:
            self._take_place(room, max_per_room)
        for k in held - set(pointer_keys(new)):
            self._pointers.pop((room, k), None)
        written = copy.deepcopy(new)
        if was_live:  # the run fields and the manual run are the fire's, not the change's
            written.last_manual_run = self._live[key].last_manual_run
        self._write_live(written)
        self._point(new, claims)

    def set_skip(self, schedule: Schedule, slot: str, now: datetime) -> None:
        stored = self._live.get((schedule.room_id, schedule.id))
        if stored is None or stored.version != schedule.version or stored.status != models.ACTIVE:
            raise Conflict(schedule.id)
        if not idle(stored, now):
            raise Busy(schedule.id)
        stored.timing = replace(stored.timing, skips=schedule.timing.skips | {slot})
        stored.version += 1

    def mark_manual_run(self, schedule: Schedule, slot: str, not_since: str) -> None:
        stored = self._live.get((schedule.room_id, schedule.id))
        if stored is None or stored.status != models.ACTIVE:
            raise Conflict(schedule.id)
        if stored.last_manual_run and stored.last_manual_run > not_since:
            raise TooSoon(stored.last_manual_run)
        stored.last_manual_run = slot

    def wait_manual(self, schedule: Schedule, slot: str, now: datetime) -> bool:
        stored = self._live.get((schedule.room_id, schedule.id))
        if stored is None or stored.status != models.ACTIVE or not stored.held(now):
            return False
        stored.manual_waiting = stored.manual_waiting | {slot}
        stored.version += 1
        return True

    def unmark_manual_run(self, schedule: Schedule, slot: str) -> None:
        stored = self._live.get((schedule.room_id, schedule.id))
        if stored is not None and stored.last_manual_run == slot:
            stored.last_manual_run = schedule.last_manual_run

    def delete(self, room_id: str, schedule_id: str, now: datetime) -> Schedule:
        stored = self._live.get((room_id, schedule_id))
        if stored is None:
            kept = self._copies.get((room_id, schedule_id))
            raise Gone(self._as_retired(kept) if kept is not None else None)
        if stored.status not in models.LIVE_STATUSES:
            raise Gone(copy.deepcopy(stored))
        if not idle(stored, now):
            raise Busy(schedule_id)
        del self._live[(room_id, schedule_id)]
        self._copies[(room_id, schedule_id)] = copy.deepcopy(stored)  # its audit copy, with its runs
        return copy.deepcopy(stored)

    def retire(
        self,
        schedule: Schedule,
        status: str,
        now: datetime,
        reason: str = "",
        run: tuple[str, Run] | None = None,
        *,
        as_read: bool = False,
    ) -> None:
        stored = self._live.get((schedule.room_id, schedule.id))
        if stored is None or stored.status not in models.LIVE_STATUSES:
            raise Conflict(schedule.id)
        if as_read and stored.version != schedule.version:
            raise Conflict(schedule.id)
        if not idle(stored, now):
            raise Busy(schedule.id)
        if run is not None:
            slot, finished = run
            self._slots[(schedule.room_id, schedule.id, slot)] = Slot(DONE, outcome=finished.outcome, run=finished)
            stored.last_run = finished.stored()
        self._end(stored, status, now, reason)

    def _end(self, stored: Schedule, status: str, now: datetime, reason: str) -> None:
        """A live schedule leaves the live set: retired under its copy, its place and keys freed."""
        stored.status, stored.status_reason = status, reason
        stored.version += 1
        stored.inflight_until = None
        room = stored.room_id
        del self._live[(room, stored.id)]
        self._copies[(room, stored.id)] = stored
        count = self._counts.get(room) or RoomCount(1, 0)
        self._counts[room] = RoomCount(count.live - 1, (count.rev or 0) + 1)
        for k in pointer_keys(stored):
            if self._pointers.get((room, k)) == stored.id:
                del self._pointers[(room, k)]

    def _write_live(self, schedule: Schedule) -> None:
        key = (schedule.room_id, schedule.id)
        self._live[key] = copy.deepcopy(schedule)
        self._copies[key] = copy.deepcopy(schedule)

    def _claim_keys(self, schedule: Schedule, keys: list[str]) -> None:
        """Raise Duplicate (a dedupe key) or NameTaken (a name) for a key a live schedule holds."""
        for k in sorted(keys):
            holder_id = self._pointers.get((schedule.room_id, k))
            if holder_id is None or holder_id == schedule.id:
                continue
            holder = self._live.get((schedule.room_id, holder_id))
            if holder is not None and holder.status in models.LIVE_STATUSES:
                raise Duplicate(copy.deepcopy(holder)) if k.startswith("d#") else NameTaken(copy.deepcopy(holder))

    def _point(self, schedule: Schedule, keys: list[str]) -> None:
        for k in keys:
            self._pointers[(schedule.room_id, k)] = schedule.id

    def _take_place(self, room: str, max_per_room: int) -> None:
        count = self._counts.get(room)
        if count is not None and count.live >= max_per_room:
            counted = self.recount(room, count)
            if counted is None or counted >= max_per_room:
                raise LimitReached()
            count = self._counts[room]
        live = count.live if count else 0
        rev = count.rev or 0 if count else 0
        self._counts[room] = RoomCount(live + 1, rev + 1)

    # --- Rooms -------------------------------------------------------------------------------
    def room_count(self, room_id: str) -> RoomCount | None:
        return self._counts.get(room_id)

    def recount(self, room_id: str, seen: RoomCount | None) -> int | None:
        live = sum(1 for (room, _), s in self._live.items() if room == room_id and s.status in models.LIVE_STATUSES)
        if (seen.live if seen else 0) == live:
            return live
        if self._counts.get(room_id) != seen:
            return None
        rev = (seen.rev or 0) if seen else 0
        self._counts[room_id] = RoomCount(live, rev + 1)
        return live
