"""Previews against a brute-force enumeration: for random expressions (every N weeks and every N days
too), zones, calendars, ends, skips and snoozes, `Timing.upcoming` lists exactly the instants that
an independent walk finds. The walk uses croniter for the wall times, zoneinfo for the instants (a
time in a spring gap does not fire, a repeated one fires once, the first) and the `holidays` package
for the dates; it follows the rules of docs/semantics.md ("Ends and calendars"), not cronbell's code:

  - an occurrence is on a holiday when its local date is one of the calendar's;
  - a skipped occurrence is left out, a snoozed one is in (never a holiday's) unless its instant is
    skipped (skip_next cancels a snooze it meets); one instant is one fire;
  - none after `until`; at most `count` minus the runs already delivered;
  - occurrences are looked for up to the same date ten years after now (the horizon).
"""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta
from zoneinfo import ZoneInfo

import holidays
import pytest
from croniter import CroniterBadDateError, croniter
from hypothesis import HealthCheck, assume, event, given, settings
from hypothesis import strategies as st

from cronbell.core.domain.cron.fields import DAYS, WEEKS
from cronbell.core.domain.cron.spec import CronSpec, Interval
from cronbell.core.domain.refusals import ToolError
from cronbell.core.domain.timing import Timing
from cronbell.core.language.recurring import parse_recurring

ZONES = ("Europe/Madrid", "America/New_York", "Australia/Sydney", "America/Santiago", "Asia/Kolkata", "UTC")
CALENDARS = ("", "ES", "ES-CT", "US", "GB", "AU", "CL")
# instants near the year end and the DST changes of the zones above (2026-2028), from which a random
# number of hours is added
STARTS = (
    datetime(2026, 12, 20, tzinfo=UTC),
    datetime(2027, 3, 10, tzinfo=UTC),  # New York (14 Mar), Madrid (28 Mar)
    datetime(2027, 3, 31, tzinfo=UTC),  # Sydney, Santiago (4 Apr)
    datetime(2027, 9, 1, tzinfo=UTC),  # Santiago (5 Sep)
    datetime(2027, 9, 28, tzinfo=UTC),  # Sydney (3 Oct), Madrid (31 Oct)
    datetime(2027, 10, 29, tzinfo=UTC),  # New York (7 Nov)
    datetime(2027, 12, 22, tzinfo=UTC),
    datetime(2028, 12, 20, tzinfo=UTC),
    datetime(2026, 12, 28, tzinfo=UTC),
    datetime(2027, 3, 20, tzinfo=UTC),  # Easter: 26 to 29 March
    datetime(2028, 2, 25, tzinfo=UTC),  # a leap day
)
HORIZON_YEARS = 10  # the rule under test, written here again on purpose
WALK_LIMIT = 40_000  # wall times the walk may read before an example is given up


def _calendar(code: str) -> holidays.HolidayBase:
    country, _, subdivision = code.partition("-")
    return holidays.country_holidays(country, subdiv=subdivision or None)


def _instant(wall: datetime, tz: ZoneInfo) -> datetime | None:
    """The instant of a wall time as Scheduler fires it: None in a gap, the first in an overlap."""
    first = wall.replace(tzinfo=tz, fold=0)
    if first.astimezone(UTC).astimezone(tz).replace(tzinfo=None) != wall:
        return None
    return first


def _monday(d: date) -> date:
    return d - timedelta(days=d.weekday())


