"""The scheduler engine: reads the schedules from moto and fires them as EventBridge Scheduler would.

moto stores schedules but never fires them. The engine runs `advance(new)`: every fire that falls due in
(last, new] is delivered in order of scheduled time, re-reading the schedule list after each fire so a
schedule that a fire creates or deletes is seen. Lambda targets are invoked asynchronously with Lambda's
retries; one-time schedules with ActionAfterCompletion DELETE are deleted once the invocation is
accepted, before the function runs (Lambda runs it asynchronously), as Scheduler deletes them.

Fires due at the same instant are delivered at once, as Scheduler invokes them, up to `concurrency` at a
time, each in an execution environment of its own (the runtime's `separate` invocation); the next instant
waits until they have all ended, so every fire sees the clock at its own time and what it changed.
"""

from __future__ import annotations

import contextlib
import heapq
import json
import logging
import threading
import uuid
from collections import deque
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

from sandbox.clock import SandboxClock
from sandbox.expressions import ExpressionError, ScheduleTiming, next_fire
from sandbox.lambda_api import FunctionNotFound, LambdaRuntime

log = logging.getLogger("sandbox.engine")

_EPSILON = timedelta(microseconds=1)


RECENT = 200  # fires kept for the console


@dataclass(frozen=True)
class Fired:
    schedule: str
    group: str
    scheduled_time: datetime
    ok: bool
    own_writes: int = 0  # Scheduler writes the engine itself made for this fire
    outcome: str = ""  # what the target answered (the fire function's run outcome and reason), for the console
    reason: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {
            "schedule": self.schedule,
            "scheduled_time": scheduler_time(self.scheduled_time),
            "ok": self.ok,
        }


def _signature(schedule: dict[str, Any]) -> tuple[str, str]:
    """What makes a schedule start anew in Scheduler: its expression, and its state."""
    return str(schedule.get("ScheduleExpression", "")), str(schedule.get("State", "ENABLED"))


@dataclass(frozen=True, order=True)
class _Due:
    when: datetime
    order: int  # ties fire in the order the schedules were listed
    schedule: dict[str, Any] = field(compare=False)


def scheduler_time(value: datetime) -> str:
    """Scheduler's `<aws.scheduler.scheduled-time>` form: `2026-12-01T09:00:00Z`."""
    return value.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def fill_context(text: str, *, arn: str, scheduled: datetime, execution_id: str, attempt: int) -> str:
    """Scheduler's context attributes in a target Input."""
    return (
        text.replace("<aws.scheduler.schedule-arn>", arn)
        .replace("<aws.scheduler.scheduled-time>", scheduler_time(scheduled))
        .replace("<aws.scheduler.execution-id>", execution_id)
        .replace("<aws.scheduler.attempt-number>", str(attempt))
    )


def _as_utc(value: Any) -> datetime | None:
    if value is None or value == "":
        return None
    if isinstance(value, datetime):
        return value.astimezone(UTC) if value.tzinfo else value.replace(tzinfo=UTC)
    if isinstance(value, int | float):
        return datetime.fromtimestamp(value, UTC)
    parsed = datetime.fromisoformat(str(value).replace("Z", "+00:00"))
    return parsed.astimezone(UTC) if parsed.tzinfo else parsed.replace(tzinfo=UTC)


class Stopped(Exception):
    """The engine was asked to stop in the middle of a clock move."""


