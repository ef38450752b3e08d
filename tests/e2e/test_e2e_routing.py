"""Threads and quick actions through the sandbox, as a bot in a thread drives them (webhook sink chat)."""

from __future__ import annotations

import pytest

from tests.support.sandbox import Bot, StartSandbox

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

ROOM = "!threads:localhost"
THREAD = "$root-event:localhost"


def test_reminder_and_agent_call_made_in_a_thread_come_back_in_it(start_sandbox: StartSandbox) -> None:
    sandbox = start_sandbox("--start", "2030-01-07T08:00:00Z")
    in_thread = Bot(sandbox, ROOM, thread_id=THREAD)
    main = Bot(sandbox, ROOM)
    reminder = in_thread.create(message="Reply to Marta", time="in 30 minutes")
    plain = main.create(message="Water the plants", time="in 40 minutes")
    created = in_thread.call(
        "cron_create", name="digest", prompt="Summarise the thread", fire_at="2030-01-07T08:50:00Z"
    )
    assert created["ok"], created

    listed = {s["id"]: s for s in main.call("list_reminders")["result"]["schedules"]}
    assert listed[reminder]["thread_id"] == THREAD
    assert listed[plain]["thread_id"] is None
    assert listed[created["result"]["id"]]["thread_id"] == THREAD

    main.advance(3600)
    messages = main.messages()
    assert [(m["thread_id"], m["text"].split(": ", 1)[-1].split("\n")[-1]) for m in messages] == [
        (THREAD, "Reply to Marta"),
        (None, "Water the plants"),
        (THREAD, "echo: Summarise the thread"),
    ]
    # a reminder carries its quick actions; a one-shot has no "skip next"; an agent answer has none
    assert messages[0]["actions"] == [  # naming the occurrence it delivered
        {
            "label": "Snooze 10 min",
            "tool": "snooze_reminder",
            "arguments": {"id": reminder, "minutes": 10, "occurrence": "2030-01-07T08:30:00Z"},
        }
    ]
    assert messages[2]["actions"] == []
    # each run's event names the thread its posts went to
    events = sandbox.get(f"/_sandbox/events?room_id={ROOM}")
    threads = {
        e["detail"]["schedule_id"]: e["detail"]["thread_id"] for e in events if e["detail_type"] == "Run Finished"
    }
    assert threads == {reminder: THREAD, plain: None, created["result"]["id"]: THREAD}


def test_a_delivered_reminders_snooze_action_forwarded_as_a_tool_call_delivers_it_again(
    start_sandbox: StartSandbox,
) -> None:
    sandbox = start_sandbox("--start", "2030-01-07T07:00:00Z")
    bot = Bot(sandbox, "!snooze:localhost", thread_id="$t:localhost")
    reminder = bot.create(message="Stand up and stretch", cron="0 9 * * *", locale="es")
    bot.advance(3600)
    (delivered,) = bot.messages()
    assert [a["tool"] for a in delivered["actions"]] == ["snooze_reminder", "skip_next"]
    assert delivered["actions"][0]["label"] == "Posponer 10 min"

    one_shot = bot.create(message="Call the bank", time="in 5 minutes")
    bot.advance(300)
    last = bot.messages()[-1]
    assert "Call the bank" in last["text"]
    (snooze,) = last["actions"]
    # the bot forwards the button's tool call with the room's own context
    answer = bot.call(snooze["tool"], **snooze["arguments"])
    assert answer["ok"], answer
    bot.advance(9 * 60)
    assert len(bot.messages()) == 2  # not yet
    bot.advance(60)
    again = bot.messages()[-1]
    assert "Call the bank" in again["text"] and again["ts"] == "2030-01-07T08:15:00Z"
    assert again["thread_id"] == "$t:localhost"
    listed = {s["id"]: s for s in bot.call("list_reminders", include_inactive=True)["result"]["schedules"]}
    assert listed[one_shot]["status"] == "fired" and listed[reminder]["status"] == "active"
