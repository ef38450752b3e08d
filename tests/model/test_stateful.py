"""Stateful property tests: random sequences of tool calls, clock moves and Scheduler's deliveries on
the real handlers, compared with the reference model after every step.

Among the rules: several tool calls on one schedule at once, interleaved at their AWS calls, and how
the table's stream reaches the projector (late, again, interleaved across items). `make test` runs a
bounded, derandomized budget; `make verify` (CRONBELL_VERIFY=1) a long random
search whose seed is printed. Every counterexample becomes a test in test_regressions.py."""

from __future__ import annotations

import os
import random
import time
from datetime import UTC, datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

import hypothesis.core as hypothesis_core
import pytest
from hypothesis import HealthCheck, Phase, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
    run_state_machine_as_test,
)

from cronbell import wiring
from cronbell.adapters import clock as clock_module
from tests.model.machine import (
    BOSS,
    DEPLOYMENTS,
    ELSEWHERE,
    OTHER,
    POST_MARK,
    USERS,
    FakeAgents,
    Harness,
    compare,
    iso_z,
)
from tests.model.quiet import DAYS, Rule
from tests.model.reference import Flags, Schedule
from tests.support import figures
from tests.support.interleave_many import random_order
from tests.support.stream_play import MODES

pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("model")]

STARTS = [
    datetime(2026, 11, 30, 8, 0, tzinfo=UTC),  # a Monday
    datetime(2026, 12, 23, 20, 0, tzinfo=UTC),  # before Christmas Eve
    datetime(2026, 12, 30, 20, 0, tzinfo=UTC),  # before New Year's Eve and the year's end
    datetime(2027, 3, 27, 20, 0, tzinfo=UTC),  # Europe springs forward on 28 March
    datetime(2027, 3, 13, 20, 0, tzinfo=UTC),  # the US springs forward on 14 March
    datetime(2026, 10, 24, 20, 0, tzinfo=UTC),  # Europe falls back on 25 October
    datetime(2026, 10, 31, 20, 0, tzinfo=UTC),  # the US falls back on 1 November
]
ZONES = ["Europe/Madrid", "America/New_York", "Asia/Tokyo", "UTC"]
CRONS = [
    "0 10 * * *",
    "30 2 * * *",  # inside the hour a DST change skips or repeats
    "30 1 * * *",
    "0 9 * * 1-5",
    "0 */6 * * *",
    "15 9 L * *",
    "0 10 * * 1#1",
    "0 18 * * L5",
    "0 12 24,31 12 *",
    "0 0 1 1 *",
    "0 20 * * *",
]
MOVES = [1, 7, 31, 59, 61, 120, 360, 1440, 2880]
LATENESS = [0, 0, 0, 30, 59 * 60, 61 * 60, 3 * 3600]
SNOOZES = [10, 25, 45, 95]
FLAGS = Flags.without(os.environ.get("CRONBELL_MODEL_EXCLUDE", ""))  # e.g. "H4,C1": known defects left out
ENDPOINT = ""
MARK = POST_MARK  # in every message and prompt: a post holding it is an occurrence, any other a notice
# repeat until done (docs/semantics.md): CRONBELL_MODEL_REPEATS=0 leaves it out of the search
REPEATS = os.environ.get("CRONBELL_MODEL_REPEATS", "1") != "0"
REPEAT_EVERY = [5, 5, 10, 10, 30]  # small ones weighted: their repeats fall within a short sequence
REPEAT_LATENESS = [0, 0, 30, 4 * 60]
QUIET_ZONES = ["Europe/Madrid", "America/New_York", "UTC"]  # two with DST changes among the starts
QUIET_DAYS = st.one_of(
    st.just(DAYS), st.sets(st.sampled_from(DAYS), min_size=1).map(lambda d: tuple(x for x in DAYS if x in d))
)


def hhmm(when: datetime, zone: str, minutes: int) -> str:
    """The wall clock `minutes` after `when` in `zone`, as HH:MM (wraps past midnight)."""
    local = when.astimezone(ZoneInfo(zone)) + timedelta(minutes=minutes)
    return f"{local.hour:02d}:{local.minute:02d}"


