"""AWS calls per operation, and each handler's warm overhead over the bare AWS calls it makes.

Everything runs in this process, against a moto server on loopback (`sandbox.aws_server.MotoServer`, which
counts the requests it serves). The handlers are the real `functions/*/app.py`, wired as the tests wire them;
the chat is the sandbox's sink, called in process; agents are reached through a loopback Lambda endpoint that
answers as the echo agent. moto's transactions cost what they touch (`sandbox.motofast`), as DynamoDB's do.

Warm overhead: for each operation the handler is timed on one object, then the very AWS calls it made are
replayed with plain boto3 clients on a twin object (same shape, other ids), back to back. The ratio of the
medians is what the handler adds: parsing, validation, answer text, logging, metrics.

The projector: tool calls and fires write items only; the stream records an operation wrote are then read
from the table's stream and handed to the real `functions/projector/app.py` as Lambda's event source mapping
hands them (`sandbox.streams.StreamPump`, batched as the template's mapping says: one invocation per batch),
and its invocations and AWS calls are counted apart from the operation's own. Before each operation every
earlier change is applied the same way, uncounted, so Scheduler holds what the items project, as in AWS.

Latency before and after one writer: the handler's time now, and the handler's time plus the Scheduler
writes the projector made for its change replayed bare on the twin: what the same call cost when it made
them inline (the projector's calls that found nothing, an UpdateSchedule of an entry not there yet, are left
out: the inline design knew a create from an update).

Run by `bench.run` as a child process (the handlers log to stdout): `python -m bench.operations OUT.json`.
"""

from __future__ import annotations

import argparse
import copy
import json
import os
import threading
import time
import uuid
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import boto3
from boto3.dynamodb.types import TypeDeserializer
from botocore import xform_name

from bench.common import SinkSender, median
from sandbox import motofast

OPERATIONS = (
    "create one-shot",
    "create recurring",
    "list",
    "delete",
    "fire one-shot",
    "fire recurring",
    "fire agent_call",
    "history",
)
HISTORY_RUNS = 1000  # runs planted in the listed room, to show the listing does not read them
LIST_SIZE = 10  # schedules in the listed room
RETIRED_KEPT = 200  # schedules retired in the listed room (deleted; every fifth a fired one-shot)


def action_name(key: str) -> str:
    """MotoServer's key for a request (a JSON target, or method and path for REST) as an API action."""
    if " " not in key:
        return key
    method, path = key.split(" ", 1)
    if path.startswith("/schedules/"):
        return {"POST": "CreateSchedule", "DELETE": "DeleteSchedule", "GET": "GetSchedule", "PUT": "UpdateSchedule"}[
            method
        ]
    if path.rstrip("/") == "/schedules":
        return "ListSchedules"
    return key


class Capture:
    """Records the API calls (service, operation, parameters) every boto3 client makes while on."""

    def __init__(self) -> None:
        self.on = False
        self.calls: list[tuple[str, str, dict[str, Any]]] = []
        self.failed: dict[int, str] = {}  # the index of each call answered with an error: its code

    def install(self, session: Any) -> None:
        session.events.register("provide-client-params", self._hook)
        session.events.register("after-call", self._answered)

    def _hook(self, params: dict[str, Any], model: Any, **_: Any) -> None:
        if self.on:
            self.calls.append((model.service_model.service_name, model.name, copy.deepcopy(params)))

    def _answered(self, http_response: Any, parsed: dict[str, Any], **_: Any) -> None:
        if self.on and self.calls and http_response.status_code >= 300:
            self.failed[len(self.calls) - 1] = str(parsed.get("Error", {}).get("Code", http_response.status_code))

    def record(self, fn: Callable[[], Any]) -> tuple[Any, float, list[tuple[str, str, dict[str, Any]]]]:
        self.calls, self.failed = [], {}
        self.on = True
        try:
            start = time.perf_counter()
            out = fn()
            elapsed = time.perf_counter() - start
        finally:
            self.on = False
        return out, elapsed, self.calls


class EchoAgentEndpoint:
    """Lambda's Invoke API on loopback, answering every function as the echo agent does (a prompt that
    starts with "fail" gets a function error, as from an agent that raised)."""

    def __init__(self) -> None:
        endpoint = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, format: str, *args: Any) -> None:
                pass

            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                request = json.loads(body or b"{}")
                with endpoint.lock:
                    endpoint.invokes += 1
                prompt = str(request.get("prompt", ""))
                failing = prompt.startswith("fail")  # an agent that raises, as Lambda reports it
                answer = {"errorMessage": "asked to fail"} if failing else {"text": f"echo: {prompt}"}
                data = json.dumps(answer).encode()
                self.send_response(200)
                if failing:
                    self.send_header("X-Amz-Function-Error", "Unhandled")
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

        self.lock = threading.Lock()
        self.invokes = 0
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        threading.Thread(target=self.server.serve_forever, daemon=True, name="echo-agent").start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}"


