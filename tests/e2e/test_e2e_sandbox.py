"""The whole stack through the sandbox's endpoints, as a bot drives it (webhook sink chat)."""

from __future__ import annotations

import hashlib
import hmac
import json
import subprocess
import sys
import time
import urllib.error
import urllib.request
from datetime import timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

import boto3
import pytest

from sandbox.demo import SandboxProcess
from sandbox.stack import REGION
from tests.support.sandbox import Bot, StartSandbox, instant

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

ROOT = Path(__file__).resolve().parents[2]
MADRID = ZoneInfo("Europe/Madrid")
DAY = 86400


def test_clock_endpoints_and_health(start_sandbox: StartSandbox) -> None:
    sandbox = start_sandbox("--start", "2030-01-07T08:00:00Z")
    assert sandbox.get("/_sandbox/health") == {"ok": True}
    assert sandbox.get("/_sandbox/clock") == {"now": "2030-01-07T08:00:00Z"}
    assert sandbox.post("/_sandbox/clock", {"advance_seconds": 90})["now"] == "2030-01-07T08:01:30Z"
    assert sandbox.post("/_sandbox/clock", {"set": "2030-01-08T00:00:00Z"})["now"] == "2030-01-08T00:00:00Z"
    assert sandbox.get("/_sandbox/clock") == {"now": "2030-01-08T00:00:00Z"}


def test_one_shot_fires_once_then_is_listed_as_fired(start_sandbox: StartSandbox) -> None:
    sandbox = start_sandbox("--start", "2030-01-07T08:00:00Z")
    bot = Bot(sandbox, "!oneshot:localhost")
    reminder = bot.create(message="Llamar a Marta", time="en 30 minutos", locale="es")

    fired = bot.advance(3600)
    assert [(f["schedule"], f["scheduled_time"], f["ok"]) for f in fired if f["schedule"] == reminder] == [
        (reminder, "2030-01-07T08:30:00Z", True)
    ]
    (message,) = bot.messages()
    assert "Llamar a Marta" in message["text"]
    assert message["mentions"] == ["@ana:localhost"]
    assert message["ts"] == "2030-01-07T08:30:00Z"  # virtual time, not the machine's

    assert not [f for f in bot.advance(2 * DAY) if f["schedule"] == reminder]
    assert len(bot.messages()) == 1
    listed = bot.call("list_reminders", include_inactive=True)["result"]["schedules"]
    assert [s["status"] for s in listed if s["id"] == reminder] == ["fired"]


def test_weekly_reminder_fires_exactly_once_a_week_for_five_weeks(start_sandbox: StartSandbox) -> None:
    sandbox = start_sandbox("--start", "2030-01-02T12:00:00Z")  # a Wednesday
    bot = Bot(sandbox, "!weekly:localhost")
    reminder = bot.create(message="Weekly planning", cron="0 10 * * 1")
    fires = []
    for _ in range(35):
        fires += [f for f in bot.advance(DAY) if f["schedule"] == reminder]
    expected = [instant("2030-01-07T09:00:00Z") + timedelta(weeks=k) for k in range(5)]
    assert [instant(f["scheduled_time"]) for f in fires] == expected
    assert all(f["ok"] for f in fires)
    messages = bot.messages()
    assert [instant(m["ts"]) for m in messages] == expected
    assert all(instant(m["ts"]).astimezone(MADRID).strftime("%a %H:%M") == "Mon 10:00" for m in messages)


def test_deleted_before_its_time_posts_nothing(start_sandbox: StartSandbox) -> None:
    sandbox = start_sandbox("--start", "2030-01-07T08:00:00Z")
    bot = Bot(sandbox, "!deleted:localhost")
    reminder = bot.create(message="Cancelled lunch", time="in 2 hours")
    assert bot.call("delete_reminder", id=reminder)["ok"]
    fired = bot.advance(DAY)
    assert not [f for f in fired if f["schedule"] == reminder]
    assert bot.messages() == []


def test_disabled_schedule_does_not_fire(start_sandbox: StartSandbox) -> None:
    """pause_reminder disables the Scheduler entry; the engine must not fire it at all (the daily
    reconciler, which also runs in the sandbox, agrees with a paused schedule's DISABLED entry)."""
    sandbox = start_sandbox("--start", "2030-01-07T08:00:00Z")
    bot = Bot(sandbox, "!disabled:localhost")
    reminder = bot.create(message="Stand-up", cron="0 9 * * *")
    assert bot.call("pause_reminder", id=reminder)["ok"]
    group = sandbox.get("/_sandbox/info")["schedule_group"]
    assert bot.scheduler_client().get_schedule(Name=reminder, GroupName=group)["State"] == "DISABLED"

    fired = bot.advance(3 * DAY)
    assert not [f for f in fired if f["schedule"] == reminder]
    assert bot.messages() == []
    assert bot.call("resume_reminder", id=reminder)["ok"]
    assert [f["scheduled_time"] for f in bot.advance(DAY) if f["schedule"] == reminder] == ["2030-01-11T08:00:00Z"]


def test_daily_reminder_across_the_spring_dst_change_in_madrid(start_sandbox: StartSandbox) -> None:
    # Europe/Madrid moves from UTC+1 to UTC+2 on Sunday 2030-03-31.
    sandbox = start_sandbox("--start", "2030-03-29T12:00:00Z", "--timezone", "Europe/Madrid")
    bot = Bot(sandbox, "!dst:localhost")
    reminder = bot.create(message="Desayuno", cron="0 9 * * *", locale="es")
    fires = []
    for _ in range(4):
        fires += [f["scheduled_time"] for f in bot.advance(DAY) if f["schedule"] == reminder]
    assert fires == [
        "2030-03-30T08:00:00Z",
        "2030-03-31T07:00:00Z",
        "2030-04-01T07:00:00Z",
        "2030-04-02T07:00:00Z",
    ]
    assert [m["ts"] for m in bot.messages()] == fires


