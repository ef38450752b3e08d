"""The sandbox's moto server: its own process's clients answered without HTTP, exactly as over HTTP."""

from __future__ import annotations

import http.client
import json
import threading
import time
import urllib.error
import urllib.request
import uuid
from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

import boto3
import pytest
import urllib3
from botocore.config import Config
from botocore.exceptions import ClientError, HTTPClientError

from sandbox.aws_server import MotoServer, _answer_in_process

REGION = "us-east-1"
TABLE = f"in-process-{uuid.uuid4().hex[:8]}"  # moto's state is the process's: names apart from other tests'


def _client(service: str, url: str) -> Any:
    return _client_in(service, url, REGION)


def _client_in(service: str, url: str, region: str) -> Any:
    return boto3.client(
        service, endpoint_url=url, region_name=region, aws_access_key_id="test", aws_secret_access_key="test"
    )


def _headers(action: str) -> dict[str, str]:
    return {
        "Content-Type": "application/x-amz-json-1.0",
        "X-Amz-Target": f"DynamoDB_20120810.{action}",
        "Authorization": "AWS4-HMAC-SHA256 Credential=test/20300101/us-east-1/dynamodb/aws4_request, "
        "SignedHeaders=host, Signature=0",
    }


def _over_http(url: str, action: str, body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
    """A DynamoDB request sent over HTTP by an outside caller (no botocore)."""
    request = urllib.request.Request(
        url,
        data=json.dumps(body).encode(),
        method="POST",
        headers=_headers(action),
    )
    try:
        with urllib.request.urlopen(request, timeout=10) as reply:
            return reply.status, json.loads(reply.read())
    except urllib.error.HTTPError as err:
        return err.code, json.loads(err.read())


@pytest.fixture
def server() -> Iterator[MotoServer]:
    server = MotoServer(in_process=True).start()
    yield server
    server.stop()


@pytest.fixture
def no_http(monkeypatch: pytest.MonkeyPatch) -> None:
    """botocore cannot open a connection: only a request answered in process succeeds."""

    def refuse(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("a request went over HTTP")

    monkeypatch.setattr(urllib3.connectionpool.HTTPConnectionPool, "urlopen", refuse)


def _make_table(dynamodb: Any) -> None:
    if TABLE in dynamodb.list_tables()["TableNames"]:
        dynamodb.delete_table(TableName=TABLE)
    dynamodb.create_table(
        TableName=TABLE,
        KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}],
        AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"}],
        BillingMode="PAY_PER_REQUEST",
    )


def test_a_client_of_this_process_is_answered_once_without_http_and_counted(no_http: None) -> None:
    boto3.setup_default_session()  # a default session made before the server starts, as in a test run
    server = MotoServer(in_process=True).start()
    try:
        name = f"s-{uuid.uuid4().hex[:8]}"
        dynamodb = _client("dynamodb", server.url)
        _make_table(dynamodb)
        dynamodb.put_item(TableName=TABLE, Item={"pk": {"S": "a"}, "n": {"N": "1"}})
        answer = dynamodb.get_item(TableName=TABLE, Key={"pk": {"S": "a"}})
        assert answer["Item"] == {"pk": {"S": "a"}, "n": {"N": "1"}}
        scheduler = _client("scheduler", server.url)
        scheduler.create_schedule(
            Name=name,
            ScheduleExpression="at(2030-01-01T00:00:00)",
            FlexibleTimeWindow={"Mode": "OFF"},
            Target={"Arn": "arn:aws:lambda:us-east-1:123456789012:function:f", "RoleArn": "arn:aws:iam::1:role/r"},
        )
        assert server.calls["PutItem"] == 1 and server.calls["GetItem"] == 1  # each request applied once
        assert server.scheduler_writes == 1
        assert name in [s["Name"] for s in server.schedules("123456789012", REGION)]
    finally:
        server.stop()


def test_outside_callers_over_http_share_the_same_state(server: MotoServer) -> None:
    dynamodb = _client("dynamodb", server.url)
    _make_table(dynamodb)
    dynamodb.put_item(TableName=TABLE, Item={"pk": {"S": "a"}, "v": {"S": "in process"}})
    status, answer = _over_http(server.url, "GetItem", {"TableName": TABLE, "Key": {"pk": {"S": "a"}}})
    assert status == 200 and answer["Item"]["v"] == {"S": "in process"}
    assert server.calls["GetItem"] == 1


