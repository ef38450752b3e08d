"""Any MCP agent on the local stack: the official SDK's client against a real sandbox process, over streamable HTTP
(`/mcp` on the Lambda port) and over stdio (`python -m sandbox mcp`), as an IDE or a desktop chat app connects."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any, TypeVar

import anyio
import pytest
from mcp import Client, MCPError, StdioServerParameters
from mcp_types import INVALID_PARAMS, CallToolResult

from sandbox.demo import SandboxProcess
from tests.support.aws import free_port
from tests.support.sandbox import Bot

pytestmark = [pytest.mark.e2e, pytest.mark.slow, pytest.mark.xdist_group("mcp")]

ROOT = Path(__file__).resolve().parents[2]
TOOLS_FILE = ROOT / "docs" / "tools" / "mcp-tools.json"  # the full set, where it always was
ESSENTIAL_FILE = ROOT / "docs" / "tools" / "essential" / "mcp-tools.json"
USER = "@ana:localhost"
ZONE = "Europe/Madrid"
TRANSPORTS = ["http", "stdio"]
T = TypeVar("T")


@pytest.fixture(scope="module")
def sandbox() -> Iterator[SandboxProcess]:
    """One sandbox for the module (each test uses rooms of its own); its virtual clock only moves forward."""
    process = SandboxProcess("--start", "2030-01-07T08:00:00Z")
    process.start()
    yield process
    process.stop()
    print(f"--- sandbox log (last lines) ---\n{process.tail()}")
    process.log.unlink(missing_ok=True)


def connect(transport: str, lambda_url: str, room: str, user: str = USER, tools: str = "", **routing: str) -> Client:
    """An MCP client with the context a bot's code would set: the URL's query string, or the command line
    (`routing`: `thread_id`, `platform`), and the tool set to list (`tools`; none: the default)."""
    chosen = {"tools": tools} if tools else {}
    if transport == "http":
        query = urllib.parse.urlencode(
            {"room_id": room, "user_id": user, "agent_id": "echo", "timezone": ZONE, "locale": "en", **routing} | chosen
        )
        return Client(f"{lambda_url}/mcp?{query}")
    command = ["-m", "sandbox", "mcp", "--room", room, "--user", user, "--agent", "echo", "--timezone", ZONE]
    command += ["--locale", "en", "--lambda-url", lambda_url] + (["--tools", tools] if tools else [])
    for key, value in routing.items():
        command += [f"--{key.removesuffix('_id')}", value]
    return Client(StdioServerParameters(command=sys.executable, args=command, cwd=str(ROOT), env=dict(os.environ)))


def session(client: Client, scenario: Callable[[Client], Awaitable[T]]) -> T:
    async def run() -> T:
        async with client:
            return await scenario(client)

    return anyio.run(run)


def answer_of(result: CallToolResult) -> dict[str, Any]:
    """The tools answer a call carried, checked against the contract's shape on the way."""
    answer = result.structured_content
    assert isinstance(answer, dict), result
    (item,) = result.content  # one text item: the whole answer as JSON
    assert item.type == "text" and json.loads(item.text) == answer
    assert result.is_error is not answer["ok"]
    return answer


@pytest.mark.parametrize("transport", TRANSPORTS)
def test_an_mcp_agent_lists_the_tools_creates_a_reminder_and_it_is_delivered(
    sandbox: SandboxProcess, transport: str
) -> None:
    room = f"!remind-{transport}:localhost"
    bot = Bot(sandbox, room)

    async def scenario(client: Client) -> tuple[Any, dict[str, Any], dict[str, Any]]:
        tools = await client.list_tools()
        created = answer_of(
            await client.call_tool("create_reminder", {"message": "Water the plants", "time": "in 30 minutes"})
        )
        listed = answer_of(await client.call_tool("list_reminders", {}))
        return tools, created, listed

    tools, created, listed = session(connect(transport, sandbox.url, room), scenario)

    assert (
        tools.model_dump(by_alias=True, exclude_none=True, mode="json")["tools"]
        == json.loads(TOOLS_FILE.read_text())["tools"]
    )
    assert created["ok"], created
    reminder = created["result"]["id"]
    assert [s["id"] for s in listed["result"]["schedules"]] == [reminder]
    assert listed == bot.call("list_reminders", timezone=ZONE)  # the same answer a bot gets in that room

    fired = sandbox.post("/_sandbox/clock", {"advance_seconds": 3600})["fired"]
    assert [f["ok"] for f in fired if f["schedule"] == reminder] == [True]
    (message,) = sandbox.messages(room)
    assert "Water the plants" in message["text"]
    assert message["mentions"] == [USER]
    assert message["ts"] == created["result"]["next_fire"]["utc"]


