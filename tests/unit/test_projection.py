"""The projection (pure): what Scheduler must hold for an item's version, and the writes between two."""

from __future__ import annotations

import json
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from itertools import pairwise

from cronbell.core.domain import models, projection
from cronbell.core.domain.projection import NextRepeat, Orphan, plan, targets
from cronbell.core.domain.timing import Timing

NOW = datetime(2030, 1, 7, 8, 0, tzinfo=UTC)


def schedule(**fields: object) -> models.Schedule:
    timing = fields.pop("timing", None) or Timing(zone="Europe/Madrid", cron="0 9 * * *", cron_source="0 9 * * *")
    base: dict[str, object] = {
        "id": "k3v9q2m8xa",
        "room_id": "!room:example.org",
        "user_id": "@ana:example.org",
        "agent_id": "bot",
        "kind": models.MESSAGE,
        "timing": timing,
        "locale": "en",
        "created_at": datetime(2030, 1, 1, tzinfo=UTC),
        "text": "stand up",
    }
    return models.Schedule(**{**base, **fields})  # type: ignore[arg-type]


def one_shot(at: datetime) -> models.Schedule:
    return schedule(timing=Timing(zone="Europe/Madrid", at=at.astimezone(UTC)))


def test_a_new_schedule_projects_its_entry_enabled_with_its_input() -> None:
    new = schedule()
    out = plan(None, new, NOW)
    (put,) = out.puts
    assert put.name == new.id and put.enabled
    assert put.entry.timezone == "Europe/Madrid" and put.entry.expression.startswith("cron(")
    assert json.loads(put.input)["reminder_id"] == new.id
    assert out.deletes == []


def test_a_write_that_changes_nothing_scheduler_sees_writes_nothing() -> None:
    old = schedule()
    new = replace(
        old,
        text="another text",
        version=old.version + 1,
        fire_count=3,
        last_fired_at=datetime(2030, 1, 6, 8, tzinfo=UTC),
    )
    assert plan(old, new, NOW).empty


def test_a_pause_writes_the_entry_disabled_and_a_resume_enabled() -> None:
    active = schedule()
    paused = replace(active, status=models.PAUSED)
    (put,) = plan(active, paused, NOW).puts
    assert not put.enabled
    (put,) = plan(paused, active, NOW).puts
    assert put.enabled


def test_a_deleted_item_deletes_its_entries_but_a_one_shot_that_fired_is_left_to_scheduler() -> None:
    recurring = schedule()
    assert plan(recurring, None, NOW).deletes == [recurring.id]
    fired = one_shot(NOW - timedelta(minutes=1))
    assert plan(fired, None, NOW).deletes == []  # Scheduler removed it once fired
    pending = one_shot(NOW + timedelta(hours=1))
    assert plan(pending, replace(pending, status=models.DELETED), NOW).deletes == [pending.id]


def test_a_switch_between_one_time_and_recurring_deletes_the_entry_before_writing_it() -> None:
    once = one_shot(NOW + timedelta(hours=2))
    recurring = replace(once, timing=schedule().timing)
    out = plan(once, recurring, NOW)
    assert out.deletes == [once.id] and [p.name for p in out.puts] == [once.id]


def test_each_held_period_projects_its_release_which_the_projection_never_deletes() -> None:
    until = "2030-01-07T06:30:00Z"
    holding = replace(schedule(), releases=frozenset({until}))
    out = plan(schedule(), holding, NOW)
    (release,) = out.puts
    assert release.name.startswith("cronbell-qr-") and json.loads(release.input)["release_until"] == until
    assert plan(holding, replace(holding, status=models.DELETED, releases=frozenset()), NOW).deletes == [
        holding.id
    ]  # its own entry; the release posts what it held whatever became of the schedule


def test_a_pending_repeat_projects_its_entry_and_an_acknowledgement_deletes_it() -> None:
    pending = NextRepeat("!room:example.org", "k3v9q2m8xa", "2030-01-07T08:00:00Z", 2, "2030-01-07T08:20:00Z")
    (put,) = plan(None, pending, NOW).puts
    assert put.entry.repeat == 2 and put.entry.one_time
    assert json.loads(put.input)["repeat"] == 2 and json.loads(put.input)["repeat_of"] == pending.occurrence
    assert plan(pending, None, NOW).deletes == [put.name]
    moved = replace(pending, due="2030-01-07T09:00:00Z", moved=True)
    (moved_put,) = plan(pending, moved, NOW).puts
    assert moved_put.name != put.name  # never the name of the entry Scheduler is firing


