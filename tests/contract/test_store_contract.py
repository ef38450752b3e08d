"""One contract for every implementation of the store's ports: the DynamoDB store on the moto server
and the in-memory store answer each call, and refuse each stale or conflicting write, alike."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from cronbell.adapters.dynamo import DynamoStore
from cronbell.adapters.memory import MemoryStore
from cronbell.core.domain import models
from cronbell.core.domain.errors import (
    Busy,
    Conflict,
    Duplicate,
    Gone,
    LimitReached,
    NameTaken,
    QuietHoursChanged,
    Released,
    TooSoon,
)
from cronbell.core.domain.instants import iso_utc
from cronbell.core.domain.ledger_slots import ledger_slot
from cronbell.core.domain.ports import Claim, Finish, RepeatClaim, Store
from cronbell.core.domain.quiet_hours import QuietHours
from cronbell.core.domain.runs import DELIVERED, SKIPPED, Run
from cronbell.core.domain.timing import Timing
from tests.support.aws import TABLE, Stack

NOW = datetime(2030, 1, 7, 8, 0, tzinfo=UTC)
ROOM = "!room:example.org"
SLOT = "2030-01-07T09:00:00Z"
NEXT = "2030-01-08T09:00:00Z"
LEASE = 60


class StreamedDynamoStore(DynamoStore):
    """The DynamoDB store with the table's stream applied after each record, as the projector applies
    it in a deployment: a run recorded on its schedule gets its slot's history (`write_history`)."""

    def __init__(self, stack: Stack) -> None:
        super().__init__(stack.ddb, TABLE, retention_days=30)
        self._stack = stack

    def complete_slot(self, *args: Any, **kwargs: Any) -> None:
        try:
            super().complete_slot(*args, **kwargs)
        finally:
            self._stack.write_histories()

    def record_run(self, *args: Any, **kwargs: Any) -> bool:
        try:
            return super().record_run(*args, **kwargs)
        finally:
            self._stack.write_histories()


@pytest.fixture(params=["dynamo", "memory"])
def store(request: pytest.FixtureRequest) -> Store:
    if request.param == "memory":
        return MemoryStore()
    return StreamedDynamoStore(request.getfixturevalue("stack"))


def schedule(sid: str = "s1", **fields: object) -> models.Schedule:
    base: dict[str, object] = {
        "id": sid,
        "room_id": ROOM,
        "user_id": "@ana:example.org",
        "agent_id": "bot",
        "kind": models.MESSAGE,
        "timing": Timing(zone="UTC", cron="0 9 * * *", cron_source="0 9 * * *"),
        "locale": "en",
        "created_at": datetime(2030, 1, 1, 0, 0, len(sid) % 10, tzinfo=UTC),
        "text": f"stand up {sid}",
        "dedupe_key": f"key-{sid}",
    }
    return models.Schedule(**{**base, **fields})  # type: ignore[arg-type]


def stored(store: Store, sid: str = "s1") -> models.Schedule:
    """The schedule as the store holds it now."""
    got = store.get(ROOM, sid)
    assert got is not None
    return got


def delivered(slot: str = SLOT) -> Run:
    return Run(scheduled_time=slot, outcome=DELIVERED, message_id="m1")


# --- Schedules and Rooms ---------------------------------------------------------------------
def test_an_inserted_schedule_reads_back_and_lists_in_its_room(store: Store) -> None:
    store.insert(schedule("s1"), 5)
    store.insert(schedule("s22"), 5)
    got = store.get(ROOM, "s1")
    assert got is not None and got.text == "stand up s1" and got.status == models.ACTIVE
    assert [s.id for s in store.list_room(ROOM, NOW)] == ["s1", "s22"]
    assert store.get(ROOM, "nope") is None
    count = store.room_count(ROOM)
    assert count is not None and count.live == 2


def test_a_second_schedule_with_a_live_dedupe_key_is_a_duplicate_naming_the_first(store: Store) -> None:
    store.insert(schedule("s1"), 5)
    with pytest.raises(Duplicate) as refused:
        store.insert(schedule("s2", dedupe_key="key-s1"), 5)
    assert refused.value.existing.id == "s1"
    assert store.get(ROOM, "s2") is None


