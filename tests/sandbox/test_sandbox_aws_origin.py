"""The sandbox's AWS port answers only clients that name it: a page reached by DNS rebinding (another
Host) or a page elsewhere (another Origin) can neither read nor write the table, as on the Lambda port."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from collections.abc import Iterator

import boto3
import pytest

from sandbox.aws_server import MotoServer

TABLE = "rooms"


@pytest.fixture(scope="module")
def moto() -> Iterator[MotoServer]:
    server = MotoServer().start()
    ddb = boto3.client(
        "dynamodb", endpoint_url=server.url, region_name="us-east-1", aws_access_key_id="t", aws_secret_access_key="t"
    )
    ddb.create_table(
        TableName=TABLE,
        AttributeDefinitions=[{"AttributeName": "room_id", "AttributeType": "S"}],
        KeySchema=[{"AttributeName": "room_id", "KeyType": "HASH"}],
        BillingMode="PAY_PER_REQUEST",
    )
    ddb.put_item(TableName=TABLE, Item={"room_id": {"S": "!secret:example.org"}})
    try:
        yield server
    finally:
        server.stop()


def _scan(server: MotoServer, headers: dict[str, str]) -> tuple[int, dict[str, object]]:
    """A Scan as a browser page would send it (no signature check in moto: the Host is what protects it)."""
    request = urllib.request.Request(
        f"{server.url}/",
        data=json.dumps({"TableName": TABLE}).encode(),
        method="POST",
        headers={
            "Content-Type": "application/x-amz-json-1.0",
            "X-Amz-Target": "DynamoDB_20120810.Scan",
            "Authorization": "AWS4-HMAC-SHA256 Credential=t/20270101/us-east-1/dynamodb/aws4_request, "
            "SignedHeaders=host, Signature=0",
            **headers,
        },
    )
    try:
        with urllib.request.urlopen(request, timeout=10) as answer:
            return answer.status, json.loads(answer.read())
    except urllib.error.HTTPError as err:
        return err.code, json.loads(err.read() or b"{}")


def test_its_own_clients_are_answered(moto: MotoServer) -> None:
    status, body = _scan(moto, {"Host": f"127.0.0.1:{moto.port}"})
    assert status == 200 and body["Count"] == 1


@pytest.mark.parametrize("host", ["attacker.example:{port}", "127.0.0.1.nip.io:{port}", "localhost:1", ""])
def test_a_foreign_host_reads_nothing(moto: MotoServer, host: str) -> None:
    status, body = _scan(moto, {"Host": host.format(port=moto.port)})
    assert status == 421 and body["__type"] == "InvalidHost"
    assert "secret" not in json.dumps(body)


def test_a_foreign_origin_writes_nothing(moto: MotoServer) -> None:
    request = urllib.request.Request(
        f"{moto.url}/",
        data=json.dumps({"TableName": TABLE, "Item": {"room_id": {"S": "!planted:evil"}}}).encode(),
        method="POST",
        headers={
            "Content-Type": "application/x-amz-json-1.0",
            "X-Amz-Target": "DynamoDB_20120810.PutItem",
            "Host": f"127.0.0.1:{moto.port}",
            "Origin": "http://attacker.example",
        },
    )
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(request, timeout=10)
    assert refused.value.code == 403
    status, body = _scan(moto, {"Host": f"localhost:{moto.port}", "Origin": f"http://localhost:{moto.port}"})
    assert status == 200 and body["Count"] == 1
