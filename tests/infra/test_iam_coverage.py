"""Least privilege, checked against behaviour: every AWS call the handlers make in a representative run is
allowed by their policy in template.yaml on the right resource, and the policies grant nothing unused.

The run goes through the real handlers on moto (every tool; fires of a one-shot, a recurring reminder, an
agent job, a run_now, a deleted schedule, an orphan entry, the static daily analysis and a retried post)
in a deployment with every chat platform, each reading its token from its own Secrets Manager secret (a
local HTTP server plays each platform). Every botocore call is recorded and mapped to the IAM actions AWS
authorizes it with; the template's statements are resolved with the run's parameters (conditions
evaluated) and ARNs, and evaluated. A deployment with the one shared secret of old is checked too.
"""

from __future__ import annotations

import fnmatch
import io
import json
import re
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from typing import Any

import boto3
import pytest
from aws_lambda_powertools.utilities import parameters
from botocore.client import BaseClient
from botocore.exceptions import ClientError
from cfnlint.decode import decode

from cronbell.adapters import clock as clock_module
from cronbell.core.domain import platforms
from cronbell.core.domain.instants import iso_utc
from cronbell.core.domain.routing import room_key
from cronbell.settings import PLATFORM_SECRET_ENV
from cronbell.usecases.fire import RetryLater
from tests.support.aws import ACCOUNT, FIRE_ARN, GROUP, REGION, ROLE_ARN, ROOT, START, TABLE, FakeClock, provision
from tests.support.envelopes import ROOM, envelope
from tests.support.fake_platform import DISCORD_OK, SLACK_OK, TELEGRAM_OK, FakePlatform, Reply
from tests.support.handlers import invoke
from tests.support.lambda_timing import at_slot
from tests.support.matrix_stand_in import ECHO_ARN, MatrixStandIn, forget_wiring, matrix_env, matrix_secret

TOKEN = "syt_iam_coverage_token"
FLAKY_ROOM = "!flaky:example.org"
FIRE_DLQ_ARN = f"arn:aws:sqs:{REGION}:{ACCOUNT}:cronbell-fire-dlq"
PROJECTOR_QUEUE_ARN = f"arn:aws:sqs:{REGION}:{ACCOUNT}:cronbell-projector-failures"
EVENT_BUS = "cronbell-runs"
# a room on each platform besides Matrix (the default), and the template parameter of each one's secret
PLATFORM_ROOMS = {"slack": "C0IAM", "telegram": "-1001234567890", "discord": "ops", "webhook": "hook-room"}
SECRET_PARAMETERS = {p.name: p.secret.parameter for p in platforms.REGISTRY.values()}

# TransactWriteItems has no IAM action of its own: each item is authorized as its single-item action.
TRANSACT_ITEM_ACTIONS = {
    "Put": "dynamodb:PutItem",
    "Update": "dynamodb:UpdateItem",
    "Delete": "dynamodb:DeleteItem",
    "ConditionCheck": "dynamodb:ConditionCheckItem",
}

# Granted but not called by the code, each for a reason.
DELIBERATE_EXTRAS = {
    ("FireFunction", "sqs:SendMessage"): "Lambda sends failed async events to the OnFailure destination with it",
    ("ProjectorFunction", "sqs:SendMessage"): "Lambda sends stream records out of retries to the OnFailure queue",
}


# --- what a call needs ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Need:
    action: str
    resource: str
    context: tuple[tuple[str, str], ...] = ()  # condition keys the request carries


@dataclass(frozen=True)
class Call:
    service: str
    operation: str
    params: dict[str, Any] = field(hash=False)


def function_arn(name: str) -> str:
    return name if name.startswith("arn:") else f"arn:aws:lambda:{REGION}:{ACCOUNT}:function:{name}"


