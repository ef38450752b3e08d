"""The words of each language the time grammar reads, one module per language (en.py, es.py): weekdays,
months, numbers, hours and minutes in words, ordinals, parts of the day, named clocks, fillers and
courtesy words. The grammar reads the union of every language's common words (people mix them: "el
monday"), plus each language's own words only in that language (abbreviations that mean something
else in another: Spanish "ago", "dom"), and each language's conventions (the order of a numeric date).
A new language is a module here with the same names, listed in LANGUAGES."""

from __future__ import annotations

import re
from types import ModuleType
from typing import Any

from cronbell.core.language.lexicon import en, es
from cronbell.core.values import value

LANGUAGES: dict[str, ModuleType] = {"en": en, "es": es}
DEFAULT = "en"


def _union(name: str) -> dict[str, Any]:
    merged: dict[str, Any] = {}
    for module in LANGUAGES.values():
        merged.update(getattr(module, name))
    return merged


WEEKDAY_WORDS: dict[str, int] = _union("WEEKDAYS")
MONTH_WORDS: dict[str, int] = _union("MONTHS")
NUMBER_WORDS: dict[str, int] = _union("NUMBERS")
HOUR_WORDS: dict[str, int] = _union("HOURS")
MINUTE_WORDS: dict[str, int] = _union("MINUTES")
MINUTES_PAST: dict[str, int] = _union("MINUTES_PAST")
PERIOD_OF: dict[str, str] = _union("PARTS")
PART_HOURS: dict[str, int] = _union("PART_HOURS")
NAMED_CLOCKS: dict[str, tuple[int, int]] = _union("NAMED_CLOCKS")
NAMED_HOURS: dict[str, str] = _union("NAMED_HOURS")
DAY_NUMBERS: dict[str, int] = _union("DAY_NUMBERS")
POSITIONS: dict[str, int] = _union("POSITIONS")
HOLIDAYS: dict[str, str] = _union("HOLIDAYS")
ORDINAL_WORDS: list[str] = [w for module in LANGUAGES.values() for w in module.ORDINALS]
FILLERS: frozenset[str] = frozenset(w for module in LANGUAGES.values() for w in module.FILLERS)
COURTESY: list[str] = [w for module in LANGUAGES.values() for w in module.COURTESY]
APPROXIMATELY: list[str] = [w for module in LANGUAGES.values() for w in module.APPROXIMATELY]


@value
class Lexicon:
    """What one language adds to the common words, and its conventions."""

    weekdays: dict[str, int]  # the common weekday words and this language's own
    months: dict[str, int]
    bare_day_after_weekday: bool  # "friday 8" is ambiguous (day or hour) and refused


def of(language: str) -> Lexicon:
    module = LANGUAGES.get(language, LANGUAGES[DEFAULT])
    return Lexicon(
        weekdays={**WEEKDAY_WORDS, **module.WEEKDAYS_OWN},
        months={**MONTH_WORDS, **module.MONTHS_OWN},
        bare_day_after_weekday=module.BARE_DAY_AFTER_WEEKDAY,
    )


def month_first(language: str, region: str) -> bool:
    """Whether a numeric date "a/b" is month/day for a reader of `language` in `region` (a locale's region
    subtag, "" when it names none): the region's order when one is named, else the language's own. A
    language without a lexicon is read with the default's words and its regions."""
    module = LANGUAGES.get(language, LANGUAGES[DEFAULT])
    return region in module.MONTH_FIRST_REGIONS if region else bool(module.MONTH_FIRST)


def either(name: str) -> str:
    """One regular-expression fragment of every language (its `name`), as one alternation."""
    return "|".join(fragment for module in LANGUAGES.values() if (fragment := getattr(module, name)))


def some(name: str) -> str:
    """`either(name)`, or a fragment that never matches when no language has one."""
    return either(name) or "(?!)"


def each(name: str) -> list[Any]:
    """The items of every language's `name` (a tuple or a set), the languages in order."""
    return [item for module in LANGUAGES.values() for item in getattr(module, name)]


def union(name: str) -> dict[str, Any]:
    """Every language's `name` (a dict), merged."""
    return _union(name)


def own(name: str) -> Any:
    """The default language's `name`: a phrase the grammar rewrites text into, read back by the grammar."""
    return getattr(LANGUAGES[DEFAULT], name)


def alternatives(words: object) -> str:
    """A regex alternation of words, the longest first."""
    return "|".join(re.escape(w) for w in sorted(words, key=len, reverse=True))  # type: ignore[call-overload]
