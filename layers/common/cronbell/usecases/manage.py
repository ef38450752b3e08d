"""list_reminders, cron_list, reminder_history, delete_reminder / cron_delete and run_now: the
room's own schedules."""

from __future__ import annotations

import logging
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any
from zoneinfo import ZoneInfo

from cronbell.core.contract.envelope import Context
from cronbell.core.domain import models, phrases, routing
from cronbell.core.domain.errors import BackendError, Busy, Conflict, Gone, TooSoon
from cronbell.core.domain.fire_event import manual_input
from cronbell.core.domain.firing import EARLY_SECONDS
from cronbell.core.domain.instants import iso_utc, parse_iso
from cronbell.core.domain.ledger_slots import slot_time
from cronbell.core.domain.models import Schedule
from cronbell.core.domain.refusals import ToolError, refusal
from cronbell.core.domain.upcoming import ran_through
from cronbell.core.text import texts
from cronbell.core.text.views import cron_view, describe, schedule_view, template_schedule_view
from cronbell.usecases.answers import about, item_said, listing_said, now_fields, run_said, zone_of
from cronbell.usecases.deps import Deps
from cronbell.usecases.quiet import QuietLookup

if TYPE_CHECKING:  # the pydantic models type the arguments; at run time they are validation.Arguments
    from cronbell.core.contract.arguments import ById, ListReminders, ReminderHistory, RunNow

log = logging.getLogger(__name__)

BUSY_WAIT_SECONDS = 8.0  # a post takes well under a second; an agent call may take minutes


def list_reminders(args: ListReminders, ctx: Context, deps: Deps) -> dict[str, Any]:
    locale = ctx.locale or deps.settings.default_locale
    now = deps.now()
    schedules = deps.store.list_room(ctx.room_id, now, retired=args.include_inactive)
    if not args.include_inactive:  # a schedule retired before retired ones moved keys is still read
        schedules = [s for s in schedules if s.status in models.LIVE_STATUSES]
    now_dict, now_text = now_fields(ctx, deps)
    quiet = QuietLookup(deps, ctx.room_id)  # one read per user whose reminders it may hold, at most
    held = [quiet.held_until(s, now) for s in schedules]
    shown = zone_of(ctx, deps)  # the zone `now` is said in: an item in another names its own
    items = [item_said(s, now, locale, h, shown) for s, h in zip(schedules, held, strict=True)]
    views = [schedule_view(s, now, locale, held=h) for s, h in zip(schedules, held, strict=True)]
    result: dict[str, Any] = {"now": now_dict, "schedules": views}
    declared = _template_schedules(ctx, deps)
    if declared:  # only in a room the deployment's own schedules post to
        result["template_schedules"] = declared
    return {"result": result, "text": listing_said("listed", items, locale, now_text)}


def _template_schedules(ctx: Context, deps: Deps) -> list[dict[str, Any]]:
    """The template's schedules that post to this room, read only, from the declaration alone: the
    listing stays one Query, so their runs are not read here."""
    actions = deps.settings.static_schedules.values()
    return [template_schedule_view(a, deps.now()) for a in actions if a.room_id == ctx.room_id]


def cron_list(ctx: Context, deps: Deps) -> dict[str, Any]:
    locale = ctx.locale or deps.settings.default_locale
    now = deps.now()
    live = [s for s in deps.store.list_room(ctx.room_id, now) if s.status in models.LIVE_STATUSES]
    _, now_text = now_fields(ctx, deps)
    quiet = QuietLookup(deps, ctx.room_id)
    held = [quiet.held_until(s, now) for s in live]
    shown = zone_of(ctx, deps)
    items = [item_said(s, now, locale, h, shown) for s, h in zip(live, held, strict=True)]
    return {
        "result": [cron_view(s, now, h) for s, h in zip(live, held, strict=True)],
        "text": listing_said("listed", items, locale, now_text),
    }


