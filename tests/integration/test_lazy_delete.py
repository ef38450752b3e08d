"""A delete writes only its schedule's item (two AWS calls in all), so the room counter and the
dedupe pointer are freed lazily. These tests hold that to the rules it must keep: the limit is
exact where it matters (a create at the limit), an identical schedule can be made again at once,
concurrency never lets a room past its limit nor makes two identical schedules, and the reconciler
tidies up what deletes leave behind, without ever touching what is live."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from typing import Any

from cronbell.core.domain import models, refusals
from cronbell.core.domain.ports import Pointer
from cronbell.usecases import tools
from cronbell.usecases.reconcile import reconcile
from tests.support.aws import Stack, provision
from tests.support.chat import RecordingChat
from tests.support.envelopes import ROOM, envelope
from tests.support.tools import assert_consistent, call, fire_at, live_items, ok

LIMIT = 12


def room_counter(stack: Stack) -> int:
    return next(int(r["live"]) for r in stack.items() if r["sk"] == "room" and r["room_id"] == ROOM)


def pointers(stack: Stack) -> dict[str, str]:
    return {r["sk"][2:]: r["schedule_id"] for r in stack.items() if r["sk"].startswith("d#")}


def create(stack: Stack, i: int) -> dict[str, Any]:
    return tools.handle(envelope("create_reminder", {"message": f"m{i}", "time": "2026-12-01 09:00"}), stack.deps())


def test_a_delete_leaves_the_counter_high_and_a_create_at_the_limit_recounts(moto_endpoint: str, clock: Any) -> None:
    stack = provision(moto_endpoint, clock, max_per_room=LIMIT)
    ids = [ok(create(stack, i))["id"] for i in range(LIMIT)]
    for sid in ids[:3]:
        ok(call(stack, "delete_reminder", {"id": sid}))
    assert room_counter(stack) == LIMIT and len(live_items(stack)) == LIMIT - 3
    assert_consistent(stack)
    for i in range(3):  # the first of these finds the room full, counts again and goes on
        ok(create(stack, 100 + i))
    assert room_counter(stack) == len(live_items(stack)) == LIMIT
    refused = create(stack, 200)
    assert refused["ok"] is False and refused["error"]["code"] == refusals.LIMIT_REACHED
    assert len(stack.entries()) == LIMIT
    assert_consistent(stack)


def test_the_limit_holds_when_many_creates_race_for_places_deletes_freed(moto_endpoint: str, clock: Any) -> None:
    stack = provision(moto_endpoint, clock, max_per_room=LIMIT)
    ids = [ok(create(stack, i))["id"] for i in range(LIMIT)]
    for sid in ids[:4]:
        ok(call(stack, "delete_reminder", {"id": sid}))
    with ThreadPoolExecutor(max_workers=10) as pool:
        answers = list(pool.map(lambda i: create(stack, 100 + i), range(20)))
    assert sum(a["ok"] for a in answers) == 4
    assert {a["error"]["code"] for a in answers if not a["ok"]} == {refusals.LIMIT_REACHED}
    assert len(live_items(stack)) == LIMIT and len(stack.entries()) == LIMIT
    assert_consistent(stack)


def test_deletes_and_creates_at_once_never_pass_the_limit(moto_endpoint: str, clock: Any) -> None:
    stack = provision(moto_endpoint, clock, max_per_room=LIMIT)
    ids = [ok(create(stack, i))["id"] for i in range(LIMIT)]

    def work(n: int) -> dict[str, Any]:
        if n % 3 == 0 and n // 3 < 6:
            return call(stack, "delete_reminder", {"id": ids[n // 3]})
        return create(stack, 100 + n)

    with ThreadPoolExecutor(max_workers=10) as pool:
        answers = list(pool.map(work, range(30)))
    assert all(a["ok"] or a["error"]["code"] == refusals.LIMIT_REACHED for a in answers), answers
    assert len(live_items(stack)) <= LIMIT
    assert_consistent(stack)
    # once settled, every place freed can be taken: the room fills up exactly
    fresh = iter(range(1000, 1100))
    while create(stack, next(fresh))["ok"]:
        pass
    assert len(live_items(stack)) == LIMIT == len(stack.entries())
    assert_consistent(stack)


def test_an_identical_schedule_can_be_made_again_right_after_a_delete(stack: Stack) -> None:
    args = {"message": "stand up", "cron": "0 9 * * 1-5"}
    first = ok(call(stack, "create_reminder", args))["id"]
    ok(call(stack, "delete_reminder", {"id": first}))
    second = ok(call(stack, "create_reminder", args))
    assert second["duplicate"] is False and second["id"] != first
    third = ok(call(stack, "create_reminder", args))
    assert third["duplicate"] is True and third["id"] == second["id"]
    assert list(pointers(stack).values()) == [second["id"]]
    assert_consistent(stack)


def test_identical_creates_racing_after_a_delete_make_one_schedule(stack: Stack) -> None:
    args = {"message": "stand up", "time": "2026-12-01 09:00"}
    ok(call(stack, "delete_reminder", {"id": ok(call(stack, "create_reminder", args))["id"]}))
    with ThreadPoolExecutor(max_workers=8) as pool:
        answers = [ok(a) for a in pool.map(lambda _: call(stack, "create_reminder", args), range(8))]
    assert len({a["id"] for a in answers}) == 1
    assert sum(not a["duplicate"] for a in answers) == 1
    assert len(live_items(stack)) == 1 and len(stack.entries()) == 1
    assert_consistent(stack)


def test_a_schedule_may_be_changed_into_the_shape_of_a_deleted_one(stack: Stack) -> None:
    gone = ok(call(stack, "create_reminder", {"message": "water", "time": "2026-12-01 09:00"}))["id"]
    kept = ok(call(stack, "create_reminder", {"message": "feed", "time": "2026-12-01 09:00"}))["id"]
    ok(call(stack, "delete_reminder", {"id": gone}))
    ok(call(stack, "update_reminder", {"id": kept, "message": "water"}))
    assert sorted(pointers(stack).values()) == [kept]
    other = ok(call(stack, "create_reminder", {"message": "other", "time": "2026-12-01 09:00"}))["id"]
    dup = call(stack, "update_reminder", {"id": other, "message": "water"})  # but not of a live one
    assert dup["ok"] is False and dup["error"]["code"] == refusals.DUPLICATE
    assert_consistent(stack)


def test_a_recount_keeps_nothing_when_the_counter_moved_even_back_to_the_same_number(stack: Stack) -> None:
    store = stack.deps().store
    ok(call(stack, "create_reminder", {"message": "a", "time": "2026-12-01 09:00"}))
    deleted = ok(call(stack, "create_reminder", {"message": "b", "time": "2026-12-01 10:00"}))["id"]
    ok(call(stack, "delete_reminder", {"id": deleted}))
    seen = store.room_count(ROOM)
    assert seen is not None and seen.live == 2
    # meanwhile a create (+1) and a missed one-shot (-1): the same number, but it moved
    moved = ok(call(stack, "create_reminder", {"message": "c", "time": "2026-12-01 11:00"}))["id"]
    schedule = store.get(ROOM, moved)
    assert schedule is not None
    store.retire(schedule, models.MISSED, stack.clock.now())
    assert room_counter(stack) == 2
    assert store.recount(ROOM, seen) is None
    assert room_counter(stack) == 2
    now_seen = store.room_count(ROOM)
    assert store.recount(ROOM, now_seen) == 1 == room_counter(stack)


def test_the_reconciler_recounts_and_removes_stale_pointers_only(stack: Stack) -> None:
    live = ok(call(stack, "create_reminder", {"message": "keep", "cron": "0 9 * * *"}))["id"]
    gone = [ok(call(stack, "create_reminder", {"message": f"go{i}", "cron": "0 9 * * *"}))["id"] for i in range(3)]
    for sid in gone:
        ok(call(stack, "delete_reminder", {"id": sid}))
    assert room_counter(stack) == 4 and len(pointers(stack)) == 4
    stack.clock.advance(minutes=16)
    report = reconcile(stack.deps(chat=lambda: RecordingChat())).to_dict()
    assert report["counters_repaired"] == 1 and report["pointers_removed"] == 3, report
    assert room_counter(stack) == 1 and list(pointers(stack).values()) == [live]
    again = reconcile(stack.deps(chat=lambda: RecordingChat())).to_dict()
    assert again["counters_repaired"] == again["pointers_removed"] == 0
    assert_consistent(stack)


def test_a_stale_pointer_taken_over_meanwhile_is_not_removed(stack: Stack) -> None:
    args = {"message": "again", "time": "2026-12-01 09:00"}
    first = ok(call(stack, "create_reminder", args))["id"]
    ok(call(stack, "delete_reminder", {"id": first}))
    [(key, holder)] = pointers(stack).items()
    seen_by_a_scan = Pointer(ROOM, key, holder)
    second = ok(call(stack, "create_reminder", args))["id"]  # takes the pointer over
    store = stack.deps().store
    assert store.drop_pointer(seen_by_a_scan) is False
    assert pointers(stack) == {key: second}
    # and a pointer whose own schedule is live is never removed
    assert store.drop_pointer(Pointer(ROOM, key, second)) is False
    assert pointers(stack) == {key: second}
    assert_consistent(stack)


def test_a_fired_one_shot_frees_its_place_and_pointer_lazily_and_both_are_taken_over(
    moto_endpoint: str, clock: Any
) -> None:
    stack = provision(moto_endpoint, clock, max_per_room=LIMIT)
    ids = [ok(create(stack, i))["id"] for i in range(LIMIT)]
    chat, start = RecordingChat(), stack.clock.current
    assert fire_at(stack, ids[0], "2026-12-01T08:00:00Z", chat)["outcome"] == "delivered"
    stack.deps().scheduler.delete(ids[0])  # Scheduler deletes a one-time entry once it ran
    stack.clock.current = start  # so that the same reminder may be asked for again
    # the retirement wrote the slot, the live item and its retired copy alone
    assert room_counter(stack) == LIMIT and len(live_items(stack)) == LIMIT - 1
    assert ids[0] in pointers(stack).values()
    assert_consistent(stack)
    again = ok(create(stack, 0))  # the same reminder again: the room recounts, the pointer is taken over
    assert again["id"] != ids[0] and ids[0] not in pointers(stack).values()
    assert room_counter(stack) == len(live_items(stack)) == LIMIT
    refused = create(stack, 200)
    assert refused["ok"] is False and refused["error"]["code"] == refusals.LIMIT_REACHED
    assert len(chat.sent) == 1
    assert_consistent(stack)
