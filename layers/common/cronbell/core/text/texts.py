"""Every sentence cronbell says, rendered from the catalog of the reader's language (core/text/locales).

A `Phrase` is a sentence not yet rendered: a catalog key and its values. Refusals and notes carry
phrases so that the words are chosen where the answer is shaped, in the context's language."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, tzinfo
from typing import Any
from zoneinfo import ZoneInfo

from cronbell.core.domain.phrases import Phrase
from cronbell.core.domain.zones import AMBIGUOUS, format_offset, localize
from cronbell.core.text import locales
from cronbell.core.values import value


def language(locale: str | None) -> str:
    """The one locale detector: the catalog language for a locale ("es-MX" -> "es"; unknown -> "en")."""
    return locales.language(locale)


def region(locale: str | None) -> str:
    """The locale's region ("en-GB" -> "GB"; "en" -> ""): what orders a numeric date."""
    return locales.region(locale)


@value
class Word:
    """Item `index` of catalog list `key` (a weekday or month name), chosen in the reader's language."""

    key: str
    index: int

    def render(self, locale: str | None) -> str:
        return words(self.key, locale)[self.index]


@value
class Listing:
    """Items (texts or phrases) joined by `sep`; with `last`, the catalog word before the last item
    ('a, b or c' / 'a, b o c')."""

    items: tuple[Any, ...]
    sep: str = "; "
    last: str = ""

    def render(self, locale: str | None) -> str:
        items = [str(render(item, locale)) for item in self.items]
        if not self.last or len(items) < 2:
            return self.sep.join(items)
        return self.sep.join(items[:-1]) + say(self.last, locale) + items[-1]


@value
class Moment:
    """An instant said in the reader's language with its weekday: 'Friday 4 December, 17:00' / 'viernes 4
    de diciembre, 17:00', in `tz`; the year too unless it is `year` (the reader's current year)."""

    at: datetime
    tz: tzinfo
    year: int = 0

    def render(self, locale: str | None) -> str:
        return when_text(self.at, self.tz, locale, self.year)


# The tool set the deployment shows its model (the TOOL_SET setting): a sentence names only tools of that set
# ("": every tool). One per process, set by the composition root (cronbell.wiring) when it reads the settings:
# a deployment shows its bots one set, and the fire path says its notices with no settings at hand.
_SHOWN = [""]


def show_tool_set(tool_set: str) -> str:
    """Say every later sentence as a deployment that shows `tool_set` does; answers the set shown before."""
    before, _SHOWN[0] = _SHOWN[0], tool_set
    return before


def has(key: str) -> bool:
    """Whether the catalogs say `key` (every catalog has the same keys)."""
    return key in locales.texts(locales.DEFAULT)


def say(key: str, locale: str | None, **values: Any) -> str:
    lang = language(locale)
    rendered = {name: render(value, lang) for name, value in values.items()}
    return locales.texts(lang, _SHOWN[0])[key].format(**rendered)


def render(value: Any, locale: str | None) -> Any:
    """`value` with every Phrase in it rendered (through lists, tuples and dicts)."""
    if isinstance(value, Phrase):
        return say(value.key, locale, **value.values)
    if isinstance(value, Word | Listing | Moment):
        return value.render(locale)
    if isinstance(value, list | tuple):
        return type(value)(render(v, locale) for v in value)
    if isinstance(value, dict):
        return {k: render(v, locale) for k, v in value.items()}
    return value


def words(key: str, locale: str | None) -> Sequence[str]:
    """A list from the catalog: weekday and month names, accepted forms, ..."""
    return locales.lists(language(locale))[key]


def join(items: Sequence[str], locale: str | None) -> str:
    """'a, b and c' / 'a, b y c'."""
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + say("preview.and", locale) + items[-1]


def date_text(local: datetime, locale: str | None, year: int = 0) -> str:
    """'Friday 4 December' / 'viernes 4 de diciembre' (with the year unless it is `year`)."""
    return say(
        "date" if local.year == year else "date_year",
        locale,
        weekday=Word("weekdays", local.weekday()),
        day=local.day,
        month=Word("months", local.month - 1),
        year=local.year,
    )


def when_text(dt: datetime, tz: tzinfo, locale: str | None, year: int = 0) -> str:
    """'Friday 4 December, 17:00' / 'viernes 4 de diciembre, 17:00': a date is never said without its weekday.
    A wall time the clocks show twice that day (going back) is said with its offset: '02:00 (UTC+01:00)'."""
    local = dt.astimezone(tz)
    return say("when", locale, date=date_text(local, locale, year), clock=_clock(local, tz))


def _clock(local: datetime, tz: tzinfo) -> str:
    """'17:00'; '02:00 (UTC+01:00)' for a wall time the clocks show twice that day."""
    clock = f"{local:%H:%M}"
    return f"{clock} ({format_offset(local)})" if localize(local.replace(tzinfo=None), tz)[1] == AMBIGUOUS else clock


def now_sentence(now: datetime, tz: ZoneInfo, locale: str | None) -> str:
    """'Now it is 09:00 on Monday 30 November 2026 (Europe/Madrid).' / 'Son las 09:00 del lunes 30 de
    noviembre de 2026 (Europe/Madrid).': the one place an answer names its zone."""
    local = now.astimezone(tz)
    key = "now_is_one" if local.hour == 1 else "now_is"
    return say(key, locale, clock=_clock(local, tz), date=date_text(local, locale), zone=tz.key)
