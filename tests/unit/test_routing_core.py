"""The pure parts of routing: the button payload codec both ways, quick actions per kind and locale,
room keys per platform, and the context's thread and platform."""

from __future__ import annotations

from datetime import UTC, datetime
from zoneinfo import ZoneInfo

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cronbell.core.contract import errors
from cronbell.core.contract.envelope import parse_request, routed
from cronbell.core.domain import refusals
from cronbell.core.domain.actions import MAX_ID, MAX_PAYLOAD_BYTES, BadPayload, decode, encode
from cronbell.core.domain.models import MESSAGE, Schedule
from cronbell.core.domain.refusals import ToolError
from cronbell.core.domain.routing import (
    SEPARATOR,
    allowed_key,
    delivery_platform,
    output_allowed,
    platform_gone,
    room_key,
    split_room_key,
)
from cronbell.core.domain.timing import Timing
from cronbell.core.text.action_labels import reminder_actions


@pytest.mark.parametrize(
    "tool, arguments",
    [
        ("snooze_reminder", {"id": "k3v9q2m8xa", "minutes": 10}),
        ("snooze_reminder", {"id": "z" * MAX_ID, "minutes": 99999}),
        ("snooze_reminder", {"id": "z" * MAX_ID, "minutes": 99999, "occurrence": "4400-01-01T00:00:00Z"}),
        ("snooze_reminder", {"id": "k3v9q2m8xa", "minutes": 10, "occurrence": "2026-11-30T09:00:00Z"}),
        ("skip_next", {"id": "k3v9q2m8xa"}),
        ("skip_next", {"id": "z" * MAX_ID, "occurrence": "2026-12-01T09:00:07Z"}),
        ("skip_next", {"id": "a"}),
        ("done_reminder", {"id": "k3v9q2m8xa"}),
        ("done_reminder", {"id": "z" * MAX_ID}),
    ],
)
def test_a_payload_decodes_to_exactly_its_tool_call_and_fits_every_platform(tool: str, arguments: dict) -> None:
    payload = encode(tool, arguments)
    assert decode(payload) == {"tool": tool, "arguments": arguments}
    assert 1 <= len(payload.encode("utf-8")) <= MAX_PAYLOAD_BYTES == 64  # Telegram; Discord allows 100


@pytest.mark.parametrize(
    "payload",
    [
        "",
        "cb1",
        "cb1 s k3v9q2m8xa",  # snooze without minutes
        "cb1 s k3v9q2m8xa 010",  # not canonical
        "cb1 s k3v9q2m8xa -5",
        "cb1 k k3v9q2m8xa 10",  # skip with an extra field
        "cb1 x k3v9q2m8xa",  # delete is no button
        "cb1 d k3v9q2m8xa tvvr0g",  # done names no occurrence
        "cb2 k k3v9q2m8xa",
        "cb1 k K3V9Q2M8XA",
        "cb1 k " + "z" * (MAX_ID + 1),
        "cb1  k k3v9q2m8xa",
        '{"tool": "delete_reminder"}',
        "cb1 k k3v9q2m8xa\n",  # a trailing newline is no part of an id
        "cb1 s k3v9q2m8xa 10\n",
        "cb1 s k3v9q2m8xa \u00b2",  # a superscript two is a digit to str.isdigit, not to int
        "cb1 s k3v9q2m8xa \u0661\u0660",  # Arabic-Indic digits
        "cb1 s k3v9q2m8xa 10 tpb500 x",  # a field after the occurrence
        "cb1 s k3v9q2m8xa 10 0tpb500",  # a leading zero
        "cb1 s k3v9q2m8xa 10 TPB500",
        "cb1 s k3v9q2m8xa 10 \u00b2",
        "cb1 k k3v9q2m8xa tpb50-",
        "cb1 k k3v9q2m8xa zzzzzzzz",  # past what seven base-36 digits hold
    ],
)
def test_anything_else_is_not_a_payload(payload: str) -> None:
    with pytest.raises(BadPayload) as refused:
        decode(payload)
    assert isinstance(refused.value, ToolError) and refused.value.code == refusals.INVALID_ARGUMENTS
    english, spanish = errors.as_dict(refused.value, "en"), errors.as_dict(refused.value, "es")
    assert english["code"] == spanish["code"] == "invalid_arguments"
    assert english["message"] != spanish["message"]  # said from the catalogs, in the reader's language


