"""What `sam build` produces is what runs: the built functions, imported from `.aws-sam/build` by Python
3.12 processes with only boto3 besides their layer (`python -m sandbox serve --built`), create, list,
fire and call an agent through the sandbox; the built layers stay within their size budgets."""

from __future__ import annotations

import os
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from sandbox.demo import SandboxProcess
from tests.support.aws import template_yaml
from tests.support.built import BUILD_DIR, BUILT
from tests.support.sandbox import Bot

pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("built")]

ROOT = Path(__file__).resolve().parents[2]
LAYER_BUDGET_BYTES = 10_000_000  # unzipped; Lambda's own limit is 250 MB, this is the project's cold-start budget
FUNCTION_BUDGET_BYTES = 100_000
FUNCTIONS = sorted(k for k, r in template_yaml()["Resources"].items() if r["Type"] == "AWS::Serverless::Function")


@pytest.fixture
def sandbox(built: Path) -> Iterator[SandboxProcess]:
    process = SandboxProcess("--built", "--start", "2030-01-07T08:00:00Z")
    process.start()
    yield process
    process.stop()
    print(f"--- sandbox log (last lines) ---\n{process.tail()}")
    process.log.unlink(missing_ok=True)


def _size(folder: Path) -> int:
    return sum(p.stat().st_size for p in folder.rglob("*") if p.is_file())


def test_the_built_layer_fits_its_budget(built: Path) -> None:
    layer = built / "CommonLayer"
    size = _size(layer)
    print(f"built layer: {size / 1e6:.2f} MB of files")
    assert 1_000_000 < size <= LAYER_BUDGET_BYTES, f"the built layer holds {size / 1e6:.2f} MB of files"
    # what the functions import at run time is in it, with bytecode of the runtime's version
    assert (layer / "python" / "cronbell" / "core" / "contract" / "contract.json").is_file()
    assert (layer / "python" / "aws_lambda_powertools").is_dir()
    # not what the runtime has already (botocore's jmespath): a copy would shadow its compiled one
    assert not (layer / "python" / "jmespath").exists()
    assert list((layer / "python" / "cronbell" / "__pycache__").glob("*.cpython-312.pyc"))
    assert {"ToolsFunction", "FireFunction", "ProjectorFunction", "ReconcileFunction"} < set(FUNCTIONS)
    for function in FUNCTIONS:
        assert (built / function / "app.py").is_file()
        assert _size(built / function) <= FUNCTION_BUDGET_BYTES, function


def test_the_calendar_layer_fits_its_budget_without_what_a_runtime_never_reads(built: Path) -> None:
    layer = built / "CalendarLayer" / "python"
    size = _size(layer)
    print(f"built calendar layer: {size / 1e6:.2f} MB of files")
    assert 1_000_000 < size <= LAYER_BUDGET_BYTES, f"the calendar layer holds {size / 1e6:.2f} MB of files"
    assert (layer / "holidays" / "countries" / "spain.py").is_file()
    assert list((layer / "holidays" / "__pycache__").glob("*.cpython-312.pyc"))
    assert not (layer / "holidays" / "locale").exists()
    assert not list(layer.rglob("*.mo"))
    assert not (layer / "dateutil").exists()  # the runtime's own, with botocore


def _runtime_processes(parent: int) -> list[tuple[str, str, str]]:
    """(interpreter, working directory, command line) of the sandbox's worker processes."""
    out = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            ppid = int(stat.rsplit(")", 1)[1].split()[1])
            if ppid != parent:
                continue
            command = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode()
            out.append((os.readlink(entry / "exe"), os.readlink(entry / "cwd"), command))
        except (OSError, ValueError, IndexError):
            continue
    return [p for p in out if "runtime_worker.py" in p[2]]


def test_built_functions_create_list_fire_and_call_an_agent(sandbox: SandboxProcess) -> None:
    assert sandbox.process is not None
    # the sandbox answers before its workers have started (each starts importing its handler in the
    # background): wait until each has moved into its function's folder, as it does first
    deadline = time.monotonic() + 30
    while True:
        workers = _runtime_processes(sandbox.process.pid)
        if workers and all(Path(cwd).parent == BUILT for _exe, cwd, _command in workers):
            break
        if time.monotonic() > deadline:
            break
        time.sleep(0.1)
    assert len(workers) == len(FUNCTIONS), workers  # one warm environment per function of the template
    for exe, cwd, command in workers:
        version = subprocess.run([exe, "-c", "import sys; print(sys.version_info[:2])"], capture_output=True, text=True)
        assert version.stdout.strip() == "(3, 12)", (exe, version)
        assert Path(cwd).parent == BUILT, cwd  # the function's built folder, as /var/task
        assert "layers/common" not in command
        if cwd.endswith("ProjectorFunction"):  # the projector reads no calendar
            assert command.split()[-1].endswith(f"{BUILD_DIR}/CommonLayer/python"), command
        elif not cwd.endswith("EchoAgentFunction"):  # the example agent has no layer
            layers = command.split()[-2:]
            assert layers[0].endswith(f"{BUILD_DIR}/CommonLayer/python"), command
            assert layers[1].endswith(f"{BUILD_DIR}/CalendarLayer/python"), command

    bot = Bot(sandbox, "!built:localhost")
    created = bot.call("create_reminder", message="stand-up", time="in 10 minutes")
    assert created["ok"], created
    agent = bot.call("cron_create", name="digest", prompt="summarise the week", fire_at="in 20 minutes")
    assert agent["ok"] and agent["result"]["target_agent"] == "echo", agent
    listed = bot.call("list_reminders")
    assert sorted(s["id"] for s in listed["result"]["schedules"]) == sorted(
        [created["result"]["id"], agent["result"]["id"]]
    )
    bad = bot.call("create_reminder", message="x", time="when pigs fly")
    assert bad["ok"] is False and bad["error"]["code"] == "invalid_time"
    # the holiday data comes from the calendar layer, read by the runtime's Python: every 4 July is a
    # public holiday in the US (Spain's 1 May is not when it falls on a Sunday), so a reminder on it
    # alone would never fire
    never = bot.call("create_reminder", message="payroll", cron="0 20 4 7 *", skip_holidays="US")
    assert never["ok"] is False and never["error"]["code"] == "invalid_arguments", never
    assert "never fire" in never["error"]["message"], never

    fired = bot.advance(3600)
    assert [(f["schedule"], f["ok"]) for f in fired] == [(created["result"]["id"], True), (agent["result"]["id"], True)]
    texts = [m["text"] for m in bot.messages()]
    assert len(texts) == 2 and "stand-up" in texts[0], texts
    assert "echo: summarise the week" in texts[1], texts
