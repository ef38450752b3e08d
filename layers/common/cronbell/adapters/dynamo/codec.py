"""Keys and items: the only module that knows how the table's items are laid out.

Keys (partition `room_id`, sort `sk`):
  s#<id>              a live schedule (active or paused): the room's listing reads these only
  x#<id>              the schedule's audit copy: written with the live item by every transaction
                      that creates it or changes its definition, and, once the schedule is retired
                      (deleted, fired, missed, ...), its retired copy, kept until its retention TTL.
                      A retirement writes the final copy in its transaction; a user's delete removes
                      the live item alone: a copy that says live with no live item beside it is a
                      deleted schedule's (the reconciler finalizes it). Listings of live ones never
                      read them
  room                the room's counter (`live`, guarded by MaxPerRoom) and its revision (`rev`)
  d#<dedupe key>      points at the live schedule with that action, time, zone and person
  n#<name key>        points at the live schedule with that name
  f#<id>#<slot time>  one delivery slot: claimed before sending, done after (exactly once); once
                      done it holds its state, outcome and run alone, so a schedule's history is one
                      Query on `f#<id>#` that the room's listing (`s#`) never reads
  q#<user id>         the user's quiet hours in the room (one period rule): neither the listing
                      (`s#`) nor the reconciler's scan (which sorts items by these prefixes) reads it
  o#<id>              a fire's mark of entries that fire a schedule with no item: the projection
                      removes them (each only if its Input fires that room and id); it expires
A done slot of a repeating reminder holds `next_repeat`, the pending fire of its chain; the
projection (`core/domain/projection.py`) makes the entries of every item from these shapes.
"""

from __future__ import annotations

from dataclasses import fields, replace
from datetime import date, datetime
from typing import TYPE_CHECKING, Any

from boto3.dynamodb.types import TypeDeserializer, TypeSerializer

from cronbell.core.domain import models
from cronbell.core.domain.business import SKIP
from cronbell.core.domain.cron.spec import Interval
from cronbell.core.domain.instants import iso_utc, parse_iso
from cronbell.core.domain.models import Schedule
from cronbell.core.domain.ports import Finish, OpenClaim, Pointer, RoomCount
from cronbell.core.domain.quiet_hours import QuietHours
from cronbell.core.domain.runs import History, Run
from cronbell.core.domain.timing import Timing
from cronbell.core.values import value

if TYPE_CHECKING:  # the projection's shapes: built by the projector's decoding below, loaded there
    from cronbell.core.domain.projection import Change, Projected

ROOM_SK = "room"
SCHEDULE, RETIRED, POINTER, NAME, SLOT, QUIET, ORPHAN = "s#", "x#", "d#", "n#", "f#", "q#", "o#"
NEXT_REPEAT = "next_repeat"  # on a done slot: {"n": number, "at": RFC3339 UTC, "moved": bool}
# on a schedule (or its retired copy): the slot of its last run and the fire's outcome, {"slot", "outcome"},
# which the projector writes on the slot from the stream (ledger.py); the item keeps it until its next record
UNWRITTEN = "unwritten"
# on a retired copy moved from its live key (a fire's record retired it there): the run that retired it,
# {"slot", "outcome", "run"}, which its history reads with its slots (`moved_item`, ledger.py)
FINAL_RUN = "final_run"
CLAIMED, SENT, DONE = "claimed", "sent", "done"  # a slot's states
# a schedule's mark of its open claim: the slot, when its lease ends, the attempts at it, when it was claimed
INFLIGHT = "inflight_slot, inflight_until, inflight_attempts, inflight_at, inflight_answer"
# what a slot holds only while it is claimed: a done slot keeps its state, outcome and run alone
CLAIM_ONLY = "claimed_at, lease_until, detail, noted"
# a recorded run bumps the version, so a change read before it cannot write back a stale last run
BUMP = "version = if_not_exists(version, :z) + :one"
_ser = TypeSerializer()
_deser = TypeDeserializer()
_PLAIN = tuple(f.name for f in fields(Schedule) if f.name != "timing")
QUIET_HOURS_SET = "quiet_hours_set"
QUIET_USERS = "quiet_users"  # on a room's count item: the users who have quiet hours in the room
_WHEN_KNOWN = ("quiet_exempt", QUIET_HOURS_SET)
_NUMBERS: tuple[str, ...] = ("fire_count", "agent_timeout_seconds", "version", "failure_streak", "delivered_count")
_NUMBERS += ("inflight_attempts", "repeat_every", "repeat_times")
# repeat until done: written only by a schedule that repeats (items without them read as none)
_REPEATS = ("repeat_every", "repeat_times", "escalate_to", "repeat_slot")
_LEDGER = ("inflight_slot", "inflight_attempts", "inflight_until", "inflight_answer")  # by the delivery ledger alone
# instants, stored as RFC3339 UTC ("" for none: conditions compare the strings)
_INSTANTS = ("created_at", "updated_at", "last_fired_at", "fired_at", "inflight_until")
# the release times of its occurrences held now (a string set): written by the hold and the release alone
RELEASES = "releases"
WAITING = "manual_waiting"

