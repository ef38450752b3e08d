"""The verdict of one interleaving cell: what the room saw, what the tools answered and what the
history says, judged from the public contracts alone.

Nothing here imports cronbell: the verdict works out what the schedule should have done from the
schedule as created (its occurrences, written out by the test), the changes and their answers, and
nothing else, so a defect in cronbell's own timing code cannot hide itself.

The rules (one function, `verdict`):
- a change answered ok takes effect, from its answer on: every post after the answer follows the
  changed schedule (its text, its times, its end); every occurrence it still delivers is posted;
- a change refused (`busy`, or not live any more, ...) changed nothing: the table and the Scheduler
  entries are as they were before the call;
- nothing is posted twice (per schedule and scheduled time), and cronbell sends a slot once unless
  an attempt died between its post and its record (the platform's idempotency key then drops it);
- no occurrence is lost without a run: every occurrence that reached the fire function has exactly
  one run in reminder_history (a skipped one `skipped`, a posted one `delivered`), and no run exists
  for a time that never reached it; a run started by hand that waited for a delivery under way is
  judged at its turn (a delete before then leaves it without a run, as one before its fire does).

An occurrence is required to be posted when the schedule in force when it fell due delivers it and
so does the schedule in force once its fire was over (a pause or a delete after its read stops it; a
resume after its read may or may not bring it back). Changes are placed by their answer's instant on
the fake clock (`at`) for what falls due, and by their place among the fire's AWS calls (`seq`) for
what a post may show.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from typing import Any

SNOOZE = timedelta(minutes=30)  # the cells snooze by 30 minutes
# refusals a change may meet in a cell (its arguments are always valid): a delivery holds the
# schedule, the schedule is not live any more, or not in a state the tool applies to
REFUSALS_ALLOWED = {"busy", "backend_error", "not_found", "invalid_state", "time_in_past", "too_frequent"}


def minute(t: datetime) -> datetime:
    """Scheduler's precision is one minute: times are compared to the minute."""
    return t.replace(second=0, microsecond=0)


@dataclass(frozen=True)
class Plan:
    """The schedule as created: its regular occurrences within the cell's horizon, in order."""

    occurrences: tuple[datetime, ...]
    text: str  # what its posts show (a reminder's text, or the agent's answer to its prompt)
    recurring: bool
    count: int | None = None
    paused: bool = False  # created, then paused before the fire (Scheduler's invoke raced the pause)


@dataclass(frozen=True)
class Change:
    """A change tool and what it means, written by the test (never read back from cronbell)."""

    tool: str
    args: dict[str, Any]
    effect: str  # text | move | count | until | skip | snooze | pause | resume | delete | run_now
    text: str = ""  # effect text: the new text posts show
    occurrences: tuple[datetime, ...] = ()  # effect move: the new occurrences in the horizon
    count: int | None = None  # effect count
    until: datetime | None = None  # effect until


@dataclass(frozen=True)
class Answer:
    ok: bool
    code: str  # the error code's family ("" when ok)
    seq: int  # its place among the cell's AWS calls, posts and answers
    at: datetime  # the fake clock when it answered
    result: dict[str, Any]
    changed: bool  # whether the table or the Scheduler entries differ from before the call


@dataclass(frozen=True)
class Post:
    seq: int
    slot: datetime
    manual: bool
    text: str
    at: datetime


@dataclass(frozen=True)
class Reached:
    """One event that reached the fire function (all of Lambda's attempts at it)."""

    slot: datetime
    manual: bool
    started_seq: int
    ended_seq: int
    dead_lettered: bool  # every attempt raised: the event went to the on-failure destination
    waited: bool = False  # a run started by hand that found a delivery under way: its turn comes later


@dataclass(frozen=True)
class Run:
    slot: datetime
    outcome: str
    reason: str | None
    manual: bool


@dataclass
class Observation:
    plan: Plan
    changes: list[tuple[Change, Answer]]
    posts: list[Post]  # what the room shows: one per idempotency key
    sends: Counter[tuple[datetime, bool]]  # every send cronbell made, per (slot, manual)
    reached: list[Reached]
    runs: list[Run]
    horizon: datetime  # Scheduler's fires were played up to here
    died_after_post: bool = False  # an attempt died (or crashed) between a post and its record
    notes: list[str] = field(default_factory=list)


# --- the schedule in force ----------------------------------------------------------------------


