"""update_reminder, pause_reminder, resume_reminder, snooze_reminder and skip_next.

Each change computes the new schedule, then brings the Scheduler entries and the item to it:
entries first and the item second (a failed item write puts the entries back), except when the
change stops firing (pause): then the item first, so a crash in between leaves at worst an entry
whose fires are skipped, never an active item that cannot fire.
"""

from __future__ import annotations

import logging
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from cronbell.core.contract.envelope import Context
from cronbell.core.domain import models
from cronbell.core.domain.errors import Busy, Conflict
from cronbell.core.domain.instants import iso_utc, parse_iso
from cronbell.core.domain.models import Schedule
from cronbell.core.domain.refusals import refusal
from cronbell.core.domain.runs import DELIVERED
from cronbell.core.domain.timing import Timing
from cronbell.core.domain.upcoming import ran_already, ran_through, upcoming
from cronbell.core.language.zone_ids import resolve_timezone
from cronbell.core.text import texts
from cronbell.core.text.views import describe, short_date
from cronbell.usecases import ends
from cronbell.usecases.answers import about, now_fields, schedule_answer
from cronbell.usecases.change_writes import ChangedMeanwhile, apply, busy
from cronbell.usecases.deps import Deps
from cronbell.usecases.manage import find, refuse_while_the_last_occurrence_is_pending
from cronbell.usecases.planning import (
    When,
    check_agent_target,
    check_ends,
    kept_ends,
    output_room,
    plan_once,
    plan_recurring,
    read_ends,
)
from cronbell.usecases.quiet import QuietLookup
from cronbell.usecases.repeat_settings import read_repeats

log = logging.getLogger(__name__)
HISTORY_LOOKBACK = 50  # runs read to find the delivered occurrence an old snooze button names


# --- the tools -----------------------------------------------------------------------------------


def update_reminder(args: Any, ctx: Context, deps: Deps) -> dict[str, Any]:
    locale = ctx.locale or deps.settings.default_locale
    old = find(ctx, args.id, deps)
    new = replace(old)
    _update_definition(new, args, ctx, deps)
    tz = resolve_timezone(args.timezone, old.timezone) if args.timezone else ZoneInfo(old.timezone)
    notes = _update_time(old, new, args, tz, deps, locale)
    ends = read_ends(args, tz, deps.now(), new.locale, clearing=True)
    if ends is not None:
        if not new.recurring:
            raise refusal("invalid_arguments.ends_recurring_only")
        new.timing = ends.applied_to(new.timing)
    if new.timing != old.timing:
        check_ends(new.timing, deps.now(), new.locale, old.delivered_count, old.done_through)
        _check_snoozes_kept(old, new, deps.now())
    repeating = read_repeats(args, ctx, deps, old)
    if repeating and old.kind == models.AGENT_CALL:
        raise refusal("invalid_arguments.repeat_reminders_only")
    for field, value in repeating.items():
        setattr(new, field, value)
    quiet = QuietLookup(deps, ctx.room_id)  # read before anything is written
    if args.time is not None or args.cron is not None or args.timezone:  # a new time decides again
        quiet.decide_exempt(new, ctx.user_id, deps.now())
    quiet.read_ahead(new, deps.now())
    new.with_dedupe_key()
    apply(old, new, deps)
    return schedule_answer("updated", new, deps, locale, notes, quiet)


def _update_definition(new: Schedule, args: Any, ctx: Context, deps: Deps) -> None:
    """What is posted or asked (the message, or an agent call's prompt, agent, channel and name)."""
    agent_call = new.kind == models.AGENT_CALL
    if args.message is not None:
        if agent_call:
            raise refusal("invalid_arguments.prompt_not_message")
        new.text = args.message
    if args.prompt is not None:
        if not agent_call:
            raise refusal("invalid_arguments.message_not_prompt")
        new.prompt = args.prompt
    for field in ("target_agent", "channel", "name"):
        value = getattr(args, field)
        if value is not None:
            if not agent_call:
                raise refusal("invalid_arguments.agent_call_only", field=field)
            setattr(new, field, output_room(value, ctx, deps) if field == "channel" and value else value)
    if args.target_agent is not None or args.channel is not None:
        check_agent_target(new.target_agent, new.output_room, ctx, deps)


