"""What create and change share: a time read into a `When` (a one-shot instant or a recurrence, with
its ends and calendar), the checks on ends, agents and output rooms, and the refusal of a name taken."""

from __future__ import annotations

from dataclasses import replace
from datetime import date, datetime
from typing import Any
from zoneinfo import ZoneInfo

from cronbell.core.contract.envelope import Context
from cronbell.core.domain import business, calendars, routing
from cronbell.core.domain.business import Rules
from cronbell.core.domain.cron.fields import EVERY_DAY, parse_fields
from cronbell.core.domain.cron.fires import anchored, next_fires
from cronbell.core.domain.cron.spec import CronSpec
from cronbell.core.domain.errors import NameTaken
from cronbell.core.domain.refusals import ToolError, refusal
from cronbell.core.domain.timing import HORIZON_YEARS, Timing
from cronbell.core.language.clocks import normalize
from cronbell.core.language.when import parse_one_shot, parse_until
from cronbell.core.text import texts
from cronbell.core.values import value
from cronbell.usecases.deps import Deps


@value
class When:
    """A validated schedule: either a local one-shot instant or a cron spec, in a zone."""

    tz: ZoneInfo
    at: datetime | None = None
    spec: CronSpec | None = None
    notes: tuple[str, ...] = ()
    ends: Ends | None = None  # a recurrence's end and calendar

    @property
    def timing(self) -> Timing:
        """The one conversion from a parsed time to what a schedule stores."""
        if self.spec is not None:
            timing = Timing.every(self.spec, self.tz)
            return timing if self.ends is None else self.ends.applied_to(timing)
        assert self.at is not None
        return Timing.once(self.at, self.tz)


@value
class Ends:
    """`until`, `count` and `skip_holidays` as read from the arguments (None: not given)."""

    until: datetime | None = None
    count: int | None = None  # 0 (update only) removes the limit
    calendar: str | None = None  # "" (update only) removes the calendar
    no_until: bool = False  # `until: "never"` (update only) removes the end date
    business_days: bool | None = None
    business_day: int | None = None  # 0 (update only) removes it
    on_holiday: str | None = None

    def applied_to(self, timing: Timing) -> Timing:
        """The timing with the ends given here; what is not given stays as it was."""
        timing = timing.ends_with(
            None if self.no_until else self.until or timing.until,
            timing.count if self.count is None else self.count,
            timing.calendar if self.calendar is None else self.calendar,
        )
        rules = timing.rules
        return timing.with_rules(
            Rules(
                rules.calendar,
                rules.business_days if self.business_days is None else self.business_days,
                rules.business_day if self.business_day is None else self.business_day,
                rules.on_holiday if self.on_holiday is None else self.on_holiday,
            )
        )

    def over(self, phrase: Ends | None) -> Ends:
        """These ends given as arguments, over the business-day rules a phrase named."""
        if phrase is None:
            return self
        return replace(
            self,
            business_days=phrase.business_days if self.business_days is None else self.business_days,
            business_day=phrase.business_day if self.business_day is None else self.business_day,
        )


_CLEAR_UNTIL = ("never", "nunca")
_CLEAR_CALENDAR = ("none", "ninguno", "ninguna")


def read_ends(args: Any, tz: ZoneInfo, now: datetime, locale: str, clearing: bool = False) -> Ends | None:
    """The ends and calendar of the arguments, or None when none is given. `clearing` (update) also
    takes `until: "never"`, `count: 0` and `skip_holidays: "none"`, which remove them."""
    until_text, count, code = args.until, args.count, args.skip_holidays
    business_days, business_day = getattr(args, "business_days", None), getattr(args, "business_day_of_month", None)
    on_holiday = getattr(args, "on_holiday", None)
    if business_day == 0 and not clearing:
        raise refusal("invalid_arguments.business_day_of_month")
    rules = (business_days, business_day, on_holiday)
    if until_text is None and count is None and code is None and rules == (None, None, None):
        return None
    no_until = clearing and until_text is not None and until_text.strip().casefold() in _CLEAR_UNTIL
    country = None if code is None or code.strip().casefold() in _CLEAR_CALENDAR else code.strip()
    until = read_until(until_text, tz, now, locale, country) if until_text is not None and not no_until else None
    calendar: str | None = None
    if code is not None:
        if clearing and code.strip().casefold() in _CLEAR_CALENDAR:
            calendar = ""
        else:
            try:
                if not code.strip().isascii():  # "ıt".upper() is "IT": a code is ASCII letters only
                    raise calendars.UnknownCalendar(code)
                calendar = calendars.normalize(code)
            except calendars.UnknownCalendar:
                raise refusal("invalid_arguments.skip_holidays", code=code, forms=calendars.FORMS) from None
    return Ends(until, count, calendar, no_until, *rules)


