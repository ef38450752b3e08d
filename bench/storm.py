"""Fire storm: many schedules due in the same minute, each fired once.

Main figure (`seed` + `fire_all`): N one-shot reminders spread over rooms of MaxPerRoom schedules each, all
due at the same minute, then N fire events, one per schedule, as Scheduler sends them. The fire handler
(`functions/fire/app.py`, unchanged) runs in worker processes that each take one event after another, as
Lambda execution environments do; the chat is the sandbox's sink called in process (no HTTP), so the figure
is the fire path's own cost. moto applies one request at a time (DynamoDB does not), so each worker has a
moto server process of its own holding its share of the rooms. Peak memory is the largest worker's peak
resident set; CPU per fire is the workers' own CPU time, apart from the moto servers'.

Seeding writes, with BatchWriteItem, copies of the items the create path wrote for a real reminder
(schedule, dedupe pointer, room count); it creates no Scheduler entries, which the fire path of an active
one-shot never reads.

The sandbox's engine (`sandbox_storm`, `sandbox_month`), end to end as a bot and Scheduler would drive it:
reminders created through the Lambda Invoke endpoint, then one virtual clock move, which makes the sandbox's
scheduler engine fire every occurrence through the fire function and the webhook sink over HTTP. The storm
has N one-shots due in one minute, which the engine delivers several at a time, each in a fire function process
of its own (their CPU time is given apart from the sandbox process's); the month has recurring reminders
(daily, weekday, weekly, monthly) at distinct minutes and moves the clock 30 days: each fire then runs alone,
in the sandbox's process, whose CPU time per fire covers the engine, moto and the function.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import sys
import time
import uuid
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from bench.common import REGION, median

SLOT = "2026-11-30T09:00:00Z"
ROOM_SIZE = 50  # MaxPerRoom's default: the most a room can hold


# ------------------------------------------------------------------------------------------- seeding


def seed(endpoint: str, count: int, prefix: str = "") -> tuple[dict[str, str], list[tuple[str, str]]]:
    """Provision the stack on the moto server at `endpoint` and write `count` due one-shots.

    Returns the environment the fire function needs and the (room, schedule id) of every one."""
    import boto3
    from boto3.dynamodb.types import TypeDeserializer, TypeSerializer

    from cronbell.adapters.dynamo.codec import ROOM_SK, dedupe_sk, schedule_sk
    from cronbell.core.domain.models import new_id
    from cronbell.usecases import tools
    from tests.support.aws import START, FakeClock, provision
    from tests.support.envelopes import ROOM, envelope

    stack = provision(endpoint, FakeClock(START))
    answer = tools.handle(
        envelope("create_reminder", {"message": "storm", "time": "2026-11-30 09:00", "timezone": "UTC"}),
        stack.deps(),
    )
    assert answer["ok"], answer
    table = stack.settings.table_name
    ser, deser = TypeSerializer(), TypeDeserializer()
    template = {
        k: deser.deserialize(v)
        for k, v in stack.ddb.get_item(
            TableName=table, Key={"room_id": {"S": ROOM}, "sk": {"S": schedule_sk(answer["result"]["id"])}}
        )["Item"].items()
    }
    assert template["at"].startswith("2026-11-30T09:00"), template["at"]
    targets: list[tuple[str, str]] = []
    items: list[dict[str, Any]] = []
    for n in range(count):
        room = f"!storm{prefix}{n // ROOM_SIZE}:bench.example.org"
        sid = new_id()
        key = uuid.uuid4().hex
        targets.append((room, sid))
        item = {**template, "room_id": room, "sk": schedule_sk(sid), "id": sid, "dedupe_key": key}
        item["text"] = f"storm reminder {n}"
        items += [item, {"room_id": room, "sk": dedupe_sk(key), "schedule_id": sid}]
        if n % ROOM_SIZE == 0:
            items.append({"room_id": room, "sk": ROOM_SK, "live": min(ROOM_SIZE, count - n)})
    db = boto3.client("dynamodb", region_name=REGION, endpoint_url=endpoint)
    for start in range(0, len(items), 25):
        batch = [
            {"PutRequest": {"Item": {k: ser.serialize(v) for k, v in i.items()}}} for i in items[start : start + 25]
        ]
        pending: dict[str, Any] = {table: batch}
        while pending:
            pending = db.batch_write_item(RequestItems=pending).get("UnprocessedItems") or {}
    s = stack.settings
    env = {
        "TABLE_NAME": s.table_name,
        "SCHEDULE_GROUP": s.schedule_group,
        "DEFAULT_TIMEZONE": "UTC",
        "AGENTS": '{"echo": "EchoAgentFunction"}',
        "POWERTOOLS_METRICS_NAMESPACE": "cronbell-bench",
    }
    return env, targets


def live_counts(endpoint: str, table: str, rooms: set[str]) -> Counter[int]:
    """How many rooms hold each number of live schedules after the storm (every one-shot fired: all
    zero). The items are counted, not the room's counter: a fire's retirement frees it lazily."""
    import boto3

    db = boto3.client("dynamodb", region_name=REGION, endpoint_url=endpoint)
    out: Counter[int] = Counter()
    for room in rooms:
        items = db.query(
            TableName=table,
            KeyConditionExpression="room_id = :r AND begins_with(sk, :p)",
            ExpressionAttributeValues={":r": {"S": room}, ":p": {"S": "s#"}},
            ConsistentRead=True,
        ).get("Items", [])
        out[sum(1 for item in items if item.get("status", {}).get("S") in ("active", "paused"))] += 1
    return out


# ------------------------------------------------------------------------------------------- firing


def fire_all(targets_file: str, out_file: str) -> None:
    """One worker process (one execution environment): fire each target once through the fire handler, one
    event after another, and write the figures. It imports what the function imports and little else."""
    from bench.common import Context, SinkSender, load_function
    from sandbox.chat import SinkChat

    targets = json.loads(Path(targets_file).read_text())
    app = load_function("fire")

    class _Now:
        def now(self) -> datetime:
            return datetime.now(UTC)

    sink = SinkChat(_Now())  # type: ignore[arg-type]
    chat = SinkSender(sink)
    from cronbell import wiring

    wiring.deps().chat = lambda: chat
    after_import_mb = peak_rss_mb()
    cpu0 = _cpu_seconds()
    outcomes: Counter[str] = Counter()
    latencies = []
    began = time.time()
    for room, sid in targets:
        event = {"room_id": room, "reminder_id": sid, "scheduled_time": SLOT, "execution_id": str(uuid.uuid4())}
        t0 = time.perf_counter()
        result = app.lambda_handler(event, Context("fire"))
        latencies.append(time.perf_counter() - t0)
        outcomes[result["outcome"]] += 1
    ended = time.time()
    cpu = _cpu_seconds() - cpu0
    figures = {
        "began": began,
        "ended": ended,
        "latencies": latencies,
        "outcomes": dict(outcomes),
        "chat_posts": chat.posts,
        "messages": sum(len(sink.messages(room)) for room in {room for room, _ in targets}),
        "cpu_s": cpu,
        "rss_after_import_mb": after_import_mb,
        "peak_rss_mb": peak_rss_mb(),
    }
    Path(out_file).write_text(json.dumps(figures))


def peak_rss_mb() -> float:
    """This process's peak resident set (VmHWM; `ru_maxrss` would include the parent's from before exec)."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _cpu_seconds() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def serve(url_file: str) -> None:
    """A moto server process for one storm worker; stops when its standard input closes."""
    from sandbox import motofast
    from sandbox.aws_server import MotoServer

    motofast.install()
    server = MotoServer().start()
    Path(url_file).write_text(server.url)
    sys.stdin.read()
    server.stop()


