"""The one error type the tools answer with: a stable machine code plus a human message.

A refusal made with `refusal(key, ...)` carries a catalog key ("error.<code>[.<variant>]") and its
values; its words are chosen in the reader's language where the answer is shaped (`text(locale)`).
`message` is always the English text."""

from __future__ import annotations

from typing import Any

from cronbell.core.text import texts

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

ALL_CODES = frozenset(v for k, v in dict(globals()).items() if k.isupper() and isinstance(v, str))


class ToolError(Exception):
    """A refusal the caller can act on. `details` is JSON-safe extra data for the model (it may hold
    Phrases, rendered with the message)."""

    def __init__(
        self, code: str, message: str, details: dict[str, Any] | None = None, phrase: texts.Phrase | None = None
    ) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.details: dict[str, Any] = texts.render(details or {}, "en")  # English, like `message`
        self.phrase = phrase
        self.said_details = details or {}  # as given: phrases in it are said in the reader's language

    def text(self, locale: str | None) -> str:
        """The message in the language of `locale` (refusals made without a catalog key stay as given)."""
        if self.phrase is None or texts.language(locale) == "en":
            return self.message
        return self.phrase.render(locale)

    def to_dict(self, locale: str | None = "en") -> dict[str, Any]:
        out: dict[str, Any] = {"code": self.code, "message": self.text(locale)}
        if self.said_details:
            out["details"] = texts.render(self.said_details, locale)
        return out

    def __repr__(self) -> str:
        return f"ToolError({self.code!r}, {self.message!r})"

    def about(self, argument: str) -> ToolError:
        """This refusal as one about the argument `argument`: named in front of its sentence and in
        `details.argument` (a refusal that names one already is returned as it is)."""
        if "argument" in self.said_details:
            return self
        said = texts.Phrase("about_argument", {"argument": argument, "what": self.phrase or self.message})
        return ToolError(self.code, said.render("en"), {**self.said_details, "argument": argument}, said)


def refusal(key: str, details: dict[str, Any] | None = None, **values: Any) -> ToolError:
    """The refusal whose sentence is catalog key `error.<key>`; its code is the key's first part."""
    code = key.split(".", 1)[0]
    if code not in ALL_CODES:
        raise ValueError(f"no error code for {key!r}")
    said = texts.Phrase(f"error.{key}", values)
    return ToolError(code, said.render("en"), details, said)
