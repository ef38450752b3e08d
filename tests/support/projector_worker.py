"""A projector process that is killed with SIGKILL right after its Scheduler call number N returned, as
Lambda's runtime is when it runs out of memory: nothing after the kill runs, the batch is not answered.

Run as `python -m tests.support.projector_worker '<json>'` with the moto endpoint, the settings, the fake
time, the stream event and N (`after`). It runs the real handler (`functions/projector/app.py`) on the
stack's clients and clock; its Scheduler client dies after the call. Exit code 0: the batch made fewer
calls than that, and was applied whole. Tests start it with `kill_a_projector`.
"""

from __future__ import annotations

import json
import os
import signal
import sys
from typing import Any

from tests.support.aws import Stack
from tests.support.fire_worker import DyingClient, run_worker, stack_of, stack_spec


def kill_a_projector(stack: Stack, event: dict[str, Any], after: int) -> bool:
    """Run one projector process on this event, dying after Scheduler call `after`; False when the batch
    made no call number `after` (it was applied whole, nothing killed)."""
    argument = stack_spec(stack, event=event, after=after)
    ended = run_worker("tests.support.projector_worker", argument, (0, -signal.SIGKILL))
    return ended == -signal.SIGKILL


def main(raw: str) -> None:
    from tests.support.handlers import LambdaContext, load_handler

    args = json.loads(raw)
    stack = stack_of(args)
    os.environ["POWERTOOLS_METRICS_NAMESPACE"] = "cronbell-test"
    stack.scheduler = DyingClient(stack.scheduler, args["after"])
    handler = load_handler("projector")
    deps = stack.deps()
    handler.deps = lambda: deps  # the handler's own, on this stack's clients and clock
    answer = handler.lambda_handler(args["event"], LambdaContext(function_name="projector"))
    sys.exit(0 if not answer["batchItemFailures"] else 4)


if __name__ == "__main__":
    main(sys.argv[1])
