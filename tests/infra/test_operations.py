"""What an on-call engineer relies on: every function and every queue of the template is watched by an alarm
and shown on the stack's dashboard, a stack's metrics and alarms are its own (a second stack never alarms the
first), and every deployment goes out as a canary behind the alias `live`, which every caller invokes.

The checks run over every `AWS::Serverless::Function` and `AWS::SQS::Queue` of template.yaml: a function or
queue added later fails them until it has its alarms and its place on the dashboard."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from typing import Any

import pytest

from tests.support.aws import ROOT, template_yaml
from tests.support.cfn import resolver, sam_transformed

STACKS = ("cronbell", "cronbell-dev")  # prod and a dev stack beside it, in one account and Region
ALARM_ACTIONS = {"Fn::If": ["HasAlarmTopic", [{"Ref": "AlarmTopicArn"}], {"Ref": "AWS::NoValue"}]}


def of_type(template: dict[str, Any], kind: str) -> dict[str, dict[str, Any]]:
    return {k: r for k, r in template["Resources"].items() if r["Type"] == kind}


def alarms(stack: str = "cronbell") -> dict[str, dict[str, Any]]:
    """Each alarm's properties, resolved as CloudFormation would for `stack` (a resource's Ref and GetAtt
    resolve to `Name` and `Name.Attr`, so a dimension names the resource it watches)."""
    template = template_yaml()
    resolve = resolver(template, {}, stack_name=stack)
    return {k: resolve(r["Properties"]) for k, r in of_type(template, "AWS::CloudWatch::Alarm").items()}


def watched(properties: dict[str, Any]) -> tuple[str, str, tuple[tuple[str, str], ...]]:
    """What an alarm watches: namespace, metric and dimensions, as CloudWatch matches them (exactly)."""
    dimensions = tuple(sorted((d["Name"], d["Value"]) for d in properties["Dimensions"]))
    return properties["Namespace"], properties["MetricName"], dimensions


# --- alarms: every function, every queue --------------------------------------------------------------


def test_every_function_has_an_errors_and_a_throttles_alarm() -> None:
    functions = of_type(template_yaml(), "AWS::Serverless::Function")
    assert {"ToolsFunction", "FireFunction", "ReconcileFunction", "EchoAgentFunction"} <= set(functions)
    found = {watched(p) for p in alarms().values()}
    for function in functions:
        for metric in ("Errors", "Throttles"):
            assert ("AWS/Lambda", metric, (("FunctionName", function),)) in found, (function, metric)


def test_every_queue_has_a_dead_letter_alarm() -> None:
    """Every queue of the stack holds what failed (Scheduler's dead letters, a function's on-failure events):
    one message waiting is one alarm."""
    queues = of_type(template_yaml(), "AWS::SQS::Queue")
    assert {"SchedulerDeadLetterQueue", "FireDeadLetterQueue"} <= set(queues)
    by_watch = {watched(p): p for p in alarms().values()}
    for queue in queues:
        key = ("AWS/SQS", "ApproximateNumberOfMessagesVisible", (("QueueName", f"{queue}.QueueName"),))
        assert key in by_watch, queue
        alarm = by_watch[key]
        assert (alarm["Statistic"], alarm["Threshold"], alarm["ComparisonOperator"]) == (
            "Maximum",
            0,
            "GreaterThanThreshold",
        ), queue


def test_every_alarm_notifies_the_topic_when_one_is_given() -> None:
    template = template_yaml()
    for logical_id, alarm in of_type(template, "AWS::CloudWatch::Alarm").items():
        assert alarm["Properties"]["AlarmActions"] == ALARM_ACTIONS, logical_id
        assert alarm["Properties"]["TreatMissingData"] == "notBreaching", logical_id
    assert template["Parameters"]["AlarmTopicArn"]["Default"] == ""
    assert template["Conditions"]["HasAlarmTopic"] == {"Fn::Not": [{"Fn::Equals": [{"Ref": "AlarmTopicArn"}, ""]}]}


# --- one stack's metrics are its own -----------------------------------------------------------------


def emitted(stack: str) -> list[dict[str, Any]]:
    """The metric records (CloudWatch embedded metric format) a fire of `stack` writes for one failed run
    and one late delivery: cronbell.observability in a process of its own, with the environment the
    template gives every function of that stack."""
    template = template_yaml()
    variables = resolver(template, {}, stack_name=stack)(template["Globals"]["Function"]["Environment"]["Variables"])
    code = (
        "from cronbell.observability import count, count_run, metrics\n"
        "count_run('failed', 'agent_error')\n"
        "count('FireLatencySeconds', 42)\n"
        "metrics.flush_metrics()\n"
    )
    env = {k: v for k, v in os.environ.items() if not k.startswith("POWERTOOLS_")}
    env.update({**variables, "PYTHONPATH": f"{ROOT / 'layers' / 'common'}"})
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True, timeout=60)
    return [json.loads(line) for line in out.stdout.splitlines() if line.startswith('{"_aws"')]


def datapoints(records: list[dict[str, Any]]) -> set[tuple[str, str, tuple[tuple[str, str], ...]]]:
    """Each (namespace, metric, dimensions) the records put a value on, as CloudWatch stores them."""
    found = set()
    for record in records:
        for directive in record["_aws"]["CloudWatchMetrics"]:
            for dimension_set in directive["Dimensions"]:
                dimensions = tuple(sorted((name, record[name]) for name in dimension_set))
                for metric in directive["Metrics"]:
                    found.add((directive["Namespace"], metric["Name"], dimensions))
    return found


@pytest.fixture(scope="module")
def stack_metrics() -> dict[str, set[tuple[str, str, tuple[tuple[str, str], ...]]]]:
    return {stack: datapoints(emitted(stack)) for stack in STACKS}


def test_a_stacks_failed_runs_reach_its_own_alarm(stack_metrics: dict[str, set[Any]]) -> None:
    for stack in STACKS:
        failed = watched(alarms(stack)["FailedRunsAlarm"])
        assert failed in stack_metrics[stack], stack


def test_a_second_stacks_runs_never_reach_the_first_stacks_alarms(stack_metrics: dict[str, set[Any]]) -> None:
    """dev's failures land in dev's namespace: none of prod's alarms watches anything dev writes, and the
    reverse; the alarms on AWS metrics name the stack's own resources."""
    for stack, other in (STACKS, STACKS[::-1]):
        for logical_id, properties in alarms(stack).items():
            assert watched(properties) not in stack_metrics[other], (stack, logical_id)
    names = [
        {p["Namespace"] for p in alarms(stack).values() if not p["Namespace"].startswith("AWS/")} for stack in STACKS
    ]
    assert names == [{"cronbell/cronbell"}, {"cronbell/cronbell-dev"}]


