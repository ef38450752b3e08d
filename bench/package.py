"""The deployed artifacts, built the way `sam build` builds them, and their sizes.

`sam build` needs the runtime's Python and is not always at hand, so this does the same packaging:
the layer is `pip install --target` of `layers/common/requirements.txt` for the runtime's platform
(arm64, CPython 3.12; boto3 comes with the runtime) plus a copy of the `cronbell` package; each function
is a copy of its folder. pip compiles the dependencies' bytecode with the interpreter that runs it (the
runtime's Python under `sam build`), while the project's own code is copied without `__pycache__`, so in
Lambda, whose code folders are read-only, it is compiled again on every cold start.

With a Python 3.12 on this machine the bytecode is compiled for the runtime and counted in the sizes;
bytecode from another version would be ignored by the runtime, so without one the sizes leave it out.
"""

from __future__ import annotations

import glob
import os
import shutil
import subprocess
import sys
import zipfile
from dataclasses import dataclass, field
from pathlib import Path

from bench.common import FUNCTIONS, LAYER_SRC, ROOT

RUNTIME = "3.12"
PLATFORM = ("--platform", "manylinux2014_aarch64", "--only-binary=:all:", "--python-version", RUNTIME)
_IGNORE = shutil.ignore_patterns("__pycache__", "*.pyc", ".mypy_cache", ".pytest_cache")


def runtime_python(version: str = RUNTIME) -> str | None:
    """An interpreter of the runtime's version, from PATH or pyenv, if this machine has one."""
    pyenv_root = Path(os.environ.get("PYENV_ROOT") or Path.home() / ".pyenv")
    candidates = [shutil.which(f"python{version}")]
    candidates += sorted(glob.glob(str(pyenv_root / "versions" / f"{version}*" / "bin" / f"python{version}")))
    for candidate in candidates:
        if candidate and _version_of(candidate) == version:
            return candidate
    return None


def _version_of(python: str) -> str:
    """The interpreter's major.minor, or "" when it does not run (a pyenv shim without that version)."""
    try:
        out = subprocess.run(
            [python, "-c", "import sys; print('%d.%d' % sys.version_info[:2])"],
            capture_output=True, text=True, timeout=30, check=False,
        )  # fmt: skip
    except (OSError, subprocess.TimeoutExpired):
        return ""
    return out.stdout.strip() if out.returncode == 0 else ""


def compile_tree(python: str, folder: Path, deployed_at: str) -> None:
    """Bytecode next to each source, recorded with the path the runtime will see.

    `unchecked-hash` pycs are used without comparing timestamps, which a zip round trip would blur; the
    artifact is rebuilt from scratch whenever its source changes, so they cannot go stale."""
    subprocess.run(
        [python, "-m", "compileall", "-q", "-j", "0", "--invalidation-mode", "unchecked-hash",
         "-s", str(folder), "-p", deployed_at, str(folder)],
        check=True,
    )  # fmt: skip


def tree_bytes(folder: Path) -> int:
    return sum(p.stat().st_size for p in folder.rglob("*") if p.is_file())


def zip_bytes(folder: Path, archive: Path) -> int:
    with zipfile.ZipFile(archive, "w", zipfile.ZIP_DEFLATED) as zf:
        for path in sorted(folder.rglob("*")):
            if path.is_file():
                zf.write(path, path.relative_to(folder))
    return archive.stat().st_size


@dataclass
class Artifacts:
    root: Path
    layer: Path  # the layer's content: `python/` inside it, as Lambda mounts it under /opt
    functions: dict[str, Path] = field(default_factory=dict)
    compiled_with: str = ""  # the interpreter that compiled the bytecode, or "" when none ships
    sizes: dict[str, tuple[int, int]] = field(default_factory=dict)  # name -> (unzipped, zipped) bytes
    parts: dict[str, int] = field(default_factory=dict)  # layer's top-level packages -> unzipped bytes


def build(workdir: Path, python: str | None, with_pyc: bool = True) -> Artifacts:
    """Build the layer and the functions under `workdir`; `python` compiles bytecode when given."""
    art = Artifacts(root=workdir, layer=workdir / "layer")
    site = art.layer / "python"
    site.mkdir(parents=True)
    compile_flag = [] if (python and with_pyc) else ["--no-compile"]
    pip = [sys.executable, "-m", "pip", "install", "-q", "--disable-pip-version-check", *compile_flag]
    subprocess.run(
        [*pip, "--target", str(site), *PLATFORM, "--implementation", "cp", "-r", str(LAYER_SRC / "requirements.txt")],
        check=True,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    # pip compiled with *this* interpreter: those pycs are for another version; recompile for the runtime
    for cache in site.rglob("__pycache__"):
        shutil.rmtree(cache, ignore_errors=True)
    shutil.rmtree(site / "bin", ignore_errors=True)  # console scripts: never run in Lambda
    if python and with_pyc:
        compile_tree(python, site, "/opt/python")
        art.compiled_with = python
    shutil.copytree(LAYER_SRC / "cronbell", site / "cronbell", ignore=_IGNORE)
    for name in FUNCTIONS:
        target = workdir / "functions" / name
        shutil.copytree(ROOT / "functions" / name, target, ignore=_IGNORE)
        art.functions[name] = target
    measure(art)
    return art


def ship_project_pyc(art: Artifacts, python: str) -> None:
    """The proposed policy: the project's own code ships compiled too."""
    compile_tree(python, art.layer / "python" / "cronbell", "/opt/python/cronbell")
    for name, folder in art.functions.items():
        compile_tree(python, folder, "/var/task")
    measure(art)


def measure(art: Artifacts) -> None:
    zips = art.root / "zips"
    zips.mkdir(exist_ok=True)
    art.sizes["layer"] = (tree_bytes(art.layer), zip_bytes(art.layer, zips / "layer.zip"))
    for name, folder in art.functions.items():
        art.sizes[name] = (tree_bytes(folder), zip_bytes(folder, zips / f"{name}.zip"))
    groups: dict[str, int] = {}
    site = art.layer / "python"
    for child in site.iterdir():
        key = child.name.split("-")[0].removesuffix(".py") if child.name.endswith(".dist-info") else child.name
        key = key.removesuffix(".py")
        size = tree_bytes(child) if child.is_dir() else child.stat().st_size
        groups[key.lower()] = groups.get(key.lower(), 0) + size
    art.parts = dict(sorted(groups.items(), key=lambda kv: -kv[1]))
