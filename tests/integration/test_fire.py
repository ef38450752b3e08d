"""The fire use case on a moto server: exactly once per slot, one-shots marked fired, cleanup."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

from cronbell.adapters.dynamo import DynamoStore, codec
from cronbell.core.domain.fire_event import parse_fire_event
from cronbell.core.domain.ports import UnknownWorkspace
from cronbell.usecases import fire as fire_uc
from cronbell.usecases import tools
from cronbell.usecases.fire import RetryLater
from tests.support.aws import TABLE, Stack, WithHistory
from tests.support.chat import PermanentChatError, RecordingChat, TransientChatError
from tests.support.envelopes import ROOM, USER, envelope
from tests.support.faults import CallLog
from tests.support.lambda_timing import at_slot
from tests.support.tools import assert_consistent, live_items, ok, schedule_item


def create(stack: Stack, **args: Any) -> str:
    return str(ok(tools.handle(envelope("create_reminder", {"message": "Stand up", **args}), stack.deps()))["id"])


def scheduler_input(sid: str, slot: str, attempt: int = 1) -> dict[str, Any]:
    """Input exactly as Scheduler delivers it, context attributes filled in."""
    return {
        "room_id": ROOM,
        "reminder_id": sid,
        "scheduled_time": slot,
        "execution_id": f"exec-{slot}-{attempt}",
        "attempt": str(attempt),
    }


def run(
    stack: Stack, chat: RecordingChat, event: dict[str, Any], metrics: list[str] | None = None, **deps: Any
) -> dict[str, Any]:
    at_slot(stack.clock, event)
    wired = stack.deps(
        chat=lambda: chat,
        metric=lambda name, value: metrics.append(name) if metrics is not None else None,
        **deps,
    )
    return fire_uc.fire(parse_fire_event(event, stack.clock.now()), wired)


def test_one_shot_delivered_once_then_marked_fired(stack: Stack) -> None:
    sid = create(stack, time="2026-11-30 10:00")
    chat = RecordingChat()
    stack.clock.advance(hours=1)
    metrics: list[str] = []
    out = run(stack, chat, scheduler_input(sid, "2026-11-30T09:00:00Z"), metrics)
    assert out["outcome"] == "delivered"
    [(message, key)] = chat.sent
    assert message.room_id == ROOM and USER in message.mentions and "Stand up" in message.text
    assert key == f"{sid}-2026-11-30T09:00:00Z"
    item = schedule_item(stack, sid)
    assert item["status"] == "fired" and item["fired_at"] == "2026-11-30T09:00:00Z"
    assert int(item["fire_count"]) == 1 and int(item["expires_at"]) > 0
    # the run that retired it is its copy's final run (no slot item), which its history reads
    assert not [i for i in stack.items() if i["sk"].startswith("f#")]
    assert item["final_run"]["slot"] == "2026-11-30T09:00:00Z" and item["final_run"]["outcome"] == "delivered"
    [final] = stack.deps().store.runs(ROOM, sid, 10)
    assert final.outcome == "delivered" and not final.manual
    assert "Fired" in metrics and "FireLatencySeconds" in metrics
    # a duplicate delivery (Lambda async duplicate, Scheduler retry) posts nothing
    again = run(stack, chat, scheduler_input(sid, "2026-11-30T09:00:00Z", attempt=2), metrics)
    assert again["outcome"] in ("duplicate", "inactive") and len(chat.sent) == 1
    listed = ok(tools.handle(envelope("list_reminders", {"include_inactive": True}), stack.deps()))["schedules"]
    assert listed[0]["status"] == "fired" and listed[0]["next_fire"] is None
    assert live_items(stack) == []
    assert_consistent_after_fire(stack)


def assert_consistent_after_fire(stack: Stack) -> None:
    # a fired one-shot's at() entry is removed by Scheduler itself (ActionAfterCompletion DELETE)
    for name, entry in stack.entries().items():
        if entry["ActionAfterCompletion"] == "DELETE":
            stack.scheduler.delete_schedule(Name=name, GroupName=stack.settings.schedule_group)
    assert_consistent(stack)


def test_recurring_slots_each_post_once(stack: Stack) -> None:
    sid = create(stack, cron="0 9 * * *")
    chat = RecordingChat()
    for day in ("2026-12-01", "2026-12-02", "2026-12-01"):
        run(stack, chat, scheduler_input(sid, f"{day}T08:00:00Z"))
    assert len(chat.sent) == 2
    item = schedule_item(stack, sid)
    assert item["status"] == "active" and int(item["fire_count"]) == 2
    assert_consistent(stack)


def test_both_entries_of_a_dom_or_dow_schedule_in_one_minute_post_once(stack: Stack) -> None:
    sid = create(stack, cron="0 9 1 * 2")  # 1 Dec 2026 is a Tuesday: both entries fire
    chat = RecordingChat()
    run(stack, chat, scheduler_input(sid, "2026-12-01T08:00:00Z"))
    run(stack, chat, scheduler_input(sid, "2026-12-01T08:00:00Z"))
    assert len(chat.sent) == 1


def test_a_claim_colliding_with_another_transaction_is_tried_again_at_once(stack: Stack) -> None:
    """Two entries of one schedule (or a duplicate delivery) firing together can make DynamoDB
    refuse one claim while another's record is writing the item (TransactionConflictException): it is
    tried again now, not left to Lambda's retry."""
    sid = create(stack, cron="0 9 * * *")
    chat = RecordingChat()
    log = CallLog(fail_at=1, failure="item conflict")  # the schedule's and the slot's read, then the claim
    store = DynamoStore(log.wrap(stack.ddb), stack.settings.table_name, stack.settings.retention_days)
    assert run(stack, chat, scheduler_input(sid, "2026-12-01T08:00:00Z"), store=store)["outcome"] == "delivered"
    calls = ["batch_get_item", "update_item", "update_item", "update_item"]
    assert log.calls == calls  # the read, the claim twice, the record (its user has no quiet hours)
    assert len(chat.sent) == 1
    assert_consistent(stack)


