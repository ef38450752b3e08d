"""One catalog of texts per language: `<language>.py` here holds TEXTS (key -> `str.format` template),
LISTS (key -> a sequence of words) and BY_TOOL_SET (tool set -> the texts a deployment showing that set
says instead: those of TEXTS that name a tool the set does not show). Every sentence cronbell says comes
from these catalogs; adding a language is adding one module with the same keys (tests/unit/test_catalog.py
and tests/unit/test_tool_set_texts.py check it).

A catalog is imported the first time a text in its language is needed, never at start."""

from __future__ import annotations

import importlib
import importlib.util
import re
from collections.abc import Mapping, Sequence
from functools import cache, lru_cache
from types import ModuleType

DEFAULT = "en"


@lru_cache(maxsize=64)  # a locale comes from the caller's context: keep only a few
def language(locale: str | None) -> str:
    """The catalog for a locale: its primary subtag ("es-MX", "es_ES" -> "es") when a catalog exists,
    else the default. With `region`, the only places a locale is read."""
    primary = re.split(r"[-_.@]", (locale or "").strip().lower(), maxsplit=1)[0]
    if primary.isascii() and primary.isalpha() and importlib.util.find_spec(f"{__name__}.{primary}") is not None:
        return primary
    return DEFAULT


@lru_cache(maxsize=64)
def region(locale: str | None) -> str:
    """A locale's region subtag, upper case ("en-GB", "en_GB.UTF-8", "en-Latn-GB" -> "GB"; "es-419" ->
    "419"), or "" when it names none ("en")."""
    subtags = re.split(r"[-_]", re.split(r"[.@]", (locale or "").strip(), maxsplit=1)[0])[1:]
    regions = (tag for tag in subtags if (len(tag) == 2 and tag.isalpha()) or (len(tag) == 3 and tag.isdigit()))
    return next(regions, "").upper()


@cache
def _module(lang: str) -> ModuleType:
    return importlib.import_module(f"{__name__}.{lang}")


def texts(lang: str, tool_set: str = "") -> Mapping[str, str]:
    """The catalog of `lang` as a deployment that shows `tool_set` says it ("" or a set with no texts of its
    own: TEXTS itself)."""
    own: Mapping[str, str] = _module(lang).BY_TOOL_SET.get(tool_set, {})
    return _with(lang, tool_set) if own else _module(lang).TEXTS


@cache
def _with(lang: str, tool_set: str) -> Mapping[str, str]:
    return {**_module(lang).TEXTS, **_module(lang).BY_TOOL_SET[tool_set]}


def lists(lang: str) -> Mapping[str, Sequence[str]]:
    return _module(lang).LISTS


def available() -> list[str]:
    """Every language with a catalog (read by tests, not at run time)."""
    import pkgutil

    return sorted(info.name for info in pkgutil.iter_modules(__path__))
