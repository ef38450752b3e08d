"""Create the template's resources in the moto server: tables, queues, roles, secrets, parameters,
alarms, the schedule group and the static schedules (explicit `AWS::Scheduler::Schedule` resources and SAM
`ScheduleV2` events)."""

from __future__ import annotations

import json
import logging
from datetime import datetime
from typing import Any

import boto3

from sandbox.template import FUNCTION_TYPES, Stack

log = logging.getLogger("sandbox.provision")


def clients(endpoint: str, region: str) -> dict[str, Any]:
    session = boto3.session.Session(aws_access_key_id="test", aws_secret_access_key="test", region_name=region)
    names = ("dynamodb", "sqs", "scheduler", "iam", "secretsmanager", "ssm", "cloudwatch", "events", "sts")
    return {name: session.client(name, endpoint_url=endpoint) for name in names}


def provision(stack: Stack, endpoint: str) -> None:
    c = clients(endpoint, stack.region)
    for logical_id in stack.of_type("AWS::SecretsManager::Secret"):
        _secret(stack, c["secretsmanager"], logical_id)
    for logical_id in stack.of_type("AWS::DynamoDB::Table"):
        _table(stack, c["dynamodb"], logical_id)
    for logical_id in stack.of_type("AWS::SQS::Queue"):
        _queue(stack, c["sqs"], logical_id)
    for logical_id in stack.of_type("AWS::IAM::Role"):
        _role(stack, c["iam"], logical_id)
    for logical_id in stack.of_type("AWS::SSM::Parameter"):
        props = stack.properties(logical_id)
        c["ssm"].put_parameter(
            Name=stack.physical_name(logical_id), Value=str(props["Value"]), Type=props.get("Type", "String")
        )
    for logical_id in stack.of_type("AWS::CloudWatch::Alarm"):
        _alarm(stack, c["cloudwatch"], logical_id)
    for logical_id in stack.of_type("AWS::Scheduler::ScheduleGroup"):
        c["scheduler"].create_schedule_group(Name=stack.physical_name(logical_id))
    for logical_id in stack.of_type("AWS::Scheduler::Schedule"):
        props = stack.properties(logical_id)
        props["Name"] = stack.physical_name(logical_id)
        _schedule(c["scheduler"], props)
    for logical_id in stack.of_type(*FUNCTION_TYPES):
        for schedule in stack.functions()[logical_id].schedules:
            _schedule(c["scheduler"], schedule)


def _secret(stack: Stack, client: Any, logical_id: str) -> None:
    props = stack.properties(logical_id)
    args: dict[str, Any] = {"Name": stack.physical_name(logical_id)}
    if "SecretString" in props:
        args["SecretString"] = str(props["SecretString"])
    elif "GenerateSecretString" in props:
        generate = props["GenerateSecretString"]
        value = client.get_random_password(PasswordLength=int(generate.get("PasswordLength", 32)))["RandomPassword"]
        if "SecretStringTemplate" in generate and "GenerateStringKey" in generate:
            data = json.loads(generate["SecretStringTemplate"])
            data[generate["GenerateStringKey"]] = value
            value = json.dumps(data)
        args["SecretString"] = value
    arn = client.create_secret(**args)["ARN"]
    stack.physical_overrides[f"{logical_id}.Arn"] = arn


def _table(stack: Stack, client: Any, logical_id: str) -> None:
    props = stack.properties(logical_id)
    name = stack.physical_name(logical_id)
    args: dict[str, Any] = {
        "TableName": name,
        "KeySchema": props["KeySchema"],
        "AttributeDefinitions": props["AttributeDefinitions"],
        "BillingMode": props.get("BillingMode", "PROVISIONED"),
    }
    if args["BillingMode"] == "PROVISIONED":
        args["ProvisionedThroughput"] = props.get(
            "ProvisionedThroughput", {"ReadCapacityUnits": 5, "WriteCapacityUnits": 5}
        )
    for key in ("GlobalSecondaryIndexes", "LocalSecondaryIndexes", "StreamSpecification"):
        if key in props:
            args[key] = props[key]
    client.create_table(**args)
    ttl = props.get("TimeToLiveSpecification")
    if ttl and str(ttl.get("Enabled")).lower() == "true":
        client.update_time_to_live(
            TableName=name, TimeToLiveSpecification={"AttributeName": ttl["AttributeName"], "Enabled": True}
        )


