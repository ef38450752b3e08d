"""Two to four tool calls on one schedule at once, with its fire and a reconciler pass in flight,
interleaved at every AWS call boundary (tests/support/interleave_many.py), the table's stream applied
promptly, late, again or interleaved across items.

The named regressions are the findings of an attack on the one-writer contract; each failed before
Scheduler had one writer. Then the search: for `make test`, each group's second call at every boundary
of its first, the others whole (nested), and a fixed set of seeded random interleavings; with
CRONBELL_VERIFY=1, seeded random groups for CRONBELL_VERIFY_GROUPS (default 150). The figures
(`concurrent interleavings`) are printed at the end of the run.
"""

from __future__ import annotations

import os
import random
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from tests.support import figures
from tests.support.aws import Stack
from tests.support.interleave_cells import (
    AGENT,
    DELETE,
    MOVE_CRON,
    NEW,
    ONE_SHOT,
    PAUSE,
    RECURRING,
    RESUME,
    RUN_NOW,
    SKIP,
    SNOOZE,
    TEXT,
    paused,
)
from tests.support.interleave_many import WAIT, Group, judge_group, play_group, random_order
from tests.support.interleave_verdict import Change, verdict
from tests.support.stream_play import MODES

pytestmark = pytest.mark.slow

# written out by hand (Madrid is UTC+1 in winter)
MOVE_11 = Change(
    "update_reminder",
    {"time": "2026-11-30 11:00"},
    "move",
    occurrences=(datetime(2026, 11, 30, 10, tzinfo=UTC),),
)
MOVE_12 = Change(
    "update_reminder",
    {"time": "2026-11-30 12:00", "message": NEW},
    "move",
    text=NEW,
    occurrences=(datetime(2026, 11, 30, 11, tzinfo=UTC),),
)


def _daily(hour: int, minute: int) -> tuple[datetime, ...]:
    """Days 0..3 (30 November to 3 December 2026) at hour:minute UTC."""
    return tuple(datetime(2026, 11, 30, hour, minute, tzinfo=UTC) + timedelta(days=d) for d in range(4))


AT_0903 = Change("update_reminder", {"cron": "3 10 * * *"}, "move", occurrences=_daily(9, 3))
AT_0915 = Change("update_reminder", {"cron": "15 10 * * *"}, "move", occurrences=_daily(9, 15))


def judged(base: Stack, group: Group, work: Path) -> list[str]:
    problems = judge_group(base, group, work)
    tally(group, problems)
    return problems


def tally(group: Group, problems: list[str]) -> None:
    figures.add(
        "concurrent interleavings",
        interleavings=1,
        calls=len(group.changes),
        with_fire=int(group.fire),
        with_reconciler=int(group.reconciler),
        violations=len(problems),
    )


# --- the attack's findings ---------------------------------------------------------------------


def test_three_updates_of_a_one_shot_at_once_leave_the_entry_the_listing_shows(base: Stack, tmp_path: Path) -> None:
    """Three update_reminder calls at once on a one-shot: the first stops after its first AWS call, the
    others run whole, then it goes on. The call that lost the race put the Scheduler entry back as it
    had read it (10:00) over the one the winner wrote: listed 11:00, never posted, later `missed`."""
    for first in range(1, 4):
        group = Group(ONE_SHOT, (MOVE_11, TEXT, MOVE_12), fire=False, order=((0, first), (1, None), (2, None)))
        problems = judged(base, group, tmp_path)
        assert not problems, problems


def test_four_snoozes_of_a_one_shot_at_once_post_the_snoozed_reminder(base: Stack, tmp_path: Path) -> None:
    """Four snooze_reminder calls at once (a button tapped while the model snoozes too), each stopped
    after its first AWS call in turn: the snoozed post was never sent."""
    group = Group(ONE_SHOT, (SNOOZE,) * 4, fire=False, order=((0, 1), (1, 1), (2, 1), (3, None)))
    played = play_group(base, group, tmp_path)
    problems = played.problems + verdict(played.observation)
    tally(group, problems)
    assert not problems, problems
    assert [p for p in played.observation.posts if not p.manual], "the snoozed reminder was never posted"