@pytest.mark.parametrize("transport", TRANSPORTS)
def test_a_reminder_made_over_mcp_in_a_thread_is_posted_in_it(sandbox: SandboxProcess, transport: str) -> None:
    room, thread = f"!thread-{transport}:localhost", f"$root-{transport}:localhost"

    async def create(client: Client) -> dict[str, Any]:
        arguments = {"message": "Reply to Marta", "time": "in 20 minutes"}
        return answer_of(await client.call_tool("create_reminder", arguments))

    in_thread = session(connect(transport, sandbox.url, room, thread_id=thread, platform="webhook"), create)
    main = session(connect(transport, sandbox.url, room), create)
    # (with the sink chat the sandbox configures every platform but Matrix)
    elsewhere = session(connect(transport, sandbox.url, room, thread_id=thread, platform="matrix"), create)
    assert in_thread["ok"] and main["ok"], (in_thread, main)
    assert in_thread["result"]["id"] != main["result"]["id"]  # the thread's reminder is its own
    # the platform reaches the tools: one this sandbox does not configure is refused, and nothing is made
    assert (elsewhere["ok"], elsewhere["error"]["code"]) == (False, "unknown_platform")

    sandbox.post("/_sandbox/clock", {"advance_seconds": 3600})
    posted = {m["thread_id"]: m for m in sandbox.messages(room)}
    assert set(posted) == {thread, None}
    assert "Reply to Marta" in posted[thread]["text"]
    assert posted[thread]["actions"][0]["arguments"]["id"] == in_thread["result"]["id"]
    listed = Bot(sandbox, room).call("list_reminders", include_inactive=True)["result"]["schedules"]
    assert {s["id"]: s["thread_id"] for s in listed} == {in_thread["result"]["id"]: thread, main["result"]["id"]: None}


@pytest.mark.parametrize("transport", TRANSPORTS)
def test_a_refusal_is_an_error_result_carrying_the_tools_answer(sandbox: SandboxProcess, transport: str) -> None:
    room = f"!refuse-{transport}:localhost"

    async def scenario(client: Client) -> list[dict[str, Any]]:
        return [
            answer_of(await client.call_tool("create_reminder", {"message": "Stand-up", "time": "tomorrow at 25:99"})),
            answer_of(await client.call_tool("no_such_tool", {})),
            answer_of(await client.call_tool("list_reminders", {})),
        ]

    bad_time, unknown, listed = session(connect(transport, sandbox.url, room), scenario)

    assert (bad_time["ok"], bad_time["error"]["code"]) == (False, "invalid_time")
    assert (unknown["ok"], unknown["error"]["code"]) == (False, "unknown_tool")
    assert listed["ok"] and listed["result"]["schedules"] == []  # nothing was created


@pytest.mark.parametrize("transport", TRANSPORTS)
def test_identity_in_the_arguments_is_refused_and_changes_nothing(sandbox: SandboxProcess, transport: str) -> None:
    room, victim = f"!own-{transport}:localhost", f"!victim-{transport}:localhost"

    async def scenario(client: Client) -> list[dict[str, Any]]:
        return [
            answer_of(await client.call_tool(tool, arguments))
            for tool, arguments in [
                ("create_reminder", {"message": "Pay me", "time": "in 5 minutes", "room_id": victim}),
                ("create_reminder", {"message": "Pay me", "time": "in 5 minutes", "user_id": "@boss:localhost"}),
                (
                    "cron_create",
                    {"name": "x", "prompt": "hi", "cron_expr": "0 9 * * *", "context": {"room_id": victim}},
                ),
                ("list_reminders", {"room_id": victim}),
            ]
        ]

    answers = session(connect(transport, sandbox.url, room), scenario)

    assert [(a["ok"], a["error"]["code"]) for a in answers] == [(False, "invalid_arguments")] * 4
    sandbox.post("/_sandbox/clock", {"advance_seconds": 3600})
    for where in (room, victim):
        assert Bot(sandbox, where).call("list_reminders", include_inactive=True)["result"]["schedules"] == []
        assert sandbox.messages(where) == []


