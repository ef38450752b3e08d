"""Counterexamples the stateful search found, each replayed as the shortest sequence that shows it:
the real handlers against the reference model (tests/model/machine.py)."""

from __future__ import annotations

import functools
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from cronbell import wiring
from cronbell.adapters import clock as clock_module
from tests.model.machine import BOSS, ELSEWHERE, POST_MARK, Harness, compare
from tests.model.reference import Schedule

pytestmark = pytest.mark.xdist_group("model")

MONDAY = datetime(2026, 11, 30, 8, 0, tzinfo=UTC)  # 09:00 in Madrid


@pytest.fixture
def room(moto_endpoint: str, monkeypatch: pytest.MonkeyPatch) -> Iterator[functools.partial[Harness]]:
    for name in ("build_sender", "LambdaAgents", "_start_fire"):
        monkeypatch.setattr(wiring, name, getattr(wiring, name))
    yield functools.partial(Harness, moto_endpoint)
    clock_module.install(clock_module.SystemClock())


def recurring(h: Harness, cron: str, zone: str = "Europe/Madrid", **extra: object) -> str:
    s = Schedule("", "message", zone, cron=cron)
    s.count = extra.get("count")  # type: ignore[assignment]
    s.calendar = extra.get("skip_holidays")  # type: ignore[assignment]
    until = extra.get("until")
    s.until = datetime.fromisoformat(str(until).replace("Z", "+00:00")) if until else None
    answer = h.create(s, message=POST_MARK, cron=cron, **extra)
    assert answer["ok"], answer
    return s.sid


def agrees(h: Harness) -> None:
    problems = compare(h, full=True)
    assert not problems, "\n".join([*problems, "-- steps:", *h.log])


def test_a_skipped_snoozed_occurrence_leaves_next_fire(room: functools.partial[Harness]) -> None:
    """H4: skip_next on the snoozed occurrence cancels it; next_fire is the regular one after it."""
    h = room(MONDAY)
    sid = recurring(h, "0 10 * * *")
    assert h.tool("snooze_reminder", id=sid, minutes=25)["ok"]
    h.room.snooze(sid, 25)
    assert h.tool("skip_next", id=sid)["ok"]
    h.room.skip_next(sid)
    agrees(h)
    h.advance(2 * 1440)
    agrees(h)


def test_holidays_do_not_end_a_counted_schedule_early(room: functools.partial[Harness]) -> None:
    """C1: daily at 10 in Madrid, 3 times, skipping ES holidays, from 7 December: 8 December is a
    holiday, so the third delivered run is on the 10th, and next_fire never goes null on the way."""
    h = room(datetime(2026, 12, 7, 8, 0, tzinfo=UTC))
    recurring(h, "0 10 * * *", count=3, skip_holidays="ES")
    agrees(h)
    for _ in range(5):
        h.advance(1440)
        agrees(h)


def test_holiday_eve_keeps_next_fire(room: functools.partial[Harness]) -> None:
    """C1: on 24 December a daily reminder skipping ES holidays has its next fire on the 26th."""
    h = room(datetime(2026, 12, 24, 12, 0, tzinfo=UTC))
    recurring(h, "0 10 * * *", skip_holidays="ES", until="2026-12-31T12:00:00Z")
    agrees(h)
    h.advance(1440)
    agrees(h)


def test_snoozing_a_paused_one_shot_is_refused_and_leaves_it_paused(room: functools.partial[Harness]) -> None:
    """H2: a paused one-shot with its time to come is not snoozed: it stays paused at its time."""
    h = room(MONDAY)
    s = Schedule("", "message", "Europe/Madrid", at=MONDAY + timedelta(hours=2))
    assert h.create(s, message=POST_MARK, time=s.at.isoformat())["ok"]  # type: ignore[union-attr]
    paused = h.tool("pause_reminder", id=s.sid)
    assert paused["ok"], paused
    h.room.pause(s.sid)
    assert h.room.snooze_refused(s.sid, 10)
    assert h.tool("snooze_reminder", id=s.sid, minutes=10)["error"]["code"] == "invalid_state"
    agrees(h)


def test_a_snooze_past_until_is_refused_and_the_occurrence_posts_at_its_time(
    room: functools.partial[Harness],
) -> None:
    """H3: the last occurrence before `until` cannot be snoozed past it; it posts at its own time."""
    h = room(MONDAY)
    sid = recurring(h, "0 10 * * *", until="2026-11-30T09:10:00Z")
    assert h.room.snooze_refused(sid, 25)
    assert h.tool("snooze_reminder", id=sid, minutes=25)["error"]["code"] == "invalid_time"
    agrees(h)
    h.advance(120)
    agrees(h)


def test_resuming_a_schedule_paused_past_until_completes_it(room: functools.partial[Harness]) -> None:
    """L6: paused, then `until` passes: resuming it completes it."""
    h = room(MONDAY)
    sid = recurring(h, "0 10 * * *", until="2026-12-01T12:00:00Z")
    assert h.tool("pause_reminder", id=sid)["ok"]
    h.room.pause(sid)
    h.advance(2 * 1440)
    agrees(h)
    assert h.tool("resume_reminder", id=sid)["result"]["status"] == "completed"
    h.room.resume(sid)
    agrees(h)


def test_until_later_today_is_accepted(room: functools.partial[Harness]) -> None:
    """M3: at 09:00 in Madrid, every hour on the hour until 13:00 today is a valid schedule."""
    h = room(MONDAY)
    recurring(h, "0 * * * *", until="2026-11-30T12:00:00Z")
    agrees(h)


def test_run_now_in_the_second_of_a_regular_occurrence_is_a_run_of_its_own(
    room: functools.partial[Harness],
) -> None:
    """M2: at 10:00 exactly the regular occurrence runs, and a run_now in that same second is a
    second, manual run; both are posted."""
    h = room(MONDAY)
    sid = recurring(h, "0 10 * * *")
    h.advance(60)
    h.run_now(sid)
    agrees(h)


