"""A moto server (server mode, real HTTP) with the stack's table, group and queues, for tests."""

from __future__ import annotations

import os
import socket
import threading
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from functools import cache
from pathlib import Path
from typing import Any

import boto3

from cronbell.adapters.dynamo.codec import UNWRITTEN
from cronbell.core.domain.ports import ChatSender
from cronbell.settings import Settings
from cronbell.usecases.deps import Deps

ROOT = Path(__file__).resolve().parents[2]
REGION = "us-east-1"
ACCOUNT = "123456789012"
GROUP = "cronbell-test"
TABLE = "cronbell-test"
# what the tools and Scheduler invoke: the fire function's alias (template.yaml's AutoPublishAlias)
FIRE_ARN = f"arn:aws:lambda:{REGION}:{ACCOUNT}:function:FireFunction:live"
ROLE_ARN = f"arn:aws:iam::{ACCOUNT}:role/cronbell-scheduler"


def _no_chat() -> ChatSender:
    raise RuntimeError("no chat sender in these dependencies")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@cache
def template_yaml() -> Any:
    """template.yaml as cfn-lint reads it, decoded once per process (callers only read it)."""
    from cfnlint.decode import decode  # a heavy import, which a worker process does without

    template, problems = decode(str(ROOT / "template.yaml"))
    assert template is not None, problems
    return template


def table_definition() -> dict[str, Any]:
    """The table's keys as template.yaml declares them (never a second copy)."""
    props = template_yaml()["Resources"]["ScheduleTable"]["Properties"]
    return {
        "AttributeDefinitions": props["AttributeDefinitions"],
        "KeySchema": props["KeySchema"],
        "BillingMode": props["BillingMode"],
        "StreamSpecification": {"StreamEnabled": True, **props["StreamSpecification"]},
    }


def static_schedules(room: str, timezone: str = "UTC") -> dict[str, Any]:
    """The fire function's declaration of the template's schedules (its STATIC_SCHEDULES), for a room."""
    from cronbell.core.domain.fire_event import static_declarations

    env = template_yaml()["Resources"]["FireFunction"]["Properties"]["Environment"]["Variables"]
    condition, declared, _without = env["STATIC_SCHEDULES"]["Fn::If"]  # declared only when a room is given
    assert condition == "HasAnalysisRoom"
    raw = declared["Fn::Sub"]
    return static_declarations(raw.replace("${AnalysisOutputRoom}", room).replace("${AnalysisTimezone}", timezone))


def set_aws_env(endpoint: str) -> None:
    os.environ.update(
        {
            "AWS_ENDPOINT_URL": endpoint,
            "AWS_ACCESS_KEY_ID": "testing",
            "AWS_SECRET_ACCESS_KEY": "testing",
            "AWS_DEFAULT_REGION": REGION,
            "AWS_REGION": REGION,
        }
    )
    os.environ.pop("AWS_PROFILE", None)


class FakeClock:
    """A settable clock for the handlers (installed with cronbell.adapters.clock.install)."""

    def __init__(self, start: datetime) -> None:
        self.current = start

    def now(self) -> datetime:
        return self.current

    def advance(self, **kwargs: float) -> datetime:
        self.current += timedelta(**kwargs)
        return self.current


