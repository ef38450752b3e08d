"""Assertions on template.yaml: it lints clean, grants least privilege, and wires what the code reads."""

from __future__ import annotations

import re
import string
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import cfnlint.api
import cfnlint.decode
import pytest

from cronbell.core.domain import platforms
from cronbell.settings import PLATFORM_SECRET_ENV

ROOT = Path(__file__).resolve().parents[2]
TEMPLATE = ROOT / "template.yaml"
PROMPTS = ROOT / "functions" / "fire" / "prompts"

TOOLS_ENV = {
    "TABLE_NAME",
    "SCHEDULE_GROUP",
    "FIRE_FUNCTION_ARN",
    "DEFAULT_TIMEZONE",
    "DEFAULT_LOCALE",
    "MAX_PER_ROOM",
    "MIN_INTERVAL_MINUTES",
    "RETENTION_DAYS",
    "CHAT_BACKEND",
    "AGENTS",
    "ALLOWED_OUTPUT_ROOMS",
    "STATIC_SCHEDULES",
    "AGENT_TIMEOUT_SECONDS",
}
FIRE_ENV = {
    "ALLOWED_OUTPUT_ROOMS",  # checked again at every fire
    "TABLE_NAME",
    "SCHEDULE_GROUP",
    "DEFAULT_TIMEZONE",
    "DEFAULT_LOCALE",
    "RETENTION_DAYS",
    "CHAT_BACKEND",
    "MATRIX_HOMESERVER_URL",
    "CHAT_TOKEN_SECRET",
    *PLATFORM_SECRET_ENV.values(),
    "DISCORD_BOT_TOKEN_SECRET",
    "SLACK_INSTALLATION_BUCKET",
    "SLACK_CLIENT_ID",
    "CHAT_WEBHOOK_URL",
    "AGENTS",
    "AGENT_TIMEOUT_SECONDS",
    "AGENT_TIMEOUT_MAX_SECONDS",
}
# each platform's secret parameters (its own, then those it may use instead: a Discord bot's token) and
# their conditions, then the shared one, by the variable that names each (from the platform registry,
# cronbell.core.domain.platforms; each condition is named after its parameter)
SECRET_PARAMETERS = {
    secret.env: (secret.parameter, f"Has{secret.parameter.removesuffix('Arn')}")
    for secret in [
        *(
            need
            for p in platforms.REGISTRY.values()
            for need in (p.secret, *(n for group in p.instead for n in group))
            if need.parameter.endswith("SecretArn")
        ),
        platforms.SHARED_SECRET,
    ]
}
# the Slack app's installation store: read only when both are set, from that bucket and client id only
SLACK_STORE = {
    "s3:GetObject": "arn:${AWS::Partition}:s3:::${SlackInstallationBucket}/${SlackClientId}/*",
    "s3:ListBucket": "arn:${AWS::Partition}:s3:::${SlackInstallationBucket}",
}
SECRET_READERS = ("FireFunction", "ReconcileFunction")  # they post; the tools and the agent never do
# what the code calls (tests/infra/test_iam_coverage.py proves each is used and sufficient)
FIRE_DYNAMO_ACTIONS = {"dynamodb:GetItem", "dynamodb:PutItem", "dynamodb:UpdateItem", "dynamodb:DeleteItem"}
TOOLS_DYNAMO_ACTIONS = FIRE_DYNAMO_ACTIONS | {"dynamodb:Query", "dynamodb:ConditionCheckItem"}
GROUP_SCHEDULES = "arn:${AWS::Partition}:scheduler:${AWS::Region}:${AWS::AccountId}:schedule/${ScheduleGroup}/*"


# ------------------------------------------------------------------ helpers


@pytest.fixture(scope="module")
def template() -> dict[str, Any]:
    decoded, problems = cfnlint.decode.decode(str(TEMPLATE))
    assert not problems, problems
    assert isinstance(decoded, dict)
    return decoded


def _resource(template: dict[str, Any], logical_id: str) -> dict[str, Any]:
    resource = template["Resources"][logical_id]
    assert isinstance(resource, dict)
    return resource


