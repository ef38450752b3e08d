"""Cold start: a fresh interpreter importing a handler, against one that only sets up boto3.

The floor is `import boto3` plus the DynamoDB and Scheduler clients the handlers need: no handler can
start faster. Each handler runs from a staged copy laid out as Lambda lays it out (the function's folder
first on the path, then the layer's), with bytecode writes off as on Lambda's read-only code folders.
Two policies are staged: the project's code as `sam build` ships it (source only, compiled on every
cold start) and with its bytecode shipped. Every variant runs once per round, rounds interleaved, so a
noisy machine moves them all alike; the medians are compared.
"""

from __future__ import annotations

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


def stage(workdir: Path, ship_pyc: bool) -> tuple[Path, dict[str, Path]]:
    """A layer folder and function folders with the project's code; bytecode for this interpreter when
    `ship_pyc` (it stands in for the runtime's bytecode built into the artifact)."""
    layer = workdir / "layer"
    shutil.copytree(LAYER_SRC / "cronbell", layer / "cronbell", ignore=_IGNORE)
    functions = {}
    for name in FUNCTIONS:
        functions[name] = workdir / "functions" / name
        shutil.copytree(ROOT / "functions" / name, functions[name], ignore=_IGNORE)
    if ship_pyc:
        compile_tree(sys.executable, layer, "/opt/python")
        for folder in functions.values():
            compile_tree(sys.executable, folder, "/var/task")
    return layer, functions


def variants(workdir: Path) -> list[Variant]:
    out = []
    for policy, ship in (("source", False), ("pyc", True)):
        layer, functions = stage(workdir / policy, ship)
        for name, folder in functions.items():
            env = lambda_env(name, {"PYTHONPATH": os.pathsep.join([str(folder), str(layer)])})
            env["PYTHONDONTWRITEBYTECODE"] = "1"
            out.append(Variant(f"{name}/{policy}", folder, HANDLER_CODE, env))
    env = lambda_env("floor")
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    out.append(Variant("floor", workdir, FLOOR_CODE, env))
    return out


def measure(workdir: Path, rounds: int) -> dict[str, tuple[float, float]]:
    """Median (wall, CPU) seconds per variant: `floor`, `tools/source`, `tools/pyc`, `fire/source`,
    `fire/pyc`."""
    all_variants = variants(workdir)
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

    with tempfile.TemporaryDirectory(prefix="cronbell-bench-") as tmp:
        for label, (wall, cpu) in measure(Path(tmp), int(sys.argv[1]) if len(sys.argv) > 1 else 9).items():
            print(f"{label:14} wall {wall * 1000:7.1f} ms  cpu {cpu * 1000:7.1f} ms")