@dataclass
class Stack:
    """Clients on the moto server plus Deps wired as the tools function wires them."""

    endpoint: str
    clock: FakeClock
    settings: Settings
    ddb: Any = field(init=False)
    scheduler: Any = field(init=False)
    sqs: Any = field(init=False)
    dlq_arn: str = ""

    def __post_init__(self) -> None:
        self.ddb = boto3.client("dynamodb", region_name=REGION, endpoint_url=self.endpoint)
        self.scheduler = boto3.client("scheduler", region_name=REGION, endpoint_url=self.endpoint)
        self.sqs = boto3.client("sqs", region_name=REGION, endpoint_url=self.endpoint)
        self.streams = boto3.client("dynamodbstreams", region_name=REGION, endpoint_url=self.endpoint)
        self._stream_arn = ""
        self._shards: list[str] = []
        self._read_to: dict[str, str] = {}
        self.projected = 0  # stream records the projection applied
        self._table = self.ddb  # the history's own reads and writes: never a test's wrapper of `ddb`
        self._history_shards: list[str] = []
        self._history_read_to: dict[str, str] = {}
        self._history_lock = threading.Lock()

    def stream_records(self) -> list[dict[str, Any]]:
        """The table's stream records written since the last read, oldest first (as Lambda gets them)."""
        from sandbox.streams import read_after

        return read_after(self.streams, self._arn(), self._shards, self._read_to)

    def _arn(self) -> str:
        if not self._stream_arn:
            self._stream_arn = self._table.describe_table(TableName=TABLE)["Table"]["LatestStreamArn"]
        return self._stream_arn

    def write_histories(self) -> None:
        """The runs recorded on schedules since the last call, written to their slots, and the schedules
        retired under their live keys moved, as the projector does from the stream (`write_items`), on
        a cursor of its own: `project` still sees every record."""
        from cronbell.adapters.dynamo import DynamoStore
        from cronbell.adapters.dynamo.codec import stream_change
        from cronbell.usecases.project import write_items
        from sandbox.streams import read_after

        with self._history_lock:
            records = read_after(self.streams, self._arn(), self._history_shards, self._history_read_to)
            store = DynamoStore(self._table, TABLE, self.settings.retention_days)
            for record in records:
                write_items(stream_change(record), store, self.clock.now())

    def stream_event(self) -> dict[str, Any]:
        """The stream records written since the last read, as Lambda hands them to the projector."""
        from sandbox.streams import lambda_record

        records = self.stream_records()
        return {"Records": [lambda_record(r, self._stream_arn, REGION) for r in records]}

    def project(self, **overrides: Any) -> int:
        """Apply every change written so far to Scheduler, as the stream-fed projector does (and its
        writes' own changes after them); returns how many records it applied."""
        from cronbell.adapters.dynamo.codec import stream_change
        from cronbell.usecases.project import apply

        deps = self.deps(**overrides)
        applied = 0
        while records := self.stream_records():
            for record in records:
                apply(stream_change(record), deps)
            applied += len(records)
        self.projected += applied
        return applied

    def deps(self, **overrides: Any) -> Deps:
        """The functions' own dependencies (cronbell.wiring.build) on this moto server and clock. What a
        test stands in for is off unless it passes its own: no chat, no agents, no waiting, no
        asynchronous fire, no metrics."""
        from cronbell import wiring

        clients = {"dynamodb": WithHistory(self.ddb, self), "scheduler": self.scheduler, "sqs": self.sqs}

        def client(service: str) -> Any:
            return clients.get(service) or boto3.client(service, region_name=REGION, endpoint_url=self.endpoint)

        boundaries: dict[str, Any] = {
            "start_fire": None,
            "sleep": lambda seconds: None,
            "chat": _no_chat,
            "agents": None,
            "metric": lambda name, value: None,
            "run_metric": lambda outcome, reason: None,
        }
        return wiring.build(self.settings, client, self.clock.now, **{**boundaries, **overrides})

    def plant_entry(self, name: str, owner: str = "", room: str = "", expression: str = "cron(0 9 * * ? *)") -> None:
        """A Scheduler entry made behind cronbell's back (an orphan, a leftover, a racing create):
        it fires `owner` (default: the entry's name) in `room`, written now on the test clock."""
        from cronbell.core.domain.fire_event import scheduler_input
        from cronbell.core.domain.instants import iso_utc
        from tests.support.envelopes import ROOM

        room = room or ROOM
        self.scheduler.create_schedule(
            Name=name,
            GroupName=self.settings.schedule_group,
            ScheduleExpression=expression,
            FlexibleTimeWindow={"Mode": "OFF"},
            Description=f"cronbell message in {room}; written {iso_utc(self.clock.now())}",
            Target={
                "Arn": self.settings.fire_function_arn,
                "RoleArn": self.settings.scheduler_role_arn,
                "Input": scheduler_input(room, owner or name),
            },
        )

    def entries(self) -> dict[str, dict[str, Any]]:
        """Every Scheduler entry of the group, in full (GetSchedule), once the projection has caught up."""
        self.project()
        out = {}
        for page in self.scheduler.get_paginator("list_schedules").paginate(GroupName=GROUP):
            for item in page["Schedules"]:
                entry = self.scheduler.get_schedule(Name=item["Name"], GroupName=GROUP)
                entry.pop("ResponseMetadata", None)
                out[item["Name"]] = entry
        return out

    def remove_entry(self, name: str) -> None:
        """Scheduler loses an entry the projection wrote (a one-time entry deletes itself once fired,
        or the entry is lost): the projection first catches up, so the entry is there to go."""
        self.project()
        self.scheduler.delete_schedule(Name=name, GroupName=GROUP)

    def items(self) -> list[dict[str, Any]]:
        from boto3.dynamodb.types import TypeDeserializer

        d = TypeDeserializer()
        rows = []
        for page in self.ddb.get_paginator("scan").paginate(TableName=TABLE):
            rows += [{k: d.deserialize(v) for k, v in raw.items()} for raw in page["Items"]]
        return rows


def provision(endpoint: str, clock: FakeClock, **settings: Any) -> Stack:
    """Reset the moto server and create the stack's resources."""
    import urllib.request

    from tests.support.envelopes import ROOM

    urllib.request.urlopen(urllib.request.Request(f"{endpoint}/moto-api/reset", method="POST")).read()
    base = {
        "table_name": TABLE,
        "schedule_group": GROUP,
        "fire_function_arn": FIRE_ARN,
        "scheduler_role_arn": ROLE_ARN,
        "default_timezone": "UTC",
        "agents": {"echo": "EchoAgentFunction"},
        "static_schedules": static_schedules(ROOM),
    }
    base.update(settings)
    stack = Stack(endpoint=endpoint, clock=clock, settings=Settings(**base))
    stack.ddb.create_table(TableName=TABLE, **table_definition())
    stack.scheduler.create_schedule_group(Name=GROUP)
    url = stack.sqs.create_queue(QueueName="cronbell-scheduler-dlq")["QueueUrl"]
    stack.dlq_arn = stack.sqs.get_queue_attributes(QueueUrl=url, AttributeNames=["QueueArn"])["Attributes"]["QueueArn"]
    stack.settings = Settings(**{**base, "scheduler_dlq_arn": stack.dlq_arn})
    return stack


START = datetime(2026, 11, 30, 8, 0, tzinfo=UTC)  # a Monday, 09:00 in Madrid


class WithHistory:
    """A function's DynamoDB client whose every record of a run (a write naming `unwritten`) is followed
    by the history the projector writes from the table's stream (`Stack.write_histories`), as in a
    deployment where it runs within about a second: a test reads a fired run's history as a user would
    a moment later. The interleavings and the concurrent changes, which play the stream themselves
    (late, twice, interleaved), pass their own store and never meet this."""

    def __init__(self, client: Any, stack: Stack) -> None:
        self._client, self._stack = client, stack

    def __getattr__(self, name: str) -> Any:
        attr = getattr(self._client, name)
        if name not in ("update_item", "transact_write_items"):  # a record: one or the other
            return attr

        def written(**kwargs: Any) -> Any:
            try:
                return attr(**kwargs)
            finally:
                if UNWRITTEN in repr(kwargs):  # it names the slot the projector writes the run on
                    self._stack.write_histories()

        return written
