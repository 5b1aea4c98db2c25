"""Bounded model checking on one incremental solver.

Depths are explored in order 0, 1, 2, ... on one :class:`Unrolling`, each
query asked under an assumption literal, so the first counterexample found
is a shortest one.
"""

from __future__ import annotations

from typing import Sequence

from ..encoder import SatResult, Unrolling, fresh_context
from ..evaluator import Evaluator
from ..ir import Property, PropKind, System
from ..results import Result, Verdict
from .common import Clock, Options, Progress, ProgressFn, replay, result

__all__ = ["check"]


def check(
    system: System,
    prop: Property,
    opts: Options,
    lemmas: Sequence[Property] = (),
    progress: ProgressFn | None = None,
    evaluator: Evaluator | None = None,
) -> Result:
    """Search for a violation (or, for a target, a witness) of length <= ``opts.depth``."""
    fresh_context()  # the answer depends on this query alone, not on what ran before
    clock = Clock(opts.timeout)
    ev = evaluator or Evaluator(system)
    u = Unrolling(system, initial=True, lemmas=lemmas, seed=opts.seed, deadline=clock.deadline)
    reach = prop.kind is PropKind.REACH
    for k in range(opts.depth + 1):
        if progress:
            progress(Progress(system.name, prop.name, "bmc", k, opts.depth))
        if k:
            u.extend()
        goal = u.holds(prop, k) if reach else u.violated(prop, k)
        r = u.check(goal)
        if r is SatResult.SAT:
            trace = replay(system, ev, u.trace(), prop)
            if reach:
                return result(system, prop, Verdict.PROVED, k, "bmc", clock, trace=trace,
                              reason=f"target reached in {k} step{'' if k == 1 else 's'}")
            return result(system, prop, Verdict.VIOLATED, k, "bmc", clock, trace=trace)
        if r is SatResult.UNKNOWN:
            why = f"{u.reason} at depth {k}" + (f"; holds to depth {k - 1}" if k and not reach else "")
            return result(system, prop, Verdict.UNKNOWN, max(k - 1, 0), "bmc", clock, reason=why)
    if reach:
        return result(
            system, prop, Verdict.UNKNOWN, opts.depth, "bmc", clock,
            reason=f"target not reached within {opts.depth} steps",
        )
    return result(system, prop, Verdict.HOLDS_TO_DEPTH, opts.depth, "bmc", clock)
