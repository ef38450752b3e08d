"""Human previews of schedules in English or Spanish and DST warnings."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, tzinfo
from zoneinfo import ZoneInfo

from cronbell.core.domain.cron.fields import BY_DOM, BY_DOW, EITHER, WEEKS, CronFields, parse_fields
from cronbell.core.domain.cron.spec import CronSpec
from cronbell.core.domain.zones import format_offset, tz_label
from cronbell.core.text.texts import date_text, join, language, say, words

_MAX_LISTED_TIMES = 6


def _step(values: tuple[int, ...], lo: int, hi: int) -> int | None:
    """s if values are exactly lo, lo+s, ... up to hi (s >= 1)."""
    if len(values) < 2 or values[0] != lo:
        return None
    s = values[1] - values[0]
    return s if values == tuple(range(lo, hi + 1, s)) else None


def _clock(hour: int, minute: int) -> str:
    return f"{hour:02d}:{minute:02d}"


def _time_part(f: CronFields, lang: str) -> tuple[str, bool]:
    """(text, is_interval): 'at 09:00 and 17:30', or 'every 15 minutes' when it repeats within the day."""
    times = sorted(f.times())
    if len(times) <= _MAX_LISTED_TIMES and len(f.hours) < 24:
        clocks = join([_clock(h, m) for h, m in times], lang)
        key = "preview.at_clocks_one" if len(times) == 1 and times[0][0] == 1 else "preview.at_clocks"
        return say(key, lang, clocks=clocks), False
    minute_step = _step(f.minutes, 0, 59)
    if minute_step == 1:
        minutes = say("preview.every_minute", lang)
    elif minute_step is not None:
        minutes = say("preview.every_n_minutes", lang, n=minute_step)
    elif f.minutes == (0,):
        minutes = say("preview.on_the_hour", lang)
    else:
        key = "preview.at_minute" if len(f.minutes) == 1 else "preview.at_minutes"
        minutes = say(key, lang, listed=join([str(m) for m in f.minutes], lang))
    hour_step = _step(f.hours, 0, 23)
    if hour_step == 1:
        if minute_step is not None:
            return minutes, True
        return say("preview.every_hour", lang, minutes=minutes), True
    if hour_step is not None and minute_step is None:
        return say("preview.every_n_hours", lang, n=hour_step, minutes=minutes), True
    first, last = f.hours[0], f.hours[-1]
    if f.hours == tuple(range(first, last + 1)):
        start, end = _clock(first, f.minutes[0]), _clock(last, f.minutes[-1])
        return say("preview.between", lang, minutes=minutes, first=start, last=end), True
    hours = join([f"{h:02d}" for h in f.hours], lang)
    return say("preview.during_hours", lang, minutes=minutes, hours=hours), True


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


def _weekday_part(f: CronFields, lang: str) -> str:
    names = [words("weekdays", lang)[(v + 6) % 7] for v in range(7)]  # by cron number, Sunday 0
    every = [words("weekdays_every", lang)[(v + 6) % 7] for v in range(7)]
    if f.weekdays == (1, 2, 3, 4, 5):
        return say("preview.monday_to_friday", lang)
    runs = _weekday_runs(f.weekdays)
    if len(runs) == 1 and (runs[0][1] - runs[0][0]) % 7 >= 2:
        a, b = runs[0]
        return say("preview.every_day_from_to", lang, first=names[a], last=names[b])
    if len(f.weekdays) >= 5:  # "every day except Saturday", not three runs of days
        left_out = sorted(set(range(7)) - set(f.weekdays), key=lambda v: (v + 6) % 7)
        return say("preview.every_day_except", lang, days=join([every[d] for d in left_out], lang))
    items: list[str] = []
    for a, b in runs:
        count = (b - a) % 7 + 1
        if count >= 3:
            items.append(say("preview.from_to", lang, first=names[a], last=names[b]))
        else:
            items.extend(every[d] for d in ([a] if count == 1 else [a, b]))
    key = "preview.on_weekday" if len(f.weekdays) == 1 else "preview.on_weekdays"
    return say(key, lang, days=join(items, lang))


def _months_text(f: CronFields, lang: str) -> str:
    return join([words("months", lang)[m - 1] for m in f.months], lang)


def _where(f: CronFields, lang: str) -> str:
    """'of every month' / 'of January and July'."""
    if len(f.months) == 12:
        return say("preview.of_every_month", lang)
    return say("preview.of_months", lang, months=_months_text(f, lang))


def _dom_part(f: CronFields, lang: str) -> str:
    if f.last_day:
        return say("preview.last_day", lang, where=_where(f, lang))
    days = join([str(d) for d in f.days], lang)
    if len(f.months) == 1 and len(f.days) == 1:
        return say("preview.yearly", lang, day=days, month=words("months", lang)[f.months[0] - 1])
    return say("preview.on_day" if len(f.days) == 1 else "preview.on_days", lang, days=days, where=_where(f, lang))


def _place_part(f: CronFields, lang: str) -> str:
    """'on the first Monday of every month' / 'el último viernes de cada mes'."""
    nth = words("ordinals", lang)[f.nth - 1 if f.nth > 0 else -1]
    weekday = words("weekdays", lang)[(f.weekdays[0] + 6) % 7]
    return say("preview.nth_weekday", lang, nth=nth, weekday=weekday, where=_where(f, lang))


def _day_part(f: CronFields, lang: str) -> str:
    in_months = "" if len(f.months) == 12 else say("preview.in_months", lang, months=_months_text(f, lang))
    if f.nth:
        return _place_part(f, lang)
    if f.day_rule == BY_DOW:
        return _weekday_part(f, lang) + in_months
    if f.day_rule == BY_DOM:
        return _dom_part(f, lang)
    if f.day_rule == EITHER:
        return _dom_part(f, lang) + say("preview.and", lang) + _weekday_part(f, lang) + in_months
    return say("preview.every_day", lang) + in_months


def describe_cron(spec: CronSpec, locale: str) -> str:
    """'every Monday at 10:00' / 'todos los lunes a las 10:00', 'every 15 minutes', ..."""
    lang = language(locale)
    fields = parse_fields(spec.expr)
    if spec.interval is not None:
        return _describe_interval(spec, fields, lang)
    time_text, interval = _time_part(fields, lang)
    day_text = _day_part(fields, lang)
    if interval:
        if fields.day_rule not in (BY_DOM, BY_DOW, EITHER) and len(fields.months) == 12:
            return time_text
        return f"{time_text}, {day_text}"
    return f"{day_text} {time_text}"


def _describe_interval(spec: CronSpec, fields: CronFields, lang: str) -> str:
    """'every 2 weeks on Monday and Thursday at 10:00, from 2026-12-07' / 'cada 3 días a las 09:00, desde el
    2026-12-01'."""
    assert spec.interval is not None
    time_text, _ = _time_part(fields, lang)
    n, anchor = spec.interval.every, spec.interval.anchor
    start = say("preview.from_start", lang, date=anchor.isoformat()) if anchor else ""
    if spec.interval.unit != WEEKS:
        return say("preview.every_n_days", lang, n=n, time=time_text) + start
    every = words("weekdays_every", lang)
    days = join([every[(v + 6) % 7] for v in sorted(fields.weekdays, key=lambda v: (v + 6) % 7)], lang)
    return say("preview.every_n_weeks", lang, n=n, days=days, time=time_text) + start


