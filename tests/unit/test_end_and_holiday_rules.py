"""Ends and calendars as pure rules: holiday dates in a schedule's own zone, previews that stop at
`until` or `count` and leave holidays out, when a recurrence is finished, and the words that say it."""

from __future__ import annotations

from datetime import UTC, date, datetime
from types import SimpleNamespace
from zoneinfo import ZoneInfo

import pytest

from cronbell.core.contract import errors
from cronbell.core.domain import calendars, models, refusals
from cronbell.core.domain.models import Schedule
from cronbell.core.domain.refusals import ToolError
from cronbell.core.domain.timing import Timing
from cronbell.core.language.recurring import parse_recurring
from cronbell.core.text.views import describe, schedule_view
from cronbell.usecases.planning import check_ends, read_ends, read_until
from tests.support.python_process import run_python

MADRID = ZoneInfo("Europe/Madrid")
NEW_YORK = ZoneInfo("America/New_York")
SYDNEY = ZoneInfo("Australia/Sydney")
NOW = datetime(2026, 12, 20, 12, 0, tzinfo=UTC)


def every(expr: str, tz: ZoneInfo = MADRID, **ends: object) -> Timing:
    timing = Timing.every(parse_recurring(expr, 5, "en"), tz)
    return timing.ends_with(ends.get("until"), int(ends.get("count", 0)), str(ends.get("calendar", "")))  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("code", "canonical"),
    [("ES", "ES"), ("es-md", "ES-MD"), (" US-CA ", "US-CA"), ("GB-SCT", "GB-SCT"), ("de_by", "DE-BY")],
)
def test_calendar_codes_are_country_and_optional_subdivision(code: str, canonical: str) -> None:
    assert calendars.normalize(code) == canonical


@pytest.mark.parametrize("code", ["XX", "ES-ZZ", "Spain", "ESP", "UK", "E", "", "ES-", "US/CA", "ÉS"])
def test_unknown_calendar_codes_are_refused(code: str) -> None:
    with pytest.raises(calendars.UnknownCalendar):
        calendars.normalize(code)


def test_holidays_of_a_country_and_of_a_subdivision() -> None:
    assert calendars.is_holiday("ES", date(2026, 12, 25))
    assert not calendars.is_holiday("ES", date(2026, 12, 24))
    assert not calendars.is_holiday("ES", date(2026, 5, 2))
    assert calendars.is_holiday("ES-MD", date(2026, 5, 2))  # Madrid's own day, not Spain's
    assert calendars.is_holiday("US-CA", date(2026, 11, 26))  # Thanksgiving
    assert calendars.is_holiday("GB-SCT", date(2026, 11, 30)) and not calendars.is_holiday("GB", date(2026, 11, 30))


@pytest.mark.parametrize(
    ("tz", "calendar", "occurrence", "holiday"),
    [
        # 00:30 on Christmas Day in Madrid is still 24 December in UTC: the local date decides
        (MADRID, "ES", datetime(2026, 12, 24, 23, 30, tzinfo=UTC), True),
        (MADRID, "ES", datetime(2026, 12, 25, 23, 30, tzinfo=UTC), False),  # 00:30 on the 26th
        # 23:30 in New York on Thanksgiving eve is Thanksgiving in UTC, and the other way round
        (NEW_YORK, "US", datetime(2026, 11, 26, 4, 30, tzinfo=UTC), False),
        (NEW_YORK, "US", datetime(2026, 11, 27, 4, 30, tzinfo=UTC), True),
        # Sydney is 11 hours ahead: Christmas morning there is the 24th in UTC
        (SYDNEY, "AU", datetime(2026, 12, 24, 13, 15, tzinfo=UTC), True),
        (SYDNEY, "AU", datetime(2026, 12, 25, 13, 15, tzinfo=UTC), True),  # Boxing Day
        (SYDNEY, "AU", datetime(2026, 12, 27, 13, 15, tzinfo=UTC), False),
    ],
)
def test_a_holiday_is_the_occurrence_date_in_the_schedule_zone(
    tz: ZoneInfo, calendar: str, occurrence: datetime, holiday: bool
) -> None:
    assert every("*/15 * * * *", tz, calendar=calendar).is_holiday(occurrence) is holiday
    assert every("*/15 * * * *", tz).is_holiday(occurrence) is False  # no calendar, no holidays


