"""What each operation costs: DynamoDB request units, Lambda GB-seconds, Scheduler invocations, and dollars
per million deliveries at on-demand list prices, beside the least expensive design that keeps the same
promises; and beside each operation, what the projector's applying its change costs.

    python -m bench.cost [--json FILE]

Every DynamoDB call the real handlers make (on the moto server, wired as the tests wire them) asks for
`ReturnConsumedCapacity: TOTAL`; moto's answer is shown, but the units that count are computed from the
items each call read and wrote, by DynamoDB's documented rules (bench/units.py), because moto answers a
fixed figure whatever the size. Lambda's share is the handler's measured duration at the template's
memory (256 MB, arm64); the duration includes moto's own time on loopback, so it overstates a Lambda
talking to DynamoDB in the same Region.

The projector (fed by the table's stream) is billed for its Lambda invocations (one per batch of records)
and their GB-seconds, and for any DynamoDB units it spends; its Scheduler API calls are not billed per
call, and Lambda's reads of a DynamoDB stream are not billed (AWS's pricing pages).
"""

from __future__ import annotations

import argparse
import copy
import gc
import json
import math
import os
import re
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import boto3

from bench import units as rules
from bench.units import Units

BASELINE = Path(__file__).with_name("cost_baseline.json")
DYNAMODB_TARGET = 4.0  # a delivery's DynamoDB at most this many times the floor design's
MEMORY_GB = 0.25  # template.yaml Globals: MemorySize 256, Architectures arm64

# On-demand list prices, us-east-1, as AWS's pricing pages give them (checked 2026-12-01; DynamoDB's
# after the November 2024 reduction). Free tiers are left out.
PRICES_DATE = "2026-12-01"
PRICE_WRITE_UNIT = 0.625 / 1e6  # DynamoDB on-demand, per write request unit
PRICE_READ_UNIT = 0.125 / 1e6  # DynamoDB on-demand, per read request unit
PRICE_GB_SECOND = 0.0000133334  # Lambda arm64, per GB-second
PRICE_LAMBDA_REQUEST = 0.20 / 1e6  # Lambda, per request
PRICE_SCHEDULER_INVOCATION = 1.00 / 1e6  # EventBridge Scheduler, per invocation (after 14 million a month)

# The floor: a delivery that reads the schedule (one strongly consistent GetItem of an item under 4 KB) and
# records it with one conditional write of an item under 1 KB proves at-most-once per slot and keeps a run;
# nothing cheaper can say both "not yet delivered" and "delivered now" durably.
FLOOR_DELIVERY = Units(read=1.0, write=1.0)
DELIVERIES = ("fire one-shot", "fire recurring", "fire agent_call")
RECONCILE_SCHEDULES = 50
RECONCILE_RUNS = 1000
_PLACEHOLDER = re.compile(r"[#:][A-Za-z0-9_]+")
_CAPACITY_OPS = {
    "GetItem",
    "PutItem",
    "UpdateItem",
    "DeleteItem",
    "Query",
    "Scan",
    "TransactWriteItems",
    "TransactGetItems",
    "BatchGetItem",
    "BatchWriteItem",
}


@dataclass
class Call:
    operation: str
    params: dict[str, Any]
    keys: list[tuple[str, dict[str, Any]]]
    before: list[dict[str, Any] | None]
    units: Units = field(default_factory=Units)
    moto_units: float = 0.0


