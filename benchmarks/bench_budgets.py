"""Budgets that bind, measured: per-query timeouts, the memory limit, and how fast an interrupt stops a run.

Not run by the tests (timings are noisy on shared machines).  Each row runs
the real entry point in a child process and prints what the README's
"Budgets" table shows:

* ``--timeout T`` on a query that would run forever (BMC of the gold model to
  depth 10,000 with no resource limit): the property's own time against
  ``T + 2`` (the ratio must stay at or below 1), and the whole run's time
  (loading, the coverage search and the property: each query has its own T);
* ``--memory-limit 1G`` on the 1,000-player model (explicit search: about
  two million states of a thousand values at depth 2): the verdict and
  reason, and the child's peak RSS against 1.2 GB;
* SIGINT and SIGTERM sent a few seconds into a solver query: seconds from
  the signal to the exit, and the exit status (130 / 143).

Usage: ``PYTHONHASHSEED=0 python benchmarks/bench_budgets.py [--json]``.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
GOLD = str(ROOT / "model" / "agot" / "gold.py")
PLAYERS = str(ROOT / "tests" / "fixtures" / "hostile" / "players.py")
FOREVER = ["check", GOLD, "--scenario", "small", "-p", "gold is conserved", "--engine", "bmc", "--depth", "10000",
           "--rlimit", "0", "--json"]


def _child(args: list[str]) -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, "-m", "ruleproof.cli", *args], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env={**os.environ, "PYTHONHASHSEED": "0"})


def _cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def bench_timeout(t: float) -> dict[str, Any]:
    cpu0, t0 = _cpu(), time.monotonic()
    p = _child([*FOREVER, "--timeout", f"{t:g}"])
    out, err = p.communicate()
    wall = time.monotonic() - t0
    (r,) = json.loads(out)["results"]
    return {"what": f"--timeout {t:g}: BMC to depth 10,000 (would run for ever)", "exit": p.returncode,
            "verdict": r["verdict"], "reason": r["reason"], "property_seconds": r["seconds"],
            "bound_seconds": t + 2, "ratio_to_bound": round(r["seconds"] / (t + 2), 2),
            "run_seconds": round(wall, 2), "run_cpu_seconds": round(_cpu() - cpu0, 2)}


def bench_memory() -> dict[str, Any]:
    cpu0, t0 = _cpu(), time.monotonic()
    p = _child(["check", PLAYERS, "--param", "players=1000", "--memory-limit", "1G", "--engine", "explicit",
                "--depth", "3", "--timeout", "600", "-p", "every pool stays within 0..3", "--json"])
    out, err = p.communicate()
    wall = time.monotonic() - t0
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss * 1024  # the largest child so far
    obj = json.loads(out) if out.strip() else {"results": [{"verdict": "-", "reason": err.strip()[-200:]}]}
    (r,) = obj["results"]
    return {"what": "--memory-limit 1G: 1,000 players", "exit": p.returncode, "verdict": r["verdict"],
            "reason": r["reason"], "peak_rss_mb": round(peak / 2**20), "bound_mb": round(1.2 * 1024),
            "ratio_to_bound": round(peak / (1.2 * 2**30), 2), "run_seconds": round(wall, 2),
            "run_cpu_seconds": round(_cpu() - cpu0, 2)}


def bench_signal(sig: signal.Signals, after: float) -> dict[str, Any]:
    p = _child([*FOREVER, "--timeout", "100"])
    time.sleep(after)
    t0 = time.monotonic()
    p.send_signal(sig)
    out, err = p.communicate()
    stop = time.monotonic() - t0
    obj = json.loads(out) if out.strip() else {}
    return {"what": f"{sig.name} {after:g} s into a solver query", "exit": p.returncode,
            "interrupted": obj.get("interrupted"), "seconds_to_exit": round(stop, 2), "bound_seconds": 2.0,
            "ratio_to_bound": round(stop / 2.0, 2), "traceback": "Traceback" in err}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--json", action="store_true", help="Print the rows as JSON.")
    ap.add_argument("--timeouts", default="2,5,10", help="The --timeout values measured.")
    args = ap.parse_args()
    rows = [bench_timeout(float(t)) for t in args.timeouts.split(",")]
    rows.append(bench_memory())
    rows += [bench_signal(signal.SIGINT, 6.0), bench_signal(signal.SIGTERM, 6.0)]
    if args.json:
        print(json.dumps(rows, indent=2))
        return
    print(f"machine: {os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f} (shared: wall times are noisy)")
    for r in rows:
        print(" | ".join(f"{k}={v}" for k, v in r.items()))


if __name__ == "__main__":
    main()
