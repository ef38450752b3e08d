"""Every file in events/ goes through its handler, in the order a conversation would use them."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from cronbell import wiring
from cronbell.core import errors
from tests.support.aws import Stack
from tests.support.handlers import EVENTS, configure_env, invoke

ORDER = [
    "tools-create-reminder-es.json",
    "tools-create-reminder-rfc3339.json",
    "tools-create-recurring.json",
    "tools-invalid-time.json",
    "tools-unknown-tool.json",
    "tools-list-reminders.json",
    "tools-delete-reminder.json",
    "tools-cron-create.json",
    "tools-cron-list.json",
    "tools-run-now.json",
    "tools-cron-delete.json",
    "fire-scheduler.json",
    "echo-agent.json",
]


def ok(answer: dict[str, Any]) -> bool:
    return answer["ok"] is True


def error(code: str) -> Callable[[dict[str, Any]], bool]:
    return lambda answer: answer["ok"] is False and answer["error"]["code"] == code


EXPECT: dict[str, Callable[[Any], bool]] = {
    "tools-create-reminder-es.json": lambda a: ok(a) and "Ahora" in a["text"],
    "tools-create-reminder-rfc3339.json": lambda a: (
        ok(a) and a["result"]["next_fire"]["utc"] == "2030-01-15T09:30:00Z"
    ),
    "tools-create-recurring.json": lambda a: ok(a) and a["result"]["recurring"],
    "tools-invalid-time.json": error(errors.INVALID_TIME),
    "tools-unknown-tool.json": error(errors.UNKNOWN_TOOL),
    "tools-list-reminders.json": lambda a: ok(a) and len(a["result"]["schedules"]) == 3,
    "tools-delete-reminder.json": error(errors.NOT_FOUND),  # an id from another deployment
    "tools-cron-create.json": lambda a: ok(a) and a["result"]["kind"] == "agent_call",
    "tools-cron-list.json": lambda a: ok(a) and any(j["name"] == "daily summary" for j in a["result"]),
    "tools-run-now.json": lambda a: ok(a) and a["result"]["started"],
    "tools-cron-delete.json": ok,
    "fire-scheduler.json": lambda a: a["outcome"] == "unknown_schedule",
    "echo-agent.json": lambda a: a == {"text": "echo: Summarise the day"},
}


def test_every_event_file_is_covered() -> None:
    assert sorted(p.name for p in EVENTS) == sorted(ORDER) == sorted(EXPECT)


def test_events_through_their_handlers(stack: Stack) -> None:
    configure_env(stack)
    started: list[dict[str, Any]] = []
    wiring.deps().start_fire = started.append
    by_name = {p.name: p for p in EVENTS}
    for name in ORDER:
        event = json.loads(by_name[name].read_text())
        function = {"tools": "tools", "fire": "fire", "echo": "echo_agent"}[name.split("-")[0]]
        answer = invoke(function, event)
        json.dumps(answer)
        assert EXPECT[name](answer), (name, answer)
    assert len(started) == 1 and started[0]["reminder_id"]
