"""The tool calls and the fire on the in-memory store: no AWS, no Scheduler (tool calls and fires
write items only; the projector writes Scheduler from the stream). The clock starts on Monday
30 Nov 2026, 09:00 in Madrid (08:00 UTC), the user's zone."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime
from typing import Any

from cronbell.core.domain import routing
from cronbell.core.domain.ports import UnknownWorkspace
from cronbell.usecases import tools
from tests.support.chat import RecordingChat
from tests.support.envelopes import ROOM
from tests.support.memory_stack import MemoryStack


def ok(answer: dict[str, Any]) -> dict[str, Any]:
    assert answer["ok"], answer
    return answer["result"]


def refused(answer: dict[str, Any], code: str) -> dict[str, Any]:
    assert answer["ok"] is False and answer["error"]["code"] == code, answer
    return answer


def listed(stack: MemoryStack, **args: Any) -> list[dict[str, Any]]:
    return list(ok(stack.call("list_reminders", args))["schedules"])


def test_a_created_reminder_is_stored_listed_and_a_second_identical_one_refused() -> None:
    stack = MemoryStack()
    sid = ok(stack.call("create_reminder", {"message": "stand up", "cron": "0 9 * * *"}))["id"]
    stored = stack.store.get(ROOM, sid)
    assert stored is not None and stored.text == "stand up" and stored.status == "active"
    assert [s["id"] for s in listed(stack)] == [sid]
    again = stack.call("create_reminder", {"message": "stand up", "cron": "0 9 * * *"})
    assert [s["id"] for s in listed(stack)] == [sid], again
    count = stack.store.room_count(ROOM)
    assert count is not None and count.live == 1


def test_the_room_limit_refuses_one_more() -> None:
    stack = MemoryStack()
    stack.settings = replace(stack.settings, max_per_room=2)
    for hour in (7, 8):
        ok(stack.call("create_reminder", {"message": f"m{hour}", "cron": f"0 {hour} * * *"}))
    refused(stack.call("create_reminder", {"message": "m9", "cron": "0 9 * * *"}), "limit_reached")
    assert len(listed(stack)) == 2


def test_an_update_pause_and_delete_change_the_stored_schedule() -> None:
    stack = MemoryStack()
    sid = ok(stack.call("create_reminder", {"message": "stand up", "cron": "0 9 * * *"}))["id"]
    ok(stack.call("update_reminder", {"id": sid, "message": "sit down"}))
    stored = stack.store.get(ROOM, sid)
    assert stored is not None and stored.text == "sit down" and stored.version == 1
    ok(stack.call("pause_reminder", {"id": sid}))
    assert listed(stack)[0]["status"] == "paused"
    ok(stack.call("delete_reminder", {"id": sid}))
    assert listed(stack) == []
    gone = stack.store.get(ROOM, sid)
    assert gone is not None and gone.status == "deleted"
    assert not stack.call("delete_reminder", {"id": sid})["ok"]


def test_a_fire_posts_once_per_slot_and_records_its_run() -> None:
    stack = MemoryStack()
    sid = ok(stack.call("create_reminder", {"message": "stand up", "cron": "0 9 * * *"}))["id"]
    first = stack.fire(sid, "2026-11-30T08:00:00Z")
    assert first["outcome"] == "delivered", first
    again = stack.fire(sid, "2026-11-30T08:00:00Z")
    assert again["outcome"] == "duplicate", again
    assert len(stack.chat.sent) == 1 and "stand up" in stack.chat.sent[0][0].text
    history = ok(stack.call("reminder_history", {"id": sid}))
    assert [run["outcome"] for run in history["runs"]] == ["delivered"]
    stored = stack.store.get(ROOM, sid)
    assert stored is not None and stored.delivered_count == 1 and stored.inflight_until is None


def test_a_one_shot_fires_once_and_leaves_the_room() -> None:
    stack = MemoryStack()
    sid = ok(stack.call("create_reminder", {"message": "dentist", "time": "2026-11-30 10:00"}))["id"]
    assert stack.fire(sid, "2026-11-30T09:00:00Z")["outcome"] == "delivered"
    assert listed(stack) == []
    fired = stack.store.get(ROOM, sid)
    assert fired is not None and fired.status == "fired"
    assert stack.fire(sid, "2026-11-30T09:00:00Z")["outcome"] in ("duplicate", "inactive")
    assert len(stack.chat.sent) == 1


def test_skip_next_skips_the_next_occurrence_only() -> None:
    stack = MemoryStack()
    sid = ok(stack.call("create_reminder", {"message": "stand up", "cron": "0 10 * * *"}))["id"]
    ok(stack.call("skip_next", {"id": sid}))
    assert stack.fire(sid, "2026-11-30T09:00:00Z")["outcome"] == "skipped"
    assert stack.fire(sid, "2026-12-01T09:00:00Z")["outcome"] == "delivered"
    assert len(stack.chat.sent) == 1


def test_a_snoozed_one_shot_moves_and_fires_at_its_new_time() -> None:
    stack = MemoryStack()
    sid = ok(stack.call("create_reminder", {"message": "dentist", "time": "2026-11-30 10:00"}))["id"]
    ok(stack.call("snooze_reminder", {"id": sid, "minutes": 30}))
    stored = stack.store.get(ROOM, sid)
    assert stored is not None and stored.timing.at is not None
    assert stored.timing.at.astimezone(UTC).isoformat() == "2026-11-30T09:30:00+00:00"
    assert stack.fire(sid, "2026-11-30T09:30:00Z")["outcome"] == "delivered"


def test_run_now_hands_on_a_manual_run_that_posts_and_leaves_the_schedule() -> None:
    stack = MemoryStack()
    sid = ok(stack.call("create_reminder", {"message": "stand up", "cron": "0 18 * * *"}))["id"]
    ok(stack.call("run_now", {"target": sid}))
    [event] = stack.started
    assert stack.fire_event(event)["outcome"] == "delivered"
    assert len(stack.chat.sent) == 1
    refused(stack.call("run_now", {"target": sid}), "too_frequent")
    stored = stack.store.get(ROOM, sid)
    assert stored is not None and stored.status == "active" and stored.delivered_count == 0


def test_a_paused_schedule_posts_nothing_until_resumed() -> None:
    stack = MemoryStack()
    sid = ok(stack.call("create_reminder", {"message": "stand up", "cron": "0 10 * * *"}))["id"]
    ok(stack.call("pause_reminder", {"id": sid}))
    assert stack.fire(sid, "2026-11-30T09:00:00Z")["outcome"] == "paused"
    ok(stack.call("resume_reminder", {"id": sid}))
    assert stack.fire(sid, "2026-12-01T09:00:00Z")["outcome"] == "delivered"
    assert len(stack.chat.sent) == 1


def test_a_fire_for_a_time_not_its_own_posts_nothing() -> None:
    stack = MemoryStack()
    sid = ok(stack.call("create_reminder", {"message": "stand up", "cron": "0 10 * * *"}))["id"]
    assert stack.fire(sid, "2026-11-30T09:17:00Z")["outcome"] == "invalid_input"
    assert stack.chat.sent == [] and stack.store.runs(ROOM, sid, 5) == []


def test_a_change_while_a_delivery_holds_the_schedule_is_refused_as_busy() -> None:
    stack = MemoryStack()
    sid = ok(stack.call("create_reminder", {"message": "stand up", "cron": "0 10 * * *"}))["id"]
    held = stack.store.get(ROOM, sid)
    assert held is not None
    stack.store.claim_slot(ROOM, sid, "2026-11-30T09:00:00Z", stack.clock.now(), 300, held)
    refused(stack.call("update_reminder", {"id": sid, "message": "sit down"}), "busy")
    deleting = stack.call("delete_reminder", {"id": sid})
    assert not deleting["ok"] and "being delivered" in deleting["text"], deleting
    stored = stack.store.get(ROOM, sid)
    assert stored is not None and stored.text == "stand up" and stored.status == "active"


def test_a_duplicate_that_differs_in_what_its_key_leaves_out_says_so_and_how_to_change_it() -> None:
    """The same message and time with repeats, another name or other skills is the live schedule again
    (`duplicate`, nothing created), and the answer names the arguments it differs in and how they are
    changed, instead of calling it identical."""
    stack = MemoryStack()
    stack.settings = replace(stack.settings, agents={"echo": "echo-function"})
    sid = ok(stack.call("create_reminder", {"message": "Take pills", "cron": "0 8 * * *"}))["id"]
    same = stack.call("create_reminder", {"message": "Take pills", "cron": "0 8 * * *"})
    assert ok(same)["duplicate"] is True and "identical" in same["text"]
    nagging = {"message": "Take pills", "cron": "0 8 * * *", "repeat_every": 10, "escalate_to": "@nurse:x"}
    differs = stack.call("create_reminder", nagging)
    assert ok(differs)["duplicate"] is True and ok(differs)["id"] == sid and "identical" not in differs["text"]
    assert (
        "`repeat_every`, `repeat_times` and `escalate_to`" in differs["text"] and "update_reminder" in differs["text"]
    )
    stored = stack.store.get(ROOM, sid)
    assert stored is not None and stored.repeat_every == 0  # nothing of the call was kept
    digest = {"name": "digest-web", "prompt": "Summarize the news", "cron_expr": "0 9 * * *", "skills": ["web"]}
    ok(stack.call("cron_create", digest))
    other = stack.call("cron_create", {**digest, "name": "digest-finance", "skills": ["finance"]}, locale="es")
    assert ok(other)["duplicate"] is True and "`name` y `skills`" in other["text"] and "bórrala" in other["text"]
    assert len(listed(stack)) == 2


def test_a_run_refused_for_a_workspace_without_a_token_logs_the_workspace(caplog: Any) -> None:
    """An operator finds which Slack workspace needs a token from the fire's log line."""
    stack = MemoryStack(chat=RecordingChat(fail_with=UnknownWorkspace()))
    stack.settings = replace(stack.settings, chat_backend="matrix,slack")
    event = {
        "tool": "create_reminder",
        "arguments": {"message": "stand up", "time": "2026-11-30 10:00"},
        "context": {"room_id": "C0SAME", "user_id": "U0ANA", "platform": "slack", "team_id": "T0NOTOKEN"},
    }
    answer = ok(tools.handle(event, stack.deps()))
    with caplog.at_level("ERROR", logger="cronbell.usecases.fire_delivery"):
        room = routing.room_key("slack", "C0SAME", "matrix", "T0NOTOKEN")
        fired = stack.fire(answer["id"], "2026-11-30T10:00:00Z", room=room)
    assert fired["outcome"] == "delivery_failed", fired
    (record,) = [r for r in caplog.records if r.getMessage() == "delivery failed for good"]
    assert (record.run_reason, record.workspace) == ("unknown_workspace", "T0NOTOKEN")  # type: ignore[attr-defined]