def reminder_history(args: ReminderHistory, ctx: Context, deps: Deps) -> dict[str, Any]:
    """A schedule's runs, newest first (deleted and fired schedules keep theirs for the retention
    period). By id that is that schedule's runs only, in this room's partition (with the run that ended
    it, which its retired copy keeps); the schedule itself is looked up only when it has no runs yet (or
    the reference is a name)."""
    locale = ctx.locale or deps.settings.default_locale
    ref = args.id.strip().lower()
    schedule_id = ref if models.looks_like_id(ref) else ""
    found = deps.store.runs(ctx.room_id, schedule_id, args.limit) if schedule_id else []
    if not found:
        schedule = _for_history(ctx, args.id, deps)
        if schedule.id != schedule_id:  # a name: its runs are not read yet
            schedule_id, found = schedule.id, deps.store.runs(ctx.room_id, schedule.id, args.limit)
    _, now_text = now_fields(ctx, deps)
    runs = [run.to_dict() for run in found]
    tz = zone_of(ctx, deps)
    items = [run_said(run, tz, deps.now().astimezone(tz).year, locale) for run in runs]
    return {
        "result": {"id": schedule_id, "runs": runs},
        "text": listing_said("history", items, locale, now_text, id=schedule_id),
    }


def _for_history(ctx: Context, ref: str, deps: Deps) -> Schedule:
    """The schedule whose history is asked for: by id, live or not; by name, the live one, else the
    newest retired one of that name."""
    found = _by_id_or_live_name(ctx, ref.strip(), deps) or _newest_retired_named(ctx, ref, deps)
    if found is None:
        raise _not_found(ref.strip(), None)
    return found


def _newest_retired_named(ctx: Context, ref: str, deps: Deps) -> Schedule | None:
    """The newest retired schedule (fired, completed, deleted...) of this room named `ref`: names are
    unique among live schedules only, so several retired ones may share one."""
    wanted = models.name_fold(ref.strip())
    if not wanted:
        return None
    retired = [
        s
        for s in deps.store.list_room(ctx.room_id, deps.now(), retired=True)
        if s.name and s.status not in models.LIVE_STATUSES and models.name_fold(s.name) == wanted
    ]
    return max(retired, key=lambda s: (s.updated_at or s.created_at, s.created_at)) if retired else None


def _by_id_or_live_name(ctx: Context, ref: str, deps: Deps) -> Schedule | None:
    """A schedule of this room by id (live or not), else the live one of that name."""
    found = deps.store.get(ctx.room_id, ref.lower()) if models.looks_like_id(ref.lower()) else None
    return found or _named(ctx, ref, deps)


def find(ctx: Context, ref: str, deps: Deps, live_only: bool = True) -> Schedule:
    """A schedule of this room by id, or by its name when that is unambiguous. Not found by name, a
    retired one of that name is named in the refusal with its status (it fired, it completed...)."""
    ref = ref.strip()
    found = _by_id_or_live_name(ctx, ref, deps)
    if found is None:
        raise _not_found(ref, _newest_retired_named(ctx, ref, deps))
    if live_only and found.status not in models.LIVE_STATUSES:
        raise _not_found(ref, found)
    return found


def not_running(schedule_id: str, status: str) -> ToolError:
    """A schedule that is not active: a paused one is there but not running (`invalid_state`: resumed
    first, where the bot's tools can resume it); any other no longer runs (`not_found`)."""
    if status == models.PAUSED:
        return refusal("invalid_state.not_running", id=schedule_id, status=status)
    return refusal("not_found.ended", id=schedule_id, status=status)


def _named(ctx: Context, name: str, deps: Deps) -> Schedule | None:
    named = [
        s
        for s in deps.store.list_room(ctx.room_id, deps.now())
        if s.name and models.name_fold(s.name) == models.name_fold(name) and s.status in models.LIVE_STATUSES
    ]
    if len(named) > 1:
        raise refusal("ambiguous", {"candidates": [s.id for s in named]}, count=len(named), name=name)
    return named[0] if named else None


def _not_found(ref: str, found: Schedule | None) -> ToolError:
    if found:
        return refusal("not_found.status", ref=ref, status=found.status)
    return refusal("not_found", ref=ref)