def test_a_run_now_waiting_for_a_delivery_fires_the_minute_after_its_lease_then_after_it_ends() -> None:
    lease_end = NOW + timedelta(minutes=5, seconds=10)
    held = replace(schedule(), manual_waiting=frozenset({"2030-01-07T08:00:00Z"}), inflight_until=lease_end)
    (waiting,) = [t for t in targets(held, NOW).values() if t.name.endswith(projection.WAITING_SUFFIX)]
    assert waiting.entry.expression == "at(2030-01-07T08:06:00)"
    event = json.loads(waiting.input)
    assert event["run_now"] is True and event["scheduled_time"] == "2030-01-07T08:00:00Z"
    ended = replace(held, inflight_until=None)
    (moved,) = plan(held, ended, NOW + timedelta(seconds=30)).puts
    assert moved.entry.expression == "at(2030-01-07T08:01:00)"
    done = replace(ended, manual_waiting=frozenset())
    assert plan(ended, done, NOW + timedelta(seconds=40)).deletes == [waiting.name]


def test_runs_waiting_their_turn_share_one_entry_for_the_earliest_then_the_next() -> None:
    first, second = "2030-01-07T07:58:00Z", "2030-01-07T08:00:00Z"
    both = replace(schedule(), manual_waiting=frozenset({second, first}), inflight_until=NOW)
    (entry,) = [t for t in targets(both, NOW).values() if t.name.endswith(projection.WAITING_SUFFIX)]
    assert json.loads(entry.input)["scheduled_time"] == first
    (after,) = plan(both, replace(both, manual_waiting=frozenset({second})), NOW).puts
    assert after.name == entry.name and json.loads(after.input)["scheduled_time"] == second


def test_a_run_waiting_its_turn_keeps_its_entry_while_its_schedule_is_paused() -> None:
    waiting = replace(schedule(), manual_waiting=frozenset({"2030-01-07T08:00:00Z"}))
    paused = replace(waiting, status=models.PAUSED)
    (entry,) = [t for t in targets(paused, NOW).values() if t.name.endswith(projection.WAITING_SUFFIX)]
    assert entry.enabled  # it fires, and its run is recorded skipped (paused)
    assert not [t for t in targets(replace(waiting, status=models.DELETED), NOW).values()]


def test_an_orphan_mark_deletes_only_entries_that_fire_its_room_and_id() -> None:
    out = plan(None, Orphan("!room:example.org", "k3v9q2m8xa", ("k3v9q2m8xa", "k3v9q2m8xa-snooze")), NOW)
    assert out.deletes_if_fire == [
        ("k3v9q2m8xa", "!room:example.org", "k3v9q2m8xa"),
        ("k3v9q2m8xa-snooze", "!room:example.org", "k3v9q2m8xa"),
    ]
    assert out.puts == [] and out.deletes == []


def test_applying_each_change_in_order_leaves_the_projection_of_the_last_version() -> None:
    """Whatever the versions, the writes of each consecutive pair take Scheduler to the last one's targets."""
    versions = [
        None,
        schedule(),
        replace(schedule(), status=models.PAUSED),
        replace(schedule(), timing=Timing(zone="UTC", cron="30 7 * * 1-5", cron_source="30 7 * * 1-5")),
        one_shot(NOW + timedelta(days=1)),
        replace(one_shot(NOW + timedelta(days=2)), releases=frozenset({"2030-01-08T06:00:00Z"})),
        replace(schedule(), status=models.DELETED),
    ]
    held: dict[str, projection.Target] = {}
    for old, new in pairwise(versions):
        out = plan(old, new, NOW)
        for name in out.deletes:
            held.pop(name, None)
        held.update({t.name: t for t in out.puts})
        wanted = targets(new, NOW)
        releases = {n for n in held if n.startswith("cronbell-qr-")}
        assert {n: t for n, t in held.items() if n not in releases} == {
            n: t for n, t in wanted.items() if n not in releases
        }
