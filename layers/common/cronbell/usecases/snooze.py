"""snooze_reminder: one occurrence postponed, the next one or the one `occurrence` names (docs/semantics.md,
"Changes"): a coming one moves later, one delivered is reminded again, a one-shot that fired comes back."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from cronbell.core.contract.envelope import Context
from cronbell.core.domain import models
from cronbell.core.domain.instants import iso_utc, parse_iso
from cronbell.core.domain.models import Schedule
from cronbell.core.domain.refusals import refusal
from cronbell.core.domain.runs import DELIVERED
from cronbell.core.domain.timing import Timing
from cronbell.core.domain.upcoming import ran_through, upcoming
from cronbell.core.text import texts
from cronbell.core.text.views import short_date
from cronbell.usecases.answers import schedule_answer
from cronbell.usecases.change_writes import apply
from cronbell.usecases.deps import Deps
from cronbell.usecases.manage import find, pending_seconds, refuse_while_the_last_occurrence_is_pending
from cronbell.usecases.occurrences import is_coming, read_occurrence, said_at
from cronbell.usecases.planning import plan_once

HISTORY_LOOKBACK = 50  # runs read to find the delivered occurrence an old snooze button names


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
    occurrence = read_occurrence(named, old) if named is not None else None
    if old.status == models.ACTIVE:
        refuse_while_the_last_occurrence_is_pending(old, now, deps)
    if occurrence is not None and occurrence <= ran_through(old, now):  # past, or run already
        new, target, notes = _snooze_again(old, occurrence, args, deps, locale)
        notes += _count_taken(old, new, target, now, locale)
    elif old.recurring:
        new, target, notes = _snooze_coming(old, occurrence, args, deps, locale)
    else:
        new, target, notes = _snooze_one_shot(old, occurrence, args, deps, locale)
    if new.recurring:
        _within_ends(new, target, now, locale)
    new = replace(new, repeat_slot="")  # a snooze stops the current repeats; the snoozed post repeats anew
    apply(old, new, deps)
    nexts = upcoming(new, deps.now(), 1)
    said_once = not new.recurring or bool(nexts and nexts[0] == target)  # its new time is its next: once
    key = "snoozed.once" if said_once else "snoozed"
    answer = schedule_answer(key, new, deps, locale, notes, to=said_at(target, old))
    answer["result"]["snoozed_to"] = iso_utc(target)
    return answer


def _count_taken(old: Schedule, new: Schedule, target: datetime, now: datetime, locale: str) -> tuple[str, ...]:
    """A delivered occurrence reminded again is one more post, and `count` counts posts: the regular
    occurrences it leaves without a place within the count are said (the snooze itself is accepted)."""
    count = old.timing.count
    if not old.recurring or not count:
        return ()
    left = max(0, count - old.delivered_count)
    dropped = sorted(set(upcoming(old, now, left)) - set(upcoming(new, now, left)) - {target})
    if not dropped:
        return ()
    tz = ZoneInfo(old.timezone)
    first = texts.Moment(dropped[0], tz, now.astimezone(tz).year)
    key = "note.snooze_takes_count" + (".more" if len(dropped) > 1 else "")
    return (texts.say(key, locale, count=count, when=first, more=len(dropped) - 1),)


Target = tuple[datetime, tuple[str, ...]]  # where an occurrence moves, and what reading `until` said
Snoozed = tuple[Schedule, datetime, tuple[str, ...]]  # the schedule snoozed, and its Target


def _snooze_again(old: Schedule, occurrence: datetime, args: Any, deps: Deps, locale: str) -> Snoozed:
    """A delivered occurrence is reminded again from now: nothing is skipped."""
    now, tz = deps.now(), ZoneInfo(old.timezone)
    target, notes = _snooze_target(args, _delivered(old, occurrence, now, deps), tz, deps, locale)
    if not old.recurring:
        return _one_shot_back(old, target, tz), target, notes
    kept = (t for t in old.timing.snoozes if t > _forget_before(now, deps))
    snoozes = tuple(sorted([*kept, target.replace(microsecond=0)]))
    return replace(old, timing=replace(old.timing, snoozes=snoozes)), target, notes


def _on_its_way(schedule: Schedule, occurrence: datetime, now: datetime, deps: Deps) -> bool:
    """Whether `occurrence` is one of the schedule's whose time has come and that a late attempt may
    still deliver: it is not the schedule's to snooze again until it is posted."""
    if not _forget_before(now, deps) < occurrence <= now:
        return False
    return occurrence in schedule.timing.fires_between(occurrence - timedelta(seconds=1), occurrence)


def _forget_before(now: datetime, deps: Deps) -> datetime:
    """Snoozed occurrences before this are forgotten by a snooze; later ones, past or not, may still be
    delivered (a late attempt), so they keep their entries and stay the schedule's own."""
    return now - timedelta(seconds=pending_seconds(deps))