def test_a_resume_racing_three_cron_updates_of_a_paused_daily_reminder_fires_as_listed(
    base: Stack, tmp_path: Path
) -> None:
    """resume_reminder and three cron updates at once on a paused daily reminder, a reconciler pass in
    flight: listed `active` at 09:03 while its entry still said 09:00 (or stayed disabled), silent for
    days, the reconciler seeing nothing wrong."""
    group = Group(
        paused(RECURRING),
        (RESUME, MOVE_CRON, AT_0903, AT_0915),
        fire=False,
        reconciler=True,
        order=((0, 1), (4, 3), (0, 1), (3, 2), (4, 2)),
    )
    problems = judged(base, group, tmp_path)
    assert not problems, problems


def test_run_now_during_a_slow_delivery_of_the_same_agent_call_is_delivered_after_it(
    base: Stack, tmp_path: Path
) -> None:
    """run_now answered ok while a slow delivery of the same agent call holds it (the agent takes four
    minutes): its manual fire met the delivery on every one of Lambda's attempts and was lost, no post
    and no run. It must be posted once afterwards, with a manual run in the history."""
    group = Group(AGENT, (RUN_NOW,), order=((0, 2), (1, None), (WAIT, 4)))
    played = play_group(base, group, tmp_path)
    problems = played.problems + verdict(played.observation)
    tally(group, problems)
    assert not problems, problems
    assert played.observation.changes[0][1].ok
    manual = [p for p in played.observation.posts if p.manual]
    assert len(manual) == 1, played.observation.posts
    assert [r.outcome for r in played.observation.runs if r.manual] == ["delivered"]


# --- the search ---------------------------------------------------------------------------------

# (kind, calls, with the fire in flight, with a reconciler pass): what users do at once
GROUPS: dict[str, tuple[Group, ...]] = {
    "one-shot moved, renamed and snoozed": (Group(ONE_SHOT, (MOVE_11, TEXT, SNOOZE), fire=False),),
    "one-shot at its fire": (Group(ONE_SHOT, (MOVE_12, SNOOZE, RUN_NOW)),),
    "recurring at its fire": (Group(RECURRING, (TEXT, SKIP, PAUSE), reconciler=True),),
    "recurring paused, resumed and moved": (Group(paused(RECURRING), (RESUME, AT_0903, PAUSE), fire=False),),
    "agent call run and changed": (Group(AGENT, (RUN_NOW, MOVE_CRON)),),
    "recurring deleted while changed": (Group(RECURRING, (DELETE, SNOOZE, AT_0915, SKIP), fire=False),),
}
MAKE_TEST_RANDOM = 1  # seeded random interleavings of each group in `make test`


def nested(group: Group, boundaries: int) -> list[Group]:
    """The group's second actor at every boundary of its first (0..boundaries), the rest whole."""
    return [Group(**{**vars(group), "order": ((0, k), (1, None))}) for k in range(boundaries + 1)]


def sampled(group: Group, rng: random.Random, n: int) -> list[Group]:
    actors = len(group.actors)
    out = []
    for _ in range(n):
        order = random_order(rng, actors, waits=group.fire)
        mode = rng.choice(MODES)
        out.append(Group(**{**vars(group), "order": order, "stream": mode, "seed": rng.randrange(10**6)}))
    return out


@pytest.mark.parametrize("name", list(GROUPS))
def test_changes_at_once_keep_the_contract(base: Stack, tmp_path: Path, name: str) -> None:
    problems: list[str] = []
    rng = random.Random(name)
    for group in GROUPS[name]:
        for cell in nested(group, 3) + sampled(group, rng, MAKE_TEST_RANDOM):
            problems += judged(base, cell, tmp_path)
    assert not problems, "\n".join(problems)


# --- the long search's findings (`make verify`, seed 243918) -------------------------------------------


def test_a_snooze_under_way_ends_before_minutes_pass(base: Stack, tmp_path: Path) -> None:
    """The search let four minutes pass inside a snooze_reminder call of a one-shot posted already,
    then judged its answer (30 minutes from when it started) against when its write landed. The tools function's timeout
    (30 s) ends any call long before: a call under way ends first, and the answer is the one the
    reminder keeps."""
    order = ((1, 1), (1, 1), (2, 3), (0, 1), (3, 1), (0, 1), (WAIT, 4), (1, 1), (3, 2), (WAIT, 2), (0, 1), (4, 3))
    order += ((3, 1), (WAIT, 4), (2, 1), (3, 3), (2, 3), (4, 1), (2, 2))
    group = Group(ONE_SHOT, (RUN_NOW, PAUSE, TEXT, SNOOZE), order=order, stream="late", seed=568320)
    problems = judged(base, group, tmp_path)
    assert not problems, problems


