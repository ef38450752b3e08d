"""Lambda's event source mapping for a DynamoDB stream, as the sandbox runs it: the table's stream read
from moto and handed to the function in batches, in order, with partial batch failures retried from the
first failed record, bisected, and sent to the on-failure destination once their retries run out.

`drain` applies every change written so far. The sandbox calls it after each invocation, before the
invocation's answer is sent: what a caller reads from Scheduler after an answer is the projection of
what the answer wrote (in AWS the mapping follows within seconds). The sandbox's pumps read the records
from its moto server's state (`MotoServer.stream_records`), as the API would answer them, rather than
through three API calls each time: botocore's parse of every record's two item images cost more than the
projector's run."""

from __future__ import annotations

import json
import logging
import threading
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sandbox.clock import SandboxClock, iso

log = logging.getLogger("sandbox.streams")

UNBOUNDED_RETRIES = 10
RECORDS_PER_READ = 1000  # GetRecords' most records per shard and read
# (records as Lambda's DynamoDB event holds them) -> the function's answer, parsed
Deliver = Callable[[list[dict[str, Any]]], Any]
# (stream ARN, shards, read_to, most records per shard) -> what `read_after` would read, or None: read it so
Reader = Callable[[str, list[str], dict[str, str], int], list[dict[str, Any]] | None]


@dataclass(frozen=True)
class Mapping:
    """An AWS::Lambda::EventSourceMapping on a stream, as the template declares it."""

    function: str  # the function's logical id
    stream_arn: str
    batch_size: int = 100
    max_retries: int = -1  # -1: until the record expires (the sandbox stops after UNBOUNDED_RETRIES)
    bisect: bool = False
    partial: bool = False  # ReportBatchItemFailures
    on_failure_arn: str = ""


def mappings(cfn: dict[str, Any], attribute: Callable[[str, str], str]) -> list[Mapping]:
    """The DynamoDB stream mappings of a transformed template (their function and stream resolved)."""
    out = []
    for resource in cfn["Resources"].values():
        if resource.get("Type") != "AWS::Lambda::EventSourceMapping":
            continue
        props = resource["Properties"]
        source = props.get("EventSourceArn")
        if not (isinstance(source, dict) and "Fn::GetAtt" in source):
            continue
        table, name = source["Fn::GetAtt"]
        if name != "StreamArn":
            continue
        function = props["FunctionName"]
        function = function.get("Ref", "") if isinstance(function, dict) else str(function)
        alias = cfn["Resources"].get(function, {})
        if alias.get("Type") == "AWS::Lambda::Alias":  # AutoPublishAlias: the mapping feeds the alias
            named = alias["Properties"]["FunctionName"]
            function = named.get("Ref", "") if isinstance(named, dict) else str(named)
        destination = (props.get("DestinationConfig") or {}).get("OnFailure", {}).get("Destination", "")
        if isinstance(destination, dict) and "Fn::GetAtt" in destination:
            destination = attribute(destination["Fn::GetAtt"][0], "Arn")
        out.append(
            Mapping(
                function=function,
                stream_arn=attribute(table, "StreamArn"),
                batch_size=int(props.get("BatchSize", 100)),
                max_retries=int(props.get("MaximumRetryAttempts", -1)),
                bisect=bool(props.get("BisectBatchOnFunctionError", False)),
                partial="ReportBatchItemFailures" in (props.get("FunctionResponseTypes") or []),
                on_failure_arn=str(destination or ""),
            )
        )
    return out


