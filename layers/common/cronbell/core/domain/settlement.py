"""What a finished run does to its schedule: its final status (a one-shot fired, a recurrence completed
by its last run), its failure streak and a pause under the failure policy, and the fire's own outcome.

Pure (no I/O). The fire's one writer (`usecases/fire_writes.py`) records what `settle` says.
"""

from __future__ import annotations

from dataclasses import field

from cronbell.core.domain import models, runs
from cronbell.core.domain.fire_event import FireEvent
from cronbell.core.domain.models import Schedule
from cronbell.core.domain.ports import Outcome
from cronbell.core.values import value


def end_status(schedule: Schedule | None, event: FireEvent, delivered: bool) -> str:
    """`completed` when this regular run is a recurrence's last (its `count` reached with this
    delivery, or no occurrence left before `until`): recorded in the same write as the run."""
    if schedule is None or event.manual or not schedule.recurring:
        return ""
    count = schedule.delivered_count + (1 if delivered else 0)
    return models.COMPLETED if schedule.timing.finished_after(event.at, count) else ""


@value
class Delivery:
    """What delivering one slot did: the run's outcome and reason, what was posted."""

    outcome: str  # a runs outcome
    reason: str | None = None
    message_id: str | None = None
    answer: str = ""  # the agent's answer, given to its next run as `previous`
    detail: str = ""  # the platform's or agent's own words for a failure, for the log and answer
    room_gone: bool = False  # the platform said the room is gone or closed to the bot: no later run can post
    pausable: bool = True  # a failure under the failure policy's pause (a refused post is not)
    verdict: runs.Verdict = field(default_factory=lambda: runs.Verdict(0))


@value
class Settlement:
    """What recording a run does to its schedule."""

    final: str  # "" (it goes on), fired, completed, delivery_failed
    streak: int
    pause: bool
    remove_entries: bool  # its entries are removed (it ended and Scheduler does not remove them itself)


def verdict(outcome: str, streak: int, pausable: bool, auto_pause_after: int) -> runs.Verdict:
    """The failure policy's verdict for a run (a refused post counts in the streak but never pauses)."""
    if outcome == runs.FAILED and not pausable:
        return runs.Verdict(streak + 1)
    if outcome == runs.SKIPPED:
        return runs.Verdict(streak)
    return runs.judge(outcome, streak, auto_pause_after)


def failure_verdict(schedule: Schedule | None, event: FireEvent, streak: int, auto_pause_after: int) -> runs.Verdict:
    """The failure policy's verdict for a failed run of `schedule`, before it is recorded. A failure on
    a recurrence's last occurrence ends it (`completed`, as `settle` records): with nothing left to
    pause for, it never pauses it and says nothing of a pause."""
    ends = schedule is None or end_status(schedule, event, delivered=False) != ""
    return verdict(runs.FAILED, streak, True, 0 if ends else auto_pause_after)


def settle(
    schedule: Schedule | None,
    event: FireEvent,
    outcome: str,
    reason: str | None,
    room_gone: bool,
    pausable: bool,
    pause_after: int,
) -> Settlement:
    """The final status, streak and pause of a delivered or failed run of `schedule` (as read when
    recording it). A one-shot's run is its only one: it is `fired`, or `delivery_failed` when it never
    reached the room (unless it was given a new time since, which is still to come); a recurrence
    ends on its last run, or when the room is gone or forbidden."""
    streak = schedule.failure_streak if schedule is not None else 0
    judged = verdict(outcome, streak, pausable, pause_after if schedule is not None else 0)
    if schedule is not None and schedule.status in models.RAN_OUT:  # a manual run after its end
        return Settlement("", judged.streak, False, False)
    one_shot = schedule is not None and not schedule.recurring and not event.manual
    failed_post = outcome == runs.FAILED and reason not in (runs.AGENT_TIMEOUT, runs.AGENT_ERROR)
    if one_shot and schedule is not None and not schedule.timing.fires_at(event.at):
        final = ""  # a held post released after its one-shot was given a new time: that time is to come
    elif one_shot:
        final = models.DELIVERY_FAILED if failed_post else models.FIRED
    else:
        final = end_status(schedule, event, outcome == runs.DELIVERED)
        if schedule is not None and failed_post and room_gone:
            final = models.DELIVERY_FAILED
    pause = judged.pause and not final and schedule is not None
    remove = schedule is not None and final in (models.COMPLETED, models.DELIVERY_FAILED)
    return Settlement(final, judged.streak, pause, remove)


def fire_outcome(outcome: str, reason: str | None) -> Outcome:
    """The fire function's own outcome (its answer, log and slot) for a run."""
    if outcome == runs.DELIVERED:
        return Outcome.DELIVERED
    if outcome == runs.SKIPPED:
        return Outcome.NOTHING_TO_POST
    if reason in (runs.AGENT_TIMEOUT, runs.AGENT_ERROR, runs.CHAT_ERROR):
        return Outcome.FAILED
    return Outcome.DELIVERY_FAILED
