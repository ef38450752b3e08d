"""The stateful comparison: the real handlers (tools envelope, fire Input) on the moto server with a
virtual clock, a recording chat platform and a fake agent, against the reference model.

`Harness` drives the handlers and Scheduler (what moto holds fires as tests/support/scheduler_oracle.py
reads it); `Comparison` reads the room back through the tools and lists every difference from the
model. tests/model/test_stateful.py builds a Hypothesis state machine on them and
tests/model/test_regressions.py replays the sequences it found."""

from __future__ import annotations

import contextlib
import json
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from cronbell import wiring
from cronbell.adapters import clock as clock_module
from cronbell.adapters.chat.base import ChatMessage
from cronbell.core.domain.phrases import phrase
from cronbell.core.domain.ports import AgentError, UnknownAgent
from tests.model.quiet import Rule
from tests.model.quiet import answer as quiet_answer
from tests.model.reference import Flags, Room, Run, Schedule, Settings
from tests.support.aws import GROUP, FakeClock, Stack, provision
from tests.support.chat import RecordingChat, TransientChatError
from tests.support.envelopes import USER, envelope
from tests.support.handlers import LambdaContext, configure_env, invoke, load_handler
from tests.support.lambda_timing import RETRY_GAPS_SECONDS
from tests.support.scheduler_oracle import due
from tests.support.stream_play import Stream, scheduler_entries

AUTO_PAUSE_AFTER = 3
BOSS = "@boss:example.org"  # whom an escalation mentions
PLATFORMS, PLATFORM = "matrix,slack", "slack"  # the deployment's platforms; the room's is the second
ELSEWHERE = "C0NEWS"  # another room on the room's platform, where some agent calls post
AGENTS = '{"echo": "EchoAgentFunction"}'  # the agent every agent call targets (the envelope's)
# the deployment changes a clock move can be made under (no tool is called then), and what each sets
DEPLOYMENTS: dict[str, dict[str, str]] = {
    "platform removed": {"CHAT_BACKEND": "matrix"},
    "output room disallowed": {"ALLOWED_OUTPUT_ROOMS": ""},
    "no agents": {"AGENTS": "{}"},
    "agent removed": {"AGENTS": '{"other": "OtherAgentFunction"}'},
}
OTHER = "@bob:example.org"  # the room's second user: each has their own quiet hours
USERS = (USER, OTHER)
POST_MARK = "ding"  # every message and prompt holds it: a post with it is an occurrence, without it a notice


class FakeAgents:
    """Stands in for the agent Lambdas of the deployment's allowlist: answers as the echo agent, or
    fails while `failing`; an agent the allowlist does not name is unknown, as to LambdaAgents."""

    failing = False

    def __init__(self, allowlist: Any = None) -> None:
        self.allowlist = dict(allowlist or {})
        self.configured = bool(self.allowlist)

    def call(self, agent_id: str, request: dict[str, Any], timeout_seconds: int) -> str:
        if agent_id not in self.allowlist:
            raise UnknownAgent(phrase("agent.unknown", agent=agent_id))
        if FakeAgents.failing:
            raise AgentError("the agent failed")
        return f"echo: {request['prompt']}"


@dataclass
class FlakyChat(RecordingChat):
    """A recording chat platform whose next `down` posts fail transiently (as a 503 would)."""

    down: int = 0

    def send(self, message: ChatMessage, idempotency_key: str, deadline: float | None = None) -> str:
        if self.down:
            self.down -= 1
            raise TransientChatError("503 from the platform")
        return super().send(message, idempotency_key, deadline)


def iso_z(when: datetime) -> str:
    return when.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def parse(text: str) -> datetime:
    return datetime.fromisoformat(text.replace("Z", "+00:00")).astimezone(UTC)