class Meter:
    """Hooks on the handlers' DynamoDB client: every call asks for its consumed capacity, and its units
    are computed from the items it touched, read from moto's state before and after the call."""

    def __init__(self, events: Any) -> None:
        from moto.dynamodb.models import dynamodb_backends

        from tests.support.aws import ACCOUNT, REGION

        self._backend = lambda: dynamodb_backends[ACCOUNT][REGION]  # a reset of the server makes a new one
        self._raw = boto3.session.Session().client("dynamodb")  # not metered: re-reads what a query evaluated
        self._pending: list[Call] = []
        self.calls: list[Call] = []
        self.on = False
        events.register("provide-client-params.dynamodb", self._before)
        events.register("after-call.dynamodb", self._after)

    def _image(self, table: str, key: dict[str, Any]) -> dict[str, Any] | None:
        item = self._backend().get_item(table, key)
        return None if item is None else copy.deepcopy(item.to_json()["Attributes"])

    def _before(self, params: dict[str, Any], model: Any, **_: Any) -> None:
        if not self.on:
            return
        if model.name in _CAPACITY_OPS:
            params["ReturnConsumedCapacity"] = "TOTAL"
        keys = rules.touched_keys(model.name, params, ("room_id", "sk"))
        self._pending.append(Call(model.name, copy.deepcopy(params), keys, [self._image(t, k) for t, k in keys]))

    def _after(self, parsed: dict[str, Any], model: Any, **_: Any) -> None:
        if not self.on or not self._pending:
            return
        call = self._pending.pop()
        after = [self._image(t, k) for t, k in call.keys]
        evaluated = self._evaluated(call) if call.operation in ("Query", "Scan") else None
        call.units = rules.call_units(call.operation, call.params, call.before, after, evaluated)
        consumed = parsed.get("ConsumedCapacity")
        if isinstance(consumed, dict):
            consumed = [consumed]
        call.moto_units = sum(float(c.get("CapacityUnits", 0)) for c in consumed or [])
        self.calls.append(call)

    def _evaluated(self, call: Call) -> list[dict[str, Any]]:
        """The items a Query or Scan evaluated: the same request without its filter or projection."""
        params = {
            k: v
            for k, v in call.params.items()
            if k not in ("FilterExpression", "ProjectionExpression", "Select", "ReturnConsumedCapacity")
        }
        used = set(_PLACEHOLDER.findall(str(params.get("KeyConditionExpression", ""))))
        for field_name in ("ExpressionAttributeNames", "ExpressionAttributeValues"):
            kept = {k: v for k, v in params.get(field_name, {}).items() if k in used}
            params.pop(field_name, None)
            if kept:
                params[field_name] = kept
        out = getattr(self._raw, "query" if call.operation == "Query" else "scan")(**params)
        return list(out.get("Items", []))

    def measure(self, fn: Callable[[], Any]) -> tuple[Any, float, list[Call]]:
        """`fn`'s answer, duration and DynamoDB calls. The collector runs before, not during: a full
        collection of the in-process moto server's heap (a fifth of a second) would otherwise land in
        whichever operation happens to cross its threshold, as timeit keeps it out too."""
        self.calls, self._pending, self.on = [], [], True
        gc.collect()
        gc.disable()
        try:
            start = time.perf_counter()
            out = fn()
            elapsed = time.perf_counter() - start
        finally:
            self.on = False
            gc.enable()
        return out, elapsed, self.calls


@dataclass
class Row:
    """One operation's cost."""

    operation: str
    calls: int
    units: Units
    moto_units: float
    seconds: float
    scheduler_invocations: int = 0
    which: str = ""  # each call with its units: "GetItem 1R, TransactWriteItems[2] 4W"
    invocations: int = 1  # Lambda invocations billed
    scheduler_calls: int = 0  # Scheduler API calls: not billed per call
    projector: Row | None = None  # the projector's applying this operation's change

    @property
    def gb_seconds(self) -> float:
        return math.ceil(self.seconds * 1000) / 1000 * MEMORY_GB

    @property
    def dollars(self) -> float:
        return (
            dynamodb_dollars(self.units)
            + self.gb_seconds * PRICE_GB_SECOND
            + self.invocations * PRICE_LAMBDA_REQUEST
            + self.scheduler_invocations * PRICE_SCHEDULER_INVOCATION
        )

    @property
    def total_dollars(self) -> float:
        return self.dollars + (self.projector.dollars if self.projector else 0.0)

    @property
    def total_units(self) -> Units:
        return self.units + self.projector.units if self.projector else self.units

    def as_dict(self) -> dict[str, Any]:
        out = {
            "calls": self.calls,
            "read_units": self.units.read,
            "write_units": self.units.write,
            "moto_units": self.moto_units,
            "ms": round(self.seconds * 1000, 1),
            "gb_seconds": self.gb_seconds,
            "invocations": self.invocations,
            "scheduler_invocations": self.scheduler_invocations,
            "scheduler_calls": self.scheduler_calls,
            "dollars_per_million": round(self.dollars * 1e6, 4),
            "which": self.which,
        }
        if self.projector is not None:
            out.update(
                {
                    "projector": self.projector.as_dict(),
                    "projector_read_units": self.projector.units.read,
                    "projector_write_units": self.projector.units.write,
                    "total_dollars_per_million": round(self.total_dollars * 1e6, 4),
                }
            )
        return out