Key = tuple[str, str]  # (room_id, sk): an item's identity


def schedule_sk(schedule_id: str) -> str:
    return f"{SCHEDULE}{schedule_id}"


def retired_sk(schedule_id: str) -> str:
    return f"{RETIRED}{schedule_id}"


def item_key(schedule: Schedule) -> dict[str, Any]:
    """The key of the item a schedule was read from: its live item, or its retired copy."""
    live = schedule.status in models.LIVE_STATUSES
    return key(schedule.room_id, schedule_sk(schedule.id) if live else retired_sk(schedule.id))


def dedupe_sk(key: str) -> str:
    return f"{POINTER}{key}"


def name_sk(name: str) -> str:
    return f"{NAME}{models.name_key(name)}"


def pointer_sks(schedule: Schedule) -> list[str]:
    """The pointers a live schedule holds: its dedupe key, and its name if it has one."""
    return [dedupe_sk(schedule.dedupe_key), *([name_sk(schedule.name)] if schedule.name else [])]


def slot_sk(owner: str, slot: str) -> str:
    return f"{slot_prefix(owner)}{slot}"


@value
class SlotRef:
    """One delivery slot: the room, the schedule (or template schedule) that owns it, its time."""

    room_id: str
    owner: str
    slot: str

    @property
    def sk(self) -> str:
        return slot_sk(self.owner, self.slot)

    @property
    def key(self) -> dict[str, Any]:
        return key(self.room_id, self.sk)

    @property
    def identity(self) -> Key:
        return self.room_id, self.sk


def key(room_id: str, sk: str) -> dict[str, Any]:
    """The DynamoDB key of an item."""
    return dump({"room_id": room_id, "sk": sk})


def identity(transact_item: dict[str, Any]) -> Key:
    """The (room, sort key) a TransactWriteItems entry writes or checks."""
    (write,) = transact_item.values()
    raw = write.get("Key") or write["Item"]
    return str(raw["room_id"]["S"]), str(raw["sk"]["S"])


def dump(values: dict[str, Any]) -> dict[str, Any]:
    return {k: _ser.serialize(v) for k, v in values.items()}


def load(item: dict[str, Any]) -> dict[str, Any]:
    return {k: _deser.deserialize(v) for k, v in item.items()}


def epoch(dt: datetime) -> int:
    return int(dt.timestamp())


