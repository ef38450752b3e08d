"""Business days: which occurrences of a recurrence a holiday calendar keeps, moves or drops.

A business day is a Monday to Friday that is not a public holiday of the schedule's calendar
(`skip_holidays`). Three rules read it:
  - `business_days`: occurrences only on business days; an occurrence on another day is none at all;
  - `business_day` (1-23, or -1 for the last): the expression's times, on that business day of the
    month only (a month with fewer business days has none);
  - `on_holiday`: an occurrence on a day off (a holiday; with `business_days`, also a weekend day)
    stays and is skipped (`skip`, recorded `skipped`/`holiday` unless a business-day rule makes it
    no occurrence), or moves once to the previous (`before`) or next (`after`) business day at the
    same wall time. It does not move when a day of the schedule's own lies on the way or is that
    day, when that wall time does not exist there (a DST gap), or past `until`.
A moved occurrence fires from one extra entry on weekdays at the expression's times (the fire side
posts nothing on the days that hold no moved occurrence), so nothing is rescheduled after a fire.
"""

from __future__ import annotations

import calendar as month_calendar
from collections.abc import Iterator
from datetime import UTC, date, datetime, timedelta
from zoneinfo import ZoneInfo

from cronbell.core.domain import calendars
from cronbell.core.domain.cron.expressions import eventbridge_expressions
from cronbell.core.domain.cron.fields import BY_DOW, EVERY_DAY, parse_fields
from cronbell.core.domain.cron.fires import fires_after
from cronbell.core.domain.cron.spec import CronSpec
from cronbell.core.domain.zones import NONEXISTENT, localize
from cronbell.core.values import value

SKIP, BEFORE, AFTER = "skip", "before", "after"
ON_HOLIDAY = (SKIP, BEFORE, AFTER)
MOVE_DAYS = 31  # how far a move looks for a business day
LAST = -1
MAX_BUSINESS_DAY = 23  # the most business days a month can have


@value
class Occurrence:
    """One occurrence of a recurrence: its instant (aware, in the zone), where `on_holiday` moved it
    from, and whether it stays on a holiday (its run is skipped)."""

    at: datetime
    moved_from: datetime | None = None
    holiday: bool = False

    @property
    def original(self) -> datetime:
        """Its time before any move: what says whether it ran already (moves keep the order)."""
        return self.moved_from or self.at

    def done(self, through: datetime | None) -> bool:
        """Whether it ran already: its original time at or before `through`, the original time of the
        schedule's last regular run (None: no such run)."""
        return through is not None and self.original.astimezone(UTC) <= through.astimezone(UTC)


@value
class Rules:
    """A recurrence's calendar and business-day rules (all off: occurrences as the expression says)."""

    calendar: str = ""
    business_days: bool = False
    business_day: int = 0  # 1-23, LAST; 0: none
    on_holiday: str = SKIP

    @property
    def moves(self) -> bool:
        return bool(self.calendar) and self.on_holiday in (BEFORE, AFTER)

    @property
    def any(self) -> bool:
        return self.business_days or bool(self.business_day) or self.on_holiday != SKIP

    def is_business(self, day: date) -> bool:
        return day.weekday() < 5 and not (self.calendar and calendars.is_holiday(self.calendar, day))

    def nth_of_month(self, day: date) -> bool:
        """Whether `day` is the business day of its month the rule names."""
        if not self.is_business(day):
            return False
        if self.business_day == LAST:
            last = date(day.year, day.month, month_calendar.monthrange(day.year, day.month)[1])
            return not any(self.is_business(d) for d in _days(day + timedelta(days=1), last))
        before = sum(1 for d in _days(day.replace(day=1), day - timedelta(days=1)) if self.is_business(d))
        return before + 1 == self.business_day

    def day_off(self, day: date) -> bool:
        if not self.calendar:
            return False
        return calendars.is_holiday(self.calendar, day) or (self.business_days and day.weekday() >= 5)


def _days(first: date, last: date) -> Iterator[date]:
    while first <= last:
        yield first
        first += timedelta(days=1)


def time_fields(spec: CronSpec) -> tuple[str, str, str]:
    """The minute, hour and month fields of the normalized expression."""
    minute, hour, _, month, _ = spec.expr.split()
    return minute, hour, month


def expressions(spec: CronSpec, rules: Rules) -> list[str]:
    """The Scheduler expressions of a recurrence with these rules: the expression's own (for the
    n-th business day, its times on every weekday of its months), plus, when occurrences may move, its
    times on the weekdays a moved one can land on that its own entry does not fire (two entries firing
    one instant invoke the fire function twice for one slot: the second, meeting the first's claim,
    fails so that Lambda retries it, an error every time)."""
    minute, hour, month = time_fields(spec)
    if rules.business_day:
        return eventbridge_expressions(CronSpec(f"{minute} {hour} * {month} 1-5", ""))
    own = eventbridge_expressions(spec)
    days = _moved_to_days(spec)
    if not rules.moves or not days:
        return own
    return [*own, *eventbridge_expressions(CronSpec(f"{minute} {hour} * * {days}", ""))]


def _moved_to_days(spec: CronSpec) -> str:
    """The weekdays (cron numbers) at the expression's times that its own entry does not fire, as a field.
    A move never lands on a day the schedule picks itself, so for an expression of every day of every
    month, picking days of the week, those are the weekdays it leaves out ("" for every weekday). Any
    other (days of the month, some months) keeps every weekday: its own days fire twice, a few a year."""
    fields = parse_fields(spec.expr)
    if fields.day_rule not in (EVERY_DAY, BY_DOW) or len(fields.months) != 12 or fields.nth:
        return "1-5"
    own = set(fields.weekdays) if fields.day_rule == BY_DOW else set(range(7))
    return ",".join(str(day) for day in range(1, 6) if day not in own)


def occurrences(
    spec: CronSpec, rules: Rules, after: datetime, tz: ZoneInfo, last_day: date, until: datetime | None = None
) -> Iterator[Occurrence]:
    """The occurrences strictly after `after`, in order, holidays that stay included, none whose
    original time is past `until` or past the local date `last_day`."""
    fields = parse_fields(spec.expr)

    def own_day(day: date) -> bool:
        kept = fields.day_matches(day) and spec.keeps(day)
        return kept and (not rules.business_day or rules.nth_of_month(day))

    def moved(fire: datetime) -> datetime | None:
        step = timedelta(days=-1 if rules.on_holiday == BEFORE else 1)
        day, wall = fire.date(), fire.replace(tzinfo=None)
        for _ in range(MOVE_DAYS):
            day += step
            if own_day(day):
                return None
            if rules.is_business(day):
                aware, kind = localize(datetime.combine(day, wall.time()), tz)
                if kind == NONEXISTENT or (until is not None and aware.astimezone(UTC) > until.astimezone(UTC)):
                    return None
                return aware
        return None

    start = after - timedelta(days=MOVE_DAYS + 2) if rules.moves else after
    after_utc = after.astimezone(UTC)
    skipped = (lambda day: not rules.nth_of_month(day)) if rules.business_day else None
    for fire in fires_after(spec, start, tz, passed_over=skipped, last_day=last_day):
        if until is not None and fire.astimezone(UTC) > until.astimezone(UTC):
            return
        found: Occurrence | None = Occurrence(fire)
        if rules.day_off(fire.date()):
            target = moved(fire) if rules.moves else None
            if target is not None:
                found = Occurrence(target, moved_from=fire)
            elif rules.business_days or rules.business_day:
                found = None
            else:
                found = Occurrence(fire, holiday=True)
        if found is not None and found.at.astimezone(UTC) > after_utc:
            yield found
