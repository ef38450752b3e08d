"""Lambda's context object and client context. Standard library only: the runtime worker
(sandbox/runtime_worker.py) imports this module under the runtime's Python, which has nothing else."""

from __future__ import annotations

import base64
import json
import time
import uuid
from collections.abc import Mapping
from typing import Any


class Client:
    """`context.client_context.client` (the mobile SDK's client fields)."""

    def __init__(self, data: Mapping[str, Any]) -> None:
        self.installation_id = data.get("installation_id")
        self.app_title = data.get("app_title")
        self.app_version_name = data.get("app_version_name")
        self.app_version_code = data.get("app_version_code")
        self.app_package_name = data.get("app_package_name")


class ClientContext:
    """`context.client_context`, parsed from the base64 JSON `X-Amz-Client-Context` header."""

    def __init__(self, data: Mapping[str, Any]) -> None:
        self.data = dict(data)
        client = data.get("client")
        self.client = Client(client) if isinstance(client, Mapping) else None
        self.custom = data.get("custom")
        self.env = data.get("env")


def parse_client_context(header: str | None) -> ClientContext | None:
    """Lambda refuses a client context that is not base64 JSON; so do we (ValueError)."""
    if not header:
        return None
    try:
        data = json.loads(base64.b64decode(header, validate=True))
    except (ValueError, TypeError):
        raise ValueError("X-Amz-Client-Context is not base64-encoded JSON") from None
    if not isinstance(data, dict):
        raise ValueError("X-Amz-Client-Context must encode a JSON object")
    return ClientContext(data)


class LambdaContext:
    """The attributes and method a handler reads from Lambda's context object."""

    def __init__(
        self,
        function_name: str,
        function_arn: str,
        memory: int,
        timeout: float,
        request_id: str,
        client_context: ClientContext | None,
    ) -> None:
        self.function_name = function_name
        self.function_version = "$LATEST"
        self.invoked_function_arn = function_arn
        self.memory_limit_in_mb = str(memory)
        self.aws_request_id = request_id
        self.log_group_name = f"/aws/lambda/{function_name}"
        self.log_stream_name = f"{time.strftime('%Y/%m/%d')}/[$LATEST]{uuid.uuid4().hex}"
        self.identity = None
        self.client_context = client_context
        self._deadline = time.monotonic() + timeout

    def get_remaining_time_in_millis(self) -> int:
        return max(0, int((self._deadline - time.monotonic()) * 1000))