def test_a_run_now_delivered_by_a_retry_counts_its_lateness_from_the_retry(room: functools.partial[Harness]) -> None:
    """N1: run_now while the platform answers 503 once: Lambda's retry a minute later posts it, and
    the manual run says it started 60 s after it was asked for, as a regular run does."""
    h = room(MONDAY)
    sid = recurring(h, "0 10 * * *")
    h.chat_outage(1)
    h.run_now(sid)
    agrees(h)


def test_a_regular_run_delivered_by_a_retry_counts_its_lateness_from_the_retry(
    room: functools.partial[Harness],
) -> None:
    """The same for a regular occurrence: two 503s, the third attempt posts, 180 s late."""
    h = room(MONDAY)
    recurring(h, "0 10 * * *")
    h.chat_outage(2)
    h.advance(61)
    agrees(h)


def test_a_recurring_schedule_whose_last_posting_occurrence_is_a_holiday_is_refused(
    room: functools.partial[Harness],
) -> None:
    """Every 1 January, skipping ES holidays, until 6 January: it would never post."""
    h = room(datetime(2026, 12, 30, 20, 0, tzinfo=UTC))
    s = Schedule("", "message", "UTC", cron="0 0 1 1 *", until=datetime(2027, 1, 6, 19, 3, tzinfo=UTC))
    s.calendar = "ES"
    answer = h.create(s, message=POST_MARK, cron=s.cron, until="2027-01-06T19:03:00Z", skip_holidays="ES")
    assert not answer["ok"] and not h.problems, answer


def test_a_yearly_schedule_on_new_years_day_skipping_spains_holidays_fires_when_the_calendar_lists_none(
    room: functools.partial[Harness],
) -> None:
    """Every 1 January at 00:00 (New York), skipping ES holidays: the `holidays` data lists no national
    holiday on 1 January 2034 (a Sunday; the regions move it), so that is its next fire, found within
    the ten years previews look ahead. (Found when the model looked only 800 days ahead.)"""
    h = room(MONDAY)
    s = Schedule("", "agent_call", "America/New_York", cron="0 0 1 1 *", count=2)
    s.calendar = "ES"
    answer = h.create(s, name="job", prompt=POST_MARK, cron_expr="0 0 1 1 *", count=2, skip_holidays="ES")
    if answer["ok"]:
        agrees(h)


def test_run_now_while_a_last_occurrence_is_due_is_refused_busy_by_model_and_code(
    room: functools.partial[Harness],
) -> None:
    """A minute before 10:00, run_now on a one-shot due then, or on a daily reminder with `count` 1,
    is refused busy: that occurrence is being posted once and the schedule then ends. With `count` 2
    it is a manual run of its own. Then 10:00 posts each of them once."""
    h = room(MONDAY)
    once = Schedule("", "message", "Europe/Madrid", at=MONDAY + timedelta(hours=1))
    assert h.create(once, message=POST_MARK, time="2026-11-30 10:00")["ok"]
    last = recurring(h, "0 10 * * *", count=1)
    more = recurring(h, "0 10 * * *", count=2)
    h.advance(59)
    for sid, busy in ((once.sid, True), (last, True), (more, False)):
        assert h.room.run_now_busy(sid) is busy
        assert (h.run_now(sid)["ok"]) is not busy
    agrees(h)
    h.advance(2)
    agrees(h)


def test_a_removed_platforms_runs_fail_and_are_never_posted(room: functools.partial[Harness]) -> None:
    """The room's platform is removed for three days: the daily reminder's runs fail `chat_refused`
    (the third pauses it, failing) and a one-shot's only run ends it `delivery_failed`; nothing is
    posted, and no notice either (the room is on the removed platform)."""
    h = room(MONDAY)
    daily = recurring(h, "0 10 * * *")
    once = Schedule("", "message", "Europe/Madrid", at=MONDAY + timedelta(hours=2))
    assert h.create(once, message=POST_MARK, time="2026-11-30 11:00")["ok"]
    h.advance(3 * 1440, platform_removed=True)
    agrees(h)
    assert h.room.schedules[daily].status == "paused" and h.room.schedules[once.sid].status == "delivery_failed"
    assert not h.chat.sent


def test_the_buttons_name_their_occurrence(room: functools.partial[Harness]) -> None:
    """Under the 10:00 post: snooze (naming 10:00, tapped at 10:01) reminds again at 10:11 and skips
    nothing; skip naming 10:00 is refused (it happened); skip naming tomorrow's 10:00 skips it. The
    model and the code answer alike, and the next two days agree."""
    h = room(MONDAY)
    sid = recurring(h, "0 10 * * *")
    h.advance(61)
    ten, tomorrow = MONDAY + timedelta(hours=1), MONDAY + timedelta(days=1, hours=1)
    calls = [
        ("snooze_reminder", ten, h.room.snooze_occurrence(sid, ten, 10), {"minutes": 10}),
        ("skip_next", ten, h.room.skip_occurrence(sid, ten), {}),
        ("skip_next", tomorrow, h.room.skip_occurrence(sid, tomorrow), {}),
    ]
    assert [want for _, _, want, _ in calls] == ["", "invalid_state", ""]
    for tool, occurrence, want, extra in calls:
        answer = h.tool(tool, id=sid, occurrence=occurrence.isoformat(), **extra)
        assert ("" if answer["ok"] else answer["error"]["code"]) == want, answer
    agrees(h)
    h.advance(2 * 1440)
    agrees(h)


def agent_calls(h: Harness) -> tuple[str, str]:
    """A daily agent call posting in the room, and one posting in the other, allowed room."""
    own = Schedule("", "agent_call", "Europe/Madrid", cron="0 10 * * *")
    assert h.create(own, name="own", prompt=POST_MARK, cron_expr="0 10 * * *")["ok"]
    return own.sid, agent_call_elsewhere(h)


def agent_call_elsewhere(h: Harness) -> str:
    """A daily agent call at 11 in Madrid posting in the other, allowed room."""
    away = Schedule("", "agent_call", "Europe/Madrid", cron="0 11 * * *", elsewhere=True)
    assert h.create(away, name="away", prompt=POST_MARK, cron_expr="0 11 * * *", channel=ELSEWHERE)["ok"]
    return away.sid


