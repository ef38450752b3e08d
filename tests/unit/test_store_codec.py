"""The store's codec: items <-> domain values, old items still read, cancellations by identity."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

from botocore.exceptions import ClientError

from cronbell.adapters.aws import AwsError
from cronbell.adapters.dynamo import codec
from cronbell.adapters.dynamo.table import cancelled
from cronbell.core.domain import models
from cronbell.core.domain.cron.fires import anchored
from cronbell.core.domain.cron.spec import CronSpec, Interval
from cronbell.core.domain.models import Schedule
from cronbell.core.domain.timing import Timing

MADRID = ZoneInfo("Europe/Madrid")
NOW = datetime(2026, 11, 30, 8, 0, tzinfo=UTC)


def schedule(timing: Timing) -> Schedule:
    return Schedule(
        id="k3v9q2m8xa",
        room_id="!r:x",
        user_id="@u:x",
        agent_id="a",
        kind=models.MESSAGE,
        timing=timing,
        locale="en",
        created_at=datetime(2026, 11, 30, 8, tzinfo=UTC),
        text="stand up",
    ).with_dedupe_key()


def test_a_recurring_schedule_with_skip_and_snooze_survives_the_round_trip() -> None:
    base = Timing.every(CronSpec(expr="0 9 * * *", source="every day at 9"), MADRID)
    first = base.upcoming(NOW, 1)[0]
    original = schedule(base.snoozed(first, datetime(2026, 12, 1, 10, 30, tzinfo=UTC), NOW).skipping(first))
    item = codec.dump(codec.schedule_item(original))
    assert codec.schedule_from_item(item) == original
    assert original.timing.upcoming(NOW, 2)[0] == datetime(2026, 12, 1, 11, 30, tzinfo=MADRID)


def test_a_one_shot_survives_the_round_trip() -> None:
    original = schedule(Timing.once(datetime(2026, 12, 1, 9, 0, tzinfo=MADRID), MADRID))
    back = codec.schedule_from_item(codec.dump(codec.schedule_item(original)))
    assert back == original and back.timing.expressions == ("at(2026-12-01T08:00:00)",)


def test_runs_waiting_their_turn_read_as_a_set_also_as_0_4_0_wrote_one() -> None:
    item = codec.dump(codec.schedule_item(schedule(Timing.once(datetime(2026, 12, 1, 9, 0, tzinfo=MADRID), MADRID))))
    assert codec.schedule_from_item(item).manual_waiting == frozenset()
    both = {"2026-11-30T08:00:01Z", "2026-11-30T08:05:01Z"}
    assert codec.schedule_from_item({**item, **codec.dump({"manual_waiting": both})}).manual_waiting == both
    one = codec.dump({"manual_waiting": "2026-11-30T08:00:01Z"})
    assert codec.schedule_from_item({**item, **one}).manual_waiting == {"2026-11-30T08:00:01Z"}


def test_an_item_written_before_the_timing_value_is_still_read() -> None:
    """Deployed tables hold items whose snooze is an at(...) expression in UTC."""
    old = {
        "room_id": "!r:x",
        "sk": "s#k3v9q2m8xa",
        "id": "k3v9q2m8xa",
        "user_id": "@u:x",
        "agent_id": "a",
        "kind": "message",
        "timezone": "Europe/Madrid",
        "locale": "en",
        "created_at": "2026-11-30T08:00:00Z",
        "text": "stand up",
        "at": "",
        "cron": "0 9 * * *",
        "cron_source": "0 9 * * *",
        "expressions": ["cron(0 9 * * ? *)"],
        "skip_slot": "2026-12-01T08:00:00Z",
        "snooze_at": "at(2026-12-01T09:30:00)",
        "status": "active",
        "fire_count": 3,
        "version": 4,
    }
    got = codec.schedule_from_item(codec.dump(old))
    assert got.timing.snoozes == (datetime(2026, 12, 1, 9, 30, tzinfo=UTC),)
    assert got.timing.skips == {"2026-12-01T08:00:00Z"} and got.fire_count == 3 and got.version == 4
    assert [e.name for e in got.entries()] == ["k3v9q2m8xa", "k3v9q2m8xa-snooze"]
    assert got.timing.upcoming(NOW, 1)[0] == datetime(2026, 12, 1, 10, 30, tzinfo=MADRID)


def _put(sk: str) -> dict[str, object]:
    return {"Put": {"Item": codec.dump({"room_id": "!r:x", "sk": sk})}}


def test_cancellation_reasons_are_read_by_the_item_they_name() -> None:
    items = [_put("room"), _put("s#a"), _put("d#k")]
    error = ClientError(
        {
            "Error": {"Code": "TransactionCanceledException", "Message": "cancelled"},
            "CancellationReasons": [
                {"Code": "None"},
                {"Code": "None"},
                {"Code": "ConditionalCheckFailed", "Item": {"schedule_id": {"S": "b"}}},
            ],
        },
        "TransactWriteItems",
    )
    failed = cancelled(AwsError(error), items)
    assert failed == {("!r:x", "d#k"): {"schedule_id": {"S": "b"}}}


def test_snoozes_add_up_and_skips_form_a_set() -> None:
    daily = Timing.every(CronSpec(expr="0 12 * * *", source="0 12 * * *"), MADRID)
    noon = daily.upcoming(NOW, 1)[0]
    once = daily.snoozed(noon, noon + timedelta(minutes=60), NOW)
    twice = once.snoozed(once.upcoming(NOW, 1)[0], once.upcoming(NOW, 1)[0] + timedelta(minutes=60), NOW)
    assert twice.upcoming(NOW, 1)[0] == noon + timedelta(hours=2)  # 14:00, and 12:00 stays skipped
    assert twice.skips == {"2026-11-30T11:00:00Z"} and len(twice.snoozes) == 1
    first = daily.skipping(noon)
    second = first.skipping(first.upcoming(NOW, 1)[0])
    assert second.skips == {"2026-11-30T11:00:00Z", "2026-12-01T11:00:00Z"}
    assert second.upcoming(NOW, 1)[0] == noon + timedelta(days=2)


def test_skips_written_before_snoozes_were_told_apart_read_as_before() -> None:
    base = Timing.every(CronSpec(expr="0 9 * * *", source="0 9 * * *"), MADRID)
    item = codec.dump(codec.schedule_item(schedule(base)))
    item.update(codec.dump({"skips": ["2026-12-01T08:00:00Z"], "snoozes": ["2026-12-01T08:30:00Z"]}))
    del item["moved"]
    assert codec.schedule_from_item(item).timing.skip_reason("2026-12-01T08:00:00Z") == "snoozed"
    skipped = schedule(base.skipping(datetime(2026, 12, 1, 8, 0, tzinfo=UTC)))
    written = codec.schedule_from_item(codec.dump(codec.schedule_item(skipped)))
    assert written.timing.skip_reason("2026-12-01T08:00:00Z") == "skip_next"


def test_an_every_other_week_schedule_keeps_its_interval_and_anchor() -> None:
    spec = CronSpec(expr="0 10 * * 1", source="every other monday at 10", interval=Interval(2, "weeks"))
    original = schedule(Timing.every(anchored(spec, NOW, MADRID), MADRID))
    item = codec.schedule_item(original)
    assert item["cron"] == "0 10 * * 1" and item["expressions"] == ["cron(0 10 ? * 2 *)"]
    assert item["interval"] == {"every": 2, "unit": "weeks", "anchor": "2026-11-30"}
    back = codec.schedule_from_item(codec.dump(item))
    assert back == original and back.timing.text == "every 2 weeks on Mon at 10:00 from 2026-11-30"
    assert codec.schedule_item(schedule(Timing.every(CronSpec("0 10 * * 1", "0 10 * * 1"), MADRID)))["interval"] is None


def test_an_audit_copy_is_the_live_item_under_the_retired_key_and_reads_as_deleted_alone() -> None:
    live = schedule(Timing.every(CronSpec("0 9 * * *", "0 9 * * *"), MADRID))
    copy = codec.audit_item(live)
    assert copy["sk"] == f"x#{live.id}" and {**copy, "sk": f"s#{live.id}"} == codec.schedule_item(live)
    assert "expires_at" not in copy
    alone = codec.retired_from_item(codec.dump(copy))
    assert alone.status == models.DELETED and alone.timing == live.timing
    fired = codec.dump({**codec.schedule_item(live), "status": models.FIRED})
    assert codec.retired_from_item(fired).status == models.FIRED  # a final copy says what it became


def test_a_done_slot_holds_its_run_without_the_fields_at_their_defaults_and_reads_it_back_whole() -> None:
    from cronbell.core.domain.runs import Run

    ref = codec.SlotRef("!r:x", "k3v9q2m8xa", "2026-11-30T08:00:00Z")
    run = Run("2026-11-30T09:00:00+01:00", "skipped", "skip_next")
    item = codec.run_item(ref, run, 1_800_000_000)
    assert item["sk"] == "f#k3v9q2m8xa#2026-11-30T08:00:00Z" and item["state"] == codec.DONE
    assert item["run"] == {"scheduled_time": "2026-11-30T09:00:00+01:00", "outcome": "skipped", "reason": "skip_next"}
    assert codec.run_from_item(codec.dump(item)) == run
    assert codec.claim_from_item(codec.dump(item)) is None  # a done slot is no open claim
    claimed = codec.dump(codec.claim_item(ref, "2026-11-30T08:00:01Z", "2026-11-30T08:05:06Z", 1_800_000_000))
    assert codec.lease_from_item(claimed) == datetime(2026, 11, 30, 8, 5, 6, tzinfo=UTC)
    claim = codec.claim_from_item(claimed)
    assert claim is not None and (claim.room_id, claim.owner, claim.slot) == (ref.room_id, ref.owner, ref.slot)


def test_an_update_names_every_attribute_and_value_it_writes_and_removes() -> None:
    from cronbell.adapters.dynamo.expressions import Update

    update = Update().set("count", 3).clause("version = version + :one", one=1).remove("until, skip_holidays")
    request = update.request("version = :v", {"#s": "status"}, {":v": 7})
    assert request["UpdateExpression"] == "SET #u0 = :u0, version = version + :one REMOVE #r0, #r1"
    assert request["ExpressionAttributeNames"] == {
        "#u0": "count",
        "#r0": "until",
        "#r1": "skip_holidays",
        "#s": "status",
    }
    assert codec.load(request["ExpressionAttributeValues"]) == {":u0": 3, ":one": 1, ":v": 7}
    assert request["ConditionExpression"] == "version = :v"


def test_a_quiet_exempt_one_shot_survives_the_round_trip_and_items_without_it_read_as_not_exempt() -> None:
    plain = schedule(Timing.once(datetime(2026, 12, 1, 23, 0, tzinfo=MADRID), MADRID))
    assert "quiet_exempt" not in codec.schedule_item(plain)  # older items and most new ones hold none
    assert codec.schedule_from_item(codec.dump(codec.schedule_item(plain))).quiet_exempt is False
    exempt = replace(plain, quiet_exempt=True)
    assert codec.schedule_from_item(codec.dump(codec.schedule_item(exempt))) == exempt
    assert "quiet_exempt" in codec.WHEN_SET  # a rewrite that clears it removes the attribute


def test_quiet_hours_are_one_item_under_the_users_key_in_the_rooms_partition() -> None:
    from cronbell.core.domain.quiet_hours import QuietHours

    rule = QuietHours("22:00", "07:30", "Europe/Madrid", ("fri", "sat"))
    item = codec.quiet_item("!r:x", "@u:x", rule)
    assert codec.identity({"Put": {"Item": item}}) == ("!r:x", "q#@u:x")
    assert not item["sk"]["S"].startswith((codec.SCHEDULE, codec.RETIRED, codec.POINTER, codec.NAME, codec.SLOT))
    assert codec.quiet_from_item(item) == rule