def process_cpu_seconds(pid: int) -> float:
    """User + system CPU seconds of another process, from /proc."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def combine(workers: list[dict[str, Any]]) -> dict[str, Any]:
    """One storm's figures from its workers' (they ran at the same time)."""
    latencies = sorted(x for w in workers for x in w["latencies"])
    outcomes: Counter[str] = Counter()
    for w in workers:
        outcomes.update(w["outcomes"])
    wall = max(w["ended"] for w in workers) - min(w["began"] for w in workers)
    return {
        "workers": len(workers),
        "fires": len(latencies),
        "wall_s": wall,
        "fires_per_s": len(latencies) / wall,
        "p50_ms": median(latencies) * 1000,
        "p99_ms": latencies[max(0, int(len(latencies) * 0.99) - 1)] * 1000,
        "outcomes": dict(outcomes),
        "handler_cpu_ms_per_fire": sum(w["cpu_s"] for w in workers) / len(latencies) * 1000,
        "chat_posts": sum(w["chat_posts"] for w in workers),
        "messages": sum(w["messages"] for w in workers),
        "rss_after_import_mb": max(w["rss_after_import_mb"] for w in workers),
        "peak_rss_mb": max(w["peak_rss_mb"] for w in workers),
    }


# ------------------------------------------------------------------------------------------- sandbox


@contextmanager
def _sandbox(start: datetime) -> Iterator[tuple[Any, Any]]:
    """A sandbox in this process (sink chat, virtual clock from `start`) and a Lambda client on it."""
    import logging

    import boto3
    from botocore.config import Config

    from sandbox.app import Options, Sandbox, free_port

    logging.getLogger("sandbox").setLevel(logging.ERROR)  # its notes would interleave with the table
    options = Options(lambda_port=free_port(), aws_port=free_port(), chat="sink", clock="virtual", start=start)
    with Sandbox(options) as sandbox:
        lam = boto3.client(
            "lambda",
            endpoint_url=sandbox.lambda_endpoint,
            region_name=REGION,
            config=Config(read_timeout=900, retries={"max_attempts": 1}),
        )
        yield sandbox, lam


def _create(lam: Any, room: str, arguments: dict[str, Any]) -> None:
    from tests.support.envelopes import envelope

    event = envelope("create_reminder", arguments, room=room)
    answer = json.loads(lam.invoke(FunctionName="ToolsFunction", Payload=json.dumps(event))["Payload"].read())
    if not answer.get("ok"):
        raise RuntimeError(f"sandbox create failed: {answer}")


def _move(sandbox: Any, body: dict[str, Any]) -> tuple[list[dict[str, Any]], float, float]:
    """`POST /_sandbox/clock` over HTTP: the fires, the wall seconds, and the process's CPU seconds."""
    import urllib.request

    request = urllib.request.Request(
        f"{sandbox.lambda_endpoint}/_sandbox/clock",
        data=json.dumps(body).encode(),
        method="POST",
        headers={"Content-Type": "application/json"},
    )
    t0, cpu0 = time.perf_counter(), time.process_time()
    with urllib.request.urlopen(request, timeout=900) as reply:
        fired: list[dict[str, Any]] = json.loads(reply.read())["fired"]
    return fired, time.perf_counter() - t0, time.process_time() - cpu0


