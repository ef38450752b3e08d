"""Quiet hours on a moto server: the store keeps one rule per (room, user) beside the room's
schedules, and the tools set, read and clear the caller's own."""

from __future__ import annotations

from typing import Any

import pytest

from cronbell.core.domain.quiet_hours import DAYS, QuietHours
from cronbell.usecases import tools
from tests.support.aws import Stack
from tests.support.envelopes import OTHER_ROOM, ROOM, USER, envelope
from tests.support.tools import assert_consistent, call, fire_at, ok, schedule_item

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


NIGHTS = {"start": "22:00", "end": "07:30"}


def rule_of(answer: dict[str, Any]) -> Any:
    return ok(answer)["quiet_hours"]


def fields(answer: dict[str, Any]) -> dict[str, Any]:
    """The result, less the `now` every answer carries (checked there)."""
    result = dict(ok(answer))
    assert set(result.pop("now")) == {"local", "utc"}
    return result


def test_set_get_and_clear_in_english(stack: Stack) -> None:
    assert fields(call(stack, "get_quiet_hours")) == {"quiet_hours": None, "next_period": None}
    set_ = call(stack, "set_quiet_hours", NIGHTS)
    assert fields(set_) == {
        "quiet_hours": {"start": "22:00", "end": "07:30", "timezone": "Europe/Madrid", "days": list(DAYS)},
        "next_period": {"start": "2026-11-30T22:00:00+01:00", "end": "2026-12-01T07:30:00+01:00"},
    }
    assert set_["text"].startswith("Your quiet hours in this room are set: 22:00 to 07:30, every day (Europe/Madrid)")
    assert "the next from Monday 30 November, 22:00 to Tuesday 1 December, 07:30" in set_["text"], set_["text"]
    got = call(stack, "get_quiet_hours")
    assert ok(got) == ok(set_) and got["text"].startswith("Your quiet hours in this room: 22:00 to 07:30")
    stack.clock.advance(hours=14)  # 23:00 in Madrid: the period under way
    assert ok(call(stack, "get_quiet_hours"))["next_period"]["start"] == "2026-11-30T22:00:00+01:00"
    cleared = call(stack, "clear_quiet_hours")
    assert fields(cleared) == {"cleared": True} and "are cleared" in cleared["text"]
    again = call(stack, "clear_quiet_hours")
    assert fields(again) == {"cleared": False} and "nothing changed" in again["text"]
    assert fields(call(stack, "get_quiet_hours")) == {"quiet_hours": None, "next_period": None}
    assert [i for i in stack.items() if i["sk"].startswith("q#")] == []


def test_set_get_and_clear_in_spanish_with_days_and_a_zone(stack: Stack) -> None:
    args = {**NIGHTS, "timezone": "america/new_york", "days": ["sat", "fri"]}
    set_ = call(stack, "set_quiet_hours", args, locale="es")
    assert fields(set_) == {
        "quiet_hours": {"start": "22:00", "end": "07:30", "timezone": "America/New_York", "days": ["fri", "sat"]},
        "next_period": {"start": "2026-12-04T22:00:00-05:00", "end": "2026-12-05T07:30:00-05:00"},
    }
    assert set_["text"].startswith(
        "Tus horas de silencio en esta sala quedan guardadas: de 22:00 a 07:30, días de inicio: viernes y sábado"
    ), set_["text"]
    assert "del viernes 4 de diciembre, 22:00 al sábado 5 de diciembre, 07:30" in set_["text"]
    assert call(stack, "get_quiet_hours", locale="es")["text"].startswith(
        "Tus horas de silencio en esta sala: de 22:00"
    )
    assert call(stack, "clear_quiet_hours", locale="es")["text"].startswith("Tus horas de silencio en esta sala se han")
    assert call(stack, "clear_quiet_hours", locale="es")["text"].startswith("No tenías horas de silencio")
    assert call(stack, "get_quiet_hours", locale="es")["text"].startswith(
        "No tienes horas de silencio en esta sala. Son"
    )


def test_two_users_in_one_room_keep_their_own_rules(stack: Stack) -> None:
    ok(call(stack, "set_quiet_hours", NIGHTS))
    ok(call(stack, "set_quiet_hours", {"start": "13:00", "end": "15:00", "timezone": "UTC"}, user=BEA))
    ok(call(stack, "set_quiet_hours", {"start": "08:00", "end": "09:00"}, room=OTHER_ROOM))
    assert rule_of(call(stack, "get_quiet_hours"))["start"] == "22:00"
    assert rule_of(call(stack, "get_quiet_hours", user=BEA))["start"] == "13:00"
    assert rule_of(call(stack, "get_quiet_hours", room=OTHER_ROOM))["start"] == "08:00"
    assert fields(call(stack, "clear_quiet_hours", user=BEA)) == {"cleared": True}
    assert rule_of(call(stack, "get_quiet_hours", user=BEA)) is None
    assert rule_of(call(stack, "get_quiet_hours"))["start"] == "22:00"