def test_previews_leave_holidays_out() -> None:
    timing = every("0 9 * * *", calendar="ES")
    days = [t.date() for t in timing.upcoming(datetime(2026, 12, 23, 12, 0, tzinfo=UTC), 4)]
    assert days == [date(2026, 12, 24), date(2026, 12, 26), date(2026, 12, 27), date(2026, 12, 28)]
    new_year = [t.date() for t in timing.upcoming(datetime(2026, 12, 31, 12, 0, tzinfo=UTC), 2)]
    assert new_year == [date(2027, 1, 2), date(2027, 1, 3)]  # 1 January is a holiday


def test_a_snoozed_occurrence_on_a_holiday_is_delivered() -> None:
    timing = every("0 9 * * *", calendar="ES")
    christmas = datetime(2026, 12, 24, 9, 0, tzinfo=MADRID)
    snoozed = timing.snoozed(christmas, datetime(2026, 12, 25, 10, 0, tzinfo=MADRID), NOW)
    assert not snoozed.is_holiday(datetime(2026, 12, 25, 10, 0, tzinfo=MADRID))
    assert datetime(2026, 12, 25, 10, 0, tzinfo=MADRID) in snoozed.upcoming(NOW, 4)


def test_until_stops_previews_and_finishes_on_its_day() -> None:
    until = datetime(2026, 12, 23, 23, 59, 59, tzinfo=MADRID)
    timing = every("0 9 * * *", until=until)
    assert [t.day for t in timing.upcoming(NOW, 10)] == [21, 22, 23]
    last = datetime(2026, 12, 23, 9, 0, tzinfo=MADRID)
    assert not timing.finished_after(datetime(2026, 12, 22, 9, 0, tzinfo=MADRID), 0)
    assert timing.finished_after(last, 0)
    assert not timing.ended_by(last, 0)
    assert timing.ended_by(datetime(2026, 12, 24, 9, 0, tzinfo=MADRID), 0)


def test_count_counts_delivered_runs() -> None:
    timing = every("0 9 * * *", count=3)
    assert len(timing.upcoming(NOW, 10)) == 3
    assert len(timing.upcoming(NOW, 10, delivered=2)) == 1
    assert timing.upcoming(NOW, 10, delivered=3) == []
    slot = datetime(2026, 12, 21, 9, 0, tzinfo=MADRID)
    assert not timing.finished_after(slot, 2)
    assert timing.finished_after(slot, 3)
    assert timing.ended_by(slot, 3) and not timing.ended_by(slot, 2)


def test_a_recurrence_without_an_end_never_finishes() -> None:
    timing = every("0 9 * * *", calendar="ES")
    assert not timing.has_end
    assert not timing.finished_after(NOW, 10_000)
    assert not timing.ended_by(datetime(2099, 1, 1, tzinfo=UTC), 10_000)


def test_until_reads_the_one_shot_forms_and_a_date_means_its_whole_day() -> None:
    assert read_until("2026-12-24", MADRID, NOW, "en") == datetime(2026, 12, 24, 23, 59, 59, tzinfo=MADRID)
    assert read_until("2026-12-24 18:00", MADRID, NOW, "en") == datetime(2026, 12, 24, 18, 0, tzinfo=MADRID)
    assert read_until("in 3 days", MADRID, NOW, "en") == datetime(2026, 12, 23, 13, 0, tzinfo=MADRID)
    with pytest.raises(ToolError) as past:
        read_until("2026-12-01 10:00", MADRID, NOW, "en")
    assert past.value.code == refusals.TIME_IN_PAST


def args(**given: object) -> SimpleNamespace:
    return SimpleNamespace(**{"until": None, "count": None, "skip_holidays": None, **given})


def test_arguments_are_read_and_refused_with_structured_errors() -> None:
    assert read_ends(args(), MADRID, NOW, "en") is None
    ends = read_ends(args(count=3, skip_holidays="es-md"), MADRID, NOW, "en")
    assert ends is not None and (ends.count, ends.calendar, ends.until) == (3, "ES-MD", None)
    with pytest.raises(ToolError) as unknown:
        read_ends(args(skip_holidays="Narnia"), MADRID, NOW, "es")
    assert unknown.value.code == refusals.INVALID_ARGUMENTS
    assert "ES-MD" in errors.message(unknown.value) and "GB-SCT" in errors.message(unknown.value)
    cleared = read_ends(args(until="never", count=0, skip_holidays="none"), MADRID, NOW, "en", clearing=True)
    assert cleared is not None
    assert cleared.applied_to(every("0 9 * * *", count=5, calendar="ES", until=NOW)) == every("0 9 * * *")


