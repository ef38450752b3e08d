"""The fire decides from the schedule as read and writes only while it is still so: changes that land
between its read and its claim are honoured; every occurrence ends as its run, with its real outcome,
once; a manual run never takes a regular occurrence's slot; events and agent requests name the platform."""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta
from typing import Any

import pytest

from cronbell.adapters.aws import AwsError
from cronbell.adapters.dynamo import DynamoStore
from cronbell.core.domain.errors import BackendError
from cronbell.core.domain.fire_event import parse_fire_event
from cronbell.core.domain.instants import iso_utc, parse_iso
from cronbell.core.domain.ports import AgentError
from cronbell.usecases import fire as fire_uc
from cronbell.usecases import tools
from cronbell.usecases.reconcile import reconcile
from tests.support.aws import Stack
from tests.support.chat import RecordingChat
from tests.support.envelopes import ROOM, envelope
from tests.support.faults import throttling
from tests.support.tools import call, ok, schedule_item

NEWS = "!news:example.org"


class Events:
    def __init__(self) -> None:
        self.sent: list[tuple[str, dict[str, Any]]] = []

    def publish(self, detail_type: str, detail: dict[str, Any]) -> None:
        self.sent.append((detail_type, detail))


class Agents:
    configured = True

    def __init__(self, error: AgentError | None = None) -> None:
        self.error = error
        self.requests: list[dict[str, Any]] = []

    def call(self, agent_id: str, request: dict[str, Any], timeout_seconds: int) -> str:
        self.requests.append(request)
        if self.error is not None:
            raise self.error
        return f"echo: {request['prompt']}"


class ChangeAfterRead:
    """The store, with a change made right after the fire's first read of the schedule: between its
    read and its claim, as a tool call landing at that moment would."""

    def __init__(self, store: Any, change: Any) -> None:
        self._store, self._change, self.reads = store, change, 0

    def get(self, room_id: str, schedule_id: str) -> Any:
        return self._after(self._store.get(room_id, schedule_id))

    def read_for_fire(self, *args: Any) -> Any:
        return self._after(self._store.read_for_fire(*args))

    def _after(self, found: Any) -> Any:
        self.reads += 1
        if self.reads == 1:
            self._change()
        return found

    def __getattr__(self, name: str) -> Any:
        return getattr(self._store, name)


def fire(stack: Stack, sid: str, slot: str, chat: RecordingChat, **deps: Any) -> dict[str, Any]:
    """A fire of `slot`, with the clock where it is (at the slot, if behind it)."""
    if stack.clock.now() < parse_iso(slot) - timedelta(seconds=59):
        stack.clock.current = parse_iso(slot)
    event = {"room_id": ROOM, "reminder_id": sid, "scheduled_time": slot}
    wired = stack.deps(chat=lambda: chat, **deps)
    return fire_uc.fire(parse_fire_event(event, stack.clock.now()), wired, lambda: 300.0)


def history(stack: Stack, sid: str) -> list[dict[str, Any]]:
    runs: list[dict[str, Any]] = ok(call(stack, "reminder_history", {"id": sid}))["runs"]
    return runs


def texts(chat: RecordingChat) -> list[str]:
    return [message.text for message, _ in chat.sent]


# --- C2: a change between the fire's read and its claim -------------------------------------------
def test_a_one_shot_moved_between_read_and_claim_fires_at_its_new_time_with_its_new_text(stack: Stack) -> None:
    sid = ok(call(stack, "create_reminder", {"message": "old text", "time": "2026-11-30 10:00"}))["id"]
    chat = RecordingChat()
    store = ChangeAfterRead(
        stack.deps().store,
        lambda: ok(call(stack, "update_reminder", {"id": sid, "time": "2026-11-30 11:00", "message": "new text"})),
    )
    out = fire(stack, sid, "2026-11-30T09:00:00Z", chat, store=store)
    assert out["outcome"] == "invalid_input" and chat.sent == []  # its old time is no longer its own
    assert store.reads == 2  # read again after the claim met the change
    assert schedule_item(stack, sid)["status"] == "active"
    assert fire(stack, sid, "2026-11-30T10:00:00Z", chat)["outcome"] == "delivered"
    assert len(chat.sent) == 1 and "new text" in texts(chat)[0]
    assert schedule_item(stack, sid)["status"] == "fired"