def needs(call: Call) -> list[Need]:
    """The IAM actions and resources AWS checks for one API call."""
    service, operation, params = call.service, call.operation, call.params
    if service == "dynamodb":
        table = lambda name: f"arn:aws:dynamodb:{REGION}:{ACCOUNT}:table/{name}"  # noqa: E731
        if operation == "TransactWriteItems":
            return [
                Need(TRANSACT_ITEM_ACTIONS[kind], table(body["TableName"]))
                for item in params["TransactItems"]
                for kind, body in item.items()
            ]
        if operation == "BatchGetItem":  # one check per table read
            return [Need("dynamodb:BatchGetItem", table(name)) for name in params["RequestItems"]]
        return [Need(f"dynamodb:{operation}", table(params["TableName"]))]
    if service == "scheduler":
        if operation == "ListSchedules":
            return [Need("scheduler:ListSchedules", "*")]
        arn = f"arn:aws:scheduler:{REGION}:{ACCOUNT}:schedule/{params['GroupName']}/{params['Name']}"
        found = [Need(f"scheduler:{operation}", arn)]
        if operation in ("CreateSchedule", "UpdateSchedule"):  # Scheduler checks the caller may pass the role
            passed = (("iam:PassedToService", "scheduler.amazonaws.com"),)
            found.append(Need("iam:PassRole", params["Target"]["RoleArn"], passed))
        return found
    if service == "lambda" and operation == "Invoke":
        return [Need("lambda:InvokeFunction", function_arn(params["FunctionName"]))]
    if service == "secretsmanager":
        return [Need(f"secretsmanager:{operation}", params["SecretId"])]
    if service == "events" and operation == "PutEvents":
        buses = {entry.get("EventBusName", "default") for entry in params["Entries"]}
        return [Need("events:PutEvents", f"arn:aws:events:{REGION}:{ACCOUNT}:event-bus/{bus}") for bus in buses]
    raise AssertionError(f"no IAM mapping for {service}:{operation}; add one to needs()")


# --- recording the run ---------------------------------------------------------------------------


@dataclass
class Recording:
    calls: dict[str, list[Call]] = field(default_factory=dict)
    current: str = ""  # the function whose handler is running
    fire_events: list[dict[str, Any]] = field(default_factory=list)  # run_now's async invocations
    refuse: str = ""  # an expression Scheduler refuses to write (once IAM allowed the call)

    def under(self, function: str, run: Callable[[], Any]) -> Any:
        self.current = function
        try:
            return run()
        finally:
            self.current = ""

    def fake_invoke(self, params: dict[str, Any]) -> dict[str, Any]:
        """Lambda's Invoke as AWS would answer it: run_now's async event is kept for the fire function,
        an agent call is answered by the echo agent's handler."""
        payload = json.loads(params["Payload"])
        if params.get("InvocationType") == "Event":
            assert function_arn(params["FunctionName"]) == FIRE_ARN, params
            self.fire_events.append(payload)
            return {"StatusCode": 202, "Payload": io.BytesIO(b"")}
        assert function_arn(params["FunctionName"]) == ECHO_ARN, params
        answer = invoke("echo_agent", payload)
        return {"StatusCode": 200, "Payload": io.BytesIO(json.dumps(answer).encode())}


def record(recording: Recording, original: Callable[..., Any]) -> Callable[..., Any]:
    def api_call(client: BaseClient, operation: str, params: dict[str, Any]) -> Any:
        if not recording.current:
            return original(client, operation, params)
        service = client.meta.service_model.signing_name
        recording.calls.setdefault(recording.current, []).append(Call(service, operation, params))
        if service == "lambda" and operation == "Invoke":
            return recording.fake_invoke(params)
        if (
            service == "scheduler"
            and operation.endswith("Schedule")
            and params.get("ScheduleExpression") == recording.refuse
        ):
            error = {"Error": {"Code": "ValidationException", "Message": "Invalid Schedule Expression"}}
            raise ClientError(error, operation)
        return original(client, operation, params)

    return api_call


def ok(answer: dict[str, Any]) -> dict[str, Any]:
    assert answer["ok"], answer
    result: dict[str, Any] = answer["result"]
    return result


def daily_analysis_input() -> dict[str, Any]:
    """The static schedule's Input exactly as template.yaml declares it, rendered for this run."""
    text = template()["Resources"]["DailyAnalysisSchedule"]["Properties"]["Target"]["Input"]["Fn::Sub"]
    rendered: dict[str, Any] = json.loads(text.replace("${AnalysisOutputRoom}", ROOM))
    return {**rendered, "scheduled_time": "2026-11-30T17:00:00Z", "execution_id": "e", "attempt": "1"}


