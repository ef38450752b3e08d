"""What every inbound adapter shares: the use-case call, and refusals that never escape as exceptions."""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from dataclasses import fields
from typing import Any

from cronbell.core.contract.envelope import Context, refused
from cronbell.core.domain.refusals import ToolError, refusal

log = logging.getLogger(__name__)

# The tools use case, bound to its dependencies: one envelope in, one answer out.
Call = Callable[[dict[str, Any]], dict[str, Any]]

# Every field of the envelope's context (room, user, agent, zone, locale, thread, platform): what an
# adapter copies from the event's trusted part, never from the model's arguments.
CONTEXT_KEYS = tuple(f.name for f in fields(Context))


def answer(convert: Callable[[], dict[str, Any]], call: Call, locale: str | None) -> dict[str, Any]:
    """Convert the event to an envelope and call the use case; any failure becomes an error answer, said
    in the language of `locale` (the caller's, as far as the event tells it before the use case runs)."""
    try:
        envelope = convert()
    except ToolError as err:
        log.warning("inbound event refused: %s", err.code)
        return refused(err, locale)
    except Exception:  # a malformed event must still get a structured answer
        log.exception("inbound conversion failed")
        return refused(refusal("invalid_request.unreadable"), locale)
    try:
        return call(envelope)
    except Exception:  # the use case never raises; wiring (settings, clients) still might
        log.exception("tool call failed")
        return refused(refusal("internal_error"), locale)


def answer_text(answer: dict[str, Any]) -> str:
    """The answer as JSON text: what both Bedrock and MCP hand the model."""
    return json.dumps(answer, ensure_ascii=False, default=str)
