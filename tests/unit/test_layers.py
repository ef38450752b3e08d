"""The layers of `cronbell` as docs/architecture.md draws them, read from the source: no import cycle
anywhere in the package, the domain at the bottom of the core, and the core free of the shell.

Every import counts: at module level, inside a function, under `TYPE_CHECKING`; an import that is only
put off to a function call is still a dependency."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

from tests.support.aws import ROOT

PACKAGE = ROOT / "layers" / "common"
DOMAIN = "cronbell.core.domain"
ABOVE_THE_DOMAIN = ("cronbell.core.text", "cronbell.core.language", "cronbell.core.contract")
SHELL = ("cronbell.adapters", "cronbell.usecases", "cronbell.inbound", "cronbell.wiring", "cronbell.settings")


def modules() -> dict[str, Path]:
    found = {}
    for path in (PACKAGE / "cronbell").rglob("*.py"):
        name = ".".join(path.relative_to(PACKAGE).with_suffix("").parts)
        found[name.removesuffix(".__init__")] = path
    return found


def imports(path: Path, known: dict[str, Path]) -> set[str]:
    """The cronbell modules `path` imports (a `from package import name` names the submodule when it is one)."""
    out = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            for alias in node.names:
                sub = f"{node.module}.{alias.name}"
                out.add(sub if sub in known else node.module)
        elif isinstance(node, ast.Import):
            out.update(alias.name for alias in node.names)
    return {name for name in out if name.startswith("cronbell")}


def graph() -> dict[str, set[str]]:
    known = modules()
    return {name: imports(path, known) & set(known) for name, path in known.items()}


def cycles(edges: dict[str, set[str]]) -> Iterator[list[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm, iteratively)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    for root in sorted(edges):
        if root in index:
            continue
        work = [(root, iter(sorted(edges[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(edges[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    yield sorted(component)


def test_no_module_of_the_package_imports_itself_back() -> None:
    assert list(cycles(graph())) == []


def test_the_cycle_finder_finds_a_cycle() -> None:
    edges = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}, "e": set()}
    assert list(cycles(edges)) == [["a", "b", "c"]]


def test_the_domain_imports_neither_text_nor_language_nor_contract() -> None:
    reached = {
        name: sorted(dep for dep in deps if dep.startswith(ABOVE_THE_DOMAIN + SHELL))
        for name, deps in graph().items()
        if name.startswith(DOMAIN)
    }
    assert {name: deps for name, deps in reached.items() if deps} == {}


def test_the_core_imports_nothing_of_the_shell() -> None:
    reached = {
        name: sorted(dep for dep in deps if dep.startswith(SHELL))
        for name, deps in graph().items()
        if name.startswith("cronbell.core")
    }
    assert {name: deps for name, deps in reached.items() if deps} == {}


def test_an_import_inside_a_function_or_for_type_checking_counts(tmp_path: Path) -> None:
    source = tmp_path / "m.py"
    source.write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from cronbell.core.domain.cron.spec import CronSpec\n"
        "def f():\n    from cronbell.core.text import texts\n"
    )
    assert imports(source, modules()) == {"cronbell.core.domain.cron.spec", "cronbell.core.text.texts"}
