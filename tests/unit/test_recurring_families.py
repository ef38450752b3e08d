"""Recurring phrases widened: 'everyday', 'the 21st of every month', 'twice a day at 9 and 21', a named
clock after 'a' ('todos los días a mediodía'), and an interval within hours ('every 15 minutes between 9
and 17', which fires from 09:00 to 16:45: the last hour named is not included)."""

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
]


@pytest.mark.parametrize(("text", "expected"), CASES)
def test_recurring_phrases(text: str, expected: str) -> None:
    assert parse_recurring(text, 5).expr == parse_recurring(expected, 5).expr


@pytest.mark.parametrize(
    "text", ["twice a day at 9", "every 15 minutes between 17 and 9", "cada 15 minutos entre las 9 y las 9"]
)
def test_a_count_or_a_window_that_does_not_add_up_is_refused(text: str) -> None:
    with pytest.raises(ToolError):
        parse_recurring(text, 5)
