"""What a listing and a history say of each item: how an ended schedule ended and its last run (with
`include_inactive`: it said "no fire to come" alike of a delivered one-shot, one the chat refused and a deleted
one), an item's zone when it is not the one the answer's `now` names, and a run started by hand."""

from __future__ import annotations

from tests.support.chat import PermanentChatError
from tests.support.memory_stack import MemoryStack


def test_ended_schedules_are_listed_with_their_status_and_last_run_in_both_languages() -> None:
    stack = MemoryStack()
    delivered = stack.call("create_reminder", {"message": "water the plants", "time": "2026-11-30 10:00"})
    refused = stack.call("create_reminder", {"message": "call the bank", "time": "2026-11-30 11:00"})
    deleted = stack.call("create_reminder", {"message": "buy bread", "time": "2026-11-30 12:00"})
    stack.fire(delivered["result"]["id"], delivered["result"]["next_fire"]["utc"])
    stack.chat.fail_with = PermanentChatError("unknown_workspace", room_gone=True)
    stack.fire(refused["result"]["id"], refused["result"]["next_fire"]["utc"])
    stack.call("delete_reminder", {"id": deleted["result"]["id"]})

    text = stack.call("list_reminders", {"include_inactive": True})["text"]
    assert "no fire to come" not in text
    assert (
        f"{delivered['result']['id']} “water the plants”, `fired`; last run Monday 30 November, 10:00: delivered"
        in text
    )
    assert "`delivery_failed`; last run Monday 30 November, 11:00: failed (`chat_refused`)" in text
    assert f"{deleted['result']['id']} “buy bread”, `deleted`" in text
    es = stack.call("list_reminders", {"include_inactive": True}, locale="es")["text"]
    assert "estado `fired`; última ejecución:" in es and "estado `deleted`" in es


def test_an_item_in_another_zone_than_the_answers_now_names_its_zone() -> None:
    stack = MemoryStack()
    ny = stack.call("create_reminder", {"message": "standup", "cron": "0 9 * * 1-5"}, timezone="America/New_York")
    here = stack.call("create_reminder", {"message": "lunch", "cron": "0 13 * * *"}, timezone="Europe/Madrid")
    text = stack.call("list_reminders", {}, timezone="Europe/Madrid")["text"]
    assert f"{ny['result']['id']} “standup”, next Monday 30 November, 09:00 (America/New_York)" in text
    assert f"{here['result']['id']} “lunch”, next Monday 30 November, 13:00." in text  # the answer's own zone
    assert "(Europe/Madrid)." in text  # named once, by `now`


def test_a_history_says_which_runs_were_started_by_hand() -> None:
    stack = MemoryStack()
    sid = stack.call("create_reminder", {"message": "digest", "cron": "0 9 * * *"})["result"]["id"]
    assert stack.call("run_now", {"kind": "cron", "target": sid})["ok"]
    stack.fire_event(stack.started.pop())
    text = stack.call("reminder_history", {"id": sid})["text"]
    assert "delivered, started by hand (run_now)" in text
    assert "iniciada a mano (run_now)" in stack.call("reminder_history", {"id": sid}, locale="es")["text"]
