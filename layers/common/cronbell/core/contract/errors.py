"""The words of a refusal (core/domain/refusals.ToolError) as the tool envelope answers it: its message
and details in the reader's language; `message(error)` is the English one."""

from __future__ import annotations

from typing import Any

from cronbell.core.domain.refusals import ToolError
from cronbell.core.text import texts


def message(error: ToolError, locale: str | None = "en") -> str:
    """The message in the language of `locale` (a refusal made with a text as given stays as given)."""
    if error.english is not None and texts.language(locale) == "en":
        return error.english
    return str(texts.render(error.said, locale))


def as_dict(error: ToolError, locale: str | None = "en") -> dict[str, Any]:
    """The envelope's `error`: its code, its message and any details, every word in `locale`'s language."""
    out: dict[str, Any] = {"code": error.code, "message": message(error, locale)}
    if error.details:
        out["details"] = texts.render(error.details, locale)
    return out
