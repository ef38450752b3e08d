"""The tools use case on a moto server: every tool, every error code, the rules of issue 2."""

from __future__ import annotations

import json
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

from cronbell.core.domain import refusals
from cronbell.usecases import tools
from tests.support.aws import FIRE_ARN, ROLE_ARN, Stack, provision
from tests.support.envelopes import OTHER_ROOM, ROOM, USER, envelope
from tests.support.tools import assert_consistent, call, live_items, ok

# --- create_reminder ----------------------------------------------------------------------------


def test_one_shot_reaches_scheduler_exactly(stack: Stack) -> None:
    answer = call(stack, "create_reminder", {"message": "Call mum", "time": "2026-11-30 18:30"})
    result = ok(answer)
    sid = result["id"]
    entry = stack.entries()[sid]
    assert entry["ScheduleExpression"] == "at(2026-11-30T17:30:00)"  # one-shots: the exact instant in UTC
    assert entry["ScheduleExpressionTimezone"] == "UTC"
    assert entry["ActionAfterCompletion"] == "DELETE"
    assert entry["FlexibleTimeWindow"] == {"Mode": "OFF"}
    assert entry["State"] == "ENABLED"
    assert entry["Target"]["Arn"] == FIRE_ARN
    assert entry["Target"]["RoleArn"] == ROLE_ARN
    assert entry["Target"]["DeadLetterConfig"]["Arn"] == stack.dlq_arn
    assert entry["Target"]["RetryPolicy"]["MaximumRetryAttempts"] > 0
    assert json.loads(entry["Target"]["Input"]) == {
        "room_id": ROOM,
        "reminder_id": sid,
        "scheduled_time": "<aws.scheduler.scheduled-time>",
        "execution_id": "<aws.scheduler.execution-id>",
        "attempt": "<aws.scheduler.attempt-number>",
    }
    assert result["next_fire"] == {"local": "2026-11-30T18:30:00+01:00", "utc": "2026-11-30T17:30:00Z"}
    assert result["now"]["utc"] == "2026-11-30T08:00:00Z"
    assert (
        "Monday 30 November, 18:30" in answer["text"] and "Now it is 09:00 on Monday 30 November 2026" in answer["text"]
    )
    [item] = live_items(stack)
    assert item["text"] == "Call mum" and item["user_id"] == USER and item["room_id"] == ROOM
    assert_consistent(stack)


def test_recurring_translates_weekday_and_zone(stack: Stack) -> None:
    result = ok(call(stack, "create_reminder", {"message": "Standup", "cron": "0 10 * * 1"}))
    entry = stack.entries()[result["id"]]
    assert entry["ScheduleExpression"] == "cron(0 10 ? * 2 *)"
    assert entry["ScheduleExpressionTimezone"] == "Europe/Madrid"
    assert entry["ActionAfterCompletion"] == "NONE"
    assert result["recurring"] is True
    assert result["next_fire"]["local"] == "2026-11-30T10:00:00+01:00"
    assert [f["local"][:10] for f in result["next_fires"]] == ["2026-11-30", "2026-12-07", "2026-12-14"]


def test_dom_or_dow_owns_two_entries_listed_and_deleted_as_one(stack: Stack) -> None:
    result = ok(call(stack, "create_reminder", {"message": "Pay", "cron": "0 9 1 * 5"}))
    sid = result["id"]
    assert set(stack.entries()) == {sid, f"{sid}-2"}
    listed = ok(call(stack, "list_reminders"))["schedules"]
    assert [s["id"] for s in listed] == [sid]
    ok(call(stack, "delete_reminder", {"id": sid}))
    assert stack.entries() == {}
    assert_consistent(stack)


def test_timezone_argument_beats_context(stack: Stack) -> None:
    result = ok(
        call(
            stack,
            "create_reminder",
            {"message": "x", "time": "2026-12-01 09:00", "timezone": "America/New_York"},
        )
    )
    assert result["timezone"] == "America/New_York"
    assert stack.entries()[result["id"]]["ScheduleExpression"] == "at(2026-12-01T14:00:00)"
    assert result["next_fire"]["utc"] == "2026-12-01T14:00:00Z"