def test_an_occurrence_round_trips_as_rfc3339_utc_from_any_offset() -> None:
    payload = encode("skip_next", {"id": "k3v9q2m8xa", "occurrence": "2026-12-01T10:00:00+01:00"})
    assert payload == encode("skip_next", {"id": "k3v9q2m8xa", "occurrence": "2026-12-01T09:00:00Z"})
    assert len(payload) == len("cb1 k k3v9q2m8xa") + 7
    assert decode(payload) == {
        "tool": "skip_next",
        "arguments": {"id": "k3v9q2m8xa", "occurrence": "2026-12-01T09:00:00Z"},
    }
    for bad in ("2026-12-01 10:00", "tomorrow", "2026-12-01T09:00:00.5Z", 1796115600, "1999-12-31T23:59:59Z"):
        with pytest.raises(ValueError):
            encode("skip_next", {"id": "k3v9q2m8xa", "occurrence": bad})


@pytest.mark.parametrize(
    "tool, arguments",
    [
        ("delete_reminder", {"id": "k3v9q2m8xa"}),
        ("snooze_reminder", {"id": "k3v9q2m8xa", "minutes": True}),
        ("snooze_reminder", {"id": "k3v9q2m8xa", "minutes": 0}),
        ("skip_next", {"id": "room:!x"}),
        ("skip_next", {}),
        ("skip_next", {"id": "k3v9q2m8xa", "minutes": 10}),
        ("snooze_reminder", {"id": "k3v9q2m8xa", "minutes": 10, "until": "tomorrow"}),
    ],
)
def test_no_payload_for_calls_no_button_carries(tool: str, arguments: dict) -> None:
    with pytest.raises(ValueError):
        encode(tool, arguments)


def test_actions_per_kind_and_locale() -> None:
    (snooze,) = reminder_actions("k3v9q2m8xa", recurring=False, locale="en")
    assert snooze.as_dict() == {
        "label": "Snooze 10 min",
        "tool": "snooze_reminder",
        "arguments": {"id": "k3v9q2m8xa", "minutes": 10},
    }
    spanish = reminder_actions("k3v9q2m8xa", recurring=True, locale="es-MX")
    assert [(a.label, a.tool) for a in spanish] == [
        ("Posponer 10 min", "snooze_reminder"),
        ("Saltar la próxima", "skip_next"),
    ]
    assert [decode(a.payload) for a in spanish] == [a.call() for a in spanish]
    named = reminder_actions("k3v9q2m8xa", True, "en", "2026-11-30T10:00:00+01:00", "2026-12-01T09:00:00Z")
    assert [a.arguments for a in named] == [
        {"id": "k3v9q2m8xa", "minutes": 10, "occurrence": "2026-11-30T09:00:00Z"},
        {"id": "k3v9q2m8xa", "occurrence": "2026-12-01T09:00:00Z"},
    ]
    assert [decode(a.payload) for a in named] == [a.call() for a in named]
    # the last occurrence of a recurrence has nothing after it to skip
    assert [a.tool for a in reminder_actions("k3v9q2m8xa", True, "en", "2026-11-30T09:00:00Z")] == ["snooze_reminder"]


def test_room_keys_per_platform() -> None:
    assert room_key("", "!a:x", "matrix") == room_key("matrix", "!a:x", "matrix") == "!a:x"
    key = room_key("slack", "C1", "matrix")
    assert key == f"slack{SEPARATOR}C1" and split_room_key(key) == ("slack", "C1")
    assert split_room_key("!a:x") == ("", "!a:x")
    assert room_key("slack", "C1", "matrix") != room_key("telegram", "C1", "matrix")


