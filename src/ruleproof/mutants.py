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
and is *unknown* otherwise.  ``ruleproof mutants`` (:mod:`ruleproof.cli`) prints the score.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Callable, Iterator

from . import ir
from .encoder import fresh_context
from .engines.common import Options
from .engines.runner import check_system
from .ir import Action, IntT, System
from .results import Verdict

__all__ = ["Mutant", "MutantResult", "mutants_of", "check_mutant"]


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
    reason: str = ""  # why a mutant is unknown (a property's budget, a Dask worker died, ...)


_conjuncts = ir.conjuncts


def _with_actions(system: System, fam: str, fn: Callable[[Action], Action]) -> System:
    acts = tuple(fn(a) if a.family == fam else a for a in system.actions)
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
            def without(a: Action, arr: str = arr) -> Action:
                return replace(a, updates=tuple(u for u in a.updates if arrays[u.var] != arr))
            yield Mutant("drop-update", fam, arr, _with_actions(system, fam, without))
        width = max(len(_conjuncts(a.guard)) for a in insts)
        for i in range(width):
            def drop(a: Action, i: int = i) -> Action:
                cs = _conjuncts(a.guard)
                return replace(a, guard=ir.and_(*(c for j, c in enumerate(cs) if j != i))) if i < len(cs) else a
            yield Mutant("drop-guard", fam, f"precondition {i + 1}", _with_actions(system, fam, drop))
        for arr in updated:
            if not any(isinstance(types[u.var], IntT) and arrays[u.var] == arr for a in insts for u in a.updates):
                continue

            def plus_one(a: Action, arr: str = arr) -> Action:
                return replace(a, updates=tuple(
                    ir.Update(u.var, ir.add(u.expr, ir.const(1))) if arrays[u.var] == arr else u for u in a.updates))
            yield Mutant("off-by-one", fam, arr, _with_actions(system, fam, plus_one))


def check_mutant(m: Mutant, opts: Options) -> MutantResult:
    """Check one mutant against its system's properties: killed, survived or unknown."""
    fresh_context()  # the answer depends on the mutant alone, in-process or on a Dask worker
    results = check_system(m.system, "auto", opts)
    killed = tuple(r.property for r in results if r.verdict is Verdict.VIOLATED)
    unknown = [r for r in results if r.verdict is Verdict.UNKNOWN]
    if killed:
        return MutantResult(m.label, "killed", killed)
    if unknown:
        more = f" (and {len(unknown) - 1} more unknown)" if len(unknown) > 1 else ""
        return MutantResult(m.label, "unknown", (), f"{unknown[0].property}: {unknown[0].reason}{more}")
    return MutantResult(m.label, "survived", ())
