"""Something to say, in the domain's words: a catalog key and its values, chosen in the reader's language
where it is shown (core/text/texts.render). A value may itself be a Phrase."""

from __future__ import annotations

from dataclasses import field
from typing import Any

from cronbell.core.values import value


@value
class Phrase:
    key: str
    values: dict[str, Any] = field(default_factory=dict)


def phrase(key: str, **values: Any) -> Phrase:
    return Phrase(key, values)
