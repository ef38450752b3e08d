"""A smoke test of a deployed stack: `make smoke STACK=name ROOM=room-id [PLATFORM=slack]`.

It reads the stack's outputs (CloudFormation DescribeStacks), then, as a bot would, calls the tools
function: creates one reminder in ROOM (a day ahead), lists it, fires it now (run_now: the message is
posted to ROOM), waits for that run's outcome (reminder_history), and deletes the reminder. Whatever
fails, the reminder it created is deleted before it exits. It prints one line per step and exits 0
only when every step passed.

Credentials and Region come from the usual AWS settings (AWS_PROFILE, AWS_REGION, ...); the
AWS_ENDPOINT_URL variables point it elsewhere (the tests point it at the sandbox).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
import uuid
from collections.abc import Callable
from typing import Any

import boto3
from botocore.exceptions import BotoCoreError, ClientError

REQUIRED_OUTPUTS = ("ToolsFunctionName", "ToolsFunctionArn", "ScheduleGroupName", "ScheduleTableName")


class SmokeFailed(Exception):
    pass


def stack_outputs(stack: str, cloudformation: Any) -> dict[str, str]:
    """The stack's outputs by key; refuses a stack without those the smoke test needs."""
    (found,) = cloudformation.describe_stacks(StackName=stack)["Stacks"]
    outputs = {o["OutputKey"]: o["OutputValue"] for o in found.get("Outputs", [])}
    missing = [key for key in REQUIRED_OUTPUTS if key not in outputs]
    if missing:
        raise SmokeFailed(f"stack {stack} has no output {', '.join(missing)}: is it a cronbell stack?")
    return outputs


class Tools:
    """The tools contract over lambda:Invoke, with the context a bot's own code sets."""

    def __init__(self, client: Any, function: str, context: dict[str, str]) -> None:
        self.client, self.function, self.context = client, function, context

    def __call__(self, tool: str, **arguments: Any) -> dict[str, Any]:
        event = {"tool": tool, "arguments": arguments, "context": self.context}
        answer = self.client.invoke(FunctionName=self.function, Payload=json.dumps(event).encode())
        body = answer["Payload"].read()
        if "FunctionError" in answer:
            raise SmokeFailed(f"{tool}: the function failed: {body[:300]!r}")
        result: dict[str, Any] = json.loads(body)
        if not result.get("ok"):
            raise SmokeFailed(f"{tool}: {result.get('error')}")
        return result


def run(
    tools: Tools,
    say: Callable[[str], None],
    wait_seconds: float = 120.0,
    sleep: Callable[[float], None] = time.sleep,
) -> None:
    """Create, list, run now, wait for the run, delete; the reminder is deleted whatever fails."""
    marker = f"cronbell smoke test {uuid.uuid4().hex[:8]}"
    created = tools("create_reminder", message=marker, time="in 1 day")
    schedule_id = str(created["result"]["id"])
    say(f"ok create_reminder: {schedule_id}")
    try:
        listed = tools("list_reminders")["result"]["schedules"]
        if schedule_id not in [item["id"] for item in listed]:
            raise SmokeFailed(f"list_reminders does not list {schedule_id}")
        say(f"ok list_reminders: {schedule_id} among {len(listed)}")
        tools("run_now", kind="cron", target=schedule_id)
        say("ok run_now: started")
        deadline = time.monotonic() + wait_seconds
        while True:
            runs = tools("reminder_history", id=schedule_id, limit=5)["result"]["runs"]
            manual = [r for r in runs if r.get("manual")]
            if manual:
                break
            if time.monotonic() > deadline:
                raise SmokeFailed(f"run_now: no run recorded within {wait_seconds:.0f} s")
            sleep(1.0)
        outcome = manual[0]
        if outcome["outcome"] != "delivered":
            raise SmokeFailed(f"run_now: the run ended {outcome['outcome']} ({outcome.get('reason')})")
        say(f"ok run_now: delivered ({outcome['late_seconds']} s late), message {outcome.get('message_id')}")
    finally:
        deleted = tools("delete_reminder", id=schedule_id)
        say(f"ok delete_reminder: {deleted['result'].get('id', schedule_id)}")
    left = [item["id"] for item in tools("list_reminders")["result"]["schedules"] if item["id"] == schedule_id]
    if left:
        raise SmokeFailed(f"{schedule_id} is still listed after its delete")
    say("ok cleaned up: nothing of the smoke test is left listed")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="make smoke", description=__doc__.split("\n\n")[0])
    parser.add_argument("--stack", required=True, help="the stack's name (sam deploy's stack_name)")
    parser.add_argument(
        "--region", default=os.environ.get("AWS_REGION"), help="the stack's Region (default: AWS_REGION, else boto3's)"
    )
    parser.add_argument("--room", required=True, help="the room id the smoke reminder is posted to")
    parser.add_argument("--platform", default="", help="the room's platform, when the stack has several")
    parser.add_argument("--team", default="", help="a Slack room's workspace (team id), for an app in several")
    parser.add_argument("--user", default="cronbell-smoke", help="the user id the reminder mentions")
    parser.add_argument("--wait", type=float, default=120.0, help="seconds to wait for the run")
    args = parser.parse_args(argv)
    aws = boto3.session.Session(region_name=args.region)  # AWS_REGION too, as the AWS CLI reads it
    try:
        outputs = stack_outputs(args.stack, aws.client("cloudformation"))
        print(f"stack {args.stack}: tools {outputs['ToolsFunctionName']}, group {outputs['ScheduleGroupName']}")
        context = {"room_id": args.room, "user_id": args.user, "agent_id": "smoke", "locale": "en", "timezone": "UTC"}
        if args.platform:
            context["platform"] = args.platform
        if args.team:
            context["team_id"] = args.team
        # as a bot calls it: the alias `live` (ToolsFunctionArn), which deployments shift
        run(Tools(aws.client("lambda"), outputs["ToolsFunctionArn"], context), print, args.wait)
    except (SmokeFailed, ClientError, BotoCoreError) as err:
        print(f"FAILED {err}", file=sys.stderr)
        return 1
    print("smoke test passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
