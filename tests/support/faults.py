"""Fault injection around boto3 clients: fail or "crash" at the Nth AWS call."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from botocore.exceptions import ClientError, ReadTimeoutError

from cronbell.adapters.dynamo import DynamoStore
from cronbell.adapters.scheduler import SchedulerGateway
from tests.support.aws import Stack


class Crash(BaseException):
    """The process stops right after an AWS call succeeded (nothing after it runs)."""


def throttling(op: str) -> Exception:
    return ClientError({"Error": {"Code": "ThrottlingException", "Message": "Rate exceeded"}}, op)


def server_error(op: str) -> Exception:
    return ClientError(
        {
            "Error": {"Code": "InternalServerError", "Message": "boom"},
            "ResponseMetadata": {"HTTPStatusCode": 500},
        },
        op,
    )


def timeout(op: str) -> Exception:
    return ReadTimeoutError(endpoint_url="http://aws")


def transaction_conflict(op: str) -> Exception:
    """What DynamoDB answers when another transaction is writing one of the same items."""
    conflict = {"Code": "TransactionConflict", "Message": "Transaction is ongoing for the item"}
    return ClientError(
        {
            "Error": {"Code": "TransactionCanceledException", "Message": "Transaction cancelled"},
            "CancellationReasons": [{"Code": "None"}, conflict, {"Code": "None"}],
        },
        op,
    )


def item_conflict(op: str) -> Exception:
    """What a single-item write gets while a transaction is writing the same item."""
    message = "Transaction is ongoing for the item"
    return ClientError({"Error": {"Code": "TransactionConflictException", "Message": message}}, op)


def refused(op: str) -> Exception:
    """What Scheduler answers to an entry it will never take as it is."""
    return ClientError({"Error": {"Code": "ValidationException", "Message": "Invalid Schedule Expression"}}, op)


FAILURES = {
    "refused": refused,
    "throttling": throttling,
    "500": server_error,
    "timeout": timeout,
    "conflict": transaction_conflict,
    "item conflict": item_conflict,
}


@dataclass
class CallLog:
    """Counts AWS calls across clients; fails or crashes at one chosen index."""

    fail_at: int | None = None
    failure: str = "throttling"
    crash_after: int | None = None
    calls: list[str] = field(default_factory=list)

    def wrap(self, client: Any) -> Any:
        return _Faulty(client, self)


class _Faulty:
    def __init__(self, client: Any, log: CallLog) -> None:
        self._client = client
        self._log = log

    def __getattr__(self, name: str) -> Any:
        attr = getattr(self._client, name)
        if name.startswith(("get_paginator", "meta", "exceptions")) or not callable(attr):
            return attr

        def call(*args: Any, **kwargs: Any) -> Any:
            index = len(self._log.calls)
            self._log.calls.append(name)
            if index == self._log.fail_at:
                raise FAILURES[self._log.failure](name)
            try:
                out = attr(*args, **kwargs)
            except Exception:
                if index == self._log.crash_after:
                    raise Crash(name) from None  # the process died as the failed call returned
                raise
            if index == self._log.crash_after:
                raise Crash(name)
            return out

        return call


def faulty_deps(stack: Stack, log: CallLog) -> Any:
    s = stack.settings
    return stack.deps(
        store=DynamoStore(log.wrap(stack.ddb), s.table_name, s.retention_days),
        scheduler=SchedulerGateway(
            log.wrap(stack.scheduler),
            s.schedule_group,
            s.fire_function_arn,
            s.scheduler_role_arn,
            s.scheduler_dlq_arn,
        ),
    )
