"""Phrases written outside the project (tests/unit/outside_phrases.tsv), through the tools: every one is read
as its writer meant, but for the ones below, each a reading or refusal the project chose and documents.
`python -m bench.phrases_outside` prints the figures."""

from __future__ import annotations

import pytest

from bench.phrases_outside import Answer, read

# phrase -> why it is not read as its writer expected (README, docs/skill.md)
CHOSEN = {
    "next week": "a week without its day is asked again",
    "every monday at 10am starting dec 14": "a start date goes with every N weeks, days or months, as a date",
    "every business day at 8": "business days need the skip_holidays calendar",
    "cada día laborable a las 8:15": "business days need the skip_holidays calendar",
    "every 4 hours between 8am and 8pm": "a window leaves out the last hour it names",
    "every tuesday at 9 and every thursday at 3": "two schedules are two reminders",
    "at 9:00 and 13:30 on weekdays": "one schedule fires at one minute of each hour it names",
    "every friday afternoon": "a recurring phrase needs a time of day",
    "every monday morning": "a recurring phrase needs a time of day",
    "every 90 minutes from 9am to 6pm": "every N minutes needs N to divide 60",
    "every 2nd and 4th thursday at 3pm": "two places of a weekday in a month are two reminders",
    "every sunday at 10pm CET": "a recurrence runs in a place's zone: an abbreviation (an offset) goes in timezone",
}


@pytest.fixture(scope="module")
def answers() -> list[Answer]:
    return read()


def test_every_phrase_written_outside_is_read_as_meant_but_the_chosen_ones(answers: list[Answer]) -> None:
    missed = {a.phrase: (a.got, a.expected) for a in answers if a.outcome != "meant"}
    assert sorted(missed) == sorted(CHOSEN), missed


def test_none_of_the_chosen_ones_is_misread_but_the_window_end(answers: list[Answer]) -> None:
    misread = [a.phrase for a in answers if a.outcome == "misread"]
    assert misread == ["every 4 hours between 8am and 8pm"]
