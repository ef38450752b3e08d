"""Calling the tools use case in tests, and the store's invariants every tools test checks."""

from __future__ import annotations

import json
from typing import Any

from cronbell.core.domain.fire_event import parse_fire_event
from cronbell.usecases import fire as fire_uc
from cronbell.usecases import tools
from tests.support.aws import Stack
from tests.support.chat import RecordingChat
from tests.support.envelopes import ROOM, envelope
from tests.support.lambda_timing import at_slot


def call(stack: Stack, tool: str, args: dict[str, Any] | None = None, **kw: Any) -> dict[str, Any]:
    answer = tools.handle(envelope(tool, args, **kw), stack.deps())
    json.dumps(answer)  # always JSON
    return answer


def ok(answer: dict[str, Any]) -> dict[str, Any]:
    assert answer["ok"], answer
    return answer["result"]


def fire_at(stack: Stack, schedule_id: str, slot: str, chat: RecordingChat | None = None) -> dict[str, Any]:
    """Fire one of ROOM's schedules for `slot` with the clock at that slot, as Scheduler would."""
    event = {"room_id": ROOM, "reminder_id": schedule_id, "scheduled_time": slot}
    at_slot(stack.clock, event)
    sink = chat or RecordingChat()
    return fire_uc.fire(parse_fire_event(event, stack.clock.now()), stack.deps(chat=lambda: sink))


def slot_state(stack: Stack, schedule_id: str, slot: str) -> str:
    """A slot's state: its item's (claimed, sent, done, held), `done` for the run that retired its
    schedule (its retired copy's final run), `claimed` while its schedule's mark alone holds it (a
    stored schedule's claim writes the mark, not the slot), or "" for none of these."""
    items = {item["sk"]: item for item in stack.items()}
    if (item := items.get(f"f#{schedule_id}#{slot}")) is not None:
        return str(item["state"])
    if items.get(f"x#{schedule_id}", {}).get("final_run", {}).get("slot") == slot:
        return "done"  # the run that retired its schedule, kept on the retired copy
    mark = items.get(f"s#{schedule_id}", {})
    return "claimed" if mark.get("inflight_slot") == slot and mark.get("inflight_until") else ""


def schedule_item(stack: Stack, schedule_id: str) -> dict[str, Any]:
    """A schedule's item: live under `s#<id>` (its audit copy under `x#<id>` beside it), or, once
    retired (deleted, fired, missed...), its retired copy under `x#<id>`."""
    items = {i["sk"][:2]: i for i in stack.items() if i["sk"] in (f"s#{schedule_id}", f"x#{schedule_id}")}
    return items.get("s#") or items["x#"]


def live_items(stack: Stack) -> list[dict[str, Any]]:
    return [i for i in stack.items() if i["sk"].startswith("s#") and i["status"] in ("active", "paused")]


def assert_consistent(stack: Stack) -> None:
    """Invariant 1: every live item has all its Scheduler entries and every entry has a live item.
    Every live item holds its dedupe pointer, and no room counter counts fewer than the room's live
    items (a delete leaves it high until the room is recounted)."""
    entries = stack.entries()
    owned: set[str] = set()
    for item in live_items(stack):
        names = [item["id"]] + [f"{item['id']}-{i}" for i in range(2, len(item["expressions"]) + 1)]
        for name in names:
            assert name in entries, f"live item {item['id']} lacks entry {name}"
        owned.update(names)
        snoozes = item.get("snoozes") or []  # one-time entries; Scheduler removes each once it fired
        owned.update([f"{item['id']}-snooze"] + [f"{item['id']}-snooze-{i}" for i in range(2, len(snoozes) + 1)])
    assert set(entries) <= owned, f"entries without a live item: {set(entries) - owned}"
    rows = stack.items()
    counts: dict[str, int] = {}
    for item in live_items(stack):
        counts[item["room_id"]] = counts.get(item["room_id"], 0) + 1
    for row in rows:
        if row["sk"] == "room":
            assert int(row["live"]) >= counts.get(row["room_id"], 0), row
    pointers = {(r["room_id"], r["sk"][2:]): r["schedule_id"] for r in rows if r["sk"].startswith("d#")}
    for item in live_items(stack):
        assert pointers.get((item["room_id"], item["dedupe_key"])) == item["id"], f"{item['id']} lost its pointer"


def wait_on_its_delivery(stack: Stack, schedule_id: str, at: str) -> None:
    """A run started by hand at `at` (UTC) waits for the schedule's own delivery, as the manual fire that
    met that delivery leaves it (its time kept as the last manual run, and among those waiting)."""
    stack.ddb.update_item(
        TableName=stack.settings.table_name,
        Key={"room_id": {"S": ROOM}, "sk": {"S": f"s#{schedule_id}"}},
        UpdateExpression="SET last_manual_run = :w ADD manual_waiting :ws",
        ExpressionAttributeValues={":w": {"S": at}, ":ws": {"SS": [at]}},
    )