def test_a_count_raised_between_read_and_claim_is_used(stack: Stack) -> None:
    created = ok(call(stack, "create_reminder", {"message": "stand up", "cron": "0 9 * * *", "count": 1}))
    sid, slot = created["id"], created["next_fire"]["utc"]
    chat = RecordingChat()
    store = ChangeAfterRead(stack.deps().store, lambda: ok(call(stack, "update_reminder", {"id": sid, "count": 3})))
    assert fire(stack, sid, slot, chat, store=store)["outcome"] == "delivered"
    item = schedule_item(stack, sid)
    assert item["status"] == "active" and item["count"] == 3 and item["delivered_count"] == 1
    assert sid in stack.entries()


def daily(stack: Stack) -> tuple[str, str]:
    """A daily reminder, with the clock 30 s before its next occurrence (a fire may come that early)."""
    created = ok(call(stack, "create_reminder", {"message": "stand up", "cron": "0 9 * * *"}))
    slot = created["next_fire"]["utc"]
    stack.clock.current = parse_iso(slot) - timedelta(seconds=30)
    return created["id"], slot


def test_an_occurrence_skipped_between_read_and_claim_is_recorded_skipped(stack: Stack) -> None:
    sid, slot = daily(stack)
    chat = RecordingChat()
    skip = ChangeAfterRead(stack.deps().store, lambda: ok(call(stack, "skip_next", {"id": sid})))
    assert fire(stack, sid, slot, chat, store=skip)["outcome"] == "skipped"
    assert chat.sent == []
    assert [(r["outcome"], r["reason"]) for r in history(stack, sid)] == [("skipped", "skip_next")]


def test_an_occurrence_snoozed_between_read_and_claim_is_posted_once_at_its_snoozed_time(stack: Stack) -> None:
    sid, slot = daily(stack)
    chat = RecordingChat()
    snooze = ChangeAfterRead(stack.deps().store, lambda: ok(call(stack, "snooze_reminder", {"id": sid, "minutes": 10})))
    assert fire(stack, sid, slot, chat, store=snooze)["outcome"] == "skipped"
    assert chat.sent == []
    later = iso_utc(parse_iso(slot) + timedelta(minutes=10))
    assert fire(stack, sid, later, chat)["outcome"] == "delivered"
    assert fire(stack, sid, slot, chat)["outcome"] == "duplicate"  # a late copy of the snoozed one
    assert len(chat.sent) == 1
    assert [(r["outcome"], r["reason"]) for r in history(stack, sid)] == [("delivered", None), ("skipped", "snoozed")]


def test_a_schedule_resumed_between_read_and_record_is_delivered_not_recorded_paused(stack: Stack) -> None:
    sid, slot = daily(stack)
    ok(call(stack, "pause_reminder", {"id": sid}))
    chat = RecordingChat()
    resume = ChangeAfterRead(stack.deps().store, lambda: ok(call(stack, "resume_reminder", {"id": sid})))
    assert fire(stack, sid, slot, chat, store=resume)["outcome"] == "delivered"
    assert len(chat.sent) == 1 and [r["outcome"] for r in history(stack, sid)] == ["delivered"]


