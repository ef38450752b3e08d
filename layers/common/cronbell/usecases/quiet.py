"""set_quiet_hours, get_quiet_hours and clear_quiet_hours: the caller's own quiet hours in this room;
and what answers about a schedule say of them (docs/semantics.md, "Quiet hours").

An answer reads a user's rule only when it may matter: for a live reminder with an occurrence to
come that its user's quiet hours could hold. `QuietLookup` reads each user's rule once per answer,
so a listing costs one read per distinct user at most, and none in a room of agent calls. An
occurrence held now is read from its schedule (`releases`, which the hold writes and the release
clears): no rule is read for it.
"""

from __future__ import annotations

import logging
import re
from datetime import datetime
from typing import TYPE_CHECKING, Any
from zoneinfo import ZoneInfo

from cronbell.core.contract.envelope import Context
from cronbell.core.domain import models
from cronbell.core.domain.errors import BackendError
from cronbell.core.domain.instants import parse_iso
from cronbell.core.domain.models import Schedule
from cronbell.core.domain.quiet_hours import DAYS, QuietHours, next_period, period_at
from cronbell.core.domain.refusals import ToolError, refusal
from cronbell.core.domain.upcoming import upcoming
from cronbell.core.language.zone_ids import resolve_timezone, shown_zone
from cronbell.core.text import texts
from cronbell.usecases.deps import Deps

if TYPE_CHECKING:  # the pydantic models type the arguments; at run time they are validation.Arguments
    from cronbell.core.contract.arguments import SetQuietHours

log = logging.getLogger(__name__)

_CLOCK = re.compile(r"(?:[01][0-9]|2[0-3]):[0-5][0-9]")


# --- the tools -----------------------------------------------------------------------------------


def set_quiet_hours(args: SetQuietHours, ctx: Context, deps: Deps) -> dict[str, Any]:
    rule = read_rule(args, ctx, deps)
    deps.store.put_quiet_hours(ctx.room_id, ctx.user_id, rule)
    return _rule_answer("quiet.set", rule, ctx, deps)


def get_quiet_hours(_args: Any, ctx: Context, deps: Deps) -> dict[str, Any]:
    rule = deps.store.quiet_hours(ctx.room_id, ctx.user_id)
    return _rule_answer("quiet.got", rule, ctx, deps)


def clear_quiet_hours(_args: Any, ctx: Context, deps: Deps) -> dict[str, Any]:
    locale = ctx.locale or deps.settings.default_locale
    cleared = deps.store.clear_quiet_hours(ctx.room_id, ctx.user_id)
    return {
        "result": {"cleared": cleared},
        "text": texts.say("quiet.cleared" if cleared else "quiet.cleared_none", locale),
    }


def read_rule(args: SetQuietHours, ctx: Context, deps: Deps) -> QuietHours:
    """The rule the arguments give, or invalid_arguments naming the argument that is wrong."""
    for argument in ("start", "end"):
        if not _CLOCK.fullmatch(getattr(args, argument)):
            raise _refused("invalid_arguments.quiet_clock", argument)
    if args.start == args.end:
        raise _refused("invalid_arguments.quiet_same", "end")
    if args.days is not None and not args.days:
        raise _refused("invalid_arguments.quiet_no_days", "days")
    if args.days is not None and len(set(args.days)) != len(args.days):
        raise _refused("invalid_arguments.quiet_days_twice", "days")
    if args.timezone is not None:
        try:
            zone = resolve_timezone(args.timezone, "").key
        except ToolError:
            raise _refused("invalid_arguments.quiet_zone", "timezone", zone=args.timezone) from None
    else:  # the context's zone, or the deployment's when the context names none it knows
        zone = shown_zone(ctx.timezone, deps.settings.default_timezone).key
    days = DAYS if args.days is None else tuple(d for d in DAYS if d in args.days)
    return QuietHours(args.start, args.end, zone, days)


def _refused(key: str, argument: str, **values: Any) -> ToolError:
    return refusal(key, {"argument": argument}, argument=argument, **values)


def _rule_answer(key: str, rule: QuietHours | None, ctx: Context, deps: Deps) -> dict[str, Any]:
    """`{"quiet_hours", "next_period"}` (RFC3339 in the rule's zone) and the sentence that says them."""
    locale = ctx.locale or deps.settings.default_locale
    if rule is None:
        return {"result": {"quiet_hours": None, "next_period": None}, "text": texts.say("quiet.none", locale)}
    period = next_period(rule, deps.now())
    result = {
        "quiet_hours": rule.to_dict(),
        "next_period": (
            {"start": period.start.isoformat(timespec="seconds"), "end": period.end.isoformat(timespec="seconds")}
            if period
            else None
        ),
    }
    zone = ZoneInfo(rule.timezone)
    year = deps.now().astimezone(zone).year
    nxt = (
        texts.say(
            "quiet.next",
            locale,
            start=texts.when_text(period.start, zone, locale, year),
            end=texts.when_text(period.end, zone, locale, year),
        )
        if period
        else ""
    )
    said = texts.say(
        key, locale, start=rule.start, end=rule.end, days=_days_said(rule, locale), zone=rule.timezone, next=nxt
    )
    return {"result": result, "text": said}


