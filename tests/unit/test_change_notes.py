"""What a change of time drops, said, and what a change of ends may not drop: a new time, expression or
zone starts afresh (coming skips and snoozes are dropped, each named in `notes`); an earlier `until` or a
lower `count` that would leave a pending snooze unposted is refused and changes nothing
(docs/semantics.md)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from tests.support.memory_stack import MemoryStack


@pytest.mark.parametrize("change", [{"timezone": "Europe/Lisbon"}, {"cron": "30 10 * * *"}, {"time": "tomorrow at 8"}])
def test_a_new_time_says_which_skip_it_drops(change: dict[str, str]) -> None:
    stack = MemoryStack()  # Monday 30 November 2026, 09:00 in Madrid
    sid = stack.call("create_reminder", {"message": "R1", "cron": "0 10 * * *", "timezone": "Europe/Madrid"})
    sid = sid["result"]["id"]
    assert stack.call("skip_next", {"id": sid})["ok"]
    kept = stack.call("update_reminder", {"id": sid, "message": "R1b"})["result"]
    assert not kept.get("notes")  # a new text keeps the skip, and says nothing
    changed = stack.call("update_reminder", {"id": sid, **change})
    assert changed["ok"], changed
    assert any("skip of Monday 30 November 2026, 10:00 no longer applies" in n for n in changed["result"]["notes"])


def test_a_new_expression_says_which_snooze_it_drops_in_the_caller_s_language() -> None:
    stack = MemoryStack()  # created in English, changed by a Spanish caller: the answer is all Spanish
    made = stack.call("create_reminder", {"message": "R2", "cron": "0 11 * * *", "timezone": "Europe/Madrid"})
    sid = made["result"]["id"]
    assert stack.call("snooze_reminder", {"id": sid, "minutes": 60})["ok"]
    changed = stack.call("update_reminder", {"id": sid, "cron": "0 14 * * *"}, locale="es")
    assert any("ya no hay aplazamiento" in n and "12:00" in n for n in changed["result"]["notes"]), changed


@pytest.mark.parametrize(
    ("create", "change"), [({"until": "2026-12-08"}, {"until": "2026-12-01"}), ({"count": 5}, {"count": 2})]
)
def test_new_ends_that_would_leave_a_snooze_unposted_are_refused_and_change_nothing(
    create: dict[str, object], change: dict[str, object]
) -> None:
    stack = MemoryStack()
    made = stack.call("create_reminder", {"message": "ug", "cron": "0 12 * * *", "timezone": "Europe/Madrid", **create})
    sid = made["result"]["id"]
    assert stack.call("snooze_reminder", {"id": sid, "minutes": 2910})["ok"]  # today's 12:00 to Wednesday 12:30
    before = stack.call("list_reminders")["result"]["schedules"]
    refused = stack.call("update_reminder", {"id": sid, **change})
    assert (
        refused["error"]["code"] == "invalid_arguments"
        and "Wednesday 2 December 2026, 12:30" in refused["error"]["message"]
    )
    assert stack.call("list_reminders")["result"]["schedules"] == before
    later = {"until": "2026-12-04"} if "until" in change else {"count": 4}
    assert stack.call("update_reminder", {"id": sid, **later})["ok"]  # an end that still posts it is accepted


def test_a_time_given_to_a_recurring_schedule_says_it_now_fires_once_and_what_it_loses() -> None:
    stack = MemoryStack()
    made = stack.call(
        "create_reminder",
        {"message": "stand-up", "cron": "0 9 * * 1-5", "until": "2027-06-30", "count": 20, "skip_holidays": "ES"},
    )
    changed = stack.call("update_reminder", {"id": made["result"]["id"], "time": "tomorrow at 7"})
    result = changed["result"]
    assert (result["recurring"], result["until"], result["count"], result["skip_holidays"]) == (False, None, None, None)
    (note,) = [n for n in result["notes"] if "fire once" in n]
    assert "every weekday" in note and "until Wednesday 30 June 2027" in note and "`cron`" in note


def test_a_paused_schedule_changed_is_said_paused_never_over() -> None:
    stack = MemoryStack()
    sid = stack.call("create_reminder", {"message": "ess", "cron": "0 9 * * 1"})["result"]["id"]
    assert stack.call("pause_reminder", {"id": sid})["ok"]
    for change in ({"cron": "0 10 * * 1"}, {"time": "tomorrow at 9"}):
        text = stack.call("update_reminder", {"id": sid, **change})["text"]
        assert "paused (resume_reminder turns it back on)" in text and "will not fire again" not in text, text


def test_a_paused_schedule_keeps_its_snooze_for_the_resume_and_new_ends_that_still_post_it_are_accepted() -> None:
    """Found by the stateful search: a paused schedule has no coming fire, but its snooze is still posted
    once it is resumed; an end that keeps it in is no reason to refuse."""
    stack = MemoryStack()
    made = stack.call(
        "create_reminder", {"message": "ug", "cron": "0 12 * * *", "timezone": "Europe/Madrid", "count": 5}
    )
    sid = made["result"]["id"]
    assert stack.call("snooze_reminder", {"id": sid, "minutes": 2910})["ok"]  # today's 12:00 to Wednesday 12:30
    assert stack.call("pause_reminder", {"id": sid})["ok"]
    assert stack.call("update_reminder", {"id": sid, "count": 4, "until": "2026-12-10"})["ok"]
    refused = stack.call("update_reminder", {"id": sid, "count": 2})  # Tuesday, Wednesday 12:00: not the snooze
    assert refused["error"]["code"] == "invalid_arguments"


def test_a_delivered_occurrence_reminded_again_says_which_occurrence_its_count_then_leaves_out() -> None:
    """`count` counts posts (docs/semantics.md): Snooze under today's post of a schedule with one run left
    took tomorrow's occurrence without a word; the answer now names it, and the snooze is still made."""
    stack = MemoryStack()  # Monday 30 November 2026, 09:00 in Madrid
    made = stack.call("create_reminder", {"message": "S3", "cron": "0 12 * * *", "count": 2})["result"]
    assert stack.fire(made["id"], "2026-11-30T11:00:00Z")["outcome"] == "delivered"
    stack.clock.current = datetime(2026, 11, 30, 11, 10, tzinfo=UTC)
    snoozed = stack.call("snooze_reminder", {"id": made["id"], "minutes": 60, "occurrence": "2026-11-30T11:00:00Z"})
    assert snoozed["ok"] and snoozed["result"]["next_fires"][0]["local"] == "2026-11-30T13:10:00+01:00"
    (note,) = snoozed["result"]["notes"]
    assert note == (
        "A snooze reminded again counts towards `count` (2): the occurrence of Tuesday 1 December, 12:00 "
        "will not come, as the count is then used."
    )
    roomy = stack.call("create_reminder", {"message": "R", "cron": "0 13 * * *", "count": 5})["result"]
    assert stack.fire(roomy["id"], "2026-11-30T12:00:00Z")["outcome"] == "delivered"
    again = stack.call("snooze_reminder", {"id": roomy["id"], "minutes": 30, "occurrence": "2026-11-30T12:00:00Z"})
    assert again["ok"] and "the occurrence of Friday 4 December, 13:00 will not come" in again["text"]  # the fifth


def test_a_new_zone_says_the_end_it_keeps_as_it_reads_there_unless_a_new_until_is_given() -> None:
    """A zone change keeps `until` as an instant (docs/semantics.md): "through 5 December" in Madrid ends at
    17:59 in New York, and an occurrence after that on the last day no longer comes; the answer says so."""
    stack = MemoryStack()  # Monday 30 November 2026, 09:00 in Madrid
    sid = stack.call("create_reminder", {"message": "x", "cron": "0 11 * * *", "until": "2026-12-05"})["result"]["id"]
    moved = stack.call("update_reminder", {"id": sid, "timezone": "America/New_York"})["result"]
    assert moved["until"] == "2026-12-05T17:59:59-05:00"
    assert moved["notes"] == [
        "Its end stays the same instant: Saturday 5 December 2026, 23:59 in the old zone is Saturday 5 December "
        "2026, 17:59 in America/New_York; give `until` again to end it on a day of the new zone."
    ]
    again = stack.call("update_reminder", {"id": sid, "timezone": "Asia/Tokyo", "until": "2026-12-06"})["result"]
    assert again["until"] == "2026-12-06T23:59:59+09:00" and not again.get("notes")