# --- schedules -------------------------------------------------------------------------------
def schedule_fields(schedule: Schedule) -> dict[str, Any]:
    """Every stored attribute of a schedule but its key. `expressions` is written for operators
    (what Scheduler was given) and never read back: the timing owns its expressions."""
    t = schedule.timing
    left_out = ("id", "room_id", *_WHEN_KNOWN, WAITING, RELEASES, *_LEDGER, *_REPEATS)
    plain = {name: getattr(schedule, name) for name in _PLAIN if name not in left_out}
    plain.update({name: _instant(getattr(schedule, name)) for name in _INSTANTS if name not in left_out})
    if schedule.repeat_every or schedule.repeat_times:  # 0 with a count kept: stopped repeating
        plain.update({name: getattr(schedule, name) for name in _REPEATS})
    if schedule.quiet_exempt:  # written only when set (items without it read as not exempt)
        plain["quiet_exempt"] = True
    if schedule.quiet_hours_set is not None:  # items written before it was kept read as None
        plain[QUIET_HOURS_SET] = schedule.quiet_hours_set
    return {
        **plain,
        "timezone": t.zone,
        "at": t.local_at.isoformat(timespec="seconds") if t.at else "",
        "cron": t.cron,
        "cron_source": t.cron_source,
        "expressions": list(t.expressions),
        "skips": sorted(t.skips),
        "moved": sorted(t.moved),
        "snoozes": [iso_utc(s) for s in t.snoozes],
        "interval": _interval_fields(t.interval),
        **ends_fields(t),
    }


# attributes of a recurrence's end, calendar and business-day rules, when it has them
ENDS = ("until", "count", "skip_holidays", "business_days", "business_day_of_month", "on_holiday")
# attributes written only when set: a rewrite that no longer has one removes it
WHEN_SET = (*ENDS, *_WHEN_KNOWN)


def ends_fields(t: Timing) -> dict[str, Any]:
    """A recurrence's end and calendar, written only when it has them (older items have none)."""
    ends: dict[str, Any] = {}
    if t.until is not None:
        ends["until"] = t.until.isoformat(timespec="seconds")
    if t.count:
        ends["count"] = t.count
    if t.calendar:
        ends["skip_holidays"] = t.calendar
    if t.business_days:
        ends["business_days"] = True
    if t.business_day:
        ends["business_day_of_month"] = t.business_day
    if t.on_holiday != SKIP:
        ends["on_holiday"] = t.on_holiday
    return ends


def schedule_item(schedule: Schedule) -> dict[str, Any]:
    """The item of a schedule, under the key of a live one or, once retired, of a retired one."""
    sk = schedule_sk(schedule.id) if schedule.status in models.LIVE_STATUSES else retired_sk(schedule.id)
    item = {"room_id": schedule.room_id, "sk": sk, "id": schedule.id, **schedule_fields(schedule)}
    if schedule.releases:  # a whole item keeps what its held occurrences wait for: retired, or back to life
        item[RELEASES] = set(schedule.releases)
    return item


def audit_item(schedule: Schedule) -> dict[str, Any]:
    """The audit copy of a live schedule: its item under its retired key, with no TTL while live."""
    return {**schedule_item(schedule), "sk": retired_sk(schedule.id)}


def waiting_item(schedule: Schedule) -> dict[str, Any]:
    """A whole item of a schedule with the runs started by hand that still wait on it: its retired copy
    (their manual fire finds them there), or its live item once it is back to life."""
    waiting = {WAITING: set(schedule.manual_waiting)} if schedule.manual_waiting else {}
    return {**schedule_item(schedule), **waiting}


def retired_item(schedule: Schedule, changes: dict[str, Any]) -> dict[str, Any]:
    """The final copy of a schedule retired with `changes` (status, TTL, run fields), under its
    retired key, with the runs that still wait."""
    return {**waiting_item(schedule), **changes, "sk": retired_sk(schedule.id)}


def moved_item(raw: dict[str, Any], schedule_id: str) -> dict[str, Any]:
    """A schedule retired under its live key (raw, as it is), under its retired key; the run whose
    record retired it (its `UNWRITTEN` mark and last run) kept as its final run, which its history
    reads (no slot item is written for it)."""
    item = {**raw, "sk": {"S": retired_sk(schedule_id)}}
    mark = item.pop(UNWRITTEN, None)
    if mark is not None and "M" in mark and "last_run" in raw:
        item[FINAL_RUN] = {"M": {**mark["M"], "run": raw["last_run"]}}
    return item


