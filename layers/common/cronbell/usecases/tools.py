"""The tools function's use case: one envelope in, one answer out, never an unhandled error."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from cronbell.core import errors, texts, validation
from cronbell.core.envelope import Context, failure, parse_request, success
from cronbell.core.errors import ToolError
from cronbell.core.ports import BackendError
from cronbell.usecases import change, create, manage
from cronbell.usecases.deps import Deps

log = logging.getLogger(__name__)

Handler = Callable[[Any, Context, Deps], dict[str, Any]]

# tool name -> use case; the arguments' contract is core/contract.json (from core.arguments' models)
USE_CASES: dict[str, Handler] = {
    "create_reminder": create.create_reminder,
    "list_reminders": manage.list_reminders,
    "delete_reminder": manage.delete,
    "cron_create": create.cron_create,
    "cron_list": lambda _args, ctx, deps: manage.cron_list(ctx, deps),
    "cron_delete": manage.delete,
    "run_now": manage.run_now,
    "update_reminder": change.update_reminder,
    "pause_reminder": change.pause_reminder,
    "resume_reminder": change.resume_reminder,
    "snooze_reminder": change.snooze_reminder,
    "skip_next": change.skip_next,
    "reminder_history": manage.reminder_history,
}


def handle(event: Any, deps: Deps) -> dict[str, Any]:
    locale = deps.settings.default_locale
    try:
        request = parse_request(event)
        locale = request.context.locale or locale
        if request.tool not in USE_CASES:
            raise ToolError(errors.UNKNOWN_TOOL, f"unknown tool {request.tool!r}; tools: {', '.join(USE_CASES)}")
        args = validation.parse(request.tool, request.arguments)
        answer = USE_CASES[request.tool](args, request.context, deps)
        return success(answer["result"], answer["text"])
    except ToolError as err:
        refusal = err
    except BackendError:
        log.exception("AWS call failed")
        refusal = ToolError(errors.BACKEND_ERROR, "the schedule store is not answering; try again shortly")
    except Exception:  # never an unhandled error for the bot: log it, answer a stable code
        log.exception("tool failed")
        refusal = ToolError(errors.INTERNAL_ERROR, "internal error; list the schedules to see what is in place")
    return failure(refusal, texts.say("error", locale, message=refusal.message))
