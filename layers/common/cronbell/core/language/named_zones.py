"""Zones named inside a time phrase ("5pm CET", "10am PST", "9am New York time", "a las 10 hora de Madrid"):
found, taken out of the text, and the rest read in that zone. An abbreviation of standard or summer time is
its fixed offset (CET is UTC+01:00 all year, CEST UTC+02:00); a region's short name ("ET", "PT", "Pacific
time") and a city are the IANA zone, with its own DST. Abbreviations that name several zones (IST, CST)
are refused rather than guessed, unless one of them is the schedule's own zone (IST in Asia/Kolkata, CST in
America/Chicago or Asia/Shanghai: what its clocks are called in winter or summer), which is then read."""

from __future__ import annotations

import re
from datetime import datetime, timedelta, timezone, tzinfo
from functools import cache
from zoneinfo import ZoneInfo, available_timezones

from cronbell.core.domain.phrases import phrase
from cronbell.core.language import lexicon
from cronbell.core.language.clocks import Unreadable

FIXED_HOURS: dict[str, int] = lexicon.union("ZONE_HOURS")
REGIONS: dict[str, str] = lexicon.union("ZONE_REGIONS")
AMBIGUOUS: dict[str, tuple[str, ...]] = lexicon.union("ZONE_AMBIGUOUS")
_WORDS = set(lexicon.each("ZONE_NOT_ABBREVIATIONS"))
_OFFSET, _REGION, _AMBIGUOUS, _CITY, _ABBREVIATION = range(5)  # the kinds of a zone named


@cache
def _cities() -> dict[str, str]:
    """City names as people type them ('new york', 'buenos aires'), from the zone ids and each lexicon."""
    found: dict[str, str] = {}
    for zone in sorted(available_timezones()):  # sorted: the same zone for a city in every process
        if "/" in zone and not zone.startswith(("Etc/", "posix/", "right/", "SystemV/", "US/")):
            found.setdefault(zone.rsplit("/", 1)[1].replace("_", " ").casefold(), zone)
    for module in lexicon.LANGUAGES.values():
        found.update(module.CITIES)
    return found


@cache
def _names_of(zone: tzinfo) -> frozenset[str]:
    """What a zone's clocks are called in winter and in summer ('ist' in Asia/Kolkata; 'cst', 'cdt' in
    America/Chicago), lower case."""
    return frozenset(str(datetime(2026, month, 15, tzinfo=zone).tzname()).casefold() for month in (1, 7))


def _offset_zone(hours: int, minutes: int = 0) -> tzinfo:
    sign = "+" if hours >= 0 else "-"
    offset = timedelta(hours=hours, minutes=minutes if hours >= 0 else -minutes)
    return timezone(offset, f"UTC{sign}{abs(hours):02d}:{minutes:02d}")


@cache
def _patterns() -> list[tuple[re.Pattern[str], int]]:
    abbreviations = lexicon.alternatives(set(FIXED_HOURS) - _WORDS)
    found = [
        (r"\b(?:utc|gmt) ?(?P<sign>[+-])(?P<h>\d{1,2})(?::?(?P<m>\d{2}))?(?![\w:])", _OFFSET),
        (r"(?<=:\d\d )(?P<sign>[+-])(?P<h>\d{2}):?(?P<m>\d{2})(?![\w:])", _OFFSET),  # "11:45 +0100", after a clock
        (rf"\b(?P<region>{lexicon.alternatives(REGIONS)})\b", _REGION),
        (rf"\b(?P<ambiguous>{'|'.join(AMBIGUOUS)})\b", _AMBIGUOUS),
        (
            rf"\b(?:(?P<lead>{lexicon.some('ZONE_CITY_LEAD')}) )?(?P<city>(?:[a-z]+ ){{0,3}}?[a-z]+) "
            rf"(?:{lexicon.some('ZONE_CITY_AFTER')})\b",
            _CITY,
        ),
        (rf"\b(?:{lexicon.some('ZONE_CITY_BEFORE')})(?P<city2>[a-z]+(?: [a-z]+){{0,3}})", _CITY),
        (rf"(?<=[\d m])(?P<abbr>{abbreviations})\b", _ABBREVIATION),
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


def take_zone(t: str, home: tzinfo | None = None) -> tuple[str, tzinfo, str] | None:
    """(the text without the zone, the zone named, the words that named it), or None when none is named.
    `home`: the schedule's zone, which an abbreviation of several zones means when it is one of them."""
    for pattern, kind in _patterns():
        match = pattern.search(t)
        if match is None:
            continue
        start, end = match.start(), match.end()
        if kind == _CITY:
            city = _city(match)
            if city is None:
                continue
            zone = ZoneInfo(city[0])
            if match.groupdict().get("city"):  # "9am new york time": only the city's words go, with "in" and "time"
                start = match.start() + match[0].index(city[1]) - (len(match["lead"]) + 1 if match["lead"] else 0)
            else:
                end = match.end() - len(match["city2"]) + len(city[1])  # the city is the last group
            rest = re.sub(r" +", " ", t[:start] + " " + t[end:]).strip(" ,")
            return rest, zone, zone.key
        rest = re.sub(r" +", " ", t[:start] + " " + t[end:]).strip(" ,")
        said = match[0].strip()
        if kind == _AMBIGUOUS:
            if home is not None and said in _names_of(home):
                return rest, home, said.upper()
            raise Unreadable(phrase("reason.zone_ambiguous", zone=said.upper(), zones=", ".join(AMBIGUOUS[said])))
        if kind == _OFFSET:
            hours, minutes = int(match["h"]), int(match["m"] or 0)
            if hours > 14 or minutes > 59:
                raise Unreadable(phrase("reason.zone_offset", zone=said.upper()))
            return rest, _offset_zone(hours if match["sign"] == "+" else -hours, minutes), said.upper()
        if kind == _REGION:
            return rest, ZoneInfo(REGIONS[match["region"]]), said.upper() if len(said) == 2 else said
        return rest, _offset_zone(FIXED_HOURS[match["abbr"]]), said.upper()
    return None