@dataclass
class Target:
    """One schedule (or the place a new one will go): what the twin substitution swaps."""

    room: str
    id: str = ""
    dedupe: str = ""
    slot: str = ""  # its next fire time, RFC3339 UTC

    def mapping_to(self, twin: Target) -> list[tuple[str, str]]:
        pairs = [(self.room, twin.room)]
        if self.id:
            pairs.append((self.id, twin.id))
        if self.dedupe:
            pairs.append((self.dedupe, twin.dedupe))
        return pairs


def substitute(value: Any, pairs: list[tuple[str, str]]) -> Any:
    if isinstance(value, str):
        for old, new in pairs:
            value = value.replace(old, new)
        return value
    if isinstance(value, bytes):
        return substitute(value.decode(), pairs).encode()
    if isinstance(value, dict):
        return {k: substitute(v, pairs) for k, v in value.items()}
    if isinstance(value, list):
        return [substitute(v, pairs) for v in value]
    return value


@dataclass
class Projection:
    """What the projector did with the changes one operation wrote: its invocations (one per batch), each
    one's duration, its AWS calls counted at the server, and the same calls as captured, in order."""

    invocations: int = 0
    seconds: list[float] = field(default_factory=list)
    served: Counter[str] = field(default_factory=Counter)
    calls: list[tuple[str, str, dict[str, Any]]] = field(default_factory=list)
    failed: dict[int, str] = field(default_factory=dict)  # index in `calls` of each answered with an error: its code

    def inline_calls(self) -> list[tuple[str, str, dict[str, Any]]]:
        """The Scheduler calls a tool call or fire made inline before one writer, for the same change:
        the projector's Scheduler calls that did something (not an update that found no entry)."""
        return [c for i, c in enumerate(self.calls) if c[0] == "scheduler" and i not in self.failed]

    def which(self) -> list[str]:
        """Its calls in order, each answered with an error followed by its code ("Exception" left out)."""
        failed = {i: code.removesuffix("Exception") for i, code in self.failed.items()}
        return [f"{op} {failed[i]}" if i in failed else op for i, (_, op, _) in enumerate(self.calls)]


@dataclass
class Figures:
    calls: Counter[str] = field(default_factory=Counter)
    agent_invokes: int = 0
    chat_posts: int = 0
    handler: list[float] = field(default_factory=list)
    bare: list[float] = field(default_factory=list)
    counts_seen: set[int] = field(default_factory=set)  # total calls of each round: one value if stable
    projector_calls: Counter[str] = field(default_factory=Counter)  # by action, counted at the server
    projector_services: Counter[str] = field(default_factory=Counter)  # the same calls by service
    projector_invocations: int = 0
    projector_which: list[str] = field(default_factory=list)  # its calls in order, as captured
    projector_seen: set[tuple[int, int]] = field(default_factory=set)  # (invocations, calls) of each round
    projector: list[float] = field(default_factory=list)  # the projector's time for the operation's change
    inline: list[float] = field(default_factory=list)  # its Scheduler writes replayed bare
    inline_calls: int = 0

    def as_dict(self) -> dict[str, Any]:
        before = [h + i for h, i in zip(self.handler, self.inline, strict=True)]
        return {
            "calls": dict(self.calls),
            "aws_calls": sum(self.calls.values()),
            "stable": len(self.counts_seen) == 1,
            "agent_invokes": self.agent_invokes,
            "chat_posts": self.chat_posts,
            "handler_ms": median(self.handler) * 1000,
            "bare_ms": median(self.bare) * 1000,
            "overhead": median(self.handler) / median(self.bare),
            "projector": {
                "invocations": self.projector_invocations,
                "calls": dict(self.projector_calls),
                "which": self.projector_which,
                "scheduler_calls": self.projector_services["scheduler"],
                "dynamodb_calls": self.projector_services["dynamodb"],
                "stable": len(self.projector_seen) == 1,
                "ms": median(self.projector) * 1000,
            },
            "inline_scheduler_calls": self.inline_calls,
            "before_ms": median(before) * 1000,
            "now_over_before": median(self.handler) / median(before),
        }


