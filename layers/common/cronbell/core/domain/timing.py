"""When a schedule fires: a one-shot instant or a recurrence in a zone, plus what was skipped or
snoozed. It owns its Scheduler expressions and its upcoming instants, so nothing parses a stored
expression back."""

from __future__ import annotations

import heapq
from collections.abc import Iterator
from dataclasses import replace
from datetime import UTC, date, datetime, timedelta
from functools import cached_property
from zoneinfo import ZoneInfo

from cronbell.core.domain import business
from cronbell.core.domain.business import Occurrence, Rules
from cronbell.core.domain.cron.expressions import at_expression, eventbridge_expressions
from cronbell.core.domain.cron.fires import next_fires
from cronbell.core.domain.cron.spec import CronSpec, Interval, interval_text
from cronbell.core.domain.instants import iso_utc
from cronbell.core.domain.runs import SKIP_NEXT, SNOOZED
from cronbell.core.values import value

HORIZON_YEARS = 10  # how far ahead a recurrence's next occurrence is looked for (29 February: 8 years)


def horizon_end(today: date) -> date:
    """The last local date a recurrence's occurrences are looked for on, from `today`."""
    try:
        return today.replace(year=today.year + HORIZON_YEARS)
    except ValueError:  # 29 February
        return today.replace(year=today.year + HORIZON_YEARS, day=28)


def _instant(t: datetime) -> datetime:
    return t.astimezone(UTC)


