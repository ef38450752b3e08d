"""Quiet hours through the sandbox over a virtual night, as a bot drives it in English and Spanish:
the reminders of two users in one room are held through each one's own night and each user gets one
message at the end of their period, listing what was held and mentioning them once; a one-shot a
user sets inside their own quiet hours is delivered on time; the runs say `quiet_hours`."""

from __future__ import annotations

from typing import Any

import pytest

from tests.support.sandbox import Bot, StartSandbox

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

ROOM = "!flat:localhost"
ANA, BOB = "@ana:localhost", "@bob:localhost"
MONDAY_NINE = "2030-01-07T08:00:00Z"  # 09:00 in Madrid


def runs(bot: Bot, sid: str, locale: str) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = bot.call("reminder_history", id=sid, locale=locale)["result"]["runs"]
    return found


def quiet(bot: Bot, start: str, end: str, locale: str) -> None:
    answer = bot.call("set_quiet_hours", locale=locale, start=start, end=end)
    assert answer["ok"], answer
    assert answer["result"]["quiet_hours"]["start"] == start and answer["result"]["next_period"] is not None


def night(start_sandbox: StartSandbox, locale: str, texts: dict[str, str]) -> tuple[Bot, Bot, dict[str, str]]:
    """Ana and Bob in one room: each sets reminders due in their night, then their quiet hours (Ana
    22:00-07:30, Bob 21:00-06:00, Madrid); Bob then sets a one-shot inside his own quiet hours."""
    sandbox = start_sandbox("--start", MONDAY_NINE)
    ana, bob = Bot(sandbox, ROOM, ANA), Bot(sandbox, ROOM, BOB)
    ids = {
        "plants": ana.create(message=texts["plants"], cron="0 23 * * *", locale=locale),
        "vet": ana.create(message=texts["vet"], time="2030-01-08T01:30:00+01:00", locale=locale),
        "cat": bob.create(message=texts["cat"], time="2030-01-08T00:15:00+01:00", locale=locale),
    }
    quiet(ana, "22:00", "07:30", locale)
    quiet(bob, "21:00", "06:00", locale)
    listed = {item["id"]: item for item in ana.call("list_reminders", locale=locale)["result"]["schedules"]}
    assert listed[ids["plants"]]["held_until"].startswith("2030-01-08T07:30:00")
    assert listed[ids["cat"]]["held_until"].startswith("2030-01-08T06:00:00")
    call = bob.call("create_reminder", locale=locale, message=texts["call"], time="2030-01-07T23:45:00+01:00")
    assert call["ok"] and call["result"]["held_until"] is None, call
    ids["call"] = call["result"]["id"]
    return ana, bob, ids


def check_night(ana: Bot, bob: Bot, ids: dict[str, str], texts: dict[str, str], locale: str) -> list[dict[str, Any]]:
    fired = ana.advance(24 * 3600)  # to Tuesday 09:00
    assert all(f["ok"] for f in fired), fired
    messages = ana.messages()
    assert len(messages) == 3, [m["text"] for m in messages]
    call, bob_release, ana_release = messages
    assert texts["call"] in call["text"] and call["ts"].startswith("2030-01-07T22:45")  # on time, 23:45 in Madrid
    assert bob_release["mentions"] == [BOB] and bob_release["text"].count("@bob") == 1
    assert texts["cat"] in bob_release["text"] and texts["vet"] not in bob_release["text"]
    assert bob_release["ts"].startswith("2030-01-08T05:00")  # 06:00 in Madrid
    assert ana_release["mentions"] == [ANA] and ana_release["text"].count("@ana") == 1
    assert ana_release["ts"].startswith("2030-01-08T06:30")  # 07:30 in Madrid
    text = ana_release["text"]
    assert text.index(texts["plants"]) < text.index(texts["vet"])  # oldest first: 23:00, then 01:30
    assert all(m["thread_id"] in ("", None) for m in (bob_release, ana_release))
    (plants,) = runs(ana, ids["plants"], locale)
    assert (plants["outcome"], plants["reason"]) == ("delivered", "quiet_hours")
    assert 8.5 * 3600 <= plants["late_seconds"] < 8.5 * 3600 + 120
    (cat,) = runs(bob, ids["cat"], locale)
    assert (cat["outcome"], cat["reason"]) == ("delivered", "quiet_hours")
    (on_time,) = runs(bob, ids["call"], locale)
    assert on_time["reason"] is None and on_time["outcome"] == "delivered"
    return messages


def test_two_users_held_through_their_nights_each_get_one_message_in_english(start_sandbox: StartSandbox) -> None:
    texts = {"plants": "Water the plants", "vet": "Call the vet", "cat": "Feed the cat", "call": "Night shift call"}
    ana, bob, ids = night(start_sandbox, "en", texts)
    check_night(ana, bob, ids, texts, "en")
    listed = {item["id"]: item for item in ana.call("list_reminders")["result"]["schedules"]}
    assert ids["vet"] not in listed or listed[ids["vet"]]["status"] == "fired"


def test_two_users_held_through_their_nights_each_get_one_message_in_spanish(start_sandbox: StartSandbox) -> None:
    texts = {"plants": "Regar las plantas", "vet": "Llamar al vet", "cat": "Dar de comer al gato", "call": "Turno"}
    ana, bob, ids = night(start_sandbox, "es", texts)
    messages = check_night(ana, bob, ids, texts, "es")
    for release in messages[1:]:
        assert "quiet hours" not in release["text"].lower() and "while you" not in release["text"].lower()
