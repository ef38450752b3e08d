"""Everyday idioms of time: "same time tomorrow", "a week on tuesday", "tuesday week", "in an hour's
time", "end of play". Now is Saturday 5 December 2026, 10:23:17 in London."""

from __future__ import annotations

import re
from datetime import datetime
from zoneinfo import ZoneInfo

import pytest

from cronbell.core.domain.refusals import INVALID_TIME, ToolError
from cronbell.core.language.when import parse_one_shot, parse_until

LONDON = ZoneInfo("Europe/London")
MADRID = ZoneInfo("Europe/Madrid")
NOW = datetime(2026, 12, 5, 10, 23, 17, tzinfo=LONDON)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("same time tomorrow", "2026-12-06T10:23"),  # 10:23 on the 24-hour clock, never 22:23
        ("at the same time tomorrow", "2026-12-06T10:23"),
        ("tomorrow, same time", "2026-12-06T10:23"),
        ("tomorrow at this time", "2026-12-06T10:23"),
        ("this time next week", "2026-12-12T10:23"),
        ("same time next month", "2027-01-05T10:23"),
        ("this time next year", "2027-12-05T10:23"),
        ("same time friday", "2026-12-11T10:23"),
        ("this time on monday", "2026-12-07T10:23"),
        ("same time the day after tomorrow", "2026-12-07T10:23"),
        ("same time in 3 days", "2026-12-08T10:23"),
        ("same time on christmas", "2026-12-25T10:23"),
    ],
)
def test_the_same_time_is_this_minute_on_the_day_named(text: str, expected: str) -> None:
    assert parse_one_shot(text, NOW, LONDON, "en-GB").at.isoformat(timespec="minutes").startswith(expected)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("mañana a esta hora", "2026-12-06T11:23"),
        ("mañana a la misma hora", "2026-12-06T11:23"),
        ("a la misma hora la semana que viene", "2026-12-12T11:23"),
        ("el viernes a esta misma hora", "2026-12-11T11:23"),
    ],
)
def test_the_same_time_in_spanish(text: str, expected: str) -> None:
    assert parse_one_shot(text, NOW, MADRID, "es").at.isoformat(timespec="minutes").startswith(expected)


@pytest.mark.parametrize(("clock", "expected"), [((23, 45), "2026-12-06T23:45"), ((0, 30), "2026-12-06T00:30")])
def test_the_same_time_late_or_early_is_that_clock(clock: tuple[int, int], expected: str) -> None:
    now = NOW.replace(hour=clock[0], minute=clock[1])
    assert parse_one_shot("same time tomorrow", now, LONDON).at.isoformat(timespec="minutes").startswith(expected)


def test_the_same_time_across_a_clock_change_keeps_the_wall_clock() -> None:
    before = datetime(2027, 3, 27, 10, 0, tzinfo=LONDON)  # GMT; the clocks go forward on the 28th
    assert parse_one_shot("same time tomorrow", before, LONDON).at.isoformat() == "2027-03-28T10:00:00+01:00"


@pytest.mark.parametrize(
    "text", ["same time", "at this time", "this time", "same time tomorrow at 9", "same time today"]
)
def test_the_same_time_without_a_day_or_with_a_time_or_today_is_refused(text: str) -> None:
    with pytest.raises(ToolError) as info:
        parse_one_shot(text, NOW, LONDON)
    assert info.value.code in (INVALID_TIME, "time_in_past")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("a week today", "2026-12-12T10:23"),
        ("a week today at 3pm", "2026-12-12T15:00"),
        ("a week tomorrow at 10", "2026-12-13T10:00"),
        ("a week on tuesday", "2026-12-15T09:00"),
        ("tuesday week", "2026-12-15T09:00"),
        ("tuesday week at 3pm", "2026-12-15T15:00"),
        ("a fortnight on friday", "2026-12-25T09:00"),
        ("2 weeks on friday", "2026-12-25T09:00"),
        ("two weeks tomorrow", "2026-12-20T09:00"),
        ("in an hour's time", "2026-12-05T11:23"),
        ("in an hour\u2019s time", "2026-12-05T11:23"),
        ("in 10 minutes time", "2026-12-05T10:33"),
        ("in 3 days' time", "2026-12-08T10:23"),
        ("in a week's time", "2026-12-12T10:23"),
        ("end of play", "2026-12-05T18:00"),
        ("by end of play friday", "2026-12-11T18:00"),
    ],
)
def test_british_idioms_of_days_and_amounts(text: str, expected: str) -> None:
    assert parse_one_shot(text, NOW, LONDON, "en-GB").at.isoformat(timespec="minutes").startswith(expected)


def test_an_end_said_as_the_same_time_is_that_instant() -> None:
    assert parse_until("same time next week", NOW, LONDON).at.isoformat() == "2026-12-12T10:23:00+00:00"


@pytest.mark.parametrize(
    ("text", "language", "expected"),
    [
        ("next business day", "en", "2026-12-07T09:00"),  # Monday: a day named without a time, 09:00 (said)
        ("in 1 business day", "en", "2026-12-07T10:23"),  # an amount: at this minute
        ("the next business day at 9", "en", "2026-12-07T09:00"),
        ("next working day at 3pm", "en", "2026-12-07T15:00"),
        ("in 2 working days at 9am", "en", "2026-12-08T09:00"),
        ("in 2 saturdays at 10", "en", "2026-12-19T10:00"),
        ("el siguiente día laborable a las 9", "es", "2026-12-07T09:00"),
        ("en 2 días hábiles a las 10", "es", "2026-12-08T10:00"),
    ],
)
def test_counted_days_at_a_time_of_day(text: str, language: str, expected: str) -> None:
    assert parse_one_shot(text, NOW, LONDON, language).at.isoformat(timespec="minutes").startswith(expected)