class Bench:
    def __init__(self) -> None:
        from cronbell.adapters import clock as clock_module
        from sandbox.aws_server import MotoServer
        from sandbox.chat import SinkChat
        from tests.support.aws import START, FakeClock, provision, set_aws_env
        from tests.support.handlers import configure_env, load_handler

        motofast.install()
        self.server = MotoServer().start()
        set_aws_env(self.server.url)
        self.echo = EchoAgentEndpoint()
        os.environ["AWS_ENDPOINT_URL_LAMBDA"] = self.echo.url
        boto3.setup_default_session()
        self.capture = Capture()
        self.capture.install(boto3.DEFAULT_SESSION)
        self.clock = FakeClock(START)
        clock_module.install(self.clock)
        self.stack = provision(self.server.url, self.clock)
        configure_env(self.stack)
        self.tools_app = load_handler("tools")
        self.fire_app = load_handler("fire")
        self.projector_app = load_handler("projector")
        self._pump: tuple[Any, Any] | None = None  # (the stack whose stream it reads, the StreamPump)
        self._projection: Projection | None = None  # what the projector does is counted while set
        self.chat = SinkSender(SinkChat(self.clock))  # type: ignore[arg-type]  # it only reads now()
        from cronbell import wiring

        wiring.deps().chat = lambda: self.chat  # the sink, in process
        self.bare: dict[str, Any] = {}
        self._deser = TypeDeserializer()

    # -------------------------------------------------------------------------------- helpers

    def tool(self, name: str, arguments: dict[str, Any], room: str) -> dict[str, Any]:
        from tests.support.envelopes import envelope
        from tests.support.handlers import LambdaContext

        answer: dict[str, Any] = self.tools_app.lambda_handler(
            envelope(name, arguments, room=room), LambdaContext(function_name="tools")
        )
        return answer

    def fire(self, target: Target) -> dict[str, Any]:
        from tests.support.handlers import LambdaContext
        from tests.support.lambda_timing import at_slot

        event = {"room_id": target.room, "reminder_id": target.id, "scheduled_time": target.slot, "execution_id": "e"}
        at_slot(self.clock, event)  # Scheduler fires at the schedule's own time
        result: dict[str, Any] = self.fire_app.lambda_handler(event, LambdaContext(function_name="fire"))
        return result

    def created(self, answer: dict[str, Any], room: str) -> Target:
        assert answer["ok"], answer
        sid = answer["result"]["id"]
        from cronbell.adapters.dynamo.codec import schedule_sk

        raw = self.stack.ddb.get_item(
            TableName=self.stack.settings.table_name, Key={"room_id": {"S": room}, "sk": {"S": schedule_sk(sid)}}
        )["Item"]
        dedupe = str(self._deser.deserialize(raw["dedupe_key"]))
        return Target(room=room, id=sid, dedupe=dedupe, slot=answer["result"]["next_fire"]["utc"])

    def make(self, kind: str, room: str, n: int) -> Target:
        if kind == "one-shot":
            return self.created(self.tool("create_reminder", {"message": f"m{n}", "time": "in 30 minutes"}, room), room)
        if kind == "recurring":
            return self.created(self.tool("create_reminder", {"message": f"r{n}", "cron": "0 9 * * 1"}, room), room)
        args = {"name": f"a{n}", "prompt": "Summarise {room_id}", "cron_expr": "0 18 * * *"}
        return self.created(self.tool("cron_create", args, room), room)

    def replay(self, calls: list[tuple[str, str, dict[str, Any]]], pairs: list[tuple[str, str]]) -> float:
        prepared = []
        for service, operation, params in calls:
            if service not in self.bare:
                self.bare[service] = boto3.client(service)
            prepared.append((getattr(self.bare[service], xform_name(operation)), substitute(params, pairs)))
        start = time.perf_counter()
        for method, params in prepared:
            out = method(**params)
            if "Payload" in out:
                out["Payload"].read()
        return time.perf_counter() - start

    # -------------------------------------------------------------------------------- the projector

    def _stream(self) -> Any:
        """The projector's event source mapping on the current stack's stream, as the template declares it
        (batch size; partial batch failures), which the bench never lets retry: a failure stops it."""
        from sandbox.streams import Mapping, StreamPump
        from tests.support.aws import REGION, template_yaml

        if self._pump is None or self._pump[0] is not self.stack:
            events = template_yaml()["Resources"]["ProjectorFunction"]["Properties"]["Events"]
            source = events["TableChanges"]["Properties"]
            table = self.stack.ddb.describe_table(TableName=self.stack.settings.table_name)["Table"]
            batch = int(source["BatchSize"])
            mapping = Mapping(
                "ProjectorFunction", table["LatestStreamArn"], batch_size=batch, max_retries=0, partial=True
            )
            pump = StreamPump(
                mapping,
                self.stack.streams,
                self._deliver,
                self.clock,  # type: ignore[arg-type]  # it only reads now(), for an on-failure message
                lambda arn, body: None,
                REGION,
            )
            self._pump = (self.stack, pump)
        return self._pump[1]

    def _deliver(self, records: list[dict[str, Any]]) -> Any:
        """One invocation of the projector with one batch of records, as Lambda makes it."""
        from tests.support.handlers import LambdaContext

        event = {"Records": records}
        before = Counter(self.server.calls)
        answer, elapsed, calls = self.capture.record(
            lambda: self.projector_app.lambda_handler(event, LambdaContext(function_name="projector"))
        )
        p = self._projection
        if p is not None:
            served = Counter(self.server.calls)
            served.subtract(before)
            p.invocations += 1
            p.seconds.append(elapsed)
            p.served.update({k: v for k, v in served.items() if v})
            p.failed.update({len(p.calls) + i: code for i, code in self.capture.failed.items()})
            p.calls += calls
        return answer

    def settle(self) -> None:
        """Apply every change written so far, uncounted (in AWS the stream follows within seconds)."""
        pump = self._stream()
        pump.drain()
        if pump.failed:
            raise RuntimeError(f"the projector failed on {len(pump.failed)} changes: {pump.failed[0]}")

    def project(self) -> Projection:
        """Apply the changes written since the last settle, counting what the projector does."""
        self._projection = Projection()
        try:
            self.settle()
            return self._projection
        finally:
            self._projection = None

    # -------------------------------------------------------------------------------- one round

    def round(self, n: int) -> dict[str, tuple[Callable[[], Any], Target | None, Target | None]]:
        """Each operation of round `n`: the handler call, the object it acts on, and that object's twin."""
        tag = f"{n}-{uuid.uuid4().hex[:6]}"

        def room(label: str) -> str:
            return f"!{label}{tag}:bench.example.org"

        plan: dict[str, tuple[Callable[[], Any], Target | None, Target | None]] = {}
        for op, kind in (("create one-shot", "one-shot"), ("create recurring", "recurring")):
            x_room, y_room = room("cx"), room("cy")
            when = {"time": "in 30 minutes"} if kind == "one-shot" else {"cron": "0 9 * * 1"}
            args = {"message": f"bench {tag}", **when}
            plan[op] = (partial(self.tool, "create_reminder", args, x_room), None, Target(room=y_room))
        plan["list"] = (partial(self.tool, "list_reminders", {}, self.list_room), None, None)
        plan["history"] = (
            partial(self.tool, "reminder_history", {"id": self.listed[0].id}, self.list_room),
            None,
            None,
        )
        x, y = self.make("one-shot", room("dx"), n), self.make("one-shot", room("dy"), n)
        plan["delete"] = (partial(self.tool, "delete_reminder", {"id": x.id}, x.room), x, y)
        fires = []
        for op, kind in (("fire one-shot", "one-shot"), ("fire recurring", "recurring"), ("fire agent_call", "agent")):
            x, y = self.make(kind, room("fx"), n), self.make(kind, room("fy"), n)
            fires.append((x.slot, op, x, y))
        # fired in the order of their times, as Scheduler would: the clock only moves forward, and a
        # recurring run that starts more than MaxLatenessMinutes after its time is not delivered
        for _, op, x, y in sorted(fires, key=lambda fire: fire[0]):
            plan[op] = (partial(self.fire, x), x, y)
        return plan

    def run(self, rounds: int) -> dict[str, Any]:
        self.list_room = "!list:bench.example.org"
        self.listed = [self.make("one-shot", self.list_room, i) for i in range(LIST_SIZE)]
        reads = self.list_reads()
        figures = {op: Figures() for op in OPERATIONS}
        for n in range(rounds + 1):  # round 0 warms every path up and is not counted
            for op, (call, x, y) in self.round(n).items():
                self.settle()
                before, invokes, posts = Counter(self.server.calls), self.echo.invokes, self.chat.posts
                answer, elapsed, calls = self.capture.record(call)
                _check(op, answer)
                served = Counter(self.server.calls)
                served.subtract(before)
                invoked, posted = self.echo.invokes - invokes, self.chat.posts - posts
                projected = self.project()
                if x is None and y is not None:  # a create: the new schedule is x
                    x = Target(room=_room_of(calls), id=answer["result"]["id"], dedupe=_dedupe_of(calls))
                    y = Target(room=y.room, id=_fresh_id(), dedupe=uuid.uuid4().hex[: len(x.dedupe)])
                pairs = x.mapping_to(y) if (x and y) else []
                bare = self.replay(calls, pairs)
                inline = projected.inline_calls()
                inline_s = self.replay(inline, pairs)
                if n == 0:
                    continue
                f = figures[op]
                f.calls = Counter({action_name(k): v for k, v in served.items() if v})
                f.counts_seen.add(sum(f.calls.values()))
                f.agent_invokes, f.chat_posts = invoked, posted
                f.handler.append(elapsed)
                f.bare.append(bare)
                f.projector_calls = Counter({action_name(k): v for k, v in projected.served.items()})
                f.projector_services = Counter(service for service, _, _ in projected.calls)
                f.projector_which = projected.which()
                f.projector_invocations = projected.invocations
                f.projector_seen.add((projected.invocations, sum(projected.served.values())))
                f.projector.append(sum(projected.seconds))
                f.inline.append(inline_s)
                f.inline_calls = len(inline)
        return {"ops": {op: f.as_dict() for op, f in figures.items()}, "list_reads": reads}

    def list_reads(self) -> dict[str, int]:
        """Items the listing's Query reads (ScannedCount) before and after the room gains a long
        history: HISTORY_RUNS runs of one of its schedules and RETIRED_KEPT schedules kept for audit."""
        from cronbell.adapters import aws
        from tests.support.runs import plant_runs

        scanned: list[int] = []

        def note(parsed: dict[str, Any], **_: Any) -> None:
            scanned.append(int(parsed.get("ScannedCount", 0)))

        client = aws.client("dynamodb")
        client.meta.events.register("after-call.dynamodb.Query", note)
        self.tool("list_reminders", {}, self.list_room)
        before = scanned[-1]
        plant_runs(self.stack.ddb, self.stack.settings.table_name, self.list_room, self.listed[0].id, HISTORY_RUNS)
        for n in range(RETIRED_KEPT):
            kept = self.make("one-shot", self.list_room, LIST_SIZE + n)
            _check(
                "retire", self.tool("delete_reminder", {"id": kept.id}, self.list_room) if n % 5 else self.fire(kept)
            )
        self.stack.project()  # the projector applies the fires' changes: the fired ones move to their retired keys
        self.tool("list_reminders", {}, self.list_room)
        client.meta.events.unregister("after-call.dynamodb.Query", note)
        return {
            "schedules": LIST_SIZE,
            "runs": HISTORY_RUNS,
            "retired": RETIRED_KEPT,
            "read_before": before,
            "read_after": scanned[-1],
        }