def test_a_live_name_is_taken(store: Store) -> None:
    store.insert(schedule("s1", name="standup"), 5)
    with pytest.raises(NameTaken) as refused:
        store.insert(schedule("s2", name="Standup"), 5)
    assert refused.value.holder.id == "s1"


def test_the_room_limit_holds_and_a_delete_frees_its_place_on_recount(store: Store) -> None:
    store.insert(schedule("s1"), 2)
    store.insert(schedule("s2"), 2)
    with pytest.raises(LimitReached):
        store.insert(schedule("s3"), 2)
    store.delete(ROOM, "s1", NOW)
    store.insert(schedule("s3"), 2)  # the create that finds the room full counts it again
    assert {s.id for s in store.list_room(ROOM, NOW)} == {"s2", "s3"}


def test_a_recount_from_a_stale_count_is_not_stored(store: Store) -> None:
    store.insert(schedule("s1"), 5)
    seen = store.room_count(ROOM)
    store.insert(schedule("s2"), 5)
    store.delete(ROOM, "s1", NOW)
    store.delete(ROOM, "s2", NOW)
    assert store.recount(ROOM, seen) is None  # the counter moved since `seen`
    assert store.recount(ROOM, store.room_count(ROOM)) == 0


def test_a_replace_needs_the_version_it_read(store: Store) -> None:
    old = schedule("s1")
    store.insert(old, 5)
    new = replace(old, text="changed")
    store.replace(old, new, 5, NOW)
    got = store.get(ROOM, "s1")
    assert got is not None and got.text == "changed" and got.version == old.version + 1
    with pytest.raises(Conflict):
        store.replace(old, replace(old, text="late"), 5, NOW)  # `old` is stale now


def test_a_replace_moves_its_dedupe_key(store: Store) -> None:
    old = schedule("s1")
    store.insert(old, 5)
    store.replace(old, replace(old, dedupe_key="moved"), 5, NOW)
    store.insert(schedule("s2", dedupe_key="key-s1"), 5)  # the old key is free
    with pytest.raises(Duplicate):
        store.insert(schedule("s3", dedupe_key="moved"), 5)


def test_a_skip_is_kept_and_needs_the_version_read(store: Store) -> None:
    s = schedule("s1")
    store.insert(s, 5)
    store.set_skip(s, SLOT, NOW)
    got = store.get(ROOM, "s1")
    assert got is not None and SLOT in got.timing.skips and got.version == s.version + 1
    with pytest.raises(Conflict):
        store.set_skip(s, NEXT, NOW)


def test_a_deleted_schedule_is_gone_and_listed_as_deleted(store: Store) -> None:
    store.insert(schedule("s1"), 5)
    out = store.delete(ROOM, "s1", NOW)
    assert out.id == "s1" and out.status == models.ACTIVE
    got = store.get(ROOM, "s1")
    assert got is not None and got.status == models.DELETED
    assert store.list_room(ROOM, NOW) == []
    assert [s.status for s in store.list_room(ROOM, NOW, retired=True)] == [models.DELETED]
    with pytest.raises(Gone):
        store.delete(ROOM, "s1", NOW)
    with pytest.raises(Gone) as none:
        store.delete(ROOM, "never", NOW)
    assert none.value.old is None


def test_a_retirement_frees_the_place_and_the_key(store: Store) -> None:
    s = schedule("s1")
    store.insert(s, 1)
    store.retire(s, models.MISSED, NOW, "too_late", (SLOT, Run(SLOT, "missed")))
    got = store.get(ROOM, "s1")
    assert got is not None and got.status == models.MISSED
    assert store.run_at(ROOM, "s1", SLOT) == Run(SLOT, "missed")
    store.insert(schedule("s2", dedupe_key="key-s1"), 1)  # its place and its key are free
    with pytest.raises(Conflict):
        store.retire(s, models.MISSED, NOW)


