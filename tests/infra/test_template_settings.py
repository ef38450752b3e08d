"""Every variable the code reads is set by the template, found by scanning the source (no list of names):
`setting("NAME", ...)` declarations, `os.environ` / `environ` / `os.getenv` reads of a literal, and
module-level constants whose name says ENV. And every platform's variables reach each function that posts."""

from __future__ import annotations

import ast
import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import cfnlint.decode
import pytest

from cronbell.core.domain import platforms
from cronbell.settings import declared

ROOT = Path(__file__).resolve().parents[2]
SOURCES = [*(ROOT / "layers" / "common" / "cronbell").rglob("*.py"), *(ROOT / "functions").rglob("*.py")]

# Read by the code, set by no function of the template, each for a reason (checked both ways below).
DEFAULT_SERVES = {
    "AWS_LAMBDA_FUNCTION_NAME": "set by the Lambda runtime",
    "LAMBDA_TASK_ROOT": "set by the Lambda runtime",
    "POWERTOOLS_METRICS_DISABLED": "tests and local runs turn metrics off with it",
    "SLACK_API_URL": "Slack's API address; another value only for tests",
    "TELEGRAM_API_URL": "Telegram's API, or a self-hosted one the operator sets",
    "DISCORD_API_URL": "Discord's API address; another value only for tests",
    "FIRE_RETRIES": "its default is the template's MaximumRetryAttempts (test_template checks it)",
    "SLOT_LEASE_SECONDS": "tuning whose default serves every deployment",
    "RECONCILE_GRACE_SECONDS": "tuning whose default serves every deployment",
    "MISSED_AFTER_SECONDS": "tuning whose default serves every deployment (past Scheduler's and Lambda's retries)",
    "MCP_ROOM_ID": "an AgentCore gateway target's own setting (docs/bedrock-and-mcp.md)",
    "MCP_USER_ID": "an AgentCore gateway target's own setting",
    "MCP_AGENT_ID": "an AgentCore gateway target's own setting",
    "MCP_TIMEZONE": "an AgentCore gateway target's own setting",
    "MCP_LOCALE": "an AgentCore gateway target's own setting",
    "MCP_THREAD_ID": "an AgentCore gateway target's own setting",
    "MCP_TEAM_ID": "an AgentCore gateway target's own setting",
    "MCP_PLATFORM": "an AgentCore gateway target's own setting",
    "MCP_TRUST_PROPAGATED_HEADERS": "an AgentCore gateway target's own setting",
}


def _literal(node: ast.AST) -> list[str]:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, ast.Dict):
        return [v.value for v in node.values if isinstance(v, ast.Constant) and isinstance(v.value, str)]
    return []


def _reads_environ(call: ast.AST) -> bool:
    text = ast.unparse(call)
    return any(text.startswith(head) for head in ("os.environ", "environ", "os.getenv", "e.get"))


def variables_read() -> set[str]:
    found: set[str] = set()
    for path in SOURCES:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and node.args:
                name = ast.unparse(node.func)
                if name == "setting" or (name.endswith((".get", "getenv")) and _reads_environ(node.func)):
                    found.update(v for v in _literal(node.args[0]) if v.isupper())
            elif isinstance(node, ast.Subscript) and _reads_environ(node.value):
                found.update(v for v in _literal(node.slice) if v.isupper())
        for statement in tree.body:  # module-level constants that name variables (ENV_CONTEXT, TRUST_HEADERS_ENV)
            if isinstance(statement, ast.Assign | ast.AnnAssign):
                targets = statement.targets if isinstance(statement, ast.Assign) else [statement.target]
                if any(isinstance(t, ast.Name) and "ENV" in t.id for t in targets) and statement.value:
                    found.update(v for v in _literal(statement.value) if v.isupper())
    found.update(p.secret.env for p in platforms.REGISTRY.values())  # read through the registry
    found.add(platforms.SHARED_SECRET.env)
    return found


def template() -> dict[str, Any]:
    decoded, problems = cfnlint.decode.decode(str(ROOT / "template.yaml"))
    assert not problems and isinstance(decoded, dict)
    return decoded


def environments(t: dict[str, Any]) -> dict[str, set[str]]:
    """Each function's variables, with the Globals'."""
    shared = set(t["Globals"]["Function"]["Environment"]["Variables"])
    return {
        name: shared | set(r["Properties"].get("Environment", {}).get("Variables", {}))
        for name, r in t["Resources"].items()
        if r["Type"] == "AWS::Serverless::Function"
    }


