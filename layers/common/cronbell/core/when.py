"""One-shot times: a small deterministic grammar in English and Spanish, the current time as a parameter.

Accepted forms (case- and accent-insensitive):
  RFC3339 (`2026-12-31T23:59:00Z`, `...+01:00`; without an offset it is a local time in the zone),
  `YYYY-MM-DD HH:MM`, `HH:MM` (today, or tomorrow if already past),
  `in 30 minutes` / `en 30 minutos` / `dentro de 2 horas` / `in an hour` / `en una hora` /
  `in 1 hour and 30 minutes`,
  `[today|tomorrow|the day after tomorrow] [at] TIME` / `[hoy|mañana|pasado mañana] [a las] TIME`,
  `[on|next] <weekday> [at] TIME` / `el [próximo] <día> [a las] TIME` / `el <día> que viene ...`,
  `december 1 [2026] at TIME` / `el 1 de diciembre [de 2026] a las TIME`.
TIME is `9`, `9:30`, `9am`, `9:30 pm`, `21:00`, `21h`, `noon`, `midnight`, `mediodía`, `medianoche`,
`9 y media`, `9 menos cuarto`, `6 de la tarde`, `10 de la noche`.

Resolution rules (documented, never silent):
  - a bare weekday is the next such day whose time is still ahead (today included); `next <weekday>` /
    `el próximo <día>` is never today;
  - a day and month without a year is this year, or next year if already past (a note says so);
  - a local time that does not exist (spring DST gap) is shifted forward by the gap; an ambiguous one
    (autumn) is the first occurrence; both add a note;
  - any result not strictly after `now` is refused with TIME_IN_PAST.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta, tzinfo
from functools import cache
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError, available_timezones

from cronbell.core import texts
from cronbell.core.errors import ToolError, refusal
from cronbell.core.texts import Phrase, Word, phrase, say, words

MAX_YEAR = 2199  # EventBridge Scheduler's last year

# weekday numbers follow date.weekday(): Monday 0 ... Sunday 6
WEEKDAY_WORDS: dict[str, int] = {
    "monday": 0, "mon": 0, "lunes": 0,
    "tuesday": 1, "tue": 1, "tues": 1, "martes": 1,
    "wednesday": 2, "wed": 2, "miercoles": 2,
    "thursday": 3, "thu": 3, "thur": 3, "thurs": 3, "jueves": 3,
    "friday": 4, "fri": 4, "viernes": 4,
    "saturday": 5, "sat": 5, "sabado": 5,
    "sunday": 6, "sun": 6, "domingo": 6,
}  # fmt: skip
MONTH_WORDS: dict[str, int] = {
    "january": 1, "jan": 1, "enero": 1,
    "february": 2, "feb": 2, "febrero": 2,
    "march": 3, "mar": 3, "marzo": 3,
    "april": 4, "apr": 4, "abril": 4,
    "may": 5, "mayo": 5,
    "june": 6, "jun": 6, "junio": 6,
    "july": 7, "jul": 7, "julio": 7,
    "august": 8, "aug": 8, "agosto": 8,
    "september": 9, "sep": 9, "sept": 9, "septiembre": 9, "setiembre": 9,
    "october": 10, "oct": 10, "octubre": 10,
    "november": 11, "nov": 11, "noviembre": 11,
    "december": 12, "dec": 12, "diciembre": 12,
}  # fmt: skip

# localize() kinds
EXISTS = ""
NONEXISTENT = "nonexistent"
AMBIGUOUS = "ambiguous"


@dataclass(frozen=True)
class OneShot:
    at: datetime  # aware, in the schedule's zone, microsecond=0, strictly after now
    notes: tuple[str, ...] = ()


def accepted_forms(locale: str | None) -> list[str]:
    """The one-shot forms an `invalid_time` refusal lists, in the reader's language."""
    return list(words("accepted_forms", locale))


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