def final_run(item: dict[str, Any]) -> tuple[str, str, Run] | None:
    """The (slot, fire outcome, run) a retired copy keeps as its final run (`moved_item`), or None."""
    raw = item.get(FINAL_RUN)
    if not raw or "M" not in raw:
        return None
    data = load({"f": raw})["f"]
    return str(data.get("slot", "")), str(data.get("outcome", "")), Run.from_dict(data["run"])


def retired_from_item(item: dict[str, Any]) -> Schedule:
    """The schedule an audit copy holds, when no live item stands beside it: one that still says
    live was deleted by a user (its live item removed alone) and is read as deleted."""
    schedule = schedule_from_item(item)
    if schedule.status in models.LIVE_STATUSES:
        schedule = replace(schedule, status=models.DELETED)
    return schedule


def schedule_from_item(item: dict[str, Any]) -> Schedule:
    data = load(item)
    for name in _NUMBERS:
        if name in data:
            data[name] = int(data[name])
    for name in _INSTANTS:
        data[name] = parse_iso(data[name]) if data.get(name) else None
    data[RELEASES] = frozenset(data.get(RELEASES) or ())  # absent from an item none is held for
    waiting = data.get(WAITING) or ()  # a set; one slot as a string when written by 0.4.0
    data[WAITING] = frozenset([waiting] if isinstance(waiting, str) else waiting)
    if data.get("last_run"):  # numbers come back as Decimal
        data["last_run"] = Run.from_dict(data["last_run"]).to_dict()
    skips, snoozes = data.get("skips"), data.get("snoozes")
    if skips is None:  # written before skips formed a set: one `skip_slot`
        skips = [data["skip_slot"]] if data.get("skip_slot") else []
    if snoozes is None:  # written before snoozes added up: one at(...) in UTC, `snooze_at`
        snoozes = [str(data["snooze_at"])[3:-1] + "Z"] if data.get("snooze_at") else []
    moved = data.get("moved")
    if moved is None:  # written before snoozes' skips were told apart: read them as before
        moved = skips if snoozes else []
    timing = Timing(
        zone=data["timezone"],
        at=parse_iso(data["at"]) if data.get("at") else None,
        cron=data.get("cron", ""),
        cron_source=data.get("cron_source", ""),
        skips=frozenset(skips),
        snoozes=tuple(parse_iso(s) for s in snoozes),
        moved=frozenset(moved),
        interval=_interval_from(data.get("interval")),
        until=parse_iso(data["until"]) if data.get("until") else None,
        count=int(data.get("count", 0)),
        calendar=data.get("skip_holidays", ""),
        business_days=bool(data.get("business_days", False)),
        business_day=int(data.get("business_day_of_month", 0)),
        on_holiday=data.get("on_holiday", SKIP),
    )
    return Schedule(timing=timing, **{k: data[k] for k in _PLAIN if k in data})


def _instant(dt: datetime | None) -> str:
    return iso_utc(dt) if dt is not None else ""


def _interval_fields(interval: Interval | None) -> dict[str, Any] | None:
    if interval is None:
        return None
    anchor = interval.anchor.isoformat() if interval.anchor else ""
    return {"every": interval.every, "unit": interval.unit, "anchor": anchor}


def _interval_from(raw: dict[str, Any] | None) -> Interval | None:
    """Every N weeks or days; absent (None) for every other recurrence and for items written before."""
    if not raw:
        return None
    anchor = date.fromisoformat(raw["anchor"]) if raw.get("anchor") else None
    return Interval(int(raw["every"]), str(raw["unit"]), anchor)


def slot_prefix(owner: str) -> str:
    """The sort-key prefix of every slot (and so every run) of one schedule."""
    return f"{SLOT}{owner}#"


def claim_item(ref: SlotRef, claimed_at: str, lease_until: str, expires_at: int) -> dict[str, Any]:
    """A slot claimed by one attempt until its lease ends; it expires with the retention, should no
    attempt ever complete it."""
    return {
        "room_id": ref.room_id,
        "sk": ref.sk,
        "state": CLAIMED,
        "claimed_at": claimed_at,
        "lease_until": lease_until,
        "expires_at": expires_at,
    }