class CostBench:
    """The real handlers on a moto server, each operation measured once after a warm-up round."""

    def __init__(self) -> None:
        from bench.operations import Bench

        self.bench = Bench()
        from cronbell.adapters import aws

        self.meter = Meter(aws.client("dynamodb").meta.events)
        self.rows: dict[str, Row] = {}

    def _measure(self, operation: str, fn: Callable[[], Any], scheduler: int = 0) -> Any:
        """One operation, then the projector on the changes it wrote (every earlier change applied first)."""
        self.bench.settle()
        answer, seconds, calls = self.meter.measure(fn)
        row = _row(operation, calls, seconds, scheduler_invocations=scheduler)
        projection, _, projector_calls = self.meter.measure(self.bench.project)
        row.projector = _row(
            "projector",
            projector_calls,
            sum(projection.seconds),
            invocations=projection.invocations,
            scheduler_calls=sum(1 for service, _, _ in projection.calls if service == "scheduler"),
        )
        self.rows[operation] = row
        return answer

    def _room(self, label: str, n: int) -> str:
        return f"!{label}{n}:cost.example.org"

    def round(self, n: int) -> None:
        """Every operation once, in rooms of round `n` (round 0 warms the paths up)."""
        b = self.bench
        room = self._room("c", n)
        self._measure(
            "create one-shot",
            lambda: b.tool("create_reminder", {"message": "Call the dentist", "time": "in 30 minutes"}, room),
        )
        self._measure(
            "create recurring",
            lambda: b.tool("create_reminder", {"message": "Stand-up notes", "cron": "0 9 * * 1-5"}, room),
        )
        recurring = b.make("recurring", room, n)
        self._measure("list", lambda: b.tool("list_reminders", {}, room))
        self._measure("list with history", lambda: b.tool("list_reminders", {"include_inactive": True}, room))
        self._measure("update", lambda: b.tool("update_reminder", {"id": recurring.id, "message": "Stand-up"}, room))
        self._measure("snooze", lambda: b.tool("snooze_reminder", {"id": recurring.id, "minutes": 10}, room))
        gone = b.make("one-shot", room, n)
        self._measure("delete", lambda: b.tool("delete_reminder", {"id": gone.id}, room))
        fires = []
        for operation, kind in (
            ("fire one-shot", "one-shot"),
            ("fire recurring", "recurring"),
            ("fire agent_call", "agent"),
        ):
            fires.append((operation, b.make(kind, self._room("f", n), n)))
        failing = b.created(
            b.tool("cron_create", {"name": f"fail{n}", "prompt": "fail now", "cron_expr": "0 18 * * *"}, room), room
        )
        fires.append(("failed run", failing))
        skipped = b.make("recurring", self._room("s", n), n)
        b.tool("skip_next", {"id": skipped.id}, skipped.room)
        fires.append(("skipped run", skipped))
        for operation, target in sorted(fires, key=lambda fire: fire[1].slot):  # the clock moves forward only
            self._measure(operation, lambda target=target: b.fire(target), scheduler=1)
        ran = dict(fires)["fire recurring"]
        self._measure("history", lambda: b.tool("reminder_history", {"id": ran.id}, ran.room))

    def reconcile(self) -> None:
        """The daily reconcile of one room with RECONCILE_SCHEDULES schedules and RECONCILE_RUNS runs, the
        runs shaped as a fire leaves them (copies of a real one)."""
        from tests.support.aws import provision
        from tests.support.handlers import LambdaContext, configure_env, load_handler

        b = self.bench
        from cronbell import wiring

        b.stack = provision(b.server.url, b.clock)
        configure_env(b.stack)
        wiring.deps().chat = lambda: b.chat  # the sink, in process, as Bench wires it
        b.settle()  # the projector follows this stack's stream from its start
        room = self._room("r", 0)
        made = [b.make("recurring", room, i) for i in range(RECONCILE_SCHEDULES)]
        b.fire(made[0])
        b.project()  # the run's slot, as the projector writes it from the stream
        table = b.stack.settings.table_name
        model = next(
            item
            for item in b.stack.ddb.scan(TableName=table)["Items"]
            if item["sk"]["S"].startswith(f"f#{made[0].id}#")
        )
        requests = []
        for i in range(RECONCILE_RUNS):
            owner = made[i % RECONCILE_SCHEDULES].id
            item = {**model, "sk": {"S": f"f#{owner}#2026-{1 + i // 300:02d}-{1 + i % 28:02d}T{i % 24:02d}:00:00Z"}}
            requests.append({"PutRequest": {"Item": item}})
        for start in range(0, len(requests), 25):
            b.stack.ddb.batch_write_item(RequestItems={table: requests[start : start + 25]})
        app = load_handler("reconcile")
        b.clock.advance(hours=1)
        self._measure(
            f"reconcile ({RECONCILE_SCHEDULES} schedules, {RECONCILE_RUNS} runs)",
            lambda: app.lambda_handler({}, LambdaContext(function_name="reconcile")),
        )

    def run(self) -> dict[str, Any]:
        self.round(0)
        self.rows = {}
        self.round(1)
        self.reconcile()
        return report(self.rows)


