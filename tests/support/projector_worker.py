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
import subprocess
import sys
from dataclasses import asdict
from typing import Any

from tests.support.aws import ROOT, Stack


def kill_a_projector(stack: Stack, event: dict[str, Any], after: int) -> bool:
    """Run one projector process on this event, dying after Scheduler call `after`; False when the batch
    made no call number `after` (it was applied whole, nothing killed)."""
    spec = {
        "endpoint": stack.endpoint,
        "settings": asdict(stack.settings),
        "now": stack.clock.now().isoformat(),
        "event": event,
        "after": after,
    }
    env = {**os.environ, "PYTHONPATH": f"{ROOT / 'layers' / 'common'}{os.pathsep}{ROOT}"}
    done = subprocess.run(
        [sys.executable, "-m", "tests.support.projector_worker", json.dumps(spec, default=str)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        timeout=120,
    )
    assert done.returncode in (0, -signal.SIGKILL), done.stderr.decode()[-2000:]
    return done.returncode == -signal.SIGKILL


def main(raw: str) -> None:
    from cronbell.core.domain.instants import parse_iso
    from cronbell.settings import Settings
    from tests.support.aws import FakeClock, set_aws_env
    from tests.support.fire_worker import DyingClient
    from tests.support.handlers import LambdaContext, load_handler

    args = json.loads(raw)
    set_aws_env(args["endpoint"])
    settings = Settings(**{k: tuple(v) if isinstance(v, list) else v for k, v in args["settings"].items()})
    stack = Stack(endpoint=args["endpoint"], clock=FakeClock(parse_iso(args["now"])), settings=settings)
    os.environ["POWERTOOLS_METRICS_NAMESPACE"] = "cronbell-test"
    stack.scheduler = DyingClient(stack.scheduler, args["after"])
    handler = load_handler("projector")
    deps = stack.deps()
    handler.deps = lambda: deps  # the handler's own, on this stack's clients and clock
    answer = handler.lambda_handler(args["event"], LambdaContext(function_name="projector"))
    sys.exit(0 if not answer["batchItemFailures"] else 4)


if __name__ == "__main__":
    main(sys.argv[1])
