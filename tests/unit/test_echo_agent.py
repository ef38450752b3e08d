"""The example target agent: echoes, waits when asked, and never raises."""

from __future__ import annotations

import time
from typing import Any

import pytest

from functions.echo_agent import app


class FakeContext:
    def __init__(self, remaining_ms: int) -> None:
        self.remaining_ms = remaining_ms

    def get_remaining_time_in_millis(self) -> int:
        return self.remaining_ms


@pytest.fixture
def slept(monkeypatch: pytest.MonkeyPatch) -> list[float]:
    """Records the waits instead of sleeping."""
    calls: list[float] = []
    monkeypatch.setattr(app.time, "sleep", calls.append)
    return calls


def test_echoes_the_prompt() -> None:
    event = {"kind": "task", "from": "cronbell", "prompt": "hola, ¿qué tal?", "skills": [], "room_id": "!r:x"}
    assert app.lambda_handler(event, None) == {"text": "echo: hola, ¿qué tal?"}


def test_sleep_prefix_waits_then_answers() -> None:
    started = time.monotonic()
    answer = app.lambda_handler({"prompt": "sleep 0.1 hi"}, None)
    elapsed = time.monotonic() - started
    assert answer == {"text": "echo: sleep 0.1 hi"}
    assert 0.1 <= elapsed < 2


def test_accepts_a_json_string_event() -> None:
    assert app.lambda_handler('{"prompt": "ping"}', None) == {"text": "echo: ping"}


@pytest.mark.parametrize(
    ("prompt", "seconds"),
    [
        ("sleep 3 then answer", 3.0),
        ("sleep 0.25", 0.25),
        ("  SLEEP 2.5 x", 2.5),
        ("sleep .5 x", 0.5),
        ("sleep 0 x", 0.0),
        ("sleep -4 x", 0.0),
        ("sleep 5s x", 0.0),
        ("sleep x", 0.0),
        ("please sleep 3", 0.0),
        ("sleepy 3", 0.0),
        ("sleep 1e9", 0.0),
    ],
)
def test_sleep_seconds(prompt: str, seconds: float) -> None:
    assert app.sleep_seconds(prompt) == seconds


def test_sleep_is_capped(slept: list[float]) -> None:
    assert app.lambda_handler({"prompt": "sleep 100000 long"}, None) == {"text": "echo: sleep 100000 long"}
    assert slept == [app.MAX_SLEEP_SECONDS]
    assert app.MAX_SLEEP_SECONDS < 300  # the function's timeout in the template


def test_sleep_leaves_time_to_answer(slept: list[float]) -> None:
    app.lambda_handler({"prompt": "sleep 60 x"}, FakeContext(remaining_ms=10_000))
    assert slept == [10.0 - app.SAFETY_MARGIN_SECONDS]
    app.lambda_handler({"prompt": "sleep 60 x"}, FakeContext(remaining_ms=500))
    assert slept[1:] == []  # nothing left to wait: answers at once


def test_a_broken_context_does_not_break_the_answer(slept: list[float]) -> None:
    class Broken:
        def get_remaining_time_in_millis(self) -> int:
            raise RuntimeError("boom")

    assert app.lambda_handler({"prompt": "sleep 1 x"}, Broken()) == {"text": "echo: sleep 1 x"}
    assert slept == [1.0]


@pytest.mark.parametrize(
    "event",
    [
        None,
        [],
        ["prompt"],
        42,
        "not json",
        b"\xff\xfe",
        "[1, 2]",
        {},
        {"prompt": None},
        {"prompt": 7},
        {"prompt": ["sleep 1"]},
        {"prompt": ""},
        {"prompt": "   "},
        {"text": "hi"},
    ],
)
def test_bad_input_answers_empty_text_and_never_raises(event: Any, slept: list[float]) -> None:
    answer = app.lambda_handler(event, None)
    assert answer["text"] == ""
    assert answer["error"]
    assert slept == []
