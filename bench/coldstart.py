"""Cold start: a fresh interpreter importing a handler, against one that only sets up boto3.

The floor is `import boto3` plus the DynamoDB and Scheduler clients the handlers need: no handler can
start faster. Each handler runs from a staged copy laid out as Lambda lays it out (the function's folder
first on the path, then the layer's: cronbell and the layer's dependencies, copied from this
interpreter's site-packages), with bytecode writes off as on Lambda's read-only code folders. boto3,
which the runtime provides, comes with its bytecode in every variant and in the floor. Two policies are
staged: the layer with its bytecode, as `sam build` ships it (layers/common/Makefile compiles it), and
the layer as source only (as SAM's python3.12 build method would ship it: every module compiled again on
every cold start). The function's own folder is source in both, as `sam build` copies it. Every variant
runs once per round, rounds interleaved, so a noisy machine moves them all alike; the medians are
compared.
"""

from __future__ import annotations

import importlib.util
import os
import resource
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

from bench.common import FUNCTIONS, LAYER_SRC, ROOT, lambda_env, median
from bench.package import _IGNORE, compile_tree

FLOOR_CODE = "import boto3; boto3.client('dynamodb'); boto3.client('scheduler')"
HANDLER_CODE = "import app"
# a reference, no target: the floor and the Powertools parts both handlers use (Logger, Metrics), from the layer
POWERTOOLS_CODE = FLOOR_CODE + "; from aws_lambda_powertools import Logger, Metrics; Logger(); Metrics()"


@dataclass
class Variant:
    label: str
    cwd: Path
    code: str
    env: dict[str, str]
    times: list[float] = field(default_factory=list)
    cpu: list[float] = field(default_factory=list)  # user + system seconds: less moved by other load

    def run_once(self) -> None:
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        subprocess.run([sys.executable, "-c", self.code], cwd=self.cwd, env=self.env, check=True)
        self.times.append(time.perf_counter() - start)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        self.cpu.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)


def stage(workdir: Path, ship_pyc: bool, packages: list[str]) -> tuple[Path, dict[str, Path]]:
    """A layer folder (cronbell and the dependency `packages`) and function folders, without bytecode;
    the layer with bytecode for this interpreter when `ship_pyc` (standing in for the runtime's, which
    the layer's Makefile builds into the artifact)."""
    layer = workdir / "layer"
    shutil.copytree(LAYER_SRC / "cronbell", layer / "cronbell", ignore=_IGNORE)
    for name in packages:
        spec = importlib.util.find_spec(name)
        if spec is None or spec.origin is None:
            raise SystemExit(f"bench: the layer's package {name!r} is not installed here")
        if spec.submodule_search_locations:
            source = Path(next(iter(spec.submodule_search_locations)))
            shutil.copytree(source, layer / name, ignore=_IGNORE)
        else:
            shutil.copy2(spec.origin, layer / Path(spec.origin).name)
    functions = {}
    for name in FUNCTIONS:
        functions[name] = workdir / "functions" / name
        shutil.copytree(ROOT / "functions" / name, functions[name], ignore=_IGNORE)
    if ship_pyc:
        compile_tree(sys.executable, layer, "/opt/python")
    return layer, functions


# Packages this virtualenv has (for the tests' Synapse) that Lambda's python3.12 runtime does not, and that
# botocore imports when it finds them: with pyOpenSSL present, botocore's HTTP session loads it and
# cryptography (about 30 ms). Each is hidden from every variant and from the floor, so the floor is the
# runtime's `import boto3`.
NOT_IN_THE_RUNTIME = ("OpenSSL",)


def runtime_only(workdir: Path) -> Path:
    """A folder, put on the path before site-packages, in which each of NOT_IN_THE_RUNTIME fails to
    import as it would in Lambda's runtime."""
    folder = workdir / "not-in-the-runtime"
    for name in NOT_IN_THE_RUNTIME:
        (folder / name).mkdir(parents=True, exist_ok=True)
        (folder / name / "__init__.py").write_text(f"raise ImportError('{name} is not in the Lambda runtime')\n")
    return folder


