"""What a fire does: decided from the schedule as read, the fire event, the time and the settings.

Pure (no I/O, the time passed in). `decide` says what one fire of a stored schedule does before
anything is written; `decide_static` does the same for a schedule declared in template.yaml;
`core/domain/settlement.py` says what a finished run does to its schedule.
The fire use case reads, asks these, claims, delivers, and hands the result to its one writer
(`usecases/fire_writes.py`).
"""

from __future__ import annotations

import re
from datetime import datetime, timedelta

from cronbell.core.domain import models, routing, runs
from cronbell.core.domain.fire_event import FireEvent, StaticAction
from cronbell.core.domain.models import Schedule
from cronbell.core.domain.phrases import Phrase, phrase
from cronbell.core.domain.ports import Outcome
from cronbell.core.domain.settlement import end_status
from cronbell.core.values import value

UNKNOWN_GRACE_SECONDS = 90
EARLY_SECONDS = 60  # Scheduler may invoke a target up to about a minute around its time


@value
class Limits:
    """The settings a fire's decision reads."""

    max_lateness_minutes: int = 60
    allowed_output_rooms: tuple[str, ...] = ()
    default_platform: str = "matrix"
    agent_timeout_seconds: int = 120
    agent_timeout_max_seconds: int = 240
    agents_configured: bool = True
    auto_pause_after: int = 5
    chat_backends: tuple[str, ...] = ("matrix",)  # the configured platforms, the default first


@value
class Job:
    """What one slot delivers, whatever kind of schedule it came from."""

    kind: str
    room_id: str  # where the message goes (a store key)
    label: str  # schedule name or id, for notices
    locale: str
    text: str = ""
    user_id: str = ""
    target_agent: str = ""
    prompt: str = ""
    skills: tuple[str, ...] = ()
    timeout: int = 0
    timezone: str = "UTC"
    schedule: Schedule | None = None  # the stored schedule; None for a template schedule
    thread_id: str = ""  # the thread of room_id its posts go into
    owner_room: str = ""  # the schedule's own room (a store key): where it is managed
    owner_thread: str = ""

    @property
    def notice_rooms(self) -> list[tuple[str, str]]:
        """Where a failure notice goes: the output room, and the schedule's own room when that is
        another one (nobody can resume it from the output room)."""
        rooms = [(self.room_id, self.thread_id)]
        if self.owner_room and self.owner_room != self.room_id:
            rooms.append((self.owner_room, self.owner_thread))
        return rooms


@value
class Failure:
    """A run that fails before anything is delivered: no agents, or an output room no longer allowed.
    It is claimed and recorded as any failed run (streak, notice, pause, event)."""

    reason: str  # a runs reason
    said: Phrase  # the reason for the room's notice
    outcome: Outcome  # the fire function's answer
    detail: str  # for the log and the slot
    owner_only: bool = False  # its notice goes to the schedule's own room only (never the refused room)


# --- decisions ------------------------------------------------------------------------------
@value
class Wait:
    """Nothing to do yet: Lambda retries the event (a one-shot may still be being created)."""

    why: str


@value
class Orphan:
    """No schedule: send nothing, remove the entries that fire this id in this room."""

    names: tuple[str, ...]


@value
class Nothing:
    """Nothing to write: the fire ends with this answer (off week, hand-made Input)."""

    outcome: Outcome
    why: str = ""


@value
class Retired:
    """The schedule is no longer active: send nothing, remove its leftover entries."""

    status: str
    names: tuple[str, ...]


@value
class Complete:
    """A fire past the schedule's end: it becomes `completed` and its entries are removed."""

    schedule: Schedule


@value
class Undelivered:
    """An occurrence recorded as a run with nothing delivered (paused, skipped, holiday, too late);
    `completes`: it was the schedule's last one, so the same write completes the schedule."""

    schedule: Schedule | None  # None: a template schedule (too late)
    outcome: str
    reason: str
    late: int
    answer: Outcome
    completes: bool = False
    said_reason: bool = False  # the fire's answer names the reason
    timezone: str = "UTC"


@value
class Deliver:
    """Claim the slot, then deliver the job (or record `failure` as its failed run)."""

    job: Job
    late: int
    failure: Failure | None = None


# what Scheduler takes as an entry's name (64 at most; an id's entries add "-snooze" to it)
_ENTRY_NAME = re.compile(r"[0-9A-Za-z_.-]{1,57}")

Decision = Wait | Orphan | Nothing | Retired | Complete | Undelivered | Deliver


