"""The interleaving verdict on hand-written observations: it passes what keeps the rules and names
each way of breaking them (no AWS, no cronbell)."""

from __future__ import annotations

from collections import Counter
from datetime import UTC, datetime, timedelta

from tests.support.interleave_verdict import Answer, Change, Observation, Plan, Post, Reached, Run, verdict

S0 = datetime(2026, 11, 30, 9, tzinfo=UTC)
S1 = S0 + timedelta(days=1)
DAILY = Plan((S0, S1), "OLD", recurring=True)
TEXT = Change("update_reminder", {"message": "NEW"}, "text", text="NEW")
PAUSE = Change("pause_reminder", {}, "pause")
SKIP = Change("skip_next", {}, "skip")
SECOND = timedelta(seconds=1)


def observe(
    posts: list[Post],
    runs: list[Run],
    changes: list[tuple[Change, Answer]] = (),  # type: ignore[assignment]
    reached: list[Reached] | None = None,
    sends: Counter[tuple[datetime, bool]] | None = None,
) -> Observation:
    if reached is None:
        reached = [Reached(S0, False, 1, 10, False), Reached(S1, False, 20, 30, False)]
    if sends is None:
        sends = Counter((p.slot, p.manual) for p in posts)
    return Observation(DAILY, list(changes), posts, sends, reached, runs, horizon=S1 + timedelta(hours=1))


def post(seq: int, slot: datetime, text: str = "⏰ OLD") -> Post:
    return Post(seq, slot, False, text, slot + SECOND)


def delivered(slot: datetime) -> Run:
    return Run(slot, "delivered", None, False)


def ok(seq: int, at: datetime, **result: object) -> Answer:
    return Answer(True, "", seq, at, dict(result), changed=True)


def test_every_occurrence_posted_once_with_its_run_keeps_the_rules() -> None:
    assert verdict(observe([post(5, S0), post(25, S1)], [delivered(S0), delivered(S1)])) == []


def test_a_second_post_of_one_occurrence_is_named() -> None:
    posts = [post(5, S0), Post(6, S0, False, "⏰ OLD", S0), post(25, S1)]
    found = verdict(observe(posts, [delivered(S0), delivered(S1)], sends=Counter({(S0, False): 2, (S1, False): 1})))
    assert any("posted 2 times" in p for p in found) and any("sent 2 times" in p for p in found)


def test_an_occurrence_that_reached_the_fire_function_with_no_run_is_named() -> None:
    """Paused between the fire's read and its claim: nothing is posted (right), and no run (wrong)."""
    reached = [Reached(S0, False, 1, 10, False)]
    found = verdict(observe([], [], [(PAUSE, ok(3, S0 + SECOND))], reached=reached))
    assert found == [f"{S0.isoformat()} reached the fire function and has no run"]
    paused_run = Run(S0, "skipped", "paused", False)
    assert verdict(observe([], [paused_run], [(PAUSE, ok(3, S0 + SECOND))], reached=reached)) == []


def test_the_old_text_posted_after_a_new_one_was_answered_ok_is_named() -> None:
    found = verdict(observe([post(5, S0), post(25, S1, "⏰ NEW")], [delivered(S0), delivered(S1)], [(TEXT, ok(3, S0))]))
    assert len(found) == 1 and "not the text in force 'NEW'" in found[0]


def test_a_new_text_answered_after_a_post_leaves_that_post_as_it_was() -> None:
    changes = [(TEXT, ok(7, S0 + SECOND))]
    assert verdict(observe([post(5, S0), post(25, S1, "⏰ NEW")], [delivered(S0), delivered(S1)], changes)) == []


def test_a_refusal_that_changed_something_is_named_and_one_that_did_not_is_not() -> None:
    changed = Answer(False, "busy", 6, S0 + SECOND, {}, changed=True)
    unchanged = Answer(False, "busy", 6, S0 + SECOND, {}, changed=False)
    runs = [delivered(S0), delivered(S1)]
    posts = [post(5, S0), post(25, S1)]
    assert len(verdict(observe(posts, runs, [(TEXT, changed)]))) == 1
    assert verdict(observe(posts, runs, [(TEXT, unchanged)])) == []


def test_a_skip_must_skip_the_next_occurrence_and_end_it_as_a_skipped_run() -> None:
    answer = ok(7, S0 + SECOND, skipped=S1.isoformat())
    skipped = Run(S1, "skipped", "skip_next", False)
    assert verdict(observe([post(5, S0)], [delivered(S0), skipped], [(SKIP, answer)])) == []
    found = verdict(observe([post(5, S0), post(25, S1)], [delivered(S0), delivered(S1)], [(SKIP, answer)]))
    assert any("does not deliver it" in p for p in found) and any("was skipped" in p for p in found)
    wrong = ok(7, S0 - 30 * SECOND, skipped=S0.isoformat())  # the occurrence just posted, early
    assert any(
        "not the next occurrence" in p for p in verdict(observe([post(5, S0)], [delivered(S0)], [(SKIP, wrong)]))
    )


def test_an_occurrence_lost_to_the_dead_letter_queue_needs_no_post_and_no_run() -> None:
    reached = [Reached(S0, False, 1, 10, True), Reached(S1, False, 20, 30, False)]
    assert verdict(observe([post(25, S1)], [delivered(S1)], reached=reached)) == []
    assert any("never posted" in p for p in verdict(observe([post(25, S1)], [delivered(S1)])))
