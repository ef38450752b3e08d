from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from cronbell.core.contract import arguments, errors, validation
from cronbell.core.contract.envelope import parse_request
from cronbell.core.domain import refusals
from cronbell.core.domain.refusals import ToolError
from tests.support.registry import TOOL_ARGUMENTS

CTX = {"room_id": "!r:x", "user_id": "@u:x"}


def pydantic_parse(tool: str, args: Any) -> Any:
    return arguments.parse(TOOL_ARGUMENTS[tool], args)


# The run-time validator and the models it is generated from must answer alike: every case runs on both.
PARSERS = pytest.mark.parametrize("parse", [validation.parse, pydantic_parse], ids=["runtime", "pydantic"])


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
    assert code_of(parse_request, event) in (refusals.INVALID_REQUEST, refusals.MISSING_CONTEXT)


@pytest.mark.parametrize("room", ["", "   ", "\t\n", None, 7, "x" * 300, "bad\x00room"])
def test_bad_room(room: Any) -> None:
    assert code_of(parse_request, {"tool": "t", "context": {"room_id": room, "user_id": "@u:x"}}) == (
        refusals.MISSING_CONTEXT
    )


@PARSERS
def test_arguments_nested_too_deeply_is_a_refusal(parse: Any) -> None:
    deep = "[" * 100_000 + "]" * 100_000
    assert code_of(parse, "create_reminder", deep) == refusals.INVALID_ARGUMENTS
    assert code_of(parse, "create_reminder", '{"message": ' + deep + "}") == refusals.INVALID_ARGUMENTS


@PARSERS
def test_arguments_as_json_text(parse: Any) -> None:
    args = parse("create_reminder", '{"message": "hi", "time": "10:00"}')
    assert args.message == "hi" and args.time == "10:00"
    assert args.cron is None and args.recurring is None and args.timezone is None
    assert parse("list_reminders", "").include_inactive is False
    assert parse("list_reminders", None).include_inactive is False
    assert code_of(parse, "list_reminders", "{not json") == refusals.INVALID_ARGUMENTS
    assert code_of(parse, "list_reminders", "[1]") == refusals.INVALID_ARGUMENTS
    assert code_of(parse, "list_reminders", 7) == refusals.INVALID_ARGUMENTS


@PARSERS
@pytest.mark.parametrize(
    ("tool", "args", "code"),
    [
        ("create_reminder", {"message": "hi"}, refusals.INVALID_ARGUMENTS),
        ("create_reminder", {"message": "hi", "time": "10:00", "room_id": "!other:x"}, refusals.INVALID_ARGUMENTS),
        ("create_reminder", {"message": "  ", "time": "10:00"}, refusals.INVALID_ARGUMENTS),
        ("create_reminder", {"message": "m" * 2001, "time": "10:00"}, refusals.TOO_LONG),
        (
            "create_reminder",
            {"message": "hi", "cron": "0 9 * * *", "recurring": False},
            refusals.INVALID_ARGUMENTS,
        ),
        (
            "cron_create",
            {"name": "n", "prompt": "p", "fire_at": "2030-01-01T00:00:00Z", "recurring": True},
            refusals.INVALID_ARGUMENTS,
        ),
        (
            "cron_create",
            {"name": "n", "prompt": "p", "cron_expr": "0 9 * * *", "timeout_seconds": 0},
            refusals.INVALID_ARGUMENTS,
        ),
        (
            "cron_create",
            {"name": "n", "prompt": "p", "cron_expr": "0 9 * * *", "skills": ["a"] * 21},
            refusals.TOO_LONG,
        ),
        ("run_now", {"kind": "message", "target": "x"}, refusals.INVALID_ARGUMENTS),
        ("list_reminders", {"include_inactive": "true"}, refusals.INVALID_ARGUMENTS),
    ],
)
def test_argument_refusals(parse: Any, tool: str, args: dict[str, Any], code: str) -> None:
    assert code_of(parse, tool, args) == code


