"""Every N weeks and every N days: the phrases, the interval rule by local date (DST, year ends, the
anchor's week), the canonical text, and upcoming fires against an independent enumeration."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from cronbell.core.contract import errors
from cronbell.core.domain.cron.expressions import eventbridge_expressions
from cronbell.core.domain.cron.fields import DAYS, WEEKS
from cronbell.core.domain.cron.fires import anchored
from cronbell.core.domain.cron.spec import Interval, interval_text
from cronbell.core.domain.refusals import INVALID_CRON, ToolError
from cronbell.core.domain.timing import Timing
from cronbell.core.language.recurring import parse_recurring
from cronbell.core.text.preview import describe_cron, dst_notes

MADRID = ZoneInfo("Europe/Madrid")
NEW_YORK = ZoneInfo("America/New_York")
SYDNEY = ZoneInfo("Australia/Sydney")
NOW = datetime(2026, 12, 1, 6, 0, tzinfo=UTC)  # Tuesday 1 December 2026, 07:00 in Madrid

# phrase -> (weekly or daily expression, N, unit)
PHRASES = [
    ("every other monday at 10", "0 10 * * 1", 2, WEEKS),
    ("Every other Monday at 10am", "0 10 * * 1", 2, WEEKS),
    ("every second monday at 10", "0 10 * * 1", 2, WEEKS),
    ("alternate mondays at 10", "0 10 * * 1", 2, WEEKS),
    ("at 10 every other monday", "0 10 * * 1", 2, WEEKS),
    ("every other monday and thursday at 10", "0 10 * * 1,4", 2, WEEKS),
    ("every other week on monday at 10", "0 10 * * 1", 2, WEEKS),
    ("every 2 weeks on tuesday and thursday at 9", "0 9 * * 2,4", 2, WEEKS),
    ("every 2 weeks monday at 10", "0 10 * * 1", 2, WEEKS),
    ("every three weeks on friday at 17:30", "30 17 * * 5", 3, WEEKS),
    ("every 2 weeks on weekends at 10", "0 10 * * 0,6", 2, WEEKS),
    ("biweekly on monday at 10", "0 10 * * 1", 2, WEEKS),
    ("fortnightly on friday at 9", "0 9 * * 5", 2, WEEKS),
    ("every 3 days at 9", "0 9 * * *", 3, DAYS),
    ("every other day at 8", "0 8 * * *", 2, DAYS),
    ("every other day at 8 and 20", "0 8,20 * * *", 2, DAYS),
    ("every 10 days at 7:15", "15 7 * * *", 10, DAYS),
    ("cada dos semanas el lunes a las 10", "0 10 * * 1", 2, WEEKS),
    ("cada 2 semanas los martes y jueves a las 9", "0 9 * * 2,4", 2, WEEKS),
    ("cada tres semanas los viernes a las 17:30", "30 17 * * 5", 3, WEEKS),
    ("a las 9, cada 2 semanas los martes", "0 9 * * 2", 2, WEEKS),
    ("lunes por medio a las 10", "0 10 * * 1", 2, WEEKS),
    ("los lunes por medio a las 10", "0 10 * * 1", 2, WEEKS),
    ("un lunes sí y otro no a las 10", "0 10 * * 1", 2, WEEKS),
    ("semana por medio los lunes a las 10", "0 10 * * 1", 2, WEEKS),
    ("cada 3 días a las 9", "0 9 * * *", 3, DAYS),
    ("cada dos días a las 8", "0 8 * * *", 2, DAYS),
    ("día por medio a las 8", "0 8 * * *", 2, DAYS),
    ("un día sí y otro no a las 8", "0 8 * * *", 2, DAYS),
    ("quincenalmente los lunes a las 9", "0 9 * * 1", 2, WEEKS),  # as 'biweekly' is read
    # an ordinal says the interval as well as a number does
    ("every third day at 9", "0 9 * * *", 3, DAYS),
    ("every 3rd day at 9", "0 9 * * *", 3, DAYS),
    ("every fourth week on monday at 9", "0 9 * * 1", 4, WEEKS),
    ("cada tercer día a las 9", "0 9 * * *", 3, DAYS),
    ("cada 3er día a las 9", "0 9 * * *", 3, DAYS),
    ("cada segunda semana los lunes a las 9", "0 9 * * 1", 2, WEEKS),
    # a number of weeks said by its weekdays
    ("every 2 fridays at 5pm", "0 17 * * 5", 2, WEEKS),
    ("every two fridays at 5pm", "0 17 * * 5", 2, WEEKS),
    ("every 3 mondays and thursdays at 9", "0 9 * * 1,4", 3, WEEKS),
    ("cada dos viernes a las 17:00", "0 17 * * 5", 2, WEEKS),
    ("cada 2 viernes a las 17", "0 17 * * 5", 2, WEEKS),
    ("cada tres lunes a las 9", "0 9 * * 1", 3, WEEKS),
]


@pytest.mark.parametrize(("text", "expr", "every", "unit"), PHRASES)
def test_phrases_read_as_a_weekly_or_daily_entry_and_an_interval(text: str, expr: str, every: int, unit: str) -> None:
    spec = parse_recurring(text, 5)
    assert (spec.expr, spec.interval) == (expr, Interval(every, unit))
    assert spec.source == text
    assert len(eventbridge_expressions(spec)) == 1  # one entry: the weekly or daily one


@pytest.mark.parametrize(
    ("text", "expr"),
    [
        ("every 1 week on monday at 9", "0 9 * * 1"),  # N = 1 is the plain recurrence
        ("every 1 day at 9", "0 9 * * *"),
        ("every monday at 10", "0 10 * * 1"),
        ("cada 15 minutos", "*/15 * * * *"),
    ],
)
def test_an_interval_of_one_is_the_plain_recurrence(text: str, expr: str) -> None:
    spec = parse_recurring(text, 5)
    assert (spec.expr, spec.interval) == (expr, None)


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("biweekly on monday", "no time of day; add one, e.g. 'biweekly on monday at 9'"),  # its time, said
        ("every 2 weeks at 10", "every N weeks needs weekdays and a time"),
        ("every other day", "no time of day; add one, e.g. 'every other day at 9'"),
        ("every 3 days on monday at 9", "every N days needs a time of day only"),
        ("every 2 weeks on the 1st of every month at 9", "every N weeks needs weekdays and a time"),
        ("every 0 days at 9", "N must be 1-365"),
        ("every 60 weeks on monday at 9", "N must be 1-52"),
        ("cada quince días a las 9", "may mean 'cada 2 semanas'"),  # never guessed
        ("cada ocho días a las 9", "may mean 'cada semana'"),
        ("cada 15 días a las 9", "may mean 'cada 2 semanas'"),
        ("every other weekday at 9", "not a cron expression or a known phrase"),
        ("every other hour", "not a cron expression or a known phrase"),
        ("every 2nd and 4th tuesday at 10", "for two places, create one reminder for each"),
        ("every third monday at 9", "not a cron expression or a known phrase"),  # the month's third, or weeks?
        ("every 60 fridays at 9", "N must be 1-52"),
        ("the first of every month", "no time of day; add one"),  # its days read, as with 'the 1st'
        ("every month on the fifteenth", "no time of day; add one"),
        ("first and third monday of the month at 9", "for two places, create one reminder for each"),
        ("every monday at 9 and every friday at 5", "are two schedules: create one reminder for each"),
        ("every monday at 9 and every monday at 9:30", "are two schedules: create one reminder for each"),
    ],
)
def test_refusals_say_why(text: str, reason: str) -> None:
    with pytest.raises(ToolError) as caught:
        parse_recurring(text, 5)
    assert caught.value.code == INVALID_CRON
    assert reason in errors.message(caught.value, "en"), errors.message(caught.value, "en")
    assert "every other monday at 10" in errors.message(caught.value, "en")
    assert "lunes por medio a las 10" in errors.message(caught.value, "es")


@pytest.mark.parametrize(("text", "expr", "every", "unit"), PHRASES)
def test_the_canonical_text_reads_back_to_the_same_recurrence_and_weeks(
    text: str, expr: str, every: int, unit: str
) -> None:
    """Read back 100 days later, the text still names the same weeks (or days): its start date."""
    spec = anchored(parse_recurring(text, 5), NOW, MADRID)
    assert spec.interval is not None and spec.interval.anchor is not None
    again = anchored(parse_recurring(interval_text(spec), 5), NOW + timedelta(days=100), MADRID)
    assert (again.expr, again.interval) == (expr, Interval(every, unit, spec.interval.anchor))


@pytest.mark.parametrize(
    ("text", "first"),
    [
        ("every other monday at 10 from 2026-12-14", ["2026-12-14", "2026-12-28"]),
        ("every other monday at 10 starting 2026-12-11", ["2026-12-14", "2026-12-28"]),  # a Friday: next Monday
        ("every other monday at 10, starting on 2026-11-23", ["2026-12-07", "2026-12-21"]),  # past: its weeks
        ("every 2 weeks on tuesday and thursday at 9 from 2026-12-03", ["2026-12-03", "2026-12-15"]),
        ("cada 2 semanas los lunes a las 10 desde el 2026-12-14", ["2026-12-14", "2026-12-28"]),
        ("cada 3 días a las 9 a partir del 2026-12-10", ["2026-12-10", "2026-12-13"]),
    ],
)
def test_a_start_date_chooses_the_weeks(text: str, first: list[str]) -> None:
    assert [t.date().isoformat() for t in fires(text, NOW, MADRID, 2)] == first


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("every monday at 10 from 2026-12-14", "a start date goes with every N weeks, days or months only"),
        ("every other monday at 10 from 2026-02-30", "'2026-02-30' is not a start date"),
        ("every other monday at 10 from 0001-01-01", "'0001-01-01' is not a start date"),
        ("cada 3 días a las 9 desde el 9999-12-31", "'9999-12-31' is not a start date"),
    ],
)
def test_start_date_refusals(text: str, reason: str) -> None:
    with pytest.raises(ToolError) as caught:
        parse_recurring(text, 5)
    assert caught.value.code == INVALID_CRON and reason in errors.message(caught.value, "en")


@pytest.mark.parametrize(
    ("text", "en", "es", "canonical"),
    [
        (
            "every other monday at 10",
            "every 2 weeks on Monday at 10:00, from 2026-12-07",
            "cada 2 semanas, los lunes a las 10:00, desde el 2026-12-07",
            "every 2 weeks on Mon at 10:00 from 2026-12-07",
        ),
        (
            "cada 2 semanas los martes y jueves a las 9",
            "every 2 weeks on Tuesday and Thursday at 09:00, from 2026-12-01",
            "cada 2 semanas, los martes y jueves a las 09:00, desde el 2026-12-01",
            "every 2 weeks on Tue and Thu at 09:00 from 2026-12-01",
        ),
        (
            "cada 3 días a las 9",
            "every 3 days at 09:00, from 2026-12-01",
            "cada 3 días a las 09:00, desde el 2026-12-01",
            "every 3 days at 09:00 from 2026-12-01",
        ),
    ],
)
def test_descriptions_in_both_locales(text: str, en: str, es: str, canonical: str) -> None:
    spec = anchored(parse_recurring(text, 5), NOW, MADRID)
    assert (describe_cron(spec, "en"), describe_cron(spec, "es")) == (en, es)
    assert Timing.every(spec, MADRID).text == canonical


def fires(text: str, now: datetime, tz: ZoneInfo, count: int) -> list[datetime]:
    return Timing.every(anchored(parse_recurring(text, 5), now, tz), tz).upcoming(now, count)


def test_every_other_monday_keeps_its_local_time_and_parity_across_madrids_spring_change() -> None:
    """28 March 2027: Madrid moves from +01:00 to +02:00; the alternate Mondays stay 14 days apart."""
    now = datetime(2027, 3, 8, 12, 0, tzinfo=UTC)  # Monday 8 March, after 10:00: the first is 15 March
    got = fires("every other monday at 10", now, MADRID, 4)
    assert [t.isoformat() for t in got] == [
        "2027-03-15T10:00:00+01:00",
        "2027-03-29T10:00:00+02:00",
        "2027-04-12T10:00:00+02:00",
        "2027-04-26T10:00:00+02:00",
    ]


def test_every_other_sunday_in_new_yorks_autumn_change_and_a_time_in_the_gap() -> None:
    """7 November 2027: 01:30 happens twice in New York (fires once, the first); 14 March 2027: 02:30
    does not exist (that occurrence is skipped, as Scheduler skips it, and the parity does not move)."""
    autumn = fires("every other sunday at 1:30am", datetime(2027, 10, 30, tzinfo=UTC), NEW_YORK, 3)
    assert [t.isoformat() for t in autumn] == [
        "2027-10-31T01:30:00-04:00",
        "2027-11-14T01:30:00-05:00",
        "2027-11-28T01:30:00-05:00",
    ]
    spring = fires("every other sunday at 2:30am", datetime(2027, 3, 1, tzinfo=UTC), NEW_YORK, 3)
    assert [t.isoformat() for t in spring] == [
        "2027-03-07T02:30:00-05:00",
        "2027-03-21T02:30:00-04:00",  # 14 March would be its day: 02:30 does not exist there
        "2027-04-04T02:30:00-04:00",
    ]


def test_every_three_days_across_a_year_end_and_a_dst_change() -> None:
    got = fires("every 3 days at 9", datetime(2026, 12, 29, 12, 0, tzinfo=UTC), MADRID, 3)
    assert [t.date() for t in got] == [date(2026, 12, 30), date(2027, 1, 2), date(2027, 1, 5)]
    spring = fires("cada 3 días a las 9", datetime(2027, 3, 26, 6, 0, tzinfo=UTC), MADRID, 3)
    assert [t.isoformat() for t in spring] == [
        "2027-03-26T09:00:00+01:00",
        "2027-03-29T09:00:00+02:00",
        "2027-04-01T09:00:00+02:00",
    ]


def test_weeks_cross_a_53_week_year_by_date_not_by_week_number() -> None:
    """2026 has an ISO week 53: alternate Mondays stay 14 days apart into 2027."""
    got = fires("every other monday at 10", datetime(2026, 12, 21, 8, 0, tzinfo=UTC), MADRID, 3)
    assert [t.date() for t in got] == [date(2026, 12, 21), date(2027, 1, 4), date(2027, 1, 18)]


def test_the_anchor_week_is_the_week_of_the_first_occurrence() -> None:
    """Weeks run Monday to Sunday. Created on a Wednesday, 'every 2 weeks on tuesday and thursday'
    starts that Thursday; its next Tuesday is in the week two weeks later."""
    wednesday = datetime(2026, 12, 2, 12, 0, tzinfo=UTC)
    got = fires("every 2 weeks on tuesday and thursday at 9", wednesday, MADRID, 4)
    assert [t.date() for t in got] == [date(2026, 12, 3), date(2026, 12, 15), date(2026, 12, 17), date(2026, 12, 29)]
    monday = datetime(2026, 11, 30, 6, 0, tzinfo=UTC)
    got = fires("every 2 weeks on tuesday and thursday at 9", monday, MADRID, 3)
    assert [t.date() for t in got] == [date(2026, 12, 1), date(2026, 12, 3), date(2026, 12, 15)]


def test_the_first_occurrence_is_today_when_its_time_is_still_ahead() -> None:
    monday_early = datetime(2026, 11, 30, 8, 0, tzinfo=UTC)  # 09:00 Madrid
    assert fires("every other monday at 10", monday_early, MADRID, 1)[0].date() == date(2026, 11, 30)
    monday_late = datetime(2026, 11, 30, 10, 0, tzinfo=UTC)  # 11:00 Madrid
    assert fires("every other monday at 10", monday_late, MADRID, 1)[0].date() == date(2026, 12, 7)


def test_off_interval_fires_are_known_from_the_timing_alone() -> None:
    timing = Timing.every(anchored(parse_recurring("every other monday at 10", 5), NOW, MADRID), MADRID)
    on, off = datetime(2026, 12, 7, 9, 0, tzinfo=UTC), datetime(2026, 12, 14, 9, 0, tzinfo=UTC)
    assert not timing.off_interval(on) and timing.fires_at(on)
    assert timing.off_interval(off) and not timing.fires_at(off)
    assert not Timing.every(parse_recurring("0 10 * * 1", 5), MADRID).off_interval(off)
    snoozed = timing.snoozed(on, off, NOW)  # an occurrence snoozed onto an off day is still delivered
    assert not snoozed.off_interval(off) and snoozed.fires_at(off)


def test_skip_and_snooze_act_on_the_next_real_occurrence() -> None:
    timing = Timing.every(anchored(parse_recurring("every other monday at 10", 5), NOW, MADRID), MADRID)
    first, second = timing.upcoming(NOW, 2)
    assert (first.date(), second.date()) == (date(2026, 12, 7), date(2026, 12, 21))
    assert timing.skipping(first).upcoming(NOW, 2) == [second, second + timedelta(days=14)]
    later = first + timedelta(hours=2)
    assert timing.snoozed(first, later, NOW).upcoming(NOW, 2) == [later, second]


def test_dst_notes_name_only_days_the_interval_keeps() -> None:
    """Madrid's gap, 28 March 2027 02:00-03:00: a Sunday 02:30 every other week is named only when
    that Sunday is one of its weeks."""
    on = anchored(parse_recurring("every other sunday at 02:30", 5), datetime(2027, 3, 14, tzinfo=UTC), MADRID)
    off = anchored(parse_recurring("every other sunday at 02:30", 5), datetime(2027, 3, 21, tzinfo=UTC), MADRID)
    start = datetime(2027, 3, 1, tzinfo=UTC)
    assert len(dst_notes(on, start, MADRID, "en", 60)) == 1
    assert dst_notes(off, start, MADRID, "en", 60) == []


# --- upcoming against an independent, brute-force enumeration ---------------------------------------


def _wall(day: date, hour: int, minute: int, tz: ZoneInfo) -> datetime | None:
    """The instant of a local time as Scheduler reads it: None in a DST gap, the first of a repeat."""
    aware = datetime(day.year, day.month, day.day, hour, minute, tzinfo=tz)
    back = aware.astimezone(UTC).astimezone(tz)
    return aware if (back.hour, back.minute) == (hour, minute) else None


def brute_force(
    weekdays: set[int], clocks: list[tuple[int, int]], every: int, unit: str, now: datetime, tz: ZoneInfo, count: int
) -> list[datetime]:
    """Walk local days from now's date; the anchor is the date of the first occurrence after now on a
    wanted day, one the clocks skip included (weekdays use date.weekday(): Monday 0); keep the days N
    weeks (Monday-first) or N days from it."""
    out: list[datetime] = []
    anchor: date | None = None
    day = now.astimezone(tz).date()
    wall_now = now.astimezone(tz).replace(tzinfo=None)
    while len(out) < count:
        if unit == DAYS or day.weekday() in weekdays:
            for hour, minute in sorted(clocks):
                at = _wall(day, hour, minute, tz)
                if at is None:  # no fire; the first occurrence still, when it comes after now
                    skipped = datetime(day.year, day.month, day.day, hour, minute)
                    anchor = day if anchor is None and skipped > wall_now else anchor
                    continue
                if at <= now:
                    continue
                if anchor is None:
                    anchor = day
                if unit == DAYS:
                    keep = (day.toordinal() - anchor.toordinal()) % every == 0
                else:
                    monday, first_monday = day - timedelta(day.weekday()), anchor - timedelta(anchor.weekday())
                    keep = ((monday - first_monday).days // 7) % every == 0
                if keep:
                    out.append(at)
        day += timedelta(days=1)
    return out[:count]


_NAMES = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")


@settings(max_examples=150, deadline=None)
@given(
    every=st.integers(2, 6),
    weekly=st.booleans(),
    weekdays=st.sets(st.integers(0, 6), min_size=1, max_size=4),
    hour=st.integers(0, 23),
    minute=st.sampled_from([0, 15, 30, 45]),
    second_hour=st.one_of(st.none(), st.integers(0, 23)),
    zone=st.sampled_from([MADRID, NEW_YORK, SYDNEY, ZoneInfo("UTC")]),
    offset_minutes=st.integers(0, 3 * 366 * 24 * 60),
)
# now at 02:00 the day before the clocks skip 02:00: the interval counts from that skipped Sunday
@example(every=2, weekly=False, weekdays={0}, hour=2, minute=0, second_hour=None, zone=MADRID, offset_minutes=123900)
def test_upcoming_agrees_with_a_brute_force_enumeration(
    every: int,
    weekly: bool,
    weekdays: set[int],
    hour: int,
    minute: int,
    second_hour: int | None,
    zone: ZoneInfo,
    offset_minutes: int,
) -> None:
    now = datetime(2026, 1, 1, tzinfo=UTC) + timedelta(minutes=offset_minutes)
    hours = sorted({hour, second_hour if second_hour is not None else hour})
    clocks = " and ".join(f"{h:02d}:{minute:02d}" for h in hours)  # a 24-hour clock
    if weekly:
        days = " and ".join(_NAMES[d] for d in sorted(weekdays))
        text, unit = f"every {every} weeks on {days} at {clocks}", WEEKS
    else:
        text, unit = f"every {every} days at {clocks}", DAYS
    got = fires(text, now, zone, 8)
    assert got == brute_force(weekdays, [(h, minute) for h in hours], every, unit, now, zone, 8)


@pytest.mark.parametrize(
    ("text", "now", "zone", "anchor", "first"),
    [
        # said the day before spring forward: the interval counts from that Sunday, whose 02:30 the clocks skip
        ("every 7 days at 2:30am", "2027-03-27T10:00", MADRID, "2027-03-28", ["2027-04-04", "2027-04-11"]),
        ("every 2 days at 2:30am", "2027-03-27T10:00", MADRID, "2027-03-28", ["2027-03-30", "2027-04-01"]),
        ("every other sunday at 2:30am", "2027-03-26T10:00", MADRID, "2027-03-28", ["2027-04-11", "2027-04-25"]),
        ("every other sunday at 2:30am", "2027-03-12T10:00", NEW_YORK, "2027-03-14", ["2027-03-28", "2027-04-11"]),
        ("every other sunday at 3:30am", "2027-03-26T10:00", MADRID, "2027-03-28", ["2027-03-28", "2027-04-11"]),
    ],
)
def test_an_interval_counts_from_the_day_said_when_the_clocks_skip_its_first_time(
    text: str, now: str, zone: ZoneInfo, anchor: str, first: list[str]
) -> None:
    """The first occurrence fell in the spring-forward gap, so the interval was anchored on the next day
    whose time exists: `every 7 days at 2:30` said on a Saturday ran on Mondays."""
    at = datetime.fromisoformat(now).replace(tzinfo=zone)
    spec = anchored(parse_recurring(text, 5), at, zone)
    assert spec.interval is not None and spec.interval.anchor == date.fromisoformat(anchor)
    assert [t.date().isoformat() for t in fires(text, at, zone, 2)] == first