@dataclass
class Harness:
    """One room on a freshly provisioned stack, and the model beside it."""

    endpoint: str
    start: datetime
    flags: Flags = field(default_factory=Flags)
    clock: FakeClock = field(init=False)
    stack: Stack = field(init=False)
    chat: FlakyChat = field(init=False)
    room: Room = field(init=False)
    started: list[dict[str, Any]] = field(default_factory=list)
    log: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    compared_runs: dict[str, int] = field(default_factory=dict)
    stream: Stream = field(init=False)
    # how far Scheduler has been played: Lambda's retries of a run_now (or of a fire that ran past a
    # move's end) move the clock on while no move plays Scheduler; what came due meanwhile is played,
    # late, by the next move
    played: datetime = field(init=False)

    def __post_init__(self) -> None:
        self.clock = FakeClock(self.start)
        self.played = self.start
        clock_module.install(self.clock)
        self.stack = provision(self.endpoint, self.clock)
        self.stream = Stream(self.stack)
        self.chat = FlakyChat()
        FakeAgents.failing = False
        wiring.build_sender = lambda settings: self.chat  # type: ignore[assignment]
        wiring.LambdaAgents = FakeAgents  # type: ignore[assignment,misc]
        wiring._start_fire = lambda settings, *_: self.started.append  # type: ignore[assignment]
        self.deploy()
        self.room = Room(now=self.start, settings=Settings(auto_pause_after=AUTO_PAUSE_AFTER), flags=self.flags)

    def deploy(self, **changed: str) -> None:
        """The functions' environment: both platforms, the other room allowed, the echo agent; then
        `changed`."""
        env = {
            "AUTO_PAUSE_AFTER": str(AUTO_PAUSE_AFTER),
            "CHAT_BACKEND": PLATFORMS,
            "ALLOWED_OUTPUT_ROOMS": f"{PLATFORM}:{ELSEWHERE}",
            "AGENTS": AGENTS,
        }
        configure_env(self.stack, **{**env, **changed})

    # -- tools

    def tool(self, name: str, /, timezone: str = "UTC", user: str = USER, **arguments: Any) -> dict[str, Any]:
        call = envelope(name, arguments, timezone=timezone, user=user)
        call["context"]["platform"] = PLATFORM  # the room lives on the second platform: it can be removed
        answer: dict[str, Any] = invoke("tools", call)
        self.stream.settle()  # the invocation is over: its writes reach the projector
        json.dumps(answer)
        self.log.append(f"{name} {arguments} -> {(answer['ok'] and 'ok') or answer['error']['code']}")
        return answer

    def at_once(
        self, calls: list[tuple[str, dict[str, Any]]], order: tuple[tuple[int, int | None], ...]
    ) -> list[dict[str, Any]]:
        """Tool calls at once (a model's parallel calls, a button tapped meanwhile), each stopped after
        every AWS call and run in `order` (tests/support/interleave_many.py); their answers."""
        from tests.support.interleave import _wired
        from tests.support.interleave_many import at_once

        module = load_handler("tools")

        def call(name: str, arguments: dict[str, Any]) -> Callable[[Stack], Any]:
            def run(stack: Stack) -> Any:
                stack.settings = wiring.settings()  # the functions' environment, as deployed
                event = envelope(name, arguments)
                event["context"]["platform"] = PLATFORM
                # a call that lost a race runs again at once: the room's clock stays on whole minutes
                with _wired(module, stack.deps(sleep=lambda seconds: None)):
                    return module.lambda_handler(event, LambdaContext(function_name="tools"))

            return run

        answers = [answer for answer, _ in at_once(self.stack, [call(n, a) for n, a in calls], order)]
        self.stream.settle()
        for (name, arguments), answer in zip(calls, answers, strict=True):
            self.log.append(f"{name} {arguments} at once -> {(answer['ok'] and 'ok') or answer['error']['code']}")
        return answers

    def create(self, schedule: Schedule, **arguments: Any) -> dict[str, Any]:
        tool = "cron_create" if schedule.kind == "agent_call" else "create_reminder"
        schedule.user = schedule.user or USER
        answer = self.tool(tool, timezone=schedule.timezone, user=schedule.user, **arguments)
        if not answer["ok"] and schedule.until is not None and schedule.cron is not None:
            probe = Room(now=self.clock.now(), flags=self.flags)  # what would post before the end
            ends = probe.upcoming(schedule, limit=2)
            today = schedule.until.date() == self.clock.now().date()
            if ends and answer["error"]["code"] != "too_frequent" and (self.flags.until_soon or not today):
                self.problems.append(f"refused {arguments} ({answer['error']}), occurrences before until: {ends[:2]}")
        if answer["ok"] and not answer["result"].get("duplicate"):
            schedule.sid = answer["result"]["id"]
            schedule.said = arguments.get("cron") or arguments.get("cron_expr")
            if not self.flags.holiday_ends and schedule.calendar and (schedule.count or schedule.until):
                schedule.unspecified = True
            self.room.exempt_on_create(schedule)
            self.room.created(schedule)
        return answer

    # -- quiet hours (docs/semantics.md, "Quiet hours")

    def set_quiet(self, user: str, rule: Rule) -> None:
        args = {"start": rule.start, "end": rule.end, "timezone": rule.timezone, "days": list(rule.days)}
        answer = self.tool("set_quiet_hours", user=user, **args)
        if not answer["ok"]:
            self.problems.append(f"set_quiet_hours {args} for {user} refused: {answer['error']}")
            return
        self.room.quiet.set(user, rule)
        self._quiet_answer("set_quiet_hours", user, answer)

    def clear_quiet(self, user: str) -> None:
        had = self.room.quiet.clear(user)
        answer = self.tool("clear_quiet_hours", user=user)
        if not answer["ok"] or answer["result"].get("cleared") != had:
            self.problems.append(f"clear_quiet_hours for {user} answered {answer}, the model cleared={had}")

    def get_quiet(self, user: str) -> None:
        answer = self.tool("get_quiet_hours", user=user)
        if not answer["ok"]:
            self.problems.append(f"get_quiet_hours for {user} refused: {answer['error']}")
            return
        self._quiet_answer("get_quiet_hours", user, answer)

    def _quiet_answer(self, tool: str, user: str, answer: dict[str, Any]) -> None:
        want = quiet_answer(self.room.quiet.rules.get(user), self.clock.now())
        got = {k: answer["result"].get(k) for k in want}
        if got != want:
            self.problems.append(f"{tool} for {user}: {got}, the model {want}")

    def _releases(self, until: datetime, start: datetime | None = None, seen: bool = False) -> None:
        """The model's releases due by `until`: each posted at its period's end (or `start`, the
        start of the fire that carried it); one Scheduler did not send is a problem."""
        for release in self.room.releases_due(until):
            if not seen:
                self.problems.append(f"Scheduler would not fire the release of {release.user} at {iso_z(release.end)}")
            self.room.release(release, start or release.end)

    def run_now(self, sid: str) -> dict[str, Any]:
        self.started.clear()
        busy = self.room.run_now_busy(sid)
        allowed = not busy and self.room.run_now_allowed(sid)
        answer = self.tool("run_now", target=sid)
        if answer["ok"] != allowed or (busy and answer["error"]["code"] != "busy"):
            self.problems.append(f"run_now {sid} answered {answer}, the model expected ok={allowed}, busy={busy}")
        for event in list(self.started):
            self._deliver(sid, parse(event["scheduled_time"]), event, manual=True)
        self.started.clear()
        return answer

    # -- Scheduler

    def advance(
        self,
        minutes: int,
        late_seconds: int = 0,
        duplicate: bool = False,
        platform_removed: bool = False,
        deployment: str = "",
    ) -> list[str]:
        """Move the clock; every fire due on the way starts in order, `late_seconds` after its time
        (never past the move's end), optionally delivered twice. Under a `deployment` change (one of
        DEPLOYMENTS; `platform_removed` is "platform removed") the functions run with it meanwhile (no
        tool is called then), and as before afterwards. Answers what Scheduler missed or added
        compared with the model."""
        deployment = deployment or ("platform removed" if platform_removed else "")
        flag = {
            "platform removed": "platform_gone",
            "output room disallowed": "output_forbidden",
            "no agents": "agents_gone",
            "agent removed": "agents_gone",
        }.get(deployment)
        if flag is not None:
            self.deploy(**DEPLOYMENTS[deployment])
            setattr(self.room, flag, True)
        try:
            return self._advance(minutes, late_seconds, duplicate)
        finally:
            if flag is not None:
                self.deploy()
                setattr(self.room, flag, False)

    def _advance(self, minutes: int, late_seconds: int, duplicate: bool) -> list[str]:
        before, end = self.played, self.clock.now() + timedelta(minutes=minutes)
        self.played = end
        problems: list[str] = []
        expected = self.room.expected_fires(before, end)
        repeats_expected = self.room.repeat_fires(before, end)
        repeats_seen: set[tuple[str, datetime, int]] = set()
        seen: set[tuple[str, datetime]] = set()
        cursor = before
        while True:
            self.stream.flush()
            entries = scheduler_entries(self.stack)
            fires = due(entries, cursor, end)
            if not fires:
                break
            first = fires[0]
            cursor = first.when
            for fire in [f for f in fires if f.when == first.when]:
                start = min(fire.when + timedelta(seconds=late_seconds), end)
                if is_release(fire.event):
                    if self.clock.now() < start:
                        self.clock.current = start
                    self._deliver_release(fire.when, fire.event, self.clock.now())
                    continue
                sid = fire.event["reminder_id"]
                if "repeat_of" in fire.event:
                    repeats_seen.add((sid, parse(fire.event["repeat_of"]), int(fire.event["repeat"])))
                else:
                    seen.add((sid, fire.when))
                start = min(fire.when + timedelta(seconds=late_seconds), end)
                if self.clock.now() < start:
                    self.clock.current = start
                self._deliver(sid, fire.when, fire.event)
                if duplicate:
                    self._deliver(sid, fire.when, {**fire.event, "attempt": "2"})
                entry = entries[fire.entry]
                if entry["ScheduleExpression"].startswith("at(") and entry.get("ActionAfterCompletion") == "DELETE":
                    self._forget(fire.entry)
        self.clock.current = max(self.clock.current, end)  # a retry may have gone past the end
        self._releases(self.clock.now())
        self.room.move(self.clock.now())
        for sid, when in self.room.missing(expected, seen):
            problems.append(f"Scheduler would not fire {sid} at {iso_z(when)}")
        # and any the model still has due by the end: one moved meanwhile (to a quiet period's end) too
        overdue = self.room.repeat_fires(datetime.min.replace(tzinfo=UTC), end)
        for sid, slot, k in sorted((repeats_expected - repeats_seen) | overdue, key=lambda x: (x[1], x[0], x[2])):
            s = self.room.schedules[sid]
            c = s.current
            if s.unspecified or c is None or c.slot != slot or c.stopped or c.acked is not None:
                continue  # stopped on the way (a later occurrence, a pause on a retry's clock)
            problems.append(f"Scheduler would not fire repeat {k} of {sid} {iso_z(slot)}")
        self.problems += problems
        return problems

    def _deliver_release(self, when: datetime, event: dict[str, Any], start: datetime) -> None:
        """A release's event and Lambda's retries of it while its post meets a chat outage."""
        gaps, at = list(RETRY_GAPS_SECONDS), start
        while True:
            try:
                result = self.invoked("fire", event)
                self.log.append(f"release {iso_z(when)} at {iso_z(at)} -> {result.get('outcome')}")
                raised = False
            except Exception as err:  # Lambda retries a fire that raises
                self.log.append(f"release {iso_z(when)} raised {type(err).__name__}: {err}")
                raised = True
            waiting = [r for r in self.room.releases_due(when) if r.end == when]
            retried = [r for r in waiting if not self.room.release(r, at)]
            if not (raised or retried) or not gaps:
                break
            self.clock.advance(seconds=gaps.pop(0))
            at = self.clock.now()
        self._releases(when)

    def invoked(self, function: str, event: dict[str, Any]) -> Any:
        """An invocation as Lambda makes it; once it is over (answered or raised), its writes reach the
        projector."""
        try:
            return invoke(function, event)
        finally:
            self.stream.settle()

    def _forget(self, name: str) -> None:
        with contextlib.suppress(self.stack.scheduler.exceptions.ResourceNotFoundException):
            self.stack.scheduler.delete_schedule(Name=name, GroupName=GROUP)

    def chat_outage(self, posts: int) -> None:
        """The chat platform fails the next `posts` posts transiently."""
        self.chat.down = self.room.chat_down = posts

    def _deliver(self, sid: str, slot: datetime, event: dict[str, Any], manual: bool = False) -> None:
        """One asynchronous event: Lambda's retries after a raise, on the virtual clock."""
        at = self.clock.now()
        if "repeat_of" in event:
            self.room.fire_repeat(sid, parse(event["repeat_of"]), int(event["repeat"]), at)
        else:
            self.room.fire(sid, slot, at, agent_ok=not FakeAgents.failing, manual=manual, retry_gaps=RETRY_GAPS_SECONDS)
        gaps = list(RETRY_GAPS_SECONDS)
        while True:
            try:
                result = self.invoked("fire", event)
                self.log.append(f"fire {sid} {iso_z(slot)} at {iso_z(at)} -> {result.get('outcome')}")
                return
            except Exception as err:  # Lambda retries a fire that raises
                self.log.append(f"fire {sid} {iso_z(slot)} raised {type(err).__name__}: {err}")
                if not gaps:
                    return
                self.clock.advance(seconds=gaps.pop(0))


