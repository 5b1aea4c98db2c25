"""Rule mutants: how many deliberately broken rules does the property suite catch?

Mutants are made on the ground IR of each system, family by family, so that
they mean something to a rules designer:

* ``drop-update``: an action no longer changes one state array (e.g. marshal
  stops returning gold to the treasury);
* ``drop-guard``: an action loses one of its preconditions (e.g. marshal
  without enough gold);
* ``off-by-one``: an action's update to one Int array is one too high.

A mutant is *killed* when some property of the system comes back VIOLATED
(with a replayed trace), *survives* when every property is proved or held,
and is *unknown* otherwise.  ``ruleproof mutants`` prints the score.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from typing import Iterator, Sequence

import click

from . import ir
from .engines.common import Options
from .engines.runner import check_system
from .ir import Action, IntT, System
from .results import Verdict

__all__ = ["Mutant", "MutantResult", "mutants_of", "check_mutant", "run_mutants", "mutants"]


@dataclass(frozen=True)
class Mutant:
    """One broken rule: ``kind`` of change, action ``family``, and what it targets."""

    kind: str
    family: str
    target: str
    system: System

    @property
    def label(self) -> str:
        return f"{self.kind} {self.family}: {self.target}"


@dataclass(frozen=True)
class MutantResult:
    label: str
    status: str  # killed | survived | unknown
    killed_by: tuple[str, ...]
    reason: str = ""  # why a mutant is unknown without being checked (a Dask worker died, a timeout)


_conjuncts = ir.conjuncts


def _with_actions(system: System, fam: str, fn: "callable[[Action], Action]") -> System:  # type: ignore[valid-type]
    acts = tuple(fn(a) if a.family == fam else a for a in system.actions)  # type: ignore[operator]
    return replace(system, actions=acts)


def mutants_of(system: System) -> Iterator[Mutant]:
    """Every mutant of ``system`` in a fixed order."""
    arrays = {v.name: v.array for v in system.vars}
    types = {v.name: v.type for v in system.vars}
    for fam in system.families():
        insts = [a for a in system.actions if a.family == fam]
        if not insts:
            continue
        updated: dict[str, None] = {}
        for a in insts:
            for u in a.updates:
                updated.setdefault(arrays[u.var], None)
        for arr in updated:
            yield Mutant("drop-update", fam, arr, _with_actions(
                system, fam, lambda a, arr=arr: replace(a, updates=tuple(u for u in a.updates if arrays[u.var] != arr))))
        width = max(len(_conjuncts(a.guard)) for a in insts)
        for i in range(width):
            def drop(a: Action, i: int = i) -> Action:
                cs = _conjuncts(a.guard)
                return replace(a, guard=ir.and_(*(c for j, c in enumerate(cs) if j != i))) if i < len(cs) else a
            yield Mutant("drop-guard", fam, f"precondition {i + 1}", _with_actions(system, fam, drop))
        for arr in updated:
            if not any(isinstance(types[u.var], IntT) and arrays[u.var] == arr for a in insts for u in a.updates):
                continue
            yield Mutant("off-by-one", fam, arr, _with_actions(
                system, fam, lambda a, arr=arr: replace(a, updates=tuple(
                    ir.Update(u.var, ir.add(u.expr, ir.const(1))) if arrays[u.var] == arr else u for u in a.updates))))


def check_mutant(m: Mutant, opts: Options) -> MutantResult:
    """Check one mutant against its system's properties: killed, survived or unknown."""
    from .scale.isolation import fresh_solver_context

    fresh_solver_context()  # the answer depends on the mutant alone, in-process or on a Dask worker
    results = check_system(m.system, "auto", opts)
    killed = tuple(r.property for r in results if r.verdict is Verdict.VIOLATED)
    status = "killed" if killed else ("unknown" if any(r.verdict is Verdict.UNKNOWN for r in results) else "survived")
    return MutantResult(m.label, status, killed)


def run_mutants(systems: Sequence[System], opts: Options, limit: int | None = None) -> list[tuple[str, MutantResult]]:
    """Check every mutant (up to ``limit`` per system) against its system's properties."""
    out: list[tuple[str, MutantResult]] = []
    for s in systems:
        for n, m in enumerate(mutants_of(s)):
            if limit is not None and n >= limit:
                break
            out.append((f"{s.name}[{s.scenario}]", check_mutant(m, opts)))
    return out


@click.command()
@click.argument("model", required=False)
@click.option("--depth", type=int, default=6, show_default=True)
@click.option("--timeout", type=float, default=10.0, show_default=True, help="Seconds per property.")
@click.option("--limit", type=int, default=None, help="At most this many mutants per system.")
@click.option("--json", "as_json", is_flag=True)
@click.option("--workers", type=int, default=None, help="Check mutants on a local Dask cluster of N worker processes.")
@click.option("--scheduler", default=None, metavar="ADDRESS", help="Check mutants on the Dask scheduler at ADDRESS.")
def mutants(model: str | None, depth: int, timeout: float, limit: int | None, as_json: bool,
            workers: int | None, scheduler: str | None) -> int:
    """Generate rule mutants of MODEL (default: bundled AGoT) and report how many the properties kill."""
    from .cli import _streams
    from .loader import discover, load_system

    s = _streams()
    systems = [load_system(spec, spec.checked[0]) for spec in discover(model)]
    opts = Options(depth=depth, kmax=4, timeout=timeout)
    if workers is None and scheduler is None:
        res = run_mutants(systems, opts, limit)
    else:
        from .cli import _ProgressSink
        from .scale.mutants import mutants_on_cluster

        with _ProgressSink(s.err, not as_json) as sink:
            res = mutants_on_cluster(model, systems, opts, limit, sink, workers=workers, scheduler=scheduler)
    killed = sum(1 for _, r in res if r.status == "killed")
    if as_json:
        s.out.write(json.dumps({"version": 1, "model": model or "agot (bundled)", "total": len(res), "killed": killed,
                                "mutants": [{"system": sy, "mutant": r.label, "status": r.status,
                                             "killed_by": list(r.killed_by), **({"reason": r.reason} if r.reason else {})}
                                            for sy, r in res]}, indent=2) + "\n")
    else:
        for sy, r in res:
            by = f" (by: {r.killed_by[0]}{' +' + str(len(r.killed_by) - 1) if len(r.killed_by) > 1 else ''})" if r.killed_by else ""
            s.out.write(f"{r.status:<8}  {sy}  {r.label}{by}" + (f" ({r.reason})" if r.reason else "") + "\n")
        score = f"{killed}/{len(res)}" if res else "0/0"
        s.out.write(f"\nmutation score: {score} mutants killed\n")
    return 0
