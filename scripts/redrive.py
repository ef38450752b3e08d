"""Redrive a deployed stack's dead letters into the fire function: `make redrive STACK=name [APPLY=1]`.

Two queues hold fires that never ran: `SchedulerDeadLetterQueue` (Scheduler could not invoke the fire
function; each message is the entry's Input, its context attributes filled in) and `FireDeadLetterQueue`
(the fire function failed on every attempt; each message is Lambda's invocation record, the fire's Input
in `requestPayload`). Each fire is invoked again, asynchronously, on the fire function's alias (the stack's
`FireFunctionArn` output), and its message deleted once Lambda has accepted it. A redriven fire is a fire
like any other: an occurrence already delivered is not posted again, a deleted schedule's is never
posted, and a recurring one later than MaxLatenessMinutes is recorded missed (`too_late`).

Without `--apply` (APPLY=1) it only lists what it would redrive and leaves every message in its queue.
A message that holds no fire is named and left where it is. Credentials and Region come from the usual
AWS settings; the AWS_ENDPOINT_URL variables point it elsewhere (the tests point it at the sandbox).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable
from typing import Any

import boto3
from botocore.exceptions import BotoCoreError, ClientError

QUEUES = ("SchedulerDeadLetterQueueUrl", "FireDeadLetterQueueUrl")
REQUIRED_OUTPUTS = (*QUEUES, "FireFunctionArn")
VISIBILITY_SECONDS = 300  # how long a message read stays hidden: longer than reading a queue takes


class RedriveFailed(Exception):
    pass


def stack_outputs(stack: str, cloudformation: Any) -> dict[str, str]:
    (found,) = cloudformation.describe_stacks(StackName=stack)["Stacks"]
    outputs = {o["OutputKey"]: o["OutputValue"] for o in found.get("Outputs", [])}
    missing = [key for key in REQUIRED_OUTPUTS if key not in outputs]
    if missing:
        raise RedriveFailed(f"stack {stack} has no output {', '.join(missing)}: is it a cronbell stack?")
    return outputs


def fire_input(body: str) -> dict[str, Any] | None:
    """The fire's Input a dead letter holds: Lambda's invocation record carries it in `requestPayload`,
    Scheduler's message is the Input itself. None for a message that is neither."""
    try:
        message = json.loads(body)
    except ValueError:
        return None
    if isinstance(message, dict) and "requestContext" in message:
        message = message.get("requestPayload")
    if not isinstance(message, dict) or not ("reminder_id" in message or "static" in message):
        return None
    return message


def describe(event: dict[str, Any]) -> str:
    return (
        f"{event.get('reminder_id') or event.get('static')} in {event.get('room_id')} at {event.get('scheduled_time')}"
    )


def redrive_queue(
    sqs: Any, invoke: Callable[[dict[str, Any]], None], queue_url: str, apply: bool, say: Callable[[str], None]
) -> int:
    """Every message of one queue, once: redriven and deleted (`apply`), or listed. What stays (listed, or not
    a fire) is hidden while the queue is read, so each message is met once, then made visible again.
    Returns how many fires it found."""
    kept: list[str] = []  # receipt handles of the messages left in the queue
    found = 0
    try:
        while messages := sqs.receive_message(
            QueueUrl=queue_url, MaxNumberOfMessages=10, VisibilityTimeout=VISIBILITY_SECONDS
        ).get("Messages", []):
            for message in messages:
                event = fire_input(message["Body"])
                if event is None:
                    say(f"left {message['MessageId']}: not a fire's dead letter")
                    kept.append(message["ReceiptHandle"])
                    continue
                found += 1
                if not apply:
                    say(f"would redrive {describe(event)}")
                    kept.append(message["ReceiptHandle"])
                    continue
                invoke(event)
                sqs.delete_message(QueueUrl=queue_url, ReceiptHandle=message["ReceiptHandle"])
                say(f"redriven {describe(event)}")
    finally:
        for receipt in kept:
            sqs.change_message_visibility(QueueUrl=queue_url, ReceiptHandle=receipt, VisibilityTimeout=0)
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="make redrive", description=__doc__.split("\n\n")[0])
    parser.add_argument("--stack", required=True, help="the stack's name (sam deploy's stack_name)")
    parser.add_argument(
        "--region", default=os.environ.get("AWS_REGION"), help="the stack's Region (default: AWS_REGION, else boto3's)"
    )
    parser.add_argument("--apply", action="store_true", help="redrive; without it, only list")
    args = parser.parse_args(argv)
    aws = boto3.session.Session(region_name=args.region)  # AWS_REGION too, as the AWS CLI reads it
    try:
        outputs = stack_outputs(args.stack, aws.client("cloudformation"))
        sqs, lambda_client = aws.client("sqs"), aws.client("lambda")

        def invoke(event: dict[str, Any]) -> None:
            answer = lambda_client.invoke(
                FunctionName=outputs["FireFunctionArn"], InvocationType="Event", Payload=json.dumps(event).encode()
            )
            if answer.get("StatusCode") != 202:
                raise RedriveFailed(f"Lambda did not accept the fire {describe(event)}: {answer.get('StatusCode')}")

        total = 0
        for key in QUEUES:
            print(f"{key.removesuffix('Url')}: {outputs[key]}")
            total += redrive_queue(sqs, invoke, outputs[key], args.apply, print)
    except (RedriveFailed, ClientError, BotoCoreError) as err:
        print(f"FAILED {err}", file=sys.stderr)
        return 1
    print(f"{'redriven' if args.apply else 'to redrive (run again with APPLY=1)'}: {total}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