def run_item(ref: SlotRef, run: Run, expires_at: int, outcome: str = "") -> dict[str, Any]:
    """A done slot that holds a run which needed no delivery (skipped, missed, too late), or, with the
    fire's `outcome`, any run."""
    return {
        "room_id": ref.room_id,
        "sk": ref.sk,
        "state": DONE,
        "outcome": outcome or run.outcome,
        "run": run_fields(run),
        "expires_at": expires_at,
    }


def lease_from_item(item: dict[str, Any]) -> datetime | None:
    """When a claimed slot's lease ends; None when the slot is not claimed."""
    data = load(item)
    return parse_iso(data["lease_until"]) if data.get("state") == CLAIMED else None


def claim_from_mark(item: dict[str, Any]) -> OpenClaim | None:
    """The open claim a schedule's item (raw) marks, as a claim kept on the item alone; None without."""
    data = load(item)
    slot, until = str(data.get("inflight_slot") or ""), str(data.get("inflight_until") or "")
    if not slot or not until:
        return None
    owner = item["sk"]["S"].removeprefix(SCHEDULE)
    claimed = parse_iso(str(data.get("inflight_at") or until))  # a mark written before its time was kept
    return OpenClaim(item["room_id"]["S"], owner, slot, claimed, on_schedule=True)


def claim_from_item(item: dict[str, Any]) -> OpenClaim | None:
    """The open claim a slot holds; None for a done slot."""
    state, claimed_at = item.get("state", {}).get("S"), item.get("claimed_at", {}).get("S")
    if state not in (CLAIMED, SENT) or not claimed_at:
        return None
    owner, _, slot = item["sk"]["S"][len(SLOT) :].rpartition("#")
    sent = item.get("detail", {}).get("S") if state == SENT else None
    noted = noted_from_item(item) if state == SENT else None
    return OpenClaim(item["room_id"]["S"], owner, slot, parse_iso(claimed_at), sent or None, noted)


def noted_dict(finish: Finish) -> dict[str, Any]:
    """What an attempt notes on its slot when it cannot record its run (`noted`): the run as it ended
    and the failure policy's verdict, so the retry (or the reconciler) records exactly that."""
    return {
        "run": last_run_fields(finish.run),
        "streak": finish.streak,
        "pause": finish.pause,
        "answer": finish.answer,
        "room_gone": finish.room_gone,
    }


def noted_from_item(item: dict[str, Any]) -> Finish | None:
    """The run noted on a `sent` slot; None when none was (a slot noted before runs were: its
    `detail` is the message id of a delivered post)."""
    raw = item.get("noted")
    if not raw or "M" not in raw:
        return None
    data = load({"noted": raw})["noted"]
    answer = data.get("answer")
    return Finish(
        run=Run.from_dict(data["run"]),
        streak=int(data.get("streak") or 0),
        pause=bool(data.get("pause", False)),
        answer={str(k): str(v) for k, v in answer.items()} if isinstance(answer, dict) else None,
        room_gone=bool(data.get("room_gone", False)),
    )


def run_fields(run: Run) -> dict[str, Any]:
    """A run as its slot stores it (most of a table's items): what `reminder_history` shows, with the
    fields at their defaults left out (`Run.from_dict` reads them back)."""
    return {k: v for k, v in run.to_dict().items() if v or k in ("scheduled_time", "outcome")}


def last_run_fields(run: Run) -> dict[str, Any]:
    """A run as a schedule's `last_run` (and a note) stores it: whole, as listings show it, but for
    the repeat fields while unset (a schedule that does not repeat stores no more than before them)."""
    return run.stored()


def run_from_item(item: dict[str, Any]) -> Run | None:
    """The run a done slot holds; None for a slot still in flight or written before runs."""
    raw = item.get("run")
    return Run.from_dict(load({"run": raw})["run"]) if raw and "M" in raw else None


LEGACY = ("skip_slot", "snooze_at")  # attributes of earlier versions, removed by the next write


