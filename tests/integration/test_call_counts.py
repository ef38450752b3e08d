"""AWS calls per operation, exactly as many as today: a change that adds a call to a hot path fails here.

The calls are counted on the wire (botocore's `before-send`, once per HTTP request, retries included) of
the clients the handlers use, while the real handlers run against the moto server. `make bench` counts
the same operations at the server and prints them next to their targets (docs/performance.md).
"""

from __future__ import annotations

import importlib.util
import uuid
from collections import Counter
from collections.abc import Iterator
from types import ModuleType
from typing import Any

import boto3
import pytest

from cronbell import wiring
from cronbell.adapters import aws
from cronbell.core.domain.ports import AgentTimeout
from cronbell.usecases.fire import RetryLater
from tests.support import runs
from tests.support.aws import ROOT, Stack
from tests.support.chat import RecordingChat, TransientChatError
from tests.support.envelopes import ROOM, envelope
from tests.support.handlers import LambdaContext, configure_env, invoke

SLOT = "2026-11-30T08:30:00Z"
# a delivered fire: the schedule and its slot read together, the claim (one conditional write on the
# schedule's item), the record (one conditional write on it too; the projector writes the slot's history
# from the table's stream)
FIRE = {"BatchGetItem": 1, "UpdateItem": 2}
# a delivered fire that ends its schedule (a one-shot, the last of a count) costs the same: its record
# retires it under its live key, and the projector moves it to its retired key, the run kept there
ENDING = FIRE
MONDAY_AT_9 = "2026-11-30T08:00:00Z"  # 09:00 in Madrid


class EchoAgents:
    """Stands in for `LambdaAgents` (the agent Lambda): counts the calls and answers as the echo agent."""

    calls = 0

    def __init__(self, allowlist: Any) -> None:
        self.configured = True

    def call(self, agent_id: str, request: dict[str, Any], timeout_seconds: int) -> str:
        EchoAgents.calls += 1
        return f"echo: {request['prompt']}"


@pytest.fixture
def calls(stack: Stack, monkeypatch: pytest.MonkeyPatch) -> Iterator[Counter[str]]:
    """AWS API calls made by the handlers' clients while the test runs, by operation name."""
    configure_env(stack)
    monkeypatch.setattr(wiring, "LambdaAgents", EchoAgents)
    counter: Counter[str] = Counter()

    def count(event_name: str, **_: Any) -> None:
        counter[event_name.rsplit(".", 1)[-1]] += 1

    clients = [aws.client(service) for service in ("dynamodb", "scheduler", "lambda")]
    for client in clients:
        client.meta.events.register("before-send", count)
    yield counter
    for client in clients:
        client.meta.events.unregister("before-send", count)


@pytest.fixture
def chat(monkeypatch: pytest.MonkeyPatch) -> RecordingChat:
    recorder = RecordingChat()
    monkeypatch.setattr(wiring, "build_sender", lambda settings: recorder)
    EchoAgents.calls = 0
    return recorder


def tool(tool_name: str, /, **arguments: Any) -> dict[str, Any]:
    answer: dict[str, Any] = invoke("tools", envelope(tool_name, arguments))
    assert answer["ok"], answer
    return answer


def fire(schedule_id: str, slot: str = SLOT) -> dict[str, Any]:
    event = {"room_id": ROOM, "reminder_id": schedule_id, "scheduled_time": slot, "execution_id": "e", "attempt": "1"}
    result: dict[str, Any] = invoke("fire", event)
    return result


def measured(calls: Counter[str], action: Any) -> tuple[dict[str, int], Any]:
    calls.clear()
    out = action()
    return dict(calls), out


def projected(stack: Stack, calls: Counter[str]) -> dict[str, int]:
    """The projector's calls for every change written since it last ran: the real handler, given
    the stream records as Lambda delivers them. A tool call or a fire never calls Scheduler itself."""
    calls.clear()
    event = stack.stream_event()
    assert event["Records"] and invoke("projector", event) == {"batchItemFailures": []}
    return dict(calls)


# the projector writes a new entry whole: one CreateSchedule (its projection knows it is new)
NEW_ENTRY = {"CreateSchedule": 1}


