"""Repeat until done as the answers show it: what create_reminder and update_reminder set is in their
result and in list_reminders, so a model can check it as docs/skill.md asks ("Check the answer")."""

from __future__ import annotations

from dataclasses import replace

from tests.support.memory_stack import MemoryStack

REPEATS = ("repeat_every", "repeat_times", "escalate_to")


def test_the_repeat_settings_are_in_the_answers_and_the_list_once_set_and_gone_once_removed() -> None:
    stack = MemoryStack()
    made = stack.call("create_reminder", {"message": "Take the pills", "time": "in 2 hours"})
    assert made["ok"] and not set(REPEATS) & set(made["result"])  # none set: none shown
    sid = made["result"]["id"]
    changed = stack.call(
        "update_reminder", {"id": sid, "repeat_every": 15, "repeat_times": 3, "escalate_to": "@boss:x"}
    )
    assert changed["ok"], changed
    expected = {"repeat_every": 15, "repeat_times": 3, "escalate_to": "@boss:x"}
    assert {k: changed["result"][k] for k in REPEATS} == expected
    (listed,) = stack.call("list_reminders")["result"]["schedules"]
    assert {k: listed[k] for k in REPEATS} == expected
    stack.call("update_reminder", {"id": sid, "repeat_every": 0})
    (listed,) = stack.call("list_reminders")["result"]["schedules"]
    assert not set(REPEATS) & set(listed)


def test_an_escalation_to_a_room_not_allowed_is_refused_as_an_escalation_and_nothing_changes() -> None:
    """`escalate_to` is a user to mention or an allowed output room; the refusal said only where answers may
    go, which reads as if the reminder's own posts were refused."""
    stack = MemoryStack()
    made = stack.call("create_reminder", {"message": "x", "cron": "0 9 * * *"})["result"]
    for target in ("<!channel>", "#general", "!other:example.org"):
        refused = stack.call("update_reminder", {"id": made["id"], "repeat_every": 15, "escalate_to": target})
        assert refused["error"]["code"] == "forbidden_channel"
        assert refused["error"]["details"]["argument"] == "escalate_to"
        assert f"escalate_to {target!r} is neither a user to mention" in refused["error"]["message"]
    listed = stack.call("list_reminders")["result"]["schedules"][0]
    assert "repeat_every" not in listed and "escalate_to" not in listed


def test_an_escalation_room_is_a_room_of_the_callers_own_platform_never_of_another() -> None:
    """AllowedOutputRooms names `slack:C9`: a Discord or webhook caller's `escalate_to` could post there
    (and `channel` could not), so a bot on one platform was made to post on another by its model."""
    stack = MemoryStack()
    stack.settings = replace(stack.settings, chat_backend="webhook,discord,slack", allowed_output_rooms=("slack:C9",))
    message = {"message": "x", "time": "in 1 hour", "repeat_every": 5}
    for platform, room in (("discord", "923456789012345678"), ("", "CW")):
        for target in ("slack:C9", "C9"):
            refused = stack.call("create_reminder", {**message, "escalate_to": target}, room=room, platform=platform)
            assert refused["error"]["code"] == "forbidden_channel", (platform, target, refused)
        assert stack.call("list_reminders", room=room, platform=platform)["result"]["schedules"] == []
    for target in ("slack:C9", "C9"):  # from Slack, both spellings name the allowed room, as `channel` does
        made = stack.call("create_reminder", {**message, "escalate_to": target}, room="CY", platform="slack")
        assert made["ok"], made
    agent = {"name": "digest", "prompt": "p", "cron_expr": "0 9 * * *", "target_agent": "echo"}
    stack.settings = replace(stack.settings, agents={"echo": "echo-fn"})
    made = stack.call("cron_create", {**agent, "channel": "slack:C9"}, room="CY", platform="slack")
    assert made["ok"], made
    for channel in ("slack:C9", "discord:C9"):
        refused = stack.call("cron_create", {**agent, "name": "d2", "channel": channel}, room="CW")
        assert refused["error"]["code"] == "forbidden_channel", refused


def test_an_escalation_user_is_mentioned_as_the_platform_names_users() -> None:
    """`@U0BOSS` on Slack (or `<@U0BOSS>`, as Slack writes a mention) pings U0BOSS; it was posted as the
    plain text "@U0BOSS", and only the reminded user was pinged. A Matrix id keeps its "@"."""
    from cronbell.adapters.chat.slack import slack_text
    from cronbell.core.domain import repeats
    from cronbell.core.text import chat_text

    stack = MemoryStack()
    stack.settings = replace(stack.settings, chat_backend="matrix,slack")
    made = stack.call(
        "create_reminder",
        {"message": "x", "time": "in 1 hour", "repeat_every": 5, "escalate_to": "<@U0BOSS>"},
        room="CY",
        platform="slack",
    )
    assert made["result"]["escalate_to"] == "@U0BOSS"
    for nobody in ("@", "@ ", "@two words"):  # accepted, and the escalation then mentioned nobody
        refused = stack.call(
            "create_reminder",
            {"message": "x", "time": "in 1 hour", "repeat_every": 5, "escalate_to": nobody},
            room="CY",
            platform="slack",
        )
        assert refused["error"]["code"] == "forbidden_channel", (nobody, refused)
    assert repeats.escalation_mention("@U0BOSS") == "U0BOSS"
    assert repeats.escalation_mention("@boss:example.org") == "@boss:example.org"
    assert repeats.escalation_mention("!ops:example.org") == ""
    message = chat_text.escalation_message("CY", "U0BOSS", "U0ANA", "Take the pills", 3, "en")
    assert slack_text(message).startswith("⚠️ <@U0BOSS> ") and "<@U0ANA>" in slack_text(message)
    assert "U0BOSS" in message.mentions
