"""run_now: a manual run, as Scheduler would fire it, that leaves the regular schedule as it is."""

from __future__ import annotations

import json
from dataclasses import replace
from datetime import UTC, datetime
from typing import Any

import pytest

from cronbell.adapters.dynamo.codec import stream_change
from cronbell.core.domain.fire_event import parse_fire_event
from cronbell.usecases import fire as fire_uc
from cronbell.usecases import tools
from cronbell.usecases.project import apply
from tests.support.aws import Stack
from tests.support.chat import RecordingChat
from tests.support.envelopes import ROOM, envelope
from tests.support.repeats import EchoAgents, run_now
from tests.support.tools import assert_consistent, call, live_items, ok, schedule_item, wait_on_its_delivery


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
    assert es["error"]["code"] == "busy" and "vence ahora" in es["text"]
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


WAITED = "2026-11-30T09:00:30Z"  # run_now's time, kept waiting while the one-shot's own delivery held it


def _fired_with_a_run_waiting(stack: Stack, chat: RecordingChat) -> str:
    """A one-shot (10:00 in Madrid) whose own delivery a run started by hand waited for, as the manual
    fire that met the delivery leaves it, and which that delivery then fired: the run waits on the
    retired copy, with its entry."""
    sid: str = ok(call(stack, "create_reminder", {"message": "Waited for", "time": "2026-11-30 10:00"}))["id"]
    wait_on_its_delivery(stack, sid, WAITED)
    stack.clock.current = datetime(2026, 11, 30, 9, 0, 5, tzinfo=UTC)
    event = {"room_id": ROOM, "reminder_id": sid, "scheduled_time": "2026-11-30T09:00:00Z"}
    own = fire_uc.fire(parse_fire_event(event, stack.clock.now()), stack.deps(chat=lambda: chat), lambda: 300.0)
    assert own["outcome"] == "delivered" and schedule_item(stack, sid)["status"] == "fired"
    assert f"{sid}-now" in stack.entries()
    return sid


def _fire_waiting(stack: Stack, sid: str, chat: RecordingChat) -> dict[str, Any]:
    """The waiting run's entry fired as Scheduler fires it (its Input names the run's own time)."""
    entry = stack.entries()[f"{sid}-now"]
    stack.clock.current = datetime.fromisoformat(entry["ScheduleExpression"][3:-1]).replace(tzinfo=UTC)
    event = json.loads(entry["Target"]["Input"])
    return fire_uc.fire(parse_fire_event(event, stack.clock.now()), stack.deps(chat=lambda: chat), lambda: 300.0)


@pytest.mark.parametrize("live_first", [True, False], ids=["live-item-first", "retired-copy-first"])
def test_a_run_waiting_on_a_fired_one_shot_snoozed_back_to_life_is_delivered_once(
    stack: Stack, live_first: bool
) -> None:
    """Snoozed back to life before its waiting run was due, the one-shot's item is live again: the run
    waits on it and keeps its entry, whichever of the two items' stream records the projector applies
    first (DynamoDB Streams orders one item's changes, not two items'). Before, the revived item
    dropped the run and the retired copy's change deleted its entry: a run_now answered ok was lost."""
    chat = RecordingChat()
    sid = _fired_with_a_run_waiting(stack, chat)
    assert ok(call(stack, "snooze_reminder", {"id": sid, "minutes": 10}))["status"] == "active"

    def applied_later(record: dict[str, Any]) -> bool:
        return record["dynamodb"]["Keys"]["sk"]["S"].startswith("s#") != live_first

    records = sorted(stack.stream_records(), key=applied_later)
    deps = stack.deps()
    for record in records:
        apply(stream_change(record), deps)
    assert sorted(stack.entries()) == [sid, f"{sid}-now"]

    assert _fire_waiting(stack, sid, chat)["outcome"] == "delivered"
    assert [r["manual"] for r in ok(call(stack, "reminder_history", {"id": sid}))["runs"]] == [True, False]
    assert sorted(stack.entries()) == [sid]  # the snoozed time's own entry stays
    assert_consistent(stack)
    assert _fire_waiting_again(stack, sid, chat) == "duplicate" and len(chat.sent) == 2


def _fire_waiting_again(stack: Stack, sid: str, chat: RecordingChat) -> str:
    event = {"room_id": ROOM, "reminder_id": sid, "scheduled_time": WAITED, "run_now": True}
    return str(fire_uc.fire(parse_fire_event(event, stack.clock.now()), stack.deps(chat=lambda: chat))["outcome"])


class ReadBefore:
    """The store, but a schedule is read as it was before: a call that read it before a claim landed."""

    def __init__(self, store: Any, before: Any) -> None:
        self._store, self._before = store, before

    def get(self, room_id: str, schedule_id: str) -> Any:
        return self._before if schedule_id == self._before.id else self._store.get(room_id, schedule_id)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._store, name)


def test_a_snooze_read_before_a_waiting_run_is_claimed_on_the_retired_copy_is_refused_busy(stack: Stack) -> None:
    """A snooze read the fired one-shot just before its waiting run's manual fire claimed the retired
    copy, and writes while that run is being posted: refused `busy`, nothing written, so the copy under
    delivery is never rewritten and the run is recorded once. The snooze succeeds once the run is posted."""
    answers: list[dict[str, Any]] = []

    class SnoozedMeanwhile(RecordingChat):
        def send(self, message: Any, idempotency_key: str, deadline: float | None = None) -> str:
            if len(self.sent) == 1:  # the waiting run's post: its slot is claimed on the retired copy
                deps = replace(stack.deps(), store=ReadBefore(stack.deps().store, before))
                answers.append(tools.handle(envelope("snooze_reminder", {"id": sid, "minutes": 10}), deps))
            return super().send(message, idempotency_key, deadline)

    chat = SnoozedMeanwhile()
    sid = _fired_with_a_run_waiting(stack, chat)
    before = stack.deps().store.get(ROOM, sid)
    assert _fire_waiting(stack, sid, chat)["outcome"] == "delivered"
    [refused] = answers
    assert refused["error"]["code"] == "busy", refused
    assert schedule_item(stack, sid)["status"] == "fired" and f"{sid}-now" not in stack.entries()
    assert [r["manual"] for r in ok(call(stack, "reminder_history", {"id": sid}))["runs"]] == [True, False]
    assert ok(call(stack, "snooze_reminder", {"id": sid, "minutes": 10}))["status"] == "active"
    assert sorted(stack.entries()) == [sid] and len(chat.sent) == 2
    assert_consistent(stack)
