"""IANA zone ids: the zone a caller names (any case), or the fallback; anything else is INVALID_TIMEZONE."""

from __future__ import annotations

from functools import cache
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError, available_timezones

from cronbell.core.contract.errors import refusal

# TZif files on the search path that are not IANA zone ids: the host's own zone, the POSIX default
# rules, tzdata's placeholder zone, and the two alternative trees (leap seconds, POSIX-only)
_NOT_ZONE_IDS = frozenset({"localtime", "posixrules", "factory"})
_NOT_ZONE_TREES = ("posix/", "right/")


def _is_zone_id(name: str) -> bool:
    folded = name.casefold()
    return folded not in _NOT_ZONE_IDS and not folded.startswith(_NOT_ZONE_TREES)


@cache
def _zone_names_by_folded_case() -> dict[str, str]:
    """Every IANA name, keyed by its case-folded form (read only when a name does not match)."""
    return {zone.casefold(): zone for zone in available_timezones() if _is_zone_id(zone)}


def resolve_timezone(name: str | None, fallback: str) -> ZoneInfo:
    """The IANA zone `name`, or `fallback` when no name is given. Anything else is INVALID_TIMEZONE,
    including files of the zone database that are not zone ids (`localtime`, `posix/...`)."""
    chosen = (name or "").strip() or fallback
    try:
        if not chosen or chosen.startswith(("/", ".")) or ".." in chosen or not _is_zone_id(chosen):
            raise ValueError(chosen)
        try:
            return ZoneInfo(chosen)
        except (ZoneInfoNotFoundError, ValueError, OSError):
            # "europe/madrid", "utc": the right zone in the wrong case
            return ZoneInfo(_zone_names_by_folded_case()[chosen.casefold()])
    except (ZoneInfoNotFoundError, ValueError, OSError, KeyError) as exc:
        raise refusal("invalid_timezone", {"timezone": chosen}, zone=chosen) from exc
