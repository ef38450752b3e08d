"""Quiet hours set and cleared in parallel with a create: a reminder's fire reads its user's rule only
when the schedule says the user has one (`quiet_hours_set`), so no interleaving of those tool calls
may leave a rule in force over a reminder marked as having none."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from cronbell.core.domain.quiet_hours import QuietHours
from cronbell.usecases import tools
from tests.support.aws import Stack
from tests.support.envelopes import envelope
from tests.support.tools import call, fire_at, ok, schedule_item

NIGHTS = {"start": "22:00", "end": "07:30"}
WRITES = ("put_item", "update_item", "delete_item", "transact_write_items")


class AfterFirstWrite:
    """A table client that runs `then` once, right after the first write call it passes on returns
    (or fails): what a parallel call can do between that write and the next."""

    def __init__(self, db: Any, then: Callable[[], None]) -> None:
        self._db = db
        self._then: Callable[[], None] | None = then

    def __getattr__(self, name: str) -> Any:
        method = getattr(self._db, name)
        if name not in WRITES:
            return method

        def call_then(*args: Any, **kwargs: Any) -> Any:
            try:
                return method(*args, **kwargs)
            finally:
                then, self._then = self._then, None
                if then is not None:
                    then()

        return call_then


def test_a_rule_set_while_a_clear_runs_and_a_create_races_both_is_read_by_the_fire(
    stack: Stack, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Three calls of one turn: create_reminder reads no rule; clear_quiet_hours starts, and between its
    writes set_quiet_hours runs whole; then the clear ends and the create writes. The rule is in force
    at the end, so the reminder must say its user has one, and its fire is held."""
    creating, clearing = stack.deps(), stack.deps()
    cleared: list[dict[str, Any]] = []

    def clear_with_a_set_inside() -> None:
        clearing.store.table.db = AfterFirstWrite(
            clearing.store.table.db, lambda: ok(call(stack, "set_quiet_hours", NIGHTS))
        )
        cleared.append(tools.handle(envelope("clear_quiet_hours", {}), clearing))

    read = creating.store.quiet_hours

    def read_then_race(room_id: str, user_id: str) -> QuietHours | None:
        rule = read(room_id, user_id)
        if not cleared:
            clear_with_a_set_inside()
        return rule

    monkeypatch.setattr(creating.store, "quiet_hours", read_then_race)
    sid = ok(tools.handle(envelope("create_reminder", {"message": "late call", "cron": "0 23 * * *"}), creating))["id"]
    assert cleared and ok(cleared[0])["cleared"] is False  # nothing to clear when it began
    assert ok(call(stack, "get_quiet_hours"))["quiet_hours"] is not None  # the set came last: in force
    assert schedule_item(stack, sid)["quiet_hours_set"] is True
    assert fire_at(stack, sid, "2026-11-30T22:00:00Z")["outcome"] == "held"
