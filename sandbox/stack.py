"""The sandbox's stack as a deployment makes it: template.yaml transformed by aws-sam-translator (the transform
SAM CLI and CloudFormation run), then created by moto's CloudFormation from that CloudFormation template.

moto's CloudFormation resolves the parameters, conditions and intrinsics and creates the tables, queues, roles,
log groups, layers and functions. What it does not create is the remainder below, each a resource type moto's
CloudFormation learns here, written against moto's own backends: Scheduler schedule groups and schedules,
CloudWatch alarms and Lambda's EventInvokeConfig; and after the stack, a table's TimeToLiveSpecification,
which moto's CloudFormation reads but does not apply.

A function's code stays where the template says (`CodeUri`, a layer's `ContentUri`): the transform is given an
S3 location per local folder, as `sam deploy` would upload it, and the sandbox runs the folder. A function with
no `FunctionName` is named after its logical id, as `sam local` names it.
"""

from __future__ import annotations

import io
import json
import logging
import tomllib
import zipfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import boto3

from sandbox.streams import Mapping, mappings

ACCOUNT_ID = "123456789012"
REGION = "us-east-1"
DEFAULT_STACK_NAME = "cronbell"
CODE_BUCKET = "cronbell-sandbox-code-{region}"  # S3 names are global: one per Region


class TemplateError(ValueError):
    """The template cannot be transformed or created."""


@dataclass
class FunctionSpec:
    """One function of the stack, as the sandbox runs it."""

    logical_id: str
    name: str
    arn: str
    code_dir: Path
    handler: str  # "module.function"
    timeout: int
    memory: int
    environment: dict[str, str]
    layer_dirs: list[Path] = field(default_factory=list)
    max_retry_attempts: int = 2  # Lambda's asynchronous retries of handler errors
    on_failure_arn: str = ""  # EventInvokeConfig OnFailure destination
    dead_letter_arn: str = ""  # the function's own dead-letter queue
    aliases: tuple[str, ...] = ()  # its aliases (AutoPublishAlias), which callers invoke


def stack_name_from_samconfig(root: Path) -> str:
    """The stack name `sam deploy` would use (samconfig.toml), so physical names match a deployment."""
    try:
        config = tomllib.loads((root / "samconfig.toml").read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError):
        return DEFAULT_STACK_NAME
    for section in ("deploy", "global"):
        name = config.get("default", {}).get(section, {}).get("parameters", {}).get("stack_name")
        if isinstance(name, str) and name:
            return name
    return DEFAULT_STACK_NAME


# ---------------------------------------------------------------------------------------- the transform


def transform(
    template_path: Path, parameters: dict[str, str], region: str = REGION, account_id: str = ACCOUNT_ID
) -> tuple[dict[str, Any], dict[str, Path]]:
    """The CloudFormation template SAM makes of template.yaml, and the local folder behind each S3 key in it."""
    from samtranslator.parser.parser import Parser
    from samtranslator.translator.translator import Translator
    from samtranslator.yaml_helper import yaml_parse

    sam = yaml_parse(template_path.read_text(encoding="utf-8"))
    if not isinstance(sam, dict) or "Resources" not in sam:
        raise TemplateError(f"{template_path} is not a CloudFormation template")
    folders: dict[str, Path] = {}
    for logical_id, resource in sam["Resources"].items():
        properties = resource.get("Properties") or {}
        for key in ("CodeUri", "ContentUri"):
            if isinstance(properties.get(key), str) and not properties[key].startswith("s3://"):
                folders[logical_id] = template_path.parent / properties[key]
                properties[key] = f"s3://{CODE_BUCKET.format(region=region)}/{logical_id}"
    session = boto3.session.Session(region_name=region, aws_access_key_id="test", aws_secret_access_key="test")
    # offline the translator has no configuration for its own feature flags and says so for each it reads (one
    # for DeploymentPreference): a note on every start that asks nothing of anyone
    logging.getLogger("samtranslator.feature_toggle.feature_toggle").setLevel(logging.ERROR)
    translator = Translator(None, Parser(), boto_session=session)
    try:
        cfn: dict[str, Any] = translator.translate(
            sam, parameter_values={"AWS::AccountId": account_id, **parameters}, get_managed_policy_map=dict
        )
    except Exception as err:  # the translator's own report names the resource and the property
        raise TemplateError(f"SAM transform of {template_path.name}: {err}") from err
    for logical_id, resource in cfn["Resources"].items():
        if resource["Type"] == "AWS::Lambda::Function":
            resource["Properties"].setdefault("FunctionName", logical_id)
    return cfn, folders


