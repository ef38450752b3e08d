"""The quiet-hours part of the reference model alone, on hand-worked cases (docs/semantics.md, "Quiet hours")."""

from datetime import UTC, datetime, timedelta

from tests.model.quiet import Quiet, Rule, answer, next_period, period_at, periods


def utc(*parts: int) -> datetime:
    return datetime(*parts, tzinfo=UTC)  # type: ignore[misc]


def test_a_period_crossing_midnight_belongs_to_the_day_it_starts() -> None:
    rule = Rule("22:00", "07:30", "UTC", ("fri",))
    # 2026-12-04 is a Friday: Friday 22:00 to Saturday 07:30
    assert period_at(rule, utc(2026, 12, 5, 3, 0)) == (utc(2026, 12, 4, 22, 0), utc(2026, 12, 5, 7, 30))
    assert period_at(rule, utc(2026, 12, 4, 22, 0)) is not None  # start included
    assert period_at(rule, utc(2026, 12, 5, 7, 30)) is None  # end not
    assert period_at(rule, utc(2026, 12, 4, 3, 0)) is None  # Friday early morning: Thursday's night, not listed
    assert period_at(rule, utc(2026, 12, 5, 23, 0)) is None  # Saturday night: not listed


def test_two_users_in_one_room_are_quiet_each_by_their_own_rule() -> None:
    quiet = Quiet()
    quiet.set("U1", Rule("22:00", "07:00", "UTC"))
    quiet.set("U2", Rule("12:00", "13:00", "Europe/Madrid"))
    assert quiet.quiet("U1", utc(2026, 12, 2, 23, 0)) is not None
    assert quiet.quiet("U2", utc(2026, 12, 2, 23, 0)) is None
    assert quiet.quiet("U2", utc(2026, 12, 2, 11, 30)) == (utc(2026, 12, 2, 11, 0), utc(2026, 12, 2, 12, 0))
    assert quiet.clear("U1") and not quiet.clear("U1")
    assert quiet.quiet("U1", utc(2026, 12, 2, 23, 0)) is None


def test_a_dst_night_in_madrid() -> None:
    # 2026-03-29: 02:00 local jumps to 03:00 (00:59:59 UTC +1 -> 01:00 UTC +2)
    gap = Rule("02:30", "06:00", "Europe/Madrid", ("sun",))
    start, end = period_at(gap, utc(2026, 3, 29, 2, 0)) or (None, None)
    assert start == utc(2026, 3, 29, 1, 0)  # the first instant after the gap (03:00 local)
    assert end == utc(2026, 3, 29, 4, 0)  # 06:00 CEST
    # 2026-10-25: 03:00 local goes back to 02:00; 02:30 happens twice, the first is 00:30 UTC
    fold = Rule("02:30", "08:00", "Europe/Madrid", ("sun",))
    assert period_at(fold, utc(2026, 10, 25, 0, 30)) == (utc(2026, 10, 25, 0, 30), utc(2026, 10, 25, 7, 0))
    assert period_at(fold, utc(2026, 10, 25, 0, 29)) is None
    # a night across the change is one hour longer on the timeline
    night = Rule("22:00", "07:00", "Europe/Madrid", ("sat",))
    ((s, e),) = periods(night, utc(2026, 10, 24, 12), utc(2026, 10, 25, 12))
    assert e - s == timedelta(hours=10)


def test_a_count_of_3_hourly_through_a_night_is_held_into_one_release() -> None:
    quiet = Quiet()
    quiet.set("U1", Rule("22:00", "07:00", "UTC"))
    slots = [utc(2026, 12, 2, 23), utc(2026, 12, 3, 0), utc(2026, 12, 3, 1)]
    for slot in slots:
        p = quiet.holds("U1", slot, slot + timedelta(seconds=2))
        assert p is not None
        quiet.hold("U1", p[1], "s1", slot)
    (release,) = quiet.due(utc(2026, 12, 3, 7))
    assert release.end == utc(2026, 12, 3, 7) and release.held == [("s1", t) for t in slots]
    assert quiet.held_until("s1") == utc(2026, 12, 3, 7)
    assert quiet.due(utc(2026, 12, 3, 6, 59)) == []
    # a fire that starts after the period ended is not held, even for a slot inside it
    assert quiet.holds("U1", utc(2026, 12, 3, 6, 59), utc(2026, 12, 3, 7, 0)) is None