# --- the dashboard -------------------------------------------------------------------------------------


def dashboard(stack: str = "cronbell") -> tuple[str, list[list[Any]]]:
    """The dashboard's name and every metric line of its widgets, resolved for `stack`."""
    template = template_yaml()
    (props,) = [r["Properties"] for r in of_type(template, "AWS::CloudWatch::Dashboard").values()]
    resolve = resolver(template, {}, stack_name=stack)
    body = json.loads(resolve(props["DashboardBody"]))
    lines = [line for widget in body["widgets"] for line in widget["properties"]["metrics"]]
    return resolve(props["DashboardName"]), lines


def shown(lines: list[list[Any]]) -> set[tuple[str, str, tuple[tuple[str, str], ...]]]:
    found = set()
    for line in lines:
        namespace, metric, *rest = line
        pairs = [item for item in rest if not isinstance(item, dict)]
        found.add((namespace, metric, tuple(sorted(zip(pairs[::2], pairs[1::2], strict=True)))))
    return found


def test_the_dashboard_shows_runs_lateness_dead_letters_and_every_functions_duration(
    stack_metrics: dict[str, set[Any]],
) -> None:
    template = template_yaml()
    name, lines = dashboard()
    on_page = shown(lines)
    for function in of_type(template, "AWS::Serverless::Function"):
        for metric in ("Duration", "Errors", "Throttles"):
            assert ("AWS/Lambda", metric, (("FunctionName", function),)) in on_page, (function, metric)
    for queue in of_type(template, "AWS::SQS::Queue"):
        key = ("AWS/SQS", "ApproximateNumberOfMessagesVisible", (("QueueName", f"{queue}.QueueName"),))
        assert key in on_page, queue
    ours = {line for line in on_page if not line[0].startswith("AWS/")}
    assert {metric for _, metric, _ in ours} >= {"RunsDelivered", "RunsFailed", "FireLatencySeconds"}
    assert {p for p in stack_metrics["cronbell"] if p[1] in ("RunsFailed", "FireLatencySeconds")} & ours
    assert ours.isdisjoint(stack_metrics["cronbell-dev"])  # the dev stack's runs are not on prod's page
    assert name != dashboard("cronbell-dev")[0]  # dashboard names are the account's: one per stack


