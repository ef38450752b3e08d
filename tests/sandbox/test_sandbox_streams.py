"""The sandbox's stream mapping reads the table's stream only when something was written since it last
read it to its end, and still hands over every record, the function's own writes included."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

import boto3
import pytest

from sandbox.aws_server import MotoServer
from sandbox.clock import VirtualClock
from sandbox.streams import Mapping, StreamPump

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
