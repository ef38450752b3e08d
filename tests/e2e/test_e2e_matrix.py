"""The sandbox with a real Matrix homeserver: the reminder is read back from the room, on virtual time."""

from __future__ import annotations

import pytest

from tests.support.sandbox import Bot, StartSandbox

pytestmark = [pytest.mark.e2e, pytest.mark.slow, pytest.mark.matrix]


def test_reminder_reaches_the_matrix_room_at_its_virtual_time(start_sandbox: StartSandbox) -> None:
    sandbox = start_sandbox("--chat", "matrix", "--start", "2030-01-07T08:00:00Z")
    info = sandbox.get("/_sandbox/info")["matrix"]
    bot = Bot(sandbox, info["room_id"], info["user"])
    reminder = bot.create(message="Revisar el informe", time="en 15 minutos", locale="es")
    agent = bot.call("cron_create", name="brief", prompt="hola", cron_expr="0 12 * * *", target_agent="echo")
    assert agent["ok"], agent

    fired = bot.advance(6 * 3600)
    assert [(f["schedule"], f["ok"]) for f in fired if f["schedule"] in (reminder, agent["result"]["id"])] == [
        (reminder, True),
        (agent["result"]["id"], True),
    ]
    messages = bot.messages()
    assert [m["ts"] for m in messages] == ["2030-01-07T08:15:00Z", "2030-01-07T11:00:00Z"]
    first, second = messages
    assert "Revisar el informe" in first["text"]
    assert first["mentions"] == [info["user"]]
    assert f"https://matrix.to/#/{info['user']}" in first["html"]
    assert "echo: hola" in second["text"]
    assert all(m["room_id"] == info["room_id"] for m in messages)