@dataclass(frozen=True)
class Seen:
    status: str
    enabled: bool
    next_fire: str | None


def is_release(event: dict[str, Any]) -> bool:
    """A release's fire: its event names the release (no reminder of its own)."""
    return "reminder_id" not in event or any("release" in str(k) for k in event)


def model_view(room: Room, s: Schedule) -> Seen:
    nf = room.next_fire(s)
    return Seen(s.status, s.status == "active", iso_z(nf) if nf else None)


def run_view(s: Schedule, run: Run) -> tuple[Any, ...]:
    local = run.scheduled.astimezone(ZoneInfo(s.timezone)).isoformat()
    moved = run.moved_from.astimezone(ZoneInfo(s.timezone)).isoformat() if run.moved_from else None
    acked = iso_z(run.acknowledged_at) if run.acknowledged_at else None
    fields = (run.outcome, run.reason, run.manual, run.late_seconds, moved)
    return (local, *fields, acked, run.repeats, run.escalated)


def moved_view(s: Schedule, text: str | None) -> str | None:
    return parse(text).astimezone(ZoneInfo(s.timezone)).isoformat() if text else None


def history_view(s: Schedule, r: dict[str, Any]) -> tuple[Any, ...]:
    """A run of reminder_history as run_view shows the model's."""
    local = parse(r["scheduled_time"]).astimezone(ZoneInfo(s.timezone)).isoformat()
    acked = iso_z(parse(r["acknowledged_at"])) if r.get("acknowledged_at") else None
    fields = (r["outcome"], r["reason"], r["manual"], r["late_seconds"], moved_view(s, r.get("moved_from")))
    return (local, *fields, acked, r.get("repeats", 0), bool(r.get("escalated", False)))