def test_create_is_one_transaction_and_its_projection_one_scheduler_entry(stack: Stack, calls: Counter[str]) -> None:
    # a reminder also reads its user's quiet hours (one GetItem): whether a one-shot is set inside
    # them (then never held), and whether they hold its next occurrence (`held_until`)
    once, _ = measured(calls, lambda: tool("create_reminder", message="stand up", time="in 30 minutes"))
    assert once == {"TransactWriteItems": 1, "GetItem": 1}
    assert projected(stack, calls) == NEW_ENTRY
    weekly, _ = measured(calls, lambda: tool("create_reminder", message="review", cron="0 9 * * 1"))
    assert weekly == {"TransactWriteItems": 1, "GetItem": 1}
    assert projected(stack, calls) == NEW_ENTRY
    # day of month OR day of week: two EventBridge expressions, so two entries, still one transaction
    either, _ = measured(calls, lambda: tool("create_reminder", message="pay", cron="0 9 1 * 1"))
    assert either == {"TransactWriteItems": 1, "GetItem": 1}
    assert projected(stack, calls) == {name: 2 * n for name, n in NEW_ENTRY.items()}
    # an agent call is never held: nothing to read
    job, _ = measured(calls, lambda: tool("cron_create", name="news", prompt="Summarise", cron_expr="0 8 * * *"))
    assert job == {"TransactWriteItems": 1}
    assert projected(stack, calls) == NEW_ENTRY


def test_list_is_one_query_and_one_read_per_user_its_reminders_remind(calls: Counter[str]) -> None:
    tool("cron_create", name="news", prompt="Summarise", cron_expr="0 8 * * *")
    agents_only, _ = measured(calls, lambda: tool("list_reminders"))
    assert agents_only == {"Query": 1}  # agent calls are never held: no quiet hours to read
    for n in range(3):
        tool("create_reminder", message=f"r{n}", time=f"in {n + 1} hours")
    listed, answer = measured(calls, lambda: tool("list_reminders"))
    assert listed == {"Query": 1, "GetItem": 1}  # the quiet hours of the one user they remind
    assert len(answer["result"]["schedules"]) == 4
    invoke("tools", envelope("create_reminder", {"message": "hers", "time": "in 2 hours"}, user="@bea:example.org"))
    both, _ = measured(calls, lambda: tool("list_reminders"))
    assert both == {"Query": 1, "GetItem": 2}
    compact, _ = measured(calls, lambda: tool("cron_list"))
    assert compact == {"Query": 1, "GetItem": 2}


def test_delete_is_one_delete_item_and_its_projection_the_scheduler_entry(stack: Stack, calls: Counter[str]) -> None:
    sid = tool("create_reminder", message="gone", time="in 30 minutes")["result"]["id"]
    projected(stack, calls)
    deleted, answer = measured(calls, lambda: tool("delete_reminder", id=sid))
    assert deleted == {"DeleteItem": 1}
    assert projected(stack, calls) == {"DeleteSchedule": 1}
    assert answer["text"].startswith(f"Deleted {sid} “gone” (Monday 30 November, 09:30)")  # the schedule as it was
    # the live item is gone; the audit copy the create wrote stays, under a key the listing never reads
    (kept,) = [item for item in stack.items() if item.get("id") == sid]
    assert kept["sk"] == f"x#{sid}" and kept["status"] == "active" and "expires_at" not in kept
    # and is read as deleted: a second delete is told so, in two reads and nothing else
    again, refused = measured(calls, lambda: invoke("tools", envelope("delete_reminder", {"id": sid})))
    assert again == {"DeleteItem": 1, "GetItem": 1}
    assert refused["error"]["code"] == "not_found" and "(it is deleted)" in refused["error"]["message"]
    assert stack.stream_event()["Records"] == []  # a refused delete writes nothing: nothing to project


