"""One-shot times in English and Spanish, the current time as a parameter: RFC3339 and ISO forms,
amounts of time from now ("in 90 minutes", "two weeks later", "in 2 years": core/language/amounts.py) or
from another day ("5 days from monday", "10 days before halloween", "the friday after thanksgiving", "in 2
years on thanksgiving"), calendar phrases (core/language/days.py), named holidays
(core/language/named_days.py), and a monthly recurring phrase sent as a one-shot, read as its next time and
said. A result not strictly after `now` is refused with TIME_IN_PAST; a local time that does not exist
(spring DST gap) is moved forward by the gap and an ambiguous one (autumn) is the first occurrence, both
with a note; seconds named in an amount round the result up to the minute."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta, tzinfo
from zoneinfo import ZoneInfo

from cronbell.core.domain.instants import instant
from cronbell.core.domain.phrases import Phrase, phrase
from cronbell.core.domain.refusals import ToolError, refusal, refused_as
from cronbell.core.domain.zones import AMBIGUOUS, MAX_YEAR, format_offset, tz_label
from cronbell.core.language import lexicon, named_days
from cronbell.core.language.amounts import Amount, after_amount, counted_days, counts_days, days_ahead_at, read_amount
from cronbell.core.language.clocks import (
    WEEKDAY_WORDS,
    NoClockError,
    Unreadable,
    dst_note,
    normalize,
    second_occurrence_note,
    wall,
    without_courtesy,
)
from cronbell.core.language.days import DEFAULT_HOUR, TOMORROW, read_calendar
from cronbell.core.language.named_zones import take_zone
from cronbell.core.language.zone_ids import zone_country
from cronbell.core.text import texts
from cronbell.core.text.texts import Moment, Word, say, words
from cronbell.core.values import value


@value
class OneShot:
    at: datetime  # aware, in the schedule's zone, microsecond=0, strictly after now
    notes: tuple[str, ...] = ()


_FORMS_WRITTEN_IN = 2026  # the year the catalogs' example dates were written in


def accepted_forms(locale: str | None, month_first: bool | None = None, year: int | None = None) -> list[str]:
    """The one-shot forms an `invalid_time` refusal lists, in the reader's language; its numeric date
    in the order given (`lexicon.month_first`), by default the language's; with `year` (now's), their
    example dates moved as many years on as it is past the catalogs' own, so none is in the past."""
    forms = list(words("accepted_forms", locale))
    if year is not None and year > _FORMS_WRITTEN_IN:
        on = year - _FORMS_WRITTEN_IN
        forms = [re.sub(r"\b20\d\d\b", lambda m: str(int(m[0]) + on), form) for form in forms]
    if month_first is None:
        return forms
    month_day, day_month = words("numeric_date_forms", locale)
    other, meant = (day_month, month_day) if month_first else (month_day, day_month)
    return [line.replace(other, meant) for line in forms]


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


_ISO = (
    r"(?P<y>\d{4})-(?P<mo>\d{2})-(?P<d>\d{2})(?:t|\s)(?P<h>\d{2}):(?P<mi>\d{2})(?::(?P<s>\d{2})(?:\.\d+)?)?"
    r"\s*(?P<off>z|utc|[+-]\d{2}:?\d{2})?"
)
_RELATIVE = (
    rf"(?:{lexicon.either('AMOUNT_BEFORE')})\s+(?P<rest>.+)"
    rf"|(?P<rest2>.+?)\s+(?:{lexicon.either('AMOUNT_AFTER')})(?P<at>,? (?:{lexicon.either('AMOUNT_AT')}) .+)?"
)
# "10h", "9h30": a clock, not an amount without its "in"
_CLOCK_IN_HOURS = re.compile(r"\d{1,2}h(?:\d{2})?")
# an amount counted from a day other than today ("5 days from monday", "dos semanas despues del lunes")
_FROM_DAY = (
    rf"(?P<amount>.+?) (?:(?P<after>{lexicon.either('AMOUNT_FROM_DAY')})|{lexicon.either('AMOUNT_BEFORE_DAY')})"
    r" (?P<day>.+)"
)
_ONE_DAY = lexicon.some("AMOUNT_ONE_DAY")  # "the day after christmas"
ONE_DAY = Amount(months=0, days=1, elapsed=timedelta(0), seconds=False)
_AMOUNT_ON = rf"(?P<amount>.+?),? (?:{lexicon.either('AMOUNT_ON')}) (?P<day>.+)"
_WEEKDAY_FROM_DAY = (
    rf"(?:(?:{lexicon.some('WEEKDAY_FROM_LEAD')}) )?(?P<wd>{'|'.join(sorted(WEEKDAY_WORDS, key=len, reverse=True))})"
    rf" (?:(?P<after>{lexicon.either('AMOUNT_FROM_DAY')})|{lexicon.either('AMOUNT_BEFORE_DAY')}) (?P<day>.+)"
)
_DAY_THEN_YEARS = rf"(?P<day>.+?),? (?:{lexicon.either('AMOUNT_BEFORE')}) (?P<amount>.+)"
# idioms that name an amount of time ("de hoy en ocho" is a week from today), read as the amount
_AMOUNT_IDIOMS = [(re.compile(rf"^(?:{said})$"), meant) for said, meant in lexicon.union("AMOUNT_IDIOMS").items()]
_DAYS_FOR_WEEKS: dict[str, tuple[str, int, str, str]] = lexicon.union("DAYS_FOR_WEEKS")  # may mean weeks: said
_DAYS_FOR_WEEKS_SAID = re.compile(rf"\b(?:{lexicon.alternatives(_DAYS_FOR_WEEKS) or '(?!)'})\b")
_TOMORROW = re.compile(TOMORROW)
SMALL_HOURS = 4  # before 04:00, someone still up may mean this morning by "tomorrow": the reading is said
_NEXT_BUSINESS_DAY = re.compile(rf"(?:{lexicon.some('NEXT_BUSINESS_DAY')})")  # a day named, no time said
_AT_WRITTEN = lexicon.own("CLOCK_AT_WRITTEN")


