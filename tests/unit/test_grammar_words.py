"""A language is a catalog and a lexicon: the grammar modules build their patterns from the lexicon and
hold no word of any language, and a language the grammar has never seen is read once its lexicon is
listed."""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path

import pytest

from cronbell.core.language import (
    amounts,
    business_phrases,
    clocks,
    cron_days,
    cron_phrases,
    day_parts,
    day_words,
    days,
    named_days,
    named_zones,
    when,
)
from tests.support.python_process import run_python

# the grammar modules that read only their lexicon's words
GRAMMAR = [
    Path(m.__file__)
    for m in (
        cron_days,
        cron_phrases,
        when,
        business_phrases,
        clocks,
        day_parts,
        named_zones,
        named_days,
        day_words,
        days,
        amounts,
    )
]
# technical tokens, not words of a language: interval units, am/pm, the ISO zone mark, on_holiday values,
# fields of a refusal's details, the kinds of a local time (zones.localize), the zone
# database's folders
ALLOWED = {
    "weeks", "days", "am", "pm", "ap", "utc", "skip", "before", "after", "now", "nonexistent", "ambiguous", "gmt",
    "posix", "right",
}  # fmt: skip
# the functions whose string arguments name catalog keys, lexicon names or match groups, never words
_NAMING_CALLS = {
    "phrase",
    "say",
    "refusal",
    "Word",
    "words",
    "either",
    "some",
    "each",
    "union",
    "own",
    "get",
    "getattr",
}


def _docstrings(tree: ast.AST) -> set[int]:
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.FunctionDef | ast.ClassDef) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                found.add(id(first.value))
    return found


def _names(tree: ast.AST) -> set[int]:
    """String constants that name something: a match group (`m["rest"]`), a catalog key or lexicon name
    (`phrase("cron.window")`, `lexicon.either("DAILY")`), a default argument, an error message."""
    found: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Subscript):
            found.add(id(node.slice))
        elif isinstance(node, ast.Call):
            name = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
            if name in _NAMING_CALLS:
                found.update(id(n) for arg in node.args for n in ast.walk(arg))
            found.update(id(keyword.value) for keyword in node.keywords)  # timespec="seconds"
        elif isinstance(node, ast.arguments):
            found.update(id(d) for d in [*node.defaults, *node.kw_defaults] if d is not None)
        elif isinstance(node, ast.Raise):
            found.update(id(n) for n in ast.walk(node))
    return found


def word_literals(source: str) -> dict[str, int]:
    """Each alphabetic word of two letters or more in the string literals of `source`, and its line:
    regular-expression escapes (`\\b`), group names (`(?P<rest>`), placeholders (`{month}`) and
    catalog keys (`reason.past`) left out."""
    tree = ast.parse(source)
    skipped = _docstrings(tree) | _names(tree)
    found: dict[str, int] = {}
    for node in ast.walk(tree):
        if not isinstance(node, ast.Constant) or not isinstance(node.value, str) or id(node) in skipped:
            continue
        if re.fullmatch(r"[a-z_]+(?:\.[a-z_]+)+", node.value):  # a catalog key compared: "reason.past"
            continue
        text = re.sub(r"\(\?P[<=]\w+>?|\\[a-zA-Z]|\{\w+\}", " ", node.value)
        for word in re.findall(r"(?<![A-Za-z_])[a-z]{2,}(?![A-Za-z_])", text):
            if word not in ALLOWED:
                found.setdefault(word, node.lineno)
    return found


@pytest.mark.parametrize("module", GRAMMAR, ids=lambda p: p.name)
def test_a_grammar_module_holds_no_word_of_a_language(module: Path) -> None:
    assert word_literals(module.read_text(encoding="utf-8")) == {}


@pytest.mark.parametrize(
    "planted",
    [
        '_NEXT = r"(?:next|proximo) (?P<wd>\\w+)"',
        'if t in ("hourly", "cada hora"):\n    pass',
        'x = f"every day {rest}"',
        'PLACES = {"first": 1}',
        'CLOCK_AT = r"(?:at about|a eso de las)"',
        'if p.part in ("night", "noche"):\n    pass',
    ],
)
def test_the_scan_finds_a_planted_word(planted: str) -> None:
    source = Path(cron_phrases.__file__).read_text(encoding="utf-8")
    assert word_literals(f"{source}\n{planted}\n")