def test_a_delete_frees_the_room_place_and_the_pointers_lazily(stack: Stack, calls: Counter[str]) -> None:
    sid = tool("create_reminder", message="again", time="in 30 minutes")["result"]["id"]
    tool("delete_reminder", id=sid)
    projected(stack, calls)
    assert [i["schedule_id"] for i in stack.items() if i["sk"].startswith("d#")] == [sid]
    assert next(i for i in stack.items() if i["sk"] == "room")["live"] == 1  # an upper bound
    # the same reminder again reads the stale pointer's schedule (no live item, its audit copy saying live,
    # so the live item once more: a parallel call may have brought it back between the two reads) and
    # takes the pointer over in its transaction's second attempt
    again, answer = measured(calls, lambda: tool("create_reminder", message="again", time="in 30 minutes"))
    assert answer["result"]["duplicate"] is False and answer["result"]["id"] != sid
    assert again == {"TransactWriteItems": 2, "GetItem": 4}  # and its user's quiet hours
    assert projected(stack, calls) == NEW_ENTRY


@pytest.mark.parametrize(
    ("create", "arguments", "slot", "made"),
    [
        ("create_reminder", {"message": "stand up", "time": "in 30 minutes"}, SLOT, ENDING),
        ("create_reminder", {"message": "review", "cron": "0 9 * * 1"}, MONDAY_AT_9, FIRE),
    ],
    ids=["one-shot", "recurring"],
)
def test_fire_reads_once_claims_and_completes(
    calls: Counter[str], chat: RecordingChat, create: str, arguments: dict[str, Any], slot: str, made: dict[str, int]
) -> None:
    sid = tool(create, **arguments)["result"]["id"]
    fired, result = measured(calls, lambda: fire(sid, slot))
    assert result["outcome"] == "delivered"
    assert fired == made  # its user has no quiet hours: not read
    assert len(chat.sent) == 1


@pytest.mark.parametrize("quiet_first", [True, False], ids=["quiet hours set first", "set after the create"])
def test_a_fire_reads_its_users_quiet_hours_only_when_they_have_some(
    calls: Counter[str], chat: RecordingChat, quiet_first: bool
) -> None:
    """A user with quiet hours pays the read on each reminder's fire, whether the rule came before the
    reminder (the create reads it) or after (setting it marks the user's reminders in the room)."""
    rule = {"start": "22:00", "end": "07:00"}
    if quiet_first:
        tool("set_quiet_hours", **rule)
    sid = tool("create_reminder", message="review", cron="0 9 * * 1")["result"]["id"]
    if not quiet_first:
        tool("set_quiet_hours", **rule)
    fired, result = measured(calls, lambda: fire(sid, MONDAY_AT_9))
    assert result["outcome"] == "delivered"
    assert fired == {**FIRE, "GetItem": 1}  # the schedule and its slot, then its user's quiet hours
    tool("clear_quiet_hours")
    fired, result = measured(calls, lambda: fire(sid, "2026-12-07T08:00:00Z"))
    assert result["outcome"] == "delivered"
    assert fired["GetItem"] == 1  # cleared: still read (and found absent) until it is written again


def test_the_last_counted_delivery_completes_in_its_one_record(
    stack: Stack, calls: Counter[str], chat: RecordingChat
) -> None:
    sid = tool("create_reminder", message="three times", cron="0 9 * * 1", count=1)["result"]["id"]
    projected(stack, calls)
    fired, result = measured(calls, lambda: fire(sid, MONDAY_AT_9))
    assert result["outcome"] == "delivered"
    # the run, the count and `completed` in the one completing write; then the projection removes its entry
    assert fired == ENDING
    # and moves it to its retired key, its run kept there (its slot read: had an attempt left an item?)
    assert projected(stack, calls) == {"DeleteSchedule": 1, "PutItem": 1, "GetItem": 1, "DeleteItem": 1}
    listed = tool("list_reminders", include_inactive=True)["result"]["schedules"]
    assert [s["status"] for s in listed] == ["completed"]


def test_a_holiday_is_read_and_recorded_in_two_calls(calls: Counter[str], chat: RecordingChat) -> None:
    sid = tool("create_reminder", message="daily", cron="0 9 * * *", skip_holidays="ES")["result"]["id"]
    fired, result = measured(calls, lambda: fire(sid, "2026-12-08T08:00:00Z"))
    assert result["outcome"] == "skipped" and result["reason"] == "holiday"
    assert fired == {"BatchGetItem": 1, "UpdateItem": 1}  # the skipped run on the schedule; its slot from the stream
    assert chat.sent == []