def scenario(rec: Recording, stack: Any, clock: FakeClock) -> None:
    def project() -> None:
        """The projector, fed what the stream holds since it last ran (as Lambda's mapping does), and then
        the changes its own writes made (a retired schedule moved), until the stream is read to its end."""
        while (event := stack.stream_event())["Records"]:
            assert rec.under("ProjectorFunction", lambda: invoke("projector", event)) == {"batchItemFailures": []}

    def tool(name: str, args: dict[str, Any], room: str = ROOM, platform: str = "") -> dict[str, Any]:
        event = envelope(name, args, room=room)
        if platform:
            event["context"]["platform"] = platform
        answer: dict[str, Any] = rec.under("ToolsFunction", lambda: invoke("tools", event))
        project()
        return answer

    def on_each_platform(message: str, time: str) -> dict[str, str]:
        """A one-shot in a room of each platform besides Matrix: platform -> its fire Input's room key."""
        made = {}
        for platform, room in PLATFORM_ROOMS.items():
            made[platform] = ok(tool("create_reminder", {"message": message, "time": time}, room, platform))["id"]
        return made

    def fire(event: dict[str, Any], late_seconds: int = 0) -> str:
        """A fire at its scheduled time (plus `late_seconds`); the scenario's clock then goes on
        from where it was."""
        was = clock.current
        at_slot(clock, event)
        clock.advance(seconds=late_seconds)
        try:
            result = rec.under("FireFunction", lambda: invoke("fire", event))
        except RetryLater:
            return "retry"
        finally:
            clock.current = was
            project()
        return str(result["outcome"])

    def slot(sid: str, at: str, room: str = ROOM) -> dict[str, Any]:
        return {"room_id": room, "reminder_id": sid, "scheduled_time": at, "execution_id": "e", "attempt": "1"}

    once = ok(tool("create_reminder", {"message": "Call mum", "time": "2026-11-30 10:00"}))["id"]
    pills = {"message": "Pills", "time": "2026-11-30 10:00", "repeat_every": 10, "repeat_times": 1}
    pills_id = ok(tool("create_reminder", pills))["id"]
    elsewhere = on_each_platform("Call mum", "2026-11-30 10:00")
    rent = ok(tool("create_reminder", {"message": "Pay rent", "cron": "0 9 1 * 5"}))["id"]
    assert ok(tool("create_reminder", {"message": "Pay rent", "cron": "0 9 1 * FRI"}))["duplicate"] is True
    plants = ok(tool("create_reminder", {"message": "Water", "cron": "0 9 * * *"}, room=FLAKY_ROOM))["id"]
    digest = ok(tool("cron_create", {"name": "digest", "prompt": "Summarise", "cron_expr": "0 18 * * *"}))["id"]
    ok(tool("list_reminders", {"include_inactive": True}))
    ok(tool("cron_list", {}))
    ok(tool("update_reminder", {"id": rent, "message": "Pay the rent"}))
    ok(tool("update_reminder", {"id": "digest", "cron": "0 19 * * *"}))
    ok(tool("pause_reminder", {"id": digest}))
    ok(tool("resume_reminder", {"id": digest}))
    ok(tool("snooze_reminder", {"id": rent, "minutes": 30}))
    ok(tool("skip_next", {"id": plants}, room=FLAKY_ROOM))
    assert ok(tool("run_now", {"target": "digest"}))["started"] is True
    ok(tool("delete_reminder", {"id": rent}))
    rec.refuse = "cron(17 4 * * ? *)"  # refused: the schedule ends failed, with its event
    refused = ok(tool("cron_create", {"name": "refused", "prompt": "p", "cron_expr": "17 4 * * *", "timezone": "UTC"}))
    listed = ok(tool("list_reminders", {"include_inactive": True}))["schedules"]
    assert [s["status"] for s in listed if s["id"] == refused["id"]] == ["failed"]

    waits = ok(tool("create_reminder", {"message": "Waited for", "time": "2026-11-30 10:00"}))["id"]
    stack.ddb.update_item(  # a run started by hand waits for its delivery (the projector reads it again)
        TableName=TABLE,
        Key={"room_id": {"S": ROOM}, "sk": {"S": f"s#{waits}"}},
        UpdateExpression="ADD manual_waiting :w",
        ExpressionAttributeValues={":w": {"SS": ["2026-11-30T09:00:30Z"]}},
    )
    project()

    clock.advance(hours=1)
    assert fire(slot(once, "2026-11-30T09:00:00Z")) == "delivered"  # token from Secrets Manager, marked fired
    assert fire(slot(waits, "2026-11-30T09:00:00Z")) == "delivered"  # its waiting run's entry is kept
    assert f"{waits}-now" in stack.entries()
    assert fire(slot(pills_id, "2026-11-30T09:00:00Z")) == "delivered"  # writes its first repeat's entry
    repeat = {**slot(pills_id, "2026-11-30T09:10:00Z"), "repeat_of": "2026-11-30T09:00:00Z", "repeat": 1}
    assert fire(repeat) == "repeated"  # claimed on the run, while the occurrence is current
    assert ok(tool("done_reminder", {"id": pills_id}))["acknowledged"] is True
    for platform, sid in elsewhere.items():  # each platform's token from its own secret
        room = room_key(platform, PLATFORM_ROOMS[platform], "matrix")
        assert fire(slot(sid, "2026-11-30T09:00:00Z", room=room)) == "delivered", platform
    assert fire(slot(digest, "2026-11-30T18:00:00Z")) == "delivered"  # agent call, recurring
    [run_now] = rec.fire_events
    assert fire(run_now) == "delivered"
    assert fire(slot(rent, "2026-12-04T08:00:00Z")) == "inactive"  # deleted: leftover entries removed
    stack.scheduler.create_schedule(
        Name="orphan2345",
        GroupName=GROUP,
        ScheduleExpression="cron(0 9 * * ? *)",
        FlexibleTimeWindow={"Mode": "OFF"},
        Target={"Arn": FIRE_ARN, "RoleArn": ROLE_ARN, "Input": json.dumps(slot("orphan2345", "x"))},
    )
    assert fire(slot("orphan2345", "2026-12-01T08:00:00Z"), late_seconds=120) == "unknown_schedule"
    assert "orphan2345" not in stack.entries()
    assert fire(slot(plants, "2026-12-02T08:00:00Z", room=FLAKY_ROOM)) == "retry"  # claim given back
    assert fire(daily_analysis_input()) == "delivered"
    assert fire({**daily_analysis_input(), "room_id": FLAKY_ROOM}) == "invalid_input"  # pinned to its room
    late = ok(tool("create_reminder", {"message": "Late pills", "time": "2026-11-30 23:00"}))["id"]
    ok(tool("set_quiet_hours", {"start": "22:00", "end": "07:00"}))  # set after: its time is not chosen in them
    assert fire(slot(late, "2026-11-30T22:00:00Z")) == "held"  # held: its user's rule read, the hold written
    (entry,) = [e for e in stack.entries().values() if "release_user" in e["Target"]["Input"]]
    release = {**json.loads(entry["Target"]["Input"]), "execution_id": "e", "attempt": "1"}
    release["scheduled_time"] = entry["ScheduleExpression"][3:-1] + "Z"
    assert fire(release) == "released"  # what it held, queried and posted
    ok(tool("clear_quiet_hours", {}))
    ok(tool("cron_delete", {"id": digest}))

    # drift for the reconciler: a lost entry, a lost one-shot, an orphan, a stale counter, and a
    # schedule deleted the way deletes worked before retired schedules had keys of their own (its
    # item alone marked deleted: the counter high, its pointer left, the item under its live key)
    legacy = ok(tool("create_reminder", {"message": "Legacy", "cron": "0 7 * * *"}))["id"]
    stack.ddb.update_item(
        TableName=TABLE,
        Key={"room_id": {"S": ROOM}, "sk": {"S": f"s#{legacy}"}},
        UpdateExpression="SET #s = :d",
        ExpressionAttributeNames={"#s": "status"},
        ExpressionAttributeValues={":d": {"S": "deleted"}},
    )
    stack.stream_records()  # its change never reached the projector (which would have moved it)
    stack.scheduler.delete_schedule(Name=legacy, GroupName=GROUP)
    daily = ok(tool("create_reminder", {"message": "Stretch", "cron": "30 9 * * *"}))["id"]
    lost = ok(tool("create_reminder", {"message": "Lost", "time": "2026-11-30 11:30"}))["id"]
    lost_elsewhere = on_each_platform("Lost", "2026-11-30 11:30")  # their notices need each platform's token
    for name in (daily, lost, *lost_elsewhere.values()):
        stack.scheduler.delete_schedule(Name=name, GroupName=GROUP)
    drifted = ok(tool("create_reminder", {"message": "Drifted", "cron": "0 8 * * *"}))["id"]
    project()
    entry = stack.scheduler.get_schedule(Name=drifted, GroupName=GROUP)  # edited behind cronbell's back
    kept = ("Name", "GroupName", "ScheduleExpressionTimezone", "FlexibleTimeWindow", "Target", "State")
    stack.scheduler.update_schedule(**{k: entry[k] for k in kept if k in entry}, ScheduleExpression="cron(0 3 * * ? *)")
    stack.scheduler.create_schedule(
        Name="abcdefghjk",
        GroupName=GROUP,
        ScheduleExpression="cron(0 9 * * ? *)",
        FlexibleTimeWindow={"Mode": "OFF"},
        Description=f"cronbell message in {ROOM}; written {iso_utc(clock.now())}",
        Target={"Arn": FIRE_ARN, "RoleArn": ROLE_ARN, "Input": json.dumps(slot("abcdefghjk", "x"))},
    )
    stack.ddb.update_item(
        TableName=TABLE,
        Key={"room_id": {"S": FLAKY_ROOM}, "sk": {"S": "room"}},
        UpdateExpression="SET live = :n",
        ExpressionAttributeValues={":n": {"N": "9"}},
    )
    clock.advance(hours=9)
    parameters.clear_caches()  # a separate function: its own process, its own cache of the token
    report = rec.under("ReconcileFunction", lambda: invoke("reconcile", {}))
    project()
    assert report["recreated"] == 1 and report["missed"] == 5 and report["notices"] == 5, str(report)
    assert report["drift_repaired"] == 1, str(report)  # UpdateSchedule: an entry that is there, put right
    # orphans: the one planted, and the fired one-shots' at() entries (moto, unlike Scheduler, keeps them)
    assert report["orphans_deleted"] == 4 + len(elsewhere), str(report)  # "once", the pills, "waits", the planted one
    # counters: the one planted, and ROOM's, left high by its two deletes and the old-style one; their
    # three dedupe pointers go too, and the name pointer of the deleted digest. A delivered one-shot
    # frees its place and pointer lazily too: the rooms where they fired are recounted, and their
    # pointers go
    fired = 4 + len(elsewhere)  # "once", the pills, "waits", the late pills released, one on each other platform
    assert report["counters_repaired"] == 2 + len(elsewhere), str(report)
    assert report["pointers_removed"] == 4 + fired, str(report)
    # the old-style delete's item moves to its retired key; the two deletes' audit copies are finalized
    assert report["retired_moved"] == 1 and report["deletes_finalized"] == 2, str(report)