class SchedulerEngine:
    def __init__(
        self,
        scheduler: Any,
        runtime: LambdaRuntime,
        clock: SandboxClock,
        send_to_queue: Callable[[str, str], None],
        start: datetime,
        changes: Callable[[], int] | None = None,
        source: Callable[[], list[dict[str, Any]]] | None = None,
        remove: Callable[[str, str], bool] | None = None,
        lookup: Callable[[str, str], dict[str, Any] | None] | None = None,
        concurrency: int = 1,
    ) -> None:
        self.scheduler = scheduler  # a boto3 `scheduler` client on the moto server
        self.runtime = runtime
        self.clock = clock
        self.send_to_queue = send_to_queue
        self.last = start  # every fire up to here has been handled
        # how many writes Scheduler has seen; None: unknown, so the schedules are re-read after every fire
        self.changes = changes
        self.source = source  # every schedule, read at once; None: through the Scheduler API
        # (group, name) -> deleted from Scheduler's state directly, as Scheduler does; None: DeleteSchedule
        self.remove = remove
        # (group, name) -> the schedule as Scheduler holds it now, None if gone; None: through GetSchedule
        self.lookup = lookup
        # fires due at the same instant delivered at once, each in an execution environment of its own
        self.concurrency = max(1, concurrency)
        self.recent: deque[Fired] = deque(maxlen=RECENT)
        self._lock = threading.Lock()
        self._stopping = threading.Event()
        self._details: dict[tuple[str, Any], dict[str, Any]] = {}
        self._anchors: dict[tuple[str, Any], datetime] = {}  # rate() without StartDate: first seen

    def stop(self) -> None:
        """End a clock move under way after the fire in progress, and refuse further moves."""
        self._stopping.set()

    # ------------------------------------------------------------------ reading moto

    def schedules(self) -> list[dict[str, Any]]:
        """Every schedule in every group, in full (GetSchedule's shape), cached by last modification."""
        if self.source is not None:
            return self.source()
        out = []
        groups = ["default"]
        for page in self.scheduler.get_paginator("list_schedule_groups").paginate():
            groups += [g["Name"] for g in page.get("ScheduleGroups", []) if g["Name"] != "default"]
        for group in groups:
            for page in self.scheduler.get_paginator("list_schedules").paginate(GroupName=group):
                for summary in page.get("Schedules", []):
                    key = (summary["Arn"], summary.get("LastModificationDate"))
                    detail = self._details.get(key)
                    if detail is None:
                        try:
                            detail = self.scheduler.get_schedule(Name=summary["Name"], GroupName=group)
                        except self.scheduler.exceptions.ResourceNotFoundException:
                            continue
                        self._details[key] = detail
                    out.append(detail)
        return out

    def timing(self, schedule: dict[str, Any], seen_at: datetime) -> ScheduleTiming:
        key = (schedule["Arn"], schedule.get("CreationDate"))
        anchor = self._anchors.setdefault(key, seen_at)
        return ScheduleTiming(
            expression=schedule.get("ScheduleExpression", ""),
            timezone=schedule.get("ScheduleExpressionTimezone") or "UTC",
            start=_as_utc(schedule.get("StartDate")),
            end=_as_utc(schedule.get("EndDate")),
            anchor=anchor,
        )

    def next_due(self) -> datetime | None:
        """The earliest fire after the last clock move, of every enabled schedule (without waiting for a move
        under way, so the console answers during a long one)."""
        last = self.last
        return min((due.when for due in self._plan(self.schedules(), last, last, {})), default=None)

    # ------------------------------------------------------------------ firing

    def advance(self, new: datetime) -> list[Fired]:
        """Fire, in order of scheduled time, everything due in (last, new]; the clock follows each fire.

        The schedules are read once and each one's next fire kept in a heap; they are read again only when
        Scheduler's state may have changed (a fire created, changed or deleted a schedule), so a move costs
        one heap step per fire rather than a pass over every schedule. Raises Stopped when `stop()` is called
        during the move: the fires made so far stay made and the clock stays at the last of them.

        An asynchronous invocation still running (a `run_now`'s fire) ends first, at the instant it was asked
        for: the clock moves only then (for at most the longest function timeout, as Lambda would end it)."""
        longest = max((spec.timeout for spec in self.runtime.specs.values()), default=30)
        self.runtime.wait_background(timeout=float(longest))
        with self._lock:
            if self._stopping.is_set():
                raise Stopped
            old = self.last
            if new <= old:
                self.last = new
                self.clock.set(new)
                return []
            fired: list[Fired] = []
            last_fire: dict[str, datetime] = {}  # per schedule ARN, its latest fire in this move
            planned: dict[str, tuple[str, str]] | None = None  # the last plan's expressions (None: no plan yet)

            def plan(cursor: datetime) -> list[_Due]:
                nonlocal planned
                schedules = self.schedules()
                heap = self._plan(schedules, old, cursor, last_fire, new, planned)
                planned = {schedule["Arn"]: _signature(schedule) for schedule in schedules}
                return heap

            cursor = old
            seen = self._writes()
            heap = plan(cursor)
            while (heap and heap[0].when <= new) or self._retry_before(heap, new):
                if self._stopping.is_set():
                    self.last = cursor
                    raise Stopped
                # a run_now asked for while the move stood here (its asynchronous fire) ends here too
                self.runtime.wait_background(timeout=float(longest))
                if self._retry_before(heap, new):  # Lambda's retry of a failed event, at its own time
                    cursor = self._run_retries()
                    heap = plan(cursor)
                    seen = self._writes()
                    continue
                batch = [heapq.heappop(heap)]
                while self.concurrency > 1 and heap and heap[0].when == batch[0].when:
                    batch.append(heapq.heappop(heap))
                cursor = batch[0].when
                self.clock.set(cursor)
                results = self._fire_all(batch, cursor)
                fired += results
                self.recent.extend(results)
                if self._stopping.is_set():  # stopped during the batch: the rest not made
                    self.last = cursor
                    raise Stopped
                for due in batch:
                    last_fire[due.schedule["Arn"]] = cursor
                writes = self._writes()
                own = sum(result.own_writes for result in results)
                if writes is None or seen is None or writes != seen + own:
                    heap = plan(cursor)
                else:
                    for due in batch:
                        if (again := self._next(due.schedule, cursor, cursor)) is not None:
                            heapq.heappush(heap, _Due(again, due.order, due.schedule))
                seen = writes
            self.last = new
            self.clock.set(new)
            return fired

    def _retry_before(self, heap: list[_Due], until: datetime) -> bool:
        """Whether a pending retry is due by `until` and before the next fire."""
        due = self.runtime.next_retry()
        return due is not None and due <= until and (not heap or due < heap[0].when)

    def _run_retries(self) -> datetime:
        """Run the retries due at the earliest pending retry's time; returns that time."""
        due = self.runtime.next_retry()
        assert due is not None
        when = max(due, self.last)
        self.clock.set(when)
        for pending in self.runtime.due_retries(due):
            outcome = self.runtime.retry(pending)
            log.info("retried %s (attempt %d) ok=%s", pending.spec.logical_id, pending.attempt, outcome.result.ok)
        return when

    def _fire_all(self, batch: list[_Due], when: datetime) -> list[Fired]:
        """Fire every schedule of the batch (all due at `when`), in its order; several at once, as Scheduler
        invokes its targets, when there are several and the engine may."""
        if len(batch) == 1:
            return [fired for fired in [self.fire(batch[0].schedule, when)] if fired is not None]

        def fire(due: _Due) -> Fired | None:
            return None if self._stopping.is_set() else self.fire(due.schedule, when, separate=True)

        with ThreadPoolExecutor(self.concurrency, thread_name_prefix="scheduler-fire") as pool:
            return [result for result in pool.map(fire, batch) if result is not None]  # stopped: the rest not made

    def _writes(self) -> int | None:
        return self.changes() if self.changes is not None else None

    def _plan(
        self,
        schedules: list[dict[str, Any]],
        old: datetime,
        cursor: datetime,
        last_fire: dict[str, datetime],
        until: datetime | None = None,
        planned: dict[str, tuple[str, str]] | None = None,
    ) -> list[_Due]:
        """Each enabled schedule's next fire, as a heap: due after `old`, at or after `cursor` (a schedule
        that a fire at `cursor` created or changed can still be due then), and after its own last fire. A
        recurring expression written or enabled at `cursor` (by a tool call while the move stands there: not
        as `planned`, the previous plan's expressions and states) starts after it, as Scheduler's does from
        its write: the answer to that call named its first fire after now."""
        heap = []
        for order, schedule in enumerate(schedules):
            if schedule.get("State", "ENABLED") != "ENABLED":
                continue
            since = max(old, cursor - _EPSILON)
            written_now = planned is not None and planned.get(schedule["Arn"]) != _signature(schedule)
            if written_now and _signature(schedule)[0].startswith(("cron(", "rate(")):
                since = max(since, cursor)
            if (previous := last_fire.get(schedule["Arn"])) is not None:
                since = max(since, previous)
            when = self._next(schedule, since, cursor)
            if when is not None and (until is None or when <= until):
                heap.append(_Due(when, order, schedule))
        heapq.heapify(heap)
        return heap

    def _next(self, schedule: dict[str, Any], after: datetime, seen_at: datetime) -> datetime | None:
        try:
            return next_fire(self.timing(schedule, seen_at), after)
        except ExpressionError as err:
            log.warning("schedule %s never fires: %s", schedule.get("Name"), err)
            return None

    def _as_now(self, planned: dict[str, Any], when: datetime) -> dict[str, Any] | None:
        """The schedule as Scheduler holds it when it invokes it, None when it is no longer due at `when`: a
        change written since the move read it (a one-time entry moved to another time, disabled, deleted) is
        seen, as Scheduler invokes a schedule as it is then, not as it was when its minute began. A fire
        waiting for a free execution environment (`concurrency`) would otherwise deliver the old input,
        and delete the moved one-time entry after it."""
        name, group = planned["Name"], planned.get("GroupName", "default")
        if self.lookup is not None:
            current = self.lookup(group, name)
        else:
            try:
                current = self.scheduler.get_schedule(Name=name, GroupName=group)
            except self.scheduler.exceptions.ResourceNotFoundException:
                current = None
        if current is None or current.get("State", "ENABLED") != "ENABLED":
            return None
        return current if self._next(current, when - _EPSILON, when) == when else None

    def fire(self, planned: dict[str, Any], when: datetime, *, separate: bool = False) -> Fired | None:
        """Deliver one scheduled invocation to its target, as Scheduler would (`separate`: in an execution
        environment of its own, when others run at the same time); None when the schedule, as it is now, is
        not due at `when` (changed since it was read)."""
        schedule = self._as_now(planned, when)
        if schedule is None:
            log.info("not fired %s: changed since its minute began", planned.get("Name"))
            return None
        name, group, arn = schedule["Name"], schedule.get("GroupName", "default"), schedule["Arn"]
        target = schedule.get("Target", {})
        one_time = ScheduleTiming(schedule.get("ScheduleExpression", "")).one_time
        pending = [one_time and schedule.get("ActionAfterCompletion") == "DELETE"]
        own_writes = 0

        def complete() -> None:
            """Scheduler's invocation is complete once Lambda accepted the event (its handler runs later,
            asynchronously): a one-time entry is deleted then, not after the function ends, so a change
            written while the fire runs is never deleted with it."""
            nonlocal own_writes
            if not pending[0]:
                return
            pending[0] = False
            if self.remove is not None:
                self.remove(group, name)  # the fire itself may have removed it already
            else:
                own_writes = 1
                with contextlib.suppress(self.scheduler.exceptions.ResourceNotFoundException):
                    self.scheduler.delete_schedule(Name=name, GroupName=group)

        ok, answer = self._deliver(schedule, target, when, separate, complete)
        complete()  # a target that could not be invoked: complete after Scheduler's last attempt
        log.info("fired %s/%s at %s ok=%s (%s)", group, name, when.isoformat(), ok, arn)
        outcome, reason = str(answer.get("outcome") or ""), str(answer.get("reason") or answer.get("error") or "")
        return Fired(name, group, when, ok, own_writes=own_writes, outcome=outcome, reason=reason)

    def _deliver(
        self,
        schedule: dict[str, Any],
        target: dict[str, Any],
        when: datetime,
        separate: bool,
        accepted: Callable[[], None],
    ) -> tuple[bool, dict[str, Any]]:
        """Whether the target ran without error, and its answer when it gave a JSON object."""
        target_arn = str(target.get("Arn", ""))
        raw_input = target.get("Input") or "{}"
        retry = target.get("RetryPolicy", {}) or {}
        attempts_allowed = 1 + int(retry.get("MaximumRetryAttempts", 185))
        error = ""
        # Scheduler's own retries cover failures to invoke (a missing function); a failure that cannot
        # change between immediate retries is retried only a few times.
        for attempt in range(1, min(attempts_allowed, 3) + 1):
            payload = fill_context(
                raw_input,
                arn=schedule["Arn"],
                scheduled=when,
                execution_id=str(uuid.uuid4()),
                attempt=attempt,
            )
            try:
                if ":sqs:" in target_arn:
                    self.send_to_queue(target_arn, payload)
                    accepted()
                    return True, {}
                spec = self.runtime.find(target_arn)
            except FunctionNotFound:
                error = f"Function not found: {target_arn}"
                continue
            accepted()
            outcome = self.runtime.invoke_event(spec, payload.encode(), separate=separate)
            try:
                answer = json.loads(outcome.result.payload)
            except ValueError:
                answer = None
            return outcome.result.ok, answer if isinstance(answer, dict) else {}
        dead_letter = (target.get("DeadLetterConfig") or {}).get("Arn")
        if dead_letter:
            body = fill_context(
                raw_input, arn=schedule["Arn"], scheduled=when, execution_id=str(uuid.uuid4()), attempt=1
            )
            self.send_to_queue(dead_letter, body)
        log.error("schedule %s could not invoke its target: %s", schedule.get("Name"), error)
        return False, {"reason": error}
