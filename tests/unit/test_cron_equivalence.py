"""Proof that the EventBridge translation fires exactly when the five-field expression does.

For generated expressions and start instants, the union of the translated EventBridge expressions,
evaluated with aws-croniter in local wall time (then given the zone), must give the same next 50
fire times as croniter gives for the original expression, and as `next_fires` gives.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from aws_croniter import AwsCroniter
from croniter import croniter
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from cronbell.core.domain.cron.expressions import eventbridge_expressions
from cronbell.core.domain.cron.fires import next_fires
from cronbell.core.domain.refusals import ToolError
from cronbell.core.language.recurring import parse_recurring

COUNT = 50
# aws-croniter gives up after ten steps of its search: the eight years between the leap days of 2096
# and 2104 are too many for it. Compare fires before 2100.
LAST = datetime(2100, 1, 1)
ZONE = ZoneInfo("Asia/Kolkata")  # no DST: wall time and instants line up one to one
DST_ZONE = ZoneInfo("Europe/Madrid")

MONTHS = ("JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC")
DAYS = ("SUN", "MON", "TUE", "WED", "THU", "FRI", "SAT")


def _croniter_fires(expr: str, start: datetime) -> list[datetime]:
    it = croniter(expr, start)
    out = []
    for _ in range(COUNT):
        fire = it.get_next(datetime)
        if fire >= LAST:
            break
        out.append(fire)
    return out


def _eventbridge_fires(expressions: list[str], start: datetime) -> list[datetime]:
    """Union of the expressions' next fires, read in wall time: aws-croniter wants tzinfo=UTC."""
    found: set[datetime] = set()
    wall_start = start.replace(tzinfo=UTC)
    for expression in expressions:
        assert expression.startswith("cron(") and expression.endswith(")")
        fires = AwsCroniter(expression[5:-1]).get_next(wall_start, COUNT)
        found.update(f.replace(tzinfo=None) for f in fires if f is not None and f.replace(tzinfo=None) < LAST)
    return sorted(found)[:COUNT]


def _check(text: str, start: datetime) -> None:
    spec = parse_recurring(text, 0)
    expressions = eventbridge_expressions(spec)
    assert 1 <= len(expressions) <= 2
    want = _croniter_fires(text, start)
    got = _eventbridge_fires(expressions, start)
    assert got == want[: len(got)] and len(got) == len(want), (text, expressions)
    # the runtime's own evaluation, in a zone without DST, gives the same instants
    ours = next_fires(spec, start.replace(tzinfo=ZONE), ZONE, COUNT)
    assert [o.replace(tzinfo=None) for o in ours if o.replace(tzinfo=None) < LAST] == want
    # in a zone with DST, Scheduler skips wall times that do not exist and runs repeated ones once
    exists = [w for w in got if _round_trips(w, DST_ZONE)]
    with_dst = next_fires(spec, start.replace(tzinfo=DST_ZONE), DST_ZONE, COUNT)[: len(exists)]
    assert [(d.replace(tzinfo=None), d.fold) for d in with_dst] == [(w, 0) for w in exists]
    instants = [d.astimezone(UTC) for d in with_dst]
    assert instants == sorted(set(instants))


def _round_trips(wall: datetime, zone: ZoneInfo) -> bool:
    return wall.replace(tzinfo=zone).astimezone(UTC).astimezone(zone).replace(tzinfo=None) == wall


# --- generated expressions ----------------------------------------------------------------------------


def _value(draw: st.DrawFn, lo: int, hi: int, names: tuple[str, ...] | None, name_base: int) -> tuple[int, str]:
    v = draw(st.integers(lo, hi))
    if names and draw(st.booleans()) and 0 <= v - name_base < len(names):
        name = names[v - name_base]
        return v, name if draw(st.booleans()) else name.lower()
    return v, str(v)


