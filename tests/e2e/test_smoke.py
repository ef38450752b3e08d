"""`make smoke` against the sandbox standing in for a deployed stack: its outputs in a CloudFormation
stack of the sandbox's moto, the functions behind its Lambda endpoint."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from typing import Any

import boto3

from tests.support.aws import ROOT
from tests.support.sandbox import StartSandbox

STACK = "cronbell-smoke"
ROOM = "!smoke:localhost"


def client(service: str, aws_url: str) -> object:
    return boto3.client(
        service, endpoint_url=aws_url, region_name="us-east-1", aws_access_key_id="test", aws_secret_access_key="test"
    )


def stand_in_stack(aws_url: str) -> dict[str, str]:
    """A stack whose outputs name the sandbox's resources, as `sam deploy`'s stack names its own."""
    clients: dict[str, Any] = {s: client(s, aws_url) for s in ("scheduler", "dynamodb")}
    groups = [
        g["Name"] for g in clients["scheduler"].list_schedule_groups()["ScheduleGroups"] if g["Name"] != "default"
    ]
    (table,) = clients["dynamodb"].list_tables()["TableNames"]
    outputs = {"ToolsFunctionName": "ToolsFunction", "ScheduleGroupName": groups[0], "ScheduleTableName": table}
    template = {
        "Resources": {"StandIn": {"Type": "AWS::SQS::Queue", "Properties": {"QueueName": "smoke-stand-in"}}},
        "Outputs": {key: {"Value": value} for key, value in outputs.items()},
    }
    cloudformation: Any = client("cloudformation", aws_url)
    cloudformation.create_stack(StackName=STACK, TemplateBody=json.dumps(template))
    return outputs


def smoke(sandbox_url: str, aws_url: str, *args: str) -> subprocess.CompletedProcess[str]:
    env = {
        **os.environ,
        "AWS_ENDPOINT_URL": aws_url,
        "AWS_ENDPOINT_URL_LAMBDA": sandbox_url,
        "AWS_ACCESS_KEY_ID": "test",
        "AWS_SECRET_ACCESS_KEY": "test",
        "AWS_DEFAULT_REGION": "us-east-1",
    }
    env.pop("AWS_PROFILE", None)
    command = [sys.executable, "scripts/smoke.py", *args]
    return subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=300, check=False)


def test_make_smoke_creates_lists_fires_and_deletes_one_reminder(start_sandbox: StartSandbox) -> None:
    sandbox = start_sandbox("--start", "2030-01-07T12:00:00Z")
    aws_url = f"http://127.0.0.1:{sandbox.aws_port}"
    outputs = stand_in_stack(aws_url)
    done = smoke(sandbox.url, aws_url, "--stack", STACK, "--room", ROOM)
    assert done.returncode == 0, done.stdout + done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == f"stack {STACK}: tools ToolsFunction, group {outputs['ScheduleGroupName']}"
    assert [line.split(":")[0] for line in lines[1:-1]] == [
        "ok create_reminder",
        "ok list_reminders",
        "ok run_now",
        "ok run_now",
        "ok delete_reminder",
        "ok cleaned up",
    ]
    assert lines[-1] == "smoke test passed"
    (posted,) = sandbox.messages(ROOM)  # the run_now posted the reminder into the room the team named
    assert "cronbell smoke test" in posted["text"]
    # nothing is left: no schedule listed, no Scheduler entry of the smoke reminder
    scheduler: Any = client("scheduler", aws_url)
    entries = scheduler.list_schedules(GroupName=outputs["ScheduleGroupName"])["Schedules"]
    schedule_id = lines[1].split(": ")[1]
    assert not [e for e in entries if e["Name"].startswith(schedule_id)]


def test_make_smoke_fails_clearly_on_a_stack_that_is_not_there(start_sandbox: StartSandbox) -> None:
    sandbox = start_sandbox()
    done = smoke(sandbox.url, f"http://127.0.0.1:{sandbox.aws_port}", "--stack", "nope", "--room", ROOM)
    assert done.returncode == 1 and done.stderr.startswith("FAILED ") and "nope" in done.stderr


def test_make_smoke_passes_stack_room_and_platform_to_the_script() -> None:
    dry = subprocess.run(
        ["make", "-n", "smoke", "STACK=prod", "ROOM=C0123", "PLATFORM=slack", "TEAM=T0123"],
        cwd=ROOT, capture_output=True, text=True, check=True,
    ).stdout  # fmt: skip
    assert "scripts/smoke.py --stack 'prod' --room 'C0123' --platform 'slack' --team 'T0123'" in dry
