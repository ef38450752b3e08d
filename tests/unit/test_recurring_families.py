"""Recurring phrases widened: 'everyday', 'the 21st of every month', 'twice a day at 9 and 21', a named
clock after 'a' ('todos los días a mediodía'), and an interval within hours ('every 15 minutes between 9
and 17', which fires from 09:00 to 16:45: the last hour named is not included; 'every 2 hours from 8am to
8pm on weekdays'), and a part of the day after the days ('every monday morning at 9')."""

from __future__ import annotations

import pytest

from cronbell.core.domain.refusals import ToolError
from cronbell.core.language.recurring import parse_recurring

CASES = [
    ("7am everyday", "0 7 * * *"),
    ("the 21st of every month at 9", "0 9 21 * *"),
    ("twice a day at 9 and 21", "0 9,21 * * *"),
    ("dos veces al día a las 9 y a las 21", "0 9,21 * * *"),
    ("three times a day at 8, 14 and 20", "0 8,14,20 * * *"),
    ("todos los días a mediodía", "0 12 * * *"),
    ("every 15 minutes between 9 and 17", "*/15 9-16 * * *"),
    ("cada 15 minutos entre las 9 y las 17", "*/15 9-16 * * *"),
    ("cada hora de 8 a 20", "0 8-19 * * *"),
    # a window in am/pm, of whole hours, on the days named after it
    ("every hour between 9am and 5pm", "0 9-16 * * *"),
    ("every 2 hours from 8 to 20", "0 8,10,12,14,16,18 * * *"),
    ("every 3 hours from 6am to 6pm, monday to friday", "0 6,9,12,15 * * 1-5"),
    ("every 30 minutes from 9am to 5pm on weekdays", "*/30 9-16 * * 1-5"),
    ("every hour from 9 to 17 on mondays and fridays", "0 9-16 * * 1,5"),
    ("every hour from 12pm to 3pm", "0 12-14 * * *"),
    ("cada 2 horas de 8 a 20 de lunes a viernes", "0 8,10,12,14,16,18 * * 1-5"),
    # a part of the day after the days: the hour is read in it
    ("every monday morning at 9", "0 9 * * 1"),
    ("every friday afternoon at 3", "0 15 * * 5"),
    ("every sunday evening at 7", "0 19 * * 0"),
    ("weekday evenings at 6", "0 18 * * 1-5"),
    ("on friday afternoons at 3", "0 15 * * 5"),
    ("los viernes por la tarde a las 5", "0 17 * * 5"),
    ("los lunes por la mañana a las 9", "0 9 * * 1"),
    # an hour in the evening is read as a one-shot reads it: 1 to 5 in the afternoon, 12 at midnight
    ("every evening at 5", "0 17 * * *"),
    ("every monday evening at 1", "0 13 * * 1"),
    ("every evening at 12", "0 0 * * *"),
    ("every night at 1", "0 1 * * *"),
    # days left out, before or after the time
    ("every day except sunday at 9", "0 9 * * 1-6"),
    ("every day at 9 except weekends", "0 9 * * 1-5"),
    ("every weekday except friday at 9", "0 9 * * 1-4"),
    ("every day at 9 except on fridays", "0 9 * * 0,1,2,3,4,6"),
    ("every hour from 9 to 17 except weekends", "0 9-16 * * 1-5"),
    ("todos los días menos el domingo a las 9", "0 9 * * 1-6"),
    ("todos los días a las 9 excepto los fines de semana", "0 9 * * 1-5"),
]


@pytest.mark.parametrize(("text", "expected"), CASES)
def test_recurring_phrases(text: str, expected: str) -> None:
    assert parse_recurring(text, 5).expr == parse_recurring(expected, 5).expr


@pytest.mark.parametrize(
    "text",
    [
        "twice a day at 9",
        "every 15 minutes between 17 and 9",
        "cada 15 minutos entre las 9 y las 9",
        "every hour from 9pm to 5",  # the hours must run forward within a day ('from 9 to 5' is office hours)
        "every hour from 9 to 17 on someday",
        "every monday morning",  # a time of day is needed
        "every friday afternoon at 9am",  # 9am is not in the afternoon
        "every morning at 9pm",
        "every monday at 9 except monday",  # nothing left
        "every tuesday at 9 except monday",  # nothing left out
        "every 1st of the month at 9 except sunday",  # days of the month, not of the week
        "every day at 9 except christmas",  # holidays: skip_holidays
    ],
)
def test_a_count_or_a_window_that_does_not_add_up_is_refused(text: str) -> None:
    with pytest.raises(ToolError):
        parse_recurring(text, 5)