def test_an_end_before_the_first_fire_is_refused() -> None:
    with pytest.raises(ToolError) as early:
        check_ends(every("0 9 * * 1", until=datetime(2026, 12, 20, 23, 0, tzinfo=MADRID)), NOW, "en")
    assert early.value.code == refusals.INVALID_ARGUMENTS and "never fire" in errors.message(early.value)
    with pytest.raises(ToolError) as reached:
        check_ends(every("0 9 * * *", count=2), NOW, "en", delivered=2)
    assert reached.value.code == refusals.INVALID_ARGUMENTS
    with pytest.raises(ToolError) as once:
        check_ends(Timing.once(datetime(2026, 12, 24, 9, 0, tzinfo=MADRID), MADRID).ends_with(None, 3, ""), NOW, "en")
    assert once.value.code == refusals.INVALID_ARGUMENTS
    check_ends(every("0 9 * * *", count=3, calendar="ES"), NOW, "en")  # fine: no error


def schedule(timing: Timing) -> Schedule:
    return Schedule(
        id="k3v9q2m8xa", room_id="!r:x", user_id="@u:x", agent_id="a", kind=models.MESSAGE, timing=timing,
        locale="en", created_at=datetime(2026, 12, 20, 12, tzinfo=UTC), text="stand-up",
    )  # fmt: skip


def test_answers_state_the_end_in_both_languages() -> None:
    until = datetime(2026, 12, 24, 23, 59, 59, tzinfo=MADRID)
    s = schedule(every("0 9 * * *", until=until, count=3, calendar="ES"))
    assert (
        describe(s, "en")
        == "every day at 09:00, until Thursday 24 December 2026, 3 times, skipping public holidays in ES"
    )
    assert (
        describe(s, "es")
        == "todos los días a las 09:00, hasta el jueves 24 de diciembre de 2026, 3 veces, salvo festivos de ES"
    )
    timed = schedule(every("0 9 * * *", until=datetime(2026, 12, 24, 18, 0, tzinfo=MADRID), count=1))
    assert describe(timed, "en") == "every day at 09:00, until Thursday 24 December 2026, 18:00, once"
    view = schedule_view(s, NOW, "en")
    assert view["until"] == "2026-12-24T23:59:59+01:00" and view["count"] == 3 and view["skip_holidays"] == "ES"
    assert [t[:10] for t in (f["local"] for f in view["next_fires"])] == ["2026-12-21", "2026-12-22", "2026-12-23"]


def test_entries_of_a_recurrence_with_until_carry_an_end_date() -> None:
    until = datetime(2026, 12, 24, 23, 59, 59, tzinfo=MADRID)
    (entry,) = schedule(every("0 9 * * *", until=until)).entries()
    assert entry.end_date == datetime(2026, 12, 25, 0, 0, 59, tzinfo=MADRID)
    (plain,) = schedule(every("0 9 * * *")).entries()
    assert plain.end_date is None


def test_the_dedupe_key_tells_ends_apart_and_keeps_old_keys() -> None:
    plain = schedule(every("0 9 * * *")).with_dedupe_key().dedupe_key
    counted = schedule(every("0 9 * * *", count=3)).with_dedupe_key().dedupe_key
    assert plain != counted
    when = every("0 9 * * *")
    assert plain == models.dedupe_key(models.MESSAGE, "stand-up", when.text, "Europe/Madrid", "", "!r:x", "@u:x")


@pytest.mark.parametrize("function", ["tools", "fire"])
def test_a_cold_start_does_not_import_the_holiday_data(function: str) -> None:
    code = (
        "import importlib.util, sys\n"
        f"spec = importlib.util.spec_from_file_location('app', 'functions/{function}/app.py')\n"
        "module = importlib.util.module_from_spec(spec)\n"
        "spec.loader.exec_module(module)\n"
        "import cronbell.core.domain.timing, cronbell.core.domain.calendars, cronbell.usecases.fire, "
        "cronbell.usecases.create\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] == 'holidays'))\n"
    )
    assert run_python(code).strip() == "[]"


def test_a_snooze_across_the_end_of_summer_time_moves_by_the_minutes_that_pass() -> None:
    """01:30 CEST on 2026-10-25 snoozed 95 minutes is 01:05 UTC (02:05 CET): the clocks went back an hour
    meanwhile, so the wall-clock sum (03:05 CET) would be an hour late (make verify, seed 417901360)."""
    from cronbell.usecases.snooze import _snooze_target

    base = datetime(2026, 10, 24, 23, 30, tzinfo=UTC).astimezone(MADRID)
    deps = SimpleNamespace(now=lambda: datetime(2026, 10, 24, 20, 0, tzinfo=UTC))
    target, _ = _snooze_target(SimpleNamespace(until=None, minutes=95), base, MADRID, deps, "en")  # type: ignore[arg-type]
    assert target.astimezone(UTC) == datetime(2026, 10, 25, 1, 5, tzinfo=UTC)
