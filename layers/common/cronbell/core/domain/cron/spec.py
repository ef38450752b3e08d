"""A recurrence: a normalized five-field cron expression and, for every N weeks or days, its `Interval`.

Every N weeks on given weekdays and every N days at a time cannot be written in cron: they are a weekly
(or daily) expression plus an `Interval` (N and an anchor, the local date of the first occurrence). The
entry fires every week (or day) in the zone, so DST stays right, and only the days the interval keeps
are occurrences: next fires and previews list only those, and the fire side posts nothing on the others.
The fields' meaning is in cron/fields, their expressions (normalized, EventBridge) in cron/expressions,
the fire times in cron/fires; a caller's text is read into a spec by language/recurring.
"""

from __future__ import annotations

from datetime import date, timedelta
from itertools import pairwise

from cronbell.core.domain.cron.fields import DAYS, WEEKS, CronFields, parse_fields
from cronbell.core.values import value


@value
class Interval:
    """Every `every` weeks or days, counted from `anchor`, the local date of the first occurrence.

    Weeks run Monday to Sunday: "every 2 weeks on Tuesday and Thursday" fires on both days of the
    anchor's week (from the anchor on), of the week two weeks later, and so on. Parity is decided by
    local dates, so a DST change, a year boundary or a 53-week year never shifts it. As parsed, the
    anchor is the start date the caller named, if any; `anchored` makes it the first occurrence."""

    every: int
    unit: str  # WEEKS or DAYS; MONTHS only until `anchored` writes it as the months of a cron expression
    anchor: date | None = None

    def keeps(self, day: date) -> bool:
        """Whether `day` (a local date the expression fires on) is one of the interval's."""
        if self.anchor is None:
            return True
        if day < self.anchor:
            return False
        if self.unit == WEEKS:
            weeks = (_monday(day) - _monday(self.anchor)).days // 7
            return weeks % self.every == 0
        return (day - self.anchor).days % self.every == 0


def _monday(day: date) -> date:
    return day - timedelta(days=day.weekday())


@value
class CronSpec:
    expr: str  # normalized standard five-field expression, what croniter reads
    source: str  # the text as the caller gave it
    interval: Interval | None = None  # every N weeks or days: `expr` is then weekly or daily

    def keeps(self, day: date) -> bool:
        return self.interval is None or self.interval.keeps(day)


def shortest_gap(fields: CronFields, enough: int) -> int:
    """Minimum minutes between two consecutive fires, in wall-clock time; exact when under `enough`,
    otherwise possibly a lower bound that is at least `enough`."""
    minutes = sorted(h * 60 + m for h, m in fields.times())
    gap = min((b - a for a, b in pairwise(minutes)), default=10**9)
    spread = minutes[-1] - minutes[0]
    if 1440 - spread >= gap or min(gap, 1440 - spread) >= enough:
        return min(gap, 1440 - spread)
    # the last fire of a day and the first of the next fire day may be closer: find the fewest days
    # between two fire days over a window that holds every weekday, month length and leap year
    previous: date | None = None
    fewest = 10**6
    day = date(2024, 1, 1)
    while day.year < 2053 and fewest > 1:
        if fields.day_matches(day):
            if previous is not None:
                fewest = min(fewest, (day - previous).days)
            previous = day
        day += timedelta(days=1)
    return min(gap, fewest * 1440 - spread)


_SHORT_DAYS = ("Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat")


def interval_text(spec: CronSpec) -> str:
    """The canonical phrase of an interval recurrence, which parse_recurring reads back to the same
    spec, weeks included: 'every 2 weeks on Mon and Thu at 10:00 from 2026-12-07',
    'every 3 days at 09:00 and 21:00 from 2026-12-01'."""
    assert spec.interval is not None
    fields = parse_fields(spec.expr)
    clocks = " and ".join(f"{h:02d}:{m:02d}" for h, m in sorted(fields.times()))
    start = f" from {spec.interval.anchor.isoformat()}" if spec.interval.anchor else ""
    if spec.interval.unit == DAYS:
        return f"every {spec.interval.every} days at {clocks}{start}"
    names = [_SHORT_DAYS[d] for d in sorted(fields.weekdays, key=lambda v: (v + 6) % 7)]
    days = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
    return f"every {spec.interval.every} weeks on {days} at {clocks}{start}"