def test_errors_are_the_same_as_over_http(server: MotoServer) -> None:
    dynamodb = _client("dynamodb", server.url)
    _make_table(dynamodb)
    dynamodb.put_item(TableName=TABLE, Item={"pk": {"S": "a"}, "v": {"N": "1"}})
    transaction = {
        "TransactItems": [
            {
                "Update": {
                    "TableName": TABLE,
                    "Key": {"pk": {"S": "a"}},
                    "UpdateExpression": "SET v = v + :one",
                    "ConditionExpression": "v = :two",
                    "ExpressionAttributeValues": {":one": {"N": "1"}, ":two": {"N": "2"}},
                }
            }
        ]
    }
    with pytest.raises(ClientError) as caught:
        dynamodb.transact_write_items(**transaction)
    status, answer = _over_http(server.url, "TransactWriteItems", transaction)
    error = caught.value.response
    assert error["Error"]["Code"] == "TransactionCanceledException" == answer["__type"].rsplit("#", 1)[-1]
    assert error["ResponseMetadata"]["HTTPStatusCode"] == status == 400
    assert error["CancellationReasons"] == answer["CancellationReasons"]
    assert error["Error"]["Message"] == answer.get("message", answer.get("Message"))
    with pytest.raises(dynamodb.exceptions.ResourceNotFoundException):
        dynamodb.get_item(TableName="missing", Key={"pk": {"S": "a"}})


def test_a_stopped_server_is_no_longer_answered_in_process(no_http: None) -> None:
    server = MotoServer(in_process=True).start()
    dynamodb = _client("dynamodb", server.url)
    dynamodb.list_tables()
    server.stop()
    with pytest.raises(HTTPClientError, match="over HTTP"):
        dynamodb.list_tables()


def test_a_schedule_removed_from_state_is_gone_without_an_api_write(server: MotoServer) -> None:
    scheduler = _client("scheduler", server.url)
    name = f"s-{uuid.uuid4().hex[:8]}"
    scheduler.create_schedule(
        Name=name,
        ScheduleExpression="at(2030-01-01T00:00:00)",
        FlexibleTimeWindow={"Mode": "OFF"},
        Target={"Arn": "arn:aws:lambda:us-east-1:123456789012:function:f", "RoleArn": "arn:aws:iam::1:role/r"},
    )
    writes = server.scheduler_writes
    assert server.remove_schedule("123456789012", REGION, "default", name) is True
    assert server.remove_schedule("123456789012", REGION, "default", name) is False
    assert server.remove_schedule("123456789012", REGION, "no-such-group", name) is False
    assert server.scheduler_writes == writes
    with pytest.raises(scheduler.exceptions.ResourceNotFoundException):
        scheduler.get_schedule(Name=name)


def _bus_to_queue(server: MotoServer, region: str) -> tuple[Any, Any, str, str, str]:
    """A bus, a queue and the sandbox's recorder rule (source cronbell) between them, in `region`."""
    from sandbox.stack import clients, events_recorder

    bus = f"bus-{uuid.uuid4().hex[:8]}"
    c = clients(server.url, region)
    arn = events_recorder(c, bus)
    url = c["sqs"].get_queue_url(QueueName=arn.rsplit(":", 1)[-1])["QueueUrl"]
    return c["events"], c["sqs"], bus, arn, url


def _drain(sqs: Any, url: str) -> list[str]:
    bodies = []
    while batch := sqs.receive_message(QueueUrl=url, MaxNumberOfMessages=10).get("Messages", []):
        for message in batch:
            bodies.append(message["Body"])
            sqs.delete_message(QueueUrl=url, ReceiptHandle=message["ReceiptHandle"])
    return bodies