# --- C3: an agent call that cannot run is a failed run ---------------------------------------------
@pytest.mark.parametrize("cause", ["output room no longer allowed", "no agents configured"])
def test_an_agent_call_that_cannot_run_fails_under_the_failure_policy(stack: Stack, cause: str) -> None:
    allowing = replace(stack.settings, allowed_output_rooms=(NEWS,), auto_pause_after=2)
    job = {"name": "digest", "prompt": "p", "cron_expr": "0 18 * * *", "channel": NEWS}
    sid = ok(tools.handle(envelope("cron_create", job), stack.deps(settings=allowing)))["id"]
    if cause == "no agents configured":
        settings, agents, outcome, reason = allowing, Agents(), "no_agents_configured", "agent_error"
        agents.configured = False
    else:
        settings, agents, outcome, reason = (
            replace(allowing, allowed_output_rooms=()),
            Agents(),
            "forbidden_channel",
            "chat_refused",
        )
    chat, events = RecordingChat(), Events()
    first = fire(stack, sid, "2026-11-30T17:00:00Z", chat, settings=settings, agents=agents, events=events)
    assert (first["outcome"], first["reason"], first["paused"]) == (outcome, reason, False)
    assert agents.requests == []
    # the first failure is told once, in the schedule's own room (never in a room it may not post to)
    rooms = [message.room_id for message, _ in chat.sent]
    assert rooms == ([ROOM] if cause != "no agents configured" else [NEWS, ROOM])
    [listed] = ok(call(stack, "cron_list"))
    assert listed["failure_streak"] == 1 and listed["last_run"]["outcome"] == "failed"
    assert listed["last_run"]["reason"] == reason
    [item] = ok(call(stack, "list_reminders"))["schedules"]
    assert item["failure_streak"] == 1 and item["last_run"]["reason"] == reason
    second = fire(stack, sid, "2026-12-01T17:00:00Z", chat, settings=settings, agents=agents, events=events)
    assert second["paused"] is True  # AutoPauseAfter 2
    assert schedule_item(stack, sid)["status"] == "paused"
    assert "resume_reminder" in texts(chat)[-1] and chat.sent[-1][0].room_id == ROOM
    kinds = [(kind, d.get("outcome"), d.get("reason")) for kind, d in events.sent]
    assert kinds == [
        ("Run Finished", "failed", reason),
        ("Run Finished", "failed", reason),
        ("Schedule Paused", None, None),
    ]
    assert [(r["outcome"], r["reason"]) for r in history(stack, sid)] == [("failed", reason)] * 2


# --- L5: a failing agent call's notices reach the room that can resume it ------------------------
def test_a_failing_agent_call_that_posts_elsewhere_tells_its_own_room_too(stack: Stack) -> None:
    allowing = replace(stack.settings, allowed_output_rooms=(NEWS,))
    job = {"name": "digest", "prompt": "p", "cron_expr": "0 18 * * *", "channel": NEWS}
    sid = ok(tools.handle(envelope("cron_create", job), stack.deps(settings=allowing)))["id"]
    chat = RecordingChat()
    out = fire(stack, sid, "2026-11-30T17:00:00Z", chat, settings=allowing, agents=Agents(AgentError("boom")))
    assert out["outcome"] == "failed"
    assert sorted(message.room_id for message, _ in chat.sent) == sorted([NEWS, ROOM])
    assert all("digest" in text and "boom" in text for text in texts(chat))


def test_a_pause_notice_names_resume_reminder_only_in_the_room_that_can_resume_it(stack: Stack) -> None:
    """resume_reminder answers `not_found` from the output room (the schedule is its own room's): the
    output room is told where it can be resumed, the own room how."""
    allowing = replace(stack.settings, allowed_output_rooms=(NEWS,), auto_pause_after=1)
    job = {"name": "digest", "prompt": "p", "cron_expr": "0 18 * * *", "channel": NEWS}
    sid = ok(tools.handle(envelope("cron_create", job), stack.deps(settings=allowing)))["id"]
    chat = RecordingChat()
    fire(stack, sid, "2026-11-30T17:00:00Z", chat, settings=allowing, agents=Agents(AgentError("boom")))
    said = {message.room_id: message.text for message, _ in chat.sent}
    assert f"resume_reminder {sid}" in said[ROOM] and "paused" in said[ROOM]
    assert "resume_reminder" not in said[NEWS] and "room it was set up in" in said[NEWS]


# --- H1: a failed run whose record write failed is recorded failed ---------------------------------
class Unrecording(DynamoStore):
    def complete_slot(self, *args: Any, **kwargs: Any) -> None:
        raise AwsError(throttling("TransactWriteItems"))


def failed_and_unrecorded(stack: Stack) -> tuple[str, RecordingChat]:
    created = ok(call(stack, "cron_create", {"name": "digest", "prompt": "p", "cron_expr": "0 18 * * *", "count": 3}))
    sid = created["id"]
    chat = RecordingChat()
    broken = Unrecording(stack.ddb, stack.settings.table_name, stack.settings.retention_days)
    with pytest.raises(fire_uc.RetryLater):
        fire(stack, sid, "2026-11-30T17:00:00Z", chat, store=broken, agents=Agents(AgentError("boom")))
    assert next(i for i in stack.items() if i["sk"].startswith(f"f#{sid}#"))["state"] == "sent"
    return sid, chat