@PARSERS
def test_text_is_stripped(parse: Any) -> None:
    args = parse("create_reminder", {"message": "  hi\u3000", "time": " 10:00 "})
    assert (args.message, args.time) == ("hi", "10:00")
    # only Unicode white space is stripped: the control characters Python's str.strip() also drops stay
    assert parse("delete_reminder", {"id": "\x1cabc\xa0"}).id == "\x1cabc"


@PARSERS
def test_defaults_and_every_field_present(parse: Any) -> None:
    job = parse("cron_create", {"name": "n", "prompt": "p", "cron_expr": "0 9 * * *"})
    assert job.skills == [] and job.recurring is None and job.timeout_seconds is None and job.channel is None
    assert parse("run_now", {"target": "x"}).kind == "cron"
    assert parse("cron_list", {}) is not None


@PARSERS
def test_no_coercion(parse: Any) -> None:
    for tool, args in (
        ("list_reminders", {"include_inactive": 1}),
        ("list_reminders", {"include_inactive": None}),  # not optional: only true or false
        ("snooze_reminder", {"id": "x", "minutes": True}),
        ("snooze_reminder", {"id": "x", "minutes": 15.0}),
        ("delete_reminder", {"id": 42}),
        ("cron_create", {"name": "n", "prompt": "p", "cron_expr": "x", "skills": "web"}),
        ("cron_create", {"name": "n", "prompt": "p", "cron_expr": "x", "skills": None}),
        ("run_now", {"kind": " cron", "target": "x"}),
    ):
        assert code_of(parse, tool, args) == refusals.INVALID_ARGUMENTS, (tool, args)


@PARSERS
def test_every_problem_is_reported_field_by_field(parse: Any) -> None:
    with pytest.raises(ToolError) as info:
        parse("create_reminder", {"message": "m" * 2001, "time": 5, "room_id": "!x:y"})
    assert info.value.code == refusals.TOO_LONG
    assert errors.as_dict(info.value)["details"] == {
        "problems": [
            "`message` must be at most 2000 characters long",
            "`time` must be text",
            "`room_id` is not an argument of this tool",
        ]
    }
    with pytest.raises(ToolError) as info:
        parse("create_reminder", {"message": "hi"})
    assert errors.as_dict(info.value)["details"] == {
        "problems": ["give exactly one of `time` (once) or `cron` (recurring)"]
    }


PYDANTIC_WORDS = ("Input should", "String should", "Field required", "Extra inputs", "List should", "valid string")


@PARSERS
def test_english_refusals_are_in_plain_words_not_the_models_own(parse: Any) -> None:
    cases = [
        ("create_reminder", {"message": "", "time": 9, "recurring": "yes", "cron": None, "extra": 1}),
        ("create_reminder", {"time": "9"}),
        ("cron_create", {"name": "n", "prompt": "p", "fire_at": "x", "skills": ["a"] * 50}),
        ("snooze_reminder", {"id": "a", "minutes": 0}),
        ("snooze_reminder", {"id": "a", "minutes": 10**9}),
        ("run_now", {"kind": "other", "target": "a"}),
        ("list_reminders", {"include_inactive": 3, 7: 1}),
    ]
    for tool, args in cases:
        with pytest.raises(ToolError) as info:
            parse(tool, args)
        message, details = errors.message(info.value), errors.as_dict(info.value)["details"]
        assert not any(words in message for words in PYDANTIC_WORDS), message
        assert all(p.startswith("`") for p in details["problems"]), details


def test_runtime_arguments_are_read_only() -> None:
    args = validation.parse("snooze_reminder", {"id": "x", "minutes": 5})
    assert (args.id, args.minutes, args.until) == ("x", 5, None)
    with pytest.raises(AttributeError):
        args.minutes = 6
    with pytest.raises(AttributeError):
        _ = args.room_id
    assert args == validation.parse("snooze_reminder", '{"id": " x ", "minutes": 5}')
    assert args.as_dict() == {"id": "x", "minutes": 5, "until": None, "occurrence": None}