def kept_ends(new: Timing, old: Timing, phrase: Ends | None) -> Timing:
    """A recurrence given a new time keeps its end, calendar and business-day rules, except those
    the new phrase names ('every business day at 9')."""
    kept = new.ends_with(old.until, old.count, old.calendar).with_rules(old.rules)
    return kept if phrase is None else phrase.applied_to(kept)


def read_until(text: str, tz: ZoneInfo, now: datetime, locale: str, country: str | None = None) -> datetime:
    """`until` in any one-shot form, in `tz`; a date without a time of day means through its end; a named
    holiday is looked up in `country` (the `skip_holidays` calendar), else in the zone's country."""
    try:
        return parse_until(text, now, tz, locale, country).at
    except ToolError as err:
        raise err.about("until") from None


def check_ends(
    timing: Timing, now: datetime, locale: str, delivered: int = 0, done_through: datetime | None = None
) -> None:
    """Ends apply to recurrences only, and must leave at least one occurrence to fire (one that has not
    run already: its original time after `done_through`, the schedule's watermark)."""
    if not (timing.has_end or timing.calendar or timing.rules.any):
        return
    if not timing.recurring:
        raise refusal("invalid_arguments.ends_recurring_only")
    check_rules(timing)
    if timing.count and delivered >= timing.count:
        raise refusal("invalid_arguments.count_reached", count=timing.count, delivered=delivered)
    if not timing.upcoming(now, 1, delivered, done_through):
        if timing.until is None:  # every occurrence within the horizon is a holiday
            key = "never_within_business" if timing.business_days else "never_within"
            raise refusal(f"invalid_arguments.{key}", years=HORIZON_YEARS, calendar=timing.calendar)
        key = "until_before_first_holidays" if timing.calendar else "until_before_first"
        raise refusal(f"invalid_arguments.{key}", until=texts.Moment(timing.until, timing.tz))


def check_rules(timing: Timing) -> None:
    """Business-day rules read a holiday calendar; the n-th business day takes only times of day."""
    rules = timing.rules
    given = [
        name
        for name, on in (
            ("business_days", rules.business_days),
            ("business_day_of_month", bool(rules.business_day)),
            ("on_holiday", rules.on_holiday != business.SKIP),
        )
        if on
    ]
    if given and not rules.calendar:
        raise refusal("invalid_arguments.needs_calendar", field=given[0], forms=calendars.FORMS)
    if rules.business_day and (timing.interval is not None or parse_fields(timing.cron).day_rule != EVERY_DAY):
        raise refusal("invalid_arguments.business_day_of_month")


def plan_once(text: str, tz: ZoneInfo, now: datetime, locale: str, argument: str = "time") -> When:
    """A one-shot at `text`; a refusal names the argument it came from."""
    try:
        shot = parse_one_shot(text, now, tz, locale)
    except ToolError as err:
        raise err.about(argument) from None
    return When(tz=tz, at=shot.at, notes=shot.notes)