def test_default_timezone_when_context_has_none(moto_endpoint: str, clock: Any) -> None:
    stack = provision(moto_endpoint, clock, default_timezone="Asia/Kolkata")
    answer = tools.handle(
        {
            "tool": "create_reminder",
            "arguments": {"message": "x", "time": "2026-12-01 09:00"},
            "context": {"room_id": ROOM, "user_id": USER},
        },
        stack.deps(),
    )
    assert ok(answer)["next_fire"]["utc"] == "2026-12-01T03:30:00Z"


def test_spanish_context_answers_in_spanish(stack: Stack) -> None:
    answer = call(stack, "create_reminder", {"message": "Reunión", "time": "2026-12-01 09:00"}, locale="es")
    assert answer["ok"] and "Son las 09:00 del lunes 30 de noviembre de 2026" in answer["text"]


def test_duplicate_returns_the_existing_schedule(stack: Stack) -> None:
    first = ok(call(stack, "create_reminder", {"message": "Standup", "cron": "0 10 * * 1"}))
    second = ok(call(stack, "create_reminder", {"message": "Standup", "cron": "0 10 * * MON"}))
    assert second["id"] == first["id"] and second["duplicate"] is True and first["duplicate"] is False
    assert len(live_items(stack)) == 1
    assert_consistent(stack)
    other_zone = ok(call(stack, "create_reminder", {"message": "Standup", "cron": "0 10 * * 1", "timezone": "UTC"}))
    assert other_zone["id"] != first["id"]


# --- rules: room isolation, limits, lengths ----------------------------------------------------


def test_rooms_see_and_delete_only_their_own(stack: Stack) -> None:
    mine = ok(call(stack, "create_reminder", {"message": "mine", "time": "2026-12-01 09:00"}))
    other = call(stack, "list_reminders", room=OTHER_ROOM)
    assert ok(other)["schedules"] == []
    denied = call(stack, "delete_reminder", {"id": mine["id"]}, room=OTHER_ROOM)
    assert denied["error"]["code"] == refusals.NOT_FOUND
    assert call(stack, "cron_delete", {"id": mine["id"]}, room=OTHER_ROOM)["error"]["code"] == refusals.NOT_FOUND
    assert len(live_items(stack)) == 1


def test_room_in_arguments_is_refused(stack: Stack) -> None:
    answer = call(stack, "create_reminder", {"message": "x", "time": "2026-12-01 09:00", "room_id": OTHER_ROOM})
    assert answer["error"]["code"] == refusals.INVALID_ARGUMENTS
    assert stack.items() == []


def test_limit_holds_under_60_concurrent_creates(moto_endpoint: str, clock: Any) -> None:
    stack = provision(moto_endpoint, clock, max_per_room=50)
    deps = stack.deps()

    def create(i: int) -> dict[str, Any]:
        return tools.handle(envelope("create_reminder", {"message": f"m{i}", "time": "2026-12-01 09:00"}), deps)

    with ThreadPoolExecutor(max_workers=12) as pool:
        answers = list(pool.map(create, range(60)))
    assert sum(a["ok"] for a in answers) == 50
    refused = [a for a in answers if not a["ok"]]
    assert {a["error"]["code"] for a in refused} == {refusals.LIMIT_REACHED}
    assert len(live_items(stack)) == 50
    assert len(stack.entries()) == 50
    assert_consistent(stack)
    # deleting one frees a place
    ok(call(stack, "delete_reminder", {"id": live_items(stack)[0]["id"]}))
    ok(call(stack, "create_reminder", {"message": "again", "time": "2026-12-01 09:00"}))