def _context(**extra: str) -> dict:
    return {"room_id": "C1", "user_id": "U1", **extra}


@pytest.mark.parametrize(
    "entry, key",
    [
        ("slack:C123", f"slack{SEPARATOR}C123"),
        ("Slack:C123", f"slack{SEPARATOR}C123"),
        ("matrix:!news:example.org", "!news:example.org"),  # the default platform keeps bare keys
        ("!news:example.org", "!news:example.org"),  # no platform prefix: the default platform
        ("C123", "C123"),
        ("irc:#chan", "irc:#chan"),  # not a platform: a default-platform room id that holds a colon
        ("webhook:slack:C1", f"webhook{SEPARATOR}slack:C1"),  # a webhook room id may itself hold a colon
    ],
)
def test_allowed_output_room_entries_name_a_room_on_one_platform(entry: str, key: str) -> None:
    assert allowed_key(entry, "matrix") == key


def test_an_allowed_output_room_matches_only_on_its_own_platform() -> None:
    allowed = ("slack:C999", "!news:example.org")
    here = room_key("slack", "C1", "matrix")
    assert output_allowed(here, here, (), "matrix")  # its own room needs no entry
    assert output_allowed(room_key("slack", "C999", "matrix"), here, allowed, "matrix")
    assert not output_allowed(room_key("telegram", "C999", "matrix"), here, allowed, "matrix")
    assert not output_allowed(room_key("", "C999", "matrix"), here, allowed, "matrix")
    assert not output_allowed(room_key("slack", "!news:example.org", "matrix"), here, allowed, "matrix")
    # a room allowed on another platform is not the caller's to post to: only that platform's callers reach it
    assert not output_allowed("!news:example.org", here, allowed, "matrix")
    assert output_allowed("!news:example.org", "!own:example.org", allowed, "matrix")


def test_the_context_carries_thread_and_platform() -> None:
    request = parse_request({"tool": "list_reminders", "context": _context(thread_id=" 17.5 ", platform="Slack")})
    assert (request.context.thread_id, request.context.platform) == ("17.5", "slack")
    ctx = routed(request.context, ("matrix", "slack"))
    assert (ctx.room_id, ctx.platform) == (f"slack{SEPARATOR}C1", "slack")
    assert routed(parse_request({"tool": "x", "context": _context()}).context, ("matrix", "slack")).room_id == "C1"


@pytest.mark.parametrize("platform", ["irc", "discord"])
def test_an_unconfigured_platform_is_refused(platform: str) -> None:
    request = parse_request({"tool": "x", "context": _context(platform=platform)})
    with pytest.raises(ToolError) as refused:
        routed(request.context, ("matrix", "slack"))
    assert refused.value.code == refusals.UNKNOWN_PLATFORM


@pytest.mark.parametrize("bad", [{"thread_id": 5}, {"thread_id": "a\x1fb"}, {"platform": "x" * 300}])
def test_a_malformed_thread_or_platform_is_refused(bad: dict) -> None:
    with pytest.raises(ToolError) as refused:
        parse_request({"tool": "x", "context": _context(**bad)})
    assert refused.value.code == refusals.MISSING_CONTEXT


def test_posts_go_to_the_thread_only_in_the_schedules_own_room() -> None:
    at = datetime(2030, 1, 7, 9, tzinfo=UTC)
    base = dict(
        id="k3v9q2m8xa",
        room_id="R",
        user_id="U",
        agent_id="",
        kind=MESSAGE,
        locale="en",
        created_at=datetime(2026, 1, 1, tzinfo=UTC),
    )
    schedule = Schedule(timing=Timing.once(at, ZoneInfo("UTC")), thread_id="T", **base)  # type: ignore[arg-type]
    assert schedule.output_thread == "T"
    schedule.channel = "R"
    assert schedule.output_thread == "T"
    schedule.channel = "OTHER"
    assert schedule.output_thread == ""