def delete(args: ById, ctx: Context, deps: Deps) -> dict[str, Any]:
    """Delete the live item (it never posts again): by id one conditional DeleteItem that answers with
    the schedule as it was (its audit copy stays, read as deleted; its room place and pointers are
    freed lazily). Its Scheduler entries go with the item (the projection, `usecases/project.py`)."""
    locale = ctx.locale or deps.settings.default_locale
    ref = args.id.strip()
    schedule = None
    if models.looks_like_id(ref.lower()):
        schedule = _mark_deleted(ctx, ref.lower(), ref, deps)
    if schedule is None:
        named = _named(ctx, ref, deps)
        schedule = _mark_deleted(ctx, named.id, ref, deps) if named else None
    if schedule is None:
        raise _not_found(ref, None)
    now_dict, now_text = now_fields(ctx, deps)
    result = {"id": schedule.id, "deleted": True, "now": now_dict}
    when = (
        describe(schedule, locale)
        if schedule.recurring
        else texts.when_text(
            schedule.timing.local_at, schedule.timing.tz, locale, deps.now().astimezone(schedule.timing.tz).year
        )
    )
    text = texts.say("deleted", locale, id=schedule.id, about=about(schedule, locale), when=when, now=now_text)
    return {"result": result, "text": text}


def _mark_deleted(ctx: Context, schedule_id: str, ref: str, deps: Deps) -> Schedule | None:
    """The schedule as it was before this delete; None when the room has no item with that id."""
    waited = 0.0
    while True:
        try:
            return deps.store.delete(ctx.room_id, schedule_id, deps.now())
        except Busy:
            if waited >= BUSY_WAIT_SECONDS:
                raise refusal("backend_error.delivering") from None
            deps.sleep(0.5)
            waited += 0.5
        except Gone as gone:
            if gone.old is None:
                return None
            raise _not_found(ref, gone.old) from None
        except (BackendError, Conflict) as err:  # Conflict: changed again and again while deleting
            raise refusal("backend_error.not_deleted") from err


def run_now(args: RunNow, ctx: Context, deps: Deps) -> dict[str, Any]:
    """Fire a schedule now, as Scheduler would: an asynchronous fire with a fresh slot. While another
    delivery of the schedule is under way, the run waits for it in the item (`manual_waiting`) and is
    delivered after it, however long that delivery takes within its timeout."""
    locale = ctx.locale or deps.settings.default_locale
    schedule = find(ctx, args.target, deps)
    if schedule.status != models.ACTIVE:
        raise not_running(schedule.id, schedule.status)
    if deps.start_fire is None:
        raise refusal("internal_error.run_now")
    now = deps.now()
    _refuse_when_its_own_fire_is_due(schedule, now)
    event = manual_input(schedule.room_id, schedule.id, iso_utc(now), f"run-now-{deps.new_id()}")
    slot = event["scheduled_time"]
    interval = timedelta(minutes=deps.settings.min_interval_minutes)
    try:  # the fire accepts this slot as the schedule's own; one manual run per interval
        deps.store.mark_manual_run(schedule, slot, iso_utc(now - interval))
    except TooSoon as soon:
        raise refusal(
            "too_frequent.manual_run",
            {"last_run": soon.last},
            id=schedule.id,
            last=texts.Moment(parse_iso(soon.last), ZoneInfo(schedule.timezone), now.year),  # the UTC time in details
            minutes=deps.settings.min_interval_minutes,
        ) from None
    except Conflict:  # paused, fired or deleted since it was read: said as it is now
        current = deps.store.get(schedule.room_id, schedule.id)
        if current is not None and current.status != models.ACTIVE:
            raise not_running(schedule.id, current.status) from None
        raise refusal("not_found.no_longer_active", id=schedule.id) from None
    except BackendError as err:
        raise refusal("backend_error.not_started") from err
    try:
        waits = schedule.held(now) and deps.store.wait_manual(schedule, slot, now)
        if not waits:
            deps.start_fire(event)
    except BackendError as err:
        try:
            deps.store.unmark_manual_run(schedule, slot)
        except BackendError:
            log.warning("a manual run that did not start stays recorded", extra={"schedule_id": schedule.id})
        raise refusal("backend_error.not_started") from err
    where = "run.here" if routing.bare_room(schedule.output_room) == routing.bare_room(ctx.room_id) else "run.channel"
    said = "run_waiting" if waits else "run_started"
    result = {"id": schedule.id, "started": True, "scheduled_time": event["scheduled_time"]}
    if waits:
        result["waiting"] = True
    return {
        "result": result,
        "text": texts.say(said, locale, id=schedule.id, about=about(schedule, locale), where=phrases.phrase(where)),
    }