def variants(workdir: Path, packages: list[str]) -> list[Variant]:
    out = []
    hidden = str(runtime_only(workdir))
    for policy, ship in (("source", False), ("pyc", True)):
        layer, functions = stage(workdir / policy, ship, packages)
        for name, folder in functions.items():
            env = lambda_env(name, {"PYTHONPATH": os.pathsep.join([str(folder), str(layer), hidden])})
            env["PYTHONDONTWRITEBYTECODE"] = "1"
            out.append(Variant(f"{name}/{policy}", folder, HANDLER_CODE, env))
        env = lambda_env("floor", {"PYTHONPATH": os.pathsep.join([str(layer), hidden])})
        env["PYTHONDONTWRITEBYTECODE"] = "1"
        out.append(Variant(f"powertools/{policy}", workdir, POWERTOOLS_CODE, env))
    env = lambda_env("floor", {"PYTHONPATH": hidden})
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    out.append(Variant("floor", workdir, FLOOR_CODE, env))
    return out


def measure(workdir: Path, rounds: int, packages: list[str]) -> dict[str, tuple[float, float]]:
    """Median (wall, CPU) seconds per variant: `floor`, `tools/source`, `tools/pyc`, `fire/source`,
    `fire/pyc`, and the reference `powertools/source`, `powertools/pyc` (the floor and Powertools' Logger
    and Metrics). `packages`: the layer's dependencies (`Artifacts.packages`)."""
    all_variants = variants(workdir, packages)
    for v in all_variants:  # warm the file cache and check every variant runs; not counted
        v.run_once()
        v.times.clear()
        v.cpu.clear()
    for _ in range(rounds):
        for v in all_variants:
            v.run_once()
    return {v.label: (median(v.times), median(v.cpu)) for v in all_variants}


if __name__ == "__main__":
    import tempfile

    from bench.package import build

    with tempfile.TemporaryDirectory(prefix="cronbell-bench-") as tmp:
        packages = build(Path(tmp) / "artifacts").packages  # the layer's dependencies: no bytecode needed
        rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 9
        for label, (wall, cpu) in measure(Path(tmp) / "cold", rounds, packages).items():
            print(f"{label:17} wall {wall * 1000:7.1f} ms  cpu {cpu * 1000:7.1f} ms")


# Parts of a handler's import, from `python -X importtime`: part -> (modules, with the modules they import)
PARTS = {
    "boto3": ("boto3", True),
    "argument validation (contract)": ("cronbell.core.contract.validation", True),
    "date and cron grammar": (
        "cronbell.core.language.when cronbell.core.language.amounts cronbell.core.language.zone_ids "
        "cronbell.core.language.recurring cronbell.core.language.business_phrases cronbell.core.domain.cron"
        " cronbell.core.domain.cron.fields cronbell.core.domain.cron.spec cronbell.core.domain.cron.expressions"
        " cronbell.core.domain.cron.fires",
        False,
    ),
    "Powertools": ("aws_lambda_powertools", True),
}


def importtime(variant: Variant) -> dict[str, tuple[int, int]]:
    """module -> (self, cumulative) microseconds of one fresh import of the handler."""
    out = subprocess.run(
        [sys.executable, "-X", "importtime", "-c", variant.code],
        cwd=variant.cwd, env=variant.env, capture_output=True, text=True, check=True,
    )  # fmt: skip
    modules: dict[str, tuple[int, int]] = {}
    for line in out.stderr.splitlines():
        if not line.startswith("import time:") or "|" not in line or "self [us]" in line:
            continue
        own, cumulative, name = line.removeprefix("import time:").split("|")
        modules.setdefault(name.strip(), (int(own), int(cumulative)))
    return modules


def breakdown(workdir: Path, label: str, packages: list[str], rounds: int = 5) -> dict[str, float]:
    """Median milliseconds of each part of `label`'s import (parts as in PARTS, plus the rest of cronbell)."""
    variant = next(v for v in variants(workdir, packages) if v.label == label)
    samples: dict[str, list[float]] = {}
    for _ in range(rounds):
        modules = importtime(variant)
        named = 0
        for part, (names, cumulative) in PARTS.items():
            value = 0
            for module in names.split():
                own, total = modules.get(module, (0, 0))
                value += total if cumulative else own
                if module.startswith("cronbell"):
                    named += own
            samples.setdefault(part, []).append(value / 1000)
        rest = sum(own for name, (own, _) in modules.items() if name.startswith("cronbell")) - named
        samples.setdefault("rest of cronbell (own time)", []).append(rest / 1000)
        samples.setdefault("whole `import app` (clients built at init included)", []).append(
            modules.get("app", (0, 0))[1] / 1000
        )
    return {part: median(values) for part, values in samples.items()}