@st.composite
def _item(draw: st.DrawFn, lo: int, hi: int, names: tuple[str, ...] | None = None, name_base: int = 0) -> str:
    """One list item: a value, a range, a stepped range, `*/N` or `A/N`, read alike by croniter and cron."""
    kind = draw(st.sampled_from(["value", "value", "range", "step_range", "star_step", "start_step"]))
    span = hi - lo + 1
    if kind == "value":
        return _value(draw, lo, hi, names, name_base)[1]
    if kind == "star_step":
        return f"*/{draw(st.integers(1, span))}"
    if kind == "start_step":
        top = hi - 1 if names is DAYS else hi  # croniter reads `7/N` in the weekday field oddly
        return f"{draw(st.integers(lo, top))}/{draw(st.integers(1, span))}"
    a, a_text = _value(draw, lo, hi - 1, names, name_base)
    b, b_text = _value(draw, a + 1, hi, names, name_base)  # A < B: croniter reads `A-A` as the whole cycle
    if kind == "range":
        return f"{a_text}-{b_text}"
    return f"{a}-{b}/{draw(st.integers(1, span))}"


@st.composite
def _wrapping_range(draw: st.DrawFn, names: tuple[str, ...], lo: int) -> str:
    """NOV-FEB, FRI-MON: ranges that wrap around the cycle (no step)."""
    a = draw(st.integers(1, len(names) - 1))
    b = draw(st.integers(0, a - 1))
    return f"{names[a]}-{names[b]}" if draw(st.booleans()) else f"{a + lo}-{b + lo}"


def _field(lo: int, hi: int, names: tuple[str, ...] | None = None, name_base: int = 0, star: int = 3):
    items = st.lists(_item(lo, hi, names, name_base), min_size=1, max_size=3).map(",".join)
    options = [st.just("*")] * star + [items, items]
    if names:
        options.append(_wrapping_range(names, name_base))
    return st.one_of(*options)


@st.composite
def expressions(draw: st.DrawFn) -> str:
    minute = draw(_field(0, 59, star=1))
    hour = draw(_field(0, 23, star=1))
    dom = draw(_field(1, 31))
    month = draw(_field(1, 12, MONTHS, 1))
    dow = draw(_field(0, 7, DAYS, 0))  # 7 is Sunday too
    return f"{minute} {hour} {dom} {month} {dow}"


@st.composite
def place_expressions(draw: st.DrawFn) -> str:
    """Expressions with `L` (last day of the month), `W#N` (N-th weekday) and `LW` (last weekday W)."""
    minute = draw(_field(0, 59, star=1))
    hour = draw(_field(0, 23, star=1))
    month = draw(_field(1, 12, MONTHS, 1))
    weekday = draw(st.integers(0, 7))
    named = DAYS[weekday % 7] if draw(st.booleans()) else str(weekday)
    nth = draw(st.integers(1, 5))
    dom, dow = draw(st.sampled_from([("L", "*"), ("*", f"{named}#{nth}"), ("*", f"L{weekday}")]))  # croniter: L + digit
    if nth == 5 and "#" in dow:
        month = "*"  # a fifth weekday in a few months can be years apart: more than aws-croniter searches
    return f"{minute} {hour} {dom} {month} {dow}"


starts = st.datetimes(min_value=datetime(2024, 1, 1), max_value=datetime(2031, 12, 31)).map(
    lambda d: d.replace(microsecond=0)
)


