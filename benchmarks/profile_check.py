"""Where the time of a ``ruleproof check`` goes, by phase.

    PYTHONHASHSEED=0 python benchmarks/profile_check.py [--json] -- check MODEL [check options ...]

Runs the command in this process (its own output is discarded) with
counters wrapped around ruleproof's main functions, then prints wall and CPU
seconds per phase: import, load (discover, build, ground), coverage, every
engine query (per property and attempt, with the number of lemmas it had,
its verdict and the engine that answered), replay of traces, and the rest
(report, CLI).  Below the phases, across them: step encoding
(``Unrolling.extend``), solving (``Unrolling.check``), the CHC encoding and
Spacer (``chc_prove``) and the guided simulation.  CPU time is
``time.process_time()`` (the machine's load changes wall time, hardly CPU).
"""

from __future__ import annotations

import argparse
import io
import json
import sys
import time
from dataclasses import dataclass, field, replace
from typing import Any, Callable

T0_WALL, T0_CPU = time.perf_counter(), time.process_time()
import ruleproof.cli as cli  # noqa: E402 - the import is the first phase measured

IMPORT_WALL, IMPORT_CPU = time.perf_counter() - T0_WALL, time.process_time() - T0_CPU

from ruleproof import encoder, loader  # noqa: E402
from ruleproof.engines import bmc, common, registry, runner, simulate  # noqa: E402, F401 - wrapped below


@dataclass
class Counter:
    """Time spent inside one wrapped function (outermost calls only)."""

    wall: float = 0.0
    cpu: float = 0.0
    calls: int = 0
    depth: int = 0


@dataclass
class Query:
    prop: str
    lemmas: int
    verdict: str = ""
    engine: str = ""
    wall: float = 0.0
    cpu: float = 0.0


@dataclass
class Profile:
    counters: dict[str, Counter] = field(default_factory=dict)
    queries: list[Query] = field(default_factory=list)

    def wrap(self, name: str, fn: Callable[..., Any]) -> Callable[..., Any]:
        c = self.counters.setdefault(name, Counter())

        def wrapped(*args: Any, **kw: Any) -> Any:
            if c.depth:
                return fn(*args, **kw)
            c.depth += 1
            w, p = time.perf_counter(), time.process_time()
            try:
                return fn(*args, **kw)
            finally:
                c.wall += time.perf_counter() - w
                c.cpu += time.process_time() - p
                c.calls += 1
                c.depth -= 1

        return wrapped

    def wrap_query(self, fn: Callable[..., Any]) -> Callable[..., Any]:
        def wrapped(system: Any, prop: Any, engine: str, opts: Any, lemmas: Any = (), *a: Any, **kw: Any) -> Any:
            q = Query(prop.name, len(lemmas))
            w, p = time.perf_counter(), time.process_time()
            r = fn(system, prop, engine, opts, lemmas, *a, **kw)
            q.wall, q.cpu = time.perf_counter() - w, time.process_time() - p
            q.verdict, q.engine = r.verdict.value, r.engine
            self.queries.append(q)
            return r

        return wrapped


def instrument(prof: Profile) -> None:
    loader.load_all = prof.wrap("load", loader.load_all)
    runner.coverage = prof.wrap("coverage", runner.coverage)
    runner.check_property = prof.wrap_query(runner.check_property)
    replay = prof.wrap("replay", common.replay)
    for mod_name in ("common", "bmc", "kind", "explicit", "chc"):
        mod = sys.modules[f"ruleproof.engines.{mod_name}"]
        if hasattr(mod, "replay"):
            mod.replay = replay  # type: ignore[attr-defined]
    encoder.Unrolling.extend = prof.wrap("step encoding (Unrolling.extend)", encoder.Unrolling.extend)  # type: ignore
    encoder.Unrolling.check = prof.wrap("solving (Unrolling.check)", encoder.Unrolling.check)  # type: ignore
    chc_mod = sys.modules["ruleproof.engines.chc"]
    chc_mod.chc_prove = prof.wrap("CHC encoding + Spacer (chc_prove)", encoder.chc_prove)  # type: ignore[attr-defined]
    bmc.simulate = prof.wrap("guided simulation", simulate.simulate)  # type: ignore[attr-defined]
    for name, e in list(registry.REGISTRY.items()):
        registry.REGISTRY[name] = replace(e, check=prof.wrap(f"engine {name}", e.check))  # type: ignore[index]


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--json", action="store_true", help="print the profile as one JSON object")
    ap.add_argument("command", nargs=argparse.REMAINDER, help="the ruleproof command line after --")
    a = ap.parse_args(argv)
    command = a.command[1:] if a.command[:1] == ["--"] else a.command
    if not command or command[0] != "check":
        ap.error("give a 'check' command line after --")
    prof = Profile()
    instrument(prof)
    out, err = io.StringIO(), io.StringIO()
    w, p = time.perf_counter(), time.process_time()
    code = cli.run(command, out, err)
    total_wall, total_cpu = time.perf_counter() - w + IMPORT_WALL, time.process_time() - p + IMPORT_CPU
    phases: list[tuple[str, float, float]] = [("import ruleproof.cli", IMPORT_WALL, IMPORT_CPU)]
    for name in ("load", "coverage"):
        c = prof.counters[name]
        phases.append((name, c.wall, c.cpu))
    for i, q in enumerate(prof.queries, 1):
        phases.append((f"query {i}: {q.prop[:60]} ({q.lemmas} lemmas) -> {q.verdict} {q.engine}", q.wall, q.cpu))
    rep = prof.counters["replay"]
    phases.append(("replay of traces (inside the queries)", rep.wall, rep.cpu))
    accounted = sum(x[1] for x in phases[:-1]), sum(x[2] for x in phases[:-1])
    phases.append(("rest (report, CLI, explanations)", total_wall - accounted[0], total_cpu - accounted[1]))
    across = [(n, c.wall, c.cpu, c.calls) for n, c in prof.counters.items()
              if n not in ("load", "coverage", "replay") and c.calls]
    if a.json:
        print(json.dumps({"command": command, "exit": code, "wall": total_wall, "cpu": total_cpu,
                          "phases": [{"phase": n, "wall": w_, "cpu": c_} for n, w_, c_ in phases],
                          "across": [{"what": n, "wall": w_, "cpu": c_, "calls": k} for n, w_, c_, k in across]},
                         indent=2))
        return 0
    print(f"ruleproof {' '.join(command)}")
    print(f"exit {code}; total {total_wall:.2f} s wall, {total_cpu:.2f} s CPU\n")
    width = max(len(n) for n, _w, _c in phases)
    print(f"{'phase':<{width}}  {'wall s':>8}  {'CPU s':>8}  {'% CPU':>6}")
    for n, w_, c_ in phases:
        print(f"{n:<{width}}  {w_:8.2f}  {c_:8.2f}  {100 * c_ / max(total_cpu, 1e-9):6.1f}")
    print("\nacross phases:")
    for n, w_, c_, k in across:
        print(f"  {n:<{width - 2}}  {w_:8.2f}  {c_:8.2f}  ({k} calls)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