@dataclass(frozen=True)
class Definition:
    base: tuple[datetime, ...]
    text: str
    recurring: bool
    count: int | None = None
    until: datetime | None = None
    skips: frozenset[datetime] = frozenset()
    snoozes: tuple[tuple[datetime, datetime], ...] = ()  # (occurrence, where it went)
    manual: tuple[datetime, ...] = ()
    paused: bool = False
    deleted: bool = False
    # occurrences whose event went to the dead-letter queue (every Lambda attempt raised): not
    # delivered, so not counted, and with no run to show (the queue holds them)
    lost: frozenset[datetime] = frozenset()

    def regular(self) -> list[tuple[datetime, str]]:
        """Each regular occurrence in order with its fate: `post`, `skip` (skipped or snoozed away),
        `lost` (dead-lettered) or `end` (past until or count, no run); a snooze's target is an
        occurrence of its own."""
        moved = dict(self.snoozes)
        times = sorted(set(self.base) | set(moved.values()))
        out: list[tuple[datetime, str]] = []
        delivered = 0
        for t in times:
            past_until = self.until is not None and t > self.until and t not in moved.values()
            if past_until or (self.count is not None and delivered >= self.count):
                out.append((t, "end"))
            elif t in self.skips or t in moved:  # lost or not, it would never post: not ahead
                out.append((t, "skip"))
            elif minute(t) in self.lost:
                out.append((t, "lost"))
            else:
                out.append((t, "post"))
                delivered += 1
        return out

    def deliverable(self) -> set[tuple[datetime, bool]]:
        """(time, manual) of what it posts."""
        if self.deleted or self.paused:
            return set()
        regular = {(minute(t), False) for t, fate in self.regular() if fate == "post"}
        return regular | {(minute(t), True) for t in self.manual}

    def occurrences(self) -> set[tuple[datetime, bool]]:
        """(time, manual) of what ends as a run when it reaches the fire function."""
        if self.deleted:
            return set()
        regular = {(minute(t), False) for t, fate in self.regular() if fate in ("post", "skip")}
        return regular | {(minute(t), True) for t in self.manual}

    def skipped(self) -> set[datetime]:
        return {minute(t) for t, fate in self.regular() if fate == "skip"}

    def upcoming(self, now: datetime, done: set[datetime]) -> datetime | None:
        """The next regular occurrence still to be posted: after `now`, and not posted already
        (`done`: a fire may come up to a minute early)."""
        ahead = (t for t, fate in self.regular() if fate in ("post", "lost") and t > now and minute(t) not in done)
        return next(ahead, None)  # (what is lost to the dead-letter queue later was still ahead then)


def initial(plan: Plan) -> Definition:
    return Definition(plan.occurrences, plan.text, plan.recurring, plan.count, paused=plan.paused)


def applied(d: Definition, change: Change, answer: Answer, done: set[datetime]) -> tuple[Definition, list[str]]:
    """The schedule after a change answered ok at `answer.at` (`done`: the occurrences posted
    before it), and what the answer got wrong."""
    wrong: list[str] = []
    e = change.effect
    if e == "text":
        return replace(d, text=change.text), wrong
    if e == "move":  # a new time forgets what was skipped or snoozed
        return replace(d, base=change.occurrences, skips=frozenset(), snoozes=(), text=change.text or d.text), wrong
    if e == "count":
        return replace(d, count=change.count), wrong
    if e == "until":
        return replace(d, until=change.until), wrong
    if e == "skip":
        skipped = _instant(answer.result.get("skipped"))
        expected = d.upcoming(answer.at, done)
        # (with nothing left to post, a skip is moot: a count reached by the delivery under way)
        if skipped is None or (expected is not None and minute(skipped) != minute(expected)):
            wrong.append(f"skip_next skipped {skipped}, not the next occurrence {expected}")
        return replace(d, skips=d.skips | ({skipped} if skipped else set())), wrong
    if e == "snooze":
        said = _instant(answer.result.get("next_fire"))
        if d.recurring:
            nxt = d.upcoming(answer.at, done)
            if nxt is None:
                wrong.append("snoozed with no occurrence to snooze")
                return d, wrong
            target = nxt + SNOOZE
            if said is not None and minute(said) != minute(target):
                wrong.append(f"snooze answered next fire {said}, not {target}")
            return replace(d, snoozes=(*d.snoozes, (nxt, target))), wrong
        pending = not d.paused and d.base and d.base[0] > answer.at
        target = (d.base[0] if pending else answer.at) + SNOOZE
        if said is None or abs((said - target).total_seconds()) > 60:
            wrong.append(f"snooze answered next fire {said}, not {target}")
        target = said or target
        return replace(d, base=(target,), skips=frozenset(), paused=False), wrong
    if e == "pause":
        return replace(d, paused=True), wrong
    if e == "resume":
        return replace(d, paused=False), wrong
    if e == "delete":
        return replace(d, deleted=True), wrong
    if e == "run_now":
        slot = _instant(answer.result.get("scheduled_time"))
        if slot is None:
            wrong.append("run_now answered ok without the manual run's time")
            return d, wrong
        return replace(d, manual=(*d.manual, slot)), wrong
    raise ValueError(f"unknown effect {e}")


def _instant(value: Any) -> datetime | None:
    if isinstance(value, dict):  # {"local", "utc"}
        value = value.get("utc")
    if not isinstance(value, str) or not value:
        return None
    return datetime.fromisoformat(value.replace("Z", "+00:00"))


