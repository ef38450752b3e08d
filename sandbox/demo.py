"""`python -m sandbox demo`: a scripted conversation through the sandbox, exactly as a bot would drive it.

Starts `python -m sandbox serve` with a real Matrix homeserver and a virtual clock, calls the tools with
boto3, moves the clock a day at a time for a week, reads the room back and checks what should be there.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
import urllib.parse
import urllib.request
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import boto3

from sandbox.app import ROOT, free_port
from sandbox.clock import parse_instant

START = "2027-03-04T07:55:00Z"  # a Thursday, 08:55 in Madrid
DAYS = 7
MADRID = ZoneInfo("Europe/Madrid")


class DemoFailure(AssertionError):
    pass


class SandboxProcess:
    """`python -m sandbox serve` in a subprocess, its output in a log file."""

    def __init__(self, *args: str) -> None:
        self.lambda_port = free_port()
        self.aws_port = free_port()
        self.args = args
        self.log = Path(tempfile.mkstemp(prefix="cronbell-sandbox-", suffix=".log")[1])
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.lambda_port}"

    def start(self, timeout: float = 60.0) -> SandboxProcess:
        command = [
            sys.executable,
            "-m",
            "sandbox",
            "serve",
            "--lambda-port",
            str(self.lambda_port),
            "--aws-port",
            str(self.aws_port),
            *self.args,
        ]
        with self.log.open("wb") as out:
            self.process = subprocess.Popen(command, cwd=ROOT, stdout=out, stderr=subprocess.STDOUT, env=os.environ)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise DemoFailure(f"the sandbox exited with {self.process.returncode}:\n{self.tail()}")
            try:
                with urllib.request.urlopen(f"{self.url}/_sandbox/health", timeout=1) as answer:
                    if answer.status == 200:
                        return self
            except OSError:
                pass
            time.sleep(0.2)
        self.stop()
        raise DemoFailure(f"the sandbox did not come up in {timeout:.0f} s:\n{self.tail()}")

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(5)
        self.process = None

    def tail(self, lines: int = 40) -> str:
        try:
            return "\n".join(self.log.read_text(errors="replace").splitlines()[-lines:])
        except OSError:
            return ""

    def get(self, path: str) -> Any:
        with urllib.request.urlopen(f"{self.url}{path}", timeout=60) as answer:
            return json.load(answer)

    def post(self, path: str, body: dict[str, Any]) -> Any:
        request = urllib.request.Request(
            f"{self.url}{path}",
            data=json.dumps(body).encode(),
            method="POST",
            headers={"Content-Type": "application/json"},
        )
        with urllib.request.urlopen(request, timeout=120) as answer:
            return json.load(answer)

    def messages(self, room_id: str) -> list[dict[str, Any]]:
        result: list[dict[str, Any]] = self.get(f"/_sandbox/messages?room_id={urllib.parse.quote(room_id)}")
        return result

    def lambda_client(self) -> Any:
        return boto3.client(
            "lambda",
            endpoint_url=self.url,
            region_name="us-east-1",
            aws_access_key_id="test",
            aws_secret_access_key="test",
        )


SLACK_TEAM, SLACK_CHANNEL, SLACK_USER = "T0SANDBOX", "C0STANDUP", "U0ANA"  # the sandbox's default Slack workspace


def local(ts: str) -> str:
    return parse_instant(ts).astimezone(MADRID).strftime("%a %Y-%m-%d %H:%M %Z")


class Bot:
    """Calls the tools function as a chat bot's code does, printing each call and answer."""

    def __init__(self, client: Any, room_id: str, user_id: str, **context: str) -> None:
        self.client = client
        self.room_id = room_id
        self.user_id = user_id
        self.context = context  # the rest of the bot's context: platform, team_id

    def call(self, tool: str, arguments: dict[str, Any], locale: str) -> dict[str, Any]:
        event = {
            "tool": tool,
            "arguments": arguments,
            "context": {
                "room_id": self.room_id,
                "user_id": self.user_id,
                "agent_id": "echo",
                "timezone": "Europe/Madrid",
                "locale": locale,
                **self.context,
            },
        }
        where = f" ({', '.join(f'{k} {v}' for k, v in self.context.items())})" if self.context else ""
        print(f"\n> {tool} {json.dumps(arguments, ensure_ascii=False)}{where}")
        answer = self.client.invoke(FunctionName="ToolsFunction", Payload=json.dumps(event).encode())
        if answer.get("FunctionError"):
            raise DemoFailure(f"{tool} failed: {answer['Payload'].read().decode()}")
        body: dict[str, Any] = json.load(answer["Payload"])
        status = "ok" if body.get("ok") else f"error {body.get('error', {}).get('code')}"
        print(f"< {status}: {body.get('text')}")
        for item in body.get("result", {}).get("schedules", []) if body.get("ok") else []:
            preview, description = item.get("preview"), item.get("description")
            print(f"    - {item.get('id')} [{item.get('status')}] {preview!r}: {description}")
        return body


def check(condition: bool, what: str, problems: list[str]) -> None:
    print(f"  [{'ok' if condition else 'MISSING'}] {what}")
    if not condition:
        problems.append(what)