def test_a_manual_run_too_soon_is_refused_and_can_be_forgotten(store: Store) -> None:
    s = schedule("s1")
    store.insert(s, 5)
    store.mark_manual_run(s, SLOT, "2030-01-01T00:00:00Z")
    with pytest.raises(TooSoon) as refused:
        store.mark_manual_run(s, NEXT, "2030-01-07T08:59:00Z")
    assert refused.value.last == SLOT
    store.unmark_manual_run(s, SLOT)
    got = store.get(ROOM, "s1")
    assert got is not None and got.last_manual_run == ""


# --- SlotLedger and Runs ---------------------------------------------------------------------
def test_a_slot_is_claimed_once_and_its_schedule_is_busy_meanwhile(store: Store) -> None:
    s = schedule("s1")
    store.insert(s, 5)
    assert store.claim_slot(ROOM, "s1", SLOT, NOW, LEASE, s) == Claim.CLAIMED
    assert store.claim_slot(ROOM, "s1", SLOT, NOW, LEASE, s) == Claim.HELD
    assert store.claim_slot(ROOM, "s1", NEXT, NOW, LEASE, s) == Claim.BUSY
    assert store.held_until(ROOM, "s1", SLOT) == NOW + timedelta(seconds=LEASE)
    with pytest.raises(Busy):
        store.replace(s, replace(s, text="changed"), 5, NOW)
    with pytest.raises(Busy):
        store.delete(ROOM, "s1", NOW)
    assert store.wait_manual(s, NEXT, NOW)


def test_a_claim_whose_lease_ended_is_taken_over(store: Store) -> None:
    s = schedule("s1")
    store.insert(s, 5)
    assert store.claim_slot(ROOM, "s1", SLOT, NOW, LEASE, s) == Claim.CLAIMED
    later = NOW + timedelta(seconds=LEASE + 1)
    assert store.claim_slot(ROOM, "s1", SLOT, later, LEASE, s) == Claim.CLAIMED
    assert store.open_claim(ROOM, "s1", SLOT) is not None


def test_a_claim_from_a_stale_or_inactive_read_is_refused(store: Store) -> None:
    s = schedule("s1")
    store.insert(s, 5)
    store.set_skip(s, NEXT, NOW)
    assert store.claim_slot(ROOM, "s1", SLOT, NOW, LEASE, s) == Claim.CHANGED
    fresh = store.get(ROOM, "s1")
    assert fresh is not None
    paused = replace(fresh, status=models.PAUSED)
    store.replace(fresh, paused, 5, NOW)
    assert store.claim_slot(ROOM, "s1", SLOT, NOW, LEASE, paused) == Claim.INACTIVE
    assert not store.wait_manual(paused, SLOT, NOW)


def test_a_completed_slot_records_its_run_once(store: Store) -> None:
    s = schedule("s1")
    store.insert(s, 5)
    store.claim_slot(ROOM, "s1", SLOT, NOW, LEASE, s)
    store.complete_slot(ROOM, "s1", SLOT, NOW, DELIVERED, schedule=s, finish=Finish(run=delivered()))
    store.complete_slot(ROOM, "s1", SLOT, NOW, DELIVERED, schedule=s, finish=Finish(run=delivered()))
    got = store.get(ROOM, "s1")
    assert got is not None and got.delivered_count == 1 and got.last_run is not None
    assert store.runs(ROOM, "s1", 10) == [delivered()]
    assert store.claim_slot(ROOM, "s1", SLOT, NOW, LEASE, got) == Claim.DUPLICATE
    assert store.open_claim(ROOM, "s1", SLOT) is None
    assert store.claim_slot(ROOM, "s1", NEXT, NOW, LEASE, got) == Claim.CLAIMED  # no longer busy