def normalize(text: str) -> str:
    """Lowercase, strip accents, 'a.m.' -> 'am', collapse blanks, drop trailing punctuation."""
    decomposed = unicodedata.normalize("NFKD", text)
    plain = "".join(c for c in decomposed if not unicodedata.combining(c)).lower()
    plain = re.sub(r"\b([ap])\.\s?m\.?(?=\s|$)", r"\1m", plain)
    plain = re.sub(r"\s+", " ", plain).strip()
    return plain.rstrip(".!?;, ").strip()


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


def now_phrase(now: datetime, tz: tzinfo) -> Phrase:
    """'Wednesday 2026-05-13 10:23 (Europe/Madrid, UTC+02:00)', in the reader's language."""
    local = now.astimezone(tz)
    return phrase(
        "now",
        weekday=Word("weekdays", local.weekday()),
        date=f"{local:%Y-%m-%d}",
        clock=f"{local:%H:%M}",
        zone=tz_label(tz),
        offset=format_offset(local),
    )


# --- time of day -----------------------------------------------------------------------------------

_CLOCK = (
    r"(?P<h>\d{1,2})(?:(?::|\.|h)(?P<m>\d{2}))?h?"
    r"(?:\s*(?P<ampm>am|pm))?"
    r"(?:\s+(?P<frac>y media|y cuarto|menos cuarto|y (?P<ym>\d{1,2})))?"
    r"(?:\s+(?:de la|por la|en la)\s+(?P<period>manana|tarde|noche|madrugada)|\s+(?P<mid>del mediodia))?"
    r"(?:\s+(?:en punto|o'?clock|horas|hrs))?"
)
_PAST_OR_TO = r"^(?P<part>half|quarter) (?P<way>past|to) (?P<h>\d{1,2})\b"


def _as_digits(match: re.Match[str]) -> str:
    """'half past 9' -> '9:30', 'quarter to 5' -> '4:45' ('quarter to 1' -> '12:45')."""
    hour = int(match["h"])
    if match["way"] == "to":
        return f"{hour - 1 or 12}:45" if match["part"] == "quarter" else match[0]  # no "half to"
    return f"{hour}:{30 if match['part'] == 'half' else 15:02d}"


_NAMED_CLOCKS = {
    "noon": (12, 0), "midday": (12, 0), "mediodia": (12, 0), "el mediodia": (12, 0),
    "midnight": (0, 0), "medianoche": (0, 0), "la medianoche": (0, 0),
}  # fmt: skip


def parse_clock(text: str) -> tuple[int, int] | None:
    """A time of day in normalized text, as (hour, minute), or None if it is not one."""
    text = text.strip()
    if text in _NAMED_CLOCKS:
        return _NAMED_CLOCKS[text]
    text = re.sub(_PAST_OR_TO, _as_digits, text)
    match = re.fullmatch(_CLOCK, text)
    if not match:
        return None
    hour, minute = int(match["h"]), int(match["m"] or 0)
    frac, ampm, period = match["frac"], match["ampm"], match["period"]
    if frac:
        if match["m"]:
            return None
        if frac == "y media":
            minute = 30
        elif frac == "y cuarto":
            minute = 15
        elif frac == "menos cuarto":
            hour, minute = hour - 1, 45
            if hour < 0:
                hour = 23
        else:
            minute = int(match["ym"])
    if minute > 59:
        return None
    if ampm:
        if period or match["mid"] or not 1 <= hour <= 12:
            return None
        hour = hour % 12 + (12 if ampm == "pm" else 0)
    elif period or match["mid"]:
        if hour > 12:
            # "21 de la noche": already a 24-hour clock; only accept a consistent period
            if period not in ("tarde", "noche"):
                return None
        elif period in ("tarde",) or match["mid"]:
            hour = hour if hour == 12 else hour + 12
        elif period == "noche":
            hour = 0 if hour == 12 else (hour + 12 if hour >= 6 else hour)
        elif period in ("manana", "madrugada") and hour == 12:
            hour = 0 if period == "madrugada" else 12
    if hour > 23:
        return None
    return hour, minute


