"""Runs through the sandbox over days of virtual time: the failure policy, recovery, lateness,
run events and the `previous` answer an agent is given."""

from __future__ import annotations

import json
from datetime import timedelta
from typing import Any

import boto3
import pytest

from tests.support.sandbox import Bot, StartSandbox, instant

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

DAY = 86400


def history(bot: Bot, schedule_id: str, limit: int = 50) -> list[dict[str, Any]]:
    answer = bot.call("reminder_history", id=schedule_id, limit=limit)
    assert answer["ok"], answer
    assert answer["result"]["id"] == schedule_id
    runs: list[dict[str, Any]] = answer["result"]["runs"]
    return runs


def listed(bot: Bot, schedule_id: str) -> dict[str, Any]:
    items = bot.call("list_reminders", include_inactive=True)["result"]["schedules"]
    (item,) = [s for s in items if s["id"] == schedule_id]
    return dict(item)


def hand_made_fire(bot: Bot, schedule_id: str, scheduled_time: str) -> dict[str, Any]:
    """A fire event as Scheduler sends it, delivered late by hand."""
    event = {
        "room_id": bot.room_id,
        "reminder_id": schedule_id,
        "scheduled_time": scheduled_time,
        "execution_id": "late-1",
        "attempt": "1",
    }
    answer = bot.lambda_client.invoke(FunctionName="FireFunction", Payload=json.dumps(event).encode())
    assert "FunctionError" not in answer
    result: dict[str, Any] = json.load(answer["Payload"])
    return result


def test_a_failing_agent_gets_one_notice_then_one_pause_notice_and_is_paused(start_sandbox: StartSandbox) -> None:
    sandbox = start_sandbox("--start", "2030-01-07T12:00:00Z", "--agent-timeout", "1")
    bot = Bot(sandbox, "!failing:localhost")
    created = bot.call("cron_create", name="slow", prompt="sleep 3 think hard", cron_expr="0 18 * * *")
    assert created["ok"], created
    sid = created["result"]["id"]
    for _ in range(8):  # five failing days, then the schedule no longer fires
        bot.advance(DAY)
    texts = [m["text"] for m in bot.messages()]
    assert len(texts) == 2, texts  # one at the start of the streak, one when it pauses; silence between
    assert "slow failed (agent_timeout" in texts[0]
    assert "failed 5 times in a row and is paused" in texts[1] and f"resume_reminder {sid}" in texts[1]
    item = listed(bot, sid)
    assert item["status"] == "paused" and item["status_reason"] == "failing" and item["failure_streak"] == 5
    runs = history(bot, sid)
    assert [(r["outcome"], r["reason"]) for r in runs] == [("failed", "agent_timeout")] * 5  # paused: no more fires
    assert item["last_run"] == runs[0] and runs[0]["scheduled_time"] == "2030-01-11T18:00:00+01:00"

    events = sandbox.get(f"/_sandbox/events?room_id={bot.room_id}")
    finished = [e["detail"] for e in events if e["detail_type"] == "Run Finished"]
    assert all(e["source"] == "cronbell" for e in events)
    assert sorted(json.dumps(d, sort_keys=True) for d in finished) == sorted(
        json.dumps(
            {
                **r,
                "schedule_id": sid,
                "room_id": bot.room_id,
                "thread_id": None,
                "platform": "webhook",
                "workspace": None,
            },
            sort_keys=True,
        )
        for r in runs
    )  # every finished run once, naming the platform (the sink is the sandbox's webhook)
    assert [e["detail"]["schedule_id"] for e in events if e["detail_type"] == "Schedule Paused"] == [sid]

    assert bot.call("resume_reminder", id=sid)["ok"]
    item = listed(bot, sid)
    assert item["status"] == "active" and item["failure_streak"] == 0


def test_an_agent_that_recovers_is_delivered_says_so_once_and_its_streak_is_zero(
    start_sandbox: StartSandbox,
) -> None:
    sandbox = start_sandbox("--start", "2030-01-07T12:00:00Z", "--agent-timeout", "1")
    bot = Bot(sandbox, "!recovers:localhost")
    created = bot.call("cron_create", name="digest", prompt="sleep 3 then answer", cron_expr="0 18 * * *")
    sid = created["result"]["id"]
    bot.advance(2 * DAY)
    assert listed(bot, sid)["failure_streak"] == 2
    assert bot.call("update_reminder", id=sid, prompt="Summarise the day")["ok"]
    bot.advance(2 * DAY)
    texts = [m["text"] for m in bot.messages()]
    assert len(texts) == 3, texts  # the notice, then two answers
    assert "echo: Summarise the day" in texts[1] and "digest works again" in texts[1]
    assert "works again" not in texts[2]
    item = listed(bot, sid)
    assert item["failure_streak"] == 0 and item["status"] == "active"
    assert item["last_run"]["outcome"] == "delivered" and item["last_run"]["message_id"]
    outcomes = [r["outcome"] for r in history(bot, sid)]
    assert outcomes == ["delivered", "delivered", "failed", "failed"]


