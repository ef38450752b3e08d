"""DynamoDB's idempotent TransactWriteItems, which moto lacks.

botocore gives every TransactWriteItems a ClientRequestToken of its own and sends the same token again
when it retries the request (after a read timeout, say). DynamoDB applies a token once: for 10 minutes
after the first request with it completed, the same request again is answered as it was and changes
nothing, and the token with other parameters is refused (IdempotentParameterMismatchException). moto
applies each request again, so a transaction whose answer was lost and then retried by botocore
found its own writes in place: a create whose item must not exist yet was refused by itself.

Only successful answers are kept: a cancelled transaction changed nothing, and running it again
reads the table as it is then, as a new request would.
"""

from __future__ import annotations

import hashlib
import io
import json
import time
from collections.abc import Callable
from typing import Any

WINDOW_SECONDS = 600.0
_TARGET = "DynamoDB_20120810.TransactWriteItems"
_MISMATCH = json.dumps(
    {
        "__type": "com.amazonaws.dynamodb.v20120810#IdempotentParameterMismatchException",
        "message": "The request uses the same client token as a previous, but non-identical request.",
    }
).encode()

Answer = tuple[int, list[tuple[str, str]], bytes]  # status, headers, body


def _token_and_digest(environ: dict[str, Any]) -> tuple[str, str] | None:
    """A TransactWriteItems request's token and a digest of its other parameters; the body it reads is
    put back for the application. None for any other request, or one without a token."""
    if environ.get("HTTP_X_AMZ_TARGET") != _TARGET:
        return None
    length = environ.get("CONTENT_LENGTH")
    if length:
        data = environ["wsgi.input"].read(int(length))
    elif environ.get("wsgi.input_terminated"):  # chunked: the server ends the stream
        data = environ["wsgi.input"].read()
    else:
        return None  # nothing to read without blocking: moto reads it as it always does
    environ["wsgi.input"] = io.BytesIO(data)
    try:
        parameters = json.loads(data or b"{}")
    except ValueError:
        return None  # moto answers it
    token = parameters.pop("ClientRequestToken", None) if isinstance(parameters, dict) else None
    if not isinstance(token, str) or not token:
        return None
    return token, hashlib.sha256(json.dumps(parameters, sort_keys=True).encode()).hexdigest()


class TransactionTokens:
    """The answers of the transactions applied in the last 10 minutes, by client token. Not thread-safe:
    the server calls it under the lock that applies one request at a time."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._kept: dict[str, tuple[float, str, Answer]] = {}  # token -> (until, digest, answer), oldest first

    def answered(self, environ: dict[str, Any], run: Callable[[], Answer]) -> Answer:
        """The answer to a request: `run()` unless it repeats a transaction applied with its token."""
        tokened = _token_and_digest(environ)
        if tokened is None:
            return run()
        token, digest = tokened
        now = self._clock()
        self._forget_until(now)
        kept = self._kept.get(token)
        if kept is not None:
            _, kept_digest, answer = kept
            if kept_digest != digest:
                return 400, [("Content-Type", "application/x-amz-json-1.0")], _MISMATCH
            return answer
        answer = run()
        if answer[0] == 200:
            self._kept[token] = (now + WINDOW_SECONDS, digest, answer)
        return answer

    def _forget_until(self, now: float) -> None:
        while self._kept:
            token, (until, _, _) = next(iter(self._kept.items()))
            if until > now:
                return
            del self._kept[token]