def test_agent_call_fire_adds_only_the_agent_call_and_the_post(calls: Counter[str], chat: RecordingChat) -> None:
    sid = tool("cron_create", name="summary", prompt="Summarise {room_id}", cron_expr="0 18 * * *")["result"]["id"]
    fired, result = measured(calls, lambda: fire(sid, "2026-11-30T17:00:00Z"))
    assert result["outcome"] == "delivered"
    assert fired == FIRE
    assert EchoAgents.calls == 1 and len(chat.sent) == 1


def test_a_duplicate_fire_stops_at_its_claim_then_at_its_read(
    stack: Stack, calls: Counter[str], chat: RecordingChat
) -> None:
    """Before the projector has written the run's slot, a duplicate's claim is refused by the schedule's
    record (the slot among its last recorded ones); once it has, the duplicate stops at its read."""
    sid = tool("create_reminder", message="once", cron="0 9 * * 1")["result"]["id"]
    assert projected(stack, calls) == NEW_ENTRY
    assert fire(sid, MONDAY_AT_9)["outcome"] == "delivered"
    early, result = measured(calls, lambda: fire(sid, MONDAY_AT_9))
    assert result["outcome"] == "duplicate" and early == {"BatchGetItem": 1, "UpdateItem": 1}
    assert projected(stack, calls) == {"UpdateItem": 1}  # the slot's history, and no Scheduler call
    again, result = measured(calls, lambda: fire(sid, MONDAY_AT_9))
    assert result["outcome"] == "duplicate"
    assert again == {"BatchGetItem": 1}  # the slot, read with the schedule, is done: nothing is written
    assert len(chat.sent) == 1


def fresh_import(function: str) -> ModuleType:
    """Import a function's app.py anew, as a new execution environment would."""
    spec = importlib.util.spec_from_file_location(
        f"cronbell_init_{uuid.uuid4().hex}", ROOT / "functions" / function / "app.py"
    )
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture
def in_lambda(stack: Stack, monkeypatch: pytest.MonkeyPatch) -> Iterator[pytest.MonkeyPatch]:
    configure_env(stack)
    monkeypatch.setenv("AWS_LAMBDA_FUNCTION_NAME", "cronbell-test")
    yield monkeypatch
    wiring.settings.cache_clear()
    wiring.deps.cache_clear()


@pytest.mark.parametrize("function", ["tools", "fire"])
def test_in_lambda_the_clients_are_built_while_the_function_initialises(
    in_lambda: pytest.MonkeyPatch, function: str
) -> None:
    fresh_import(function)
    assert wiring.deps.cache_info().currsize == 1


def test_outside_lambda_importing_a_handler_builds_nothing(stack: Stack, monkeypatch: pytest.MonkeyPatch) -> None:
    configure_env(stack)
    monkeypatch.delenv("AWS_LAMBDA_FUNCTION_NAME", raising=False)
    fresh_import("tools")
    assert wiring.deps.cache_info().currsize == 0


def test_a_failure_at_init_is_left_to_the_first_invocation(in_lambda: pytest.MonkeyPatch) -> None:
    in_lambda.setenv("AGENTS", "{not json")
    wiring.settings.cache_clear()
    app = fresh_import("tools")  # the import itself never fails
    assert wiring.deps.cache_info().currsize == 0
    with pytest.raises(ValueError):
        app.lambda_handler(envelope("list_reminders"), LambdaContext())


# --- runs --------------------------------------------------------------------------------------


@pytest.fixture
def scanned(calls: Counter[str]) -> Iterator[list[int]]:
    """The items each DynamoDB Query of the handlers read (its ScannedCount), in order."""
    counts: list[int] = []

    def note(parsed: dict[str, Any], **_: Any) -> None:
        counts.append(int(parsed.get("ScannedCount", 0)))

    client = aws.client("dynamodb")
    client.meta.events.register("after-call.dynamodb.Query", note)
    yield counts
    client.meta.events.unregister("after-call.dynamodb.Query", note)