# "same time tomorrow", "tomorrow at this time", "this time next week": that day, at the minute it is now
_SAME_TIME = lexicon.either("SAME_TIME")
_AT_SAME_TIME = re.compile(rf"(?:{_SAME_TIME}),? (?P<day>.+)|(?P<day2>.+?),? (?:{_SAME_TIME})")
# a week, month or year ahead said as a day ("same time next week"): that amount from now
_AHEAD = [
    (re.compile(rf"(?:{lexicon.either(name)})"), amount)
    for name, amount in zip(("NEXT_WEEK", "NEXT_MONTH", "NEXT_YEAR"), lexicon.own("SAME_TIME_AHEAD"), strict=True)
]
_SAME_TIME_AS = lexicon.own("SAME_TIME_AS")

# words that name the past ("2 days ago", "last friday", "ayer", "el lunes pasado"), said as the reason
_PAST_WORDS = lexicon.either("PAST_WORDS").replace("{weekday}", "|".join(WEEKDAY_WORDS))

CLOSEST_FORMS = 3  # the accepted forms an `invalid_time` refusal names
# the forms named when none is like the text: an exact date and time, a day ahead, a delay
_GENERAL_FORMS = (1, 4, 3)


def closest_forms(text: str, language: str, month_first: bool | None = None, year: int | None = None) -> list[str]:
    """The few accepted forms most like `text` (the words and kinds of number they share), best first;
    the general ones when none shares anything."""
    lines = accepted_forms(language, month_first, year)
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


_BECAUSE = "invalid_time.because"


def _invalid(text: str, language: str, month_first: bool, year: int, reason: Phrase | None = None) -> ToolError:
    forms = accepted_forms(language, month_first, year)
    listed = "".join(f"\n- {form}" for form in closest_forms(text, language, month_first, year))
    if reason is None:
        return refusal("invalid_time", {"accepted": forms}, text=text, forms=listed)
    return refusal(_BECAUSE, {"accepted": forms}, text=text, reason=reason, forms=listed)


def said_why(err: ToolError) -> bool:
    """Whether a refused time says a reason of its own, beside the closest accepted forms."""
    return refused_as(err, _BECAUSE)


def _now_details(now: datetime, tz: tzinfo) -> dict[str, dict[str, str]]:
    """`now` as every answer carries it, in the zone the refused time was read in."""
    return {"now": instant(now, tz)}


def _past(at: datetime, now: datetime, tz: tzinfo) -> ToolError:
    details = _now_details(now, tz)
    when = Moment(at, tz, now.astimezone(tz).year)
    return refusal("time_in_past", details, when=when, now=now_phrase(now, tz))