def _days_said(rule: QuietHours, locale: str) -> str:
    if rule.days == DAYS:
        return texts.say("quiet.every_day", locale)
    names = [str(texts.render(texts.Word("weekdays", DAYS.index(d)), locale)) for d in rule.days]
    return texts.say("quiet.on_days", locale, days=texts.join(names, locale))


# --- what answers say of them --------------------------------------------------------------------


def may_be_held(schedule: Schedule) -> bool:
    """Whether an occurrence of the schedule could be held at all: an active reminder, unless it is a
    one-shot whose time its user set inside their own quiet hours."""
    if schedule.kind != models.MESSAGE or schedule.status != models.ACTIVE:
        return False
    return schedule.recurring or not schedule.quiet_exempt


def held_now(schedule: Schedule) -> datetime | None:
    """The release time of an occurrence of a live schedule held now, waiting for its release (the
    earliest, in the schedule's zone), else None: read from the schedule itself, which the hold marks."""
    if not schedule.releases or schedule.status not in models.LIVE_STATUSES:
        return None
    return parse_iso(min(schedule.releases)).astimezone(schedule.timing.tz)


def held_until(schedule: Schedule, rule: QuietHours | None, now: datetime) -> datetime | None:
    """The release time of an occurrence held now, else the end of the quiet period its next
    occurrence falls in when that occurrence would be held (in the schedule's zone), else None."""
    held = held_now(schedule)
    if held is not None:
        return held
    if rule is None or not may_be_held(schedule):
        return None
    nexts = upcoming(schedule, now, 1)
    period = period_at(rule, nexts[0]) if nexts else None
    return period.end.astimezone(schedule.timing.tz) if period else None


def in_quiet_hours(rule: QuietHours | None, instant: datetime) -> bool:
    return rule is not None and period_at(rule, instant) is not None


class QuietLookup:
    """The quiet hours of the users one answer names, each read at most once, and only for a schedule
    that may be held and has an occurrence to come. `tolerant`: after a write, a failed read leaves
    `held_until` unknown (null) rather than turning a change that was made into an error."""

    def __init__(self, deps: Deps, room_id: str, *, tolerant: bool = False) -> None:
        self._deps = deps
        self._room = room_id
        self._tolerant = tolerant
        self._rules: dict[str, QuietHours | None] = {}
        self.decided = False  # decide_exempt ran: the answer says when a one-shot is delivered anyway

    def rule(self, user_id: str) -> QuietHours | None:
        if user_id not in self._rules:
            self._rules[user_id] = self._deps.store.quiet_hours(self._room, user_id)
        return self._rules[user_id]

    def read_ahead(self, schedule: Schedule, now: datetime) -> None:
        """Read the rule its answer will need before anything is written, so a failed read refuses
        the call with nothing changed; and note on a reminder whether its user has one (a new one
        is always read: its fires read the rule only when it says so)."""
        new = schedule.kind == models.MESSAGE and schedule.quiet_hours_set is None
        if new or (held_now(schedule) is None and may_be_held(schedule) and upcoming(schedule, now, 1)):
            self.rule(schedule.user_id)
        if schedule.kind == models.MESSAGE:
            known = self._rules.get(schedule.user_id)
            schedule.quiet_hours_set = bool(schedule.quiet_hours_set) or known is not None

    def held_until(self, schedule: Schedule, now: datetime) -> datetime | None:
        """`held_until` of the schedule's answer: an occurrence held now needs no rule read."""
        held = held_now(schedule)
        if held is not None:
            return held
        if not may_be_held(schedule) or not upcoming(schedule, now, 1):
            return None
        try:
            rule = self.rule(schedule.user_id)
        except BackendError:
            if not self._tolerant:
                raise
            log.warning("quiet hours not read for an answer", extra={"schedule_id": schedule.id})
            return None
        return held_until(schedule, rule, now)

    def decide_exempt(self, schedule: Schedule, caller: str, now: datetime) -> None:
        """Set when a one-shot reminder gets its time (create, or an update that gives it a new one):
        exempt when its own user set that time inside their quiet hours as they are now."""
        self.decided = True
        one_shot = schedule.kind == models.MESSAGE and not schedule.recurring and schedule.timing.at is not None
        if not one_shot or caller != schedule.user_id:
            schedule.quiet_exempt = False
            return
        at = schedule.timing.local_at
        schedule.quiet_exempt = at > now and in_quiet_hours(self.rule(schedule.user_id), at)