def test_a_snooze_in_the_minute_of_a_snoozed_occurrence_keeps_that_one_on_its_way() -> None:
    """At 09:05, its minute, the 09:05 snoozed occurrence is on its way (Scheduler fires within the minute,
    the fire may wait behind others): a second snooze moves the next one (tomorrow's), and today's
    stays the schedule's own, so its fire still delivers it. Forgotten as past, its fire found it no
    occurrence of the schedule's, and nothing was posted that day."""
    stack = MemoryStack()
    sid = ok(stack.call("create_reminder", {"message": "stand up", "cron": "0 9 * * *", "timezone": "UTC"}))["id"]
    ok(stack.call("snooze_reminder", {"id": sid, "minutes": 5}))  # today's 09:00 to 09:05
    assert stack.fire(sid, "2026-11-30T09:00:00Z")["outcome"] == "skipped"
    stack.clock.current = datetime(2026, 11, 30, 9, 5, tzinfo=UTC)
    again = ok(stack.call("snooze_reminder", {"id": sid, "minutes": 5}))
    assert again["next_fire"]["utc"] == "2026-12-01T09:05:00Z"  # the next not on its way: tomorrow's
    assert stack.fire(sid, "2026-11-30T09:05:00Z")["outcome"] == "delivered"
    assert stack.fire(sid, "2026-12-01T09:00:00Z")["outcome"] == "skipped"
    assert stack.fire(sid, "2026-12-01T09:05:00Z")["outcome"] == "delivered"
    assert [m.text.count("stand up") for m, _ in stack.chat.sent] == [1, 1]