BAD: list[tuple[dict[str, Any], str]] = [
    ({"start": "7:30", "end": "08:00"}, "start"),
    ({"start": "24:00", "end": "08:00"}, "start"),
    ({"start": "22:60", "end": "08:00"}, "start"),
    ({"start": "22:00:00", "end": "08:00"}, "start"),
    ({"start": "２２:００", "end": "08:00"}, "start"),
    ({"start": "22:00", "end": "ten"}, "end"),
    ({"start": "22:00", "end": "22:00"}, "end"),
    ({"start": "22:00", "end": "07:30", "days": []}, "days"),
    ({"start": "22:00", "end": "07:30", "days": ["fri", "fri"]}, "days"),
    ({"start": "22:00", "end": "07:30", "days": ["friday"]}, "days"),
    ({"start": "22:00", "end": "07:30", "days": "fri"}, "days"),
    ({"start": "22:00", "end": "07:30", "days": ["mon"] * 8}, "days"),
    ({"start": "22:00", "end": "07:30", "timezone": "Mars/Olympus"}, "timezone"),
    ({"start": "22:00", "end": "07:30", "timezone": "localtime"}, "timezone"),
    ({"start": "22:00", "end": "07:30", "timezone": ""}, "timezone"),
    ({"start": 2200, "end": "07:30"}, "start"),
    ({"start": "22:00"}, "end"),
    ({}, "start"),
    ({"start": "22:00", "end": "07:30", "user_id": BEA}, "user_id"),
    ({"start": None, "end": "07:30"}, "start"),
]


@pytest.mark.parametrize("locale", ["en", "es"])
def test_bad_input_of_any_shape_is_refused_naming_the_argument_and_changes_nothing(stack: Stack, locale: str) -> None:
    ok(call(stack, "set_quiet_hours", {**NIGHTS, "days": ["mon"]}))
    before = sorted(map(repr, stack.items()))
    for args, argument in BAD:
        answer = call(stack, "set_quiet_hours", args, locale=locale)
        assert not answer["ok"] and answer["error"]["code"] in ("invalid_arguments", "too_long"), (args, answer)
        assert f"`{argument}" in answer["error"]["message"], (args, answer["error"])
    for tool in ("get_quiet_hours", "clear_quiet_hours"):
        answer = call(stack, tool, {"user_id": BEA}, locale=locale)
        assert answer["error"]["code"] == "invalid_arguments", answer
    assert sorted(map(repr, stack.items())) == before
    assert rule_of(call(stack, "get_quiet_hours"))["days"] == ["mon"]


def test_held_until_on_create_list_and_cron_list(stack: Stack) -> None:
    ok(call(stack, "set_quiet_hours", NIGHTS))
    nightly = call(stack, "create_reminder", {"message": "lock up", "cron": "0 23 * * *"})
    held = ok(nightly)
    assert held["next_fire"]["local"] == "2026-11-30T23:00:00+01:00"
    assert held["held_until"] == "2026-12-01T07:30:00+01:00"
    assert "held by quiet hours until Tuesday 1 December, 07:30" in nightly["text"], nightly["text"]
    morning = ok(call(stack, "create_reminder", {"message": "coffee", "cron": "0 10 * * *"}))
    assert morning["held_until"] is None
    in_york = ok(
        call(stack, "create_reminder", {"message": "call", "cron": "0 18 * * *", "timezone": "America/New_York"})
    )
    assert in_york["held_until"] == "2026-12-01T01:30:00-05:00"  # 00:00 in Madrid, until 07:30 there
    job = ok(call(stack, "cron_create", {"name": "news", "prompt": "Summarise the news", "cron_expr": "0 23 * * *"}))
    assert job["held_until"] is None  # agent calls are never held
    hers = ok(call(stack, "create_reminder", {"message": "lock up", "cron": "0 23 * * *"}, user=BEA))
    assert hers["held_until"] is None  # she has no quiet hours
    listed = call(stack, "list_reminders")
    by_id = {s["id"]: s["held_until"] for s in ok(listed)["schedules"]}
    assert by_id == {
        held["id"]: "2026-12-01T07:30:00+01:00",
        morning["id"]: None,
        in_york["id"]: "2026-12-01T01:30:00-05:00",
        job["id"]: None,
        hers["id"]: None,
    }
    assert "next Monday 30 November, 23:00, held by quiet hours until Tuesday 1 December, 07:30" in listed["text"]
    items: list[dict[str, Any]] = call(stack, "cron_list")["result"]  # cron_list's result is a list
    compact = {s["id"]: s["held_until"] for s in items}
    assert compact == by_id
    spanish = call(stack, "list_reminders", locale="es")
    assert "retenido por las horas de silencio hasta el martes 1 de diciembre, 07:30" in spanish["text"]
    ok(call(stack, "clear_quiet_hours"))
    assert {s["held_until"] for s in ok(call(stack, "list_reminders"))["schedules"]} == {None}
    ok(call(stack, "pause_reminder", {"id": held["id"]}))
    (paused,) = [s for s in ok(call(stack, "list_reminders"))["schedules"] if s["id"] == held["id"]]
    assert paused["held_until"] is None  # nothing of it to come while paused
    ok(call(stack, "set_quiet_hours", NIGHTS))
    resumed = call(stack, "resume_reminder", {"id": held["id"]})
    assert ok(resumed)["held_until"] == "2026-12-01T07:30:00+01:00"
    assert "held by quiet hours until" in resumed["text"]
    assert_consistent(stack)


