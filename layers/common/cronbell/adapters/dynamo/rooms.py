"""The room's live count and its pointers (dedupe keys, names): the parts of a transaction that
take or free a place under the room's limit and claim a key of the room.

`live` is an upper bound, never below the true count, so the limit always holds: a user's delete
and a fire's retirement after a delivery leave it high, and a create that finds the room full
recounts it (a consistent query, stored only if `rev` has not moved). A pointer naming a schedule
no longer live is taken over by the next identical create; the reconciler removes the rest."""

from __future__ import annotations

from typing import Any

from cronbell.adapters.aws import AwsError
from cronbell.adapters.dynamo import codec
from cronbell.adapters.dynamo.codec import ROOM_SK, dump, key
from cronbell.adapters.dynamo.table import CONDITION_FAILED, Part
from cronbell.core.domain.models import Schedule
from cronbell.core.domain.ports import RoomCount

_COUNT_IN = "SET live = if_not_exists(live, :zero) + :one, rev = if_not_exists(rev, :zero) + :one"
_COUNT_OUT = "SET live = if_not_exists(live, :one) - :one, rev = if_not_exists(rev, :zero) + :one"


class Rooms(Part):
    def take_place(self, room: str, max_per_room: int, without_quiet_hours: str = "") -> dict[str, Any]:
        """Count one more live schedule in the room, unless it is at its limit, or the user
        `without_quiet_hours` (whose rule the caller read as absent) has set quiet hours since."""
        condition = "(attribute_not_exists(live) OR live < :max)"
        values: dict[str, Any] = {":zero": 0, ":one": 1, ":max": max_per_room}
        if without_quiet_hours:
            condition += f" AND NOT contains({codec.QUIET_USERS}, :user)"
            values[":user"] = without_quiet_hours
        return {
            "Update": {
                "TableName": self._t.name,
                "Key": key(room, ROOM_SK),
                "UpdateExpression": _COUNT_IN,
                "ConditionExpression": condition,
                "ExpressionAttributeValues": dump(values),
                "ReturnValuesOnConditionCheckFailure": "ALL_OLD",
            }
        }

    def list_quiet(self, room: str, user_id: str, present: bool) -> dict[str, Any]:
        """Add the user to the room's users with quiet hours, or take them out: a part of the
        transaction that writes or removes their rule, so the list and the rules always agree."""
        return {
            "Update": {
                "TableName": self._t.name,
                "Key": key(room, ROOM_SK),
                "UpdateExpression": f"{'ADD' if present else 'DELETE'} {codec.QUIET_USERS} :user",
                "ExpressionAttributeValues": {":user": {"SS": [user_id]}},
            }
        }

    def free(self, schedule: Schedule) -> list[dict[str, Any]]:
        """Count one less in the room and drop the schedule's pointers."""
        room = schedule.room_id
        count_out = {
            "Update": {
                "TableName": self._t.name,
                "Key": key(room, ROOM_SK),
                "UpdateExpression": _COUNT_OUT,
                "ExpressionAttributeValues": dump({":one": 1, ":zero": 0}),
            }
        }
        return [count_out, *(self.drop(room, sk) for sk in codec.pointer_sks(schedule))]

    def drop(self, room: str, sk: str) -> dict[str, Any]:
        return {"Delete": {"TableName": self._t.name, "Key": key(room, sk)}}

    def point(self, sk: str, schedule: Schedule, stale: dict[str, str]) -> dict[str, Any]:
        """Point a key of the room (`sk`: a dedupe key, a name) at the schedule, unless the key is
        held (by another schedule than `stale[sk]`, one found no longer live)."""
        condition = "attribute_not_exists(sk)"
        values: dict[str, Any] = {}
        if sk in stale:
            condition += " OR schedule_id = :stale"
            values = {"ExpressionAttributeValues": dump({":stale": stale[sk]})}
        return {
            "Put": {
                "TableName": self._t.name,
                "Item": codec.pointer_item(schedule.room_id, sk, schedule.id),
                "ConditionExpression": condition,
                "ReturnValuesOnConditionCheckFailure": "ALL_OLD",
                **values,
            }
        }

    def room_count(self, room_id: str) -> RoomCount | None:
        return codec.room_count(self._t.get(key(room_id, ROOM_SK)) or {})

    def recount(self, room_id: str, seen: RoomCount | None) -> int | None:
        """Count the room's live schedules with a consistent read, and store the count unless the
        counter moved since `seen` was read (any create, fire or earlier recount bumps `rev`).
        Returns the count, or None when the counter moved (count again, or let the caller retry)."""
        raw = self._t.query_all(
            KeyConditionExpression="room_id = :r AND begins_with(sk, :p)",
            ProjectionExpression="#s",
            ExpressionAttributeNames={"#s": "status"},
            ExpressionAttributeValues=dump({":r": room_id, ":p": codec.SCHEDULE}),
            ConsistentRead=True,
        )
        live = sum(1 for item in raw if codec.says_live(item))
        if (seen.live if seen else 0) == live:
            return live
        values: dict[str, Any] = {}
        if seen is None:
            condition = "attribute_not_exists(live)"
        elif seen.rev is None:
            condition = "attribute_not_exists(rev)"
        else:
            condition, values = "rev = :rev", {":rev": seen.rev}
        try:
            self._t.db.update_item(
                TableName=self._t.name,
                Key=key(room_id, ROOM_SK),
                UpdateExpression="SET live = :n, rev = if_not_exists(rev, :zero) + :one",
                ConditionExpression=condition,
                ExpressionAttributeValues=dump({":n": live, ":zero": 0, ":one": 1, **values}),
            )
        except AwsError as err:
            if err.code == CONDITION_FAILED:
                return None
            raise
        return live
