"""One-shot times in English and Spanish, the current time as a parameter: RFC3339 and ISO forms,
amounts of time from now ("in 90 minutes", "two weeks later", "in 2 years"), and calendar phrases
(core/days.py). A result not strictly after `now` is refused with TIME_IN_PAST; a local time that does
not exist (spring DST gap) is moved forward by the gap and an ambiguous one (autumn) is the first
occurrence, both with a note; seconds named in an amount round the result up to the minute."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta, tzinfo
from fractions import Fraction
from functools import cache
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError, available_timezones

from cronbell.core import lexicon, named_days, texts
from cronbell.core.clocks import (
    MAX_YEAR,
    WEEKDAY_WORDS,
    NoClockError,
    Unreadable,
    format_offset,
    is_second_occurrence,
    normalize,
    parse_clock,
    second_occurrence_note,
    tz_label,
    valid_date,
    wall,
)
from cronbell.core.days import DEFAULT_HOUR, read_calendar
from cronbell.core.errors import ToolError, refusal
from cronbell.core.named_zones import take_zone
from cronbell.core.texts import Moment, Phrase, Word, phrase, say, words


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


def now_phrase(now: datetime, tz: tzinfo) -> Phrase:
    """'Wednesday 13 May 2026, 10:23 (Europe/Madrid, UTC+02:00)', in the reader's language."""
    local = now.astimezone(tz)
    date = phrase(
        "date_year",
        weekday=Word("weekdays", local.weekday()),
        day=local.day,
        month=Word("months", local.month - 1),
        year=local.year,
    )
    return phrase(
        "now",
        date=date,
        clock=f"{local:%H:%M}",
        zone=tz_label(tz),
        offset=format_offset(local),
    )


# --- one-shot grammar ------------------------------------------------------------------------------

_AT = r"(?:at|a las|a la|a|@|sobre las|hacia las)"

_ISO = (
    r"(?P<y>\d{4})-(?P<mo>\d{2})-(?P<d>\d{2})(?:t|\s)(?P<h>\d{2}):(?P<mi>\d{2})(?::(?P<s>\d{2})(?:\.\d+)?)?"
    r"\s*(?P<off>z|utc|[+-]\d{2}:?\d{2})?"
)
_RELATIVE = (
    r"(?:in|within|after|en|dentro de|de aqui a)\s+(?P<rest>.+)"
    r"|(?P<rest2>.+?)\s+(?:later|from now|from today|hence|mas tarde|despues|a partir de ahora|a partir de hoy)"
)
_AMOUNT = (
    r"(?P<n>\d+)\s*(?P<unit>seconds?|secs?|s|minutes?|mins?|m|hours?|hrs?|h|days?|d|weeks?|months?|years?"
    r"|segundos?|minutos?|horas?|dias?|semanas?|mes|meses|anos?)"
)
_NUMBER_WORDS = lexicon.NUMBER_WORDS


# words that name the past ("2 days ago", "last friday", "ayer", "el lunes pasado"), said as the reason
_PAST_WORDS = (
    r"\b(?:ago|yesterday|last (?:night|week|month|year|" + "|".join(WEEKDAY_WORDS) + r")|hace|ayer|anoche|anteayer)\b"
    r"|\bpasad[oa]\b(?! manana)"
)

# words of courtesy around a time ("remind me on friday at 3pm please", "por favor, mañana a las 9")
_COURTESY = rf"\b(?:{lexicon.alternatives(lexicon.COURTESY)})\b"


def _without_courtesy(t: str) -> str:
    return re.sub(r"^[\s,]+|[\s,]+$", "", re.sub(r"\s+", " ", re.sub(_COURTESY, " ", t)))


CLOSEST_FORMS = 3  # the accepted forms an `invalid_time` refusal names
# the forms named when none is like the text: an exact date and time, a day ahead, a delay
_GENERAL_FORMS = (1, 4, 3)


def closest_forms(text: str, language: str) -> list[str]:
    """The few accepted forms most like `text` (the words and kinds of number they share), best first;
    the general ones when none shares anything."""
    lines = accepted_forms(language)
    # each form alone, without the long notes some carry ("(a day without a time: 09:00; ...)")
    forms = [re.sub(r"\s*\([^)]{30,}\)", "", form).strip() for line in lines for form in line.split(" / ")]

    def tokens(t: str) -> set[str]:
        t = normalize(t)
        shapes = {"#" * len(n) for n in re.findall(r"\d+", t)}  # a number's length: a year, an hour
        return {w for w in re.findall(r"[a-z]+", t) if len(w) > 1} | shapes | set(re.findall(r"[:/-]", t))

    wanted = tokens(text)
    scored = sorted(((len(wanted & tokens(form)), -i) for i, form in enumerate(forms)), reverse=True)
    best = [forms[-i] for score, i in scored if score > 0][:CLOSEST_FORMS]
    return best or [lines[i].split(" / ")[0].strip() for i in _GENERAL_FORMS]