def test_a_one_shot_set_inside_its_users_quiet_hours_is_exempt_until_a_new_time_decides_again(stack: Stack) -> None:
    ok(call(stack, "set_quiet_hours", NIGHTS))
    created = call(stack, "create_reminder", {"message": "take the pill", "time": "today at 23:00"})
    sid = ok(created)["id"]
    assert ok(created)["held_until"] is None
    assert "it will be delivered anyway" in created["text"], created["text"]
    assert schedule_item(stack, sid)["quiet_exempt"] is True
    spanish = call(stack, "create_reminder", {"message": "pastilla", "time": "today at 23:30"}, locale="es")
    assert "se entregará igualmente" in spanish["text"], spanish["text"]
    # a new time outside quiet hours: no longer exempt (the attribute is removed)
    moved = ok(call(stack, "update_reminder", {"id": sid, "time": "tomorrow at 12:00"}))
    assert moved["held_until"] is None and "quiet_exempt" not in schedule_item(stack, sid)
    # a new time inside them again: exempt again
    back = call(stack, "update_reminder", {"id": sid, "time": "tomorrow at 23:00"})
    assert "delivered anyway" in back["text"] and schedule_item(stack, sid)["quiet_exempt"] is True
    # a change that gives no new time keeps it
    ok(call(stack, "update_reminder", {"id": sid, "message": "take the blue pill"}))
    assert schedule_item(stack, sid)["quiet_exempt"] is True
    # someone else gives it a time inside its user's quiet hours: not exempt, so held
    other = call(stack, "update_reminder", {"id": sid, "time": "2026-12-02 23:15"}, user=BEA)
    assert ok(other)["held_until"] == "2026-12-03T07:30:00+01:00"
    assert "held by quiet hours until Thursday 3 December, 07:30" in other["text"], other["text"]
    assert "delivered anyway" not in other["text"] and "quiet_exempt" not in schedule_item(stack, sid)


def test_a_one_shot_made_before_quiet_hours_covered_its_time_is_held(stack: Stack) -> None:
    sid = ok(call(stack, "create_reminder", {"message": "bins", "time": "today at 23:00"}))["id"]
    assert "quiet_exempt" not in schedule_item(stack, sid)
    ok(call(stack, "set_quiet_hours", NIGHTS))
    (listed,) = ok(call(stack, "list_reminders"))["schedules"]
    assert listed["held_until"] == "2026-12-01T07:30:00+01:00"


def test_quiet_hours_set_while_a_reminder_is_created_hold_its_fires(
    stack: Stack, monkeypatch: pytest.MonkeyPatch
) -> None:
    """set_quiet_hours lands between a create's read of the rule (none yet) and its write, as two
    tool calls of one turn may: the create is written again, reads the rule, and its fire is held."""
    deps = stack.deps()
    read = deps.store.quiet_hours
    raced: list[dict[str, Any]] = []

    def read_then_race(room_id: str, user_id: str) -> QuietHours | None:
        rule = read(room_id, user_id)
        if not raced:
            raced.append(rule_of(call(stack, "set_quiet_hours", NIGHTS)))
        return rule

    monkeypatch.setattr(deps.store, "quiet_hours", read_then_race)
    answer = tools.handle(envelope("create_reminder", {"message": "late call", "cron": "0 23 * * *"}), deps)
    sid = ok(answer)["id"]
    assert raced and schedule_item(stack, sid)["quiet_hours_set"] is True
    assert ok(answer)["held_until"] is not None  # its answer already says when it is posted
    assert fire_at(stack, sid, "2026-11-30T22:00:00Z")["outcome"] == "held"


def test_the_reconciler_marks_reminders_a_failed_set_left_unmarked(stack: Stack) -> None:
    """set_quiet_hours wrote the rule and listed its user, then failed before marking the user's
    reminders: the reconciler's pass marks them, so their fires read the rule again."""
    from cronbell.adapters.dynamo import codec
    from cronbell.usecases.reconcile import reconcile

    sid = ok(call(stack, "create_reminder", {"message": "stretch", "cron": "0 23 * * *"}))["id"]
    assert schedule_item(stack, sid)["quiet_hours_set"] is False
    store = stack.deps().store
    put = {"Put": {"TableName": store.table.name, "Item": codec.quiet_item(ROOM, USER, NIGHT)}}
    store.table.transact([put, store.list_quiet(ROOM, USER, present=True)])  # and no marking
    report = reconcile(stack.deps())
    assert report.quiet_marked == 1 and report.errors == 0
    assert schedule_item(stack, sid)["quiet_hours_set"] is True
    assert reconcile(stack.deps()).quiet_marked == 0
