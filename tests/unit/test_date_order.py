"""A numeric date ("3/4") is read in the order of the reader's locale: its region's when it names one
(en-GB, en-AU, es-MX: day first; en-US, es-PA: month first), else its language's."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

import pytest

from cronbell.core.contract import errors
from cronbell.core.domain.refusals import INVALID_TIME, ToolError
from cronbell.core.language import lexicon
from cronbell.core.language.when import accepted_forms, parse_one_shot, parse_until
from cronbell.core.text import texts
from tests.support.memory_stack import MemoryStack

LONDON = ZoneInfo("Europe/London")
NOW = datetime(2026, 5, 13, 10, 23, tzinfo=LONDON)  # Wednesday 13 May 2026


@pytest.mark.parametrize(
    ("locale", "region"),
    [
        ("en", ""),
        ("", ""),
        ("en-GB", "GB"),
        ("en_gb", "GB"),
        ("en_GB.UTF-8", "GB"),
        ("en-Latn-GB", "GB"),
        ("es-419", "419"),
        ("es-MX@currency=MXN", "MX"),
        ("sr-Latn", ""),
        ("x", ""),
    ],
)
def test_a_locale_names_its_region_or_none(locale: str, region: str) -> None:
    assert texts.region(locale) == region


MARCH_4 = "2027-03-04T09:00:00+00:00"  # both are past in May 2026: next year's
APRIL_3 = "2027-04-03T09:00:00+01:00"


@pytest.mark.parametrize(
    ("locale", "expected", "note"),
    [
        ("en", MARCH_4, "3/4 is read month first, as 2027-03-04"),
        ("en-US", MARCH_4, "3/4 is read month first"),
        ("en-PH", MARCH_4, "3/4 is read month first"),
        ("en-GB", APRIL_3, "3/4 is read day first, as 2027-04-03"),
        ("en_AU", APRIL_3, "3/4 is read day first"),
        ("en-IN", APRIL_3, "3/4 is read day first"),
        ("en-IE", APRIL_3, "3/4 is read day first"),
        ("fr-FR", APRIL_3, "3/4 is read day first"),  # no French lexicon: English words, France's order
        ("ja-JP", MARCH_4, "3/4 is read month first"),  # a year-first region: "3/4" is March 4
        ("es", APRIL_3, "3/4 se entiende con el día primero, como 2027-04-03"),
        ("es-MX", APRIL_3, "3/4 se entiende con el día primero"),
        ("es-US", APRIL_3, "3/4 se entiende con el día primero"),
        ("es-PA", MARCH_4, "3/4 se entiende con el mes primero, como 2027-03-04"),
    ],
)
def test_a_date_that_reads_both_ways_is_read_in_the_locales_order_and_said(
    locale: str, expected: str, note: str
) -> None:
    got = parse_one_shot("3/4 at 9", NOW, LONDON, locale)
    assert got.at.isoformat() == expected
    assert any(note in said for said in got.notes), got.notes


@pytest.mark.parametrize(
    ("text", "locale", "expected"),
    [
        ("13/4 at 9", "en-GB", "2027-04-13T09:00:00+01:00"),
        ("25/12/2026 8pm", "en-AU", "2026-12-25T20:00:00+00:00"),
        ("12/25/2026 8pm", "en-US", "2026-12-25T20:00:00+00:00"),
        ("31-12 at 9", "en-NZ", "2026-12-31T09:00:00+00:00"),
        ("5/5 at 9", "en-GB", "2027-05-05T09:00:00+01:00"),  # either order: the same day, nothing said
    ],
)
def test_a_date_that_reads_one_way_only_is_read_so(text: str, locale: str, expected: str) -> None:
    got = parse_one_shot(text, NOW, LONDON, locale)
    assert got.at.isoformat() == expected
    assert not any("is read" in said for said in got.notes), got.notes


@pytest.mark.parametrize(
    ("text", "locale", "reason"),
    [
        ("4/13 at 9", "en-GB", "'4/13' is not a day/month date"),
        ("12/25/2026", "en-AU", "'12/25/2026' is not a day/month date"),
        ("13/4 at 9", "en-US", "'13/4' is not a month/day date"),
        ("13/4 at 9", "en", "'13/4' is not a month/day date"),
        ("12/24 a las 9", "es-MX", "'12/24' no es una fecha día/mes"),
        ("24/12 a las 9", "es-PA", "'24/12' no es una fecha mes/día"),
    ],
)
def test_a_date_that_reads_only_the_other_way_is_refused_never_turned(text: str, locale: str, reason: str) -> None:
    with pytest.raises(ToolError) as info:
        parse_one_shot(text, NOW, LONDON, locale)
    assert info.value.code == INVALID_TIME
    assert reason in errors.message(info.value, locale)


def test_a_refusal_lists_the_numeric_form_in_the_locales_order() -> None:
    british = accepted_forms("en", lexicon.month_first("en", "GB"))
    american = accepted_forms("en", lexicon.month_first("en", "US"))
    assert any("24/12 8pm (day/month)" in line for line in british)
    assert not any("month/day" in line for line in british)
    assert any("12/24 8pm (month/day)" in line for line in american)
    assert american == accepted_forms("en")
    panama = accepted_forms("es", lexicon.month_first("es", "PA"))
    assert any("12/24 a las 20:00 (mes/día)" in line for line in panama)
    with pytest.raises(ToolError) as info:
        parse_one_shot("4/13 at 9", NOW, LONDON, "en-GB")
    message = errors.message(info.value, "en-GB")
    assert "day/month" in message and "(month/day)" not in message
    assert info.value.details["accepted"] == british


def test_an_end_is_read_in_the_locales_order_too() -> None:
    assert parse_until("1/6/2027", NOW, LONDON, "en-GB").at.isoformat() == "2027-06-01T23:59:59+01:00"
    assert parse_until("1/6/2027", NOW, LONDON, "en-US").at.isoformat() == "2027-01-06T23:59:59+00:00"


def test_a_tool_call_reads_the_date_in_the_contexts_locale() -> None:
    """Through the envelope: the same words from a British and an American user are two days."""
    stack = MemoryStack()  # Monday 30 Nov 2026, 09:00 in Madrid
    british = stack.call("create_reminder", {"message": "pay rent", "time": "5/12 at 9"}, locale="en-GB")
    american = stack.call("create_reminder", {"message": "pay rent", "time": "5/12 at 9"}, locale="en-US")
    assert british["ok"] and american["ok"], (british, american)
    assert british["result"]["next_fire"]["local"] == "2026-12-05T09:00:00+01:00"
    assert american["result"]["next_fire"]["local"] == "2027-05-12T09:00:00+02:00"
    assert "5/12 is read day first, as 2026-12-05" in british["text"]
    assert "5/12 is read month first, as 2027-05-12" in american["text"]
    refused = stack.call("create_reminder", {"message": "pay rent", "time": "12/25 at 9"}, locale="en-GB")
    assert refused["error"]["code"] == INVALID_TIME and "is not a day/month date" in refused["error"]["message"]
    assert len(stack.call("list_reminders", {})["result"]["schedules"]) == 2
