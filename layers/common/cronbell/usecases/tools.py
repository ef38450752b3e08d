"""The tools: one registration each, and the tools function's use case (an envelope in, an answer out, always).

A tool is declared once, in `TOOLS`: its name (a public contract), its argument model (by name in
`cronbell.core.contract.arguments`, strict pydantic models the run time never imports), its title and
description as a model reads them, its use case, MCP annotations, the shape of its `result` and whether it
is of the essential set (`TOOL_SETS`: what a bot needing only reminders and agent calls shows its model;
every tool is accepted whichever set a bot shows). `USE_CASES`, `scripts/schemas.py` (`docs/tools/`,
`core/contract/contract.json`) and the tests' tables derive from it. A new tool is one `Tool(...)` here,
its model, its use case and its sentences in the catalogs, then `make schemas`.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from types import ModuleType
from typing import Any

from cronbell.core.contract import envelope, validation
from cronbell.core.contract.envelope import Context, parse_request, refuse_room_form, refused, routed, success
from cronbell.core.domain.errors import BackendError
from cronbell.core.domain.refusals import ToolError, refusal
from cronbell.core.values import value
from cronbell.usecases import create, quiet
from cronbell.usecases.answers import with_now
from cronbell.usecases.change_writes import ChangedMeanwhile
from cronbell.usecases.deps import Deps

log = logging.getLogger(__name__)

Handler = Callable[[Any, Context, Deps], dict[str, Any]]


@value
class Hints:
    """MCP's tool annotations: what a host may assume about a call. `idempotent`: the same call again
    changes nothing more; `open_world`: the call makes something outside the store act (an agent)."""

    read_only: bool = False
    destructive: bool = False
    idempotent: bool = False
    open_world: bool = False

    def annotations(self) -> dict[str, bool]:
        """As MCP writes them; destructive and idempotent mean something only for a tool that writes."""
        if self.read_only:
            return {"readOnlyHint": True, "openWorldHint": self.open_world}
        return {
            "readOnlyHint": False,
            "destructiveHint": self.destructive,
            "idempotentHint": self.idempotent,
            "openWorldHint": self.open_world,
        }


ESSENTIAL, FULL = "essential", "full"
# Arguments of what only the full set covers (repeats until done, which done_reminder acknowledges; business-day
# rules): the essential set's schemas leave them out, and the tools function still accepts them from anyone.
FULL_SET_ARGUMENTS = frozenset(
    {"repeat_every", "repeat_times", "escalate_to", "business_days", "business_day_of_month", "on_holiday"}
)

READ_ONLY = Hints(read_only=True)
WRITE = Hints()
WRITE_IDEMPOTENT = Hints(idempotent=True)
DESTRUCTIVE = Hints(destructive=True, idempotent=True)
AGENT_WRITE = Hints(open_world=True)
AGENT_WRITE_IDEMPOTENT = Hints(idempotent=True, open_world=True)


@value
class Tool:
    name: str
    arguments: str  # the name of its model in cronbell.core.contract.arguments
    title: str
    use_case: Handler
    hints: Hints
    result: str  # the shape of `result` in a successful answer: a key of cronbell.core.text.views.RESULTS
    description: str  # what every set shows
    more: str = ""  # what the full set adds to the description: its arguments that the essential set leaves out
    essential: bool = False  # in the essential set

    def described(self, tool_set: str) -> str:
        """The description a set shows its model."""
        return f"{self.description} {self.more}" if self.more and tool_set == FULL else self.description


def _manage() -> ModuleType:
    from cronbell.usecases import manage  # imported on first use (_OnFirstCall)

    return manage


def _change() -> ModuleType:
    from cronbell.usecases import change  # imported on first use (_OnFirstCall)

    return change


def _snooze() -> ModuleType:
    from cronbell.usecases import snooze  # imported on first use (_OnFirstCall)

    return snooze


def _acknowledge() -> ModuleType:
    from cronbell.usecases import acknowledge  # imported on first use (_OnFirstCall)

    return acknowledge


@value
class _OnFirstCall:
    """The use case `name` of the module `load` imports, imported by the first call that needs it: a cold
    start that creates a reminder does not load the code that lists, changes or acknowledges them."""

    load: Callable[[], ModuleType]
    name: str

    def __call__(self, args: Any, ctx: Context, deps: Deps) -> dict[str, Any]:
        use_case: Handler = getattr(self.load(), self.name)
        return use_case(args, ctx, deps)


def _cron_list(_args: Any, ctx: Context, deps: Deps) -> dict[str, Any]:
    return _manage().cron_list(ctx, deps)


TOOLS: tuple[Tool, ...] = (
    Tool(
        "create_reminder",
        arguments="CreateReminder",
        title="Create a reminder",
        use_case=create.create_reminder,
        hints=WRITE_IDEMPOTENT,
        result="schedule",
        description=(
            "Post `message` to this room for the user, once at `time` or repeatedly on `cron` (exactly one), "
            "in the user's zone. Read `now` in the last answer before computing a time. Confirm a recurring "
            "one with the user first; it may end (`until`, `count`) and skip holidays (`skip_holidays`)."
        ),
        more=(
            "It may keep to business days (`business_days`, `business_day_of_month`, `on_holiday`) and repeat "
            "until done (`repeat_every`, `repeat_times`, `escalate_to`)."
        ),
        essential=True,
    ),
    Tool(
        "list_reminders",
        arguments="ListReminders",
        title="List reminders",
        use_case=_OnFirstCall(_manage, "list_reminders"),
        hints=READ_ONLY,
        result="listing",
        description=(
            "List this room's schedules (reminders and agent calls) with `id`, `status`, `next_fire` and the "
            "current time `now`. Call it for an id before a change and for `now` before computing a time; "
            "`include_inactive` adds fired, deleted and failed ones."
        ),
        essential=True,
    ),
    Tool(
        "delete_reminder",
        arguments="ById",
        title="Delete a reminder",
        use_case=_OnFirstCall(_manage, "delete"),
        hints=DESTRUCTIVE,
        result="deleted",
        description=(
            "Delete one of this room's schedules by `id` (from a list) or unique name; it never fires again. "
            "To change one use `update_reminder`; confirm before deleting a recurring one."
        ),
        essential=True,
    ),
    Tool(
        "cron_create",
        arguments="CronCreate",
        title="Schedule an agent call",
        use_case=create.cron_create,
        hints=AGENT_WRITE_IDEMPOTENT,
        result="schedule",
        description=(
            "Schedule an agent call: at fire time `target_agent` (default: the caller) gets `prompt` and its "
            "answer is posted to `channel` (default: this room); exactly one of `cron_expr` or `fire_at`, in "
            "the user's zone. The agent will not see this chat: the prompt must stand alone, with every detail "
            "it needs. Confirm a recurring one with the user first."
        ),
        more="It may keep to business days (`business_days`, `business_day_of_month`, `on_holiday`).",
        essential=True,
    ),
    Tool(
        "cron_list",
        arguments="CronList",
        title="List agent calls and reminders (compact)",
        use_case=_cron_list,
        hints=READ_ONLY,
        result="cron_list",
        description=(
            "List this room's active and paused schedules as a compact array: `id`, `name`, `cron_expr`, "
            "`fire_at`, `timezone`, `enabled`, `kind`, `next_fire` (local). Its ids work with every tool."
        ),
        essential=True,
    ),
    Tool(
        "cron_delete",
        arguments="ById",
        title="Delete an agent call",
        use_case=_OnFirstCall(_manage, "delete"),
        hints=DESTRUCTIVE,
        result="deleted",
        description=(
            "Delete one of this room's schedules by `id` or unique name, as `delete_reminder` does. To change "
            "one use `update_reminder`."
        ),
        essential=True,
    ),
    Tool(
        "run_now",
        arguments="RunNow",
        title="Run a schedule now",
        use_case=_OnFirstCall(_manage, "run_now"),
        hints=AGENT_WRITE,
        result="run",
        description=(
            "Fire one of this room's schedules now, as if its time had come (`target`: id or name); its regular "
            "times do not change. Use it to try an agent call or when asked to run it now."
        ),
        essential=True,
    ),
    Tool(
        "update_reminder",
        arguments="UpdateReminder",
        title="Change a schedule",
        use_case=_OnFirstCall(_change, "update_reminder"),
        hints=WRITE_IDEMPOTENT,
        result="schedule",
        description=(
            "Change a schedule in place, keeping its id: pass `id` and only what changes. Prefer it to deleting "
            "and creating again. Compute new times from `now` in the last answer, in the user's zone, and "
            "confirm a changed recurring schedule with the user."
        ),
        essential=True,
    ),
    Tool(
        "pause_reminder",
        arguments="ById",
        title="Pause a schedule",
        use_case=_OnFirstCall(_change, "pause_reminder"),
        hints=WRITE_IDEMPOTENT,
        result="schedule",
        description=(
            "Pause one of this room's schedules by `id`: it stops firing but is kept, and `resume_reminder` turns "
            "it back on. Use it when the user wants a break, instead of deleting."
        ),
    ),
    Tool(
        "resume_reminder",
        arguments="ById",
        title="Resume a paused schedule",
        use_case=_OnFirstCall(_change, "resume_reminder"),
        hints=WRITE_IDEMPOTENT,
        result="schedule",
        description=(
            "Turn a paused schedule back on by `id`. It fires again from its next regular time; fires that fell "
            "while it was paused are not replayed."
        ),
    ),
    Tool(
        "snooze_reminder",
        arguments="SnoozeReminder",
        title="Snooze the next fire",
        use_case=_OnFirstCall(_snooze, "snooze_reminder"),
        hints=WRITE,
        result="schedule",
        description=(
            "Postpone the next fire of one schedule by `id`: give exactly one of `minutes` (later than its time; "
            "from now for a reminder that already fired) or `until` (a later time, in the user's zone). A "
            "recurring schedule keeps its regular times after that. A snooze never moves a fire earlier, resumes "
            "a paused schedule or moves a fire past the schedule's end; `occurrence` names one."
        ),
    ),
    Tool(
        "skip_next",
        arguments="SkipNext",
        title="Skip the next fire",
        use_case=_OnFirstCall(_change, "skip_next"),
        hints=WRITE,
        result="schedule",
        description=(
            "Skip only the next fire of a recurring schedule by `id` (or the coming one `occurrence` names); "
            "later ones happen as usual. To stop it for a while use `pause_reminder`; to move one fire use "
            "`snooze_reminder`."
        ),
    ),
    Tool(
        "reminder_history",
        arguments="ReminderHistory",
        title="Show a schedule's runs",
        use_case=_OnFirstCall(_manage, "reminder_history"),
        hints=READ_ONLY,
        result="history",
        description=(
            "Show what happened to the last runs of one schedule by `id` or unique name, newest first: `outcome` "
            "(delivered, failed, skipped, missed), `reason`, `late_seconds`, `manual`. Use it to answer whether a "
            "schedule ran or why it did not; `list_reminders` shows only the last run."
        ),
    ),
    Tool(
        "done_reminder",
        arguments="ById",
        title="Mark a repeating reminder done",
        use_case=_OnFirstCall(_acknowledge, "done_reminder"),
        hints=WRITE_IDEMPOTENT,
        result="acknowledged",
        description=(
            "Acknowledge the occurrence of a repeating reminder (`repeat_every`) that is being posted again, by "
            "`id`: its repeats stop and no escalation follows. The Done button under its posts sends the same call."
        ),
    ),
    Tool(
        "set_quiet_hours",
        arguments="SetQuietHours",
        title="Set your quiet hours",
        use_case=quiet.set_quiet_hours,
        hints=WRITE_IDEMPOTENT,
        result="quiet_hours",
        description=(
            "Set the caller's own quiet hours in this room, replacing any earlier ones: each period runs from "
            "`start` to `end` ('HH:MM', 24-hour; an `end` earlier than `start` crosses midnight) on the `days` it "
            "starts on (default every day), in `timezone` (default the user's). Reminders for the user that fall in "
            "a period are held and posted together at its end; agent calls are not held. Use it when the user asks "
            "not to be disturbed at certain hours."
        ),
    ),
    Tool(
        "get_quiet_hours",
        arguments="GetQuietHours",
        title="Show your quiet hours",
        use_case=quiet.get_quiet_hours,
        hints=READ_ONLY,
        result="quiet_hours",
        description=(
            "Show the caller's own quiet hours in this room (null when there are none) and the period under way "
            "or the next one. Call it before changing them, or when the user asks why a reminder was held."
        ),
    ),
    Tool(
        "clear_quiet_hours",
        arguments="ClearQuietHours",
        title="Clear your quiet hours",
        use_case=quiet.clear_quiet_hours,
        hints=WRITE_IDEMPOTENT,
        result="quiet_cleared",
        description=(
            "Remove the caller's own quiet hours in this room: reminders for the user are posted at their time "
            "again. `cleared` is false when there were none. What was held already is still posted at the end of "
            "its period."
        ),
    ),
)

BY_NAME: dict[str, Tool] = {tool.name: tool for tool in TOOLS}
TOOL_SETS: dict[str, tuple[str, ...]] = {
    ESSENTIAL: tuple(tool.name for tool in TOOLS if tool.essential),
    FULL: tuple(tool.name for tool in TOOLS),
}
USE_CASES: dict[str, Handler] = {tool.name: tool.use_case for tool in TOOLS}


def argument_models() -> dict[str, Any]:
    """Tool name -> its pydantic argument model (imports pydantic: for the generator and the tests only)."""
    from cronbell.core.contract import arguments

    return {tool.name: getattr(arguments, tool.arguments) for tool in TOOLS}


RACE_TRIES = 4  # runs of one tool call while parallel calls keep changing its schedule first


def _run(use_case: Handler, args: Any, context: Context, deps: Deps) -> dict[str, Any]:
    """Run a tool call; one that lost a race with another change of its schedule (nothing written)
    runs again on the schedule as it is now, as if it had come after the other."""
    for attempt in range(RACE_TRIES):
        try:
            return use_case(args, context, deps)
        except ChangedMeanwhile as raced:
            if attempt == RACE_TRIES - 1:
                raise refusal(raced.key) from None
            deps.sleep(0.05 * (attempt + 1))
    raise AssertionError("unreachable")


def handle(event: Any, deps: Deps) -> dict[str, Any]:
    locale = envelope.said_locale(event) or deps.settings.default_locale
    context: Context | None = None
    try:
        request = parse_request(event)
        context = request.context
        if isinstance(adapter_refusal := event.get(envelope.ADAPTER_REFUSAL), ToolError):
            raise adapter_refusal
        if request.tool not in USE_CASES:
            shown = TOOL_SETS.get(deps.settings.tool_set, TOOL_SETS[FULL])  # what the model can call
            raise refusal("unknown_tool", tool=request.tool, tools=", ".join(shown))
        if request.tool in ("create_reminder", "cron_create"):  # made there, it would fail at its first fire
            refuse_room_form(request.context, deps.settings)
        context = routed(request.context, deps.settings.chat_backends)
        args = validation.parse(request.tool, request.arguments)
        validation.refuse_unreadable(args)
        answer = _run(USE_CASES[request.tool], args, context, deps)
        return with_now(success(answer["result"], answer["text"]), context, deps)
    except ToolError as err:
        refused_by = err
    except BackendError:
        log.exception("AWS call failed")
        refused_by = refusal("backend_error")
    except Exception:  # never an unhandled error for the bot: log it, answer a stable code
        log.exception("tool failed")
        refused_by = refusal("internal_error")
    answer = refused(refused_by, locale)
    return with_now(answer, context, deps) if context is not None else answer
