"""The sandbox's clocks: virtual (moves only when told) or real. Both remember how real time maps to
their time, so a message stamped by a real server (Synapse) can be placed on the sandbox's timeline."""

from __future__ import annotations

import bisect
import threading
import time
from datetime import UTC, datetime
from typing import Protocol


def parse_instant(text: str) -> datetime:
    """An ISO 8601 instant as aware UTC (a naive one is read as UTC)."""
    value = datetime.fromisoformat(text.strip().replace("Z", "+00:00"))
    if value.tzinfo is None:
        value = value.replace(tzinfo=UTC)
    return value.astimezone(UTC)


def iso(value: datetime) -> str:
    """`2026-12-01T09:00:00Z` (microseconds kept only when present)."""
    return value.astimezone(UTC).isoformat().replace("+00:00", "Z")


class SandboxClock(Protocol):
    virtual: bool

    def now(self) -> datetime: ...

    def set(self, value: datetime) -> None: ...

    def at_real_time(self, epoch_seconds: float) -> datetime: ...


class VirtualClock:
    """Stands still until `set`. Keeps the real instants of every change."""

    virtual = True

    def __init__(self, start: datetime) -> None:
        self._lock = threading.Lock()
        self._now = start.astimezone(UTC)
        self._real: list[float] = [time.time()]
        self._values: list[datetime] = [self._now]

    def now(self) -> datetime:
        with self._lock:
            return self._now

    def set(self, value: datetime) -> None:
        with self._lock:
            self._now = value.astimezone(UTC)
            self._real.append(time.time())
            self._values.append(self._now)

    def at_real_time(self, epoch_seconds: float) -> datetime:
        """The virtual time that was current at this real instant."""
        with self._lock:
            index = bisect.bisect_right(self._real, epoch_seconds) - 1
            return self._values[max(index, 0)]


class RealClock:
    virtual = False

    def now(self) -> datetime:
        return datetime.now(UTC)

    def set(self, value: datetime) -> None:
        """Real time moves by itself."""

    def at_real_time(self, epoch_seconds: float) -> datetime:
        return datetime.fromtimestamp(epoch_seconds, UTC)