def sandbox_storm(count: int) -> dict[str, Any]:
    """`count` reminders due in one minute, created and fired end to end through the sandbox."""
    start = datetime(2026, 11, 30, 8, 0, tzinfo=UTC)
    due = start + timedelta(minutes=30)
    with _sandbox(start) as (sandbox, lam):
        rooms = [f"!sbx{n // ROOM_SIZE}:bench.example.org" for n in range(count)]
        t0 = time.perf_counter()
        for n, room in enumerate(rooms):
            arguments = {"message": f"sandbox storm {n}", "time": due.strftime("%Y-%m-%d %H:%M"), "timezone": "UTC"}
            _create(lam, room, arguments)
        create_s = time.perf_counter() - t0
        before = {pid: process_cpu_seconds(pid) for pid in sandbox.runtime.process_ids()}  # warm, not yet used
        fired, fire_s, cpu_s = _move(sandbox, {"advance_seconds": 3600})
        posted = sum(len(sandbox.messages(room)) for room in sorted(set(rooms)))
        functions = sandbox.runtime.process_ids()
        functions_cpu_s = sum(process_cpu_seconds(pid) - before.get(pid, 0.0) for pid in functions)
    return {
        "schedules": count,
        "create_s": create_s,
        "creates_per_s": count / create_s,
        "fired": len(fired),
        "fired_ok": sum(1 for f in fired if f["ok"]),
        "fire_s": fire_s,
        "fires_per_s": len(fired) / fire_s if fire_s else 0.0,
        "cpu_ms_per_fire": cpu_s / len(fired) * 1000 if fired else 0.0,
        "function_processes": len(functions),
        "function_cpu_ms_per_fire": functions_cpu_s / len(fired) * 1000 if fired else 0.0,
        "messages": posted,
        "load": os.getloadavg()[0],
    }