def test_a_completion_from_a_stale_read_conflicts_and_writes_nothing(store: Store) -> None:
    s = schedule("s1")
    store.insert(s, 5)
    store.claim_slot(ROOM, "s1", SLOT, NOW, LEASE, s)
    store.mark_manual_run(s, NEXT, "2030-01-01T00:00:00Z")  # not a change: the version stays
    store.wait_manual(s, NEXT, NOW)  # a change: the version moves
    with pytest.raises(Conflict):
        store.complete_slot(ROOM, "s1", SLOT, NOW, DELIVERED, schedule=s, finish=Finish(run=delivered()))
    assert store.runs(ROOM, "s1", 10) == []
    assert store.open_claim(ROOM, "s1", SLOT) is not None


def test_runs_started_by_hand_wait_together_and_each_record_clears_its_own(store: Store) -> None:
    """Two runs started by hand wait behind one delivery; the regular delivery's record leaves both,
    the first one's record leaves the second (it was lost when one record cleared whatever waited),
    and a run recorded undelivered (skipped: its schedule paused meanwhile) ends its wait too."""
    first, second = "2030-01-07T08:00:01Z", "2030-01-07T08:05:01Z"
    store.insert(schedule("s1"), 5)

    store.claim_slot(ROOM, "s1", SLOT, NOW, LEASE, stored(store))
    assert store.wait_manual(stored(store), first, NOW) and store.wait_manual(stored(store), second, NOW)
    assert stored(store).manual_waiting == {first, second}
    store.complete_slot(ROOM, "s1", SLOT, NOW, DELIVERED, schedule=stored(store), finish=Finish(run=delivered()))
    assert stored(store).manual_waiting == {first, second}
    manual = ledger_slot(first, manual=True)
    assert store.claim_slot(ROOM, "s1", manual, NOW, LEASE, stored(store)) == Claim.CLAIMED
    run = Run(scheduled_time=first, outcome=DELIVERED, manual=True, message_id="m2")
    store.complete_slot(ROOM, "s1", manual, NOW, DELIVERED, schedule=stored(store), finish=Finish(run=run))
    assert stored(store).manual_waiting == {second}
    assert not store.wait_manual(stored(store), second, NOW)  # no delivery holds it now: started at once
    skipped = Run(scheduled_time=second, outcome=SKIPPED, reason="paused", manual=True)
    assert store.record_run(stored(store), ledger_slot(second, manual=True), NOW, skipped)  # its schedule paused
    assert stored(store).manual_waiting == frozenset()


def test_a_final_completion_retires_the_schedule(store: Store) -> None:
    s = schedule("s1")
    store.insert(s, 1)
    store.claim_slot(ROOM, "s1", SLOT, NOW, LEASE, s)
    finish = Finish(run=delivered())
    store.complete_slot(ROOM, "s1", SLOT, NOW, DELIVERED, schedule=s, final_status=models.FIRED, finish=finish)
    got = store.get(ROOM, "s1")
    assert got is not None and got.status == models.FIRED
    assert store.list_room(ROOM, NOW) == []
    store.insert(schedule("s2", dedupe_key="key-s1"), 1)


def test_a_schedule_brought_back_to_life_keeps_the_runs_that_waited_and_not_while_one_is_posted(
    store: Store,
) -> None:
    """A run started by hand waits behind the delivery that retires the schedule; brought back to life
    (a snoozed one-shot) while that run is being delivered from the retired copy, the write is refused
    Busy and changes nothing; once the lease is over it is written, and the live item keeps the run that
    still waits."""
    waited = "2030-01-07T08:00:01Z"
    store.insert(schedule("s1"), 5)

    store.claim_slot(ROOM, "s1", SLOT, NOW, LEASE, stored(store))
    assert store.wait_manual(stored(store), waited, NOW)
    finish = Finish(run=delivered())
    retiring = stored(store)
    store.complete_slot(ROOM, "s1", SLOT, NOW, DELIVERED, schedule=retiring, final_status=models.FIRED, finish=finish)
    retired = stored(store)
    assert retired.status == models.FIRED and retired.manual_waiting == {waited}
    assert store.claim_slot(ROOM, "s1", ledger_slot(waited, manual=True), NOW, LEASE, retired) == Claim.CLAIMED
    back = replace(stored(store), status=models.ACTIVE, fired_at=None)
    with pytest.raises(Busy):
        store.replace(stored(store), back, 5, NOW)
    assert stored(store).status == models.FIRED
    later = NOW + timedelta(seconds=LEASE + 1)
    store.replace(stored(store), replace(stored(store), status=models.ACTIVE, fired_at=None), 5, later)
    live = stored(store)
    assert live.status == models.ACTIVE and live.manual_waiting == {waited}
    assert [s.id for s in store.list_room(ROOM, later)] == ["s1"]