def test_the_scan_finds_the_settings_and_the_other_reads() -> None:
    from cronbell.settings import declared

    read = variables_read()
    assert set(declared()) <= read
    assert {"MCP_ROOM_ID", "MCP_TRUST_PROPAGATED_HEADERS", "LAMBDA_TASK_ROOT", "POWERTOOLS_SERVICE_NAME"} <= read


def test_every_variable_the_code_reads_is_set_by_the_template_or_left_to_its_default() -> None:
    set_somewhere = set().union(*environments(template()).values())
    read = variables_read()
    assert read - set_somewhere - set(DEFAULT_SERVES) == set()
    assert set(DEFAULT_SERVES) <= read - set_somewhere, "a default-serving variable is now set, or no longer read"


def test_every_platform_variable_reaches_each_function_that_posts() -> None:
    t = template()
    posting = {
        name
        for name, r in t["Resources"].items()
        if r["Type"] == "AWS::Serverless::Function" and "ReadChatTokens" in str(r["Properties"].get("Policies"))
    }
    assert posting == {"FireFunction", "ReconcileFunction"}
    wanted = {"CHAT_BACKEND", platforms.SHARED_SECRET.env} | {
        need.env
        for p in platforms.REGISTRY.values()
        for need in (p.secret, *p.needs, *(n for group in p.instead for n in group))
    }
    for name in posting:
        assert wanted - environments(t)[name] == set(), name


# the composition root builds every adapter for every function from the settings, used or not: its reads
# say nothing about what a function needs
_BUILDS_EVERYTHING = {"wiring.py", "settings.py"}
_SETTING_READ = re.compile(r"\bsettings\.([a-z_]+)\b")
# a setting a platform's registry entry names (`getattr(settings, entry.room_ids_with)`): each platform's
_SETTING_BY_ENTRY = re.compile(r"\bgetattr\(settings, entry\.([a-z_]+)\)")
_LIST_LOADED = (
    "import json, sys, app; print(json.dumps([getattr(m, '__file__', None) or '' for m in [*sys.modules.values()]]))"
)


def settings_read_by(function: str) -> set[str]:
    """The variables of the settings that the modules a function's handler loads read (`settings.<field>`
    in their source), the composition root aside."""
    folder = ROOT / "functions" / function
    path = os.pathsep.join([str(folder), str(ROOT / "layers" / "common")])
    loaded = subprocess.run(
        [sys.executable, "-c", _LIST_LOADED],
        cwd=folder,
        env={**os.environ, "PYTHONPATH": path, "AWS_LAMBDA_FUNCTION_NAME": ""},  # no clients built at import
        capture_output=True,
        text=True,
        check=True,
    )
    by_field = {f.name: env for env, f in declared().items()}
    found: set[str] = set()
    for file in json.loads(loaded.stdout):
        path = Path(file)
        if "cronbell" in path.parts and path.suffix == ".py" and path.name not in _BUILDS_EVERYTHING:
            source = path.read_text(encoding="utf-8")
            named = set(_SETTING_READ.findall(source))
            named |= {
                getattr(p, attr) for attr in _SETTING_BY_ENTRY.findall(source) for p in platforms.REGISTRY.values()
            }
            found |= {by_field[name] for name in named if name in by_field}
    return found


# Read by a module the function loads, by a path the function never takes (each checked to be still read)
NOT_ON_ITS_PATH = {
    "reconcile": {
        "MAX_PER_ROOM": "change_writes is loaded for ChangedMeanwhile (ends.py); the room's limit is a create's",
        "MIN_INTERVAL_MINUTES": "planning is loaded for name_taken; a phrase is read by the tools only",
        "ALLOWED_OUTPUT_ROOMS": "planning's room check is a create's; the reconciler posts to a schedule's rooms",
        "AGENTS": "planning's agent check is a create's; the reconciler calls no agent",
    },
}
RESOURCES = {"tools": "ToolsFunction", "fire": "FireFunction", "projector": "ProjectorFunction"}
RESOURCES["reconcile"] = "ReconcileFunction"


@pytest.mark.parametrize("function", sorted(RESOURCES))
def test_every_setting_a_function_s_code_reads_is_in_that_function_s_environment(function: str) -> None:
    """Set on another function is not enough: the fire function checks output rooms again at every fire."""
    read = settings_read_by(function)
    exempt = set(NOT_ON_ITS_PATH.get(function, {}))
    assert exempt <= read, "an exemption no longer read: remove it"
    assert read - environments(template())[RESOURCES[function]] - set(DEFAULT_SERVES) - exempt == set()
