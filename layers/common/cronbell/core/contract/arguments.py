"""The tools' arguments as the model writes them: one strict model per tool.

These models are the single source of the tools' argument contract (names, types, limits and the
rules that span fields). Identity never appears here: room, user and agent come only from the
envelope's context.

Not on the run-time path: the Lambda functions never import this module (nor pydantic, which is not
in the layer). `make schemas` (`scripts/schemas.py`) turns the models into the providers' tool schemas
in `docs/tools/` and into `core/contract/contract.json`, which `cronbell.core.contract.validation` checks arguments
against at run time. A property test holds `validation.parse` and `parse` below to the same answers.
Cross-field rules are declared as data in each model's `RULES` (so the generator can copy them), and
the one model validator of `_Args` applies them with the same function the run time uses.
"""

from __future__ import annotations

from typing import Annotated, Any, ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field, StringConstraints, ValidationError, model_validator

from cronbell.core.contract.validation import arguments_object, broken_rule, refusal
from cronbell.core.domain.phrases import Phrase, phrase

MAX_MESSAGE = 2000
MAX_PROMPT = 8000
MAX_NAME = 100
MAX_SNOOZE_MINUTES = 7 * 24 * 60
MAX_COUNT = 1000  # `count`: delivered runs before a recurring schedule completes
UNTIL = (
    "Recurring only: the last moment it may fire, in the user's zone: the same forms as `time`, or a "
    "date 'YYYY-MM-DD' (through the end of that day)."
)
COUNT = f"Recurring only: complete after this many delivered runs, 1 to {MAX_COUNT}."
SKIP_HOLIDAYS = (
    "Recurring only: skip public holidays of this calendar, an ISO 3166-1 country code with an "
    "optional subdivision: 'ES', 'ES-MD', 'US', 'US-CA', 'GB-SCT'."
)
BUSINESS_DAYS = (
    "Recurring only, needs `skip_holidays` (the calendar): fire only on Monday to Friday that are not "
    "its public holidays."
)
BUSINESS_DAY_OF_MONTH = (
    "Recurring only, needs `skip_holidays`: fire on this business day of each month, 1 to 23, or -1 for "
    "the last, at the times of `cron` (day fields `*`, e.g. '0 9 * * *')."
)
ON_HOLIDAY = (
    "Recurring only, needs `skip_holidays`: an occurrence on a holiday (or, with business days, a day off) "
    "is skipped ('skip', the default) or moved once to the previous ('before') or next ('after') business day."
)
OnHoliday = Literal["skip", "before", "after"]

_Text = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1)]
Message = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=MAX_MESSAGE)]
Prompt = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=MAX_PROMPT)]
Name = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=MAX_NAME)]
Short = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=200)]


Rule = dict[str, Any]


def exactly_one(*fields: str, message: str) -> Rule:
    return {"rule": "exactly_one", "fields": list(fields), "message": message}


def at_most_one(*fields: str, message: str) -> Rule:
    return {"rule": "at_most_one", "fields": list(fields), "message": message}


def at_least_one(*fields: str, message: str) -> Rule:
    return {"rule": "at_least_one", "fields": list(fields), "message": message}


def refused_with(field: str, value: Any, *, when_given: str, message: str) -> Rule:
    """`field` may not be `value` while `when_given` is given (not None)."""
    return {"rule": "refused_with", "field": field, "value": value, "when_given": when_given, "message": message}


OCCURRENCE_SNOOZE = (
    "Optional, RFC3339: the scheduled time of the occurrence to snooze (a button under a delivered post "
    "names it). A coming one moves later; one already delivered is reminded again from now."
)
OCCURRENCE_SKIP = "Optional, RFC3339: the scheduled time of the coming occurrence to skip; default: the next one."

REPEAT_EVERY = (
    "Optional, minutes (5 to 240): after each delivery, post the reminder again this often until someone "
    "acknowledges it (done_reminder, or the Done button)."
)
REPEAT_TIMES = "With `repeat_every`: at most this many posts again (1 to 20, default 6)."
ESCALATE_TO = (
    "With `repeat_every`, optional: a user to mention in this room, `@` and their id (`@U0BOSS`), or an "
    "allowed output room, told once when the repeats run out unacknowledged."
)

