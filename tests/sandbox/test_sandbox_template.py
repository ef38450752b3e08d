"""The sandbox reads template.yaml itself: CloudFormation tags, parameters, conditions and intrinsics."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from sandbox.template import NO_VALUE, Stack, TemplateError, load_template

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
          SELF: !Sub "${Worker.Arn}:live"
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


@pytest.fixture
def template(tmp_path: Path) -> dict[str, Any]:
    path = tmp_path / "template.yaml"
    path.write_text(FIXTURE, encoding="utf-8")
    return load_template(path)


def test_short_tags_become_long_forms(template: dict[str, Any]) -> None:
    env = template["Resources"]["Worker"]["Properties"]["Environment"]["Variables"]
    assert env["TABLE"] == {"Ref": "Table"}
    assert env["TABLE_ARN"] == {"Fn::GetAtt": ["Table", "Arn"]}
    assert env["QUEUE_ARN"] == {"Fn::GetAtt": ["Queue", "Arn"]}
    assert env["CHOSEN"] == {"Fn::If": ["IsMadrid", "madrid", "elsewhere"]}


def test_function_environment_resolves_like_cloudformation(template: dict[str, Any], tmp_path: Path) -> None:
    stack = Stack(template, tmp_path, stack_name="demo", aws_endpoint="http://127.0.0.1:5055")
    worker = stack.functions()["Worker"]
    env = worker.environment
    assert env["SHARED"] == "from-globals"
    assert env["LEVEL"] == "DEBUG"  # the function's own value wins over Globals
    assert env["TABLE"] == "demo-Table"
    assert env["TABLE_ARN"] == "arn:aws:dynamodb:us-east-1:123456789012:table/demo-Table"
    assert env["QUEUE_ARN"] == "arn:aws:sqs:us-east-1:123456789012:demo-Queue"
    assert env["QUEUE_URL"] == "http://127.0.0.1:5055/123456789012/demo-Queue"
    assert env["GROUP"] == "demo-group"
    assert env["LIMIT"] == "50"
    assert env["SELF"] == "arn:aws:lambda:us-east-1:123456789012:function:Worker:live"
    assert env["ROLE"] == "arn:aws:iam::123456789012:role/demo-WorkerRole"
    assert env["LITERAL"] == "${NotAVariable}/UTC"
    assert env["MAPPED"] == "UTC-us-east-1"
    assert env["CHOSEN"] == "elsewhere"
    assert env["JOINED"] == "a,UTC"
    assert "SECRET" not in env  # AWS::NoValue removes the variable


def test_parameter_overrides_drive_conditions(template: dict[str, Any], tmp_path: Path) -> None:
    stack = Stack(template, tmp_path, {"Zone": "Europe/Madrid", "Secret": "arn:secret", "Limit": "3"})
    env = stack.functions()["Worker"].environment
    assert env["CHOSEN"] == "madrid"
    assert env["SECRET"] == "arn:secret"
    assert env["LIMIT"] == "3"
    assert "OnlyWithSecret" in stack.of_type("AWS::SQS::Queue")
    assert "OnlyWithSecret" not in Stack(template, tmp_path).of_type("AWS::SQS::Queue")


def test_unknown_parameter_is_refused(template: dict[str, Any], tmp_path: Path) -> None:
    with pytest.raises(TemplateError):
        Stack(template, tmp_path, {"Nope": "1"})


def test_function_spec_carries_code_layers_timeout_and_async_config(template: dict[str, Any], tmp_path: Path) -> None:
    stack = Stack(template, tmp_path, stack_name="demo")
    worker = stack.functions()["Worker"]
    assert worker.name == "Worker"
    assert worker.code_dir == tmp_path / "functions/worker/"
    assert worker.layer_dirs == [tmp_path / "layers/common/"]
    assert worker.timeout == 10
    assert worker.max_retry_attempts == 1
    assert worker.on_failure_arn == "arn:aws:sqs:us-east-1:123456789012:demo-Queue"
    (schedule,) = worker.schedules
    assert schedule["ScheduleExpression"] == "cron(0 3 * * ? *)"
    assert schedule["GroupName"] == "demo-group"
    assert schedule["Target"]["Arn"] == worker.arn
    assert json.loads(schedule["Target"]["Input"]) == {"job": "nightly"}


def test_no_value_drops_list_items(template: dict[str, Any], tmp_path: Path) -> None:
    stack = Stack(template, tmp_path)
    assert stack.resolve([1, {"Ref": "AWS::NoValue"}, 2]) == [1, 2]
    assert stack.resolve({"Ref": "AWS::NoValue"}) is NO_VALUE


def test_the_project_template_resolves_for_every_function() -> None:
    stack = Stack(load_template(ROOT / "template.yaml"), ROOT, {"DefaultTimezone": "Europe/Madrid"})
    functions = stack.functions()
    assert {"ToolsFunction", "FireFunction", "EchoAgentFunction"} <= set(functions)
    for spec in functions.values():
        assert (spec.code_dir / "app.py").is_file()
        assert all(isinstance(value, str) for value in spec.environment.values())
    tools = functions["ToolsFunction"].environment
    assert tools["DEFAULT_TIMEZONE"] == "Europe/Madrid"
    assert tools["FIRE_FUNCTION_ARN"] == functions["FireFunction"].arn
    assert json.loads(tools["AGENTS"])["echo"].endswith(":function:EchoAgentFunction")