def test_a_sent_slot_is_not_delivered_again(store: Store) -> None:
    s = schedule("s1")
    store.insert(s, 5)
    store.claim_slot(ROOM, "s1", SLOT, NOW, LEASE, s)
    noted = Finish(run=delivered())
    assert store.mark_slot_sent(ROOM, "s1", SLOT, "m1", NOW, noted)
    later = NOW + timedelta(seconds=LEASE + 1)
    assert store.claim_slot(ROOM, "s1", SLOT, later, LEASE, s) == Claim.SENT
    claim = store.open_claim(ROOM, "s1", SLOT)
    assert claim is not None and claim.message_id == "m1" and claim.noted is not None
    assert claim.noted.run == delivered()
    store.complete_slot(ROOM, "s1", SLOT, NOW, DELIVERED, schedule=s, finish=noted)
    assert not store.mark_slot_sent(ROOM, "s1", SLOT, "m2", later)


def test_a_released_slot_is_claimed_again_at_once(store: Store) -> None:
    s = schedule("s1")
    store.insert(s, 5)
    store.claim_slot(ROOM, "s1", SLOT, NOW, LEASE, s)
    store.release_slot(ROOM, "s1", SLOT, s)
    assert store.held_until(ROOM, "s1", SLOT) is None
    assert store.claim_slot(ROOM, "s1", SLOT, NOW, LEASE, s) == Claim.CLAIMED


def test_a_slot_given_back_keeps_an_agent_answer_for_that_slot_until_its_run_is_recorded(store: Store) -> None:
    s = schedule("s1")
    store.insert(s, 5)
    store.claim_slot(ROOM, "s1", SLOT, NOW, LEASE, s)
    store.release_slot(ROOM, "s1", SLOT, s, answer="the summary")
    kept = store.get(ROOM, "s1")
    assert kept is not None and kept.kept_answer(SLOT) == "the summary" and kept.kept_answer(NEXT) == ""
    assert kept.version == s.version  # giving a claim back is no change of the schedule
    assert store.claim_slot(ROOM, "s1", SLOT, NOW, LEASE, s) == Claim.CLAIMED
    store.complete_slot(ROOM, "s1", SLOT, NOW, DELIVERED, schedule=s, finish=Finish(run=delivered()))
    done = store.get(ROOM, "s1")
    assert done is not None and done.kept_answer(SLOT) == ""


def test_a_run_without_delivery_is_recorded_once_from_the_version_read(store: Store) -> None:
    s = schedule("s1")
    store.insert(s, 5)
    skipped = Run(SLOT, SKIPPED)
    assert store.record_run(s, SLOT, NOW, skipped)
    assert not store.record_run(s, SLOT, NOW, skipped)
    assert store.run_at(ROOM, "s1", SLOT) == skipped
    with pytest.raises(Conflict):
        store.record_run(s, NEXT, NOW, Run(NEXT, SKIPPED))  # `s` is stale: the first record moved it
    assert store.run_at(ROOM, "s1", NEXT) is None


def test_a_template_schedules_slots_need_no_item(store: Store) -> None:
    assert store.claim_slot(ROOM, "daily", SLOT, NOW, LEASE, None) == Claim.CLAIMED
    assert store.claim_slot(ROOM, "daily", SLOT, NOW, LEASE, None) == Claim.HELD
    store.complete_slot(ROOM, "daily", SLOT, NOW, DELIVERED, finish=Finish(run=delivered()))
    assert store.claim_slot(ROOM, "daily", SLOT, NOW, LEASE, None) == Claim.DUPLICATE
    assert store.record_static_run(ROOM, "daily", NEXT, NOW, Run(NEXT, "missed"))
    assert not store.record_static_run(ROOM, "daily", NEXT, NOW, Run(NEXT, "missed"))
    assert store.runs(ROOM, "daily", 1) == [Run(NEXT, "missed")]
    assert store.runs(ROOM, "daily", 5) == [Run(NEXT, "missed"), delivered()]


