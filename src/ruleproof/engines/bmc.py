"""Bounded model checking on one incremental solver.

For an invariant or action property, depths are explored in order 0, 1, 2,
... on one :class:`Unrolling`, each query asked under an assumption literal,
so the first counterexample found is a shortest one.  Once depth ``k`` has no
violation, the property is asserted at state ``k``: a first violation deeper
down satisfies it there, so no counterexample is lost, and the solver need
not rediscover the first ``k`` depths (gold conservation at 6 cards to depth
20: 6 s of CPU instead of 114 s; the per-depth cost still grows with the
depth, more slowly).

Past :data:`FORWARD_TO`, each depth is first asked on a
:class:`~ruleproof.encoder.ReversedUnrolling`: the same question (a path of
exactly ``k`` steps from an initial state to a first violation) on a path
unrolled from its end, where the violation and the property before it stay
on the same constants at every depth, so what the solver learned about the
last steps serves the next depth (gold conservation at 6 cards, a query
around depth 40: 0.03 s of CPU, 1.1 to 1.6 s on the forward unrolling; that
property is inductive, so the refutation of the last step, learnt once, is
all a depth needs; a property whose refutation needs the whole path gets
no such reuse).  It gives unsatisfiability only.  Each of its queries may spend at most
:data:`REVERSED_FACTOR` times the forward unrolling's costliest one; on a
violation, a query past that budget or any other unknown but a timeout, the
forward unrolling asks every depth it skipped and goes on alone: the same
queries in the same order as without the reversed unrolling, so the same
counterexample, depth and reason.

For a target (a ``REACH`` property), paths may stand still once the target
holds, so "the target at state k" means "within k steps":

1. :func:`~ruleproof.engines.simulate.lower_bound` may show that every
   witness needs more steps than the depth; no depth below the bound is
   asked about (those are the hard "not yet" queries);
2. for a target of several conditions that needs many steps
   (:data:`SIMULATE_FROM`), a guided simulation on the concrete evaluator
   proposes a witness; it is shortened by asking for the target
   within one step less, until the lower bound is met, a query says no
   shorter one exists, or a query exceeds its resource limit
   (:data:`SHORTEN_RLIMIT`, deterministic: the same witness on every run).
   The simulation walks up to :data:`SIMULATE_PAST` times the depth when
   its walks within the depth were cut there, or when the lower bound is past
   the depth but within that: a witness it finds is a run of the system,
   reported even when it is longer than the depth (the reason says so, and
   whether a query showed that no shorter one exists); such a witness is
   shortened by first asking for one within the depth;
3. otherwise, when the lower bound is past the depth, that is the answer (at
   once: no witness within the depth exists); else depths are asked in order
   from the lower bound, so the first witness is a shortest one.
"""

from __future__ import annotations

from typing import Sequence

from ..encoder import ReversedUnrolling, SatResult, Unrolling, fresh_context
from ..evaluator import Evaluator
from ..ir import Property, PropKind, System, conjuncts
from ..results import RawTrace, Result, Verdict
from .common import Clock, Options, Progress, ProgressFn, replay, result
from .simulate import lower_bound, simulate

__all__ = ["check", "SHORTEN_RLIMIT", "SIMULATE_FROM", "SIMULATE_PAST"]

