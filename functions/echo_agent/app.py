"""The example target agent: answers ``echo: <prompt>``, and a second line
``previous: <scheduled_time>`` when the request carries the schedule's previous answer.

A prompt that starts with ``sleep N`` (seconds, integer or decimal) makes it wait first, which is
how the agent-timeout paths are exercised. It needs nothing but the standard library.
"""

from __future__ import annotations

import json
import logging
import math
import re
import time
from typing import Any

logger = logging.getLogger("cronbell.echo_agent")
logger.setLevel(logging.INFO)

MAX_SLEEP_SECONDS = 290.0
"""Upper bound of a requested wait: below the function's 300 s timeout."""

SAFETY_MARGIN_SECONDS = 2.0
"""Time kept back from the invocation's remaining time so the answer is always sent."""

_SLEEP = re.compile(r"^\s*sleep\s+([+-]?(?:\d+(?:\.\d*)?|\.\d+))(?:\s|$)", re.IGNORECASE)


def sleep_seconds(prompt: str, limit: float = MAX_SLEEP_SECONDS) -> float:
    """Seconds a prompt asks to wait (``sleep N ...``), clamped to ``[0, limit]``; 0 when it asks none."""
    match = _SLEEP.match(prompt)
    if match is None:
        return 0.0
    seconds = float(match.group(1))
    if not math.isfinite(seconds) or seconds <= 0:
        return 0.0
    return min(seconds, max(limit, 0.0))


def _wait_limit(context: Any) -> float:
    """The longest wait this invocation can afford: the cap, or less when the runtime says so."""
    remaining = getattr(context, "get_remaining_time_in_millis", None)
    if not callable(remaining):
        return MAX_SLEEP_SECONDS
    try:
        left = float(remaining()) / 1000.0 - SAFETY_MARGIN_SECONDS
    except Exception:  # a foreign context object must not break the answer
        return MAX_SLEEP_SECONDS
    return max(0.0, min(MAX_SLEEP_SECONDS, left))


def _prompt_of(event: Any) -> str | None:
    if isinstance(event, (str, bytes, bytearray)):
        try:
            event = json.loads(event)
        except ValueError:
            return None
    if not isinstance(event, dict):
        return None
    prompt = event.get("prompt")
    if not isinstance(prompt, str) or not prompt.strip():
        return None
    return prompt


def lambda_handler(event: Any, context: Any) -> dict[str, str]:
    """Answer ``{"text": "echo: <prompt>"}``; bad input gets ``{"text": "", "error": ...}``, never raises."""
    prompt = _prompt_of(event)
    if prompt is None:
        logger.warning("echo agent: no prompt in the event")
        return {"text": "", "error": "the event needs a non-empty string 'prompt'"}
    wait = sleep_seconds(prompt, _wait_limit(context))
    if wait > 0:
        logger.info("echo agent: sleeping %.3f s", wait)
        time.sleep(wait)
    return {"text": f"echo: {prompt}{_previous_line(event)}"}


def _previous_line(event: Any) -> str:
    previous = event.get("previous") if isinstance(event, dict) else None
    if not isinstance(previous, dict) or not isinstance(previous.get("scheduled_time"), str):
        return ""
    return f"\nprevious: {previous['scheduled_time']}"