# --- the verdict ------------------------------------------------------------------------------


def verdict(obs: Observation) -> list[str]:
    """Every way the cell broke the rules of the module docstring (empty: it kept them)."""
    problems: list[str] = []
    lost = frozenset(minute(r.slot) for r in obs.reached if r.dead_lettered and not r.manual)
    dead = {(minute(r.slot), r.manual) for r in obs.reached if r.dead_lettered}
    epochs: list[tuple[int, datetime, Definition]] = [
        (-1, datetime.min.replace(tzinfo=obs.horizon.tzinfo), replace(initial(obs.plan), lost=lost))
    ]
    for change, answer in sorted(obs.changes, key=lambda ca: ca[1].seq):
        label = f"{change.tool} {change.args}"
        if not answer.ok:
            if answer.changed:
                problems.append(f"{label} was refused ({answer.code}) but changed the table or its entries")
            # a new end the schedule has already reached is refused as an argument
            ends = change.effect in ("count", "until") and answer.code == "invalid_arguments"
            if answer.code not in REFUSALS_ALLOWED and not ends:
                problems.append(f"{label} was refused with {answer.code}")
            continue
        done = {minute(p.slot) for p in obs.posts if p.seq < answer.seq and not p.manual}
        d, wrong = applied(epochs[-1][2], change, answer, done)
        problems += [f"{label}: {w}" for w in wrong]
        epochs.append((answer.seq, answer.at, d))

    def by_seq(seq: int) -> Definition:
        return [d for s, _, d in epochs if s < seq][-1]

    def by_time(t: datetime) -> Definition:
        return [d for s, at, d in epochs if at <= t or s == -1][-1]

    def fate_end(key: tuple[datetime, bool]) -> Definition:
        """The schedule in force once the event of this time was over (or at the end, never reached). A
        manual fire that waited for a delivery under way is not its run's end: its turn is (a schedule
        deleted before then runs nothing, docs/semantics.md)."""
        ended = [r.ended_seq for r in obs.reached if (minute(r.slot), r.manual) == key and not r.waited]
        return by_seq(max(ended) + 1) if ended else epochs[-1][2]

    posted: Counter[tuple[datetime, bool]] = Counter()
    for p in obs.posts:
        key = (minute(p.slot), p.manual)
        posted[key] += 1
        d = by_seq(p.seq)
        what = f"{'manual run' if p.manual else 'occurrence'} {p.slot.isoformat()}"
        if key not in d.deliverable() and key not in dead:  # a dead-lettered post: see its runs
            problems.append(f"{what} posted although the schedule in force does not deliver it")
        if d.text not in p.text:
            problems.append(f"{what} posted {p.text!r}, not the text in force {d.text!r}")
    for key, n in posted.items():
        if n > 1:
            problems.append(f"{key[0].isoformat()} posted {n} times")
    for key, n in obs.sends.items():
        if n > 1 and not obs.died_after_post:
            problems.append(f"{key[0].isoformat()} sent {n} times with no attempt dead after its post")

    # what must be posted: delivered by the schedule in force when it fell due and once it was over
    due = set()
    for _, _, d in epochs:
        due |= {k for k in d.deliverable() if k[0] <= obs.horizon}
    for key in sorted(due):
        t, manual = key
        needed = key in by_time(t).deliverable() and key in fate_end(key).deliverable()
        if manual:  # a manual run is due when run_now answered
            needed = key in fate_end(key).deliverable()
        if needed and not posted[key] and key not in dead:
            problems.append(f"{'manual run' if manual else 'occurrence'} {t.isoformat()} never posted")

    runs: dict[tuple[datetime, bool], list[Run]] = {}
    for run in obs.runs:
        runs.setdefault((minute(run.slot), run.manual), []).append(run)
    reached = {(minute(r.slot), r.manual): r for r in obs.reached}
    for key, found in runs.items():
        if len(found) > 1:
            problems.append(f"{key[0].isoformat()} has {len(found)} runs")
        if key not in reached:
            problems.append(f"a run for {key[0].isoformat()}, which never reached the fire function")
    for key, r in reached.items():
        found = runs.get(key, [])
        outcomes = [run.outcome for run in found]
        if posted[key] and outcomes != ["delivered"]:
            problems.append(f"{key[0].isoformat()} was posted but its runs are {outcomes}")
            continue
        if not posted[key] and "delivered" in outcomes:
            problems.append(f"{key[0].isoformat()} has a delivered run but was never posted")
        d_due, d_end = by_time(key[0]), fate_end(key)
        occurrence = key in d_end.occurrences() and (key[1] or key in d_due.occurrences())
        if occurrence and not found and not r.dead_lettered:
            problems.append(f"{key[0].isoformat()} reached the fire function and has no run")
        if key[0] in d_end.skipped() and not key[1] and found and outcomes != ["skipped"]:
            problems.append(f"{key[0].isoformat()} was skipped but its runs are {outcomes}")
    return problems