def test_a_skip_or_new_ends_in_the_minute_of_the_last_counted_occurrence_is_refused_busy() -> None:
    """At 09:00:20 the second of two runs is on its way: it is posted once and ends the schedule. A skip
    answered then named tomorrow's 09:00 skipped and the day after as the next fire, and a count lowered
    to 2 named tomorrow's: neither ever came. Both are refused `busy` now, changing nothing; a count
    raised is accepted (the due one is then not the last), and once the last one is posted nothing is
    left to change."""
    stack = MemoryStack()
    daily = {"message": "stand up", "cron": "0 9 * * *", "timezone": "UTC", "count": 2}
    sid = ok(stack.call("create_reminder", daily))["id"]
    assert stack.fire(sid, "2026-11-30T09:00:00Z")["outcome"] == "delivered"
    stack.clock.current = datetime(2026, 12, 1, 9, 0, 20, tzinfo=UTC)
    before = stack.store.get(ROOM, sid)
    skip = refused(stack.call("skip_next", {"id": sid}), "busy")["error"]
    assert "last occurrence" in skip["message"] and "09:00" in skip["message"]
    named = {"id": sid, "occurrence": "2026-12-02T09:00:00Z"}
    refused(stack.call("skip_next", named), "busy")
    assert stack.store.get(ROOM, sid) == before
    assert stack.fire(sid, "2026-12-01T09:00:00Z")["outcome"] == "delivered"
    assert [m.text.count("stand up") for m, _ in stack.chat.sent] == [1, 1]
    assert stack.store.get(ROOM, sid).status == "completed"

    stack = MemoryStack()
    sid = ok(stack.call("create_reminder", {**daily, "count": 5}))["id"]
    assert stack.fire(sid, "2026-11-30T09:00:00Z")["outcome"] == "delivered"
    stack.clock.current = datetime(2026, 12, 1, 9, 0, 20, tzinfo=UTC)
    lowered = refused(stack.call("update_reminder", {"id": sid, "count": 2}), "busy")
    assert "would make its last" in lowered["error"]["message"]
    es = refused(stack.call("update_reminder", {"id": sid, "count": 2}, locale="es"), "busy")["text"]
    assert "haría la última" in es and "would make" not in es
    retimed = {"id": sid, "cron": "0 9,21 * * *", "count": 2}  # 09:00 still one of its times, and its last
    refused(stack.call("update_reminder", retimed), "busy")
    assert stack.store.get(ROOM, sid).timing.count == 5
    raised = ok(stack.call("update_reminder", {"id": sid, "count": 6}))
    assert raised["next_fire"]["utc"] == "2026-12-02T09:00:00Z"
    assert stack.fire(sid, "2026-12-01T09:00:00Z")["outcome"] == "delivered"