def _update_time(old: Schedule, new: Schedule, args: Any, tz: ZoneInfo, deps: Deps, said_in: str) -> tuple[str, ...]:
    """A new time, expression or zone, when one is given (its notes returned); a new time forgets
    what was skipped or snoozed, but a recurrence keeps its end and calendar."""
    if args.time is None and args.cron is None and not args.timezone:
        return ()
    if args.time is not None:
        when = plan_once(args.time, tz, deps.now(), new.locale)
        if old.recurring:  # said: a model may pass `time` for "move my stand-up to 7"
            once = texts.say("note.now_once", said_in, description=describe(old, said_in))  # the answer's language
            when = replace(when, notes=(*when.notes, once))
    elif args.cron is not None:
        when = plan_recurring(args.cron, tz, deps, new.locale, zone_given=bool(args.timezone))
    elif old.recurring:  # the same schedule, as stored, in a new zone: its phrase is not read again (a
        # release may read it otherwise), and every N weeks or days keeps its weeks or days
        when = When(tz=tz, spec=old.timing.spec)
    else:  # same wall-clock time, new zone
        at = old.timing.local_at.replace(tzinfo=tz)
        if at <= deps.now():
            raise refusal("time_in_past.new_zone").about("timezone")
        when = plan_once(at.isoformat(), tz, deps.now(), new.locale)
    new.timing = when.timing
    if new.recurring:
        new.timing = kept_ends(new.timing, old.timing, when.ends)
    return when.notes + _forgotten(old, deps.now(), said_in)


def _forgotten(old: Schedule, now: datetime, locale: str) -> tuple[str, ...]:
    """What a new time, expression or zone drops, said: the coming occurrences skip_next skipped and the
    snoozes still to come (they were times of the old schedule)."""
    timing, zone = old.timing, ZoneInfo(old.timezone)
    skipped = sorted(parse_iso(t) for t in timing.skips - timing.moved if parse_iso(t) > now)
    snoozed = sorted(t for t in timing.snoozes if t > now and iso_utc(t) not in timing.skips)
    return tuple(
        texts.say(key, locale, when=texts.Moment(t, zone))
        for key, times in (("note.skip_dropped", skipped), ("note.snooze_dropped", snoozed))
        for t in times
    )


def pause_reminder(args: Any, ctx: Context, deps: Deps) -> dict[str, Any]:
    locale = ctx.locale or deps.settings.default_locale
    old = find(ctx, args.id, deps)
    if old.status == models.PAUSED:
        raise refusal("invalid_state", id=old.id)
    apply(old, replace(old, status=models.PAUSED, repeat_slot=""), deps)  # a pause stops the current repeats
    now_dict, now_text = now_fields(ctx, deps)
    return {
        "result": {"id": old.id, "status": models.PAUSED, "now": now_dict},
        "text": texts.say("paused", locale, id=old.id, about=about(old, locale), now=now_text),
    }


def resume_reminder(args: Any, ctx: Context, deps: Deps) -> dict[str, Any]:
    locale = ctx.locale or deps.settings.default_locale
    old = find(ctx, args.id, deps)
    if old.status != models.PAUSED:
        raise refusal("invalid_state.not_paused", id=old.id)
    if not old.recurring and old.timing.local_at <= deps.now():
        raise refusal("time_in_past.while_paused")
    if ends.ended(old, deps):  # its `until` passed or its `count` is used: it is completed
        now_dict, now_text = now_fields(ctx, deps)
        return ends.ended_while_paused(old, now_dict, now_text, locale, deps)
    new = replace(old, status=models.ACTIVE, status_reason="", failure_streak=0)  # a fresh start
    apply(old, new, deps)
    return schedule_answer("resumed", new, deps, locale)


