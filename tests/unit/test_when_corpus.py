"""The one-shot grammar on the proxy corpus (tests/unit/one_shot_corpus.tsv): phrases as people type them in
English and Spanish, each with its zone, reference time and the instant it means, worked out from a calendar.
Goal of the grammar: at least 90% resolved as meant, in each language, and never a misread; every phrase
that is past or ambiguous is refused with a structured error. `python -m bench.phrases` prints the figures."""

from __future__ import annotations

from collections import Counter

import pytest

from bench.phrases import (
    FAMILIES,
    FAMILIES_CORPUS,
    Row,
    cronbell_reader,
    load,
    load_recurring,
    measure,
    recurring_outcome,
    verdict,
)
from cronbell.core.contract import errors
from cronbell.core.domain.refusals import INVALID_TIME, TIME_IN_PAST, ToolError
from cronbell.core.language.when import parse_one_shot

ROWS = load()
FAMILY_ROWS = load(FAMILIES_CORPUS)
RECURRING = load_recurring()


def test_the_corpus_is_broad_and_balanced() -> None:
    languages = Counter(row.language for row in ROWS)
    kinds = Counter(row.kind for row in ROWS)
    zones = {row.zone.key for row in ROWS}
    assert len(ROWS) >= 400 and abs(languages["en"] - languages["es"]) <= len(ROWS) // 10
    assert all(kinds[kind] >= 40 for kind in ("date", "datetime", "time", "relative")), kinds
    assert len(zones) >= 3 and sum(row.expected is None for row in ROWS) >= 20


def test_no_phrase_is_misread_and_at_least_90_percent_resolve() -> None:
    scores, answers = measure(ROWS, cronbell_reader)
    misread = [(row.phrase, row.language, got) for row, got, outcome in answers if outcome == "misread"]
    assert misread == []
    for language in ("en", "es"):
        score = scores[language]
        assert score.meant >= 0.9 * score.answerable, score
        assert score.refused_right == score.refusals, score


@pytest.mark.parametrize("row", [row for row in ROWS if row.expected is None], ids=lambda row: row.phrase)
def test_past_and_ambiguous_phrases_are_refused_with_a_structured_error(row: Row) -> None:
    with pytest.raises(ToolError) as info:
        parse_one_shot(row.phrase, row.now, row.zone, row.language)
    assert info.value.code in (INVALID_TIME, TIME_IN_PAST)
    assert errors.message(info.value, row.language)


def test_the_verdicts_tell_a_misread_from_a_refusal() -> None:
    """The measure itself: a wrong instant is a misread, a refusal of an answerable phrase is not."""
    row = next(row for row in ROWS if row.expected is not None)
    refusal_row = next(row for row in ROWS if row.expected is None)
    assert row.expected is not None
    assert verdict(row, row.expected) == "meant"
    assert verdict(row, row.expected.replace(hour=(row.expected.hour + 1) % 24)) == "misread"
    assert verdict(row, None) == "refused"
    assert verdict(refusal_row, None) == "meant"
    assert verdict(refusal_row, refusal_row.now) == "misread"


def test_the_families_corpus_covers_every_family_in_both_languages() -> None:
    families = Counter((row.family, row.language) for row in FAMILY_ROWS)
    one_shot = [family for family in FAMILIES if family != "recurring"]
    assert all(families[(family, language)] >= 20 for family in one_shot for language in ("en", "es")), families
    refusals = sum(row.expected is None for row in FAMILY_ROWS) + sum(row.expected is None for row in RECURRING)
    assert len(FAMILY_ROWS) + len(RECURRING) >= 1500 and refusals >= 150
    assert {row.language for row in RECURRING} == {"en", "es"}


def test_the_families_corpus_is_read_as_meant_at_least_97_percent_and_never_misread() -> None:
    scores, answers = measure(FAMILY_ROWS, cronbell_reader)
    misread = [(row.phrase, row.language, got) for row, got, outcome in answers if outcome == "misread"]
    assert misread == []
    for family in FAMILIES:
        if family in scores and scores[family].answerable:
            assert scores[family].meant >= 0.97 * scores[family].answerable, (family, scores[family])
    assert scores["all"].refused_right == scores["all"].refusals


def test_the_recurring_corpus_is_read_as_meant_and_every_refusal_refused() -> None:
    outcomes = [(row, *recurring_outcome(row)) for row in RECURRING]
    assert [(row.phrase, got) for row, outcome, got in outcomes if outcome == "misread"] == []
    meant = sum(outcome == "meant" for row, outcome, _ in outcomes if row.expected is not None)
    assert meant >= 0.97 * sum(row.expected is not None for row in RECURRING)
    assert all(outcome == "meant" for row, outcome, _ in outcomes if row.expected is None)
