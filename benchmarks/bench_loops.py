"""Benchmark of the loop search over the whole bundled AGoT card pool.

Run from the project root (on a shared machine, with ``nice``)::

    PYTHONHASHSEED=0 nice -n 10 python benchmarks/bench_loops.py [--max-length 3] [--timeout 20] [--json]

It compiles every card, builds the ability graph, takes every cycle of up to
``--max-length`` abilities as a candidate and classifies each one in this
process (:func:`ruleproof.loops.find_loops`).  It reports the CPU time (this
process), the wall time, the peak resident memory (``ru_maxrss``: Python
and Z3 together), the candidates per CPU second, the count per category
(analysed = a loop of some kind or "not a loop"), the commonest reasons of the
candidates not decided, and every loop found (unbounded, mandatory, limited)
with its reason.  As a reference measured in the same run, it first times the
search over the Core set (a fixed slice of the pool) and prints the whole
pool's CPU time as a multiple of it.  Nothing here is asserted: it measures.
"""

from __future__ import annotations

import argparse
import json
import resource
import time
from typing import Any

from ruleproof.cards.pool import load_pool
from ruleproof.loops import Category, find_loops
from ruleproof.loops.search import LoopReport, top_phrases, top_reasons


def _timed(fn: Any) -> tuple[LoopReport, float, float]:
    c0, w0 = time.process_time(), time.perf_counter()
    rep = fn()
    return rep, time.process_time() - c0, time.perf_counter() - w0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--max-length", type=int, default=3)
    ap.add_argument("--timeout", type=float, default=20.0)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    pool = load_pool()
    core = [c.code for c in pool.cards if c.pack_code == "Core"]
    ref, ref_cpu, _ = _timed(lambda: find_loops(pool, codes=core, max_length=args.max_length, timeout=args.timeout))
    rep, cpu, wall = _timed(lambda: find_loops(pool, max_length=args.max_length, timeout=args.timeout))
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # KiB on Linux
    loops = [r for r in rep.results if r.category in (Category.UNBOUNDED, Category.MANDATORY, Category.LIMITED)]
    counts = dict(rep.counts)
    summary: dict[str, Any] = {
        "cards": rep.cards,
        "candidates": rep.candidates,
        "analysed": rep.analysed,
        "analysed_percent": round(100 * rep.analysed / rep.candidates, 1) if rep.candidates else None,
        "by_category": counts,
        "cpu_seconds": round(cpu, 1),
        "wall_seconds": round(wall, 1),
        "peak_rss_mib": round(peak, 1),
        "candidates_per_cpu_second": round(rep.candidates / cpu, 1) if cpu else None,
        "reference_core_set": {"candidates": ref.candidates, "cpu_seconds": round(ref_cpu, 1),
                               "whole_pool_over_core_cpu": round(cpu / ref_cpu, 1) if ref_cpu else None},
        "through_unread": len(rep.through_unread),
        "top_reasons": top_reasons(rep),
        "top_unread_phrases": top_phrases(rep),
        "loops": [{"cards": list(r.cards), "abilities": [f"{c}#{i}" for c, i in r.abilities],
                   "names": [getattr(pool.get(c.removeprefix("opp:")), "name", c) for c in r.cards],
                   "category": r.category.value, "passes": r.passes, "reason": r.reason,
                   "net_gain": {k: v for k, v in r.net_gain if v}} for r in loops],
    }
    if args.json:
        print(json.dumps(summary, indent=2))
        return
    for k, v in summary.items():
        if k not in ("loops", "top_reasons", "top_unread_phrases"):
            print(f"{k}: {v}")
    print("commonest reasons of the candidates not decided:")
    for reason, n in summary["top_reasons"]:
        print(f"  {n:>5}  {reason}")
    for lp in summary["loops"]:
        print(f"- {lp['category']} {' + '.join(lp['names'])} {lp['abilities']} passes={lp['passes']} "
              f"gain={lp['net_gain']}\n    {lp['reason']}")


if __name__ == "__main__":
    main()