def decide(schedule: Schedule | None, event: FireEvent, now: datetime, limits: Limits) -> Decision:
    """What a fire of a stored schedule does, from the schedule as read."""
    if schedule is None:
        age = (now - event.at).total_seconds()
        if event.on_time and 0 <= age < UNKNOWN_GRACE_SECONDS:
            return Wait("no schedule yet for this fire; it may still be being created")
        if not _ENTRY_NAME.fullmatch(event.schedule_id):
            return Orphan(())  # no name Scheduler takes: no entry is named after it
        names = [*models.scheduler_names(event.schedule_id, 3), models.snooze_name(event.schedule_id)]
        return Orphan(tuple(names))
    if schedule.status in models.LIVE_STATUSES and _off_interval(schedule, event):
        return Nothing(Outcome.OFF_INTERVAL, "off-interval fire of an every-N schedule")
    if schedule.status in models.LIVE_STATUSES and ran_already(schedule, event):
        return Nothing(Outcome.OFF_INTERVAL, "an occurrence that ran already, moved past its run by a change")
    if schedule.status == models.PAUSED:
        if not event.manual and schedule.timing.ended_by(event.at, schedule.delivered_count):
            return Complete(schedule)  # its end came while it was paused: no occurrence is left
        return Undelivered(schedule, runs.SKIPPED, runs.PAUSED, 0, Outcome.PAUSED, timezone=schedule.timezone)
    if schedule.status != models.ACTIVE and not _asked_before_its_end(schedule, event, now):
        return Retired(schedule.status, tuple(schedule.scheduler_names))
    if not own_slot(schedule, event, now):
        return Nothing(Outcome.INVALID_INPUT, "fire for a time that is not one of the schedule's own")
    slot = event.at
    if not event.manual and schedule.timing.ended_by(slot, schedule.delivered_count):
        return Complete(schedule)  # a fire past `until` (or `count`): Scheduler's EndDate aside
    completes = bool(end_status(schedule, event, delivered=False))
    if not event.manual and event.slot in schedule.timing.skips:
        # skip_next skips it; a snooze skips it and adds a one-time entry: the timing knows which (a run
        # started by hand in that very second is its own run, never the skipped occurrence)
        reason = schedule.timing.skip_reason(event.slot)
        return Undelivered(schedule, runs.SKIPPED, reason, 0, Outcome.SKIPPED, completes, timezone=schedule.timezone)
    if not event.manual and schedule.timing.is_holiday(slot):
        return Undelivered(schedule, runs.SKIPPED, runs.HOLIDAY, 0, Outcome.SKIPPED, completes, True, schedule.timezone)
    late = runs.late_seconds(event.slot, now)  # a manual run retried by Lambda is late by its retry too
    if runs.too_late(late, schedule.recurring, event.manual, limits.max_lateness_minutes):
        return Undelivered(
            schedule, runs.MISSED, runs.TOO_LATE, late, Outcome.MISSED, completes, True, schedule.timezone
        )
    job = stored_job(schedule, limits)
    return Deliver(job, late, _failure(job, schedule, limits))


def holdable(job: Job, event: FireEvent) -> bool:
    """Whether quiet hours may hold this occurrence: a stored reminder's regular (or snoozed)
    occurrence, unless it is a one-shot whose user set its time inside their own quiet hours."""
    schedule = job.schedule
    if schedule is None or job.kind != models.MESSAGE or event.manual or event.repeat:
        return False
    return schedule.recurring or not schedule.quiet_exempt


def _asked_before_its_end(schedule: Schedule, event: FireEvent, now: datetime) -> bool:
    """A manual run that run_now answered "started" while the schedule was active, of a schedule
    that ran out since (a late attempt at its last occurrence completed it, a one-shot fired): it
    is still delivered, once, as run_now said; the schedule stays as it ended."""
    return event.manual and schedule.status in models.RAN_OUT and own_slot(schedule, event, now)


def _failure(job: Job, schedule: Schedule, limits: Limits) -> Failure | None:
    """A run that cannot be delivered at all is a failed run, decided before any call: a room whose
    platform the deployment no longer configures (its id means nothing on the others, so it is never
    posted to the same id elsewhere), or an agent call with nowhere allowed to post or no agents."""
    if routing.platform_gone(schedule.output_room, limits.chat_backends):
        platform = routing.split_room_key(schedule.output_room)[0]
        return Failure(
            runs.CHAT_REFUSED,
            phrase("platform_gone", platform=platform),
            Outcome.PLATFORM_GONE,
            "the room's chat platform is not configured in this deployment",
            owner_only=True,
        )
    if job.kind != models.AGENT_CALL:
        return None
    if not routing.output_allowed(
        schedule.output_room, schedule.room_id, limits.allowed_output_rooms, limits.default_platform
    ):
        return Failure(
            runs.CHAT_REFUSED,
            phrase("error.forbidden_channel"),
            Outcome.FORBIDDEN_CHANNEL,
            "output room no longer allowed (AllowedOutputRooms)",
            owner_only=True,
        )
    if not limits.agents_configured:
        return _no_agents(job)
    return None