def _props(template: dict[str, Any], logical_id: str) -> dict[str, Any]:
    props = _resource(template, logical_id)["Properties"]
    assert isinstance(props, dict)
    return props


def _as_list(value: Any) -> list[Any]:
    return list(value) if isinstance(value, list) else [value]


def _unwrap_if(node: Any) -> Iterator[Any]:
    """Both branches of an ``Fn::If`` (dropping ``AWS::NoValue``); the node itself otherwise."""
    if isinstance(node, dict) and set(node) == {"Fn::If"}:
        _condition, yes, no = node["Fn::If"]
        for branch in (yes, no):
            yield from _unwrap_if(branch)
    elif node != {"Ref": "AWS::NoValue"}:
        yield node


def references(node: Any) -> set[str]:
    """Logical ids and parameters a value refers to through Ref, GetAtt or Sub."""
    found: set[str] = set()
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "Ref" and isinstance(value, str):
                found.add(value.split(".", 1)[0])  # `FireFunction.Alias`: SAM's reference to its alias
            elif key == "Fn::GetAtt":
                target = value.split(".", 1)[0] if isinstance(value, str) else value[0]
                found.add(str(target))
            elif key == "Fn::Sub":  # a string, or a string and its own variables
                text, variables = (value, {}) if isinstance(value, str) else value
                named = {name.split(".", 1)[0] for name in re.findall(r"\$\{([^!}][^}]*)\}", text)}
                found |= (named - set(variables)) | references(list(variables.values()))
            else:
                found |= references(value)
    elif isinstance(node, list):
        for item in node:
            found |= references(item)
    return {name for name in found if not name.startswith("AWS::")}


def statements_of(document: Any) -> list[dict[str, Any]]:
    statements: list[dict[str, Any]] = []
    for entry in _as_list(document["Statement"]):
        statements.extend(_unwrap_if(entry))
    return statements


def attached_documents(template: dict[str, Any], role: str) -> list[dict[str, Any]]:
    """The documents of the AWS::IAM::Policy resources attached to a role (`Roles: [!Ref role]`)."""
    return [
        resource["Properties"]["PolicyDocument"]
        for resource in template["Resources"].values()
        if resource["Type"] == "AWS::IAM::Policy" and {"Ref": role} in resource["Properties"].get("Roles", [])
    ]


def role_statements(template: dict[str, Any]) -> dict[str, list[dict[str, Any]]]:
    """Every permission statement of the template, by owning resource (roles and SAM functions)."""
    found: dict[str, list[dict[str, Any]]] = {}
    for logical_id, resource in template["Resources"].items():
        props = resource.get("Properties", {})
        if resource["Type"] == "AWS::IAM::Role":
            docs = [policy["PolicyDocument"] for policy in props.get("Policies", [])]
            docs += attached_documents(template, logical_id)
        elif resource["Type"] == "AWS::Serverless::Function":
            docs = list(props.get("Policies", []))
        else:
            continue
        found[logical_id] = [statement for doc in docs for statement in statements_of(doc)]
    return found


# Actions AWS authorizes only on "*" (they have no resource type).
RESOURCE_STAR_ONLY = ("scheduler:ListSchedules",)


def wildcard_findings(statements: list[dict[str, Any]]) -> list[str]:
    """Statements granting a wildcard action, or any action on a bare ``*`` resource."""
    findings = []
    for statement in statements:
        for action in _as_list(statement.get("Action", [])):
            if "*" in str(action):
                findings.append(f"wildcard action {action!r}")
        if "NotAction" in statement or "NotResource" in statement:
            findings.append("NotAction/NotResource")
        for resource in _as_list(statement.get("Resource", [])):
            if resource == "*" and _as_list(statement.get("Action", [])) != list(RESOURCE_STAR_ONLY):
                findings.append(f"bare * resource for {statement.get('Action')!r}")
    return findings


def actions_on(statements: list[dict[str, Any]], action: str) -> list[Any]:
    return [
        resource
        for statement in statements
        if action in _as_list(statement["Action"])
        for resource in _as_list(statement["Resource"])
    ]


