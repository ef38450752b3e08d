"""Production timing for fire tests: the fire function's timeout as template.yaml declares it,
and Lambda's asynchronous retries (two more attempts, about one and then two minutes after a
failure), played on a fake clock."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cronbell.adapters.chat.base import ChatMessage
from cronbell.core.domain.instants import parse_iso
from tests.support.aws import FakeClock, template_yaml

RETRY_GAPS_SECONDS = (60, 120)  # Lambda async: after the first failure, after the second


def fire_timeout_seconds() -> int:
    """FireFunction's Timeout in template.yaml (never a second copy)."""
    return int(template_yaml()["Resources"]["FireFunction"]["Properties"]["Timeout"])


def at_slot(clock: FakeClock, event: Any) -> None:
    """Scheduler invokes a fire at its scheduled time: move the fake clock there if it is behind."""
    raw = event.get("scheduled_time") if isinstance(event, dict) else None
    try:
        slot = parse_iso(raw) if isinstance(raw, str) else None
    except ValueError:
        slot = None
    if slot is not None and clock.now() < slot:
        clock.current = slot


def remaining_on(clock: FakeClock) -> Callable[[], float]:
    """What Lambda's context says is left of an invocation that starts now, on the fake clock."""
    start, timeout = clock.now(), fire_timeout_seconds()
    return lambda: timeout - (clock.now() - start).total_seconds()


@dataclass
class Attempts:
    """What each attempt of one asynchronous event did; `result` is None when the event went to
    the on-failure destination (the dead-letter queue)."""

    outcomes: list[str] = field(default_factory=list)
    result: dict[str, Any] | None = None


def lambda_retries(
    clock: FakeClock, attempt: Callable[[Callable[[], float]], dict[str, Any]], first_gap: int = 0
) -> Attempts:
    """Play Lambda's retries of one event whose earlier attempt failed `first_gap` seconds ago
    (0: this is the first attempt): each attempt gets the function's timeout, and one that raises
    is tried again after Lambda's gap, up to three attempts in all."""
    done = Attempts()
    gaps = list(RETRY_GAPS_SECONDS[1:]) if first_gap else list(RETRY_GAPS_SECONDS)
    if first_gap:
        clock.advance(seconds=first_gap)
    while True:
        try:
            done.result = attempt(remaining_on(clock))
            done.outcomes.append(str(done.result["outcome"]))
            return done
        except Exception as err:  # a fire raising is Lambda's cue to retry
            done.outcomes.append(f"raised {type(err).__name__}")
        if not gaps:
            return done
        clock.advance(seconds=gaps.pop(0))


@dataclass
class FileChat:
    """A chat platform shared by processes through a file: like Matrix with a transaction id, a
    repeated idempotency key is posted once. Every attempt is logged as well."""

    path: Path

    def send(self, message: ChatMessage, idempotency_key: str, deadline: float | None = None) -> str:
        with self.path.open("a", encoding="utf-8") as out:
            out.write(json.dumps({"key": idempotency_key, "text": message.text}) + "\n")
        return idempotency_key

    def attempts(self) -> list[str]:
        if not self.path.exists():
            return []
        return [json.loads(line)["key"] for line in self.path.read_text(encoding="utf-8").splitlines()]

    def posted(self) -> set[str]:
        """What the room shows: one message per key."""
        return set(self.attempts())
