"""An answer made to fit a caller's limit on its size: Bedrock Agents takes at most 25 KB from an action
group's Lambda, and a room's listing (50 schedules by default, more with `include_inactive`) can be twice
that. A listing that does not fit first leaves out of each item what says nothing (fields that are null,
false, 0 or empty, and `next_fires`, whose first is `next_fire`), then its last items, saying how many."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from cronbell.core.text import texts

Shaped = Callable[[dict[str, Any]], dict[str, Any]]  # an answer -> the response that carries it

# Bedrock's limit on the response (AWS documents 25 KB)
BEDROCK_RESPONSE_BYTES = 25 * 1024
_REPEATED = ("next_fires",)  # item fields another field already says (`next_fire` is the first of them)


def size(response: dict[str, Any]) -> int:
    """The bytes of a response as Lambda returns it (JSON, UTF-8)."""
    return len(json.dumps(response, ensure_ascii=False, default=str).encode("utf-8"))


def fit(answer: dict[str, Any], shape: Shaped, limit: int, locale: str | None) -> dict[str, Any]:
    """`shape(answer)`, or, when that is over `limit` bytes, the response of the answer cut to fit (an answer
    with no list to cut is returned whole: no other answer comes near the limit)."""
    response = shape(answer)
    items, put = _listed(answer)
    if size(response) <= limit or items is None:
        return response
    compact = [_compact(item) for item in items]
    response = shape(put(compact, 0, locale))
    if size(response) <= limit:
        return response
    low, high = 0, len(compact)  # the most items that fit: at least none, fewer than all
    while low < high:
        middle = (low + high + 1) // 2
        if size(shape(put(compact[:middle], len(compact) - middle, locale))) <= limit:
            low = middle
        else:
            high = middle - 1
    return shape(put(compact[:low], len(compact) - low, locale))


def _compact(item: Any) -> Any:
    if not isinstance(item, dict):
        return item
    return {key: value for key, value in item.items() if _says(value) and key not in _REPEATED}


def _says(value: Any) -> bool:
    return value is not None and value is not False and value != 0 and value not in ("", [], {})


def _listed(answer: dict[str, Any]) -> tuple[list[Any] | None, Callable[[list[Any], int, str | None], dict[str, Any]]]:
    """The items of a listing answer (`list_reminders`' schedules, `cron_list`'s array), and how to put
    fewer back: the answer with those items and, when some are left out, how many in `result.not_shown` (a
    listing's object) and its text."""
    result = answer.get("result")
    if not answer.get("ok"):
        return None, lambda *_: answer
    if isinstance(result, list):
        return result, lambda kept, hidden, locale: _said({**answer, "result": kept}, hidden, locale)
    if isinstance(result, dict) and isinstance(result.get("schedules"), list):

        def put(kept: list[Any], hidden: int, locale: str | None) -> dict[str, Any]:
            shown = {**result, "schedules": kept, **({"not_shown": hidden} if hidden else {})}
            return _said({**answer, "result": shown}, hidden, locale)

        return result["schedules"], put
    return None, lambda *_: answer


def _said(answer: dict[str, Any], hidden: int, locale: str | None) -> dict[str, Any]:
    if not hidden:
        return answer
    note = texts.say("fitted.not_shown", locale, hidden=hidden, limit=BEDROCK_RESPONSE_BYTES // 1024)
    return {**answer, "text": f"{answer.get('text', '')} {note}".strip()}