def test_a_failed_run_whose_record_failed_is_recorded_failed_by_the_retry(stack: Stack) -> None:
    sid, chat = failed_and_unrecorded(stack)
    events, agents = Events(), Agents()
    out = fire(stack, sid, "2026-11-30T17:00:00Z", chat, agents=agents, events=events)
    assert out == {**out, "outcome": "failed", "recovered": True}
    assert agents.requests == []  # never called again
    item = schedule_item(stack, sid)
    assert item["failure_streak"] == 1 and item.get("delivered_count", 0) == 0
    assert item["last_run"]["outcome"] == "failed" and item["last_run"]["reason"] == "agent_error"
    assert [(r["outcome"], r["reason"]) for r in history(stack, sid)] == [("failed", "agent_error")]
    assert [(d["outcome"], d["reason"]) for _, d in events.sent] == [("failed", "agent_error")]


def test_an_abandoned_failed_run_is_closed_failed_by_the_reconciler(stack: Stack) -> None:
    sid, _ = failed_and_unrecorded(stack)
    stack.clock.advance(seconds=stack.settings.missed_after_seconds + 1)
    events = Events()
    assert reconcile(stack.deps(chat=RecordingChat, events=events)).claims_closed == 1
    assert [(r["outcome"], r["reason"]) for r in history(stack, sid)] == [("failed", "agent_error")]
    item = schedule_item(stack, sid)
    assert item["failure_streak"] == 1 and item.get("delivered_count", 0) == 0
    assert [(d["outcome"], d["reason"]) for _, d in events.sent] == [("failed", "agent_error")]


# --- L4: an undelivered run whose record failed is retried, and recorded once ----------------------
class FailsOnce:
    def __init__(self, store: Any, method: str) -> None:
        self._store, self._method, self.failed = store, method, False

    def __getattr__(self, name: str) -> Any:
        attr = getattr(self._store, name)
        if name != self._method:
            return attr

        def once(*args: Any, **kwargs: Any) -> Any:
            if not self.failed:
                self.failed = True
                raise AwsError(throttling("TransactWriteItems"))
            return attr(*args, **kwargs)

        return once


@pytest.mark.parametrize("case", ["skipped", "paused", "too late"])
def test_an_undelivered_run_whose_record_failed_is_retried_and_recorded_once(stack: Stack, case: str) -> None:
    sid, slot = daily(stack)
    if case == "skipped":
        ok(call(stack, "skip_next", {"id": sid}))
    elif case == "paused":
        ok(call(stack, "pause_reminder", {"id": sid}))
    else:
        stack.clock.current = parse_iso(slot) + timedelta(minutes=stack.settings.max_lateness_minutes + 1)
    chat = RecordingChat()
    store = FailsOnce(stack.deps().store, "record_run")
    with pytest.raises(BackendError):  # Lambda retries the event
        fire(stack, sid, slot, chat, store=store)
    assert history(stack, sid) == []
    assert fire(stack, sid, slot, chat, store=store)["outcome"] in ("skipped", "paused", "missed")
    assert fire(stack, sid, slot, chat)["outcome"] == "duplicate"
    expected = {
        "skipped": ("skipped", "skip_next"),
        "paused": ("skipped", "paused"),
        "too late": ("missed", "too_late"),
    }
    assert [(r["outcome"], r["reason"]) for r in history(stack, sid)] == [expected[case]]
    assert chat.sent == []


# --- M2: a manual run in the same second as a regular occurrence -----------------------------------
def test_run_now_in_the_second_of_a_one_shot_is_refused_and_its_own_fire_runs(stack: Stack) -> None:
    """A one-shot due now is being posted once by its own fire: run_now is refused `busy` (a manual run
    would find it fired and post nothing), and the regular fire delivers it, marks it fired and leaves
    the reconciler nothing to call missed."""
    sid = ok(call(stack, "create_reminder", {"message": "stand up", "time": "2026-11-30 10:00"}))["id"]
    stack.clock.current = parse_iso("2026-11-30T09:00:00Z")
    chat = RecordingChat()
    started: list[dict[str, Any]] = []
    refused = tools.handle(envelope("run_now", {"kind": "cron", "target": sid}), stack.deps(start_fire=started.append))
    assert refused["error"]["code"] == "busy" and started == []
    assert fire(stack, sid, "2026-11-30T09:00:00Z", chat)["outcome"] == "delivered"
    assert len(chat.sent) == 1
    assert schedule_item(stack, sid)["status"] == "fired"
    assert [(r["outcome"], r["manual"]) for r in history(stack, sid)] == [("delivered", False)]
    stack.remove_entry(sid)  # Scheduler's own
    stack.clock.advance(seconds=stack.settings.missed_after_seconds + 1)
    report = reconcile(stack.deps(chat=RecordingChat))
    assert report.missed == 0 and len(history(stack, sid)) == 1


