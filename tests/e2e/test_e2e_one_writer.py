"""What is listed is what fires, through the sandbox, with the parallel tool calls models emit: several
changes of one schedule at once (threads calling the Invoke endpoint) end with Scheduler's entries as the
projection of the schedule's last version, and what fires is what the listing says, once. A run_now
answered ok behind a slow agent call is delivered after it; the reconciler repairs an entry changed behind
cronbell's back."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from sandbox.expressions import ScheduleTiming, next_fire
from tests.support.sandbox import Bot, StartSandbox, instant

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

START = "2030-01-07T08:00:00Z"  # a Monday, 09:00 in Madrid
GROUP_PREFIX = "cronbell"


def at_once(calls: list[Callable[[], dict[str, Any]]]) -> list[dict[str, Any]]:
    """Run the calls in threads released together, as a model's parallel tool calls arrive."""
    barrier = threading.Barrier(len(calls))
    answers: list[dict[str, Any]] = [{} for _ in calls]

    def run(index: int) -> None:
        barrier.wait()
        answers[index] = calls[index]()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(calls))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(120)
    return answers


def group(bot: Bot) -> str:
    scheduler = bot.scheduler_client()
    names = [g["Name"] for g in scheduler.list_schedule_groups()["ScheduleGroups"] if g["Name"] != "default"]
    (found,) = names
    return str(found)


def entries_of(bot: Bot, schedule_id: str) -> dict[str, dict[str, Any]]:
    scheduler = bot.scheduler_client()
    name_of_group = group(bot)
    out = {}
    for summary in scheduler.list_schedules(GroupName=name_of_group, NamePrefix=schedule_id)["Schedules"]:
        out[summary["Name"]] = scheduler.get_schedule(Name=summary["Name"], GroupName=name_of_group)
    return out


def listed(bot: Bot, schedule_id: str) -> dict[str, Any] | None:
    items = bot.call("list_reminders", include_inactive=True)["result"]["schedules"]
    found = [s for s in items if s["id"] == schedule_id]
    return dict(found[0]) if found else None


def assert_listing_is_what_fires(bot: Bot, schedule_id: str, now: datetime) -> datetime | None:
    """The listing's status and next fire agree with Scheduler's entries, read with the sandbox's own
    evaluation of their expressions; returns the next fire (None when nothing fires)."""
    item = listed(bot, schedule_id)
    entries = entries_of(bot, schedule_id)
    enabled = [e for e in entries.values() if e.get("State", "ENABLED") == "ENABLED"]
    if item is None or item["status"] != "active":
        assert not enabled, (item, entries)
        return None
    fires = []
    for entry in enabled:
        expression = ScheduleTiming(entry["ScheduleExpression"], entry.get("ScheduleExpressionTimezone") or "UTC")
        when = next_fire(expression, now)
        if when is not None:
            fires.append(when)
    assert fires, (item, entries)
    assert instant(item["next_fire"]["utc"]) == min(fires), (item, entries)
    return min(fires)


def posts_of(bot: Bot, text: str) -> list[dict[str, Any]]:
    return [m for m in bot.messages() if text in m["text"]]


def test_three_updates_of_a_one_shot_at_once_fire_as_listed_once(start_sandbox: StartSandbox) -> None:
    bot = Bot(start_sandbox("--start", START), "!one-shot:localhost")
    sid = bot.create(message="standup moved", time="tomorrow at 10:00")
    answers = at_once(
        [lambda t=t: bot.call("update_reminder", id=sid, time=f"tomorrow at {t}") for t in ("11:00", "12:00", "13:00")]
    )
    assert all(a["ok"] for a in answers), answers
    now = instant(START)
    due = assert_listing_is_what_fires(bot, sid, now)
    assert due is not None
    bot.advance((due - now).total_seconds() + 120)
    posted = posts_of(bot, "standup moved")
    assert [instant(m["ts"]) for m in posted] == [due]
    bot.advance(86400)
    assert len(posts_of(bot, "standup moved")) == 1


def test_four_snoozes_at_once_post_the_snoozed_reminder_once(start_sandbox: StartSandbox) -> None:
    bot = Bot(start_sandbox("--start", START), "!snoozes:localhost")
    sid = bot.create(message="water the plants", time="in 5 minutes")
    bot.advance(300)
    assert len(posts_of(bot, "water the plants")) == 1
    answers = at_once(
        [lambda m=m: bot.call("snooze_reminder", id=sid, minutes=m) for m in (10, 15, 20, 10)]  # a tap and the model
    )
    assert all(a["ok"] for a in answers), answers
    now = instant(START) + timedelta(minutes=5)
    due = assert_listing_is_what_fires(bot, sid, now)
    assert due is not None
    bot.advance(3600)
    posted = posts_of(bot, "water the plants")
    assert [instant(m["ts"]) for m in posted[1:]] == [due]