# --- the template, resolved with the run's ARNs -------------------------------------------------

_TEMPLATE: dict[str, Any] = {}


def template() -> dict[str, Any]:
    if not _TEMPLATE:
        decoded, problems = decode(str(ROOT / "template.yaml"))
        assert decoded is not None and not problems, problems
        _TEMPLATE.update(decoded)
    return _TEMPLATE


NO_VALUE = object()


def resolver(values: dict[str, str]) -> Callable[[Any], Any]:
    """Resolve Ref, GetAtt, Sub and If with `values` (`Name` or `Name.Attr`): a parameter not among them
    has its default, and an If takes the branch its condition gives with those parameters."""
    pseudo = {"AWS::Partition": "aws", "AWS::Region": REGION, "AWS::AccountId": ACCOUNT, "AWS::StackName": "cronbell"}
    defaults = {name: str(p.get("Default", "")) for name, p in template()["Parameters"].items()}
    known = {**pseudo, **defaults, **values}

    def holds(node: Any) -> bool:
        ((function, argument),) = node.items()
        if function == "Condition":
            return holds(template()["Conditions"][argument])
        if function == "Fn::Not":
            return not holds(argument[0])
        if function == "Fn::Or":
            return any(holds(item) for item in argument)
        if function == "Fn::And":
            return all(holds(item) for item in argument)
        if function == "Fn::Equals":
            return bool(resolve(argument[0]) == resolve(argument[1]))
        raise AssertionError(f"evaluate {function} here")

    def resolve(node: Any) -> Any:
        if isinstance(node, list):
            return [item for item in (resolve(x) for x in node) if item is not NO_VALUE]
        if not isinstance(node, dict):
            return node
        if set(node) == {"Ref"}:
            return NO_VALUE if node["Ref"] == "AWS::NoValue" else known[node["Ref"]]
        if set(node) == {"Fn::GetAtt"}:
            target = node["Fn::GetAtt"]
            return known[target if isinstance(target, str) else ".".join(target)]
        if set(node) == {"Fn::Sub"}:  # a string, or a string and its own variables
            pattern, variables = (node["Fn::Sub"], {}) if isinstance(node["Fn::Sub"], str) else node["Fn::Sub"]
            local = {**known, **{name: resolve(value) for name, value in variables.items()}}
            return re.sub(r"\$\{([^!}]+)\}", lambda m: local[m.group(1)], pattern)
        if set(node) == {"Fn::If"}:
            condition, yes, no = node["Fn::If"]
            return resolve(yes if holds({"Condition": condition}) else no)
        return {key: resolve(value) for key, value in node.items()}

    return resolve


