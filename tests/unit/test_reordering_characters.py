"""A reminder's message or a schedule's name that holds a bidirectional override, an embedding or an isolate left
unmatched reads in another order than it is written once posted ("‮gnp.exe" shows as "exe.png"): it is refused
`invalid_arguments`, naming the argument and the character, and nothing changes. The marks right-to-left writing
needs (LRM, RLM, ALM) and isolates closed within their line are kept."""

from __future__ import annotations

from dataclasses import replace

import pytest

from tests.support.envelopes import ROOM
from tests.support.memory_stack import MemoryStack

REORDERING = [
    ("pay \u202egnp.exe", "U+202E"),  # right-to-left override
    ("a \u202dlrо\u202c b", "U+202D"),  # left-to-right override, closed by its pop: still an override
    ("\u202aembedded\u202c", "U+202A"),
    ("\u202bembedded", "U+202B"),
    ("pop \u202c alone", "U+202C"),
    ("open \u2067isolate", "U+2067"),  # never closed
    ("\u2068first line\nsecond\u2069", "U+2068"),  # a paragraph end closes it: the close matches nothing
    ("close \u2069 alone", "U+2069"),
    ("\u2066a\u2069\u2069", "U+2069"),
]
KEPT = [
    "\u05e9\u05dc\u05d5\u05dd \u200fok\u200e",  # Hebrew with RLM and LRM
    "\u0645\u0631\u062d\u0628\u0627 \u061c12",  # Arabic with ALM
    "meet \u2067\u05d3\u05e0\u05d4\u2069 at 9",  # a balanced isolate
    "\u2066a \u2068b\u2069\u2069 and \u2067c\u2069",  # nested and in sequence
    "line \u2066one\u2069\nline \u2067two\u2069",
]


def _stack() -> MemoryStack:
    stack = MemoryStack()
    stack.settings = replace(stack.settings, agents={"echo": "EchoAgentFunction"})
    return stack


def _refused(answer: dict[str, object], argument: str, code: str, locale: str = "en") -> None:
    assert answer["ok"] is False, answer
    error = answer["error"]
    assert isinstance(error, dict) and error["code"] == "invalid_arguments", answer
    said = {
        "en": "must not hold characters that reorder text",
        "es": "no puede contener caracteres que reordenen el texto",
    }[locale]
    assert f"`{argument}` {said}" in error["message"] or f"`{argument}`: {said}" in error["message"], answer
    assert code in error["message"], answer


@pytest.mark.parametrize(("text", "code"), REORDERING)
def test_a_message_or_name_that_reorders_is_refused_on_create_and_nothing_is_made(text: str, code: str) -> None:
    stack = _stack()
    _refused(stack.call("create_reminder", {"message": text, "time": "in 10 minutes"}), "message", code)
    if "\n" not in text:  # a name with a line break is refused for that first
        _refused(stack.call("cron_create", {"name": text, "prompt": "p", "cron_expr": "0 9 * * *"}), "name", code)
    assert stack.call("list_reminders", {"include_inactive": True})["result"]["schedules"] == []


@pytest.mark.parametrize(("text", "code"), REORDERING)
def test_an_update_that_reorders_is_refused_and_changes_nothing(text: str, code: str) -> None:
    stack = _stack()
    reminder = stack.call("create_reminder", {"message": "stand-up", "time": "in 10 minutes"})["result"]
    call = stack.call("cron_create", {"name": "digest", "prompt": "p", "cron_expr": "0 9 * * *"})["result"]
    _refused(stack.call("update_reminder", {"id": reminder["id"], "message": text}), "message", code)
    if "\n" not in text:
        _refused(stack.call("update_reminder", {"id": call["id"], "name": text}), "name", code)
    listed = {item["id"]: item for item in stack.call("cron_list")["result"]}
    assert listed[call["id"]]["name"] == "digest"
    assert stack.store.get(ROOM, reminder["id"]).body == "stand-up"  # type: ignore[union-attr]


def test_the_refusal_is_said_in_the_callers_language() -> None:
    stack = _stack()
    refused = stack.call("cron_create", {"name": "x\u202e", "prompt": "p", "cron_expr": "0 9 * * *"}, locale="es")
    _refused(refused, "name", "U+202E", "es")


@pytest.mark.parametrize("text", KEPT)
def test_right_to_left_marks_and_balanced_isolates_are_kept(text: str) -> None:
    stack = _stack()
    made = stack.call("create_reminder", {"message": text, "time": "in 10 minutes"})
    assert made["ok"], made
    one_line = text.replace("\n", " ")
    assert stack.call("cron_create", {"name": one_line, "prompt": "p", "cron_expr": "0 9 * * *"})["ok"]
    changed = stack.call("update_reminder", {"id": made["result"]["id"], "message": text + " 2"})
    assert changed["ok"], changed