def test_five_concurrent_fires_of_one_slot_post_once(stack: Stack) -> None:
    sid = create(stack, cron="0 9 * * *")
    chat = RecordingChat(delay=0.2)
    barrier = threading.Barrier(5)

    def one(_: int) -> str:
        barrier.wait()
        try:
            return str(run(stack, chat, scheduler_input(sid, "2026-12-01T08:00:00Z"))["outcome"])
        except RetryLater:
            return "retry"

    with ThreadPoolExecutor(5) as pool:
        outcomes = list(pool.map(one, range(5)))
    assert len(chat.sent) == 1
    # the copies that met the live claim asked Lambda to retry (one that came after finds it done)
    assert sorted(outcomes)[0] == "delivered" and set(sorted(outcomes)[1:]) <= {"duplicate", "retry"}, outcomes
    barrier = threading.Barrier(1)
    assert one(0) == "duplicate"


def test_unknown_schedule_sends_nothing_and_removes_orphan_entry(stack: Stack) -> None:
    stack.plant_entry("orphan2345")
    chat = RecordingChat()
    stack.clock.advance(days=1, minutes=2)  # past the grace a one-shot just created may need
    out = run(stack, chat, scheduler_input("orphan2345", "2026-12-01T08:00:00Z"))
    assert out["outcome"] == "unknown_schedule" and chat.sent == []
    assert stack.entries() == {}


def test_deleted_schedule_sends_nothing_and_removes_leftover_entries(stack: Stack) -> None:
    sid = create(stack, cron="0 9 1 * 5")
    item = schedule_item(stack, sid)
    ok(tools.handle(envelope("delete_reminder", {"id": sid}), stack.deps()))
    # simulate a delete whose Scheduler cleanup failed: the entries are still there
    for name, expression in zip([sid, f"{sid}-2"], item["expressions"], strict=True):
        stack.plant_entry(name, owner=sid, expression=expression)
    chat = RecordingChat()
    out = run(stack, chat, scheduler_input(sid, "2026-12-01T08:00:00Z"))
    assert out["outcome"] == "inactive" and chat.sent == [] and stack.entries() == {}


def test_transient_failure_releases_the_slot_for_the_retry(stack: Stack) -> None:
    sid = create(stack, time="2026-11-30 10:00")
    chat = RecordingChat(fail_with=TransientChatError("503"))
    with pytest.raises(RetryLater):
        run(stack, chat, scheduler_input(sid, "2026-11-30T09:00:00Z"))
    assert chat.sent == []
    out = run(stack, chat, scheduler_input(sid, "2026-11-30T09:00:00Z", attempt=2))
    assert out["outcome"] == "delivered" and len(chat.sent) == 1


