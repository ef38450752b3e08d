"""What every inbound adapter shares: the use-case call, and refusals that never escape as exceptions."""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from typing import Any

from cronbell.core import errors, texts
from cronbell.core.envelope import failure
from cronbell.core.errors import ToolError

log = logging.getLogger(__name__)

# The tools use case, bound to its dependencies: one envelope in, one answer out.
Call = Callable[[dict[str, Any]], dict[str, Any]]


def refusal(error: ToolError, locale: str) -> dict[str, Any]:
    """An answer in the tools contract's shape for a refusal made before the use case ran."""
    return failure(error, texts.say("error", locale or "en", message=error.message))


def answer(convert: Callable[[], dict[str, Any]], call: Call, locale: str) -> dict[str, Any]:
    """Convert the event to an envelope and call the use case; any failure becomes an error answer."""
    try:
        envelope = convert()
    except ToolError as err:
        log.warning("inbound event refused: %s", err.code)
        return refusal(err, locale)
    except Exception:  # a malformed event must still get a structured answer
        log.exception("inbound conversion failed")
        return refusal(ToolError(errors.INVALID_REQUEST, "the event could not be read"), locale)
    try:
        return call(envelope)
    except Exception:  # the use case never raises; wiring (settings, clients) still might
        log.exception("tool call failed")
        return refusal(
            ToolError(errors.INTERNAL_ERROR, "internal error; list the schedules to see what is in place"),
            locale,
        )


def answer_text(answer: dict[str, Any]) -> str:
    """The answer as JSON text: what both Bedrock and MCP hand the model."""
    return json.dumps(answer, ensure_ascii=False, default=str)
