"""Finding English in a sentence meant for another language (the catalog tests)."""

from __future__ import annotations

import re
from typing import Any

# English words: none may appear in a Spanish sentence outside quotes, code and values
ENGLISH = {
    "the", "is", "are", "and", "to", "of", "in", "on", "at", "it", "an", "this", "that", "be", "not",
    "could", "can", "cannot", "with", "for", "every", "was", "were", "has", "have", "use", "try", "again",
    "its", "will", "there", "or", "from", "only", "already", "one", "first", "last", "until", "time",
    "day", "days", "minutes", "hour", "hours", "schedule", "room", "reminder", "now", "next", "after",
    "missing", "unknown", "empty", "give", "send", "run", "runs", "happens", "twice", "clocks", "go",
    "further", "fire", "call", "task", "far", "ahead", "year", "given", "taken", "expected", "got", "five",
}  # fmt: skip


def english_words(text: str) -> set[str]:
    """English function words in `text`, leaving out quoted values, code spans, tokens like @daily and
    tokens with a digit (ids such as `yuwnpew6be`, which would otherwise split into words)."""
    text = re.sub(r"`[^`]*`|'[^']*'|\"[^\"]*\"|@\w+|\b[\w.-]*_[\w.-]*\b|\b\w*\d\w*\b", " ", text)
    return {word for word in re.findall(r"[a-záéíóúñü]+", text.lower()) if word in ENGLISH}


def english_in_answer(answer: Any) -> set[str]:
    """English words in every text of an answer (its text, message and each detail), read one by one so
    that quotes inside one text are never paired with quotes of another."""
    if isinstance(answer, str):
        return english_words(answer)
    if isinstance(answer, dict):
        answer = list(answer.values())
    if isinstance(answer, list | tuple):
        return set().union(*(english_in_answer(item) for item in answer))
    return set()
