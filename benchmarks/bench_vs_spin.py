"""SPIN side by side with ruleproof on the gold economy, and the performance goals, measured in one run.

    PYTHONHASHSEED=0 python benchmarks/bench_vs_spin.py [--cards 2,4,6,8,12,20,40] [--gold 20,50]
        [--spin-cpu 120] [--spin-wall 900] [--rp-timeout S] [--baseline REV] [--skip spin,bmc,bundled,table]
        [--json FILE]

1. **SPIN vs ruleproof.**  For each gold size G and number of cards N (two players, starting pools
   0..G/2, the gold system's default scenario otherwise; since the review fix F5 the treasury is
   unlimited, so G is the starting gold, no longer a total the treasury holds), the gold system is exported to Promela
   (``ruleproof export``, with conservation and the range property, so SPIN's variables are the
   narrowest types) and verified by SPIN (``spin -a``, ``gcc -O2 -DSAFETY``, ``pan -m1000000``); the
   search is stopped (SIGINT: pan prints what it stored) past ``--spin-cpu`` CPU seconds or
   ``--spin-wall`` wall seconds, and once SPIN gives up at some N the larger N of that G are not run
   (the state space only grows).  ruleproof runs as the user runs it (a fresh process): conservation
   alone (``-p "gold is conserved"``) and the whole gold check (every property and the sanity target,
   ``--depth max(12, N + 10)``: the target needs at least N steps).  Times are whole processes: wall,
   and CPU from the operating system's accounting (the machine may be shared: CPU is the reliable
   figure).  The table gives the ratio SPIN search CPU / ruleproof CPU per size, and the largest N each
   finishes in 60 s; each result that is not proved is printed with its reason.  ``--rp-timeout`` is
   ruleproof's ``--timeout`` (wall seconds per property): on a loaded machine the default 60 s stops a
   search after a few seconds of CPU, a larger one keeps the verdicts from depending on the load.
2. **Goals.**  The whole gold check at 40 cards / 50 gold; the SPIN / ruleproof CPU ratio at the
   largest size SPIN finishes within 120 s and ruleproof on the size SPIN gives up at; conservation's
   CPU from 2 to 40 cards; BMC time(depth 40) / time(depth 20) on gold conservation at 6 cards (one
   BMC run to depth 40: time(20) is when depth 21 starts), and the same with every depth asked on the
   forward unrolling, as before the reversed one (the baseline); the bundled ``ruleproof check``
   with this code and with the code of ``--baseline REV`` (both on that revision's model, so only the
   checker differs), CPU and wall.

Not run by the tests (it takes several minutes; SPIN needs ``apt-get install spin``).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
GOLD = ROOT / "model" / "agot" / "gold.py"
BASELINE = "4b1e5f9"
"""The last commit on main before the encoding and target work this benchmark measures."""


def _children_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


@dataclass
class Run:
    rc: int
    wall: float
    cpu: float
    verdicts: dict[str, int]
    open: list[str] = field(default_factory=list)
    """Each result not proved: property, verdict and reason."""

    @property
    def all_proved(self) -> bool:
        return self.rc == 0 and set(self.verdicts) == {"proved"}


def _ruleproof(args: list[str], pythonpath: str | None = None, cwd: Path = ROOT, timeout: float = 3600) -> Run:
    env = dict(os.environ, PYTHONHASHSEED="0")
    if pythonpath:
        env["PYTHONPATH"] = pythonpath
    c0, w0 = _children_cpu(), time.perf_counter()
    p = subprocess.run([sys.executable, "-m", "ruleproof.cli", *args, "--json"], capture_output=True, text=True,
                       env=env, cwd=cwd, timeout=timeout)
    wall, cpu = time.perf_counter() - w0, _children_cpu() - c0
    verdicts: dict[str, int] = {}
    not_proved: list[str] = []
    try:
        for r in json.loads(p.stdout).get("results", []):
            verdicts[r["verdict"]] = verdicts.get(r["verdict"], 0) + 1
            if r["verdict"] != "proved":
                not_proved.append(f"{r['property']}: {r['verdict']} ({r.get('reason') or ''})")
    except json.JSONDecodeError:
        verdicts["no JSON: " + (p.stderr.strip().splitlines() or ["?"])[-1][:80]] = 1
    return Run(p.returncode, wall, cpu, verdicts, not_proved)


def _gold_args(n: int, g: int) -> list[str]:
    return [str(GOLD), "--scenario", "default", "--param", f"cards={n}", "--param", f"max_start_gold={g // 2}"]


@dataclass
class Row:
    gold: int
    cards: int
    spin: dict[str, Any] | None
    conserved: Run
    whole: Run


def spin_table(cards: list[int], golds: list[int], spin_cpu: float, spin_wall: float, skip_spin: bool,
               rp_timeout: float | None = None) -> list[Row]:
    from ruleproof.spin import run_spin, spin_available

    if not skip_spin and not spin_available():
        print("spin or gcc not found (Debian: apt-get install spin gcc): SPIN columns left empty\n", file=sys.stderr)
        skip_spin = True
    rows = []
    for g in golds:
        gave_up = skip_spin
        for n in cards:
            spin: dict[str, Any] | None = None
            if not gave_up:
                with tempfile.TemporaryDirectory(prefix="rp-spin-") as tmp:
                    pml = Path(tmp) / "gold.pml"
                    subprocess.run([sys.executable, "-m", "ruleproof.cli", "export", *_gold_args(n, g), "-p",
                                    "gold is conserved", "-p", "state stays within declared ranges", "--format",
                                    "promela", "--out", str(pml)], check=True, capture_output=True, cwd=ROOT,
                                   env=dict(os.environ, PYTHONHASHSEED="0"))
                    r = run_spin(pml, max_depth=1_000_000, wall_limit=spin_wall, cpu_limit=spin_cpu)
                spin = {"complete": r.complete, "errors": r.errors, "stopped": r.stopped, "states": r.states,
                        "memory_mb": r.memory_mb, "cpu": r.cpu, "wall": r.wall, "compile_cpu": r.compile_cpu}
                gave_up = not r.complete
            budget = ["--timeout", f"{rp_timeout:g}"] if rp_timeout else []
            conserved = _ruleproof(["check", *_gold_args(n, g), "-p", "gold is conserved", *budget])
            whole = _ruleproof(["check", *_gold_args(n, g), "--depth", str(max(12, n + 10)), *budget])
            row = Row(g, n, spin, conserved, whole)
            rows.append(row)
            _print_row(row)
    return rows


def _fmt_spin(s: dict[str, Any] | None) -> str:
    if s is None:
        return "not run (a smaller N gave up)"
    states = f"{s['states']:,}" if s["states"] is not None else "?"
    mem = f"{s['memory_mb']:.0f} MB" if s["memory_mb"] is not None else "?"
    if s["complete"]:
        return f"{s['cpu']:.2f} CPU / {s['wall']:.2f} wall, {states} states, {mem}, errors {s['errors']}"
    return f"gave up ({s['stopped']}) after {s['cpu']:.1f} CPU / {s['wall']:.1f} wall, {states} states stored, {mem}"


def _print_row(r: Row) -> None:
    ratio = ""
    if r.spin is not None:
        sym = ">" if not r.spin["complete"] else ""
        ratio = (f"  SPIN/conserved {sym}{r.spin['cpu'] / r.conserved.cpu:.1f}x, "
                 f"SPIN/whole {sym}{r.spin['cpu'] / r.whole.cpu:.1f}x (CPU)")
    print(f"G={r.gold:3} N={r.cards:3} | SPIN: {_fmt_spin(r.spin)}", flush=True)
    print(f"{'':11} | rp conserved: {r.conserved.cpu:.2f} CPU / {r.conserved.wall:.2f} wall {r.conserved.verdicts}"
          f" | rp whole: {r.whole.cpu:.2f} CPU / {r.whole.wall:.2f} wall {r.whole.verdicts}{ratio}", flush=True)
    for line in r.conserved.open + r.whole.open:
        print(f"{'':11} | not proved: {line}", flush=True)


def print_table(rows: list[Row]) -> None:
    print("\n| G | N | SPIN search CPU / wall s | SPIN states stored | SPIN memory MB | rp conserved CPU / wall s "
          "| rp whole CPU / wall s (verdicts) | SPIN / rp conserved (CPU) | SPIN / rp whole (CPU) |")
    print("|---:|---:|---|---:|---:|---|---|---:|---:|")
    for r in rows:
        s = r.spin
        if s is None:
            sp, st, mem, q1, q2 = "not run (a smaller N gave up)", "-", "-", "-", "-"
        else:
            gt = "" if s["complete"] else ">"
            sp = (f"{s['cpu']:.2f} / {s['wall']:.2f}" if s["complete"]
                  else f"gave up ({s['stopped']}) at {s['cpu']:.0f} / {s['wall']:.0f}")
            st = f"{gt}{s['states']:,}" if s["states"] is not None else "?"
            mem = f"{s['memory_mb']:.0f}" if s["memory_mb"] is not None else "?"
            q1, q2 = f"{gt}{s['cpu'] / r.conserved.cpu:.0f}x", f"{gt}{s['cpu'] / r.whole.cpu:.0f}x"
        verdicts = ", ".join(f"{k} {v}" for k, v in sorted(r.whole.verdicts.items()))
        print(f"| {r.gold} | {r.cards} | {sp} | {st} | {mem} | {r.conserved.cpu:.2f} / {r.conserved.wall:.2f} "
              f"| {r.whole.cpu:.2f} / {r.whole.wall:.2f} ({verdicts}) | {q1} | {q2} |")
    for g in sorted({r.gold for r in rows}):
        mine = [r for r in rows if r.gold == g]
        spin60 = [r.cards for r in mine if r.spin and r.spin["complete"] and r.spin["cpu"] <= 60]
        cons60 = [r.cards for r in mine if r.conserved.all_proved and r.conserved.cpu <= 60]
        whole60 = [r.cards for r in mine if r.whole.all_proved and r.whole.cpu <= 60]
        wall60 = [r.cards for r in mine if r.whole.all_proved and r.whole.wall <= 60]
        print(f"\nG={g}: largest N finished within 60 s CPU: SPIN {max(spin60, default='none')}, "
              f"ruleproof conservation {max(cons60, default='none')}, "
              f"ruleproof whole check {max(whole60, default='none')} "
              f"(within 60 s wall on this machine: {max(wall60, default='none')})")


def bmc_scaling(depth: int = 40, forward_only: bool = False) -> dict[str, Any]:
    """One incremental BMC run of gold conservation (6 cards) to ``depth``: CPU when each depth starts.

    Also, per depth: the CPU of adding the step to the unrolling (``extend``) and of the solver's
    query (``check``), and Z3's conflicts and decisions in that query, so that a growing per-depth
    cost shows whether it is the encoding or the search that grows.  Depths up to
    ``bmc.FORWARD_TO`` are asked on the forward unrolling, deeper ones on the reversed one
    (``ReversedUnrolling``); ``forward_only`` asks every depth on the forward unrolling, as BMC did
    before the reversed one (the baseline, measured in the same run).
    """
    from ruleproof import encoder
    from ruleproof.engines import bmc
    from ruleproof.engines.common import Options, Progress
    from ruleproof.loader import discover, load_system

    s = load_system(discover(GOLD)[0], "default")
    starts: dict[int, float] = {}
    encode: dict[int, float] = {}
    solve: dict[int, float] = {}
    search: dict[int, tuple[int, int]] = {}
    by: dict[int, str] = {}
    t0 = time.process_time()
    saved = [(cls, cls.extend, cls.check) for cls in (encoder.Unrolling, encoder.ReversedUnrolling)]

    def timed(cls: Any, extend: Any, check: Any) -> None:
        name = "reversed" if cls is encoder.ReversedUnrolling else "forward"

        def timed_extend(u: Any) -> None:
            c = time.process_time()
            extend(u)
            encode[u.k] = encode.get(u.k, 0.0) + time.process_time() - c

        def timed_check(u: Any, *a: Any, **kw: Any) -> Any:
            st0 = u.solver.statistics()
            before = [int(st0.get_key_value(k)) if k in st0.keys() else 0 for k in ("conflicts", "decisions")]
            c = time.process_time()
            r = check(u, *a, **kw)
            solve[u.k] = solve.get(u.k, 0.0) + time.process_time() - c
            st = u.solver.statistics()
            after = [int(st.get_key_value(k)) if k in st.keys() else 0 for k in ("conflicts", "decisions")]
            search[u.k] = (after[0] - before[0], after[1] - before[1])
            by[u.k] = name
            return r

        cls.extend, cls.check = timed_extend, timed_check

    def hook(ev: Progress) -> None:
        starts.setdefault(ev.depth, time.process_time() - t0)

    forward_to = bmc.FORWARD_TO
    for cls, extend, check in saved:
        timed(cls, extend, check)
    if forward_only:
        bmc.FORWARD_TO = depth
    try:
        r = bmc.check(s, s.prop("gold is conserved"), Options(depth=depth, timeout=None), progress=hook)
    finally:
        for cls, extend, check in saved:
            cls.extend, cls.check = extend, check
        bmc.FORWARD_TO = forward_to
    total = time.process_time() - t0
    half = starts.get(depth // 2 + 1, total)

    def around(d: dict[int, Any], k: int) -> float:
        """The mean of the 5 depths up to ``k`` (one depth alone is noisy)."""
        xs = [d[j] for j in range(k - 4, k + 1) if j in d]
        return sum(xs) / len(xs) if xs else float("nan")

    mid, end = depth // 2, depth
    return {"verdict_ok": float(r.verdict.value == "holds_to_depth"), "time_half": half, "time_full": total,
            "ratio": total / half if half else float("inf"),
            "reversed_depths": sum(1 for v in by.values() if v == "reversed"),
            "encode_per_depth": (around(encode, mid), around(encode, end)),
            "solve_per_depth": (around(solve, mid), around(solve, end)),
            "conflicts_per_depth": (around({k: v[0] for k, v in search.items()}, mid),
                                    around({k: v[0] for k, v in search.items()}, end)),
            "decisions_per_depth": (around({k: v[1] for k, v in search.items()}, mid),
                                    around({k: v[1] for k, v in search.items()}, end)),
            "per_depth": {k: {"by": by.get(k), "encode": encode.get(k, 0.0), "solve": solve.get(k, 0.0),
                              "search": search.get(k)} for k in sorted(solve)}}


def bundled(baseline: str) -> dict[str, Any]:
    """The bundled check with this code and the baseline's, on the baseline's model and properties."""
    with tempfile.TemporaryDirectory(prefix="rp-baseline-") as tmp:
        arch = subprocess.run(["git", "archive", baseline], cwd=ROOT, capture_output=True, check=True).stdout
        subprocess.run(["tar", "-x", "-C", tmp], input=arch, check=True)
        model = str(Path(tmp) / "model" / "agot")
        new = _ruleproof(["check", model], cwd=Path(tmp))
        old = _ruleproof(["check", model], pythonpath=str(Path(tmp) / "src"), cwd=Path(tmp))
    return {"new": asdict(new), "old": asdict(old), "cpu_ratio": old.cpu / new.cpu, "wall_ratio": old.wall / new.wall}


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--cards", default="2,4,6,8,12,20,40")
    ap.add_argument("--gold", default="20,50")
    ap.add_argument("--spin-cpu", type=float, default=120.0, help="SPIN search CPU limit, seconds")
    ap.add_argument("--spin-wall", type=float, default=900.0, help="SPIN search wall limit, seconds")
    ap.add_argument("--baseline", default=BASELINE, help="the revision whose checker the bundled check compares to")
    ap.add_argument("--rp-timeout", type=float, default=None,
                    help="ruleproof's --timeout per property, wall seconds (default: ruleproof's own, 60; on a loaded "
                         "machine a larger one keeps the verdicts from depending on the load)")
    ap.add_argument("--skip", default="", help="comma-separated parts to leave out: spin, bmc, bundled, table (the "
                    "whole table: SPIN and ruleproof per size)")
    ap.add_argument("--json", default=None, help="also write every measurement to this file")
    a = ap.parse_args(argv)
    skip = set(filter(None, a.skip.split(",")))
    cards = [int(x) for x in a.cards.split(",")]
    golds = [int(x) for x in a.gold.split(",")]
    print(f"load average at start: {os.getloadavg()[0]:.1f} (1 min) on {os.cpu_count()} CPUs\n", flush=True)
    rows = [] if "table" in skip else spin_table(cards, golds, a.spin_cpu, a.spin_wall, "spin" in skip, a.rp_timeout)
    if rows:
        print_table(rows)
    out: dict[str, Any] = {"rows": [asdict(r) for r in rows]}

    print("\nGoals")
    r40 = next((r for r in rows if r.gold == 50 and r.cards == 40), None)
    for r in rows:
        if r.cards == 40:
            print(f"- whole gold check, 40 cards / {r.gold} gold: {r.whole.verdicts}, {r.whole.cpu:.1f} s CPU, "
                  f"{r.whole.wall:.1f} s wall (goal: every result PROVED, under 60 s)")
    done = [r for r in rows if r.spin and r.spin["complete"] and r.spin["cpu"] <= 120]
    if done:
        big = max(done, key=lambda r: (r.spin["states"] or 0) if r.spin else 0)
        assert big.spin is not None
        print(f"- largest size SPIN finished within 120 s CPU: G={big.gold} N={big.cards}, {big.spin['cpu']:.1f} s; "
              f"SPIN / ruleproof CPU: {big.spin['cpu'] / big.conserved.cpu:.0f}x (conservation), "
              f"{big.spin['cpu'] / big.whole.cpu:.0f}x (whole check) (goal: >= 50x)")
    for r in rows:
        if r.spin and not r.spin["complete"]:
            print(f"- SPIN gave up at G={r.gold} N={r.cards}; ruleproof proves conservation there in "
                  f"{r.conserved.cpu:.2f} s CPU ({r.conserved.verdicts}) (goal: under 5 s)")
    c2 = next((r for r in rows if r.gold == 50 and r.cards == 2), None)
    if c2 is not None and r40 is not None:
        print(f"- conservation proof 2 -> 40 cards (G=50): {c2.conserved.cpu:.2f} -> {r40.conserved.cpu:.2f} s CPU, "
              f"{r40.conserved.cpu / c2.conserved.cpu:.2f}x (goal: <= 4x)")
    if "bmc" not in skip:
        out["bmc"] = {}
        for label, fwd in (("BMC", False), ("baseline: the forward unrolling alone", True)):
            b = bmc_scaling(forward_only=fwd)
            out["bmc"]["forward_only" if fwd else "bmc"] = b
            print(f"- {label}, gold conservation at 6 cards: time(20) {b['time_half']:.1f} s, time(40) "
                  f"{b['time_full']:.1f} s CPU, ratio {b['ratio']:.2f} (goal: <= 2.5); verdict holds to depth 40: "
                  f"{bool(b['verdict_ok'])}; depths asked on the reversed unrolling: {b['reversed_depths']}",
                  flush=True)
            (e20, e40), (s20, s40) = b["encode_per_depth"], b["solve_per_depth"]
            (c20, c40), (d20, d40) = b["conflicts_per_depth"], b["decisions_per_depth"]
            print(f"  per depth (mean of depths 16-20 / 36-40): encoding the step {e20:.3f} / {e40:.3f} s CPU, "
                  f"the solver's query {s20:.2f} / {s40:.2f} s CPU, {c20:.0f} / {c40:.0f} conflicts, "
                  f"{d20:.0f} / {d40:.0f} decisions", flush=True)
    if "bundled" not in skip:
        res = bundled(a.baseline)
        out["bundled"] = res
        n, o = res["new"], res["old"]
        print(f"- bundled `ruleproof check` (model of {a.baseline}): this code {n['cpu']:.1f} s CPU / "
              f"{n['wall']:.1f} s wall {n['verdicts']}; baseline {o['cpu']:.1f} s CPU / {o['wall']:.1f} s wall "
              f"{o['verdicts']}; "
              f"{res['cpu_ratio']:.1f}x less CPU (goal: under 60 s wall on an idle 2-core machine)")
    print(f"\nload average at the end: {os.getloadavg()[0]:.1f}")
    if a.json:
        Path(a.json).write_text(json.dumps(out, indent=2, default=str))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
