"""The tools function's use case: one envelope in, one answer out, never an unhandled error."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from cronbell.core import routing, validation
from cronbell.core.envelope import Context, parse_request, refused, success
from cronbell.core.errors import ToolError, refusal
from cronbell.core.ports import BackendError
from cronbell.usecases import acknowledge, change, create, manage
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
    "done_reminder": acknowledge.done_reminder,
}


def handle(event: Any, deps: Deps) -> dict[str, Any]:
    locale = deps.settings.default_locale
    try:
        request = parse_request(event)
        locale = request.context.locale or locale
        if request.tool not in USE_CASES:
            raise refusal("unknown_tool", tool=request.tool, tools=", ".join(USE_CASES))
        context = routing.routed(request.context, deps.settings.chat_backends)
        args = validation.parse(request.tool, request.arguments)
        answer = USE_CASES[request.tool](args, context, deps)
        return success(answer["result"], answer["text"])
    except ToolError as err:
        refused_by = err
    except BackendError:
        log.exception("AWS call failed")
        refused_by = refusal("backend_error")
    except Exception:  # never an unhandled error for the bot: log it, answer a stable code
        log.exception("tool failed")
        refused_by = refusal("internal_error")
    return refused(refused_by, locale)