def test_run_now_in_the_second_of_a_counted_occurrence_does_not_take_its_count(stack: Stack) -> None:
    created = ok(call(stack, "create_reminder", {"message": "stand up", "cron": "0 9 * * *", "count": 2}))
    sid, slot = created["id"], created["next_fire"]["utc"]
    stack.clock.current = parse_iso(slot)
    chat = RecordingChat()
    started: list[dict[str, Any]] = []
    ok(tools.handle(envelope("run_now", {"kind": "cron", "target": sid}), stack.deps(start_fire=started.append)))
    wired = stack.deps(chat=lambda: chat)
    assert fire_uc.fire(parse_fire_event(started[0], stack.clock.now()), wired)["outcome"] == "delivered"
    assert fire(stack, sid, slot, chat)["outcome"] == "delivered"
    assert schedule_item(stack, sid)["delivered_count"] == 1


# --- L3: events and agent requests name the platform -----------------------------------------------
def test_events_and_agent_requests_name_the_platform(stack: Stack) -> None:
    settings = replace(stack.settings, chat_backend="matrix,slack", auto_pause_after=1)
    on_slack = envelope("cron_create", {"name": "digest", "prompt": "p", "cron_expr": "0 18 * * *"})
    on_slack["context"]["platform"] = "slack"
    sid = ok(tools.handle(on_slack, stack.deps(settings=settings)))["id"]
    on_matrix = ok(call(stack, "create_reminder", {"message": "m", "cron": "0 18 * * *"}))["id"]
    events, agents = Events(), Agents(AgentError("boom"))
    slack_room = f"slack\x1f{ROOM}"
    event = {"room_id": slack_room, "reminder_id": sid, "scheduled_time": "2026-11-30T17:00:00Z"}
    stack.clock.current = parse_iso("2026-11-30T17:00:00Z")
    wired = stack.deps(settings=settings, chat=RecordingChat, agents=agents, events=events)
    assert fire_uc.fire(parse_fire_event(event, stack.clock.now()), wired)["paused"] is True
    assert agents.requests[0]["platform"] == "slack" and agents.requests[0]["room_id"] == ROOM
    fire(stack, on_matrix, "2026-11-30T17:00:00Z", RecordingChat(), settings=settings, events=events)
    assert [(kind, d["room_id"], d["platform"]) for kind, d in events.sent] == [
        ("Run Finished", ROOM, "slack"),
        ("Schedule Paused", ROOM, "slack"),
        ("Run Finished", ROOM, "matrix"),
    ]


def test_an_event_names_the_schedule_s_own_room_and_thread_and_where_a_post_elsewhere_went(stack: Stack) -> None:
    """An agent call in a thread answering in another room: its events named its own room without its thread,
    beside the message_id of a post in the other room. They now name the own room and thread (as its notices
    use them) and `output_room_id`, the room the message_id is in; a post in its own room has none."""
    allowing = replace(stack.settings, allowed_output_rooms=(NEWS,), auto_pause_after=1)
    job = envelope("cron_create", {"name": "digest", "prompt": "p", "cron_expr": "0 18 * * *", "channel": NEWS})
    job["context"]["thread_id"] = "$thread"
    elsewhere = ok(tools.handle(job, stack.deps(settings=allowing)))["id"]
    here = envelope("cron_create", {"name": "local", "prompt": "p", "cron_expr": "0 18 * * *"})
    here["context"]["thread_id"] = "$thread"
    own = ok(tools.handle(here, stack.deps(settings=allowing)))["id"]
    events = Events()
    for sid in (elsewhere, own):
        fire(stack, sid, "2026-11-30T17:00:00Z", RecordingChat(), settings=allowing, agents=Agents(), events=events)
    failing = Agents(AgentError("boom"))
    fire(stack, elsewhere, "2026-12-01T17:00:00Z", RecordingChat(), settings=allowing, agents=failing, events=events)
    places = [
        (kind, d["schedule_id"], d["room_id"], d["thread_id"], d.get("output_room_id")) for kind, d in events.sent
    ]
    assert places == [
        ("Run Finished", elsewhere, ROOM, "$thread", NEWS),
        ("Run Finished", own, ROOM, "$thread", None),
        ("Run Finished", elsewhere, ROOM, "$thread", NEWS),
        ("Schedule Paused", elsewhere, ROOM, "$thread", None),
    ]
    assert events.sent[0][1]["outcome"] == "delivered" and events.sent[0][1]["message_id"]