def test_a_malformed_context_is_refused_in_the_language_its_locale_asks_for() -> None:
    """The locale was read with the rest of the context, so a room id refused as malformed was said in
    English whatever the context's locale; it is read on its own first."""
    stack = MemoryStack()
    for room in ("", "!x:y\x00"):
        event = {
            "tool": "list_reminders",
            "arguments": {},
            "context": {"room_id": room, "user_id": "@u:x", "locale": "es"},
        }
        answer = tools.handle(event, stack.deps())
        assert answer["error"]["code"] == "missing_context" and answer["text"].startswith("No se pudo hacer"), answer
    bad_locale = {"tool": "list_reminders", "context": {"room_id": "", "user_id": "@u:x", "locale": "\x00es"}}
    assert tools.handle(bad_locale, stack.deps())["text"].startswith("Could not do that")


def test_an_agent_call_naming_no_agent_says_to_name_one() -> None:
    """No `target_agent` and no agent_id in the context: it said "unknown agent ''"."""
    stack = MemoryStack()
    stack.settings = replace(stack.settings, agents={"echo": "EchoAgentFunction", "news": "NewsFunction"})
    job = {"name": "digest", "prompt": "summarise", "cron_expr": "0 9 * * *"}
    said = refused(stack.call("cron_create", job, agent=""), "unknown_agent")["error"]["message"]
    assert "target_agent" in said and "echo, news" in said and "''" not in said
    es = refused(stack.call("cron_create", job, agent="", locale="es"), "unknown_agent")["text"]
    assert "no se nombró ningún agente" in es and "no agent" not in es
    assert ok(stack.call("cron_create", {**job, "target_agent": "news"}, agent=""))["id"]