def test_resume_racing_three_cron_updates_leaves_the_entry_as_listed(start_sandbox: StartSandbox) -> None:
    bot = Bot(start_sandbox("--start", START), "!daily:localhost")
    sid = bot.create(message="daily report", cron="0 9 * * *")
    assert bot.call("pause_reminder", id=sid)["ok"]
    calls: list[Callable[[], dict[str, Any]]] = [lambda: bot.call("resume_reminder", id=sid)]
    calls += [lambda h=h: bot.call("update_reminder", id=sid, cron=f"3 {h} * * *") for h in (9, 10, 11)]
    answers = at_once(calls)
    assert all(a["ok"] for a in answers), answers
    now = instant(START)
    due = assert_listing_is_what_fires(bot, sid, now)
    assert due is not None  # the resume was applied (it answered ok), whatever order the updates took
    item = listed(bot, sid)
    assert item is not None
    for day in range(4):
        bot.advance(86400)
        assert assert_listing_is_what_fires(bot, sid, now + timedelta(days=day + 1)) is not None
    assert len(posts_of(bot, "daily report")) == 4


def test_a_delete_racing_updates_and_pauses_leaves_nothing_that_fires(start_sandbox: StartSandbox) -> None:
    bot = Bot(start_sandbox("--start", START), "!deleted:localhost")
    sid = bot.create(message="gone soon", cron="*/30 * * * *")
    answers = at_once(
        [
            lambda: bot.call("delete_reminder", id=sid),
            lambda: bot.call("update_reminder", id=sid, cron="*/15 * * * *"),
            lambda: bot.call("pause_reminder", id=sid),
            lambda: bot.call("resume_reminder", id=sid),
        ]
    )
    assert answers[0]["ok"], answers
    for answer in answers[1:]:  # each either landed before the delete or is refused: never ok after it
        assert answer["ok"] or answer["error"]["code"] in ("not_found", "invalid_state"), answer
    assert listed(bot, sid) is None or listed(bot, sid)["status"] == "deleted"  # type: ignore[index]
    assert entries_of(bot, sid) == {}
    bot.advance(7200)
    assert posts_of(bot, "gone soon") == []


def test_run_now_behind_a_twelve_second_agent_call_is_delivered_after_it(start_sandbox: StartSandbox) -> None:
    bot = Bot(start_sandbox("--start", START), "!agent:localhost")
    created = bot.call("cron_create", name="slow-brief", prompt="sleep 12 summarize", cron_expr="5 9 * * *")
    assert created["ok"], created
    sid = created["result"]["id"]
    moved: dict[str, Any] = {}
    mover = threading.Thread(target=lambda: moved.update(fired=bot.advance(5 * 60)))
    mover.start()
    time.sleep(4)  # the scheduled delivery is under way: the agent takes 12 seconds
    answer = bot.call("run_now", kind="cron", target=sid)
    mover.join(120)
    assert answer["ok"], answer
    assert answer["result"]["waiting"] is True
    bot.advance(3 * 60)  # its own entry fires the minute after the delivery ends
    runs = bot.call("reminder_history", id=sid)["result"]["runs"]
    manual = [r for r in runs if r["manual"]]
    regular = [r for r in runs if not r["manual"]]
    assert len(manual) == 1 and manual[0]["outcome"] == "delivered", runs
    assert len(regular) == 1 and regular[0]["outcome"] == "delivered", runs
    answers = posts_of(bot, "echo: sleep 12 summarize")
    assert len(answers) == 2, bot.messages()
    bot.advance(3600)
    assert len(posts_of(bot, "echo: sleep 12 summarize")) == 2  # once each, never again


def test_the_reconciler_repairs_an_entry_changed_behind_cronbells_back(start_sandbox: StartSandbox) -> None:
    bot = Bot(start_sandbox("--start", START), "!drift:localhost")
    sid = bot.create(message="stretch", cron="0 15 * * 1-5")
    scheduler = bot.scheduler_client()
    name_of_group = group(bot)
    (original,) = entries_of(bot, sid).values()
    changed = {
        k: original[k]
        for k in ("Name", "GroupName", "FlexibleTimeWindow", "Target", "ActionAfterCompletion", "Description")
        if k in original
    }
    scheduler.update_schedule(
        **changed, ScheduleExpression="cron(0 4 * * ? *)", ScheduleExpressionTimezone="UTC", State="DISABLED"
    )
    bot.advance(3600)  # past the reconciler's grace window for a change under way
    answer = bot.lambda_client.invoke(FunctionName="ReconcileFunction", Payload=b"{}")
    report = json.load(answer["Payload"])
    assert report["drift_repaired"] + report["state_fixed"] >= 1, report
    repaired = scheduler.get_schedule(Name=sid, GroupName=name_of_group)
    for field in ("ScheduleExpression", "ScheduleExpressionTimezone"):
        assert repaired[field] == original[field]
    assert repaired.get("State", "ENABLED") == "ENABLED"
    assert assert_listing_is_what_fires(bot, sid, datetime(2030, 1, 7, 9, 0, tzinfo=UTC)) is not None
