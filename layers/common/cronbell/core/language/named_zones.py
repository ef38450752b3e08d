"""Zones named inside a time phrase ("5pm CET", "10am PST", "9am New York time", "a las 10 hora de Madrid"):
found, taken out of the text, and the rest read in that zone. An abbreviation of standard or summer time is
its fixed offset (CET is UTC+01:00 all year, CEST UTC+02:00); a region's short name ("ET", "PT", "Pacific
time") and a city are the IANA zone, with its own DST. Abbreviations that name several zones (IST, CST)
are refused rather than guessed."""

from __future__ import annotations

import re
from datetime import timedelta, timezone, tzinfo
from functools import cache
from zoneinfo import ZoneInfo, available_timezones

from cronbell.core.language import lexicon
from cronbell.core.language.clocks import Unreadable
from cronbell.core.text.texts import phrase

FIXED_HOURS = {
    "utc": 0, "gmt": 0, "z": 0, "wet": 0, "west": 1, "cet": 1, "cest": 2, "bst": 1, "eet": 2, "eest": 3,
    "msk": 3, "jst": 9, "kst": 9, "hkt": 8, "sgt": 8, "aest": 10, "aedt": 11, "nzst": 12, "nzdt": 13,
    "est": -5, "edt": -4, "cdt": -5, "mst": -7, "mdt": -6, "pst": -8, "pdt": -7, "akst": -9, "hst": -10,
}  # fmt: skip
REGIONS = {
    "et": "America/New_York", "eastern time": "America/New_York", "ct": "America/Chicago",
    "central time": "America/Chicago", "mt": "America/Denver", "mountain time": "America/Denver",
    "pt": "America/Los_Angeles", "pacific time": "America/Los_Angeles",
}  # fmt: skip
AMBIGUOUS = ("ist", "cst", "ast", "amt")
# not abbreviations here: English words ("wet"), or too short to tell from a word in a phrase ("z")
_WORDS = {"wet", "z"}


@cache
def _cities() -> dict[str, str]:
    """City names as people type them ('new york', 'buenos aires'), from the zone ids and each lexicon."""
    found: dict[str, str] = {}
    for zone in available_timezones():
        if "/" in zone and not zone.startswith(("Etc/", "posix/", "right/", "SystemV/", "US/")):
            found.setdefault(zone.rsplit("/", 1)[1].replace("_", " ").casefold(), zone)
    for module in lexicon.LANGUAGES.values():
        found.update(module.CITIES)
    return found


def _offset_zone(hours: int, minutes: int = 0) -> tzinfo:
    sign = "+" if hours >= 0 else "-"
    offset = timedelta(hours=hours, minutes=minutes if hours >= 0 else -minutes)
    return timezone(offset, f"UTC{sign}{abs(hours):02d}:{minutes:02d}")


@cache
def _patterns() -> list[tuple[re.Pattern[str], str]]:
    abbreviations = lexicon.alternatives(set(FIXED_HOURS) - _WORDS)
    found = [
        (r"\b(?:utc|gmt) ?(?P<sign>[+-])(?P<h>\d{1,2})(?::?(?P<m>\d{2}))?(?![\w:])", "offset"),
        (rf"\b(?P<region>{lexicon.alternatives(REGIONS)})\b", "region"),
        (rf"\b(?P<ambiguous>{'|'.join(AMBIGUOUS)})\b", "ambiguous"),
        (r"\b(?:in )?(?P<city>(?:[a-z]+ ){0,3}?[a-z]+) time\b", "city"),
        (r"\b(?:hora|horario) (?:de |del )?(?P<city2>[a-z]+(?: [a-z]+){0,3})", "city"),
        (rf"(?<=[\d m])(?P<abbr>{abbreviations})\b", "abbreviation"),
    ]
    return [(re.compile(pattern), kind) for pattern, kind in found]


def _city(match: re.Match[str]) -> tuple[str, str] | None:
    """The zone of the city a match names and the words that name it: the city is the last words
    before 'time' ('9am new york time') or the first after 'hora de' ('hora de buenos aires')."""
    before = match.groupdict().get("city")
    words = (before or match["city2"]).split()
    spans = [words[i:] for i in range(len(words))] if before else [words[:i] for i in range(len(words), 0, -1)]
    for span in spans:
        name = " ".join(span)
        if name in _cities():
            return _cities()[name], name
    return None


def take_zone(t: str) -> tuple[str, tzinfo, str] | None:
    """(the text without the zone, the zone named, the words that named it), or None when none is named."""
    for pattern, kind in _patterns():
        match = pattern.search(t)
        if match is None:
            continue
        start, end = match.start(), match.end()
        if kind == "city":
            city = _city(match)
            if city is None:
                continue
            zone = ZoneInfo(city[0])
            if match.groupdict().get("city"):  # "9am new york time": only the city's words go, with "in" and "time"
                start = match.start() + match[0].index(city[1]) - (3 if match[0].startswith("in ") else 0)
            else:
                end = match.start("city2") + len(city[1])
            rest = re.sub(r" +", " ", t[:start] + " " + t[end:]).strip(" ,")
            return rest, zone, zone.key
        rest = re.sub(r" +", " ", t[:start] + " " + t[end:]).strip(" ,")
        said = match[0].strip()
        if kind == "ambiguous":
            raise Unreadable(phrase("reason.zone_ambiguous", zone=said.upper()))
        if kind == "offset":
            hours, minutes = int(match["h"]), int(match["m"] or 0)
            if hours > 14 or minutes > 59:
                raise Unreadable(phrase("reason.zone_ambiguous", zone=said.upper()))
            return rest, _offset_zone(hours if match["sign"] == "+" else -hours, minutes), said.upper()
        if kind == "region":
            return rest, ZoneInfo(REGIONS[match["region"]]), said.upper() if len(said) == 2 else said
        return rest, _offset_zone(FIXED_HOURS[match["abbr"]]), said.upper()
    return None
