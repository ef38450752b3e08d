"""The sandbox's stack is template.yaml as SAM transforms it and CloudFormation creates it: aws-sam-translator
makes the CloudFormation template, moto's CloudFormation resolves it and creates the resources, and the remainder
(sandbox/stack_remainder.py) creates what moto's CloudFormation does not: schedules, groups, alarms,
EventInvokeConfig and a table's TTL. Each test deploys in a Region of its own (moto keeps a state per Region)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import boto3
import pytest

from cronbell.settings import agent_map
from sandbox.aws_server import MotoServer
from sandbox.stack import TemplateError, deploy

ROOT = Path(__file__).resolve().parents[2]

FIXTURE = """
Transform: AWS::Serverless-2016-10-31
Parameters:
  Zone: {Type: String, Default: UTC}
  Limit: {Type: Number, Default: 50}
  Secret: {Type: String, Default: ""}
Conditions:
  HasSecret: !Not [!Equals [!Ref Secret, ""]]
  IsMadrid: !Equals [!Ref Zone, Europe/Madrid]
Globals:
  Function:
    Runtime: python3.12
    Timeout: 10
    Environment:
      Variables:
        SHARED: from-globals
        LEVEL: INFO
Resources:
  Table:
    Type: AWS::DynamoDB::Table
    Properties:
      KeySchema: [{AttributeName: pk, KeyType: HASH}]
      AttributeDefinitions: [{AttributeName: pk, AttributeType: S}]
      BillingMode: PAY_PER_REQUEST
  Queue:
    Type: AWS::SQS::Queue
  Group:
    Type: AWS::Scheduler::ScheduleGroup
    Properties:
      Name: !Sub ${AWS::StackName}-group
  Layer:
    Type: AWS::Serverless::LayerVersion
    Properties:
      ContentUri: layers/common/
  Worker:
    Type: AWS::Serverless::Function
    Properties:
      CodeUri: functions/worker/
      Handler: app.lambda_handler
      Layers: [!Ref Layer]
      Environment:
        Variables:
          LEVEL: DEBUG
          TABLE: !Ref Table
          TABLE_ARN: !GetAtt Table.Arn
          QUEUE_ARN: !GetAtt [Queue, Arn]
          QUEUE_URL: !Ref Queue
          GROUP: !Ref Group
          LIMIT: !Ref Limit
          QUEUE_NAME: !Sub "${Queue.QueueName}:live"
          ROLE: !GetAtt WorkerRole.Arn
          LITERAL: !Sub "${!NotAVariable}/${Zone}"
          MAPPED: !Sub ["${Name}-${AWS::Region}", {Name: !Ref Zone}]
          CHOSEN: !If [IsMadrid, madrid, elsewhere]
          JOINED: !Join [",", [a, !Ref Zone]]
          SECRET: !If [HasSecret, !Ref Secret, !Ref AWS::NoValue]
      EventInvokeConfig:
        MaximumRetryAttempts: 1
        DestinationConfig:
          OnFailure: {Type: SQS, Destination: !GetAtt Queue.Arn}
      Events:
        Nightly:
          Type: ScheduleV2
          Properties:
            ScheduleExpression: cron(0 3 * * ? *)
            GroupName: !Ref Group
            Input: '{"job": "nightly"}'
  OnlyWithSecret:
    Type: AWS::SQS::Queue
    Condition: HasSecret