# -------------------------------------------------------------------- tests


def test_cfn_lint_reports_nothing() -> None:
    config = cfnlint.api.ManualArgs(regions=["eu-west-1", "us-east-1"], include_checks=["I"])
    findings = cfnlint.api.lint_file(TEMPLATE, config=config)
    assert [str(match) for match in findings] == []


def test_wildcard_checker_catches_wildcards() -> None:
    bad = statements_of(
        {
            "Statement": [
                {"Effect": "Allow", "Action": "dynamodb:*", "Resource": "arn:aws:dynamodb:::table/t"},
                {"Fn::If": ["C", {"Effect": "Allow", "Action": "s3:GetObject", "Resource": ["*"]}, {}]},
            ]
        }
    )
    assert len(wildcard_findings(bad)) == 2


def test_no_statement_grants_wildcards(template: dict[str, Any]) -> None:
    owners = role_statements(template)
    assert {"ToolsFunction", "FireFunction", "EchoAgentFunction", "SchedulerInvokeRole"} <= set(owners)
    for owner, statements in owners.items():
        assert wildcard_findings(statements) == [], owner


def test_functions_use_inline_statements_only(template: dict[str, Any]) -> None:
    for logical_id, resource in template["Resources"].items():
        if resource["Type"] == "AWS::Serverless::Function":
            for policy in resource["Properties"].get("Policies", []):
                assert isinstance(policy, dict) and "Statement" in policy, logical_id


def test_scheduler_role_invokes_only_the_fire_function(template: dict[str, Any]) -> None:
    props = _props(template, "SchedulerInvokeRole")
    (trust,) = props["AssumeRolePolicyDocument"]["Statement"]
    assert trust["Principal"] == {"Service": "scheduler.amazonaws.com"}
    assert trust["Condition"]["StringEquals"]["aws:SourceAccount"] == {"Ref": "AWS::AccountId"}

    statements = role_statements(template)["SchedulerInvokeRole"]
    actions = {action for statement in statements for action in _as_list(statement["Action"])}
    assert actions == {"lambda:InvokeFunction", "sqs:SendMessage"}
    invoked = actions_on(statements, "lambda:InvokeFunction")
    assert invoked and all(references(resource) == {"FireFunction"} for resource in invoked)
    assert [references(r) for r in actions_on(statements, "sqs:SendMessage")] == [{"SchedulerDeadLetterQueue"}]


def test_tools_function_permissions(template: dict[str, Any]) -> None:
    statements = role_statements(template)["ToolsFunction"]
    by_action: dict[str, list[Any]] = {}
    for statement in statements:
        for action in _as_list(statement["Action"]):
            by_action.setdefault(action, []).extend(_as_list(statement["Resource"]))

    for action in TOOLS_DYNAMO_ACTIONS:
        assert [references(r) for r in by_action.pop(action)] == [{"ScheduleTable"}]
    # tool calls write items only: Scheduler is the projector's
    assert not [a for a in by_action if a.startswith("scheduler:") or a == "iam:PassRole"]
    assert [references(r) for r in by_action.pop("lambda:InvokeFunction")] == [{"FireFunction"}]
    assert by_action.pop("events:PutEvents") == [{"Fn::Sub": BUS}]  # Run Acknowledged, on that one bus
    assert by_action == {}