def _past_words(text: str, now: datetime, tz: tzinfo) -> ToolError:
    """'yesterday at 9', 'hace dos días': a time in the past said in words is refused as any time in the past."""
    details = _now_details(now, tz)
    return refusal("time_in_past.words", details, text=text, now=now_phrase(now, tz))


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
    month_first = lexicon.month_first(language, texts.region(locale))
    raw = text if isinstance(text, str) else ""
    year = now.astimezone(tz).year
    t = without_courtesy(normalize(raw))
    if not t:
        raise _invalid(raw, language, month_first, year, phrase("reason.empty"))
    now_local = now.astimezone(tz)
    notes: list[str] = []
    try:
        where = (country or "").partition("-")[0].upper() or zone_country(tz_label(tz))
        at = _read(t, now, now_local, tz, language, notes, whole_day, where, month_first)
    except NoClockError as exc:
        raise _invalid(raw, language, month_first, year, phrase("reason.no_clock")) from exc
    except Unreadable as exc:
        if isinstance(exc.reason, Phrase) and exc.reason.key == "reason.past":
            raise _past_words(raw, now, tz) from exc
        raise _invalid(raw, language, month_first, year, exc.reason) from exc
    except (ValueError, OverflowError) as exc:
        raise _invalid(raw, language, month_first, year) from exc
    if at is None:
        raise _invalid(raw, language, month_first, year)
    at = _second_reading_if_first_passed(at.replace(microsecond=0), now, tz, language, notes)
    if at.year > MAX_YEAR:
        raise _invalid(raw, language, month_first, year, phrase("reason.too_far"))
    if at.astimezone(UTC) <= now.astimezone(UTC):  # instants: same-zone comparisons ignore `fold`
        raise _past(at, now, tz)
    if said := _DAYS_FOR_WEEKS_SAID.search(t):
        written, days, weeks, _ = _DAYS_FOR_WEEKS[said[0]]
        notes.append(texts.say("note.days_for_weeks", language, said=written, days=days, weeks=weeks, date=at.date()))
    earlier = at - timedelta(days=1)  # the same clock today: said as the other reading only while still to come
    if (
        now_local.hour < SMALL_HOURS
        and earlier.date() == now_local.date()
        and earlier > now_local
        and _TOMORROW.search(t)
    ):
        year = now_local.year
        date, clock = texts.date_text(at, language, year), f"{at:%H:%M}"
        notes.append(say("note.tomorrow_small_hours", language, time=f"{now_local:%H:%M}", date=date, clock=clock))
    return OneShot(at=at, notes=tuple(notes))


def _second_reading_if_first_passed(
    at: datetime, now: datetime, tz: ZoneInfo, language: str, notes: list[str]
) -> datetime:
    """A wall time the clocks go back over is read as its first occurrence; said during the repeated hour,
    after that first one ('01:50' at the second 01:35), it is the second one, still ahead, as the clock
    on the wall shows it, and the note says so instead of the first's."""
    if at.fold or at.astimezone(UTC) > now.astimezone(UTC):
        return at
    second = at.replace(fold=1)
    if second.utcoffset() == at.utcoffset() or second.astimezone(UTC) <= now.astimezone(UTC):
        return at
    first_note = dst_note(at.replace(tzinfo=None), at, AMBIGUOUS, tz, language)
    notes[:] = [n for n in notes if n != first_note]
    notes.append(second_occurrence_note(second, tz, language))
    return second


def _next_of_recurring(t: str, now: datetime, tz: ZoneInfo, language: str, notes: list[str]) -> datetime | None:
    """'the 21st of every month at 10' sent as a one-shot: its next time, said (a recurring schedule would
    have them all). Only a phrase of one time of day on days of the month is read so: a daily or weekly
    one ('every day at 9', 'every 5 minutes') is refused, so that the caller asks for a recurring schedule."""
    from cronbell.core.domain.cron.fires import next_fires
    from cronbell.core.language.recurring import parse_recurring  # only for a phrase nothing else reads

    try:
        spec = parse_recurring(t, 1, language)
    except ToolError:
        return None
    if not re.fullmatch(r"\d+ \d+ [\d,]+ \S+ \*", spec.expr):
        return None
    at = next_fires(spec, now, tz, 1)[0]
    notes.append(say("note.recurring_once", language, said=t, date=f"{at:%Y-%m-%d %H:%M}"))
    return at