# ---------------------------------------------------------------------------------------- the stack


@dataclass
class Deployment:
    """A created stack: each resource's type and physical id, the parameters it got, and its functions."""

    name: str
    resources: dict[str, tuple[str, str]]  # logical id -> (type, physical id)
    parameters: dict[str, str]
    functions: dict[str, FunctionSpec]
    mappings: list[Mapping] = field(default_factory=list)  # the functions fed by a table's stream

    def physical_name(self, logical_id: str) -> str:
        return self.resources[logical_id][1]

    def of_type(self, kind: str) -> list[str]:
        return [logical for logical, (type_, _) in self.resources.items() if type_ == kind]


def deploy(
    template_path: Path,
    parameters: dict[str, str],
    endpoint: str,
    stack_name: str = DEFAULT_STACK_NAME,
    region: str = REGION,
) -> Deployment:
    """Transform the template and create it in the moto server at `endpoint` (which runs in this process)."""
    from sandbox import stack_remainder

    stack_remainder.register()
    declared = set(_parameters_of(template_path))
    given = {key: value for key, value in parameters.items() if key in declared}
    cfn, folders = transform(template_path, given, region)
    session = boto3.session.Session(aws_access_key_id="test", aws_secret_access_key="test", region_name=region)
    s3 = session.client("s3", endpoint_url=endpoint)
    bucket = CODE_BUCKET.format(region=region)
    if region == "us-east-1":
        s3.create_bucket(Bucket=bucket)
    else:
        s3.create_bucket(Bucket=bucket, CreateBucketConfiguration={"LocationConstraint": region})
    empty = io.BytesIO()
    zipfile.ZipFile(empty, "w").close()
    for key in folders:  # what `sam deploy` would upload: the sandbox runs the folders themselves
        s3.put_object(Bucket=bucket, Key=key, Body=empty.getvalue())
    cloudformation = session.client("cloudformation", endpoint_url=endpoint)
    cloudformation.create_stack(
        StackName=stack_name,
        TemplateBody=json.dumps(cfn),
        Parameters=[{"ParameterKey": k, "ParameterValue": v} for k, v in given.items()],
        Capabilities=["CAPABILITY_IAM", "CAPABILITY_NAMED_IAM", "CAPABILITY_AUTO_EXPAND"],
    )
    [described] = cloudformation.describe_stacks(StackName=stack_name)["Stacks"]
    if described["StackStatus"] != "CREATE_COMPLETE":
        raise TemplateError(f"stack {stack_name}: {described['StackStatus']} {described.get('StackStatusReason', '')}")
    summaries = cloudformation.get_paginator("list_stack_resources").paginate(StackName=stack_name)
    resources = {
        r["LogicalResourceId"]: (r["ResourceType"], r["PhysicalResourceId"])
        for page in summaries
        for r in page["StackResourceSummaries"]
    }
    stack_remainder.after_stack(session, endpoint, cfn, resources)
    values = {p["ParameterKey"]: p["ParameterValue"] for p in described.get("Parameters", [])}
    functions = _functions(session.client("lambda", endpoint_url=endpoint), cfn, folders, resources)
    return Deployment(stack_name, resources, values, functions, _mappings(session, endpoint, cfn, resources))