def plan_recurring(
    text: str,
    tz: ZoneInfo,
    deps: Deps,
    locale: str,
    once: bool = False,
    keep: date | None = None,
    zone_given: bool = True,
) -> When:
    """A recurrence from now on; every N weeks or days counts from its first occurrence (or keeps `keep`).
    A business-day phrase is the phrase it stands on plus its rule (core/domain/business.py). Unless
    `zone_given` (the caller passed `timezone`), a place's zone the phrase names is the schedule's ('every
    friday at 5pm new york time' runs in America/New_York), said in its notes."""
    # the recurring grammar is imported by the first recurrence: a cold start that plans a one-shot never loads it
    from cronbell.core.language.business_phrases import read_phrase
    from cronbell.core.language.recurring import parse_recurring, read_without_its_zone

    found = read_phrase(normalize(text)) if isinstance(text, str) else None
    said = found[0] if found else text
    minimum, own = deps.settings.min_interval_minutes, tz
    notes: tuple[str, ...] = ()
    try:
        spec = parse_recurring(said, minimum, locale)
    except ToolError:
        zoned = read_without_its_zone(normalize(said), minimum) if isinstance(said, str) else None
        if zoned is None:
            raise
        zone = ZoneInfo("UTC") if zoned[2].upper() == "UTC" else zoned[1]
        # an abbreviation (CET) is an offset, not a place; a zone given apart is the schedule's: asked again
        if not isinstance(zone, ZoneInfo) or (zone_given and zone.key != tz.key):
            raise
        said, tz = zoned[0], zone
        spec = parse_recurring(said, minimum, locale)
        if tz.key != own.key:
            first = next_fires(anchored(spec, deps.now(), tz, keep), deps.now(), tz, 1)[0]
            local = first.astimezone(own).strftime("%Y-%m-%d %H:%M")
            notes = (texts.say("note.zone_of_schedule", locale, zone=tz.key, local=local, own=own.key),)
    if found or notes:
        spec = replace(spec, source=text)
    spec = anchored(spec, deps.now(), tz, keep)
    if once:  # a cron expression asked to run a single time: its next occurrence
        return When(tz=tz, at=next_fires(spec, deps.now(), tz, 1)[0])
    rules = Ends(business_days=found[1] == 0, business_day=found[1]) if found else None
    return When(
        tz=tz, spec=spec, ends=rules, notes=notes + afternoon_notes(spec, said, locale) + short_months(spec, locale)
    )


def short_months(spec: CronSpec, locale: str) -> tuple[str, ...]:
    """The months a recurrence by day of the month never runs in, said: `every 3 months on the 31st`
    from March runs in March and December only, though its text names June and September."""
    fields = parse_fields(spec.expr)
    missing = fields.months_without_the_day()
    if not missing:
        return ()
    day = min(fields.days)
    names = [
        texts.say("note.february_but_leap", locale) if m == 2 and day == 29 else texts.words("months", locale)[m - 1]
        for m in missing
    ]
    return (texts.say("note.short_months", locale, day=day, months=texts.join(names, locale)),)


def afternoon_notes(spec: CronSpec, said: str, locale: str) -> tuple[str, ...]:
    """A phrase's bare hours of 1 to 5 read in the afternoon ('every friday at 4': 16:00), said, as a
    one-shot's are: the hours the phrase (`said`, as it was read) gives without the rule and not with
    it; none for a cron expression, whose hours are on the 24-hour clock."""
    from cronbell.core.language.cron_notes import read_in_the_afternoon
    from cronbell.core.language.day_parts import without_the_afternoon_rule
    from cronbell.core.language.recurring import is_expression, parse_recurring

    text = normalize(said)
    if is_expression(text) or text.startswith("@"):
        return ()
    with without_the_afternoon_rule():
        try:
            plain = parse_fields(parse_recurring(said, 1, locale).expr).times()
        except ToolError:  # a phrase read only with the rule: the words said decide alone
            plain = None
    readings = read_in_the_afternoon(text, parse_fields(spec.expr).times(), plain)
    return tuple(texts.say("note.afternoon_hour", locale, said=word, clock=clock) for word, clock in readings)


def output_room(channel: str, ctx: Context, deps: Deps) -> str:
    """The store key of a `channel` argument: a room on the platform of the caller's room, in its workspace."""
    key = routing.named_room(channel, ctx.room_id, deps.settings.default_platform)
    if key is None:
        raise refusal("forbidden_channel")
    return key


def check_agent_target(agent: str, channel: str, ctx: Context, deps: Deps) -> None:
    """Agents only from the deployment's allowlist; answers only to this room or an allowed one."""
    settings = deps.settings
    if not agent and settings.agents:  # neither the call nor the bot named one
        raise refusal("unknown_agent.unnamed", known=", ".join(sorted(settings.agents)))
    if not agent or agent not in settings.agents:
        if not settings.agents:
            raise refusal("unknown_agent.none", agent=agent)
        raise refusal("unknown_agent", agent=agent, known=", ".join(sorted(settings.agents)))
    if not routing.output_allowed(channel, ctx.room_id, settings.allowed_output_rooms, settings.default_platform):
        raise refusal("forbidden_channel")


def name_taken(name: str, taken: NameTaken) -> ToolError:
    return refusal("name_taken", {"existing": taken.holder.id}, name=name, id=taken.holder.id)
