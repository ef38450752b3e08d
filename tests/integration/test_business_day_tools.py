"""Business days on a moto server: the arguments and phrases stored, shown and given to Scheduler,
refused without a calendar, and applied at fire time (moved occurrences with `moved_from`, days off
that are no occurrence, the n-th business day of the month)."""

from __future__ import annotations

from typing import Any

import pytest

from cronbell.core.domain import refusals
from tests.support.aws import Stack
from tests.support.chat import RecordingChat
from tests.support.tools import assert_consistent, call, fire_at, ok, schedule_item

# the stack starts on Monday 30 November 2026, 09:00 in Madrid; 6 and 8 December and 25 December
# are public holidays in Spain (6 December 2026 is a Sunday)


def runs(stack: Stack, sid: str) -> list[dict[str, Any]]:
    return list(ok(call(stack, "reminder_history", {"id": sid}))["runs"])


def nexts(stack: Stack, sid: str) -> list[str]:
    (listed,) = [s for s in ok(call(stack, "list_reminders"))["schedules"] if s["id"] == sid]
    return [f["local"] for f in listed["next_fires"]]


def test_the_arguments_are_stored_shown_and_fire_from_a_weekday_entry(stack: Stack) -> None:
    args = {"message": "pay", "cron": "0 9 25 12 *", "skip_holidays": "ES", "on_holiday": "before"}
    created = call(stack, "create_reminder", args)
    result = ok(created)
    sid = result["id"]
    assert "moved to the previous business day" in created["text"], created["text"]
    assert (result["on_holiday"], result["business_days"], result["business_day_of_month"]) == ("before", False, None)
    # Friday 25 December 2026 is Christmas: the occurrence moves to Thursday 24 at 09:00
    assert result["next_fire"]["local"] == "2026-12-24T09:00:00+01:00"
    assert schedule_item(stack, sid)["on_holiday"] == "before"
    expressions = sorted(e["ScheduleExpression"] for name, e in stack.entries().items() if name.startswith(sid))
    assert expressions == ["cron(0 9 25 12 ? *)", "cron(0 9 ? * 2-6 *)"]
    chat = RecordingChat()
    moved = fire_at(stack, sid, "2026-12-24T08:00:00Z", chat)
    assert moved["outcome"] == "delivered", moved
    assert fire_at(stack, sid, "2026-12-23T08:00:00Z", chat)["outcome"] == "off_interval"  # a weekday: nothing
    assert fire_at(stack, sid, "2026-12-25T08:00:00Z", chat)["outcome"] == "off_interval"  # moved away: nothing
    (run,) = runs(stack, sid)
    assert (run["scheduled_time"], run["outcome"], run["moved_from"]) == (
        "2026-12-24T09:00:00+01:00",
        "delivered",
        "2026-12-25T09:00:00+01:00",
    )
    assert len(chat.sent) == 1
    assert_consistent(stack)


def test_after_moves_to_the_next_business_day_and_skip_next_sees_it(stack: Stack) -> None:
    args = {"message": "pay", "cron": "0 9 8 * *", "skip_holidays": "ES", "on_holiday": "after"}
    sid = ok(call(stack, "create_reminder", args))["id"]
    # Tuesday 8 December is a holiday: Wednesday 9; 8 January 2027 is a Friday
    assert nexts(stack, sid) == ["2026-12-09T09:00:00+01:00", "2027-01-08T09:00:00+01:00", "2027-02-08T09:00:00+01:00"]
    skipped = ok(call(stack, "skip_next", {"id": sid}))
    assert skipped["next_fire"]["local"] == "2027-01-08T09:00:00+01:00", skipped
    assert fire_at(stack, sid, "2026-12-09T08:00:00Z")["outcome"] == "skipped"
    (run,) = runs(stack, sid)
    assert (run["reason"], run["moved_from"]) == ("skip_next", "2026-12-08T09:00:00+01:00")


def test_a_move_never_lands_on_a_day_with_an_occurrence_of_its_own(stack: Stack) -> None:
    args = {"message": "x", "cron": "0 9 8,9 12 *", "skip_holidays": "ES", "on_holiday": "after"}
    sid = ok(call(stack, "create_reminder", args))["id"]
    # 8 December would move to the 9th, which has its own: it stays a holiday, skipped
    assert nexts(stack, sid)[:2] == ["2026-12-09T09:00:00+01:00", "2027-12-09T09:00:00+01:00"]
    assert fire_at(stack, sid, "2026-12-08T08:00:00Z")["reason"] == "holiday"


def test_business_days_leave_days_off_out_without_a_run(stack: Stack) -> None:
    args = {"message": "stand-up", "cron": "0 10 * * *", "skip_holidays": "ES", "business_days": True}
    created = call(stack, "create_reminder", args)
    sid = ok(created)["id"]
    assert "on business days in ES" in created["text"], created["text"]
    assert [d[:10] for d in nexts(stack, sid)] == ["2026-11-30", "2026-12-01", "2026-12-02"]
    assert fire_at(stack, sid, "2026-12-05T09:00:00Z")["outcome"] == "off_interval"  # a Saturday
    assert fire_at(stack, sid, "2026-12-08T09:00:00Z")["outcome"] == "off_interval"  # a holiday
    assert runs(stack, sid) == []