def test_a_fire_three_hours_late(start_sandbox: StartSandbox) -> None:
    sandbox = start_sandbox("--start", "2030-01-07T12:00:00Z")
    bot = Bot(sandbox, "!late:localhost")
    daily = bot.create(message="Stand up", cron="0 10 * * *")  # 09:00 UTC: three hours ago
    out = hand_made_fire(bot, daily, "2030-01-07T09:00:00Z")
    assert out["outcome"] == "missed" and out["reason"] == "too_late"
    assert bot.messages() == []  # a recurring run that late posts nothing
    (run,) = history(bot, daily)
    assert run["outcome"] == "missed" and run["reason"] == "too_late" and run["late_seconds"] == 3 * 3600

    once = bot.create(message="Water the plants", time="in 2 hours")  # 14:00 UTC
    scheduler = bot.scheduler_client()
    entry = scheduler.get_schedule(Name=once, GroupName=sandbox.get("/_sandbox/info")["schedule_group"])
    keep = ("Name", "GroupName", "ScheduleExpression", "ScheduleExpressionTimezone", "FlexibleTimeWindow", "Target")
    scheduler.update_schedule(**{k: entry[k] for k in keep if k in entry}, State="DISABLED")  # its fire is lost...
    bot.advance(5 * 3600)
    assert bot.messages() == []
    assert hand_made_fire(bot, once, "2030-01-07T14:00:00Z")["outcome"] == "delivered"  # ...and comes 3 h late
    (message,) = bot.messages()
    assert "Water the plants" in message["text"] and "late: it was due Monday 7 January, 15:00" in message["text"]
    (run,) = history(bot, once)
    assert run["outcome"] == "delivered" and run["late_seconds"] == 3 * 3600 and run["message_id"]
    assert run["scheduled_time"] == "2030-01-07T15:00:00+01:00"
    details = [e["detail"] for e in sandbox.get(f"/_sandbox/events?room_id={bot.room_id}")]
    assert [(d["schedule_id"], d["outcome"]) for d in details] == [(daily, "missed"), (once, "delivered")]


def test_the_sandbox_provisions_the_template_alarms(start_sandbox: StartSandbox) -> None:
    sandbox = start_sandbox("--start", "2030-01-07T12:00:00Z")
    cloudwatch = boto3.client(
        "cloudwatch",
        endpoint_url=f"http://127.0.0.1:{sandbox.aws_port}",
        region_name="us-east-1",
        aws_access_key_id="test",
        aws_secret_access_key="test",
    )
    alarms = cloudwatch.describe_alarms()["MetricAlarms"]
    by_metric: dict[tuple[str, str], int] = {}
    for alarm in alarms:
        key = (alarm["Namespace"], alarm["MetricName"])
        by_metric[key] = by_metric.get(key, 0) + 1
    functions = {d["Value"] for a in alarms for d in a["Dimensions"] if d["Name"] == "FunctionName"}
    assert len(functions) == 5 and any("Projector" in f for f in functions), functions  # every function
    assert by_metric[("AWS/Lambda", "Errors")] == by_metric[("AWS/Lambda", "Throttles")] == 5
    queues = {d["Value"] for a in alarms for d in a["Dimensions"] if d["Name"] == "QueueName"}
    assert len(queues) == 3, queues  # the two dead-letter queues and the projector's failure queue
    assert sum(q.endswith("dlq") or "DeadLetter" in q for q in queues) == 2, queues
    assert by_metric[("cronbell/cronbell", "RunsFailed")] == 1  # the stack's own namespace
    assert all(a["AlarmActions"] == [] for a in alarms)  # no AlarmTopicArn: no actions


def test_the_second_run_of_an_agent_call_is_given_the_first_answer(start_sandbox: StartSandbox) -> None:
    sandbox = start_sandbox("--start", "2030-01-07T12:00:00Z")
    bot = Bot(sandbox, "!continuity:localhost")
    created = bot.call("cron_create", name="news", prompt="What is new?", cron_expr="0 18 * * *")
    bot.advance(2 * DAY)
    first, second = (m["text"] for m in bot.messages())
    assert "previous:" not in first
    assert second.endswith("previous: 2030-01-07T18:00:00+01:00")
    runs = history(bot, created["result"]["id"])
    assert [instant(r["scheduled_time"]) for r in runs] == [
        instant("2030-01-07T17:00:00Z") + timedelta(days=d) for d in (1, 0)
    ]
