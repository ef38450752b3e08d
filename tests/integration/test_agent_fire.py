"""agent_call fires on a moto server: prompt, allowlist, timeouts, errors, static schedules."""

from __future__ import annotations

import json
import threading
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass, field, replace
from datetime import UTC, datetime
from typing import Any

from cfnlint.decode import decode

from cronbell.adapters.chat.base import PermanentChatError
from cronbell.adapters.dynamo import DynamoStore
from cronbell.core.domain.fire_event import parse_fire_event
from cronbell.core.domain.ports import AgentError, AgentTimeout
from cronbell.usecases import fire as fire_uc
from cronbell.usecases import tools
from tests.support.aws import ROOT, Stack, static_schedules
from tests.support.chat import RecordingChat
from tests.support.envelopes import ROOM, envelope
from tests.support.faults import CallLog
from tests.support.lambda_timing import at_slot
from tests.support.tools import ok, schedule_item


@dataclass
class FakeAgents:
    answer: str = ""
    error: AgentError | None = None
    configured: bool = True
    calls: list[tuple[str, dict[str, Any], int]] = field(default_factory=list)
    delay: float = 0.0
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def call(self, agent_id: str, request: dict[str, Any], timeout_seconds: int) -> str:
        with self._lock:
            self.calls.append((agent_id, request, timeout_seconds))
        if self.delay:
            threading.Event().wait(self.delay)
        if self.error:
            raise self.error
        return self.answer or f"echo: {request['prompt']}"


def job(stack: Stack, **extra: Any) -> str:
    args = {"name": "summary", "prompt": "Summarise {room_id} at {scheduled_time}", "cron_expr": "0 18 * * *"}
    return str(ok(tools.handle(envelope("cron_create", {**args, **extra}), stack.deps()))["id"])


def run(stack: Stack, agents: FakeAgents, chat: RecordingChat, event: dict[str, Any]) -> dict[str, Any]:
    at_slot(stack.clock, event)
    deps = stack.deps(
        chat=lambda: chat,
        agents=agents,
        prompt_file=lambda name: (ROOT / "functions" / "fire" / "prompts" / name).read_text(),
    )
    return fire_uc.fire(parse_fire_event(event, stack.clock.now()), deps)


def slot_event(sid: str, slot: str = "2026-11-30T17:00:00Z") -> dict[str, Any]:
    return {"room_id": ROOM, "reminder_id": sid, "scheduled_time": slot, "execution_id": "e", "attempt": "1"}


def test_agent_answer_is_posted_with_the_contract_request(stack: Stack) -> None:
    sid = job(stack, skills=["web"], timeout_seconds=30)
    agents, chat = FakeAgents(), RecordingChat()
    out = run(stack, agents, chat, slot_event(sid))
    assert out["outcome"] == "delivered"
    [(agent, request, timeout)] = agents.calls
    assert agent == "echo" and timeout == 30
    assert request == {
        "kind": "task",
        "from": "cronbell",
        "prompt": f"Summarise {ROOM} at 2026-11-30T17:00:00Z",
        "skills": ["web"],
        "room_id": ROOM,
        "schedule_id": sid,
        "scheduled_time": "2026-11-30T17:00:00Z",
        "previous": None,
        "platform": "matrix",  # the room's platform, named when it is the deployment's only one
        "workspace": None,  # a Slack team id when the room names one
    }
    [(message, _)] = chat.sent
    assert f"echo: Summarise {ROOM}" in message.text and message.room_id == ROOM


def test_duplicate_slot_never_calls_the_agent_twice(stack: Stack) -> None:
    sid = job(stack)
    agents, chat = FakeAgents(delay=0.3), RecordingChat()

    def attempt(_: int) -> str:
        try:
            return str(run(stack, agents, chat, slot_event(sid))["outcome"])
        except fire_uc.RetryLater:  # a copy that met the live claim: Lambda retries it
            return "retry"

    with ThreadPoolExecutor(4) as pool:
        outcomes = sorted(pool.map(attempt, range(4)))
    assert outcomes[0] == "delivered" and set(outcomes[1:]) <= {"duplicate", "retry"}, outcomes
    assert run(stack, agents, chat, slot_event(sid))["outcome"] == "duplicate"
    assert len(agents.calls) == 1 and len(chat.sent) == 1


def test_timeout_is_a_failed_run_with_one_notice_and_does_not_crash(stack: Stack) -> None:
    sid = job(stack)
    agents = FakeAgents(error=AgentTimeout("the agent did not answer within 120 s"))
    chat = RecordingChat()
    out = run(stack, agents, chat, slot_event(sid))
    assert out["outcome"] == "failed" and out["reason"] == "agent_timeout"  # not "delivered"
    [(message, _)] = chat.sent
    assert "did not answer within 120 s" in message.text


