"""Every `python -m ...` command the README shows runs as written: from the project root, with the project's
virtualenv (activated, so `python` is its interpreter, or not) and nothing on PYTHONPATH. So does the stdio MCP
configuration the README shows and the one `make local` prints.

`CHECKS` names each command and what it must do; a command added to the README fails
`test_every_command_the_readme_shows_is_checked` until it is listed here."""

from __future__ import annotations

import json
import os
import re
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import Client, StdioServerParameters
from mcp_types import CallToolResult

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
VENV_BIN = Path(sys.executable).parent  # the tests run under the project's virtualenv
README_PORT = 3001  # `serve`'s default, which the README's MCP configuration names
SERVE_PORTS = (README_PORT, 5055)  # `serve`'s default Lambda and AWS ports
# `python -m module args`, up to the end of its code span, a comment or the end of the line
COMMAND = re.compile(r"python -m [\w.]+(?: [^`\n#)]*)?")


def clean_environment(activated: bool) -> dict[str, str]:
    """What a new shell has: no PYTHONPATH, no AWS settings; `activated`, the virtualenv's `bin` first on
    PATH, as `source .venv/bin/activate` leaves it."""
    keep = {k: v for k, v in os.environ.items() if k in ("PATH", "HOME", "LANG", "LC_ALL", "TMPDIR", "TERM")}
    path = [p for p in keep.get("PATH", "/usr/bin:/bin").split(os.pathsep) if Path(p) != VENV_BIN]
    if activated:
        keep["VIRTUAL_ENV"] = str(VENV_BIN.parent)
        path.insert(0, str(VENV_BIN))
    keep["PATH"] = os.pathsep.join(path)
    return keep


def as_typed(command: str, activated: bool = True) -> list[str]:
    """The command run by a shell in the project root: `python` is the activated virtualenv's, else the
    virtualenv's interpreter named by its path."""
    if not activated:
        command = command.replace("python ", f"{VENV_BIN / 'python'} ", 1)
    return ["bash", "-c", command]


def run(command: str, timeout: float, activated: bool = True) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        as_typed(command, activated),
        cwd=ROOT,
        env=clean_environment(activated),
        capture_output=True,
        text=True,
        timeout=timeout,
        stdin=subprocess.DEVNULL,
    )


def readme_commands() -> set[str]:
    return {match.group(0).strip() for match in COMMAND.finditer(README.read_text(encoding="utf-8"))}


# -- what each command must do -----------------------------------------------------------------------------


def answers_json(command: str) -> None:
    """An event run through its function: exit 0 (1 is a function error) and the function's answer as JSON."""
    done = run(command, timeout=120)
    assert done.returncode == 0, done.stderr[-3000:]
    answer = json.loads(done.stdout)
    assert answer.get("ok", True) is True, answer  # a tools answer says ok; the others answer their own shape


def exits_cleanly(command: str) -> None:
    done = run(command, timeout=240)
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stdout.strip(), "the command printed nothing"


SERVING = "serving"  # checked by test_serve_as_written_answers_health_and_both_mcp_configurations

CHECKS: dict[str, Callable[[str], None] | str] = {
    "python -m sandbox serve": SERVING,
    "python -m sandbox serve --built": SERVING,
    "python -m sandbox invoke ToolsFunction -e events/tools-create-reminder-es.json": answers_json,
    "python -m sandbox invoke FireFunction -e events/fire-scheduler.json": answers_json,
    "python -m sandbox invoke EchoAgentFunction -e events/echo-agent.json": answers_json,
    "python -m bench.phrases": exits_cleanly,
    "python -m bench.phrases_outside": exits_cleanly,
    "python -m bench.cost": exits_cleanly,
}


def test_every_command_the_readme_shows_is_checked() -> None:
    shown = readme_commands()
    assert shown, "no `python -m` command found in the README: has the pattern gone stale?"
    assert shown == set(CHECKS), (
        f"README commands without a check here: {sorted(shown - set(CHECKS))}; "
        f"checks for commands the README no longer shows: {sorted(set(CHECKS) - shown)}"
    )


@pytest.mark.parametrize("command", [c for c, check in CHECKS.items() if check != SERVING])
def test_the_readme_command_runs_as_written(command: str) -> None:
    check = CHECKS[command]
    assert callable(check)
    check(command)