def test_a_diverted_queue_hands_over_exactly_what_eventbridge_would_have_delivered(server: MotoServer) -> None:
    region = "eu-west-3"  # moto's state is the process's: a region of this test's own
    events, sqs, bus, arn, url = _bus_to_queue(server, region)

    def entries(n: int) -> list[dict[str, Any]]:
        detail = {"room_id": f"!r{n}:x", "outcome": "delivered", "thread_id": None, "tags": ["a", {"b": 1}]}
        return [
            {
                "EventBusName": bus,
                "Source": "cronbell",
                "DetailType": "Run Finished",
                "Detail": json.dumps(detail),
                "Time": datetime(2030, 1, 7, 18, 0, tzinfo=UTC),  # fixed: both puts must give the same events
            },
            {"EventBusName": bus, "Source": "someone-else", "DetailType": "x", "Detail": "{}"},  # not the rule's
            {"EventBusName": bus, "Source": "cronbell", "DetailType": "Run Finished", "Detail": "{not json"},
            {
                "EventBusName": bus,
                "Source": "cronbell",
                "DetailType": "Schedule Paused",
                "Detail": json.dumps({"room_id": "!p:x", "n": n}),
                "Time": datetime(2030, 1, 7, 18, 0, 5, tzinfo=UTC),
            },
        ]

    def put(n: int) -> list[str]:
        answer = events.put_events(Entries=entries(n))
        assert answer["FailedEntryCount"] == 1 and answer["Entries"][2]["ErrorCode"] == "MalformedDetail"
        return [e["EventId"] for e in answer["Entries"] if "EventId" in e]

    stored_ids = put(1)
    stored = [json.loads(body) for body in _drain(sqs, url)]  # moto's own delivery to the queue
    received: list[str] = []
    server.divert_queue(arn, received.append)
    diverted_ids = put(1)
    diverted = [json.loads(body) for body in received]
    assert _drain(sqs, url) == []  # nothing stored

    assert [e["id"] for e in stored] == stored_ids[:1] + stored_ids[2:]  # the rule's pattern left one out
    assert [e["id"] for e in diverted] == diverted_ids[:1] + diverted_ids[2:]
    assert [{**e, "id": ""} for e in diverted] == [{**e, "id": ""} for e in stored]
    assert diverted[1]["time"] == "2030-01-07T18:00:05Z"

    outside = _client_in("events", server.url, region)  # an outside caller (a function's own process), over HTTP
    outside.meta.events.unregister("before-send", _answer_in_process)
    outside.put_events(Entries=entries(2))
    assert [json.loads(body)["detail"].get("n") for body in received[2:]] == [None, 2]
    assert server.calls["PutEvents"] == 3

    server.stop()  # ends the diversion: the queue stores its messages again
    later = MotoServer(in_process=True).start()
    try:
        events, sqs = (_client_in(service, later.url, region) for service in ("events", "sqs"))
        put(3)
        assert len(received) == 4 and len(_drain(sqs, url)) == 2
    finally:
        later.stop()


def test_json_protocol_requests_answered_in_process_read_as_over_http(server: MotoServer) -> None:
    """DynamoDB's, EventBridge's and SQS's requests skip Flask in process: the answers botocore reads are the
    same as an outside caller's over HTTP, errors included."""
    inside = {name: _client(name, server.url) for name in ("dynamodb", "events", "sqs")}
    outside = {name: _client(name, server.url) for name in ("dynamodb", "events", "sqs")}
    for client in outside.values():
        client.meta.events.unregister("before-send", _answer_in_process)
    _make_table(inside["dynamodb"])
    inside["dynamodb"].put_item(TableName=TABLE, Item={"pk": {"S": "a"}, "n": {"N": "1"}, "l": {"L": [{"S": "x"}]}})
    calls: list[tuple[str, str, dict[str, Any]]] = [
        ("dynamodb", "get_item", {"TableName": TABLE, "Key": {"pk": {"S": "a"}}}),
        ("dynamodb", "get_item", {"TableName": TABLE, "Key": {"pk": {"S": "none"}}}),
        (
            "dynamodb",
            "query",
            {"TableName": TABLE, "KeyConditionExpression": "pk = :p", "ExpressionAttributeValues": {":p": {"S": "a"}}},
        ),
        (
            "dynamodb",
            "update_item",
            {
                "TableName": TABLE,
                "Key": {"pk": {"S": "a"}},
                "UpdateExpression": "SET n = :s",
                "ConditionExpression": "n = :two",
                "ReturnValuesOnConditionCheckFailure": "ALL_OLD",
                "ExpressionAttributeValues": {":s": {"S": "x"}, ":two": {"N": "2"}},
            },
        ),
        ("dynamodb", "get_item", {"TableName": "missing", "Key": {"pk": {"S": "a"}}}),
        ("dynamodb", "get_item", {"TableName": TABLE, "Key": {"other": {"S": "a"}}}),
        (
            "events",
            "put_events",
            {
                "Entries": [
                    {"Source": "s", "DetailType": "d", "Detail": "{}"},
                    {"Source": "s", "DetailType": "d", "Detail": "{bad"},
                ]
            },
        ),
        ("events", "describe_event_bus", {"Name": "no-such-bus"}),
        ("sqs", "get_queue_url", {"QueueName": "no-such-queue"}),
    ]

    def answer(clients: dict[str, Any], service: str, action: str, kwargs: dict[str, Any]) -> Any:
        try:
            out = getattr(clients[service], action)(**kwargs)
        except ClientError as err:
            out = {
                "error": err.response["Error"],
                "status": err.response["ResponseMetadata"]["HTTPStatusCode"],
                "item": err.response.get("Item"),
            }
        else:
            out.pop("ResponseMetadata")
        for entry in out.get("Entries", []):
            entry.pop("EventId", None)  # an id of each event's own
        return out

    for service, action, kwargs in calls:
        assert answer(inside, service, action, kwargs) == answer(outside, service, action, kwargs), action


