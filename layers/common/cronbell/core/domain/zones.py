"""Wall times in a zone: a wall time attached to its zone across DST changes (a time the change skips
moves forward, a repeated one is its first occurrence), a zone's label and a UTC offset's text."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, tzinfo

MAX_YEAR = 2199  # EventBridge Scheduler's last year

# localize() kinds
EXISTS = ""
NONEXISTENT = "nonexistent"
AMBIGUOUS = "ambiguous"


def tz_label(tz: tzinfo) -> str:
    return getattr(tz, "key", None) or str(tz)


def localize(naive: datetime, tz: tzinfo) -> tuple[datetime, str]:
    """Attach `tz` to a wall time. Returns (aware, kind): a nonexistent time (DST gap) is shifted
    forward by the gap; an ambiguous one (DST overlap) is its first occurrence."""
    first = naive.replace(tzinfo=tz, fold=0)
    second = naive.replace(tzinfo=tz, fold=1)
    if first.utcoffset() == second.utcoffset():
        return first, EXISTS
    round_trip = first.astimezone(UTC).astimezone(tz)
    if round_trip.replace(tzinfo=None) == naive:
        return first, AMBIGUOUS
    # fold=0 in a gap reads the wall time with the offset from before the change: that instant,
    # shown in the zone, is the wall time moved forward by the length of the gap.
    return round_trip, NONEXISTENT


def is_second_occurrence(aware: datetime) -> bool:
    """True if the wall time of `aware` happens twice that day and this is the later one."""
    naive = aware.replace(tzinfo=None)
    tz = aware.tzinfo
    assert tz is not None
    return aware.fold == 1 and localize(naive, tz)[1] == AMBIGUOUS


def format_offset(dt: datetime) -> str:
    offset = dt.utcoffset() or timedelta(0)
    minutes = int(offset.total_seconds()) // 60
    sign = "+" if minutes >= 0 else "-"
    return f"UTC{sign}{abs(minutes) // 60:02d}:{abs(minutes) % 60:02d}"
