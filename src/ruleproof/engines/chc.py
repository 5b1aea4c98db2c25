"""Unbounded proofs on Z3's Spacer (constrained Horn clauses).

A proof comes with the inductive invariant Spacer synthesised: it is shown to
the user as the reason the property holds.  When Spacer finds the property
violated, the counterexample is recovered by BMC and replayed; if none is
found within the depth, the answer is UNKNOWN, never VIOLATED without a trace.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Sequence

from ..encoder import SatResult, chc_prove, fresh_context
from ..evaluator import Evaluator
from ..ir import Property, PropKind, System
from ..results import Result, Verdict
from . import bmc
from .common import Clock, Options, Progress, ProgressFn, result

__all__ = ["check"]


def check(
    system: System,
    prop: Property,
    opts: Options,
    lemmas: Sequence[Property] = (),
    progress: ProgressFn | None = None,
    evaluator: Evaluator | None = None,
) -> Result:
    fresh_context()  # the answer depends on this query alone, not on what ran before
    clock = Clock(opts.timeout)
    if progress:
        progress(Progress(system.name, prop.name, "chc", 0, 1))
    ans = chc_prove(system, prop, lemmas, seed=opts.seed, timeout=clock.left())
    reach = prop.kind is PropKind.REACH
    if ans.result is SatResult.SAT:
        if reach:
            return result(
                system, prop, Verdict.VIOLATED, 0, "chc", clock,
                reason="target is unreachable: Spacer found an invariant excluding it", invariant=ans.invariant,
            )
        return result(system, prop, Verdict.PROVED, 0, "chc", clock, reason="inductive invariant found",
                      invariant=ans.invariant)
    if ans.result is SatResult.UNKNOWN:
        return result(system, prop, Verdict.UNKNOWN, 0, "chc", clock, reason=f"spacer: {ans.reason}")
    # Spacer says: violated (or target reachable). Recover a replayed trace by BMC.
    left = clock.left()
    r = bmc.check(system, prop, replace(opts, timeout=left), lemmas, progress, evaluator)
    if r.trace is not None:
        return replace(r, engine="chc", seconds=round(clock.elapsed(), 3))
    return result(
        system, prop, Verdict.UNKNOWN, r.depth, "chc", clock,
        reason=f"spacer reports {'a witness' if reach else 'a violation'} deeper than the BMC depth {opts.depth}; "
               "rerun with a larger --depth",
    )
