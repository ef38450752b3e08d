"""The per-language lexicon: every language module names the same words, and the grammar reads each
language's own words and conventions only in that language."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

import pytest

from cronbell.core.domain.refusals import ToolError
from cronbell.core.language import lexicon
from cronbell.core.language.when import parse_one_shot

MADRID = ZoneInfo("Europe/Madrid")
NOW = datetime(2026, 5, 13, 10, 0, tzinfo=MADRID)  # Wednesday


def test_every_language_module_names_the_same_words() -> None:
    names = [{n for n in vars(module) if n.isupper()} for module in lexicon.LANGUAGES.values()]
    assert all(found == names[0] for found in names), names
    assert {"WEEKDAYS", "MONTHS", "NUMBERS", "HOURS", "PARTS", "FILLERS", "MONTH_FIRST"} <= names[0]


def test_each_weekday_and_month_is_named_in_every_language() -> None:
    for module in lexicon.LANGUAGES.values():
        assert set(module.WEEKDAYS.values()) == set(range(7))
        assert set(module.MONTHS.values()) == set(range(1, 13))


def test_a_language_own_abbreviation_is_read_only_in_that_language() -> None:
    assert parse_one_shot("el dom a las 10:00", NOW, MADRID, "es").at.day == 17
    with pytest.raises(ToolError):
        parse_one_shot("dom at 10:00", NOW, MADRID, "en")


def test_the_numeric_date_order_is_the_language_convention_without_a_region() -> None:
    assert lexicon.month_first("en", "") and not lexicon.month_first("es", "")
    assert not lexicon.month_first("en", "GB") and lexicon.month_first("es", "PA")
    assert parse_one_shot("6/7 at 10:00", NOW, MADRID, "en").at.month == 6
    assert parse_one_shot("6/7 a las 10:00", NOW, MADRID, "es").at.month == 7
