"""Invoking target agent Lambdas: synchronous, one attempt, a read timeout past the agent's."""

from __future__ import annotations

import json
from collections.abc import Mapping
from functools import cache
from typing import Any

import boto3
from botocore.config import Config
from botocore.exceptions import BotoCoreError, ClientError, ReadTimeoutError

from cronbell.core.domain.phrases import phrase
from cronbell.core.domain.ports import AgentError, AgentTimeout, UnknownAgent


@cache
def _client(read_timeout: int) -> Any:
    # The agent gets exactly its timeout to answer (the fire function's own timeout is longer).
    # No SDK retries: a retried read timeout would run the agent a second time. `total_max_attempts` counts
    # the first attempt; botocore's `max_attempts` counts retries only (1 would send the request twice).
    config = Config(connect_timeout=5, read_timeout=read_timeout, retries={"total_max_attempts": 1, "mode": "standard"})
    return boto3.client("lambda", config=config)


def parse_answer(payload: Any) -> str:
    """The agent contract answers {"text": "..."}; a bare string is accepted too, and `"text": null` or ""
    is an answer with nothing to post. An object without `text`, or one that reports an `error`, is the
    agent failing (never nothing to post: that would skip every run of a broken agent without a notice)."""
    if isinstance(payload, str):
        return payload.strip()
    if isinstance(payload, dict) and "text" in payload:
        text = payload["text"]
        if payload.get("error"):
            raise AgentError(phrase("agent.reported_error"))
        if isinstance(text, str):
            return text.strip()
        if text is None:
            return ""
    raise AgentError(phrase("agent.unexpected_shape"))


class LambdaAgents:
    """The `cronbell.core.domain.ports.Agents` as Lambda functions from the deployment's allowlist."""

    def __init__(self, allowlist: Mapping[str, str]) -> None:
        self._allowlist = dict(allowlist)

    @property
    def configured(self) -> bool:
        return bool(self._allowlist)

    def call(self, agent_id: str, request: dict[str, Any], timeout_seconds: int) -> str:
        function = self._allowlist.get(agent_id)
        if function is None:
            raise UnknownAgent(phrase("agent.unknown", agent=agent_id))
        try:
            out = _client(timeout_seconds).invoke(
                FunctionName=function,
                InvocationType="RequestResponse",
                Payload=json.dumps(request).encode(),
            )
        except ReadTimeoutError as err:
            raise AgentTimeout(phrase("agent.timeout", seconds=timeout_seconds)) from err
        except (ClientError, BotoCoreError) as err:
            raise AgentError(phrase("agent.unreachable", error=type(err).__name__)) from err
        body = out["Payload"].read()
        if out.get("FunctionError"):
            raise AgentError(phrase("agent.failed"))
        try:
            payload = json.loads(body or b"null")
        except ValueError as err:
            raise AgentError(phrase("agent.not_json")) from err
        return parse_answer(payload)
