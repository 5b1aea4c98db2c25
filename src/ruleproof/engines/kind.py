"""k-induction with simple-path strengthening.

Base case: BMC from the initial states.  Step case: on a path from any state
on which the property holds for k consecutive states (steps) and the states
are pairwise distinct, it holds on the next.  For an action property the
state after the violating step is left out of the distinctness constraint
(a shortest counterexample may end with a step back to an earlier state, or
a step that changes nothing).  Proved lemmas are assumed at
every state of both.
"""

from __future__ import annotations

from typing import Sequence

from ..encoder import SatResult, Unrolling, fresh_context, one_step
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
    """Prove ``prop`` k-inductive for some ``k <= opts.kmax`` or find a violation."""
    fresh_context()  # the answer depends on this query alone, not on what ran before
    clock = Clock(opts.timeout)
    if prop.kind is PropKind.REACH:
        return result(system, prop, Verdict.UNKNOWN, 0, "kind", clock, reason="k-induction does not search for targets")
    if progress:
        progress(Progress(system.name, prop.name, "kind", 0, opts.kmax))
    if one_step(system, opts.seed).proves(prop, lemmas, clock.deadline):
        return result(system, prop, Verdict.PROVED, 1, "kind", clock, reason="1-inductive")
    ev = evaluator or Evaluator(system)
    base = Unrolling(system, initial=True, lemmas=lemmas, seed=opts.seed, deadline=clock.deadline)
    step = Unrolling(system, initial=False, lemmas=lemmas, seed=opts.seed, deadline=clock.deadline)
    for k in range(opts.kmax + 1):
        if progress and k:
            progress(Progress(system.name, prop.name, "kind", k, opts.kmax))
        if k:
            base.extend()
        r = base.check(base.violated(prop, k))
        if r is SatResult.SAT:
            trace = replay(system, ev, base.trace(), prop)
            return result(system, prop, Verdict.VIOLATED, k, "kind", clock, trace=trace)
        if r is SatResult.UNKNOWN:
            return result(system, prop, Verdict.UNKNOWN, max(k - 1, 0), "kind", clock,
                          reason=f"base case: {base.reason}")
        base.assert_(base.holds(prop, k))  # no violation within k steps: a first one deeper satisfies it here
        # step: P on s0..sk (steps 1..k), states distinct, P fails at s(k+1).
        # For an action property the violating step may return to an earlier
        # state (even change nothing): only s0..sk are required distinct.
        step.assert_(step.holds(prop, step.k))
        step.extend()
        last = step.k if prop.kind is not PropKind.ACTION else step.k - 1
        for i in range(last):
            step.assert_(step.distinct(i, last))
        r = step.check(step.violated(prop, step.k))
        if r is SatResult.UNSAT:
            return result(
                system, prop, Verdict.PROVED, k + 1, "kind", clock, reason=f"{k + 1}-inductive"
            )
        if r is SatResult.UNKNOWN:
            return result(
                system, prop, Verdict.HOLDS_TO_DEPTH, k, "kind", clock, reason=f"induction step: {step.reason}"
            )
    return result(
        system, prop, Verdict.HOLDS_TO_DEPTH, opts.kmax, "kind", clock,
        reason=f"not k-inductive for k <= {opts.kmax + 1}",
    )