def _row(
    operation: str,
    calls: list[Call],
    seconds: float,
    invocations: int = 1,
    scheduler_invocations: int = 0,
    scheduler_calls: int = 0,
) -> Row:
    total = Units()
    for call in calls:
        total += call.units
    which = ", ".join(_described(call) for call in calls)
    moto = sum(c.moto_units for c in calls)
    return Row(operation, len(calls), total, moto, seconds, scheduler_invocations, which, invocations, scheduler_calls)


def _described(call: Call) -> str:
    items = f"[{len(call.keys)}]" if call.operation.startswith("Transact") else ""
    spent = " ".join(f"{value:g}{unit}" for value, unit in ((call.units.read, "R"), (call.units.write, "W")) if value)
    return f"{call.operation}{items} {spent or '0'}"


def dynamodb_dollars(units: Units) -> float:
    return units.read * PRICE_READ_UNIT + units.write * PRICE_WRITE_UNIT


def report(rows: dict[str, Row]) -> dict[str, Any]:
    ops = {name: row.as_dict() for name, row in rows.items()}
    floor = Row("floor delivery", 2, FLOOR_DELIVERY, 0.0, rows["fire one-shot"].seconds, 1)
    per_million = {name: ops[name]["total_dollars_per_million"] for name in DELIVERIES}
    projector = {name: ops[name]["projector"]["dollars_per_million"] for name in DELIVERIES}
    dynamo = {name: dynamodb_dollars(rows[name].total_units) for name in DELIVERIES}
    floor_dynamo = FLOOR_DELIVERY.read * PRICE_READ_UNIT + FLOOR_DELIVERY.write * PRICE_WRITE_UNIT
    return {
        "prices": {
            "date": PRICES_DATE,
            "region": "us-east-1",
            "write_unit": PRICE_WRITE_UNIT,
            "read_unit": PRICE_READ_UNIT,
            "gb_second": PRICE_GB_SECOND,
            "lambda_request": PRICE_LAMBDA_REQUEST,
            "scheduler_invocation": PRICE_SCHEDULER_INVOCATION,
        },
        "ops": ops,
        "floor": {**floor.as_dict(), "dynamodb_dollars_per_million": round(floor_dynamo * 1e6, 4)},
        "per_million_deliveries": per_million,
        "projector_per_million_deliveries": projector,
        "dynamodb_per_million_deliveries": {name: round(cost * 1e6, 4) for name, cost in dynamo.items()},
        "dynamodb_ratio_to_floor": {name: round(cost / floor_dynamo, 2) for name, cost in dynamo.items()},
    }


