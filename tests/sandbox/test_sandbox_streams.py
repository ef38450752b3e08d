"""The sandbox's stream mapping reads the table's stream only when something was written since it last
read it to its end, and still hands over every record, the function's own writes included."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

import boto3
import pytest

from sandbox import motofast
from sandbox.aws_server import MotoServer
from sandbox.clock import VirtualClock
from sandbox.streams import Mapping, StreamPump, lambda_record, read_after

REGION = "us-east-1"


@pytest.fixture
def server() -> Iterator[MotoServer]:
    server = MotoServer(in_process=True).start()
    server.leave_streams_to_the_sandbox()
    yield server
    server.stop()


def _client(service: str, server: MotoServer) -> Any:
    return boto3.client(
        service, endpoint_url=server.url, region_name=REGION, aws_access_key_id="test", aws_secret_access_key="test"
    )


def test_the_stream_is_read_only_after_a_write_and_every_record_is_delivered(server: MotoServer) -> None:
    db = _client("dynamodb", server)
    table = f"streamed-{uuid.uuid4().hex[:8]}"
    arn = db.create_table(
        TableName=table,
        KeySchema=[{"AttributeName": "k", "KeyType": "HASH"}],
        AttributeDefinitions=[{"AttributeName": "k", "AttributeType": "S"}],
        BillingMode="PAY_PER_REQUEST",
        StreamSpecification={"StreamEnabled": True, "StreamViewType": "NEW_AND_OLD_IMAGES"},
    )["TableDescription"]["LatestStreamArn"]
    server.leave_streams_to_the_sandbox()
    delivered: list[str] = []

    def deliver(records: list[dict[str, Any]]) -> dict[str, Any]:
        for record in records:
            key = record["dynamodb"]["Keys"]["k"]["S"]
            delivered.append(key)
            if key == "a":  # the function writes too: its record comes in the same drain
                db.put_item(TableName=table, Item={"k": {"S": "a-echo"}})
        return {"batchItemFailures": []}

    clock = VirtualClock(datetime(2030, 1, 1, tzinfo=UTC))
    pump = StreamPump(
        Mapping("F", arn, partial=True), _client("dynamodbstreams", server), deliver, clock,
        lambda arn, body: None, REGION, writes=lambda: server.table_writes,
    )  # fmt: skip

    def reads() -> int:
        return server.calls["GetRecords"]

    db.put_item(TableName=table, Item={"k": {"S": "a"}})
    pump.drain()
    assert delivered == ["a", "a-echo"]
    before = reads()
    pump.drain()
    db.get_item(TableName=table, Key={"k": {"S": "a"}})  # a read writes no record
    pump.drain()
    assert reads() == before  # nothing written since the stream was read to its end
    db.put_item(TableName=table, Item={"k": {"S": "b"}})
    pump.drain()
    assert delivered == ["a", "a-echo", "b"] and reads() == before + 1


def _streamed_table(db: Any) -> tuple[str, str]:
    table = f"streamed-{uuid.uuid4().hex[:8]}"
    arn = db.create_table(
        TableName=table,
        KeySchema=[{"AttributeName": "k", "KeyType": "HASH"}, {"AttributeName": "s", "KeyType": "RANGE"}],
        AttributeDefinitions=[
            {"AttributeName": "k", "AttributeType": "S"},
            {"AttributeName": "s", "AttributeType": "S"},
        ],
        BillingMode="PAY_PER_REQUEST",
        StreamSpecification={"StreamEnabled": True, "StreamViewType": "NEW_AND_OLD_IMAGES"},
    )["TableDescription"]["LatestStreamArn"]
    return table, arn


def test_the_server_reads_its_own_stream_as_the_api_answers_it(server: MotoServer) -> None:
    db = _client("dynamodb", server)
    streams = _client("dynamodbstreams", server)
    table, arn = _streamed_table(db)
    server.leave_streams_to_the_sandbox()
    item = {"k": {"S": "a"}, "s": {"S": "1"}, "n": {"N": "3.5"}, "ok": {"BOOL": True}, "none": {"NULL": True}}
    db.put_item(TableName=table, Item={**item, "m": {"M": {"l": {"L": [{"S": "x"}, {"N": "1"}]}}}})
    db.update_item(
        TableName=table, Key={"k": {"S": "a"}, "s": {"S": "1"}}, UpdateExpression="SET n = :n",
        ExpressionAttributeValues={":n": {"N": "4"}},
    )  # fmt: skip
    db.put_item(TableName=table, Item={"k": {"S": "b"}, "s": {"S": "2"}, "ss": {"SS": ["p", "q"]}})
    db.delete_item(TableName=table, Key={"k": {"S": "a"}, "s": {"S": "1"}})
    shard = streams.describe_stream(StreamArn=arn)["StreamDescription"]["Shards"][0]["ShardId"]
    iterator = streams.get_shard_iterator(StreamArn=arn, ShardId=shard, ShardIteratorType="TRIM_HORIZON")
    first = streams.get_records(ShardIterator=iterator["ShardIterator"], Limit=2)["Records"]
    shards: list[str] = []
    read_to: dict[str, str] = {}
    assert server.stream_records(arn, shards, read_to, 2) == first  # a first read in part
    assert shards == [shard] and read_to == {shard: first[-1]["dynamodb"]["SequenceNumber"]}
    api_read_to = dict(read_to)
    rest = read_after(streams, arn, [shard], api_read_to)
    got = server.stream_records(arn, shards, read_to, 1000)
    assert len(rest) == 2 and got == rest and read_to == api_read_to
    assert [lambda_record(r, arn, REGION) for r in got] == [lambda_record(r, arn, REGION) for r in rest]
    assert server.stream_records(arn, shards, read_to, 1000) == read_after(streams, arn, [shard], api_read_to) == []
    assert server.calls["GetRecords"] == 3  # the server's own reads are no API calls


def test_a_binary_attribute_is_left_to_the_api(server: MotoServer) -> None:
    db = _client("dynamodb", server)
    table, arn = _streamed_table(db)
    server.leave_streams_to_the_sandbox()
    db.put_item(TableName=table, Item={"k": {"S": "a"}, "s": {"S": "1"}, "b": {"B": b"\x00\x01"}})
    shards: list[str] = []
    read_to: dict[str, str] = {}
    assert server.stream_records(arn, shards, read_to, 1000) is None
    assert shards == [] and read_to == {}  # nothing read
    assert server.stream_records(arn.replace(table, "gone"), shards, read_to, 1000) is None


@pytest.mark.parametrize(
    ("image", "plain"),
    [
        ({"k": {"S": "a"}, "n": {"N": "1"}, "t": {"BOOL": False}, "z": {"NULL": True}, "s": {"SS": ["x"]}}, True),
        ({"m": {"M": {"l": {"L": [{"S": "x"}, {"M": {}}]}}}, "ns": {"NS": ["1", "2"]}}, True),
        ({"b": {"B": "AAE="}}, False),
        ({"b": {"BS": ["AAE="]}}, False),
        ({"m": {"M": {"inner": {"L": [{"B": "AAE="}]}}}}, False),
        ({"odd": {"S": "a", "N": "1"}}, False),
        ({"odd": "a"}, False),
    ],
)
def test_an_image_is_plain_without_binary_values(image: dict[str, Any], plain: bool) -> None:
    assert motofast.plain_image(image) is plain