SIMULATE_FROM = 8
"""A target that needs at least this many steps (and has several conditions) is first searched by simulation:
below it, asking depth by depth is cheap."""
FORWARD_TO = 8
"""Depths up to this one are asked on the forward unrolling alone (a shallow violation costs nothing more);
deeper ones on a :class:`~ruleproof.encoder.ReversedUnrolling` first."""
REVERSED_FACTOR = 2
"""A query on the reversed unrolling may spend this many times the forward unrolling's costliest query (depths up
to :data:`FORWARD_TO`), at least :data:`REVERSED_MIN_RLIMIT`; past it, the forward unrolling takes over."""
REVERSED_MIN_RLIMIT = 100_000
SHORTEN_RLIMIT = 5_000_000
"""Z3 resource limit of each query that looks for a shorter witness (a deterministic budget, not a time)."""
SIMULATE_PAST = 2
"""The guided simulation may walk up to this many times the depth (a target whose walks the depth cut short, or
whose lower bound is past the depth): at 40 cards and 20 gold, "every card can end up in play or played" needs 53
steps by a count made by hand (the tool's lower bound is 40), and the benchmark's depth is 50."""


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
    rev: ReversedUnrolling | None = None
    reversed_on = True
    asked = 0  # the forward unrolling's next depth

    costliest = 0  # Z3 resource units of the forward unrolling's costliest query so far

    def forward(k: int) -> Result | None:
        nonlocal costliest
        if k:
            u.extend()
        before = u.spent()
        r = u.check(u.violated(prop, k))
        costliest = max(costliest, u.spent() - before)
        if r is SatResult.SAT:
            return result(system, prop, Verdict.VIOLATED, k, "bmc", clock, trace=replay(system, ev, u.trace(), prop))
        if r is SatResult.UNKNOWN:
            why = f"{u.reason} at depth {k}" + (f"; holds to depth {k - 1}" if k else "")
            return result(system, prop, Verdict.UNKNOWN, max(k - 1, 0), "bmc", clock, reason=why)
        u.assert_(u.holds(prop, k))
        return None

    for k in range(opts.depth + 1):
        if progress:
            progress(Progress(system.name, prop.name, "bmc", k, opts.depth))
        if reversed_on and k > FORWARD_TO:
            if rev is None:
                rev = ReversedUnrolling(system, prop, k, lemmas=lemmas, seed=opts.seed, deadline=clock.deadline)
            else:
                rev.extend()
            r = rev.check(rlimit=max(REVERSED_MIN_RLIMIT, REVERSED_FACTOR * costliest))
            if r is SatResult.UNSAT:
                continue
            if r is SatResult.UNKNOWN and rev.reason == "timeout":
                return result(system, prop, Verdict.UNKNOWN, k - 1, "bmc", clock,
                              reason=f"timeout at depth {k}; holds to depth {k - 1}")
            # a violation (or a query past its resource limit): the forward unrolling asks the depths it skipped,
            # the same queries in the same order as without the reversed one, so the same counterexample
            reversed_on = False
        while asked <= k:
            res = forward(asked)
            asked += 1
            if res is not None:
                return res
    return result(system, prop, Verdict.HOLDS_TO_DEPTH, opts.depth, "bmc", clock)


def _target(system: System, prop: Property, opts: Options, lemmas: Sequence[Property],
            progress: ProgressFn | None, ev: Evaluator, clock: Clock) -> Result:
    depth = opts.depth
    bound = lower_bound(system, prop, ev)
    past = SIMULATE_PAST * depth
    if bound.steps is None:
        return result(system, prop, Verdict.UNKNOWN, depth, "bmc", clock,
                      reason=f"target not reached within {depth} steps: it can never be reached ({bound.why})")
    least = bound.steps
    too_deep = f"target not reached within {depth} steps: it needs at least {least} steps ({bound.why})"
    found = None
    if least >= SIMULATE_FROM and len(conjuncts(prop.expr)) > 1 and least <= past:
        # within the depth first (the same walks as without SIMULATE_PAST), then past it if they were cut there
        found = simulate(system, prop, ev, steps=past if least > depth else depth, lemmas=lemmas, seed=opts.seed,
                         deadline=clock.deadline, beyond=past)
    if found is None and least > depth:
        return result(system, prop, Verdict.UNKNOWN, depth, "bmc", clock, reason=too_deep)
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
    none_within = False  # a query showed that no witness has at most ``depth`` steps
    if len(found.steps) > depth >= least:
        # a witness past the depth: first one query for a witness within it (where one exists, the answer stays
        # within the depth, as when the walks stopped there); unsatisfiable: no witness is that short
        grow(depth)
        r = u.check(u.holds(prop, depth), rlimit=SHORTEN_RLIMIT)
        if r is SatResult.SAT:
            found = _first_hit(u.trace(), ev, prop)
        elif r is SatResult.UNSAT:
            least, none_within = depth + 1, True
    shortest = len(found.steps) == least
    while len(found.steps) > least:
        j = len(found.steps) - 1
        grow(j)
        r = u.check(u.holds(prop, j), rlimit=SHORTEN_RLIMIT)
        if r is SatResult.SAT:
            found = _first_hit(u.trace(), ev, prop)
            shortest = len(found.steps) == least
        else:
            shortest = r is SatResult.UNSAT
            if r is SatResult.UNKNOWN:
                note = f"; a shorter one was not found ({u.reason})"
            break
    trace = replay(system, ev, found, prop)
    n = len(found.steps)
    if n > depth:
        # a witness past the depth (the simulation walked further): say so, and whether a shorter one may exist
        how = ("no witness has fewer steps" if shortest
               else f"{'none within it; ' if none_within else ''}a shorter one was not found: {u.reason}")
        note = f", more than the depth {depth} ({how})"
    return result(system, prop, Verdict.PROVED, n, "bmc", clock, trace=trace,
                  reason=f"target reached in {n} step{'' if n == 1 else 's'}{note}")


def _first_hit(raw: RawTrace, ev: Evaluator, prop: Property) -> RawTrace:
    """``raw`` up to the first state where target ``prop`` holds."""
    for i, s in enumerate(raw.states):
        if ev.holds(prop, s):
            return RawTrace(raw.states[: i + 1], raw.steps[:i])
    return raw  # replay reports a witness that does not reach its target