def compare(h: Harness, full: bool = False) -> list[str]:
    """Every difference between what the tools answer and what the model predicts."""
    room, problems = h.room, list(h.problems)
    h.problems.clear()
    listing = h.tool("list_reminders", include_inactive=True)
    assert listing["ok"], listing
    real = {item["id"]: item for item in listing["result"]["schedules"]}
    compact = {i["id"]: i for i in h.tool("cron_list")["result"]}
    live = set(compact)
    for sid, s in room.schedules.items():
        if s.unspecified:
            continue
        want = model_view(room, s)
        item = real.get(sid)
        if s.status in ("active", "paused") and sid not in live:
            problems.append(f"{sid}: the model has it {s.status}, list_reminders does not list it")
        if s.status not in ("active", "paused") and sid in live:
            problems.append(f"{sid}: the model has it {s.status}, list_reminders lists it")
        if item is not None:
            nf = item["next_fire"]["utc"] if item.get("next_fire") else None
            got = Seen(item["status"], item["enabled"], nf)
            if s.status == "deleted" and got.status == "deleted":
                got = want
            if got != want:
                problems.append(f"{sid}: list says {got}, the model {want}")
            if s.status == "paused" and s.status_reason == "failing" and item.get("status_reason") != "failing":
                problems.append(f"{sid}: paused by the failure policy, status_reason {item.get('status_reason')}")
            held = room.held_until(s) if s.status in ("active", "paused") else None
            got_held = iso_z(parse(item["held_until"])) if item.get("held_until") else None
            if s.status != "deleted" and got_held != (iso_z(held) if held else None):
                problems.append(f"{sid}: held_until {got_held}, the model {iso_z(held) if held else None}")
            if item.get("failure_streak", 0) != s.streak and s.status in ("active", "paused"):
                problems.append(f"{sid}: failure_streak {item.get('failure_streak')}, the model {s.streak}")
        elif s.status != "deleted":
            problems.append(f"{sid}: missing from list_reminders include_inactive (model: {s.status})")
        if s.status in ("active", "paused") and sid in compact:
            c = compact[sid]
            nf = want.next_fire
            local = parse(nf).astimezone(ZoneInfo(s.timezone)).isoformat() if nf else None
            if (c["enabled"], c["next_fire"]) != (want.enabled, local):
                problems.append(
                    f"{sid}: cron_list says {(c['enabled'], c['next_fire'])}, model {(want.enabled, local)}"
                )
        if item is not None and not full and len(s.runs) == h.compared_runs.get(sid, 0):
            # no new run in the model: the item's last_run must not have moved either
            last = item.get("last_run")
            got_last = None if last is None else (parse(last["scheduled_time"]), last["outcome"], last["manual"])
            want_last = None if not s.runs else (s.runs[-1].scheduled, s.runs[-1].outcome, s.runs[-1].manual)
            if s.status != "deleted" and got_last != want_last:
                problems.append(f"{sid}: last_run {got_last}, the model {want_last}")
            continue
        h.compared_runs[sid] = len(s.runs)
        history = h.tool("reminder_history", id=sid, limit=50)
        if not history["ok"]:
            problems.append(f"{sid}: reminder_history refused: {history['error']}")
            continue
        got_runs = sorted((history_view(s, r) for r in history["result"]["runs"]), reverse=True)
        want_runs = sorted((run_view(s, r) for r in s.runs), reverse=True)[:50]
        if got_runs != want_runs:
            problems.append(f"{sid}: history {got_runs}, the model {want_runs}")
    problems += compare_posts(h)
    return problems