def test_an_output_room_no_longer_allowed_fails_its_agent_calls_runs(room: functools.partial[Harness]) -> None:
    """The other room is taken out of AllowedOutputRooms for three days: the agent call posting
    there fails each run `chat_refused` (the third pauses it, failing), told in its own room only,
    never posted there; the one posting in its own room is delivered; allowed again, nothing changes
    for the paused one until it is resumed."""
    h = room(MONDAY)
    own, away = agent_calls(h)
    reminder = recurring(h, "0 12 * * *")
    h.advance(3 * 1440, deployment="output room disallowed")
    agrees(h)
    schedules = h.room.schedules
    assert [r.reason for r in schedules[away].runs] == ["chat_refused"] * 3 and schedules[away].status == "paused"
    assert {r.outcome for r in schedules[own].runs + schedules[reminder].runs} == {"delivered"}
    h.advance(1440)
    agrees(h)


@pytest.mark.parametrize("on_holiday", ["after", "skip"])
def test_an_occurrence_moved_and_run_is_not_run_again_after_on_holiday_changes(
    room: functools.partial[Harness], on_holiday: str
) -> None:
    """Each 25 December at 9 in Madrid, ES holidays, moved `before`: 2026's posts on Thursday the 24th
    (`moved_from` the 25th). Set to `after` at 10:00 that day, it would move to Monday the 28th; set to
    `skip`, it would stay on the 25th as a holiday: either way it ran already, so no second run (no
    post, no `skipped`/`holiday` run, no `count` used) and `next_fire` is next year's."""
    h = room(datetime(2026, 12, 23, 8, tzinfo=UTC))
    sid = recurring(h, "0 9 25 12 *", skip_holidays="ES", on_holiday="before", count=3)
    s = h.room.schedules[sid]
    s.on_holiday = "before"
    h.advance(26 * 60)  # to 10:00 in Madrid on the 24th
    agrees(h)
    assert h.tool("update_reminder", id=sid, on_holiday=on_holiday)["ok"]
    s.on_holiday = on_holiday
    agrees(h)
    h.advance(6 * 1440)  # past Monday the 28th
    agrees(h)
    assert [(r.outcome, r.moved_from) for r in s.runs] == [("delivered", datetime(2026, 12, 25, 8, tzinfo=UTC))]
    assert s.delivered == 1 and (h.room.next_fire(s) or s.runs[0].scheduled).year > 2026


@pytest.mark.parametrize("change", ["no agents", "agent removed"])
def test_an_agent_removed_fails_its_schedules_runs_with_agent_error(
    room: functools.partial[Harness], change: str
) -> None:
    """No agents configured, or the allowlist no longer naming the agent the calls target, for two
    days: every agent call's run fails `agent_error` under the failure policy (the notices of the one
    posting elsewhere go to both rooms); a reminder is delivered; with the agent back, they deliver."""
    h = room(MONDAY)
    own, away = agent_calls(h)
    reminder = recurring(h, "0 12 * * *")
    h.advance(2 * 1440, deployment=change)
    agrees(h)
    schedules = h.room.schedules
    assert {(r.outcome, r.reason) for r in schedules[own].runs + schedules[away].runs} == {("failed", "agent_error")}
    assert {r.outcome for r in schedules[reminder].runs} == {"delivered"}
    h.advance(1440)
    agrees(h)
    assert schedules[own].runs[-1].outcome == schedules[away].runs[-1].outcome == "delivered"


def test_a_failure_reaching_the_pause_limit_on_the_last_occurrence_completes_it(
    room: functools.partial[Harness],
) -> None:
    """Every six hours in New York until 22:00Z on 1 November (the day the clocks go back, so 12:00
    is its last occurrence), with the platform removed: the three runs fail `chat_refused`, and the
    third, which reaches the auto-pause limit, is the last one. Nothing is left to pause for: the
    reminder is `completed`, no reason, its failing runs kept."""
    h = room(datetime(2026, 10, 31, 22, 0, tzinfo=UTC))
    sid = recurring(h, "0 */6 * * *", "America/New_York", count=4, until="2026-11-01T22:00:00Z")
    h.advance(1440, platform_removed=True)
    agrees(h)
    s = h.room.schedules[sid]
    assert [r.reason for r in s.runs] == ["chat_refused"] * 3
    assert (s.status, s.status_reason) == ("completed", None)


def test_an_agent_calls_failure_on_its_last_occurrence_completes_it_and_tells_no_pause(
    room: functools.partial[Harness],
) -> None:
    """The same schedule as an agent call in the room, with no agents configured: its room hears of
    the first failure only; the third, on the last occurrence, completes it and says nothing of a
    pause."""
    h = room(datetime(2026, 10, 31, 22, 0, tzinfo=UTC))
    call = Schedule("", "agent_call", "America/New_York", cron="0 */6 * * *")
    call.until = datetime(2026, 11, 1, 22, 0, tzinfo=UTC)
    answer = h.create(call, name="call", prompt=POST_MARK, cron_expr="0 */6 * * *", until="2026-11-01T22:00:00Z")
    assert answer["ok"], answer
    h.advance(1440, deployment="no agents")
    agrees(h)
    s = h.room.schedules[call.sid]
    assert [r.reason for r in s.runs] == ["agent_error"] * 3
    assert (s.status, s.status_reason) == ("completed", None)
    assert len(h.chat.sent) == 1


@pytest.mark.parametrize("change", ["no agents", "agent removed"])
def test_a_skipped_agent_calls_next_run_fails_once_with_its_agents_removed(
    room: functools.partial[Harness], change: str
) -> None:
    """An agent call skipped once (skip_next), then two days with its agents gone: the skipped
    occurrence is one `skipped`/`skip_next` run, the next one `failed`/`agent_error`."""
    h = room(MONDAY)
    own, _ = agent_calls(h)
    assert h.tool("skip_next", id=own)["ok"]
    h.room.skip_next(own)
    h.advance(2 * 1440, deployment=change)
    agrees(h)
    runs = h.room.schedules[own].runs
    assert [(r.outcome, r.reason) for r in runs] == [("skipped", "skip_next"), ("failed", "agent_error")]


