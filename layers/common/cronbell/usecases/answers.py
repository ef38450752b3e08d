"""The shape every answer about a schedule takes: the schedule, now, the next fire, one line.

The line is written to be relayed as it is: every date with its weekday, the schedule named by its id and
what it says (or its name), each time said once, the zone named once (in the sentence that says what time
it is now), and no room id."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from cronbell.core.contract.envelope import Context
from cronbell.core.domain import models
from cronbell.core.domain.instants import instant, parse_iso
from cronbell.core.domain.models import Schedule
from cronbell.core.domain.upcoming import upcoming
from cronbell.core.language.zone_ids import shown_zone
from cronbell.core.text import texts
from cronbell.core.text.texts import Moment
from cronbell.core.text.views import describe, preview, schedule_view
from cronbell.usecases.deps import Deps
from cronbell.usecases.quiet import QuietLookup

DUE_WINDOW = timedelta(minutes=5)  # a fire's minute and Lambda's two retries, 1 and 2 minutes apart
LISTED_ITEMS = 10  # a listing's text names this many items at most; its result holds them all
ABOUT_CHARS = 40  # a message's preview in a sentence


def zone_of(ctx: Context, deps: Deps) -> ZoneInfo:
    return shown_zone(ctx.timezone, deps.settings.default_timezone)


def now_fields(ctx: Context, deps: Deps) -> tuple[dict[str, str], str]:
    """The current time in the context's zone, as a result field and as the sentence that says it."""
    now = deps.now()
    tz = zone_of(ctx, deps)
    locale = ctx.locale or deps.settings.default_locale
    return instant(now, tz), texts.now_sentence(now, tz, locale)


def with_now(answer: dict[str, Any], ctx: Context, deps: Deps) -> dict[str, Any]:
    """Every answer with a context carries `now` (docs/skill.md, "Know what time it is"): in its result
    (or, refused, in `error.details`) and at the end of its text; a compact list's array result is
    left as its contract has it."""
    now, sentence = now_fields(ctx, deps)
    # an answer about one schedule says now in that schedule's zone already (`schedule_answer`): one sentence
    said = answer["ok"] and isinstance(answer["result"], dict) and "now" in answer["result"]
    if answer["ok"] and isinstance(answer["result"], dict):
        answer["result"].setdefault("now", now)
    elif not answer["ok"]:
        answer["error"].setdefault("details", {}).setdefault("now", now)
    if not said and sentence not in answer["text"]:
        text = answer["text"].rstrip()
        answer["text"] = f"{text}{'' if text.endswith(('.', '!', '?')) else '.'} {sentence}"
    return answer


def about(schedule: Schedule, locale: str) -> str:
    """' “Call the dentist”': what a reminder says, or an agent call's name, after its id."""
    text = schedule.name if schedule.kind == models.AGENT_CALL and schedule.name else schedule.body
    short = preview(text)
    if len(short) > ABOUT_CHARS:
        short = short[: ABOUT_CHARS - 1].rstrip() + "…"
    return " " + texts.say("quoted", locale, text=short) if short else ""


def when_said(schedule: Schedule, now: datetime, locale: str) -> str:
    """When it fires, each time once: a one-shot's date, or a recurrence and its next date."""
    tz = ZoneInfo(schedule.timezone)
    if schedule.status == models.PAUSED:  # it fires again once resumed: never "it will not fire again"
        if schedule.recurring:
            said = describe(schedule, locale)
        else:
            said = texts.when_text(schedule.timing.local_at, tz, locale, now.astimezone(tz).year)
            if schedule.timing.local_at <= now:  # resuming is refused then: a snooze gives it a new time
                return texts.say("when.paused_passed", locale, description=said)
        return texts.say("when.paused", locale, description=said)
    nexts = upcoming(schedule, now, 1)
    nxt = texts.when_text(nexts[0], tz, locale, now.astimezone(tz).year) if nexts else ""
    if not schedule.recurring:
        if nexts:
            return texts.say("when.once", locale, next=nxt)
        if schedule.status == models.ACTIVE:
            return _due(schedule, now, locale)
        return texts.say("when.once_none", locale)
    description = describe(schedule, locale)
    if not nexts:
        return texts.say("when.recurring_none", locale, description=description)
    return texts.say("when.recurring", locale, description=description, next=nxt)


def _due(schedule: Schedule, now: datetime, locale: str) -> str:
    """A one-shot whose time came and whose fire has not recorded it: under way in the minutes its fire and
    Lambda's retries take, else not delivered yet (a fire retried for hours, or lost until the reconciler)."""
    tz = ZoneInfo(schedule.timezone)
    at = schedule.timing.local_at
    key = "when.once_due" if now - at <= DUE_WINDOW else "when.once_overdue"
    return texts.say(key, locale, at=texts.when_text(at, tz, locale, now.astimezone(tz).year))


def held_said(held: datetime | None, tz: ZoneInfo, now: datetime, locale: str, next_at: datetime | None = None) -> str:
    """', held by quiet hours until Saturday 5 December, 07:30' ("" when nothing is held); a release
    before `next_at` (the next fire said before it) is an earlier occurrence's, and said so."""
    if held is None:
        return ""
    key = "quiet.held_earlier" if next_at is not None and held < next_at else "quiet.held"
    return ", " + texts.say(key, locale, until=texts.when_text(held, tz, locale, now.astimezone(tz).year))


