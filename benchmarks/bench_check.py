"""The bundled ``ruleproof check``: this checkout against a baseline commit, in one run.

Run from the project root (on a shared machine, with ``nice``)::

    PYTHONHASHSEED=0 nice -n 10 python benchmarks/bench_check.py --baseline REF [--json] [-- CHECK OPTIONS]

It makes a detached git worktree of ``REF`` in a temporary directory and
runs ``python -m ruleproof check --json`` (plus the options after ``--``)
twice, one after the other in child processes: with the baseline's sources
first, then with this checkout's.  For each it reports the CPU seconds of
the child (user + system, from ``wait4``), the wall seconds, the peak
resident memory, the exit status and the results by verdict; then the
ratios (this checkout over the baseline) and whether both runs gave the
same verdict for every (system, scenario, property) they share, listing
those that differ and those only one side has (a property added or
removed between the two commits).  The machine's load average before and
after is printed: wall time depends on it, CPU time much less.  Nothing
here is asserted: it measures.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
ENTRY = "import sys; from ruleproof.cli import entry; sys.argv[0] = 'ruleproof'; entry()"


@dataclass
class Run:
    label: str
    cpu: float
    wall: float
    peak_mib: float
    exit: int
    verdicts: dict[tuple[str, str, str], str]


def _run(label: str, src: Path, options: list[str]) -> Run:
    env = dict(os.environ, PYTHONPATH=str(src), PYTHONHASHSEED=os.environ.get("PYTHONHASHSEED", "0"))
    with tempfile.TemporaryFile() as out:
        w = time.perf_counter()
        proc = subprocess.Popen([sys.executable, "-c", ENTRY, "check", "--json", *options], stdout=out,
                                stderr=subprocess.DEVNULL, env=env, cwd=src.parent)
        _pid, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - w
        proc.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        text = out.read().decode()
    verdicts: dict[tuple[str, str, str], str] = {}
    try:
        for r in json.loads(text)["results"]:
            verdicts[r["system"], r["scenario"], r["property"]] = r["verdict"]
    except (ValueError, KeyError):
        pass  # no report: the exit status says why
    return Run(label, usage.ru_utime + usage.ru_stime, wall, usage.ru_maxrss / 1024, proc.returncode, verdicts)


def _by_verdict(r: Run) -> dict[str, int]:
    out: dict[str, int] = {}
    for v in r.verdicts.values():
        out[v] = out.get(v, 0) + 1
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--baseline", required=True, metavar="REF", help="the commit to compare with (e.g. main~3)")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("options", nargs=argparse.REMAINDER, help="check options after --")
    a = ap.parse_args()
    options = a.options[1:] if a.options[:1] == ["--"] else a.options
    base_commit = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", a.baseline], check=True,
                                 capture_output=True, text=True).stdout.strip()
    head = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"], check=True,
                          capture_output=True, text=True).stdout.strip()
    dirty = bool(subprocess.run(["git", "-C", str(ROOT), "status", "--porcelain", "--untracked-files=no"],
                                check=True, capture_output=True, text=True).stdout.strip())
    load_before = os.getloadavg()
    with tempfile.TemporaryDirectory(prefix="bench_check_") as tmp:
        tree = Path(tmp) / "baseline"
        subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", str(tree), base_commit], check=True,
                       capture_output=True)
        try:
            base = _run(f"baseline {base_commit}", tree / "src", options)
        finally:
            subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(tree)], check=False,
                           capture_output=True)
    this = _run(f"this checkout {head}{' (modified)' if dirty else ''}", ROOT / "src", options)
    load_after = os.getloadavg()
    shared = sorted(set(base.verdicts) & set(this.verdicts))
    differ = [(k, base.verdicts[k], this.verdicts[k]) for k in shared if base.verdicts[k] != this.verdicts[k]]
    summary: dict[str, Any] = {
        "command": ["ruleproof", "check", "--json", *options],
        "load_average_before": [round(x, 2) for x in load_before],
        "load_average_after": [round(x, 2) for x in load_after],
        "runs": [{"label": r.label, "cpu_seconds": round(r.cpu, 1), "wall_seconds": round(r.wall, 1),
                  "peak_rss_mib": round(r.peak_mib, 1), "exit": r.exit, "results": len(r.verdicts),
                  "by_verdict": _by_verdict(r)} for r in (base, this)],
        "cpu_ratio": round(this.cpu / base.cpu, 3) if base.cpu else None,
        "wall_ratio": round(this.wall / base.wall, 3) if base.wall else None,
        "shared_results": len(shared),
        "same_verdicts": not differ,
        "differing": [{"result": list(k), "baseline": b, "this": t} for k, b, t in differ],
        "only_baseline": [list(k) for k in sorted(set(base.verdicts) - set(this.verdicts))],
        "only_this": [list(k) for k in sorted(set(this.verdicts) - set(base.verdicts))],
    }
    if a.json:
        print(json.dumps(summary, indent=2))
        return
    print(f"ruleproof check --json {' '.join(options)}  (load average before {load_before[0]:.2f}, "
          f"after {load_after[0]:.2f})")
    for r in summary["runs"]:
        print(f"  {r['label']:<32} CPU {r['cpu_seconds']:7.1f} s  wall {r['wall_seconds']:7.1f} s  "
              f"peak {r['peak_rss_mib']:6.1f} MiB  exit {r['exit']}  {r['results']} results {r['by_verdict']}")
    print(f"  CPU ratio (this / baseline) {summary['cpu_ratio']}, wall ratio {summary['wall_ratio']}")
    print(f"  {len(shared)} results in both runs; same verdicts: {summary['same_verdicts']}")
    for d in summary["differing"]:
        print(f"    differs: {d['result']}: {d['baseline']} -> {d['this']}")
    print(f"  only in the baseline: {len(summary['only_baseline'])}, only in this checkout: "
          f"{len(summary['only_this'])}")


if __name__ == "__main__":
    main()
