"""`make bench`: every performance figure of cronbell in one table, each against its floor or target.

    python -m bench.run [--quick] [--storm N] [--workers N] [--sandbox-storm N] [--sandbox-month N] [--rounds N]
                        [--cold-rounds N] [--json FILE]

Cold start and warm overhead are ratios to a floor measured in the same run, interleaved, so a busy
machine moves the figure and its floor alike. AWS calls are counted at the moto server. Sizes are those of
the artifacts as `sam build` packages them (the layer by its Makefile; see bench/package.py). The storm
fires N one-shots due in the same minute. Each operation's change is applied by the projector, counted apart
from the operation. docs/performance.md explains each figure and records a run.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import IO, Any

from bench import coldstart, cost, package, storm
from bench.common import ROOT, fake_aws_env, machine

COLD_TARGETS = {"pyc": 1.2, "source": 1.25}  # x the floor: as `sam build` ships it, and with the layer as source
OVERHEAD_TARGET = 1.5
LAYER_TARGET_MB = 10.0
FUNCTION_TARGET_KB = 100.0
SANDBOX_STORM_TARGET_S = 10.0  # 1,000 one-shots due in one minute, fired end to end
CALL_TARGETS = {  # AWS calls a tool call or fire makes inline (chat posts and agent invocations apart)
    # tool calls and fires write items only: their Scheduler entries are the projector's (printed apart)
    # a reminder's answer reads its user's quiet hours (one GetItem): whether a one-shot is set inside
    # them, and whether they hold its next occurrence; then one transaction writes it
    "create one-shot": 2,
    "create recurring": 2,
    "list": 2,  # one Query, and one GetItem per user whose reminders it lists (the quiet hours)
    "delete": 1,  # one conditional DeleteItem (answering with the schedule as it was)
    # the schedule, its claim, its record; a reminder's fire reads its user's quiet hours (one GetItem)
    # only when the schedule says the user has some (the bench's user has none)
    "fire one-shot": 3,
    "fire recurring": 3,
    "fire agent_call": 3,
    # by id: its runs (one Query) and the run that ended it, which its retired copy keeps (one GetItem: since
    # 0.4.11 the price of a one-shot's delivery at 4 x the floor, docs/performance.md); the schedule is read
    # only when it has none yet
    "history": 2,
}


def progress(message: str) -> None:
    print(f"[bench] {message}", file=sys.stderr, flush=True)


def child(
    args: list[str], env: dict[str, str] | None = None, stdin: int | None = None, stderr: IO[bytes] | None = None
) -> subprocess.Popen[bytes]:
    """Start a bench module in a fresh interpreter; handlers log to stdout, so that is discarded."""
    full = {**os.environ, **(env or {}), "PYTHONPATH": os.pathsep.join([str(ROOT / "layers" / "common"), str(ROOT)])}
    return subprocess.Popen(
        [sys.executable, "-m", *args], cwd=ROOT, env=full, stdin=stdin, stdout=subprocess.DEVNULL, stderr=stderr
    )


def wait(*processes: subprocess.Popen[bytes]) -> None:
    for process in processes:
        if process.wait() != 0:
            raise SystemExit(f"bench: {' '.join(map(str, process.args))} failed")  # type: ignore[arg-type]


# ------------------------------------------------------------------------------------------- sections


def artifacts(tmp: Path) -> dict[str, Any]:
    python = package.runtime_python()
    art = package.build(tmp / "artifacts", python)
    source = package.without_bytecode(art, tmp / "artifacts-source")
    return {
        "compiled_with": f"CPython {package.RUNTIME}" if package.has_bytecode(art.layer) else "",
        "sam_build": dict(art.sizes),
        "parts": dict(art.parts),
        "source": dict(source.sizes),
        "source_parts": dict(source.parts),
        "packages": art.packages,
    }


def operations(tmp: Path, rounds: int) -> dict[str, Any]:
    out = tmp / "operations.json"
    wait(child(["bench.operations", str(out), "--rounds", str(rounds)]))
    figures: dict[str, Any] = json.loads(out.read_text())
    return figures


def costs(tmp: Path) -> dict[str, Any]:
    out = tmp / "cost.json"
    wait(child(["bench.cost", "--json", str(out)]))
    figures: dict[str, Any] = json.loads(out.read_text())
    return figures


def fire_storm(tmp: Path, count: int, workers: int) -> dict[str, Any]:
    """`count` due one-shots split over `workers` moto servers, each fired by one worker process."""
    servers = []
    try:
        for w in range(workers):
            url_file = tmp / f"moto-{w}.url"
            url_file.unlink(missing_ok=True)
            servers.append((child(["bench.storm", "serve", str(url_file)], stdin=subprocess.PIPE), url_file))
        urls = []
        for process, url_file in servers:
            deadline = time.monotonic() + 60
            while not url_file.exists() or not url_file.read_text():
                if process.poll() is not None or time.monotonic() > deadline:
                    raise SystemExit("bench: a moto server for the storm did not start")
                time.sleep(0.05)
            urls.append(url_file.read_text())
        t0 = time.perf_counter()
        shards = []
        for w, url in enumerate(urls):
            os.environ.update(fake_aws_env(url))
            shards.append(storm.seed(url, count // workers + (1 if w < count % workers else 0), prefix=f"{w}-"))
        seed_s = time.perf_counter() - t0
        cpu0 = sum(storm.process_cpu_seconds(p.pid) for p, _ in servers)
        processes, outs = [], []
        for w, (url, (env, targets)) in enumerate(zip(urls, shards, strict=True)):
            targets_file, out = tmp / f"storm-targets-{w}.json", tmp / f"storm-{w}.json"
            targets_file.write_text(json.dumps(targets))
            worker_env = {**env, **fake_aws_env(url)}
            processes.append(child(["bench.storm", "fire", str(targets_file), str(out)], env=worker_env))
            outs.append(out)
        wait(*processes)
        server_cpu = sum(storm.process_cpu_seconds(p.pid) for p, _ in servers) - cpu0
        figures = storm.combine([json.loads(out.read_text()) for out in outs])
        figures["moto_cpu_ms_per_fire"] = server_cpu / figures["fires"] * 1000
        figures["seed_s"] = seed_s
        figures["rooms"] = 0
        figures["rooms_left_live"] = 0
        for url, (env, targets) in zip(urls, shards, strict=True):
            rooms = {room for room, _ in targets}
            figures["rooms"] += len(rooms)
            live = storm.live_counts(url, env["TABLE_NAME"], rooms)
            figures["rooms_left_live"] += sum(n for value, n in live.items() if value)
    finally:
        for process, _ in servers:
            if process.stdin:
                process.stdin.close()
            process.wait(timeout=30)
    return figures


def sandbox_engine(tmp: Path, command: str, count: int) -> dict[str, Any]:
    """`bench.storm sandbox` (the one-shot storm) or `bench.storm month`, in a fresh interpreter."""
    out, log = tmp / f"sandbox-{command}.json", tmp / f"sandbox-{command}.log"
    with log.open("wb") as errors:  # the function processes log there, a line or two per fire
        process = child(["bench.storm", command, str(count), str(out)], stderr=errors)
        code = process.wait()
    if code != 0:
        raise SystemExit(f"bench: bench.storm {command} failed:\n{log.read_text(errors='replace')[-3000:]}")
    figures: dict[str, Any] = json.loads(out.read_text())
    return figures


# ------------------------------------------------------------------------------------------- the table


def verdict(ok: bool) -> str:
    return "ok" if ok else "OVER"


def mb(n: int) -> str:
    return f"{n / 1e6:.2f} MB"


def kb(n: int) -> str:
    return f"{n / 1e3:.1f} KB"


def projector_lines(ops: dict[str, Any]) -> list[str]:
    """Each operation's change as the projector applies it, and the tool's latency before and after."""
    lines = [
        "",
        "What the projector does with each operation's change (the stream records it wrote, handed to"
        " functions/projector/app.py as Lambda's mapping hands them: one invocation per batch; calls counted at"
        " the moto server), and the operation's latency now and before one writer (the handler plus the"
        " Scheduler calls it then made inline, those the projector made that found an entry or made one,"
        " replayed bare on the twin), medians of the same rounds",
        f"  {'operation':17} {'invocations':>11} {'Scheduler':>9} {'DynamoDB':>8}   {'which, in order':50}"
        f" {'projector':>9} {'now':>8} {'before':>8} {'inline':>6} {'now/before':>10}",
    ]
    for op, f in ops.items():
        p = f["projector"]
        which = ", ".join(p["which"]) or "-"
        lines.append(
            f"  {op:17} {p['invocations']:11} {p['scheduler_calls']:9} {p['dynamodb_calls']:8}"
            f" {'' if p['stable'] else '!':2} {which:50} {p['ms']:7.1f}ms {f['handler_ms']:6.1f}ms"
            f" {f['before_ms']:6.1f}ms {f['inline_scheduler_calls']:6} {f['now_over_before']:10.2f}"
        )
    if not all(f["projector"]["stable"] for f in ops.values()):
        lines.append("  ! the projector's calls differed between rounds")
    return lines


def table(r: dict[str, Any]) -> str:
    lines = [
        "cronbell performance (make bench)",
        f"  {r['when']} on {r['machine']}; {r['elapsed_s']:.0f} s in all",
        "",
    ]
    cold = r["cold"]
    floor_wall, floor_cpu = cold["floor"]
    lines += [
        f'Cold start: median of {r["cold_rounds"]} fresh `python -c "import app"` per variant, interleaved;'
        " floor = import boto3 + DynamoDB and Scheduler clients",
        f"  {'variant':40} {'wall':>7} {'x floor':>8} {'cpu x floor':>12}   target",
        f"  {'floor':40} {floor_wall * 1000:5.0f}ms {1:8.2f} {1:12.2f}",
    ]
    for name in ("tools", "fire"):
        for policy, label in (("source", "layer as source only"), ("pyc", "as sam build ships it")):
            wall, cpu = cold[f"{name}/{policy}"]
            ratio = wall / floor_wall
            lines.append(
                f"  {name + ', ' + label:40} {wall * 1000:5.0f}ms {ratio:8.2f} {cpu / floor_cpu:12.2f}"
                f"   <={COLD_TARGETS[policy]} {verdict(ratio <= COLD_TARGETS[policy])}"
            )
    for policy, label in (("source", "layer as source only"), ("pyc", "as sam build ships it")):
        wall, cpu = cold.get(f"powertools/{policy}", (0.0, 0.0))
        if wall:  # a reference: what the handlers' floor is with Powertools, before any of cronbell
            lines.append(
                f"  {'floor + Powertools, ' + label:40} {wall * 1000:5.0f}ms {wall / floor_wall:8.2f}"
                f" {cpu / floor_cpu:12.2f}   (reference)"
            )
    for label, parts in r["cold_parts"].items():
        text = ", ".join(f"{part} {ms:.0f}" for part, ms in parts.items())
        name = label.replace("/pyc", ", as sam build ships it").replace("/source", ", layer as source only")
        lines.append(f"  {name}, ms by part (-X importtime, median): {text}")
    ops = r["operations"]
    lines += [
        "",
        f"AWS calls per operation (counted at the moto server) and warm overhead (median of {r['rounds']} rounds:"
        " handler / the same AWS calls made bare)",
        f"  {'operation':17} {'calls':>5} {'target':>6}    {'which':44} {'handler':>8} {'bare':>8} {'overhead':>8}",
    ]
    for op, f in ops.items():
        which = ", ".join(f"{k} {v}" if v > 1 else k for k, v in sorted(f["calls"].items()))
        extra = []
        if f["agent_invokes"]:
            extra.append(f"+{f['agent_invokes']} agent")
        if f["chat_posts"]:
            extra.append(f"+{f['chat_posts']} chat")
        target = CALL_TARGETS[op]
        calls_ok = f["aws_calls"] <= target and f["stable"]
        described = f"{which} {' '.join(extra)}"
        lines.append(
            f"  {op:17} {f['aws_calls']:5} {'<=' + str(target):>6} {verdict(calls_ok):4} {described:46}"
            f" {f['handler_ms']:6.1f}ms {f['bare_ms']:6.1f}ms {f['overhead']:8.2f} <={OVERHEAD_TARGET}"
            f" {verdict(f['overhead'] <= OVERHEAD_TARGET)}"
        )
    lr = r["list_reads"]
    lines.append(
        f"  list reads {lr['read_before']} items for {lr['schedules']} schedules with no history, and"
        f" {lr['read_after']} with {lr['runs']:,} runs kept for one of them and {lr['retired']} schedules"
        " retired (deleted, fired) kept for audit"
        f" (target: no more) {verdict(lr['read_after'] <= lr['read_before'])}"
    )
    lines += projector_lines(ops)
    lines += [
        "",
        "What each operation costs: DynamoDB request units by its documented rules from the items touched"
        " (moto's own figure beside them), Lambda GB-seconds at the measured duration, dollars per million;"
        " beside it, what the projector's applying the change it wrote costs",
        *("  " + line for line in cost.table(r["cost"]).splitlines()),
    ]
    art = r["artifacts"]
    compiled = art["compiled_with"] or "none (no Python 3.12 here: the layer is built without bytecode)"
    lines += [
        "",
        f"Artifact size: arm64, python3.12; layer built by layers/common/Makefile, bytecode compiled with {compiled}",
        f"  {'artifact':44} {'unzipped':>10} {'zipped':>10} {'target':>10}",
    ]
    rows = [("as sam build packages it", art["sam_build"]), ("source only, for comparison", art["source"])]
    for i, (label, sizes) in enumerate(rows):
        layer_raw, layer_zip = sizes["layer"]
        lines.append(
            f"  {'layer, ' + label:44} {mb(layer_raw):>10} {mb(layer_zip):>10}"
            f"   <={LAYER_TARGET_MB:.0f} MB {verdict(layer_raw / 1e6 <= LAYER_TARGET_MB)}"
        )
        if i:
            continue
        for name in ("tools", "fire"):
            raw, zipped = sizes[name]
            lines.append(
                f"  {name + ' function, ' + label:44} {kb(raw):>10} {kb(zipped):>10}"
                f"  <={FUNCTION_TARGET_KB:.0f} KB {verdict(raw / 1e3 <= FUNCTION_TARGET_KB)}"
            )
    top = ", ".join(f"{k} {v / 1e6:.2f}" for k, v in list(art["parts"].items())[:6])
    lines.append(f"  layer by package (MB, as sam build packages it): {top}")
    s = r["storm"]
    bare = ops["fire one-shot"]["bare_ms"]
    lines += [
        "",
        f"Fire storm: {s['fires']:,} one-shots in {s['rooms']} rooms, all due in the same minute, each fired once"
        f" by the fire handler in {s['workers']} processes (one event at a time each, as Lambda environments run them;"
        " chat = the sandbox's sink in process; each process with its own moto server)",
        f"  wall {s['wall_s']:.1f} s = {s['fires_per_s']:.0f} fires/s; per fire p50 {s['p50_ms']:.1f} ms"
        f" ({s['p50_ms'] / bare:.2f} x one fire's bare AWS calls above), p99 {s['p99_ms']:.1f} ms;"
        f" CPU per fire: handler {s['handler_cpu_ms_per_fire']:.1f} ms, moto {s['moto_cpu_ms_per_fire']:.1f} ms",
        f"  fire handler process memory: peak {s['peak_rss_mb']:.0f} MB ({s['rss_after_import_mb']:.0f} MB after"
        f" import); outcomes {s['outcomes']}; chat posts {s['chat_posts']:,}, messages kept {s['messages']:,};"
        f" rooms with live schedules left {s['rooms_left_live']}",
    ]
    b, m = r["sandbox_storm"], r["sandbox_month"]
    storm_ok = b["fire_s"] <= SANDBOX_STORM_TARGET_S and b["fired_ok"] == b["schedules"] == b["messages"]
    lines += [
        "",
        "Sandbox engine, end to end (reminders created through the Invoke endpoint, then one POST /_sandbox/clock;"
        " engine, moto and webhook sink in the sandbox's process; fires due together in fire function processes,"
        " a fire alone in the sandbox's process; the projector applies the table's stream after every invocation,"
        " in the sandbox's process)",
        f"  {b['schedules']:,} one-shots due in one minute ({b['creates_per_s']:.0f} creates/s):"
        f" {b['fired_ok']}/{b['fired']} fired in {b['fire_s']:.1f} s = {b['fires_per_s']:.0f} fires/s,"
        f" CPU per fire {b['cpu_ms_per_fire']:.1f} ms in the sandbox + {b['function_cpu_ms_per_fire']:.1f} ms in"
        f" {b['function_processes']} function processes, {b['messages']} messages, load {b['load']:.1f}"
        f"   <={SANDBOX_STORM_TARGET_S:.0f} s {verdict(storm_ok)}",
        f"  {m['schedules']} recurring reminders, {m['days']} virtual days in one move: {m['fired_ok']}/{m['fired']}"
        f" fired in {m['move_s']:.1f} s = {m['fires_per_s']:.0f} fires/s, {m['cpu_ms_per_fire']:.1f} ms CPU per fire,"
        f" load {m['load']:.1f} (no target: moto's DynamoDB sets its pace)",
    ]
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="small sizes: a smoke run in about a minute")
    parser.add_argument("--storm", type=int, help="schedules in the fire storm (10000)")
    parser.add_argument("--sandbox-storm", type=int, help="one-shots in the sandbox engine's storm (1000)")
    parser.add_argument("--sandbox-month", type=int, help="recurring reminders in the sandbox engine's month (200)")
    parser.add_argument("--workers", type=int, default=2, help="fire handler processes in the storm (2)")
    parser.add_argument("--rounds", type=int, help="rounds per operation (15)")
    parser.add_argument("--cold-rounds", type=int, help="fresh interpreters per cold-start variant (15)")
    parser.add_argument("--json", help="also write every figure to this file")
    args = parser.parse_args()
    quick = args.quick
    n_storm = args.storm or (500 if quick else 10_000)
    n_box = args.sandbox_storm or (100 if quick else 1000)
    n_month = args.sandbox_month or (20 if quick else 200)
    rounds = args.rounds or (3 if quick else 15)
    cold_rounds = args.cold_rounds or (3 if quick else 15)

    began = time.perf_counter()
    results: dict[str, Any] = {
        "when": datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "machine": machine(),
        "rounds": rounds,
        "cold_rounds": cold_rounds,
    }
    with tempfile.TemporaryDirectory(prefix="cronbell-bench-") as tmp_name:
        tmp = Path(tmp_name)
        progress("artifacts")
        results["artifacts"] = artifacts(tmp)
        progress(f"cold start, {cold_rounds} rounds")
        packages = results["artifacts"]["packages"]
        results["cold"] = coldstart.measure(tmp / "cold", cold_rounds, packages)
        results["cold_parts"] = {
            label: coldstart.breakdown(tmp / f"parts-{label.replace('/', '-')}", label, packages, 3 if quick else 5)
            for label in ("tools/source", "tools/pyc", "fire/pyc")
        }
        progress(f"operations, {rounds} rounds")
        measured = operations(tmp, rounds)
        results["operations"], results["list_reads"] = measured["ops"], measured["list_reads"]
        progress("cost per operation")
        results["cost"] = costs(tmp)
        progress(f"fire storm, {n_storm} schedules")
        results["storm"] = fire_storm(tmp, n_storm, args.workers)
        progress(f"sandbox engine: storm of {n_box} one-shots")
        results["sandbox_storm"] = sandbox_engine(tmp, "sandbox", n_box)
        progress(f"sandbox engine: a month with {n_month} recurring reminders")
        results["sandbox_month"] = sandbox_engine(tmp, "month", n_month)
    results["elapsed_s"] = time.perf_counter() - began
    print(table(results))
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=1))


if __name__ == "__main__":
    main()