def _invalid(text: str, language: str, reason: Phrase | None = None) -> ToolError:
    forms = accepted_forms(language)
    listed = "".join(f"\n- {form}" for form in closest_forms(text, language))
    if reason is None:
        return refusal("invalid_time", {"accepted": forms}, text=text, forms=listed)
    return refusal("invalid_time.because", {"accepted": forms}, text=text, reason=reason, forms=listed)


def _past(at: datetime, now: datetime, tz: tzinfo) -> ToolError:
    details = {"now": now.astimezone(tz).isoformat(timespec="seconds")}
    when = Moment(at, tz, now.astimezone(tz).year)
    return refusal("time_in_past", details, when=when, now=now_phrase(now, tz))


def _past_words(text: str, now: datetime, tz: tzinfo) -> ToolError:
    """'yesterday at 9', 'hace dos días': a time in the past said in words is refused as any time in the past."""
    details = {"now": now.astimezone(tz).isoformat(timespec="seconds")}
    return refusal("time_in_past.words", details, text=text, now=now_phrase(now, tz))


def _hours_and(minutes: int) -> Callable[[re.Match[str]], str]:
    """'(two) hours and a half' -> '2 hours 30 minutes'; no number of hours is one hour ('hora y media')."""

    def spell(match: re.Match[str]) -> str:
        count = match[1] or "1"
        return f"{_NUMBER_WORDS.get(count, count)} hours {minutes} minutes"

    return spell


_FRACTIONS = {"1/4": 15, "1/2": 30, "3/4": 45}
_APPROXIMATELY = lexicon.alternatives(lexicon.APPROXIMATELY)


def _exactly(text: str) -> str:
    """'about 20 minutes', '20 minutes or so', 'unos 20 minutos' -> '20 minutes': read as the amount named."""
    return re.sub(rf"^(?:{_APPROXIMATELY}) |,? (?:{_APPROXIMATELY})$", "", text)


def _words_to_digits(text: str) -> str:
    """'two weeks' -> '2 weeks', 'a fortnight' -> '2 weeks', 'half an hour' -> '30 minutes', 'hora y media' ->
    '1 hours 30 minutes', 'two and a half hours' -> '2 hours 30 minutes', '1.5 hours' -> '90 minutes',
    '1/4 hour' -> '15 minutes', '1 1/2 hours' -> '1 hours 30 minutes'."""
    text = re.sub(
        r"\b(?:(\d+) )?([13]/4|1/2) (?:of an? |de )?(?:hours?|horas?)\b",
        lambda m: f"{m[1] + ' hours ' if m[1] else ''}{_FRACTIONS[m[2]]} minutes",
        text,
    )
    text = re.sub(r"\b(?:a |one )?quarter hour\b", "15 minutes", text)
    text = re.sub(r"\b(?:half an hour|half hour|media hora)\b", "30 minutes", text)
    text = re.sub(r"\b(?:a quarter of an hour|quarter of an hour|quarter hour|un cuarto de hora)\b", "15 minutes", text)
    text = re.sub(r"\b(?:three quarters of an hour|tres cuartos de hora)\b", "45 minutes", text)
    text = re.sub(r"\b(?:an?|one) fortnight\b|\bfortnight\b", "2 weeks", text)
    text = re.sub(r"\b(?:a couple of|a couple|un par de)\b", "2", text)
    words = "|".join(sorted((re.escape(w) for w in _NUMBER_WORDS), key=len, reverse=True))
    # a half or a quarter of an hour after a number of hours, before "a" is read as one
    for ending, minutes in (("and a half|y media", 30), ("and a quarter|y cuarto", 15)):
        text = re.sub(rf"(?:\b({words}|\d+) )?\b(?:hours?|horas?) (?:{ending})\b", _hours_and(minutes), text)
    text = re.sub(rf"\b({words}|\d+) and a half (?:hours?|hrs?)\b", r"\1 hours 30 minutes", text)
    text = re.sub(rf"\b({words})\s+(?=[a-z])", lambda m: f"{_NUMBER_WORDS[m[1]]} ", text)
    # a decimal number of hours that is a whole number of minutes: "1.5 hours", "2,25 horas"
    text = re.sub(r"\b(\d+)[.,](\d+) ?(?:hours?|hrs?|horas?|h)\b", _decimal_hours, text)
    return re.sub(r"\b(\d+)h(\d{1,2})\b", r"\1h\2m", text)  # "1h30"


def _decimal_hours(match: re.Match[str]) -> str:
    minutes = Fraction(f"{match[1]}.{match[2]}") * 60
    return f"{minutes} minutes" if minutes.denominator == 1 else match[0]


