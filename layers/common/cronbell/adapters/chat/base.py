"""The HTTP plumbing the chat senders share. The interface they implement (`ChatSender`) and its
errors are the use cases' own, in `cronbell.core.domain.ports`; they are named here too for the senders."""

from __future__ import annotations

import http.client
import json
import logging
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Mapping
from typing import Any

from cronbell.adapters.secrets import SecretShape
from cronbell.core.domain.messages import ChatMessage
from cronbell.core.domain.ports import ChatSender, PermanentChatError, TransientChatError
from cronbell.core.values import value

__all__ = ["ChatMessage", "ChatSender", "PermanentChatError", "TransientChatError"]

log = logging.getLogger(__name__)


@value
class HttpAnswer:
    status: int
    body: Any  # decoded JSON, or None when the answer is empty or not JSON
    headers: Mapping[str, str]


def json_body(payload: Any) -> bytes:
    return json.dumps(payload).encode("utf-8")


def request_json(method: str, url: str, payload: Any, headers: Mapping[str, str], timeout: float) -> HttpAnswer:
    """One JSON request with the standard library. Any HTTP status comes back as an answer;
    a network failure or timeout raises TransientChatError (naming only the failure's type)."""
    return request_body(method, url, json_body(payload), headers, timeout)


def request_body(method: str, url: str, data: bytes, headers: Mapping[str, str], timeout: float) -> HttpAnswer:
    """`request_json` with the body already encoded (to sign exactly the bytes that are sent).
    Neither the URL nor the body ever appears in an error: a URL may hold a token."""
    if not url.lower().startswith(("http://", "https://")):
        raise PermanentChatError("the chat endpoint is not an http(s) URL")
    req = urllib.request.Request(url, data=data, method=method, headers={"Content-Type": "application/json", **headers})
    try:
        with urllib.request.urlopen(req, timeout=timeout) as answer:
            return HttpAnswer(answer.status, _decode(answer.read()), dict(answer.headers.items()))
    except urllib.error.HTTPError as err:
        try:
            raw = err.read()
        except (OSError, http.client.HTTPException):
            raw = b""
        return HttpAnswer(err.code, _decode(raw), dict(err.headers.items()) if err.headers else {})
    except (urllib.error.URLError, http.client.HTTPException, OSError, ValueError) as err:
        # refused, reset, DNS, timeout, a broken answer
        reason = getattr(err, "reason", None)
        kind = type(reason).__name__ if isinstance(reason, BaseException) else type(err).__name__
        raise TransientChatError(f"connection failed ({kind})") from None


def _decode(raw: bytes) -> Any:
    if not raw:
        return None
    try:
        return json.loads(raw)
    except ValueError:
        return None


def request_timeout(deadline: float | None, timeout: float, now: Callable[[], float] = time.monotonic) -> float:
    """`timeout`, cut short by the deadline. A deadline already passed is a transient failure."""
    if deadline is None:
        return timeout
    left = deadline - now()
    if left <= 0:
        raise TransientChatError("deadline passed before delivery")
    return min(timeout, left)


def wait_for_rate_limit(
    wait_seconds: float,
    deadline: float | None,
    max_wait: float,
    now: Callable[[], float] = time.monotonic,
    sleep: Callable[[float], None] = time.sleep,
) -> None:
    """Sleep out a rate limit if the retry still fits before the deadline, else raise TransientChatError."""
    wait_seconds = max(0.0, wait_seconds)
    fits = now() + wait_seconds < deadline if deadline is not None else wait_seconds <= max_wait
    if not fits:
        raise TransientChatError(f"rate limited (retry after {wait_seconds:.1f} s)")
    sleep(wait_seconds)


def header(headers: Mapping[str, str], name: str) -> str | None:
    """A header's value, whatever the case of its name."""
    wanted = name.lower()
    return next((value for key, value in headers.items() if key.lower() == wanted), None)


def seconds(value: object) -> float | None:
    """A non-negative number of seconds from a JSON number or a header's text; None when it is neither
    (a Retry-After given as an HTTP date reads as None)."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int | float):
        return max(0.0, float(value))
    if isinstance(value, str):
        try:
            number = float(value.strip())
        except ValueError:
            return None
        return max(0.0, number) if number == number else None  # NaN is not a wait
    return None


@value
class RetryAfter:
    """A rate-limited attempt: the platform asks to wait this many seconds."""

    seconds: float


def send_with_retries(
    attempt: Callable[[float], str | RetryAfter],
    deadline: float | None,
    timeout: float,
    max_attempts: int,
    max_rate_limit_wait: float,
) -> str:
    """Run `attempt(request_timeout)` until it returns a message id, waiting out each rate limit while
    the deadline allows. `attempt` raises PermanentChatError / TransientChatError for the other failures."""
    for _ in range(max_attempts):
        outcome = attempt(request_timeout(deadline, timeout))
        if not isinstance(outcome, RetryAfter):
            return outcome
        wait_for_rate_limit(outcome.seconds, deadline, max_rate_limit_wait)
        log.info("chat platform rate limit waited out", extra={"wait_seconds": round(outcome.seconds, 3)})
    raise TransientChatError(f"still rate limited after {max_attempts} attempts")


def secret_from(provider: Callable[[], str], what: str) -> str:
    """Call a token (or secret URL) provider. Its failure is worth a retry, and its message may hold the
    secret, so only the failure's type is kept; an empty value is permanent."""
    try:
        value = provider()
    except PermanentChatError:  # the provider knows there is no such token (a workspace without one)
        raise
    except SecretShape as err:  # its message quotes nothing of the value: it says what to fix
        raise TransientChatError(f"{what} lookup failed: {err}") from None
    except Exception as err:
        raise TransientChatError(f"{what} lookup failed ({type(err).__name__})") from None
    if not value or not value.strip():
        raise PermanentChatError(f"{what} is empty")
    return value.strip()


class StaleSecret(PermanentChatError):
    """The platform refused the token (or the secret URL) itself: perhaps rotated since it was cached."""


def with_fresh_secret(
    post: Callable[[str], str], provider: Callable[[], str], refresher: Callable[[], str] | None, what: str
) -> str:
    """`post` with the secret as cached; when the platform refuses that secret (StaleSecret), once more with the
    secret read again past its cache, so a rotated one takes effect at once. Refused again, it is permanent
    (never the room's fault: `room_gone` is False)."""
    try:
        return post(secret_from(provider, what))
    except StaleSecret:
        if refresher is None:
            raise
        return post(secret_from(refresher, what))


class ApiSender:
    """What the token-authenticated HTTP senders keep: the platform's API base URL, the token's
    source, and how long they may wait for answers and rate limits."""

    default_api_url = ""

    def __init__(
        self,
        token_provider: Callable[[], str],
        api_url: str = "",
        timeout: float = 10.0,
        max_attempts: int = 10,
        max_rate_limit_wait: float = 30.0,
        token_refresher: Callable[[], str] | None = None,
    ) -> None:
        self.token_provider = token_provider
        self.token_refresher = token_refresher  # reads the secret past its cache (a rotated token)
        self.api_url = (api_url or self.default_api_url).rstrip("/")
        self.timeout = timeout
        self.max_attempts = max_attempts
        self.max_rate_limit_wait = max_rate_limit_wait  # only when no deadline is given