def test_the_virtualenvs_python_by_its_path_runs_the_sandbox_without_activation() -> None:
    done = run(
        "python -m sandbox invoke ToolsFunction -e events/tools-list-reminders.json", timeout=120, activated=False
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert json.loads(done.stdout)["ok"] is True
    helped = run("python -m sandbox --help", timeout=60, activated=False)
    assert helped.returncode == 0 and "serve" in helped.stdout, helped.stderr


# -- `serve`, and the MCP configurations that point at it ---------------------------------------------------


def wait_for_free_ports(ports: tuple[int, ...], timeout: float = 60) -> None:
    """The README's commands use the default ports: a sandbox that just stopped (the other `serve` command)
    may hold them for a moment; anything holding them longer is named in the failure."""
    deadline = time.monotonic() + timeout
    while True:
        busy = []
        for port in ports:
            with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
                try:
                    sock.bind(("127.0.0.1", port))
                except OSError:
                    busy.append(port)
        if not busy:
            return
        assert time.monotonic() < deadline, f"ports {busy} stay in use: `serve` as written needs them"
        time.sleep(0.5)


def listeners() -> str:
    """Who listens on the serve ports (for a failure's message)."""
    try:
        done = subprocess.run(["ss", "-ltnp"], capture_output=True, text=True, check=False)
    except OSError:
        return "(ss not found)"
    return "\n".join(line for line in done.stdout.splitlines() if any(f":{p} " in line for p in SERVE_PORTS))


class Served:
    """A README `serve` command running in a clean shell, its output in a file."""

    def __init__(self, command: str) -> None:
        self.command = command
        self.output = Path(tempfile.mkstemp(prefix="cronbell-readme-", suffix=".log")[1])
        self.start()

    def start(self) -> None:
        wait_for_free_ports(SERVE_PORTS)
        with self.output.open("wb") as out:
            self.process = subprocess.Popen(
                as_typed(f"exec {self.command}"),
                cwd=ROOT,
                env=clean_environment(activated=True),
                stdout=out,
                stderr=subprocess.STDOUT,
                stdin=subprocess.DEVNULL,
            )

    def wait_healthy(self, timeout: float = 120) -> None:
        """Until `serve` answers its health check. A port taken by another program between the check
        that it was free and `serve`'s own bind is refused by `serve` with a clear message: that is
        started once more (with who held the port in the failure, if it happens again)."""
        deadline = time.monotonic() + timeout
        retried = False
        while time.monotonic() < deadline:
            if self.process.poll() is not None and "in use by another program" in self.text() and not retried:
                retried, held = True, listeners()
                self.start()
                continue
            assert self.process.poll() is None, f"exited {self.process.returncode}:\n{self.text()[-3000:]}" + (
                f"\nbefore: {held}" if retried else ""
            )
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{README_PORT}/_sandbox/health", timeout=1) as answer:
                    if answer.status == 200:
                        return
            except OSError:
                pass
            time.sleep(0.3)
        raise AssertionError(f"no health answer in {timeout:.0f} s:\n{self.text()[-3000:]}")

    def banner_mcp_config(self) -> dict[str, Any]:
        """The stdio configuration the banner prints (`make local` prints the same banner)."""
        deadline = time.monotonic() + 30
        while '"mcpServers"' not in self.text() and time.monotonic() < deadline:
            time.sleep(0.2)
        lines = self.text().splitlines()
        first = next(i for i, line in enumerate(lines) if '"mcpServers"' in line)
        last = next(i for i in range(first, len(lines)) if lines[i].rstrip().endswith("}}}}"))
        config: dict[str, Any] = json.loads("\n".join(lines[first : last + 1]))
        return config

    def text(self) -> str:
        return self.output.read_text(errors="replace")

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(5)
        self.output.unlink(missing_ok=True)


@pytest.fixture
def served(request: pytest.FixtureRequest) -> Iterator[Served]:
    if request.param.endswith("--built"):
        request.getfixturevalue("built")
    process = Served(request.param)
    yield process
    print(f"--- output (last lines) ---\n{process.text()[-3000:]}")
    process.stop()


def readme_mcp_config() -> dict[str, Any]:
    """The README's stdio configuration, with its placeholder path replaced by this clone's."""
    text = README.read_text(encoding="utf-8")
    block = next(b for b in re.findall(r"```json\n(.*?)```", text, re.S) if '"mcpServers"' in b)
    config: dict[str, Any] = json.loads(block.replace("/path/to/cronbell", str(ROOT)))
    return config


def mcp_round(config: dict[str, Any], room: str) -> tuple[list[str], dict[str, Any]]:
    """Starts the configured command as an MCP host does (from its own folder, with the configuration's
    environment over a clean one), lists the tools and creates a reminder."""
    server = config["mcpServers"]["cronbell"]
    args = list(server["args"])
    args[args.index("--room") + 1] = room  # a room of its own; the README names an example, the banner ROOM
    parameters = StdioServerParameters(
        command=server["command"],
        args=args,
        env={**clean_environment(activated=False), **server.get("env", {})},
        cwd=tempfile.gettempdir(),
    )

    async def scenario() -> tuple[list[str], dict[str, Any]]:
        async with Client(parameters) as client:
            tools = await client.list_tools()
            result: CallToolResult = await client.call_tool(
                "create_reminder", {"message": "Water the plants", "time": "in 30 minutes"}
            )
            answer = result.structured_content
            assert isinstance(answer, dict), result
            return [tool.name for tool in tools.tools], answer

    return anyio.run(scenario)


@pytest.mark.xdist_group("readme-serve")  # both listen on the README's ports: one at a time
@pytest.mark.parametrize("served", [c for c, check in CHECKS.items() if check == SERVING], indirect=True)
def test_serve_as_written_answers_health_and_both_mcp_configurations(served: Served) -> None:
    served.wait_healthy()
    for origin, config in (("README", readme_mcp_config()), ("banner", served.banner_mcp_config())):
        tools, answer = mcp_round(config, f"!readme-{origin.lower()}:localhost")
        assert "create_reminder" in tools, origin
        assert answer["ok"] is True, (origin, answer)