def _mappings(session: Any, endpoint: str, cfn: dict[str, Any], resources: dict[str, tuple[str, str]]) -> list[Mapping]:
    """The stream mappings, with each table's stream and each queue's ARN as the stack made them."""
    dynamodb = session.client("dynamodb", endpoint_url=endpoint)
    sqs = session.client("sqs", endpoint_url=endpoint)

    def attribute(logical_id: str, name: str) -> str:
        kind, physical = resources[logical_id]
        if kind == "AWS::DynamoDB::Table" and name == "StreamArn":
            return str(dynamodb.describe_table(TableName=physical)["Table"]["LatestStreamArn"])
        if kind == "AWS::SQS::Queue" and name == "Arn":
            return str(
                sqs.get_queue_attributes(QueueUrl=physical, AttributeNames=["QueueArn"])["Attributes"]["QueueArn"]
            )
        raise TemplateError(f"{logical_id}.{name} is not an attribute the sandbox resolves")

    return mappings(cfn, attribute)


def _parameters_of(template_path: Path) -> dict[str, Any]:
    from samtranslator.yaml_helper import yaml_parse

    declared: dict[str, Any] = yaml_parse(template_path.read_text(encoding="utf-8")).get("Parameters") or {}
    return declared


def _functions(
    client: Any, cfn: dict[str, Any], folders: dict[str, Path], resources: dict[str, tuple[str, str]]
) -> dict[str, FunctionSpec]:
    """Each function as moto's Lambda holds it (handler, limits, resolved environment, destinations), run from
    the folder behind its code's S3 key, with its layers' folders."""
    specs = {}
    for logical_id, (kind, physical) in resources.items():
        if kind != "AWS::Lambda::Function":
            continue
        config = client.get_function_configuration(FunctionName=physical)
        properties = cfn["Resources"][logical_id]["Properties"]
        code_key = properties["Code"]["S3Key"]
        invoke_config = _event_invoke_config(client, physical)
        on_failure = invoke_config.get("DestinationConfig", {}).get("OnFailure", {}).get("Destination", "")
        specs[logical_id] = FunctionSpec(
            logical_id=logical_id,
            name=config["FunctionName"],
            arn=config["FunctionArn"],
            code_dir=folders[code_key],
            handler=config["Handler"],
            timeout=int(config.get("Timeout", 3)),
            memory=int(config.get("MemorySize", 128)),
            environment={k: _text(v) for k, v in config.get("Environment", {}).get("Variables", {}).items()},
            layer_dirs=_layer_folders(cfn, folders, properties.get("Layers", [])),
            max_retry_attempts=int(invoke_config.get("MaximumRetryAttempts", 2)),
            on_failure_arn=on_failure if ":sqs:" in on_failure else "",
            dead_letter_arn=config.get("DeadLetterConfig", {}).get("TargetArn", ""),
            aliases=tuple(alias["Name"] for alias in client.list_aliases(FunctionName=physical)["Aliases"]),
        )
    return specs


def _text(value: Any) -> str:
    """An environment value as Lambda holds it: a string (numbers and booleans as the template writes them)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _layer_folders(cfn: dict[str, Any], folders: dict[str, Path], layers: list[Any]) -> list[Path]:
    """The folders of a function's own layers (moto's Lambda keeps no layers from a template: read them there)."""
    out = []
    for layer in layers:
        logical = layer.get("Ref") if isinstance(layer, dict) else None
        resource = cfn["Resources"].get(logical or "", {})
        if resource.get("Type") == "AWS::Lambda::LayerVersion":
            out.append(folders[resource["Properties"]["Content"]["S3Key"]])
    return out


def _event_invoke_config(client: Any, name: str) -> dict[str, Any]:
    try:
        config: dict[str, Any] = client.get_function_event_invoke_config(FunctionName=name)
    except client.exceptions.ResourceNotFoundException:
        return {}
    return config


def clients(endpoint: str, region: str) -> dict[str, Any]:
    session = boto3.session.Session(aws_access_key_id="test", aws_secret_access_key="test", region_name=region)
    return {name: session.client(name, endpoint_url=endpoint) for name in ("events", "sqs")}


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