def test_crashed_attempt_is_taken_over_after_the_lease(stack: Stack) -> None:
    sid = create(stack, cron="0 9 * * *")
    schedule = stack.deps().store.get(ROOM, sid)
    assert schedule is not None
    stack.clock.advance(days=1)  # the slot's time
    stack.deps().store.claim_slot(ROOM, sid, "2026-12-01T08:00:00Z", stack.clock.now(), 900, schedule)  # then "crash"
    chat = RecordingChat()
    with pytest.raises(RetryLater):  # a live claim is never answered as done: Lambda retries
        run(stack, chat, scheduler_input(sid, "2026-12-01T08:00:00Z"))
    stack.clock.advance(seconds=901)
    assert run(stack, chat, scheduler_input(sid, "2026-12-01T08:00:00Z"))["outcome"] == "delivered"
    assert len(chat.sent) == 1


def test_a_claim_an_earlier_release_wrote_is_honoured_until_its_lease_ends(stack: Stack) -> None:
    """0.4.2 claimed a slot with a transaction: the slot's own item claimed with its lease, and the
    schedule marked. A fire of this release meeting such a claim in flight (both versions run while a
    deployment's canary lasts) posts nothing until the lease is over, then takes it over."""
    sid = create(stack, cron="0 9 * * *")
    stack.clock.advance(days=1)  # the slot's time
    slot, until = "2026-12-01T08:00:00Z", "2026-12-01T08:15:00Z"
    ref = codec.SlotRef(ROOM, sid, slot)
    stack.ddb.put_item(TableName=TABLE, Item=codec.dump(codec.claim_item(ref, slot, until, 2_000_000_000)))
    stack.ddb.update_item(
        TableName=TABLE,
        Key=codec.key(ROOM, codec.schedule_sk(sid)),
        UpdateExpression="SET inflight_slot = :slot, inflight_until = :until, inflight_attempts = :n",
        ExpressionAttributeValues=codec.dump({":slot": slot, ":until": until, ":n": 1}),
    )
    chat = RecordingChat()
    with pytest.raises(RetryLater):  # a live claim is never answered as done: Lambda retries
        run(stack, chat, scheduler_input(sid, slot))
    assert chat.sent == []
    stack.clock.advance(seconds=901)
    assert run(stack, chat, scheduler_input(sid, slot, attempt=2))["outcome"] == "delivered"
    assert len(chat.sent) == 1
    item = stack.ddb.get_item(TableName=TABLE, Key=ref.key, ConsistentRead=True)["Item"]
    assert codec.state_of(item) == codec.DONE


def test_permanent_refusal_is_recorded_and_not_retried(stack: Stack) -> None:
    sid = create(stack, cron="0 9 * * *")
    chat = RecordingChat(fail_with=PermanentChatError("M_FORBIDDEN 403", room_gone=True))
    metrics: list[str] = []
    out = run(stack, chat, scheduler_input(sid, "2026-12-01T08:00:00Z"), metrics)
    assert out["outcome"] == "delivery_failed" and out["reason"] == "M_FORBIDDEN 403"
    assert "DeliveryFailed" in metrics
    item = schedule_item(stack, sid)
    assert item["status"] == "delivery_failed" and item["status_reason"] == "M_FORBIDDEN 403"
    assert stack.entries() == {}
    assert_consistent(stack)
    # the next occurrence does not try again
    assert run(stack, chat, scheduler_input(sid, "2026-12-02T08:00:00Z"))["outcome"] == "inactive"


def test_paused_schedule_is_skipped(stack: Stack) -> None:
    sid = create(stack, cron="0 9 * * *")
    stack.ddb.update_item(
        TableName=stack.settings.table_name,
        Key={"room_id": {"S": ROOM}, "sk": {"S": f"s#{sid}"}},
        UpdateExpression="SET #s = :p",
        ExpressionAttributeNames={"#s": "status"},
        ExpressionAttributeValues={":p": {"S": "paused"}},
    )
    chat = RecordingChat()
    assert run(stack, chat, scheduler_input(sid, "2026-12-01T08:00:00Z"))["outcome"] == "paused"
    assert chat.sent == [] and sid in stack.entries()


