"""The store kept in memory: the ports of `cronbell.core.domain.ports` with the DynamoDB store's
semantics (versions and conditional writes, the room's count and keys, slot claims and their
leases, runs, quiet hours), for tests and tools that need no table. Deterministic: it reads no
clock (every time comes from its caller) and hands out copies, never the objects it keeps.

The room's count is kept as the table keeps it: an upper bound that a user's delete leaves high and
a create that finds the room full recounts. The reconciler's scans are not kept here yet: they raise
NotImplementedError.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, NoReturn

from cronbell.core.domain import models
from cronbell.core.domain.instants import iso_utc, parse_iso
from cronbell.core.domain.models import Schedule
from cronbell.core.domain.ports import (
    Busy,
    Claim,
    Conflict,
    Duplicate,
    Finish,
    Gone,
    LimitReached,
    NameTaken,
    OpenClaim,
    Pointer,
    Released,
    RepeatClaim,
    RoomCount,
    Store,
    TableScan,
    TooSoon,
)
from cronbell.core.domain.quiet_hours import QuietHours
from cronbell.core.domain.runs import DELIVERED, Run

CLAIMED, SENT, DONE = "claimed", "sent", "done"
HELD, OPEN = "held", "open"  # a slot held by quiet hours; a release whose claim was given back
Key = tuple[str, str]  # (room, schedule id)


@dataclass
class _Slot:
    state: str
    claimed_at: str = ""
    lease_until: str = ""
    message_id: str | None = None
    noted: Finish | None = None
    outcome: str = ""
    run: Run | None = None


@dataclass(frozen=True)
class _Release:
    state: str
    lease_until: str = ""
    attempts: int = 0


def _pointer_keys(schedule: Schedule) -> list[str]:
    """The keys of the room a live schedule holds: its dedupe key (first), and its name."""
    return [f"d#{schedule.dedupe_key}", *([f"n#{models.name_key(schedule.name)}"] if schedule.name else [])]


def _idle(schedule: Schedule, now: datetime) -> bool:
    return not schedule.inflight_until or schedule.inflight_until < iso_utc(now)


class MemoryStore:
    """Every port of the store on dictionaries."""

    def __init__(self) -> None:
        self._live: dict[Key, Schedule] = {}
        self._copies: dict[Key, Schedule] = {}  # audit copies of live schedules, retired schedules
        self._counts: dict[str, RoomCount] = {}
        self._pointers: dict[tuple[str, str], str] = {}  # (room, key) -> schedule id
        self._slots: dict[tuple[str, str, str], _Slot] = {}  # (room, owner, slot)
        self._quiet: dict[Key, QuietHours] = {}
        self._held: set[tuple[str, str, str, str, str]] = set()  # (room, user, until, schedule id, slot)
        self._releases: dict[tuple[str, str, str], _Release] = {}  # (room, user, until)
        self.orphans: list[tuple[str, str, tuple[str, ...]]] = []  # entries marked for the projection to remove

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
        self._claim_keys(schedule, _pointer_keys(schedule))
        self._take_place(schedule.room_id, max_per_room)
        self._write_live(schedule)
        self._point(schedule, _pointer_keys(schedule))

    def replace(self, old: Schedule, new: Schedule, max_per_room: int, now: datetime) -> None:
        room, key = new.room_id, (new.room_id, new.id)
        new.version = old.version + 1
        was_live = old.status in models.LIVE_STATUSES
        if was_live:
            stored = self._live.get(key)
            if stored is None or stored.version != old.version:
                raise Conflict(room)
            if not _idle(stored, now):
                raise Busy(room)
        else:
            standing = self._live.get(key) or self._copies.get(key)
            if standing is not None and standing.version != old.version:
                raise Conflict(room)
        held = set(_pointer_keys(old)) if was_live else set()
        claims = [k for k in _pointer_keys(new) if k not in held]
        self._claim_keys(new, claims)
        if not was_live:
            self._take_place(room, max_per_room)
        for k in held - set(_pointer_keys(new)):
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
        if not _idle(stored, now):
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
        if stored is None or stored.status != models.ACTIVE or stored.inflight_until < iso_utc(now):
            return False
        if stored.manual_waiting not in ("", slot):
            return False
        stored.manual_waiting = slot
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
        if not _idle(stored, now):
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
        if not _idle(stored, now):
            raise Busy(schedule.id)
        if run is not None:
            slot, finished = run
            self._slots[(schedule.room_id, schedule.id, slot)] = _Slot(DONE, outcome=finished.outcome, run=finished)
            stored.last_run = finished.stored()
        self._end(stored, status, now, reason)

    def _end(self, stored: Schedule, status: str, now: datetime, reason: str) -> None:
        """A live schedule leaves the live set: retired under its copy, its place and keys freed."""
        stored.status, stored.status_reason = status, reason
        stored.version += 1
        stored.inflight_until = ""
        room = stored.room_id
        del self._live[(room, stored.id)]
        self._copies[(room, stored.id)] = stored
        count = self._counts.get(room) or RoomCount(1, 0)
        self._counts[room] = RoomCount(count.live - 1, (count.rev or 0) + 1)
        for k in _pointer_keys(stored):
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

    # --- SlotLedger --------------------------------------------------------------------------
    def claim_slot(
        self, room_id: str, owner: str, slot: str, now: datetime, lease_seconds: int, schedule: Schedule | None
    ) -> Claim:
        t = iso_utc(now)
        held = self._slots.get((room_id, owner, slot))
        if held is not None and not (held.state == CLAIMED and held.lease_until < t):
            return {SENT: Claim.SENT, CLAIMED: Claim.HELD}.get(held.state, Claim.DUPLICATE)
        until = iso_utc(now + timedelta(seconds=lease_seconds))
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
            if stored.inflight_until and stored.inflight_until >= t and stored.inflight_slot != slot:
                return Claim.BUSY
            stored.inflight_slot, stored.inflight_until = slot, until
            stored.inflight_attempts = schedule.delivery_attempt(slot)
        self._slots[(room_id, owner, slot)] = _Slot(CLAIMED, claimed_at=t, lease_until=until)
        return Claim.CLAIMED

    def held_until(self, room_id: str, owner: str, slot: str) -> datetime | None:
        held = self._slots.get((room_id, owner, slot))
        return parse_iso(held.lease_until) if held is not None and held.state == CLAIMED else None

    def mark_slot_sent(self, room_id: str, owner: str, slot: str, message_id: str, noted: Finish | None = None) -> bool:
        held = self._slots.get((room_id, owner, slot))
        if held is not None and held.state == DONE:
            return False
        if held is None:
            held = self._slots[(room_id, owner, slot)] = _Slot(SENT)
        held.state, held.message_id = SENT, message_id
        if noted is not None:
            held.noted = noted
        return True

    def open_claim(self, room_id: str, owner: str, slot: str) -> OpenClaim | None:
        held = self._slots.get((room_id, owner, slot))
        if held is None or held.state == DONE:
            return None
        return OpenClaim(room_id, owner, slot, held.claimed_at, held.message_id, held.noted)

    def release_slot(self, room_id: str, owner: str, slot: str, schedule: Schedule | None) -> None:
        self._slots.pop((room_id, owner, slot), None)
        if schedule is not None:
            stored = self._live.get((room_id, schedule.id)) or self._copies.get((room_id, schedule.id))
            if stored is not None:
                stored.inflight_until = ""

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
            stored = self._live.get((room_id, schedule.id))
            if stored is None or stored.version != schedule.version:
                raise Conflict(schedule.id)
            self._ran(stored, finish)
            stored.inflight_until = ""
            if final_status:
                self._end(stored, final_status, now, detail)
            else:
                stored.version += 1
        self._slots[(room_id, owner, slot)] = _Slot(DONE, outcome=str(outcome), run=finish.run if finish else None)

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

    # --- Runs --------------------------------------------------------------------------------
    def record_run(self, schedule: Schedule, slot: str, now: datetime, run: Run) -> bool:
        if (schedule.room_id, schedule.id, slot) in self._slots:
            return False
        stored = self._live.get((schedule.room_id, schedule.id))
        if stored is None or stored.version != schedule.version:
            raise Conflict(schedule.id)
        stored.last_run = run.stored()
        stored.version += 1
        self._slots[(schedule.room_id, schedule.id, slot)] = _Slot(DONE, outcome=run.outcome, run=run)
        return True

    def record_static_run(self, room_id: str, owner: str, slot: str, now: datetime, run: Run) -> bool:
        if (room_id, owner, slot) in self._slots:
            return False
        self._slots[(room_id, owner, slot)] = _Slot(DONE, outcome=run.outcome, run=run)
        return True

    def runs(self, room_id: str, owner: str, limit: int) -> list[Run]:
        mine = sorted((s for (r, o, s) in self._slots if (r, o) == (room_id, owner)), reverse=True)[:limit]
        found = (self._slots[(room_id, owner, s)].run for s in mine)
        return [run for run in found if run is not None]

    def run_at(self, room_id: str, owner: str, slot: str) -> Run | None:
        held = self._slots.get((room_id, owner, slot))
        return held.run if held is not None else None

    # --- QuietRules --------------------------------------------------------------------------
    def quiet_hours(self, room_id: str, user_id: str) -> QuietHours | None:
        return self._quiet.get((room_id, user_id))

    def put_quiet_hours(self, room_id: str, user_id: str, rule: QuietHours) -> None:
        self._quiet[(room_id, user_id)] = rule

    def clear_quiet_hours(self, room_id: str, user_id: str) -> bool:
        return self._quiet.pop((room_id, user_id), None) is not None

    # --- Repeats -------------------------------------------------------------------------------
    def _repeating(self, schedule: Schedule, occurrence: str) -> _Slot | None:
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

    def _done(self, schedule: Schedule, occurrence: str) -> _Slot | None:
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

    # --- not kept in memory yet ----------------------------------------------------------------
    def _absent(self, port: str) -> NoReturn:
        raise NotImplementedError(f"the in-memory store does not keep {port} yet")

    def scan(self, now: datetime) -> TableScan:
        self._absent("scans")

    def move_retired(self, room_id: str, schedule_id: str) -> bool:
        self._absent("scans")

    def finalize_deleted(self, schedule: Schedule, now: datetime) -> bool:
        self._absent("scans")

    def copy_audit(self, schedule: Schedule) -> bool:
        self._absent("scans")

    def drop_pointer(self, pointer: Pointer) -> bool:
        self._absent("scans")

    def close_claim(self, claim: OpenClaim, now: datetime, run: Run, schedule: Schedule | None) -> bool:
        self._absent("scans")

    # --- Held ----------------------------------------------------------------------------------
    def hold_slot(self, schedule: Schedule, slot: str, now: datetime, until: str) -> None:
        release = self._releases.get((schedule.room_id, schedule.user_id, until))
        if release is not None and release.state != OPEN:
            raise Released(until)
        held = self._slots.get((schedule.room_id, schedule.id, slot))
        stored = self._live.get((schedule.room_id, schedule.id))
        if held is None or held.state != CLAIMED or stored is None or stored.version != schedule.version:
            raise Conflict(schedule.id)
        self._slots[(schedule.room_id, schedule.id, slot)] = _Slot(HELD, outcome=HELD)
        stored.delivered_count += 1
        stored.version += 1
        stored.inflight_slot, stored.inflight_until, stored.inflight_attempts = "", "", 0
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
        t = iso_utc(now)
        if release is not None and not (
            release.state == OPEN or (release.state == CLAIMED and release.lease_until < t)
        ):
            return 0
        attempts = (release.attempts if release else 0) + 1
        lease = iso_utc(now + timedelta(seconds=lease_seconds))
        self._releases[key] = _Release(CLAIMED, lease, attempts)
        return attempts

    def end_release(self, room_id: str, user_id: str, until: str, done: bool) -> None:
        key = (room_id, user_id, until)
        release = self._releases.get(key) or _Release(OPEN)
        self._releases[key] = replace(release, state=DONE if done else OPEN)


if TYPE_CHECKING:  # the type checker holds it to every port of the store
    _conforms: Store = MemoryStore()
