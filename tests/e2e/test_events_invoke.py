"""Every sample event does what its name says through `python -m sandbox invoke`, each in a fresh sandbox
as a developer runs it: what it names is seeded first, and the sandbox adds no warnings of its own."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

pytestmark = [pytest.mark.slow, pytest.mark.e2e]

ROOT = Path(__file__).resolve().parents[2]
EVENTS = sorted((ROOT / "events").glob("*.json"))
# by file name prefix; else the tools
FUNCTIONS = {
    "fire": "FireFunction",
    "echo": "EchoAgentFunction",
    "projector": "ProjectorFunction",
    "reconcile": "ReconcileFunction",
}


def _inner(answer: dict[str, Any]) -> Any:
    """The tools answer inside a Bedrock or AgentCore response."""
    if "response" in answer:
        return json.loads(answer["response"]["functionResponse"]["responseBody"]["TEXT"]["body"])
    return json.loads(answer["content"][0]["text"])


def _error(code: str) -> Callable[[Any, str], bool]:
    return lambda a, _: a["ok"] is False and a["error"]["code"] == code


EXPECT: dict[str, Callable[[Any, str], bool]] = {
    "agentcore-create-reminder.json": lambda a, _: a["isError"] is False and _inner(a)["result"]["recurring"],
    "bedrock-create-reminder.json": lambda a, _: (
        _inner(a)["ok"] and _inner(a)["result"]["preview"] == "Llamar al dentista"
    ),
    "bedrock-list-reminders.json": lambda a, _: _inner(a)["ok"] and _inner(a)["result"]["schedules"] == [],
    "echo-agent.json": lambda a, _: a == {"text": "echo: Summarise the day"},
    "fire-scheduler.json": lambda a, log: (
        a["outcome"] == "delivered" and "seeded reminder" in log and "posted in !abc:example.org: ⏰" in log
    ),
    "tools-create-recurring.json": lambda a, _: a["ok"] and a["result"]["recurring"] is True,
    # "Es la 01:05" at one o'clock, "Son las 09:00" at any other hour: this test runs on the wall clock
    "tools-create-reminder-es.json": lambda a, _: (
        a["ok"] and "programado" in a["text"] and re.search(r"(Son las|Es la) \d{2}:\d{2} del ", a["text"]) is not None
    ),
    "tools-create-reminder-rfc3339.json": lambda a, _: (
        a["ok"] and a["result"]["next_fire"]["utc"] == "2030-01-15T09:30:00Z"
    ),
    "tools-cron-create.json": lambda a, _: a["ok"] and a["result"]["kind"] == "agent_call",
    "tools-cron-delete.json": lambda a, log: a["ok"] and a["result"]["deleted"] and "seeded agent call" in log,
    "tools-cron-list.json": lambda a, _: a["ok"] and a["result"] == [],
    "tools-delete-reminder.json": lambda a, log: a["ok"] and a["result"]["deleted"] and "seeded reminder" in log,
    "tools-invalid-time.json": _error("invalid_time"),
    "tools-list-reminders.json": lambda a, _: a["ok"] and a["result"]["schedules"] == [],
    "tools-run-now.json": lambda a, log: a["ok"] and a["result"]["started"] and "echo: " in log,
    "tools-unknown-tool.json": _error("unknown_tool"),
    "projector-stream.json": lambda a, log: a == {"batchItemFailures": []} and '"written":1' in log,
    "reconcile-daily.json": lambda a, _: a["errors"] == 0 and a["schedules"] == 0,  # an empty stack: nothing to do
}


def _invoke(event: Path) -> tuple[int, Any, str]:
    function = FUNCTIONS.get(event.name.split("-")[0], "ToolsFunction")
    done = subprocess.run(
        [sys.executable, "-m", "sandbox", "invoke", function, "-e", f"events/{event.name}"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    return done.returncode, json.loads(done.stdout) if done.stdout.strip() else None, done.stderr


def test_every_event_has_an_expectation() -> None:
    assert sorted(p.name for p in EVENTS) == sorted(EXPECT)


def test_every_event_does_what_its_name_says() -> None:
    with ThreadPoolExecutor(max_workers=3) as pool:
        results = dict(zip(EVENTS, pool.map(_invoke, EVENTS), strict=True))
    for event, (code, answer, log) in results.items():
        assert code == 0, (event.name, log[-2000:])
        assert EXPECT[event.name](answer, log), (event.name, answer, log[-2000:])
        # the sandbox's own lines: seeds and posts, never a warning on every invoke
        noise = [line for line in log.splitlines() if line.startswith("sandbox ")]
        assert noise == [], (event.name, noise)