def test_an_mcp_url_without_room_or_user_is_a_clear_error(sandbox: SandboxProcess) -> None:
    for query, missing in [
        ("user_id=%40ana%3Alocalhost", "room_id"),
        ("room_id=!r:localhost", "user_id"),
        ("", "room_id and user_id"),
    ]:
        with pytest.raises(BaseException) as raised:
            session(Client(f"{sandbox.url}/mcp?{query}"), lambda client: client.list_tools())
        (error,) = leaves(raised.value)
        assert isinstance(error, MCPError), error
        assert error.error.code == INVALID_PARAMS
        assert f"needs {missing} in its URL's query string" in error.error.message

        request = urllib.request.Request(
            f"{sandbox.url}/mcp?{query}",
            data=json.dumps({"jsonrpc": "2.0", "id": 1, "method": "tools/list"}).encode(),
            headers={"Content-Type": "application/json", "Accept": "application/json, text/event-stream"},
        )
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(request, timeout=30)
        assert refused.value.code == 400
        assert json.load(refused.value)["error"]["message"] == error.error.message


def test_a_room_or_user_named_twice_or_blank_in_the_url_is_refused_before_anything_runs(
    sandbox: SandboxProcess,
) -> None:
    """`room_id=R&room_id=` read R in the check and the blank in the SDK, which then answered HTTP 200 with
    an error of code 0: a name given twice is refused, and a blank one is a missing one, with a 400 and
    the request's id as any missing context is."""
    headers = {"Content-Type": "application/json", "Accept": "application/json, text/event-stream"}
    body = json.dumps({"jsonrpc": "2.0", "id": 42, "method": "tools/call", "params": {"name": "list_reminders"}})
    for query, said in [
        ("room_id=!r:localhost&room_id=&user_id=%40u%3Alocalhost", "names room_id more than once"),
        ("room_id=!r:localhost&user_id=%40u%3Alocalhost&user_id=%40v%3Alocalhost", "names user_id more than once"),
        ("room_id=&user_id=%40u%3Alocalhost", "needs room_id"),
    ]:
        request = urllib.request.Request(f"{sandbox.url}/mcp?{query}", data=body.encode(), headers=headers)
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(request, timeout=30)
        answer = json.load(refused.value)
        assert refused.value.code == 400 and answer["id"] == 42 and answer["error"]["code"] == INVALID_PARAMS
        assert said in answer["error"]["message"], answer


def test_a_request_whose_id_is_not_a_string_or_an_integer_is_answered_invalid_request(sandbox: SandboxProcess) -> None:
    """The SDK took such a request for a notification: HTTP 202, no body, nothing run and the client never
    answered. JSON-RPC answers it Invalid Request with a null id; a good request still runs."""
    url = f"{sandbox.url}/mcp?room_id=!bad-ids:localhost&user_id=%40ana%3Alocalhost"
    headers = {"Content-Type": "application/json", "Accept": "application/json, text/event-stream"}
    call = {"name": "create_reminder", "arguments": {"message": "x", "time": "in 1 hour"}}
    for bad in ({"a": 1}, None, 1.5, True):
        body = {"jsonrpc": "2.0", "id": bad, "method": "tools/call", "params": call}
        request = urllib.request.Request(url, data=json.dumps(body).encode(), headers=headers)
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(request, timeout=30)
        assert refused.value.code == 400
        answer = json.load(refused.value)
        assert answer["id"] is None and answer["error"]["code"] == -32600, answer
    listed = session(Client(url), lambda client: client.call_tool("list_reminders", {}))
    assert listed.is_error is False, listed


