"""A fire whose process dies (SIGKILL, as an out-of-memory runtime is killed) after claiming its
slot, or after posting, is delivered by Lambda's own retries, with the template's timeout and
Lambda's retry spacing on a fake clock: no fire is lost, none is posted twice, and the slot ends
done."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest

from cronbell.core.domain.fire_event import parse_fire_event
from cronbell.usecases import fire as fire_uc
from cronbell.usecases import tools
from tests.support import fire_worker, scheduler_oracle
from tests.support.aws import Stack
from tests.support.envelopes import ROOM, envelope
from tests.support.lambda_timing import RETRY_GAPS_SECONDS, FileChat, lambda_retries, remaining_on
from tests.support.tools import assert_consistent, call, ok, schedule_item, slot_state

CASES = {
    "one-shot": ("create_reminder", {"message": "m", "time": "2026-11-30 10:00"}, "2026-11-30T09:00:00Z"),
    # 10:00 in Madrid: the slot falls an hour after creation, like the one-shot's (a fire an hour
    # late would be a missed run, not a delivery)
    "recurring": ("create_reminder", {"message": "r", "cron": "0 10 * * *"}, "2026-11-30T09:00:00Z"),
    "agent call": ("cron_create", {"name": "job", "prompt": "p", "cron_expr": "0 10 * * *"}, "2026-11-30T09:00:00Z"),
}


@pytest.mark.parametrize("at", ["claim", "post"])
@pytest.mark.parametrize("case", list(CASES))
def test_a_fire_killed_after_its_claim_or_post_is_delivered_by_lambdas_retries(
    stack: Stack, tmp_path: Path, case: str, at: str
) -> None:
    tool, args, slot = CASES[case]
    sid = ok(call(stack, tool, args))["id"]
    stack.clock.advance(hours=1, seconds=1)  # Scheduler fires at the slot; the attempt starts just after
    event = {"room_id": ROOM, "reminder_id": sid, "scheduled_time": slot, "execution_id": "e", "attempt": "1"}
    chat = FileChat(tmp_path / "chat.jsonl")

    fire_worker.kill_a_worker(stack, event, chat.path, at)
    assert slot_state(stack, sid, slot) == "claimed"  # the dead attempt's claim is left behind

    deps = stack.deps(
        chat=lambda: chat, agents=fire_worker.EchoAgents(), sleep=lambda s: stack.clock.advance(seconds=s)
    )

    def attempt(remaining: Any) -> dict[str, Any]:
        return fire_uc.fire(parse_fire_event(event, stack.clock.now()), deps, remaining_seconds=remaining)

    attempts = lambda_retries(stack.clock, attempt, first_gap=RETRY_GAPS_SECONDS[0])
    assert attempts.result is not None, f"lost: every retry failed ({attempts.outcomes})"
    assert attempts.result["outcome"] == "delivered", attempts.outcomes
    assert chat.posted() == {f"{sid}-{slot}"}  # one message in the room
    assert len(chat.attempts()) == (2 if at == "post" else 1)  # a re-sent post carries the same key
    assert slot_state(stack, sid, slot) == "done"
    schedule = schedule_item(stack, sid)
    assert schedule["status"] == ("fired" if case == "one-shot" else "active") and schedule["fire_count"] == 1
    assert "inflight_until" not in schedule
    if case != "one-shot":  # Scheduler itself deletes a one-shot's entry once it fired
        assert_consistent(stack)


def test_a_duplicate_meeting_a_live_claim_does_not_end_as_done(stack: Stack, tmp_path: Path) -> None:
    """Scheduler may deliver an event twice; the second copy, arriving while the first holds the
    slot and too late to wait for it, is retried by Lambda rather than reported done."""
    sid = ok(call(stack, "cron_create", {"name": "job", "prompt": "p", "cron_expr": "0 10 * * *"}))["id"]
    stack.clock.advance(hours=1, seconds=1)
    slot = "2026-11-30T09:00:00Z"
    schedule = stack.deps().store.get(ROOM, sid)
    assert stack.deps().store.claim_slot(ROOM, sid, slot, stack.clock.now(), 305, schedule) == "claimed"
    event = {"room_id": ROOM, "reminder_id": sid, "scheduled_time": slot}
    chat = FileChat(tmp_path / "chat.jsonl")
    deps = stack.deps(
        chat=lambda: chat, agents=fire_worker.EchoAgents(), sleep=lambda s: stack.clock.advance(seconds=s)
    )
    with pytest.raises(fire_uc.RetryLater):
        fire_uc.fire(parse_fire_event(event, stack.clock.now()), deps, remaining_seconds=lambda: 200.0)
    assert chat.attempts() == []


def test_a_run_now_waiting_behind_a_delivery_whose_process_died_is_delivered_after_it(
    stack: Stack, tmp_path: Path
) -> None:
    """An agent call's delivery dies (SIGKILL) after its claim, before its post; run_now, answered while
    that dead attempt still holds the schedule, waits in the item. Lambda's retries deliver the regular
    occurrence once the dead claim's lease has ended, then the waiting run's own entry fires: each is
    posted once, and the history has both runs."""
    sid = ok(call(stack, "cron_create", {"name": "job", "prompt": "p", "cron_expr": "0 10 * * *"}))["id"]
    stack.clock.advance(hours=1, seconds=1)
    slot = "2026-11-30T09:00:00Z"
    event = {"room_id": ROOM, "reminder_id": sid, "scheduled_time": slot, "execution_id": "e", "attempt": "1"}
    chat = FileChat(tmp_path / "chat.jsonl")
    fire_worker.kill_a_worker(stack, event, chat.path, "claim")

    started: list[dict[str, Any]] = []
    answer = tools.handle(envelope("run_now", {"kind": "cron", "target": sid}), stack.deps(start_fire=started.append))
    assert ok(answer)["waiting"] is True and started == []  # nothing started while the schedule is held
    deps = stack.deps(
        chat=lambda: chat, agents=fire_worker.EchoAgents(), sleep=lambda s: stack.clock.advance(seconds=s)
    )

    def attempt(remaining: Any) -> dict[str, Any]:
        return fire_uc.fire(parse_fire_event(event, stack.clock.now()), deps, remaining_seconds=remaining)

    retried = lambda_retries(stack.clock, attempt, first_gap=RETRY_GAPS_SECONDS[0])
    assert retried.result is not None and retried.result["outcome"] == "delivered", retried.outcomes
    now = stack.clock.now()
    (turn,) = [
        d for d in scheduler_oracle.due(stack.entries(), now, now + timedelta(hours=1)) if d.entry == f"{sid}-now"
    ]
    stack.clock.current = turn.when
    manual = fire_uc.fire(
        parse_fire_event(turn.event, stack.clock.now()), deps, remaining_seconds=remaining_on(stack.clock)
    )
    assert manual["outcome"] == "delivered", manual
    assert len(chat.posted()) == 2  # the occurrence and the run started by hand, once each
    runs = ok(call(stack, "reminder_history", {"id": sid}))["runs"]
    assert sorted((r["manual"], r["outcome"]) for r in runs) == [(False, "delivered"), (True, "delivered")]
    assert f"{sid}-now" not in stack.entries()  # its turn is over
