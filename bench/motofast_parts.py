"""What each part of sandbox/motofast.py saves: the sandbox's storm and month (bench/storm.py), run with every
part, with each part left out in turn (`MOTOFAST_SKIP`), and with none, each in a fresh interpreter.

    python -m bench.motofast_parts [storm count] [month count]

A part whose absence moves neither figure beyond the runs' own spread is not needed by a measured figure."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

from bench.common import ROOT
from sandbox.motofast import PARTS


def run(command: str, count: int, skip: list[str], out: Path) -> dict[str, float]:
    env = {**os.environ, "MOTOFAST_SKIP": ",".join(skip)}
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT / "layers" / "common"), str(ROOT)])
    subprocess.run(
        [sys.executable, "-m", "bench.storm", command, str(count), str(out)],
        cwd=ROOT, env=env, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    figures: dict[str, float] = json.loads(out.read_text())
    return figures


def main() -> None:
    storm_count = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
    month_count = int(sys.argv[2]) if len(sys.argv) > 2 else 200
    configs = [("every part", []), *((f"without {name}", [name]) for name in PARTS)]
    configs += [("transactions alone", [name for name in PARTS if name != "transactions"]), ("no part", list(PARTS))]
    print(f"sandbox storm ({storm_count} one-shots) and month ({month_count} recurring, 30 days), by motofast part")
    print(f"  {'':28} {'storm s':>8} {'ms CPU/fire':>12} {'month s':>8} {'ms CPU/fire':>12}")
    with tempfile.TemporaryDirectory(prefix="cronbell-motofast-") as tmp:
        for label, skip in configs:
            storm = run("sandbox", storm_count, skip, Path(tmp) / "storm.json")
            month = run("month", month_count, skip, Path(tmp) / "month.json")
            print(
                f"  {label:28} {storm['fire_s']:8.1f} {storm['cpu_ms_per_fire']:12.1f}"
                f" {month['move_s']:8.1f} {month['cpu_ms_per_fire']:12.1f}",
                flush=True,
            )


if __name__ == "__main__":
    main()
