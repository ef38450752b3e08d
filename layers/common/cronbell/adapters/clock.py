"""The one place that reads the time. The sandbox installs a virtual clock here."""

from __future__ import annotations

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
