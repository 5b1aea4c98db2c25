"""Where the time of a ``ruleproof check`` goes, by phase.

    PYTHONHASHSEED=0 python benchmarks/profile_check.py [--json] -- check MODEL [check options ...]

Runs the command in this process (its own output is discarded unless
``--output FILE``) with
counters wrapped around ruleproof's main functions, then prints wall and CPU
seconds per phase: import, load (discover, build, ground), coverage, every
attempt of the lemma fixpoint (per system, property and stage, with the
number of lemmas it had, its verdict and the engine that answered), a
total per system, replay of traces, and the rest
(report, CLI).  Below the phases, across them: step encoding
(``Unrolling.extend``), solving (``Unrolling.check``), k-induction's first
round on the solvers kept per system (``OneStep.proves``), coverage's
exploration of small state spaces, the CHC encoding and Spacer
(``chc_prove``) and the guided simulation.  CPU time is
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
    system: str
    prop: str
    lemmas: int
    stage: str = ""
    verdict: str = ""
    engine: str = ""
    wall: float = 0.0
    cpu: float = 0.0


@dataclass
class Profile:
    counters: dict[str, Counter] = field(default_factory=dict)
    queries: list[Query] = field(default_factory=list)
    coverage: dict[str, tuple[float, float]] = field(default_factory=dict)

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

    def wrap_attempt(self, fn: Callable[..., Any]) -> Callable[..., Any]:
        """One attempt of the lemma fixpoint (``runner._guarded``): its system, property, lemmas and stage."""

        def wrapped(system: Any, prop: Any, engine: str, opts: Any, check: Any) -> Any:
            args = getattr(check, "args", ())
            lemmas = next((a for a in args if isinstance(a, list)), [])
            stage = "early" if args and args[-1] is True else "stages" if engine == "auto" else engine
            q = Query(f"{system.name}[{system.scenario}]", prop.name, len(lemmas), stage)
            w, p = time.perf_counter(), time.process_time()
            r = fn(system, prop, engine, opts, check)
            q.wall, q.cpu = time.perf_counter() - w, time.process_time() - p
            q.verdict, q.engine = r.verdict.value, r.engine
            self.queries.append(q)
            return r

        return wrapped

    def wrap_coverage(self, fn: Callable[..., Any]) -> Callable[..., Any]:
        def wrapped(system: Any, *a: Any, **kw: Any) -> Any:
            w, p = time.perf_counter(), time.process_time()
            try:
                return fn(system, *a, **kw)
            finally:
                key = f"{system.name}[{system.scenario}]"
                old = self.coverage.get(key, (0.0, 0.0))
                self.coverage[key] = (old[0] + time.perf_counter() - w, old[1] + time.process_time() - p)

        return wrapped


def instrument(prof: Profile) -> None:
    from ruleproof.scale import check as scale_check
    from ruleproof.scale import systems

    loader.load_system = systems.load_system = prof.wrap("load", loader.load_system)
    scale_check.check_system = prof.wrap("check_system", scale_check.check_system)
    runner._guarded_coverage = prof.wrap_coverage(prof.wrap("coverage", runner._guarded_coverage))
    runner._guarded = prof.wrap_attempt(runner._guarded)
    replay = prof.wrap("replay", common.replay)
    for mod_name in ("common", "bmc", "kind", "explicit", "chc"):
        mod = sys.modules[f"ruleproof.engines.{mod_name}"]
        if hasattr(mod, "replay"):
            mod.replay = replay  # type: ignore[attr-defined]
    encoder.Unrolling.extend = prof.wrap("step encoding (Unrolling.extend)", encoder.Unrolling.extend)  # type: ignore
    encoder.Unrolling.check = prof.wrap("solving (Unrolling.check)", encoder.Unrolling.check)  # type: ignore
    encoder._Relation.__init__ = prof.wrap("building relations (_Relation)", encoder._Relation.__init__)  # type: ignore
    encoder.OneStep.proves = prof.wrap("1-induction on shared solvers (OneStep.proves)",  # type: ignore
                                       encoder.OneStep.proves)
    explicit = sys.modules["ruleproof.engines.explicit"]
    explicit.first_steps = prof.wrap("coverage: small state spaces explored whole",  # type: ignore[attr-defined]
                                     explicit.first_steps)
    chc_mod = sys.modules["ruleproof.engines.chc"]
    chc_mod.chc_prove = prof.wrap("CHC encoding + Spacer (chc_prove)", encoder.chc_prove)  # type: ignore[attr-defined]
    bmc.simulate = prof.wrap("guided simulation", simulate.simulate)
    for name, e in list(registry.REGISTRY.items()):
        registry.REGISTRY[name] = replace(e, check=prof.wrap(f"engine {name}", e.check))  # type: ignore[index]


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--json", action="store_true", help="print the profile as one JSON object")
    ap.add_argument("--output", metavar="FILE", help="also write the command's own output to FILE (compare verdicts)")
    ap.add_argument("--top", type=int, default=None, metavar="N", help="list only the N costliest attempts")
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
    if a.output:
        with open(a.output, "w", encoding="utf-8") as f:
            f.write(out.getvalue())
    phases: list[tuple[str, float, float]] = [("import ruleproof.cli", IMPORT_WALL, IMPORT_CPU)]
    for name in ("load", "coverage"):
        c = prof.counters[name]
        phases.append((name, c.wall, c.cpu))
    for i, q in enumerate(prof.queries, 1):
        phases.append((f"query {i}: {q.system} {q.prop[:60]} ({q.stage}, {q.lemmas} lemmas) -> {q.verdict} {q.engine}",
                       q.wall, q.cpu))
    rep = prof.counters["replay"]
    phases.append(("replay of traces (inside the queries)", rep.wall, rep.cpu))
    accounted = sum(x[1] for x in phases[:-1]), sum(x[2] for x in phases[:-1])
    phases.append(("rest (report, CLI, explanations)", total_wall - accounted[0], total_cpu - accounted[1]))
    across = [(n, c.wall, c.cpu, c.calls) for n, c in prof.counters.items()
              if n not in ("load", "coverage", "replay") and c.calls]
    systems: dict[str, list[float]] = {}
    for key, (w_, c_) in prof.coverage.items():
        systems.setdefault(key, [0.0, 0.0, 0.0, 0])[:2] = [w_, c_]
    for q in prof.queries:
        row = systems.setdefault(q.system, [0.0, 0.0, 0.0, 0])
        row[2] += q.cpu
        row[3] += 1
    if a.json:
        print(json.dumps({"command": command, "exit": code, "wall": total_wall, "cpu": total_cpu,
                          "phases": [{"phase": n, "wall": w_, "cpu": c_} for n, w_, c_ in phases],
                          "queries": [vars(q) for q in prof.queries],
                          "systems": {k: {"coverage_wall": v[0], "coverage_cpu": v[1], "queries_cpu": v[2],
                                          "attempts": v[3]} for k, v in systems.items()},
                          "across": [{"what": n, "wall": w_, "cpu": c_, "calls": k} for n, w_, c_, k in across]},
                         indent=2))
        return 0
    print(f"ruleproof {' '.join(command)}")
    print(f"exit {code}; total {total_wall:.2f} s wall, {total_cpu:.2f} s CPU\n")
    shown = phases
    if a.top is not None:
        costly = sorted(phases[3:-2], key=lambda x: -x[2])[: a.top]
        shown = phases[:3] + [x for x in phases[3:-2] if x in costly] + phases[-2:]
        print(f"(the {a.top} costliest of {len(phases) - 5} attempts, in the order they ran)\n")
    width = max(len(n) for n, _w, _c in shown)
    print(f"{'phase':<{width}}  {'wall s':>8}  {'CPU s':>8}  {'% CPU':>6}")
    for n, w_, c_ in shown:
        print(f"{n:<{width}}  {w_:8.2f}  {c_:8.2f}  {100 * c_ / max(total_cpu, 1e-9):6.1f}")
    print("\nper system (CPU s): coverage, every attempt of its properties")
    for key, (_cw, cc, qc, k) in sorted(systems.items(), key=lambda kv: -(kv[1][1] + kv[1][2])):
        print(f"  {key:<40}  coverage {cc:7.2f}  properties {qc:7.2f}  ({int(k)} attempts)")
    print("\nacross phases:")
    for n, w_, c_, k in across:
        print(f"  {n:<40}  {w_:8.2f}  {c_:8.2f}  ({k} calls)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