def describe_at(at: datetime, locale: str) -> str:
    """'at 2026-12-01 09:00 (Europe/Madrid)' / 'el 2026-12-01 a las 09:00 (Europe/Madrid)'."""
    zone = tz_label(at.tzinfo) if at.tzinfo else "UTC"
    key = "preview.at_one" if at.hour == 1 else "preview.at"
    return say(key, locale, date=f"{at:%Y-%m-%d}", clock=f"{at:%H:%M}", zone=zone)


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


def dst_notes(
    spec: CronSpec, after: datetime, tz: ZoneInfo, locale: str, horizon_days: int = 366, until: datetime | None = None
) -> list[str]:
    """One sentence per coming DST change within the horizon, and before the schedule's `until`, on which a
    fire time is skipped (it falls in the gap) or repeated (it falls in the overlap, and Scheduler runs it
    once)."""
    lang = language(locale)
    fields = parse_fields(spec.expr)
    wanted = set(fields.times())
    zone = tz_label(tz)
    notes: list[str] = []
    end = after + timedelta(days=horizon_days)
    for change, before, later in _transitions(after, end if until is None else min(end, until), tz):
        forward = later > before
        start = (change + (before if forward else later)).replace(tzinfo=None)
        stop = (change + (later if forward else before)).replace(tzinfo=None)
        hits: list[datetime] = []
        wall = start
        while wall < stop:
            if (wall.hour, wall.minute) in wanted and fields.day_matches(wall.date()) and spec.keeps(wall.date()):
                hits.append(wall)
            wall += timedelta(minutes=1)
        if not hits:
            continue
        listed = [f"{h:%H:%M}" for h in hits[:_MAX_LISTED_TIMES]] + (["…"] if len(hits) > _MAX_LISTED_TIMES else [])
        key = ("note.dst_forward" if forward else "note.dst_back") + ("_many" if len(hits) > 1 else "_one")
        notes.append(
            say(
                key,
                lang,
                day=date_text(hits[0], lang),
                zone=zone,
                old=f"{start:%H:%M}",
                new=f"{stop:%H:%M}",
                clocks=join(listed, lang),
                offset=format_offset(change.astimezone(tz) - timedelta(seconds=1)),
            )
        )
    return notes