# the part of the day a word names, as parse_clock's period ("8 de la noche" is 20:00)
PERIOD_OF = {
    "tonight": "noche", "night": "noche", "evening": "noche", "noche": "noche",
    "afternoon": "tarde", "tarde": "tarde",
    "morning": "manana", "manana": "manana",
}  # fmt: skip


def parse_clock_in(text: str, period: str) -> tuple[int, int] | None:
    """A time of day read in a part of the day ('8' tonight is 20:00), unless it names its own."""
    if not re.search(r"am|pm|de la|del|por la", text):
        text += f" de la {period}"
    return parse_clock(text)


# --- one-shot grammar ------------------------------------------------------------------------------

_WD = "|".join(sorted(WEEKDAY_WORDS, key=len, reverse=True))
_MON = "|".join(sorted(MONTH_WORDS, key=len, reverse=True))
_AT = r"(?:at|a las|a la|a|@|sobre las|hacia las)"
_ORD = r"(?:st|nd|rd|th|º|o)?"

_ISO = (
    r"(?P<y>\d{4})-(?P<mo>\d{2})-(?P<d>\d{2})(?:t|\s)(?P<h>\d{2}):(?P<mi>\d{2})(?::(?P<s>\d{2})(?:\.\d+)?)?"
    r"\s*(?P<off>z|utc|[+-]\d{2}:?\d{2})?"
)
_RELATIVE = r"(?:in|within|after|en|dentro de|de aqui a)\s+(?P<rest>.+)"
_AMOUNT = (
    r"(?:(?P<n>\d+)\s*|(?P<word>an|a|one|un|una|uno)\s+)"
    r"(?P<unit>minutes?|mins?|m|hours?|hrs?|h|days?|d|weeks?|minutos?|horas?|dias?|semanas?)"
)

# Patterns are kept as text: `re` compiles each on first use and caches it, so importing this
# module (every cold start of the tools function) compiles none of them.
# day specifications: (regex, kind); longest first so "pasado manana" wins over "manana"
_DAY_SPECS: list[tuple[str, str]] = [
    (r"(?:the )?day after tomorrow|pasado manana", "plus2"),
    (r"tomorrow|manana", "plus1"),
    (r"today|hoy|this day", "today"),
    (
        rf"(?:on )?next (?P<wd>{_WD})|(?:el )?proximo (?P<wd2>{_WD})|(?:el )?(?P<wd3>{_WD}) (?:proximo|que viene)",
        "next_weekday",
    ),
    (rf"(?:on |el |this |este |on this )?(?P<wd>{_WD})", "weekday"),
    (r"(?:on |el )?(?P<y>\d{4})-(?P<mo>\d{2})-(?P<d>\d{2})", "iso_date"),
    (rf"(?:on )?(?P<mon>{_MON}) (?:the )?(?P<d>\d{{1,2}}){_ORD}(?:,? (?P<y>\d{{4}}))?", "date"),
    (rf"(?:on )?(?:the )?(?P<d>\d{{1,2}}){_ORD} (?:of )?(?P<mon>{_MON})(?:,? (?P<y>\d{{4}}))?", "date"),
    (rf"(?:el )?(?:dia )?(?P<d>\d{{1,2}}){_ORD} de (?P<mon>{_MON})(?: (?:de|del) (?P<y>\d{{4}}))?", "date"),
    (r"(?:on )?the (?P<d>\d{1,2})(?:st|nd|rd|th)|(?:el )?dia (?P<d2>\d{1,2})", "day_of_month"),
]


_PARTS_OF_DAY = r"tonight|this evening|this afternoon|this morning|esta noche|esta tarde|esta manana"


class _NoClockError(Exception):
    """A day was named without a time of day ('tomorrow')."""