def test_a_repeat_post_takes_the_chat_outage_and_the_next_occurrence_is_on_time(
    room: functools.partial[Harness],
) -> None:
    """A repeating one-shot in 15 minutes is delivered; the platform then fails one post: the
    one-shot's first repeat meets it and Lambda's retry posts it, so the daily reminder at 10 in
    Madrid created meanwhile is delivered at its time, `late_seconds` 0."""
    h = room(MONDAY)
    once = Schedule("", "message", "Europe/Madrid", at=MONDAY + timedelta(minutes=15))
    once.repeat_every, once.repeat_times, once.escalate_to = 5, 2, BOSS
    assert h.create(once, message=POST_MARK, time="in 15 minutes", repeat_every=5, repeat_times=2, escalate_to=BOSS)[
        "ok"
    ]
    h.advance(15)
    agrees(h)
    h.chat_outage(1)
    daily = Schedule("", "message", "Europe/Madrid", cron="0 10 * * *")
    daily.repeat_every, daily.repeat_times = 5, 1
    assert h.create(daily, message=f"{POST_MARK} daily", cron="0 10 * * *", repeat_every=5, repeat_times=1)["ok"]
    h.advance(59)
    agrees(h)
    assert [r.late_seconds for r in h.room.schedules[daily.sid].runs] == [0]


@pytest.mark.parametrize("minute", [0, 30])
def test_on_holiday_before_moving_the_last_occurrence_into_the_past_is_refused(
    room: functools.partial[Harness], minute: int
) -> None:
    """Tuesdays at 9 in Madrid until Wednesday 9 December, moved after a day off: the 8th (a holiday)
    posts on the 9th. At or after 09:00 on Monday the 7th, `on_holiday: before` would move it to a
    time already gone: nothing is left, so the update is refused as the create would be."""
    h = room(datetime(2026, 12, 7, 8, minute, tzinfo=UTC))
    sid = recurring(h, "0 9 * * 2", skip_holidays="ES", on_holiday="after", until="2026-12-09T22:00:00Z")
    answer = h.tool("update_reminder", id=sid, on_holiday="before")
    assert not answer["ok"] and answer["error"]["code"] == "invalid_arguments", answer
    assert "never fire" in answer["error"]["message"]


@pytest.mark.parametrize("change", ["no agents", "agent removed"])
def test_a_failure_notice_meeting_a_chat_outage_is_posted_by_the_retry_which_records_the_run(
    room: functools.partial[Harness], change: str
) -> None:
    """The platform fails one post, then the agents are gone: the first agent call's run fails, and
    its failure notice meets the outage; Lambda's retry posts the notice and records the run, so its
    `late_seconds` counts from the retry (60), as for any post a retry delivers."""
    h = room(MONDAY)
    h.chat_outage(1)
    own, away = agent_calls(h)
    h.advance(1440, deployment=change)
    agrees(h)
    late = sorted(r.late_seconds for sid in (own, away) for r in h.room.schedules[sid].runs)
    assert late == [0, 60]


def test_a_refused_output_rooms_failure_notice_meeting_a_chat_outage_is_posted_by_the_retry(
    room: functools.partial[Harness],
) -> None:
    """The platform fails two posts, then the other room leaves AllowedOutputRooms: the agent call
    posting there fails `chat_refused`, and the failure notice to its own room meets the outage twice;
    Lambda's second retry (three minutes on) posts it and records the run, so its `late_seconds`
    counts from that attempt (180), as for an agent error's notice."""
    h = room(MONDAY)
    away = agent_call_elsewhere(h)
    h.chat_outage(2)
    h.advance(1440, deployment="output room disallowed")
    agrees(h)
    assert [(r.reason, r.late_seconds) for r in h.room.schedules[away].runs] == [("chat_refused", 180)]


def test_a_held_one_shot_snoozed_before_its_release_is_released_and_posts_again_at_its_new_time(
    room: functools.partial[Harness],
) -> None:
    """Quiet hours: a one-shot held at 23:00 and snoozed at 06:30 for 60 minutes is posted by the
    release at 07:00 and again at 07:30, then `fired`; the release does not end it early."""
    from tests.model.quiet import Rule

    h = room(MONDAY)
    s = Schedule("", "message", "Europe/Madrid", at=datetime(2026, 11, 30, 22, 0, tzinfo=UTC))
    assert h.create(s, message=POST_MARK, time="2026-11-30T23:00:00+01:00")["ok"]
    h.set_quiet(s.user or "", Rule("22:00", "07:00", "Europe/Madrid"))
    h.advance(21 * 60 + 30)  # Tuesday 06:30 in Madrid: held since 23:00
    agrees(h)
    assert h.room.schedules[s.sid].held
    assert h.tool("snooze_reminder", id=s.sid, minutes=60)["ok"]
    h.room.snooze(s.sid, 60)
    h.advance(90)
    agrees(h)
    assert h.room.schedules[s.sid].status == "fired" and len(h.room.schedules[s.sid].runs) == 2


def test_a_one_shot_snoozed_then_held_then_snoozed_again_comes_back_from_the_second_snooze(
    room: functools.partial[Harness],
) -> None:
    """`make verify` (seed 2762741459): a one-shot snoozed 10 minutes, held by its user's quiet hours at
    its snoozed time, then snoozed 25 minutes eight minutes later: `next_fire` is 25 minutes from that
    second snooze (its time has passed), in the answer and in every listing."""
    from tests.model.quiet import Rule

    h = room(MONDAY)
    s = Schedule("", "message", "UTC", at=MONDAY + timedelta(minutes=20))
    assert h.create(s, message=POST_MARK, time="2026-11-30T08:20:00+00:00")["ok"]
    h.set_quiet(s.user or "", Rule("08:25", "10:00", "UTC"))
    assert h.tool("snooze_reminder", id=s.sid, minutes=10)["ok"]
    h.room.snooze(s.sid, 10)
    h.advance(38)  # 08:38: held since 08:30
    agrees(h)
    assert h.room.schedules[s.sid].held
    assert h.tool("snooze_reminder", id=s.sid, minutes=25)["ok"]
    h.room.snooze(s.sid, 25)
    agrees(h)
    h.advance(150)  # past the release at 10:00 and the snoozed 09:03
    agrees(h)


