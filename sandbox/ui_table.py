"""What the console reads from the schedule table beside the tools' answers, through the store the functions
use (cronbell.adapters.dynamo): each schedule's repeat settings (`repeat_every`, `repeat_times`, `escalate_to`),
which list_reminders does not show; the users with quiet hours in a room, whose rules the console then asks
get_quiet_hours for, as each of them would; and the occurrences quiet hours hold now, each waiting for the end
of its user's period (a list item's `held_until` names only the earliest release, not which occurrence waits)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from cronbell.adapters.dynamo import DynamoStore, codec
from cronbell.adapters.dynamo.held import HELD_PREFIX
from cronbell.core.domain.repeats import repeats


@dataclass(frozen=True)
class Held:
    """One occurrence held by its user's quiet hours (an `h#<user>#<until>#<schedule id>#<slot>` item)."""

    user_id: str
    until: str  # RFC3339 UTC: the end of the period that releases it
    schedule_id: str
    slot: str  # RFC3339 UTC: the occurrence's scheduled time


class TableReader:
    def __init__(self, client: Any, table_name: str) -> None:
        self.store = DynamoStore(client, table_name, retention_days=0)  # it only reads: no item gets a TTL here

    def repeat_settings(self, room_id: str, now: datetime) -> dict[str, dict[str, Any]]:
        """By schedule id, the settings of each schedule in the room that repeats until done: the same read
        as list_reminders with `include_inactive`."""
        return {
            s.id: {"repeat_every": s.repeat_every, "repeat_times": s.repeat_times, "escalate_to": s.escalate_to or None}
            for s in self.store.list_room(room_id, now, retired=True)
            if repeats(s)
        }

    def quiet_users(self, room_id: str) -> list[str]:
        """The users with quiet hours in the room, sorted."""
        return sorted(str(item["user_id"]) for item in self._prefixed(room_id, codec.QUIET))

    def held(self, room_id: str) -> list[Held]:
        """Every occurrence held now in the room, oldest first."""
        out = []
        for item in self._prefixed(room_id, HELD_PREFIX):
            schedule_id, slot = str(item["schedule_id"]), str(item["slot"])
            # the user id may hold any character: what is left once the known parts are cut off is it
            user_until = str(item["sk"])[len(HELD_PREFIX) : -len(f"#{schedule_id}#{slot}")]
            user_id, _, until = user_until.rpartition("#")
            out.append(Held(user_id, until, schedule_id, slot))
        return sorted(out, key=lambda h: (h.slot, h.schedule_id))

    def _prefixed(self, room_id: str, prefix: str) -> list[dict[str, Any]]:
        items = self.store.table.query_all(
            KeyConditionExpression="room_id = :r AND begins_with(sk, :p)",
            ExpressionAttributeValues=codec.dump({":r": room_id, ":p": prefix}),
        )
        return [codec.load(item) for item in items]
