"""Occurrences held by quiet hours (docs/semantics.md, "Quiet hours"): the hold, in one transaction
with the slot and its schedule (whose `releases` gains the period's end, until the release's record
takes it out), and the release's claim.

Keys beside the room's schedules, which the listing (`s#`) never reads; the reconciler's scan finds
the held occurrences whose release entry was lost (scans.py):
  h#<user>#<until>#<schedule id>#<slot>  one occurrence held until the end of its user's period
  r#<user>#<until>                       the release of that period: claimed (and given back), then done;
                                         it counts the attempts at it
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from cronbell.adapters.aws import AwsError
from cronbell.adapters.dynamo import codec
from cronbell.adapters.dynamo.codec import BUMP, CLAIM_ONLY, CLAIMED, DONE, INFLIGHT, SlotRef, dump, key
from cronbell.adapters.dynamo.expressions import Update, recorded, same_version
from cronbell.adapters.dynamo.table import CONDITION_FAILED, Part, cancelled
from cronbell.core.domain.errors import Conflict, Released
from cronbell.core.domain.instants import iso_utc
from cronbell.core.domain.models import Schedule

HELD = "held"  # a slot's state while its occurrence waits for its release
OPEN = "open"  # a release's state once an attempt gave its claim back (a transient chat failure)
HELD_PREFIX, RELEASE_PREFIX = "h#", "r#"


def held_prefix(user_id: str, until: str) -> str:
    return f"{HELD_PREFIX}{user_id}#{until}#"


def release_of(raw: dict[str, Any]) -> tuple[str, str, str]:
    """The release (room, user, until) a held item (raw) waits for, or a release item is."""
    room, sk = raw["room_id"]["S"], raw["sk"]["S"]
    if sk.startswith(HELD_PREFIX):
        sk = sk.removesuffix(f"#{raw['schedule_id']['S']}#{raw['slot']['S']}")
    user, until = sk[len(HELD_PREFIX) :].rsplit("#", 1)
    return room, user, until


class HeldStore(Part):
    def hold_slot(self, schedule: Schedule, slot: str, now: datetime, until: str) -> None:
        """The claimed slot held until `until`, the occurrence counted on its schedule (as a delivery
        counts) and the held item written, in one transaction, while the period's release has not
        begun (or gave its claim back); Conflict when the schedule changed, Released when the release
        began or is done (nothing is written: what it reads as held is final)."""
        ref = SlotRef(schedule.room_id, schedule.id, slot)
        held = Update().clause("#st = :held", held=HELD).set("outcome", HELD).set("held_until", until)
        held.clause("expires_at = if_not_exists(expires_at, :exp)", exp=self._t.expires(now)).remove(CLAIM_ONLY)
        slot_update = {  # a stored schedule's claim is on its item: the slot has none, or a dead claim's
            "TableName": self._t.name,
            "Key": ref.key,
            **held.request("attribute_not_exists(sk) OR #st = :claimed", {"#st": "state"}, {":claimed": CLAIMED}),
        }
        unchanged, version = same_version(schedule)
        count = Update().clause("delivered_count = if_not_exists(delivered_count, :z) + :one", z=0, one=1)
        count.clause(BUMP).remove(INFLIGHT).add(codec.RELEASES, {until})  # answers say it is held until then
        recorded(count, slot)
        record = {
            "TableName": self._t.name,
            "Key": codec.item_key(schedule),
            **count.request(
                f"attribute_exists(sk) AND {unchanged} AND inflight_slot = :held_slot",
                values={**version, ":held_slot": slot},
            ),
        }
        item = {
            "room_id": schedule.room_id,
            "sk": f"{held_prefix(schedule.user_id, until)}{schedule.id}#{slot}",
            "schedule_id": schedule.id,
            "slot": slot,
            "expires_at": self._t.expires(now),
        }
        not_begun = {
            "TableName": self._t.name,
            "Key": key(schedule.room_id, f"{RELEASE_PREFIX}{schedule.user_id}#{until}"),
            "ConditionExpression": "attribute_not_exists(sk) OR #st = :open",
            "ExpressionAttributeNames": {"#st": "state"},
            "ExpressionAttributeValues": dump({":open": OPEN}),
        }
        items = [
            {"Update": slot_update},
            {"Update": record},
            {"Put": {"TableName": self._t.name, "Item": dump(item)}},
            {"ConditionCheck": not_begun},
        ]
        try:
            self._t.transact(items)
        except AwsError as err:
            failed = cancelled(err, items)
            if codec.identity(items[3]) in failed:
                raise Released(until) from err
            if failed:
                raise Conflict(schedule.id) from err
            raise

    def held(self, room_id: str, user_id: str, until: str) -> list[tuple[str, str]]:
        """The (schedule id, slot) of each occurrence held for the user until `until`, oldest first."""
        out = self._t.db.query(
            TableName=self._t.name,
            KeyConditionExpression="room_id = :r AND begins_with(sk, :p)",
            ExpressionAttributeValues=dump({":r": room_id, ":p": held_prefix(user_id, until)}),
            ConsistentRead=True,
        )
        found = [codec.load(raw) for raw in out.get("Items", [])]
        return sorted(((str(f["schedule_id"]), str(f["slot"])) for f in found), key=lambda held: held[1])

    def drop_held(self, room_id: str, user_id: str, until: str, schedule_id: str, slot: str) -> None:
        sk = f"{held_prefix(user_id, until)}{schedule_id}#{slot}"
        self._t.db.delete_item(TableName=self._t.name, Key=key(room_id, sk))

    def claim_release(self, room_id: str, user_id: str, until: str, now: datetime, lease_seconds: int) -> int:
        """Claim the release of (user, until): the number of this attempt at it (1 for the first), or
        0 when it is done or claimed by an attempt whose lease is not over. A crashed attempt's claim
        is taken over once its lease ends; a claim given back keeps the count of attempts."""
        values = {
            ":claimed": CLAIMED,
            ":open": OPEN,
            ":t": iso_utc(now),
            ":lease": iso_utc(now + timedelta(seconds=lease_seconds)),
            ":exp": self._t.expires(now),
            ":one": 1,
        }
        try:
            out = self._t.db.update_item(
                TableName=self._t.name,
                Key=key(room_id, f"{RELEASE_PREFIX}{user_id}#{until}"),
                UpdateExpression="SET #st = :claimed, lease_until = :lease, expires_at = :exp ADD attempts :one",
                ConditionExpression="attribute_not_exists(sk) OR #st = :open OR (#st = :claimed AND lease_until < :t)",
                ExpressionAttributeNames={"#st": "state"},
                ExpressionAttributeValues=dump(values),
                ReturnValues="UPDATED_NEW",
            )
        except AwsError as err:
            if err.code == CONDITION_FAILED:
                return 0
            raise
        return int(codec.load(out.get("Attributes") or {}).get("attempts") or 1)

    def release_held_until(self, room_id: str, user_id: str, until: str) -> datetime | None:
        """When the claim on a release ends (its lease), or None when it is not claimed (done, or given back)."""
        found = self._t.db.get_item(
            TableName=self._t.name, Key=key(room_id, f"{RELEASE_PREFIX}{user_id}#{until}"), ConsistentRead=True
        ).get("Item")
        return codec.lease_from_item(found or {})

    def end_release(self, room_id: str, user_id: str, until: str, done: bool) -> None:
        """The release done, or (`done` False) its claim given back, its attempts counted, so that a
        retry claims it and knows which attempt it is."""
        self._t.db.update_item(
            TableName=self._t.name,
            Key=key(room_id, f"{RELEASE_PREFIX}{user_id}#{until}"),
            UpdateExpression="SET #st = :state",
            ExpressionAttributeNames={"#st": "state"},
            ExpressionAttributeValues=dump({":state": DONE if done else OPEN}),
        )
