"""The domain's refusals: what a store, Scheduler or Lambda adapter raises in the domain's words, so no
use case knows which SDK sits behind a port (core/domain/ports.py)."""

from __future__ import annotations

from cronbell.core.domain.models import Schedule


class BackendError(Exception):
    """A store, Scheduler or Lambda call failed (throttled, unreachable, refused): nothing is
    known to have changed, and the same call may work a moment later."""


class EntryRefused(BackendError):
    """Scheduler refused an entry as it is (validation, a quota): the same write fails again."""


class LimitReached(Exception):
    """The room holds its maximum of live schedules."""


class Duplicate(Exception):
    """A live schedule with the same action, time and zone exists."""

    def __init__(self, existing: Schedule) -> None:
        super().__init__(existing.id)
        self.existing = existing


class NameTaken(Exception):
    """Another live schedule of the room has this name."""

    def __init__(self, holder: Schedule) -> None:
        super().__init__(holder.id)
        self.holder = holder


class TooSoon(Exception):
    """A manual run of this schedule was started less than the minimum interval ago."""

    def __init__(self, last: str) -> None:
        super().__init__(last)
        self.last = last  # RFC3339 UTC of that run


class Conflict(Exception):
    """The item was not in the state the write expected (e.g. changed or deleted meanwhile)."""


class QuietHoursChanged(Conflict):
    """A new schedule's user set quiet hours in its room after the create read them as absent:
    nothing was written; created again, it reads the rule."""


class Gone(Exception):
    """No live schedule: `old` is the item as it is (fired, deleted...), or None if there is none."""

    def __init__(self, old: Schedule | None) -> None:
        super().__init__(old.id if old else "")
        self.old = old


class Released(Exception):
    """The release of a quiet period has begun or is done: nothing more can be held for it."""


class Busy(Exception):
    """A delivery of this schedule is under way; try again in a moment."""
