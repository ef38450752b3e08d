"""Repeat until done against the reference model, in directed sequences the stateful search also
draws (tests/model/test_stateful.py): repeats running out into the
escalation, an acknowledgement between two repeats, a snooze and a pause stopping them, duplicates
of every repeat fire, and a daily reminder whose next occurrence supersedes the current one."""

from __future__ import annotations

import functools
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta

import pytest

from cronbell import wiring
from cronbell.adapters import clock as clock_module
from tests.model.machine import BOSS, POST_MARK, Harness, compare
from tests.model.reference import Schedule

pytestmark = pytest.mark.xdist_group("model")

MONDAY = datetime(2026, 11, 30, 8, 0, tzinfo=UTC)  # 09:00 in Madrid


@pytest.fixture
def room(moto_endpoint: str, monkeypatch: pytest.MonkeyPatch) -> Iterator[functools.partial[Harness]]:
    for name in ("build_sender", "LambdaAgents", "_start_fire"):
        monkeypatch.setattr(wiring, name, getattr(wiring, name))
    yield functools.partial(Harness, moto_endpoint)
    clock_module.install(clock_module.SystemClock())


def repeating(h: Harness, every: int, times: int, escalate: bool, **when: object) -> str:
    if "cron" in when:
        s = Schedule("", "message", "Europe/Madrid", cron=str(when["cron"]))
    else:
        s = Schedule("", "message", "Europe/Madrid", at=h.clock.now() + timedelta(minutes=int(str(when["minutes"]))))
        when = {"time": f"in {when['minutes']} minutes"}
    s.repeat_every, s.repeat_times, s.escalate_to = every, times, BOSS if escalate else None
    extra = {"escalate_to": BOSS} if escalate else {}
    answer = h.create(s, message=POST_MARK, repeat_every=every, repeat_times=times, **when, **extra)
    assert answer["ok"], answer
    return s.sid


def agrees(h: Harness) -> None:
    problems = compare(h, full=True)
    assert not problems, "\n".join([*problems, "-- steps:", *h.log])


def posts(h: Harness) -> list[str]:
    return [p.what for p in h.room.posts]


def test_repeats_run_out_into_one_escalation_under_duplicates_and_lateness(room: functools.partial[Harness]) -> None:
    h = room(MONDAY)
    repeating(h, 10, 3, True, minutes=30)
    h.advance(31, late_seconds=30, duplicate=True)
    agrees(h)
    for _ in range(7):  # to 10:20: repeats at 09:40:30, 09:50:30, 10:00:30, the escalation at 10:10:30
        h.advance(7, duplicate=True)
        agrees(h)
    assert posts(h) == ["occurrence", "repeat", "repeat", "repeat", "escalation"]
    h.advance(120)
    agrees(h)
    assert posts(h).count("escalation") == 1


def test_done_between_two_repeats_stops_the_rest_and_the_escalation(room: functools.partial[Harness]) -> None:
    h = room(MONDAY)
    sid = repeating(h, 5, 4, True, minutes=10)
    h.advance(16)
    agrees(h)
    assert h.tool("done_reminder", id=sid)["result"]["acknowledged"] is True
    h.room.done(sid)
    h.advance(60, duplicate=True)
    agrees(h)
    assert posts(h) == ["occurrence", "repeat"]


def test_a_snooze_or_a_pause_stops_the_repeats_and_the_snoozed_post_repeats_anew(
    room: functools.partial[Harness],
) -> None:
    h = room(MONDAY)
    daily = repeating(h, 10, 2, False, cron="0 10 * * *")
    h.advance(65)  # 10:05 in Madrid: delivered at 10:00
    assert h.tool("snooze_reminder", id=daily, minutes=25)["ok"]  # the next one, tomorrow
    h.room.snooze(daily, 25)
    h.advance(30)
    agrees(h)
    assert posts(h) == ["occurrence"]  # the snooze stopped today's repeats
    h.advance(24 * 60 + 15)  # tomorrow's occurrence snoozed to 10:25, delivered, repeated at 10:35 and 10:45
    agrees(h)
    assert posts(h) == ["occurrence", "occurrence", "repeat", "repeat"]
    h.advance(23 * 60 + 15)  # the day after: delivered at 10:00, then a pause
    assert h.tool("pause_reminder", id=daily)["ok"]
    h.room.pause(daily)
    assert h.tool("resume_reminder", id=daily)["ok"]
    h.room.resume(daily)
    h.advance(60)
    agrees(h)
    assert posts(h)[-1] == "occurrence"


def test_a_later_occurrence_supersedes_the_current_repeats(room: functools.partial[Harness]) -> None:
    h = room(MONDAY)
    repeating(h, 240, 20, True, cron="0 */6 * * *")
    for _ in range(8):
        h.advance(360, duplicate=True)
        agrees(h)
    assert "escalation" not in posts(h) and posts(h).count("occurrence") >= 4 and "repeat" in posts(h)