@pytest.mark.parametrize(("on_holiday", "accepted"), [("skip", True), ("before", False)])
def test_on_holiday_set_to_the_value_it_has_is_accepted_with_nothing_left(
    room: functools.partial[Harness], on_holiday: str, accepted: bool
) -> None:
    """`make verify` (seed 1332809548): the last business day of the month at 17:00 (US), until 8
    December, its only occurrence (Monday 30 November) skipped. `on_holiday: skip`, the value it has,
    changes nothing and is accepted; `before` would change when it fires and leaves nothing: refused."""
    h = room(MONDAY)
    s = Schedule("", "message", "UTC", cron="0 17 * * *", until=datetime(2026, 12, 8, 11, tzinfo=UTC), calendar="US")
    s.business_day = -1
    until = "2026-12-08T11:00:00Z"
    answer = h.create(
        s, message=POST_MARK, cron="0 17 * * *", business_day_of_month=-1, skip_holidays="US", until=until
    )
    assert answer["ok"], answer
    assert h.tool("skip_next", id=s.sid)["ok"]
    assert h.room.skip_next(s.sid) == datetime(2026, 11, 30, 17, tzinfo=UTC)
    agrees(h)
    answer = h.tool("update_reminder", id=s.sid, on_holiday=on_holiday)
    assert answer["ok"] is accepted, answer
    if accepted:
        s.on_holiday = on_holiday
    agrees(h)
    h.advance(9 * 1440)
    agrees(h)


def test_a_copy_of_a_held_occurrences_event_counts_it_once(room: functools.partial[Harness]) -> None:
    """`make verify` (seed 1217656306): every business day at 9 in Tokyo (ES-MD, `count` 2), its user
    quiet 00:36-11:20 in Madrid, each event delivered twice. Monday 2 November is a Madrid holiday
    (no occurrence); Tuesday's is held, its copy finds it held, and the release posts it: one run of
    two, the schedule still active for Wednesday (the model had counted the copy's hold too)."""
    from tests.model.quiet import DAYS, Rule

    h = room(datetime(2026, 11, 1, 21, 34, tzinfo=UTC))
    s = Schedule("", "message", "Asia/Tokyo", cron="0 9 * * 1-5", count=2, calendar="ES-MD")
    s.business_days = True
    answer = h.create(s, message=POST_MARK, cron="every business day at 9", skip_holidays="ES-MD", count=2)
    assert answer["ok"], answer
    h.set_quiet(s.user or "", Rule("00:36", "11:20", "Europe/Madrid", DAYS))
    h.advance(3000, duplicate=True)  # past Tuesday's release at 10:20 UTC
    agrees(h)
    assert h.room.schedules[s.sid].status == "active" and h.room.schedules[s.sid].delivered == 1
    h.advance(1440, duplicate=True)  # Wednesday's, held and released: the second of two
    agrees(h)
    assert h.room.schedules[s.sid].status == "completed"


def test_a_release_that_meets_a_chat_outage_is_posted_once_by_lambdas_retry(room: functools.partial[Harness]) -> None:
    """The bounded search: a one-shot held by its user's quiet hours, the chat down for the release's
    first two attempts: Lambda's third posts it, once, and its run is late from that attempt."""
    from tests.model.quiet import Rule

    h = room(MONDAY)
    s = Schedule("", "message", "UTC", at=MONDAY + timedelta(minutes=20))
    assert h.create(s, message=POST_MARK, time="2026-11-30T08:20:00+00:00")["ok"]
    h.set_quiet(s.user or "", Rule("08:10", "09:00", "UTC"))
    h.advance(30)  # held until 09:00
    agrees(h)
    h.chat_outage(2)
    h.advance(60)
    agrees(h)
    [run] = h.room.schedules[s.sid].runs
    assert run.reason == "quiet_hours" and run.late_seconds == 40 * 60 + 180


def test_the_snooze_button_under_a_repeating_post_stops_its_repeats(room: functools.partial[Harness]) -> None:
    """`make verify` (seed 1546424754): a repeating one-shot delivered, then the snooze button under its
    post (naming that occurrence): its repeats stop, so a `done_reminder` before the snoozed post finds
    nothing repeating (`acknowledged: false`); the snoozed post repeats anew (the model had kept the
    old occurrence repeating on a snooze that named it)."""
    h = room(MONDAY)
    s = Schedule("", "message", "UTC", at=MONDAY + timedelta(minutes=15))
    s.repeat_every, s.repeat_times, s.escalate_to = 5, 2, BOSS
    answer = h.create(s, message=POST_MARK, time="2026-11-30T08:15:00+00:00", repeat_every=5, repeat_times=2)
    assert answer["ok"], answer
    assert h.tool("update_reminder", id=s.sid, escalate_to=BOSS)["ok"]
    h.advance(16)  # delivered at 08:15
    agrees(h)
    occurrence = "2026-11-30T08:15:00Z"
    assert h.tool("snooze_reminder", id=s.sid, occurrence=occurrence, minutes=10)["ok"]
    assert h.room.snooze_occurrence(s.sid, datetime(2026, 11, 30, 8, 15, tzinfo=UTC), 10) == ""
    answer = h.tool("done_reminder", id=s.sid)
    assert answer["ok"] and answer["result"]["acknowledged"] is h.room.done(s.sid) is False
    agrees(h)
    h.advance(60)  # the snoozed post at 08:26, its repeats and its escalation
    agrees(h)


def delivered_repeating_one_shot(h: Harness, every: int) -> Schedule:
    """A one-shot due at 08:15 that repeats every `every` minutes twice, then escalates; delivered."""
    s = Schedule("", "message", "UTC", at=MONDAY + timedelta(minutes=15))
    s.repeat_every, s.repeat_times, s.escalate_to = every, 2, BOSS
    arguments = {"repeat_every": every, "repeat_times": 2, "escalate_to": BOSS}
    assert h.create(s, message=POST_MARK, time="2026-11-30T08:15:00+00:00", **arguments)["ok"]
    h.advance(16)  # delivered at 08:15
    return s


