"""Repeat until done, then escalate: the rules, pure (no I/O, times passed in).

A reminder with `repeat_every` is posted again, after an occurrence is delivered, every
`repeat_every` minutes from the start of that delivery, at most `repeat_times` more times, until
someone acknowledges it (`done_reminder`, the Done button); when the repeats run out
unacknowledged and `escalate_to` is set, one more fire, an interval later, posts the escalation.

Each repeat is a one-time Scheduler entry of the occurrence, `<id>-repeat-<occurrence>-<k>`, whose Input names
the occurrence (`repeat_of`) and the repeat (`repeat`, the escalation being `repeat_times + 1`):
the projection of the chain's next fire, which the occurrence's slot keeps (`next_repeat`). The
delivery's record keeps the first; the claim of repeat k keeps k + 1 before it posts, so the chain
never waits on a loop inside a Lambda. A repeat is claimed on the occurrence's own run (its `repeats` count moves
from k - 1 to k only while the run is unacknowledged, and only while the occurrence is still the
schedule's current one), so it is posted at most once and never after an acknowledgement that
came before it. A later delivered occurrence, a snooze, a pause or a delete makes the current
occurrence stop repeating (the schedule's `repeat_slot` no longer names it), and so does a repeat due
when the schedule's next post is due too, or after it: that post comes instead (two posts of one reminder
in one minute are one too many), and repeats anew.

A repeat whose fire finds its user inside their quiet hours posts nothing: it is due again at the
end of that period (an entry under a name of its own), and the repeats after it follow from there.
The escalation is never held.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from cronbell.core.domain import routing
from cronbell.core.domain.instants import iso_utc, parse_iso
from cronbell.core.domain.models import Schedule
from cronbell.core.domain.runs import Run
from cronbell.core.values import value

MIN_EVERY, MAX_EVERY = 5, 240  # minutes between posts
MIN_TIMES, MAX_TIMES, DEFAULT_TIMES = 1, 20, 6
ENTRY_INFIX = "-repeat-"


@value
class RepeatFire:
    """What the Input of a repeat entry names: the occurrence and which post after it."""

    occurrence: str  # RFC3339 UTC of the occurrence (its ledger slot)
    number: int  # 1..repeat_times: a repeat; repeat_times + 1: the escalation


def repeats(schedule: Schedule) -> bool:
    """Whether the schedule's delivered occurrences are repeated until acknowledged."""
    return schedule.repeat_every > 0 and schedule.kind == "message"


def last_number(schedule: Schedule) -> int:
    """The number of the chain's last fire: the escalation's when there is one."""
    return schedule.repeat_times + (1 if schedule.escalate_to else 0)


def chain_over(schedule: Schedule, run: Run) -> bool:
    """Whether every repeat of the occurrence `run` records is posted, and its escalation when it has one."""
    return run.escalated if schedule.escalate_to else run.repeats >= schedule.repeat_times


def is_escalation(schedule: Schedule, number: int) -> bool:
    """Fire `number` is the escalation: the one after the last repeat. A fire past `repeat_times` (lowered
    since its entry was written) is the escalation too: the repeats ran out."""
    return bool(schedule.escalate_to) and number > schedule.repeat_times


def due(base: datetime, every_minutes: int, number: int) -> datetime:
    """When fire `number` of an occurrence delivered at `base` is due (whole seconds)."""
    return base.replace(microsecond=0) + timedelta(minutes=every_minutes * number)


def entry_name(schedule_id: str, occurrence: str, number: int) -> str:
    """`<id>-repeat-<occurrence>-<k>`, the occurrence as its epoch second in base 36: each occurrence's
    chain has names of its own, so a later occurrence never overwrites an earlier one's entry."""
    return f"{schedule_id}{ENTRY_INFIX}{base36(parse_iso(occurrence))}-{number}"


def base36(when: datetime) -> str:
    seconds, digits = int(when.timestamp()), ""
    while seconds:
        seconds, digit = divmod(seconds, 36)
        digits = "0123456789abcdefghijklmnopqrstuvwxyz"[digit] + digits
    return digits or "0"


def following(schedule: Schedule, fire: RepeatFire, scheduled: datetime) -> tuple[int, str] | None:
    """The chain's next fire after `fire` (due at `scheduled`): its number and when it is due (RFC3339
    UTC), or None after the last."""
    if fire.number >= last_number(schedule):
        return None
    base = scheduled - timedelta(minutes=schedule.repeat_every * fire.number)
    return fire.number + 1, iso_utc(due(base, schedule.repeat_every, fire.number + 1))


@value
class Verdict:
    """What one repeat fire does: post (`escalation` or a repeat), or nothing and why."""

    post: bool
    escalation: bool = False
    why: str = ""


def decide(schedule: Schedule | None, fire: RepeatFire, scheduled: str, now: datetime) -> Verdict:
    """Whether the repeat fire of `fire`, scheduled at `scheduled` (RFC3339 UTC), may post, as far as
    the schedule read says; the claim on the run decides the rest (acknowledged, posted already)."""
    if schedule is None or schedule.status in ("deleted", "paused"):
        return Verdict(False, why="the schedule is deleted or paused: its repeats stopped")
    if not repeats(schedule) or schedule.repeat_slot != fire.occurrence:
        return Verdict(False, why="not the schedule's current occurrence: its repeats stopped")
    if fire.number < 1 or (fire.number > schedule.repeat_times and not is_escalation(schedule, fire.number)):
        return Verdict(False, why="no such repeat")
    if parse_iso(scheduled) > now + timedelta(seconds=60):
        return Verdict(False, why="a repeat cannot fire before its time")
    timing = schedule.timing
    coming = timing.upcoming(parse_iso(fire.occurrence), 1, schedule.delivered_count, schedule.done_through)
    if coming and coming[0] <= parse_iso(scheduled):
        return Verdict(False, why="the schedule's next post is due by then: it comes instead, and repeats anew")
    return Verdict(True, escalation=is_escalation(schedule, fire.number))


def escalation_room(schedule: Schedule, allowed: tuple[str, ...], default_platform: str) -> str:
    """The room (a store key) the escalation goes to when `escalate_to` names a room that
    AllowedOutputRooms allows; "" when it names a user, who is mentioned in the schedule's room."""
    target = schedule.escalate_to
    if not target or target.startswith("@"):
        return ""
    key = routing.named_room(target, schedule.room_id, default_platform)
    return key if key and routing.output_allowed(key, schedule.room_id, allowed, default_platform) else ""


def escalation_mention(target: str) -> str:
    """The user id an escalation `@...` mentions, as the platforms name users: a Matrix id keeps its "@"
    (`@boss:example.org`); a Slack, Discord or Telegram one is the id after it (`@U0BOSS` is U0BOSS), so
    the post pings that user. "" when `escalate_to` names a room."""
    if not target.startswith("@"):
        return ""
    return target if ":" in target else target[1:]


def occurrence_key(schedule_id: str, occurrence: str, fire: RepeatFire, escalation: bool) -> str:
    """The chat idempotency key of a repeat's post: never the occurrence's own."""
    tail = "escalation" if escalation else f"repeat-{fire.number}"
    return f"{schedule_id}-{occurrence}-{tail}"


def started(occurrence: str, late_seconds: int) -> datetime:
    """The start of an occurrence's delivery: the base its repeats count from."""
    return parse_iso(occurrence) + timedelta(seconds=late_seconds)