def month_mix(n: int) -> str:
    """The n-th of the month's recurring reminders: of every ten, four daily, three on weekdays, two weekly
    and one monthly, at times spread over the day."""
    minute, hour = (7 * n) % 60, 6 + n % 14
    kind = n % 10
    if kind < 4:
        return f"{minute} {hour} * * *"
    if kind < 7:
        return f"{minute} {hour} * * 1-5"
    if kind < 9:
        return f"{minute} {hour} * * {n % 7}"
    return f"{minute} {hour} {1 + n % 28} * *"


def sandbox_month(count: int, days: int = 30) -> dict[str, Any]:
    """`count` recurring reminders (see month_mix) in rooms of ten, then one clock move of `days` days."""
    start = datetime(2026, 11, 30, 0, 0, tzinfo=UTC)
    with _sandbox(start) as (sandbox, lam):
        for n in range(count):
            _create(lam, f"!month{n // 10}:bench.example.org", {"message": f"month {n}", "cron": month_mix(n)})
        fired, move_s, cpu_s = _move(sandbox, {"advance_seconds": days * 86400})
    return {
        "schedules": count,
        "days": days,
        "fired": len(fired),
        "fired_ok": sum(1 for f in fired if f["ok"]),
        "move_s": move_s,
        "fires_per_s": len(fired) / move_s if move_s else 0.0,
        "cpu_ms_per_fire": cpu_s / len(fired) * 1000 if fired else 0.0,
        "load": os.getloadavg()[0],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description="the fire storm's child processes (run by bench.run)")
    sub = parser.add_subparsers(dest="command", required=True)
    fire = sub.add_parser("fire", help="fire every target once through the fire handler")
    fire.add_argument("targets", help="JSON list of [room, schedule id]")
    fire.add_argument("out", help="where to write the figures (JSON)")
    srv = sub.add_parser("serve", help="a moto server; writes its URL to a file, stops when stdin closes")
    srv.add_argument("url_file")
    box = sub.add_parser("sandbox", help="a storm end to end through the sandbox")
    box.add_argument("count", type=int)
    box.add_argument("out", help="where to write the figures (JSON)")
    month = sub.add_parser("month", help="a month of virtual time with recurring reminders, through the sandbox")
    month.add_argument("count", type=int)
    month.add_argument("out", help="where to write the figures (JSON)")
    args = parser.parse_args()
    if args.command == "fire":
        fire_all(args.targets, args.out)
    elif args.command == "serve":
        serve(args.url_file)
    elif args.command == "sandbox":
        Path(args.out).write_text(json.dumps(sandbox_storm(args.count)))
    else:
        Path(args.out).write_text(json.dumps(sandbox_month(args.count)))


if __name__ == "__main__":
    main()
    sys.exit(0)