# --- the record after a delivery, and the tools while one is under way ----------------------------
class ChangingChat(RecordingChat):
    """A post during which a change lands anyway (as one could once the claim's lease is over)."""

    def __init__(self, change: Any) -> None:
        super().__init__()
        self.change = change

    def send(self, message: Any, idempotency_key: str, deadline: float | None = None) -> str:
        self.change()
        return super().send(message, idempotency_key, deadline)


def test_the_record_after_a_delivery_honours_a_change_that_landed_meanwhile(stack: Stack) -> None:
    created = ok(call(stack, "create_reminder", {"message": "stand up", "cron": "0 9 * * *", "count": 1}))
    sid, slot = created["id"], created["next_fire"]["utc"]

    def raise_count() -> None:  # written behind the busy check, as a change after the lease would be
        stack.ddb.update_item(
            TableName=stack.settings.table_name,
            Key={"room_id": {"S": ROOM}, "sk": {"S": f"s#{sid}"}},
            UpdateExpression="SET #c = :c, version = version + :one",
            ExpressionAttributeNames={"#c": "count"},
            ExpressionAttributeValues={":c": {"N": "3"}, ":one": {"N": "1"}},
        )

    chat = ChangingChat(raise_count)
    assert fire(stack, sid, slot, chat)["outcome"] == "delivered"
    item = schedule_item(stack, sid)
    assert item["status"] == "active" and item["count"] == 3 and item["delivered_count"] == 1
    assert [r["outcome"] for r in history(stack, sid)] == ["delivered"]


class SlowAgents(Agents):
    def __init__(self) -> None:
        super().__init__()
        import threading

        self.called, self.release = threading.Event(), threading.Event()

    def call(self, agent_id: str, request: dict[str, Any], timeout_seconds: int) -> str:
        self.called.set()
        assert self.release.wait(30)
        return "the answer"


@pytest.mark.parametrize(
    "tool,args,code",
    [
        ("update_reminder", {"count": 5}, "busy"),
        ("update_reminder", {"until": "2026-12-24 18:00"}, "busy"),
        ("delete_reminder", {}, "backend_error"),
        ("cron_delete", {}, "backend_error"),
    ],
)
def test_ends_and_deletes_during_a_delivery_change_nothing(
    stack: Stack, tool: str, args: dict[str, Any], code: str
) -> None:
    from concurrent.futures import ThreadPoolExecutor

    sid = ok(call(stack, "cron_create", {"name": "digest", "prompt": "p", "cron_expr": "0 18 * * *"}))["id"]
    stack.clock.current = parse_iso("2026-11-30T17:00:00Z")
    agents = SlowAgents()
    event = parse_fire_event(
        {"room_id": ROOM, "reminder_id": sid, "scheduled_time": "2026-11-30T17:00:00Z"}, stack.clock.now()
    )
    with ThreadPoolExecutor(1) as pool:
        delivery = pool.submit(fire_uc.fire, event, stack.deps(chat=RecordingChat, agents=agents), lambda: 300.0)
        assert agents.called.wait(30)
        before = schedule_item(stack, sid)
        answer = call(stack, tool, {"id": sid, **args})
        assert not answer["ok"] and answer["error"]["code"] == code, answer
        assert schedule_item(stack, sid) == before
        agents.release.set()
        assert delivery.result()["outcome"] == "delivered"
    ok(call(stack, tool, {"id": sid, **args}))  # once the delivery is over, the same call goes through