def when_held_said(schedule: Schedule, now: datetime, locale: str, held: datetime | None) -> tuple[str, str]:
    """`when_said` and when quiet hours hold it, and the hold alone (', held by quiet hours until ...', for
    a text that says no `when`). A one-shot held now, with nothing to come, is said by its release alone
    ('held by quiet hours until Tuesday 1 December, 07:00')."""
    tz = ZoneInfo(schedule.timezone)
    nexts = upcoming(schedule, now, 1)
    hold = held_said(held, tz, now, locale, nexts[0] if nexts else None)
    if held is not None and not schedule.recurring and not nexts:
        return hold.removeprefix(", "), hold
    return when_said(schedule, now, locale) + hold, hold


def run_said(run: dict[str, Any], tz: ZoneInfo, year: int, locale: str) -> str:
    """'Monday 30 November, 09:00: delivered' (and its reason, when it has one)."""
    try:
        when = texts.when_text(parse_iso(str(run["scheduled_time"])), tz, locale, year)
    except ValueError:
        when = str(run.get("scheduled_time"))
    outcome = (
        texts.say(f"outcome.{run['outcome']}", locale) if texts.has(f"outcome.{run['outcome']}") else run["outcome"]
    )
    if run.get("reason"):
        said = texts.say("history.item_reason", locale, when=when, outcome=outcome, reason=run["reason"])
    else:
        said = texts.say("history.item", locale, when=when, outcome=outcome)
    return texts.say("history.manual", locale, item=said) if run.get("manual") else said


def item_said(
    schedule: Schedule, now: datetime, locale: str, held: datetime | None = None, shown: ZoneInfo | None = None
) -> str:
    """One item of a listing: 'k3v9q2m8xa “Call the dentist”, next Friday 4 December, 17:00', and
    when quiet hours hold it (an occurrence held now shows so, paused or with nothing to come). Its times
    are the schedule's zone's, named when it is not `shown`, the zone the answer's `now` names."""
    tz = ZoneInfo(schedule.timezone)
    nexts = upcoming(schedule, now, 1)
    timed = bool(nexts) or held is not None  # whether what is said holds a time of the schedule's zone
    if nexts:
        when = texts.say("listed.next", locale, next=texts.when_text(nexts[0], tz, locale, now.astimezone(tz).year))
    elif schedule.status == models.PAUSED:
        when = texts.say("listed.paused", locale)
    elif held is not None:
        when = ""
    elif not schedule.recurring and schedule.status == models.ACTIVE:
        when, timed = _due(schedule, now, locale), True
    elif schedule.status != models.ACTIVE:  # it ended: how, and its last run, as the history says it
        when = texts.say("listed.ended", locale, status=schedule.status)
        if schedule.last_run:
            run = run_said(schedule.last_run, tz, now.astimezone(tz).year, locale)
            when, timed = texts.say("listed.ended_run", locale, status=schedule.status, run=run), True
    else:
        when = texts.say("listed.none", locale)
    when = (when + held_said(held, tz, now, locale, nexts[0] if nexts else None)).removeprefix(", ")
    if shown is not None and timed and shown.key != tz.key:
        when += f" ({tz.key})"
    return texts.say("listed.item", locale, id=schedule.id, about=about(schedule, locale), when=when)


def listing_said(key: str, items: list[str], locale: str, now: str, **values: Any) -> str:
    """'<key>': the first LISTED_ITEMS items named, and how many there are in all."""
    if not items:
        return texts.say(f"{key}_none", locale, now=now, **values)
    shown = items[:LISTED_ITEMS]
    variant = key if len(items) > 1 else f"{key}_one"
    if len(items) > LISTED_ITEMS:
        variant = f"{key}_more"
    return texts.say(variant, locale, count=len(items), shown=len(shown), items="; ".join(shown), now=now, **values)


def schedule_answer(
    key: str,
    schedule: Schedule,
    deps: Deps,
    locale: str,
    notes: tuple[str, ...] = (),
    quiet: QuietLookup | None = None,
    **extra: Any,
) -> dict[str, Any]:
    """The schedule as a list shows it plus `now` and its notes, and the `key` line of texts. `quiet`:
    the quiet hours read before the change (else read now, when they may hold its next occurrence)."""
    now = deps.now()
    tz = ZoneInfo(schedule.timezone)
    held = (quiet or QuietLookup(deps, schedule.room_id, tolerant=True)).held_until(schedule, now)
    view = schedule_view(schedule, now, locale, with_notes=True, held=held)
    view["now"] = instant(now, tz)
    if quiet is not None and quiet.decided and schedule.quiet_exempt and schedule.status == models.ACTIVE:
        notes = (*notes, texts.say("quiet.exempt", locale))  # a one-shot set inside its user's quiet hours
    all_notes = list(notes) + list(view.get("dst_notes", []))
    if all_notes:
        view["notes"] = all_notes
    year = now.astimezone(tz).year
    values = {k: replace(v, year=year) if isinstance(v, Moment) else v for k, v in extra.items()}
    when, hold = when_held_said(schedule, now, locale, held)
    text = texts.say(
        key,
        locale,
        id=schedule.id,
        about=about(schedule, locale),
        when=when,
        held=hold,
        now=texts.now_sentence(now, tz, locale),
        **values,
    )
    if all_notes:
        text += " " + " ".join(all_notes)
    return {"result": view, "text": text}