# the recurring forms the tool descriptions name
REPEATS = (
    "five-field cron 'MIN HOUR DOM MON DOW', 'every monday at 10', 'every other monday at 10' or 'every 3 days at 9'."
)


class _Args(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True, defer_build=True)

    # Rules that span fields, checked in order once every field is valid; the first broken one refuses.
    RULES: ClassVar[tuple[Rule, ...]] = ()

    @model_validator(mode="after")
    def _rules(self) -> _Args:
        message = broken_rule(list(self.RULES), {name: getattr(self, name) for name in type(self).model_fields})
        if message is not None:
            raise ValueError(message)
        return self


class CreateReminder(_Args):
    """Remind this room's user with a message, once (`time`) or on a schedule (`cron`)."""

    message: Message = Field(description="The reminder text, written for the user.")
    time: Short | None = Field(
        None,
        description="When, once: RFC3339, 'YYYY-MM-DD HH:MM', 'HH:MM', 'in 30 minutes', "
        "'tomorrow at 9', 'next monday at 10' (English or Spanish), in the user's zone.",
    )
    cron: Short | None = Field(None, description=f"When, repeatedly: {REPEATS}")
    recurring: bool | None = Field(None, description="True for a repeating reminder (with `cron`).")
    timezone: Short | None = Field(None, description="IANA zone such as Europe/Madrid; default: the user's.")
    until: Short | None = Field(None, description=UNTIL)
    count: int | None = Field(None, ge=1, le=MAX_COUNT, description=COUNT)
    skip_holidays: Short | None = Field(None, description=SKIP_HOLIDAYS)
    business_days: bool | None = Field(None, description=BUSINESS_DAYS)
    business_day_of_month: int | None = Field(None, ge=-1, le=23, description=BUSINESS_DAY_OF_MONTH)
    on_holiday: OnHoliday | None = Field(None, description=ON_HOLIDAY)
    repeat_every: int | None = Field(None, ge=5, le=240, description=REPEAT_EVERY)
    repeat_times: int | None = Field(None, ge=1, le=20, description=REPEAT_TIMES)
    escalate_to: Short | None = Field(None, description=ESCALATE_TO)

    RULES = (
        exactly_one("time", "cron", message="give exactly one of `time` (once) or `cron` (recurring)"),
        refused_with(
            "recurring", False, when_given="cron", message="`cron` is recurring; use `time` for a one-shot reminder"
        ),
    )


class ListReminders(_Args):
    include_inactive: bool = Field(False, description="Also show fired, deleted and failed schedules.")


class ById(_Args):
    """One schedule of this room, by id or name: delete, pause, resume and skip the next fire."""

    id: Short = Field(description="The schedule id (from a list), or its unique name.")


class CronCreate(_Args):
    """At fire time an agent is given the prompt and its answer is posted to the channel."""

    name: Name = Field(description="A short name for the job, to find it later by name.")
    prompt: Prompt = Field(description="What the agent must do; it must stand alone, without this chat.")
    cron_expr: Short | None = Field(None, description=f"When, repeatedly: {REPEATS}")
    fire_at: Short | None = Field(
        None,
        description="When, once: RFC3339 (read in `timezone` when it has no offset) or a phrase like 'tomorrow at 9'.",
    )
    skills: list[Short] = Field(default_factory=list, max_length=20, description="Skills given to the agent.")
    channel: Short | None = Field(None, description="Room id where the answer is posted; default this room.")
    target_agent: Short | None = Field(None, description="Agent id to run; default the calling agent.")
    recurring: bool | None = Field(None, description="Default true with cron_expr, false with fire_at.")
    timezone: Short | None = Field(None, description="IANA zone for cron_expr; default: the user's.")
    timeout_seconds: int | None = Field(
        None,
        ge=1,
        description="Seconds the agent may take, at most the deployment's limit (240 as shipped); default: its own.",
    )
    until: Short | None = Field(None, description=UNTIL)
    count: int | None = Field(None, ge=1, le=MAX_COUNT, description=COUNT)
    skip_holidays: Short | None = Field(None, description=SKIP_HOLIDAYS)
    business_days: bool | None = Field(None, description=BUSINESS_DAYS)
    business_day_of_month: int | None = Field(
        None, ge=-1, le=23, description=BUSINESS_DAY_OF_MONTH.replace("`cron`", "`cron_expr`")
    )
    on_holiday: OnHoliday | None = Field(None, description=ON_HOLIDAY)

    RULES = (
        exactly_one(
            "cron_expr", "fire_at", message="give exactly one of `cron_expr` (recurring) or `fire_at` (RFC3339, once)"
        ),
        refused_with(
            "recurring", True, when_given="fire_at", message="`fire_at` runs once; use `cron_expr` for a recurring job"
        ),
    )


