"""IANA zone ids: the zone a caller names (any case), or the fallback; anything else is INVALID_TIMEZONE."""

from __future__ import annotations

import os
from functools import cache
from zoneinfo import TZPATH, ZoneInfo, ZoneInfoNotFoundError, available_timezones

from cronbell.core.domain.refusals import ToolError, refusal

# TZif files on the search path that are not IANA zone ids: the host's own zone, the POSIX default
# rules, tzdata's placeholder zone, and the two alternative trees (leap seconds, POSIX-only)
_NOT_ZONE_IDS = frozenset({"localtime", "posixrules", "factory"})
_NOT_ZONE_TREES = ("posix/", "right/")
# the zone database's old abbreviations, each with the place its users mean: their clock is a fixed offset
# or one country's, never the place's all year (EST stays UTC-05:00 while New York is on summer time); and
# summer-time abbreviations that are no zone id at all, refused with the place too
ABBREVIATIONS = {
    "est": "America/New_York", "est5edt": "America/New_York", "cst6cdt": "America/Chicago",
    "mst": "America/Denver", "mst7mdt": "America/Denver", "pst8pdt": "America/Los_Angeles",
    "hst": "Pacific/Honolulu", "cet": "Europe/Paris", "met": "Europe/Paris", "eet": "Europe/Athens",
    "wet": "Europe/Lisbon", "edt": "America/New_York", "cdt": "America/Chicago", "mdt": "America/Denver",
    "pst": "America/Los_Angeles", "pdt": "America/Los_Angeles", "cest": "Europe/Paris", "eest": "Europe/Athens",
    "west": "Europe/Lisbon", "bst": "Europe/London",
}  # fmt: skip


def _is_zone_id(name: str) -> bool:
    folded = name.casefold()
    return folded not in _NOT_ZONE_IDS and not folded.startswith(_NOT_ZONE_TREES)


@cache
def _zone_names_by_folded_case() -> dict[str, str]:
    """Every IANA name, keyed by its case-folded form (read only when a name does not match)."""
    return {zone.casefold(): zone for zone in available_timezones() if _is_zone_id(zone)}


def resolve_timezone(name: str | None, fallback: str) -> ZoneInfo:
    """The IANA zone `name`, or `fallback` when no name is given. Anything else is INVALID_TIMEZONE,
    including files of the zone database that are not zone ids (`localtime`, `posix/...`) and its old
    abbreviations (`EST`, `CET`), which name the place the caller meant."""
    chosen = (name or "").strip() or fallback
    if chosen.casefold() in ABBREVIATIONS:
        place = ABBREVIATIONS[chosen.casefold()]
        raise refusal(
            "invalid_timezone.abbreviation", {"timezone": chosen, "suggested": place}, zone=chosen, place=place
        )
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


def shown_zone(name: str | None, fallback: str) -> ZoneInfo:
    """The zone a context's times are shown in: `name` read as `resolve_timezone` reads it, else
    `fallback` when `name` is none it knows (or an old abbreviation), else UTC. Only creating a schedule
    refuses a zone it cannot read; an answer shown in another zone names that zone."""
    for chosen in (name, None):
        try:
            return resolve_timezone(chosen, fallback)
        except ToolError:
            continue
    return ZoneInfo("UTC")


def zone_country(zone: str) -> str | None:
    """The ISO country of an IANA zone, from the zone database's zone.tab (None for UTC and the like)."""
    return _zone_countries().get(zone)


@cache
def _zone_countries() -> dict[str, str]:
    for folder in TZPATH:  # os.path, not pathlib: pathlib would be imported for this alone, at every cold start
        table = os.path.join(folder, "zone.tab")
        if os.path.isfile(table):
            with open(table, encoding="utf-8") as lines:
                rows = [line.split("\t") for line in lines.read().splitlines()]
            return {row[2]: row[0] for row in rows if len(row) >= 3 and not row[0].startswith("#")}
    return {}