class StreamPump:
    """One mapping: reads its stream from where it last stopped and delivers what is new."""

    def __init__(
        self,
        mapping: Mapping,
        streams: Any,
        deliver: Deliver,
        clock: SandboxClock,
        send_to_queue: Callable[[str, str], None],
        region: str,
        writes: Callable[[], int] | None = None,
        reader: Reader | None = None,
    ) -> None:
        """`reader`: the stream's records without the API (the sandbox's moto server reads its own state);
        `streams`, a DynamoDB Streams client, whenever it answers None."""
        self.mapping = mapping
        self._reader = reader
        self._writes = writes  # the table writes so far: no read while it stays where the stream was read to
        self._read_at: int | None = None  # that count when a read last reached the stream's end
        self._streams = streams
        self._deliver = deliver
        self._clock = clock
        self._send = send_to_queue
        self._region = region
        self._lock = threading.Lock()
        self._shards: list[str] = []
        self._read_to: dict[str, str] = {}  # shard -> the sequence number of its last record read
        self.delivered = 0  # records handed to the function, retries included
        self.failed: list[dict[str, Any]] = []  # records sent to the on-failure destination

    def drain(self) -> None:
        """Deliver every record written so far, oldest first, until the stream has nothing new (the
        function's own writes included)."""
        with self._lock:
            while True:
                writes = self._writes() if self._writes is not None else None
                if writes is not None and writes == self._read_at:
                    return  # nothing written since the stream was read to its end
                records = self._read()
                if len(records) < RECORDS_PER_READ:  # to its end, as of `writes` (counted before it applied)
                    self._read_at = writes
                if not records:
                    return
                for start in range(0, len(records), self.mapping.batch_size):
                    self._batch(records[start : start + self.mapping.batch_size])

    def _read(self) -> list[dict[str, Any]]:
        arn = self.mapping.stream_arn
        records = self._reader(arn, self._shards, self._read_to, RECORDS_PER_READ) if self._reader else None
        if records is None:
            records = read_after(self._streams, arn, self._shards, self._read_to)
        return [self._as_lambda_record(r) for r in records]

    def _as_lambda_record(self, record: dict[str, Any]) -> dict[str, Any]:
        return lambda_record(record, self.mapping.stream_arn, self._region)

    def _batch(self, batch: list[dict[str, Any]]) -> None:
        """Deliver one batch until it succeeds: a reported failure retries from that record on (the
        ones before it are done); an error of the whole batch retries it, bisected when the mapping
        says so; a record whose retries run out goes to the on-failure destination."""
        tries = 0
        pending = batch
        while pending:
            failed_from = self._attempt(pending)
            if failed_from is None:
                return
            tries += 1
            pending = pending[failed_from:]
            limit = self.mapping.max_retries if self.mapping.max_retries >= 0 else UNBOUNDED_RETRIES
            if tries > limit:
                self._give_up(pending[:1] if self.mapping.partial else pending)
                pending = pending[1:] if self.mapping.partial else []
                tries = 0
            elif self.mapping.bisect and len(pending) > 1 and failed_from == 0:
                half = len(pending) // 2
                self._batch(pending[:half])
                pending = pending[half:]

    def _attempt(self, batch: list[dict[str, Any]]) -> int | None:
        """None when the whole batch is done; else the index of the first record to deliver again."""
        self.delivered += len(batch)
        try:
            answer = self._deliver(batch)
        except Exception as err:  # the function raised, timed out or answered an error
            log.warning("%s failed on a batch of %d: %s", self.mapping.function, len(batch), err)
            return 0
        failures = (answer or {}).get("batchItemFailures") if isinstance(answer, dict) else None
        if not failures or not self.mapping.partial:
            return None
        ids = {str(f.get("itemIdentifier", "")) for f in failures}
        for index, record in enumerate(batch):
            if record["dynamodb"].get("SequenceNumber") in ids:
                return index
        return 0  # an identifier the batch does not hold: Lambda retries the whole batch

    def _give_up(self, records: list[dict[str, Any]]) -> None:
        for record in records:
            self.failed.append(record)
            log.error("%s gave up on a change of %s", self.mapping.function, record["dynamodb"].get("Keys"))
            if self.mapping.on_failure_arn:
                self._send(self.mapping.on_failure_arn, json.dumps(_failure_message(record, self._clock)))


def read_after(streams: Any, stream_arn: str, shards: list[str], read_to: dict[str, str]) -> list[dict[str, Any]]:
    """Every shard's records after the last one read (`read_to`, brought forward), oldest first.
    Every read takes a fresh iterator from the last sequence number: moto puts back a copy of the
    table (its stream included) when a transaction fails, which an old iterator never sees again."""
    if not shards:
        shards += [s["ShardId"] for s in streams.describe_stream(StreamArn=stream_arn)["StreamDescription"]["Shards"]]
    out: list[dict[str, Any]] = []
    for shard in shards:
        after = read_to.get(shard)
        position = (
            {"ShardIteratorType": "AFTER_SEQUENCE_NUMBER", "SequenceNumber": after}
            if after
            else {"ShardIteratorType": "TRIM_HORIZON"}
        )
        iterator = streams.get_shard_iterator(StreamArn=stream_arn, ShardId=shard, **position)["ShardIterator"]
        records = streams.get_records(ShardIterator=iterator, Limit=RECORDS_PER_READ).get("Records", [])
        if records:
            read_to[shard] = records[-1]["dynamodb"]["SequenceNumber"]
        out += records
    return out


def lambda_record(record: dict[str, Any], stream_arn: str, region: str) -> dict[str, Any]:
    """A record as GetRecords answers it, as Lambda's DynamoDB event holds it."""
    images = dict(record["dynamodb"])
    created = images.get("ApproximateCreationDateTime")
    if isinstance(created, datetime):
        images["ApproximateCreationDateTime"] = created.timestamp()
    return {
        "eventID": record.get("eventID") or uuid.uuid4().hex,
        "eventName": record["eventName"],
        "eventVersion": "1.1",
        "eventSource": "aws:dynamodb",
        "awsRegion": region,
        "dynamodb": images,
        "eventSourceARN": stream_arn,
    }


def _failure_message(record: dict[str, Any], clock: SandboxClock) -> dict[str, Any]:
    """What Lambda sends an on-failure destination for a stream record: where to find it, not the record."""
    sequence = record["dynamodb"].get("SequenceNumber", "")
    return {
        "requestContext": {"condition": "RetryAttemptsExhausted", "approximateInvokeCount": 1},
        "timestamp": iso(clock.now()),
        "DDBStreamBatchInfo": {
            "shardId": "",
            "startSequenceNumber": sequence,
            "endSequenceNumber": sequence,
            "batchSize": 1,
            "streamArn": record["eventSourceARN"],
        },
    }