def _kept(d: date, every: int, unit: str, anchor: date) -> bool:
    if d < anchor:
        return False
    if unit == WEEKS:
        return ((_monday(d) - _monday(anchor)).days // 7) % every == 0
    return (d - anchor).days % every == 0


def oracle(case: dict, now: datetime, wanted: int) -> list[datetime] | None:
    tz = ZoneInfo(case["zone"])
    local_now = now.astimezone(tz)
    try:
        last = local_now.date().replace(year=local_now.year + HORIZON_YEARS)
    except ValueError:
        last = local_now.date().replace(year=local_now.year + HORIZON_YEARS, day=28)
    calendar = _calendar(case["calendar"]) if case["calendar"] else None
    left = wanted if not case["count"] else min(wanted, case["count"] - case["delivered"])
    if left <= 0:
        return []
    regular: list[datetime] = []
    walk = croniter(case["expr"], local_now.replace(tzinfo=None) - timedelta(days=1))
    for _ in range(WALK_LIMIT):
        try:
            wall = walk.get_next(datetime)
        except CroniterBadDateError:  # croniter's own search gave up
            return None
        if wall.date() > last or (
            case["until"] is not None and wall > case["until"].astimezone(tz).replace(tzinfo=None) + timedelta(days=1)
        ):
            break
        interval = case["interval"]
        if interval is not None and not _kept(wall.date(), *interval):
            continue
        at = _instant(wall, tz)
        if at is None or at <= now:
            continue
        if calendar is not None and wall.date() in calendar:
            continue
        if _stamp(at) in case["skips"]:
            continue
        regular.append(at)
        if len(regular) >= left + len(case["snoozes"]):
            break
    else:
        return None  # too long a walk for one example
    snoozed = {s.astimezone(UTC) for s in case["snoozes"] if s > now and _stamp(s) not in case["skips"]}
    fires = sorted({t.astimezone(UTC) for t in regular} | snoozed)
    if case["until"] is not None:
        fires = [t for t in fires if t <= case["until"]]
    return [t.astimezone(tz) for t in fires[:left]]


def _stamp(instant: datetime) -> str:
    """An instant as a skip names it (RFC3339 UTC, to the second)."""
    return instant.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def _values(lo: int, hi: int, most: int) -> st.SearchStrategy[str]:
    return st.lists(st.integers(lo, hi), min_size=1, max_size=most, unique=True).map(
        lambda v: ",".join(str(x) for x in sorted(v))
    )


@st.composite
def cases(draw: st.DrawFn) -> tuple[dict, datetime, int]:
    zone = draw(st.sampled_from(ZONES))
    tz = ZoneInfo(zone)
    now = draw(st.sampled_from(STARTS)) + timedelta(
        hours=draw(st.integers(0, 24 * 12)), minutes=draw(st.integers(0, 59))
    )
    minute = draw(st.one_of(_values(0, 59, 3), st.sampled_from(["*/15", "*/30", "0"])))
    hour = draw(st.one_of(_values(0, 23, 4), st.sampled_from(["*", "0-3", "*/6"])))
    shape = draw(st.sampled_from(["plain", "plain", "weeks", "days", "last", "nth"]))
    interval = None
    if shape in ("weeks", "days"):
        anchor = now.astimezone(tz).date() + timedelta(days=draw(st.integers(0, 20)))
        every = draw(st.integers(2, 5))
        if shape == "weeks":
            dow = _values(0, 6, 3)
            expr = f"{minute} {hour} * * {draw(dow)}"
            interval = Interval(every, WEEKS, anchor)
        else:
            expr = f"{minute} {hour} * * *"
            interval = Interval(every, DAYS, anchor)
    elif shape == "last":
        expr = f"{minute} {hour} L * *"
    elif shape == "nth":
        expr = f"{minute} {hour} * * {draw(st.integers(0, 6))}#{draw(st.integers(1, 4))}"
    else:
        dom = draw(st.one_of(st.just("*"), _values(1, 31, 4), st.sampled_from(["24,25,26", "1,6", "31"])))
        month = draw(st.one_of(st.just("*"), _values(1, 12, 3), st.sampled_from(["12", "1", "12,1"])))
        dow = draw(st.one_of(st.just("*"), _values(0, 6, 3)))
        expr = f"{minute} {hour} {dom} {month} {dow}"
    try:
        parse_recurring(expr, 1, "en")
    except ToolError:  # an expression that can never fire is refused before any preview
        assume(False)
    count = draw(st.sampled_from([0, 0, 1, 3, 20, 100]))
    delivered = draw(st.integers(0, count)) if count else 0
    until = None
    if draw(st.booleans()):
        until = now + timedelta(hours=draw(st.integers(1, 24 * 400)), minutes=draw(st.integers(0, 59)))
    snoozes = sorted(
        {now + timedelta(minutes=draw(st.integers(-60, 60 * 24 * 20))) for _ in range(draw(st.integers(0, 2)))}
    )
    case = {
        "zone": zone,
        "expr": expr,
        "interval": None if interval is None else (interval.every, interval.unit, interval.anchor),
        "calendar": draw(st.sampled_from(CALENDARS)),
        "count": count,
        "delivered": delivered,
        "until": until,
        "snoozes": [s.replace(second=0, microsecond=0) for s in snoozes],
        "skips": frozenset(),
        "spec_interval": interval,
        "shape": shape,
    }
    # skip some of the first occurrences the plain walk finds (before holidays and ends)
    plain = oracle({**case, "calendar": "", "count": 0, "until": None, "snoozes": []}, now, 6) or []
    skipped = draw(st.lists(st.sampled_from(plain), unique=True, max_size=3)) if plain else []
    case["skips"] = frozenset(t.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ") for t in skipped)
    return case, now, draw(st.integers(1, 25))


def timing_of(case: dict) -> Timing:
    tz = ZoneInfo(case["zone"])
    parsed = parse_recurring(case["expr"], 1, "en")
    spec = CronSpec(expr=parsed.expr, source=case["expr"], interval=case["spec_interval"])
    base = Timing.every(spec, tz)
    return Timing(
        zone=base.zone,
        cron=base.cron,
        cron_source=base.cron_source,
        interval=spec.interval,
        skips=case["skips"],
        snoozes=tuple(s.astimezone(tz) for s in case["snoozes"]),
        until=case["until"].astimezone(tz) if case["until"] is not None else None,
        count=case["count"],
        calendar=case["calendar"],
    )


@pytest.mark.slow
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(cases())
def test_upcoming_is_the_brute_force_enumeration(drawn: tuple[dict, datetime, int]) -> None:
    case, now, wanted = drawn
    expected = oracle(case, now, wanted)
    assume(expected is not None)
    assert expected is not None
    event(f"shape: {case['shape']}")
    if case["calendar"] and oracle({**case, "calendar": ""}, now, wanted) != expected:
        event("a holiday left out")
    if expected and any(t.utcoffset() != expected[0].utcoffset() for t in expected):
        event("across a DST change")
    if expected and expected[-1].year != now.year:
        event("across a year end")
    if not expected:
        event("nothing left")
    got = timing_of(case).upcoming(now, wanted, case["delivered"])
    assert [t.astimezone(UTC) for t in got] == [t.astimezone(UTC) for t in expected], case
    assert all(t.tzinfo == ZoneInfo(case["zone"]) for t in got)
    finished = timing_of(case).finished_after(now, case["delivered"])
    has_end = case["until"] is not None or case["count"] > 0
    assert finished == (has_end and not expected), case


def test_the_oracle_sees_a_run_of_holidays_as_cronbell_does() -> None:
    """One fixed case, so the comparison is known to bite: hourly across Christmas in Catalonia."""
    case = {
        "zone": "Europe/Madrid", "expr": "0 * * * *", "interval": None, "spec_interval": None, "shape": "plain",
        "calendar": "ES-CT", "count": 100, "delivered": 97, "until": None, "snoozes": [], "skips": frozenset(),
    }  # fmt: skip
    now = datetime(2026, 12, 24, 22, 30, tzinfo=UTC)  # 23:30 on Christmas Eve in Madrid
    expected = oracle(case, now, 5)
    assert expected is not None
    assert [t.isoformat() for t in expected] == [
        "2026-12-27T00:00:00+01:00",
        "2026-12-27T01:00:00+01:00",
        "2026-12-27T02:00:00+01:00",
    ]
    assert timing_of(case).upcoming(now, 5, 97) == expected


def test_a_snooze_onto_a_skipped_instant_is_skipped_with_it() -> None:
    """The search found it: a snooze lands on a regular occurrence's instant that skip_next skipped; one
    instant is one fire, and it is skipped (docs/semantics.md, "Skip next")."""
    case = {
        "zone": "America/Santiago", "expr": "0,1,21 9 * * *", "interval": None, "spec_interval": None,
        "shape": "plain", "calendar": "", "count": 0, "delivered": 0, "until": None,
        "snoozes": [datetime(2026, 12, 29, 12, 21, tzinfo=UTC)],
        "skips": frozenset({"2026-12-29T12:00:00Z", "2026-12-29T12:21:00Z"}),
    }  # fmt: skip
    now = datetime(2026, 12, 29, 10, 0, tzinfo=UTC)
    expected = [datetime(2026, 12, 29, 12, 1, tzinfo=UTC), datetime(2026, 12, 30, 12, 0, tzinfo=UTC)]
    assert oracle(case, now, 2) == expected
    assert [t.astimezone(UTC) for t in timing_of(case).upcoming(now, 2)] == expected
