"""template.yaml as the sandbox reads it: CloudFormation tags, parameters, conditions and intrinsics.

`Stack` resolves every value the way CloudFormation would for a deployment in a fake account, so the
sandbox provisions moto and configures the handlers from the template itself, never from a copy.
"""

from __future__ import annotations

import base64
import json
import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

ACCOUNT_ID = "123456789012"
REGION = "us-east-1"
DEFAULT_STACK_NAME = "cronbell"

FUNCTION_TYPES = ("AWS::Serverless::Function", "AWS::Lambda::Function")


class TemplateError(ValueError):
    """The template uses something the sandbox cannot resolve."""


class _NoValue:
    """`AWS::NoValue`: removes the property or list item it stands in."""

    def __repr__(self) -> str:
        return "AWS::NoValue"


NO_VALUE = _NoValue()


# ---------------------------------------------------------------------------------------- loading


class _CfnLoader(yaml.SafeLoader):
    """A YAML loader that turns the short tags (`!Ref`, `!Sub`, ...) into their long JSON forms."""


def _construct_tag(loader: _CfnLoader, suffix: str, node: yaml.Node) -> dict[str, Any]:
    name = "Ref" if suffix == "Ref" else ("Condition" if suffix == "Condition" else f"Fn::{suffix}")
    value: Any
    if isinstance(node, yaml.ScalarNode):
        value = loader.construct_scalar(node)
        if suffix == "GetAtt":
            value = str(value).split(".", 1)
    elif isinstance(node, yaml.SequenceNode):
        value = loader.construct_sequence(node, deep=True)
    else:
        value = loader.construct_mapping(node, deep=True)
    return {name: value}


_CfnLoader.add_multi_constructor("!", _construct_tag)


def load_template(path: str | Path) -> dict[str, Any]:
    with Path(path).open(encoding="utf-8") as handle:
        data = yaml.load(handle, Loader=_CfnLoader)
    if not isinstance(data, dict) or "Resources" not in data:
        raise TemplateError(f"{path} is not a CloudFormation template")
    return data


def stack_name_from_samconfig(root: Path) -> str:
    """The stack name `sam deploy` would use (samconfig.toml), so physical names match a deployment."""
    path = root / "samconfig.toml"
    try:
        config = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError):
        return DEFAULT_STACK_NAME
    for section in ("deploy", "global"):
        name = config.get("default", {}).get(section, {}).get("parameters", {}).get("stack_name")
        if isinstance(name, str) and name:
            return name
    return DEFAULT_STACK_NAME


# ---------------------------------------------------------------------------------------- functions


@dataclass
class FunctionSpec:
    """One function of the template, as the sandbox runs it."""

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
    schedules: list[dict[str, Any]] = field(default_factory=list)  # ScheduleV2 events, resolved


# ---------------------------------------------------------------------------------------- the stack


_SUB_VAR = re.compile(r"\$\{([^}]*)\}")


