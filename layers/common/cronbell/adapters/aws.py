"""boto3 clients, created once per process and reused across invocations, and the one place
that turns an SDK failure into the domain's BackendError."""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import Any

import boto3
from botocore.config import Config
from botocore.exceptions import BotoCoreError, ClientError

from cronbell.core.domain.errors import BackendError

# Tools answers wait on these calls: fail fast, let the caller answer a clear error.
_CONFIG = Config(connect_timeout=3, read_timeout=10, retries={"max_attempts": 3, "mode": "standard"})


@cache
def client(service: str) -> Any:
    return boto3.client(service, config=_CONFIG)


class Lazy:
    """A client built at its first use, so a function does not build at a cold start the client of a
    service it never calls (the fire and tools functions never call Scheduler: the projector is its one
    writer) or calls rarely (EventBridge, for the tools function). Two threads using it first may both
    build one; either is kept."""

    def __init__(self, build: Callable[[], Any]) -> None:
        self._build = build
        self._client: Any = None

    def __getattr__(self, name: str) -> Any:
        if self._client is None:
            self._client = self._build()
        return getattr(self._client, name)


class AwsError(BackendError):
    """A failed AWS call. `code` is the service's error code ("" when no answer came back) and
    `response` its parsed answer; only adapters read them."""

    def __init__(self, err: Exception) -> None:
        super().__init__(str(err))
        self.response: dict[str, Any] = err.response if isinstance(err, ClientError) else {}
        self.code: str = str(self.response.get("Error", {}).get("Code", ""))


class Translating:
    """A boto3 client whose calls raise AwsError instead of botocore's exceptions."""

    def __init__(self, client: Any) -> None:
        self._client = client

    def __getattr__(self, name: str) -> Any:
        attr = getattr(self._client, name)
        if not callable(attr) or name == "get_paginator":
            return attr

        def call(*args: Any, **kwargs: Any) -> Any:
            return translated(attr, *args, **kwargs)

        return call


def translated(fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    """Call `fn`, raising AwsError for any botocore failure."""
    try:
        return fn(*args, **kwargs)
    except (ClientError, BotoCoreError) as err:
        raise AwsError(err) from err
