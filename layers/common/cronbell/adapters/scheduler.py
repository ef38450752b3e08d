"""EventBridge Scheduler gateway: writes and removes the entries the projection asks for."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from cronbell.adapters.aws import AwsError, Translating, translated
from cronbell.core.domain.errors import EntryRefused
from cronbell.core.domain.fire_event import fires
from cronbell.core.domain.instants import iso_utc, parse_iso
from cronbell.core.domain.ports import EntryState

if TYPE_CHECKING:  # read by the projector only: the other functions never load the projection for it
    from cronbell.core.domain.projection import Target

# Scheduler retries failures to invoke the fire function (throttling, permissions); after
# this many attempts or this age the event goes to the dead-letter queue.
RETRY_POLICY = {"MaximumRetryAttempts": 20, "MaximumEventAgeInSeconds": 3600}
_WRITTEN = "written "
_NOT_FOUND = "ResourceNotFoundException"
_EXISTS = "ConflictException"
# what Scheduler answers to an entry it will never take as it is (anything else may pass on a retry)
_REFUSALS = ("ValidationException", "ServiceQuotaExceededException")
_ANY_TIME = datetime.fromtimestamp(0, UTC)


class SchedulerGateway:
    """The `cronbell.core.domain.ports.Entries` on EventBridge Scheduler; failures arrive as AwsError
    (EntryRefused when Scheduler refuses the entry itself)."""

    def __init__(self, client: Any, group: str, target_arn: str, role_arn: str, dlq_arn: str) -> None:
        self._client = Translating(client)
        self._group = group
        self._target_arn = target_arn
        self._role_arn = role_arn
        self._dlq_arn = dlq_arn

    def definition(self, target: Target, now: datetime) -> dict[str, Any]:
        """The whole definition of an entry (UpdateSchedule resets whatever it is not given). The
        description records when cronbell wrote it, on its clock."""
        entry = target.entry
        fired: dict[str, Any] = {
            "Arn": self._target_arn,
            "RoleArn": self._role_arn,
            "Input": target.input,
            "RetryPolicy": RETRY_POLICY,
        }
        if self._dlq_arn:
            fired["DeadLetterConfig"] = {"Arn": self._dlq_arn}
        definition: dict[str, Any] = {
            "Name": entry.name,
            "GroupName": self._group,
            "ScheduleExpression": entry.expression,
            "ScheduleExpressionTimezone": entry.timezone,
            "FlexibleTimeWindow": {"Mode": "OFF"},
            "State": "ENABLED" if target.enabled else "DISABLED",
            "ActionAfterCompletion": "DELETE" if entry.one_time else "NONE",
            "Description": f"cronbell {target.kind} in {target.room_id}; {_WRITTEN}{iso_utc(now)}"[:512],
            "Target": fired,
        }
        if entry.end_date is not None:
            definition["EndDate"] = entry.end_date
        return definition

    def put(self, target: Target, now: datetime, exists: bool = True) -> None:
        """Create or replace one entry with its whole definition, one call when `exists` says right
        whether Scheduler has it (the other call follows when it is wrong: a change delivered again)."""
        definition = self.definition(target, now)
        first, then, wrong = (
            (self._client.update_schedule, self._client.create_schedule, _NOT_FOUND)
            if exists
            else (self._client.create_schedule, self._client.update_schedule, _EXISTS)
        )
        try:
            try:
                first(**definition)
            except AwsError as err:
                if err.code != wrong:
                    raise
                then(**definition)
        except AwsError as err:
            if err.code in _REFUSALS:
                raise EntryRefused(str(err)) from err
            raise

    def drift(self, target: Target) -> str:
        """How Scheduler's entry differs from `target`: "" when it matches in expression, zone,
        state, Input, target, kind and end; "missing" when there is none; else what differs."""
        found = self._get(target.name)
        if found is None:
            return "missing"
        wanted = self.definition(target, _ANY_TIME)  # the description is not compared
        for field in ("ScheduleExpression", "ScheduleExpressionTimezone", "State", "ActionAfterCompletion"):
            if (found.get(field) or _DEFAULTS.get(field)) != wanted[field]:
                return field
        if (found.get("Target") or {}).get("Input") != wanted["Target"]["Input"]:
            return "Input"
        if (found.get("Target") or {}).get("Arn") != wanted["Target"]["Arn"]:
            return "Target"
        if not _same_instant(found.get("EndDate"), wanted.get("EndDate")) or found.get("StartDate") is not None:
            return "EndDate" if not _same_instant(found.get("EndDate"), wanted.get("EndDate")) else "StartDate"
        return ""

    def _get(self, name: str) -> dict[str, Any] | None:
        try:
            found: dict[str, Any] = self._client.get_schedule(Name=name, GroupName=self._group)
        except AwsError as err:
            if err.code == _NOT_FOUND:
                return None
            raise
        return found

    def written_at(self, name: str) -> datetime | None:
        """When cronbell last wrote this entry (None if it is gone or not one of ours)."""
        entry = self._get(name)
        if entry is None:
            return None
        description = entry.get("Description") or ""
        if _WRITTEN in description:
            try:
                return parse_iso(description.rsplit(_WRITTEN, 1)[1].strip())
            except ValueError:
                pass
        stamp = entry.get("LastModificationDate") or entry.get("CreationDate")
        return stamp if isinstance(stamp, datetime) else None

    def list_entries(self) -> list[EntryState]:
        """Every entry in the group: name and state (one ListSchedules page per 100)."""
        pages = self._client.get_paginator("list_schedules").paginate(GroupName=self._group)
        return [
            EntryState(item["Name"], item.get("State", "ENABLED"))
            for page in translated(list, pages)
            for item in page.get("Schedules", [])
        ]

    def delete_if_fires(self, name: str, room_id: str, schedule_id: str) -> bool:
        """Delete an entry only if its Input fires this (room, schedule): an Input with a room
        that does not own the id must never remove another room's entries."""
        entry = self._get(name)
        if entry is None or not fires(entry.get("Target", {}).get("Input") or "", room_id, schedule_id):
            return False
        return self.delete(name)

    def delete(self, name: str) -> bool:
        """Remove an entry. False when it was already gone (a fired one-shot deletes itself)."""
        try:
            self._client.delete_schedule(Name=name, GroupName=self._group)
        except AwsError as err:
            if err.code == _NOT_FOUND:
                return False
            raise
        return True


_DEFAULTS = {"State": "ENABLED", "ActionAfterCompletion": "NONE", "ScheduleExpressionTimezone": "UTC"}


def _same_instant(a: Any, b: Any) -> bool:
    if a is None or b is None:
        return a is None and b is None
    return bool(a == b)