def as_list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else [value]


def policy_statements(logical_id: str, resolve: Callable[[Any], Any]) -> list[dict[str, Any]]:
    props = template()["Resources"][logical_id]["Properties"]
    if template()["Resources"][logical_id]["Type"] == "AWS::IAM::Role":
        documents = [policy["PolicyDocument"] for policy in props.get("Policies", [])]
        documents += [  # and the policies attached to it as resources of their own
            r["Properties"]["PolicyDocument"]
            for r in template()["Resources"].values()
            if r["Type"] == "AWS::IAM::Policy" and {"Ref": logical_id} in r["Properties"].get("Roles", [])
        ]
    else:
        documents = props.get("Policies", [])
    return [s for doc in resolve(documents) for s in as_list(doc["Statement"])]


def allows(statements: list[dict[str, Any]], need: Need) -> bool:
    context = dict(need.context)
    for statement in statements:
        if statement.get("Effect") != "Allow":
            continue
        actions = [a.lower() for a in as_list(statement["Action"])]
        if not any(fnmatch.fnmatchcase(need.action.lower(), a) for a in actions):
            continue
        if not any(fnmatch.fnmatchcase(need.resource, r) for r in as_list(statement["Resource"])):
            continue
        conditions = statement.get("Condition", {})
        assert set(conditions) <= {"StringEquals"}, f"evaluate {set(conditions)} here"
        if all(context.get(key) in as_list(value) for key, value in conditions.get("StringEquals", {}).items()):
            return True
    return False