# --- gradual deployments ----------------------------------------------------------------------------


def alarms_of(function: str) -> set[str]:
    """The alarms that watch one function's own metrics (AWS/Lambda, its FunctionName)."""
    return {
        k
        for k, p in alarms().items()
        if p["Namespace"] == "AWS/Lambda" and watched(p)[2] == (("FunctionName", function),)
    }


def test_every_function_deploys_as_a_canary_that_rolls_back_on_its_alarms() -> None:
    """Each function's deployment watches its own errors and throttles and the stack's failed runs; not the
    queues, whose messages outlive a release (they would stop the next deployments until redriven), nor another
    function's alarms (a function that invokes this one would make a dependency cycle: see below)."""
    template = template_yaml()
    assert template["Globals"]["Function"]["AutoPublishAlias"] == "live"
    assert template["Globals"]["Function"]["DeploymentPreference"]["Type"].startswith("Canary")
    transformed = sam_transformed()
    lambdas = of_type(transformed, "AWS::Lambda::Function")
    groups = of_type(transformed, "AWS::CodeDeploy::DeploymentGroup")
    assert set(groups) == {f"{name}DeploymentGroup" for name in lambdas}
    for name in lambdas:
        props = groups[f"{name}DeploymentGroup"]["Properties"]
        assert props["DeploymentConfigName"]["Fn::Sub"][1]["ConfigName"].startswith("Canary"), name
        assert "DEPLOYMENT_STOP_ON_ALARM" in props["AutoRollbackConfiguration"]["Events"], name
        assert props["AlarmConfiguration"]["Enabled"] is True
        watching = {a["Name"]["Ref"] for a in props["AlarmConfiguration"]["Alarms"]}
        # failed runs watch the fire function alone: a tenant's broken agent must not stop other deployments
        failed_runs = {"FailedRunsAlarm"} if name == "FireFunction" else set()
        assert len(alarms_of(name)) == 2 and watching == alarms_of(name) | failed_runs, name
        alias = transformed["Resources"][f"{name}Aliaslive"]  # traffic moves through the alias, which CodeDeploy shifts
        assert alias["UpdatePolicy"]["CodeDeployLambdaAliasUpdate"]["DeploymentGroupName"] == {
            "Ref": f"{name}DeploymentGroup"
        }


