"""One occurrence's slot through a fire: claimed, given back if what follows raises, settled once.

The slot item is the fire's idempotency record (as Powertools' idempotency keeps one per event): a
claim (a conditional write with a lease) makes this attempt the one that delivers; anything that
raises before the run is recorded gives the claim back, so Lambda's retry claims it again; the run is
then recorded once, with what it does to its schedule (`fire_writes.record`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import datetime

from cronbell.core.domain import models, settlement
from cronbell.core.domain.fire_event import FireEvent
from cronbell.core.domain.firing import Job
from cronbell.core.domain.ports import Claim
from cronbell.core.domain.settlement import Delivery
from cronbell.usecases import fire_writes as writes
from cronbell.usecases.deps import Deps
from cronbell.usecases.fire_writes import RetryLater

DELIVERY_MARGIN_SECONDS = 20  # a chat post with its retries, after any agent call
HELD_POLL_SECONDS = 15  # how often a held slot is looked at again while it is waited out
Remaining = Callable[[], float]


def wait_out(until: datetime | None, needed: float, budget: float, remaining_seconds: Remaining, deps: Deps) -> float:
    """Sleep a step towards the end of another attempt's claim (its lease, `until`) while this invocation has
    `needed` seconds left after it (and `budget` left of the waits); else raise RetryLater, so that Lambda
    retries later. The seconds slept."""
    wait = max(1.0, (until - deps.now()).total_seconds() + 1) if until else 1.0
    if wait + needed > min(remaining_seconds(), budget):
        deps.metric("SlotHeld", 1)
        raise RetryLater("another attempt holds this claim; retry once its lease is over")
    step = min(wait, HELD_POLL_SECONDS)
    deps.sleep(step)
    return step


class Slot:
    """The slot `event` names, for `job`."""

    def __init__(self, job: Job, event: FireEvent, deps: Deps) -> None:
        self.job, self.event, self.deps = job, event, deps
        self.key = writes.slot_key(event)

    def claim(self, remaining_seconds: Remaining, slot_read: bool = False) -> Claim:
        """Claim the slot (`slot_read`: found free as the schedule was read). A claim held by another
        attempt is waited out while this invocation has time left to deliver after it: that attempt
        either finishes (the slot is done) or is dead, and its lease, which ends when Lambda has
        certainly stopped it, is taken over. When the wait does not fit, raise, so that Lambda retries
        later: a held slot never ends a fire as done."""
        job, event, deps = self.job, self.event, self.deps
        needed = DELIVERY_MARGIN_SECONDS + (job.timeout if job.kind == models.AGENT_CALL else 0)
        budget = remaining_seconds()  # also bounds the waits should the clock read stand still
        while True:
            lease = min(deps.settings.slot_lease_seconds, int(remaining_seconds()) + 5)
            claim = deps.store.claim_slot(
                event.room_id, event.schedule_id, self.key, deps.now(), lease, job.schedule, slot_read
            )
            slot_read = False  # after a wait, the slot is read again: its attempt may have ended it
            if claim != Claim.HELD:
                return claim
            until = deps.store.held_until(event.room_id, event.schedule_id, self.key)
            budget -= wait_out(until, needed, budget, remaining_seconds, deps)

    @contextmanager
    def held(self) -> Iterator[None]:
        """The claimed slot, given back when the block raises (a change met, a failure, a retry)."""
        try:
            yield
        except BaseException as err:
            answer = err.answer if isinstance(err, RetryLater) else ""  # an agent's, kept for the retry
            self.deps.store.release_slot(
                self.event.room_id, self.event.schedule_id, self.key, self.job.schedule, answer
            )
            raise

    def last_attempt(self) -> bool:
        """Whether this is Lambda's last attempt at the event (the claim counted the attempts). A
        template schedule has no item to count them on: its failures always go to Lambda's retries."""
        schedule = self.job.schedule
        return schedule is not None and schedule.delivery_attempt(self.key) > self.deps.settings.fire_retries

    def settle(self, done: Delivery, late: int) -> settlement.Settlement:
        """Record the run once, with what it does to its schedule."""
        return writes.record(self.job, self.event, self.deps, done, late)
