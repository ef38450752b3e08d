"""The scheduler engine: reads the schedules from moto and fires them as EventBridge Scheduler would.

moto stores schedules but never fires them. The engine runs `advance(new)`: every fire that falls due in
(last, new] is delivered in order of scheduled time, re-reading the schedule list after each fire so a
schedule that a fire creates or deletes is seen. Lambda targets are invoked asynchronously with Lambda's
retries; one-time schedules with ActionAfterCompletion DELETE are deleted after firing.
"""

from __future__ import annotations

import contextlib
import logging
import threading
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from sandbox.clock import SandboxClock
from sandbox.expressions import ExpressionError, ScheduleTiming, next_fire
from sandbox.lambda_api import FunctionNotFound, LambdaRuntime

log = logging.getLogger("sandbox.engine")

_EPSILON = timedelta(microseconds=1)


@dataclass(frozen=True)
class Fired:
    schedule: str
    group: str
    scheduled_time: datetime
    ok: bool

    def to_dict(self) -> dict[str, Any]:
        return {
            "schedule": self.schedule,
            "scheduled_time": scheduler_time(self.scheduled_time),
            "ok": self.ok,
        }


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


class SchedulerEngine:
    def __init__(
        self,
        scheduler: Any,
        runtime: LambdaRuntime,
        clock: SandboxClock,
        send_to_queue: Callable[[str, str], None],
        start: datetime,
    ) -> None:
        self.scheduler = scheduler  # a boto3 `scheduler` client on the moto server
        self.runtime = runtime
        self.clock = clock
        self.send_to_queue = send_to_queue
        self.last = start  # every fire up to here has been handled
        self._lock = threading.Lock()
        self._details: dict[tuple[str, Any], dict[str, Any]] = {}
        self._anchors: dict[tuple[str, Any], datetime] = {}  # rate() without StartDate: first seen

    # ------------------------------------------------------------------ reading moto

    def schedules(self) -> list[dict[str, Any]]:
        """Every schedule in every group, in full (get_schedule), cached by last modification."""
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

    # ------------------------------------------------------------------ firing

    def advance(self, new: datetime) -> list[Fired]:
        """Fire, in order of scheduled time, everything due in (last, new]; the clock follows each fire."""
        with self._lock:
            old = self.last
            if new <= old:
                self.last = new
                self.clock.set(new)
                return []
            fired: list[Fired] = []
            done: set[tuple[str, datetime]] = set()
            cursor = old
            while True:
                due = self._earliest_due(old, cursor, new, done)
                if due is None:
                    break
                when, schedule = due
                done.add((schedule["Arn"], when))
                cursor = when
                self.clock.set(when)
                fired.append(self.fire(schedule, when))
            self.last = new
            self.clock.set(new)
            return fired

    def _earliest_due(
        self, old: datetime, cursor: datetime, new: datetime, done: set[tuple[str, datetime]]
    ) -> tuple[datetime, dict[str, Any]] | None:
        best: tuple[datetime, dict[str, Any]] | None = None
        for schedule in self.schedules():
            if schedule.get("State", "ENABLED") != "ENABLED":
                continue
            try:
                timing = self.timing(schedule, cursor)
                after = max(old, cursor - _EPSILON)
                when = next_fire(timing, after)
                while when is not None and (schedule["Arn"], when) in done:
                    when = next_fire(timing, when)
            except ExpressionError as err:
                log.warning("schedule %s never fires: %s", schedule.get("Name"), err)
                continue
            if when is None or when > new:
                continue
            if best is None or when < best[0]:
                best = (when, schedule)
        return best

    def fire(self, schedule: dict[str, Any], when: datetime) -> Fired:
        """Deliver one scheduled invocation to its target, as Scheduler would."""
        name, group, arn = schedule["Name"], schedule.get("GroupName", "default"), schedule["Arn"]
        target = schedule.get("Target", {})
        ok = self._deliver(schedule, target, when)
        if ScheduleTiming(schedule.get("ScheduleExpression", "")).one_time and (
            schedule.get("ActionAfterCompletion") == "DELETE"
        ):
            # the fire itself may have removed it already
            with contextlib.suppress(self.scheduler.exceptions.ResourceNotFoundException):
                self.scheduler.delete_schedule(Name=name, GroupName=group)
        log.info("fired %s/%s at %s ok=%s (%s)", group, name, when.isoformat(), ok, arn)
        return Fired(name, group, when, ok)

    def _deliver(self, schedule: dict[str, Any], target: dict[str, Any], when: datetime) -> bool:
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
                    return True
                spec = self.runtime.find(target_arn)
            except FunctionNotFound:
                error = f"Function not found: {target_arn}"
                continue
            outcome = self.runtime.invoke_event(spec, payload.encode())
            return outcome.result.ok
        dead_letter = (target.get("DeadLetterConfig") or {}).get("Arn")
        if dead_letter:
            body = fill_context(
                raw_input, arn=schedule["Arn"], scheduled=when, execution_id=str(uuid.uuid4()), attempt=1
            )
            self.send_to_queue(dead_letter, body)
        log.error("schedule %s could not invoke its target: %s", schedule.get("Name"), error)
        return False