def test_agent_error_posts_a_short_notice_without_trace(stack: Stack) -> None:
    sid = job(stack)
    chat = RecordingChat()
    run(stack, FakeAgents(error=AgentError("the agent failed")), chat, slot_event(sid))
    [(message, _)] = chat.sent
    assert "the agent failed" in message.text and "Traceback" not in message.text


def test_empty_answer_posts_nothing(stack: Stack) -> None:
    sid = job(stack)
    agents = FakeAgents()
    agents.answer = ""
    chat = RecordingChat()

    class Silent(FakeAgents):
        def call(self, agent_id: str, request: dict[str, Any], timeout_seconds: int) -> str:
            return ""

    assert run(stack, Silent(), chat, slot_event(sid))["outcome"] == "empty_answer"
    assert chat.sent == []


def test_no_agents_configured_is_a_failed_run_the_room_hears_of(stack: Stack) -> None:
    sid = job(stack)
    chat = RecordingChat()
    agents = FakeAgents(configured=False)
    out = run(stack, agents, chat, slot_event(sid))
    assert (out["outcome"], out["reason"], out["paused"]) == ("no_agents_configured", "agent_error", False)
    assert agents.calls == []
    [(notice, _)] = chat.sent  # the first failure of a streak is told once
    assert "summary" in notice.text and "agent_error" in notice.text
    schedule = schedule_item(stack, sid)
    assert schedule["failure_streak"] == 1 and schedule["last_run"]["reason"] == "agent_error"


def static_input(room: str) -> dict[str, Any]:
    """The Input template.yaml declares for daily-analysis, as Scheduler fills it in."""
    template, _ = decode(str(ROOT / "template.yaml"))
    assert template is not None
    raw = template["Resources"]["DailyAnalysisSchedule"]["Properties"]["Target"]["Input"]["Fn::Sub"]
    text = raw.replace("${AnalysisOutputRoom}", room)
    text = text.replace("<aws.scheduler.scheduled-time>", "2026-11-30T17:00:00Z")
    text = text.replace("<aws.scheduler.execution-id>", "exec-1").replace("<aws.scheduler.attempt-number>", "1")
    return dict(json.loads(text))


def test_static_schedule_from_the_template_fires_once(stack: Stack) -> None:
    agents, chat = FakeAgents(), RecordingChat()
    event = static_input(ROOM)
    out = run(stack, agents, chat, event)
    assert out["outcome"] == "delivered", out
    [(_, request, _)] = agents.calls
    assert ROOM in request["prompt"] and "2026-11-30T17:00:00Z" in request["prompt"] and "{" not in request["prompt"]
    assert run(stack, agents, chat, event)["outcome"] == "duplicate"
    assert len(chat.sent) == 1


def test_a_static_schedule_posts_to_a_room_of_another_platform(stack: Stack) -> None:
    """AnalysisOutputRoom=slack:C0123 in a matrix,slack deployment: the run is kept under the Slack
    room's key, and the answer posted to C0123 on Slack."""
    from cronbell.settings import Settings

    declared = json.dumps(
        {"daily-analysis": asdict(static_schedules(ROOM)["daily-analysis"]) | {"room_id": "slack:C0123"}}
    )
    keyed = Settings.from_env({"CHAT_BACKEND": "matrix,slack", "STATIC_SCHEDULES": declared})
    stack.settings = replace(stack.settings, chat_backend="matrix,slack", static_schedules=keyed.static_schedules)
    agents, chat = FakeAgents(), RecordingChat()
    out = run(stack, agents, chat, static_input("slack:C0123"))
    assert out["outcome"] == "delivered", out
    [(message, _)] = chat.sent
    assert (message.platform, message.room_id) == ("slack", "C0123")
    (delivered,) = stack.deps().store.runs("slack\x1fC0123", "static-daily-analysis", 5)
    assert delivered.outcome == "delivered"


def test_a_static_fire_claims_and_completes_its_slot_with_one_conditional_write_each(stack: Stack) -> None:
    """A template schedule has no item: its slot alone is written, so no transaction (twice the units)."""
    log = CallLog()
    store = DynamoStore(log.wrap(stack.ddb), stack.settings.table_name, stack.settings.retention_days)
    agents, chat = FakeAgents(), RecordingChat()
    event = static_input(ROOM)
    at_slot(stack.clock, event)
    deps = stack.deps(
        store=store,
        chat=lambda: chat,
        agents=agents,
        prompt_file=lambda name: (ROOT / "functions" / "fire" / "prompts" / name).read_text(),
    )
    assert fire_uc.fire(parse_fire_event(event, stack.clock.now()), deps)["outcome"] == "delivered"
    assert log.calls == ["put_item", "update_item"]
    (slot,) = [i for i in stack.items() if i["sk"].startswith("f#static-daily-analysis#")]
    assert slot["state"] == "done" and slot["run"]["outcome"] == "delivered" and "lease_until" not in slot
    log.calls.clear()
    assert fire_uc.fire(parse_fire_event(event, stack.clock.now()), deps)["outcome"] == "duplicate"
    assert log.calls == ["put_item"] and len(chat.sent) == 1


