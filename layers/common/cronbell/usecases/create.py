"""create_reminder and cron_create: validate, plan, and write the item, its room count and its
pointers in one DynamoDB transaction: written whole or not at all. Its Scheduler entries follow
from the item (the projection, `usecases/project.py`), never from this call.
"""

from __future__ import annotations

import logging
from dataclasses import replace
from typing import TYPE_CHECKING, Any
from zoneinfo import ZoneInfo

from cronbell.core.contract.envelope import Context
from cronbell.core.domain import models, refusals
from cronbell.core.domain.errors import BackendError, Conflict, Duplicate, LimitReached, NameTaken, QuietHoursChanged
from cronbell.core.domain.instants import stored_second
from cronbell.core.domain.models import Schedule
from cronbell.core.domain.refusals import ToolError, refusal
from cronbell.core.language.when import said_why
from cronbell.core.language.zone_ids import resolve_timezone
from cronbell.core.text import texts
from cronbell.usecases.answers import schedule_answer
from cronbell.usecases.change_writes import ChangedMeanwhile
from cronbell.usecases.deps import Deps
from cronbell.usecases.planning import (
    When,
    check_agent_target,
    check_ends,
    name_taken,
    output_room,
    plan_once,
    plan_recurring,
    read_ends,
)
from cronbell.usecases.quiet import QuietLookup
from cronbell.usecases.repeat_settings import read_repeats

if TYPE_CHECKING:  # the pydantic models type the arguments; at run time they are validation.Arguments
    from cronbell.core.contract.arguments import CreateReminder, CronCreate

log = logging.getLogger(__name__)


def create_reminder(args: CreateReminder, ctx: Context, deps: Deps) -> dict[str, Any]:
    locale = ctx.locale or deps.settings.default_locale
    tz = resolve_timezone(args.timezone or ctx.timezone, deps.settings.default_timezone)
    if args.cron is not None:
        when = plan_recurring(args.cron, tz, deps, locale, zone_given=bool(args.timezone))
    elif args.recurring:  # a recurring phrase sent as `time`
        when = plan_recurring(args.time or "", tz, deps, locale, zone_given=bool(args.timezone))
    else:
        when = _plan_once_or_hint(args.time or "", tz, deps, locale)
    when = _with_ends(when, args, deps, locale)
    repeating = read_repeats(args, ctx, deps, None)
    draft = _draft(ctx, deps, when, kind=models.MESSAGE, text=args.message, locale=locale, **repeating)
    quiet = QuietLookup(deps, ctx.room_id)  # read before anything is written
    quiet.decide_exempt(draft, ctx.user_id, deps.now())
    quiet.read_ahead(draft, deps.now())
    return _persist(draft, when, deps, locale, quiet)


def _with_ends(when: When, args: Any, deps: Deps, locale: str) -> When:
    ends = read_ends(args, when.tz, deps.now(), locale)
    if ends is None and when.ends is None:
        return when
    if when.spec is None:
        raise refusal("invalid_arguments.ends_recurring_only")
    when = replace(when, ends=ends.over(when.ends) if ends is not None else when.ends)
    check_ends(when.timing, deps.now(), locale, done_through=deps.now())  # nothing from before it is made
    return when


def _plan_once_or_hint(text: str, tz: ZoneInfo, deps: Deps, locale: str) -> When:
    """A one-shot time; a repeating phrase sent as `time` is refused with a hint, never guessed. A time
    refused for a reason of its own keeps it ('sat 10': the 10th or 10 o'clock, not every Saturday)."""
    try:
        return plan_once(text, tz, deps.now(), locale)
    except ToolError as err:
        if err.code != refusals.INVALID_TIME or said_why(err):
            raise
        from cronbell.core.language.recurring import parse_recurring  # the recurring grammar: on first use

        try:
            parse_recurring(text, deps.settings.min_interval_minutes, locale)
        except ToolError:
            raise err from None
        raise refusal("invalid_time.repeats", err.details, text=text) from None


