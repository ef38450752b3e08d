from __future__ import annotations

import pytest

from cronbell.adapters.agents import AgentError, parse_answer
from cronbell.core.text.prompts import fill_prompt


def test_fill_known_placeholders_only() -> None:
    text = 'At {now} in {room_id} ({scheduled_time}) return {"a": 1} and {unknown}'
    out = fill_prompt(text, {"now": "N", "room_id": "R", "scheduled_time": "S"})
    assert out == 'At N in R (S) return {"a": 1} and {unknown}'


def test_missing_value_leaves_placeholder() -> None:
    assert fill_prompt("{name}", {}) == "{name}"


@pytest.mark.parametrize(
    ("payload", "text"),
    [({"text": " hi "}, "hi"), ("plain", "plain"), ({"text": None}, ""), ({"text": ""}, "")],
)
def test_parse_answer(payload: object, text: str) -> None:
    assert parse_answer(payload) == text


@pytest.mark.parametrize(
    "payload",
    [
        {"answer": 1, "text": 5},
        [1, 2],
        42,
        {"text": ["a"]},
        {"outcome": "invalid_input", "error": "bad"},  # no text: not "nothing to post"
        {},
        {"text": "", "error": "the event needs a prompt"},  # the echo agent's answer to bad input
        {"text": "partial", "error": "timed out upstream"},
    ],
)
def test_parse_answer_malformed(payload: object) -> None:
    with pytest.raises(AgentError):
        parse_answer(payload)
