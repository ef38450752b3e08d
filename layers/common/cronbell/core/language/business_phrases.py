"""Business-day phrases in English and Spanish ('every business day at 9', 'el último día hábil del mes a
las 17:00'): the recurring phrase each stands on and the business day of the month it names
(core/domain/business.py keeps the rule)."""

from __future__ import annotations

import re

from cronbell.core.language import lexicon

_NTH: dict[str, int] = lexicon.union("BUSINESS_NTH")  # the place of a business day in its month
_PHRASES = tuple(  # (pattern over normalized text, what the rest is read as), each language's ordinals in `nth`
    (
        pattern.replace("{nth}", rf"(?P<nth>{lexicon.alternatives(module.BUSINESS_NTH)}|{module.BUSINESS_NTH_DIGITS})"),
        reading,
    )
    for module in lexicon.LANGUAGES.values()
    for pattern, reading in module.BUSINESS_PHRASES
)
_BUSINESS_DAYS = re.compile(lexicon.some("BUSINESS_DAYS"))
_NTH_DIGITS = "|".join(module.BUSINESS_NTH_DIGITS for module in lexicon.LANGUAGES.values())


def _ordinal(word: str) -> int:
    return _NTH[word] if word in _NTH else int(re.sub(r"\D", "", word))


def read_phrase(normalized: str) -> tuple[str, int] | None:
    """A business-day phrase (English or Spanish, normalized as clocks.normalize does): the schedule
    phrase it stands on and the business day of the month it names (0: every business day). None when
    it is not one. 'every business day at 9' is read as 'every weekday at 9' on business days (the
    schedule's grammar reads business days as weekdays); 'the last business day of the month at 17:00'
    is 'every day at 17:00' on the last one."""
    for pattern, reading in _PHRASES:
        match = re.fullmatch(pattern, normalized)
        if match is not None:
            groups = match.groupdict()
            nth = _ordinal(groups["nth"]) if groups.get("nth") else 0
            return reading.format(rest=groups["rest"]), nth
    said = _BUSINESS_DAYS.search(normalized)
    if said is None or _ordinal_before(normalized[: said.start()]):  # "the third business day", no time
        return None
    return normalized, 0


def _ordinal_before(text: str) -> bool:
    """Whether text ends in a place ('the third ', 'el 3 '): a business day of the month, not every one."""
    words = text.split()
    return bool(words) and (words[-1] in _NTH or re.fullmatch(_NTH_DIGITS, words[-1]) is not None)
