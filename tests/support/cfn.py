"""template.yaml resolved as CloudFormation would with given parameters, and transformed by the SAM
translator as `sam deploy` transforms it (offline: code locations stand in as S3 URIs)."""

from __future__ import annotations

import copy
import json
import os
import re
from collections.abc import Callable, Mapping
from functools import cache
from typing import Any

from tests.support.aws import template_yaml

NO_VALUE = object()
REGION = "eu-west-1"
ACCOUNT = "123456789012"


def resolver(
    template: dict[str, Any],
    parameters: Mapping[str, str],
    values: Mapping[str, str] | None = None,
    stack_name: str = "cronbell",
) -> Callable[[Any], Any]:
    """Resolve Ref, GetAtt, Sub, If, Join and Split with these parameter values (a parameter not given has
    its default; a CommaDelimitedList is a list). `values` names resources (`Name` or `Name.Attr`); one
    not named resolves to its logical id (Ref) or `Name.Attr`."""
    pseudo = {
        "AWS::Partition": "aws",
        "AWS::Region": REGION,
        "AWS::AccountId": ACCOUNT,
        "AWS::StackName": stack_name,
    }
    known: dict[str, Any] = dict(pseudo)
    for name, spec in template["Parameters"].items():
        raw = str(parameters.get(name, spec.get("Default", "")))
        known[name] = [p.strip() for p in raw.split(",")] if spec["Type"] == "CommaDelimitedList" else raw
    known.update(values or {})

    def text(value: Any) -> str:
        return ",".join(value) if isinstance(value, list) else str(value)

    def resolve(node: Any) -> Any:
        if isinstance(node, list):
            return [item for item in (resolve(x) for x in node) if item is not NO_VALUE]
        if not isinstance(node, dict):
            return node
        if len(node) == 1:
            ((function, argument),) = node.items()
            if function == "Ref":
                return NO_VALUE if argument == "AWS::NoValue" else known.get(argument, argument)
            if function == "Fn::GetAtt":
                target = argument if isinstance(argument, str) else ".".join(argument)
                return known.get(target, target)
            if function == "Fn::Sub":  # a string, or a string and its own variables
                pattern, variables = (argument, {}) if isinstance(argument, str) else argument
                local = {name: resolve(value) for name, value in variables.items()}

                def value_of(name: str) -> str:
                    return text(local[name] if name in local else resolve({"Fn::GetAtt": name}))

                return re.sub(r"\$\{([^!}]+)\}", lambda m: value_of(m.group(1)), pattern)
            if function == "Fn::If":
                condition, yes, no = argument
                return resolve(yes if holds(template, resolve, {"Condition": condition}) else no)
            if function == "Fn::Join":
                return str(argument[0]).join(text(item) for item in resolve(argument[1]))
            if function == "Fn::Split":
                return text(resolve(argument[1])).split(argument[0])
        return {key: resolve(value) for key, value in node.items()}

    return resolve


def holds(template: dict[str, Any], resolve: Callable[[Any], Any], node: Any) -> bool:
    """A condition's (or a rule's) truth with these parameters."""
    ((function, argument),) = node.items()
    if function == "Condition":
        return holds(template, resolve, template["Conditions"][argument])
    if function == "Fn::Not":
        (inner,) = argument
        return not holds(template, resolve, inner)
    if function == "Fn::Or":
        return any(holds(template, resolve, item) for item in argument)
    if function == "Fn::And":
        return all(holds(template, resolve, item) for item in argument)
    if function == "Fn::Equals":
        return bool(resolve(argument[0]) == resolve(argument[1]))
    if function == "Fn::Contains":  # a Rules function: a value among a list's
        return resolve(argument[1]) in resolve(argument[0])
    raise AssertionError(f"evaluate {function} here")


@cache
def _transformed(uploaded: tuple[tuple[str, str], ...] = ()) -> str:
    from samtranslator.translator.transform import transform

    template = copy.deepcopy(template_yaml())
    template = json.loads(json.dumps(template, default=str))  # the decoder's own node types, as plain data
    uris = dict(uploaded)
    for name, resource in template["Resources"].items():
        props = resource.get("Properties", {})
        for key in ("CodeUri", "ContentUri"):
            if key in props:
                default = f"s3://cronbell-artifacts/{resource['Type'].rsplit('::', 1)[-1]}.zip"
                props[key] = uris.get(name, default)

    class NoManagedPolicies:
        def load(self) -> dict[str, str]:
            return {}

    region = os.environ.get("AWS_DEFAULT_REGION")
    os.environ["AWS_DEFAULT_REGION"] = REGION
    try:
        return json.dumps(transform(template, {}, NoManagedPolicies()))
    finally:
        if region is None:
            os.environ.pop("AWS_DEFAULT_REGION", None)
        else:
            os.environ["AWS_DEFAULT_REGION"] = region


def sam_transformed(uploaded: dict[str, str] | None = None) -> dict[str, Any]:
    """The CloudFormation template the SAM translator makes of template.yaml (a fresh copy); `uploaded`:
    where `sam package` put a resource's code (logical id -> S3 URI), as a new build of it would move it."""
    result: dict[str, Any] = json.loads(_transformed(tuple(sorted((uploaded or {}).items()))))
    return result