def cron_create(args: CronCreate, ctx: Context, deps: Deps) -> dict[str, Any]:
    settings = deps.settings
    locale = ctx.locale or settings.default_locale
    agent = args.target_agent or ctx.agent_id
    channel = output_room(args.channel, ctx, deps) if args.channel else ctx.room_id
    check_agent_target(agent, channel, ctx, deps)
    timeout = args.timeout_seconds or 0
    if timeout > settings.agent_timeout_max_seconds:
        raise refusal("invalid_arguments.timeout", limit=settings.agent_timeout_max_seconds)
    tz = resolve_timezone(args.timezone or ctx.timezone, settings.default_timezone)
    if args.cron_expr is not None:
        once = args.recurring is False
        when = plan_recurring(args.cron_expr, tz, deps, locale, once=once, zone_given=bool(args.timezone))
    else:
        when = plan_once(args.fire_at or "", tz, deps.now(), locale, "fire_at")
    when = _with_ends(when, args, deps, locale)
    draft = _draft(
        ctx,
        deps,
        when,
        kind=models.AGENT_CALL,
        prompt=args.prompt,
        name=args.name,
        skills=list(args.skills),
        channel=channel,
        target_agent=agent,
        agent_timeout_seconds=timeout,
        locale=locale,
    )
    return _persist(draft, when, deps, locale)


def _draft(ctx: Context, deps: Deps, when: When, **fields: Any) -> Schedule:
    schedule = Schedule(
        id=deps.new_id(),
        room_id=ctx.room_id,
        user_id=ctx.user_id,
        agent_id=ctx.agent_id,
        thread_id=ctx.thread_id,
        timing=when.timing,
        created_at=stored_second(deps.now()),
        **fields,
    )
    return schedule.with_dedupe_key()


def _persist(
    schedule: Schedule, when: When, deps: Deps, locale: str, quiet: QuietLookup | None = None
) -> dict[str, Any]:
    try:
        deps.store.insert(schedule, deps.settings.max_per_room)
    except Duplicate as dup:
        return _answer(dup.existing, when, deps, locale, quiet, duplicate=True, asked=schedule)
    except NameTaken as taken:
        raise name_taken(schedule.name, taken) from None
    except QuietHoursChanged:  # its user set quiet hours meanwhile: created again, it reads them
        raise ChangedMeanwhile("backend_error.conflicting") from None
    except Conflict as err:
        raise refusal("backend_error.conflicting") from err
    except LimitReached:
        raise refusal("limit_reached", limit=deps.settings.max_per_room) from None
    except BackendError as err:
        log.error("create failed, nothing kept", extra={"schedule_id": schedule.id, "error": str(err)})
        raise refusal("backend_error.not_created") from err
    return _answer(schedule, when, deps, locale, quiet, duplicate=False)


# what a duplicate's key leaves out, so it may differ from the schedule asked for: (argument, attribute)
_SETTINGS = (
    ("name", "name"),
    ("skills", "skills"),
    ("timeout_seconds", "agent_timeout_seconds"),
    ("repeat_every", "repeat_every"),
    ("repeat_times", "repeat_times"),
    ("escalate_to", "escalate_to"),
)
_FIXED = ("skills", "timeout_seconds")  # not changed by update_reminder


def _answer(
    schedule: Schedule,
    when: When,
    deps: Deps,
    locale: str,
    quiet: QuietLookup | None,
    duplicate: bool,
    asked: Schedule | None = None,
) -> dict[str, Any]:
    """The schedule created, or the live one it duplicates; a duplicate that differs from `asked` in
    settings its key leaves out says which, and how to change them: nothing of the call was kept."""
    differs = [arg for arg, attr in _SETTINGS if asked is not None and _value(asked, attr) != _value(schedule, attr)]
    key = "duplicate" if duplicate else f"created.{schedule.kind}"
    extra: dict[str, Any] = {}
    if differs:
        key = "duplicate.differs_fixed" if set(differs) & set(_FIXED) else "duplicate.differs"
        extra["fields"] = texts.join([f"`{arg}`" for arg in differs], locale)
    answer = schedule_answer(key, schedule, deps, locale, when.notes, quiet, **extra)
    answer["result"]["duplicate"] = duplicate
    return answer


def _value(schedule: Schedule, attr: str) -> Any:
    value = getattr(schedule, attr)
    return sorted(value) if isinstance(value, list) else value