# --- fixtures and tests -------------------------------------------------------------------------


@dataclass
class Run:
    recording: Recording
    resolve: Callable[[Any], Any]
    entries: list[dict[str, Any]]  # every CreateSchedule / UpdateSchedule request, for the Scheduler role
    secrets: dict[str, str]  # platform -> the ARN of its own secret

    def used(self, function: str) -> list[Need]:
        return [need for call in self.recording.calls.get(function, []) for need in needs(call)]


@contextmanager
def platform_servers() -> Iterator[dict[str, FakePlatform]]:
    """A local server playing each platform besides Matrix, answering every post as the platform would."""
    replies = {"slack": SLACK_OK, "telegram": TELEGRAM_OK, "discord": DISCORD_OK, "webhook": Reply(200, {"id": "m1"})}
    with ExitStack() as servers:
        found = {}
        for platform, reply in replies.items():
            found[platform] = servers.enter_context(FakePlatform())
            found[platform].default = reply
        yield found


def every_platform_env(stack: Any, mp: pytest.MonkeyPatch, servers: dict[str, FakePlatform]) -> dict[str, str]:
    """Every chat backend, each with its own secret and the shared one unset; answers platform -> ARN."""
    tokens = {
        "matrix": TOKEN,
        "slack": "xoxb-iam-coverage",
        "telegram": "123456:iam-coverage",
        "discord": f"{servers['discord'].url}/api/webhooks/9/iam-coverage",
        "webhook": "iam-coverage-signing-secret",
    }
    arns = {platform: matrix_secret(stack, token) for platform, token in tokens.items()}
    mp.delenv("CHAT_TOKEN_SECRET", raising=False)
    mp.setenv("CHAT_BACKEND", ",".join(tokens))
    mp.setenv("SLACK_API_URL", servers["slack"].url)
    mp.setenv("TELEGRAM_API_URL", servers["telegram"].url)
    mp.setenv("CHAT_WEBHOOK_URL", f"{servers['webhook'].url}/hook")
    for platform, arn in arns.items():
        mp.setenv(PLATFORM_SECRET_ENV[platform], arn)
    forget_wiring()
    return arns


