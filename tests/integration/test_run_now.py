"""run_now: a manual run, as Scheduler would fire it, that leaves the regular schedule as it is."""

from __future__ import annotations

from datetime import UTC, datetime

from cronbell.core.domain.fire_event import parse_fire_event
from cronbell.usecases import fire as fire_uc
from cronbell.usecases import tools
from tests.support.aws import Stack
from tests.support.chat import RecordingChat
from tests.support.envelopes import envelope
from tests.support.repeats import EchoAgents, run_now
from tests.support.tools import assert_consistent, call, live_items, ok


def test_run_now_does_not_use_up_a_one_shot(stack: Stack) -> None:
    sid = ok(call(stack, "cron_create", {"name": "report", "prompt": "p", "fire_at": "2026-11-30 18:00"}))["id"]
    chat = RecordingChat()
    answer, fired = run_now(stack, sid, chat)
    assert answer["ok"] and fired is not None and fired["outcome"] == "delivered"
    [item] = live_items(stack)
    assert item["status"] == "active" and item["fire_count"] == 1  # the planned run is still to come
    assert_consistent(stack)
    stack.clock.advance(hours=9)  # 18:00 in Madrid: the planned run
    event = {"room_id": item["room_id"], "reminder_id": sid, "scheduled_time": "2026-11-30T17:00:00Z"}
    planned = fire_uc.fire(
        parse_fire_event(event, stack.clock.now()), stack.deps(chat=lambda: chat, agents=EchoAgents()), lambda: 300.0
    )
    assert planned["outcome"] == "delivered" and len(chat.sent) == 2
    assert live_items(stack) == []  # now it has fired


def test_run_now_runs_one_schedule_at_most_once_per_min_interval(stack: Stack) -> None:
    sid = ok(call(stack, "cron_create", {"name": "report", "prompt": "p", "cron_expr": "0 18 * * *"}))["id"]
    other = ok(call(stack, "cron_create", {"name": "digest", "prompt": "q", "cron_expr": "0 19 * * *"}))["id"]
    chat = RecordingChat()
    assert run_now(stack, sid, chat)[0]["ok"]
    stack.clock.advance(seconds=1)
    answer, fired = run_now(stack, sid, chat)
    assert answer["error"]["code"] == "too_frequent" and fired is None
    assert run_now(stack, other, chat)[0]["ok"]  # the limit is per schedule
    stack.clock.advance(minutes=stack.settings.min_interval_minutes)
    assert run_now(stack, sid, chat)[0]["ok"]
    assert len(chat.sent) == 3


def test_run_now_on_a_one_shot_whose_own_fire_is_due_is_refused_as_busy(stack: Stack) -> None:
    """Within Scheduler's minute around its time the one-shot is being posted anyway, once: a run
    started then would find it fired and post nothing. Refused `busy` (in both languages), nothing
    recorded; earlier, run_now runs it as usual."""
    sid = ok(call(stack, "create_reminder", {"message": "m", "time": "2026-11-30 10:00"}))["id"]
    stack.clock.current = datetime(2026, 11, 30, 8, 59, 30, tzinfo=UTC)  # 09:59:30 in Madrid
    chat = RecordingChat()
    before = stack.items()
    answer, fired = run_now(stack, sid, chat)
    assert not answer["ok"] and answer["error"]["code"] == "busy" and fired is None, answer
    assert "10:00" in answer["text"] and stack.items() == before and not chat.sent
    es = tools.handle(envelope("run_now", {"target": sid}, locale="es"), stack.deps(start_fire=lambda e: None))
    assert es["error"]["code"] == "busy" and "se está entregando" in es["text"]
    stack.clock.current = datetime(2026, 11, 30, 8, 58, 30, tzinfo=UTC)  # a minute and a half before
    answer, fired = run_now(stack, sid, chat)
    assert answer["ok"] and fired is not None and fired["outcome"] == "delivered", answer


def test_run_now_on_a_recurrence_whose_last_occurrence_is_due_is_refused_as_busy(stack: Stack) -> None:
    """Daily at 10:00, `count` 1: within the minute around 10:00 its last occurrence is being posted
    and the schedule then completes, so a manual run started then would find it completed. Refused
    `busy` (in both languages), nothing recorded. With a second occurrence left (`count` 2), or a
    minute and a half earlier, run_now runs as usual."""
    last = ok(call(stack, "create_reminder", {"message": "m", "cron": "0 10 * * *", "count": 1}))["id"]
    more = ok(call(stack, "create_reminder", {"message": "n", "cron": "0 10 * * *", "count": 2}))["id"]
    stack.clock.current = datetime(2026, 11, 30, 9, 0, 30, tzinfo=UTC)  # 10:00:30 in Madrid
    chat = RecordingChat()
    before = stack.items()
    answer, fired = run_now(stack, last, chat)
    assert not answer["ok"] and answer["error"]["code"] == "busy" and fired is None, answer
    assert "10:00" in answer["text"] and stack.items() == before and not chat.sent
    es = tools.handle(envelope("run_now", {"target": last}, locale="es"), stack.deps(start_fire=lambda e: None))
    assert es["error"]["code"] == "busy" and "última ejecución" in es["text"]
    answer, fired = run_now(stack, more, chat)
    assert answer["ok"] and fired is not None and fired["outcome"] == "delivered", answer
    stack.clock.current = datetime(2026, 11, 30, 8, 58, 30, tzinfo=UTC)  # a minute and a half before
    answer, fired = run_now(stack, last, chat)
    assert answer["ok"] and fired is not None and fired["outcome"] == "delivered", answer
