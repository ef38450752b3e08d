"""The projector on a moto server and its stream: the one writer of Scheduler.

- a tool call writes no Scheduler entry; the stream's changes, applied, write them;
- an entry Scheduler refuses ends its schedule `failed` (`scheduler_refused`) with an event, never
  listed active with no entry;
- the handler (Powertools' batch utility) reports a failed change and holds back the later changes of
  the same item in that batch, so one item's changes are applied in order; other items' go on;
- a change delivered again does no harm.
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from typing import Any

import pytest

from cronbell.adapters.aws import AwsError
from cronbell.adapters.dynamo.codec import stream_change
from cronbell.adapters.scheduler import SchedulerGateway
from cronbell.usecases.project import apply
from tests.support.aws import Stack
from tests.support.handlers import LambdaContext, configure_env, load_handler
from tests.support.tools import call, ok, schedule_item


class Events:
    def __init__(self) -> None:
        self.published: list[tuple[str, dict[str, Any]]] = []

    def publish(self, detail_type: str, detail: dict[str, Any]) -> None:
        self.published.append((detail_type, detail))


class RefusingClient:
    """A Scheduler client that refuses one entry as AWS does a schedule it will never take."""

    def __init__(self, real: Any, refused: str, code: str = "ValidationException") -> None:
        self._real, self._refused, self._code = real, refused, code

    def __getattr__(self, name: str) -> Any:
        attr = getattr(self._real, name)
        if name not in ("create_schedule", "update_schedule"):
            return attr

        def call(**kwargs: Any) -> Any:
            if kwargs["Name"] == self._refused:
                from botocore.exceptions import ClientError

                error = {"Error": {"Code": self._code, "Message": "Invalid Schedule Expression"}}
                raise ClientError(error, name)  # type: ignore[arg-type]
            return attr(**kwargs)

        return call


def gateway(stack: Stack, client: Any) -> SchedulerGateway:
    s = stack.settings
    return SchedulerGateway(client, s.schedule_group, s.fire_function_arn, s.scheduler_role_arn, s.scheduler_dlq_arn)


def test_a_tool_call_writes_no_entry_and_its_change_applied_writes_them(stack: Stack) -> None:
    sid = ok(call(stack, "create_reminder", {"message": "a", "cron": "0 9 1 * 5"}))["id"]
    assert stack.scheduler.list_schedules(GroupName=stack.settings.schedule_group)["Schedules"] == []
    assert stack.project() >= 1
    assert set(stack.entries()) == {sid, f"{sid}-2"}


@pytest.mark.parametrize("code", ["ValidationException", "ServiceQuotaExceededException"])
def test_an_entry_scheduler_refuses_ends_its_schedule_failed_with_an_event(stack: Stack, code: str) -> None:
    sid = ok(call(stack, "create_reminder", {"message": "a", "cron": "0 9 * * *"}))["id"]
    events = Events()
    stack.project(scheduler=gateway(stack, RefusingClient(stack.scheduler, sid, code)), events=events)
    item = schedule_item(stack, sid)
    assert (item["status"], item["status_reason"]) == ("failed", "scheduler_refused")
    listed = ok(call(stack, "list_reminders", {"include_inactive": True}))["schedules"]
    (shown,) = [s for s in listed if s["id"] == sid]
    assert (shown["status"], shown["status_reason"], shown["next_fire"]) == ("failed", "scheduler_refused", None)
    assert sid not in {s["id"] for s in ok(call(stack, "list_reminders"))["schedules"]}
    ((kind, detail),) = events.published
    assert kind == "Schedule Failed" and detail["schedule_id"] == sid and detail["status_reason"] == "scheduler_refused"
    assert stack.entries() == {}


def test_a_throttled_write_raises_so_the_stream_delivers_the_change_again(stack: Stack) -> None:
    sid = ok(call(stack, "create_reminder", {"message": "a", "cron": "0 9 * * *"}))["id"]
    (record,) = [r for r in stack.stream_records() if r["dynamodb"]["Keys"]["sk"]["S"] == f"s#{sid}"]
    throttled = gateway(stack, RefusingClient(stack.scheduler, sid, "ThrottlingException"))
    with pytest.raises(AwsError):
        apply(stream_change(record), stack.deps(scheduler=throttled))
    assert schedule_item(stack, sid)["status"] == "active"  # nothing decided on a failure that may pass
    apply(stream_change(record), stack.deps())
    apply(stream_change(record), stack.deps())  # delivered again: the same entry, nothing more
    assert list(stack.entries()) == [sid]


class CountingClient:
    """A Scheduler client that counts the calls made to it by name."""

    def __init__(self, real: Any) -> None:
        self._real, self.calls = real, Counter[str]()

    def __getattr__(self, name: str) -> Any:
        attr = getattr(self._real, name)
        if not name.endswith("_schedule"):
            return attr

        def call(**kwargs: Any) -> Any:
            self.calls[name] += 1
            return attr(**kwargs)

        return call


def test_a_new_entry_takes_one_call_and_a_change_delivered_again_one_more(stack: Stack) -> None:
    """The projection knows an entry is new: one CreateSchedule. Delivered again (the entry is there
    now), the create is refused as a conflict and the update that follows writes it whole; a changed
    entry is one UpdateSchedule."""
    sid = ok(call(stack, "create_reminder", {"message": "a", "cron": "0 9 * * *"}))["id"]
    (record,) = [r for r in stack.stream_records() if r["dynamodb"]["Keys"]["sk"]["S"] == f"s#{sid}"]
    counting = CountingClient(stack.scheduler)
    apply(stream_change(record), stack.deps(scheduler=gateway(stack, counting)))
    assert counting.calls == Counter(create_schedule=1)
    apply(stream_change(record), stack.deps(scheduler=gateway(stack, counting)))
    assert counting.calls == Counter(create_schedule=2, update_schedule=1)
    assert list(stack.entries()) == [sid]
    ok(call(stack, "update_reminder", {"id": sid, "cron": "30 9 * * *"}))
    (changed,) = [r for r in stack.stream_records() if r["dynamodb"]["Keys"]["sk"]["S"] == f"s#{sid}"][-1:]
    counting.calls.clear()
    apply(stream_change(changed), stack.deps(scheduler=gateway(stack, counting)))
    assert counting.calls == Counter(update_schedule=1)
    assert "cron(30 9 * * ? *)" in stack.entries()[sid]["ScheduleExpression"]


def _handler(stack: Stack) -> Any:
    configure_env(stack)
    return load_handler("projector")


def _event(records: list[dict[str, Any]]) -> dict[str, Any]:
    """Stream records as Lambda hands them to a function (times as epoch seconds)."""
    out = []
    for record in records:
        images = dict(record["dynamodb"])
        images["ApproximateCreationDateTime"] = images["ApproximateCreationDateTime"].timestamp()
        out.append({**record, "dynamodb": images, "eventSourceARN": "arn:aws:dynamodb:us-east-1:1:table/t/stream/s"})
    return {"Records": out}


def test_the_handler_holds_back_an_items_later_changes_after_its_failed_one(
    stack: Stack, monkeypatch: pytest.MonkeyPatch
) -> None:
    handler = _handler(stack)
    first = ok(call(stack, "create_reminder", {"message": "first", "cron": "0 9 * * *"}))["id"]
    ok(call(stack, "pause_reminder", {"id": first}))
    other = ok(call(stack, "create_reminder", {"message": "other", "cron": "0 10 * * *"}))["id"]
    records = stack.stream_records()
    keys = Counter(json.dumps(r["dynamodb"]["Keys"], sort_keys=True) for r in records)
    assert max(keys.values()) >= 2  # the first schedule's item changed twice in this batch
    app = sys.modules[handler.__name__]
    deps = app.deps()
    refusing = gateway(stack, RefusingClient(stack.scheduler, first, "ThrottlingException"))
    monkeypatch.setattr(app, "deps", lambda: deps.__class__(**{**vars(deps), "scheduler": refusing}))
    answer = handler.lambda_handler(_event(records), LambdaContext(function_name="projector"))
    failed = {f["itemIdentifier"] for f in answer["batchItemFailures"]}
    first_item = [r for r in records if r["dynamodb"]["Keys"]["sk"]["S"] == f"s#{first}"]
    assert {r["dynamodb"]["SequenceNumber"] for r in first_item} <= failed  # the pause waits for the create
    entries = stack.scheduler.list_schedules(GroupName=stack.settings.schedule_group)["Schedules"]
    assert {e["Name"] for e in entries} == {other}  # another item's change went on
    monkeypatch.undo()
    retried = [r for r in records if r["dynamodb"]["SequenceNumber"] in failed]
    assert handler.lambda_handler(_event(retried), LambdaContext(function_name="projector"))["batchItemFailures"] == []
    got = stack.scheduler.get_schedule(Name=first, GroupName=stack.settings.schedule_group)
    assert got["State"] == "DISABLED"  # the last version: paused