# --- Repeats ----------------------------------------------------------------------------------
def repeating(store: Store) -> models.Schedule:
    """A schedule whose occurrence SLOT was delivered and repeats from now on."""
    s = schedule("s1", repeat_every=10, repeat_times=2)
    store.insert(s, 5)
    store.claim_slot(ROOM, "s1", SLOT, NOW, LEASE, s)
    finish = Finish(run=delivered(), repeat_slot=SLOT, repeat_due="2030-01-07T09:10:00Z")
    store.complete_slot(ROOM, "s1", SLOT, NOW, DELIVERED, schedule=s, finish=finish)
    got = store.get(ROOM, "s1")
    assert got is not None and got.repeat_slot == SLOT
    return got


def test_each_repeat_is_claimed_once_and_a_released_one_again(store: Store) -> None:
    s = repeating(store)
    assert store.claim_repeat(s, SLOT, 1, False, (2, "2030-01-07T09:20:00Z")) == RepeatClaim.CLAIMED
    assert store.claim_repeat(s, SLOT, 1, False) == RepeatClaim.DUPLICATE
    store.release_repeat(s, SLOT, 1, False)
    assert store.claim_repeat(s, SLOT, 1, False) == RepeatClaim.CLAIMED
    run = store.run_at(ROOM, "s1", SLOT)
    assert run is not None and run.repeats == 1
    assert store.claim_repeat(s, SLOT, 3, True) == RepeatClaim.CLAIMED  # the escalation
    assert store.claim_repeat(s, SLOT, 3, True) == RepeatClaim.DUPLICATE
    assert store.defer_repeat(s, SLOT, 2, "2030-01-07T10:00:00Z")
    assert store.claim_repeat(s, NEXT, 1, False) == RepeatClaim.STOPPED  # not a done occurrence


def test_an_acknowledged_occurrence_repeats_no_more(store: Store) -> None:
    s = repeating(store)
    assert store.acknowledge(s, SLOT, NOW)
    assert not store.acknowledge(s, SLOT, NOW)
    assert store.claim_repeat(s, SLOT, 1, False) == RepeatClaim.ACKNOWLEDGED
    assert not store.defer_repeat(s, SLOT, 1, "2030-01-07T10:00:00Z")
    run = store.run_at(ROOM, "s1", SLOT)
    assert run is not None and run.acknowledged_at == iso_utc(NOW)


def test_a_paused_or_deleted_schedule_stops_its_repeats(store: Store) -> None:
    s = repeating(store)
    paused = replace(s, status=models.PAUSED)
    store.replace(s, paused, 5, NOW)
    assert store.claim_repeat(paused, SLOT, 1, False) == RepeatClaim.STOPPED
    assert not store.acknowledge(paused, SLOT, NOW)
    store.delete(ROOM, "s1", NOW)
    assert store.claim_repeat(s, SLOT, 1, False) == RepeatClaim.STOPPED


# --- Held -------------------------------------------------------------------------------------
UNTIL = "2030-01-07T06:30:00Z"
USER = "@ana:example.org"


def test_a_held_occurrence_waits_for_its_release_counted_on_its_schedule(store: Store) -> None:
    s = schedule("s1")
    store.insert(s, 5)
    store.claim_slot(ROOM, "s1", SLOT, NOW, LEASE, s)
    store.hold_slot(s, SLOT, NOW, UNTIL)
    got = store.get(ROOM, "s1")
    assert got is not None and got.delivered_count == 1 and UNTIL in got.releases and got.version == s.version + 1
    assert store.held(ROOM, USER, UNTIL) == [("s1", SLOT)]
    assert store.held(ROOM, USER, "2030-01-08T06:30:00Z") == []
    assert store.claim_slot(ROOM, "s1", SLOT, NOW, LEASE, got) == Claim.DUPLICATE  # held, not delivered again
    assert store.claim_slot(ROOM, "s1", NEXT, NOW, LEASE, got) == Claim.CLAIMED  # no longer busy
    store.drop_held(ROOM, USER, UNTIL, "s1", SLOT)
    assert store.held(ROOM, USER, UNTIL) == []