@pytest.mark.parametrize(
    ("locale", "words", "first"),
    [
        ("en", "the last business day of the month at 17:00", "2026-11-30T17:00:00+01:00"),
        ("es", "el último día hábil del mes a las 17:00", "2026-11-30T17:00:00+01:00"),
        ("es", "el tercer día hábil del mes a las 9", "2026-12-03T09:00:00+01:00"),
        ("en", "the first business day of the month at 9", "2026-12-01T09:00:00+01:00"),
    ],
)
def test_business_day_of_the_month_phrases(stack: Stack, locale: str, words: str, first: str) -> None:
    args = {"message": "x", "cron": words, "skip_holidays": "ES"}
    answer = call(stack, "create_reminder", args, locale=locale)
    result = ok(answer)
    assert result["next_fire"]["local"] == first
    said = {"en": "business day", "es": "día hábil"}[locale]
    assert said in answer["text"] and ("every day" not in answer["text"]), answer["text"]
    assert result["business_day_of_month"] in (-1, 1, 3)


@pytest.mark.parametrize(
    ("locale", "words"),
    [("en", "every business day at 9"), ("es", "cada día laborable a las 9"), ("es", "todos los días hábiles a las 9")],
)
def test_every_business_day_phrases(stack: Stack, locale: str, words: str) -> None:
    result = ok(call(stack, "create_reminder", {"message": "x", "cron": words, "skip_holidays": "ES"}, locale=locale))
    assert result["business_days"] is True
    # Monday 7 is a working day; Tuesday 8 December is a holiday in Spain
    listed = ok(call(stack, "cron_list"))
    assert any(item["id"] == result["id"] for item in listed)


@pytest.mark.parametrize(
    ("args", "words"),
    [
        ({"cron": "0 9 * * *", "business_days": True}, "skip_holidays"),
        ({"cron": "0 9 * * *", "on_holiday": "after"}, "skip_holidays"),
        ({"cron": "every business day at 9"}, "skip_holidays"),
        ({"cron": "0 9 * * 1", "business_day_of_month": 2, "skip_holidays": "ES"}, "1 to 23"),
        ({"cron": "0 9 * * *", "business_day_of_month": 0, "skip_holidays": "ES"}, "1 to 23"),
        ({"time": "tomorrow at 9", "business_days": True, "skip_holidays": "ES"}, "recurring schedules only"),
    ],
)
def test_refusals_change_nothing(stack: Stack, args: dict[str, Any], words: str) -> None:
    answer = call(stack, "create_reminder", {"message": "x", **args})
    assert not answer["ok"] and answer["error"]["code"] == refusals.INVALID_ARGUMENTS, answer
    assert words in answer["error"]["message"], answer["error"]["message"]
    assert stack.entries() == {}
    spanish = call(stack, "create_reminder", {"message": "x", **args}, locale="es")
    assert not spanish["ok"] and spanish["error"]["code"] == refusals.INVALID_ARGUMENTS


def test_a_business_day_phrase_needs_a_time_of_day(stack: Stack) -> None:
    for locale, words in (("es", "el tercer día hábil del mes"), ("en", "every business day")):
        answer = call(stack, "create_reminder", {"message": "x", "cron": words, "skip_holidays": "ES"}, locale=locale)
        assert answer["error"]["code"] == refusals.INVALID_CRON, answer
    assert stack.entries() == {}


def test_update_sets_and_removes_the_rules(stack: Stack) -> None:
    sid = ok(call(stack, "create_reminder", {"message": "x", "cron": "0 9 * * *", "skip_holidays": "ES"}))["id"]
    answer = call(stack, "update_reminder", {"id": sid, "business_day_of_month": -1})
    assert "on the last business day of the month at 09:00, business days of ES" in answer["text"], answer["text"]
    updated = ok(answer)
    assert updated["next_fire"]["local"] == "2026-12-31T09:00:00+01:00"  # 30 November's 09:00 is now
    assert schedule_item(stack, sid)["business_day_of_month"] == -1
    assert [e["ScheduleExpression"] for e in stack.entries().values()] == ["cron(0 9 ? * 2-6 *)"]
    moved = ok(call(stack, "update_reminder", {"id": sid, "cron": "0 10 * * *"}))  # keeps its rule
    assert moved["business_day_of_month"] == -1 and moved["next_fire"]["local"] == "2026-11-30T10:00:00+01:00"
    cleared = ok(call(stack, "update_reminder", {"id": sid, "business_day_of_month": 0}))
    assert cleared["business_day_of_month"] is None
    assert "business_day_of_month" not in schedule_item(stack, sid)
    refused = call(stack, "update_reminder", {"id": sid, "on_holiday": "after", "skip_holidays": "none"})
    assert refused["error"]["code"] == refusals.INVALID_ARGUMENTS
    assert_consistent(stack)


def test_a_snooze_moves_the_moved_occurrence(stack: Stack) -> None:
    args = {"message": "pay", "cron": "0 9 25 12 *", "skip_holidays": "ES", "on_holiday": "before"}
    sid = ok(call(stack, "create_reminder", args))["id"]
    snoozed = ok(call(stack, "snooze_reminder", {"id": sid, "minutes": 30}))
    assert snoozed["next_fire"]["local"] == "2026-12-24T09:30:00+01:00", snoozed
    chat = RecordingChat()
    assert fire_at(stack, sid, "2026-12-24T08:00:00Z", chat)["outcome"] == "skipped"
    assert fire_at(stack, sid, "2026-12-24T08:30:00Z", chat)["outcome"] == "delivered"
    assert sorted((r["scheduled_time"], r["reason"], r["moved_from"]) for r in runs(stack, sid)) == [
        ("2026-12-24T09:00:00+01:00", "snoozed", "2026-12-25T09:00:00+01:00"),
        ("2026-12-24T09:30:00+01:00", None, None),
    ]
    assert len(chat.sent) == 1
