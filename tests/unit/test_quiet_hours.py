"""Quiet hours' periods (docs/semantics.md, "Quiet hours"): a period starts on each listed day and
ends at the next `end` after it, crossing midnight when `end` is earlier; a skipped wall time is
the first instant after the gap, a repeated one its first instant; `start` is quiet, `end` not."""

from __future__ import annotations

from datetime import UTC, date, datetime, time
from zoneinfo import ZoneInfo

from cronbell.core.domain.quiet_hours import DAYS, Period, QuietHours, next_period, period_at, period_from, wall_instant

MADRID = ZoneInfo("Europe/Madrid")
NEW_YORK = ZoneInfo("America/New_York")


def madrid(year: int, month: int, day: int, hour: int, minute: int, second: int = 0, fold: int = 0) -> datetime:
    return datetime(year, month, day, hour, minute, second, tzinfo=MADRID, fold=fold)


def utc(year: int, month: int, day: int, hour: int, minute: int) -> datetime:
    return datetime(year, month, day, hour, minute, tzinfo=UTC)


def test_a_period_crosses_midnight_when_end_is_earlier_than_start() -> None:
    rule = QuietHours("22:00", "07:30", "Europe/Madrid", ("fri",))
    friday = date(2026, 12, 4)
    assert period_from(rule, friday) == Period(madrid(2026, 12, 4, 22, 0), madrid(2026, 12, 5, 7, 30))
    assert period_at(rule, madrid(2026, 12, 5, 3, 0)) == period_from(rule, friday)
    assert period_at(rule, madrid(2026, 12, 4, 21, 59)) is None


def test_start_is_quiet_and_end_is_not() -> None:
    rule = QuietHours("22:00", "07:30", "Europe/Madrid")
    assert period_at(rule, madrid(2026, 12, 4, 22, 0)) is not None
    assert period_at(rule, madrid(2026, 12, 5, 7, 29, 59)) is not None
    assert period_at(rule, madrid(2026, 12, 5, 7, 30)) is None
    same_day = QuietHours("13:00", "15:00", "UTC")
    assert period_at(same_day, utc(2026, 12, 4, 13, 0)) == Period(utc(2026, 12, 4, 13, 0), utc(2026, 12, 4, 15, 0))
    assert period_at(same_day, utc(2026, 12, 4, 15, 0)) is None
    assert period_at(same_day, utc(2026, 12, 4, 12, 59)) is None


def test_the_listed_days_are_the_days_a_period_starts_on() -> None:
    rule = QuietHours("22:00", "07:30", "Europe/Madrid", ("sat",))
    assert period_at(rule, madrid(2026, 12, 6, 3, 0)) is not None  # Sunday morning: Saturday's period
    assert period_at(rule, madrid(2026, 12, 5, 3, 0)) is None  # Saturday morning: Friday's, not listed
    assert period_at(rule, madrid(2026, 12, 6, 23, 0)) is None  # Sunday night: not listed
    assert period_from(rule, date(2026, 12, 4)) is None
    assert QuietHours("09:00", "10:00", "UTC").days == DAYS


def test_the_rules_zone_decides_the_day_and_the_wall_time() -> None:
    rule = QuietHours("22:00", "07:30", "America/New_York", ("fri",))
    # Friday 22:00 in New York is Saturday 03:00 UTC: quiet, though Saturday in UTC
    assert period_at(rule, utc(2026, 12, 5, 3, 0)) is not None
    assert period_at(rule, utc(2026, 12, 4, 22, 0)) is None


def test_a_start_that_spring_forward_skips_is_the_first_instant_after_the_gap() -> None:
    # Madrid, Sunday 29 March 2026: 02:00 jumps to 03:00 (CET to CEST)
    rule = QuietHours("02:30", "04:00", "Europe/Madrid", ("sun",))
    period = period_from(rule, date(2026, 3, 29))
    assert period == Period(utc(2026, 3, 29, 1, 0), utc(2026, 3, 29, 2, 0))
    assert period is not None and period.start.isoformat() == "2026-03-29T03:00:00+02:00"
    assert period_at(rule, utc(2026, 3, 29, 0, 59)) is None  # 01:59 CET, just before the gap