def compare_posts(h: Harness) -> list[str]:
    """Each occurrence delivered is posted once (keyed by schedule and slot), each repeat and each
    escalation at most as the model says (keyed `<id>-<slot>-repeat-<k>`, `<id>-<slot>-escalation`);
    notices as the policy says."""
    room = h.room
    got: Counter[tuple[str, str]] = Counter()
    others: Counter[str] = Counter()
    releases: Counter[str] = Counter()
    for message, key in h.chat.sent:
        if "release" in key:
            releases[key] += 1
            mentioned = [u for u in USERS if u in message.mentions]
            if message.thread_id or len(mentioned) != 1 or message.mentions.count(mentioned[0]) != 1:
                h.problems.append(f"the release {key} mentions {message.mentions}, one user once expected")
            continue
        sid, _, rest = key.partition("-")
        slot, tail = rest[:20], rest[20:]
        if tail.startswith("-repeat-"):
            got[(sid, f"{slot} repeat")] += 1
        elif tail == "-escalation":
            got[(sid, f"{slot} escalation")] += 1
            if BOSS not in message.mentions:
                h.problems.append(f"the escalation of {sid} {slot} does not mention {BOSS}")
        elif POST_MARK in message.text:
            got[(sid, slot)] += 1
        else:
            others[sid] += 1
    want: Counter[tuple[str, str]] = Counter()
    notices: Counter[str] = Counter()
    optional: Counter[str] = Counter()
    for post in room.posts:
        if post.what == "occurrence" and post.slot is not None:
            want[(post.schedule, iso_z(post.slot))] += 1
        elif post.what in ("repeat", "escalation") and post.slot is not None:
            want[(post.schedule, f"{iso_z(post.slot)} {post.what}")] += 1
        elif post.what in ("release", "held_occurrence"):
            continue  # compared as release messages
        elif post.what == "works_again":
            optional[post.schedule] += 1
        else:
            notices[post.schedule] += 1
    skip = {sid for sid, s in room.schedules.items() if s.unspecified}
    problems = []
    want_releases = sum(1 for post in room.posts if post.what == "release")
    if sum(releases.values()) != want_releases or any(n != 1 for n in releases.values()):
        problems.append(f"release messages {dict(releases)}, the model {want_releases} (one per user and period)")
    for key in sorted(set(got) | set(want)):
        if key[0] in skip:
            continue
        if got[key] != want[key]:
            problems.append(f"posts of {key}: {got[key]}, the model {want[key]}")
    for sid in sorted(set(others) | set(notices) | set(optional)):
        if sid in skip:
            continue
        if not notices[sid] <= others[sid] <= notices[sid] + optional[sid]:
            problems.append(f"notices about {sid}: {others[sid]}, the model {notices[sid]} (+{optional[sid]} optional)")
    return problems