def skip_next(args: Any, ctx: Context, deps: Deps) -> dict[str, Any]:
    """Skip the next occurrence, or the coming one `occurrence` names (a button names the occurrence
    after the post it sits under, so a late tap never skips another one)."""
    locale = ctx.locale or deps.settings.default_locale
    schedule = find(ctx, args.id, deps)
    if not schedule.recurring or schedule.status != models.ACTIVE:
        raise refusal("invalid_state.skip_one_shot")
    now = deps.now()
    named = getattr(args, "occurrence", None)
    if named is not None:
        skipped = _occurrence(named, schedule)
        if ran_already(schedule, skipped, now):  # past, or run already (a fire may come early; a move may follow)
            raise refusal("invalid_state.occurrence_past", id=schedule.id, when=_clock(skipped, schedule))
        if not _coming(schedule, skipped, now):
            raise refusal("invalid_arguments.not_an_occurrence", id=schedule.id, when=_clock(skipped, schedule))
    else:
        nexts = upcoming(schedule, now, 1)
        if not nexts:
            raise refusal("invalid_state.nothing_to_skip")
        skipped = nexts[0]
    try:
        deps.store.set_skip(schedule, iso_utc(skipped), now)
    except Busy:
        raise busy() from None
    except Conflict:
        raise ChangedMeanwhile("backend_error.changed_meanwhile") from None
    new = replace(schedule, timing=schedule.timing.skipping(skipped))
    answer = schedule_answer("skipped", new, deps, locale, skipped=_clock(skipped, schedule))
    answer["result"]["skipped"] = iso_utc(skipped)
    return answer


def snooze_reminder(args: Any, ctx: Context, deps: Deps) -> dict[str, Any]:
    """Postpone one occurrence: the next one, or the one `occurrence` names.

    A coming occurrence moves `minutes` after its own time, or to `until`, never earlier than it
    was. A one-shot that fired or was missed (or whose time passed while it was paused) comes back
    `minutes` from now; a recurring occurrence already delivered is reminded again `minutes` from now
    (a button under its post). A paused schedule with a coming occurrence is refused (resume it
    first), and so is a snooze past the schedule's end: its occurrence would never be delivered."""
    locale = ctx.locale or deps.settings.default_locale
    old = find(ctx, args.id, deps, live_only=False)
    if old.status == models.DELETED:
        raise refusal("not_found.deleted", id=old.id)
    now = deps.now()
    named = getattr(args, "occurrence", None)
    occurrence = _occurrence(named, old) if named is not None else None
    if old.status == models.ACTIVE:
        refuse_while_the_last_occurrence_is_pending(old, now, _pending_seconds(deps))
    if occurrence is not None and occurrence <= ran_through(old, now):  # past, or run already
        new, target = _snooze_again(old, occurrence, args, deps, locale)
    elif old.recurring:
        new, target = _snooze_coming(old, occurrence, args, deps, locale)
    else:
        new, target = _snooze_one_shot(old, occurrence, args, deps, locale)
    if new.recurring:
        _within_ends(new, target, now, locale)
    new = replace(new, repeat_slot="")  # a snooze stops the current repeats; the snoozed post repeats anew
    apply(old, new, deps)
    nexts = upcoming(new, deps.now(), 1)
    said_once = not new.recurring or bool(nexts and nexts[0] == target)  # its new time is its next: once
    key = "snoozed.once" if said_once else "snoozed"
    answer = schedule_answer(key, new, deps, locale, to=_clock(target, old))
    answer["result"]["snoozed_to"] = iso_utc(target)
    return answer


LAMBDA_MAX_EVENT_SECONDS = 6 * 3600  # how long a late attempt can still come when lateness has no limit


def _pending_seconds(deps: Deps) -> int:
    """How long after its time an occurrence not run yet may still be delivered by a late attempt."""
    minutes = deps.settings.max_lateness_minutes
    return minutes * 60 if minutes > 0 else LAMBDA_MAX_EVENT_SECONDS


Snoozed = tuple[Schedule, datetime]  # the schedule snoozed, and where its occurrence moved


def _snooze_again(old: Schedule, occurrence: datetime, args: Any, deps: Deps, locale: str) -> Snoozed:
    """A delivered occurrence is reminded again from now: nothing is skipped."""
    now, tz = deps.now(), ZoneInfo(old.timezone)
    target = _snooze_target(args, _delivered(old, occurrence, now, deps), tz, deps, locale)
    if not old.recurring:
        return _one_shot_back(old, target, tz), target
    snoozes = tuple(sorted([*(t for t in old.timing.snoozes if t > now), target.replace(microsecond=0)]))
    return replace(old, timing=replace(old.timing, snoozes=snoozes)), target


