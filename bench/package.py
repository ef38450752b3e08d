"""The deployed artifacts, built the way `sam build` builds them, and their sizes.

The layer is built by the very target `sam build` runs for it (`BuildMethod: makefile` in template.yaml):
`make -f layers/common/Makefile build-CommonLayer ARTIFACTS_DIR=...`, which pip-installs the wheels of
`layers/common/requirements.txt` for the runtime's platform (arm64, CPython 3.12; boto3 comes with the
runtime) with `--no-compile`, copies the `cronbell` package without `__pycache__`, and compiles it all
with a Python of the runtime's version when this machine has one (bytecode of another version would be
ignored by the runtime). Each function is a copy of its folder, as `sam build`'s python3.12 build method
copies it (no bytecode: a function's own code is one small module).

`without_bytecode` gives the same layer as the python3.12 build method would (the source only), for
comparison.
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
    sizes: dict[str, tuple[int, int]] = field(default_factory=dict)  # name -> (unzipped, zipped) bytes
    parts: dict[str, int] = field(default_factory=dict)  # layer's top-level packages -> unzipped bytes

    @property
    def packages(self) -> list[str]:
        """The importable top-level names the layer's dependencies install (cronbell apart)."""
        site = self.layer / "python"
        names = {p.name.removesuffix(".py") for p in site.iterdir() if p.is_dir() or p.suffix == ".py"}
        return sorted(n for n in names if n != "cronbell" and not n.endswith(".dist-info") and n != "__pycache__")


def build(workdir: Path, python: str | None = None) -> Artifacts:
    """The layer (by its Makefile, bytecode compiled with `python` when given) and the functions under
    `workdir`, as `sam build` lays them out."""
    art = Artifacts(root=workdir, layer=workdir / "layer")
    art.layer.mkdir(parents=True)
    subprocess.run(
        ["make", "--no-print-directory", "-f", str(LAYER_SRC / "Makefile"), "build-CommonLayer",
         f"ARTIFACTS_DIR={art.layer}", f"PYTHON={sys.executable}", f"RUNTIME_PYTHON={python or 'false'}",
         "BYTECODE=optional"],
        check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    for name in FUNCTIONS:
        target = workdir / "functions" / name
        shutil.copytree(ROOT / "functions" / name, target, ignore=_IGNORE)
        art.functions[name] = target
    measure(art)
    return art


def without_bytecode(art: Artifacts, workdir: Path) -> Artifacts:
    """A copy of `art` without any bytecode: the layer as the python3.12 build method packages it."""
    out = Artifacts(root=workdir, layer=workdir / "layer")
    shutil.copytree(art.layer, out.layer, ignore=_IGNORE)
    for name, folder in art.functions.items():
        out.functions[name] = workdir / "functions" / name
        shutil.copytree(folder, out.functions[name], ignore=_IGNORE)
    measure(out)
    return out


def has_bytecode(folder: Path) -> bool:
    return any(folder.rglob("*.pyc"))


def measure(art: Artifacts) -> None:
    zips = art.root / "zips"
    zips.mkdir(exist_ok=True)
    art.sizes["layer"] = (tree_bytes(art.layer), zip_bytes(art.layer, zips / "layer.zip"))
    for name, folder in art.functions.items():
        art.sizes[name] = (tree_bytes(folder), zip_bytes(folder, zips / f"{name}.zip"))
    groups: dict[str, int] = {}
    site = art.layer / "python"
    for child in site.iterdir():
        if child.name == "__pycache__":  # bytecode of top-level modules: counted with each module
            for pyc in child.iterdir():
                key = pyc.name.split(".")[0].lower()
                groups[key] = groups.get(key, 0) + pyc.stat().st_size
            continue
        key = child.name.split("-")[0] if child.name.endswith(".dist-info") else child.name
        key = key.removesuffix(".py").lower()
        size = tree_bytes(child) if child.is_dir() else child.stat().st_size
        groups[key] = groups.get(key, 0) + size
    art.parts = dict(sorted(groups.items(), key=lambda kv: -kv[1]))