def test_a_control_character_in_any_text_is_refused_by_name_and_nothing_is_created() -> None:
    """A NUL (or an escape sequence, a bell) in a message was stored and posted raw while the answer showed a
    space; any text argument holding one is now refused, the argument named, and nothing is written. Tab,
    line feed and carriage return are text."""
    from tests.support.envelopes import ROOM
    from tests.support.memory_stack import MemoryStack

    stack = MemoryStack()
    for message, code in (("x\x00y", "U+0000"), ("\x1b[31mred", "U+001B"), ("ding\x07", "U+0007"), ("a\x7f", "U+007F")):
        refused = stack.call("create_reminder", {"message": message, "time": "in 10 minutes"})
        assert refused["error"]["code"] == "invalid_arguments", refused
        assert f"`message` must not hold control characters ({code})" in refused["error"]["message"]
    refused = stack.call("cron_create", {"name": "n\x00", "prompt": "p", "cron_expr": "0 9 * * *"}, locale="es")
    assert "`name`: no puede contener caracteres de control (U+0000)" in refused["error"]["message"]
    assert stack.call("list_reminders")["result"]["schedules"] == []
    made = stack.call("create_reminder", {"message": "line one\n\tline two\r\n", "time": "in 10 minutes"})
    assert made["ok"], made
    assert stack.store.get(ROOM, made["result"]["id"]).body == "line one\n\tline two"  # type: ignore[union-attr]


def test_a_name_with_a_line_break_is_refused_and_a_message_may_have_them() -> None:
    """A name is shown inside cronbell's own lines (a failure notice: '⚠️ {name} failed'): one holding line
    breaks posted lines that read as cronbell's own ('✅ weekly works again.'). Names are one line."""
    from tests.support.memory_stack import MemoryStack

    stack = MemoryStack()
    for name in ("weekly\n✅ weekly works again.", "a\r\nb", "a\u2028b"):
        refused = stack.call("cron_create", {"name": name, "prompt": "p", "cron_expr": "0 9 * * *"})
        assert refused["error"]["code"] == "invalid_arguments", refused
        assert "`name` must be one line" in refused["error"]["message"]
    es = stack.call("cron_create", {"name": "a\nb", "prompt": "p", "cron_expr": "0 9 * * *"}, locale="es")
    assert "una sola línea" in es["error"]["message"]
    assert stack.call("list_reminders")["result"]["schedules"] == []
    stack.settings = replace(stack.settings, agents={"echo": "EchoAgentFunction"})
    assert stack.call("cron_create", {"name": "weekly", "prompt": "one\ntwo", "cron_expr": "0 9 * * *"})["ok"]


def test_a_text_of_invisible_characters_alone_is_refused_as_empty_and_nothing_is_created() -> None:
    """A name of one zero-width space was accepted, and then any id or name that was invisible text found
    that schedule; a message of zero-width characters posted nothing readable. A blank one was refused."""
    from tests.support.memory_stack import MemoryStack

    stack = MemoryStack()
    cases = [
        ("create_reminder", {"message": "\u200b\u200b\ufeff", "time": "in 10 minutes"}, "message"),
        ("cron_create", {"name": "\u200b", "prompt": "p", "cron_expr": "0 9 * * *"}, "name"),
        ("cron_create", {"name": "digest", "prompt": "\u200b \u2060", "cron_expr": "0 9 * * *"}, "prompt"),
        ("reminder_history", {"id": "\u2060"}, "id"),
        ("create_reminder", {"message": "\u3164\u2800\u034f\ufe0f", "time": "in 10 minutes"}, "message"),
    ]
    for tool, given, name in cases:
        refused = stack.call(tool, given)
        assert refused["error"]["code"] == "invalid_arguments", refused
        assert f"`{name}` must not be empty (it has only invisible characters)" in refused["error"]["message"]
    assert stack.call("list_reminders")["result"]["schedules"] == []
    made = stack.call("create_reminder", {"message": "a\u200bb", "time": "in 10 minutes"})  # visible text with one
    assert made["ok"], made