def test_a_run_now_whose_schedule_is_deleted_before_its_turn_runs_nothing(base: Stack, tmp_path: Path) -> None:
    """run_now answered ok, then delete_reminder answered ok before the manual fire ran (a reconciler
    pass in flight holds back Lambda's invoke here): nothing is posted and the verdict asks for no run
    (docs/semantics.md: a schedule deleted meanwhile runs nothing, its owner asked for that after)."""
    group = Group(RECURRING, (RUN_NOW, DELETE), fire=False, reconciler=True, order=((2, 1), (0, None), (1, None)))
    played = play_group(base, group, tmp_path)
    problems = played.problems + verdict(played.observation)
    tally(group, problems)
    assert [a.ok for _, a in played.observation.changes] == [True, True]
    assert not problems, problems
    assert not [p for p in played.observation.posts if p.manual]


def test_a_refused_pause_that_finds_a_fired_one_shot_not_moved_yet_changes_nothing(base: Stack, tmp_path: Path) -> None:
    """(`make verify`, seed 118575) The fire retired the one-shot under its live key; pause_reminder read it
    before the projector moved it, moved it itself, as any reader does, and answered `not_found`. The move
    is the projector's work, whoever does it first, and changes nothing a user sees: the refusal changed
    nothing of its own."""
    order = ((2, 3), (0, 1), (2, 3), (2, 1), (4, 1), (4, 3), (1, 1), (0, 1), (0, 2), (1, 2), (0, 1), (0, 2))
    group = Group(ONE_SHOT, (PAUSE, RUN_NOW, MOVE_11), reconciler=True, order=order, stream="interleaved", seed=645198)
    problems = judged(base, group, tmp_path)
    assert not problems, problems


def test_random_groups_of_changes_at_once_when_verifying(base: Stack, tmp_path: Path) -> None:
    """`make verify` (CRONBELL_VERIFY=1): seeded random groups of 2 to 4 calls on one schedule, with
    its fire and a reconciler pass in flight or not. CRONBELL_VERIFY_SEED replays them."""
    if os.environ.get("CRONBELL_VERIFY") != "1":
        return
    seed = int(os.environ.get("CRONBELL_VERIFY_SEED") or random.SystemRandom().randrange(10**6))
    n = int(os.environ.get("CRONBELL_VERIFY_GROUPS") or 150)
    print(f"\nconcurrent interleavings: seed {seed}, {n} groups (CRONBELL_VERIFY_SEED={seed} replays them)")
    rng = random.Random(seed)
    kinds = [
        (ONE_SHOT, (MOVE_11, MOVE_12, TEXT, SNOOZE, PAUSE, DELETE, RUN_NOW)),
        (RECURRING, (TEXT, MOVE_CRON, AT_0903, SKIP, SNOOZE, PAUSE, DELETE, RUN_NOW)),
        (AGENT, (MOVE_CRON, SKIP, PAUSE, DELETE, RUN_NOW)),
        (paused(RECURRING), (RESUME, AT_0903, AT_0915, PAUSE, DELETE)),
    ]
    problems: list[str] = []
    for _ in range(n):
        kind, changes = rng.choice(kinds)
        calls = tuple(rng.choice(changes) for _ in range(rng.randint(2, 4)))
        group = Group(kind, calls, fire=not kind.pause_first and rng.random() < 0.6, reconciler=rng.random() < 0.4)
        problems += judged(base, sampled(group, rng, 1)[0], tmp_path)
    assert not problems, f"seed {seed}:\n" + "\n".join(problems)


# --- what the search found in the one-writer code -----------------------------------------------


@pytest.mark.parametrize("change", [PAUSE, AT_0903], ids=["pause_reminder", "update_reminder cron"])
def test_a_change_landing_during_a_reconciler_pass_is_what_scheduler_keeps(
    base: Stack, tmp_path: Path, change: Change
) -> None:
    """The reconciler read the schedule, the change landed and was projected, then the reconciler
    compared the version it had read with the entry and wrote that version back: listed paused (or
    at 09:03), the entry enabled at 09:00 until the next pass. (Before, its comparison raised on every
    entry that existed.)"""
    group = Group(RECURRING, (change,), fire=False, reconciler=True, order=((1, 1), (0, None), (1, None)))
    problems = judged(base, group, tmp_path)
    assert not problems, problems


