"""The table's stream as the projector meets it, played by the tests: promptly, late, again, or with
different items' records interleaved.

DynamoDB Streams keeps one item's records in order and promises nothing across items (they may be
in different shards, read by different invocations); Lambda delivers a batch again from the record
that failed (a partial batch failure) or whole (a timeout), so a suffix of what was applied may be
applied once more, in order. `Stream.settle` applies what the functions wrote so far, after an
invocation, in one of these ways:

- `prompt`: every record, in order (what the sandbox does after every invocation);
- `late`: only the records that were waiting already; this invocation's wait for the next settle
  (the projector lags: another call, a fire, runs before its entries follow);
- `again`: every record, then the records from a random one on, once more (redelivery);
- `interleaved`: every record, different items' records in a random interleaving, each item's own
  in order.

`flush` applies every record still waiting, in order: before Scheduler is read to decide what fires
(production's lag is seconds; no test fire falls inside it).

The stream is read with a new shard iterator after the last record read, every time: moto answers a
failed transaction by putting back a copy of its tables, and an iterator taken before then goes on
reading the shard of the old copy, which no write reaches any more (records would be lost).
"""

from __future__ import annotations

import random
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from tests.support.aws import Stack

MODES = ("prompt", "late", "again", "interleaved")


@dataclass
class Stream:
    stack: Stack
    mode: str = "prompt"
    rng: random.Random = field(default_factory=lambda: random.Random(0))
    waiting: list[dict[str, Any]] = field(default_factory=list)
    applied: int = 0  # records applied, redeliveries included
    redelivered: int = 0

    def __post_init__(self) -> None:
        assert self.mode in MODES, self.mode

    def _apply(self, records: list[dict[str, Any]]) -> None:
        from cronbell.adapters.dynamo.codec import stream_change
        from cronbell.usecases.project import apply

        deps = self.stack.deps()
        for record in records:
            apply(stream_change(record), deps)
        self.applied += len(records)

    def _pull(self) -> list[dict[str, Any]]:
        return read(self.stack)

    def discard(self) -> None:
        """Forget what is on the stream so far (an earlier cell's on a shared table)."""
        self.waiting = []
        read(self.stack)

    def settle(self) -> None:
        """Apply what the functions wrote so far, as `mode` says."""
        if self.mode == "late":
            ready, self.waiting = self.waiting, self._pull()
            self._apply(ready)
            return
        records = [*self.waiting, *self._pull()]
        self.waiting = []
        while records:  # and what the projection itself wrote (a schedule Scheduler refused, retired)
            if self.mode == "interleaved":
                records = interleave(records, self.rng)
            self._apply(records)
            if self.mode == "again":
                start = self.rng.randrange(len(records))
                self._apply(records[start:])
                self.redelivered += len(records) - start
            records = self._pull()

    def flush(self) -> None:
        """Apply every record still waiting, in order."""
        ready, self.waiting = [*self.waiting, *self._pull()], []
        while ready:
            self._apply(ready)
            ready = self._pull()


_READ: dict[tuple[str, str], dict[str, str]] = {}  # (endpoint, stream) -> shard -> last sequence number read
_SHARDS: dict[Any, tuple[str, list[str]]] = {}  # a stack's DynamoDB client -> its table's stream and shards


def read(stack: Stack) -> list[dict[str, Any]]:
    """The table's stream records written since the last read (by any reader of this stack's table),
    oldest first."""
    if stack.ddb not in _SHARDS:
        arn = stack.ddb.describe_table(TableName=stack.settings.table_name)["Table"]["LatestStreamArn"]
        shards = stack.streams.describe_stream(StreamArn=arn)["StreamDescription"]["Shards"]
        _SHARDS[stack.ddb] = (arn, [shard["ShardId"] for shard in shards])
    arn, shards = _SHARDS[stack.ddb]
    last = _READ.setdefault((stack.endpoint, arn), {})
    out: list[dict[str, Any]] = []
    for sid in shards:
        position: dict[str, str] = {"ShardIteratorType": "TRIM_HORIZON"}
        if sid in last:
            position = {"ShardIteratorType": "AFTER_SEQUENCE_NUMBER", "SequenceNumber": last[sid]}
        iterator = stack.streams.get_shard_iterator(StreamArn=arn, ShardId=sid, **position)["ShardIterator"]
        while iterator:
            answer = stack.streams.get_records(ShardIterator=iterator)
            out += answer["Records"]
            if len(answer["Records"]) < READ_LIMIT:
                break
            iterator = answer.get("NextShardIterator")
        if out:
            last[sid] = out[-1]["dynamodb"]["SequenceNumber"]
    return out


READ_LIMIT = 1000  # records one GetRecords answers at most


def scheduler_entries(stack: Stack) -> dict[str, dict[str, Any]]:
    """Every Scheduler entry of the stack's group, in full (GetSchedule), as it is (nothing projected)."""
    group = stack.settings.schedule_group
    out = {}
    for page in stack.scheduler.get_paginator("list_schedules").paginate(GroupName=group):
        for item in page["Schedules"]:
            entry = stack.scheduler.get_schedule(Name=item["Name"], GroupName=group)
            entry.pop("ResponseMetadata", None)
            out[item["Name"]] = entry
    return out


def interleave(records: list[dict[str, Any]], rng: random.Random) -> list[dict[str, Any]]:
    """The records in a random order that keeps each item's own in the order written."""
    from cronbell.adapters.dynamo.codec import stream_identity

    queues: defaultdict[tuple[str, str], list[dict[str, Any]]] = defaultdict(list)
    for record in records:
        queues[stream_identity(record)].append(record)
    out = []
    while queues:
        item = rng.choice(sorted(queues))
        out.append(queues[item].pop(0))
        if not queues[item]:
            del queues[item]
    return out