def _snooze_coming(old: Schedule, occurrence: datetime | None, args: Any, deps: Deps, locale: str) -> Snoozed:
    """A recurrence's coming occurrence (the next one, or the one named) moves later."""
    now = deps.now()
    paused_next = (
        old.timing.upcoming(now, 1, old.delivered_count, old.done_through) if old.status == models.PAUSED else []
    )
    if paused_next:  # a snooze never resumes a schedule
        raise refusal("invalid_state.snooze_paused", id=old.id, when=_clock(paused_next[0], old))
    if old.status != models.ACTIVE:
        raise refusal("invalid_state.nothing_to_snooze", id=old.id, status=old.status)
    if occurrence is None:
        nexts = upcoming(old, now, 1)
        if not nexts:
            raise refusal("invalid_state.nothing_to_snooze", id=old.id, status=old.status)
        occurrence = nexts[0]
    elif not _coming(old, occurrence, now):
        raise refusal("invalid_arguments.not_an_occurrence", id=old.id, when=_clock(occurrence, old))
    target = _snooze_target(args, occurrence, ZoneInfo(old.timezone), deps, locale, old)
    return replace(old, timing=old.timing.snoozed(occurrence, target, now)), target


def _snooze_one_shot(old: Schedule, occurrence: datetime | None, args: Any, deps: Deps, locale: str) -> Snoozed:
    """A one-shot moves later, or, once it fired or was missed, comes back from now."""
    now, tz = deps.now(), ZoneInfo(old.timezone)
    due = old.timing.local_at
    if occurrence is not None and occurrence != due:
        raise refusal("invalid_arguments.not_an_occurrence", id=old.id, when=_clock(occurrence, old))
    coming = old.status in models.LIVE_STATUSES and due > now
    if old.status == models.PAUSED and coming:
        raise refusal("invalid_state.snooze_paused", id=old.id, when=_clock(due, old))
    base = max(now, due) if old.status == models.ACTIVE else now
    target = _snooze_target(args, base, tz, deps, locale, old if coming else None)
    return _one_shot_back(old, target, tz), target


def _one_shot_back(old: Schedule, target: datetime, tz: ZoneInfo) -> Schedule:
    new = replace(old, status=models.ACTIVE, timing=Timing.once(target, tz), fired_at=None, status_reason="")
    new.with_dedupe_key()
    return new


def _check_snoozes_kept(old: Schedule, new: Schedule, now: datetime) -> None:
    """New ends never drop a pending snooze the schedule posts now (an earlier `until`, a lower `count`):
    refused, changing nothing, as a snooze past the end is (docs/semantics.md, "Ends")."""
    dropped = sorted(_snoozes_posted(old, now, new.timing.snoozes) - _snoozes_posted(new, now, new.timing.snoozes))
    if dropped:
        raise refusal("invalid_arguments.ends_drop_snooze", id=new.id, to=_clock(dropped[0], new))


def _snoozes_posted(schedule: Schedule, now: datetime, snoozes: tuple[datetime, ...]) -> set[datetime]:
    """Those of `snoozes` (pending snoozed occurrences) that `schedule` posts: before its end, within its count."""
    timing = schedule.timing
    kept = {t.astimezone(UTC) for t in snoozes if t > now and iso_utc(t) not in timing.skips}
    if timing.until is not None:
        kept = {t for t in kept if t <= timing.until}
    if timing.count:  # paused or not: a pause keeps its snoozes for the resume
        left = max(0, timing.count - schedule.delivered_count)
        coming = timing.upcoming(ran_through(schedule, now), left, schedule.delivered_count, schedule.done_through)
        kept &= {t.astimezone(UTC) for t in coming}
    return kept


def _clock(instant: datetime, schedule: Schedule) -> texts.Moment:
    """An occurrence as a sentence names it, with its weekday, in the schedule's zone."""
    return texts.Moment(instant, ZoneInfo(schedule.timezone))


