"""Quiet hours: a user's period rule in a room, and the periods it makes (pure, times passed in).

A period starts at `start` on each listed day (that day in the rule's zone) and ends at the next
`end` after it: the same day, or the next one when `end` is earlier than `start`. A wall time that
a spring-forward change skips is read as the first instant after the gap; a repeated one as its
first instant. An instant is quiet when a period holds it (`start` included, `end` not). The rules
of holding and releasing are in docs/semantics.md, "Quiet hours".
"""

from __future__ import annotations

import hashlib
from datetime import UTC, date, datetime, time, timedelta
from zoneinfo import ZoneInfo

from cronbell.core.domain.cron.expressions import at_expression
from cronbell.core.domain.instants import iso_utc
from cronbell.core.domain.models import Entry
from cronbell.core.values import value

DAYS = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")  # by date.weekday()
_GAP_MINUTES = 24 * 60  # no zone skips a whole day of wall time more than once in a lookup


@value
class QuietHours:
    start: str  # "HH:MM", 24-hour
    end: str  # "HH:MM", not equal to start
    timezone: str  # IANA
    days: tuple[str, ...] = DAYS  # the days a period starts on, in DAYS order

    def to_dict(self) -> dict[str, object]:
        return {"start": self.start, "end": self.end, "timezone": self.timezone, "days": list(self.days)}


@value
class Period:
    start: datetime  # aware, in the rule's zone
    end: datetime

    def holds(self, instant: datetime) -> bool:
        """Compared as instants: aware datetimes sharing one zone compare by wall time, which a
        fall-back change repeats."""
        return _utc(self.start) <= _utc(instant) < _utc(self.end)


def _utc(instant: datetime) -> datetime:
    return instant.astimezone(UTC)


def _clock(text: str) -> time:
    hours, minutes = text.split(":")
    return time(int(hours), int(minutes))


def wall_instant(day: date, clock: time, zone: ZoneInfo) -> datetime:
    """The instant of a wall time on a day: its first instant when repeated, the first instant after
    the gap when a spring-forward change skips it."""
    wall = datetime.combine(day, clock)
    for minute in range(_GAP_MINUTES):
        candidate = wall + timedelta(minutes=minute)
        aware = candidate.replace(tzinfo=zone, fold=0)
        if aware.astimezone(UTC).astimezone(zone).replace(tzinfo=None) == candidate:
            return aware.astimezone(UTC).astimezone(zone)
    raise ValueError(f"no instant for {wall} in {zone.key}")


def period_from(rule: QuietHours, day: date) -> Period | None:
    """The period that starts on `day` (a local date), or None when the rule skips that day."""
    if DAYS[day.weekday()] not in rule.days:
        return None
    zone = ZoneInfo(rule.timezone)
    start, end = _clock(rule.start), _clock(rule.end)
    end_day = day + timedelta(days=1) if end <= start else day
    return Period(wall_instant(day, start, zone), wall_instant(end_day, end, zone))


def period_at(rule: QuietHours, instant: datetime) -> Period | None:
    """The period holding `instant` (aware), if any: one that started that local day or the day before."""
    local = instant.astimezone(ZoneInfo(rule.timezone)).date()
    for day in (local - timedelta(days=1), local):
        period = period_from(rule, day)
        if period is not None and period.holds(instant):
            return period
    return None


def next_period(rule: QuietHours, after: datetime) -> Period | None:
    """The period holding `after`, else the first one that starts after it; None only for a rule with no day."""
    held = period_at(rule, after)
    if held is not None:
        return held
    local = after.astimezone(ZoneInfo(rule.timezone)).date()
    for offset in range(8):
        period = period_from(rule, local + timedelta(days=offset))
        if period is not None and _utc(period.start) > _utc(after):
            return period
    return None


def holding(rule: QuietHours | None, scheduled: datetime, now: datetime) -> Period | None:
    """The period that holds an occurrence due at `scheduled` and fired at `now`: both in it."""
    period = period_at(rule, scheduled) if rule is not None else None
    return period if period is not None and period.holds(now) else None


def release_entry(room_id: str, user_id: str, until: datetime, at: datetime) -> Entry:
    """The one-time Scheduler entry, firing at `at`, that releases what (room, user) had held until `until`."""
    name = release_name(room_id, user_id, until)
    end = iso_utc(until)
    return Entry(name, at_expression(_utc(at)), "UTC", True, release_user=user_id, release_until=end)


def release_name(room_id: str, user_id: str, until: datetime) -> str:
    """The one-time Scheduler entry that releases what (room, user) had held until `until`."""
    digest = hashlib.sha256(f"{room_id}\n{user_id}\n{_utc(until).isoformat()}".encode()).hexdigest()
    return f"cronbell-qr-{digest[:40]}"
