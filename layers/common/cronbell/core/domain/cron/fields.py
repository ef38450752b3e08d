"""A five-field cron expression read into its meaning (`CronFields`), as standard cron and croniter read it:
- fields `MIN HOUR DOM MON DOW`; `*`, numbers, lists, ranges, steps (`*/15`, `1-10/2`, `5/10`),
  JAN-DEC and SUN-SAT (three letters), Sunday as 0 or 7; a range may wrap in the month and weekday
  fields (`FRI-MON`, `NOV-FEB`); `?` is read as `*` in the two day fields;
- a day field is unrestricted when it is `*`, or when it covers every value and the other day field is
  written with a `*`; when both are restricted a day matches if either matches (cron's rule);
- `L`, `W#N` and `LW` (croniter's last day of the month, N-th and last weekday), each alone in its field.
"""

from __future__ import annotations

import calendar
import re
from datetime import date, timedelta

from cronbell.core.domain.phrases import Phrase, phrase
from cronbell.core.values import value

_MONTH_NAMES = ("JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC")
_DOW_NAMES = ("SUN", "MON", "TUE", "WED", "THU", "FRI", "SAT")
_BOUNDS = ((0, 59), (0, 23), (1, 31), (1, 12), (0, 7))
_MAX_DAYS = (31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31)
_COMMON_DAYS = (31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31)  # a year that is not a leap year

EVERY_DAY = "every"  # both day fields unrestricted
BY_DOM = "dom"
BY_DOW = "dow"
EITHER = "either"  # both restricted: day-of-month OR day-of-week
WEEKS, DAYS, MONTHS = "weeks", "days", "months"  # the units of an every-N interval (cron/spec.Interval)


@value
class CronFields:
    """The expanded meaning of a five-field expression. Weekdays use cron numbers: 0 = Sunday."""

    minutes: tuple[int, ...]
    hours: tuple[int, ...]
    days: tuple[int, ...]
    months: tuple[int, ...]
    weekdays: tuple[int, ...]
    day_rule: str
    last_day: bool = False  # `L` in the day-of-month field (days is empty)
    nth: int = 0  # `W#N` (N) or `LW` (-1) in the day-of-week field: the weekday's place in the month

    def day_matches(self, d: date) -> bool:
        if d.month not in self.months:
            return False
        by_dom = (d + timedelta(days=1)).day == 1 if self.last_day else d.day in self.days
        by_dow = (d.weekday() + 1) % 7 in self.weekdays and self._in_place(d)
        if self.day_rule == EVERY_DAY:
            return True
        if self.day_rule == BY_DOM:
            return by_dom
        if self.day_rule == BY_DOW:
            return by_dow
        return by_dom or by_dow

    def _in_place(self, d: date) -> bool:
        if self.nth > 0:
            return (d.day - 1) // 7 + 1 == self.nth
        return self.nth == 0 or d.day + 7 > calendar.monthrange(d.year, d.month)[1]

    def times(self) -> list[tuple[int, int]]:
        return [(h, m) for h in self.hours for m in self.minutes]

    def months_without_the_day(self) -> tuple[int, ...]:
        """The months a schedule by day of the month alone never runs in: none of its days is in them
        (the 31st in April; the 29th in February but in leap years)."""
        if self.day_rule != BY_DOM or self.last_day or not self.days:
            return ()
        return tuple(m for m in self.months if min(self.days) > _COMMON_DAYS[m - 1])

    def dom_part_fires(self) -> bool:
        """Whether some (month, day) pair of the day-of-month part exists (29 February counts)."""
        return self.last_day or any(d <= _MAX_DAYS[m - 1] for m in self.months for d in self.days)


class FieldError(ValueError):
    """An invalid field; the reason is a catalog phrase (str() is its English text)."""

    def __init__(self, key: str, **values: object) -> None:
        self.reason = phrase(key, **values)
        super().__init__(self.reason.key)


_FIELDS = ("field.minute", "field.hour", "field.day_of_month", "field.month", "field.day_of_week")


def _field(index: int) -> Phrase:
    return phrase(_FIELDS[index])


def _value(token: str, index: int) -> int:
    upper = token.upper()
    if index == 3 and upper in _MONTH_NAMES:
        return _MONTH_NAMES.index(upper) + 1
    if index == 4 and upper in _DOW_NAMES:
        return _DOW_NAMES.index(upper)
    if not token.isdigit() or len(token) > 2:
        raise FieldError("cron.not_a_value", token=token, field=_field(index))
    value = int(token)
    lo, hi = _BOUNDS[index]
    if not lo <= value <= hi:
        raise FieldError("cron.out_of_range", field=_field(index), value=value, lo=lo, hi=hi)
    return value


