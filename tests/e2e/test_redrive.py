"""`make redrive` against the sandbox standing in for a deployed stack: a fire Scheduler could not deliver (its
entry pointed at an alias the fire function lacks) and a fire whose retries ran out wait in the two dead-letter
queues; the script lists them, then redrives each once into the fire function's alias, and each reminder is
posted once, late, in its room."""

from __future__ import annotations

import json
import re
import subprocess
import time
from typing import Any

from tests.support.aws import ROOT
from tests.support.sandbox import Bot, StartSandbox, aws_client, run_script, stand_in_stack

STACK = "cronbell-redrive"
ROOM = "!redrive:localhost"
FIRE = "arn:aws:lambda:us-east-1:123456789012:function:FireFunction"
FILLED = {"<aws.scheduler.execution-id>": "e-lost", "<aws.scheduler.attempt-number>": "1"}


def queue_urls(aws_url: str) -> dict[str, str]:
    """The stack's two dead-letter queues (CloudFormation named them after their logical ids)."""
    urls = aws_client("sqs", aws_url).list_queues()["QueueUrls"]
    return {
        key: next(url for url in urls if f"-{key.removesuffix('Url')}-" in url)
        for key in ("SchedulerDeadLetterQueueUrl", "FireDeadLetterQueueUrl")
    }


def waiting(aws_url: str, url: str) -> int:
    attributes = aws_client("sqs", aws_url).get_queue_attributes(
        QueueUrl=url, AttributeNames=["ApproximateNumberOfMessages", "ApproximateNumberOfMessagesNotVisible"]
    )["Attributes"]
    return int(attributes["ApproximateNumberOfMessages"]) + int(attributes["ApproximateNumberOfMessagesNotVisible"])


def fire_input(entry: dict[str, Any]) -> dict[str, Any]:
    """An entry's Input as Scheduler fills it in at its time (a one-shot's `at()` is UTC)."""
    (when,) = re.findall(r"at\((.+)\)", entry["ScheduleExpression"])
    text = entry["Target"]["Input"].replace("<aws.scheduler.scheduled-time>", f"{when}Z")
    for placeholder, value in FILLED.items():
        text = text.replace(placeholder, value)
    event: dict[str, Any] = json.loads(text)
    return event


def posted(bot: Bot, count: int) -> list[dict[str, Any]]:
    """The room's messages once `count` have arrived (redriven fires run in the background, as Lambda's
    asynchronous invocations do); what is there when the wait runs out otherwise."""
    deadline = time.monotonic() + 60
    while len(bot.messages()) < count and time.monotonic() < deadline:
        time.sleep(0.2)
    return bot.messages()


