"""The tools over MCP, read by the official SDK's client (in memory): every tool listed with its title,
annotations and output schema, and every answer, refusals included, carried whole as JSON in the text
content and as structured content that the client checks against the tool's output schema."""

from __future__ import annotations

import json
from typing import Any

import anyio
from mcp import Client
from mcp_types import CallToolResult

from cronbell.usecases import tools
from sandbox.mcp import build_server
from tests.support.aws import Stack
from tests.support.envelopes import ROOM, USER
from tests.support.registry import TOOL_ARGUMENTS

CONTEXT = {"room_id": ROOM, "user_id": USER, "agent_id": "echo", "timezone": "Europe/Madrid", "locale": "en"}


def answer_of(result: CallToolResult) -> dict[str, Any]:
    (item,) = result.content
    answer = json.loads(item.text)
    assert answer == result.structured_content
    assert result.is_error is not answer["ok"]
    return answer


def test_every_tool_is_listed_with_its_metadata_and_every_answer_is_whole_in_the_text(stack: Stack) -> None:
    invoked: list[str] = []

    def invoke(event: dict[str, Any]) -> dict[str, Any]:
        invoked.append(event["tool"])
        return tools.handle(event, stack.deps(start_fire=lambda event: None))

    server = build_server(invoke, lambda ctx: CONTEXT, lambda ctx: "full")

    async def scenario() -> tuple[Any, list[dict[str, Any]]]:
        async with Client(server) as client:
            listed = await client.list_tools()
            out = []

            async def call(name: str, arguments: dict[str, Any]) -> dict[str, Any]:
                # the client validates structured content against the listed output schema
                answer = answer_of(await client.call_tool(name, arguments))
                out.append(answer)
                return answer

            made = await call("create_reminder", {"message": "Call the dentist", "time": "2026-12-04 17:00"})
            weekly = await call("create_reminder", {"message": "Stand-up", "cron": "0 9 * * 1-5"})
            agent = await call(
                "cron_create", {"name": "news", "prompt": "Summarize the news", "cron_expr": "0 8 * * *"}
            )
            one, week, job = made["result"]["id"], weekly["result"]["id"], agent["result"]["id"]
            await call("list_reminders", {})
            await call("cron_list", {})
            await call("update_reminder", {"id": week, "cron": "0 10 * * 1-5"})
            await call("snooze_reminder", {"id": week, "minutes": 10})
            await call("skip_next", {"id": week})
            await call("pause_reminder", {"id": week})
            await call("resume_reminder", {"id": week})
            await call("run_now", {"target": job})
            await call("reminder_history", {"id": week})
            await call("done_reminder", {"id": week})
            await call("delete_reminder", {"id": one})
            await call("cron_delete", {"id": job})
            await call("set_quiet_hours", {"start": "22:00", "end": "07:30", "days": ["fri", "sat"]})
            await call("get_quiet_hours", {})
            await call("clear_quiet_hours", {})
            await call("create_reminder", {"message": "x", "time": "yesterday at 9"})
            await call("delete_reminder", {"id": one})
            return listed, out

    listed, answers = anyio.run(scenario)

    assert [t.name for t in listed.tools] == list(TOOL_ARGUMENTS)
    for tool in listed.tools:
        assert tool.title and tool.annotations is not None and tool.output_schema is not None
    assert set(invoked) == set(TOOL_ARGUMENTS)  # every tool answered through the SDK
    assert [a["ok"] for a in answers] == [True] * 18 + [False, False]
    hints = {t.name: t.annotations for t in listed.tools}
    assert hints["get_quiet_hours"].read_only_hint is True and hints["get_quiet_hours"].open_world_hint is False
    for name in ("set_quiet_hours", "clear_quiet_hours"):
        assert (hints[name].read_only_hint, hints[name].destructive_hint) == (False, False), name
        assert (hints[name].idempotent_hint, hints[name].open_world_hint) == (True, False), name
    assert answers[-5]["result"]["quiet_hours"]["days"] == ["fri", "sat"]
    assert answers[-3]["result"] == {"cleared": True, "now": answers[-3]["result"]["now"]}
    assert answers[-2]["error"]["code"] == "time_in_past"
    assert answers[-1]["error"]["code"] == "not_found"
