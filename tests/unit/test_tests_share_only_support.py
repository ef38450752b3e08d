"""Tests share helpers only through `tests/support/` and the reference model in `tests/model/` (its
modules other than `test_*`): no test module imports another test module, in any form
(`from tests.x.y import`, `import tests.x.y`, `from tests.x import y`, relative imports,
`importlib.import_module("tests.x.y")`), so moving or deleting a test never breaks another."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parents[1]
SHARED = ("tests.support", "tests.model")


def _shared(module: str) -> bool:
    inside = any(module == root or module.startswith(root + ".") for root in SHARED)
    return inside and not module.rpartition(".")[2].startswith("test_")


def _foreign(module: str) -> bool:
    """A module under `tests` that is not the shared support package (nor `tests` itself)."""
    return module.startswith("tests.") and not _shared(module)


def _absolute(node: ast.ImportFrom, package: str) -> str:
    if not node.level:
        return node.module or ""
    parts = package.split(".")
    base = parts[: len(parts) - node.level + 1]
    return ".".join(base + ([node.module] if node.module else []))


def _called(call: ast.Call) -> str:
    func = call.func
    return func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""


def foreign_imports(source: str, module: str) -> list[str]:
    """Every module under `tests`, other than `tests.support`, that `source` (the text of `module`) imports."""
    package = module.rpartition(".")[0]
    found: list[str] = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = _absolute(node, package)
            found += [f"{base}.{alias.name}" for alias in node.names] if base == "tests" else [base]
        elif isinstance(node, ast.Call) and _called(node) in ("import_module", "__import__") and node.args:
            first = node.args[0]
            if isinstance(first, ast.Constant) and isinstance(first.value, str):
                found.append(first.value)
    return sorted({name for name in found if _foreign(name)})


def module_name(path: Path) -> str:
    return ".".join(path.relative_to(TESTS.parent).with_suffix("").parts)


def test_no_test_module_imports_another_test_module() -> None:
    offenders = {
        module_name(path): names
        for path in sorted(TESTS.rglob("*.py"))
        if (names := foreign_imports(path.read_text(encoding="utf-8"), module_name(path)))
    }
    assert offenders == {}, "share helpers through tests/support instead: " + repr(offenders)


def test_the_scan_reads_every_test_directory() -> None:
    scanned = {module_name(path).split(".")[1] for path in TESTS.rglob("test_*.py")}
    assert {"unit", "integration", "infra", "e2e", "build"} <= scanned


@pytest.mark.parametrize(
    "source",
    [
        "from tests.integration.test_chat_platforms import SLACK_OK",
        "import tests.unit.test_contract_equivalence",
        "import tests.unit.test_contract_equivalence as equivalence",
        "from tests.integration import test_fire_matrix",
        "from tests import unit",
        "from . import test_contract_equivalence",
        "from .test_contract_equivalence import run_python",
        "from ..integration.test_fire_deaths import kill_a_worker",
        "def helper():\n    from tests.integration.test_fire_matrix import fire_input\n    return fire_input",
        "import importlib\nimportlib.import_module('tests.integration.test_fire_deaths')",
        "from tests.supporting import x",
        "from tests.model.test_stateful import Machine",
    ],
)
def test_an_import_of_a_test_module_is_found(source: str) -> None:
    assert foreign_imports(source, "tests.unit.test_example") != []


@pytest.mark.parametrize(
    "source",
    [
        "from tests.support.fake_platform import SLACK_OK",
        "from tests.support import fire_worker",
        "import tests.support.aws",
        "from tests import support",
        "from ..support.envelopes import envelope",
        "import testsuite.integration",
        "from cronbell.core.domain import models",
        "import importlib\nimportlib.import_module('tests.support.fire_worker')",
    ],
)
def test_an_import_of_shared_support_or_other_code_is_allowed(source: str) -> None:
    assert foreign_imports(source, "tests.unit.test_example") == []