def table(figures: dict[str, Any]) -> str:
    lines = [
        f"{'':<42} {'the operation':^56}   {'the projector, applying its change':^44}",
        f"{'operation':<42} {'calls':>5} {'RRU':>6} {'WRU':>6} {'moto':>6} {'ms':>7} {'GB-s':>7} {'$/M ops':>8}"
        f"   {'invocations':>11} {'Scheduler':>9} {'DynamoDB':>8} {'ms':>5} {'$/M':>6}   {'total $/M':>9}",
    ]
    for name, op in figures["ops"].items():
        p = op["projector"]
        lines.append(
            f"{name:<42} {op['calls']:>5} {op['read_units']:>6.1f} {op['write_units']:>6.1f} {op['moto_units']:>6.1f}"
            f" {op['ms']:>7.1f} {op['gb_seconds']:>7.4f} {op['dollars_per_million']:>8.3f}"
            f"   {p['invocations']:>11} {p['scheduler_calls']:>9} {p['calls']:>8} {p['ms']:>5.1f}"
            f" {p['dollars_per_million']:>6.3f}   {op['total_dollars_per_million']:>9.3f}"
        )
    f = figures["floor"]
    lines.append(
        f"{'floor: one read, one conditional write':<42} {f['calls']:>5} {f['read_units']:>6.1f}"
        f" {f['write_units']:>6.1f} {'':>6} {f['ms']:>7.1f} {f['gb_seconds']:>7.4f} {f['dollars_per_million']:>8.3f}"
        f"   {'':>11} {'':>9} {'':>8} {'':>5} {'':>6}   {f['dollars_per_million']:>9.3f}"
    )
    lines.append(
        "(the projector: one Lambda invocation per batch of stream records, billed with its GB-seconds; its"
        " Scheduler calls and its reads of the stream are not billed)"
    )
    lines.append("")
    lines.append("DynamoDB calls (R read units, W write units; [n] items in a transaction):")
    for name, op in figures["ops"].items():
        projector = op["projector"]["which"]
        lines.append(f"  {name:<40} {op['which']}" + (f"; the projector: {projector}" if projector else ""))
    lines.append("")
    lines.append(f"per million deliveries (prices of {figures['prices']['date']}, us-east-1, on demand, no free tier):")
    for name, dollars in figures["per_million_deliveries"].items():
        projector = figures["projector_per_million_deliveries"][name]
        dynamo = figures["dynamodb_per_million_deliveries"][name]
        ratio = figures["dynamodb_ratio_to_floor"][name]
        lines.append(
            f"  {name:<18} ${dollars:8.3f} in all, the projector ${projector:.3f} of it;"
            f" DynamoDB ${dynamo:.3f} = {ratio:.2f} x the floor's"
            f"   <={DYNAMODB_TARGET:g} {'ok' if ratio <= DYNAMODB_TARGET else 'OVER'}"
        )
    lines.append(
        f"  {'floor':<18} ${f['dollars_per_million']:8.3f} in all; DynamoDB ${f['dynamodb_dollars_per_million']:.3f}"
    )
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", help="also write the figures here")
    parser.add_argument("--record", action="store_true", help=f"write each operation's units to {BASELINE.name}")
    args = parser.parse_args()
    sys.stdout.flush()
    kept = os.dup(1)
    quiet = os.open(os.devnull, os.O_WRONLY)
    os.dup2(quiet, 1)  # the handlers log to stdout: the table alone is printed there
    try:
        bench = CostBench()
        try:
            figures = bench.run()
        finally:
            bench.bench.server.stop()
    finally:
        sys.stdout.flush()
        os.dup2(kept, 1)
        os.close(quiet)
    print(table(figures))
    if args.json:
        Path(args.json).write_text(json.dumps(figures, indent=1), encoding="utf-8")
    if args.record:
        BASELINE.write_text(json.dumps(recorded_units(figures), indent=1) + "\n", encoding="utf-8")


def recorded_units(figures: dict[str, Any]) -> dict[str, dict[str, float]]:
    """Each operation's read and write units, and the projector's for its change: what the repository records,
    and a test holds them to."""
    kept = ("read_units", "write_units", "projector_read_units", "projector_write_units")
    return {name: {k: op[k] for k in kept} for name, op in figures["ops"].items()}


if __name__ == "__main__":
    sys.exit(main())
