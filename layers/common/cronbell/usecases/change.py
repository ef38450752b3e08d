"""update_reminder, pause_reminder, resume_reminder, snooze_reminder and skip_next.

Each change computes the new schedule, then brings the Scheduler entries and the item to it:
entries first and the item second (a failed item write puts the entries back), except when the
change stops firing (pause): then the item first, so a crash in between leaves at worst an entry
whose fires are skipped, never an active item that cannot fire.
"""

from __future__ import annotations

import logging
from dataclasses import replace
from datetime import datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from cronbell.core import models, texts
from cronbell.core.envelope import Context
from cronbell.core.errors import ToolError, refusal
from cronbell.core.instants import iso_utc
from cronbell.core.models import Schedule
from cronbell.core.ports import BackendError, Busy, Conflict, Duplicate, LimitReached, NameTaken
from cronbell.core.timing import Timing
from cronbell.core.views import upcoming
from cronbell.core.when import resolve_timezone
from cronbell.usecases import ends
from cronbell.usecases.answers import now_fields, schedule_answer
from cronbell.usecases.create import (
    check_agent_target,
    check_ends,
    name_taken,
    output_room,
    plan_once,
    plan_recurring,
    read_ends,
)
from cronbell.usecases.deps import Deps
from cronbell.usecases.manage import find

log = logging.getLogger(__name__)


# --- the tools -----------------------------------------------------------------------------------


def update_reminder(args: Any, ctx: Context, deps: Deps) -> dict[str, Any]:
    locale = ctx.locale or deps.settings.default_locale
    old = find(ctx, args.id, deps)
    new = replace(old)
    agent_call = old.kind == models.AGENT_CALL
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

    tz = resolve_timezone(args.timezone, old.timezone) if args.timezone else ZoneInfo(old.timezone)
    notes: tuple[str, ...] = ()
    if args.time is not None or args.cron is not None or args.timezone:
        if args.time is not None:
            when = plan_once(args.time, tz, deps.now(), new.locale)
        elif args.cron is not None:
            when = plan_recurring(args.cron, tz, deps, new.locale)
        elif old.recurring:  # same expression, new zone; every N weeks or days keeps its weeks or days
            anchor = old.timing.interval.anchor if old.timing.interval else None
            when = plan_recurring(old.timing.spec.source, tz, deps, new.locale, keep=anchor)
        else:  # same wall-clock time, new zone
            at = old.timing.local_at.replace(tzinfo=tz)
            if at <= deps.now():
                raise refusal("time_in_past.new_zone")
            when = plan_once(at.isoformat(), tz, deps.now(), new.locale)
        notes = when.notes
        new.timing = when.timing  # a new time forgets what was skipped or snoozed
        if new.recurring:  # ...but a recurrence keeps its end and calendar
            new.timing = new.timing.ends_with(old.timing.until, old.timing.count, old.timing.calendar)
    ends = read_ends(args, tz, deps.now(), new.locale, clearing=True)
    if ends is not None:
        if not new.recurring:
            raise refusal("invalid_arguments.ends_recurring_only")
        new.timing = ends.applied_to(new.timing)
    if new.timing != old.timing:
        check_ends(new.timing, deps.now(), new.locale, old.delivered_count)
    new.with_dedupe_key()
    apply(old, new, deps)
    return schedule_answer("updated", new, deps, locale, notes)