def test_a_room_of_a_platform_no_longer_configured_has_nowhere_to_go() -> None:
    """Two platforms became one: a Slack room's schedules must not post to the same id on Matrix."""
    slack_room = room_key("slack", "C0123", "matrix")
    matrix_room = room_key("matrix", "!a:x", "matrix")
    assert delivery_platform(slack_room, ("matrix", "slack")) == "slack"
    assert delivery_platform(matrix_room, ("matrix", "slack")) == "matrix"
    assert delivery_platform(slack_room, ("matrix",)) is None and platform_gone(slack_room, ("matrix",))
    assert delivery_platform(matrix_room, ("matrix",)) == "matrix" and not platform_gone(matrix_room, ("matrix",))
    telegram_room = room_key("telegram", "-100", "matrix")
    assert platform_gone(telegram_room, ("matrix", "slack")) and not platform_gone(telegram_room, ("slack", "telegram"))
    assert delivery_platform(matrix_room, ()) is None  # nothing configured: nowhere at all


@settings(max_examples=200, deadline=None)
@given(
    schedule_id=st.text(alphabet="0123456789abcdefghijklmnopqrstuvwxyz", min_size=1, max_size=MAX_ID),
    minutes=st.integers(1, 99999),
    occurrence=st.one_of(st.none(), st.datetimes(datetime(2000, 1, 1), datetime(4400, 1, 1), timezones=st.just(UTC))),
    snooze=st.booleans(),
)
def test_every_button_payload_fits_and_decodes_to_its_call(
    schedule_id: str, minutes: int, occurrence: datetime | None, snooze: bool
) -> None:
    arguments: dict = {"id": schedule_id}
    if snooze:
        arguments["minutes"] = minutes
    if occurrence is not None:
        arguments["occurrence"] = occurrence.replace(microsecond=0).strftime("%Y-%m-%dT%H:%M:%SZ")
    tool = "snooze_reminder" if snooze else "skip_next"
    payload = encode(tool, arguments)
    assert len(payload.encode("utf-8")) <= MAX_PAYLOAD_BYTES  # Telegram's 64 bytes; Discord 100, Slack 2,000
    assert decode(payload) == {"tool": tool, "arguments": arguments}
    for broken in (payload + "\n", payload + " ", " " + payload, payload.upper(), payload + "0"):
        try:
            decoded = decode(broken)
        except BadPayload:
            continue
        assert encode(decoded["tool"], decoded["arguments"]) == broken  # only another canonical payload


def test_a_discord_bots_room_that_is_not_a_channel_id_is_refused_at_the_call() -> None:
    """With a bot token a Discord room id is a channel id: `111` was answered ok and failed at its first
    fire as `chat_refused`, the schedule ended. It is refused where the bot sees it, and nothing is made;
    a deployment posting to one channel through a webhook keeps any room id."""
    from dataclasses import replace

    from cronbell.usecases import tools
    from tests.support.memory_stack import MemoryStack

    stack = MemoryStack()
    stack.settings = replace(stack.settings, chat_backend="matrix,discord", discord_bot_token_secret="arn:bot")
    message = {"message": "x", "time": "in 1 hour"}
    for room, thread in (("111", ""), ("general", ""), ("923456789012345678", "thread-1")):
        env = {"tool": "create_reminder", "arguments": message,
               "context": {"room_id": room, "user_id": "987654321098765432", "platform": "discord",
                           "thread_id": thread}}  # fmt: skip
        answer = tools.handle(env, stack.deps())
        assert answer["error"]["code"] == "missing_context", answer
        bad = thread or room
        assert f"{bad!r} is not a Discord channel id (15 to 21 digits)" in answer["error"]["message"]
    made = stack.call("create_reminder", message, room="923456789012345678", platform="discord")
    assert made["ok"], made
    listed = stack.call("list_reminders", room="111", platform="discord")  # what exists there stays manageable
    assert listed["ok"], listed
    stack.settings = replace(stack.settings, discord_bot_token_secret="")  # one channel's webhook: any room id
    assert stack.call("create_reminder", message, room="general", platform="discord")["ok"]