def test_a_repeat_held_by_quiet_hours_is_fired_at_the_periods_end(room: functools.partial[Harness]) -> None:
    """`make verify` (seed 1519964654): a repeating one-shot delivered at 08:15, its user quiet from
    08:20 to 09:00: its first repeat (08:25) posts nothing and is written again for 09:00. That write
    went to the entry being fired, which Scheduler deletes once it has handed the fire over: the
    repeat, the one after it and the escalation were lost. Written under a name of its own, they post
    at 09:00, 09:10 and 09:20."""
    from tests.model.quiet import Rule

    h = room(MONDAY)
    s = delivered_repeating_one_shot(h, every=10)
    h.set_quiet(s.user or "", Rule("08:20", "09:00", "UTC"))
    h.advance(120)
    agrees(h)
    assert [(p.what, p.slot) for p in h.room.posts].count(("repeat", s.at)) == 2
    assert h.room.posts[-1].what == "escalation"


def test_a_delivered_one_shot_snoozed_after_its_user_set_quiet_hours_is_snoozed(
    room: functools.partial[Harness],
) -> None:
    """`make verify` (seed 1577547914): a repeating one-shot delivered at 08:15, then its user sets quiet
    hours, then the reminder is snoozed. Its retired copy said the user had none; the room lists the user
    among those with a rule, so writing it back was refused as a race with `set_quiet_hours`, and every
    retry read the same copy: `backend_error`, and nothing snoozed. It is written as having quiet hours."""
    from tests.model.quiet import Rule

    h = room(MONDAY)
    s = delivered_repeating_one_shot(h, every=5)
    h.set_quiet(s.user or "", Rule("09:16", "09:31", "UTC"))
    answer = h.tool("snooze_reminder", id=s.sid, minutes=10)
    assert answer["ok"], answer
    h.room.snooze(s.sid, 10)
    agrees(h)
    h.advance(120)
    agrees(h)


def test_a_held_one_shot_paused_and_then_snoozed_comes_back_active(room: functools.partial[Harness]) -> None:
    """`make verify` (seed 3173552564): a one-shot held by its user's quiet hours, then paused, then
    snoozed. Its time passed while it was paused, so the snooze brings it back `minutes` from now, active
    (docs/semantics.md, "Changes"), as the code did; the reference model kept it paused."""
    from tests.model.quiet import Rule

    h = room(MONDAY)
    s = Schedule("", "message", "UTC", at=MONDAY + timedelta(minutes=20))
    assert h.create(s, message=POST_MARK, time="2026-11-30T08:20:00+00:00")["ok"]
    h.set_quiet(s.user or "", Rule("08:12", "19:05", "UTC"))
    h.advance(30)  # held at 08:20
    paused = h.tool("pause_reminder", id=s.sid)
    assert paused["ok"], paused
    h.room.pause(s.sid)
    assert h.tool("snooze_reminder", id=s.sid, minutes=95)["ok"]
    h.room.snooze(s.sid, 95)
    agrees(h)
    h.advance(24 * 60)  # the snoozed post, and the held one at the period's end
    agrees(h)


def test_a_repeat_due_while_lambda_retried_a_run_now_is_fired_by_the_next_move(
    room: functools.partial[Harness],
) -> None:
    """A run_now met a chat outage; Lambda's retries (1, then 2 minutes) took the clock past a repeat's
    time, and the next move played Scheduler only from the clock on: the repeat's entry, there all along,
    was never fired, and the search reported it missing (`make verify`, seed 3207611392). Scheduler
    fires what came due meanwhile, late: the harness plays it on the next move."""
    h = room(MONDAY)
    repeating = Schedule("", "message", "Europe/Madrid", at=MONDAY + timedelta(minutes=15))
    repeating.repeat_every, repeating.repeat_times, repeating.escalate_to = 5, 2, BOSS
    extra = {"repeat_every": 5, "repeat_times": 2, "escalate_to": BOSS}
    assert h.create(repeating, message=POST_MARK, time="in 15 minutes", **extra)["ok"]
    daily = recurring(h, "0 10 * * *")
    h.advance(17)  # delivered at 08:15; its first repeat is due at 08:20
    h.chat_outage(2)
    h.run_now(daily)  # posted on Lambda's third attempt, at 08:20
    assert h.clock.now() >= MONDAY + timedelta(minutes=20)
    h.advance(7)
    agrees(h)
    assert any(p.what == "repeat" for p in h.room.posts)