def plant_runs(stack: Stack, schedule_id: str, count: int) -> None:
    runs.plant_runs(stack.ddb, stack.settings.table_name, ROOM, schedule_id, count)


def test_list_reads_no_run_items_however_long_the_history(
    stack: Stack, calls: Counter[str], scanned: list[int]
) -> None:
    sid = tool("create_reminder", message="daily", cron="0 9 * * *")["result"]["id"]
    listed, _ = measured(calls, lambda: tool("list_reminders"))
    before = scanned[-1]
    plant_runs(stack, sid, 1000)
    again, answer = measured(calls, lambda: tool("list_reminders"))
    assert listed == again == {"Query": 1, "GetItem": 1}  # and its user's quiet hours
    assert scanned[-1] == before == 1  # the runs live under keys the listing never reads
    assert answer["result"]["schedules"][0]["failure_streak"] == 0


def test_history_reads_that_schedules_runs_only(stack: Stack, calls: Counter[str], scanned: list[int]) -> None:
    sid = tool("create_reminder", message="daily", cron="0 9 * * *")["result"]["id"]
    other = tool("create_reminder", message="other", cron="0 10 * * *")["result"]["id"]
    plant_runs(stack, sid, 30)
    plant_runs(stack, other, 30)
    read, answer = measured(calls, lambda: tool("reminder_history", id=sid, limit=7))
    # the room's partition, that schedule's runs, and the run its retired copy may keep (the one that ended it)
    assert read == {"Query": 1, "GetItem": 1}
    assert scanned[-1] == 7 and len(answer["result"]["runs"]) == 7
    # with no runs yet, the schedule is looked up to tell an empty history from an unknown id
    fresh = tool("create_reminder", message="fresh", cron="0 11 * * *")["result"]["id"]
    read, answer = measured(calls, lambda: tool("reminder_history", id=fresh))
    assert read == {"Query": 1, "GetItem": 2} and answer["result"] == {
        "id": fresh,
        "runs": [],
        "now": answer["result"]["now"],
    }
    unknown = invoke("tools", envelope("reminder_history", {"id": "zzzzzzzzzz"}))
    assert unknown["ok"] is False and unknown["error"]["code"] == "not_found"


def retire_in_room(count: int) -> None:
    """`count` schedules of the room retired the ways a room retires them: most deleted, every
    fifth a one-shot fired (delivered at its time)."""
    for n in range(count):
        created = tool("create_reminder", message=f"kept {n}", time="in 30 minutes")["result"]
        if n % 5:
            tool("delete_reminder", id=created["id"])
        else:
            assert fire(created["id"], created["next_fire"]["utc"])["outcome"] == "delivered"


def test_list_reads_no_retired_schedule_and_no_run(
    stack: Stack, calls: Counter[str], scanned: list[int], chat: RecordingChat
) -> None:
    live = [tool("create_reminder", message=f"daily {n}", cron=f"0 {9 + n} * * *")["result"]["id"] for n in range(3)]
    listed, _ = measured(calls, lambda: tool("list_reminders"))
    alone = scanned[-1]
    retire_in_room(120)  # more than the room limit (50): the places retired schedules held were freed
    projected(stack, calls)  # the projector applies the fires' changes: the fired ones move to their retired keys
    plant_runs(stack, live[0], 1000)
    again, answer = measured(calls, lambda: tool("list_reminders"))
    assert listed == again == {"Query": 1, "GetItem": 1}  # and their user's quiet hours
    assert scanned[-1] == alone == 3  # neither the 120 retired schedules nor the 1,000 runs are read
    assert sorted(s["id"] for s in answer["result"]["schedules"]) == sorted(live)
    # asked for, the retired ones are one more Query over their own keys
    everything, answer = measured(calls, lambda: tool("list_reminders", include_inactive=True))
    # (the audit copies of the 3 live schedules are read too, and left out: none is listed twice)
    assert everything == {"Query": 2, "GetItem": 1} and scanned[-2:] == [123, 3]
    statuses = Counter(s["status"] for s in answer["result"]["schedules"])
    assert statuses == {"active": 3, "deleted": 96, "fired": 24}