@pytest.mark.parametrize(
    ("args", "code"),
    [
        ({"message": "x" * 2001, "time": "2026-12-01 09:00"}, refusals.TOO_LONG),
        ({"message": "x", "time": "whenever you like"}, refusals.INVALID_TIME),
        ({"message": "x", "time": "2026-11-29 09:00"}, refusals.TIME_IN_PAST),
        ({"message": "x", "cron": "61 * * * *"}, refusals.INVALID_CRON),
        ({"message": "x", "cron": "0 0 30 2 *"}, refusals.NEVER_FIRES),
        ({"message": "x", "cron": "* * * * *"}, refusals.TOO_FREQUENT),
        ({"message": "x", "time": "2026-12-01 09:00", "timezone": "Mars/Olympus"}, refusals.INVALID_TIMEZONE),
        ({"message": "x"}, refusals.INVALID_ARGUMENTS),
        ({"message": "x", "time": "2026-12-01 09:00", "cron": "0 9 * * *"}, refusals.INVALID_ARGUMENTS),
        ({"message": 42, "time": "2026-12-01 09:00"}, refusals.INVALID_ARGUMENTS),
        ({"message": "", "time": "2026-12-01 09:00"}, refusals.INVALID_ARGUMENTS),
        ({"message": "x", "time": "2026-12-01 09:00", "recurring": "yes"}, refusals.INVALID_ARGUMENTS),
    ],
)
def test_create_reminder_refusals_change_nothing(stack: Stack, args: dict[str, Any], code: str) -> None:
    answer = call(stack, "create_reminder", args)
    assert answer["ok"] is False and answer["error"]["code"] == code, answer
    assert answer["text"] and answer["error"]["message"]
    assert stack.items() == [] and stack.entries() == {}


def test_past_time_error_says_what_time_it_is(stack: Stack) -> None:
    answer = call(stack, "create_reminder", {"message": "x", "time": "2026-11-30 08:00"})
    assert answer["error"]["code"] == refusals.TIME_IN_PAST
    assert "09:00" in answer["error"]["message"]


@pytest.mark.parametrize(
    ("event", "code"),
    [
        ("not an object", refusals.INVALID_REQUEST),
        ({"arguments": {}}, refusals.INVALID_REQUEST),
        ({"tool": "create_reminder", "arguments": {"message": "x", "time": "10:00"}}, refusals.MISSING_CONTEXT),
        ({"tool": "list_reminders", "context": {"room_id": ROOM}}, refusals.MISSING_CONTEXT),
        ({"tool": "list_reminders", "context": {"room_id": 5, "user_id": USER}}, refusals.MISSING_CONTEXT),
        ({"tool": "make_coffee", "context": {"room_id": ROOM, "user_id": USER}}, refusals.UNKNOWN_TOOL),
        (
            {"tool": "list_reminders", "arguments": [1], "context": {"room_id": ROOM, "user_id": USER}},
            refusals.INVALID_ARGUMENTS,
        ),
    ],
)
def test_malformed_envelopes(stack: Stack, event: Any, code: str) -> None:
    answer = tools.handle(event, stack.deps())
    assert answer["ok"] is False and answer["error"]["code"] == code


# --- list / delete --------------------------------------------------------------------------------


def test_list_shows_every_field_and_hides_inactive(stack: Stack) -> None:
    a = ok(call(stack, "create_reminder", {"message": "one", "time": "2026-12-01 09:00"}))
    b = ok(call(stack, "create_reminder", {"message": "two", "cron": "30 7 * * *"}))
    ok(call(stack, "delete_reminder", {"id": a["id"]}))
    listed = ok(call(stack, "list_reminders"))
    assert [s["id"] for s in listed["schedules"]] == [b["id"]]
    row = listed["schedules"][0]
    for key in (
        "id",
        "kind",
        "preview",
        "schedule",
        "timezone",
        "enabled",
        "status",
        "next_fire",
        "last_fired",
    ):
        assert key in row
    assert row["next_fire"]["local"] == "2026-12-01T07:30:00+01:00"
    everything = ok(call(stack, "list_reminders", {"include_inactive": True}))["schedules"]
    assert {s["id"]: s["status"] for s in everything} == {a["id"]: "deleted", b["id"]: "active"}


def test_delete_unknown_and_twice(stack: Stack) -> None:
    a = ok(call(stack, "create_reminder", {"message": "one", "time": "2026-12-01 09:00"}))
    assert call(stack, "delete_reminder", {"id": "zzzzzzzzzz"})["error"]["code"] == refusals.NOT_FOUND
    ok(call(stack, "delete_reminder", {"id": a["id"]}))
    assert call(stack, "delete_reminder", {"id": a["id"]})["error"]["code"] == refusals.NOT_FOUND
    assert_consistent(stack)