def test_a_held_one_shot_delivered_at_its_new_time_keeps_its_release_when_snoozed_again(
    moto_endpoint: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """make verify, seed 2731400276: bob's one-shot held by his quiet hours (release 10:30 UTC) is paused,
    snoozed to a new time before the release and delivered there (`fired`); snoozed once more, it is
    back with its held occurrence, so `held_until` is still the release. The retired copy had lost
    the schedule's `releases`. Replayed as the search found it, then past the release."""
    state = searched_room(moto_endpoint, monkeypatch)
    state.provision(start=datetime(2026, 11, 30, 8, 0, tzinfo=UTC), repeating=True, quiet=True, posts=2)
    state.advance_under_a_deployment_change(change="agent removed", minutes=7)
    state.agents_fail(failing=False)
    state.tap_snooze_button(minutes=10, pick=26, which="delivered")
    state.create_one_shot(agent=False, minutes=172, relative=False, user="@ana:example.org", zone="Europe/Madrid")
    state.create_business(
        agent=True,
        calendar="ES-MD",
        count=None,
        on_holiday="before",
        rule_=("0 10 * * 4,5", False, 0),
        until_hours=None,
        words=True,
        zone="Europe/Madrid",
    )
    state.pause(pick=27)
    state.skip_next(pick=26)
    state.create_business(
        agent=True,
        calendar="GB",
        count=1,
        on_holiday="skip",
        rule_=("0 9 25 12 *", False, 0),
        until_hours=None,
        words=True,
        zone="UTC",
    )
    state.skip_next(pick=19)
    state.skip_next(pick=12)
    state.snooze_paused_one_shot(minutes=25, pick=38)
    state.chat_outage(posts=2)
    state.skip_next(pick=37)
    state.set_quiet_hours(
        begin=-18,
        days=("mon", "tue", "wed", "thu", "fri", "sat", "sun"),
        length=195,
        user="@ana:example.org",
        zone="Europe/Madrid",
    )
    state.skip_next(pick=1)
    state.tap_snooze_button(minutes=10, pick=49, which="delivered")
    state.pause(pick=21)
    state.tap_skip_button(pick=39, which="delivered")
    state.snooze_paused_one_shot(minutes=10, pick=49)
    state.create_agent_call_elsewhere(cron="0 18 * * L5", zone="Europe/Madrid")
    state.clear_quiet_hours(user="@bob:example.org")
    state.create_business(
        agent=False,
        calendar="ES",
        count=2,
        on_holiday="skip",
        rule_=("0 9 1 1 *", False, 0),
        until_hours=None,
        words=True,
        zone="America/New_York",
    )
    state.clear_quiet_hours(user="@ana:example.org")
    state.advance(duplicate=True, late=0, minutes=61)
    state.snooze(minutes=10, pick=45)
    state.agrees_with_the_model()
    state.advance(duplicate=False, late=0, minutes=120)  # past the release: the held post, once
    state.agrees_with_the_model()
    state.teardown()


def test_a_release_recorded_as_its_one_shots_delivery_is_not_held_again_when_snoozed(
    moto_endpoint: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """make verify, seed 3228323691: a one-shot held by quiet hours is fired by its release; snoozed
    later, it is back with no held occurrence (its `held_until` is its new time's period, as the model
    says), not the release that already ran. The release's record had kept its time on the fired copy."""
    state = searched_room(moto_endpoint, monkeypatch)
    state.provision(start=datetime(2026, 11, 30, 8, 0, tzinfo=UTC), quiet=True, posts=2, repeating=False)
    state.advance(duplicate=False, late=0, minutes=1)
    state.agents_fail(failing=False)
    state.create_business(
        agent=False,
        calendar="ES",
        count=None,
        on_holiday="skip",
        rule_=("0 9 * * 1-5", True, 0),
        until_hours=57,
        words=False,
        zone="Europe/Madrid",
    )
    state.pause(pick=0)
    state.resume(pick=0)
    state.advance(duplicate=False, late=0, minutes=2880)
    state.agents_fail(failing=False)
    state.set_quiet_hours(begin=0, days=("mon",), length=15, user="@ana:example.org", zone="Europe/Madrid")
    state.snooze(minutes=10, pick=0)
    state.agrees_with_the_model()
    state.teardown()


EVERY_DAY = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")


def searched_room(moto_endpoint: str, monkeypatch: pytest.MonkeyPatch) -> Any:
    """The stateful search's machine on this test's moto server, for replaying a sequence it found (the
    wiring it patches is restored when the test ends)."""
    from tests.model import test_stateful

    monkeypatch.setattr(test_stateful, "ENDPOINT", moto_endpoint)
    for name in ("build_sender", "LambdaAgents", "_start_fire"):
        monkeypatch.setattr(wiring, name, getattr(wiring, name))
    return test_stateful.Room()


def test_a_held_occurrence_of_a_reminder_paused_before_its_release_is_posted_without_repeats(
    moto_endpoint: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """make verify, seed 3177853523: an occurrence of a repeating reminder is held by quiet hours; the
    reminder is changed and paused in parallel calls, and done_reminder is called, before the release.
    The release posts the held occurrence (a pause does not stop a held post) and nothing repeats it,
    as docs/semantics.md says: a pause stops the repeats. The model had started them at the release."""
    state = searched_room(moto_endpoint, monkeypatch)
    state.provision(start=datetime(2026, 11, 30, 8, 0, tzinfo=UTC), quiet=False, posts=2, repeating=False)
    days = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")
    state.set_quiet_hours(begin=30, days=days, length=90, user="@ana:example.org", zone="UTC")  # 08:30-10:00
    state.create_repeating(cron="0 * * * *", minutes=2, zone="UTC", every=5, times=1, escalate=False, count=2)
    state.advance(duplicate=False, late=0, minutes=60)  # 09:00: held until 10:00
    state.agrees_with_the_model()
    state.changes_at_once(pick=0, updates=2, pause=True, seed=1)
    state.done(pick=0)
    state.advance(duplicate=False, late=0, minutes=61)  # the release: the held post, once
    state.agrees_with_the_model()
    state.advance(duplicate=False, late=0, minutes=30)  # no repeat of it
    state.agrees_with_the_model()
    state.teardown()


def test_a_release_of_only_deleted_reminders_posts_nothing_so_the_next_post_meets_the_outage(
    room: functools.partial[Harness],
) -> None:
    """`make verify`: a one-shot held by quiet hours, then deleted; the chat fails its next post. The
    release at the period's end lists nothing and posts nothing, so the outage is met by the next
    reminder's post, which Lambda's retry delivers a minute late."""
    from tests.model.quiet import Rule

    h = room(MONDAY)
    held = Schedule("", "message", "UTC", at=MONDAY + timedelta(minutes=20))
    assert h.create(held, message=POST_MARK, time="2026-11-30T08:20:00+00:00")["ok"]
    later = Schedule("", "message", "UTC", at=MONDAY + timedelta(minutes=90))
    assert h.create(later, message=POST_MARK, time="2026-11-30T09:30:00+00:00")["ok"]
    h.set_quiet(held.user or "", Rule("08:10", "09:00", "UTC"))
    h.advance(30)  # 08:30: held until 09:00
    assert h.room.schedules[held.sid].held
    assert h.tool("delete_reminder", id=held.sid)["ok"]
    h.room.delete(held.sid)
    h.chat_outage(1)
    h.advance(120)
    agrees(h)
    assert [r.late_seconds for r in h.room.schedules[later.sid].runs] == [60]


def test_a_recurrence_paused_while_its_last_occurrence_is_held_completes_at_the_release(
    room: functools.partial[Harness],
) -> None:
    """`make verify`: the last occurrence of a `count` is held by quiet hours, then the reminder is
    paused. The pause does not stop the held post, and the release that posts it leaves nothing to
    come: the reminder is completed, not left paused with nothing to resume."""
    from tests.model.quiet import Rule

    h = room(MONDAY)
    sid = recurring(h, "20 8 * * *", zone="UTC", count=1)
    user = h.room.schedules[sid].user or ""
    h.set_quiet(user, Rule("08:10", "09:00", "UTC"))
    h.advance(30)  # 08:30: the one occurrence is held until 09:00
    assert h.room.schedules[sid].held
    assert h.tool("pause_reminder", id=sid)["ok"]
    h.room.pause(sid)
    h.advance(60)
    agrees(h)
    assert h.room.schedules[sid].status == "completed"
    assert [r.reason for r in h.room.schedules[sid].runs] == ["quiet_hours"]


def test_a_held_occurrence_posted_at_its_release_ends_a_failure_streak(room: functools.partial[Harness]) -> None:
    """`make verify`: a reminder's run failed (its platform was gone from the deployment), then its next
    occurrence was held by quiet hours and posted at the release. That post is a delivered run: the
    streak is 0 again, as after any delivered run (the model kept it at 1)."""
    from tests.model.quiet import Rule

    h = room(MONDAY)
    sid = recurring(h, "20 8 * * *", zone="UTC")
    h.advance(30, deployment="platform removed")  # 08:30: today's run failed
    assert [r.outcome for r in h.room.schedules[sid].runs] == ["failed"] and h.room.schedules[sid].streak == 1
    user = h.room.schedules[sid].user or ""
    h.set_quiet(user, Rule("08:10", "09:00", "UTC"))
    h.advance(1440 + 60)  # tomorrow's occurrence is held until 09:00, then posted
    agrees(h)
    assert [r.reason for r in h.room.schedules[sid].runs][-1] == "quiet_hours"
    assert h.room.schedules[sid].streak == 0


def test_a_run_now_in_the_second_of_a_snoozed_away_occurrence_is_delivered(
    moto_endpoint: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """make verify, seed 1388417837: a recurrence's 18:00 occurrence is snoozed away, and run_now is called
    at 18:00:00 exactly, so the manual run's scheduled time is that occurrence's. The fire took the manual
    run for the skipped occurrence and recorded it `skipped`/`snoozed`: answered "started", never posted.
    A run started by hand is its own run. Replayed as the search found it."""
    state = searched_room(moto_endpoint, monkeypatch)
    state.provision(start=datetime(2026, 10, 24, 20, 0, tzinfo=UTC), quiet=True, posts=2, repeating=False)
    state.set_quiet_hours(begin=135, days=EVERY_DAY, length=288, user="@ana:example.org", zone="Europe/Madrid")
    state.advance_under_a_deployment_change(change="agent removed", minutes=1440)
    state.agents_fail(failing=False)
    state.stream_delivers(mode="prompt", seed=5876)
    state.create_interval(moves=None, phrase=("every 3 days at 9", "0 9 * * *", 3, "days"), zone="Europe/Madrid")
    state.agents_fail(failing=False)
    state.create_agent_call_elsewhere(cron="0 10 * * 1#1", zone="Asia/Tokyo")
    state.stream_delivers(mode="prompt", seed=569)
    state.create_agent_call_elsewhere(cron="30 2 * * *", zone="UTC")
    state.create_one_shot(agent=True, minutes=57, relative=True, user="@bob:example.org", zone="UTC")
    state.create_recurring(
        agent=False, calendar="ES", count=None, cron="0 */6 * * *", until_hours=None, zone="America/New_York"
    )
    state.create_recurring(
        agent=False, calendar="ES", count=1, cron="0 10 * * *", until_hours=205, zone="America/New_York"
    )
    state.advance(duplicate=False, late=0, minutes=2880)
    state.tap_snooze_button(minutes=10, pick=35, which="second")
    state.create_one_shot(agent=True, minutes=293, relative=True, user="@ana:example.org", zone="UTC")
    state.tap_skip_button(pick=18, which="next")
    state.snooze(minutes=25, pick=5)
    state.tap_skip_button(pick=17, which="delivered")
    state.advance(duplicate=False, late=10800, minutes=59)
    state.set_quiet_hours(begin=238, days=EVERY_DAY, length=15, user="@ana:example.org", zone="Europe/Madrid")
    state.agents_fail(failing=True)
    state.agents_fail(failing=False)
    state.chat_outage(posts=1)
    state.tap_snooze_button(minutes=10, pick=0, which="delivered")
    state.advance_under_a_deployment_change(change="output room disallowed", minutes=61)
    state.delete(pick=0)
    state.stream_delivers(mode="late", seed=1865)
    state.create_recurring(
        agent=True, calendar=None, count=None, cron="0 */6 * * *", until_hours=None, zone="Europe/Madrid"
    )
    state.tap_snooze_button(minutes=10, pick=26, which="delivered")
    state.run_now(pick=9)
    state.agrees_with_the_model()
    state.teardown()


def test_a_new_expression_that_makes_an_agent_call_another_live_one_is_refused_duplicate(
    room: functools.partial[Harness],
) -> None:
    """`make verify`, seed 1253299733: two agent calls with one prompt, output room and zone; the first given
    the second's expression is the second, refused `duplicate` and unchanged, as the model now says."""
    h = room(MONDAY)
    ids = []
    for cron in ("0 10 * * *", "15 9 L * *"):
        s = Schedule("", "agent_call", "Asia/Tokyo", cron=cron, elsewhere=True)
        h.create(s, name=f"job {len(ids)}", prompt=POST_MARK, cron_expr=cron, channel=ELSEWHERE)
        ids.append(s.sid)
    first = ids[0]
    assert h.room.retime_duplicate(first, cron="15 9 L * *") and not h.room.retime_duplicate(first, cron="0 11 * * *")
    answer = h.tool("update_reminder", timezone="Asia/Tokyo", id=first, cron="15 9 L * *")
    assert not answer["ok"] and answer["error"]["code"] == "duplicate", answer
    assert answer["error"]["details"].get("id") == ids[1] or ids[1] in answer["error"]["message"]
    agrees(h)
    assert h.tool("update_reminder", timezone="Asia/Tokyo", id=first, cron="0 11 * * *")["ok"]
    h.room.retime(first, cron="0 11 * * *")
    h.advance(2 * 1440)
    agrees(h)
