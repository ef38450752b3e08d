"""Quiet hours on a moto server: the store keeps one rule per (room, user) beside the room's
schedules, and the tools set, read and clear the caller's own."""

from __future__ import annotations

from cronbell.core.domain.quiet_hours import QuietHours
from tests.support.aws import Stack
from tests.support.envelopes import OTHER_ROOM, ROOM, USER
from tests.support.tools import assert_consistent, call, ok

BEA = "@bea:example.org"
NIGHT = QuietHours("22:00", "07:30", "Europe/Madrid", ("mon", "tue", "wed", "thu", "fri"))


def test_the_store_keeps_one_rule_per_room_and_user_that_listings_and_scans_never_read(stack: Stack) -> None:
    store = stack.deps().store
    assert store.quiet_hours(ROOM, USER) is None
    assert store.clear_quiet_hours(ROOM, USER) is False
    sid = ok(call(stack, "create_reminder", {"message": "stretch", "time": "tomorrow at 10"}))["id"]
    store.put_quiet_hours(ROOM, USER, NIGHT)
    store.put_quiet_hours(ROOM, BEA, QuietHours("13:00", "15:00", "UTC"))
    assert store.quiet_hours(ROOM, USER) == NIGHT
    assert store.quiet_hours(OTHER_ROOM, USER) is None
    later = QuietHours("23:00", "06:00", "America/New_York", ("sat", "sun"))
    store.put_quiet_hours(ROOM, USER, later)  # replaces the earlier one
    assert store.quiet_hours(ROOM, USER) == later
    assert store.quiet_hours(ROOM, BEA) == QuietHours("13:00", "15:00", "UTC")
    assert [s.id for s in store.list_room(ROOM, stack.clock.now(), retired=True)] == [sid]
    scan = store.scan(stack.clock.now())
    assert [s.id for s in scan.schedules] == [sid] and not scan.pointers[1:] and not scan.deleted
    assert ok(call(stack, "list_reminders"))["schedules"][0]["id"] == sid
    assert store.clear_quiet_hours(ROOM, USER) is True
    assert store.quiet_hours(ROOM, USER) is None and store.clear_quiet_hours(ROOM, USER) is False
    assert store.quiet_hours(ROOM, BEA) is not None
    assert_consistent(stack)