def _check(op: str, answer: dict[str, Any]) -> None:
    if op.startswith("fire") or "outcome" in answer:
        if answer.get("outcome") != "delivered":
            raise RuntimeError(f"{op}: {answer}")
    elif not answer.get("ok"):
        raise RuntimeError(f"{op}: {answer}")


def _room_of(calls: list[tuple[str, str, dict[str, Any]]]) -> str:
    for _, operation, params in calls:
        if operation == "TransactWriteItems":
            return str(params["TransactItems"][0]["Update"]["Key"]["room_id"]["S"])
    raise RuntimeError("no transaction in a create")


def _dedupe_of(calls: list[tuple[str, str, dict[str, Any]]]) -> str:
    for _, operation, params in calls:
        if operation == "TransactWriteItems":
            for item in params["TransactItems"]:
                sk = item.get("Put", {}).get("Item", {}).get("sk", {}).get("S", "")
                if sk.startswith("d#"):
                    return str(sk[2:])
    raise RuntimeError("no dedupe pointer in a create")


def _fresh_id() -> str:
    from cronbell.core.domain.models import new_id

    return new_id()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", help="where to write the figures (JSON)")
    parser.add_argument("--rounds", type=int, default=15)
    args = parser.parse_args()
    bench = Bench()
    try:
        figures = bench.run(args.rounds)
    finally:
        bench.server.stop()
    with open(args.out, "w", encoding="utf-8") as out:
        json.dump(figures, out, indent=1)


if __name__ == "__main__":
    main()