def _expand(raw: str, index: int) -> set[int]:
    lo, hi = _BOUNDS[index]
    cycle_hi = 6 if index == 4 else hi  # `*/N` and `A/N` in the weekday field run over 0-6
    out: set[int] = set()
    for item in raw.split(","):
        match = re.fullmatch(r"(\*|\?|[0-9A-Za-z]+(?:-[0-9A-Za-z]+)?)(?:/(\d+))?", item)
        if not match:
            raise FieldError("cron.bad_item", item=item, field=_field(index))
        base, step_text = match.group(1), match.group(2)
        step = int(step_text) if step_text else 1
        if step < 1 or (step_text and len(step_text) > 2):
            raise FieldError("cron.bad_step", step=step_text, field=_field(index))
        if base == "?":
            if index not in (2, 4) or step_text:
                raise FieldError("cron.question_mark")
            base = "*"
        if base == "*":
            values = list(range(lo, cycle_hi + 1, step))
        elif "-" in base:
            first_text, last_text = base.split("-")
            first, last = _value(first_text, index), _value(last_text, index)
            if index == 4 and last == 0 and first > 0:
                last = 7  # FRI-SUN, 5-0
            if first > last:
                if index not in (3, 4) or step_text:
                    raise FieldError("cron.backwards", range=base, field=_field(index))
                values = list(range(first, hi + 1)) + list(range(lo, last + 1))
            else:
                values = list(range(first, last + 1, step))
        else:
            first = _value(base, index)
            values = list(range(first, (cycle_hi if first <= cycle_hi else hi) + 1, step)) if step_text else [first]
        out.update(values)
    if index == 4:
        out = {0 if v == 7 else v for v in out}
    return out


def parse_fields(expr: str) -> CronFields:
    """Expand a five-field expression. Raises ValueError with a reason on any invalid field."""
    parts = expr.split()
    if len(parts) != 5:
        raise FieldError("cron.field_count", count=len(parts))
    special = _positions(parts)
    if special is not None:
        return special
    sets = [_expand(part, i) for i, part in enumerate(parts)]
    dom_raw, dow_raw = parts[2], parts[4]
    dom_full = len(sets[2]) == 31
    dow_full = len(sets[4]) == 7
    dom_star = dom_raw in ("*", "?") or (dom_full and "*" in dow_raw)
    dow_star = dow_raw in ("*", "?") or (dow_full and "*" in dom_raw)
    if dom_star and dow_star:
        rule = EVERY_DAY
    elif dow_star:
        rule = EVERY_DAY if dom_full else BY_DOM
    elif dom_star:
        rule = EVERY_DAY if dow_full else BY_DOW
    else:
        rule = EVERY_DAY if dom_full or dow_full else EITHER
    minutes, hours, days, months, weekdays = (tuple(sorted(s)) for s in sets)
    return CronFields(minutes, hours, days, months, weekdays, rule)


def _positions(parts: list[str]) -> CronFields | None:
    """`L` (last day of the month), `W#N` (the N-th weekday W) and `LW` (the last weekday W), as croniter
    writes them; each alone in its field, with `*` in the other day field. None for other expressions."""
    dom_raw, dow_raw = parts[2], parts[4].upper()
    nth = re.fullmatch(r"([0-7]|[A-Z]{3})#([1-5])", dow_raw)
    last = re.fullmatch(r"L([0-7])", dow_raw)
    if dom_raw.upper() != "L" and not nth and not last:
        return None
    if dom_raw.upper() == "L":
        if dow_raw not in ("*", "?"):
            raise FieldError("cron.position_field", item="L", field=_field(2))
    elif dom_raw not in ("*", "?"):
        raise FieldError("cron.position_field", item=parts[4], field=_field(4))
    minutes, hours, months = (tuple(sorted(_expand(parts[i], i))) for i in (0, 1, 3))
    if dom_raw.upper() == "L":
        return CronFields(minutes, hours, (), months, (), BY_DOM, last_day=True)
    found = nth or last
    assert found is not None
    weekday = _value(found.group(1), 4) % 7
    return CronFields(minutes, hours, (), months, (weekday,), BY_DOW, nth=int(nth.group(2)) if nth else -1)
