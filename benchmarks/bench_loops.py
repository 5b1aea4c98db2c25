"""Benchmark of the loop search over the whole bundled AGoT card pool.

Run from the project root::

    python benchmarks/bench_loops.py [--max-length 3] [--timeout 20] [--json]

It compiles every card, builds the ability graph, takes every cycle of up to
``--max-length`` abilities as a candidate and classifies each one with the Z3
lasso check (:func:`ruleproof.loops.find_loops`).  It reports the wall time,
the peak Python heap (``tracemalloc``; Z3's own C++ heap is not included),
the candidates per second, the count per category, and every loop found
(unbounded, mandatory, limited) with its reason.  Nothing here is asserted:
it measures.
"""

from __future__ import annotations

import argparse
import json
import time
import tracemalloc

from ruleproof.cards.pool import load_pool
from ruleproof.loops import Category, find_loops


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--max-length", type=int, default=3)
    ap.add_argument("--timeout", type=float, default=20.0)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    pool = load_pool()
    tracemalloc.start()
    t0 = time.perf_counter()
    rep = find_loops(pool, max_length=args.max_length, timeout=args.timeout)
    seconds = time.perf_counter() - t0
    _cur, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    loops = [r for r in rep.results if r.category in (Category.UNBOUNDED, Category.MANDATORY, Category.LIMITED)]
    summary = {
        "cards": rep.cards,
        "candidates": rep.candidates,
        "seconds": round(seconds, 2),
        "peak_python_mib": round(peak / 2**20, 1),
        "candidates_per_second": round(rep.candidates / seconds, 2) if seconds else None,
        "by_category": dict(rep.counts),
        "loops": [{"cards": list(r.cards), "abilities": [f"{c}#{i}" for c, i in r.abilities],
                   "names": [pool.get(c).name for c in r.cards if pool.get(c)],
                   "category": r.category.value, "passes": r.passes, "reason": r.reason,
                   "net_gain": {k: v for k, v in r.net_gain if v}} for r in loops],
    }
    if args.json:
        print(json.dumps(summary, indent=2))
        return
    for k, v in summary.items():
        if k != "loops":
            print(f"{k}: {v}")
    for lp in summary["loops"]:
        print(f"- {lp['category']} {' + '.join(lp['names'])} {lp['abilities']} passes={lp['passes']} "
              f"gain={lp['net_gain']}\n    {lp['reason']}")


if __name__ == "__main__":
    main()