def test_refusals_say_what_to_do_for_the_state_the_schedule_is_in() -> None:
    """A paused recurrence is resumed first to skip one; a deleted one no longer runs (nothing to resume);
    a name that only a retired schedule has says what became of it."""
    stack = MemoryStack()
    daily = ok(stack.call("create_reminder", {"message": "stand up", "cron": "0 9 * * *"}))["id"]
    ok(stack.call("pause_reminder", {"id": daily}))
    paused = refused(stack.call("skip_next", {"id": daily}), "invalid_state")["error"]
    assert "resume it first" in paused["message"] and "one-shot" not in paused["message"]
    paused_es = refused(stack.call("skip_next", {"id": daily}, locale="es"), "invalid_state")["text"]
    assert "reanúdala primero" in paused_es and "resume" not in paused_es

    original = stack.store.mark_manual_run

    def deleted_meanwhile(*args: Any, **kwargs: Any) -> Any:  # run_now read it live; a delete landed first
        ok(stack.call("delete_reminder", {"id": daily}))
        return original(*args, **kwargs)

    ok(stack.call("resume_reminder", {"id": daily}))
    stack.store.mark_manual_run = deleted_meanwhile  # type: ignore[method-assign]
    gone = refused(stack.call("run_now", {"kind": "cron", "target": daily}), "not_found")["error"]
    assert "deleted" in gone["message"] and "no longer runs" in gone["message"] and "resume" not in gone["message"]
    es = refused(stack.call("run_now", {"kind": "cron", "target": daily}, locale="es"), "not_found")  # now gone
    assert "su estado es `deleted`" in es["text"] and "no active" not in es["text"]

    stack.settings = replace(stack.settings, agents={"echo": "EchoAgentFunction"})
    job = ok(stack.call("cron_create", {"name": "digest", "prompt": "summarise", "fire_at": "in 2 hours"}))
    ok(stack.call("delete_reminder", {"id": job["id"]}))
    by_name = refused(stack.call("run_now", {"kind": "cron", "target": "digest"}), "not_found")["error"]
    assert "(it is deleted)" in by_name["message"]


def test_snoozing_an_occurrence_on_its_way_by_name_says_so_and_works_once_it_is_posted() -> None:
    stack = MemoryStack()
    sid = ok(stack.call("create_reminder", {"message": "stand up", "cron": "0 9 * * *", "timezone": "UTC"}))["id"]
    stack.clock.current = datetime(2026, 11, 30, 9, 0, 20, tzinfo=UTC)  # its minute: the fire on its way
    named = {"id": sid, "minutes": 30, "occurrence": "2026-11-30T09:00:00Z"}
    early = refused(stack.call("snooze_reminder", named), "invalid_arguments")["error"]
    assert "on its way" in early["message"] and "has no occurrence" not in early["message"]
    early_es = refused(stack.call("snooze_reminder", named, locale="es"), "invalid_arguments")["text"]
    assert "está en camino" in early_es and "on its way" not in early_es
    assert stack.fire(sid, "2026-11-30T09:00:00Z")["outcome"] == "delivered"
    assert ok(stack.call("snooze_reminder", named))["next_fire"]["utc"] == "2026-11-30T09:30:20Z"  # from now