def _no_agents(job: Job) -> Failure:
    said = phrase("error.unknown_agent.none", agent=job.target_agent)
    return Failure(runs.AGENT_ERROR, said, Outcome.NO_AGENTS, "no agents configured in this deployment")


def stored_job(schedule: Schedule, limits: Limits) -> Job:
    return Job(
        kind=schedule.kind,
        room_id=schedule.output_room,
        label=schedule.name or schedule.id,
        locale=schedule.locale,
        text=schedule.text,
        user_id=schedule.user_id,
        target_agent=schedule.target_agent,
        prompt=schedule.prompt,
        skills=tuple(schedule.skills),
        timeout=min(schedule.agent_timeout_seconds or limits.agent_timeout_seconds, limits.agent_timeout_max_seconds),
        timezone=schedule.timezone,
        schedule=schedule,
        thread_id=schedule.output_thread,
        owner_room=schedule.room_id,
        owner_thread=schedule.thread_id,
    )


def decide_static(
    action: StaticAction | None, prompt: str | None, event: FireEvent, now: datetime, limits: Limits, locale: str
) -> Decision:
    """What a fire of a template schedule does: what it runs and where it posts come from the
    declaration (`action`, None when the template declares no such schedule for the Input's room),
    whatever else the Input says. `prompt` is None when its prompt file is not shipped."""
    if action is None or event.room_id != action.room_id:
        return Nothing(Outcome.INVALID_INPUT, "static Input that the template does not declare (name or room)")
    if prompt is None:
        return Nothing(Outcome.INVALID_INPUT, "static schedule names a prompt file this function does not ship")
    late = runs.late_seconds(event.slot, now)  # a manual run retried by Lambda is late by its retry too
    if runs.too_late(late, True, event.manual, limits.max_lateness_minutes):
        return Undelivered(None, runs.MISSED, runs.TOO_LATE, late, Outcome.MISSED, False, True, action.timezone)
    job = Job(
        kind=models.AGENT_CALL,
        room_id=event.room_id,
        label=action.name,
        locale=locale,
        target_agent=action.target_agent,
        prompt=prompt,
        skills=action.skills,
        timeout=limits.agent_timeout_seconds,
        timezone=action.timezone,
        owner_room=event.room_id,
    )
    return Deliver(job, late, None if limits.agents_configured else _no_agents(job))


def own_slot(schedule: Schedule, event: FireEvent, now: datetime) -> bool:
    """Whether the fire's scheduled time is one the schedule really has (a run_now's is the slot
    run_now recorded, or one that waits its turn) and not in the future: a hand-made Input cannot
    fire a schedule early. Scheduler's and Lambda's retries carry the same scheduled time."""
    slot = event.at
    if slot > now + timedelta(seconds=EARLY_SECONDS):
        return False
    if event.manual:
        return event.slot == schedule.last_manual_run or event.slot in schedule.manual_waiting
    return schedule.timing.fires_at(slot)


def _off_interval(schedule: Schedule, event: FireEvent) -> bool:
    """The off week (or day) of an every-N-weeks or every-N-days schedule: its weekly or daily entry
    fires, but the day is no occurrence. Nothing is posted and no run is recorded (the run outcomes
    are those of occurrences), the slot is not claimed and last_run stays: the item already read
    decides it, so such a fire costs one GetItem."""
    return not event.manual and schedule.timing.off_interval(event.at)


def ran_already(schedule: Schedule, event: FireEvent) -> bool:
    """A regular fire later than the schedule's last regular run, of an occurrence that ran already: its
    original time is at or before that run's (a change of `on_holiday` moved it past its run), or before
    the schedule was made (`Schedule.done_through`). Like an off-interval fire it posts nothing, records
    no run and uses none of `count`, decided from the item already read. A fire at or before that run's
    own time is a retry or a late copy: the ledger's."""
    last = schedule.last_regular()
    if event.manual or (last is not None and event.at <= last):
        return False
    return schedule.timing.ran_already(event.at, schedule.done_through)