def depends_on(node: Any) -> set[str]:
    """The resources a part of a resource names (Ref, GetAtt, Sub, DependsOn), wherever it does."""
    found: set[str] = set()
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "Ref" and isinstance(value, str):
                found.add(value)
            elif key == "Fn::GetAtt":
                found.add(value.split(".")[0] if isinstance(value, str) else value[0])
            elif key == "Fn::Sub":
                text = value if isinstance(value, str) else value[0]
                found |= {name.split(".")[0] for name in re.findall(r"\$\{([^!}][^}]*)\}", text)}
                found |= depends_on(value if isinstance(value, str) else value[1])
            elif key == "DependsOn":
                found |= set(value if isinstance(value, list) else [value])
            else:
                found |= depends_on(value)
    elif isinstance(node, list):
        for item in node:
            found |= depends_on(item)
    return found


def test_the_stack_has_no_dependency_cycle() -> None:
    """CloudFormation orders resources by every reference, an alias's UpdatePolicy (its deployment group, and
    so that group's alarms) included; a cycle refuses the whole stack."""
    resources = sam_transformed()["Resources"]
    edges = {k: depends_on(r) & set(resources) for k, r in resources.items()}
    done: set[str] = set()

    def visit(node: str, path: tuple[str, ...]) -> None:
        assert node not in path, " -> ".join((*path, node))
        if node in done:
            return
        for target in edges[node]:
            visit(target, (*path, node))
        done.add(node)

    for node in edges:
        visit(node, ())


def function_arn_uses(node: Any, functions: set[str], where: str = "") -> list[str]:
    """Every place that takes a function's own ARN (GetAtt Arn, `${Name.Arn}`): an invocation there would
    run $LATEST, outside the canary."""
    found = []
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "Fn::GetAtt":
                target = value.split(".") if isinstance(value, str) else value
                if target[0] in functions and target[1] == "Arn":
                    found.append(where)
            elif key == "Fn::Sub":
                text = value if isinstance(value, str) else value[0]
                found += [where for name in functions if f"${{{name}.Arn}}" in text]
                found += function_arn_uses(value, functions, where)
            else:
                found += function_arn_uses(value, functions, f"{where}/{key}")
    elif isinstance(node, list):
        for item in node:
            found += function_arn_uses(item, functions, where)
    return found


def test_every_caller_invokes_the_alias() -> None:
    """Scheduler's targets, the functions' permissions to invoke, the ARNs the functions are told (run_now,
    the entries they write, the example agent) and the stack's outputs: the alias, never the function."""
    transformed = sam_transformed()
    functions = set(of_type(transformed, "AWS::Lambda::Function"))
    # the one exception: Scheduler may still invoke the fire function itself, for entries written before the
    # alias (tests/infra/test_template.py); nothing written now names it
    uses = function_arn_uses(transformed["Resources"], functions)
    assert uses == ["/SchedulerInvokePolicy/Properties/PolicyDocument/Statement/Resource"]
    assert function_arn_uses(transformed.get("Outputs", {}), functions) == []
    resources = transformed["Resources"]
    tools_env = resources["ToolsFunction"]["Properties"]["Environment"]["Variables"]
    assert tools_env["FIRE_FUNCTION_ARN"] == {"Ref": "FireFunctionAliaslive"}
    assert tools_env["AGENTS"]["Fn::Sub"][1] == {"Echo": {"Ref": "EchoAgentFunctionAliaslive"}}
    for schedule in of_type(transformed, "AWS::Scheduler::Schedule").values():
        assert schedule["Properties"]["Target"]["Arn"]["Ref"].endswith("Aliaslive")
    assert transformed["Outputs"]["ToolsFunctionArn"]["Value"] == {"Ref": "ToolsFunctionAliaslive"}


def test_the_entries_target_the_alias_the_fire_function_is_published_under() -> None:
    """The projector writes every entry (and the reconciler repairs it) to invoke the fire function's alias."""
    template = template_yaml()
    for logical_id in ("ProjectorFunction", "ReconcileFunction"):
        variables = template["Resources"][logical_id]["Properties"]["Environment"]["Variables"]
        assert variables["FIRE_FUNCTION_ARN"] == {"Ref": "FireFunction.Alias"}, logical_id
