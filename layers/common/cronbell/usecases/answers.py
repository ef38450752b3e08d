"""The shape every answer about a schedule takes: the schedule, now, the next fire, one line."""

from __future__ import annotations

from typing import Any
from zoneinfo import ZoneInfo

from cronbell.core import texts
from cronbell.core.envelope import Context
from cronbell.core.instants import iso_utc
from cronbell.core.models import Schedule
from cronbell.core.views import describe, schedule_view, upcoming
from cronbell.usecases.deps import Deps


def now_fields(ctx: Context, deps: Deps) -> tuple[dict[str, str], str]:
    """The current time in the context's zone, as a result field and as text."""
    now = deps.now()
    try:
        tz = ZoneInfo(ctx.timezone or deps.settings.default_timezone)
    except (ValueError, KeyError):
        tz = ZoneInfo("UTC")
    return {"local": now.astimezone(tz).isoformat(timespec="seconds"), "utc": iso_utc(now)}, texts.clock_text(now, tz)


def schedule_answer(
    key: str, schedule: Schedule, deps: Deps, locale: str, notes: tuple[str, ...] = (), **extra: Any
) -> dict[str, Any]:
    """The schedule as a list shows it plus `now` and its notes, and the `key` line of texts."""
    now = deps.now()
    tz = ZoneInfo(schedule.timezone)
    view = schedule_view(schedule, now, locale, with_notes=True)
    view["now"] = {"local": now.astimezone(tz).isoformat(timespec="seconds"), "utc": iso_utc(now)}
    all_notes = list(notes) + list(view.get("dst_notes", []))
    if all_notes:
        view["notes"] = all_notes
    nexts = upcoming(schedule, now, 1)
    text = texts.say(
        key,
        locale,
        id=schedule.id,
        description=describe(schedule, locale),
        next=texts.clock_text(nexts[0], tz) if nexts else texts.say("never", locale),
        now=texts.clock_text(now, tz),
        **extra,
    )
    if all_notes:
        text += " " + " ".join(all_notes)
    return {"result": view, "text": text}
