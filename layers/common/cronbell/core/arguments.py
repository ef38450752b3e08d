"""The tools' arguments as the model writes them: one strict model per tool.

These models are the single source of the tools' argument contract (names, types, limits).
Identity never appears here: room, user and agent come only from the envelope's context.
"""

from __future__ import annotations

import json
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StringConstraints, ValidationError, model_validator

from cronbell.core.errors import INVALID_ARGUMENTS, TOO_LONG, ToolError

MAX_MESSAGE = 2000
MAX_PROMPT = 8000
MAX_NAME = 100

_Text = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1)]
Message = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=MAX_MESSAGE)]
Prompt = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=MAX_PROMPT)]
Name = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=MAX_NAME)]
Short = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=200)]


class _Args(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)


class CreateReminder(_Args):
    """Remind this room's user with a message, once (`time`) or on a schedule (`cron`)."""

    message: Message = Field(description="The reminder text, written for the user.")
    time: Short | None = Field(
        None,
        description="When, once: RFC3339, 'YYYY-MM-DD HH:MM', 'HH:MM', 'in 30 minutes', "
        "'tomorrow at 9', 'next monday at 10' (English or Spanish), in the user's zone.",
    )
    cron: Short | None = Field(
        None, description="When, repeatedly: five-field cron 'MIN HOUR DOM MON DOW' or 'every monday at 10'."
    )
    recurring: bool | None = Field(None, description="True for a repeating reminder (with `cron`).")
    timezone: Short | None = Field(None, description="IANA zone such as Europe/Madrid; default: the user's.")

    @model_validator(mode="after")
    def _one_when(self) -> CreateReminder:
        if (self.time is None) == (self.cron is None):
            raise ValueError("give exactly one of `time` (once) or `cron` (recurring)")
        if self.cron is not None and self.recurring is False:
            raise ValueError("`cron` is recurring; use `time` for a one-shot reminder")
        return self


class ListReminders(_Args):
    include_inactive: bool = Field(False, description="Also show fired, deleted and failed schedules.")


class DeleteById(_Args):
    id: Short = Field(description="The schedule id (from a list), or its unique name.")


class CronCreate(_Args):
    """At fire time an agent is given the prompt and its answer is posted to the channel."""

    name: Name = Field(description="A short name for the job, to find it later by name.")
    prompt: Prompt = Field(description="What the agent must do; it must stand alone, without this chat.")
    cron_expr: Short | None = Field(None, description="Five-field cron 'MIN HOUR DOM MON DOW' or a phrase.")
    fire_at: Short | None = Field(None, description="RFC3339 instant for a single run.")
    skills: list[Short] = Field(default_factory=list, max_length=20, description="Skills given to the agent.")
    channel: Short | None = Field(None, description="Room id where the answer is posted; default this room.")
    target_agent: Short | None = Field(None, description="Agent id to run; default the calling agent.")
    recurring: bool | None = Field(None, description="Default true with cron_expr, false with fire_at.")
    timezone: Short | None = Field(None, description="IANA zone for cron_expr; default: the user's.")
    timeout_seconds: int | None = Field(None, ge=1, description="How long the agent may take.")

    @model_validator(mode="after")
    def _one_when(self) -> CronCreate:
        if (self.cron_expr is None) == (self.fire_at is None):
            raise ValueError("give exactly one of `cron_expr` (recurring) or `fire_at` (RFC3339, once)")
        if self.fire_at is not None and self.recurring:
            raise ValueError("`fire_at` runs once; use `cron_expr` for a recurring job")
        return self


class CronList(_Args):
    pass


class RunNow(_Args):
    kind: Literal["cron"] = Field("cron", description="What to run: 'cron'.")
    target: Short = Field(description="The schedule id or name.")


def parse(model: type[_Args], arguments: Any) -> Any:
    """Validate `arguments` into `model`, or raise a ToolError that says what is wrong."""
    if arguments is None:
        arguments = {}
    if isinstance(arguments, str):  # function-calling APIs often hand arguments over as JSON text
        try:
            arguments = json.loads(arguments) if arguments.strip() else {}
        except ValueError:
            raise ToolError(INVALID_ARGUMENTS, "`arguments` is text that is not valid JSON") from None
    if not isinstance(arguments, dict):
        raise ToolError(INVALID_ARGUMENTS, "`arguments` must be a JSON object")
    try:
        return model.model_validate(arguments)
    except ValidationError as err:
        problems = []
        too_long = False
        for e in err.errors(include_url=False, include_input=False):
            where = ".".join(str(p) for p in e["loc"]) or "arguments"
            problems.append(f"{where}: {e['msg']}")
            too_long = too_long or e["type"] in ("string_too_long", "too_long")
        code = TOO_LONG if too_long else INVALID_ARGUMENTS
        raise ToolError(code, "; ".join(problems)[:1000], {"problems": problems[:10]}) from None