@dataclass(frozen=True)
class _Amount:
    months: int  # months and years: calendar arithmetic on the wall clock
    days: int  # days and weeks: whole days on the wall clock
    elapsed: timedelta  # hours, minutes and seconds: elapsed time
    seconds: bool  # a number of seconds was named: the result is rounded up to the minute


def _relative(rest: str) -> _Amount | None:
    """'30 minutes', 'an hour', '1 hour and 30 minutes', '1h30m', 'two weeks', 'in 2 years'."""
    rest = _words_to_digits(_exactly(rest))
    # amounts are separated by a comma, "and", "y", or nothing at all before a number ("1h30m")
    parts = [p for p in re.split(r"\s*(?:,|\band\b|\by\b)\s*|\s+(?=\d)|(?<=[a-z])(?=\d)", rest) if p]
    if not parts:
        return None
    months, days, elapsed, seconds = 0, 0, timedelta(0), False
    for part in parts:
        match = re.fullmatch(_AMOUNT, part)
        if not match:
            return None
        count, unit = int(match["n"]), match["unit"]
        if unit.startswith(("sec", "seg")) or unit == "s":
            elapsed += timedelta(seconds=count)
            seconds = True
        elif unit.startswith(("month", "mes")):
            months += count
        elif unit.startswith(("year", "ano")):
            months += 12 * count
        elif unit.startswith(("week", "semana")):
            days += 7 * count
        elif unit.startswith(("day", "dia")) or unit == "d":
            days += count
        elif unit.startswith(("hour", "hora", "hr")) or unit == "h":
            elapsed += timedelta(hours=count)
        else:
            elapsed += timedelta(minutes=count)
    return _Amount(months, days, elapsed, seconds)


def _add_months(day: date, months: int) -> date:
    """The same day of the month `months` later; a day the month does not have is refused, not moved."""
    index = day.year * 12 + day.month - 1 + months
    year, month = divmod(index, 12)
    if not valid_date(year, month + 1, day.day):
        raise Unreadable(phrase("reason.no_such_day"))
    return date(year, month + 1, day.day)


def _days_ahead_at(rest: str, now_local: datetime, tz: ZoneInfo, language: str, notes: list[str]) -> datetime | None:
    """'3 days at 9am', '2 semanas a las 10': whole days ahead, at a time of day."""
    match = re.fullmatch(rf"(?P<amount>.+?),? {_AT} (?P<clock>.+)", rest)
    amount = _relative(match["amount"]) if match else None
    clock = parse_clock(match["clock"]) if match else None
    if amount is None or clock is None or amount.elapsed or not (amount.days or amount.months):
        return None
    day = _add_months(now_local.date(), amount.months) + timedelta(days=amount.days)
    return wall(datetime(day.year, day.month, day.day, clock[0], clock[1]), tz, language, notes)


_WEEKDAY_NAMES = lexicon.alternatives(WEEKDAY_WORDS)


def _counted(rest: str, now_local: datetime, tz: ZoneInfo, language: str, notes: list[str]) -> datetime | None:
    """'3 weekdays' (Monday to Friday after today, at the time it is now), 'four saturdays' / 'dos sábados'
    (the Nth of that weekday after today, at the default hour)."""
    match = re.fullmatch(
        rf"(?P<n>\d{{1,2}}) (?:(?P<workday>weekdays?)|(?P<wd>{_WEEKDAY_NAMES})(?:e?s)?)", _words_to_digits(rest)
    )
    if match is None or not 1 <= int(match["n"]) <= 60:
        return None
    day, left = now_local.date(), int(match["n"])
    while left:
        day += timedelta(days=1)
        left -= day.weekday() < 5 if match["workday"] else day.weekday() == WEEKDAY_WORDS[match["wd"]]
    if match["workday"]:
        return wall(datetime.combine(day, now_local.time().replace(second=0, microsecond=0)), tz, language, notes)
    notes.append(say("default_hour", language, clock=f"{DEFAULT_HOUR:02d}:00"))
    return wall(datetime(day.year, day.month, day.day, DEFAULT_HOUR), tz, language, notes)


def parse_until(text: str, now: datetime, tz: ZoneInfo, locale: str = "en", country: str | None = None) -> OneShot:
    """Read the end of a recurrence (`until`): any one-shot form, read as the same instant a one-shot
    would be ("tonight" is 21:00, "tomorrow at 18:00" is 18:00), except that a day named without a
    time of day means through that day: its last second, 23:59:59 ("2026-12-24", "tomorrow", "today",
    "hoy", "el viernes"). Today's date is an end while that second is still ahead."""
    return parse_one_shot(text, now, tz, locale, whole_day=True, country=country)


