"""The one place that reads the time, and waits for it to pass. The sandbox installs a virtual clock here."""

from __future__ import annotations

import time
from datetime import UTC, datetime
from typing import Protocol


class Clock(Protocol):
    def now(self) -> datetime:
        """An aware UTC datetime."""
        ...


class SystemClock:
    def now(self) -> datetime:
        return datetime.now(UTC)


_current: Clock = SystemClock()


def install(clock: Clock) -> None:
    """Replace the process clock (the sandbox's virtual clock, or a test's)."""
    global _current
    _current = clock


def installed() -> Clock:
    """The process clock in use (a test reads its virtual one here)."""
    return _current


def now() -> datetime:
    return _current.now()


def sleep(seconds: float) -> None:
    """Wait `seconds`. A clock that keeps its own time (the sandbox's, for one invocation) counts them
    too, as time passes in a function that waits: a claim waited out ends when its lease does."""
    wait = getattr(_current, "sleep", None)
    (wait or time.sleep)(seconds)