def test_history_of_a_deleted_schedule_reads_its_runs(stack: Stack, calls: Counter[str], scanned: list[int]) -> None:
    sid = tool("create_reminder", message="daily", cron="0 9 * * *")["result"]["id"]
    plant_runs(stack, sid, 12)
    tool("delete_reminder", id=sid)
    read, answer = measured(calls, lambda: tool("reminder_history", id=sid, limit=5))
    assert read == {"Query": 1, "GetItem": 1}  # its runs outlive it for the retention period
    assert scanned[-1] == 5 and len(answer["result"]["runs"]) == 5 and answer["result"]["id"] == sid


def test_fire_with_a_bus_adds_only_one_put_events(
    stack: Stack, calls: Counter[str], chat: RecordingChat, monkeypatch: pytest.MonkeyPatch
) -> None:
    events = boto3.client("events", region_name="us-east-1", endpoint_url=stack.endpoint)
    events.create_event_bus(Name="cronbell-calls")
    monkeypatch.setenv("EVENT_BUS_NAME", "cronbell-calls")
    wiring.settings.cache_clear()
    wiring.deps.cache_clear()

    def count(event_name: str, **_: Any) -> None:
        calls[event_name.rsplit(".", 1)[-1]] += 1

    aws.client("events").meta.events.register("before-send", count)
    sid = tool("cron_create", name="summary", prompt="Summarise", cron_expr="0 18 * * *")["result"]["id"]
    fired, result = measured(calls, lambda: fire(sid, "2026-11-30T17:00:00Z"))
    assert result["outcome"] == "delivered"
    assert fired == {**FIRE, "PutEvents": 1}
    aws.client("events").meta.events.unregister("before-send", count)
    wiring.deps.cache_clear()


def test_a_failed_agent_call_with_its_notice_stays_within_the_budget(
    calls: Counter[str], chat: RecordingChat, monkeypatch: pytest.MonkeyPatch
) -> None:
    def fail(self: EchoAgents, agent_id: str, request: dict[str, Any], timeout_seconds: int) -> str:
        raise AgentTimeout("the agent did not answer within 120 s")

    monkeypatch.setattr(EchoAgents, "call", fail)
    sid = tool("cron_create", name="summary", prompt="Summarise", cron_expr="0 18 * * *")["result"]["id"]
    fired, result = measured(calls, lambda: fire(sid, "2026-11-30T17:00:00Z"))
    assert result["outcome"] == "failed" and result["reason"] == "agent_timeout"
    assert fired == FIRE  # notice, then streak and run in one write
    assert len(chat.sent) == 1


def test_a_chat_outage_on_the_last_attempt_stays_within_the_budget(calls: Counter[str], chat: RecordingChat) -> None:
    sid = tool("create_reminder", message="stand up", cron="0 9 * * 1")["result"]["id"]
    for _ in range(2):  # Lambda's first two attempts: the claim is given back, the count kept
        chat.fail_with = TransientChatError("slack answered 503")
        with pytest.raises(RetryLater):
            fire(sid, MONDAY_AT_9)
    chat.fail_with = TransientChatError("slack answered 503")
    fired, result = measured(calls, lambda: fire(sid, MONDAY_AT_9))
    assert result["outcome"] == "failed" and result["reason"] == "chat_error"
    assert fired == FIRE  # the run and the streak in one write
    assert chat.sent == []


def test_an_off_week_fire_is_one_read_and_nothing_else(calls: Counter[str], chat: RecordingChat) -> None:
    """The weekly entry of 'every other monday' fires every week; the off week is decided from the item
    the fire reads anyway: no claim, no run, no post."""
    sid = tool("create_reminder", message="review", cron="every other monday at 9:30")["result"]["id"]
    on_week, result = measured(calls, lambda: fire(sid, SLOT))
    assert result["outcome"] == "delivered" and on_week == FIRE
    off_week, result = measured(calls, lambda: fire(sid, "2026-12-07T08:30:00Z"))
    assert result["outcome"] == "off_interval" and off_week == {"BatchGetItem": 1}
    assert len(chat.sent) == 1
