"""The pure rules of runs: lateness, the failure policy, the run record."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from cronbell.core.domain import runs
from cronbell.core.domain.runs import Run, Verdict, judge

SLOT = "2026-12-07T08:00:00Z"
AT = datetime(2026, 12, 7, 8, tzinfo=UTC)


def test_late_seconds_counts_from_the_scheduled_time_and_is_never_negative() -> None:
    assert runs.late_seconds(SLOT, AT + timedelta(hours=3)) == 10800
    assert runs.late_seconds(SLOT, AT - timedelta(seconds=2)) == 0  # a clock a little behind


@pytest.mark.parametrize(
    ("late", "recurring", "manual", "limit", "missed"),
    [
        (3601, True, False, 60, True),
        (3600, True, False, 60, False),  # exactly at the limit is still delivered
        (10800, False, False, 60, False),  # a one-shot's only chance
        (10800, True, True, 60, False),  # run_now is never too late
        (10800, True, False, 240, False),
    ],
)
def test_too_late_only_for_scheduled_recurring_runs(
    late: int, recurring: bool, manual: bool, limit: int, missed: bool
) -> None:
    assert runs.too_late(late, recurring, manual, limit) is missed


def test_a_streak_is_told_once_then_silent_then_paused_and_recovery_is_told_once() -> None:
    streak, notices = 0, []
    for _ in range(5):
        verdict = judge(runs.FAILED, streak, 5)
        streak = verdict.streak
        notices.append((verdict.notice, verdict.pause))
    assert notices == [("failing", False), (None, False), (None, False), (None, False), ("paused", True)]
    assert judge(runs.DELIVERED, streak, 5) == Verdict(0, "recovered")
    assert judge(runs.DELIVERED, 0, 5) == Verdict(0, None)


def test_skipped_and_missed_runs_leave_the_streak_and_zero_never_pauses() -> None:
    assert judge(runs.SKIPPED, 3, 5) == Verdict(3) and judge(runs.MISSED, 3, 5) == Verdict(3)
    assert judge(runs.FAILED, 99, 0) == Verdict(100, None, pause=False)
    assert judge(runs.FAILED, 0, 1) == Verdict(1, "paused", pause=True)  # the pause notice is the only one


def test_run_round_trips_and_shows_its_time_in_the_schedule_zone() -> None:
    run = Run(runs.local_time(SLOT, "Europe/Madrid"), runs.FAILED, runs.AGENT_TIMEOUT, late_seconds=4)
    assert run.scheduled_time == "2026-12-07T09:00:00+01:00"
    assert Run.from_dict(run.to_dict()) == run
    assert run.to_dict() == {
        "scheduled_time": "2026-12-07T09:00:00+01:00",
        "outcome": "failed",
        "reason": "agent_timeout",
        "manual": False,
        "late_seconds": 4,
        "message_id": None,
        "moved_from": None,
        "acknowledged_at": None,
        "repeats": 0,
        "escalated": False,
    }


def test_previous_is_cut_to_four_thousand_characters() -> None:
    assert runs.previous("t", "x" * 5000) == {"scheduled_time": "t", "text": "x" * 4000}


@pytest.mark.parametrize("locale", ["en", "es"])
def test_the_run_sentences_exist_in_both_languages(locale: str) -> None:
    from cronbell.core.text import texts

    said = [
        texts.say("run_failing", locale, name="digest", reason="agent_timeout: slow"),
        texts.say("run_recovered", locale, name="digest"),
        texts.say("run_paused", locale, name="digest", count=5, id="k3v9q2m8xa"),
        texts.say("late_note", locale, due="Monday 7 December, 09:00"),
        texts.say("history", locale, count=3, id="k3v9q2m8xa", items="a; b; c", now="09:00"),
    ]
    assert all("{" not in line for line in said)
    assert ("ha fallado" in said[0]) is (locale == "es")
    assert "resume_reminder k3v9q2m8xa" in said[2]
    once = texts.say("run_failed_once", locale, name="digest", reason="agent_timeout: slow")
    assert once.startswith(said[0].split("(")[0]) and len(once) < len(said[0])  # the same, without the quiet
