"""Load the functions' handlers (all modules are named `app`) and call them as Lambda would."""

from __future__ import annotations

import importlib.util
import json
import os
import sys
import uuid
from dataclasses import asdict, dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any

from cronbell import wiring
from cronbell.adapters import clock
from tests.support.aws import ROOT, FakeClock, Stack
from tests.support.lambda_timing import at_slot


@dataclass
class LambdaContext:
    function_name: str = "test"
    function_version: str = "$LATEST"
    invoked_function_arn: str = "arn:aws:lambda:us-east-1:123456789012:function:test"
    memory_limit_in_mb: int = 256
    aws_request_id: str = field(default_factory=lambda: str(uuid.uuid4()))
    log_group_name: str = "/aws/lambda/test"
    log_stream_name: str = "test"
    client_context: Any = None
    identity: Any = None
    timeout_ms: int = 300_000

    def get_remaining_time_in_millis(self) -> int:
        return self.timeout_ms


def load_handler(function_dir: str) -> ModuleType:
    path = ROOT / "functions" / function_dir / "app.py"
    name = f"cronbell_function_{function_dir}"
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def configure_env(stack: Stack, **extra: str) -> None:
    """The environment the template gives the functions, pointed at the test stack."""
    s = stack.settings
    env = {
        "TABLE_NAME": s.table_name,
        "SCHEDULE_GROUP": s.schedule_group,
        "FIRE_FUNCTION_ARN": s.fire_function_arn,
        "SCHEDULER_ROLE_ARN": s.scheduler_role_arn,
        "SCHEDULER_DLQ_ARN": s.scheduler_dlq_arn,
        "DEFAULT_TIMEZONE": s.default_timezone,
        "AGENTS": '{"echo": "EchoAgentFunction"}',
        "STATIC_SCHEDULES": json.dumps({name: asdict(action) for name, action in s.static_schedules.items()}),
        "POWERTOOLS_METRICS_NAMESPACE": "cronbell-test",
    }
    env.update(extra)
    os.environ.update(env)
    wiring.settings.cache_clear()
    wiring.deps.cache_clear()


def invoke(function_dir: str, event: Any) -> Any:
    """Call a handler as Lambda would; a fire, as Scheduler invokes it, at its scheduled time."""
    installed = clock.installed()
    if function_dir == "fire" and isinstance(installed, FakeClock):
        at_slot(installed, event)
    return load_handler(function_dir).lambda_handler(event, LambdaContext(function_name=function_dir))


EVENTS = sorted((Path(ROOT) / "events").glob("*.json"))