def _invalid(text: str, language: str, reason: Phrase | None = None) -> ToolError:
    forms = accepted_forms(language)
    listed = "; ".join(forms)
    if reason is None:
        return refusal("invalid_time", {"accepted": forms}, text=text, forms=listed)
    return refusal("invalid_time.because", {"accepted": forms}, text=text, reason=reason, forms=listed)


def _past(at: datetime, now: datetime, tz: tzinfo) -> ToolError:
    details = {"now": now.astimezone(tz).isoformat(timespec="seconds")}
    return refusal("time_in_past", details, when=f"{at:%Y-%m-%d %H:%M}", now=now_phrase(now, tz))


def _dst_note(naive: datetime, result: datetime, kind: str, tz: tzinfo, language: str) -> str:
    key = "note.nonexistent" if kind == NONEXISTENT else "note.ambiguous"
    wall, zone = f"{naive:%Y-%m-%d %H:%M}", tz_label(tz)
    return say(key, language, wall=wall, zone=zone, clock=f"{result:%H:%M}", offset=format_offset(result))


def _second_occurrence_note(at: datetime, tz: tzinfo, language: str) -> str:
    wall = f"{at:%Y-%m-%d %H:%M}"
    return say("note.second_occurrence", language, wall=wall, zone=tz_label(tz), offset=format_offset(at))


def _relative(rest: str) -> timedelta | None:
    """'30 minutes', 'an hour', '1 hour and 30 minutes', '1h30m', 'una hora y media' -> a timedelta."""
    rest = re.sub(r"\b(?:hora|hour) y media\b", "hora y 30 minutos", rest)
    rest = re.sub(r"\b(\w+) horas? y media\b", r"\1 horas y 30 minutos", rest)
    rest = re.sub(r"\b(?:half an hour|media hora)\b", "30 minutes", rest)
    rest = re.sub(r"\b(an?|one|\d+) hours? and a half\b", r"\1 hours and 30 minutes", rest)
    # amounts are separated by a comma, "and", "y", or nothing at all before a number ("1h30m")
    parts = [p for p in re.split(r"\s*(?:,|\band\b|\by\b)\s*|\s+(?=\d)|(?<=[a-z])(?=\d)", rest) if p]
    if not parts:
        return None
    total = timedelta(0)
    for part in parts:
        match = re.fullmatch(_AMOUNT, part)
        if not match:
            return None
        count = int(match["n"]) if match["n"] else 1
        unit = match["unit"]
        if unit.startswith(("week", "semana")):
            total += timedelta(days=7 * count)
        elif unit.startswith(("day", "dia")) or unit == "d":
            total += timedelta(days=count)
        elif unit.startswith(("hour", "hora", "hr")) or unit == "h":
            total += timedelta(hours=count)
        else:
            total += timedelta(minutes=count)
    return total


def _split_day_and_clock(text: str) -> tuple[re.Match[str], str, tuple[int, int] | None] | None:
    """Find a day specification at the start or the end of `text`, and the clock beside it."""
    for pattern, kind in _DAY_SPECS:
        prefix = re.fullmatch(rf"(?P<day>{pattern})(?:,)?(?: {_AT})?(?: (?P<clock>.+))?", text)
        suffix = re.fullmatch(rf"(?:{_AT} )?(?P<clock>.+?),? (?P<day>{pattern})", text)
        for match in (prefix, suffix):
            if match is None:
                continue
            day_match = re.fullmatch(pattern, match["day"])
            if day_match is None:
                continue
            clock_text = match["clock"]
            if clock_text is None:
                return day_match, kind, None
            clock = parse_clock(clock_text)
            if clock is not None:
                return day_match, kind, clock
    return None