def test_no_post_after_a_successful_delete_answer(stack: Stack) -> None:
    """Delete racing a fire: either the post happened before the delete answered, or never."""
    sid = create(stack, cron="0 9 * * *")
    chat = RecordingChat(delay=0.5)
    deps = stack.deps(sleep=lambda s: __import__("time").sleep(s))
    answered_at: list[int] = []

    def fire_it() -> None:
        run(stack, chat, scheduler_input(sid, "2026-12-01T08:00:00Z"))

    def delete_it() -> None:
        answer = tools.handle(envelope("delete_reminder", {"id": sid}), deps)
        assert answer["ok"], answer
        answered_at.append(len(chat.sent))

    t = threading.Thread(target=fire_it)
    t.start()
    __import__("time").sleep(0.1)
    delete_it()
    t.join()
    assert answered_at == [len(chat.sent)]  # nothing was posted after the delete answered
    assert run(stack, chat, scheduler_input(sid, "2026-12-02T08:00:00Z"))["outcome"] in (
        "inactive",
        "unknown_schedule",
    )


def test_posted_but_not_recorded_is_recorded_by_the_retry_without_posting_again(stack: Stack) -> None:
    from cronbell.adapters.aws import AwsError
    from cronbell.adapters.dynamo import DynamoStore
    from tests.support.faults import throttling

    class UnrecordingStore(DynamoStore):
        def complete_slot(self, *args: Any, **kwargs: Any) -> None:
            raise AwsError(throttling("TransactWriteItems"))

    sid = create(stack, time="2026-11-30 10:00")
    chat = RecordingChat()
    broken = UnrecordingStore(stack.ddb, stack.settings.table_name, stack.settings.retention_days)
    fd = stack.deps(store=broken, chat=lambda: chat)
    stack.clock.advance(hours=1)  # the slot's time
    event = parse_fire_event(scheduler_input(sid, "2026-11-30T09:00:00Z"), stack.clock.now())
    with pytest.raises(RetryLater):
        fire_uc.fire(event, fd)
    assert len(chat.sent) == 1
    slot = next(i for i in stack.items() if i["sk"].startswith("f#"))
    assert slot["state"] == "sent"
    out = run(stack, chat, scheduler_input(sid, "2026-11-30T09:00:00Z", attempt=2))
    assert out["outcome"] == "delivered" and out["recovered"] is True
    assert len(chat.sent) == 1  # never posted again
    assert schedule_item(stack, sid)["status"] == "fired"


class AnswerLost(DynamoStore):
    """Each record write is applied, but its answer never comes back (a read timeout), `lost` times."""

    lost = 1

    def complete_slot(self, *args: Any, **kwargs: Any) -> None:
        from cronbell.adapters.aws import AwsError
        from tests.support.faults import timeout

        super().complete_slot(*args, **kwargs)
        if self.lost:
            self.lost -= 1
            raise AwsError(timeout("UpdateItem"))


@pytest.mark.parametrize("lost", [1, 3], ids=["once", "every try"])
def test_a_record_applied_but_unanswered_counts_the_delivery_once(stack: Stack, lost: int) -> None:
    """The retry of a record that was applied meets the slot among the schedule's recorded ones (and
    the version it bumped): it is recorded, never counted again, and the slot, written done from the
    stream, is never noted `sent` over its done run."""
    sid = create(stack, cron="0 10 * * *", count=2)
    chat = RecordingChat()
    store = AnswerLost(WithHistory(stack.ddb, stack), stack.settings.table_name, stack.settings.retention_days)
    store.lost = lost
    out = run(stack, chat, scheduler_input(sid, "2026-11-30T09:00:00Z"), store=store, sleep=lambda _: None)
    assert out["outcome"] == "delivered" and len(chat.sent) == 1
    item = schedule_item(stack, sid)
    assert item["status"] == "active" and int(item["delivered_count"]) == 1 and int(item["fire_count"]) == 1
    slot = next(i for i in stack.items() if i["sk"].startswith(f"f#{sid}#"))
    assert slot["state"] == "done" and slot["run"]["message_id"] == out["message_id"]
    # its second occurrence is delivered, and is the one that completes it
    assert run(stack, chat, scheduler_input(sid, "2026-12-01T09:00:00Z"))["outcome"] == "delivered"
    assert len(chat.sent) == 2 and schedule_item(stack, sid)["status"] == "completed"