# --- cron_create / cron_list ------------------------------------------------------------------------


def test_cron_create_stores_agent_call_and_lists(stack: Stack) -> None:
    result = ok(
        call(
            stack,
            "cron_create",
            {
                "name": "daily summary",
                "prompt": "Summarise the day",
                "cron_expr": "0 18 * * *",
                "skills": ["web"],
            },
        )
    )
    assert result["kind"] == "agent_call" and result["target_agent"] == "echo" and result["channel"] == ROOM
    listed = ok(call(stack, "cron_list"))
    assert listed == [
        {
            "id": result["id"],
            "name": "daily summary",
            "cron_expr": "0 18 * * *",
            "fire_at": None,
            "timezone": "Europe/Madrid",
            "enabled": True,
            "kind": "agent_call",
            "next_fire": "2026-11-30T18:00:00+01:00",
            "held_until": None,
            "last_run": None,
            "failure_streak": 0,
            "until": None,
            "count": None,
            "delivered_count": 0,
            "skip_holidays": None,
            "business_days": False,
            "business_day_of_month": None,
            "on_holiday": "skip",
        }
    ]
    # either family's delete works on either family's ids
    ok(call(stack, "delete_reminder", {"id": "daily summary"}))
    assert ok(call(stack, "cron_list")) == []


def test_cron_create_once_with_fire_at(stack: Stack) -> None:
    result = ok(
        call(
            stack,
            "cron_create",
            {"name": "think", "prompt": "Think again", "fire_at": "2026-11-30T12:00:00Z"},
        )
    )
    entry = stack.entries()[result["id"]]
    assert entry["ScheduleExpression"] == "at(2026-11-30T12:00:00)"
    assert entry["ActionAfterCompletion"] == "DELETE"
    assert ok(call(stack, "cron_list"))[0]["fire_at"] == "2026-11-30T13:00:00+01:00"


@pytest.mark.parametrize(
    ("args", "code"),
    [
        (
            {"name": "x", "prompt": "p", "cron_expr": "0 9 * * *", "target_agent": "nobody"},
            refusals.UNKNOWN_AGENT,
        ),
        (
            {"name": "x", "prompt": "p", "cron_expr": "0 9 * * *", "channel": OTHER_ROOM},
            refusals.FORBIDDEN_CHANNEL,
        ),
        ({"name": "x" * 101, "prompt": "p", "cron_expr": "0 9 * * *"}, refusals.TOO_LONG),
        ({"name": "x", "prompt": "p" * 8001, "cron_expr": "0 9 * * *"}, refusals.TOO_LONG),
        ({"name": "x", "prompt": "p"}, refusals.INVALID_ARGUMENTS),
        ({"name": "x", "prompt": "p", "cron_expr": "0 9 * * *", "skills": "web"}, refusals.INVALID_ARGUMENTS),
        ({"name": "x", "prompt": "p", "fire_at": "2020-01-01T00:00:00Z"}, refusals.TIME_IN_PAST),
    ],
)
def test_cron_create_refusals(stack: Stack, args: dict[str, Any], code: str) -> None:
    answer = call(stack, "cron_create", args)
    assert answer["ok"] is False and answer["error"]["code"] == code, answer
    assert stack.items() == [] and stack.entries() == {}


def test_allowed_output_room(moto_endpoint: str, clock: Any) -> None:
    stack = provision(moto_endpoint, clock, allowed_output_rooms=(OTHER_ROOM,))
    result = ok(
        call(
            stack,
            "cron_create",
            {"name": "x", "prompt": "p", "cron_expr": "0 9 * * *", "channel": OTHER_ROOM},
        )
    )
    assert result["channel"] == OTHER_ROOM
    # still owned by (and listed in) the creating room
    assert [s["id"] for s in ok(call(stack, "list_reminders"))["schedules"]] == [result["id"]]


