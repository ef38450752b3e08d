"""Human previews of schedules in English or Spanish, instants in a zone and in UTC, and DST warnings."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, tzinfo
from zoneinfo import ZoneInfo

from cronbell.core.cron import BY_DOM, BY_DOW, EITHER, CronFields, CronSpec, parse_fields
from cronbell.core.when import format_offset, lang, tz_label

_WEEKDAYS = {
    "en": ("Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"),
    "es": ("domingo", "lunes", "martes", "miércoles", "jueves", "viernes", "sábado"),
}
_WEEKDAYS_PLURAL_ES = ("domingos", "lunes", "martes", "miércoles", "jueves", "viernes", "sábados")
_MONTHS = {
    "en": (
        "January", "February", "March", "April", "May", "June",
        "July", "August", "September", "October", "November", "December",
    ),
    "es": (
        "enero", "febrero", "marzo", "abril", "mayo", "junio",
        "julio", "agosto", "septiembre", "octubre", "noviembre", "diciembre",
    ),
}  # fmt: skip
_MAX_LISTED_TIMES = 6


def _join(items: list[str], language: str) -> str:
    if len(items) <= 1:
        return "".join(items)
    word = " y " if language == "es" else " and "
    return ", ".join(items[:-1]) + word + items[-1]


def _step(values: tuple[int, ...], lo: int, hi: int) -> int | None:
    """s if values are exactly lo, lo+s, ... up to hi (s >= 1)."""
    if len(values) < 2 or values[0] != lo:
        return None
    s = values[1] - values[0]
    return s if values == tuple(range(lo, hi + 1, s)) else None


def _clock(hour: int, minute: int) -> str:
    return f"{hour:02d}:{minute:02d}"


def _time_part(f: CronFields, language: str) -> tuple[str, bool]:
    """(text, is_interval): 'at 09:00 and 17:30', or 'every 15 minutes' when it repeats within the day."""
    es = language == "es"
    times = sorted(f.times())
    if len(times) <= _MAX_LISTED_TIMES and len(f.hours) < 24:
        clocks = _join([_clock(h, m) for h, m in times], language)
        if es:
            return ("a la " if len(times) == 1 and times[0][0] == 1 else "a las ") + clocks, False
        return "at " + clocks, False
    minute_step = _step(f.minutes, 0, 59)
    if minute_step == 1:
        minutes = "cada minuto" if es else "every minute"
    elif minute_step is not None:
        minutes = f"cada {minute_step} minutos" if es else f"every {minute_step} minutes"
    elif f.minutes == (0,):
        minutes = "en punto" if es else "on the hour"
    else:
        listed = _join([str(m) for m in f.minutes], language)
        if es:
            minutes = f"en el minuto {listed}" if len(f.minutes) == 1 else f"en los minutos {listed}"
        else:
            minutes = f"at minute {listed}" if len(f.minutes) == 1 else f"at minutes {listed}"
    hour_step = _step(f.hours, 0, 23)
    if hour_step == 1:
        if minute_step is not None:
            return minutes, True
        return (f"cada hora {minutes}" if es else f"every hour {minutes}"), True
    if hour_step is not None and minute_step is None:
        return (f"cada {hour_step} horas {minutes}" if es else f"every {hour_step} hours {minutes}"), True
    first, last = f.hours[0], f.hours[-1]
    if f.hours == tuple(range(first, last + 1)):
        end = _clock(last, f.minutes[-1])
        if es:
            return f"{minutes} entre las {_clock(first, f.minutes[0])} y las {end}", True
        return f"{minutes} between {_clock(first, f.minutes[0])} and {end}", True
    hours = _join([f"{h:02d}" for h in f.hours], language)
    if es:
        return f"{minutes} durante las horas {hours}", True
    return f"{minutes} during hours {hours}", True


def _weekday_runs(weekdays: tuple[int, ...]) -> list[tuple[int, int]]:
    """Runs of consecutive weekdays in Monday-first order, as cron numbers (Sunday 0)."""
    order = sorted(weekdays, key=lambda v: (v + 6) % 7)
    runs: list[tuple[int, int]] = []
    for v in order:
        if runs and (v + 6) % 7 == (runs[-1][1] + 6) % 7 + 1:
            runs[-1] = (runs[-1][0], v)
        else:
            runs.append((v, v))
    return runs


def _weekday_part(f: CronFields, language: str) -> str:
    es = language == "es"
    names = _WEEKDAYS[language]
    if f.weekdays == (1, 2, 3, 4, 5):
        return "de lunes a viernes" if es else "every weekday (Monday to Friday)"
    runs = _weekday_runs(f.weekdays)
    if len(runs) == 1 and (runs[0][1] - runs[0][0]) % 7 >= 2:
        a, b = runs[0]
        return f"de {names[a]} a {names[b]}" if es else f"every day from {names[a]} to {names[b]}"
    items: list[str] = []
    for a, b in runs:
        count = (b - a) % 7 + 1
        if count >= 3:
            items.append(f"de {names[a]} a {names[b]}" if es else f"{names[a]} to {names[b]}")
        else:
            days = [a] if count == 1 else [a, b]
            items.extend(_WEEKDAYS_PLURAL_ES[d] if es else names[d] for d in days)
    if es:
        return ("todos los " if len(f.weekdays) == 1 else "los ") + _join(items, language)
    return "every " + _join(items, language)


def _months_text(f: CronFields, language: str) -> str:
    return _join([_MONTHS[language][m - 1] for m in f.months], language)


def _dom_part(f: CronFields, language: str) -> str:
    es = language == "es"
    days = _join([str(d) for d in f.days], language)
    all_months = len(f.months) == 12
    if not all_months and len(f.months) == 1 and len(f.days) == 1:
        month = _MONTHS[language][f.months[0] - 1]
        return f"cada año el {days} de {month}" if es else f"every year on {days} {month}"
    where = (
        ("de cada mes" if es else "of every month")
        if all_months
        else ("de " if es else "of ") + _months_text(f, language)
    )
    if es:
        return f"{'el día' if len(f.days) == 1 else 'los días'} {days} {where}"
    return f"on {'day' if len(f.days) == 1 else 'days'} {days} {where}"


def _day_part(f: CronFields, language: str) -> str:
    es = language == "es"
    in_months = "" if len(f.months) == 12 else (" de " if es else " in ") + _months_text(f, language)
    if f.day_rule == BY_DOW:
        return _weekday_part(f, language) + in_months
    if f.day_rule == BY_DOM:
        return _dom_part(f, language)
    if f.day_rule == EITHER:
        joiner = " y " if es else " and "
        return _dom_part(f, language) + joiner + _weekday_part(f, language) + in_months
    return ("todos los días" if es else "every day") + in_months


def describe_cron(spec: CronSpec, locale: str) -> str:
    """'every Monday at 10:00' / 'todos los lunes a las 10:00', 'every 15 minutes', ..."""
    language = lang(locale)
    fields = parse_fields(spec.expr)
    time_text, interval = _time_part(fields, language)
    day_text = _day_part(fields, language)
    if interval:
        if fields.day_rule not in (BY_DOM, BY_DOW, EITHER) and len(fields.months) == 12:
            return time_text
        return f"{time_text}, {day_text}"
    return f"{day_text} {time_text}"


def describe_at(at: datetime, locale: str) -> str:
    """'at 2026-12-01 09:00 (Europe/Madrid)' / 'el 2026-12-01 a las 09:00 (Europe/Madrid)'."""
    zone = tz_label(at.tzinfo) if at.tzinfo else "UTC"
    if lang(locale) == "es":
        article = "a la" if at.hour == 1 else "a las"
        return f"el {at:%Y-%m-%d} {article} {at:%H:%M} ({zone})"
    return f"at {at:%Y-%m-%d %H:%M} ({zone})"


def instant(dt: datetime, tz: ZoneInfo) -> dict[str, str]:
    """The same instant as local ISO time with its offset in `tz`, and as UTC with a Z."""
    return {
        "local": dt.astimezone(tz).isoformat(timespec="seconds"),
        "utc": dt.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
    }


def _transitions(start: datetime, end: datetime, tz: tzinfo) -> list[tuple[datetime, timedelta, timedelta]]:
    """(first UTC instant with the new offset, offset before, offset after) per change in (start, end]."""
    out = []
    step = timedelta(hours=6)
    t = start.astimezone(UTC)
    before = t.astimezone(tz).utcoffset()
    while t < end:
        nxt = t + step
        after = nxt.astimezone(tz).utcoffset()
        if after != before:
            lo, hi = t, nxt
            while hi - lo > timedelta(seconds=1):
                mid = lo + (hi - lo) / 2
                if mid.astimezone(tz).utcoffset() == before:
                    lo = mid
                else:
                    hi = mid
            assert before is not None and after is not None
            out.append((hi.replace(microsecond=0), before, after))
            before = after
        t = nxt
    return out


def dst_notes(spec: CronSpec, after: datetime, tz: ZoneInfo, locale: str, horizon_days: int = 366) -> list[str]:
    """One sentence per coming DST change within the horizon on which a fire time is skipped (it falls in
    the gap) or repeated (it falls in the overlap, and Scheduler runs it once)."""
    language = lang(locale)
    fields = parse_fields(spec.expr)
    wanted = set(fields.times())
    zone = tz_label(tz)
    notes: list[str] = []
    for change, before, later in _transitions(after, after + timedelta(days=horizon_days), tz):
        forward = later > before
        start = (change + (before if forward else later)).replace(tzinfo=None)
        stop = (change + (later if forward else before)).replace(tzinfo=None)
        hits: list[datetime] = []
        wall = start
        while wall < stop:
            if (wall.hour, wall.minute) in wanted and fields.day_matches(wall.date()):
                hits.append(wall)
            wall += timedelta(minutes=1)
        if not hits:
            continue
        listed = [f"{h:%H:%M}" for h in hits[:_MAX_LISTED_TIMES]] + (["…"] if len(hits) > _MAX_LISTED_TIMES else [])
        clocks = _join(listed, language)
        day = f"{hits[0]:%Y-%m-%d}"
        old, new = f"{start:%H:%M}", f"{stop:%H:%M}"
        first_offset = format_offset(change.astimezone(tz) - timedelta(seconds=1))
        many = len(hits) > 1
        if language == "es":
            if forward:
                what = (
                    f"las ejecuciones de las {clocks} no ocurren" if many else f"la ejecución de las {clocks} no ocurre"
                )
                notes.append(
                    f"El {day} en {zone} los relojes se adelantan de {old} a {new}: {what} ese día "
                    "(Scheduler omite una hora local que no existe)."
                )
            else:
                each = "cada una se ejecuta una sola vez" if many else "la programación se ejecuta una sola vez"
                notes.append(
                    f"El {day} en {zone} los relojes se atrasan de {new} a {old}: las {clocks} ocurren "
                    f"dos veces y {each}, en la primera ({first_offset})."
                )
        elif forward:
            what = f"the runs at {clocks} do not happen" if many else f"the {clocks} run does not happen"
            notes.append(
                f"On {day} clocks in {zone} go forward from {old} to {new}: {what} that day "
                "(Scheduler skips a local time that does not exist)."
            )
        else:
            what = f"{clocks} happen twice and each runs" if many else f"{clocks} happens twice and the schedule runs"
            notes.append(
                f"On {day} clocks in {zone} go back from {new} to {old}: {what} once, at the first "
                f"occurrence ({first_offset})."
            )
    return notes