def held_for(store: Store, sid: str = "s1") -> models.Schedule:
    """A schedule whose occurrence at SLOT is held until UNTIL, as read after the hold."""
    s = schedule(sid)
    store.insert(s, 5)
    store.claim_slot(ROOM, sid, SLOT, NOW, LEASE, s)
    store.hold_slot(s, SLOT, NOW, UNTIL)
    got = store.get(ROOM, sid)
    assert got is not None and got.releases == {UNTIL}
    return got


def retired_while_held(store: Store) -> models.Schedule:
    """A schedule completed by its run at NEXT while its occurrence at SLOT is held, as read then."""
    got = held_for(store)
    store.claim_slot(ROOM, "s1", NEXT, NOW, LEASE, got)
    last = Finish(run=delivered(NEXT))
    store.complete_slot(ROOM, "s1", NEXT, NOW, DELIVERED, schedule=got, final_status=models.COMPLETED, finish=last)
    retired = store.get(ROOM, "s1")
    assert retired is not None and retired.status == models.COMPLETED
    return retired


def released(slot: str = SLOT) -> Finish:
    """The record of the occurrence at `slot` its release posted."""
    return Finish(run=delivered(slot), counted=True, held_ahead=1, release=UNTIL)


def test_a_schedule_retired_while_an_occurrence_is_held_keeps_its_release_until_recorded(store: Store) -> None:
    retired = retired_while_held(store)
    assert retired.releases == {UNTIL}
    back = replace(retired, status=models.ACTIVE)
    store.replace(retired, back, 5, NOW)  # back to life: its held occurrence still waits
    revived = store.get(ROOM, "s1")
    assert revived is not None and revived.status == models.ACTIVE and revived.releases == {UNTIL}


def test_the_release_record_takes_its_time_out_of_a_retired_copy(store: Store) -> None:
    retired = retired_while_held(store)
    store.complete_slot(ROOM, "s1", SLOT, NOW, DELIVERED, schedule=retired, finish=released())
    after = store.get(ROOM, "s1")
    assert after is not None and after.status == models.COMPLETED and after.releases == frozenset()
    assert store.claim_slot(ROOM, "s1", SLOT, NOW, LEASE, after) == Claim.DUPLICATE


def test_a_release_record_that_retires_its_schedule_leaves_no_release_on_the_copy(store: Store) -> None:
    got = held_for(store)
    store.complete_slot(ROOM, "s1", SLOT, NOW, DELIVERED, schedule=got, final_status=models.FIRED, finish=released())
    fired = store.get(ROOM, "s1")
    assert fired is not None and fired.status == models.FIRED and fired.releases == frozenset()


def test_a_hold_from_a_stale_read_or_an_unclaimed_slot_conflicts(store: Store) -> None:
    s = schedule("s1")
    store.insert(s, 5)
    with pytest.raises(Conflict):
        store.hold_slot(s, SLOT, NOW, UNTIL)  # not claimed
    store.claim_slot(ROOM, "s1", SLOT, NOW, LEASE, s)
    store.set_skip(s, NEXT, NOW + timedelta(seconds=LEASE + 1))
    with pytest.raises(Conflict):
        store.hold_slot(s, SLOT, NOW, UNTIL)  # `s` is stale
    assert store.held(ROOM, USER, UNTIL) == []