def is_expired(item: dict[str, Any], now: datetime) -> bool:
    """TTL deletion is lazy in DynamoDB (and absent in moto): an expired item is read as gone."""
    expires = item.get("expires_at")
    return expires is not None and int(expires["N"]) <= epoch(now)


def status_of(item: dict[str, Any]) -> str:
    """A schedule item's status (raw), "" for no item."""
    return str(item.get("status", {}).get("S", ""))


def says_live(item: dict[str, Any]) -> bool:
    """Whether a schedule item (raw), or an audit copy, says it is live (active or paused)."""
    return status_of(item) in models.LIVE_STATUSES


def state_of(item: dict[str, Any]) -> str:
    """A slot item's state (raw): claimed, sent or done; "" for no item."""
    return str(item.get("state", {}).get("S", ""))


def stored_version(item: dict[str, Any]) -> int:
    """The version of a schedule item (raw), 0 when it has none."""
    return int(item.get("version", {}).get("N", "0"))


def in_flight(item: dict[str, Any], now: datetime) -> bool:
    """Whether a delivery holds the schedule stored in `item` (raw) at `now`."""
    return str(load(item).get("inflight_until", "")) >= iso_utc(now)


def run_counters(schedule: Schedule) -> dict[str, Any]:
    """What a fire writes on a live item only (its last run and counts), for an audit copy."""
    return {
        "last_run": schedule.last_run,
        "fire_count": schedule.fire_count,
        "last_fired_at": _instant(schedule.last_fired_at),
        "delivered_count": schedule.delivered_count,
        "failure_streak": schedule.failure_streak,
    }


# --- room counters and pointers --------------------------------------------------------------
def live_count(item: dict[str, Any]) -> int:
    """The live count a room's counter item (raw) holds, 0 when it has none."""
    return int(item.get("live", {}).get("N", "0"))


def room_count(item: dict[str, Any]) -> RoomCount | None:
    if "live" not in item:
        return None
    return RoomCount(int(item["live"]["N"]), int(item["rev"]["N"]) if "rev" in item else None)


def room_quiet_users(item: dict[str, Any]) -> set[str]:
    """The users a room's count item (raw) says have quiet hours in the room."""
    return set((item.get(QUIET_USERS) or {}).get("SS") or ())


def pointer_item(room_id: str, sk: str, schedule_id: str) -> dict[str, Any]:
    return dump({"room_id": room_id, "sk": sk, "schedule_id": schedule_id})


def pointer_target(item: dict[str, Any]) -> str:
    """The schedule a pointer item (raw) names, "" for none."""
    return str(item.get("schedule_id", {}).get("S", ""))


def pointer_from_item(item: dict[str, Any]) -> Pointer:
    sk = item["sk"]["S"]
    kind = "name" if sk.startswith(NAME) else "dedupe"
    return Pointer(item["room_id"]["S"], sk[len(POINTER) :], pointer_target(item), kind)


def pointer_sk(pointer: Pointer) -> str:
    return f"{NAME if pointer.kind == 'name' else POINTER}{pointer.key}"


# --- quiet hours -----------------------------------------------------------------------------
def quiet_sk(user_id: str) -> str:
    return f"{QUIET}{user_id}"


def quiet_item(room_id: str, user_id: str, rule: QuietHours) -> dict[str, Any]:
    """A user's quiet hours in a room, as one item (raw)."""
    return dump(
        {
            "room_id": room_id,
            "sk": quiet_sk(user_id),
            "user_id": user_id,
            "start": rule.start,
            "end": rule.end,
            "timezone": rule.timezone,
            "days": list(rule.days),
        }
    )


def quiet_from_item(item: dict[str, Any]) -> QuietHours:
    data = load(item)
    return QuietHours(str(data["start"]), str(data["end"]), str(data["timezone"]), tuple(str(d) for d in data["days"]))


# --- what the projection reads (core/domain/projection.py) -------------------------------------
def next_repeat(number: int, due: str, moved: bool = False) -> dict[str, Any]:
    """A done slot's `next_repeat`: the pending fire of its occurrence's repeat chain."""
    return {"n": number, "at": due, "moved": moved}


