"""What the bench's parts share: paths, the handlers' environment, timing and formatting helpers."""

from __future__ import annotations

import os
import statistics
import sys
import time
from collections.abc import Callable, Iterable
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


def timed(fn: Callable[[], Any]) -> float:
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


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
