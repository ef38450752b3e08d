"""The 12-hour rule: an hour of 1 to 12 said without am/pm, a part of the day or a day other than today
is whichever of its two readings comes first, never more than 12 hours away; with a day named, an hour of
1 to 5 alone is in the afternoon. The answer says which reading was taken.
Expected times are worked out by hand for the `now` of each case."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

import pytest

from cronbell.core.domain.refusals import TIME_IN_PAST, ToolError
from cronbell.core.language.when import parse_one_shot

MADRID = ZoneInfo("Europe/Madrid")


def at(day: int, hour: int, minute: int) -> datetime:
    return datetime(2027, 1, day, hour, minute, tzinfo=MADRID)  # Monday 2027-01-04 onwards


CASES = [
    # (phrase, language, now, expected)
    ("at 4:30", "en", at(4, 5, 10), at(4, 16, 30)),
    ("at 4:30", "en", at(4, 3, 0), at(4, 4, 30)),
    ("at 4:30", "en", at(4, 17, 0), at(5, 4, 30)),
    ("4:30", "en", at(4, 16, 29), at(4, 16, 30)),
    ("at 12", "en", at(4, 13, 0), at(5, 0, 0)),
    ("at 12", "en", at(4, 11, 0), at(4, 12, 0)),
    ("at 8 o'clock", "en", at(4, 8, 5), at(4, 20, 0)),
    ("half past 7", "en", at(4, 20, 0), at(5, 7, 30)),
    ("today at 9", "en", at(4, 10, 0), at(4, 21, 0)),
    ("a las cuatro", "es", at(4, 5, 10), at(4, 16, 0)),
    ("a las 7 y cuarto", "es", at(4, 19, 20), at(5, 7, 15)),
    ("hoy a las 11", "es", at(4, 12, 0), at(4, 23, 0)),
    # not bare: the 24-hour clock, an am/pm or a part of the day decides
    ("at 16:30", "en", at(4, 5, 10), at(4, 16, 30)),
    ("at 04:30", "en", at(4, 5, 10), at(5, 4, 30)),
    ("at 4:30am", "en", at(4, 5, 10), at(5, 4, 30)),
    ("a las 4 de la mañana", "es", at(4, 5, 10), at(5, 4, 0)),
    ("tomorrow at 3 in the morning", "en", at(4, 5, 10), at(5, 3, 0)),  # the small hours are the morning's too
    ("mañana a las 2 de la mañana", "es", at(4, 5, 10), at(5, 2, 0)),
    # with a day named, an hour of 1 to 5 alone is in the afternoon, 6 to 12 as said
    ("tomorrow at 4", "en", at(4, 5, 10), at(5, 16, 0)),
    ("friday at 2:30", "en", at(4, 5, 10), at(8, 14, 30)),
    ("mañana a la una", "es", at(4, 5, 10), at(5, 13, 0)),
    ("tomorrow at 6", "en", at(4, 5, 10), at(5, 6, 0)),
    ("tomorrow at 9", "en", at(4, 5, 10), at(5, 9, 0)),
    ("tomorrow at 4am", "en", at(4, 5, 10), at(5, 4, 0)),
    ("mañana a las 4 de la madrugada", "es", at(4, 5, 10), at(5, 4, 0)),
]


@pytest.mark.parametrize(("text", "language", "now", "expected"), CASES, ids=[c[0] + " " + str(c[2]) for c in CASES])
def test_a_bare_hour_is_the_next_of_its_two_readings(
    text: str, language: str, now: datetime, expected: datetime
) -> None:
    assert parse_one_shot(text, now, MADRID, language).at == expected


@pytest.mark.parametrize(
    ("language", "text", "said"),
    [("en", "at 4:30", "read as 16:30, the next 4:30 on a 12-hour clock"), ("es", "a las 4:30", "leído como 16:30")],
)
def test_the_answer_says_the_reading(language: str, text: str, said: str) -> None:
    notes = parse_one_shot(text, at(4, 5, 10), MADRID, language).notes
    assert any(said in note for note in notes), notes


def test_the_afternoon_reading_of_an_hour_with_a_day_is_said() -> None:
    notes = parse_one_shot("tomorrow at 4", at(4, 5, 10), MADRID, "en").notes
    assert any("read as 16:00" in note for note in notes), notes


def test_today_with_both_readings_past_is_refused_as_past() -> None:
    with pytest.raises(ToolError) as info:
        parse_one_shot("today at 9:15", at(4, 21, 30), MADRID, "en")
    assert info.value.code in (TIME_IN_PAST, "invalid_time")


def test_tonight_at_one_said_after_midnight_is_the_coming_one() -> None:
    assert parse_one_shot("tonight at 1", at(5, 0, 30), MADRID, "en").at == at(5, 1, 0)
    assert parse_one_shot("esta noche a la 1", at(5, 0, 30), MADRID, "es").at == at(5, 1, 0)
    assert parse_one_shot("tonight at 1", at(4, 22, 0), MADRID, "en").at == at(5, 1, 0)