def parse_one_shot(
    text: str, now: datetime, tz: ZoneInfo, locale: str = "en", *, whole_day: bool = False, country: str | None = None
) -> OneShot:
    """Read a one-shot time. `now` is aware (any zone); the answer is in `tz`, strictly after `now`.
    `whole_day`: a day alone is its last second (see parse_until). `country` (ISO 3166-1, the schedule's
    `skip_holidays` when it has one) is where a named holiday is looked up; by default, the zone's country."""
    if now.tzinfo is None:
        raise ValueError("now must be an aware datetime")
    language = texts.language(locale)
    raw = text if isinstance(text, str) else ""
    t = _without_courtesy(normalize(raw))
    if not t:
        raise _invalid(raw, language, phrase("reason.empty"))
    now_local = now.astimezone(tz)
    notes: list[str] = []
    try:
        where = (country or "").partition("-")[0].upper() or named_days.zone_country(tz_label(tz))
        at = _read(t, now, now_local, tz, language, notes, whole_day, where)
    except NoClockError as exc:
        raise _invalid(raw, language, phrase("reason.no_clock")) from exc
    except Unreadable as exc:
        if isinstance(exc.reason, Phrase) and exc.reason.key == "reason.past":
            raise _past_words(raw, now, tz) from exc
        raise _invalid(raw, language, exc.reason) from exc
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


def _read(
    t: str,
    now: datetime,
    now_local: datetime,
    tz: ZoneInfo,
    language: str,
    notes: list[str],
    whole_day: bool = False,
    country: str | None = None,
) -> datetime | None:
    iso = re.fullmatch(_ISO, t)
    if iso:
        naive = datetime(
            int(iso["y"]), int(iso["mo"]), int(iso["d"]), int(iso["h"]), int(iso["mi"]), int(iso["s"] or 0)
        )
        off = iso["off"]
        if off is None:
            return wall(naive, tz, language, notes)
        if off in ("z", "utc"):
            return naive.replace(tzinfo=UTC).astimezone(tz)
        sign = 1 if off[0] == "+" else -1
        digits = off[1:].replace(":", "")
        offset = timedelta(hours=int(digits[:2]), minutes=int(digits[2:]))
        if offset >= timedelta(hours=24):
            raise ValueError(off)
        return (naive - sign * offset).replace(tzinfo=UTC).astimezone(tz)

    named = take_zone(t)
    if named is not None:  # "5pm CET": read in the zone named, answered in the schedule's, both said
        rest, source, said = named
        if not rest:
            raise Unreadable(phrase("reason.no_clock"))
        at = _read(rest, now, now.astimezone(source), source, language, notes, whole_day, country)  # type: ignore[arg-type]
        if at is None:
            return None
        notes.append(say("note.zone", language, said=f"{at:%H:%M} {said}", clock=f"{at.astimezone(tz):%H:%M}",
                         zone=tz_label(tz)))  # fmt: skip
        return at.astimezone(tz)
    # "de hoy en ocho (días)" is a week from today, "de hoy en quince" two weeks: an idiom, not a count
    t = re.sub(r"^de hoy en (ocho|quince)(?: dias)?$", lambda m: f"dentro de {1 if m[1] == 'ocho' else 2} semanas", t)
    relative = re.fullmatch(_RELATIVE, t)
    if relative:
        rest = relative["rest"] or relative["rest2"]
        amount = _relative(rest)
        if amount is not None:
            return _after(amount, now_local, tz, language, notes)
        at = _days_ahead_at(rest, now_local, tz, language, notes) or _counted(rest, now_local, tz, language, notes)
        if at is not None:
            return at
    at = read_calendar(t, now_local, tz, language, notes, whole_day)
    holiday = named_days.find(t) if at is None else None
    if holiday is not None:
        at = named_days.read_holiday(t, holiday, now_local, tz, language, notes, whole_day, country)
    if at is None and re.search(_PAST_WORDS, t):
        raise Unreadable(phrase("reason.past"))
    if at is None and holiday is None:
        reason = named_days.unknown(t, country)
        if reason is not None:
            raise reason
    return at


def _after(amount: _Amount, now_local: datetime, tz: ZoneInfo, language: str, notes: list[str]) -> datetime:
    """Whole days, months and years keep the wall-clock time (across a DST change too); the rest is
    elapsed time; a number of seconds rounds the result up to the minute (Scheduler's precision)."""
    base = now_local.replace(microsecond=0)
    if amount.days or amount.months:
        day = _add_months(base.date(), amount.months) + timedelta(days=amount.days)
        base = wall(datetime.combine(day, base.time()), tz, language, notes)
    at = (base.astimezone(UTC) + amount.elapsed).astimezone(tz)
    if amount.seconds and at.second:
        at = (at.astimezone(UTC) + timedelta(seconds=60 - at.second)).astimezone(tz)
    if is_second_occurrence(at):
        notes.append(second_occurrence_note(at, tz, language))
    return at
