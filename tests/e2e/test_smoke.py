"""`make smoke` against the sandbox standing in for a deployed stack: its outputs in a CloudFormation
stack of the sandbox's moto, the functions behind its Lambda endpoint."""

from __future__ import annotations

import subprocess
from typing import Any

from tests.support.aws import ROOT
from tests.support.sandbox import StartSandbox, aws_client, run_script, stand_in_stack

STACK = "cronbell-smoke"
ROOM = "!smoke:localhost"
ALIAS = "arn:aws:lambda:us-east-1:123456789012:function:ToolsFunction:live"  # what a bot invokes (the output)


def stand_in(aws_url: str) -> dict[str, str]:
    """A stack whose outputs name the sandbox's resources, as `sam deploy`'s stack names its own."""
    groups = [
        g["Name"]
        for g in aws_client("scheduler", aws_url).list_schedule_groups()["ScheduleGroups"]
        if g["Name"] != "default"
    ]
    (table,) = aws_client("dynamodb", aws_url).list_tables()["TableNames"]
    outputs = {"ToolsFunctionName": "ToolsFunction", "ToolsFunctionArn": ALIAS}
    outputs |= {"ScheduleGroupName": groups[0], "ScheduleTableName": table}
    stand_in_stack(aws_url, STACK, outputs)
    return outputs


def test_make_smoke_creates_lists_fires_and_deletes_one_reminder(start_sandbox: StartSandbox) -> None:
    sandbox = start_sandbox("--start", "2030-01-07T12:00:00Z")
    aws_url = f"http://127.0.0.1:{sandbox.aws_port}"
    outputs = stand_in(aws_url)
    done = run_script("smoke.py", sandbox, "--stack", STACK, "--room", ROOM)
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
    scheduler: Any = aws_client("scheduler", aws_url)
    entries = scheduler.list_schedules(GroupName=outputs["ScheduleGroupName"])["Schedules"]
    schedule_id = lines[1].split(": ")[1]
    assert not [e for e in entries if e["Name"].startswith(schedule_id)]


def test_make_smoke_fails_clearly_on_a_stack_that_is_not_there(start_sandbox: StartSandbox) -> None:
    sandbox = start_sandbox()
    done = run_script("smoke.py", sandbox, "--stack", "nope", "--room", ROOM)
    assert done.returncode == 1 and done.stderr.startswith("FAILED ") and "nope" in done.stderr


def test_make_smoke_passes_stack_room_and_platform_to_the_script() -> None:
    dry = subprocess.run(
        ["make", "-n", "smoke", "STACK=prod", "ROOM=C0123", "PLATFORM=slack", "TEAM=T0123"],
        cwd=ROOT, capture_output=True, text=True, check=True,
    ).stdout  # fmt: skip
    assert "scripts/smoke.py --stack 'prod' --room 'C0123' --platform 'slack' --team 'T0123'" in dry