def test_name_lookup_ambiguous(stack: Stack) -> None:
    """Two live schedules with one name exist only in tables written before names were unique."""
    ok(call(stack, "cron_create", {"name": "same", "prompt": "a", "cron_expr": "0 9 * * *"}))
    second = ok(call(stack, "cron_create", {"name": "other", "prompt": "b", "cron_expr": "0 9 * * *"}))["id"]
    stack.ddb.update_item(
        TableName=stack.settings.table_name,
        Key={"room_id": {"S": ROOM}, "sk": {"S": f"s#{second}"}},
        UpdateExpression="SET #n = :same",
        ExpressionAttributeNames={"#n": "name"},
        ExpressionAttributeValues={":same": {"S": "same"}},
    )
    answer = call(stack, "cron_delete", {"id": "same"})
    assert answer["error"]["code"] == refusals.AMBIGUOUS and len(answer["error"]["details"]["candidates"]) == 2


def test_a_repeating_phrase_sent_as_time_gets_a_hint(stack: Stack) -> None:
    answer = call(stack, "create_reminder", {"message": "x", "time": "every monday at 10"})
    assert answer["error"]["code"] == refusals.INVALID_TIME and "`cron`" in answer["error"]["message"]
    assert stack.items() == []
    result = ok(call(stack, "create_reminder", {"message": "x", "time": "every monday at 10", "recurring": True}))
    assert stack.entries()[result["id"]]["ScheduleExpression"] == "cron(0 10 ? * 2 *)"


def test_the_same_reminder_for_two_people_is_two_schedules(stack: Stack) -> None:
    """Ana and then Bob ask for the same reminder in one room: each is reminded, neither merged."""
    args = {"message": "Stand up", "time": "2026-12-01 09:00"}
    ana = ok(call(stack, "create_reminder", args))
    bob = ok(call(stack, "create_reminder", args, user="@bob:example.org"))
    assert bob["duplicate"] is False and bob["id"] != ana["id"]
    again = ok(call(stack, "create_reminder", args, user="@bob:example.org"))
    assert again["duplicate"] is True and again["id"] == bob["id"]
    users = {i["user_id"] for i in live_items(stack)}
    assert users == {USER, "@bob:example.org"}
    assert_consistent(stack)


def test_names_are_unique_among_the_rooms_live_schedules(stack: Stack) -> None:
    first = ok(call(stack, "cron_create", {"name": "report", "prompt": "p", "cron_expr": "0 9 * * *"}))
    taken = call(stack, "cron_create", {"name": "Report", "prompt": "other", "cron_expr": "0 10 * * *"})
    assert taken["error"]["code"] == refusals.NAME_TAKEN and taken["error"]["details"]["existing"] == first["id"]
    again = ok(call(stack, "cron_create", {"name": "report", "prompt": "p", "cron_expr": "0 9 * * *"}))
    assert again["duplicate"] is True and again["id"] == first["id"]  # an identical create still answers it
    other = ok(call(stack, "cron_create", {"name": "digest", "prompt": "q", "cron_expr": "0 9 * * *"}))
    renamed = call(stack, "update_reminder", {"id": other["id"], "name": "REPORT"})
    assert renamed["error"]["code"] == refusals.NAME_TAKEN
    assert ok(call(stack, "cron_delete", {"id": "report"}))["id"] == first["id"]  # one name, one schedule
    reused = ok(call(stack, "cron_create", {"name": "report", "prompt": "new", "cron_expr": "0 11 * * *"}))
    assert reused["id"] != first["id"]
    ok(call(stack, "update_reminder", {"id": other["id"], "name": "daily digest"}))
    ok(call(stack, "cron_create", {"name": "digest", "prompt": "q2", "cron_expr": "0 12 * * *"}))  # freed by the rename
    assert_consistent(stack)


def test_cron_list_shows_only_real_names(stack: Stack) -> None:
    reminder = ok(call(stack, "create_reminder", {"message": "Water the plants", "cron": "0 9 * * *"}))
    job = ok(call(stack, "cron_create", {"name": "report", "prompt": "p", "cron_expr": "0 9 * * *"}))
    names = {row["id"]: row["name"] for row in ok(call(stack, "cron_list"))}
    assert names == {reminder["id"]: None, job["id"]: "report"}
    assert call(stack, "cron_delete", {"id": "Water the plants"})["error"]["code"] == refusals.NOT_FOUND