def _snooze_coming(old: Schedule, occurrence: datetime | None, args: Any, deps: Deps, locale: str) -> Snoozed:
    """A recurrence's coming occurrence (the next one, or the one named) moves later."""
    now = deps.now()
    paused_next = (
        old.timing.upcoming(now, 1, old.delivered_count, old.done_through) if old.status == models.PAUSED else []
    )
    if paused_next:  # a snooze never resumes a schedule
        raise refusal("invalid_state.snooze_paused", id=old.id, when=said_at(paused_next[0], old))
    if old.status != models.ACTIVE:
        raise refusal("invalid_state.nothing_to_snooze", id=old.id, status=old.status)
    if occurrence is None:
        nexts = upcoming(old, now, 1)
        if not nexts:
            raise refusal("invalid_state.nothing_to_snooze", id=old.id, status=old.status)
        occurrence = nexts[0]
    elif not is_coming(old, occurrence, now):
        raise refusal("invalid_arguments.not_an_occurrence", id=old.id, when=said_at(occurrence, old))
    target, notes = _snooze_target(args, occurrence, ZoneInfo(old.timezone), deps, locale, old)
    return replace(old, timing=old.timing.snoozed(occurrence, target, _forget_before(now, deps))), target, notes


def _snooze_one_shot(old: Schedule, occurrence: datetime | None, args: Any, deps: Deps, locale: str) -> Snoozed:
    """A one-shot moves later, or, once it fired or was missed, comes back from now."""
    now, tz = deps.now(), ZoneInfo(old.timezone)
    due = old.timing.local_at
    if occurrence is not None and occurrence != due:
        raise refusal("invalid_arguments.not_an_occurrence", id=old.id, when=said_at(occurrence, old))
    coming = old.status in models.LIVE_STATUSES and due > now
    if old.status == models.PAUSED and coming:
        raise refusal("invalid_state.snooze_paused", id=old.id, when=said_at(due, old))
    base = max(now, due) if old.status == models.ACTIVE else now
    target, notes = _snooze_target(args, base, tz, deps, locale, old if coming else None)
    return _one_shot_back(old, target, tz), target, notes


def _one_shot_back(old: Schedule, target: datetime, tz: ZoneInfo) -> Schedule:
    new = replace(old, status=models.ACTIVE, timing=Timing.once(target, tz), fired_at=None, status_reason="")
    new.with_dedupe_key()
    return new


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
        release = _release_holding(schedule, wanted, deps)
        if release is not None:  # held by quiet hours: not delivered yet
            when, until = said_at(occurrence, schedule), said_at(release, schedule)
            raise refusal("invalid_state.occurrence_held", id=schedule.id, when=when, until=until)
        if _on_its_way(schedule, occurrence, now, deps):  # its minute came, its run is not recorded yet
            raise refusal("invalid_arguments.occurrence_on_its_way", id=schedule.id, when=said_at(occurrence, schedule))
        raise refusal("invalid_arguments.not_an_occurrence", id=schedule.id, when=said_at(occurrence, schedule))
    if run.outcome != DELIVERED:
        raise refusal(
            "invalid_state.occurrence_not_delivered",
            id=schedule.id,
            when=said_at(occurrence, schedule),
            outcome=run.outcome,
        )
    if not schedule.recurring and schedule.status in models.LIVE_STATUSES:
        due = schedule.timing.local_at
        if due.astimezone(UTC) != wanted:
            raise refusal("invalid_state.occurrence_superseded", id=schedule.id, next=said_at(due, schedule))
    if schedule.status == models.PAUSED or (schedule.recurring and schedule.status != models.ACTIVE):
        raise refusal("invalid_state.nothing_to_snooze", id=schedule.id, status=schedule.status)
    return now


def _release_holding(schedule: Schedule, wanted: datetime, deps: Deps) -> datetime | None:
    """The release that posts the schedule's occurrence at `wanted`, held by quiet hours; None when none
    holds it (read only for a past occurrence without a run: a refusal's reason)."""
    for release in sorted(schedule.releases):
        held = deps.store.held(schedule.room_id, schedule.user_id, release)
        if any(sid == schedule.id and _same(slot, wanted) for sid, slot in held):
            return parse_iso(release)
    return None


def _same(scheduled_time: str, wanted: datetime) -> bool:
    try:
        return parse_iso(scheduled_time).astimezone(UTC) == wanted
    except ValueError:
        return False


def _snooze_target(
    args: Any, base: datetime, tz: ZoneInfo, deps: Deps, locale: str, schedule: Schedule | None = None
) -> Target:
    """Where the snooze moves the occurrence at `base`, and the notes of reading `until` (a time the clocks
    skip, moved on, is said as create says it). With `schedule`, `base` is a coming occurrence, and a
    snooze `until` a time that is not later than it is refused: a snooze postpones."""
    if args.until is not None:
        read = plan_once(args.until, tz, deps.now(), locale, "until")
        target = read.at or base
        if schedule is not None and target <= base:
            raise refusal("invalid_time.snooze_not_later", to=said_at(target, schedule), when=said_at(base, schedule))
        return target, read.notes
    target = (base.astimezone(UTC) + timedelta(minutes=args.minutes)).astimezone(tz)  # elapsed, not wall-clock
    if target <= deps.now():
        raise refusal("time_in_past.already").about("minutes")
    return target, ()


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
            raise refusal("invalid_time.snooze_past_count", id=new.id, count=timing.count, to=said_at(target, new))
