"""boto3 clients, created once per process and reused across invocations."""

from __future__ import annotations

from functools import cache
from typing import Any

import boto3
from botocore.config import Config

# Tools answers wait on these calls: fail fast, let the caller answer a clear error.
_CONFIG = Config(connect_timeout=3, read_timeout=10, retries={"max_attempts": 3, "mode": "standard"})


@cache
def client(service: str) -> Any:
    return boto3.client(service, config=_CONFIG)