@pytest.mark.slow
@settings(
    derandomize=True,
    max_examples=1000,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
@given(expressions(), starts)
def test_translation_fires_exactly_like_the_original(text: str, start: datetime) -> None:
    try:
        parse_recurring(text, 0)
    except ToolError as exc:
        assert exc.code == "never_fires", (text, exc.message)
        assert _croniter_fires_none(text)
        event("refused: never fires")
        return
    event(f"EventBridge expressions: {len(eventbridge_expressions(parse_recurring(text, 0)))}")
    _check(text, start)


@pytest.mark.slow
@settings(
    derandomize=True,
    max_examples=400,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
@given(place_expressions(), starts)
def test_month_places_fire_exactly_like_the_original(text: str, start: datetime) -> None:
    """`L`, `#` and `L<weekday>` become EventBridge's `L`, `#` and `<weekday>L`, in one expression."""
    spec = parse_recurring(text, 0)
    assert len(eventbridge_expressions(spec)) == 1
    event(f"day fields: {spec.expr.split()[2]} {spec.expr.split()[4][:1]}")
    _check(text, start)


def _croniter_fires_none(text: str) -> bool:
    """croniter has no notion of 'never': it refuses the expression or finds nothing for years."""
    try:
        it = croniter(text, datetime(2024, 1, 1))
        return it.get_next(datetime) > datetime(2100, 1, 1)
    except Exception:  # CroniterBadDateError / CroniterBadCronError
        return True


# --- hand-picked cases --------------------------------------------------------------------------------

FIXED = [
    "0 10 * * 1",  # Monday: EventBridge 2
    "0 10 * * 0",  # Sunday as 0: EventBridge 1
    "0 10 * * 7",  # Sunday as 7
    "0 10 * * 6",  # Saturday: EventBridge 7, the top end
    "0 10 * * 0,7",
    "0 10 * * 6-7",
    "0 10 * * 5-0",
    "0 10 * * SAT-SUN",
    "0 10 * * sun-sat",
    "0 10 * * MON-FRI",
    "0 10 * * FRI-MON",
    "0 10 * * TUE-THU,SUN",
    "0 10 * * */2",
    "0 10 * * 1-7/2",
    "0 0 31 * *",  # only months with 31 days
    "0 0 30 * *",
    "0 0 28-31 2 *",  # end of February, 29th in leap years
    "0 0 29 2 *",  # leap day
    "0 0 1 JAN-MAR *",
    "0 0 1 NOV-FEB *",
    "0 0 1 */3 *",
    "0 0 1,15 * 1",  # either rule: day 1 or 15, or Monday
    "0 0 13 * FRI",  # either rule, overlaps on Friday the 13th
    "0 0 31 2 1",  # either rule whose day-of-month half never fires
    "0 0 */2 * 1",  # a stepped star is a restriction for croniter: either rule
    "0 0 1-31 * */2",
    "*/15 9-17 * * 1-5",
    "5/20 */5 * * *",
    "59 23 31 12 *",
    "0 0 1 1 *",
    "@weekly",
    "@monthly",
    "0 9 L * *",  # last day of the month: EventBridge L
    "30 23 L 2 *",  # 28 or 29 February
    "0 10 * * 1#1",  # first Monday: EventBridge 2#1
    "0 10 * * mon#2",
    "0 10 * * 5#5",  # a fifth Friday: only some months
    "0 10 * * L5",  # last Friday: EventBridge 6L
    "0 10 * * L0",  # last Sunday: EventBridge 1L
    "0 10 * * L7",
    "0 10 * JAN,JUL 3#3",
]


@pytest.mark.parametrize("text", FIXED)
@pytest.mark.parametrize(
    "start", [datetime(2026, 5, 13, 10, 23), datetime(2027, 12, 31, 23, 59), datetime(2028, 2, 28)]
)
def test_fixed_cases(text: str, start: datetime) -> None:
    _check(text, start)


def test_either_rule_needs_the_union() -> None:
    """Neither half alone gives the schedule: the proof would catch a translation that drops one."""
    spec = parse_recurring("0 0 13 * 5", 0)
    dom_half, dow_half = eventbridge_expressions(spec)
    start = datetime(2026, 1, 1)
    want = _croniter_fires("0 0 13 * 5", start)
    assert _eventbridge_fires([dom_half], start) != want
    assert _eventbridge_fires([dow_half], start) != want
    assert _eventbridge_fires([dom_half, dow_half], start) == want


def test_eventbridge_expressions_are_accepted_by_aws_croniter() -> None:
    for text in FIXED:
        for expression in eventbridge_expressions(parse_recurring(text, 0)):
            AwsCroniter(expression[5:-1])  # raises on anything AWS would refuse


def test_one_shot_days_line_up_with_croniter_in_wall_time() -> None:
    """Sanity check of the harness itself: aws-croniter's result is wall time, one minute apart."""
    fires = _eventbridge_fires(["cron(* * * * ? *)"], datetime(2026, 1, 1))
    assert fires[1] - fires[0] == timedelta(minutes=1)