def test_make_redrive_lists_then_redrives_each_dead_letter_once(start_sandbox: StartSandbox) -> None:
    sandbox = start_sandbox("--start", "2030-01-07T12:00:00Z")
    aws_url = f"http://127.0.0.1:{sandbox.aws_port}"
    bot = Bot(sandbox, ROOM)
    scheduler, sqs = bot.scheduler_client(), aws_client("sqs", aws_url)
    (group,) = [g["Name"] for g in scheduler.list_schedule_groups()["ScheduleGroups"] if g["Name"] != "default"]
    queues = queue_urls(aws_url)
    stand_in_stack(aws_url, STACK, {**queues, "FireFunctionArn": f"{FIRE}:live"})

    # Scheduler cannot invoke: the entry names an alias the function lacks, and its fire goes to the queue
    plants = bot.create(message="Water the plants", time="in 30 minutes")
    entry = scheduler.get_schedule(Name=plants, GroupName=group)
    assert entry["Target"]["Arn"] == f"{FIRE}:live"  # the tools' entries target the alias
    changed = {k: entry[k] for k in ("Name", "GroupName", "ScheduleExpression", "FlexibleTimeWindow", "State")}
    changed |= {k: entry[k] for k in ("ScheduleExpressionTimezone", "ActionAfterCompletion") if k in entry}
    scheduler.update_schedule(**changed, Target={**entry["Target"], "Arn": f"{FIRE}:gone"})
    # the fire function failed on every attempt: Lambda's record of it, the fire's Input inside
    plumber = bot.create(message="Call the plumber", time="in 20 minutes")
    lost = fire_input(scheduler.get_schedule(Name=plumber, GroupName=group))
    scheduler.delete_schedule(Name=plumber, GroupName=group)  # a one-time entry is gone once it has fired
    record = {
        "version": "1.0",
        "requestContext": {"functionArn": f"{FIRE}:live", "condition": "RetriesExhausted", "approximateInvokeCount": 3},
        "requestPayload": lost,
        "responseContext": {"statusCode": 200, "functionError": "Unhandled"},
    }
    sqs.send_message(QueueUrl=queues["FireDeadLetterQueueUrl"], MessageBody=json.dumps(record))
    sqs.send_message(QueueUrl=queues["SchedulerDeadLetterQueueUrl"], MessageBody="not a fire")
    fired = bot.advance(3600)
    assert [f["ok"] for f in fired if f["schedule"] == plants] == [False]
    assert bot.messages() == []
    assert waiting(aws_url, queues["SchedulerDeadLetterQueueUrl"]) == 2  # the lost fire and the stray message

    listed = run_script("redrive.py", sandbox, "--stack", STACK)
    assert listed.returncode == 0, listed.stdout + listed.stderr
    lines = listed.stdout.splitlines()
    assert sorted(line.split(" at ")[0] for line in lines if line.startswith("would redrive")) == sorted(
        [f"would redrive {plants} in {ROOM}", f"would redrive {plumber} in {ROOM}"]
    )
    assert any(line.startswith("left ") for line in lines) and lines[-1].endswith(": 2")
    assert bot.messages() == [] and waiting(aws_url, queues["FireDeadLetterQueueUrl"]) == 1  # nothing moved

    done = run_script("redrive.py", sandbox, "--stack", STACK, "--apply")
    assert done.returncode == 0, done.stdout + done.stderr
    assert len([line for line in done.stdout.splitlines() if line.startswith("redriven ")]) == 2, done.stdout
    texts = sorted(message["text"] for message in posted(bot, 2))
    assert len(texts) == 2 and "Call the plumber" in texts[0] and "Water the plants" in texts[1]
    assert waiting(aws_url, queues["FireDeadLetterQueueUrl"]) == 0
    assert waiting(aws_url, queues["SchedulerDeadLetterQueueUrl"]) == 1  # the stray message is left for a person

    # the same fire again (redriven twice, or a copy that also waited) is not posted again
    sqs.send_message(QueueUrl=queues["FireDeadLetterQueueUrl"], MessageBody=json.dumps(record))
    again = run_script("redrive.py", sandbox, "--stack", STACK, "--apply")
    assert again.returncode == 0 and again.stdout.splitlines()[-1] == "redriven: 1"
    history = bot.call("reminder_history", id=plumber)["result"]["runs"]
    assert [run["outcome"] for run in history] == ["delivered"]
    assert len(posted(bot, 3)) == 2


def test_make_redrive_fails_clearly_on_a_stack_that_is_not_there(start_sandbox: StartSandbox) -> None:
    sandbox = start_sandbox()
    done = run_script("redrive.py", sandbox, "--stack", "nope")
    assert done.returncode == 1 and done.stderr.startswith("FAILED ") and "nope" in done.stderr


def test_make_redrive_passes_the_stack_and_apply_to_the_script() -> None:
    def dry(*args: str) -> str:
        return subprocess.run(
            ["make", "-n", "redrive", *args], cwd=ROOT, capture_output=True, text=True, check=True
        ).stdout

    assert "scripts/redrive.py --stack 'prod' --apply" in dry("STACK=prod", "APPLY=1")
    assert "--apply" not in dry("STACK=prod")  # only lists
    assert "--region 'eu-west-1'" in dry("STACK=prod", "REGION=eu-west-1")
    assert "--region" not in dry("STACK=prod")
    usage = subprocess.run(["make", "-s", "redrive"], cwd=ROOT, capture_output=True, text=True, check=False)
    assert usage.returncode != 0 and "usage: make redrive STACK=name [APPLY=1]" in usage.stderr
