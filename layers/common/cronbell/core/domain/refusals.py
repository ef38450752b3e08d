"""The one refusal the tools answer with: a stable machine code (the contract's codes, listed here), what
to say (a catalog phrase, or a text as given) and JSON-safe details for the model. Its words are chosen in
the reader's language where the answer is shaped (core/contract/errors.py), so the domain raises it without
knowing any language."""

from __future__ import annotations

from typing import Any

from cronbell.core.domain.phrases import Phrase

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

ALL_CODES = frozenset(v for k, v in dict(globals()).items() if k.isupper() and isinstance(v, str))


class ToolError(Exception):
    """A refusal the caller can act on. `said` is what to say: a catalog phrase, or a text as given.
    `details` may hold phrases, said in the reader's language with the message. `english` is the English
    message when it is not `said` in English (an arguments refusal lists its problems as they were found)."""

    def __init__(
        self, code: str, said: Phrase | str, details: dict[str, Any] | None = None, english: str | None = None
    ) -> None:
        super().__init__(code)
        self.code = code
        self.said = said
        self.details: dict[str, Any] = details or {}
        self.english = english

    def __str__(self) -> str:
        return f"{self.code}: {self.said.key if isinstance(self.said, Phrase) else self.said}"

    def __repr__(self) -> str:
        return f"ToolError({self.code!r}, {self.said!r})"

    def about(self, argument: str) -> ToolError:
        """This refusal as one about the argument `argument`: named in front of its sentence and in
        `details.argument` (a refusal that names one already is returned as it is)."""
        if "argument" in self.details:
            return self
        said = Phrase("about_argument", {"argument": argument, "what": self.said})
        return ToolError(self.code, said, {**self.details, "argument": argument})


def refused_as(err: ToolError, key: str) -> bool:
    """Whether `err` is the refusal of catalog key `error.<key>`, named as one about an argument or not."""
    said = err.said
    if isinstance(said, Phrase) and said.key == "about_argument":
        said = said.values["what"]
    return isinstance(said, Phrase) and said.key == f"error.{key}"


def refusal(key: str, details: dict[str, Any] | None = None, **values: Any) -> ToolError:
    """The refusal whose sentence is catalog key `error.<key>`; its code is the key's first part."""
    code = key.split(".", 1)[0]
    if code not in ALL_CODES:
        raise ValueError(f"no error code for {key!r}")
    return ToolError(code, Phrase(f"error.{key}", values), details)