def _refuse_when_its_own_fire_is_due(schedule: Schedule, now: datetime) -> None:
    """run_now is refused `busy` while an occurrence that ends the schedule is due (within
    Scheduler's window of a minute around it, not run yet) or under way (its delivery holds the
    schedule): a one-shot's own, or a recurrence's last (its `count` or `until` reached by it). That
    occurrence is being posted right then, once, and the schedule then ends: no manual run is added
    to it. Any other delivery of a recurrence is waited for. (A manual run answered before a late
    attempt ends the schedule is still delivered: `firing.decide`.)"""
    ending = _ending_occurrence(schedule, now)
    if ending is not None:
        when = texts.Moment(ending, schedule.timing.tz)
        key = "busy.last_occurrence_due" if schedule.recurring else "busy.one_shot_due"
        raise refusal(key, id=schedule.id, when=when)


LAMBDA_MAX_EVENT_SECONDS = 6 * 3600  # how long a late attempt can still come when lateness has no limit


def pending_seconds(deps: Deps) -> int:
    """How long after its time an occurrence not run yet may still be delivered by a late attempt."""
    minutes = deps.settings.max_lateness_minutes
    return minutes * 60 if minutes > 0 else LAMBDA_MAX_EVENT_SECONDS


def refuse_while_the_last_occurrence_is_pending(
    schedule: Schedule, now: datetime, deps: Deps, key: str = "busy.last_occurrence_due"
) -> None:
    """A recurrence's snooze, skip or new ends is refused `busy` while its last occurrence (after which
    nothing is left; for new ends, under them) is due, under way, or passed without its run for less
    than `pending_seconds` (Lambda may still deliver it late, after a chat outage): that delivery uses
    the last `count` run and completes the schedule, so what the change answered as the next fire
    would never come (a snoozed occurrence never posted)."""
    ending = _ending_occurrence(schedule, now, pending_seconds(deps)) if schedule.recurring else None
    if ending is not None:
        raise refusal(key, id=schedule.id, when=texts.Moment(ending, schedule.timing.tz))


def _ending_occurrence(schedule: Schedule, now: datetime, back: int = EARLY_SECONDS) -> datetime | None:
    """The occurrence due or under way after which the schedule has nothing left, if any. Due is
    within Scheduler's minute around now, or, with `back`, up to that many seconds ago without its
    run yet (a late attempt may still deliver it)."""
    timing = schedule.timing
    if not schedule.recurring:
        at = timing.local_at
        return at if schedule.held(now) or abs((at - now).total_seconds()) <= EARLY_SECONDS else None
    if not timing.has_end:
        return None
    window = timedelta(seconds=EARLY_SECONDS)
    since = ran_through(schedule, now - timedelta(seconds=max(back, EARLY_SECONDS) + 1))  # run already: not due
    since = max(since, schedule.created_at)  # a time before the schedule was made is none of its occurrences
    due = timing.fires_between(since, now + window)
    if schedule.held(now) and schedule.inflight_slot:
        held, manual = slot_time(schedule.inflight_slot)
        if not manual:
            due.append(parse_iso(held).astimezone(timing.tz))
    ending = [t for t in due if timing.finished_after(t, schedule.delivered_count + 1)]
    return min(ending) if ending else None
