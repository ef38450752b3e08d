"""The tools function's use case: one envelope in, one answer out, never an unhandled error."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from botocore.exceptions import BotoCoreError, ClientError

from cronbell.core import arguments as a
from cronbell.core import errors, texts
from cronbell.core.envelope import Context, failure, parse_request, success
from cronbell.core.errors import ToolError
from cronbell.usecases import create, manage
from cronbell.usecases.deps import Deps

log = logging.getLogger(__name__)

Handler = Callable[[Any, Context, Deps], dict[str, Any]]

# tool name -> (argument model, use case). The names are a public contract.
TOOLS: dict[str, tuple[type[a._Args], Handler]] = {
    "create_reminder": (a.CreateReminder, create.create_reminder),
    "list_reminders": (a.ListReminders, manage.list_reminders),
    "delete_reminder": (a.ById, manage.delete),
    "cron_create": (a.CronCreate, create.cron_create),
    "cron_list": (a.CronList, lambda _args, ctx, deps: manage.cron_list(ctx, deps)),
    "cron_delete": (a.ById, manage.delete),
    "run_now": (a.RunNow, manage.run_now),
}


def handle(event: Any, deps: Deps) -> dict[str, Any]:
    locale = deps.settings.default_locale
    try:
        request = parse_request(event)
        locale = request.context.locale or locale
        if request.tool not in TOOLS:
            raise ToolError(
                errors.UNKNOWN_TOOL,
                f"unknown tool {request.tool!r}; tools: {', '.join(TOOLS)}",
            )
        model, use_case = TOOLS[request.tool]
        args = a.parse(model, request.arguments)
        answer = use_case(args, request.context, deps)
        return success(answer["result"], answer["text"])
    except ToolError as err:
        refusal = err
    except (ClientError, BotoCoreError):
        log.exception("AWS call failed")
        refusal = ToolError(errors.BACKEND_ERROR, "the schedule store is not answering; try again shortly")
    except Exception:  # never an unhandled error for the bot: log it, answer a stable code
        log.exception("tool failed")
        refusal = ToolError(
            errors.INTERNAL_ERROR, "internal error; list the schedules to see what is in place"
        )
    return failure(refusal, texts.say("error", locale, message=refusal.message))
