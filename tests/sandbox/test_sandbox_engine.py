"""The sandbox's scheduler engine against moto's Scheduler: order, state, one-time deletion, retries."""

from __future__ import annotations

import json
import sys
import textwrap
import threading
import time
import urllib.request
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import boto3
import pytest
from moto import mock_aws

from sandbox.aws_server import MotoServer
from sandbox.clock import VirtualClock
from sandbox.engine import SchedulerEngine, Stopped, fill_context
from sandbox.lambda_api import LambdaRuntime
from sandbox.stack import FunctionSpec

REGION = "us-east-1"
START = datetime(2030, 1, 7, 8, 0, tzinfo=UTC)  # a Monday
FUNCTION_ARN = "arn:aws:lambda:us-east-1:123456789012:function:Target"

HANDLER = textwrap.dedent(
    """
    import os
    import time
    import boto3

    CALLS = []

    def lambda_handler(event, context):
        CALLS.append(event)
        if event.get("fail"):
            raise RuntimeError("boom")
        if event.get("sleep"):
            time.sleep(event["sleep"])
            CALLS.append({"done": event["sleep"]})
        if event.get("spawn"):
            boto3.client("scheduler", region_name="us-east-1").create_schedule(
                Name="spawned", GroupName="g", ScheduleExpression=event["spawn"],
                FlexibleTimeWindow={"Mode": "OFF"},
                Target={"Arn": context.invoked_function_arn, "RoleArn": "arn:aws:iam::123456789012:role/r",
                        "Input": '{"name": "spawned", "at": "<aws.scheduler.scheduled-time>"}'},
            )
        if event.get("move"):  # as the projector writes a snooze while the fire runs: the entry moved
            scheduler = boto3.client("scheduler", region_name="us-east-1")
            entry = dict(
                Name=event["name"], GroupName="g", ScheduleExpression=event["move"],
                FlexibleTimeWindow={"Mode": "OFF"}, ActionAfterCompletion="DELETE",
                Target={"Arn": context.invoked_function_arn, "RoleArn": "arn:aws:iam::123456789012:role/r",
                        "Input": '{"name": "moved"}'},
            )
            try:  # as the projector writes: an update, or a create when the entry is gone
                scheduler.update_schedule(**entry)
            except scheduler.exceptions.ResourceNotFoundException:
                scheduler.create_schedule(**entry)
        return {"ok": True}
    """
)


class World:
    def __init__(self, tmp_path: Path, server: MotoServer | None = None) -> None:
        (tmp_path / "app.py").write_text(HANDLER, encoding="utf-8")
        self.scheduler = boto3.client("scheduler", region_name=REGION)
        self.sqs = boto3.client("sqs", region_name=REGION)
        self.dlq_url = self.sqs.create_queue(QueueName="fire-dlq")["QueueUrl"]
        self.sched_dlq_url = self.sqs.create_queue(QueueName="sched-dlq")["QueueUrl"]
        self.scheduler.create_schedule_group(Name="g")
        spec = FunctionSpec(
            logical_id="Target",
            name="Target",
            arn=FUNCTION_ARN,
            code_dir=tmp_path,
            handler="app.lambda_handler",
            timeout=10,
            memory=128,
            environment={},
            max_retry_attempts=2,
            on_failure_arn="arn:aws:sqs:us-east-1:123456789012:fire-dlq",
        )
        self.clock = VirtualClock(START)
        self.runtime = LambdaRuntime({"Target": spec}, self.clock, self.send)
        self.runtime.load()
        tracked: dict[str, Any] = {}
        if server is not None:  # as the sandbox runs it: change counting and reads from moto's state
            tracked = {
                "changes": lambda: server.scheduler_writes,
                # moto's state is per process, and other tests' schedules may be in it: read this world's group
                "source": lambda: [s for s in server.schedules("123456789012", REGION) if s["GroupName"] == "g"],
                "remove": lambda group, name: server.remove_schedule("123456789012", REGION, group, name),
                "lookup": lambda group, name: server.schedule("123456789012", REGION, group, name),
            }
        self.tracked = tracked
        self.engine = SchedulerEngine(self.scheduler, self.runtime, self.clock, self.send, START, **tracked)

    def send(self, queue_arn: str, body: str) -> None:
        url = self.sqs.get_queue_url(QueueName=queue_arn.rsplit(":", 1)[-1])["QueueUrl"]
        self.sqs.send_message(QueueUrl=url, MessageBody=body)

    @property
    def calls(self) -> list[dict[str, Any]]:
        calls: list[dict[str, Any]] = sys.modules["_sandbox_Target_app"].CALLS
        return calls

    def create(self, name: str, expression: str, payload: dict[str, Any], **extra: Any) -> None:
        target = {
            "Arn": extra.pop("target_arn", FUNCTION_ARN),
            "RoleArn": "arn:aws:iam::123456789012:role/r",
            "Input": json.dumps(payload),
            "DeadLetterConfig": {"Arn": "arn:aws:sqs:us-east-1:123456789012:sched-dlq"},
        }
        self.scheduler.create_schedule(
            Name=name,
            GroupName="g",
            ScheduleExpression=expression,
            FlexibleTimeWindow={"Mode": "OFF"},
            Target=target,
            **extra,
        )

    def queue(self, url: str) -> list[dict[str, Any]]:
        answer = self.sqs.receive_message(QueueUrl=url, MaxNumberOfMessages=10)
        return [json.loads(m["Body"]) for m in answer.get("Messages", [])]


