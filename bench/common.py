"""What the bench's parts share: paths, the handlers' environment, the chat sink and Lambda context the
handlers get, and the machine's description."""

from __future__ import annotations

import os
import statistics
import sys
import time
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
LAYER_SRC = ROOT / "layers" / "common"
FUNCTIONS = ("tools", "fire")
REGION = "us-east-1"

# Names a boto3 client or a handler reads; everything else of the caller's environment is left out of the
# cold-start runs, so two machines measure the same thing.
_KEEP = ("PATH", "HOME", "LANG", "LC_ALL", "TMPDIR", "SYSTEMROOT")


def fake_aws_env(endpoint: str = "") -> dict[str, str]:
    env = {
        "AWS_ACCESS_KEY_ID": "bench",
        "AWS_SECRET_ACCESS_KEY": "bench",
        "AWS_DEFAULT_REGION": REGION,
        "AWS_REGION": REGION,
        "AWS_EC2_METADATA_DISABLED": "true",
    }
    if endpoint:
        env["AWS_ENDPOINT_URL"] = endpoint
    return env


def lambda_env(function: str, extra: dict[str, str] | None = None) -> dict[str, str]:
    """A clean environment shaped like the one Lambda gives the function (names from template.yaml)."""
    env = {k: v for k, v in os.environ.items() if k in _KEEP}
    env.update(fake_aws_env())
    env.update(
        {
            "AWS_LAMBDA_FUNCTION_NAME": f"cronbell-{function}",
            "AWS_LAMBDA_FUNCTION_MEMORY_SIZE": "256",
            "AWS_EXECUTION_ENV": "AWS_Lambda_python3.12",
            "POWERTOOLS_SERVICE_NAME": "cronbell",
            "POWERTOOLS_METRICS_NAMESPACE": "cronbell",
            "POWERTOOLS_TRACE_DISABLED": "true",
            "LOG_LEVEL": "INFO",
            "TABLE_NAME": "cronbell-ScheduleTable",
            "SCHEDULE_GROUP": "cronbell",
            "DEFAULT_TIMEZONE": "UTC",
            "AGENTS": '{"echo": "cronbell-EchoAgentFunction"}',
        }
    )
    env.update(extra or {})
    return env


def median(values: Iterable[float]) -> float:
    return float(statistics.median(list(values)))


def machine() -> str:
    """One line naming the machine the figures come from."""
    cpu = ""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    mem = ""
    try:
        kb = int(Path("/proc/meminfo").read_text().split()[1])
        mem = f", {kb / 1024 / 1024:.0f} GiB"
    except (OSError, ValueError, IndexError):
        pass
    version = ".".join(map(str, sys.version_info[:3]))
    return f"{os.cpu_count()} cores {cpu or 'unknown CPU'}{mem}, {sys.platform}, Python {version}"


@dataclass
class SinkSender:
    """The chat sender the fire handler gets in the bench: the sandbox's sink chat, called in process."""

    sink: Any
    posts: int = 0

    def send(self, message: Any, idempotency_key: str, deadline: float | None = None) -> str:
        self.posts += 1
        body = {
            "room_id": message.room_id,
            "text": message.text,
            "html": message.html,
            "mentions": list(message.mentions),
        }
        return str(self.sink.receive(body, idempotency_key))


class Context:
    """The attributes and method the handlers read from Lambda's context object."""

    def __init__(self, function_name: str, timeout_ms: int = 300_000) -> None:
        self.function_name = function_name
        self.function_version = "$LATEST"
        self.invoked_function_arn = f"arn:aws:lambda:{REGION}:123456789012:function:{function_name}"
        self.memory_limit_in_mb = 256
        self.aws_request_id = ""
        self.log_group_name = f"/aws/lambda/{function_name}"
        self.log_stream_name = "bench"
        self.client_context = None
        self.identity = None
        self._deadline = time.monotonic() + timeout_ms / 1000

    def get_remaining_time_in_millis(self) -> int:
        return max(0, int((self._deadline - time.monotonic()) * 1000))


def load_function(name: str) -> Any:
    """A function's handler module, loaded from its folder as Lambda loads `app` (and nothing else)."""
    import importlib.util

    spec = importlib.util.spec_from_file_location(f"bench_function_{name}", ROOT / "functions" / name / "app.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module
