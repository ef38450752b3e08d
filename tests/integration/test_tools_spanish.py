"""A Spanish context gets Spanish sentences only: the refusals the use cases raise, through the tools
use case on moto, are said in Spanish (the same codes; the English wording unchanged for English)."""

from __future__ import annotations

from typing import Any

from cronbell.core.domain import refusals
from tests.support.aws import Stack, provision
from tests.support.tools import call, ok
from tests.support.words import english_words


def spanish(stack: Stack, tool: str, args: dict[str, Any] | None = None) -> dict[str, Any]:
    answer = call(stack, tool, args, locale="es")
    assert not answer["ok"], answer
    assert english_words(answer["text"] + " " + str(answer["error"])) == set(), answer
    assert answer["text"].startswith("No se pudo hacer: ")
    return answer


def test_use_case_refusals_are_said_in_spanish(stack: Stack) -> None:
    reminder = ok(call(stack, "create_reminder", {"message": "x", "time": "2026-12-01 09:00"}))["id"]
    weekly = ok(call(stack, "create_reminder", {"message": "y", "cron": "0 9 * * 1"}))["id"]
    codes = []
    cases: list[tuple[str, dict[str, Any]]] = [
        ("no_such_tool", {}),
        ("delete_reminder", {"id": "zzzzzzzzzz"}),
        ("update_reminder", {"id": reminder, "prompt": "p"}),
        ("update_reminder", {"id": reminder, "name": "n"}),
        ("resume_reminder", {"id": reminder}),
        ("skip_next", {"id": reminder}),
        ("create_reminder", {"message": "x", "time": "cada lunes a las 9"}),
        ("create_reminder", {"message": "x", "time": "ayer"}),
        ("create_reminder", {"message": "x", "time": "el martes 9 de diciembre"}),
        ("create_reminder", {"message": "x", "cron": "0 9 L * 1"}),
        ("create_reminder", {"message": "x", "time": "2026-12-01 09:00", "timezone": "posix/Europe/Madrid"}),
        ("cron_create", {"name": "n", "prompt": "p", "cron_expr": "0 9 * * *", "target_agent": "nobody"}),
        ("cron_create", {"name": "n", "prompt": "p", "cron_expr": "0 9 * * *", "channel": "!other:x"}),
        ("create_reminder", {"message": ""}),
    ]
    for tool, args in cases:
        codes.append(spanish(stack, tool, args)["error"]["code"])
    ok(call(stack, "pause_reminder", {"id": weekly}))
    codes.append(spanish(stack, "pause_reminder", {"id": weekly})["error"]["code"])
    assert set(codes) >= {
        refusals.UNKNOWN_TOOL, refusals.NOT_FOUND, refusals.INVALID_ARGUMENTS, refusals.INVALID_STATE,
        refusals.INVALID_TIME, refusals.INVALID_CRON, refusals.INVALID_TIMEZONE, refusals.UNKNOWN_AGENT,
        refusals.FORBIDDEN_CHANNEL,
    }  # fmt: skip


def test_the_limit_is_said_in_spanish(moto_endpoint: str, clock: Any) -> None:
    """The example of the issue: 'No se pudo hacer: this room already has 50 active schedules'."""
    stack = provision(moto_endpoint, clock, max_per_room=1)
    ok(call(stack, "create_reminder", {"message": "a", "time": "2026-12-01 09:00"}))
    answer = spanish(stack, "create_reminder", {"message": "b", "time": "2026-12-01 10:00"})
    assert answer["error"]["code"] == refusals.LIMIT_REACHED
    assert answer["text"] == (
        "No se pudo hacer: esta sala ya tiene 1 programaciones activas; elimina una primero."
        " Son las 09:00 del lunes 30 de noviembre de 2026 (Europe/Madrid)."
    )
    english = call(stack, "create_reminder", {"message": "b", "time": "2026-12-01 10:00"})
    assert english["error"]["message"] == "this room already has 1 active schedules; delete one first"