"""


@pytest.fixture(scope="module")
def endpoint() -> Iterator[str]:
    server = MotoServer(in_process=True).start()
    yield server.url
    server.stop()


def _client(service: str, endpoint: str, region: str) -> Any:
    return boto3.client(
        service, endpoint_url=endpoint, region_name=region, aws_access_key_id="test", aws_secret_access_key="test"
    )


def _fixture(tmp_path: Path) -> Path:
    path = tmp_path / "template.yaml"
    path.write_text(FIXTURE, encoding="utf-8")
    for folder in ("functions/worker", "layers/common"):
        (tmp_path / folder).mkdir(parents=True)
    return path


def test_function_environment_resolves_like_cloudformation(tmp_path: Path, endpoint: str) -> None:
    stack = deploy(_fixture(tmp_path), {}, endpoint, stack_name="demo", region="eu-west-1")
    worker = stack.functions["Worker"]
    env = worker.environment
    table, queue = stack.physical_name("Table"), stack.physical_name("Queue")
    assert table.startswith("demo-Table-")  # CloudFormation's own name for an unnamed resource
    assert env["SHARED"] == "from-globals"
    assert env["LEVEL"] == "DEBUG"  # the function's own value wins over Globals
    assert env["TABLE"] == table
    assert env["TABLE_ARN"] == f"arn:aws:dynamodb:eu-west-1:123456789012:table/{table}"
    assert env["QUEUE_ARN"].startswith("arn:aws:sqs:eu-west-1:123456789012:demo-Queue-")
    assert env["QUEUE_URL"] == queue
    assert env["GROUP"] == "demo-group"
    assert env["LIMIT"] == "50"
    assert env["QUEUE_NAME"] == queue.rsplit("/", 1)[1] + ":live"
    assert env["ROLE"].startswith("arn:aws:iam::123456789012:role/demo-WorkerRole-")
    assert env["LITERAL"] == "${NotAVariable}/UTC"
    assert env["MAPPED"] == "UTC-eu-west-1"
    assert env["CHOSEN"] == "elsewhere"
    assert env["JOINED"] == "a,UTC"
    assert "SECRET" not in env  # AWS::NoValue removes the variable
    assert "OnlyWithSecret" not in stack.resources


def test_parameter_values_drive_conditions(tmp_path: Path, endpoint: str) -> None:
    parameters = {"Zone": "Europe/Madrid", "Secret": "arn:secret", "Limit": "3", "NotDeclared": "x"}
    stack = deploy(_fixture(tmp_path), parameters, endpoint, stack_name="demo", region="eu-west-2")
    env = stack.functions["Worker"].environment
    assert env["CHOSEN"] == "madrid"
    assert env["SECRET"] == "arn:secret"
    assert env["LIMIT"] == "3"
    assert "OnlyWithSecret" in stack.of_type("AWS::SQS::Queue")


def test_function_spec_carries_code_layers_timeout_and_async_config(tmp_path: Path, endpoint: str) -> None:
    region = "us-west-2"
    stack = deploy(_fixture(tmp_path), {}, endpoint, stack_name="demo", region=region)
    worker = stack.functions["Worker"]
    assert worker.name == "Worker"  # named after its logical id, as `sam local` names it
    assert worker.code_dir == tmp_path / "functions/worker/"
    assert worker.layer_dirs == [tmp_path / "layers/common/"]
    assert worker.timeout == 10
    assert worker.max_retry_attempts == 1
    assert worker.on_failure_arn.startswith(f"arn:aws:sqs:{region}:123456789012:demo-Queue-")
    [schedule] = _client("scheduler", endpoint, region).list_schedules(GroupName="demo-group")["Schedules"]
    got = _client("scheduler", endpoint, region).get_schedule(GroupName="demo-group", Name=schedule["Name"])
    assert got["ScheduleExpression"] == "cron(0 3 * * ? *)"
    assert got["Target"]["Arn"] == worker.arn
    assert json.loads(got["Target"]["Input"]) == {"job": "nightly"}


def test_a_template_sam_refuses_is_a_clear_error(tmp_path: Path, endpoint: str) -> None:
    path = tmp_path / "template.yaml"
    path.write_text(
        "Transform: AWS::Serverless-2016-10-31\nResources:\n  F:\n    Type: AWS::Serverless::Function\n"
        "    Properties: {Handler: app.h, Runtime: python3.12, Events: {E: {Type: NoSuchEvent}}}\n",
        encoding="utf-8",
    )
    with pytest.raises(TemplateError, match=r"SAM transform of template\.yaml"):
        deploy(path, {}, endpoint, region="ca-central-1")


def test_the_project_template_deploys_every_resource(endpoint: str) -> None:
    region = "ap-southeast-2"
    stack = deploy(ROOT / "template.yaml", {"DefaultTimezone": "Europe/Madrid"}, endpoint, region=region)
    functions = stack.functions
    assert {"ToolsFunction", "FireFunction", "ReconcileFunction", "EchoAgentFunction"} <= set(functions)
    for spec in functions.values():
        assert (spec.code_dir / "app.py").is_file()
        assert all(isinstance(value, str) for value in spec.environment.values())
    tools = functions["ToolsFunction"].environment
    assert tools["DEFAULT_TIMEZONE"] == "Europe/Madrid"
    # every caller invokes the alias `live` of the published version (AutoPublishAlias)
    assert all(spec.aliases == ("live",) for spec in functions.values())
    assert tools["FIRE_FUNCTION_ARN"] == f"{functions['FireFunction'].arn}:live"
    assert agent_map(tools["AGENTS"])["echo"].endswith(":function:EchoAgentFunction:live")
    assert functions["ProjectorFunction"].environment["FIRE_FUNCTION_ARN"] == f"{functions['FireFunction'].arn}:live"
    assert functions["ToolsFunction"].layer_dirs == [ROOT / "layers/common/", ROOT / "layers/calendars/"]
    table = stack.physical_name("ScheduleTable")
    # the table's stream feeds the projector (through its alias, which the sandbox resolves to the function)
    (mapping,) = stack.mappings
    assert (
        mapping.function == "ProjectorFunction"
        and mapping.partial
        and mapping.on_failure_arn.endswith(stack.physical_name("ProjectorFailureQueue").rsplit("/", 1)[-1])
    )
    assert tools["TABLE_NAME"] == table
    ttl = _client("dynamodb", endpoint, region).describe_time_to_live(TableName=table)["TimeToLiveDescription"]
    assert ttl == {"TimeToLiveStatus": "ENABLED", "AttributeName": "expires_at"}
    alarms = _client("cloudwatch", endpoint, region).describe_alarms()["MetricAlarms"]
    assert len(alarms) == len(stack.of_type("AWS::CloudWatch::Alarm")) >= 1
    group = stack.physical_name(stack.of_type("AWS::Scheduler::ScheduleGroup")[0])
    assert tools["SCHEDULE_GROUP"] == group
    fire = functions["FireFunction"]
    assert fire.on_failure_arn and fire.max_retry_attempts >= 0