def _queue(stack: Stack, client: Any, logical_id: str) -> None:
    props = stack.properties(logical_id)
    attributes = {}
    for key, value in props.items():
        if key in ("QueueName", "Tags", "SqsManagedSseEnabled"):
            continue
        attributes[key] = (
            json.dumps(value)
            if isinstance(value, dict)
            else str(value).lower()
            if isinstance(value, bool)
            else str(value)
        )
    client.create_queue(QueueName=stack.physical_name(logical_id), Attributes=attributes)


def _role(stack: Stack, client: Any, logical_id: str) -> None:
    props = stack.properties(logical_id)
    name = stack.physical_name(logical_id)
    client.create_role(
        RoleName=name,
        Path=props.get("Path", "/"),
        AssumeRolePolicyDocument=json.dumps(props.get("AssumeRolePolicyDocument", {})),
    )
    for policy in props.get("Policies", []) or []:
        client.put_role_policy(
            RoleName=name,
            PolicyName=policy["PolicyName"],
            PolicyDocument=json.dumps(policy["PolicyDocument"]),
        )


def _schedule(client: Any, props: dict[str, Any]) -> None:
    args: dict[str, Any] = {
        "Name": props["Name"],
        "ScheduleExpression": props["ScheduleExpression"],
        "FlexibleTimeWindow": props.get("FlexibleTimeWindow", {"Mode": "OFF"}),
        "Target": props["Target"],
    }
    for key in (
        "GroupName",
        "ScheduleExpressionTimezone",
        "State",
        "Description",
        "KmsKeyArn",
        "ActionAfterCompletion",
    ):
        if key in props:
            args[key] = props[key]
    for key in ("StartDate", "EndDate"):
        if key in props:
            args[key] = datetime.fromisoformat(str(props[key]).replace("Z", "+00:00"))
    client.create_schedule(**args)
    log.info("static schedule %s: %s", props["Name"], props["ScheduleExpression"])


_ALARM_KEYS = (
    "AlarmDescription",
    "Namespace",
    "MetricName",
    "Dimensions",
    "Statistic",
    "Period",
    "EvaluationPeriods",
    "Threshold",
    "ComparisonOperator",
    "TreatMissingData",
    "AlarmActions",
)


def _alarm(stack: Stack, client: Any, logical_id: str) -> None:
    props = stack.properties(logical_id)
    args = {k: props[k] for k in _ALARM_KEYS if props.get(k) not in (None, [], "")}
    for number in ("Period", "EvaluationPeriods"):
        args[number] = int(args[number])
    args["Threshold"] = float(args["Threshold"])
    args["Dimensions"] = [{"Name": str(d["Name"]), "Value": str(d["Value"])} for d in args.get("Dimensions", [])]
    client.put_metric_alarm(AlarmName=stack.physical_name(logical_id), **args)


EVENTS_QUEUE = "cronbell-sandbox-events"


def events_recorder(c: dict[str, Any], bus_name: str) -> str:
    """The sandbox's bus and a rule on `source: cronbell` that sends every event to a queue, which the
    sandbox diverts to its event log to answer GET /_sandbox/events: the events take EventBridge's own path
    (PutEvents, the rule's pattern, the target's message). Returns the queue's ARN."""
    events, sqs = c["events"], c["sqs"]
    if bus_name != "default":
        events.create_event_bus(Name=bus_name)
    url = sqs.create_queue(QueueName=EVENTS_QUEUE)["QueueUrl"]
    arn = sqs.get_queue_attributes(QueueUrl=url, AttributeNames=["QueueArn"])["Attributes"]["QueueArn"]
    events.put_rule(Name="cronbell-runs", EventBusName=bus_name, EventPattern=json.dumps({"source": ["cronbell"]}))
    events.put_targets(Rule="cronbell-runs", EventBusName=bus_name, Targets=[{"Id": "recorder", "Arn": arn}])
    return str(arn)
