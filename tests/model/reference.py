"""The reference model of one room's schedules: what the tools and the fire function must do, as a
slow, brute-force, executable reading of the public contracts (README), docs/skill.md and docs/semantics.md.

It imports nothing of cronbell. It learns a schedule only from a tool call and its answer (the id,
and that the call was accepted), and it is told the clock's moves and each fire Scheduler sends
(schedule, scheduled time, the instant the fire starts). From those it predicts every schedule's
status, `next_fire`, the runs in its history and the posts in the room. Occurrences are enumerated
with croniter over local wall times, one at a time; holidays are looked up per local date.

`Flags` switches off parts of the model where a known defect is being fixed, so a search can look
for other discrepancies; every flag defaults to the correct behaviour."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from datetime import UTC, date, datetime, timedelta
from functools import cache
from typing import Any
from zoneinfo import ZoneInfo

import holidays
from croniter import croniter

from tests.model.quiet import Quiet, Release

LIVE = ("active", "paused")
RAN_OUT = ("fired", "completed", "missed", "delivery_failed")  # ended by its own runs, not by its owner


@dataclass(frozen=True)
class Flags:
    """Known defect areas (docs/semantics.md names the rule each one checks). True: checked."""

    holiday_ends: bool = True  # C1: holidays with count/until, next_fire on holiday eves
    snooze_paused: bool = True  # H2: snoozing a paused one-shot with its time to come is refused
    snooze_past_until: bool = True  # H3: a snooze past `until` is refused
    skipped_snooze: bool = True  # H4: a skipped snoozed occurrence leaves next_fire
    paused_past_until: bool = True  # L6: resuming a schedule paused past `until` completes it
    run_now_slot: bool = True  # M2: run_now in the second of a regular occurrence is a run of its own
    until_soon: bool = True  # M3: an `until` later today is accepted
    manual_retry_lateness: bool = True  # N1: a run_now posted by a retry counts its lateness from it

    @classmethod
    def without(cls, areas: str) -> Flags:
        """Flags with the named defect areas (C1, H2, H3, H4, L6, M2, M3, N1; comma-separated) not checked."""
        names = {"C1": "holiday_ends", "H2": "snooze_paused", "H3": "snooze_past_until", "H4": "skipped_snooze"}
        names |= {"L6": "paused_past_until", "M2": "run_now_slot", "M3": "until_soon", "N1": "manual_retry_lateness"}
        off = {names[a.strip().upper()]: False for a in areas.split(",") if a.strip()}
        return cls(**off)


@dataclass(frozen=True)
class Settings:
    min_interval_minutes: int = 5
    auto_pause_after: int = 5
    max_lateness_minutes: int = 60


@dataclass
class Run:
    scheduled: datetime  # UTC
    outcome: str
    reason: str | None
    manual: bool = False
    late_seconds: int = 0
    moved_from: datetime | None = None  # UTC: the original time of an occurrence `on_holiday` moved
    acknowledged_at: datetime | None = None  # done_reminder (or the Done button) on this occurrence
    repeats: int = 0  # posts of the occurrence after the first
    escalated: bool = False


@dataclass
class Repeating:
    """The current occurrence of a schedule with `repeat_every`: delivered at `base`, posted again
    at base + k * every (k = 1..times) until acknowledged, then escalated at base + (times + 1) *
    every when `escalate_to` is set. A later delivered occurrence, a snooze, a pause or a delete
    stops it (docs/semantics.md, "Repeat until done")."""

    slot: datetime  # the occurrence (UTC)
    base: datetime  # the start of its delivery
    posted: int = 0  # repeats posted so far
    escalated: bool = False
    acked: datetime | None = None
    stopped: bool = False

    def due(self, every: int, k: int) -> datetime:
        return self.base + timedelta(minutes=every * k)


@dataclass
class Post:
    """A message the room must see: an occurrence (`slot` set), or a notice about a schedule."""

    schedule: str
    what: str  # "occurrence" | "repeat" | "escalation" | "failure_notice" | "pause_notice" | "works_again"
    slot: datetime | None = None
    manual: bool = False


@dataclass
class Schedule:
    sid: str
    kind: str  # "message" | "agent_call"
    timezone: str
    cron: str | None = None  # five fields, as croniter reads them
    at: datetime | None = None  # a one-shot's instant (UTC)
    count: int | None = None
    until: datetime | None = None  # UTC
    calendar: str | None = None  # skip_holidays
    status: str = "active"
    status_reason: str | None = None
    skips: set[datetime] = field(default_factory=set)  # regular occurrences skipped by skip_next
    snoozed_away: set[datetime] = field(default_factory=set)  # regular occurrences a snooze moved
    snoozes: set[datetime] = field(default_factory=set)  # pending snoozed occurrences
    cancelled: set[datetime] = field(default_factory=set)  # snoozed occurrences skipped by skip_next
    delivered: int = 0
    streak: int = 0
    runs: list[Run] = field(default_factory=list)
    unspecified: bool = False  # a case the rules leave open: stop comparing this schedule
    created: datetime = field(default_factory=lambda: datetime.min.replace(tzinfo=UTC))
    last_manual: datetime | None = None
    stopped: datetime | None = None  # the slot whose run ended it, or paused it (failing)
    every: int = 1  # "every other monday at 10": 2 (weeks); "every 3 days at 9": 3 (days)
    unit: str = "weeks"
    anchor: date | None = None  # the local date of the first occurrence after the schedule was made
    elsewhere: bool = False  # an agent call whose answers go to another room (one AllowedOutputRooms names)
    business_days: bool = False  # occurrences only on Monday-Friday that are not holidays of `calendar`
    business_day: int = 0  # the N-th (1-23) or last (-1) business day of the month; 0: none
    on_holiday: str = "skip"  # skip | before | after: where an occurrence on a day off goes
    repeat_every: int | None = None  # minutes between the posts of an occurrence until acknowledged
    repeat_times: int = 6
    escalate_to: str | None = None
    current: Repeating | None = None
    user: str | None = None  # who set it (and whom it mentions): whose quiet hours hold it
    quiet_exempt: bool = False  # a one-shot whose time its user set inside their own quiet hours
    held: dict[datetime, datetime] = field(default_factory=dict)  # held occurrence -> its release
    said: str | None = None  # `cron` as the call gave it: a schedule's identity keeps it as said

    def identity(self) -> tuple[Any, ...]:
        """What makes two live schedules the same one (a create or change that would make a second is
        `duplicate`): an agent call's prompt is the same in every call the search makes, and a reminder's
        message names its number, so only agent calls meet: their time as said, zone, output room and ends."""
        when = ("cron", self.said) if self.cron is not None else ("at", self.at)
        ends = (self.until, self.count, self.calendar, self.business_days, self.business_day, self.on_holiday)
        return (self.kind, when, self.timezone, self.elsewhere, self.every, self.unit, ends)

    @property
    def recurring(self) -> bool:
        return self.cron is not None

    def ran(self, slot: datetime, manual: bool = False) -> bool:
        return any(r.scheduled == slot and r.manual == manual for r in self.runs)

    def run_of(self, slot: datetime) -> Run | None:
        return next((r for r in reversed(self.runs) if r.scheduled == slot and not r.manual), None)

    def stop_repeats(self) -> None:
        if self.current is not None:
            self.current.stopped = True


# --- time, by brute force -------------------------------------------------------------------------


def wall_to_utc(wall: datetime, tz: ZoneInfo) -> datetime | None:
    """A local wall time on the timeline: None when it does not exist (spring forward); the first
    of the two when it happens twice (fall back)."""
    aware = wall.replace(tzinfo=tz, fold=0)
    if aware.astimezone(UTC).astimezone(tz).replace(tzinfo=None) != wall:
        return None
    return aware.astimezone(UTC)


COMING = 50  # how many coming fires a named occurrence is looked for among
HORIZON_DAYS = 3653  # previews look ten years ahead (docs/semantics.md, "Ends and calendars")


def cron_between(expression: str, timezone: str, after: datetime, until: datetime) -> list[datetime]:
    """Every instant t with after < t <= until at which the five-field expression matches a local
    wall time in the zone (croniter walks wall times; each is placed with wall_to_utc)."""
    tz = ZoneInfo(timezone)
    walk = croniter(expression, (after.astimezone(tz) - timedelta(days=1)).replace(tzinfo=None, second=0))
    limit = (until.astimezone(tz) + timedelta(days=1)).replace(tzinfo=None)
    out: list[datetime] = []
    while (wall := walk.get_next(datetime)) <= limit:
        when = wall_to_utc(wall, tz)
        if when is not None and after < when <= until and when not in out:
            out.append(when)
    return out


@cache
def _calendar(code: str, year: int) -> holidays.HolidayBase:
    country, _, subdivision = code.partition("-")
    return holidays.country_holidays(country, subdiv=subdivision or None, years=year)


def is_holiday(code: str, day: date) -> bool:
    return day in _calendar(code, day.year)


def is_business_day(code: str, day: date) -> bool:
    return day.weekday() < 5 and not is_holiday(code, day)


def business_day_of_month(code: str, year: int, month: int, n: int) -> date | None:
    """The n-th (or, for -1, the last) business day of a month, by walking its days; None when the
    month has fewer than n."""
    day, found = date(year, month, 1), []
    while day.month == month:
        if is_business_day(code, day):
            found.append(day)
        day += timedelta(days=1)
    if n == -1:
        return found[-1] if found else None
    return found[n - 1] if len(found) >= n else None


MOVE_DAYS = 31  # how far `on_holiday` looks for the business day an occurrence moves to


def local_date(when: datetime, timezone: str) -> date:
    return when.astimezone(ZoneInfo(timezone)).date()


def iso_local(when: datetime, timezone: str) -> str:
    return when.astimezone(ZoneInfo(timezone)).isoformat()


# --- the model ------------------------------------------------------------------------------------


@dataclass
class Room:
    now: datetime
    settings: Settings = field(default_factory=Settings)
    flags: Flags = field(default_factory=Flags)
    schedules: dict[str, Schedule] = field(default_factory=dict)
    posts: list[Post] = field(default_factory=list)
    chat_down: int = 0  # the chat's next posts that fail transiently (a 5xx, a timeout)
    platform_gone: bool = False  # the room's chat platform is not configured in the deployment now
    output_forbidden: bool = False  # the other room is no longer in AllowedOutputRooms
    agents_gone: bool = False  # the agents' allowlist no longer names the agent the calls target
    quiet: Quiet = field(default_factory=Quiet)  # the quiet-hours rules and the releases written

    # -- occurrences

    def raw(self, s: Schedule, after: datetime, until: datetime) -> list[datetime]:
        """The instants in (after, until] at which the schedule's expression (with its interval and its
        business day of the month) matches, before anything moves or is skipped; none past `until`."""
        if s.cron is None:
            return [s.at] if s.at is not None and after < s.at <= until else []
        end = min(until, s.until) if s.until is not None else until
        if end <= after:
            return []
        found = cron_between(s.cron, s.timezone, after, end)
        return [t for t in found if self._day_has(s, local_date(t, s.timezone))]

    def _day_has(self, s: Schedule, day: date) -> bool:
        """Whether the schedule's own rules pick this local date (its expression matches a wall time
        of it, and the interval and the business day of the month keep it)."""
        start = datetime.combine(day, datetime.min.time()) - timedelta(minutes=1)
        if croniter(s.cron, start).get_next(datetime).date() != day:
            return False
        if s.every > 1 and s.anchor is not None and not self._on_interval(s, day):
            return False
        if s.business_day:
            assert s.calendar is not None
            return business_day_of_month(s.calendar, day.year, day.month, s.business_day) == day
        return True

    def _day_off(self, s: Schedule, day: date) -> bool:
        if s.calendar is None:
            return False
        return is_holiday(s.calendar, day) or (s.business_days and day.weekday() >= 5)

    def _moved(self, s: Schedule, t: datetime) -> datetime | None:
        """Where `on_holiday` moves the occurrence `t` on a day off: the previous or next business day
        at the same wall time, unless a day of the schedule's own lies on the way or is that day, the
        wall time does not exist there, or no business day comes within MOVE_DAYS."""
        assert s.calendar is not None
        tz = ZoneInfo(s.timezone)
        wall = t.astimezone(tz).replace(tzinfo=None)
        step = timedelta(days=-1 if s.on_holiday == "before" else 1)
        day = wall.date()
        for _ in range(MOVE_DAYS):
            day += step
            if self._day_has(s, day):
                return None
            if is_business_day(s.calendar, day):
                moved = wall_to_utc(datetime.combine(day, wall.time()), tz)
                if moved is None or (s.until is not None and moved > s.until):
                    return None
                return moved
        return None

    def occurrences(self, s: Schedule, after: datetime, until: datetime) -> list[tuple[datetime, str, datetime | None]]:
        """(instant, kind, moved from) of the occurrences in (after, until]: kind `regular`, `holiday`
        (a day off that stays where it is: its run is skipped) or `moved`. With business-day rules a
        day off that does not move is no occurrence at all."""
        if s.cron is None:
            return [(t, "regular", None) for t in self.raw(s, after, until)]
        margin = timedelta(days=MOVE_DAYS + 2) if s.on_holiday != "skip" else timedelta(0)
        out: list[tuple[datetime, str, datetime | None]] = []
        for t in self.raw(s, after - margin, until + margin):
            if not self._day_off(s, local_date(t, s.timezone)):
                found: tuple[datetime, str, datetime | None] | None = (t, "regular", None)
            elif s.on_holiday != "skip" and t > s.created and (moved := self._moved(s, t)) is not None:
                found = (moved, "moved", t)  # from an occurrence of its own: none from before it was made
            elif not (s.business_days or s.business_day):
                found = (t, "holiday", None)
            else:
                found = None
            if found is not None and after < found[0] <= until:
                out.append(found)
        return sorted(out)

    def regular(self, s: Schedule, after: datetime, until: datetime) -> list[datetime]:
        """The schedule's own occurrences in (after, until], before skips and snoozes (holidays
        that stay in place included)."""
        return [t for t, _, _ in self.occurrences(s, after, until)]

    @staticmethod
    def _on_interval(s: Schedule, day: date) -> bool:
        """Every N days from the anchor, or every N weeks (Monday to Sunday) from the anchor's week."""
        assert s.anchor is not None
        if day < s.anchor:
            return False
        if s.unit == "days":
            return (day - s.anchor).days % s.every == 0
        monday = day - timedelta(days=day.weekday())
        first = s.anchor - timedelta(days=s.anchor.weekday())
        return ((monday - first).days // 7) % s.every == 0

    def holiday(self, s: Schedule, slot: datetime) -> bool:
        """Whether `slot` is an occurrence on a holiday that stays there (its run is skipped)."""
        if s.calendar is None or s.cron is None:
            return False
        return any(
            t == slot and kind == "holiday" for t, kind, _ in self.occurrences(s, slot - timedelta(seconds=1), slot)
        )

    def moved_from(self, s: Schedule, slot: datetime) -> datetime | None:
        if s.cron is None or s.on_holiday == "skip":
            return None
        found = [m for t, kind, m in self.occurrences(s, slot - timedelta(seconds=1), slot) if t == slot and m]
        return found[0] if found else None

    def upcoming(
        self, s: Schedule, limit: int = 1, horizon_days: int = HORIZON_DAYS, since: datetime | None = None
    ) -> list[datetime]:
        """The next fires after `since` (default now) that will post (not skipped, not snoozed away,
        not a holiday), snoozes included, as long as the count allows."""
        since = since or self.now
        left = None if s.count is None else s.count - s.delivered
        if left is not None and left <= 0:
            return []
        pending = sorted(t for t in s.snoozes if t > since and t not in s.cancelled)
        out: list[datetime] = []
        start, step = since, timedelta(days=31)
        end = since + timedelta(days=horizon_days)
        while start < end and len(out) < limit + len(pending):
            for t, kind, moved in self.occurrences(s, start, min(start + step, end)):
                if t in s.skips or t in s.snoozed_away or self._ran_already(s, moved or t):
                    continue
                if kind == "holiday" and self.flags.holiday_ends:
                    continue
                out.append(t)
            start += step
            if s.cron is None:
                break
        merged = sorted(set(out) | set(pending))
        if left is not None:
            merged = merged[:left]
        return merged[:limit]

    def next_fire(self, s: Schedule) -> datetime | None:
        if s.status != "active":
            return None
        found = self.upcoming(s)
        return found[0] if found else None

    def remaining(self, s: Schedule, after: datetime) -> bool:
        """Whether anything that will post is still to come after `after`."""
        return bool(self.upcoming(s, since=after))

    def expected_fires(self, after: datetime, until: datetime) -> set[tuple[str, datetime]]:
        """What must reach the fire function in (after, until] for the schedules active now: every
        occurrence (skipped ones too, since each becomes a run) and every pending snooze. Call it
        before the move and pass the answer to `missing` after it."""
        out: set[tuple[str, datetime]] = set()
        for s in self.schedules.values():
            if s.status != "active" or s.unspecified:
                continue
            s.stopped = None
            slots = set(self.regular(s, after, until)) | {t for t in s.snoozes if after < t <= until}
            slots -= {t for t in s.cancelled}
            out |= {(s.sid, t) for t in slots}
        return out

    def missing(
        self, expected: set[tuple[str, datetime]], seen: set[tuple[str, datetime]]
    ) -> list[tuple[str, datetime]]:
        """The expected fires that did not come, leaving out those after a schedule stopped on the way."""
        out = []
        for sid, t in sorted(expected - seen, key=lambda x: (x[1], x[0])):
            s = self.schedules[sid]
            if s.unspecified or (s.stopped is not None and t > s.stopped):
                continue
            out.append((sid, t))
        return out

    # -- tools

    def created(self, s: Schedule) -> None:
        s.created = self.now
        if s.cron is not None and s.every > 1:
            first = cron_between(s.cron, s.timezone, self.now, self.now + timedelta(days=15))[0]
            s.anchor = local_date(first, s.timezone)
        self.schedules[s.sid] = s

    def delete(self, sid: str) -> None:
        self.schedules[sid].status = "deleted"
        self.schedules[sid].stop_repeats()

    def pause(self, sid: str) -> None:
        """A pause stops the current repeats; resuming does not bring them back."""
        self.schedules[sid].status = "paused"
        self.schedules[sid].stop_repeats()

    def done(self, sid: str) -> bool:
        """done_reminder: the current occurrence is acknowledged (its later repeats and its escalation
        are never posted). False: nothing to acknowledge (no occurrence repeating, or done already)."""
        s = self.schedules[sid]
        c = s.current
        if c is None or c.acked is not None or c.stopped:
            return False
        c.acked = self.now
        run = s.run_of(c.slot)
        if run is not None:
            run.acknowledged_at = self.now
        return True

    def repeat_fires(self, after: datetime, until: datetime) -> set[tuple[str, datetime, int]]:
        """The repeat (k <= times) and escalation (k = times + 1) fires due in (after, until] that
        would post: each is a one-shot the previous post created, so only the next one is known."""
        out: set[tuple[str, datetime, int]] = set()
        for s in self.schedules.values():
            c = s.current
            if s.unspecified or c is None or c.stopped or c.acked is not None or s.repeat_every is None:
                continue
            k = c.posted + 1
            posts = k <= s.repeat_times or (s.escalate_to is not None and not c.escalated)
            if posts and after < c.due(s.repeat_every, k) <= until:
                out.add((s.sid, c.slot, k))
        return out

    def fire_repeat(self, sid: str, slot: datetime, k: int, at: datetime) -> None:
        """Repeat `k` of the occurrence `slot` (the escalation when k > times: the repeats ran out, also
        when `repeat_times` was lowered below the repeats posted) reaching the fire function at `at`:
        posted at most once, and never once the occurrence was acknowledged, stopped or superseded by
        a later one, or the schedule paused or deleted. A repeat due when the schedule's next post is due
        too, or after it, is not posted and ends the chain: that post comes instead, and repeats anew. A
        repeat never posted (every attempt met a chat outage) does not hold up a later one."""
        self.now = max(self.now, at)
        s = self.schedules.get(sid)
        if s is None or s.status in ("deleted", "paused") or s.repeat_every is None:
            return
        c = s.current
        if c is None or c.slot != slot or c.stopped or c.acked is not None or k <= c.posted:
            return
        coming = self.upcoming(s, since=slot)
        if coming and coming[0] <= c.due(s.repeat_every, k):  # the next post is due by then: it is posted instead
            c.stopped = True
            return
        run = s.run_of(slot)
        p = self.quiet.quiet(s.user, at) if k <= s.repeat_times else None
        if p is not None:  # posts nothing; written again for the period's end
            c.base = p[1] - timedelta(minutes=s.repeat_every * k)
            return
        if k <= s.repeat_times or (s.escalate_to and not c.escalated):
            # this post meets the chat's transient failures first; Lambda's retries (two, more than
            # an outage lasts) post it, and the posts after it find the chat working
            self.chat_down = 0
        if k <= s.repeat_times:
            c.posted = k
            if run is not None:
                run.repeats = k
            self.posts.append(Post(sid, "repeat", slot))
        elif s.escalate_to and not c.escalated:
            c.posted, c.escalated = k, True
            if run is not None:
                run.escalated = True
            self.posts.append(Post(sid, "escalation", slot))

    def resume(self, sid: str) -> None:
        """Resuming ends a recurrence whose `until` passed while it was paused (docs/semantics.md)."""
        s = self.schedules[sid]
        if s.cron is not None and s.until is not None and s.until <= self.now and self.flags.paused_past_until:
            s.status, s.status_reason = "completed", None
            return
        s.status, s.status_reason, s.streak = "active", None, 0
        self._settle(s)

    def ends_refused(self, sid: str, until: datetime | None, count: int | None) -> bool:
        """update_reminder giving a recurrence a new `until` or `count` (None: kept) is refused, changing
        nothing, when nothing would be left to post (its count used, or no fire before the end), or when
        a pending snooze it delivers now would never be delivered under the new ends: the same promise
        as a snooze past the end, which is refused too (docs/semantics.md, "Ends")."""
        s = self.schedules[sid]
        changed = replace(s, until=s.until if until is None else until, count=s.count if count is None else count)
        if (changed.until, changed.count) == (s.until, s.count):
            return False
        if (changed.count is not None and s.delivered >= changed.count) or not self.upcoming(changed):
            return True
        if s.status == "active" and self._last_pending(changed):  # `busy`: the due one would end it
            return True
        pending = (t for t in s.snoozes if t > self.now and t not in s.cancelled)
        return any(self._within_ends(s, t) and not self._within_ends(changed, t) for t in pending)

    def change_ends(self, sid: str, until: datetime | None, count: int | None) -> None:
        """The new ends applied (ends_refused said they are accepted)."""
        s = self.schedules[sid]
        s.until = s.until if until is None else until
        s.count = s.count if count is None else count

    def retime_refused(self, sid: str, at: datetime | None = None, cron: str | None = None) -> bool:
        """update_reminder giving a new `time` (a one-shot) or `cron` (a recurrence) is refused, changing
        nothing, when the schedule would have nothing left to post: no occurrence of the new expression
        before `until`, or none within the `count` left (docs/semantics.md, "Ends")."""
        s = self.schedules[sid]
        changed = replace(s, at=at or s.at, cron=cron or s.cron, skips=set(), snoozes=set(), cancelled=set())
        return not self.upcoming(changed)

    def retime_duplicate(self, sid: str, at: datetime | None = None, cron: str | None = None) -> bool:
        """update_reminder giving a new time or expression is refused `duplicate`, changing nothing, when it
        would make the schedule another live one of the room (docs/skill.md, "Duplicates")."""
        s = self.schedules[sid]
        if s.kind != "agent_call":
            return False
        changed = replace(s, at=at or s.at, cron=cron or s.cron, said=cron or s.said).identity()
        live = ("active", "paused")
        return any(o.sid != sid and o.status in live and o.identity() == changed for o in self.schedules.values())

    def retime(self, sid: str, at: datetime | None = None, cron: str | None = None) -> None:
        """A new time starts afresh (docs/semantics.md, "A new time, expression or zone"): the coming
        occurrences skip_next skipped and the snoozes still to come were times of the old schedule, and
        are dropped. The runs so far stay, and count towards `count`. A one-shot given a time inside its
        user's quiet hours is delivered on time, as at its creation."""
        s = self.schedules[sid]
        if at is not None:
            s.at = at
            self.exempt_on_create(s)
            return
        s.cron, s.said = cron, cron
        s.skips = {t for t in s.skips if t <= self.now}
        s.snoozed_away = {t for t in s.snoozed_away if t <= self.now}
        s.snoozes = {t for t in s.snoozes if t <= self.now}
        s.cancelled = {t for t in s.cancelled if t <= self.now}

    def snooze_refused(self, sid: str, minutes: int) -> bool:
        """A snooze never resumes a paused schedule with an occurrence to come, and never moves an
        occurrence past `until` (docs/semantics.md, "Changes")."""
        s = self.schedules[sid]
        if s.cron is None:
            return s.status == "paused" and s.at is not None and s.at > self.now and self.flags.snooze_paused
        if self.snooze_busy(sid):
            return True
        target = self.next_fire(s)
        if target is None or s.until is None or not self.flags.snooze_past_until:
            return False
        return target + timedelta(minutes=minutes) > s.until

    def skip_next(self, sid: str) -> datetime | None:
        """Skip the next fire (once `snooze_busy` allows it: the tool refuses `busy` while the last
        occurrence is pending, as a snooze)."""
        s = self.schedules[sid]
        target = self.next_fire(s)
        if target is None:
            return None
        if target in s.snoozes:
            s.cancelled.add(target)
            if not self.flags.skipped_snooze:
                s.unspecified = True
        else:
            s.skips.add(target)
        return target

    def snooze(self, sid: str, minutes: int) -> datetime | None:
        """Postpone the next fire by `minutes`; a delivered one-shot comes back `minutes` from now.
        The current repeats stop; the snoozed occurrence, once delivered, repeats anew."""
        s = self.schedules[sid]
        s.stop_repeats()
        if s.cron is None:
            assert s.at is not None
            # fired, or paused after its time passed (a held one: docs/semantics.md, "Changes"): it comes
            # back `minutes` from now, active
            if s.status == "fired" or (s.status == "paused" and s.at <= self.now):
                s.at, s.status = self.now + timedelta(minutes=minutes), "active"
                return s.at
            # a coming one moves from its own time; an active one whose time passed (held) from now
            s.at = (max(s.at, self.now) if s.status == "active" else s.at) + timedelta(minutes=minutes)
            if s.status == "paused" and not self.flags.snooze_paused:
                s.unspecified = True
            return s.at
        target = self.next_fire(s)
        if target is None:
            return None
        moved = target + timedelta(minutes=minutes)
        if target in s.snoozes:
            s.snoozes.discard(target)
        else:
            s.snoozed_away.add(target)
        s.snoozes.add(moved)
        if s.until is not None and moved > s.until and not self.flags.snooze_past_until:
            s.unspecified = True
        return moved

    # -- the buttons under a delivered post name their occurrence (docs/semantics.md, "Changes")

    def ran_through(self, s: Schedule) -> datetime:
        """Occurrences up to now, or up to the last run when it is a regular one, are not coming."""
        last = s.runs[-1] if s.runs else None
        return max(self.now, last.scheduled) if last is not None and not last.manual else self.now

    @staticmethod
    def _ran_already(s: Schedule, original: datetime) -> bool:
        """Whether the occurrence whose original time (where `on_holiday` moved it from, else its own)
        is `original` is done: at or before the original time of the last run, a regular one. Moves
        keep the order of occurrences, so a change of `on_holiday` never makes it a coming one again
        (docs/semantics.md, "Business days")."""
        last = s.runs[-1] if s.runs else None
        return last is not None and not last.manual and original <= (last.moved_from or last.scheduled)

    def _done(self, s: Schedule, slot: datetime) -> bool:
        """A regular occurrence at `slot` (not a snoozed fire) that ran already under another time."""
        if s.cron is None or slot in s.snoozes or slot in s.cancelled:
            return False
        found = [m or t for t, _, m in self.occurrences(s, slot - timedelta(seconds=1), slot) if t == slot]
        return bool(found) and self._ran_already(s, found[0])

    def _within_ends(self, s: Schedule, target: datetime) -> bool:
        """A snoozed fire at `target` is delivered: not past `until`, within the `count` left."""
        if s.until is not None and target > s.until:
            return False
        return s.count is None or target in self.upcoming(s, limit=COMING)

    def skip_occurrence(self, sid: str, occurrence: datetime) -> str:
        """skip_next naming `occurrence`: a coming one is skipped; one past or run already is
        `invalid_state`; a time that is no coming occurrence `invalid_arguments`. Answers the
        error code, "" when accepted (and then applied)."""
        s = self.schedules[sid]
        if self.snooze_busy(sid):
            return "busy"
        if occurrence <= self.ran_through(s) or self._done(s, occurrence):
            return "invalid_state"
        if occurrence not in self.upcoming(s, limit=COMING):
            return "invalid_arguments"
        (s.cancelled if occurrence in s.snoozes else s.skips).add(occurrence)
        return ""

    def snooze_occurrence(self, sid: str, occurrence: datetime, minutes: int) -> str:
        """snooze_reminder naming `occurrence`. A coming one moves `minutes` after its own time; one
        past must have a delivered regular run (the button under its post) and is reminded again
        `minutes` from now, skipping nothing (a fired one-shot comes back); one held by quiet hours is
        not delivered yet (`invalid_state`). A snooze past the end is
        `invalid_time`. Answers the error code, "" when accepted (and then applied): an accepted
        snooze stops the current repeats, as every snooze does (the snoozed post repeats anew)."""
        refused = self._snooze_occurrence(sid, occurrence, minutes)
        if not refused:
            self.schedules[sid].stop_repeats()
        return refused

    def _snooze_occurrence(self, sid: str, occurrence: datetime, minutes: int) -> str:
        s = self.schedules[sid]
        if self.snooze_busy(sid):
            return "busy"
        if occurrence <= self.ran_through(s):
            found = [r for r in s.runs if r.scheduled == occurrence and not r.manual]
            if not found:  # one quiet hours hold is an occurrence not delivered yet; else none of its own
                return "invalid_state" if occurrence in s.held else "invalid_arguments"
            if found[-1].outcome != "delivered":
                return "invalid_state"
            target = self.now + timedelta(minutes=minutes)
            if s.cron is None:
                if s.status == "paused" or (s.status in LIVE and s.at != occurrence):
                    return "invalid_state"
                s.at, s.status = target, "active"
                return ""
            if s.status != "active":
                return "invalid_state"
            s.snoozes.add(target)
            if not self._within_ends(s, target):
                s.snoozes.discard(target)
                return "invalid_time"
            return ""
        if s.cron is None or occurrence not in self.upcoming(s, limit=COMING):
            return "invalid_arguments"
        kept = (set(s.snoozes), set(s.snoozed_away))
        moved = occurrence + timedelta(minutes=minutes)
        if occurrence in s.snoozes:
            s.snoozes.discard(occurrence)
        else:
            s.snoozed_away.add(occurrence)
        s.snoozes.add(moved)
        if not self._within_ends(s, moved):
            s.snoozes, s.snoozed_away = kept
            return "invalid_time"
        return ""

    def snooze_busy(self, sid: str) -> bool:
        """A recurrence's snooze or skip is refused `busy` while its last occurrence is due, or passed
        without its run for less than `MaxLatenessMinutes` (a late attempt may still deliver it and
        complete the schedule, so what the change answered as the next fire would never come)
        (docs/semantics.md, "Changes": snooze, skip_next)."""
        s = self.schedules[sid]
        return s.status == "active" and self._last_pending(s)

    def _last_pending(self, s: Schedule) -> bool:
        """Whether the last occurrence of the recurrence `s` (as it is, or as new ends would make it)
        is due or may still be delivered late: new ends that make the due one the last are refused
        `busy` too (docs/semantics.md, "Ends")."""
        if s.cron is None:
            return False
        minutes = self.settings.max_lateness_minutes
        return self._ending_due(s, back=timedelta(minutes=minutes) if minutes > 0 else timedelta(hours=6))

    def run_now_busy(self, sid: str, back: timedelta = timedelta(seconds=60)) -> bool:
        """run_now is refused `busy` while an occurrence after which nothing is left is due: one
        reaching the fire function within a minute of now (Scheduler's window) that has not run, a
        one-shot's own or a recurrence's last (nothing would post after it once it is delivered).
        The occurrences run already are those up to the last run, when that run is a regular one
        (docs/semantics.md, "Changes": run_now)."""
        return self._ending_due(self.schedules[sid], back)

    def _ending_due(self, s: Schedule, back: timedelta) -> bool:
        window = timedelta(seconds=60)
        if s.cron is None:
            return s.at is not None and abs(s.at - self.now) <= window
        if s.count is None and s.until is None:
            return False
        since = max(self.now - max(back, window) - timedelta(seconds=1), s.created)  # none before it was made
        if s.runs and not s.runs[-1].manual:
            since = max(since, s.runs[-1].scheduled)
        end = self.now + window
        due = set(self.regular(s, since, end)) | {t for t in s.snoozes | s.cancelled if since < t <= end}
        s.delivered += 1  # as if the due occurrence were delivered: is anything left after it?
        try:
            return any(not self.remaining(s, t) for t in due)
        finally:
            s.delivered -= 1

    def run_now_allowed(self, sid: str) -> bool:
        s = self.schedules[sid]
        gap = timedelta(minutes=self.settings.min_interval_minutes)
        return s.last_manual is None or self.now - s.last_manual >= gap

    # -- clock and fires

    def move(self, to: datetime) -> None:
        self.now = to
        for s in self.schedules.values():
            if s.status == "paused" and s.cron is None and s.at is not None and s.at <= to:
                s.unspecified = True  # a one-shot whose time passed while paused: not decided

    def fire(
        self,
        sid: str,
        slot: datetime,
        at: datetime,
        agent_ok: bool = True,
        manual: bool = False,
        retry_gaps: tuple[int, ...] = (60, 120),
    ) -> None:
        """One asynchronous event for (sid, slot) whose first attempt starts at `at`: an attempt whose
        post fails transiently raises, and Lambda tries again after each gap. Each attempt is judged
        at its own start (the lateness rule), and the run's `late_seconds` is the start of the
        attempt that decides it."""
        gaps = list(retry_gaps)
        while self._fire_once(sid, slot, at, agent_ok, manual, last=not gaps) == "retry":
            at += timedelta(seconds=gaps.pop(0))

    def _fire_once(self, sid: str, slot: datetime, at: datetime, agent_ok: bool, manual: bool, last: bool) -> str:
        self.now = max(self.now, at)
        s = self.schedules.get(sid)
        # a manual run answered "started" is delivered even once its schedule ran out meanwhile
        # (a late attempt at its last occurrence completed it): the schedule stays as it ended
        if s is None or s.status not in (RAN_OUT + LIVE if manual else LIVE) or s.ran(slot, manual):
            return "done"
        if not manual and not self._is_occurrence(s, slot):
            return "done"
        if not manual and slot in s.held:
            return "done"  # a copy of a held occurrence's event: held once, counted once
        if not manual and s.runs and slot > s.runs[-1].scheduled and self._done(s, slot):
            return "done"  # moved elsewhere by a change after its run: it ran already (no second run)
        if not manual and s.held and s.count is not None and s.delivered >= s.count:
            return "done"  # its count is used by held occurrences: their release completes it
        late = int((at - slot).total_seconds())
        if manual:
            s.last_manual = slot
            if not self.flags.run_now_slot and self._is_occurrence(s, slot):
                s.unspecified = True
            return self._attempt(s, slot, late, agent_ok, manual=True, last=last)
        if s.status == "paused":
            self._record(s, Run(slot, "skipped", "paused"))
        elif slot in s.cancelled or (slot in s.skips and slot not in s.snoozes):
            self._record(s, Run(slot, "skipped", "skip_next"))
        elif slot in s.snoozed_away and slot not in s.snoozes:
            self._record(s, Run(slot, "skipped", "snoozed"))
        elif slot not in s.snoozes and self.holiday(s, slot):
            self._record(s, Run(slot, "skipped", "holiday"))
        elif s.recurring and late > self.settings.max_lateness_minutes * 60:
            self._record(s, Run(slot, "missed", "too_late", late_seconds=late))
        elif self._hold(s, slot, at):
            s.snoozes.discard(slot)
            return "done"
        elif self._attempt(s, slot, late, agent_ok, manual=False, last=last) == "retry":
            return "retry"
        s.snoozes.discard(slot)
        self._settle(s, after=slot)
        return "done"

    def _is_occurrence(self, s: Schedule, slot: datetime) -> bool:
        if slot in s.snoozes or slot in s.cancelled:
            return True
        if s.cron is None:
            return s.at == slot
        return bool(self.regular(s, slot - timedelta(seconds=1), slot))

    def _attempt(self, s: Schedule, slot: datetime, late: int, agent_ok: bool, manual: bool, last: bool) -> str:
        if self.platform_gone:  # never posted elsewhere: a failed run, and no room to tell
            self._failed(s, slot, late, "chat_refused", manual, told=False)
            return "done"
        if s.kind == "agent_call" and s.elsewhere and self.output_forbidden:
            # never posted to a room no longer allowed; its notices go to the schedule's own room only
            return self._fail_or_retry(s, slot, late, "chat_refused", manual, last, rooms=1)
        if s.kind == "agent_call" and (not agent_ok or self.agents_gone):  # an unknown agent is an agent error
            return self._fail_or_retry(s, slot, late, "agent_error", manual, last, rooms=2 if s.elsewhere else 1)
        if self.chat_down:
            self.chat_down -= 1
            if manual and not self.flags.manual_retry_lateness:
                s.unspecified = True
            if not last:
                return "retry"
            self._failed(s, slot, late, "chat_error", manual)
            return "done"
        self._record(s, Run(slot, "delivered", None, manual=manual, late_seconds=late))
        self.posts.append(Post(s.sid, "occurrence", slot, manual))
        if s.repeat_every is not None and s.kind == "message" and not manual:
            s.stop_repeats()  # a later occurrence is the current one
            s.current = Repeating(slot, base=slot + timedelta(seconds=late))
        if s.streak:
            self.posts.append(Post(s.sid, "works_again"))  # in the delivered post, or one of its own
        s.streak = 0
        if manual:
            return "done"
        s.delivered += 1
        if s.cron is None:
            s.status, s.stopped = "fired", slot
        return "done"

    def _fail_or_retry(
        self, s: Schedule, slot: datetime, late: int, reason: str, manual: bool, last: bool, rooms: int
    ) -> str:
        """A failed run, unless the notice it posts meets the chat outage: then the attempt raises
        and Lambda's retry posts the notice and records the run (`late_seconds` from that attempt)."""
        if self.chat_down and not last and self._notices(s, slot, reason, manual):
            self.chat_down -= 1
            return "retry"
        self._failed(s, slot, late, reason, manual, rooms=rooms)
        return "done"

    def _notices(self, s: Schedule, slot: datetime, reason: str, manual: bool) -> list[str]:
        """The notices a failed run of `slot` posts, judged before it is recorded: the first failure
        of a streak says so, and the one reaching the limit pauses the schedule and says that."""
        if reason == "chat_refused" and not manual and s.cron is None:
            return []  # a one-shot whose only run was refused: delivery_failed, nothing to say
        streak, limit = s.streak + 1, self.settings.auto_pause_after
        # a failure on a recurrence's last occurrence ends it (completed, in _settle): nothing to pause
        ends = not manual and s.cron is not None and not self.remaining(s, slot)
        pauses = bool(limit) and streak >= limit and s.status == "active" and not ends
        return ["failure_notice"] * (streak == 1) + ["pause_notice"] * pauses

    def _failed(
        self, s: Schedule, slot: datetime, late: int, reason: str, manual: bool, told: bool = True, rooms: int = 1
    ) -> None:
        """A failed run under the failure policy; `told`: its notices reach a room; `rooms`: how many
        rooms each notice goes to (an agent call posting elsewhere tells its own room too)."""
        notices = self._notices(s, slot, reason, manual)
        self._record(s, Run(slot, "failed", reason, manual=manual, late_seconds=late))
        s.streak += 1
        if reason == "chat_refused" and not manual and s.cron is None:
            s.status, s.stopped = "delivery_failed", slot  # a one-shot whose only run was refused
            return
        if "pause_notice" in notices:
            s.status, s.status_reason, s.stopped = "paused", "failing", slot
        if told:
            self.posts += [Post(s.sid, kind) for kind in notices for _ in range(rooms)]
        if not manual and s.cron is None and s.status == "active":
            s.unspecified = True  # a one-shot that failed: its status is not decided

    def _record(self, s: Schedule, run: Run) -> None:
        if not run.manual:
            run.moved_from = self.moved_from(s, run.scheduled)
        s.runs.append(run)

    def _settle(self, s: Schedule, after: datetime | None = None, released: bool = False) -> None:
        """A recurring schedule with an end (`until` or `count`) ends (completed) once nothing remains to
        reach the fire function; one without an end never does, even when every occurrence the calendar
        leaves is years away (docs/semantics.md, "Ends and calendars": only an end completes). A release
        posting the last occurrence completes it also when it was paused since the hold (the pause did not
        stop that post, and nothing is left to resume)."""
        if s.cron is None or s.status not in LIVE or s.held or (s.until is None and s.count is None):
            return  # a schedule whose last occurrence is held completes at the release
        if not self.remaining(s, after or self.now) and (s.status == "active" or released):
            s.status, s.status_reason, s.stopped = "completed", None, after

    # -- quiet hours (docs/semantics.md, "Quiet hours")

    def _hold(self, s: Schedule, slot: datetime, at: datetime) -> bool:
        """Hold a reminder's occurrence whose slot and fire start lie in one period of its user:
        it counts against `count` now, and its release is written at the period's end."""
        if s.kind != "message" or s.quiet_exempt or self.platform_gone:  # a removed platform fails it now
            return False
        p = self.quiet.holds(s.user, slot, at)
        if p is None or s.user is None:
            return False
        begun = self.quiet.releases.get((s.user, p[1]))
        if begun is not None and begun.done:  # its period's release began: delivered at once
            return False
        self.quiet.hold(s.user, p[1], s.sid, slot)
        s.held[slot] = p[1]
        s.delivered += 1
        return True

    def releases_due(self, until: datetime) -> list[Release]:
        return self.quiet.due(until)

    def release(self, release: Release, at: datetime) -> bool:
        """An attempt at the release of one (user, period) reaching the fire function at `at`: one
        message listing every held occurrence still there (a delete drops it), oldest first. False
        when its post meets a chat outage: Lambda's retry posts it, late from that attempt (the
        searches' outages end before the last attempt)."""
        self.now = max(self.now, at)
        if self.chat_down and any(self._listed(sid, slot) for sid, slot in release.held):
            self.chat_down -= 1
            return False
        release.done = True
        listed: list[tuple[str, datetime]] = []
        for sid, slot in sorted(release.held, key=lambda h: (h[1], h[0])):
            s = self.schedules.get(sid)
            if s is None or slot not in s.held:
                continue
            del s.held[slot]
            if s.status == "deleted":
                continue
            listed.append((sid, slot))
            late = int((at - slot).total_seconds())
            self._record(s, Run(slot, "delivered", "quiet_hours", late_seconds=late))
            if s.streak:  # a delivered run ends a failure streak; the release may not say it works again
                self.posts.append(Post(s.sid, "works_again"))
            s.streak = 0
            if s.repeat_every is not None:
                s.stop_repeats()
                if s.status != "paused":  # a paused reminder's released post does not repeat
                    s.current = Repeating(slot, base=at)  # the repeats count from the release
            if s.cron is None and s.status in LIVE and s.at == slot:  # one given a new time since waits for it
                s.status, s.stopped = "fired", slot
            self._settle(s, after=slot, released=True)
        if listed:
            self.posts.append(Post(release.user, "release", release.end))
            self.posts += [Post(sid, "held_occurrence", slot) for sid, slot in listed]
        return True

    def _listed(self, sid: str, slot: datetime) -> bool:
        """Whether a release lists this held occurrence: it is still held, and its schedule not deleted
        (a release with nothing to list posts nothing, so it cannot meet an outage)."""
        s = self.schedules.get(sid)
        return s is not None and slot in s.held and s.status != "deleted"

    def held_until(self, s: Schedule) -> datetime | None:
        """`held_until` of a schedule item: the release of an occurrence held now, else the end of the
        period its next fire falls in when that occurrence would be held, else None."""
        if s.held:
            return min(s.held.values())
        if s.kind != "message" or s.quiet_exempt or s.status != "active":
            return None
        nxt = self.next_fire(s)
        p = None if nxt is None else self.quiet.quiet(s.user, nxt)
        return None if p is None else p[1]

    def exempt_on_create(self, s: Schedule) -> None:
        """A one-shot whose time its user set inside their own quiet hours is delivered on time."""
        s.quiet_exempt = s.cron is None and s.at is not None and self.quiet.quiet(s.user, s.at) is not None