def pause_reminder(args: Any, ctx: Context, deps: Deps) -> dict[str, Any]:
    locale = ctx.locale or deps.settings.default_locale
    old = find(ctx, args.id, deps)
    if old.status == models.PAUSED:
        raise refusal("invalid_state", id=old.id)
    apply(old, replace(old, status=models.PAUSED), deps)
    now_dict, now_text = now_fields(ctx, deps)
    return {
        "result": {"id": old.id, "status": models.PAUSED, "now": now_dict},
        "text": texts.say("paused", locale, id=old.id, now=now_text),
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
    locale = ctx.locale or deps.settings.default_locale
    schedule = find(ctx, args.id, deps)
    if not schedule.recurring or schedule.status != models.ACTIVE:
        raise refusal("invalid_state.skip_one_shot")
    nexts = upcoming(schedule, deps.now(), 1)
    if not nexts:
        raise refusal("invalid_state.nothing_to_skip")
    skipped = nexts[0]
    try:
        deps.store.set_skip(schedule, iso_utc(skipped), deps.now())
    except Busy:
        raise _busy() from None
    except Conflict:
        raise refusal("backend_error.changed_meanwhile") from None
    new = replace(schedule, timing=schedule.timing.skipping(skipped))
    answer = schedule_answer(
        "skipped", new, deps, locale, skipped=texts.clock_text(skipped, ZoneInfo(schedule.timezone))
    )
    answer["result"]["skipped"] = iso_utc(skipped)
    return answer


def snooze_reminder(args: Any, ctx: Context, deps: Deps) -> dict[str, Any]:
    """A one-shot (pending, or fired/missed: it comes back) moves to a new time; for a recurring
    schedule, the next occurrence is skipped and delivered later instead."""
    locale = ctx.locale or deps.settings.default_locale
    old = find(ctx, args.id, deps, live_only=False)
    if old.status == models.DELETED:
        raise refusal("not_found.deleted", id=old.id)
    now = deps.now()
    tz = ZoneInfo(old.timezone)
    if old.recurring:
        nexts = upcoming(old, now, 1)
        if old.status != models.ACTIVE or not nexts:
            raise refusal("invalid_state.nothing_to_snooze", id=old.id, status=old.status)
        target = _snooze_target(args, nexts[0], tz, deps, locale)
        new = replace(old, timing=old.timing.snoozed(nexts[0], target, now))
    else:
        base = max(now, old.timing.local_at) if old.status == models.ACTIVE else now
        target = _snooze_target(args, base, tz, deps, locale)
        new = replace(old, status=models.ACTIVE, timing=Timing.once(target, tz), fired_at="", status_reason="")
        new.with_dedupe_key()
    apply(old, new, deps)
    return schedule_answer("snoozed", new, deps, locale)


def _snooze_target(args: Any, base: datetime, tz: ZoneInfo, deps: Deps, locale: str) -> datetime:
    if args.until is not None:
        return plan_once(args.until, tz, deps.now(), locale).at or base
    target = (base + timedelta(minutes=args.minutes)).astimezone(tz)
    if target <= deps.now():
        raise refusal("time_in_past.already")
    return target


# --- bringing entries and the item to the new schedule ------------------------------------------


def apply(old: Schedule, new: Schedule, deps: Deps) -> None:
    new.updated_at = iso_utc(deps.now())
    stops_firing = old.status == models.ACTIVE and new.status != models.ACTIVE
    try:
        if stops_firing:
            _write(old, new, deps)
            _sync(old, new, deps)
            return
        touched = _sync(old, new, deps)
        try:
            _write(old, new, deps)
        except BaseException:
            _restore(old, touched, deps)
            raise
    except BackendError as err:
        log.error("change failed", extra={"schedule_id": old.id, "error": str(err)})
        raise refusal("backend_error.not_saved_change") from err


def _write(old: Schedule, new: Schedule, deps: Deps) -> None:
    try:
        deps.store.replace(old, new, deps.settings.max_per_room, deps.now())
    except Busy:
        raise _busy() from None
    except NameTaken as taken:
        raise name_taken(new.name, taken) from None
    except Duplicate as dup:
        raise refusal("duplicate", id=dup.existing.id) from None
    except LimitReached:
        raise refusal("limit_reached.change") from None
    except Conflict:
        raise refusal("backend_error.changed_list") from None


def _busy() -> ToolError:
    """A change that meets a delivery under way is refused, never applied and then lost."""
    return refusal("busy")


def _sync(old: Schedule, new: Schedule, deps: Deps) -> list[str]:
    """Make the Scheduler entries those of `new`; returns the names touched, for _restore."""
    before = {e.name: e for e in old.entries()}
    after = {e.name: e for e in new.entries()}
    touched: list[str] = []
    try:
        for name, entry in after.items():
            prev = before.get(name)
            if prev == entry and old.status == new.status:
                continue
            touched.append(name)
            if prev is not None and prev.one_time != entry.one_time:
                deps.scheduler.delete(name)  # UpdateSchedule cannot be trusted to switch the kind
            deps.scheduler.put_entry(entry, new, deps.now())
        for name in before.keys() - after.keys():
            touched.append(name)
            deps.scheduler.delete(name)
    except BaseException:
        _restore(old, touched, deps)
        raise
    return touched


def _restore(old: Schedule, touched: list[str], deps: Deps) -> None:
    before = {e.name: e for e in old.entries()}
    for name in touched:
        try:
            if name in before:
                deps.scheduler.put_entry(before[name], old, deps.now())
            else:
                deps.scheduler.delete(name)
        except BackendError:
            log.warning("could not restore scheduler entry; the reconciler will", extra={"entry": name})
