"""agent_call through the sandbox, as a bot drives it: daily runs, timeouts, refusals, the
static schedule declared in template.yaml."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.sandbox import Bot, StartSandbox

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

DAY = 86400
ROOT = Path(__file__).resolve().parents[2]


def test_daily_agent_call_posts_on_three_consecutive_days(start_sandbox: StartSandbox) -> None:
    sandbox = start_sandbox("--start", "2030-01-07T12:00:00Z")
    bot = Bot(sandbox, "!daily:localhost")
    created = bot.call("cron_create", name="summary", prompt="Summarise the day", cron_expr="0 18 * * *")
    assert created["ok"], created
    for _ in range(3):
        fired = bot.advance(DAY)
        assert all(f["ok"] for f in fired), fired
    texts = [m["text"] for m in bot.messages()]
    assert len(texts) == 3 and all("echo: Summarise the day" in t for t in texts)
    assert [m["ts"] for m in bot.messages()] == [
        "2030-01-07T17:00:00Z",
        "2030-01-08T17:00:00Z",
        "2030-01-09T17:00:00Z",
    ]


def test_an_agent_slower_than_its_timeout_gives_a_notice_not_a_crash(start_sandbox: StartSandbox) -> None:
    sandbox = start_sandbox("--start", "2030-01-07T12:00:00Z", "--agent-timeout", "1")
    bot = Bot(sandbox, "!slow:localhost")
    created = bot.call("cron_create", name="slow", prompt="sleep 3 think hard", cron_expr="0 18 * * *")
    assert created["ok"], created
    fired = bot.advance(DAY)
    assert [f["ok"] for f in fired if f["schedule"] == created["result"]["id"]] == [True]
    (message,) = bot.messages()
    assert "did not answer within 1 s" in message["text"] and "echo:" not in message["text"]


def test_unknown_agent_and_foreign_channel_are_refused(start_sandbox: StartSandbox) -> None:
    sandbox = start_sandbox("--start", "2030-01-07T12:00:00Z")
    bot = Bot(sandbox, "!refusals:localhost")
    unknown = bot.call("cron_create", name="x", prompt="p", cron_expr="0 18 * * *", target_agent="stranger")
    assert unknown["error"]["code"] == "unknown_agent"
    foreign = bot.call("cron_create", name="x", prompt="p", cron_expr="0 18 * * *", channel="!elsewhere:localhost")
    assert foreign["error"]["code"] == "forbidden_channel"
    assert bot.call("cron_list")["result"] == []


def test_static_daily_analysis_from_the_template_fires(start_sandbox: StartSandbox) -> None:
    room = "!analysis:localhost"  # the static schedule is deployed only when its room is given
    sandbox = start_sandbox(
        "--start",
        "2030-01-07T12:00:00Z",
        "--parameter",
        f"AnalysisOutputRoom={room}",
        "--parameter",
        "AnalysisTimezone=Europe/Madrid",
    )
    fired = Bot(sandbox, "!any:localhost").advance(DAY)
    assert [f["scheduled_time"] for f in fired if f["schedule"] == "daily-analysis"] == ["2030-01-07T17:00:00Z"]
    (message,) = sandbox.messages(room)
    assert "echo: It is 2030-01-07T17:00:00Z" in message["text"]
