"""update_reminder, pause_reminder, resume_reminder and skip_next (snooze_reminder: usecases/snooze.py).

Each change computes the new schedule, then brings the Scheduler entries and the item to it:
entries first and the item second (a failed item write puts the entries back), except when the
change stops firing (pause): then the item first, so a crash in between leaves at worst an entry
whose fires are skipped, never an active item that cannot fire.
"""

from __future__ import annotations

import logging
from dataclasses import replace
from datetime import UTC, datetime
from typing import Any
from zoneinfo import ZoneInfo

from cronbell.core.contract.envelope import Context
from cronbell.core.domain import models
from cronbell.core.domain.errors import Busy, Conflict
from cronbell.core.domain.instants import iso_utc, parse_iso
from cronbell.core.domain.models import Schedule
from cronbell.core.domain.refusals import ToolError, refusal
from cronbell.core.domain.upcoming import ran_already, ran_through, upcoming
from cronbell.core.language.zone_ids import resolve_timezone
from cronbell.core.text import texts
from cronbell.core.text.views import describe
from cronbell.usecases import ends
from cronbell.usecases.answers import now_fields, schedule_answer
from cronbell.usecases.change_writes import ChangedMeanwhile, apply, busy
from cronbell.usecases.deps import Deps
from cronbell.usecases.manage import find, refuse_while_the_last_occurrence_is_pending
from cronbell.usecases.occurrences import is_coming, read_occurrence, said_at
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
from cronbell.usecases.quiet import QuietLookup, held_now
from cronbell.usecases.repeat_settings import read_repeats

log = logging.getLogger(__name__)


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
    if new.timing != old.timing:  # a pending snooze the new ends drop is named first: it is what to move
        _check_snoozes_kept(old, new, deps.now())
        check_ends(new.timing, deps.now(), new.locale, old.delivered_count, old.done_through)
    if old.status == models.ACTIVE and new.timing != old.timing:  # new ends, or a new time with an end
        refuse_while_the_last_occurrence_is_pending(new, deps.now(), deps, "busy.ends_on_due")
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
    return when.notes + _forgotten(old, deps.now(), said_in) + _until_moved(old, new, args, said_in)


def _until_moved(old: Schedule, new: Schedule, args: Any, locale: str) -> tuple[str, ...]:
    """A new zone keeps `until` as the instant it is, which reads as another time (or day) there: said."""
    until = new.timing.until if new.recurring and args.until is None else None
    if until is None or new.timezone == old.timezone:
        return ()
    was, there = texts.Moment(until, ZoneInfo(old.timezone)), texts.Moment(until, ZoneInfo(new.timezone))
    return (texts.say("note.until_kept", locale, was=was, there=there, zone=new.timezone),)


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
    new = replace(old, status=models.PAUSED, repeat_slot="")  # a pause stops the current repeats
    apply(old, new, deps)
    held = held_now(new)  # an occurrence quiet hours hold is still posted at their end (docs/semantics.md)
    if held is None:
        return schedule_answer("paused", new, deps, locale)
    return schedule_answer("paused.held", new, deps, locale, until=texts.Moment(held, ZoneInfo(new.timezone)))


def resume_reminder(args: Any, ctx: Context, deps: Deps) -> dict[str, Any]:
    locale = ctx.locale or deps.settings.default_locale
    try:
        old = find(ctx, args.id, deps)
    except ToolError:  # completed already by the daily reconciler, its end passed while paused: said as below
        gone = find(ctx, args.id, deps, live_only=False)
        if gone.status != models.COMPLETED or gone.status_reason != ends.ENDED_WHILE_PAUSED:
            raise
        now_dict, now_text = now_fields(ctx, deps)
        return ends.ended_while_paused(gone, now_dict, now_text, locale, deps)
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
    if schedule.recurring and schedule.status == models.PAUSED:
        raise refusal("invalid_state.skip_paused", id=schedule.id)
    if not schedule.recurring or schedule.status != models.ACTIVE:
        raise refusal("invalid_state.skip_one_shot")
    now = deps.now()
    refuse_while_the_last_occurrence_is_pending(schedule, now, deps)
    named = getattr(args, "occurrence", None)
    if named is not None:
        skipped = read_occurrence(named, schedule)
        if ran_already(schedule, skipped, now):  # past, or run already (a fire may come early; a move may follow)
            raise refusal("invalid_state.occurrence_past", id=schedule.id, when=said_at(skipped, schedule))
        if not is_coming(schedule, skipped, now):
            raise refusal("invalid_arguments.not_an_occurrence", id=schedule.id, when=said_at(skipped, schedule))
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
    answer = schedule_answer("skipped", new, deps, locale, skipped=said_at(skipped, schedule))
    answer["result"]["skipped"] = iso_utc(skipped)
    return answer


def _check_snoozes_kept(old: Schedule, new: Schedule, now: datetime) -> None:
    """New ends never drop a pending snooze the schedule posts now (an earlier `until`, a lower `count`):
    refused, changing nothing, as a snooze past the end is (docs/semantics.md, "Ends")."""
    dropped = sorted(_snoozes_posted(old, now, new.timing.snoozes) - _snoozes_posted(new, now, new.timing.snoozes))
    if dropped:
        raise refusal("invalid_arguments.ends_drop_snooze", id=new.id, to=said_at(dropped[0], new))


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