@value
class Timing:
    zone: str  # IANA zone: a recurrence runs in it, a one-shot is shown in it
    at: datetime | None = None  # one-shot: the instant (aware)
    cron: str = ""  # recurring: normalized five-field expression
    cron_source: str = ""  # what the caller wrote, if it differs from `cron`
    skips: frozenset[str] = frozenset()  # RFC3339 UTC of occurrences not to deliver (skip_next, snooze)
    snoozes: tuple[datetime, ...] = ()  # extra one-time occurrences (snoozed ones), aware, in order
    moved: frozenset[str] = frozenset()  # the skips a snooze made (delivered later), not skip_next's
    interval: Interval | None = None  # every N weeks or days: `cron` is then its weekly or daily entry
    # ends and calendars (recurring only)
    until: datetime | None = None  # no occurrence after this instant (aware)
    count: int = 0  # delivered runs after which the schedule is completed; 0: no limit
    calendar: str = ""  # public-holiday calendar whose holidays are skipped (`ES-MD`); "": none
    business_days: bool = False  # occurrences only on business days of the calendar
    business_day: int = 0  # the n-th (1-23) or last (-1) business day of the month; 0: none
    on_holiday: str = business.SKIP  # skip | before | after (core/domain/business.py)

    @classmethod
    def once(cls, at: datetime, zone: ZoneInfo) -> Timing:
        return cls(zone=zone.key, at=at.astimezone(zone).replace(microsecond=0))

    @classmethod
    def every(cls, spec: CronSpec, zone: ZoneInfo) -> Timing:
        return cls(zone=zone.key, cron=spec.expr, cron_source=spec.source, interval=spec.interval)

    @property
    def recurring(self) -> bool:
        return bool(self.cron)

    @property
    def tz(self) -> ZoneInfo:
        return ZoneInfo(self.zone)

    @property
    def spec(self) -> CronSpec:
        return CronSpec(expr=self.cron, source=self.cron_source or self.cron, interval=self.interval)

    @property
    def local_at(self) -> datetime:
        """The one-shot's instant in its zone."""
        assert self.at is not None, "a recurring timing has no single instant"
        return self.at.astimezone(self.tz)

    @property
    def text(self) -> str:
        """The timing as the caller reads it back: the cron expression ('every 2 weeks on Mon at 10:00'
        when cron cannot say it), or the local ISO time."""
        if self.interval is not None:
            return interval_text(self.spec)
        return self.cron or self.local_at.isoformat(timespec="seconds")

    @cached_property
    def expressions(self) -> tuple[str, ...]:
        """The Scheduler expressions of the regular entries. A one-shot is `at()` in UTC, so an
        instant in a repeated DST hour is never ambiguous; a recurrence runs in its zone."""
        if self.recurring:
            if self.rules.any:
                return tuple(business.expressions(self.spec, self.rules))
            return tuple(eventbridge_expressions(self.spec))
        return (at_expression(self.local_at.astimezone(UTC)),)

    @property
    def expression_zone(self) -> str:
        return self.zone if self.recurring else "UTC"

    @property
    def snooze_expressions(self) -> tuple[str, ...]:
        return tuple(at_expression(t.astimezone(UTC)) for t in self.snoozes)

    def upcoming(
        self, now: datetime, count: int, delivered: int = 0, done_through: datetime | None = None
    ) -> list[datetime]:
        """The next fire instants after `now`, aware in the zone: a skipped occurrence is left
        out and a snoozed one is in (unless skipped since); none past the end (`until`, or `count`
        with `delivered` runs already delivered), none on a holiday of the calendar, and none that ran
        already (its original time at or before `done_through`, wherever it moved since). A run of
        holidays is passed over a whole date at a time, so no number of them in a row ends the list
        early; the search stops at `until`, or HORIZON_YEARS after `now`."""
        if not self.recurring:
            at = self.local_at
            return [at] if at > now else []
        if self.count:
            count = min(count, self.count - delivered)
        out: list[datetime] = []
        if count <= 0:
            return out
        regular = self._regular_after(now, done_through)
        for fire in heapq.merge(regular, self._snoozes_after(now), key=_instant):
            if self.until is not None and _instant(fire) > _instant(self.until):
                break
            if out and _instant(out[-1]) == _instant(fire):
                continue  # a snooze onto a regular occurrence's instant: one fire
            out.append(fire)
            if len(out) >= count:
                break
        return out

    @property
    def rules(self) -> Rules:
        return Rules(self.calendar, self.business_days, self.business_day, self.on_holiday)

    def _occurrences(self, after: datetime, last: date | None = None) -> Iterator[Occurrence]:
        """The recurrence's own occurrences after `after` (holidays that stay included), up to `until`
        or HORIZON_YEARS ahead."""
        end = horizon_end(after.astimezone(self.tz).date()) if last is None else last
        if self.until is not None:
            end = min(end, self.until.astimezone(self.tz).date())
        return business.occurrences(self.spec, self.rules, after, self.tz, end, self.until)

    def _regular_after(self, now: datetime, done_through: datetime | None = None) -> Iterator[datetime]:
        """The recurrence's own occurrences after `now`, without skipped ones, holidays and those
        that ran already (original time at or before `done_through`)."""
        for found in self._occurrences(now):
            if not found.holiday and iso_utc(found.at) not in self.skips and not found.done(done_through):
                yield found.at

    def occurrence(self, instant: datetime) -> Occurrence | None:
        """The regular occurrence at `instant`, if it is one (a holiday that stays, or a moved one)."""
        if not self.recurring:
            return None
        wanted = instant.astimezone(UTC)
        ahead = business.MOVE_DAYS + 1 if self.rules.moves else 1  # a move `before` comes from a later day
        last = instant.astimezone(self.tz).date() + timedelta(days=ahead)
        for found in self._occurrences(instant - timedelta(seconds=1), last):
            at = found.at.astimezone(UTC)
            if at >= wanted:
                return found if at == wanted else None
        return None

    def ran_already(self, instant: datetime, done_through: datetime | None) -> bool:
        """Whether `instant` is a regular occurrence (not a snoozed fire) that ran already: its original
        time at or before `done_through`, the original time of the schedule's last regular run. A
        change of `on_holiday` can move such an occurrence past that run; it is never run again."""
        if done_through is None or not self.recurring:
            return False
        if instant.astimezone(UTC) in (t.astimezone(UTC) for t in self.snoozes):
            return False
        found = self.occurrence(instant)
        return found is not None and found.done(done_through)

    def moved_from(self, instant: datetime) -> datetime | None:
        """The original time of the occurrence `on_holiday` moved to `instant`, if it is one."""
        if not self.rules.moves:
            return None
        found = self.occurrence(instant)
        return found.moved_from if found is not None else None

    def _snoozes_after(self, now: datetime) -> list[datetime]:
        """The snoozed occurrences after `now`, without those skip_next skipped since (their fire is
        recorded `skipped`, so they are no coming fire and use none of `count`)."""
        kept = (t for t in self.snoozes if t > now and iso_utc(t) not in self.skips)
        return sorted((t.astimezone(self.tz) for t in kept), key=_instant)

    def fires_at(self, instant: datetime) -> bool:
        """Whether `instant` is one of this timing's own fire times (a snoozed one included; with
        business-day rules, an occurrence as they place it). Compared in UTC: Python never finds a wall
        time in a repeated DST hour equal to an instant of another zone."""
        wanted = instant.astimezone(UTC)
        if wanted in (t.astimezone(UTC) for t in self.snoozes):
            return True
        if not self.recurring:
            return self.local_at.astimezone(UTC) == wanted
        if self.rules.any:
            return self.occurrence(instant) is not None
        found = next_fires(self.spec, instant - timedelta(seconds=1), self.tz, 1)
        return [t.astimezone(UTC) for t in found] == [wanted]

    def _entry_fires(self, instant: datetime) -> bool:
        """Whether one of the regular entries fires at `instant` (every week or day of an interval; on
        every weekday at the expression's times when business-day rules add that entry)."""
        specs = [replace(self.spec, interval=None)]
        if self.rules.any:
            minute, hour, _ = business.time_fields(self.spec)
            specs.append(CronSpec(f"{minute} {hour} * * 1-5", ""))
        wanted = [instant.astimezone(UTC)]
        return any(
            [t.astimezone(UTC) for t in next_fires(spec, instant - timedelta(seconds=1), self.tz, 1)] == wanted
            for spec in specs
        )

    def fires_between(self, after: datetime, until: datetime) -> list[datetime]:
        """Every instant in (after, until] at which a fire of this timing reaches the fire function
        as an occurrence: its own times up to `until` of the schedule (skipped ones and holidays
        included, off-interval days not, moved ones where they moved to), and its snoozes. Aware in the
        zone, in order."""
        found = [t.astimezone(self.tz) for t in self.snoozes if after < t <= until]
        if not self.recurring:
            found.append(self.local_at)
        else:
            for occurrence in self._occurrences(after):
                if _instant(occurrence.at) > _instant(until):
                    break
                found.append(occurrence.at)
        return sorted({t for t in found if after < t <= until}, key=_instant)

    def off_interval(self, instant: datetime) -> bool:
        """Whether `instant` is a fire of an entry that is no occurrence: the off week of 'every other
        monday', a day the business-day rules leave out, the time an occurrence was moved away from,
        a weekday without a moved occurrence. Decided from the timing alone, with no read or write:
        such a fire posts nothing and leaves no run (a snoozed one is kept)."""
        if not self.recurring or instant.astimezone(UTC) in (t.astimezone(UTC) for t in self.snoozes):
            return False
        if self.interval is None and not self.rules.any:
            return False
        return self._entry_fires(instant) and self.occurrence(instant) is None

    def skipping(self, occurrence: datetime) -> Timing:
        """One more occurrence not to deliver; earlier skips stay."""
        return replace(self, skips=self.skips | {iso_utc(occurrence)})

    def snoozed(self, occurrence: datetime, until: datetime, forget_before: datetime) -> Timing:
        """A recurrence whose `occurrence` is delivered at `until` instead. Snoozing a snoozed
        occurrence moves it again (snoozes add up); snoozes before `forget_before` are forgotten. One
        past but later than that may still be on its way (its minute has come, its fire not run yet): it
        is kept, so its entry and its fire stay its own."""
        until = until.replace(microsecond=0)
        snoozes = [t for t in self.snoozes if t > forget_before and t != occurrence]
        if occurrence in self.snoozes:
            skips, moved = self.skips, self.moved
        else:
            skips, moved = self.skips | {iso_utc(occurrence)}, self.moved | {iso_utc(occurrence)}
        return replace(self, skips=skips, moved=moved, snoozes=tuple(sorted([*snoozes, until])))

    def skip_reason(self, occurrence: str) -> str:
        """Why a skipped occurrence (RFC3339 UTC) is not delivered: `snoozed` when a snooze moved it
        later, else `skip_next`."""
        return SNOOZED if occurrence in self.moved else SKIP_NEXT

    # --- ends and calendars ------------------------------------------------------------------------
    @property
    def has_end(self) -> bool:
        return self.until is not None or self.count > 0

    def is_holiday(self, occurrence: datetime) -> bool:
        """Whether a regular occurrence falls on a public holiday of the calendar, by its date in the
        schedule's zone. A snoozed occurrence was asked for by name and is never a holiday's."""
        if not self.calendar or occurrence in self.snoozes:
            return False
        found = self.occurrence(occurrence)
        return found is not None and found.holiday

    def ended_by(self, occurrence: datetime, delivered: int) -> bool:
        """Whether `occurrence` lies beyond the end: after `until`, or after `count` delivered runs."""
        late = self.until is not None and occurrence > self.until
        return late or (self.count > 0 and delivered >= self.count)

    def finished_after(self, occurrence: datetime, delivered: int) -> bool:
        """Whether a schedule with an end has no occurrence left after `occurrence`, once `delivered`
        runs are delivered: then it is completed. A schedule without an end never finishes."""
        return self.has_end and not self.upcoming(occurrence, 1, delivered)

    def ends_with(self, until: datetime | None, count: int, calendar: str) -> Timing:
        return replace(self, until=until, count=count, calendar=calendar)

    def with_rules(self, rules: Rules) -> Timing:
        """The timing with these calendar and business-day rules."""
        return replace(
            self,
            calendar=rules.calendar,
            business_days=rules.business_days,
            business_day=rules.business_day,
            on_holiday=rules.on_holiday,
        )