def _read(
    t: str,
    now: datetime,
    now_local: datetime,
    tz: ZoneInfo,
    language: str,
    notes: list[str],
    whole_day: bool = False,
    country: str | None = None,
    month_first: bool | None = None,
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

    named = take_zone(t, tz)
    if named is not None:  # "5pm CET": read in the zone named, answered in the schedule's, both said
        rest, source, said = named
        if not rest:
            raise Unreadable(phrase("reason.no_clock"))
        at = _read(rest, now, now.astimezone(source), source, language, notes, whole_day, country, month_first)  # type: ignore[arg-type]
        if at is None:
            return None
        notes.append(say("note.zone", language, said=f"{at:%H:%M} {said}", clock=f"{at.astimezone(tz):%H:%M}",
                         zone=tz_label(tz)))  # fmt: skip
        return at.astimezone(tz)
    same = _AT_SAME_TIME.fullmatch(t)
    if same:  # the day named, at this minute on the 24-hour clock ("10:23h"; "10:23" alone may be at night)
        day = same["day"] or same["day2"]
        day = next((amount for pattern, amount in _AHEAD if pattern.fullmatch(day)), day)
        if set(day.split()) <= lexicon.FILLERS:  # "at this time": no day named
            return None
        said = _SAME_TIME_AS.format(day=day, clock=f"{now_local:%H:%M}")
        return _read(said, now, now_local, tz, language, notes, whole_day, country, month_first)
    if _NEXT_BUSINESS_DAY.fullmatch(t):  # a day, not an amount: at 09:00 as any day named without a time
        notes.append(say("default_hour", language, clock=f"{DEFAULT_HOUR:02d}:00"))
        t = f"{t} {_AT_WRITTEN} {DEFAULT_HOUR}"
    for idiom, meant in _AMOUNT_IDIOMS:  # "de hoy en ocho (días)": a week from today, an idiom, not a count
        t = idiom.sub(meant, t)
    relative = re.fullmatch(_RELATIVE, t)
    if relative:
        rest = relative["rest"] or relative["rest2"] + (relative["at"] or "")  # "5 days from now at 3pm"
        amount = read_amount(rest)
        if amount is not None:
            return after_amount(amount, now_local, tz, language, notes)
        at = days_ahead_at(rest, now_local, tz, language, notes) or counted_days(rest, now_local, tz, language, notes)
        if at is not None:
            return at
        on = re.fullmatch(_AMOUNT_ON, rest)  # "in 2 years on thanksgiving": the day, read from 2 years ahead
        later = read_amount(on["amount"]) if on else None
        if on and later is not None and (later.days or later.months) and not later.elapsed:
            ahead = after_amount(later, now_local, tz, language, [])
            return _read(on["day"], ahead, ahead, tz, language, notes, whole_day, country, month_first)
    if t[:1].isdigit() and not _CLOCK_IN_HOURS.fullmatch(t) and (amount := read_amount(t)) is not None:
        return after_amount(amount, now_local, tz, language, notes)  # "10 min", "20m": from now, as "in 10 min"
    counted = re.fullmatch(_FROM_DAY, t)
    one_day = counted is not None and re.fullmatch(_ONE_DAY, counted["amount"]) is not None
    amount = ONE_DAY if one_day else read_amount(counted["amount"]) if counted else None
    days_of_a_kind = bool(counted and counted["after"] and counts_days(counted["amount"]))  # "3 weekdays after friday"
    read_base = counted is not None and (amount is not None or days_of_a_kind)
    base = (
        _read(counted["day"], now, now_local, tz, language, notes, False, country, month_first)
        if counted and read_base
        else None
    )
    if counted and amount is not None and base is not None:
        return after_amount(amount, base, tz, language, notes, 1 if counted["after"] else -1)
    if counted and days_of_a_kind and base is not None:
        return counted_days(counted["amount"], base, tz, language, notes)
    weekday = re.fullmatch(_WEEKDAY_FROM_DAY, t)  # "the friday after thanksgiving", "el lunes antes de navidad"
    base = _read(weekday["day"], now, now_local, tz, language, notes, False, country, month_first) if weekday else None
    if weekday and base is not None:
        step = 1 if weekday["after"] else -1
        day = base.date() + timedelta(days=step)
        while day.weekday() != WEEKDAY_WORDS[weekday["wd"]]:
            day += timedelta(days=step)
        return wall(datetime.combine(day, base.time().replace(tzinfo=None)), tz, language, notes)
    later_on = re.fullmatch(_DAY_THEN_YEARS, t)  # "thanksgiving in 9 years": read from 9 years ahead
    years = read_amount(later_on["amount"]) if later_on else None
    if later_on and years is not None and years.months and not (years.days or years.elapsed):
        ahead = after_amount(years, now_local, tz, language, [])
        return _read(later_on["day"], ahead, ahead, tz, language, notes, whole_day, country, month_first)
    at = read_calendar(t, now_local, tz, language, notes, whole_day, month_first)
    holiday = named_days.find(t) if at is None else None
    if holiday is not None:
        at = named_days.read_holiday(t, holiday, now_local, tz, language, notes, whole_day, country)
    if at is None and re.search(_PAST_WORDS, t):
        raise Unreadable(phrase("reason.past"))
    if at is None and holiday is None:
        at = _next_of_recurring(t, now, tz, language, notes)
    if at is None and holiday is None:
        reason = named_days.unknown(t, country)
        if reason is not None:
            raise reason
    return at