def test_fire_function_permissions(template: dict[str, Any]) -> None:
    statements = role_statements(template)["FireFunction"]
    by_action: dict[str, list[Any]] = {}
    for statement in statements:
        for action in _as_list(statement["Action"]):
            by_action.setdefault(action, []).extend(_as_list(statement["Resource"]))

    # its schedule and its slot in one read; what a quiet-hours release held, in one query
    for action in FIRE_DYNAMO_ACTIONS | {"dynamodb:BatchGetItem", "dynamodb:Query"}:
        assert [references(r) for r in by_action.pop(action)] == [{"ScheduleTable"}]
    # a fire writes items only (an orphan's mark, a repeat's record): Scheduler is the projector's
    assert not [a for a in by_action if a.startswith("scheduler:") or a == "iam:PassRole"]
    assert [references(r) for r in by_action.pop("dynamodb:ConditionCheckItem")] == [{"ScheduleTable"}]
    # the example agent, and AgentFunctions' functions (tests/infra/test_deploy.py proves which)
    assert [references(r) for r in by_action.pop("lambda:InvokeFunction")] == [
        {"EchoAgentFunction"},
        {"AgentFunctions"},
    ]
    assert [references(r) for r in by_action.pop("sqs:SendMessage")] == [{"FireDeadLetterQueue"}]
    assert by_action.pop("secretsmanager:GetSecretValue") == [
        {"Fn::If": [condition, {"Ref": parameter}, {"Ref": "AWS::NoValue"}]}
        for parameter, condition in SECRET_PARAMETERS.values()
    ]
    assert by_action.pop("kms:Decrypt") == [{"Ref": "ChatSecretsKmsKeyArn"}]  # the secrets' own key, when named
    assert by_action.pop("events:PutEvents") == [{"Fn::Sub": BUS}]  # that one bus, nothing else
    for action, resource in SLACK_STORE.items():
        assert by_action.pop(action) == [{"Fn::Sub": resource}]
    assert by_action == {}


BUS = "arn:${AWS::Partition}:events:${AWS::Region}:${AWS::AccountId}:event-bus/${EventBusName}"


@pytest.mark.parametrize(
    ("condition", "parameter", "action"),
    [
        ("HasAnyChatSecret", "", "secretsmanager:GetSecretValue"),
        ("HasEventBus", "EventBusName", "events:PutEvents"),
        ("HasAgentFunctions", "AgentFunctions", "lambda:InvokeFunction"),
    ],
)
def test_optional_statements_exist_only_with_their_parameter(
    template: dict[str, Any], condition: str, parameter: str, action: str
) -> None:
    if parameter:
        assert template["Conditions"][condition] == {"Fn::Not": [{"Fn::Equals": [{"Ref": parameter}, ""]}]}
        assert template["Parameters"][parameter]["Default"] == ""
    (policy,) = _props(template, "FireFunction")["Policies"]
    guarded = {s["Fn::If"][0]: s["Fn::If"][1:] for s in policy["Statement"] if "Fn::If" in s}
    assert set(guarded) == {
        "HasAnyChatSecret",
        "HasChatSecretsKmsKey",
        "HasEventBus",
        "HasAgentFunctions",
        "HasSlackInstallationStore",
    }
    granted, otherwise = guarded[condition]
    assert granted["Action"] == action
    assert otherwise == {"Ref": "AWS::NoValue"}


def test_each_chat_secret_is_granted_only_when_set_and_only_to_the_functions_that_post(
    template: dict[str, Any],
) -> None:
    conditions = template["Conditions"]
    for parameter, condition in SECRET_PARAMETERS.values():
        assert template["Parameters"][parameter]["Default"] == ""
        assert conditions[condition] == {"Fn::Not": [{"Fn::Equals": [{"Ref": parameter}, ""]}]}
    assert conditions["HasAnyChatSecret"] == {
        "Fn::Or": [{"Condition": condition} for _parameter, condition in SECRET_PARAMETERS.values()]
    }
    readers = {}
    for logical_id, statements in role_statements(template).items():
        secrets = [s for s in statements if "secretsmanager:GetSecretValue" in _as_list(s["Action"])]
        if secrets:
            readers[logical_id] = secrets
    assert set(readers) == set(SECRET_READERS)
    assert readers["FireFunction"] == readers["ReconcileFunction"]
    for logical_id in SECRET_READERS:  # each function is told where each secret is
        variables = _props(template, logical_id)["Environment"]["Variables"]
        for name, (parameter, _condition) in SECRET_PARAMETERS.items():
            assert variables[name] == {"Ref": parameter}, (logical_id, name)