class Stack:
    """A template plus parameter values: resolves intrinsics and names every resource physically."""

    def __init__(
        self,
        template: dict[str, Any],
        root: Path,
        parameters: Mapping[str, str] | None = None,
        stack_name: str = DEFAULT_STACK_NAME,
        region: str = REGION,
        account_id: str = ACCOUNT_ID,
        aws_endpoint: str = "",
    ) -> None:
        self.template = template
        self.root = root
        self.stack_name = stack_name
        self.region = region
        self.account_id = account_id
        self.aws_endpoint = aws_endpoint.rstrip("/")
        self.resources: dict[str, dict[str, Any]] = template.get("Resources", {})
        self.parameters = self._parameter_values(parameters or {})
        self._conditions: dict[str, bool] = {}
        # physical ids known only after creation (secret ARNs carry a random suffix)
        self.physical_overrides: dict[str, str] = {}

    # ------------------------------------------------------------------ parameters and conditions

    def _parameter_values(self, overrides: Mapping[str, str]) -> dict[str, Any]:
        declared: dict[str, dict[str, Any]] = self.template.get("Parameters", {}) or {}
        unknown = set(overrides) - set(declared)
        if unknown:
            raise TemplateError(f"unknown template parameters: {', '.join(sorted(unknown))}")
        values: dict[str, Any] = {}
        for name, spec in declared.items():
            if name in overrides:
                raw: Any = overrides[name]
            elif "Default" in spec:
                raw = spec["Default"]
            else:
                raise TemplateError(f"parameter {name} has no default and no value")
            kind = str(spec.get("Type", "String"))
            if kind.startswith("List<") or kind == "CommaDelimitedList":
                values[name] = [part.strip() for part in str(raw).split(",")] if raw != "" else []
            else:
                values[name] = _scalar_text(raw)
        return values

    def condition(self, name: str) -> bool:
        if name not in self._conditions:
            conditions = self.template.get("Conditions", {}) or {}
            if name not in conditions:
                raise TemplateError(f"unknown condition {name}")
            self._conditions[name] = bool(self.resolve(conditions[name]))
        return self._conditions[name]

    # ------------------------------------------------------------------ names

    def resource_type(self, logical_id: str) -> str:
        return str(self.resources[logical_id].get("Type", ""))

    def raw_properties(self, logical_id: str) -> dict[str, Any]:
        props: dict[str, Any] = self.resources[logical_id].get("Properties", {}) or {}
        return props

    def _prop(self, logical_id: str, key: str) -> str:
        raw = self.raw_properties(logical_id).get(key)
        if raw is None:
            return ""
        value = self.resolve(raw)
        return "" if value is NO_VALUE else str(value)

    def physical_name(self, logical_id: str) -> str:
        """The resource's name: its own name property, else `<stack>-<logical id>` (functions keep
        their logical id, so the Lambda endpoint's names and the ARNs' names are the same)."""
        if logical_id in self.physical_overrides:
            return self.physical_overrides[logical_id]
        kind = self.resource_type(logical_id)
        name_key = {
            "AWS::DynamoDB::Table": "TableName",
            "AWS::SQS::Queue": "QueueName",
            "AWS::Scheduler::ScheduleGroup": "Name",
            "AWS::Scheduler::Schedule": "Name",
            "AWS::IAM::Role": "RoleName",
            "AWS::SecretsManager::Secret": "Name",
            "AWS::SSM::Parameter": "Name",
            "AWS::Logs::LogGroup": "LogGroupName",
            "AWS::Serverless::LayerVersion": "LayerName",
            "AWS::Lambda::LayerVersion": "LayerName",
            "AWS::Serverless::Function": "FunctionName",
            "AWS::Lambda::Function": "FunctionName",
        }.get(kind)
        name = self._prop(logical_id, name_key) if name_key else ""
        if name:
            return name
        if kind in FUNCTION_TYPES:
            return logical_id
        generated = f"{self.stack_name}-{logical_id}"
        if kind == "AWS::SQS::Queue" and str(self.resolve(self.raw_properties(logical_id).get("FifoQueue"))) in (
            "True",
            "true",
        ):
            generated += ".fifo"
        return generated

    def _arn(self, service: str, resource: str, region: bool = True) -> str:
        return f"arn:aws:{service}:{self.region if region else ''}:{self.account_id}:{resource}"

    def _implicit_role(self, logical_id: str) -> str | None:
        """SAM creates `<Function>Role` for a function without a Role property."""
        if logical_id.endswith("Role"):
            owner = logical_id[: -len("Role")]
            if owner in self.resources and self.resource_type(owner) == "AWS::Serverless::Function":
                return owner
        return None

    def ref(self, name: str) -> Any:
        pseudo = {
            "AWS::Region": self.region,
            "AWS::AccountId": self.account_id,
            "AWS::StackName": self.stack_name,
            "AWS::StackId": self._arn("cloudformation", f"stack/{self.stack_name}/sandbox"),
            "AWS::Partition": "aws",
            "AWS::URLSuffix": "amazonaws.com",
            "AWS::NotificationARNs": [],
        }
        if name == "AWS::NoValue":
            return NO_VALUE
        if name in pseudo:
            return pseudo[name]
        if name in self.parameters:
            return self.parameters[name]
        if name in self.resources:
            kind = self.resource_type(name)
            if kind == "AWS::SQS::Queue":
                return self.queue_url(name)
            if kind in (
                "AWS::SecretsManager::Secret",
                "AWS::Serverless::LayerVersion",
                "AWS::Lambda::LayerVersion",
            ):
                return self.get_att(name, "Arn")
            return self.physical_name(name)
        if self._implicit_role(name):
            return f"{self.stack_name}-{name}"
        raise TemplateError(f"!Ref to unknown name {name}")

    def queue_url(self, logical_id: str) -> str:
        name = self.physical_name(logical_id)
        if self.aws_endpoint:
            return f"{self.aws_endpoint}/{self.account_id}/{name}"
        return f"https://sqs.{self.region}.amazonaws.com/{self.account_id}/{name}"

    def get_att(self, logical_id: str, attribute: str) -> str:
        if self._implicit_role(logical_id):
            if attribute == "Arn":
                return self._arn("iam", f"role/{self.stack_name}-{logical_id}", region=False)
            raise TemplateError(f"!GetAtt {logical_id}.{attribute} is not supported")
        if logical_id not in self.resources:
            raise TemplateError(f"!GetAtt of unknown resource {logical_id}")
        kind = self.resource_type(logical_id)
        name = self.physical_name(logical_id)
        arns = {
            "AWS::DynamoDB::Table": lambda: self._arn("dynamodb", f"table/{name}"),
            "AWS::SQS::Queue": lambda: self._arn("sqs", name),
            "AWS::Scheduler::ScheduleGroup": lambda: self._arn("scheduler", f"schedule-group/{name}"),
            "AWS::Scheduler::Schedule": lambda: self._arn(
                "scheduler", f"schedule/{self._prop(logical_id, 'GroupName') or 'default'}/{name}"
            ),
            "AWS::IAM::Role": lambda: self._arn(
                "iam", f"role{self._prop(logical_id, 'Path') or '/'}{name}", region=False
            ),
            "AWS::SecretsManager::Secret": lambda: self.physical_overrides.get(
                f"{logical_id}.Arn", self._arn("secretsmanager", f"secret:{name}-AbCdEf")
            ),
            "AWS::SSM::Parameter": lambda: self._arn("ssm", f"parameter/{name.lstrip('/')}"),
            "AWS::Logs::LogGroup": lambda: self._arn("logs", f"log-group:{name}:*"),
            "AWS::Serverless::Function": lambda: self._arn("lambda", f"function:{name}"),
            "AWS::Lambda::Function": lambda: self._arn("lambda", f"function:{name}"),
            "AWS::Serverless::LayerVersion": lambda: self._arn("lambda", f"layer:{name}:1"),
            "AWS::Lambda::LayerVersion": lambda: self._arn("lambda", f"layer:{name}:1"),
        }
        if attribute == "Arn" and kind in arns:
            return arns[kind]()
        specials = {
            ("AWS::SQS::Queue", "QueueName"): lambda: name,
            ("AWS::SQS::Queue", "QueueUrl"): lambda: self.queue_url(logical_id),
            ("AWS::DynamoDB::Table", "StreamArn"): lambda: self._arn(
                "dynamodb", f"table/{name}/stream/1970-01-01T00:00:00.000"
            ),
            ("AWS::IAM::Role", "RoleId"): lambda: f"AROA{logical_id.upper()[:17]}",
            ("AWS::SSM::Parameter", "Value"): lambda: self._prop(logical_id, "Value"),
            ("AWS::Scheduler::ScheduleGroup", "State"): lambda: "ACTIVE",
        }
        if (kind, attribute) in specials:
            return specials[(kind, attribute)]()
        raise TemplateError(f"!GetAtt {logical_id}.{attribute} is not supported by the sandbox")

    # ------------------------------------------------------------------ intrinsics

    def resolve(self, value: Any) -> Any:
        """The value with every intrinsic function evaluated; `NO_VALUE` parts dropped."""
        if isinstance(value, list):
            items = [self.resolve(item) for item in value]
            return [item for item in items if item is not NO_VALUE]
        if not isinstance(value, dict):
            return value
        if len(value) == 1:
            ((key, arg),) = value.items()
            handler = _INTRINSICS.get(key)
            if handler is not None:
                return handler(self, arg)
        out = {}
        for key, item in value.items():
            resolved = self.resolve(item)
            if resolved is not NO_VALUE:
                out[key] = resolved
        return out

    def sub(self, arg: Any) -> str:
        if isinstance(arg, list):
            text, variables = arg[0], self.resolve(arg[1]) if len(arg) > 1 else {}
        else:
            text, variables = arg, {}

        def one(match: re.Match[str]) -> str:
            inner = match.group(1)
            if inner.startswith("!"):
                return "${" + inner[1:] + "}"
            if inner in variables:
                return _scalar_text(variables[inner])
            if "." in inner and inner.split(".", 1)[0] in self.resources:
                logical, attribute = inner.split(".", 1)
                return self.get_att(logical, attribute)
            if "." in inner and self._implicit_role(inner.split(".", 1)[0]):
                logical, attribute = inner.split(".", 1)
                return self.get_att(logical, attribute)
            return _scalar_text(self.ref(inner))

        return _SUB_VAR.sub(one, str(text))

    # ------------------------------------------------------------------ resources

    def of_type(self, *kinds: str) -> list[str]:
        """Logical ids of the resources of these types whose Condition (if any) holds."""
        out = []
        for logical_id, resource in self.resources.items():
            if resource.get("Type") not in kinds:
                continue
            condition = resource.get("Condition")
            if condition and not self.condition(condition):
                continue
            out.append(logical_id)
        return out

    def properties(self, logical_id: str) -> dict[str, Any]:
        props = self.raw_properties(logical_id)
        if self.resource_type(logical_id) == "AWS::Serverless::Function":
            props = _merge_globals(self.template.get("Globals", {}).get("Function", {}) or {}, props)
        resolved: dict[str, Any] = self.resolve(props)
        return resolved

    def functions(self) -> dict[str, FunctionSpec]:
        specs = {}
        for logical_id in self.of_type(*FUNCTION_TYPES):
            props = self.properties(logical_id)
            code_uri = props.get("CodeUri", ".")
            if not isinstance(code_uri, str):
                raise TemplateError(f"{logical_id}: only a local CodeUri path is supported")
            environment = {
                key: _scalar_text(val) for key, val in (props.get("Environment", {}).get("Variables", {}) or {}).items()
            }
            layer_dirs = []
            raw = self.raw_properties(logical_id)
            if self.resource_type(logical_id) == "AWS::Serverless::Function":
                raw = _merge_globals(self.template.get("Globals", {}).get("Function", {}) or {}, raw)
            for layer in raw.get("Layers", []) or []:
                if isinstance(layer, dict) and "Ref" in layer and layer["Ref"] in self.resources:
                    content = self.properties(layer["Ref"]).get("ContentUri")
                    if isinstance(content, str):
                        layer_dirs.append(self.root / content)
            invoke_config = props.get("EventInvokeConfig", {}) or {}
            on_failure = invoke_config.get("DestinationConfig", {}).get("OnFailure", {}) or {}
            dead_letter = props.get("DeadLetterQueue", {}) or {}
            specs[logical_id] = FunctionSpec(
                logical_id=logical_id,
                name=self.physical_name(logical_id),
                arn=self.get_att(logical_id, "Arn"),
                code_dir=self.root / code_uri,
                handler=str(props.get("Handler", "app.lambda_handler")),
                timeout=int(props.get("Timeout", 3)),
                memory=int(props.get("MemorySize", 128)),
                environment=environment,
                layer_dirs=layer_dirs,
                max_retry_attempts=int(invoke_config.get("MaximumRetryAttempts", 2)),
                on_failure_arn=str(on_failure.get("Destination", "")) if on_failure.get("Type") == "SQS" else "",
                dead_letter_arn=str(dead_letter.get("TargetArn", "")) if dead_letter.get("Type") == "SQS" else "",
                schedules=self._schedule_events(logical_id, props),
            )
        return specs

    def _schedule_events(self, logical_id: str, props: dict[str, Any]) -> list[dict[str, Any]]:
        """SAM `ScheduleV2` events become Scheduler schedules that target the function."""
        out = []
        for event_name, event in (props.get("Events", {}) or {}).items():
            if not isinstance(event, dict) or event.get("Type") != "ScheduleV2":
                continue
            p = event.get("Properties", {}) or {}
            target: dict[str, Any] = {
                "Arn": self.get_att(logical_id, "Arn"),
                "RoleArn": p.get("RoleArn") or self._arn("iam", f"role/{self.stack_name}-{logical_id}{event_name}Role"),
            }
            if "Input" in p:
                target["Input"] = p["Input"]
            if "RetryPolicy" in p:
                target["RetryPolicy"] = p["RetryPolicy"]
            if "DeadLetterConfig" in p and isinstance(p["DeadLetterConfig"], dict) and "Arn" in p["DeadLetterConfig"]:
                target["DeadLetterConfig"] = {"Arn": p["DeadLetterConfig"]["Arn"]}
            schedule = {
                "Name": p.get("Name") or f"{logical_id}{event_name}",
                "GroupName": p.get("GroupName", "default"),
                "ScheduleExpression": p["ScheduleExpression"],
                "FlexibleTimeWindow": p.get("FlexibleTimeWindow", {"Mode": "OFF"}),
                "State": p.get("State", "ENABLED"),
                "Target": target,
            }
            for key in ("ScheduleExpressionTimezone", "StartDate", "EndDate", "Description", "KmsKeyArn"):
                if key in p:
                    schedule[key] = p[key]
            out.append(schedule)
        return out