def _date_for(
    kind: str, day: re.Match[str], today: date, clock: tuple[int, int], now_local: datetime
) -> tuple[date, bool]:
    """The calendar date a day specification names. Returns (date, year_was_inferred)."""
    if kind in ("plus2", "plus1", "today"):
        return today + timedelta(days={"plus2": 2, "plus1": 1, "today": 0}[kind]), False
    if kind in ("weekday", "next_weekday"):
        groups = day.groupdict()
        wanted = WEEKDAY_WORDS[groups.get("wd") or groups.get("wd2") or groups.get("wd3") or ""]
        ahead = (wanted - today.weekday()) % 7
        if kind == "next_weekday" and ahead == 0:
            ahead = 7
        if kind == "weekday" and ahead == 0 and (clock[0], clock[1]) <= (now_local.hour, now_local.minute):
            ahead = 7
        return today + timedelta(days=ahead), False
    if kind == "day_of_month":
        return _next_day_of_month(int(day["d"] or day["d2"]), today, clock, now_local), False
    month = int(day["mo"]) if kind == "iso_date" else MONTH_WORDS[day["mon"]]
    if day["y"]:
        return date(int(day["y"]), month, int(day["d"])), False
    candidate = date(today.year, month, int(day["d"])) if _valid(today.year, month, int(day["d"])) else None
    if candidate is not None and (candidate, clock) > (today, (now_local.hour, now_local.minute)):
        return candidate, False
    year = today.year + 1
    while not _valid(year, month, int(day["d"])):  # 29 February
        year += 1
        if year > today.year + 8:
            raise ValueError("no such day")
    return date(year, month, int(day["d"])), True


def _next_day_of_month(number: int, today: date, clock: tuple[int, int], now_local: datetime) -> date:
    """'the 5th': this month's if still ahead, else the next month that has that day."""
    year, month = today.year, today.month
    for _ in range(13):
        if _valid(year, month, number):
            candidate = date(year, month, number)
            if (candidate, clock) > (today, (now_local.hour, now_local.minute)):
                return candidate
        year, month = (year + 1, 1) if month == 12 else (year, month + 1)
    raise ValueError("no such day")


def _valid(year: int, month: int, day: int) -> bool:
    try:
        date(year, month, day)
    except ValueError:
        return False
    return True


def _days_ahead_at(rest: str, now_local: datetime, tz: ZoneInfo, language: str, notes: list[str]) -> datetime | None:
    """'3 days at 9am', '2 semanas a las 10': whole days ahead, at a time of day."""
    match = re.fullmatch(rf"(?P<amount>.+?),? {_AT} (?P<clock>.+)", rest)
    delta = _relative(match["amount"]) if match else None
    clock = parse_clock(match["clock"]) if match else None
    if delta is None or clock is None or delta.seconds or not delta.days:
        return None
    day = now_local.date() + delta
    return _wall(datetime(day.year, day.month, day.day, clock[0], clock[1]), tz, language, notes)


def _part_of_day(t: str, now_local: datetime) -> datetime | None:
    """'tonight at 8', 'this afternoon at 3', 'esta noche a las 10': today, the hour read in that
    part of the day unless it says am/pm; a night hour after midnight is tomorrow's."""
    for pattern in (
        rf"(?P<part>{_PARTS_OF_DAY})(?:,)?(?: {_AT})? (?P<clock>.+)",
        rf"(?:{_AT} )?(?P<clock>.+?),? (?P<part>{_PARTS_OF_DAY})",
    ):
        match = re.fullmatch(pattern, t)
        if match is None:
            continue
        period = PERIOD_OF[match["part"].split()[-1]]
        clock = parse_clock_in(match["clock"], period)
        if clock is None:
            return None
        day = now_local.date() + timedelta(days=1 if period == "noche" and clock[0] < 6 else 0)
        return datetime(day.year, day.month, day.day, clock[0], clock[1])
    return None