def test_a_customer_managed_key_of_the_chat_secrets_is_usable_through_secrets_manager_only_by_their_readers(
    template: dict[str, Any],
) -> None:
    """A secret under a customer-managed key cannot be read without kms:Decrypt on that key: granted when the
    key is named (and some secret is), on that key alone, only by way of Secrets Manager, to the functions
    that read the secrets and to no other."""
    assert template["Parameters"]["ChatSecretsKmsKeyArn"]["Default"] == ""
    assert template["Conditions"]["HasChatSecretsKmsKey"] == {
        "Fn::And": [
            {"Condition": "HasAnyChatSecret"},
            {"Fn::Not": [{"Fn::Equals": [{"Ref": "ChatSecretsKmsKeyArn"}, ""]}]},
        ]
    }
    pattern = re.compile(template["Parameters"]["ChatSecretsKmsKeyArn"]["AllowedPattern"])
    assert pattern.match("arn:aws:kms:eu-west-1:123456789012:key/1234abcd-12ab-34cd-56ef-1234567890ab")
    assert not pattern.match("arn:aws:kms:eu-west-1:123456789012:alias/chat")  # Decrypt names the key, not an alias
    for logical_id, statements in role_statements(template).items():
        kms = [s for s in statements if any(a.startswith("kms:") for a in _as_list(s["Action"]))]
        if logical_id not in SECRET_READERS:
            assert not kms, logical_id
            continue
        (policy,) = _props(template, logical_id)["Policies"]
        guarded = [
            s["Fn::If"] for s in policy["Statement"] if "Fn::If" in s and s["Fn::If"][0] == "HasChatSecretsKmsKey"
        ]
        assert guarded == [
            [
                "HasChatSecretsKmsKey",
                {
                    "Sid": "DecryptChatTokens",
                    "Effect": "Allow",
                    "Action": "kms:Decrypt",
                    "Resource": {"Ref": "ChatSecretsKmsKeyArn"},
                    "Condition": {
                        "StringEquals": {"kms:ViaService": {"Fn::Sub": "secretsmanager.${AWS::Region}.amazonaws.com"}}
                    },
                },
                {"Ref": "AWS::NoValue"},
            ]
        ], logical_id


def test_the_slack_installation_store_is_read_only_when_named_and_by_the_functions_that_post(
    template: dict[str, Any],
) -> None:
    assert template["Conditions"]["HasSlackInstallationStore"] == {
        "Fn::And": [
            {"Fn::Not": [{"Fn::Equals": [{"Ref": "SlackInstallationBucket"}, ""]}]},
            {"Fn::Not": [{"Fn::Equals": [{"Ref": "SlackClientId"}, ""]}]},
        ]
    }
    for logical_id in SECRET_READERS:
        (policy,) = _props(template, logical_id)["Policies"]
        guarded = [s["Fn::If"] for s in policy["Statement"] if "Fn::If" in s]
        store = {g[1]["Action"]: g[1]["Resource"] for g in guarded if g[0] == "HasSlackInstallationStore"}
        assert store == {action: {"Fn::Sub": resource} for action, resource in SLACK_STORE.items()}, logical_id
        assert all(g[2] == {"Ref": "AWS::NoValue"} for g in guarded if g[0] == "HasSlackInstallationStore")
        variables = _props(template, logical_id)["Environment"]["Variables"]
        assert variables["SLACK_INSTALLATION_BUCKET"] == {"Ref": "SlackInstallationBucket"}
        assert variables["SLACK_CLIENT_ID"] == {"Ref": "SlackClientId"}
    for logical_id in ("ToolsFunction", "EchoAgentFunction"):
        statements = role_statements(template).get(logical_id, [])
        assert not [s for s in statements if any(a.startswith("s3:") for a in _as_list(s["Action"]))]


