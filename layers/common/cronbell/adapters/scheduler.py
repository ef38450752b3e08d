"""EventBridge Scheduler gateway: creates and removes the entries that fire a schedule."""

from __future__ import annotations

from copy import copy as copy_of
from datetime import datetime
from typing import Any

from cronbell.adapters.aws import AwsError, Translating, translated
from cronbell.core.domain import models
from cronbell.core.domain.fire_event import fires, release_input, repeat_input, scheduler_input
from cronbell.core.domain.instants import iso_utc, parse_iso
from cronbell.core.domain.models import Entry, Schedule
from cronbell.core.domain.ports import EntryState

# Scheduler retries failures to invoke the fire function (throttling, permissions); after
# this many attempts or this age the event goes to the dead-letter queue.
RETRY_POLICY = {"MaximumRetryAttempts": 20, "MaximumEventAgeInSeconds": 3600}


_WRITTEN = "written "


_NOT_FOUND = "ResourceNotFoundException"


def _input(entry: Entry, schedule: Schedule) -> str:
    if entry.release_user:
        return release_input(schedule.room_id, entry.release_user, entry.release_until)
    if entry.repeat:
        return repeat_input(schedule.room_id, schedule.id, entry.repeat_of, entry.repeat)
    return scheduler_input(schedule.room_id, schedule.id)


def _enabled(entry: Entry, schedule: Schedule) -> bool:
    """An active schedule's entry fires; a repeat goes on after a one-shot fired (or a recurrence
    completed): only a pause stops it; a release posts what was held whatever became of the schedules."""
    return schedule.status == models.ACTIVE or bool(entry.repeat) or bool(entry.release_user)


class SchedulerGateway:
    """The `cronbell.core.domain.ports.Entries` on EventBridge Scheduler; failures arrive as AwsError."""

    def __init__(self, client: Any, group: str, target_arn: str, role_arn: str, dlq_arn: str) -> None:
        self._client = Translating(client)
        self._group = group
        self._target_arn = target_arn
        self._role_arn = role_arn
        self._dlq_arn = dlq_arn

    @property
    def target_arn(self) -> str:
        """The function the entries written here invoke."""
        return self._target_arn

    def targeting(self, target_arn: str) -> SchedulerGateway:
        """The same gateway writing entries that invoke `target_arn` (the fire function's own ARN)."""
        copy = copy_of(self)
        copy._target_arn = target_arn
        return copy

    def put_entry(self, entry: Entry, schedule: Schedule, now: datetime, *, new: bool = False) -> bool:
        """Write one of a schedule's entries: CreateSchedule when `new` (a duplicate name fails),
        else create-or-replace. UpdateSchedule resets whatever it is not given, so every write
        sends the whole definition. The description records when cronbell wrote it, on its clock.
        True when an entry of that name was there and is replaced; False when it is created."""
        target: dict[str, Any] = {
            "Arn": self._target_arn,
            "RoleArn": self._role_arn,
            "Input": _input(entry, schedule),
            "RetryPolicy": RETRY_POLICY,
        }
        if self._dlq_arn:
            target["DeadLetterConfig"] = {"Arn": self._dlq_arn}
        definition: dict[str, Any] = {
            "Name": entry.name,
            "GroupName": self._group,
            "ScheduleExpression": entry.expression,
            "ScheduleExpressionTimezone": entry.timezone,
            "FlexibleTimeWindow": {"Mode": "OFF"},
            "State": "ENABLED" if _enabled(entry, schedule) else "DISABLED",
            "ActionAfterCompletion": "DELETE" if entry.one_time else "NONE",
            "Description": f"cronbell {schedule.kind} in {schedule.room_id}; {_WRITTEN}{iso_utc(now)}"[:512],
            "Target": target,
        }
        if entry.end_date is not None:
            definition["EndDate"] = entry.end_date
        if new:
            self._client.create_schedule(**definition)
            return False
        try:
            self._client.update_schedule(**definition)
        except AwsError as err:
            if err.code != _NOT_FOUND:
                raise
            self._client.create_schedule(**definition)
            return False
        return True

    def written_at(self, name: str) -> datetime | None:
        """When cronbell last wrote this entry (None if it is gone or not one of ours)."""
        try:
            entry = self._client.get_schedule(Name=name, GroupName=self._group)
        except AwsError as err:
            if err.code == _NOT_FOUND:
                return None
            raise
        description = entry.get("Description") or ""
        if _WRITTEN in description:
            try:
                return parse_iso(description.rsplit(_WRITTEN, 1)[1].strip())
            except ValueError:
                pass
        stamp = entry.get("LastModificationDate") or entry.get("CreationDate")
        return stamp if isinstance(stamp, datetime) else None

    def list_entries(self) -> list[EntryState]:
        """Every entry in the group: name, state and creation time (one ListSchedules page per 100)."""
        pages = self._client.get_paginator("list_schedules").paginate(GroupName=self._group)
        return [
            EntryState(item["Name"], item.get("State", "ENABLED"))
            for page in translated(list, pages)
            for item in page.get("Schedules", [])
        ]

    def delete_if_fires(self, name: str, room_id: str, schedule_id: str) -> bool:
        """Delete an entry only if its Input fires this (room, schedule): an Input with a room
        that does not own the id must never remove another room's entries."""
        try:
            entry = self._client.get_schedule(Name=name, GroupName=self._group)
        except AwsError as err:
            if err.code == _NOT_FOUND:
                return False
            raise
        if not fires(entry.get("Target", {}).get("Input") or "", room_id, schedule_id):
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