def _merge_globals(globals_: dict[str, Any], props: dict[str, Any]) -> dict[str, Any]:
    merged = dict(globals_)
    for key, value in props.items():
        if key == "Environment" and "Environment" in merged:
            variables = dict(merged["Environment"].get("Variables", {}) or {})
            variables.update(value.get("Variables", {}) or {})
            merged["Environment"] = {"Variables": variables}
        else:
            merged[key] = value
    return merged


def _scalar_text(value: Any) -> str:
    """CloudFormation's string form of a scalar (numbers and booleans as template text)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list):
        return ",".join(_scalar_text(item) for item in value)
    if isinstance(value, dict):
        return json.dumps(value)
    return str(value)


def _fn_if(stack: Stack, arg: list[Any]) -> Any:
    name, when_true, when_false = arg
    return stack.resolve(when_true if stack.condition(name) else when_false)


def _fn_equals(stack: Stack, arg: list[Any]) -> bool:
    left, right = (stack.resolve(item) for item in arg)
    return _scalar_text(left) == _scalar_text(right)


def _fn_select(stack: Stack, arg: list[Any]) -> Any:
    index, items = stack.resolve(arg[0]), stack.resolve(arg[1])
    return items[int(index)]


def _fn_split(stack: Stack, arg: list[Any]) -> list[str]:
    delimiter, text = arg[0], stack.resolve(arg[1])
    return str(text).split(delimiter)


def _fn_join(stack: Stack, arg: list[Any]) -> str:
    delimiter, items = arg[0], stack.resolve(arg[1])
    return str(delimiter).join(_scalar_text(item) for item in items)


def _fn_find_in_map(stack: Stack, arg: list[Any]) -> Any:
    name, top, second = (stack.resolve(item) for item in arg[:3])
    return stack.template.get("Mappings", {})[name][top][second]


def _fn_get_att(stack: Stack, arg: Any) -> str:
    if isinstance(arg, str):
        arg = arg.split(".", 1)
    logical_id, attribute = stack.resolve(arg[0]), stack.resolve(arg[1])
    return stack.get_att(str(logical_id), str(attribute))


_INTRINSICS: dict[str, Any] = {
    "Ref": lambda stack, arg: stack.ref(str(stack.resolve(arg))),
    "Fn::Sub": lambda stack, arg: stack.sub(arg),
    "Fn::GetAtt": _fn_get_att,
    "Fn::If": _fn_if,
    "Fn::Equals": _fn_equals,
    "Fn::Not": lambda stack, arg: not bool(stack.resolve(arg[0] if isinstance(arg, list) else arg)),
    "Fn::And": lambda stack, arg: all(bool(stack.resolve(item)) for item in arg),
    "Fn::Or": lambda stack, arg: any(bool(stack.resolve(item)) for item in arg),
    "Condition": lambda stack, arg: stack.condition(str(arg)),
    "Fn::Join": _fn_join,
    "Fn::Select": _fn_select,
    "Fn::Split": _fn_split,
    "Fn::FindInMap": _fn_find_in_map,
    "Fn::Base64": lambda stack, arg: base64.b64encode(str(stack.resolve(arg)).encode()).decode(),
    "Fn::ToJsonString": lambda stack, arg: json.dumps(stack.resolve(arg), separators=(",", ":")),
}