class Room(RuleBasedStateMachine):
    def __init__(self) -> None:
        super().__init__()
        self.h: Harness | None = None
        self.steps = 0

    @initialize(
        start=st.sampled_from(STARTS), repeating=st.booleans(), quiet=st.booleans(), posts=st.sampled_from([2, 4])
    )
    def provision(self, start: datetime, repeating: bool, quiet: bool, posts: int) -> None:
        """A fresh room; in about half the sequences the second user's one-shot is due in 20 minutes and
        then their quiet hours begin, so that it is held; in about half a repeating one-shot is due in
        15 minutes (repeats every 5, 2 of them, then the escalation) and the clock moves through its
        first `posts` (delivery and first repeat, or through the escalation): a short sequence sees them
        however its rules are drawn, and what follows still meets the chain (a repeat to come, or its run)."""
        self.h = Harness(ENDPOINT, start, flags=FLAGS)
        if quiet:
            self.create_one_shot(20, "UTC", True, False, OTHER)
            self.set_quiet_hours(OTHER, 0, 150, "Europe/Madrid", DAYS)
        if REPEATS and repeating:
            self.create_repeating(None, 15, "Europe/Madrid", 5, 2, True, None)
            self.advance_to_a_repeat(0, 1, 0, False, posts)

    @property
    def harness(self) -> Harness:
        assert self.h is not None
        return self.h

    def ids(self, *statuses: str, recurring: bool | None = None) -> list[str]:
        return [  # in creation order: ids are random, the choice must not depend on them
            sid
            for sid, s in self.harness.room.schedules.items()
            if s.status in statuses and not s.unspecified and (recurring is None or s.recurring == recurring)
        ]

    def live_count(self) -> int:
        return len(self.ids("active", "paused"))

    # -- creating

    @precondition(lambda self: self.h is not None and self.live_count() < 6)
    @rule(
        minutes=st.integers(2, 3000),
        zone=st.sampled_from(ZONES),
        relative=st.booleans(),
        agent=st.booleans(),
        user=st.sampled_from(USERS),
    )
    def create_one_shot(self, minutes: int, zone: str, relative: bool, agent: bool, user: str = USERS[0]) -> None:
        h = self.harness
        at = h.clock.now().replace(second=0, microsecond=0) + timedelta(minutes=minutes)
        schedule = Schedule("", "agent_call" if agent else "message", zone, at=at, user=user)
        if agent:
            h.create(schedule, name=f"job {len(h.room.schedules)}", prompt=MARK, fire_at=at.isoformat())
        elif relative:
            at = h.clock.now() + timedelta(minutes=minutes)
            schedule.at = at
            h.create(schedule, message=f"{MARK} {len(h.room.schedules)}", time=f"in {minutes} minutes")
        else:
            local = at.astimezone(ZoneInfo(zone)).isoformat()
            h.create(schedule, message=f"{MARK} {len(h.room.schedules)}", time=local)

    @precondition(lambda self: self.h is not None and self.live_count() < 6)
    @rule(cron=st.sampled_from(CRONS), zone=st.sampled_from(ZONES))
    def create_agent_call_elsewhere(self, cron: str, zone: str) -> None:
        """A recurring agent call whose answers go to another room, one AllowedOutputRooms names."""
        h = self.harness
        schedule = Schedule("", "agent_call", zone, cron=cron, elsewhere=True)
        h.create(schedule, name=f"job {len(h.room.schedules)}", prompt=MARK, cron_expr=cron, channel=ELSEWHERE)

    @precondition(lambda self: self.h is not None and self.live_count() < 6)
    @rule(
        cron=st.sampled_from(CRONS),
        zone=st.sampled_from(ZONES),
        agent=st.booleans(),
        count=st.one_of(st.none(), st.integers(1, 4)),
        until_hours=st.one_of(st.none(), st.integers(3, 24 * 10)),
        calendar=st.sampled_from([None, None, "ES", "US"]),
    )
    def create_recurring(
        self, cron: str, zone: str, agent: bool, count: int | None, until_hours: int | None, calendar: str | None
    ) -> None:
        h = self.harness
        until = h.clock.now().replace(second=0, microsecond=0) + timedelta(hours=until_hours) if until_hours else None
        schedule = Schedule("", "agent_call" if agent else "message", zone, cron=cron, count=count, until=until)
        schedule.calendar = calendar
        extra: dict[str, Any] = {}
        if count is not None:
            extra["count"] = count
        if until is not None:
            extra["until"] = iso_z(until)
        if calendar is not None:
            extra["skip_holidays"] = calendar
        if agent:
            h.create(schedule, name=f"job {len(h.room.schedules)}", prompt=MARK, cron_expr=cron, **extra)
        else:
            h.create(schedule, message=f"{MARK} {len(h.room.schedules)}", cron=cron, **extra)

    @precondition(lambda self: self.h is not None and self.live_count() < 6)
    @rule(
        phrase=st.sampled_from(
            [("every other monday at 10", "0 10 * * 1", 2, "weeks"), ("every 3 days at 9", "0 9 * * *", 3, "days")]
        ),
        zone=st.sampled_from(ZONES),
        moves=st.sampled_from([None, None, ("ES", "after"), ("US", "before"), ("GB", "skip")]),
    )
    def create_interval(self, phrase: tuple[str, str, int, str], zone: str, moves: tuple[str, str] | None) -> None:
        h = self.harness
        words, cron, every, unit = phrase
        schedule = Schedule("", "message", zone, cron=cron, every=every, unit=unit)
        extra: dict[str, Any] = {}
        if moves is not None:
            schedule.calendar, schedule.on_holiday = moves
            extra = {"skip_holidays": moves[0], "on_holiday": moves[1]}
        h.create(schedule, message=f"{MARK} {len(h.room.schedules)}", cron=words, **extra)

    @precondition(lambda self: self.h is not None and self.live_count() < 6)
    @rule(
        rule_=st.sampled_from(
            [
                ("0 9 * * 1-5", True, 0),  # every business day at 9
                ("0 10 * * *", True, 0),
                ("30 1 * * *", True, 0),  # in the hour a DST change skips or repeats
                ("0 9 15 * *", True, 0),  # a payment day
                ("0 12 24,31 12 *", False, 0),
                ("0 9 25 12 *", False, 0),
                ("0 9 1 1 *", False, 0),
                ("0 10 * * 4,5", False, 0),
                ("0 9 * * *", True, 1),  # the first business day of the month
                ("0 9 * * *", True, 3),
                ("0 17 * * *", True, -1),  # the last business day of the month
                ("0 9 * * *", True, 23),  # a month may not have 23
            ]
        ),
        words=st.booleans(),
        zone=st.sampled_from(ZONES),
        agent=st.booleans(),
        on_holiday=st.sampled_from(["skip", "before", "after", None]),
        count=st.one_of(st.none(), st.integers(1, 4)),
        until_hours=st.one_of(st.none(), st.integers(3, 24 * 12)),
        calendar=st.sampled_from(["ES", "US", "ES-MD", "GB"]),
    )
    def create_business(
        self,
        rule_: tuple[str, bool, int],
        words: bool,
        zone: str,
        agent: bool,
        on_holiday: str | None,
        count: int | None,
        until_hours: int | None,
        calendar: str,
    ) -> None:
        """Business days, the N-th business day of the month and occurrences moved off holidays,
        with ends; given as arguments or, for the phrases the grammar reads, as words."""
        h = self.harness
        cron, business, nth = rule_
        until = h.clock.now().replace(second=0, microsecond=0) + timedelta(hours=until_hours) if until_hours else None
        kind = "agent_call" if agent else "message"
        schedule = Schedule("", kind, zone, cron=cron, count=count, until=until, calendar=calendar)
        schedule.business_days, schedule.business_day = business and not nth, nth
        schedule.on_holiday = on_holiday or "skip"
        extra: dict[str, Any] = {"skip_holidays": calendar}
        when: str = cron
        phrases = {
            ("0 9 * * 1-5", 0): "every business day at 9",
            ("0 17 * * *", -1): "the last business day of the month at 17:00",
        }
        if words and (cron, nth) in phrases:
            when = phrases[(cron, nth)]
        elif nth:
            extra["business_day_of_month"] = nth
        elif business:
            extra["business_days"] = True
        if on_holiday is not None:
            extra["on_holiday"] = on_holiday
        if count is not None:
            extra["count"] = count
        if until is not None:
            extra["until"] = iso_z(until)
        if agent:
            h.create(schedule, name=f"job {len(h.room.schedules)}", prompt=MARK, cron_expr=when, **extra)
        else:
            h.create(schedule, message=f"{MARK} {len(h.room.schedules)}", cron=when, **extra)

    @precondition(lambda self: REPEATS and self.h is not None and self.live_count() < 6)
    @rule(
        cron=st.one_of(st.none(), st.sampled_from(CRONS)),
        minutes=st.integers(2, 90),  # soon: its repeats fall within the sequence
        zone=st.sampled_from(ZONES),
        every=st.sampled_from(REPEAT_EVERY),
        times=st.integers(1, 3),
        escalate=st.booleans(),
        count=st.one_of(st.none(), st.integers(1, 3)),
    )
    def create_repeating(
        self, cron: str | None, minutes: int, zone: str, every: int, times: int, escalate: bool, count: int | None
    ) -> None:
        """A reminder that is posted again every `every` minutes until done, then escalated."""
        h = self.harness
        extra: dict[str, Any] = {"repeat_every": every, "repeat_times": times}
        if escalate:
            extra["escalate_to"] = BOSS
        if cron is None:
            schedule = Schedule("", "message", zone, at=h.clock.now() + timedelta(minutes=minutes))
            arguments: dict[str, Any] = {"time": f"in {minutes} minutes"}
        else:
            schedule = Schedule("", "message", zone, cron=cron, count=count)
            arguments = {"cron": cron, **({"count": count} if count is not None else {})}
        schedule.repeat_every, schedule.repeat_times = every, times
        schedule.escalate_to = BOSS if escalate else None
        answer = h.create(schedule, message=f"{MARK} {len(h.room.schedules)}", **arguments, **extra)
        if not answer["ok"] and answer["error"]["code"] != "duplicate":
            h.problems.append(f"a repeating reminder refused: {answer['error']}")

    @precondition(
        lambda self: (
            REPEATS
            and self.h is not None
            and any(s.repeat_every and not s.unspecified for s in self.h.room.schedules.values())
        )
    )
    @rule(pick=st.integers(0, 50))
    def done(self, pick: int) -> None:
        """done_reminder (what the Done button sends) on a repeating reminder, whatever its state."""
        h = self.harness
        ids = [sid for sid, s in h.room.schedules.items() if s.repeat_every and not s.unspecified]
        sid = ids[pick % len(ids)]
        answer = h.tool("done_reminder", id=sid)
        live = h.room.schedules[sid].status != "deleted"
        acknowledged = h.room.done(sid) if answer["ok"] else False
        if answer["ok"] != live:
            h.problems.append(f"done_reminder {sid} answered {answer.get('error') or 'ok'}, the model: live={live}")
        elif answer["ok"] and answer["result"].get("acknowledged") != acknowledged:
            h.problems.append(
                f"done_reminder {sid} acknowledged={answer['result'].get('acknowledged')}, model {acknowledged}"
            )

    # -- changing

    @precondition(lambda self: self.h is not None and self.ids("active"))
    @rule(pick=st.integers(0, 50))
    def pause(self, pick: int) -> None:
        ids = self.ids("active")
        sid = ids[pick % len(ids)]
        if self.harness.tool("pause_reminder", id=sid)["ok"]:
            self.harness.room.pause(sid)

    @precondition(lambda self: self.h is not None and self.ids("paused"))
    @rule(pick=st.integers(0, 50))
    def resume(self, pick: int) -> None:
        ids = self.ids("paused")
        sid = ids[pick % len(ids)]
        if self.harness.tool("resume_reminder", id=sid)["ok"]:
            self.harness.room.resume(sid)

    @precondition(lambda self: self.h is not None and self.ids("active", recurring=True))
    @rule(pick=st.integers(0, 50))
    def skip_next(self, pick: int) -> None:
        ids = self.ids("active", recurring=True)
        sid = ids[pick % len(ids)]
        h = self.harness
        if h.room.next_fire(h.room.schedules[sid]) is None:
            return
        busy = h.room.snooze_busy(sid)  # its last occurrence pending: refused, as a snooze is
        answer = h.tool("skip_next", id=sid)
        got = "ok" if answer["ok"] else answer["error"]["code"]
        if got != ("busy" if busy else "ok"):
            h.problems.append(f"skip_next {sid}: {got}, the model {'busy' if busy else 'ok'}")
        elif answer["ok"]:
            h.room.skip_next(sid)

    @precondition(lambda self: self.h is not None and self.ids("active", "fired"))
    @rule(pick=st.integers(0, 50), minutes=st.sampled_from(SNOOZES))
    def snooze(self, pick: int, minutes: int) -> None:
        ids = self.ids("active", "fired")
        sid = ids[pick % len(ids)]
        h = self.harness
        s = h.room.schedules[sid]
        if s.kind == "agent_call" or (s.recurring and h.room.next_fire(s) is None):
            return
        refused = h.room.snooze_refused(sid, minutes)
        if h.tool("snooze_reminder", id=sid, minutes=minutes)["ok"]:
            if refused:
                h.problems.append(f"snooze_reminder {sid} answered ok where the model refuses it")
            h.room.snooze(sid, minutes)
        elif not refused:
            h.problems.append(f"snooze_reminder {sid} refused")

    @precondition(lambda self: self.h is not None and self.ids("paused", recurring=False))
    @rule(pick=st.integers(0, 50), minutes=st.sampled_from(SNOOZES))
    def snooze_paused_one_shot(self, pick: int, minutes: int) -> None:
        ids = self.ids("paused", recurring=False)
        sid = ids[pick % len(ids)]
        h = self.harness
        if h.room.schedules[sid].kind != "message":
            return
        refused = h.room.snooze_refused(sid, minutes)
        if h.tool("snooze_reminder", id=sid, minutes=minutes)["ok"]:
            if refused:
                h.problems.append(f"snooze_reminder {sid} answered ok for a paused one-shot still to come")
            h.room.snooze(sid, minutes)

    def named(self, s: Schedule, which: str) -> datetime | None:
        """The occurrence a button names: the last delivered regular run's (the snooze button under
        its post), or a coming one (a skip button names the one after the post it sits under)."""
        if which == "delivered":
            found = [r.scheduled for r in s.runs if r.outcome == "delivered" and not r.manual]
            return found[-1] if found else None
        coming = self.harness.room.upcoming(s, limit=2)
        index = 0 if which == "next" else 1
        return coming[index] if len(coming) > index else None

    def button(self, tool: str, sid: str, occurrence: datetime, want: str, **arguments: Any) -> None:
        h = self.harness
        answer = h.tool(tool, id=sid, occurrence=iso_z(occurrence), **arguments)
        got = "" if answer["ok"] else answer["error"]["code"]
        if got != want:
            h.problems.append(f"{tool} {sid} occurrence {iso_z(occurrence)}: {got or 'ok'}, the model {want or 'ok'}")

    @precondition(lambda self: self.h is not None and self.ids("active", recurring=True))
    @rule(pick=st.integers(0, 50), which=st.sampled_from(["next", "second", "delivered"]))
    def tap_skip_button(self, pick: int, which: str) -> None:
        ids = self.ids("active", recurring=True)
        sid = ids[pick % len(ids)]
        occurrence = self.named(self.harness.room.schedules[sid], which)
        if occurrence is not None:
            self.button("skip_next", sid, occurrence, self.harness.room.skip_occurrence(sid, occurrence))

    @precondition(lambda self: self.h is not None and self.ids("active", "fired"))
    @rule(
        pick=st.integers(0, 50),
        which=st.sampled_from(["delivered", "delivered", "next", "second"]),
        minutes=st.sampled_from(SNOOZES),
    )
    def tap_snooze_button(self, pick: int, which: str, minutes: int) -> None:
        ids = self.ids("active", "fired")
        sid = ids[pick % len(ids)]
        h = self.harness
        s = h.room.schedules[sid]
        if s.kind == "agent_call" or (not s.recurring and which != "delivered"):
            return
        occurrence = self.named(s, which)
        if occurrence is not None:
            self.button(
                "snooze_reminder", sid, occurrence, h.room.snooze_occurrence(sid, occurrence, minutes), minutes=minutes
            )

    @precondition(lambda self: self.h is not None and self.ids("active", "paused"))
    @rule(pick=st.integers(0, 50))
    def delete(self, pick: int) -> None:
        ids = self.ids("active", "paused")
        sid = ids[pick % len(ids)]
        if self.harness.tool("delete_reminder", id=sid)["ok"]:
            self.harness.room.delete(sid)
        else:
            self.harness.problems.append(f"delete_reminder {sid} refused")

    @precondition(lambda self: self.h is not None and self.ids("active"))
    @rule(pick=st.integers(0, 50))
    def run_now(self, pick: int) -> None:
        ids = self.ids("active")
        self.harness.run_now(ids[pick % len(ids)])

    @precondition(lambda self: self.h is not None and self.ids("active", "paused"))
    @rule(pick=st.integers(0, 50))
    def update_message(self, pick: int) -> None:
        ids = self.ids("active", "paused")
        sid = ids[pick % len(ids)]
        s = self.harness.room.schedules[sid]
        # a text new to the room: two schedules of one time given one text are duplicates, refused rightly
        text = f"{MARK} {self.steps}"
        arguments = {"prompt": text} if s.kind == "agent_call" else {"message": text}
        if not self.harness.tool("update_reminder", id=sid, **arguments)["ok"]:
            self.harness.problems.append(f"update_reminder {sid} refused")

    def retimable(self, recurring: bool) -> list[str]:
        """Active schedules whose time a user may move now with a plain outcome: nothing of theirs on its way
        (due within the minute, or passed without its run and still deliverable late: what happens to that
        one is the busy rule's, searched by skip and snooze), nothing held by quiet hours, no repeats
        running, and no rule that anchors days to the old expression (every N weeks, business days,
        occurrences moved off holidays)."""
        h = self.harness
        now = h.clock.now()
        out = []
        for sid in self.ids("active", recurring=recurring):
            s = h.room.schedules[sid]
            if s.held or s.repeat_every or s.every > 1 or s.business_days or s.business_day or s.on_holiday != "skip":
                continue
            if s.cron is None:
                if s.at is not None and s.at > now + timedelta(seconds=90):
                    out.append(sid)
                continue
            since = max(now - timedelta(hours=6), s.created)
            window = set(h.room.regular(s, since, now + timedelta(seconds=90)))
            window |= {t for t in s.snoozes if since < t <= now + timedelta(seconds=90)}
            if all(s.ran(t) for t in window):
                out.append(sid)
        return out

    @precondition(lambda self: self.h is not None and self.retimable(recurring=False))
    @rule(pick=st.integers(0, 50), minutes=st.integers(2, 600), relative=st.booleans())
    def retime_one_shot(self, pick: int, minutes: int, relative: bool) -> None:
        """update_reminder with a new `time` for a one-shot still to come: earlier or later, in words or as
        a local time. It fires at the new time only (the old one is no longer its own)."""
        ids = self.retimable(recurring=False)
        sid = ids[pick % len(ids)]
        h = self.harness
        s = h.room.schedules[sid]
        now = h.clock.now()
        if relative:
            at, when = now + timedelta(minutes=minutes), f"in {minutes} minutes"
        else:
            at = now.replace(second=0, microsecond=0) + timedelta(minutes=minutes)
            when = at.astimezone(ZoneInfo(s.timezone)).isoformat()
        answer = h.tool("update_reminder", timezone=s.timezone, user=s.user or USERS[0], id=sid, time=when)
        if h.room.retime_duplicate(sid, at=at):
            if answer["ok"] or answer["error"]["code"] != "duplicate":
                h.problems.append(f"update_reminder {sid} time={when}: {answer}, the model says duplicate")
            return
        if not answer["ok"]:
            h.problems.append(f"update_reminder {sid} time={when} refused: {answer['error']}")
            return
        h.room.retime(sid, at=at)

    @precondition(lambda self: self.h is not None and self.retimable(recurring=True))
    @rule(pick=st.integers(0, 50), cron=st.sampled_from(CRONS))
    def retime_recurring(self, pick: int, cron: str) -> None:
        """update_reminder with a new `cron` for a recurrence: its runs so far stay (and count), its skips
        and pending snoozes are dropped; refused, changing nothing, when the new expression leaves nothing
        to post before its ends."""
        ids = self.retimable(recurring=True)
        sid = ids[pick % len(ids)]
        h = self.harness
        s = h.room.schedules[sid]
        refused = h.room.retime_refused(sid, cron=cron) or h.room.retime_duplicate(sid, cron=cron)
        answer = h.tool("update_reminder", timezone=s.timezone, user=s.user or USERS[0], id=sid, cron=cron)
        if answer["ok"] == refused:
            got, model = ("ok" if answer["ok"] else answer["error"]["code"]), "refuses" if refused else "accepts"
            h.problems.append(f"update_reminder {sid} cron={cron}: {got}, the model {model}")
        if answer["ok"]:
            h.room.retime(sid, cron=cron)

    @precondition(lambda self: self.h is not None and self.ids("active", "paused", recurring=True))
    @rule(
        pick=st.integers(0, 50),
        until_hours=st.one_of(st.none(), st.integers(1, 24 * 8)),
        count=st.one_of(st.none(), st.integers(1, 5)),
    )
    def update_ends(self, pick: int, until_hours: int | None, count: int | None) -> None:
        """A new `until` or `count`, often before a pending snooze or below the runs delivered: accepted
        or refused as the model decides (a refusal changes nothing)."""
        ids = self.ids("active", "paused", recurring=True)
        sid = ids[pick % len(ids)]
        h = self.harness
        if until_hours is None and count is None:
            return
        until = h.clock.now().replace(second=0, microsecond=0) + timedelta(hours=until_hours) if until_hours else None
        refused = h.room.ends_refused(sid, until, count)
        arguments: dict[str, Any] = {"until": iso_z(until)} if until else {}
        if count:
            arguments["count"] = count
        answer = h.tool("update_reminder", id=sid, **arguments)
        if answer["ok"] == refused:
            got, model = ("ok" if answer["ok"] else answer["error"]["code"]), "refuses" if refused else "accepts"
            h.problems.append(f"update_reminder {sid} {arguments}: {got}, the model {model}")
        if answer["ok"]:
            h.room.change_ends(sid, until, count)

    @precondition(lambda self: self.h is not None and self.ids("active"))
    @rule(pick=st.integers(0, 50), updates=st.integers(1, 3), pause=st.booleans(), seed=st.integers(0, 2**16))
    def changes_at_once(self, pick: int, updates: int, pause: bool, seed: int) -> None:
        """Two to four calls on one schedule at once, interleaved at their AWS calls: new texts and a
        pause, which the model applies in any order. Each is answered ok (one that lost a race runs
        again on the schedule as it now is). The texts are new to the room: a text another schedule
        of the same time has would be refused as a duplicate, rightly."""
        ids = self.ids("active")
        sid = ids[pick % len(ids)]
        h = self.harness
        s = h.room.schedules[sid]
        calls = [
            (
                "update_reminder",
                {"id": sid, "prompt": f"{MARK} {self.steps}.{n}"}
                if s.kind == "agent_call"
                else {"id": sid, "message": f"{MARK} {self.steps}.{n}"},
            )
            for n in range(max(updates, 1 if pause else 2))
        ] + ([("pause_reminder", {"id": sid})] if pause else [])
        order = random_order(random.Random(seed), len(calls), waits=False)
        answers = h.at_once(calls, order)
        for (name, _), answer in zip(calls, answers, strict=True):
            if not answer["ok"]:
                h.problems.append(f"{name} {sid} at once with {len(calls) - 1} others refused: {answer['error']}")
        if pause and answers[-1]["ok"]:
            h.room.pause(sid)

    @precondition(lambda self: self.h is not None)
    @rule(mode=st.sampled_from(MODES), seed=st.integers(0, 2**16))
    def stream_delivers(self, mode: str, seed: int) -> None:
        """From now on the projector meets the table's stream so: promptly, late (an invocation
        behind), again (a suffix delivered twice) or different items' records interleaved."""
        self.harness.stream.mode, self.harness.stream.rng = mode, random.Random(seed)

    @precondition(lambda self: self.h is not None and self.calendar_ids())
    @rule(pick=st.integers(0, 50), on_holiday=st.sampled_from(["skip", "before", "after"]))
    def update_on_holiday(self, pick: int, on_holiday: str) -> None:
        """A schedule with a calendar changes where its occurrences on holidays go; what it skipped stays
        skipped. Refused when nothing would be left to post, unless it changes nothing (the value it has:
        docs/semantics.md, "Looking ahead")."""
        ids = self.calendar_ids()
        sid = ids[pick % len(ids)]
        h = self.harness
        s = h.room.schedules[sid]
        before, s.on_holiday = s.on_holiday, on_holiday
        left = before == on_holiday or bool(h.room.upcoming(s))
        s.on_holiday = before
        answer = h.tool("update_reminder", timezone=s.timezone, id=sid, on_holiday=on_holiday)
        if answer["ok"]:
            s.on_holiday = on_holiday
            if not left:
                h.problems.append(f"update_reminder {sid} on_holiday={on_holiday} accepted with nothing left")
        elif left and answer["error"]["code"] != "busy":
            h.problems.append(f"update_reminder {sid} on_holiday={on_holiday} refused: {answer['error']}")

    def calendar_ids(self) -> list[str]:
        return [
            sid for sid in self.ids("active", "paused", recurring=True) if self.harness.room.schedules[sid].calendar
        ]

    @precondition(lambda self: self.h is not None and not self.h.room.chat_down)
    @rule(failing=st.booleans())
    def agents_fail(self, failing: bool) -> None:
        FakeAgents.failing = failing

    @precondition(
        lambda self: (
            self.h is not None
            and not FakeAgents.failing
            and not self.h.room.chat_down
            and not any(s.streak for s in self.h.room.schedules.values())
        )
    )
    @rule(posts=st.integers(1, 2))
    def chat_outage(self, posts: int) -> None:
        """The platform answers 503 to the next posts: the fire raises and Lambda's retry delivers."""
        self.harness.chat_outage(posts)

    # -- time

    @precondition(lambda self: self.h is not None)
    @rule(minutes=st.sampled_from(MOVES), late=st.sampled_from(LATENESS), duplicate=st.booleans())
    def advance(self, minutes: int, late: int, duplicate: bool) -> None:
        self.harness.advance(minutes, late_seconds=late, duplicate=duplicate)

    @precondition(lambda self: self.h is not None and self.ids("active"))
    @rule(minutes=st.sampled_from(MOVES), change=st.sampled_from(sorted(DEPLOYMENTS)))
    def advance_under_a_deployment_change(self, minutes: int, change: str) -> None:
        """A deployment change between fires, undone afterwards: the room's platform removed (every
        attempted run fails `chat_refused` and is never posted), the other room of the agent calls
        posting there taken out of AllowedOutputRooms (theirs fail `chat_refused`, told in the
        schedule's own room only), no agents or not the one they call (every agent call's run fails
        `agent_error`). Never dropped without a run: the model says which run each occurrence ends as."""
        self.harness.advance(minutes, deployment=change)

    def repeat_targets(self) -> list[datetime]:
        """What a repeating reminder has coming soon, as the model sees it: the next repeat or
        escalation of each current occurrence, and the next occurrence of each live schedule with
        `repeat_every` (its delivery starts the repeats)."""
        room = self.harness.room
        now = self.harness.clock.now()
        soon = now + timedelta(hours=26)
        out = []
        for s in room.schedules.values():
            if s.unspecified or s.repeat_every is None:
                continue
            c = s.current
            last = s.repeat_times + (1 if s.escalate_to else 0)
            if s.status == "active" and c is not None and not c.stopped and c.acked is None and c.posted < last:
                out.append(c.due(s.repeat_every, c.posted + 1))
            nf = room.next_fire(s) if s.status == "active" else None
            if nf is not None:
                out.append(nf)
        return sorted(t for t in out if now < t <= soon)

    @precondition(lambda self: REPEATS and self.h is not None and self.repeat_targets())
    @rule(
        which=st.integers(0, 3),
        past=st.sampled_from([0, 0, 1, 2]),
        late=st.sampled_from(REPEAT_LATENESS),
        duplicate=st.booleans(),
        moves=st.integers(1, 4),
    )
    def advance_to_a_repeat(self, which: int, past: int, late: int, duplicate: bool, moves: int) -> None:
        """Small clock moves, each to just past a coming repeat, escalation or occurrence of a
        repeating reminder: Scheduler delivers the one-shots the previous post created, in order
        (the long moves of `advance` rarely stop between two posts of an occurrence)."""
        h = self.harness
        for _ in range(moves):
            targets = self.repeat_targets()
            if not targets:
                return
            target = targets[min(which, len(targets) - 1)]
            minutes = -(-int((target - h.clock.now()).total_seconds()) // 60) + past
            h.advance(max(minutes, 1), late_seconds=late, duplicate=duplicate)

    # -- after every step

    # -- quiet hours (docs/semantics.md, "Quiet hours")

    @precondition(lambda self: self.h is not None)
    @rule(
        user=st.sampled_from(USERS),
        begin=st.integers(-120, 600),  # minutes from now: periods that hold the coming fires
        length=st.integers(15, 900),  # up to 15 hours: many cross midnight
        zone=st.sampled_from(QUIET_ZONES),
        days=QUIET_DAYS,
    )
    def set_quiet_hours(self, user: str, begin: int, length: int, zone: str, days: tuple[str, ...]) -> None:
        h = self.harness
        start, end = hhmm(h.clock.now(), zone, begin), hhmm(h.clock.now(), zone, begin + length)
        if start != end:
            h.set_quiet(user, Rule(start, end, zone, days))

    @precondition(lambda self: self.h is not None)
    @rule(user=st.sampled_from(USERS))
    def clear_quiet_hours(self, user: str) -> None:
        self.harness.clear_quiet(user)

    @precondition(lambda self: self.h is not None)
    @rule(user=st.sampled_from(USERS))
    def get_quiet_hours(self, user: str) -> None:
        self.harness.get_quiet(user)

    @invariant()
    def agrees_with_the_model(self) -> None:
        if self.h is None:
            return
        self.steps += 1
        problems = compare(self.h)
        if problems:
            figures.add("stateful", violations=1)
            detail = "\n".join([*problems, "-- steps:", *self.h.log[-60:]])
            raise AssertionError(detail)

    def teardown(self) -> None:
        if self.h is not None and not self.h.problems:
            problems = compare(self.h, full=True)
            assert not problems, "\n".join(problems)
        figures.add("stateful", sequences=1, steps=self.steps, violations=0)
        if REPEATS and self.h is not None:
            posts = [p.what for p in self.h.room.posts]
            figures.add("stateful", repeats=posts.count("repeat"), escalations=posts.count("escalation"))
        if self.h is not None:
            figures.add("stateful", held=self.h.room.quiet.count)
        FakeAgents.failing = False


def budget() -> tuple[settings, float]:
    """`make test`: a fixed, derandomized budget. `make verify` (CRONBELL_VERIFY=1): rounds of a random
    search for CRONBELL_VERIFY_MINUTES (default 20), from a printed seed (CRONBELL_VERIFY_SEED)."""
    common: dict[str, Any] = {"deadline": None, "database": None, "suppress_health_check": list(HealthCheck)}
    if os.environ.get("CRONBELL_VERIFY"):
        minutes = float(os.environ.get("CRONBELL_VERIFY_MINUTES", "20"))
        return settings(max_examples=25, stateful_step_count=40, derandomize=False, **common), minutes
    # no shrinking here: a failure reports its whole sequence at once and `make test` stays short;
    # `make verify` shrinks what it finds
    quick = [Phase.explicit, Phase.reuse, Phase.generate]
    return settings(max_examples=20, stateful_step_count=18, derandomize=True, phases=quick, **common), 0.0


def test_the_room_agrees_with_the_reference_model(moto_endpoint: str, monkeypatch: pytest.MonkeyPatch) -> None:
    global ENDPOINT
    ENDPOINT = moto_endpoint
    for name in ("build_sender", "LambdaAgents", "_start_fire"):
        monkeypatch.setattr(wiring, name, getattr(wiring, name))  # the harness replaces them; put back after
    chosen, minutes = budget()
    try:
        if not minutes:
            before = dict(figures.TALLIES["stateful"])
            run_state_machine_as_test(Room, settings=chosen)
            counted = ("repeats", "escalations", "held")
            reached = {k: figures.TALLIES["stateful"][k] - before.get(k, 0) for k in counted}
            if REPEATS:  # coverage must not drop silently: the budget reaches both
                assert reached["repeats"] > 0 and reached["escalations"] > 0, reached
            assert reached["held"] > 0, reached  # and some occurrence held by quiet hours
            return
        seed = int(os.environ.get("CRONBELL_VERIFY_SEED") or random.SystemRandom().getrandbits(32))
        print(f"\nmodel search: seed {seed} (CRONBELL_VERIFY_SEED={seed} repeats it), {minutes:g} minutes")
        # Hypothesis draws each run's seed from this generator when not derandomized: one printed seed
        # fixes the whole sequence of rounds.
        hypothesis_core.threadlocal._hypothesis_global_random = random.Random(seed)
        deadline = time.monotonic() + minutes * 60
        while time.monotonic() < deadline:
            run_state_machine_as_test(Room, settings=chosen)
    finally:
        clock_module.install(clock_module.SystemClock())