def test_the_answer_of_get_quiet_hours() -> None:
    rule = Rule("22:00", "07:00", "Europe/Madrid", ("mon", "tue"))
    now = utc(2026, 12, 2, 12)  # a Wednesday: next is Monday 7th
    assert answer(rule, now) == {
        "quiet_hours": {"start": "22:00", "end": "07:00", "timezone": "Europe/Madrid", "days": ["mon", "tue"]},
        "next_period": {"start": "2026-12-07T22:00:00+01:00", "end": "2026-12-08T07:00:00+01:00"},
    }
    assert next_period(rule, utc(2026, 12, 8, 1)) == (utc(2026, 12, 7, 21), utc(2026, 12, 8, 6))  # the current one
    assert answer(None, now) == {"quiet_hours": None, "next_period": None}


def test_the_room_holds_a_count_of_3_hourly_and_releases_it_once() -> None:
    from tests.model.reference import Room, Schedule

    room = Room(now=utc(2026, 12, 2, 21, 30))
    room.quiet.set("U1", Rule("22:00", "07:00", "UTC"))
    s = Schedule("s1", "message", "UTC", cron="0 23,0,1 * * *", count=3, user="U1")
    room.created(s)
    assert room.held_until(s) == utc(2026, 12, 3, 7)  # its next fire falls in the night
    for slot in (utc(2026, 12, 2, 23), utc(2026, 12, 3, 0), utc(2026, 12, 3, 1)):
        room.fire("s1", slot, slot + timedelta(seconds=1))
    assert s.status == "active" and room.next_fire(s) is None and s.runs == []
    assert room.held_until(s) == utc(2026, 12, 3, 7)
    (release,) = room.releases_due(utc(2026, 12, 3, 7))
    room.release(release, utc(2026, 12, 3, 7, 0, 2))
    assert [(r.outcome, r.reason, r.late_seconds) for r in s.runs] == [
        ("delivered", "quiet_hours", 8 * 3600 + 2),
        ("delivered", "quiet_hours", 7 * 3600 + 2),
        ("delivered", "quiet_hours", 6 * 3600 + 2),
    ]
    assert s.status == "completed" and room.held_until(s) is None
    assert [p.what for p in room.posts] == ["release"] + ["held_occurrence"] * 3


def test_a_one_shot_set_inside_its_own_quiet_hours_and_a_deleted_one() -> None:
    from tests.model.reference import Room, Schedule

    room = Room(now=utc(2026, 12, 2, 21, 30))
    room.quiet.set("U1", Rule("22:00", "07:00", "UTC"))
    room.quiet.set("U2", Rule("23:00", "06:00", "UTC"))
    own = Schedule("a", "message", "UTC", at=utc(2026, 12, 2, 23, 30), user="U1")
    room.exempt_on_create(own)
    other = Schedule("b", "message", "UTC", at=utc(2026, 12, 2, 23, 30), user="U2")
    gone = Schedule("c", "message", "UTC", at=utc(2026, 12, 2, 23, 45), user="U2")
    for s in (own, other, gone):
        room.created(s)
    assert own.quiet_exempt and room.held_until(own) is None
    room.fire("a", own.at, own.at)  # type: ignore[arg-type]
    room.fire("b", other.at, other.at)  # type: ignore[arg-type]
    room.fire("c", gone.at, gone.at)  # type: ignore[arg-type]
    assert own.status == "fired" and other.status == "active" and room.held_until(other) == utc(2026, 12, 3, 6)
    room.pause("b")  # a pause does not stop a held post
    room.delete("c")  # a delete drops it
    (release,) = room.releases_due(utc(2026, 12, 3, 6))
    room.release(release, utc(2026, 12, 3, 6))
    assert [(p.what, p.schedule) for p in room.posts] == [
        ("occurrence", "a"),
        ("release", "U2"),
        ("held_occurrence", "b"),
    ]
    assert gone.runs == [] and [r.reason for r in other.runs] == ["quiet_hours"]


def test_a_fire_past_a_count_its_holds_used_records_nothing_and_the_release_completes_it() -> None:
    from tests.model.reference import Room, Schedule

    room = Room(now=utc(2026, 12, 2, 21, 30))
    room.quiet.set("U1", Rule("22:00", "07:00", "UTC"))
    s = Schedule("s1", "message", "UTC", cron="0 23,0,1 * * *", count=2, user="U1")
    room.created(s)
    for slot in (utc(2026, 12, 2, 23), utc(2026, 12, 3, 0), utc(2026, 12, 3, 1)):
        room.fire("s1", slot, slot + timedelta(seconds=1))
    assert sorted(s.held) == [utc(2026, 12, 2, 23), utc(2026, 12, 3, 0)]  # not the third: its count is used
    assert s.status == "active" and s.delivered == 2 and s.runs == []
    (release,) = room.releases_due(utc(2026, 12, 3, 7))
    room.release(release, utc(2026, 12, 3, 7))
    assert [r.reason for r in s.runs] == ["quiet_hours", "quiet_hours"] and s.status == "completed"
