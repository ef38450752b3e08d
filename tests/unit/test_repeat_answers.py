"""Repeat until done as the answers show it: what create_reminder and update_reminder set is in their
result and in list_reminders, so a model can check it as docs/skill.md asks ("Check the answer")."""

from __future__ import annotations

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
