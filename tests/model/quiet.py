"""Quiet hours in the reference model: an own reading of docs/semantics.md, "Quiet hours".

It imports nothing of cronbell. A rule is kept per (room, user); its periods are placed on the
timeline here, day by day in the rule's zone (zoneinfo is the only oracle). The holds and their
releases are kept per (user, period end): one release message per (room, user, period)."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, date, datetime, time, timedelta
from zoneinfo import ZoneInfo

DAYS = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")


@dataclass(frozen=True)
class Rule:
    start: str  # "HH:MM"
    end: str
    timezone: str
    days: tuple[str, ...] = DAYS

    def answer(self) -> dict[str, object]:
        return {"start": self.start, "end": self.end, "timezone": self.timezone, "days": list(self.days)}


def _clock(hhmm: str) -> time:
    hours, minutes = hhmm.split(":")
    return time(int(hours), int(minutes))


def place(day: date, at: time, tz: ZoneInfo) -> datetime:
    """A local wall time on the timeline (UTC): a skipped one is the first instant after the gap,
    a repeated one its first instant."""
    wall = datetime.combine(day, at)
    while True:
        aware = wall.replace(tzinfo=tz, fold=0)
        if aware.astimezone(UTC).astimezone(tz).replace(tzinfo=None) == wall:
            return aware.astimezone(UTC)
        wall += timedelta(minutes=1)  # inside a gap: the gap ends on a whole minute


def period_of(rule: Rule, day: date) -> tuple[datetime, datetime] | None:
    """The period that starts on `day` (a date in the rule's zone), or None when the day is not listed."""
    if DAYS[day.weekday()] not in rule.days:
        return None
    tz = ZoneInfo(rule.timezone)
    start, end = _clock(rule.start), _clock(rule.end)
    end_day = day if end > start else day + timedelta(days=1)
    return place(day, start, tz), place(end_day, end, tz)


def periods(rule: Rule, after: datetime, until: datetime) -> list[tuple[datetime, datetime]]:
    """Every period that overlaps [after, until), in order."""
    tz = ZoneInfo(rule.timezone)
    day = after.astimezone(tz).date() - timedelta(days=2)
    last = until.astimezone(tz).date() + timedelta(days=1)
    out = []
    while day <= last:
        p = period_of(rule, day)
        if p is not None and p[1] > after and p[0] < until:
            out.append(p)
        day += timedelta(days=1)
    return out


def period_at(rule: Rule | None, when: datetime) -> tuple[datetime, datetime] | None:
    """The period holding `when` (start included, end not), or None."""
    if rule is None:
        return None
    for start, end in periods(rule, when - timedelta(seconds=1), when + timedelta(seconds=1)):
        if start <= when < end:
            return start, end
    return None


def next_period(rule: Rule | None, now: datetime) -> tuple[datetime, datetime] | None:
    """The period holding `now`, else the next one to start (looked for over two weeks)."""
    if rule is None:
        return None
    found = periods(rule, now, now + timedelta(days=15))
    return next((p for p in found if p[1] > now), None)


def iso(when: datetime, timezone: str) -> str:
    return when.astimezone(ZoneInfo(timezone)).isoformat()


def answer(rule: Rule | None, now: datetime) -> dict[str, object]:
    """What set_quiet_hours and get_quiet_hours return."""
    p = next_period(rule, now)
    return {
        "quiet_hours": None if rule is None else rule.answer(),
        "next_period": None
        if rule is None or p is None
        else {"start": iso(p[0], rule.timezone), "end": iso(p[1], rule.timezone)},
    }


@dataclass
class Release:
    """The occurrences held for one user in one period, released together at its end."""

    user: str
    end: datetime  # the period's end: when the one-time entry fires
    held: list[tuple[str, datetime]] = field(default_factory=list)  # (schedule, occurrence)
    done: bool = False


@dataclass
class Quiet:
    """The quiet-hours state of one room: the rules and the releases written."""

    rules: dict[str, Rule] = field(default_factory=dict)
    releases: dict[tuple[str, datetime], Release] = field(default_factory=dict)
    count: int = 0  # occurrences held so far (the bounded search must reach some)

    def set(self, user: str, rule: Rule) -> None:
        self.rules[user] = rule

    def clear(self, user: str) -> bool:
        return self.rules.pop(user, None) is not None

    def quiet(self, user: str | None, when: datetime) -> tuple[datetime, datetime] | None:
        return None if user is None else period_at(self.rules.get(user), when)

    def holds(self, user: str | None, slot: datetime, at: datetime) -> tuple[datetime, datetime] | None:
        """The period an occurrence at `slot` whose fire starts at `at` is held in: both in the same one."""
        p = self.quiet(user, at)
        return p if p is not None and p[0] <= slot < p[1] else None

    def hold(self, user: str, end: datetime, sid: str, slot: datetime) -> Release:
        release = self.releases.setdefault((user, end), Release(user, end))
        if (sid, slot) not in release.held:
            release.held.append((sid, slot))
            self.count += 1
        return release

    def held_until(self, sid: str) -> datetime | None:
        """The release time of an occurrence of `sid` held now."""
        ends = [r.end for r in self.releases.values() if not r.done and any(h[0] == sid for h in r.held)]
        return min(ends) if ends else None

    def due(self, until: datetime) -> list[Release]:
        """Releases not yet posted whose period ended by `until`, in order of their end."""
        return sorted((r for r in self.releases.values() if not r.done and r.end <= until), key=lambda r: r.end)