def orphan_item(room_id: str, schedule_id: str, names: list[str] | tuple[str, ...], expires_at: int) -> dict[str, Any]:
    return {"room_id": room_id, "sk": f"{ORPHAN}{schedule_id}", "names": list(names), "expires_at": expires_at}


def projected(image: dict[str, Any] | None) -> Projected:
    """The item a stream image holds, as the projection reads it (None: an item that projects nothing)."""
    from cronbell.core.domain.projection import NextRepeat, Orphan

    if not image or "sk" not in image:
        return None
    sk = str(image["sk"].get("S", ""))
    room = str(image.get("room_id", {}).get("S", ""))
    if sk.startswith(SCHEDULE):
        return schedule_from_item(image)
    if sk.startswith(RETIRED) and WAITING in image:  # the runs started by hand that still wait, if it ran out
        return retired_from_item(image)
    if sk.startswith(ORPHAN):
        names = load({"n": image.get("names", {"L": []})})["n"]
        return Orphan(room, sk.removeprefix(ORPHAN), tuple(str(n) for n in names))
    if sk.startswith(SLOT) and NEXT_REPEAT in image:
        owner, _, slot = sk.removeprefix(SLOT).partition("#")
        data = load({k: image[k] for k in (NEXT_REPEAT, "run") if k in image})
        if (data.get("run") or {}).get("acknowledged_at"):
            return None  # acknowledged: its repeats stopped
        pending = data[NEXT_REPEAT]
        number, due = int(pending.get("n", 0)), str(pending.get("at", ""))
        return NextRepeat(room, owner, slot, number, due, bool(pending.get("moved"))) if number and due else None
    return None


def stream_change(record: dict[str, Any]) -> Change:
    """A DynamoDB stream record (NEW_AND_OLD_IMAGES) as the change of one item."""
    from cronbell.core.domain.projection import Change

    images = record.get("dynamodb") or {}
    old, new = images.get("OldImage"), images.get("NewImage")
    moves = new if new and str(new.get("sk", {}).get("S", "")).startswith(SCHEDULE) and not says_live(new) else None
    return Change(projected(old), projected(new), history=history_of(old, new), retired=moves)


def history_of(old: dict[str, Any] | None, new: dict[str, Any] | None) -> History | None:
    """The run a schedule's new image (live, or its retired copy: its retirement's last run, or a run
    started by hand on it) recorded without its slot (`UNWRITTEN` set by this change), or None."""
    if not new or UNWRITTEN not in new or (old or {}).get(UNWRITTEN) == new[UNWRITTEN]:
        return None
    if str(new.get("sk", {}).get("S", "")).startswith(SCHEDULE) and not says_live(new):
        return None  # retired in place by its record: its move keeps the run as its final run (`moved_item`)
    return unwritten_run(new)


def unwritten_run(new: dict[str, Any]) -> History | None:
    """The run a schedule's image (live, or its retired copy) names as recorded without its slot
    (`UNWRITTEN`), or None."""
    if UNWRITTEN not in new:
        return None
    data = load({k: new[k] for k in (UNWRITTEN, "last_run", "sk", "room_id") if k in new})
    mark, last, sk = data[UNWRITTEN], data.get("last_run"), str(data.get("sk", ""))
    if not isinstance(last, dict) or not sk.startswith((SCHEDULE, RETIRED)):
        return None
    owner = sk.removeprefix(SCHEDULE) if sk.startswith(SCHEDULE) else sk.removeprefix(RETIRED)
    return History(str(data["room_id"]), owner, str(mark["slot"]), str(mark["outcome"]), Run.from_dict(last))


def stream_identity(record: dict[str, Any]) -> Key:
    """The (room, sort key) of the item a stream record is about."""
    keys = load((record.get("dynamodb") or {}).get("Keys") or {})
    return str(keys.get("room_id", "")), str(keys.get("sk", ""))