def parse_one_shot(text: str, now: datetime, tz: ZoneInfo, locale: str = "en") -> OneShot:
    """Read a one-shot time. `now` is aware (any zone); the answer is in `tz`, strictly after `now`."""
    if now.tzinfo is None:
        raise ValueError("now must be an aware datetime")
    language = texts.language(locale)
    raw = text if isinstance(text, str) else ""
    t = normalize(raw)
    if not t:
        raise _invalid(raw, language, phrase("reason.empty"))
    now_local = now.astimezone(tz)
    notes: list[str] = []
    try:
        at = _read(t, now, now_local, tz, language, notes)
    except _NoClockError as exc:
        raise _invalid(raw, language, phrase("reason.no_clock")) from exc
    except (ValueError, OverflowError) as exc:
        raise _invalid(raw, language) from exc
    if at is None:
        raise _invalid(raw, language)
    at = at.replace(microsecond=0)
    if at.year > MAX_YEAR:
        raise _invalid(raw, language, phrase("reason.too_far"))
    if at.astimezone(UTC) <= now.astimezone(UTC):  # instants: same-zone comparisons ignore `fold`
        raise _past(at, now, tz)
    return OneShot(at=at, notes=tuple(notes))


def _wall(naive: datetime, tz: ZoneInfo, language: str, notes: list[str]) -> datetime:
    aware, kind = localize(naive, tz)
    if kind != EXISTS:
        notes.append(_dst_note(naive, aware, kind, tz, language))
    return aware


def _read(t: str, now: datetime, now_local: datetime, tz: ZoneInfo, language: str, notes: list[str]) -> datetime | None:
    iso = re.fullmatch(_ISO, t)
    if iso:
        naive = datetime(
            int(iso["y"]), int(iso["mo"]), int(iso["d"]), int(iso["h"]), int(iso["mi"]), int(iso["s"] or 0)
        )
        off = iso["off"]
        if off is None:
            return _wall(naive, tz, language, notes)
        if off in ("z", "utc"):
            return naive.replace(tzinfo=UTC).astimezone(tz)
        sign = 1 if off[0] == "+" else -1
        digits = off[1:].replace(":", "")
        offset = timedelta(hours=int(digits[:2]), minutes=int(digits[2:]))
        if offset >= timedelta(hours=24):
            raise ValueError(off)
        return (naive - sign * offset).replace(tzinfo=UTC).astimezone(tz)

    relative = re.fullmatch(_RELATIVE, t)
    if relative:
        delta = _relative(relative["rest"])
        if delta is None:
            return _days_ahead_at(relative["rest"], now_local, tz, language, notes)
        days = timedelta(days=delta.days)
        rest = delta - days
        base = now_local.replace(microsecond=0)
        if days:
            # whole days keep the wall-clock time (across a DST change too); the rest is elapsed time
            base = _wall(base.replace(tzinfo=None) + days, tz, language, notes)
        at = (base.astimezone(UTC) + rest).astimezone(tz)
        if is_second_occurrence(at):
            notes.append(_second_occurrence_note(at, tz, language))
        return at

    part_of_day = _part_of_day(t, now_local)
    if part_of_day is not None:
        return _wall(part_of_day, tz, language, notes)

    split = _split_day_and_clock(t)
    if split is not None:
        day, kind, clock = split
        if clock is None:
            raise _NoClockError(t)
        when, inferred = _date_for(kind, day, now_local.date(), clock, now_local)
        naive = datetime(when.year, when.month, when.day, clock[0], clock[1])
        if inferred:
            notes.append(say("note.no_year", language, year=when.year))
        return _wall(naive, tz, language, notes)

    bare = re.fullmatch(rf"(?:{_AT} )?(?P<clock>.+)", t)
    if bare:
        clock = parse_clock(bare["clock"])
        explicit = t != bare["clock"] or re.search(r"[:.h]|am|pm|de la|mediodia|noon|midnight|medianoche", t)
        if clock is None or not explicit:
            return None
        naive = datetime.combine(now_local.date(), datetime.min.time()).replace(hour=clock[0], minute=clock[1])
        if (clock[0], clock[1]) <= (now_local.hour, now_local.minute) or _wall(naive, tz, language, []).astimezone(
            UTC
        ) <= now.astimezone(UTC):
            naive += timedelta(days=1)
        return _wall(naive, tz, language, notes)
    return None
