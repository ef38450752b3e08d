from __future__ import annotations

from typing import Any

import pytest

from cronbell.core import errors
from cronbell.core.arguments import CreateReminder, CronCreate, ListReminders, RunNow, parse
from cronbell.core.envelope import parse_request
from cronbell.core.errors import ToolError

CTX = {"room_id": "!r:x", "user_id": "@u:x"}


def code_of(fn: Any, *args: Any) -> str:
    with pytest.raises(ToolError) as info:
        fn(*args)
    return info.value.code


def test_context_is_the_only_identity() -> None:
    req = parse_request({"tool": "list_reminders", "arguments": {}, "context": {**CTX, "timezone": "UTC"}})
    assert req.context.room_id == "!r:x" and req.context.user_id == "@u:x" and req.context.timezone == "UTC"


@pytest.mark.parametrize(
    "event",
    [
        None,
        [],
        "x",
        {"tool": ""},
        {"tool": 3, "context": CTX},
        {"tool": "t"},
        {"tool": "t", "context": "room"},
    ],
)
def test_malformed_envelope(event: Any) -> None:
    assert code_of(parse_request, event) in (errors.INVALID_REQUEST, errors.MISSING_CONTEXT)


@pytest.mark.parametrize("room", ["", None, 7, "x" * 300, "bad\x00room"])
def test_bad_room(room: Any) -> None:
    assert code_of(parse_request, {"tool": "t", "context": {"room_id": room, "user_id": "@u:x"}}) == (
        errors.MISSING_CONTEXT
    )


def test_arguments_as_json_text() -> None:
    args = parse(CreateReminder, '{"message": "hi", "time": "10:00"}')
    assert args.message == "hi" and args.time == "10:00"
    assert parse(ListReminders, "").include_inactive is False
    assert code_of(parse, ListReminders, "{not json") == errors.INVALID_ARGUMENTS


@pytest.mark.parametrize(
    ("model", "args", "code"),
    [
        (CreateReminder, {"message": "hi"}, errors.INVALID_ARGUMENTS),
        (CreateReminder, {"message": "hi", "time": "10:00", "room_id": "!other:x"}, errors.INVALID_ARGUMENTS),
        (CreateReminder, {"message": "  ", "time": "10:00"}, errors.INVALID_ARGUMENTS),
        (CreateReminder, {"message": "m" * 2001, "time": "10:00"}, errors.TOO_LONG),
        (
            CreateReminder,
            {"message": "hi", "cron": "0 9 * * *", "recurring": False},
            errors.INVALID_ARGUMENTS,
        ),
        (
            CronCreate,
            {"name": "n", "prompt": "p", "fire_at": "2030-01-01T00:00:00Z", "recurring": True},
            errors.INVALID_ARGUMENTS,
        ),
        (
            CronCreate,
            {"name": "n", "prompt": "p", "cron_expr": "0 9 * * *", "timeout_seconds": 0},
            errors.INVALID_ARGUMENTS,
        ),
        (
            CronCreate,
            {"name": "n", "prompt": "p", "cron_expr": "0 9 * * *", "skills": ["a"] * 21},
            errors.TOO_LONG,
        ),
        (RunNow, {"kind": "message", "target": "x"}, errors.INVALID_ARGUMENTS),
        (ListReminders, {"include_inactive": "true"}, errors.INVALID_ARGUMENTS),
    ],
)
def test_argument_refusals(model: Any, args: dict[str, Any], code: str) -> None:
    assert code_of(parse, model, args) == code


def test_text_is_stripped() -> None:
    assert parse(CreateReminder, {"message": "  hi  ", "time": " 10:00 "}).message == "hi"
