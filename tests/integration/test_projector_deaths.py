"""The projector killed with SIGKILL in the middle of a batch, right after each of its Scheduler calls in
turn (as Lambda's runtime is killed when it runs out of memory: the batch is never answered). Lambda then
retries the whole batch, and Scheduler holds exactly the projection of every item: nothing missing,
nothing left over, no entry at an old time; the reconciler, run after, finds nothing to repair."""

from __future__ import annotations

import functools
from typing import Any

import pytest

from cronbell.usecases.reconcile import reconcile
from tests.support.aws import START, FakeClock, Stack, provision
from tests.support.handlers import LambdaContext, configure_env, load_handler
from tests.support.projector_worker import kill_a_projector
from tests.support.tools import call, ok

pytestmark = pytest.mark.slow

REPAIRS = ("recreated", "state_fixed", "drift_repaired", "orphans_deleted", "releases_rewritten")


def changes_of_a_busy_minute(stack: Stack) -> dict[str, Any]:
    """Creates, changes and a delete of several schedules, as one stream batch hands them over."""
    once = ok(call(stack, "create_reminder", {"message": "dentist", "time": "2026-12-02 10:00"}))["id"]
    monthly = ok(call(stack, "create_reminder", {"message": "report", "cron": "0 9 1 * 5"}))["id"]
    job = ok(call(stack, "cron_create", {"name": "digest", "prompt": "p", "cron_expr": "0 10 * * 1"}))["id"]
    daily = ok(call(stack, "create_reminder", {"message": "water", "cron": "0 8 * * *"}))["id"]
    ok(call(stack, "update_reminder", {"id": once, "time": "2026-12-02 11:00"}))
    ok(call(stack, "pause_reminder", {"id": monthly}))
    ok(call(stack, "cron_delete", {"id": job}))
    ok(call(stack, "snooze_reminder", {"id": once, "minutes": 30}))
    ok(call(stack, "update_reminder", {"id": daily, "cron": "30 8 * * *"}))
    return stack.stream_event()


def test_a_projector_killed_after_any_scheduler_call_leaves_the_projection_once_the_batch_is_retried(
    moto_endpoint: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    killed = 0
    while True:
        stack = provision(moto_endpoint, FakeClock(START))
        event = changes_of_a_busy_minute(stack)
        if not kill_a_projector(stack, event, after=killed):
            break  # the batch made fewer calls: each place to die has been tried
        configure_env(stack)
        handler = load_handler("projector")
        monkeypatch.setattr(handler, "deps", functools.partial(Stack.deps, stack))
        answer = handler.lambda_handler(event, LambdaContext(function_name="projector"))  # Lambda's retry
        assert answer["batchItemFailures"] == [], (killed, answer)
        stack.clock.advance(seconds=stack.settings.reconcile_grace_seconds + 1)
        report = reconcile(stack.deps()).to_dict()
        assert {name: report[name] for name in REPAIRS} == dict.fromkeys(REPAIRS, 0), (killed, report)
        assert report["entries"] >= 4, report  # the one-shot, its snooze, the monthly's two, the daily
        killed += 1
    assert killed >= 8, f"the batch made only {killed} Scheduler calls"