def _occurrence(text: str, schedule: Schedule) -> datetime:
    """The instant an `occurrence` argument names (RFC3339 with its offset), in the schedule's zone."""
    try:
        return parse_iso(text).astimezone(ZoneInfo(schedule.timezone))
    except ValueError:
        raise refusal("invalid_arguments.occurrence", text=text) from None


def _coming(schedule: Schedule, occurrence: datetime, now: datetime) -> bool:
    """Whether `occurrence` is one of the schedule's coming occurrences (not skipped, not past its end)."""
    timing = schedule.timing
    if ran_already(schedule, occurrence, now) or not timing.fires_at(occurrence):
        return False
    if iso_utc(occurrence) in timing.skips:
        return False
    if timing.off_interval(occurrence) or timing.is_holiday(occurrence):
        return False
    if timing.until is not None and occurrence > timing.until:
        return False
    if timing.count:
        wanted = occurrence.astimezone(UTC)
        return wanted in [t.astimezone(UTC) for t in upcoming(schedule, now, timing.count - schedule.delivered_count)]
    return True


def _delivered(schedule: Schedule, occurrence: datetime, now: datetime, deps: Deps) -> datetime:
    """A past occurrence a snooze names must be one the schedule delivered (a button sits under its
    post): it is reminded again from now. A one-shot brought back or moved since is refused."""
    wanted = occurrence.astimezone(UTC)
    run = next(
        (
            r
            for r in deps.store.runs(schedule.room_id, schedule.id, HISTORY_LOOKBACK)
            if _same(r.scheduled_time, wanted)
        ),
        None,
    )
    if run is None:
        raise refusal("invalid_arguments.not_an_occurrence", id=schedule.id, when=_clock(occurrence, schedule))
    if run.outcome != DELIVERED:
        raise refusal(
            "invalid_state.occurrence_not_delivered",
            id=schedule.id,
            when=_clock(occurrence, schedule),
            outcome=run.outcome,
        )
    if not schedule.recurring and schedule.status in models.LIVE_STATUSES:
        due = schedule.timing.local_at
        if due.astimezone(UTC) != wanted:
            raise refusal("invalid_state.occurrence_superseded", id=schedule.id, next=_clock(due, schedule))
    if schedule.status == models.PAUSED or (schedule.recurring and schedule.status != models.ACTIVE):
        raise refusal("invalid_state.nothing_to_snooze", id=schedule.id, status=schedule.status)
    return now


def _same(scheduled_time: str, wanted: datetime) -> bool:
    try:
        return parse_iso(scheduled_time).astimezone(UTC) == wanted
    except ValueError:
        return False


def _snooze_target(
    args: Any, base: datetime, tz: ZoneInfo, deps: Deps, locale: str, schedule: Schedule | None = None
) -> datetime:
    """Where the snooze moves the occurrence at `base`. With `schedule`, `base` is a coming
    occurrence, and a snooze `until` a time that is not later than it is refused: a snooze postpones."""
    if args.until is not None:
        target = plan_once(args.until, tz, deps.now(), locale, "until").at or base
        if schedule is not None and target <= base:
            raise refusal("invalid_time.snooze_not_later", to=_clock(target, schedule), when=_clock(base, schedule))
        return target
    target = (base.astimezone(UTC) + timedelta(minutes=args.minutes)).astimezone(tz)  # elapsed, not wall-clock
    if target <= deps.now():
        raise refusal("time_in_past.already").about("minutes")
    return target


def _within_ends(new: Schedule, target: datetime, now: datetime, locale: str) -> None:
    """A snoozed occurrence past the end (`until`, or after the last of `count` runs) would never be
    delivered: refused, with the end named."""
    timing = new.timing
    if timing.until is not None and target > timing.until:
        until = short_date(timing.until.astimezone(timing.tz), locale)
        raise refusal("invalid_time.snooze_past_until", id=new.id, until=until)
    if timing.count:
        wanted = target.astimezone(UTC)
        kept = upcoming(new, now, max(0, timing.count - new.delivered_count))
        if wanted not in [t.astimezone(UTC) for t in kept]:
            raise refusal("invalid_time.snooze_past_count", id=new.id, count=timing.count, to=_clock(target, new))
