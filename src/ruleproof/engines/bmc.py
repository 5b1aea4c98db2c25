"""Bounded model checking on one incremental solver.

For an invariant or action property, depths are explored in order 0, 1, 2,
... on one :class:`Unrolling`, each query asked under an assumption literal,
so the first counterexample found is a shortest one.  Once depth ``k`` has no
violation, the property is asserted at state ``k``: a first violation deeper
down satisfies it there, so no counterexample is lost, and the solver need
not rediscover the first ``k`` depths (gold conservation at 6 cards to depth
20: 6 s of CPU instead of 114 s; the per-depth cost still grows with the
depth, more slowly).

For a target (a ``REACH`` property), paths may stand still once the target
holds, so "the target at state k" means "within k steps":

1. :func:`~ruleproof.engines.simulate.lower_bound` may show that every
   witness needs more steps than the depth (said as such, at once); no depth
   below the bound is asked about (those are the hard "not yet" queries);
2. for a target of several conditions that needs many steps
   (:data:`SIMULATE_FROM`), a guided simulation on the concrete evaluator
   proposes a witness; it is shortened by asking for the target
   within one step less, until the lower bound is met, a query says no
   shorter one exists, or a query exceeds its resource limit
   (:data:`SHORTEN_RLIMIT`, deterministic: the same witness on every run);
3. otherwise depths are asked in order from the lower bound, so the first
   witness is a shortest one.
"""

from __future__ import annotations

from typing import Sequence

from ..encoder import SatResult, Unrolling, fresh_context
from ..evaluator import Evaluator
from ..ir import Property, PropKind, System, conjuncts
from ..results import RawTrace, Result, Verdict
from .common import Clock, Options, Progress, ProgressFn, replay, result
from .simulate import lower_bound, simulate

__all__ = ["check", "SHORTEN_RLIMIT", "SIMULATE_FROM"]

SIMULATE_FROM = 8
"""A target that needs at least this many steps (and has several conditions) is first searched by simulation:
below it, asking depth by depth is cheap."""
SHORTEN_RLIMIT = 5_000_000
"""Z3 resource limit of each query that looks for a shorter witness (a deterministic budget, not a time)."""


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
    if prop.kind is PropKind.REACH:
        return _target(system, prop, opts, lemmas, progress, ev, clock)
    u = Unrolling(system, initial=True, lemmas=lemmas, seed=opts.seed, deadline=clock.deadline)
    for k in range(opts.depth + 1):
        if progress:
            progress(Progress(system.name, prop.name, "bmc", k, opts.depth))
        if k:
            u.extend()
        r = u.check(u.violated(prop, k))
        if r is SatResult.SAT:
            return result(system, prop, Verdict.VIOLATED, k, "bmc", clock, trace=replay(system, ev, u.trace(), prop))
        if r is SatResult.UNKNOWN:
            why = f"{u.reason} at depth {k}" + (f"; holds to depth {k - 1}" if k else "")
            return result(system, prop, Verdict.UNKNOWN, max(k - 1, 0), "bmc", clock, reason=why)
        u.assert_(u.holds(prop, k))
    return result(system, prop, Verdict.HOLDS_TO_DEPTH, opts.depth, "bmc", clock)


def _target(system: System, prop: Property, opts: Options, lemmas: Sequence[Property],
            progress: ProgressFn | None, ev: Evaluator, clock: Clock) -> Result:
    depth = opts.depth
    bound = lower_bound(system, prop, ev)
    if bound.steps is None or bound.steps > depth:
        needs = "it can never be reached" if bound.steps is None else f"it needs at least {bound.steps} steps"
        return result(system, prop, Verdict.UNKNOWN, depth, "bmc", clock,
                      reason=f"target not reached within {depth} steps: {needs} ({bound.why})")
    least = bound.steps
    found = None
    if least >= SIMULATE_FROM and len(conjuncts(prop.expr)) > 1:
        found = simulate(system, prop, ev, steps=depth, lemmas=lemmas, seed=opts.seed, deadline=clock.deadline)
    u = Unrolling(system, initial=True, lemmas=lemmas, seed=opts.seed, deadline=clock.deadline, stop=prop)

    def grow(k: int) -> None:
        while u.k < k:
            if progress:
                progress(Progress(system.name, prop.name, "bmc", u.k + 1, depth))
            u.extend()

    if found is None:
        # depth by depth from the lower bound: the first witness is a shortest one
        for k in range(least, depth + 1):
            grow(k)
            r = u.check(u.holds(prop, k))
            if r is SatResult.SAT:
                found = _first_hit(u.trace(), ev, prop)
                break
            if r is SatResult.UNKNOWN:
                return result(system, prop, Verdict.UNKNOWN, max(k - 1, 0), "bmc", clock,
                              reason=f"{u.reason} at depth {k}")
            u.assert_(u.violated(prop, k))  # not within k steps: a first witness reaches it later
        else:
            return result(system, prop, Verdict.UNKNOWN, depth, "bmc", clock,
                          reason=f"target not reached within {depth} steps")
    note = ""
    while len(found.steps) > least:
        j = len(found.steps) - 1
        grow(j)
        r = u.check(u.holds(prop, j), rlimit=SHORTEN_RLIMIT)
        if r is SatResult.SAT:
            found = _first_hit(u.trace(), ev, prop)
        else:
            if r is SatResult.UNKNOWN:
                note = f"; a shorter one was not found ({u.reason})"
            break
    trace = replay(system, ev, found, prop)
    n = len(found.steps)
    return result(system, prop, Verdict.PROVED, n, "bmc", clock, trace=trace,
                  reason=f"target reached in {n} step{'' if n == 1 else 's'}{note}")


def _first_hit(raw: RawTrace, ev: Evaluator, prop: Property) -> RawTrace:
    """``raw`` up to the first state where target ``prop`` holds."""
    for i, s in enumerate(raw.states):
        if ev.holds(prop, s):
            return RawTrace(raw.states[: i + 1], raw.steps[:i])
    return raw  # replay reports a witness that does not reach its target
