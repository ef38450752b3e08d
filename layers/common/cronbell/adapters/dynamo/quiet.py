"""Quiet hours: each user's period rule in a room, one item beside the room's schedules
(codec.quiet_item), read, replaced and removed whole.

A reminder's fire reads its user's rule only when the schedule says the user has one
(`Schedule.quiet_hours_set`), so the rule's writes keep that true: the room's count item lists the
users with a rule, written in the same transaction as the rule (a create that read none takes its
place only while its user is not listed, so one racing a new rule is written again; a set and a clear
racing each other never leave a rule whose user is not listed), and a new rule then marks the
user's schedules in the room, each with a new version (a change written from an older read is
refused and made again on this one).
"""

from __future__ import annotations

from cronbell.adapters.aws import AwsError
from cronbell.adapters.dynamo import codec
from cronbell.adapters.dynamo.codec import dump, key
from cronbell.adapters.dynamo.rooms import Rooms
from cronbell.adapters.dynamo.table import CONDITION_FAILED, cancelled
from cronbell.core.domain import models
from cronbell.core.domain.quiet_hours import QuietHours


class QuietStore(Rooms):
    def quiet_hours(self, room_id: str, user_id: str) -> QuietHours | None:
        """The user's rule in the room (one consistent read), or None."""
        item = self._t.get(key(room_id, codec.quiet_sk(user_id)))
        return codec.quiet_from_item(item) if item is not None else None

    def put_quiet_hours(self, room_id: str, user_id: str, rule: QuietHours) -> None:
        """Write the rule, replacing any earlier one; list the user on the room, then mark the user's
        schedules in the room that do not say so yet (in this order: see the module's docstring)."""
        put = {"Put": {"TableName": self._t.name, "Item": codec.quiet_item(room_id, user_id, rule)}}
        self._t.transact([put, self.list_quiet(room_id, user_id, present=True)])
        self.mark_quiet_hours(room_id, user_id)

    def mark_quiet_hours(self, room_id: str, user_id: str) -> int:
        """Mark the user's reminders in the room that do not say yet that the user has quiet hours
        (each a new version); how many were marked."""
        unmarked = self._t.query_all(
            KeyConditionExpression="room_id = :r AND begins_with(sk, :p)",
            # a reminder's only: an agent call is never held (its fires read no rule)
            FilterExpression="user_id = :u AND #k = :m AND (attribute_not_exists(#q) OR #q = :no)",
            ProjectionExpression="sk",
            ExpressionAttributeNames={"#q": codec.QUIET_HOURS_SET, "#k": "kind"},
            ExpressionAttributeValues=dump(
                {":r": room_id, ":p": codec.SCHEDULE, ":u": user_id, ":m": models.MESSAGE, ":no": False}
            ),
            ConsistentRead=True,
        )
        marked = 0
        for item in unmarked:
            try:
                self._t.db.update_item(
                    TableName=self._t.name,
                    Key=key(room_id, str(item["sk"]["S"])),
                    UpdateExpression="SET #q = :yes ADD version :one",
                    ConditionExpression="attribute_exists(sk)",  # deleted meanwhile: nothing to mark
                    ExpressionAttributeNames={"#q": codec.QUIET_HOURS_SET},
                    ExpressionAttributeValues=dump({":yes": True, ":one": 1}),
                )
                marked += 1
            except AwsError as err:
                if err.code != CONDITION_FAILED:
                    raise
        return marked

    def clear_quiet_hours(self, room_id: str, user_id: str) -> bool:
        """Remove the rule and the user from the room's list in one transaction; True when there was
        one. The user's schedules keep their mark: their fires read the rule, find none and deliver."""
        delete = {
            "Delete": {
                "TableName": self._t.name,
                "Key": key(room_id, codec.quiet_sk(user_id)),
                "ConditionExpression": "attribute_exists(sk)",
            }
        }
        items = [delete, self.list_quiet(room_id, user_id, present=False)]
        try:
            self._t.transact(items)
        except AwsError as err:
            if cancelled(err, items):
                return False  # no rule: nothing to remove (and its user is not listed)
            raise
        return True