def test_the_stdio_command_needs_a_room_and_a_user() -> None:
    def run(*args: str) -> subprocess.CompletedProcess[str]:
        command = [sys.executable, "-m", "sandbox", "mcp", *args]
        return subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL)

    without_room = run("--user", USER)
    assert without_room.returncode == 2 and "--room" in without_room.stderr
    blank_user = run("--room", "!r:localhost", "--user", " ")
    assert blank_user.returncode == 2 and "needs user_id" in blank_user.stderr
    assert without_room.stdout == blank_user.stdout == ""  # stdout is the protocol's alone


def test_over_stdio_without_a_sandbox_the_tools_are_listed_and_a_call_says_what_to_start() -> None:
    nowhere = f"http://127.0.0.1:{free_port()}"

    async def scenario(client: Client) -> tuple[Any, CallToolResult]:
        return await client.list_tools(), await client.call_tool("list_reminders", {})

    tools, result = session(connect("stdio", nowhere, "!r:localhost"), scenario)

    assert [t.name for t in tools.tools] == [t["name"] for t in json.loads(TOOLS_FILE.read_text())["tools"]]
    answer = answer_of(result)
    assert answer["error"]["code"] == "internal_error"
    assert f"cannot reach the sandbox at {nowhere}" in answer["text"] and "python -m sandbox serve" in answer["text"]


def leaves(error: BaseException) -> list[BaseException]:
    """The exceptions inside the task groups' exception groups the client raises through."""
    if isinstance(error, BaseExceptionGroup):
        return [leaf for inner in error.exceptions for leaf in leaves(inner)]
    return [error]


@pytest.mark.parametrize("transport", TRANSPORTS)
def test_the_essential_set_is_listed_and_every_tool_still_answers(sandbox: SandboxProcess, transport: str) -> None:
    """`tools=essential` (`--tools essential`) lists the eight essential tools as their file has them; a tool of
    the full set alone (a button's snooze) is still run when called."""
    room = f"!essential-{transport}:localhost"

    async def scenario(client: Client) -> tuple[Any, dict[str, Any], dict[str, Any]]:
        listed = await client.list_tools()
        made = answer_of(await client.call_tool("create_reminder", {"message": "Tea", "time": "in 2 hours"}))
        snoozed = answer_of(await client.call_tool("snooze_reminder", {"id": made["result"]["id"], "minutes": 10}))
        return listed, made, snoozed

    listed, made, snoozed = session(connect(transport, sandbox.url, room, tools="essential"), scenario)

    expected = json.loads(ESSENTIAL_FILE.read_text(encoding="utf-8"))["tools"]
    assert listed.model_dump(by_alias=True, exclude_none=True, mode="json")["tools"] == expected
    assert len(expected) == 8 and "snooze_reminder" not in {t["name"] for t in expected}
    assert made["ok"] and snoozed["ok"], (made, snoozed)


def test_a_tool_set_there_is_none_of_is_refused() -> None:
    """Over HTTP a 400 naming the sets, before the SDK sees the request; over stdio the command's usage error."""
    command = [sys.executable, "-m", "sandbox", "mcp", "--room", "!r:localhost", "--user", USER, "--tools", "tiny"]
    refused = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL)
    assert refused.returncode == 2 and "essential" in refused.stderr and refused.stdout == ""


def test_an_mcp_url_naming_no_tool_set_of_ours_is_a_clear_error(sandbox: SandboxProcess) -> None:
    query = urllib.parse.urlencode({"room_id": "!r:localhost", "user_id": USER, "tools": "tiny"})
    request = urllib.request.Request(
        f"{sandbox.url}/mcp?{query}",
        data=json.dumps({"jsonrpc": "2.0", "id": 1, "method": "tools/list"}).encode(),
        method="POST",
        headers={"Content-Type": "application/json", "Accept": "application/json, text/event-stream"},
    )
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(request, timeout=30)
    assert refused.value.code == 400
    message = json.load(refused.value)["error"]["message"]
    assert "tools=tiny" in message and "essential" in message
