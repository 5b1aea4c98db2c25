"""Benchmark of the Dask scale-out: mutants and the loop search, in-process vs 1 and 2 workers.

Run from the project root::

    PYTHONHASHSEED=0 python benchmarks/bench_scale.py [--model model/agot/gold.py] [--mutants 12]
        [--loop-cards N] [--max-length 3] [--timeout 20] [--skip-mutants] [--skip-loops] [--json]

For each workload it measures, in one run, the wall time in-process (the
ordinary code path, no Dask), on a ``LocalCluster`` of 1 worker and of 2
workers (cluster start-up and shut-down included: that is what a user
waits for), and prints the speedups over the in-process time.  It also
checks that the three runs give the same results.  Workloads:

* the mutant suite of ``--model`` at each system's first checked scenario
  (at most ``--mutants`` mutants per system; 0: all);
* the loop search over the bundled card pool (``--loop-cards N``: only the
  first N cards of the pool; default: the whole pool).

Nothing is asserted: it measures (timings on a shared machine are noisy; the
load average is printed beside them).
"""

from __future__ import annotations

import argparse
import json
import os
import time
from functools import partial
from typing import Any, Callable

from ruleproof.cards.pool import load_pool
from ruleproof.engines.common import Options
from ruleproof.loops import report_json
from ruleproof.loops.driver import search_loops
from ruleproof.scale.mutants import plan_mutants, run_mutants


def _timed(fn: Callable[[], Any]) -> tuple[float, Any]:
    t0 = time.perf_counter()
    out = fn()
    return time.perf_counter() - t0, out


def _strip(obj: Any) -> Any:
    if isinstance(obj, dict):
        return {k: _strip(v) for k, v in obj.items() if k != "seconds"}
    if isinstance(obj, list):
        return [_strip(x) for x in obj]
    return obj


def _first_difference(results: list[list[Any]]) -> str:
    """The first item where a cluster run differs from the in-process run ("" when none)."""
    for other in results[1:]:
        if len(other) != len(results[0]):
            return f"{len(results[0])} results in-process, {len(other)} on the cluster"
        for x, y in zip(results[0], other, strict=True):
            if x != y:
                return f"in-process: {x!r}\non the cluster: {y!r}"
    return ""


def _row(name: str, size: str, runs: dict[str, tuple[float, Any]], results: list[list[Any]]) -> dict[str, Any]:
    base = runs["in-process"][0]
    diff = _first_difference(results)
    return {
        "workload": name,
        "size": size,
        "seconds": {k: round(v[0], 2) for k, v in runs.items()},
        "speedup": {k: round(base / v[0], 2) for k, v in runs.items() if k != "in-process"},
        "same_results": not diff,
        "difference": diff,
    }


def bench_mutants(model: str, limit: int | None, timeout: float) -> dict[str, Any]:
    opts = Options(depth=6, kmax=4, timeout=timeout)
    work = plan_mutants(model, opts, limit)  # the same driver in-process and on the cluster
    runs = {"in-process": _timed(lambda: run_mutants(work))}
    for n in (1, 2):
        runs[f"{n} worker{'s' if n > 1 else ''}"] = _timed(partial(run_mutants, work, workers=n))
    res = [list(v[1]) for v in runs.values()]
    return _row("mutants", f"{len(res[0])} mutants of {model}", runs, res)


def bench_loops(cards: int | None, max_length: int, timeout: float) -> dict[str, Any]:
    pool = load_pool()
    codes = [c.code for c in pool.cards][:cards] if cards else None
    runs = {"in-process": _timed(lambda: search_loops(pool, codes, max_length=max_length, timeout=timeout))}
    for n in (1, 2):
        runs[f"{n} worker{'s' if n > 1 else ''}"] = _timed(partial(
            search_loops, pool, codes, max_length=max_length, timeout=timeout, workers=n))
    res = [_strip(report_json(v[1])) for v in runs.values()]
    res = [[r["coverage"]] + r["loops"] for r in res]
    rep = runs["in-process"][1]
    size = f"{rep.cards} cards, {rep.candidates} candidates" + ("" if cards else " (whole pool)")
    return _row("loops", size, runs, res)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--model", default="model/agot/gold.py")
    ap.add_argument("--mutants", type=int, default=12, help="Mutants per system (0: all).")
    ap.add_argument("--loop-cards", type=int, default=0, help="Only the first N cards of the pool (0: all).")
    ap.add_argument("--max-length", type=int, default=3)
    ap.add_argument("--timeout", type=float, default=20.0)
    ap.add_argument("--skip-mutants", action="store_true")
    ap.add_argument("--skip-loops", action="store_true")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    rows = []
    if not args.skip_mutants:
        rows.append(bench_mutants(args.model, args.mutants or None, args.timeout))
    if not args.skip_loops:
        rows.append(bench_loops(args.loop_cards or None, args.max_length, args.timeout))
    summary = {"cpus": os.cpu_count(), "load_average": [round(x, 2) for x in os.getloadavg()], "rows": rows}
    if args.json:
        print(json.dumps(summary, indent=2))
        return
    print(f"cpus: {summary['cpus']}  load average at the end: {summary['load_average']}")
    for r in rows:
        secs = "  ".join(f"{k}: {v:.1f}s" for k, v in r["seconds"].items())
        speed = "  ".join(f"{k}: {v:.2f}x" for k, v in r["speedup"].items())
        print(f"{r['workload']} ({r['size']})\n    {secs}\n    speedup over in-process: {speed}"
              f"\n    same results in all three runs: {'yes' if r['same_results'] else 'NO'}")
        if r["difference"]:
            print("    first difference:\n" + r["difference"])


if __name__ == "__main__":
    main()
