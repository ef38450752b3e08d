"""The sandbox's modules import one another one way: no loop, counting the imports made only for type
checking (a loop there still ties the modules' meaning together)."""

from __future__ import annotations

import ast
from pathlib import Path

SANDBOX = Path(__file__).resolve().parents[2] / "sandbox"


def imports() -> dict[str, set[str]]:
    modules = {f"sandbox.{p.stem}" for p in SANDBOX.glob("*.py") if p.stem != "__init__"}
    graph: dict[str, set[str]] = {}
    for module in modules:
        tree = ast.parse((SANDBOX / f"{module.removeprefix('sandbox.')}.py").read_text(encoding="utf-8"))
        found: set[str] = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module:
                found |= {node.module} & modules
                found |= {f"{node.module}.{a.name}" for a in node.names} & modules
            elif isinstance(node, ast.Import):
                found |= {a.name for a in node.names} & modules
        graph[module] = found - {module}
    return graph


def a_loop(graph: dict[str, set[str]]) -> list[str]:
    """One import loop of `graph` as the modules along it, or [] when there is none."""
    state: dict[str, int] = {}

    def visit(module: str, path: list[str]) -> list[str]:
        state[module] = 1
        for imported in sorted(graph[module]):
            if state.get(imported) == 1:
                return [*path[path.index(imported) :], imported]
            if imported not in state and (loop := visit(imported, [*path, imported])):
                return loop
        state[module] = 2
        return []

    for module in sorted(graph):
        if module not in state and (loop := visit(module, [module])):
            return loop
    return []


def test_the_sandbox_has_no_import_loop() -> None:
    assert a_loop(imports()) == []


def test_the_check_finds_a_loop() -> None:
    assert a_loop({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": set()}) == ["a", "b", "c", "a"]