def test_the_scan_leaves_names_and_technical_tokens() -> None:
    source = 'a = m["rest"]\nb = phrase("cron.window")\nc = r"(?P<clock>\\d{1,2}) ?(?:am|pm)"\n'
    assert word_literals(source) == {}


# a toy language: the English lexicon with some words renamed, listed instead of Spanish
_TOY = """
import re, sys, types, json
from cronbell.core.language.lexicon import en
RENAMED = {"every": "ilk", "monday": "lundo", "at": "je", "other": "alia", "business": "negoco", "day": "tago",
           "yesterday": "hierau", "in": "post", "xmas": "kristnasko", "tomorrow": "morgaux", "fifth": "kvina",
           "next": "venonta", "two": "du", "weeks": "semajnoj"}
WORD = re.compile(r"(?<![a-z\\\\])(" + "|".join(RENAMED) + r")(?![a-z])")
def rename(value):
    if isinstance(value, str):
        return WORD.sub(lambda m: RENAMED[m[1]], value)
    if isinstance(value, dict):
        return {rename(k): rename(v) for k, v in value.items()}
    if isinstance(value, (tuple, list, set, frozenset)):
        return type(value)(rename(v) for v in value)
    return value
toy = types.ModuleType("cronbell.core.language.lexicon.es")
for name in dir(en):
    if name.isupper():
        setattr(toy, name, rename(getattr(en, name)))
for loaded in [name for name in sys.modules if name.startswith("cronbell")]:
    del sys.modules[loaded]  # the grammar is built anew, from the languages listed
if sys.argv[1] == "toy":
    sys.modules["cronbell.core.language.lexicon.es"] = toy
from datetime import datetime
from zoneinfo import ZoneInfo
from cronbell.core.domain.refusals import ToolError
from cronbell.core.language.business_phrases import read_phrase
from cronbell.core.language.cron_phrases import phrase_to_cron, split_interval
from cronbell.core.language.when import parse_one_shot
every, unit, rest, _ = split_interval("ilk alia lundo je 10")
reading = read_phrase("ilk negoco tago je 9")
now, zone = datetime(2026, 5, 13, 10, 0, tzinfo=ZoneInfo("UTC")), ZoneInfo("UTC")
def one_shot(text):
    try:
        return parse_one_shot(text, now, zone, country="US").at.isoformat()
    except ToolError as exc:
        return exc.code
print(json.dumps({
    "weekly": phrase_to_cron("ilk lundo je 10"),
    "interval": [every, unit, phrase_to_cron(rest)],
    "business": [phrase_to_cron(reading[0]), reading[1]] if reading else None,
    "past": one_shot("hierau je 9"),
    "holiday": one_shot("kristnasko je 9"),
    "day word": one_shot("june kvina je 10"),
    "relative day": one_shot("morgaux je 10"),
    "weekday": one_shot("venonta lundo je 10"),
    "amount": one_shot("post du semajnoj"),
}))
"""


def _read_with(language: str) -> dict[str, object]:
    return json.loads(run_python(f"import sys\nsys.argv[1:] = [{language!r}]\n{_TOY}"))


def test_a_new_language_is_read_from_its_lexicon_alone() -> None:
    assert _read_with("toy") == {
        "weekly": "0 10 * * 1",
        "interval": [2, "weeks", "0 10 * * 1"],
        "business": ["0 9 * * 1-5", 0],
        "past": "time_in_past",
        "holiday": "2026-12-25T09:00:00+00:00",
        "day word": "2026-06-05T10:00:00+00:00",
        "relative day": "2026-05-14T10:00:00+00:00",
        "weekday": "2026-05-18T10:00:00+00:00",
        "amount": "2026-05-27T10:00:00+00:00",
    }


def test_without_its_lexicon_the_toy_language_is_not_read() -> None:
    found = _read_with("es")
    assert found["weekly"] is None and found["interval"][:2] == [1, ""] and found["business"] is None  # type: ignore[index]
    assert found["past"] != "time_in_past"
    assert all(found[said] == "invalid_time" for said in ("holiday", "day word", "relative day", "weekday", "amount"))