def test_agent_call_posts_the_agents_answer(start_sandbox: StartSandbox) -> None:
    sandbox = start_sandbox("--start", "2030-01-07T08:00:00Z")
    bot = Bot(sandbox, "!agent:localhost")
    body = bot.call(
        "cron_create", name="brief", prompt="Summarize the news", cron_expr="0 9 * * *", target_agent="echo"
    )
    assert body["ok"], body
    bot.advance(DAY)
    (message,) = bot.messages()
    assert "echo: Summarize the news" in message["text"]


def test_sink_records_a_repeated_idempotency_key_once(start_sandbox: StartSandbox) -> None:
    sandbox = start_sandbox("--start", "2030-01-07T08:00:00Z")
    message = {
        "room_id": "!sink:localhost",
        "text": "hi",
        "html": "hi",
        "mentions": [],
        "idempotency_key": "k1",
    }
    body = json.dumps(message).encode()

    def post(signature: str) -> urllib.request.Request:
        headers = {"Content-Type": "application/json", "Idempotency-Key": "k1"}
        headers.update({"X-Cronbell-Timestamp": "1", "X-Cronbell-Signature": signature})
        return urllib.request.Request(f"{sandbox.url}/_sandbox/sink", data=body, method="POST", headers=headers)

    # the sink is a receiver that checks the signature made with the secret the sandbox provisioned
    with pytest.raises(urllib.error.HTTPError) as unsigned:
        urllib.request.urlopen(post("sha256=00"))
    assert unsigned.value.code == 401
    secret = sandbox_secret(sandbox, "cronbell/webhook-secret")
    signed = "sha256=" + hmac.new(secret.encode(), b"1." + body, hashlib.sha256).hexdigest()
    ids = []
    for _ in range(2):
        with urllib.request.urlopen(post(signed)) as answer:
            ids.append(json.load(answer)["id"])
    assert ids[0] == ids[1]
    assert [m["text"] for m in sandbox.messages("!sink:localhost")] == ["hi"]


def sandbox_secret(sandbox: SandboxProcess, name: str) -> str:
    """A secret the sandbox provisioned, read from its Secrets Manager."""
    secrets = boto3.client(
        "secretsmanager",
        endpoint_url=f"http://127.0.0.1:{sandbox.aws_port}",
        region_name=REGION,
        aws_access_key_id="test",
        aws_secret_access_key="test",
    )
    return str(secrets.get_secret_value(SecretId=name)["SecretString"])


def test_invoke_command_runs_one_event_like_sam_local_invoke() -> None:
    ok = subprocess.run(
        [
            sys.executable,
            "-m",
            "sandbox",
            "invoke",
            "ToolsFunction",
            "-e",
            "events/tools-list-reminders.json",
        ],
        cwd=ROOT,
        capture_output=True,
        timeout=60,
    )
    assert ok.returncode == 0, ok.stderr.decode()
    assert json.loads(ok.stdout)["ok"] is True
    missing = subprocess.run(
        [sys.executable, "-m", "sandbox", "invoke", "NoSuchFunction"],
        cwd=ROOT,
        capture_output=True,
        timeout=60,
    )
    assert missing.returncode == 2


def test_run_now_fires_through_an_asynchronous_invoke(start_sandbox: StartSandbox) -> None:
    sandbox = start_sandbox("--start", "2030-01-07T08:00:00Z")
    bot = Bot(sandbox, "!runnow:localhost")
    created = bot.call("cron_create", name="brief", prompt="ping", cron_expr="0 9 * * *", target_agent="echo")
    assert created["ok"], created
    answer = bot.call("run_now", kind="cron", target="brief")
    assert answer["ok"], answer
    deadline = time.monotonic() + 10
    while not bot.messages() and time.monotonic() < deadline:
        time.sleep(0.1)
    (message,) = bot.messages()
    assert "echo: ping" in message["text"]
    assert message["ts"] == "2030-01-07T08:00:00Z"  # the clock did not move


def test_a_log_file_takes_the_functions_logs_and_the_banner_shows_timezone_and_locale(
    start_sandbox: StartSandbox, tmp_path: Path
) -> None:
    log_file = tmp_path / "functions.log"
    sandbox = start_sandbox(
        "--start", "2030-01-07T07:40:00Z", "--timezone", "Europe/Madrid", "--log-file", str(log_file)
    )
    bot = Bot(sandbox, "!logs:localhost")
    schedule_id = bot.create(message="Log me", time="in 10 minutes")
    assert len(bot.advance(3600)) == 1
    fires = [json.loads(line) for line in log_file.read_text().splitlines() if '"fire done"' in line]
    assert [line["schedule_id"] for line in fires] == [schedule_id]
    terminal = sandbox.log.read_text()
    assert f"logs go to {log_file}" in terminal and "cronbell sandbox is up." in terminal
    assert '"fire done"' not in terminal
    assert '"timezone": "Europe/Madrid", "locale": "en"' in terminal  # the boto3 snippet's context
    assert "timezone=Europe/Madrid&locale=en" in terminal  # the MCP URL's
