"""Repeat until done, then escalate, through the sandbox over virtual time, as a bot drives it in
English and in Spanish: the repeats run out and the escalation is posted once; the Done button (its
tool call forwarded with the room's context) stops every later repeat; both in the occurrence's thread."""

from __future__ import annotations

from typing import Any

import pytest

from tests.support.sandbox import Bot, StartSandbox

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

BOSS = "@boss:localhost"
THREAD = "$pills-thread:localhost"


def history(bot: Bot, sid: str) -> list[dict[str, Any]]:
    runs: list[dict[str, Any]] = bot.call("reminder_history", id=sid)["result"]["runs"]
    return runs


def test_repeats_run_out_and_the_escalation_is_posted_once_in_english(start_sandbox: StartSandbox) -> None:
    sandbox = start_sandbox("--start", "2030-01-07T08:00:00Z")  # Monday, 09:00 in Madrid
    bot = Bot(sandbox, "!pills:localhost", thread_id=THREAD)
    sid = bot.create(message="Take the pills", time="in 30 minutes", repeat_every=10, repeat_times=2, escalate_to=BOSS)
    fired = bot.advance(6 * 3600)  # through the day: nobody answers
    assert all(f["ok"] for f in fired), fired
    messages = bot.messages()
    assert len(messages) == 4, [m["text"] for m in messages]
    first, *repeats, escalation = messages
    assert "Take the pills" in first["text"] and next(a["tool"] for a in first["actions"]) == "done_reminder"
    assert [m["text"].splitlines()[-1] for m in repeats] == [
        "Reminder 1 of 2 more, until someone taps Done.",
        "Reminder 2 of 2 more, until someone taps Done.",
    ]
    assert BOSS in escalation["mentions"] and "Not acknowledged after 2 reminder(s)" in escalation["text"]
    assert {m["thread_id"] for m in messages} == {THREAD}  # all in the occurrence's thread
    stamps = [m["ts"] for m in messages]
    assert stamps == sorted(stamps)
    (run,) = history(bot, sid)
    assert (run["outcome"], run["repeats"], run["escalated"], run["acknowledged_at"]) == ("delivered", 2, True, None)
    events = sandbox.get(f"/_sandbox/events?room_id={bot.room_id}")
    assert [e["detail"]["repeats"] for e in events if e["detail_type"] == "Run Escalated"] == [2]
    assert not [n for n in bot.scheduler_client().list_schedules(GroupName="cronbell")["Schedules"] if sid in n["Name"]]


def test_the_done_button_stops_every_later_repeat_in_spanish(start_sandbox: StartSandbox) -> None:
    sandbox = start_sandbox("--start", "2030-01-07T08:00:00Z")
    bot = Bot(sandbox, "!pastillas:localhost")
    sid = bot.create(
        message="Tomar las pastillas", cron="0 10 * * *", repeat_every=15, repeat_times=6, escalate_to=BOSS, locale="es"
    )
    bot.advance(3600 + 20 * 60)  # 10:00 delivered, 10:15 repeated, now 10:20 in Madrid
    messages = bot.messages()
    assert len(messages) == 2 and messages[1]["text"].endswith(
        "Recordatorio 1 de 6 más, hasta que alguien pulse Hecho."
    )
    (done,) = [a for a in messages[1]["actions"] if a["tool"] == "done_reminder"]
    assert done["label"] == "Hecho" and done["arguments"] == {"id": sid}
    answer = bot.call(done["tool"], locale="es", **done["arguments"])  # the bot forwards the button's call
    assert answer["ok"] and answer["result"]["acknowledged"] is True and "Confirmado" in answer["text"]
    bot.advance(3 * 3600)
    assert len(bot.messages()) == 2  # no later repeat, no escalation
    (run,) = history(bot, sid)
    assert run["repeats"] == 1 and run["escalated"] is False and run["acknowledged_at"].startswith("2030-01-07T09:20")
    events = sandbox.get(f"/_sandbox/events?room_id={bot.room_id}")
    assert [e["detail"]["scheduled_time"] for e in events if e["detail_type"] == "Run Acknowledged"] == [
        "2030-01-07T10:00:00+01:00"
    ]
    bot.advance(22 * 3600 + 30 * 60)  # to 11:50 the next day: its occurrence repeats anew, then escalates
    texts = [m["text"] for m in bot.messages()]
    assert len(texts) == 2 + 1 + 6 + 1 and "Sin confirmar tras 6 recordatorio(s)" in texts[-1]