def run_values(stack: Any, secrets: dict[str, str]) -> dict[str, str]:
    """The template's references as this run has them: its resources' names and ARNs, its parameters."""
    return {
        "ScheduleTable": TABLE,
        "ScheduleTable.Arn": f"arn:aws:dynamodb:{REGION}:{ACCOUNT}:table/{TABLE}",
        "ScheduleGroup": GROUP,
        "FireFunction.Alias": FIRE_ARN,  # every caller invokes the alias
        "FireFunction.Arn": FIRE_ARN.removesuffix(":live"),  # what entries written before the alias name
        "EchoAgentFunction.Alias": ECHO_ARN,
        "SchedulerInvokeRole.Arn": ROLE_ARN,
        "SchedulerDeadLetterQueue.Arn": stack.dlq_arn,
        "FireDeadLetterQueue.Arn": FIRE_DLQ_ARN,
        "ProjectorFailureQueue.Arn": PROJECTOR_QUEUE_ARN,
        "AnalysisOutputRoom": ROOM,
        "EventBusName": EVENT_BUS,
        **secrets,
    }


@pytest.fixture(scope="module")
def run(moto_endpoint: str) -> Iterator[Run]:
    clock = FakeClock(START)
    clock_module.install(clock)
    recording = Recording()
    with (
        pytest.MonkeyPatch.context() as mp,
        MatrixStandIn(TOKEN, refuse={FLAKY_ROOM: 503}) as matrix,
        platform_servers() as servers,
    ):
        stack = provision(moto_endpoint, clock)
        mp.setattr(BaseClient, "_make_api_call", record(recording, BaseClient._make_api_call))
        matrix_env(stack, mp, matrix.url, TOKEN)
        secrets = every_platform_env(stack, mp, servers)
        boto3.client("events", region_name=REGION, endpoint_url=moto_endpoint).create_event_bus(Name=EVENT_BUS)
        mp.setenv("EVENT_BUS_NAME", EVENT_BUS)
        try:
            scenario(recording, stack, clock)
        finally:
            forget_wiring()
            clock_module.install(clock_module.SystemClock())
        # each platform was posted to: a reminder and a missed notice, signed where the platform signs
        assert all(len(server.requests) == 2 for server in servers.values()), servers
        assert all("x-cronbell-signature" in seen.headers for seen in servers["webhook"].requests)
        resolve = resolver(run_values(stack, {SECRET_PARAMETERS[p]: arn for p, arn in secrets.items()}))
        entries = [
            call.params
            for call in recording.calls["ProjectorFunction"]
            if call.operation in ("CreateSchedule", "UpdateSchedule")
        ]
        yield Run(recording, resolve, entries, secrets)


FUNCTIONS = ["ToolsFunction", "FireFunction", "ReconcileFunction", "ProjectorFunction"]


def test_every_function_with_a_policy_has_a_scenario() -> None:
    with_policies = {
        logical_id
        for logical_id, resource in template()["Resources"].items()
        if resource["Type"] == "AWS::Serverless::Function" and resource["Properties"].get("Policies")
    }
    assert with_policies == set(FUNCTIONS), "give each function with a policy a part in scenario()"


def test_the_run_exercised_every_kind_of_call(run: Run) -> None:
    actions = {need.action for function in FUNCTIONS for need in run.used(function)}
    assert {
        "dynamodb:GetItem",
        "dynamodb:PutItem",
        "dynamodb:UpdateItem",
        "dynamodb:DeleteItem",
        "dynamodb:Query",
        "scheduler:CreateSchedule",
        "scheduler:UpdateSchedule",
        "scheduler:DeleteSchedule",
        "scheduler:GetSchedule",
        "iam:PassRole",
        "lambda:InvokeFunction",
        "secretsmanager:GetSecretValue",
        "events:PutEvents",
    } <= actions


@pytest.mark.parametrize("function", FUNCTIONS)
def test_policy_allows_every_call_on_its_resource(run: Run, function: str) -> None:
    statements = policy_statements(function, run.resolve)
    denied = sorted({f"{n.action} on {n.resource}" for n in run.used(function) if not allows(statements, n)})
    assert denied == []