def test_a_manual_fire_that_meets_a_delivery_started_after_run_now_is_delivered_after_it(
    base: Stack, tmp_path: Path
) -> None:
    """run_now answered while nothing held the agent call; its manual fire came in a minute later,
    while the regular fire (which claimed its slot meanwhile) was still delivering, and waited in the
    item under its ledger key (`<time>~manual`): the entry that was to start it once that delivery ended
    carried that key as its scheduled time, so the fire refused it as invalid input: no post, no run."""
    group = Group(AGENT, (RUN_NOW,), order=((0, 1), (1, None), (0, 1), (WAIT, 1)))
    played = play_group(base, group, tmp_path)
    problems = played.problems + verdict(played.observation)
    tally(group, problems)
    assert not problems, problems
    assert [r.outcome for r in played.observation.runs if r.manual] == ["delivered"]


def test_two_runs_started_by_hand_behind_one_long_delivery_are_both_delivered_in_turn(
    base: Stack, tmp_path: Path
) -> None:
    """Two run_now calls two minutes apart (a deployment whose MIN_INTERVAL_MINUTES is 1), both while
    one slow delivery of the agent call holds it (`make verify`, seed 865979): the second could not wait
    beside the first, started at once, and its record cleared the first one's waiting slot: answered ok,
    never posted, no run. Both wait now and are delivered after that delivery, the earlier first."""
    group = Group(AGENT, (RUN_NOW, RUN_NOW), order=((0, 2), (1, None), (WAIT, 2), (2, None), (WAIT, 2), (0, None)))
    stack = replace(base, settings=replace(base.settings, min_interval_minutes=1))
    played = play_group(stack, group, tmp_path)
    problems = played.problems + verdict(played.observation)
    tally(group, problems)
    assert not problems, problems
    assert [a.result.get("waiting") for _, a in played.observation.changes] == [True, True]
    manual = [p.slot for p in played.observation.posts if p.manual]
    assert manual == sorted(manual) and len(manual) == 2, played.observation.posts


def test_a_run_started_by_hand_whose_schedule_is_paused_before_its_turn_is_recorded_skipped(
    base: Stack, tmp_path: Path
) -> None:
    """run_now answered ok (waiting) during a delivery of the agent call; that delivery ended and
    pause_reminder landed before the waiting run's turn (`make verify`, seed 93559): its entry went with
    the pause, so the run was neither posted nor recorded. Its entry stays now, and at its turn the run
    is recorded skipped (paused), as any manual fire meeting a paused schedule is."""
    group = Group(AGENT, (RUN_NOW, PAUSE), order=((0, 2), (1, None), (0, None), (2, None)))
    played = play_group(base, group, tmp_path)
    problems = played.problems + verdict(played.observation)
    tally(group, problems)
    assert not problems, problems
    assert [a.ok for _, a in played.observation.changes] == [True, True]
    assert [(r.outcome, r.reason) for r in played.observation.runs if r.manual] == [("skipped", "paused")]


def test_a_delete_lands_with_its_delete_item_not_with_the_audit_copy_it_completes_after(
    base: Stack, tmp_path: Path
) -> None:
    """delete_reminder of a schedule that ran (a run_now delivered first) writes twice: the DeleteItem of the
    live item, then the audit copy's run fields. The fire came between the two, found no live item and ran
    nothing, as it must (docs/semantics.md: a schedule deleted meanwhile runs nothing); the verdict had
    placed the delete at its second write, after the fire, and asked for a run (`make verify`, seed 658097)."""
    order = ((3, 3), (3, 3), (2, 1), (5, 1), (3, 2), (5, 2), (5, 2), (3, 2), (1, 3), (4, 3), (5, 2), (5, 1))
    order += ((4, 1), (5, 2), (0, 3), (2, 1), (3, 1), (4, 3), (1, 2), (1, 3), (0, 1))
    calls = (RUN_NOW, DELETE, RUN_NOW, SKIP)
    group = Group(AGENT, calls, fire=True, reconciler=True, order=order, stream="again", seed=891432)
    played = play_group(base, group, tmp_path)
    problems = played.problems + verdict(played.observation)
    tally(group, problems)
    assert not problems, problems
    assert [(c.tool, a.ok) for c, a in played.observation.changes] == [
        ("run_now", False),
        ("delete_reminder", True),
        ("run_now", True),
        ("skip_next", False),
    ]
    assert [p for p in played.observation.posts if p.manual] and not [
        r for r in played.observation.runs if not r.manual
    ]