class CronList(_Args):
    pass


class RunNow(_Args):
    kind: Literal["cron"] = Field("cron", description="What to run: 'cron'.")
    target: Short = Field(description="The schedule id or name.")


UPDATABLE = (
    "message",
    "prompt",
    "time",
    "cron",
    "timezone",
    "target_agent",
    "channel",
    "name",
    "until",
    "count",
    "skip_holidays",
    "business_days",
    "business_day_of_month",
    "on_holiday",
    "repeat_every",
    "repeat_times",
    "escalate_to",
)


class UpdateReminder(_Args):
    """Change one schedule in place: only the fields given change, the id stays."""

    id: Short = Field(description="The schedule id (from a list), or its unique name.")
    message: Message | None = Field(None, description="New reminder text (reminders only).")
    prompt: Prompt | None = Field(
        None, description="New agent prompt (agent calls only); it must stand alone, without this chat."
    )
    time: Short | None = Field(
        None,
        description="New time, once: the same forms as `create_reminder`'s `time`, in the user's zone.",
    )
    cron: Short | None = Field(
        None,
        description=f"New repeating schedule: {REPEATS}",
    )
    timezone: Short | None = Field(None, description="New IANA zone such as Europe/Madrid.")
    target_agent: Short | None = Field(None, description="New agent id to run (agent calls only).")
    channel: Short | None = Field(None, description="New room id for the answers (agent calls only).")
    name: Name | None = Field(None, description="New short name (agent calls only).")
    until: Short | None = Field(None, description="New end of a recurring schedule, as in create; 'never' removes it.")
    count: int | None = Field(
        None,
        ge=0,
        le=MAX_COUNT,
        description=f"New number of delivered runs in all (recurring), 1 to {MAX_COUNT}; 0 removes the limit.",
    )
    skip_holidays: Short | None = Field(
        None, description="New holiday calendar of a recurring schedule, as in create; 'none' removes it."
    )
    business_days: bool | None = Field(None, description="Business days only (true) or not (false), as in create.")
    business_day_of_month: int | None = Field(
        None, ge=-1, le=23, description="New business day of the month, as in create; 0 removes it."
    )
    on_holiday: OnHoliday | None = Field(None, description="What an occurrence on a holiday does, as in create.")
    repeat_every: int | None = Field(
        None, ge=0, le=240, description="New minutes between repeats (5 to 240), as in create; 0 stops repeating."
    )
    repeat_times: int | None = Field(None, ge=1, le=20, description=REPEAT_TIMES)
    escalate_to: Short | None = Field(None, description="New user or room to escalate to; 'none' removes it.")

    RULES = (
        at_least_one(*UPDATABLE, message=f"give at least one field to change: {', '.join(UPDATABLE)}"),
        at_most_one("time", "cron", message="give `time` (once) or `cron` (recurring), not both"),
    )


class SnoozeReminder(_Args):
    """Postpone the next fire of one schedule by `minutes`, or move it `until` a time."""

    id: Short = Field(description="The schedule id (from a list), or its unique name.")
    minutes: int | None = Field(
        None,
        ge=1,
        le=MAX_SNOOZE_MINUTES,
        description=f"Minutes later, 1 to {MAX_SNOOZE_MINUTES} (a week): a coming fire moves that much "
        "later; a reminder that already fired comes back that many minutes from now.",
    )
    until: Short | None = Field(
        None, description="The new time: the same forms as `create_reminder`'s `time`, in the user's zone."
    )
    occurrence: Short | None = Field(None, description=OCCURRENCE_SNOOZE)

    RULES = (exactly_one("minutes", "until", message="give exactly one of `minutes` or `until`"),)


