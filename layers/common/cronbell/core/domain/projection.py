"""What Scheduler must hold for an item: its entries as a projection of the item's version (pure).

A schedule item projects its own entries and snoozes (while live; disabled while paused) and the
releases of its occurrences held by quiet hours; a done slot of a repeating reminder projects the
next fire of its repeat chain; an orphan mark projects the removal of entries that fire a schedule
that does not exist. The one writer (`usecases/project.py`, fed by the table's stream) applies the
difference between the projections of an item's old and new images, in the order the stream keeps
for one item; the reconciler compares the projection of every live item with what Scheduler holds.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from cronbell.core.domain import models, quiet_hours, repeats
from cronbell.core.domain.cron.expressions import at_expression
from cronbell.core.domain.fire_event import manual_input, release_input, repeat_input, scheduler_input
from cronbell.core.domain.instants import parse_iso
from cronbell.core.domain.models import Entry, Schedule
from cronbell.core.domain.runs import History
from cronbell.core.values import value

WAITING_SUFFIX = "-now"  # the entry of a run started by hand that waits its turn
EXECUTION_ID, ATTEMPT = "<aws.scheduler.execution-id>", "<aws.scheduler.attempt-number>"


@value
class Target:
    """One Scheduler entry as an item wants it: the entry, what it fires (its Input) and its state."""

    entry: Entry
    input: str
    enabled: bool
    kind: str  # what it fires, for the entry's description
    room_id: str

    @property
    def name(self) -> str:
        return self.entry.name


@value
class NextRepeat:
    """The pending fire of an occurrence's repeat chain, kept on the occurrence's done slot."""

    room_id: str
    schedule_id: str
    occurrence: str  # RFC3339 UTC: the occurrence (its ledger slot)
    number: int  # 1..repeat_times, or the escalation's
    due: str  # RFC3339 UTC
    moved: bool = False  # written again for the end of its user's quiet period: a name of its own

    def target(self) -> Target:
        when = parse_iso(self.due).astimezone(UTC)
        name = repeats.entry_name(self.schedule_id, self.occurrence, self.number)
        if self.moved:
            name = f"{name}-{repeats.base36(when)}"
        entry = Entry(name, at_expression(when), "UTC", True, repeat_of=self.occurrence, repeat=self.number)
        fired = repeat_input(self.room_id, self.schedule_id, self.occurrence, self.number)
        return Target(entry, fired, True, models.MESSAGE, self.room_id)


@value
class Orphan:
    """A mark a fire leaves for entries that fire a schedule with no item: they are removed, each only
    if its Input fires that (room, schedule)."""

    room_id: str
    schedule_id: str
    names: tuple[str, ...]


Projected = Schedule | NextRepeat | Orphan | None


@value
class Change:
    """One change of an item, as the table's stream records it: its image before and after (None: absent),
    the run it recorded on its schedule whose slot is still to be written, and, when it retired a
    schedule under its live key (a fire's record), that item as the store keeps it, to be moved to its
    retired key (`Store.move_retired`)."""

    old: Projected
    new: Projected
    history: History | None = None
    retired: Mapping[str, Any] | None = None


def targets(item: Projected, now: datetime) -> dict[str, Target]:
    """Every entry an item's version wants, by name."""
    if isinstance(item, Schedule):
        return {**_own(item), **_waiting(item, now), **_releases(item)}
    if isinstance(item, NextRepeat):
        target = item.target()
        return {target.name: target}
    return {}


def _own(schedule: Schedule) -> dict[str, Target]:
    """A live schedule's entries and snoozes; paused ones are there, disabled."""
    fired = scheduler_input(schedule.room_id, schedule.id)
    enabled = schedule.status == models.ACTIVE
    return {
        e.name: Target(e, fired, enabled, schedule.kind, schedule.room_id)
        for e in schedule.entries()  # none once it is no longer live
    }


def _waiting(schedule: Schedule, now: datetime) -> dict[str, Target]:
    """The runs started by hand that wait for the delivery under way: an entry of their own for the
    earliest, firing the minute after that delivery's lease ends (or, once it has ended, the next
    minute); its record lets the next one have the entry, so they are delivered in turn. A paused
    schedule keeps it: at its turn the run is recorded skipped (paused), as any manual fire that
    meets a paused schedule is, never left waiting in silence. A schedule that ran out while a run
    waited (the delivery it waited for was its last) keeps it too: that run is still delivered, once."""
    if schedule.status not in (*models.LIVE_STATUSES, *models.RAN_OUT) or not schedule.manual_waiting:
        return {}
    under_way = schedule.inflight_until if schedule.status not in models.RAN_OUT else None  # ran out: it ended
    start = max(now, under_way) if under_way else now
    due = start.astimezone(UTC).replace(second=0, microsecond=0) + timedelta(minutes=1)
    entry = Entry(f"{schedule.id}{WAITING_SUFFIX}", at_expression(due), "UTC", True)
    event = manual_input(schedule.room_id, schedule.id, min(schedule.manual_waiting), EXECUTION_ID)
    fired = json.dumps({**event, "attempt": ATTEMPT})
    return {entry.name: Target(entry, fired, True, schedule.kind, schedule.room_id)}


def _releases(schedule: Schedule) -> dict[str, Target]:
    """The release of each quiet period that holds one of its occurrences (the same entry for every
    schedule a period holds). It fires once, whatever became of the schedules, and Scheduler removes it."""
    room, user = schedule.room_id, schedule.user_id
    targets = (release_target(room, user, parse_iso(until), parse_iso(until)) for until in schedule.releases)
    return {t.name: t for t in targets}


def release_target(room_id: str, user_id: str, until: datetime, at: datetime) -> Target:
    """The entry, firing at `at`, that releases what (room, user) had held until `until`."""
    entry = quiet_hours.release_entry(room_id, user_id, until, at)
    return Target(entry, release_input(room_id, user_id, entry.release_until), True, models.MESSAGE, room_id)


def own_targets(schedule: Schedule) -> list[Target]:
    """A schedule's own entries and snoozes (none once it is no longer live)."""
    return list(_own(schedule).values())


def fired(target: Target, now: datetime) -> bool:
    """Whether a one-time entry's time has come: Scheduler removes it once fired."""
    return target.entry.one_time and fires_at(target.entry) <= now


@dataclass
class Plan:
    """What one stream record asks of Scheduler."""

    puts: list[Target] = field(default_factory=list)
    deletes: list[str] = field(default_factory=list)
    created: set[str] = field(default_factory=set)  # puts of entries the old projection did not have
    # entries to remove only if they fire this (room, schedule): an orphan's
    deletes_if_fire: list[tuple[str, str, str]] = field(default_factory=list)

    @property
    def empty(self) -> bool:
        return not (self.puts or self.deletes or self.deletes_if_fire)


def plan(old: Projected, new: Projected, now: datetime) -> Plan:
    """The writes that take Scheduler from the projection of `old` to that of `new`: an entry that is
    new or differs is written whole; one no longer wanted is deleted, unless it is a one-time entry
    whose time has come (Scheduler removes it once fired, and a fire finds the item's new version) or
    a release (it posts what its period held, whatever became of the schedule)."""
    out = Plan()
    if isinstance(new, Orphan):
        out.deletes_if_fire = [(name, new.room_id, new.schedule_id) for name in new.names]
        return out
    before, after = targets(old, now), targets(new, now)
    # a one-time entry already wanted before whose time has come is not written again (paused, say):
    # Scheduler removed it once fired, and written again it would stay, never to fire nor go
    out.puts = [t for name, t in after.items() if before.get(name) != t and not (name in before and fired(t, now))]
    out.deletes = [name for name, t in before.items() if name not in after and not _leaves_by_itself(t, now)]
    # UpdateSchedule cannot be trusted to switch an entry between one-time and recurring: remove it first
    switched = [n for n, t in after.items() if n in before and before[n].entry.one_time != t.entry.one_time]
    out.deletes += switched
    out.created = {t.name for t in out.puts if t.name not in before or t.name in switched}
    return out


def _leaves_by_itself(target: Target, now: datetime) -> bool:
    return bool(target.entry.release_user) or fired(target, now)


def fires_at(entry: Entry) -> datetime:
    """When a one-time entry fires (its at() read in its zone)."""
    text = entry.expression.removeprefix("at(").removesuffix(")")
    return datetime.fromisoformat(text).replace(tzinfo=ZoneInfo(entry.timezone))