def test_table_keys_ttl_recovery_and_retention(template: dict[str, Any]) -> None:
    table = _resource(template, "ScheduleTable")
    assert table["Type"] == "AWS::DynamoDB::Table"
    assert table["DeletionPolicy"] == table["UpdateReplacePolicy"] == "Retain"
    props = table["Properties"]
    assert props["BillingMode"] == "PAY_PER_REQUEST"
    keys = {key["AttributeName"]: key["KeyType"] for key in props["KeySchema"]}
    assert keys == {"room_id": "HASH", "sk": "RANGE"}
    types = {a["AttributeName"]: a["AttributeType"] for a in props["AttributeDefinitions"]}
    assert types == {"room_id": "S", "sk": "S"}
    assert props["TimeToLiveSpecification"] == {"AttributeName": "expires_at", "Enabled": True}
    assert props["PointInTimeRecoverySpecification"]["PointInTimeRecoveryEnabled"] is True
    assert props["SSESpecification"]["SSEEnabled"] is True


@pytest.mark.parametrize(("logical_id", "names"), [("ToolsFunction", TOOLS_ENV), ("FireFunction", FIRE_ENV)])
def test_function_environment_has_the_names_the_code_reads(
    template: dict[str, Any], logical_id: str, names: set[str]
) -> None:
    variables = _props(template, logical_id)["Environment"]["Variables"]
    assert names <= set(variables)


def test_fire_function_must_not_reference_tools_function(template: dict[str, Any]) -> None:
    assert "ToolsFunction" not in references(_resource(template, "FireFunction"))


def test_timeouts_leave_room_for_the_longest_agent_call(template: dict[str, Any]) -> None:
    fire = _props(template, "FireFunction")
    max_agent = int(fire["Environment"]["Variables"]["AGENT_TIMEOUT_MAX_SECONDS"])
    assert max_agent == 240
    assert fire["Timeout"] >= max_agent + 30
    assert template["Parameters"]["AgentTimeoutSeconds"]["MaxValue"] <= max_agent
    assert _props(template, "EchoAgentFunction")["Timeout"] > max_agent
    assert _props(template, "ToolsFunction")["Timeout"] == 30


def test_fire_function_async_retries_end_in_its_dead_letter_queue(template: dict[str, Any]) -> None:
    config = _props(template, "FireFunction")["EventInvokeConfig"]
    assert config["MaximumRetryAttempts"] == 2
    assert config["MaximumEventAgeInSeconds"] == 21600
    on_failure = config["DestinationConfig"]["OnFailure"]
    assert on_failure["Type"] == "SQS"
    assert references(on_failure["Destination"]) == {"FireDeadLetterQueue"}


def test_the_fire_function_knows_which_attempt_is_lambdas_last(template: dict[str, Any]) -> None:
    """A chat outage on the last attempt is recorded as a failed run: the function's count of
    retries must be the one Lambda uses (set FIRE_RETRIES in the environment if it differs)."""
    from cronbell.settings import Settings

    retries = _props(template, "FireFunction")["EventInvokeConfig"]["MaximumRetryAttempts"]
    environment = _props(template, "FireFunction").get("Environment", {}).get("Variables", {})
    assert int(environment.get("FIRE_RETRIES", Settings.fire_retries)) == retries


def test_a_run_is_called_missed_only_after_every_retry_is_over(template: dict[str, Any]) -> None:
    """The reconciler ends a one-shot whose entry is gone, and a slot whose every attempt died, after
    MISSED_AFTER_SECONDS: Scheduler retries its invoke for up to its event age, then Lambda retries the
    event for up to the function's; a late retry must never find its run called missed."""
    from cronbell.adapters.scheduler import RETRY_POLICY
    from cronbell.settings import Settings

    lambda_age = _props(template, "FireFunction")["EventInvokeConfig"]["MaximumEventAgeInSeconds"]
    environment = _props(template, "ReconcileFunction").get("Environment", {}).get("Variables", {})
    missed_after = int(environment.get("MISSED_AFTER_SECONDS", Settings.missed_after_seconds))
    assert missed_after > RETRY_POLICY["MaximumEventAgeInSeconds"] + lambda_age