@pytest.fixture(params=["api", "server"])
def world(request: pytest.FixtureRequest, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[World]:
    """`api`: moto in process, schedules read through the Scheduler API after every fire; `server`: a moto
    server, as in the sandbox, with Scheduler writes counted and schedules read from moto's state."""
    monkeypatch.delenv("AWS_ENDPOINT_URL_LAMBDA", raising=False)
    if request.param == "api":
        monkeypatch.delenv("AWS_ENDPOINT_URL", raising=False)
        with mock_aws():
            yield World(tmp_path)
        return
    server = MotoServer().start()
    monkeypatch.setenv("AWS_ENDPOINT_URL", server.url)
    for name, value in (("AWS_ACCESS_KEY_ID", "test"), ("AWS_SECRET_ACCESS_KEY", "test")):
        monkeypatch.setenv(name, value)
    try:
        yield World(tmp_path, server)
    finally:
        urllib.request.urlopen(urllib.request.Request(f"{server.url}/moto-api/reset", method="POST")).close()
        server.stop()


def test_fires_in_time_order_with_context_attributes_and_moves_the_clock(world: World) -> None:
    world.create(
        "weekly",
        "cron(0 10 ? * MON *)",
        {"name": "weekly", "at": "<aws.scheduler.scheduled-time>", "try": "<aws.scheduler.attempt-number>"},
        ScheduleExpressionTimezone="Europe/Madrid",
    )
    world.create("once", "at(2030-01-07T08:30:00)", {"name": "once", "at": "<aws.scheduler.scheduled-time>"})
    fired = world.engine.advance(START + timedelta(days=8))
    assert [(f.schedule, f.scheduled_time, f.ok) for f in fired] == [
        ("once", datetime(2030, 1, 7, 8, 30, tzinfo=UTC), True),
        ("weekly", datetime(2030, 1, 7, 9, 0, tzinfo=UTC), True),
        ("weekly", datetime(2030, 1, 14, 9, 0, tzinfo=UTC), True),
    ]
    assert [c["at"] for c in world.calls] == [
        "2030-01-07T08:30:00Z",
        "2030-01-07T09:00:00Z",
        "2030-01-14T09:00:00Z",
    ]
    assert world.calls[1]["try"] == "1"
    assert world.clock.now() == START + timedelta(days=8)
    assert world.engine.advance(START + timedelta(days=8)) == []  # nothing fires twice


def test_disabled_schedule_does_not_fire(world: World) -> None:
    world.create("off", "cron(0 * * * ? *)", {"name": "off"}, State="DISABLED")
    assert world.engine.advance(START + timedelta(days=1)) == []
    assert world.calls == []


def test_one_time_schedule_with_delete_after_completion_is_removed(world: World) -> None:
    world.create("once", "at(2030-01-07T09:00:00)", {"name": "once"}, ActionAfterCompletion="DELETE")
    world.create("kept", "at(2030-01-07T09:00:00)", {"name": "kept"})
    fired = world.engine.advance(START + timedelta(hours=2))
    assert sorted(f.schedule for f in fired) == ["kept", "once"]
    names = [s["Name"] for s in world.scheduler.list_schedules(GroupName="g")["Schedules"]]
    assert names == ["kept"]


def test_a_one_time_entry_is_deleted_when_its_invocation_is_accepted_not_after_the_function_ends(
    world: World,
) -> None:
    """Scheduler invokes Lambda asynchronously and deletes a fired one-time entry then: an entry the fire's
    own minute moved (a snooze the projector wrote while the fire ran) stays and fires at its new time.
    Deleted after the function ended, as before, the moved entry went with it: a snoozed one-shot lost."""
    world.create(
        "snoozed",
        "at(2030-01-07T09:00:00)",
        {"name": "snoozed", "move": "at(2030-01-07T09:10:00)"},
        ActionAfterCompletion="DELETE",
    )
    world.engine.advance(START + timedelta(hours=1, minutes=5))
    (entry,) = world.scheduler.list_schedules(GroupName="g")["Schedules"]
    assert entry["Name"] == "snoozed"
    fired = world.engine.advance(START + timedelta(hours=2))
    assert [(f.schedule, f.scheduled_time) for f in fired] == [("snoozed", datetime(2030, 1, 7, 9, 10, tzinfo=UTC))]
    assert [c["name"] for c in world.calls] == ["snoozed", "moved"]
    assert world.scheduler.list_schedules(GroupName="g")["Schedules"] == []


def test_handler_error_is_retried_twice_then_sent_to_the_on_failure_destination(world: World) -> None:
    world.create("bad", "at(2030-01-07T09:00:00)", {"name": "bad", "fail": True})
    (fired,) = world.engine.advance(START + timedelta(hours=2))
    assert not fired.ok
    assert len(world.calls) == 3  # one attempt and Lambda's two retries
    (record,) = world.queue(world.dlq_url)
    assert record["requestContext"]["condition"] == "RetriesExhausted"
    assert record["requestContext"]["approximateInvokeCount"] == 3
    assert record["requestPayload"] == {"name": "bad", "fail": True}
    assert record["responsePayload"]["errorType"] == "RuntimeError"


def test_lambdas_retries_come_a_minute_then_two_more_minutes_later_on_the_sandbox_clock(world: World) -> None:
    world.create("bad", "at(2030-01-07T09:00:00)", {"name": "bad", "fail": True})
    nine = START + timedelta(hours=1)
    for moved_to, attempts in (
        (nine, 1),
        (nine + timedelta(seconds=59), 1),
        (nine + timedelta(minutes=1), 2),
        (nine + timedelta(minutes=2, seconds=59), 2),
        (nine + timedelta(minutes=3), 3),
    ):
        world.engine.advance(moved_to)
        assert len(world.calls) == attempts, moved_to
        assert world.clock.now() == moved_to
    (record,) = world.queue(world.dlq_url)
    assert record["requestContext"]["approximateInvokeCount"] == 3


def test_a_schedule_created_by_a_fire_is_seen_in_the_same_step(world: World) -> None:
    world.create("parent", "at(2030-01-07T09:00:00)", {"name": "parent", "spawn": "at(2030-01-07T09:05:00)"})
    fired = world.engine.advance(START + timedelta(hours=2))
    assert [(f.schedule, f.scheduled_time.strftime("%H:%M")) for f in fired] == [
        ("parent", "09:00"),
        ("spawned", "09:05"),
    ]


def test_a_missing_target_goes_to_the_schedule_dead_letter_queue(world: World) -> None:
    world.create(
        "lost",
        "at(2030-01-07T09:00:00)",
        {"name": "lost"},
        target_arn="arn:aws:lambda:us-east-1:123456789012:function:Nobody",
    )
    (fired,) = world.engine.advance(START + timedelta(hours=2))
    assert not fired.ok
    assert world.queue(world.sched_dlq_url) == [{"name": "lost"}]


def test_fill_context_replaces_every_attribute() -> None:
    text = (
        '{"a": "<aws.scheduler.schedule-arn>", "t": "<aws.scheduler.scheduled-time>",'
        ' "e": "<aws.scheduler.execution-id>", "n": "<aws.scheduler.attempt-number>"}'
    )
    filled = json.loads(
        fill_context(text, arn="arn:x", scheduled=datetime(2026, 12, 1, 9, tzinfo=UTC), execution_id="e1", attempt=2)
    )
    assert filled == {"a": "arn:x", "t": "2026-12-01T09:00:00Z", "e": "e1", "n": "2"}


def test_with_scheduler_writes_counted_a_move_reads_the_schedules_again_only_after_a_change(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    for n in range(30):
        world.create(f"once-{n}", "at(2030-01-07T09:00:00)", {"name": f"once-{n}"}, ActionAfterCompletion="DELETE")
    world.create("hourly", "cron(0 * * * ? *)", {"name": "hourly"})
    world.create("parent", "at(2030-01-07T12:00:00)", {"name": "parent", "spawn": "at(2030-01-07T12:30:00)"})
    reads = []
    read = world.engine.schedules

    def counted() -> list[dict[str, Any]]:
        reads.append(1)
        return read()

    monkeypatch.setattr(world.engine, "schedules", counted)

    fired = world.engine.advance(START + timedelta(hours=6))

    assert len(fired) == 30 + 6 + 2
    at_noon = [f.schedule for f in fired if f.scheduled_time.hour == 12]
    assert sorted(at_noon[:2]) == ["hourly", "parent"] and at_noon[2:] == ["spawned"]
    # one read at the start and one after the fire that created a schedule; without counting, one per fire
    assert len(reads) == (2 if world.engine.changes is not None else 1 + len(fired))


def test_next_due_is_the_earliest_fire_after_the_clock_of_any_enabled_schedule(world: World) -> None:
    world.create("weekly", "cron(0 10 ? * MON *)", {"name": "weekly"}, ScheduleExpressionTimezone="Europe/Madrid")
    world.create("once", "at(2030-01-07T08:30:00)", {"name": "once"})
    world.create("off", "cron(* * * * ? *)", {"name": "off"}, State="DISABLED")
    assert world.engine.next_due() == datetime(2030, 1, 7, 8, 30, tzinfo=UTC)
    world.engine.advance(datetime(2030, 1, 7, 8, 30, tzinfo=UTC))
    assert world.engine.next_due() == datetime(2030, 1, 7, 9, 0, tzinfo=UTC)  # 10:00 in Madrid
    world.engine.advance(datetime(2030, 1, 7, 9, 0, tzinfo=UTC))
    assert world.engine.next_due() == datetime(2030, 1, 14, 9, 0, tzinfo=UTC)


def _separate_world(world: World, delay: float) -> tuple[SchedulerEngine, dict[str, Any]]:
    """The world's function, with further execution environments that record how many run at once."""
    seen: dict[str, Any] = {"active": 0, "peak": 0, "names": []}
    lock = threading.Lock()

    def environment(spec: FunctionSpec) -> Any:
        def handler(event: dict[str, Any], context: Any) -> dict[str, Any]:
            with lock:
                seen["active"] += 1
                seen["peak"] = max(seen["peak"], seen["active"])
            time.sleep(delay)
            with lock:
                seen["active"] -= 1
                seen["names"].append(event["name"])
                if len(seen["names"]) == seen.get("stop_after"):
                    seen["engine"].stop()
            return {"ok": True}

        return handler

    runtime = LambdaRuntime(world.runtime.specs, world.clock, world.send, scale_out=environment)
    runtime.load()
    seen["engine"] = SchedulerEngine(
        world.scheduler, runtime, world.clock, world.send, START, concurrency=3, **world.tracked
    )
    return seen["engine"], seen


def test_fires_due_at_one_instant_run_at_once_each_in_an_environment_of_its_own(world: World) -> None:
    engine, seen = _separate_world(world, delay=0.1)
    for n in range(7):
        world.create(f"same{n}", "at(2030-01-07T09:00:00)", {"name": f"same{n}"})
    world.create("alone", "at(2030-01-07T09:01:00)", {"name": "alone"})
    fired = engine.advance(START + timedelta(hours=2))
    assert sorted(f.schedule for f in fired[:7]) == [f"same{n}" for n in range(7)]
    assert fired[-1].schedule == "alone" and all(f.ok for f in fired) and len(fired) == 8
    assert sorted(seen["names"]) == [f"same{n}" for n in range(7)]  # each once, in an environment of its own
    assert seen["peak"] == 3  # three at a time, the engine's concurrency
    assert [c["name"] for c in world.calls] == ["alone"]  # a fire on its own runs in the sandbox's process
    assert world.clock.now() == START + timedelta(hours=2)


@pytest.mark.parametrize("world", ["server"], indirect=True)  # a change from another thread: the moto server
def test_a_fire_waiting_for_an_environment_invokes_the_schedule_as_it_is_then(world: World) -> None:
    """Scheduler invokes a schedule as it is when it invokes it. A one-time entry moved while its fire waited
    for a free environment (a one-shot snoozed in its own minute, behind three slow fires) is not invoked at
    its old time, and is not deleted with that fire: it fires once, at its new time, with its new input.
    Invoked as read when the minute began, the old input went out and the moved entry was deleted after it."""
    engine, seen = _separate_world(world, delay=0.5)
    for n in range(3):
        world.create(f"slow{n}", "at(2030-01-07T09:00:00)", {"name": f"slow{n}"}, ActionAfterCompletion="DELETE")
    world.create("snoozed", "at(2030-01-07T09:00:00)", {"name": "old"}, ActionAfterCompletion="DELETE")
    moving = threading.Thread(target=engine.advance, args=(START + timedelta(hours=1, minutes=5),))
    moving.start()
    time.sleep(0.2)  # the three slow fires under way, the fourth waiting for one of them to end
    world.scheduler.update_schedule(
        Name="snoozed", GroupName="g", ScheduleExpression="at(2030-01-07T09:10:00)", ActionAfterCompletion="DELETE",
        FlexibleTimeWindow={"Mode": "OFF"}, State="ENABLED",
        Target={"Arn": FUNCTION_ARN, "RoleArn": "arn:aws:iam::123456789012:role/r", "Input": '{"name": "new"}'},
    )  # fmt: skip
    moving.join()
    assert sorted(seen["names"]) == ["slow0", "slow1", "slow2"]
    (entry,) = world.scheduler.list_schedules(GroupName="g")["Schedules"]
    assert entry["Name"] == "snoozed"
    fired = engine.advance(START + timedelta(hours=2))
    assert [(f.schedule, f.scheduled_time) for f in fired] == [("snoozed", datetime(2030, 1, 7, 9, 10, tzinfo=UTC))]
    assert [c["name"] for c in world.calls] == ["new"]  # alone at 09:10: in the sandbox's process
    assert world.scheduler.list_schedules(GroupName="g")["Schedules"] == []


@pytest.mark.parametrize("world", ["server"], indirect=True)  # a change from another thread: the moto server
def test_a_recurring_entry_written_while_the_move_stands_on_its_minute_starts_after_it(world: World) -> None:
    """A tool call while a move stands on 09:00 (its fires under way) creates a schedule due every 20 minutes:
    its answer named 09:20 first, as Scheduler starts a schedule from its write. The engine fired it at
    09:00 too, so with `count` the last occurrence the answer promised never came. An entry already known
    at 09:00 still fires then."""
    engine, _ = _separate_world(world, delay=0.5)
    for n in range(3):
        world.create(f"slow{n}", "at(2030-01-07T09:00:00)", {"name": f"slow{n}"}, ActionAfterCompletion="DELETE")
    world.create("known", "cron(0 9 * * ? *)", {"name": "known"})
    moving = threading.Thread(target=engine.advance, args=(START + timedelta(hours=1, minutes=45),))
    moving.start()
    time.sleep(0.2)  # the slow fires at 09:00 under way
    world.create("written", "cron(0/20 * * * ? *)", {"name": "written"})
    moving.join()
    fired = sorted(
        (f.schedule, f.scheduled_time.strftime("%H:%M")) for f in engine.recent if f.schedule in ("known", "written")
    )
    assert fired == [("known", "09:00"), ("written", "09:20"), ("written", "09:40")], fired


@pytest.mark.parametrize("world", ["server"], indirect=True)
def test_a_run_now_asked_for_during_a_move_runs_before_the_clock_moves_on(world: World) -> None:
    """A run_now answered while a move stood on 09:00 (its fires under way) ran in the background while the
    clock moved on: its manual run was posted minutes later in virtual time, and recorded late."""
    engine, _ = _separate_world(world, delay=0.5)
    for n in range(3):
        world.create(f"slow{n}", "at(2030-01-07T09:00:00)", {"name": f"slow{n}"}, ActionAfterCompletion="DELETE")
    world.create("later", "at(2030-01-07T09:30:00)", {"name": "later"}, ActionAfterCompletion="DELETE")
    done_when_set: dict[datetime, bool] = {}
    set_clock = world.clock.set

    def recording_set(value: datetime) -> None:
        done_when_set[value] = any("done" in call for call in world.calls)
        set_clock(value)

    world.clock.set = recording_set  # type: ignore[method-assign]
    moving = threading.Thread(target=engine.advance, args=(START + timedelta(hours=2),))
    moving.start()
    time.sleep(0.2)  # the slow fires at 09:00 under way: the run_now's asynchronous fire starts now
    engine.runtime.invoke_event_background(engine.runtime.find("Target"), json.dumps({"sleep": 0.8}).encode())
    moving.join()
    assert done_when_set[datetime(2030, 1, 7, 9, 30, tzinfo=UTC)] is True


def test_a_stop_ends_a_move_during_a_batch_of_fires_after_the_ones_under_way(world: World) -> None:
    engine, seen = _separate_world(world, delay=0.2)
    for n in range(30):  # ten rounds of three: two seconds
        world.create(f"many{n}", "at(2030-01-07T09:00:00)", {"name": f"many{n}"})
    seen["stop_after"] = 4  # stopped by the fourth fire to end
    with pytest.raises(Stopped):
        engine.advance(START + timedelta(hours=2))
    assert 4 <= len(seen["names"]) <= 6 and seen["active"] == 0  # those under way ended; no more began
    assert world.clock.now() == datetime(2030, 1, 7, 9, 0, tzinfo=UTC)  # the clock stays at the batch's time


def test_the_clock_waits_for_a_run_now_still_running_before_it_moves(world: World) -> None:
    """A run_now is an asynchronous invocation of the fire function: it runs at the instant it was asked for,
    and the clock moves on only once it has ended (else its post lands hours later in virtual time)."""
    spec = world.runtime.find("Target")
    seen: list[bool] = []
    set_clock = world.clock.set

    def recording_set(value: datetime) -> None:
        seen.append(any("done" in call for call in world.calls))
        set_clock(value)

    world.clock.set = recording_set  # type: ignore[method-assign]
    world.runtime.invoke_event_background(spec, json.dumps({"sleep": 0.5}).encode())
    world.engine.advance(START + timedelta(hours=3))
    assert seen == [True]
    assert world.clock.now() == START + timedelta(hours=3)
