"""What a team deploys: the template's schedules, parameters and rules, read with cfn-lint's decoder and
through the SAM translator (what `sam deploy` hands CloudFormation), resolved with given parameters."""

from __future__ import annotations

import fnmatch
import json
import re
import subprocess
from pathlib import Path
from typing import Any

import pytest

from cronbell.core.domain import models, platforms, routing
from cronbell.settings import Settings, SettingsError, agent_map
from tests.support.aws import ROOT, template_yaml
from tests.support.cfn import holds, resolver, sam_transformed

ECHO_ARN = "arn:aws:lambda:eu-west-1:123456789012:function:cronbell-EchoAgentFunction-x1:live"
RESEARCH = "arn:aws:lambda:eu-west-1:123456789012:function:research-agent"
WRITER = "arn:aws:lambda:eu-west-1:123456789012:function:writer:prod"
INPUT_FILLED = {
    "<aws.scheduler.scheduled-time>": "2026-11-30T17:00:00Z",
    "<aws.scheduler.execution-id>": "e-1",
    "<aws.scheduler.attempt-number>": "1",
}


def schedules(template: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {k: r for k, r in template["Resources"].items() if r["Type"] == "AWS::Scheduler::Schedule"}


# --- 1. every schedule in the stack's own group, behind a role only this account's Scheduler assumes --


def test_no_function_event_makes_a_schedule_of_its_own() -> None:
    """A SAM ScheduleV2 event without GroupName lands in the account's default group (AWS-NOTES)."""
    for logical_id, resource in template_yaml()["Resources"].items():
        for event in (resource.get("Properties", {}).get("Events") or {}).values():
            assert event["Type"] not in ("ScheduleV2", "Schedule"), logical_id


def test_every_schedule_sam_deploys_is_in_the_stack_group_with_a_source_account_role() -> None:
    transformed = sam_transformed()
    found = schedules(transformed)
    assert set(found) == {"ReconcileSchedule", "DailyAnalysisSchedule"}
    group = transformed["Resources"]["ScheduleGroup"]["Properties"]["Name"]
    assert group == {"Fn::Sub": "${AWS::StackName}"}  # one group per stack
    for logical_id, schedule in found.items():
        props = schedule["Properties"]
        assert props["GroupName"] == {"Ref": "ScheduleGroup"}, logical_id
        role_id = props["Target"]["RoleArn"]["Fn::GetAtt"][0]
        role = transformed["Resources"][role_id]["Properties"]
        (trust,) = role["AssumeRolePolicyDocument"]["Statement"]
        assert trust["Principal"] == {"Service": "scheduler.amazonaws.com"}, role_id
        assert trust["Condition"] == {"StringEquals": {"aws:SourceAccount": {"Ref": "AWS::AccountId"}}}, role_id
    # every role Scheduler may assume has the condition
    for logical_id, resource in transformed["Resources"].items():
        if resource["Type"] != "AWS::IAM::Role":
            continue
        statements = resource["Properties"]["AssumeRolePolicyDocument"]["Statement"]
        if any(s["Principal"].get("Service") == "scheduler.amazonaws.com" for s in statements):
            conditions = [s.get("Condition", {}).get("StringEquals", {}) for s in statements]
            assert all("aws:SourceAccount" in condition for condition in conditions), logical_id
    reconcile = transformed["Resources"]["ReconcileInvokeRole"]["Properties"]["Policies"]
    (statement,) = [s for p in reconcile for s in p["PolicyDocument"]["Statement"]]
    alias = {"Ref": "ReconcileFunctionAliaslive"}  # Scheduler invokes the function's alias, as every caller
    assert (statement["Action"], statement["Resource"]) == ("lambda:InvokeFunction", alias)
    assert found["ReconcileSchedule"]["Properties"]["Target"]["Arn"] == alias
    assert found["DailyAnalysisSchedule"]["Properties"]["Target"]["Arn"] == {"Ref": "FireFunctionAliaslive"}


def test_two_stacks_in_one_account_and_region_never_share_a_schedule() -> None:
    """dev beside prod: each (group, name) of one stack differs from every one of the other."""
    template = template_yaml()
    names = []
    for stack in ("cronbell-dev", "cronbell-prod"):
        resolve = resolver(template, {"AnalysisOutputRoom": "!news:example.org"}, stack_name=stack)
        group = resolve(template["Resources"]["ScheduleGroup"]["Properties"]["Name"])
        names.append({(group, resolve(r["Properties"]["Name"])) for r in schedules(template).values()})
    assert len(names[0]) == 2 and not names[0] & names[1]


def test_the_template_schedules_are_never_taken_for_a_schedule_of_cronbell() -> None:
    """The reconciler's orphan sweep and the fire function's orphan removal touch only names that are
    a schedule id's (models.owner_of): never the reconciler's own schedule or the example's."""
    for resource in schedules(template_yaml()).values():
        name = resource["Properties"]["Name"]
        assert re.fullmatch(r"[0-9a-zA-Z_.-]{1,64}", name)
        assert models.owner_of(name) is None, name


# --- 2. the example agent call: off unless a room is given, any platform's room -------------------


def static_settings(room: str, backend: str = "matrix") -> Settings:
    template = template_yaml()
    resolve = resolver(template, {"AnalysisOutputRoom": room, "ChatBackend": backend})
    variables = resolve(template["Resources"]["FireFunction"]["Properties"]["Environment"]["Variables"])
    return Settings.from_env({"STATIC_SCHEDULES": variables["STATIC_SCHEDULES"], "CHAT_BACKEND": backend})


def test_the_example_schedule_is_off_unless_its_room_is_given() -> None:
    template = template_yaml()
    assert template["Parameters"]["AnalysisOutputRoom"]["Default"] == ""
    schedule = template["Resources"]["DailyAnalysisSchedule"]
    assert schedule["Condition"] == "HasAnalysisRoom"
    assert template["Conditions"]["HasAnalysisRoom"] == {
        "Fn::Not": [{"Fn::Equals": [{"Ref": "AnalysisOutputRoom"}, ""]}]
    }
    resolve = resolver(template, {})
    assert not holds(template, resolve, {"Condition": "HasAnalysisRoom"})
    assert static_settings("").static_schedules == {}


@pytest.mark.parametrize(
    ("room", "backend", "key"),
    [
        ("!news:example.org", "matrix", "!news:example.org"),
        ("!opaqueRoomId", "matrix", "!opaqueRoomId"),  # a room id of room version 12: no server part
        ("C0123ABCD", "slack", "C0123ABCD"),
        ("-1001234567890", "telegram", "-1001234567890"),
        ("123456789012345678", "discord", "123456789012345678"),
        ("slack:C0123ABCD", "matrix,slack", "slack\x1fC0123ABCD"),
        ("matrix:!news:example.org", "slack,matrix", "matrix\x1f!news:example.org"),
    ],
)
def test_the_example_schedule_takes_any_platforms_room(room: str, backend: str, key: str) -> None:
    template = template_yaml()
    pattern = re.compile(template["Parameters"]["AnalysisOutputRoom"]["AllowedPattern"])
    assert pattern.fullmatch(room)
    resolve = resolver(template, {"AnalysisOutputRoom": room, "ChatBackend": backend})
    text = resolve(template["Resources"]["DailyAnalysisSchedule"]["Properties"]["Target"]["Input"])
    for placeholder, value in INPUT_FILLED.items():
        text = text.replace(placeholder, value)
    fired = json.loads(text)
    assert fired["room_id"] == room and fired["static"] == "daily-analysis"
    (action,) = static_settings(room, backend).static_schedules.values()
    assert action.room_id == key  # the store's key, which the fire use case derives from the Input too
    assert routing.allowed_key(fired["room_id"], backend.split(",")[0]) == key


def test_the_example_room_pattern_keeps_the_input_json() -> None:
    pattern = re.compile(template_yaml()["Parameters"]["AnalysisOutputRoom"]["AllowedPattern"])
    for bad in ('!a"b:example.org', "!ab\\c:example.org", "!a b:example.org", "C01\t23", "x" * 301):
        assert not pattern.fullmatch(bad), bad


def test_the_example_declaration_is_what_the_input_names() -> None:
    (action,) = static_settings("!news:example.org").static_schedules.values()
    assert (action.name, action.target_agent, action.prompt_template) == (
        "daily-analysis",
        "echo",
        "daily-analysis.txt",
    )
    assert action.timezone == template_yaml()["Parameters"]["AnalysisTimezone"]["Default"]


# --- 3. the chat backend's parameters, checked at deploy time ----------------------------------


def rule_failures(parameters: dict[str, str]) -> list[str]:
    """The AssertDescription of every rule assertion CloudFormation would refuse these parameters with."""
    template = template_yaml()
    resolve = resolver(template, parameters)
    failures = []
    for rule in template["Rules"].values():
        if "RuleCondition" in rule and not holds(template, resolve, rule["RuleCondition"]):
            continue
        failures += [a["AssertDescription"] for a in rule["Assertions"] if not holds(template, resolve, a["Assert"])]
    return failures


def needs_text(platform: platforms.Platform) -> str:
    """What the registry says a platform needs, in the template's parameter names."""
    needed = [need.parameter for need in platform.needs]
    if platform.secret_required:
        others = "".join(f", or {' and '.join(n.parameter for n in group)}" for group in platform.instead)
        needed.append(f"{platform.secret.parameter} (or {platforms.SHARED_SECRET.parameter}{others})")
    return f"ChatBackend {platform.name} needs {' and '.join(needed)}"


def complete(platform: platforms.Platform) -> dict[str, str]:
    values = {need.parameter: "https://chat.example.org" for need in platform.needs}
    if platform.secret_required:
        values[platform.secret.parameter] = "arn:aws:secretsmanager:eu-west-1:123456789012:secret:t-AbCdEf"
    return values


def test_the_template_offers_exactly_the_registrys_platforms() -> None:
    parameters = template_yaml()["Parameters"]
    assert parameters["ChatBackend"]["Type"] == "CommaDelimitedList"
    assert parameters["ChatBackend"]["AllowedValues"] == list(platforms.PLATFORMS)
    assert parameters["ChatBackend"]["Default"] == platforms.PLATFORMS[0]
    for platform in platforms.REGISTRY.values():
        for need in (platform.secret, *platform.needs):
            assert parameters[need.parameter]["Default"] == "", need


@pytest.mark.parametrize("name", platforms.PLATFORMS)
def test_a_backend_without_its_parameters_is_refused_naming_them(name: str) -> None:
    platform = platforms.REGISTRY[name]
    alone = rule_failures({"ChatBackend": name})
    if platform.needs or platform.secret_required:
        assert alone == [needs_text(platform)]
    else:
        assert alone == []
    assert rule_failures({"ChatBackend": name, **complete(platform)}) == []
    if platform.secret_required:  # the shared secret serves too, and each other way the entry names
        shared = {**complete(platform), platform.secret.parameter: "", "ChatTokenSecretArn": "arn:x"}
        assert rule_failures({"ChatBackend": name, **shared}) == []
    for group in platform.instead:
        instead = {**complete(platform), platform.secret.parameter: "", **{n.parameter: "x" for n in group}}
        assert rule_failures({"ChatBackend": name, **instead}) == []
        for left_out in group[1:]:  # a group serves only whole
            assert rule_failures({"ChatBackend": name, **instead, left_out.parameter: ""}) == [needs_text(platform)]


def test_each_configured_backend_is_checked_and_only_those() -> None:
    matrix, slack = platforms.REGISTRY["matrix"], platforms.REGISTRY["slack"]
    assert rule_failures({"ChatBackend": "slack,matrix", **complete(slack)}) == [needs_text(matrix)]
    assert rule_failures({"ChatBackend": "slack,matrix", **complete(slack), **complete(matrix)}) == []
    assert rule_failures({"ChatBackend": "slack", **complete(slack)}) == []  # matrix's own rule sleeps


def test_the_defaults_are_refused_until_the_chat_is_named() -> None:
    """`sam deploy --guided` with every default: matrix, and nothing to reach it with."""
    assert rule_failures({}) == [needs_text(platforms.REGISTRY["matrix"])]


def test_cfn_lint_reads_every_rule_as_written() -> None:
    for rule in template_yaml()["Rules"].values():
        (function,) = rule["RuleCondition"]
        assert function == "Fn::Contains"  # ChatBackend is a list, and Fn::Contains is what Rules offer


# --- 4. one parameter for the team's agents: allowlist and permission ------------------------------


def agents_resolved(value: str) -> tuple[dict[str, str], list[str]]:
    template = template_yaml()
    resolve = resolver(template, {"AgentFunctions": value}, values={"EchoAgentFunction.Alias": ECHO_ARN})
    fire = template["Resources"]["FireFunction"]["Properties"]
    tools_env = resolve(template["Resources"]["ToolsFunction"]["Properties"]["Environment"]["Variables"])
    fire_env = resolve(fire["Environment"]["Variables"])
    assert tools_env["AGENTS"] == fire_env["AGENTS"]
    statements = [s for p in resolve(fire["Policies"]) for s in p["Statement"]]
    invokable = [r for s in statements if s["Action"] == "lambda:InvokeFunction" for r in _list(s["Resource"])]
    return agent_map(fire_env["AGENTS"]), invokable


def _list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else [value]


FUNCTION_ARN = re.compile(r"arn:aws[a-z-]*:lambda:[a-z0-9-]+:[0-9]{12}:function:[A-Za-z0-9_-]{1,64}(:[A-Za-z0-9_$-]+)?")


def invokes(resources: list[str], arn: str) -> bool:
    return any(fnmatch.fnmatchcase(arn, resource) for resource in resources)


def test_without_agent_functions_only_the_echo_agent() -> None:
    allowlist, resources = agents_resolved("")
    assert allowlist == {"echo": ECHO_ARN}
    assert resources == [ECHO_ARN]


def test_agent_functions_feed_the_allowlist_and_exactly_their_permission() -> None:
    allowlist, resources = agents_resolved(f"research={RESEARCH},writer={WRITER}")
    assert allowlist == {"echo": ECHO_ARN, "research": RESEARCH, "writer": WRITER}
    for arn in allowlist.values():
        assert invokes(resources, arn), arn
    # what else the statement names can be no function: the agent ids, as ARNs with a "." in the name
    extra = [r for r in resources if r not in allowlist.values()]
    assert extra and all(not FUNCTION_ARN.fullmatch(r) and "*" not in r for r in extra), extra
    for other in (RESEARCH + "-2", WRITER.rsplit(":", 1)[0], "arn:aws:lambda:eu-west-1:123456789012:function:research"):
        assert not invokes(resources, other), other


def test_the_agent_functions_pattern_takes_only_id_and_arn_pairs() -> None:
    pattern = re.compile(template_yaml()["Parameters"]["AgentFunctions"]["AllowedPattern"])
    for good in ("", f"research={RESEARCH}", f"research={RESEARCH},writer={WRITER}"):
        assert pattern.fullmatch(good), good
    for bad in (
        "research",
        "research=research-agent",
        f"re.search={RESEARCH}",
        f"research={RESEARCH},",
        f"a=b,{RESEARCH}",
        f"echo={RESEARCH}",  # the example agent's id: AGENTS would name it twice, and every function then fails
        f"writer={WRITER},echo={RESEARCH}",
        f"research={RESEARCH},writer={WRITER},research={WRITER}",  # an id twice
    ):
        assert not pattern.fullmatch(bad), bad
    for good in (f"myecho={RESEARCH},echoes={WRITER}", f"ab={RESEARCH},b={WRITER}", f"b={RESEARCH},bb={WRITER}"):
        assert pattern.fullmatch(good), good


def test_an_agent_id_given_twice_is_refused_at_start() -> None:
    with pytest.raises(SettingsError, match="AGENTS must be one function per agent id"):
        Settings.from_env({"AGENTS": f"echo={ECHO_ARN},echo={RESEARCH}"})


# --- what the functions are told alike -------------------------------------------------------------


@pytest.mark.parametrize("variable", ["CHAT_BACKEND", "AGENTS", "STATIC_SCHEDULES", "DEFAULT_TIMEZONE"])
def test_the_functions_that_read_a_setting_are_told_the_same(variable: str) -> None:
    """The tools function routes a context's room by the chat backends as the fire function delivers
    by them: a Slack room created through the tools is the Slack room the fire posts to."""
    template = template_yaml()
    resolve = resolver(template, {"ChatBackend": "slack,matrix", "AnalysisOutputRoom": "slack:C0123"})
    told = {
        logical_id: resolve(template["Resources"][logical_id]["Properties"]["Environment"]["Variables"]).get(variable)
        for logical_id in ("ToolsFunction", "FireFunction", "ReconcileFunction")
    }
    assert told["ToolsFunction"] == told["FireFunction"] is not None
    assert told["ReconcileFunction"] in (None, told["FireFunction"])


def test_list_reminders_shows_the_template_schedule_of_its_room_read_only() -> None:
    from datetime import UTC, datetime

    from cronbell.core.domain.cron.expressions import eventbridge_expressions
    from cronbell.core.language.recurring import parse_recurring
    from cronbell.core.text.views import template_schedule_view

    (action,) = static_settings("!news:example.org").static_schedules.values()
    expression = template_yaml()["Resources"]["DailyAnalysisSchedule"]["Properties"]["ScheduleExpression"]
    assert eventbridge_expressions(parse_recurring(action.cron_expr, 1)) == [expression]  # the same time, twice
    view = template_schedule_view(action, datetime(2026, 12, 4, 18, 30, tzinfo=UTC))
    assert view["read_only"] is True and view["name"] == "daily-analysis" and view["target_agent"] == "echo"
    assert view["next_fire"] == {"local": "2026-12-05T18:00:00+00:00", "utc": "2026-12-05T18:00:00Z"}


# --- 5. what `sam deploy --guided` asks, and what samconfig.toml pins --------------------------------

FIRST_ASKED = ["DefaultTimezone", "DefaultLocale", "ToolSet", "AgentFunctions", "AnalysisOutputRoom"]


def test_guided_deploy_asks_the_chat_and_the_defaults_first() -> None:
    """`sam deploy --guided` asks the parameters in the template's order."""
    order = list(template_yaml()["Parameters"])
    chat = ["ChatBackend"] + [
        need.parameter
        for p in platforms.REGISTRY.values()
        for need in (*p.needs, p.secret, *(n for group in p.instead for n in group))
    ]
    asked_first = order[: len(set(chat)) + 1 + len(FIRST_ASKED)]
    assert asked_first[0] == "ChatBackend"
    assert set(asked_first) == set(chat) | {platforms.SHARED_SECRET.parameter} | set(FIRST_ASKED)
    for name in order[len(asked_first) :]:  # everything asked later keeps a default
        assert "Default" in template_yaml()["Parameters"][name], name


SAM_PYTHON = ROOT / ".venv-sam" / "bin" / "python"


def sam_guided_answers(template: Path) -> dict[str, Any]:
    """What `sam deploy --guided` makes of Enter on every parameter of `template` (tests/support/sam_guided.py,
    run by the SAM CLI's own Python; `make build` installs it, and so does this, once)."""
    if not SAM_PYTHON.exists():
        subprocess.run(["make", "-s", ".venv-sam/.installed"], cwd=ROOT, check=True, capture_output=True, timeout=900)
    script = ROOT / "tests" / "support" / "sam_guided.py"
    command = [str(SAM_PYTHON), "-I", str(script), str(template)]  # -I: not the script's folder on sys.path
    out = subprocess.run(command, capture_output=True, text=True, check=True, timeout=120)
    answers: dict[str, Any] = json.loads(out.stdout)
    return answers


def test_guided_deploy_takes_enter_on_every_optional_parameter(tmp_path: Path) -> None:
    """The SAM CLI asks a NoEcho parameter with no default and asks again on Enter: each optional parameter
    keeps its default; a NoEcho one would hold the guided deploy (as ChatWebhookUrl once did)."""
    parameters = template_yaml()["Parameters"]
    answers = sam_guided_answers(ROOT / "template.yaml")
    assert answers == {name: str(spec.get("Default", "")) for name, spec in parameters.items()}
    hidden = (
        (ROOT / "template.yaml")
        .read_text(encoding="utf-8")
        .replace("  ChatWebhookUrl:\n    Type: String\n", "  ChatWebhookUrl:\n    Type: String\n    NoEcho: true\n")
    )
    (tmp_path / "template.yaml").write_text(hidden, encoding="utf-8")
    assert sam_guided_answers(tmp_path / "template.yaml") == {"aborted": True}


def test_only_a_required_parameter_may_be_noecho() -> None:
    """The rule the SAM CLI's prompting makes: NoEcho only where a value must be typed anyway (secrets
    themselves stay in Secrets Manager; the template takes their ARNs)."""
    for name, spec in template_yaml()["Parameters"].items():
        if spec.get("NoEcho"):
            assert "Default" not in spec, name


def test_every_parameter_is_in_one_console_group_in_the_asking_order() -> None:
    groups = template_yaml()["Metadata"]["AWS::CloudFormation::Interface"]["ParameterGroups"]
    grouped = [name for group in groups for name in group["Parameters"]]
    order = list(template_yaml()["Parameters"])
    assert sorted(grouped) == sorted(order) and len(set(grouped)) == len(grouped)
    chat = len(groups[0]["Parameters"])
    assert grouped[:chat] == order[:chat]  # the chat delivery group leads, as the guided questions do


def test_samconfig_pins_no_region_zone_or_platform() -> None:
    import tomllib

    config = tomllib.loads((ROOT / "samconfig.toml").read_text(encoding="utf-8"))
    for env in config.values():
        if not isinstance(env, dict):
            continue
        for command in env.values():
            assert "region" not in command
            assert "parameter_overrides" not in command
    assert (
        config["default"]["global"]["parameters"]["stack_name"] != config["dev"]["global"]["parameters"]["stack_name"]
    )
    assert template_yaml()["Parameters"]["DefaultTimezone"]["Default"] == "UTC"
    assert template_yaml()["Parameters"]["AnalysisTimezone"]["Default"] == "UTC"


def test_a_release_that_changes_only_a_layer_publishes_a_version_behind_every_alias_using_it() -> None:
    """The code is mostly in the layers. SAM named a function's version after its own code, environment
    and memory only, so a release that changed only a layer published no version: the `live` alias,
    which every caller invokes, kept the old code while the bare function ran the new one."""

    def versions(uploaded: dict[str, str]) -> dict[str, str]:
        resources = sam_transformed(uploaded)["Resources"]
        return {name.split("Version")[0]: name for name, r in resources.items() if r["Type"] == "AWS::Lambda::Version"}

    before = versions({})
    for layer in ("CommonLayer", "CalendarLayer"):
        after = versions({layer: f"s3://cronbell-artifacts/{layer}-next.zip"})
        using = {
            name
            for name, r in template_yaml()["Resources"].items()
            if r["Type"] == "AWS::Serverless::Function" and {"Ref": layer} in r["Properties"].get("Layers", [])
        }
        assert using, layer
        assert {name for name in before if before[name] != after[name]} == using, layer
    assert versions({}) == before  # the same build: the same versions, nothing published


def test_what_sam_delete_leaves_is_the_table_alone() -> None:
    """The README's "What `sam delete` leaves": the table is retained; every log group is the stack's,
    named after its function, and deleted with it."""
    resources = sam_transformed()["Resources"]
    retained = {k for k, r in resources.items() if r.get("DeletionPolicy") == "Retain"}
    # SAM retains each published version (a rollback needs the previous one); deleting the function
    # deletes its versions with it
    versions = {k for k, r in resources.items() if r["Type"] == "AWS::Lambda::Version"}
    assert {resources[k]["Properties"]["FunctionName"]["Ref"] for k in versions} == {
        k for k, r in resources.items() if r["Type"] == "AWS::Lambda::Function"
    }
    assert retained - versions == {"ScheduleTable"}
    groups = {k: r for k, r in resources.items() if r["Type"] == "AWS::Logs::LogGroup"}
    functions = {k for k, r in resources.items() if r["Type"] == "AWS::Lambda::Function"}
    named = {r["Properties"]["LogGroupName"]["Fn::Sub"] for r in groups.values()}
    assert named == {f"/aws/lambda/${{{f}}}" for f in functions}
    assert all(r["DeletionPolicy"] == "Delete" for r in groups.values())
    assert all(r["Properties"]["RetentionInDays"] == {"Ref": "LogRetentionInDays"} for r in groups.values())