def test_a_static_run_that_starts_too_late_is_missed_like_any_recurring_one(stack: Stack) -> None:
    agents, chat = FakeAgents(), RecordingChat()
    event = static_input(ROOM)  # due 2026-11-30T17:00:00Z; MaxLatenessMinutes is 60
    stack.clock.current = datetime(2026, 11, 30, 18, 1, tzinfo=UTC)  # e.g. after Scheduler's retries
    assert run(stack, agents, chat, event) == {
        "schedule_id": "static-daily-analysis",
        "slot": "2026-11-30T17:00:00Z",
        "outcome": "missed",
        "reason": "too_late",
    }
    assert agents.calls == [] and chat.sent == []
    assert run(stack, agents, chat, event)["outcome"] == "duplicate"  # a later copy: still one run
    (missed,) = stack.deps().store.runs(ROOM, "static-daily-analysis", 5)
    assert (missed.outcome, missed.reason, missed.late_seconds) == ("missed", "too_late", 3660)
    # within the lateness, the next day's run is delivered
    stack.clock.current = datetime(2026, 12, 1, 17, 59, tzinfo=UTC)
    next_day = {**event, "scheduled_time": "2026-12-01T17:00:00Z"}
    assert run(stack, agents, chat, next_day)["outcome"] == "delivered" and len(chat.sent) == 1


def test_a_failing_static_schedule_tells_every_failure_and_is_never_paused(stack: Stack) -> None:
    """A template schedule has no item to keep a failure streak on: each failed run is its own notice."""
    agents, chat = FakeAgents(error=AgentTimeout("the agent did not answer")), RecordingChat()
    for day in range(1, 8):  # more failures in a row than AutoPauseAfter (5)
        event = {**static_input(ROOM), "scheduled_time": f"2026-12-0{day}T17:00:00Z"}
        out = run(stack, agents, chat, event)
        assert out["outcome"] == "failed" and out["reason"] == "agent_timeout" and not out["paused"]
    assert len(chat.sent) == 7 and all("failed" in message.text for message, _ in chat.sent)
    runs = stack.deps().store.runs(ROOM, "static-daily-analysis", 10)
    assert [(r.outcome, r.reason) for r in runs] == [("failed", "agent_timeout")] * 7


def test_static_input_naming_an_undeclared_schedule_is_refused(stack: Stack) -> None:
    agents, chat = FakeAgents(), RecordingChat()
    event = {**static_input(ROOM), "static": "not-in-the-template"}
    assert run(stack, agents, chat, event)["outcome"] == "invalid_input"
    assert agents.calls == [] and chat.sent == []


def test_a_failure_notice_the_room_refuses_still_ends_as_one_failed_run(stack: Stack) -> None:
    sid = job(stack)
    chat = RecordingChat(fail_with=PermanentChatError("M_FORBIDDEN (403)", room_gone=True))
    out = run(stack, FakeAgents(error=AgentError("the agent failed")), chat, slot_event(sid))
    assert out["outcome"] == "failed" and out["reason"] == "agent_error"
    schedule = schedule_item(stack, sid)
    assert schedule["failure_streak"] == 1 and schedule["last_run"]["outcome"] == "failed"


def test_list_reminders_shows_the_rooms_template_schedule_read_only(stack: Stack) -> None:
    listing = ok(tools.handle(envelope("list_reminders", {}), stack.deps()))
    (declared,) = listing["template_schedules"]
    assert (declared["name"], declared["read_only"], declared["target_agent"]) == ("daily-analysis", True, "echo")
    assert declared["next_fire"]["utc"] == "2026-11-30T18:00:00Z"  # 18:00 in UTC, the declaration's zone
    assert listing["schedules"] == []  # no tool can change or delete it
    elsewhere = ok(tools.handle(envelope("list_reminders", {}, room="!other:example.org"), stack.deps()))
    assert "template_schedules" not in elsewhere
    refused = tools.handle(envelope("delete_reminder", {"id": "daily-analysis"}), stack.deps())
    assert refused["ok"] is False
    assert ok(tools.handle(envelope("list_reminders", {}), stack.deps()))["template_schedules"] == [declared]