@pytest.mark.parametrize("function", FUNCTIONS)
def test_policy_grants_nothing_unused(run: Run, function: str) -> None:
    granted = {a for s in policy_statements(function, run.resolve) for a in as_list(s["Action"])}
    used = {need.action for need in run.used(function)}
    deliberate = {action for (owner, action) in DELIBERATE_EXTRAS if owner == function}
    assert granted - used - deliberate == set()
    assert deliberate <= granted - used, "a deliberate extra is no longer granted, or is now used"


def test_policy_statements_name_only_resources_the_run_touched(run: Run) -> None:
    """No statement lists a resource that no call needed (a table, queue or function too many)."""
    for function in FUNCTIONS:
        used = run.used(function)
        for statement in policy_statements(function, run.resolve):
            for resource in as_list(statement["Resource"]):
                actions = as_list(statement["Action"])
                if all((function, action) in DELIBERATE_EXTRAS for action in actions):
                    continue
                assert any(fnmatch.fnmatchcase(n.resource, resource) for n in used), (function, resource)


def test_scheduler_role_covers_what_the_entries_ask_of_it(run: Run) -> None:
    statements = policy_statements("SchedulerInvokeRole", run.resolve)
    assert run.entries
    targets = {entry["Target"]["Arn"] for entry in run.entries}
    queues = {entry["Target"]["DeadLetterConfig"]["Arn"] for entry in run.entries}
    static = run.resolve(template()["Resources"]["DailyAnalysisSchedule"]["Properties"]["Target"])
    targets.add(static["Arn"])
    queues.add(static["DeadLetterConfig"]["Arn"])
    assert targets == {FIRE_ARN}  # the alias
    for arn in (*targets, FIRE_ARN.removesuffix(":live")):  # and an entry written before there was one
        assert allows(statements, Need("lambda:InvokeFunction", arn)), arn
    assert not allows(statements, Need("lambda:InvokeFunction", FIRE_ARN.replace(":live", ":7")))  # no version
    for arn in queues:
        assert allows(statements, Need("sqs:SendMessage", arn)), arn
    assert {a for s in statements for a in as_list(s["Action"])} == {"lambda:InvokeFunction", "sqs:SendMessage"}


@pytest.mark.parametrize("function", ["FireFunction", "ReconcileFunction"])
def test_each_platform_token_is_read_from_its_own_secret(run: Run, function: str) -> None:
    read = {n.resource for n in run.used(function) if n.action == "secretsmanager:GetSecretValue"}
    assert read == set(run.secrets.values())
    assert not any(n.action.startswith("secretsmanager:") for n in run.used("ToolsFunction"))


def test_a_deployment_with_the_one_shared_secret_is_granted_that_secret_alone(
    moto_endpoint: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """As before each platform had its own secret: one backend, its token in ChatTokenSecretArn's secret."""
    clock = FakeClock(START)
    clock_module.install(clock)
    recording = Recording()
    try:
        with MatrixStandIn(TOKEN) as matrix:
            stack = provision(moto_endpoint, clock)
            monkeypatch.setattr(BaseClient, "_make_api_call", record(recording, BaseClient._make_api_call))
            for name in (*PLATFORM_SECRET_ENV.values(), "EVENT_BUS_NAME"):
                monkeypatch.delenv(name, raising=False)
            matrix_env(stack, monkeypatch, matrix.url, TOKEN)
            event = envelope("create_reminder", {"message": "Call mum", "time": "2026-11-30 10:00"})
            sid = ok(invoke("tools", event))["id"]
            clock.advance(hours=1)
            fired = {"room_id": ROOM, "reminder_id": sid, "scheduled_time": "2026-11-30T09:00:00Z"}
            result = recording.under("FireFunction", lambda: invoke("fire", {**fired, "execution_id": "e"}))
            assert result["outcome"] == "delivered" and len(matrix.received) == 1
    finally:
        forget_wiring()
        clock_module.install(clock_module.SystemClock())
    shared = next(n.resource for n in needs_of(recording, "FireFunction") if n.action.startswith("secretsmanager:"))
    resolve = resolver(run_values(stack, {"ChatTokenSecretArn": shared, "EventBusName": ""}))
    statements = policy_statements("FireFunction", resolve)
    assert all(allows(statements, need) for need in needs_of(recording, "FireFunction"))
    granted = [s["Resource"] for s in statements if s["Action"] == "secretsmanager:GetSecretValue"]
    assert granted == [[shared]]


def needs_of(recording: Recording, function: str) -> list[Need]:
    return [need for call in recording.calls.get(function, []) for need in needs(call)]