def _counter_transaction(by: int, token: str) -> dict[str, Any]:
    return {
        "TransactItems": [
            {
                "Update": {
                    "TableName": TABLE,
                    "Key": {"pk": {"S": "c"}},
                    "UpdateExpression": "ADD n :by",
                    "ExpressionAttributeValues": {":by": {"N": str(by)}},
                }
            }
        ],
        "ClientRequestToken": token,
    }


def _count(dynamodb: Any) -> int:
    return int(dynamodb.get_item(TableName=TABLE, Key={"pk": {"S": "c"}})["Item"]["n"]["N"])


def test_a_transaction_sent_again_with_its_token_is_applied_once(server: MotoServer) -> None:
    """As DynamoDB: the same TransactWriteItems with the same client token answers ok and changes nothing;
    the token with other parameters is refused; another token is another transaction."""
    dynamodb = _client("dynamodb", server.url)
    _make_table(dynamodb)
    dynamodb.transact_write_items(**_counter_transaction(1, "t-1"))
    dynamodb.transact_write_items(**_counter_transaction(1, "t-1"))
    status, _ = _over_http(server.url, "TransactWriteItems", _counter_transaction(1, "t-1"))
    assert status == 200 and _count(dynamodb) == 1
    with pytest.raises(ClientError) as caught:
        dynamodb.transact_write_items(**_counter_transaction(5, "t-1"))
    assert caught.value.response["Error"]["Code"] == "IdempotentParameterMismatchException"
    assert _count(dynamodb) == 1
    dynamodb.transact_write_items(**_counter_transaction(1, "t-2"))
    assert _count(dynamodb) == 2
    assert server.calls["TransactWriteItems"] == 5  # every request arrived; two were applied


def test_a_chunked_transaction_sent_again_is_applied_once(server: MotoServer) -> None:
    """A request whose body comes in chunks (no Content-Length) is read whole too."""
    dynamodb = _client("dynamodb", server.url)
    _make_table(dynamodb)
    body = json.dumps(_counter_transaction(1, "t-chunked")).encode()
    for _ in range(2):
        connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
        connection.request("POST", "/", body=iter([body[:40], body[40:]]), headers=_headers("TransactWriteItems"))
        reply = connection.getresponse()
        assert reply.status == 200, reply.read()
        connection.close()
    assert _count(dynamodb) == 1


def test_a_cancelled_transaction_sent_again_is_run_again(server: MotoServer) -> None:
    """Only an applied transaction is remembered: a cancelled one changed nothing, and the same request
    later reads the table as it is then."""
    dynamodb = _client("dynamodb", server.url)
    _make_table(dynamodb)
    first_only = _counter_transaction(1, "t-3")
    first_only["TransactItems"][0]["Update"]["ConditionExpression"] = "attribute_exists(pk)"
    with pytest.raises(ClientError) as caught:
        dynamodb.transact_write_items(**first_only)
    assert caught.value.response["Error"]["Code"] == "TransactionCanceledException"
    dynamodb.put_item(TableName=TABLE, Item={"pk": {"S": "c"}, "n": {"N": "10"}})
    dynamodb.transact_write_items(**first_only)
    assert _count(dynamodb) == 11


def test_a_transaction_botocore_retries_after_its_answer_was_lost_succeeds_once() -> None:
    """The client gives up on a transaction the server has not answered yet (its read timeout) and sends
    it again, with the token botocore gave it: the server applies the first and answers the second as
    it, rather than refusing the second because the first's item now exists."""
    server = MotoServer().start()  # over HTTP: the read timeout is a socket's
    try:
        dynamodb = boto3.client(
            "dynamodb",
            endpoint_url=server.url,
            region_name=REGION,
            aws_access_key_id="test",
            aws_secret_access_key="test",
            config=Config(read_timeout=1, retries={"max_attempts": 3, "mode": "standard"}),
        )
        _make_table(dynamodb)
        busy = threading.Thread(target=_hold, args=(server, 1.6))
        busy.start()
        time.sleep(0.1)  # the server is busy: the first attempt waits past the client's timeout
        put = {"TableName": TABLE, "Item": {"pk": {"S": "once"}}, "ConditionExpression": "attribute_not_exists(pk)"}
        dynamodb.transact_write_items(TransactItems=[{"Put": put}])
        busy.join()
        assert server.calls["TransactWriteItems"] == 2  # sent twice: the first answer was lost
        assert dynamodb.get_item(TableName=TABLE, Key={"pk": {"S": "once"}})["Item"] == {"pk": {"S": "once"}}
    finally:
        server.stop()


def _hold(server: MotoServer, seconds: float) -> None:
    with server._app.lock:
        time.sleep(seconds)
