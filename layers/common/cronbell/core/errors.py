"""The one error type the tools answer with: a stable machine code plus a human message."""

from __future__ import annotations

from typing import Any

# Stable error codes of the tools contract. Bots may branch on them; never rename one.
INVALID_REQUEST = "invalid_request"  # the envelope itself is malformed
MISSING_CONTEXT = "missing_context"  # context lacks room_id / user_id
UNKNOWN_TOOL = "unknown_tool"
INVALID_ARGUMENTS = "invalid_arguments"  # missing, unexpected or wrong-typed arguments
TOO_LONG = "too_long"  # message, prompt or name over its limit
INVALID_TIME = "invalid_time"  # a one-shot time we cannot read
TIME_IN_PAST = "time_in_past"
INVALID_CRON = "invalid_cron"
NEVER_FIRES = "never_fires"
TOO_FREQUENT = "too_frequent"  # fires more often than MinIntervalMinutes
INVALID_TIMEZONE = "invalid_timezone"
LIMIT_REACHED = "limit_reached"  # MaxPerRoom active schedules
NOT_FOUND = "not_found"
AMBIGUOUS = "ambiguous"  # a name matches several schedules
NAME_TAKEN = "name_taken"  # another live schedule of the room has this name
DUPLICATE = "duplicate"  # a change would make a schedule identical to another live one
INVALID_STATE = "invalid_state"  # e.g. resume what is not paused, skip on a one-shot
UNKNOWN_AGENT = "unknown_agent"
FORBIDDEN_CHANNEL = "forbidden_channel"
UNKNOWN_PLATFORM = "unknown_platform"  # context.platform names no chat backend of this deployment
BUSY = "busy"  # a delivery of the schedule is under way; the same call works in a moment
BACKEND_ERROR = "backend_error"  # AWS failed; nothing was changed
INTERNAL_ERROR = "internal_error"


class ToolError(Exception):
    """A refusal the caller can act on. `details` is JSON-safe extra data for the model."""

    def __init__(self, code: str, message: str, details: dict[str, Any] | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.details = details or {}

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"code": self.code, "message": self.message}
        if self.details:
            out["details"] = self.details
        return out

    def __repr__(self) -> str:
        return f"ToolError({self.code!r}, {self.message!r})"
