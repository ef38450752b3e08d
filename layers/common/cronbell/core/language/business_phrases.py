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


def _ordinal(word: str) -> int:
    return _NTH[word] if word in _NTH else int(re.sub(r"\D", "", word))


def read_phrase(normalized: str) -> tuple[str, int] | None:
    """A business-day phrase (English or Spanish, normalized as clocks.normalize does): the schedule
    phrase it stands on and the business day of the month it names (0: every business day). None when
    it is not one. 'every business day at 9' is 'every weekday at 9' on business days; 'the last
    business day of the month at 17:00' is 'every day at 17:00' on the last one."""
    for pattern, reading in _PHRASES:
        match = re.fullmatch(pattern, normalized)
        if match is not None:
            groups = match.groupdict()
            nth = _ordinal(groups["nth"]) if groups.get("nth") else 0
            return reading.format(rest=groups["rest"]), nth
    return None
