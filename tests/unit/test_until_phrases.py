"""`until` read as a one-shot time would be, except that a day named alone means through that day:
today's date, "today" and "hoy" are ends while the day lasts, and "tonight" is the same 21:00 in
both places, in English and Spanish."""

from __future__ import annotations

from datetime import datetime, time
from zoneinfo import ZoneInfo

import pytest

from bench.phrases import load
from cronbell.core.contract import errors
from cronbell.core.domain import refusals
from cronbell.core.domain.refusals import ToolError
from cronbell.core.language.when import parse_one_shot, parse_until
from cronbell.core.text import texts
from cronbell.usecases.planning import read_until

MADRID = ZoneInfo("Europe/Madrid")
NEW_YORK = ZoneInfo("America/New_York")
# Sunday 20 December 2026, 12:00 in Madrid
NOW = datetime(2026, 12, 20, 12, 0, tzinfo=MADRID)


@pytest.mark.parametrize(
    ("text", "locale", "expected"),
    [
        # a day alone: through its last second, today's included
        ("today", "en", datetime(2026, 12, 20, 23, 59, 59)),
        ("hoy", "es", datetime(2026, 12, 20, 23, 59, 59)),
        ("2026-12-20", "en", datetime(2026, 12, 20, 23, 59, 59)),
        ("2026-12-20", "es", datetime(2026, 12, 20, 23, 59, 59)),
        ("12/20", "en", datetime(2026, 12, 20, 23, 59, 59)),
        ("20/12", "es", datetime(2026, 12, 20, 23, 59, 59)),
        ("December 20", "en", datetime(2026, 12, 20, 23, 59, 59)),
        ("el 20 de diciembre", "es", datetime(2026, 12, 20, 23, 59, 59)),
        ("the 20th", "en", datetime(2026, 12, 20, 23, 59, 59)),
        ("tomorrow", "en", datetime(2026, 12, 21, 23, 59, 59)),
        ("mañana", "es", datetime(2026, 12, 21, 23, 59, 59)),
        ("friday", "en", datetime(2026, 12, 25, 23, 59, 59)),
        ("el viernes", "es", datetime(2026, 12, 25, 23, 59, 59)),
        # a time of day, a part of the day or "end of the day": the one-shot's instant
        ("tonight", "en", datetime(2026, 12, 20, 21, 0)),
        ("esta noche", "es", datetime(2026, 12, 20, 21, 0)),
        ("tonight at 11", "en", datetime(2026, 12, 20, 23, 0)),
        ("esta noche a las 11", "es", datetime(2026, 12, 20, 23, 0)),
        ("this afternoon", "en", datetime(2026, 12, 20, 15, 0)),
        ("esta tarde", "es", datetime(2026, 12, 20, 15, 0)),
        ("tomorrow morning", "en", datetime(2026, 12, 21, 9, 0)),
        ("mañana por la mañana", "es", datetime(2026, 12, 21, 9, 0)),
        ("end of the day", "en", datetime(2026, 12, 20, 18, 0)),
        ("al final del día", "es", datetime(2026, 12, 20, 18, 0)),
        ("tomorrow at 18:00", "en", datetime(2026, 12, 21, 18, 0)),
        ("2026-12-20 18:00", "en", datetime(2026, 12, 20, 18, 0)),
        ("in 3 hours", "en", datetime(2026, 12, 20, 15, 0)),
        ("dentro de 2 días", "es", datetime(2026, 12, 22, 12, 0)),
    ],
)
def test_until_reads_a_day_alone_as_its_end_and_a_time_as_a_one_shot_would(
    text: str, locale: str, expected: datetime
) -> None:
    wanted = expected.replace(tzinfo=MADRID)
    assert read_until(text, MADRID, NOW, locale) == wanted
    if wanted.time() != time(23, 59, 59):
        assert parse_one_shot(text, NOW, MADRID, locale).at == wanted