class SkipNext(_Args):
    """Skip the next occurrence of one recurring schedule, or the one `occurrence` names."""

    id: Short = Field(description="The schedule id (from a list), or its unique name.")
    occurrence: Short | None = Field(None, description=OCCURRENCE_SKIP)


class ReminderHistory(_Args):
    """The runs of one schedule, newest first: what happened to each occurrence."""

    id: Short = Field(description="The schedule id (from a list), or its unique name.")
    limit: int = Field(10, ge=1, le=50, description="How many runs, newest first: 1 to 50 (default 10).")


Day = Literal["mon", "tue", "wed", "thu", "fri", "sat", "sun"]
QUIET_CLOCK = "a 24-hour time 'HH:MM', 00:00 to 23:59"


class SetQuietHours(_Args):
    """The caller's own quiet hours in this room: one period rule, replacing any earlier one."""

    start: Short = Field(description=f"When each quiet period starts: {QUIET_CLOCK}.")
    end: Short = Field(
        description=f"When it ends: {QUIET_CLOCK}, not equal to `start`; earlier than `start` crosses midnight "
        "('22:00' to '07:30')."
    )
    timezone: Short | None = Field(None, description="IANA zone such as Europe/Madrid; default: the user's.")
    days: list[Day] | None = Field(
        None,
        max_length=7,
        description="The days a period starts on, distinct, 'mon' to 'sun' (a period from 'fri' 22:00 runs into "
        "Saturday); default: every day.",
    )


class GetQuietHours(_Args):
    pass


class ClearQuietHours(_Args):
    pass


# pydantic's error types -> the catalog's plain words for them ("problem.<key>") and the values they take
_PROBLEMS: dict[str, tuple[str, dict[str, str]]] = {
    "string_type": ("string", {}),
    "string_unicode": ("not_unicode", {}),
    "bool_type": ("boolean", {}),
    "int_type": ("integer", {}),
    "list_type": ("list", {}),
    "missing": ("required", {}),
    "extra_forbidden": ("extra", {}),
    "invalid_key": ("key_type", {}),
    "literal_error": ("one_of", {"allowed": "expected"}),
    "string_too_short": ("min_length", {"n": "min_length"}),
    "string_too_long": ("max_length", {"n": "max_length"}),
    "greater_than_equal": ("at_least", {"n": "ge"}),
    "less_than_equal": ("at_most", {"n": "le"}),
    "too_long": ("max_items", {"n": "max_length", "count": "actual_length"}),
}


def _said(error: Any) -> Phrase:
    """One of pydantic's errors in the catalog's words (never pydantic's own message)."""
    where = ".".join(str(p) for p in error["loc"]) or "arguments"
    if error["type"] == "value_error":  # a broken cross-field rule: its own message, in the catalog's words
        rule = str(error["ctx"]["error"])
        return next((phrase(k) for k, v in _rule_texts().items() if v == rule), phrase("problem.as_given", text=rule))
    key, names = _PROBLEMS[error["type"]]
    values = {name: error["ctx"][ctx] for name, ctx in names.items()}
    if key in ("min_length", "max_length") and values["n"] == 1:
        key += "_one"
    return phrase("problem", where=where, what=phrase(f"problem.{key}", **values))


def _rule_texts() -> dict[str, str]:
    from cronbell.core.text.locales import texts as catalog

    return {k: v for k, v in catalog("en").items() if k.startswith("rule.")}


def parse(model: type[_Args], arguments: Any) -> Any:
    """Validate `arguments` (an object, JSON text or None) into `model`, or raise a ToolError that says
    what is wrong: the reference that `cronbell.core.contract.validation.parse` answers like."""
    arguments = arguments_object(arguments)
    try:
        return model.model_validate(arguments)
    except ValidationError as err:
        errors = err.errors(include_url=False, include_input=False)
        too_long = any(e["type"] in ("string_too_long", "too_long") for e in errors)
        raise refusal([_said(e) for e in errors], too_long) from None