def test_layer_builds_for_arm64(template: dict[str, Any]) -> None:
    layer = _resource(template, "CommonLayer")
    assert layer["Properties"]["ContentUri"] == "layers/common/"
    assert layer["Metadata"] == {"BuildMethod": "makefile", "BuildArchitecture": "arm64"}
    # the target sam build runs for a makefile layer, dry run: the layer's content goes under python/
    dry = subprocess.run(
        ["make", "-n", "-f", "layers/common/Makefile", "build-CommonLayer", "ARTIFACTS_DIR=out"],
        cwd=ROOT, capture_output=True, text=True, check=True,
    ).stdout  # fmt: skip
    assert '--target "out/python"' in dry and "--platform manylinux2014_aarch64" in dry and "--no-compile" in dry
    assert "--python-version 3.12" in dry and "--only-binary=:all:" in dry
    assert '"out/python/cronbell"' in dry and "compileall" in dry and "-d /opt/python" in dry
    assert template["Globals"]["Function"]["Architectures"] == ["arm64"]
    for logical_id in ("ToolsFunction", "FireFunction", "ReconcileFunction"):
        assert _props(template, logical_id)["Layers"] == [{"Ref": "CommonLayer"}, {"Ref": "CalendarLayer"}]
    assert "Layers" not in _props(template, "EchoAgentFunction")


def test_the_calendar_layer_ships_the_holiday_code_only(template: dict[str, Any]) -> None:
    layer = _resource(template, "CalendarLayer")
    assert layer["Properties"]["ContentUri"] == "layers/calendars/"
    assert layer["Metadata"] == {"BuildMethod": "makefile", "BuildArchitecture": "arm64"}
    dry = subprocess.run(
        ["make", "-n", "-f", "layers/calendars/Makefile", "build-CalendarLayer", "ARTIFACTS_DIR=out"],
        cwd=ROOT, capture_output=True, text=True, check=True,
    ).stdout  # fmt: skip
    assert '--target "out/python"' in dry and "--platform manylinux2014_aarch64" in dry and "--no-deps" in dry
    assert '"out/python/holidays/locale"' in dry and "compileall" in dry
    code = {name: _props(template, name)["CodeUri"] for name in ("ToolsFunction", "FireFunction", "EchoAgentFunction")}
    assert code == {
        "ToolsFunction": "functions/tools/",
        "FireFunction": "functions/fire/",
        "EchoAgentFunction": "functions/echo_agent/",
    }
    assert (ROOT / code["EchoAgentFunction"] / "app.py").is_file()


def test_daily_analysis_prompt_uses_only_known_placeholders(template: dict[str, Any]) -> None:
    declared = _props(template, "FireFunction")["Environment"]["Variables"]["STATIC_SCHEDULES"]["Fn::If"][1]["Fn::Sub"]
    assert '"prompt_template": "daily-analysis.txt"' in declared
    text = (PROMPTS / "daily-analysis.txt").read_text(encoding="utf-8")
    fields = {name for _, name, _, _ in string.Formatter().parse(text) if name is not None}
    assert fields == {"now", "room_id", "scheduled_time"}
    rendered = text.format(now="2026-01-01T18:00:00+01:00", room_id="!r:x", scheduled_time="2026-01-01T17:00:00Z")
    assert "!r:x" in rendered and "{" not in rendered


def test_outputs(template: dict[str, Any]) -> None:
    assert set(template["Outputs"]) >= {
        "ToolsFunctionName",
        "ToolsFunctionArn",
        "FireFunctionArn",
        "ScheduleTableName",
        "ScheduleGroupName",
        "SchedulerDeadLetterQueueUrl",
        "FireDeadLetterQueueUrl",
        "EchoAgentFunctionArn",
    }


def test_queues_are_encrypted_and_keep_messages_two_weeks(template: dict[str, Any]) -> None:
    for logical_id in ("SchedulerDeadLetterQueue", "FireDeadLetterQueue"):
        props = _props(template, logical_id)
        assert props["SqsManagedSseEnabled"] is True
        assert props["MessageRetentionPeriod"] == 14 * 24 * 3600