def play(sandbox: SandboxProcess) -> list[str]:
    info = sandbox.get("/_sandbox/info")
    matrix = info["matrix"]
    room_id, user_id = matrix["room_id"], matrix["user"]
    print(f"Homeserver {matrix['homeserver']}, room {room_id}; login {user_id} / {matrix['password']}")
    print(f"Virtual time: {local(info['now'])}")
    bot = Bot(sandbox.lambda_client(), room_id, user_id)
    problems: list[str] = []

    one_shot = bot.call("create_reminder", {"message": "Llamar a Marta", "time": "en 10 minutos"}, "es")
    weekly = bot.call("create_reminder", {"message": "Weekly planning", "cron": "0 10 * * 1"}, "en")
    agent = bot.call(
        "cron_create",
        {
            "name": "morning-brief",
            "prompt": "Summarize the news",
            "cron_expr": "0 9 * * *",
            "target_agent": "echo",
        },
        "en",
    )
    doomed = bot.call("create_reminder", {"message": "Cancelled lunch", "time": "tomorrow at 13:00"}, "en")
    listed = bot.call("list_reminders", {}, "en")
    deleted = bot.call("delete_reminder", {"id": doomed.get("result", {}).get("id", "")}, "en")
    refused = bot.call("create_reminder", {"message": "Algo", "time": "cuando te parezca"}, "es")
    # the same deployment's Slack app, in its workspace: posted to the sandbox's stand-in of Slack's Web API
    slack = Bot(sandbox.lambda_client(), SLACK_CHANNEL, SLACK_USER, platform="slack", team_id=SLACK_TEAM)
    stand_up = slack.call("create_reminder", {"message": "Stand-up", "time": "tomorrow at 9:30"}, "en")

    print(f"\nAdvancing the clock {DAYS} days, one day at a time:")
    fired: list[dict[str, Any]] = []
    for _ in range(DAYS):
        step = sandbox.post("/_sandbox/clock", {"advance_seconds": 86400})
        fired += step["fired"]
        names = ", ".join(
            f"{f['schedule']}@{local(f['scheduled_time'])}" + ("" if f["ok"] else " FAILED") for f in step["fired"]
        )
        print(f"  now {local(step['now'])}: fired {len(step['fired'])} {names}")
    history = bot.call("list_reminders", {"include_inactive": True}, "en")

    messages = sandbox.messages(room_id)
    print(f"\nThe room, read back from Matrix ({len(messages)} messages):")
    for message in messages:
        lines = [line if len(line) <= 120 else line[:119] + "…" for line in message["text"].splitlines()]
        text = ("\n" + " " * 30).join(lines)
        print(f"  [{local(message['ts'])}] {text}")

    slack_messages = sandbox.messages(SLACK_CHANNEL)
    print(f"\nThe Slack channel {SLACK_CHANNEL}, read back from the Slack stand-in ({len(slack_messages)} messages):")
    for message in slack_messages:
        print(f"  [{local(message['ts'])}] {message['platform']} {message['workspace']}: {message['text']}")

    print("\nChecks:")
    ids = [r.get("result", {}).get("id") for r in (one_shot, weekly, agent, doomed)]
    check(
        all(r.get("ok") for r in (one_shot, weekly, agent, doomed, listed, deleted)),
        "every tool call answered ok",
        problems,
    )
    check(
        not refused.get("ok") and refused.get("error", {}).get("code") == "invalid_time",
        "an unreadable time is refused with invalid_time",
        problems,
    )
    texts = [m["text"] for m in messages]
    check(sum("Llamar a Marta" in t for t in texts) == 1, "the one-shot is posted once", problems)
    check(
        sum("Weekly planning" in t for t in texts) == 1,
        "the weekly reminder is posted once in a week",
        problems,
    )
    check(
        sum("echo: Summarize the news" in t for t in texts) == DAYS,
        f"the daily agent call is posted {DAYS} times",
        problems,
    )
    check(not any("Cancelled lunch" in t for t in texts), "the deleted reminder is never posted", problems)
    check(
        stand_up.get("ok") is True
        and [(m["platform"], m["workspace"]) for m in slack_messages] == [("slack", SLACK_TEAM)]
        and all(m["platform"] == "matrix" for m in messages),
        "each platform gets its own post: Matrix the room's, Slack the workspace's",
        problems,
    )
    check(all(f["ok"] for f in fired if f["schedule"] in ids), "every fire of our schedules succeeded", problems)
    one_shot_after = [
        r for r in history.get("result", {}).get("schedules", []) if isinstance(r, dict) and r.get("id") == ids[0]
    ]
    check(
        bool(one_shot_after) and one_shot_after[0].get("status") == "fired",
        "the one-shot is listed as fired",
        problems,
    )
    ts_ok = all(parse_instant(m["ts"]) >= parse_instant(START) for m in messages)
    check(bool(messages) and ts_ok, "messages carry virtual times", problems)
    return problems


def run_demo() -> int:
    began = time.monotonic()
    sandbox = SandboxProcess("--chat", "matrix", "--clock", "virtual", "--start", START, "--timezone", "Europe/Madrid")
    print("Starting the sandbox (moto, the functions, Synapse)...")
    try:
        sandbox.start()
        print(f"Console: {sandbox.url}/_sandbox/ui (open it while the demo runs; `make local` keeps one up)")
        problems = play(sandbox)
    except DemoFailure as err:
        print(f"\nDemo failed: {err}", file=sys.stderr)
        return 1
    except Exception as err:
        print(
            f"\nDemo failed: {type(err).__name__}: {err}\n--- sandbox log ---\n{sandbox.tail()}",
            file=sys.stderr,
        )
        return 1
    finally:
        sandbox.stop()
    elapsed = time.monotonic() - began
    if problems:
        print(f"\n{len(problems)} check(s) failed; sandbox log: {sandbox.log}", file=sys.stderr)
        return 1
    sandbox.log.unlink(missing_ok=True)
    print(f"\nDemo finished in {elapsed:.1f} s.")
    return 0