def test_a_release_is_claimed_once_at_a_time_and_nothing_is_held_once_it_began(store: Store) -> None:
    assert store.release_held_until(ROOM, USER, UNTIL) is None
    assert store.claim_release(ROOM, USER, UNTIL, NOW, LEASE) == 1
    assert store.claim_release(ROOM, USER, UNTIL, NOW, LEASE) == 0  # its lease is not over
    assert store.release_held_until(ROOM, USER, UNTIL) == NOW + timedelta(seconds=LEASE)  # so a retry waits
    s = schedule("s1")
    store.insert(s, 5)
    store.claim_slot(ROOM, "s1", SLOT, NOW, LEASE, s)
    with pytest.raises(Released):
        store.hold_slot(s, SLOT, NOW, UNTIL)
    store.end_release(ROOM, USER, UNTIL, done=False)  # given back: a retry is the second attempt
    store.hold_slot(s, SLOT, NOW, UNTIL)
    assert store.claim_release(ROOM, USER, UNTIL, NOW, LEASE) == 2
    later = NOW + timedelta(seconds=LEASE + 1)
    assert store.claim_release(ROOM, USER, UNTIL, later, LEASE) == 3  # a dead attempt's claim is taken over
    store.end_release(ROOM, USER, UNTIL, done=True)
    assert store.claim_release(ROOM, USER, UNTIL, later + timedelta(hours=1), LEASE) == 0
    assert store.release_held_until(ROOM, USER, UNTIL) is None  # done: nothing to wait for


# --- QuietRules --------------------------------------------------------------------------------
def test_quiet_hours_are_kept_replaced_and_cleared_per_user(store: Store) -> None:
    rule = QuietHours("22:00", "07:30", "Europe/Madrid", ("fri",))
    assert store.quiet_hours(ROOM, "@ana:example.org") is None
    store.put_quiet_hours(ROOM, "@ana:example.org", rule)
    store.put_quiet_hours(ROOM, "@ana:example.org", replace(rule, start="23:00"))
    assert store.quiet_hours(ROOM, "@ana:example.org") == replace(rule, start="23:00")
    assert store.quiet_hours(ROOM, "@bo:example.org") is None
    assert store.clear_quiet_hours(ROOM, "@ana:example.org")
    assert not store.clear_quiet_hours(ROOM, "@ana:example.org")


def test_times_come_from_the_caller(store: Store) -> None:
    """No implementation reads a clock: a lease is measured from the `now` it is given."""
    s = schedule("s1")
    store.insert(s, 5)
    far = datetime(2041, 3, 1, tzinfo=UTC)
    store.claim_slot(ROOM, "s1", SLOT, far, LEASE, s)
    until = store.held_until(ROOM, "s1", SLOT)
    assert until is not None and iso_utc(until) == iso_utc(far + timedelta(seconds=LEASE))


def test_a_new_rule_marks_its_users_reminders_and_a_create_that_read_none_is_refused(store: Store) -> None:
    """A reminder's fire reads its user's rule only when the schedule says the user has one: a rule set
    marks the user's reminders in the room (a new version each), never an agent call's or another user's;
    a create written as its user having none, once the user has one, is refused and made again."""
    ana, rule = "@ana:example.org", QuietHours("22:00", "07:00", "UTC")
    store.insert(schedule("s1", quiet_hours_set=False), 5)
    store.insert(schedule("s2", kind=models.AGENT_CALL, prompt="summary", quiet_hours_set=None), 5)
    store.insert(schedule("s3", user_id="@bo:example.org", quiet_hours_set=False), 5)
    store.put_quiet_hours(ROOM, ana, rule)
    marked = store.get(ROOM, "s1")
    assert marked is not None and marked.quiet_hours_set is True and marked.version == 1
    agent, other = store.get(ROOM, "s2"), store.get(ROOM, "s3")
    assert agent is not None and not agent.quiet_hours_set and agent.version == 0
    assert other is not None and other.quiet_hours_set is False and other.version == 0
    with pytest.raises(QuietHoursChanged):
        store.insert(schedule("s4", quiet_hours_set=False), 5)
    assert store.get(ROOM, "s4") is None
    store.insert(schedule("s4", quiet_hours_set=True), 5)
    assert store.clear_quiet_hours(ROOM, ana)
    store.insert(schedule("s5", quiet_hours_set=False), 5)  # none again: written as read