def test_globals(template: dict[str, Any]) -> None:
    function = template["Globals"]["Function"]
    assert function["Runtime"] in {"python3.12", "python3.13"}
    assert function["Tracing"] == "Disabled"
    variables = function["Environment"]["Variables"]
    assert variables["POWERTOOLS_SERVICE_NAME"] == "cronbell"
    # the stack's own namespace (tests/infra/test_operations.py: a second stack never reaches its alarms)
    assert variables["POWERTOOLS_METRICS_NAMESPACE"] == {"Fn::Sub": "cronbell/${AWS::StackName}"}
    assert "LOG_LEVEL" in variables


def test_the_scheduler_role_invokes_only_the_fire_functions_alias_and_entries_of_old(
    template: dict[str, Any],
) -> None:
    """Entries target the alias `live`; the function itself only for entries written before there was one
    (they keep firing after an upgrade); never any version (`:*`)."""
    [policy] = attached_documents(template, "SchedulerInvokeRole")
    [invoke] = [s for s in policy["Statement"] if s["Action"] == "lambda:InvokeFunction"]
    assert invoke["Resource"] == [{"Ref": "FireFunction.Alias"}, {"Fn::GetAtt": ["FireFunction", "Arn"]}]


def test_projector_function_permissions(template: dict[str, Any]) -> None:
    """The one writer of Scheduler: its group's entries, the role they pass, and the retirement of a
    schedule Scheduler refuses (with its event); it reads an item that left with runs started by hand
    waiting; its stream records out of retries go to its queue."""
    statements = role_statements(template)["ProjectorFunction"]
    by_action: dict[str, list[Any]] = {}
    for statement in statements:
        for action in _as_list(statement["Action"]):
            by_action.setdefault(action, []).extend(_as_list(statement["Resource"]))

    for action in ("dynamodb:GetItem", "dynamodb:PutItem", "dynamodb:UpdateItem", "dynamodb:DeleteItem"):
        assert [references(r) for r in by_action.pop(action)] == [{"ScheduleTable"}]
    for action in ("GetSchedule", "CreateSchedule", "UpdateSchedule", "DeleteSchedule"):
        assert by_action.pop(f"scheduler:{action}") == [{"Fn::Sub": GROUP_SCHEDULES}]
    assert [references(r) for r in by_action.pop("iam:PassRole")] == [{"SchedulerInvokeRole"}]
    assert [references(r) for r in by_action.pop("sqs:SendMessage")] == [{"ProjectorFailureQueue"}]
    assert by_action.pop("events:PutEvents") == [{"Fn::Sub": BUS}]  # Schedule Failed, on that one bus
    assert by_action == {}

    (pass_role,) = [s for s in statements if "iam:PassRole" in _as_list(s["Action"])]
    assert pass_role["Condition"] == {"StringEquals": {"iam:PassedToService": "scheduler.amazonaws.com"}}


def test_a_secret_parameter_takes_only_a_full_arn(template: dict[str, Any]) -> None:
    """IAM matches a secret's full ARN (with the six characters Secrets Manager adds): a partial one deploys,
    and then every read of it is denied. Each secret parameter refuses it at deploy time."""
    secrets = [name for name in template["Parameters"] if name.endswith("SecretArn")]
    assert len(secrets) >= 6
    full = "arn:aws:secretsmanager:eu-west-1:123456789012:secret:cronbell/matrix-AbCdEf"
    for name in secrets:
        pattern = re.compile(template["Parameters"][name]["AllowedPattern"])
        assert pattern.match(full) and pattern.match(""), name
        assert not pattern.match(full.removesuffix("-AbCdEf")), name


def test_the_table_is_protected_from_deletion_outside_cloudformation_too(template: dict[str, Any]) -> None:
    table = template["Resources"]["ScheduleTable"]
    assert table["DeletionPolicy"] == table["UpdateReplacePolicy"] == "Retain"
    assert table["Properties"]["DeletionProtectionEnabled"] is True


def test_the_template_s_own_schedule_retries_as_every_entry_the_code_writes(template: dict[str, Any]) -> None:
    from cronbell.adapters.scheduler import RETRY_POLICY

    target = template["Resources"]["DailyAnalysisSchedule"]["Properties"]["Target"]
    assert target["RetryPolicy"] == RETRY_POLICY
