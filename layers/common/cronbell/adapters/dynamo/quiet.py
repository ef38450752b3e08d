"""Quiet hours: each user's period rule in a room, one item beside the room's schedules
(codec.quiet_item), read, replaced and removed whole."""

from __future__ import annotations

from cronbell.adapters.dynamo import codec
from cronbell.adapters.dynamo.codec import key
from cronbell.adapters.dynamo.table import Part
from cronbell.core.domain.quiet_hours import QuietHours


class QuietStore(Part):
    def quiet_hours(self, room_id: str, user_id: str) -> QuietHours | None:
        """The user's rule in the room (one consistent read), or None."""
        item = self._t.get(key(room_id, codec.quiet_sk(user_id)))
        return codec.quiet_from_item(item) if item is not None else None

    def put_quiet_hours(self, room_id: str, user_id: str, rule: QuietHours) -> None:
        """Write the rule, replacing any earlier one."""
        self._t.db.put_item(TableName=self._t.name, Item=codec.quiet_item(room_id, user_id, rule))

    def clear_quiet_hours(self, room_id: str, user_id: str) -> bool:
        """Remove the rule; True when there was one."""
        out = self._t.db.delete_item(
            TableName=self._t.name, Key=key(room_id, codec.quiet_sk(user_id)), ReturnValues="ALL_OLD"
        )
        return bool(out.get("Attributes"))