def test_an_end_that_spring_forward_skips_is_the_first_instant_after_the_gap() -> None:
    # New York, Sunday 8 March 2026: 02:00 jumps to 03:00 (EST to EDT)
    rule = QuietHours("01:30", "02:30", "America/New_York", ("sun",))
    assert period_from(rule, date(2026, 3, 8)) == Period(utc(2026, 3, 8, 6, 30), utc(2026, 3, 8, 7, 0))
    assert period_at(rule, utc(2026, 3, 8, 6, 59)) is not None  # 01:59 EST
    assert period_at(rule, utc(2026, 3, 8, 7, 0)) is None  # 03:00 EDT
    gap_only = QuietHours("02:10", "02:50", "America/New_York", ("sun",))
    empty = period_from(gap_only, date(2026, 3, 8))
    assert empty is not None and empty.start == empty.end  # both read as 03:00: holds nothing
    assert period_at(gap_only, utc(2026, 3, 8, 7, 0)) is None


def test_a_repeated_wall_time_is_its_first_instant() -> None:
    # Madrid, Sunday 25 October 2026: 03:00 CEST goes back to 02:00 CET (02:00-03:00 twice)
    rule = QuietHours("02:15", "02:45", "Europe/Madrid", ("sun",))
    period = period_from(rule, date(2026, 10, 25))
    assert period is not None  # (an ambiguous wall time compares unequal to any other zone's: read it in UTC)
    assert (period.start.astimezone(UTC), period.end.astimezone(UTC)) == (
        utc(2026, 10, 25, 0, 15),
        utc(2026, 10, 25, 0, 45),
    )
    assert period_at(rule, madrid(2026, 10, 25, 2, 30)) is not None  # the first 02:30 (CEST)
    assert period_at(rule, madrid(2026, 10, 25, 2, 30, fold=1)) is None  # the second (CET)
    assert period_at(rule, utc(2026, 10, 25, 1, 30)) is None  # the same instant, in UTC
    assert wall_instant(date(2026, 10, 25), time(2, 30), MADRID).utcoffset() == madrid(2026, 7, 1, 12, 0).utcoffset()


def test_instants_in_the_rules_own_zone_are_compared_as_instants_across_a_fold() -> None:
    # New York, Sunday 1 November 2026: 02:00 EDT goes back to 01:00 EST (01:00-02:00 twice).
    # Aware datetimes sharing one zone compare by wall time in Python: a period must not.
    starts_in_fold = QuietHours("01:15", "03:00", "America/New_York", ("sun",))
    second_one_oh_five = datetime(2026, 11, 1, 1, 5, tzinfo=NEW_YORK, fold=1)  # 06:05 UTC, after 01:15 EDT
    assert period_at(starts_in_fold, second_one_oh_five) is not None
    ends_in_fold = QuietHours("00:00", "01:30", "America/New_York", ("sun",))
    second_one_ten = datetime(2026, 11, 1, 1, 10, tzinfo=NEW_YORK, fold=1)  # 06:10 UTC, after 01:30 EDT
    assert period_at(ends_in_fold, second_one_ten) is None
    assert period_at(ends_in_fold, datetime(2026, 11, 1, 1, 10, tzinfo=NEW_YORK)) is not None  # the first
    # and the next period after the second 01:10 is the following Sunday's
    assert next_period(ends_in_fold, second_one_ten) == period_from(ends_in_fold, date(2026, 11, 8))


def test_next_period_is_the_one_holding_the_instant_else_the_first_to_start_after_it() -> None:
    rule = QuietHours("22:00", "07:30", "Europe/Madrid", ("fri", "sun"))
    friday = period_from(rule, date(2026, 12, 4))
    sunday = period_from(rule, date(2026, 12, 6))
    assert next_period(rule, madrid(2026, 12, 5, 1, 0)) == friday  # inside it
    assert next_period(rule, madrid(2026, 12, 4, 22, 0)) == friday  # at its start
    assert next_period(rule, madrid(2026, 12, 5, 7, 30)) == sunday  # at its end: the next one
    assert next_period(rule, madrid(2026, 12, 2, 12, 0)) == friday
    weekly = QuietHours("13:00", "15:00", "UTC", ("wed",))
    assert next_period(weekly, utc(2026, 12, 2, 15, 0)) == period_from(weekly, date(2026, 12, 9))  # a week on
    assert next_period(QuietHours("13:00", "15:00", "UTC", ()), utc(2026, 12, 2, 15, 0)) is None