def test_a_delivered_run_that_retires_its_schedule_stores_no_status_reason(stack: Stack) -> None:
    """A fired one-shot, or a recurrence completed by its last delivery, keeps no status_reason (its
    message id stays in last_run); only a failure that ends a schedule says why."""
    once = create(stack, time="2026-11-30 10:00")
    counted = create(stack, cron="0 10 * * *", count=1)
    chat = RecordingChat()
    for sid in (once, counted):
        assert run(stack, chat, scheduler_input(sid, "2026-11-30T09:00:00Z"))["outcome"] == "delivered"
    fired, completed = schedule_item(stack, once), schedule_item(stack, counted)
    assert fired["status"] == "fired" and completed["status"] == "completed"
    for item in (fired, completed):
        assert not item.get("status_reason") and item["last_run"]["message_id"]


def test_a_done_slot_is_never_noted_sent(stack: Stack) -> None:
    """Noting a slot `sent` (its record failed) never overwrites a slot whose run is recorded."""
    sid = create(stack, cron="0 10 * * *")
    chat = RecordingChat()
    stack.clock.advance(hours=1)
    assert run(stack, chat, scheduler_input(sid, "2026-11-30T09:00:00Z"))["outcome"] == "delivered"
    store = stack.deps().store
    before = next(i for i in stack.items() if i["sk"].startswith(f"f#{sid}#"))
    marked = store.mark_slot_sent(ROOM, sid, "2026-11-30T09:00:00Z", "$other", stack.clock.now())
    assert next(i for i in stack.items() if i["sk"].startswith(f"f#{sid}#")) == before
    assert marked is False


def test_fire_racing_its_own_create_is_retried_not_cleaned_up(stack: Stack) -> None:
    """A one-shot due within seconds can fire between its entry and its item being written."""
    stack.plant_entry("racing2345", expression="at(2026-11-30T08:00:30)")
    stack.clock.advance(seconds=30)
    with pytest.raises(RetryLater):
        run(stack, RecordingChat(), scheduler_input("racing2345", "2026-11-30T08:00:30Z"))
    assert "racing2345" in stack.entries()
    stack.clock.advance(seconds=120)  # Lambda's retries: still unknown, so an orphan after all
    assert run(stack, RecordingChat(), scheduler_input("racing2345", "2026-11-30T08:00:30Z"))["outcome"] == (
        "unknown_schedule"
    )
    assert stack.entries() == {}


def test_one_refused_run_does_not_end_a_recurring_schedule(stack: Stack) -> None:
    """A message the platform refuses (too large) fails that run; only a room gone or forbidden
    (403/404) ends a schedule."""
    sid = create(stack, cron="0 9 * * *")
    chat = RecordingChat(fail_with=PermanentChatError("M_TOO_LARGE (413)"))
    out = run(stack, chat, scheduler_input(sid, "2026-12-01T08:00:00Z"))
    assert out["outcome"] == "delivery_failed" and out["reason"] == "M_TOO_LARGE (413)"
    item = schedule_item(stack, sid)
    assert item["status"] == "active" and sid in stack.entries()
    assert run(stack, chat, scheduler_input(sid, "2026-12-02T08:00:00Z"))["outcome"] == "delivered"
    assert_consistent(stack)


def test_a_workspace_without_a_token_pauses_the_schedule_as_the_failure_policy_says(stack: Stack) -> None:
    """A room whose workspace has no bot token is refused every time until the deployment changes: its
    failures count towards AutoPauseAfter, as a removed platform's do; a message the platform refuses
    (too large) concerns that message alone and never pauses."""
    gone, large = create(stack, cron="0 9 * * *"), create(stack, cron="0 10 * * *")
    limit = stack.settings.auto_pause_after
    for day in range(1, limit + 1):
        no_token = RecordingChat(fail_with=UnknownWorkspace())  # each fails its first post
        assert run(stack, no_token, scheduler_input(gone, f"2026-12-0{day}T08:00:00Z"))["outcome"] == "delivery_failed"
        assert no_token.sent == []  # no notice was posted with another workspace's token
        failed = schedule_item(stack, gone)
        assert failed["last_run"]["reason"] == "unknown_workspace"
        assert failed["status"] == ("paused" if day == limit else "active"), day
        run(
            stack,
            RecordingChat(fail_with=PermanentChatError("msg_too_long (400)")),
            scheduler_input(large, f"2026-12-0{day}T09:00:00Z"),
        )
    paused, kept = schedule_item(stack, gone), schedule_item(stack, large)
    assert (paused["status"], paused["status_reason"], int(paused["failure_streak"])) == ("paused", "failing", limit)
    assert (kept["status"], int(kept["failure_streak"])) == ("active", limit)
    assert_consistent(stack)
