"""When a schedule fires: a one-shot instant or a recurrence in a zone, plus what was skipped or
snoozed. It owns its Scheduler expressions and its upcoming instants, so nothing parses a stored
expression back."""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import UTC, datetime
from functools import cached_property
from zoneinfo import ZoneInfo

from cronbell.core.cron import CronSpec, at_expression, eventbridge_expressions, next_fires
from cronbell.core.instants import iso_utc


@dataclass(frozen=True)
class Timing:
    zone: str  # IANA zone: a recurrence runs in it, a one-shot is shown in it
    at: datetime | None = None  # one-shot: the instant (aware)
    cron: str = ""  # recurring: normalized five-field expression
    cron_source: str = ""  # what the caller wrote, if it differs from `cron`
    skip: str = ""  # RFC3339 UTC of one occurrence not to deliver (skip_next)
    snooze: datetime | None = None  # an extra one-time occurrence (a snoozed one), aware

    @classmethod
    def once(cls, at: datetime, zone: ZoneInfo) -> Timing:
        return cls(zone=zone.key, at=at.astimezone(zone).replace(microsecond=0))

    @classmethod
    def every(cls, spec: CronSpec, zone: ZoneInfo) -> Timing:
        return cls(zone=zone.key, cron=spec.expr, cron_source=spec.source)

    @property
    def recurring(self) -> bool:
        return bool(self.cron)

    @property
    def tz(self) -> ZoneInfo:
        return ZoneInfo(self.zone)

    @property
    def spec(self) -> CronSpec:
        return CronSpec(expr=self.cron, source=self.cron_source or self.cron)

    @property
    def local_at(self) -> datetime:
        """The one-shot's instant in its zone."""
        assert self.at is not None, "a recurring timing has no single instant"
        return self.at.astimezone(self.tz)

    @property
    def text(self) -> str:
        """The timing as the caller reads it back: the cron expression, or the local ISO time."""
        return self.cron or self.local_at.isoformat(timespec="seconds")

    @cached_property
    def expressions(self) -> tuple[str, ...]:
        """The Scheduler expressions of the regular entries. A one-shot is `at()` in UTC, so an
        instant in a repeated DST hour is never ambiguous; a recurrence runs in its zone."""
        if self.recurring:
            return tuple(eventbridge_expressions(self.spec))
        return (at_expression(self.local_at.astimezone(UTC)),)

    @property
    def expression_zone(self) -> str:
        return self.zone if self.recurring else "UTC"

    @property
    def snooze_expression(self) -> str:
        return at_expression(self.snooze.astimezone(UTC)) if self.snooze else ""

    def upcoming(self, now: datetime, count: int) -> list[datetime]:
        """The next fire instants after `now`, aware in the zone: a skipped occurrence is left
        out and a snoozed one is in."""
        tz = self.tz
        if not self.recurring:
            at = self.local_at
            return [at] if at > now else []
        fires = [t for t in next_fires(self.spec, now, tz, count + 1) if iso_utc(t) != self.skip]
        if self.snooze is not None and self.snooze > now:
            fires = sorted([*fires, self.snooze.astimezone(tz)])
        return fires[:count]

    def skipping(self, occurrence: datetime) -> Timing:
        return replace(self, skip=iso_utc(occurrence))

    def snoozed(self, occurrence: datetime, until: datetime) -> Timing:
        """A recurrence whose `occurrence` is delivered at `until` instead."""
        return replace(self, skip=iso_utc(occurrence), snooze=until.replace(microsecond=0))
