"""sandbox/motofast.py changes what moto's DynamoDB and EventBridge cost, never what they answer: the same
requests give the same answers, errors, final items and delivered events with the patches as without them."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]

SCENARIO = textwrap.dedent(
    """
    import json, sys
    import boto3
    from botocore.exceptions import ClientError
    from moto import mock_aws

    if sys.argv[1] == "fast":
        from sandbox import motofast
        motofast.install()

    out = []
    def call(name, **kwargs):
        try:
            answer = getattr(db, name)(**kwargs)
            answer.pop("ResponseMetadata", None)
            out.append([name, answer])
        except ClientError as err:
            out.append([name, err.response["Error"], err.response.get("CancellationReasons")])
        except Exception as err:  # moto's own failure on a text it cannot parse: the same either way
            out.append([name, type(err).__name__, str(err)])

    with mock_aws():
        db = boto3.client("dynamodb", region_name="us-east-1")
        db.create_table(
            TableName="t", BillingMode="PAY_PER_REQUEST",
            KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}, {"AttributeName": "sk", "KeyType": "RANGE"}],
            AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"},
                                  {"AttributeName": "sk", "AttributeType": "S"}],
        )
        key = {"pk": {"S": "room"}, "sk": {"S": "s#1"}}
        update = ("SET live = if_not_exists(live, :zero) + :one, #st = :s, "
                  "tags = list_append(if_not_exists(tags, :e), :t)")
        for n in range(4):  # the same expression text each time, different values
            call("update_item", TableName="t", Key=key, UpdateExpression=update,
                 ConditionExpression="attribute_not_exists(live) OR live < :max",
                 ExpressionAttributeNames={"#st": "status"},
                 ExpressionAttributeValues={":zero": {"N": "0"}, ":one": {"N": "1"}, ":s": {"S": f"v{n}"},
                                            ":e": {"L": []}, ":t": {"L": [{"S": f"t{n}"}]}, ":max": {"N": "3"}},
                 ReturnValues="ALL_NEW")
        for limit in ("9", "0", "9", "1"):  # the same condition and other values: its own value decides
            call("update_item", TableName="t", Key=key, UpdateExpression="SET #st = :s",
                 ConditionExpression="attribute_not_exists(live) OR live < :max",
                 ExpressionAttributeNames={"#st": "status"},
                 ExpressionAttributeValues={":s": {"S": "same"}, ":max": {"N": limit}}, ReturnValues="ALL_NEW")
        for n in range(2):  # a malformed condition is refused every time, not only the first
            call("update_item", TableName="t", Key=key, UpdateExpression="SET a = :v", ConditionExpression="live <",
                 ExpressionAttributeValues={":v": {"N": "1"}})
            call("update_item", TableName="t", Key=key, UpdateExpression="SET a = :v",
                 ConditionExpression="#missing = :v", ExpressionAttributeValues={":v": {"N": "1"}})
        call("update_item", TableName="t", Key=key, UpdateExpression="SET nested.x = :v",
             ExpressionAttributeValues={":v": {"N": "1"}})
        call("update_item", TableName="t", Key=key, UpdateExpression="SET a = :v SET b = :v",
             ExpressionAttributeValues={":v": {"N": "1"}})
        call("update_item", TableName="t", Key=key, UpdateExpression="SET pk = :v",
             ExpressionAttributeValues={":v": {"S": "x"}})
        other = {"pk": {"S": "room"}, "sk": {"S": "s#2"}}
        for update in ("SET live = :one", "SET live = live + :s", "SET a = list_append(missing, :t)",
                       "SET a = list_append(absent, :t)", "ADD live :one, nums :ns", "DELETE nums :ns",
                       "SET #st = :s, #st = :s", "SET m = :m, m.x = :one"):
            values = {":s": {"S": "x"}, ":t": {"L": [{"S": "t"}]}, ":one": {"N": "1"}, ":ns": {"NS": ["1", "2"]},
                      ":m": {"M": {"x": {"N": "0"}}}}
            names = {"#st": "status"} if "#st" in update else {}
            call("update_item", TableName="t", Key=other, UpdateExpression=update, ReturnValues="ALL_NEW",
                 ExpressionAttributeValues={k: v for k, v in values.items() if k in update}, **(
                     {"ExpressionAttributeNames": names} if names else {}))
        for n in range(2):  # the checks of an expression's shape refuse it every time, not only the first
            for update in ("SET a = :v SET b = :v", "SET pk = :v", "SET #st = :v, #st = :v", "SET m = :v, m.x = :v"):
                call("update_item", TableName="t", Key=other, UpdateExpression=update,
                     ExpressionAttributeValues={":v": {"S": "x"}},
                     **({"ExpressionAttributeNames": {"#st": "status"}} if "#st" in update else {}))
        for name in ("a", "sk", "a", "pk", "b"):  # one text whose names decide whether it updates a key
            call("update_item", TableName="t", Key=other, UpdateExpression="SET #k = :v, c = :v",
                 ExpressionAttributeNames={"#k": name}, ExpressionAttributeValues={":v": {"S": name}},
                 ReturnValues="ALL_NEW")
        big = {"pk": {"S": "room"}, "sk": {"S": "big"}}
        for n in range(5):  # an item grown by updates up to DynamoDB's size limit, and refused past it
            call("update_item", TableName="t", Key=big, UpdateExpression=f"SET a{n} = :v, m{n} = :m",
                 ExpressionAttributeValues={":v": {"S": "é" * 45000}, ":m": {"M": {"l": {"L": [
                     {"S": "x" * 1000}, {"NS": ["1", "2.5"]}, {"M": {"b": {"BOOL": True}, "n": {"NULL": True}}}]}}}})
        call("update_item", TableName="t", Key=big, UpdateExpression="SET c = :v",
             ExpressionAttributeValues={":v": {"S": "x" * 500}}, ReturnValues="UPDATED_NEW")
        call("update_item", TableName="t", Key=key, UpdateExpression="REMOVE tags, #st",
             ExpressionAttributeNames={"#st": "status"}, ReturnValues="UPDATED_OLD")
        for n in range(2):
            call("transact_write_items", TransactItems=[
                {"Update": {"TableName": "t", "Key": key, "UpdateExpression": "SET live = live - :one",
                            "ConditionExpression": "live > :zero",
                            "ExpressionAttributeValues": {":one": {"N": "1"}, ":zero": {"N": "2"}}}},
                {"Put": {"TableName": "t", "Item": {"pk": {"S": "room"}, "sk": {"S": f"fire#{n}"}},
                         "ConditionExpression": "attribute_not_exists(sk)"}},
            ])
        call("query", TableName="t", KeyConditionExpression="pk = :p",
             ExpressionAttributeValues={":p": {"S": "room"}})
        call("query", TableName="t", KeyConditionExpression="pk = :p",
             ExpressionAttributeValues={":p": {"S": "nobody"}})
        typed = {"pk": {"S": "room"}, "sk": {"S": "typed"}, "n": {"N": "1.50"}, "b": {"B": b"\\x00\\x01"},
                 "m": {"M": {"x": {"NULL": True}, "l": {"L": [{"BOOL": False}, {"SS": ["a", "b"]},
                                                             {"NS": ["1", "2.5"]}]}}}, "e": {"S": ""}}
        call("put_item", TableName="t", Item=typed)
        for sk in ("typed", "s#1", "missing"):
            call("get_item", TableName="t", Key={"pk": {"S": "room"}, "sk": {"S": sk}})
        call("get_item", TableName="t", Key={"pk": {"S": "room"}, "sk": {"S": "typed"}},
             ProjectionExpression="m.l[1], n", ReturnConsumedCapacity="TOTAL")
        call("delete_item", TableName="t", Key={"pk": {"S": "room"}, "sk": {"S": "typed"}}, ReturnValues="ALL_OLD")
        for table, kind in (("sc", "S"), ("num", "N")):  # scans: the same pages, counts and items
            db.create_table(
                TableName=table, BillingMode="PAY_PER_REQUEST",
                KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}, {"AttributeName": "sk", "KeyType": "RANGE"}],
                AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"},
                                      {"AttributeName": "sk", "AttributeType": kind}],
            )
            for n in range(240):
                sk = f"{'fsx'[n % 3]}#{n:03d}" if kind == "S" else str([n, -n, n / 4][n % 3])
                item = {"pk": {"S": f"p{n % 7}"}, "sk": {kind: sk}, "n": {"N": str(n)},
                        "m": {"M": {"l": {"L": [{"S": "x" * (n % 5)}, {"NS": ["1", "2.5"]}]}}}}
                if n % 40 == 0:
                    item["big"] = {"S": "y" * 300000}  # pages end at moto's 1 MB
                db.put_item(TableName=table, Item=item)
            for kwargs in ({}, {"Limit": 7}, {"FilterExpression": "NOT begins_with(sk, :f)"},
                           {"FilterExpression": "n > :ten", "Limit": 11},
                           {"FilterExpression": "n > :ten", "ProjectionExpression": "sk, m.l[0]"},
                           {"Segment": 1, "TotalSegments": 3},
                           {"ScanFilter": {"n": {"AttributeValueList": [{"N": "100"}], "ComparisonOperator": "GT"}}}):
                if kind == "N" and "begins_with" in kwargs.get("FilterExpression", ""):
                    continue
                values = {k: v for k, v in {":f": {"S": "f#"}, ":ten": {"N": "10"}}.items()
                          if k in kwargs.get("FilterExpression", "")}
                start = None
                for page in range(200):
                    extra = {"ExclusiveStartKey": start} if start else {}
                    if values:
                        extra["ExpressionAttributeValues"] = values
                    call("scan", TableName=table, **kwargs, **extra)
                    start = out[-1][1].get("LastEvaluatedKey") if len(out[-1]) == 2 else None
                    if not start:
                        break
        call("scan", TableName="sc", FilterExpression="n > :v")
        db.create_table(  # a table with a stream: its records carry each update's old and new item
            TableName="st", BillingMode="PAY_PER_REQUEST", KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}],
            AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"}],
            StreamSpecification={"StreamEnabled": True, "StreamViewType": "NEW_AND_OLD_IMAGES"},
        )
        for n in range(3):
            first = n == 0
            call("update_item", TableName="st", Key={"pk": {"S": "a"}}, ReturnValues="ALL_OLD",
                 UpdateExpression="SET n = :z, m = :m" if first else "SET n = n + :one, m.x = :one",
                 ExpressionAttributeValues={":z": {"N": "0"}, ":m": {"M": {}}} if first else {":one": {"N": "1"}})
        call("transact_write_items", TransactItems=[  # cancelled: it leaves no stream record
            {"Put": {"TableName": "st", "Item": {"pk": {"S": "new"}}}},
            {"Update": {"TableName": "st", "Key": {"pk": {"S": "a"}}, "UpdateExpression": "SET n = :z",
                        "ConditionExpression": "attribute_not_exists(pk)",
                        "ExpressionAttributeValues": {":z": {"N": "9"}}}},
        ])
        from moto.dynamodb.models import dynamodb_backends  # this moto's stream API is not implemented

        records = [r.record for r in dynamodb_backends["123456789012"]["us-east-1"].tables["st"].stream_shard.items]
        out.append(["stream", [[r["eventName"], r["dynamodb"].get("OldImage"), r["dynamodb"].get("NewImage")]
                               for r in records]])
        events, sqs = boto3.client("events", region_name="us-east-1"), boto3.client("sqs", region_name="us-east-1")
        queue = sqs.create_queue(QueueName="q")["QueueUrl"]
        arn = sqs.get_queue_attributes(QueueUrl=queue, AttributeNames=["QueueArn"])["Attributes"]["QueueArn"]
        events.put_rule(Name="r", EventPattern=json.dumps({"source": ["cronbell"]}))
        events.put_targets(Rule="r", Targets=[
            {"Id": "plain", "Arn": arn},
            {"Id": "shaped", "Arn": arn, "InputTransformer": {
                "InputPathsMap": {"room": "$.detail.room_id", "kind": "$.detail-type"},
                "InputTemplate": '{"room": "<room>", "kind": "<kind>"}'}},
        ])
        for n in range(3):
            entries = [{"Source": "cronbell", "DetailType": "Run Finished", "Time": 1796000000 + n,
                        "Detail": json.dumps({"room_id": f"!r{n}", "n": n, "tags": ["a", {"b": None}]})},
                       {"Source": "other", "DetailType": "x", "Detail": "{}"}]
            out.append(["put_events", events.put_events(Entries=entries)["FailedEntryCount"]])
        bodies = []
        while batch := sqs.receive_message(QueueUrl=queue, MaxNumberOfMessages=10).get("Messages", []):
            for message in batch:
                body = json.loads(message["Body"])
                body.pop("id", None)
                bodies.append(body)
                sqs.delete_message(QueueUrl=queue, ReceiptHandle=message["ReceiptHandle"])
        out.append(["delivered", sorted(bodies, key=lambda b: json.dumps(b, sort_keys=True))])
    if sys.argv[1] == "fast":
        from moto.dynamodb.parsing.expressions import UpdateExpressionParser
        import jsonpath_ng.ext
        out.append(["cache hits", UpdateExpressionParser.make.cache_info().hits > 0,
                    jsonpath_ng.ext.parse.cache_info().hits > 0])
    print(json.dumps(out, default=repr))
    """
)


SIZES = textwrap.dedent(
    """
    import json, random
    from moto.dynamodb.models.dynamo_type import DynamoType
    from sandbox import motofast

    plain = DynamoType.size
    motofast.install()
    fast = DynamoType.size
    assert fast is not plain
    rnd = random.Random(7)

    def value(depth=0):
        kind = rnd.choice(["S", "N", "B", "BOOL", "NULL", "SS", "NS", "BS", "L", "M"][: 10 if depth < 4 else 3])
        return {
            "S": lambda: {"S": rnd.choice(["", "a", "héllo", "x" * rnd.randint(0, 50)])},
            "N": lambda: {"N": rnd.choice(["1", "1.50", "-3e10", "12345678901234567890"])},
            "B": lambda: {"B": rnd.choice([b"", b"\\x00\\x01", "AAE="])},
            "BOOL": lambda: {"BOOL": rnd.choice([True, False])},
            "NULL": lambda: {"NULL": True},
            "SS": lambda: {"SS": ["a", "bé", "ccc"][: rnd.randint(1, 3)]},
            "NS": lambda: {"NS": ["1", "2.5", "-7"][: rnd.randint(1, 3)]},
            "BS": lambda: {"BS": [b"a", b"\\x00"][: rnd.randint(1, 2)]},
            "L": lambda: {"L": [value(depth + 1) for _ in range(rnd.randint(0, 4))]},
            "M": lambda: {"M": {f"k{i}é": value(depth + 1) for i in range(rnd.randint(0, 4))}},
        }[kind]()

    def both(v):
        out = []
        for size in (plain, fast):
            try:
                out.append(size(v))
            except Exception as err:
                out.append(type(err).__name__)
        return out

    cases = [DynamoType(value()) for _ in range(2000)]
    loose = DynamoType({"M": {}})  # dict forms left inside a value, as an update can leave them
    loose.value["x"] = {"L": [{"S": "ab"}, {"M": {"y": {"N": "12"}}}]}
    broken = DynamoType({"L": []})
    broken.value.append({"S": "ab"})
    print(json.dumps([both(v) for v in [*cases, loose, broken]]))
    """
)


def test_item_sizes_are_the_same_with_the_patches() -> None:
    """moto's item size (its 400 KB check, and what it reports as consumed) is computed without building a
    new value for every nested one; the same size, or the same error, for every kind of value."""
    done = subprocess.run([sys.executable, "-c", SIZES], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    pairs = json.loads(done.stdout)
    assert all(plain == fast for plain, fast in pairs), [p for p in pairs if p[0] != p[1]][:5]
    assert len({plain for plain, _ in pairs}) > 50  # sizes of many kinds, not one
    assert pairs[-1] == ["AttributeError", "AttributeError"]


def _run(mode: str) -> list[Any]:
    done = subprocess.run(
        [sys.executable, "-c", SCENARIO, mode],
        cwd=ROOT,
        env={
            **{k: v for k, v in os.environ.items() if not k.startswith("AWS_ENDPOINT_URL")},  # moto in process
            "AWS_ACCESS_KEY_ID": "test",
            "AWS_SECRET_ACCESS_KEY": "test",
            "PYTHONHASHSEED": "0",  # moto keeps string sets as Python sets
        },
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    answers: list[Any] = json.loads(done.stdout)
    return answers


def test_moto_answers_the_same_with_the_patches() -> None:
    plain, fast = _run("plain"), _run("fast")
    assert fast.pop() == ["cache hits", True, True]  # the patched parsers did serve repeats from their caches
    assert fast == plain
    assert len(plain[-1][1]) == 6  # each matching event reached both targets
    stream = next(entry[1] for entry in plain if entry[0] == "stream")
    assert [name for name, _, _ in stream] == ["INSERT", "INSERT", "MODIFY", "MODIFY"]  # moto's: a new item twice
    assert stream[2][1]["n"] == {"N": "0"} and stream[2][2]["n"] == {"N": "1"}  # the old item is the old one
    errors = [entry[1]["Code"] if isinstance(entry[1], dict) else entry[1] for entry in plain if len(entry) == 3]
    assert "ValidationException" in errors and "TransactionCanceledException" in errors
    assert "ConditionalCheckFailedException" in errors and errors.count("ValueError") == 2
    scans = [entry[1] for entry in plain if entry[0] == "scan" and len(entry) == 2]
    assert any(s["Count"] < s["ScannedCount"] for s in scans)  # filters kept some items and left others
    assert sum(1 for s in scans if "LastEvaluatedKey" in s) > 20  # pages ended by Limit and by size


REQUESTS = textwrap.dedent(
    """
    import json, random
    from botocore.session import get_session
    from moto.core.parse import JSONParser, default_blob_parser, default_timestamp_parser
    from sandbox import motofast

    rnd = random.Random(11)

    def value(shape, depth=0):
        if rnd.random() < 0.04:  # a value of the wrong kind, or a null
            return rnd.choice([None, [], {}, "x", 3, True, 2.5, {"S": "a"}])
        kind = shape.type_name
        if kind == "structure":
            names = list(shape.members)
            chosen = rnd.sample(names, min(len(names), rnd.randint(0, 3 if depth > 2 else 6)))
            out = {shape.members[n].serialization.get("name", n): value(shape.members[n], depth + 1) for n in chosen}
            if rnd.random() < 0.1:
                out["NotAMember"] = "ignored"
            if rnd.random() < 0.1 and names:
                out[names[0]] = None
            return dict(rnd.sample(list(out.items()), len(out)))  # keys in any order
        if kind == "list":
            return [value(shape.member, depth + 1) for _ in range(rnd.randint(0, 3 if depth < 5 else 0))]
        if kind == "map":
            return {f"k{i}": value(shape.value, depth + 1) for i in range(rnd.randint(0, 3 if depth < 5 else 0))}
        if kind == "blob":
            return rnd.choice(["AAE=", "", "aGVsbG8=", "not base64!"])
        if kind == "timestamp":
            return rnd.choice([1796155479, 1796155479.25, "2026-12-01T09:00:00Z", "yesterday"])
        if kind in ("integer", "long"):
            return rnd.choice([0, 7, -3, "12", "x"])
        if kind in ("float", "double"):
            return rnd.choice([1.5, 2, "3.25", "NaN"])
        if kind == "boolean":
            return rnd.choice([True, False])
        return rnd.choice(["", "a", "héllo"])

    def read(parser, body, shape):
        try:
            return repr(parser._parse_json_body(body, shape))  # repr keeps key order, types and values
        except Exception as err:
            return type(err).__name__

    session = get_session()
    bodies = []
    for service in ("dynamodb", "events", "sqs", "secretsmanager"):
        model = session.get_service_model(service)
        for name in model.operation_names:
            shape = model.operation_model(name).input_shape
            if shape is not None:
                bodies += [(shape, json.dumps(value(shape)).encode()) for _ in range(25)]
                bodies.append((shape, b"not json"))
    parser = JSONParser(model.operation_model(name), default_timestamp_parser, default_blob_parser)
    plain = [read(parser, body, shape) for shape, body in bodies]
    motofast.install()
    fast = [read(parser, body, shape) for shape, body in bodies]
    print(json.dumps([plain, fast]))
    """
)


def test_json_requests_are_read_the_same_with_the_patches() -> None:
    """moto's reading of a JSON request body against its operation's shape (DynamoDB's every request) gives
    the same parameters, in the same order and types, or the same error, for random bodies of every operation
    of four services: members in any order, unknown keys, nulls, values of the wrong kind, blobs, timestamps."""
    done = subprocess.run([sys.executable, "-c", REQUESTS], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    plain, fast = json.loads(done.stdout)
    assert len(plain) > 2000
    different = [(p, f) for p, f in zip(plain, fast, strict=True) if p != f]
    assert not different, different[:3]
    assert sum(1 for p in plain if p.startswith("{")) > 1500  # most bodies were read, not refused
    assert len({p for p in plain if not p.startswith("{")}) >= 2  # and several kinds of error were seen


LIMITS = textwrap.dedent(
    """
    import json, random, sys
    from moto.dynamodb.models.dynamo_type import DynamoType, Item, LimitedSizeDict
    if sys.argv[1] == "fast":
        from sandbox import motofast
        motofast.install()

    rnd = random.Random(5)

    def attrs(target):
        out, size = {}, 0
        while size < target:  # about `target` bytes, in attributes of every kind
            key = rnd.choice(["a", "bé", "k" * rnd.randint(1, 40), "l" * rnd.randint(1, 20000)]) + str(len(out))
            n = rnd.randint(0, 30000)
            value = rnd.choice([{"S": "x" * n}, {"N": "12345"}, {"BOOL": True}, {"L": [{"S": "y" * n}]},
                                {"M": {"z": {"S": "w" * n}}}])
            out[key] = value
            size += len(key) + n
        return out

    outcomes = []
    for target in [1000, 100000, 380000, 400000, 404000, 406000, 420000, 800000] * 6:
        data = attrs(target)
        try:
            item = Item(DynamoType({"S": "h"}), DynamoType({"S": "r"}), data)
            outcomes.append(["item", sorted(item.attrs), item.size()])
        except Exception as err:
            outcomes.append(["item", type(err).__name__])
        limited = LimitedSizeDict()
        steps = []
        for key, value in list(data.items()) + list(data.items())[:3]:  # then the first keys again
            try:
                limited[key] = DynamoType(value) if rnd.random() < 0.9 else str(value)
                steps.append(len(limited))
            except Exception as err:
                steps.append(type(err).__name__)
        outcomes.append(["dict", steps])
    print(json.dumps(outcomes))
    """
)


def test_item_limits_are_the_same_with_the_patches() -> None:
    """moto's 400 KB check when an item is built or an attribute set is made without summing every attribute
    again: the same items are refused at the same attribute, including keys set twice and plain values."""
    runs = [
        subprocess.run([sys.executable, "-c", LIMITS, mode], cwd=ROOT, capture_output=True, text=True, timeout=120)
        for mode in ("plain", "fast")
    ]
    assert all(run.returncode == 0 for run in runs), [run.stderr for run in runs]
    plain, fast = (json.loads(run.stdout) for run in runs)
    assert fast == plain
    assert any(len(o) == 2 and o[0] == "item" for o in plain) and any(len(o) == 3 for o in plain)  # both kinds
    assert any("ItemSizeTooLarge" in o[1] for o in plain if o[0] == "dict")


def test_motofast_refuses_a_moto_release_it_was_not_written_for() -> None:
    from sandbox import motofast

    motofast.check_moto_version(motofast.WRITTEN_FOR)  # the release it was written for passes
    for other in ("5.2.6", "5.3.0", "6.0.0"):
        try:
            motofast.check_moto_version(other)
        except motofast.MotoVersionError as err:
            assert other in str(err) and motofast.WRITTEN_FOR in str(err)
        else:
            raise AssertionError(f"moto {other} was accepted")


def test_installing_motofast_on_another_moto_release_fails_before_it_changes_anything() -> None:
    script = textwrap.dedent(
        """
        import moto
        from moto.dynamodb import models
        before = models.DynamoDBBackend.transact_write_items
        moto.__version__ = "9.9.9"
        from sandbox import motofast
        try:
            motofast.install()
        except motofast.MotoVersionError as err:
            assert models.DynamoDBBackend.transact_write_items is before
            print("refused:", err)
        """
    )
    done = subprocess.run(
        [sys.executable, "-c", script],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": f"{ROOT / 'layers/common'}:{ROOT}"},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("refused: sandbox/motofast.py was written for moto 5.2.5 and moto 9.9.9")


def test_a_part_left_out_by_name_is_not_installed() -> None:
    """`MOTOFAST_SKIP` leaves the parts it names out (bench/motofast_parts.py measures each so) and refuses
    a name that is no part."""
    code = (
        "from moto.dynamodb.models import table\n"
        "plain = table.Table.scan\n"
        "from sandbox import motofast\n"
        "motofast.install()\n"
        "print(table.Table.scan is plain)\n"
    )
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT / "layers" / "common"), str(ROOT)])}
    runs = {
        skip: subprocess.run(
            [sys.executable, "-c", code], env={**env, "MOTOFAST_SKIP": skip}, capture_output=True, text=True
        )
        for skip in ("", "scan", "sizes,scan", "no_such_part")
    }
    assert [runs[s].stdout.strip() for s in ("", "scan", "sizes,scan")] == ["False", "True", "True"]
    assert runs["no_such_part"].returncode != 0 and "no_such_part" in runs["no_such_part"].stderr


STREAM_SCENARIO = textwrap.dedent(
    """
    import sys
    import boto3
    from moto.server import ThreadedMotoServer

    if sys.argv[1] == "fast":
        from sandbox import motofast
        motofast.install()

    server = ThreadedMotoServer(port=0)
    server.start()
    host, port = server.get_host_and_port()
    def client(name):
        return boto3.client(name, region_name="us-east-1", endpoint_url=f"http://{host}:{port}",
                            aws_access_key_id="x", aws_secret_access_key="x")
    db, streams = client("dynamodb"), client("dynamodbstreams")
    arn = db.create_table(
        TableName="st", BillingMode="PAY_PER_REQUEST",
        KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}],
        AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"}],
        StreamSpecification={"StreamEnabled": True, "StreamViewType": "NEW_AND_OLD_IMAGES"},
    )["TableDescription"]["LatestStreamArn"]
    item = {"pk": {"S": "a"}, "n": {"N": "1.5"}, "b": {"B": b"\\x00\\xff"}, "ss": {"SS": ["x", "y"]},
            "ns": {"NS": ["1", "2"]}, "l": {"L": [{"S": "é"}, {"NULL": True}, {"BOOL": False}]},
            "m": {"M": {"deep": {"M": {"x": {"N": "0"}}}}}}
    db.put_item(TableName="st", Item=item)
    db.update_item(TableName="st", Key={"pk": {"S": "a"}}, UpdateExpression="SET n = n + :one REMOVE b",
                   ExpressionAttributeValues={":one": {"N": "1"}})
    db.delete_item(TableName="st", Key={"pk": {"S": "a"}})
    shard = streams.describe_stream(StreamArn=arn)["StreamDescription"]["Shards"][0]["ShardId"]
    iterator = streams.get_shard_iterator(StreamArn=arn, ShardId=shard, ShardIteratorType="TRIM_HORIZON")
    answer = streams.get_records(ShardIterator=iterator["ShardIterator"])
    empty = streams.get_records(ShardIterator=answer["NextShardIterator"])
    for record in answer["Records"]:
        record.pop("eventID")
        created = record["dynamodb"].pop("ApproximateCreationDateTime")
        record["dynamodb"]["created"] = type(created).__name__ + str(created.tzinfo)
        record["dynamodb"]["SizeBytes"] = type(record["dynamodb"]["SizeBytes"]).__name__  # counts the time's digits
    print(repr([answer["Records"], empty["Records"], sorted(empty)]))
    from moto.dynamodbstreams.responses import DynamoDBStreamsHandler
    print("patched:", DynamoDBStreamsHandler.serialized.__name__ == "plain_records")
    server.stop()
    """
)


def test_stream_records_are_read_the_same_with_the_patches_as_without() -> None:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT / "layers" / "common"), str(ROOT)])}
    runs = [
        subprocess.run([sys.executable, "-c", STREAM_SCENARIO, mode], env=env, capture_output=True, text=True)
        for mode in ("plain", "fast")
    ]
    assert all(run.returncode == 0 for run in runs), [run.stderr[-2000:] for run in runs]
    (plain, plain_patched), (fast, fast_patched) = (run.stdout.rsplit("patched:", 1) for run in runs)
    assert (plain_patched.strip(), fast_patched.strip()) == ("False", "True")
    assert fast == plain
    assert all(name in plain for name in ("'INSERT'", "'MODIFY'", "'REMOVE'", "'created': 'datetime"))