@pytest.mark.parametrize(
    ("text", "expected", "said"),
    [
        ("in 3 days at 3", "2026-12-08T15:00", True),  # as "friday at 3": a bare 1 to 5 on a day is the afternoon
        ("in 1 business day at 4", "2026-12-07T16:00", True),
        ("in 3 days at 3am", "2026-12-08T03:00", False),
        ("in 3 days at 03:00", "2026-12-08T03:00", False),
        ("in 3 days at 9", "2026-12-08T09:00", False),
    ],
)
def test_a_bare_hour_of_one_to_five_on_a_day_ahead_is_the_afternoon(text: str, expected: str, said: bool) -> None:
    got = parse_one_shot(text, NOW, LONDON)
    assert got.at.isoformat(timespec="minutes").startswith(expected)
    assert any("in the afternoon" in note for note in got.notes) is said, got.notes


@pytest.mark.parametrize(
    ("said", "meant", "locale"),
    [
        # emoji and other pictographs, with their skin tones, joiners and variation selectors, mean nothing
        ("in 20 mins 🙏", "in 20 mins", "en"),
        ("tomorrow at 9 ⏰", "tomorrow at 9", "en"),
        ("👍🏽 tomorrow 9am", "tomorrow 9am", "en"),
        ("friday at 5 👨‍👩‍👧 ❤️", "friday at 5", "en"),
        ("mañana a las 9 😊", "mañana a las 9", "es"),
        # thanks, as please, is no part of the time
        ("tomorrow at 9, thanks", "tomorrow at 9", "en"),
        ("tomorrow at 9 thank you!", "tomorrow at 9", "en"),
        ("mañana a las 9, gracias", "mañana a las 9", "es"),
        ("mañana a las 9 porfa", "mañana a las 9", "es"),
        ("mañana a las 9, muchas gracias", "mañana a las 9", "es"),
        # an amount without its "in" is from now; "10h" is still ten o'clock
        ("10 min", "in 10 min", "en"),
        ("20m", "in 20 minutes", "en"),
        ("2 hours", "in 2 hours", "en"),
        ("1h30m", "in 1h30m", "en"),
        ("3 days", "in 3 days", "en"),
        ("10 minutos", "en 10 minutos", "es"),
        # a US region's name alone, as people say it
        ("5pm pacific", "5pm pacific time", "en-US"),
        ("noon eastern", "noon eastern time", "en-US"),
        ("9am central", "9am central time", "en-US"),
    ],
)
def test_what_people_add_to_a_time_or_leave_out_reads_as_the_time_alone(said: str, meant: str, locale: str) -> None:
    assert parse_one_shot(said, NOW, MADRID, locale).at == parse_one_shot(meant, NOW, MADRID, locale).at


def test_thanks_within_a_holidays_name_are_the_name() -> None:
    """ "gracias" is a word of courtesy, but not in "el día de Acción de Gracias" (a US holiday)."""
    new_york = ZoneInfo("America/New_York")
    now = datetime(2027, 1, 4, 5, 10, tzinfo=new_york)
    thanksgiving = datetime(2027, 11, 25, 9, 0, tzinfo=new_york)
    assert parse_one_shot("el día de Acción de Gracias", now, new_york, "es").at == thanksgiving
    assert parse_one_shot("el día de acción de gracias, gracias", now, new_york, "es").at == thanksgiving


@pytest.mark.parametrize(("text", "clock"), [("10h", "10:00"), ("9h30", "09:30"), ("21h", "21:00")])
def test_hours_written_with_an_h_stay_a_clock_not_an_amount(text: str, clock: str) -> None:
    assert f"{parse_one_shot(text, NOW, MADRID, 'es').at:%H:%M}" == clock


@pytest.mark.parametrize(
    ("said", "meant", "locale"),
    [
        ("every weekday at 9 am 💊", "every weekday at 9 am", "en"),
        ("every day at 9 please", "every day at 9", "en"),
        ("every monday at 10, thanks", "every monday at 10", "en"),
        ("todos los días a las 9 por favor", "todos los días a las 9", "es"),
        ("de lunes a viernes a las 9 ⏰", "de lunes a viernes a las 9", "es"),
    ],
)
def test_a_recurrence_reads_without_its_courtesy_or_emoji(said: str, meant: str, locale: str) -> None:
    from cronbell.core.language.recurring import parse_recurring

    assert parse_recurring(said, 5, locale).expr == parse_recurring(meant, 5, locale).expr


@pytest.mark.parametrize("text", ["9", "15", "10 minutes ago", "minutes"])
def test_a_number_alone_or_an_amount_in_the_past_is_still_refused(text: str) -> None:
    with pytest.raises(ToolError):
        parse_one_shot(text, NOW, LONDON, "en-GB")


@pytest.mark.parametrize("locale", ["en", "es"])
def test_the_accepted_forms_of_a_refusal_name_no_year_before_now(locale: str) -> None:
    later = datetime(2030, 1, 7, 8, tzinfo=MADRID)
    with pytest.raises(ToolError) as refused:
        parse_one_shot("whenever suits you", later, MADRID, locale)
    assert refused.value.code == INVALID_TIME
    years = {int(y) for form in refused.value.details["accepted"] for y in re.findall(r"\b20\d\d\b", form)}
    assert years and min(years) >= 2030
