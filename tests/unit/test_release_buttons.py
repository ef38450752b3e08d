"""The quiet-hours release's buttons: one row per reminder it lists, each button numbered after its
line, on every platform with buttons, within each platform's limits."""

from __future__ import annotations

from cronbell.adapters.chat.discord import discord_payload
from cronbell.adapters.chat.slack import slack_payload
from cronbell.adapters.chat.telegram import telegram_payload
from cronbell.core.domain.actions import decode
from cronbell.core.text.action_labels import reminder_actions
from cronbell.core.text.chat_text import button_rows, release_message

ROOM, USER = "C0123", "U0ANA"


def items(count: int) -> list[tuple[str, str, tuple]]:
    """`count` held reminders, each recurring: snooze and skip naming its occurrence."""
    return [
        (
            f"Reminder {n}",
            "Monday 30 November, 23:00",
            reminder_actions(f"id{n}", True, "en", "2026-11-30T22:00:00Z", "2026-12-01T22:00:00Z"),
        )
        for n in range(1, count + 1)
    ]


def test_one_held_reminder_keeps_its_plain_labels_and_its_bullet() -> None:
    message = release_message(ROOM, USER, items(1), "en")
    assert "\n• Reminder 1 (" in message.text
    assert [a.label for a in message.actions] == ["Snooze 10 min", "Skip next"]


def test_several_are_numbered_and_each_platform_gives_each_a_row() -> None:
    message = release_message(ROOM, USER, items(2), "en")
    assert "\n1. Reminder 1 (" in message.text and "\n2. Reminder 2 (" in message.text
    assert message.text.count("@") == 1 and message.mentions == (USER,)
    slack = slack_payload(message)["blocks"]
    assert [b["type"] for b in slack] == ["section", "actions", "actions"]
    assert [[e["text"]["text"] for e in b["elements"]] for b in slack[1:]] == [
        ["1 · Snooze 10 min", "1 · Skip next"],
        ["2 · Snooze 10 min", "2 · Skip next"],
    ]
    assert len({e["action_id"] for b in slack[1:] for e in b["elements"]}) == 4
    assert len({b["block_id"] for b in slack[1:]}) == 2
    keyboard = telegram_payload(message)["reply_markup"]["inline_keyboard"]
    assert [[decode(b["callback_data"])["arguments"]["id"] for b in row] for row in keyboard] == [
        ["id1", "id1"],
        ["id2", "id2"],
    ]
    rows = discord_payload(message)["components"]
    assert [[b["label"] for b in row["components"]] for row in rows] == [
        ["1 · Snooze 10 min", "1 · Skip next"],
        ["2 · Snooze 10 min", "2 · Skip next"],
    ]


def test_buttons_beyond_a_platforms_limits_are_left_out_and_the_text_lists_everyone() -> None:
    message = release_message(ROOM, USER, items(7), "en")
    assert "\n7. Reminder 7 (" in message.text
    rows = discord_payload(message)["components"]
    assert len(rows) == 5 and all(len(row["components"]) <= 5 for row in rows)  # Discord's limits
    assert len(telegram_payload(message)["reply_markup"]["inline_keyboard"]) == 7
    wide = release_message(ROOM, USER, [("x", "y", tuple(items(1)[0][2] * 4))], "en").actions
    assert [len(row) for row in button_rows(wide, 5, 5)] == [5, 3]  # a row wider than allowed is split