@pytest.mark.parametrize(
    ("text", "locale"), [("today", "en"), ("hoy", "es"), ("2026-12-20", "en"), ("20/12/2026", "es")]
)
def test_today_is_an_end_until_its_last_second(text: str, locale: str) -> None:
    late = datetime(2026, 12, 20, 23, 59, 0, tzinfo=MADRID)
    assert read_until(text, MADRID, late, locale) == datetime(2026, 12, 20, 23, 59, 59, tzinfo=MADRID)
    after = datetime(2026, 12, 21, 0, 0, 30, tzinfo=MADRID)
    if text[0].isdigit():  # the date is over once the day is
        with pytest.raises(ToolError) as past:
            read_until(text, MADRID, after, locale)
        assert past.value.code == refusals.TIME_IN_PAST
    else:  # "today" is the new day
        assert read_until(text, MADRID, after, locale) == datetime(2026, 12, 21, 23, 59, 59, tzinfo=MADRID)


def test_a_day_number_said_in_the_last_minute_of_its_day_is_that_day() -> None:
    late = datetime(2026, 12, 20, 23, 59, 30, tzinfo=MADRID)
    assert read_until("the 20th", MADRID, late, "en") == datetime(2026, 12, 20, 23, 59, 59, tzinfo=MADRID)
    assert read_until("el día 20", MADRID, late, "es") == datetime(2026, 12, 20, 23, 59, 59, tzinfo=MADRID)


def test_the_end_of_today_is_in_the_schedule_zone() -> None:
    # 02:00 on the 21st in Madrid is still the 20th in New York
    now = datetime(2026, 12, 21, 2, 0, tzinfo=MADRID)
    assert read_until("today", NEW_YORK, now, "en") == datetime(2026, 12, 20, 23, 59, 59, tzinfo=NEW_YORK)
    assert read_until("today", MADRID, now, "en") == datetime(2026, 12, 21, 23, 59, 59, tzinfo=MADRID)


@pytest.mark.parametrize(("text", "locale"), [("tonight", "en"), ("esta noche", "es"), ("this morning", "en")])
def test_a_part_of_today_already_over_is_refused_as_past(text: str, locale: str) -> None:
    with pytest.raises(ToolError) as past:
        read_until(text, MADRID, datetime(2026, 12, 20, 22, 0, tzinfo=MADRID), locale)
    assert past.value.code == refusals.TIME_IN_PAST


def test_on_the_corpus_until_is_the_one_shot_or_the_end_of_a_day_named_alone() -> None:
    """Every phrase of the one-shot corpus: `until` is the same instant, or, when the one-shot took
    the default hour of a day named alone, the last second of that day or an earlier one (a day
    number said on its own day: today for an end, next month for a one-shot)."""
    differ = 0
    for row in load():
        try:
            shot = parse_one_shot(row.phrase, row.now, row.zone, row.language)
        except ToolError:
            continue
        end = parse_until(row.phrase, row.now, row.zone, row.language).at
        if end == shot.at:
            continue
        differ += 1
        default = texts.say("default_hour", row.language, clock="09:00")
        assert default in shot.notes, row
        assert end.time() == time(23, 59, 59) and end.date() <= shot.at.date(), row
    assert differ >= 40  # the corpus names many days alone


def test_a_holiday_named_as_an_end_is_read_in_the_skip_holidays_country() -> None:
    from types import SimpleNamespace

    from cronbell.usecases.planning import read_ends

    now = datetime(2026, 5, 13, 10, 23, tzinfo=ZoneInfo("Europe/Madrid"))
    args = SimpleNamespace(until="Thanksgiving", count=None, skip_holidays="US")
    ends = read_ends(args, ZoneInfo("Europe/Madrid"), now, "en")
    assert ends is not None and f"{ends.until:%Y-%m-%d %H:%M:%S}" == "2026-11-26 23:59:59"
    with pytest.raises(ToolError) as info:  # without a calendar, the zone's country: Spain keeps no Thanksgiving
        read_ends(
            SimpleNamespace(until="Thanksgiving", count=None, skip_holidays=None), ZoneInfo("Europe/Madrid"), now, "en"
        )
    assert "not a holiday in ES" in errors.message(info.value)