def test_a_run_started_by_hand_whose_schedule_is_deleted_before_its_turn_runs_nothing(
    base: Stack, tmp_path: Path
) -> None:
    """run_now answered ok (started); its manual fire met the agent call's delivery under way and
    waited its turn; that delivery ended and delete_reminder landed before the turn (`make verify`, seed
    753865): nothing is posted and no run is recorded, as for a delete before the manual fire
    (docs/semantics.md). The verdict had taken the fire that only waited for the run's end."""
    order = ((0, 1), (4, 1), (5, 3), (1, 3), (5, 3), (0, 2), (4, 3), (4, 1), (WAIT, 1), (3, 1), (3, 3), (3, 1))
    order += ((5, 2), (0, 3), (0, 2), (4, 3), (1, 2), (5, 1), (4, 2), (5, 3), (2, 1), (1, 1))
    calls = (RUN_NOW, DELETE, DELETE, PAUSE)
    group = Group(AGENT, calls, reconciler=True, order=order, stream="interleaved", seed=130579)
    played = play_group(base, group, tmp_path)
    problems = played.problems + verdict(played.observation)
    tally(group, problems)
    assert not problems, problems
    assert [a.ok for _, a in played.observation.changes][:2] == [True, True]  # run_now, then the delete
    assert [r for r in played.observation.reached if r.manual and r.waited]
    assert not [p for p in played.observation.posts if p.manual]
    assert not [r for r in played.observation.runs if r.manual]


def test_a_fire_under_way_is_slow_up_to_its_timeout_and_no_longer(base: Stack, tmp_path: Path) -> None:
    """Minutes passed inside one fire attempt, between its claim and its post, until its claim's lease
    ended; update_reminder then landed and was answered ok, and the post still went out with the old
    text (`make verify`, seed 847299). Lambda ends the attempt at the fire function's timeout, before
    the lease does: a wait under a fire lasts until then, and the change meets the delivery under way."""
    group = Group(RECURRING, (TEXT,), order=((0, 2), (WAIT, 4), (WAIT, 4), (1, None), (0, None)))
    problems = judged(base, group, tmp_path)
    assert not problems, problems


def test_a_delete_landing_during_a_reconciler_pass_leaves_no_entry(base: Stack, tmp_path: Path) -> None:
    """The reconciler read the schedule; delete_reminder removed it and its entry; the reconciler found
    the entry missing and wrote it again, then read the schedule again: its audit copy, of the same
    version, so the repair was kept, an entry firing a deleted schedule."""
    group = Group(RECURRING, (DELETE,), fire=False, reconciler=True, order=((1, 1), (0, None), (1, None)))
    problems = judged(base, group, tmp_path)
    assert not problems, problems


def test_a_one_shot_paused_and_deleted_after_its_fire_leaves_no_entry(base: Stack, tmp_path: Path) -> None:
    """Scheduler fired a one-shot and removed its entry; pause_reminder then landed while the fire ran,
    and the projection wrote the entry again, disabled; delete_reminder kept it (a one-time entry whose
    time has come goes by itself): a disabled entry left for ever."""
    group = Group(ONE_SHOT, (PAUSE, DELETE), order=((1, None), (0, None), (2, None)))
    problems = judged(base, group, tmp_path)
    assert not problems, problems


def test_a_run_started_by_hand_that_waits_for_a_one_shots_late_delivery_is_delivered_after_it_fired(
    base: Stack, tmp_path: Path
) -> None:
    """run_now answered ok while the one-shot's own fire, four minutes late, had not claimed it yet;
    its manual fire then met that delivery and waited its turn; the delivery fired the one-shot, and
    its live item left with the run still waiting (`make verify`, seed 727298): the waiting entry went
    with it and the run was never posted. The retired copy keeps the waiting run, and its entry stays:
    the run is delivered once, after the one-shot fired, as a run_now answered ok always is."""
    order = ((5, 3), (5, 3), (5, 2), (WAIT, 4), (4, 1), (4, 1), (2, 3), (2, 1), (0, 2), (4, 1), (WAIT, 4))
    order += ((2, 1), (1, 2), (2, 3))
    group = Group(ONE_SHOT, (MOVE_12, RUN_NOW, MOVE_12, TEXT), reconciler=True, order=order, stream="late", seed=730098)
    played = play_group(base, group, tmp_path)
    problems = played.problems + verdict(played.observation)
    tally(group, problems)
    assert not problems, problems
    assert [r.outcome for r in played.observation.runs if r.manual] == ["delivered"]
