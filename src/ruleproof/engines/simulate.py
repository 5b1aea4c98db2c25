"""Targets: a lower bound on their length, and a guided simulation that finds witnesses.

A target (a sanity property "some reachable state satisfies ...") is usually
a conjunction, "every card out of hand".  Two cheap facts about it come
before any solver query:

* :func:`lower_bound`: conjuncts that are false in every initial state need a
  step that writes one of their variables; a step writes the variables of at
  most ``m`` of them, so a witness has at least ``ceil(n / m)`` steps.  When
  some such conjunct has no writer at all, no witness exists.
* :func:`simulate`: walks on the concrete evaluator from initial states,
  preferring at each step a successor that makes more of the conjuncts true
  (ties, starts and a share of the moves decided by a seeded random
  generator, so the walk is the same on every run).  A witness it finds is a
  run of the system by construction; it is replayed like every trace.
  Finding nothing proves nothing.
"""

from __future__ import annotations

import itertools
import math
import random
import time
from typing import Mapping, Sequence

from .. import budget
from ..encoder import SatResult, Unrolling, writers
from ..evaluator import Evaluator, State
from ..ir import (
    Action,
    Choice,
    Property,
    PropKind,
    System,
    Value,
    add,
    conjuncts,
    const,
    free_vars,
    ite,
    le,
    show_expr,
    walk,
)
from ..results import RawTrace

__all__ = ["lower_bound", "simulate", "Bound"]

WALKS = 4
"""Walks a simulation tries (each from a drawn initial state)."""
HORIZON = 8
"""Most steps of one way out of a plateau (a state where no single step makes more of the target true)."""
ESCAPE_RLIMIT = 5_000_000
"""Z3 resource limit of one query for a way out of a plateau (deterministic, unlike a time limit)."""
ESCAPE_BUDGET = 10_000_000
"""Z3 resources all the ways out of plateaus of one simulation may use together, at least."""
ESCAPE_PER_CONJUNCT = 1_500_000
"""... and this much per conjunct of the target, when that is more: each conjunct still false may sit behind a
plateau of its own (at 40 cards, "every card can end up in play or played" has 40 conjuncts, and the walk got
stuck at 38 with the fixed 10,000,000)."""
STARTS = 16
"""Initial states a simulation draws its walks from."""


class Bound:
    """The fewest steps a witness of a target needs (``steps``), with the argument; ``None``: no witness exists."""

    def __init__(self, steps: int | None, why: str) -> None:
        self.steps = steps
        self.why = why


def lower_bound(system: System, prop: Property, ev: Evaluator | None = None) -> Bound:
    """A lower bound on the length of every witness of target ``prop`` (see the module docstring)."""
    ev = ev or Evaluator(system)
    fixed = {iv.var: iv.values[0] for iv in system.init_vars if len(iv.values) == 1}
    some = {iv.var: iv.values[0] for iv in system.init_vars}
    start = tuple(some[v.name] for v in system.vars)
    needed: list[tuple[str, frozenset[str]]] = []
    for c in conjuncts(prop.expr):
        names = free_vars(c)
        if not names or not names <= fixed.keys() or any(isinstance(x, Choice) for x in walk(c)):
            continue  # true in some initial state, or it cannot be told without a solver
        if not ev.compile(c)(start, None, {}):
            needed.append((show_expr(c), frozenset(names)))
    if not needed:
        return Bound(0, "")
    written: list[set[str]] = [set() for _ in system.actions]
    for var, acts in writers(system).items():
        for ai in acts:
            written[ai].add(var)
    most = max((sum(1 for _c, names in needed if names & w) for w in written), default=0)
    for text, reads in needed:
        if not any(reads & w for w in written):
            changes = ", ".join(sorted(reads))
            return Bound(None, f"{text} is false in every initial state and no action changes {changes}")
    steps = math.ceil(len(needed) / most)
    why = (f"{len(needed)} of its conditions are false in every initial state and one step can make at most "
           f"{most} of them true")
    return Bound(steps, why)


def _starts(ev: Evaluator, rng: random.Random, n: int) -> list[State]:
    """Up to ``n`` initial states: the first in the fixed order, then random draws (bounded effort)."""
    out: list[State] = list(itertools.islice(ev.initial_states(scan=20_000), 1))
    values = {iv.var: iv.values for iv in ev.system.init_vars}
    domains = [values[v.name] for v in ev.system.vars]
    tries = 0
    while len(out) < n and tries < 50 * n * 20:
        tries += 1
        s = tuple(d[rng.randrange(len(d))] for d in domains)
        if s not in out and ev.is_initial(s):
            out.append(s)
    return out


Step = tuple[int, tuple[tuple[str, Value], ...]]


class _Scorer:
    """How many of a target's conjuncts hold in a state, updated per step from the conjuncts the step can change."""

    def __init__(self, system: System, prop: Property, ev: Evaluator) -> None:
        self.parts = parts = conjuncts(prop.expr)
        self.fns = [ev.compile(c) for c in parts]
        reads = [free_vars(c) for c in parts]
        written: list[set[str]] = [set() for _ in system.actions]
        for var, acts in writers(system).items():
            for ai in acts:
                written[ai].add(var)
        self.affected = [[ci for ci, names in enumerate(reads) if names & w] for w in written]
        self.writers = [[ai for ai, w in enumerate(written) if names & w] for names in reads]
        self.ev = ev
        self.empty: dict[str, Value] = {}

    def potential(self, s: State, truth: tuple[bool, ...]) -> int:
        """How many of the conjuncts false in ``s`` some action enabled in ``s`` could change."""
        enabled = self.ev.enabled
        return sum(1 for ci, ok in enumerate(truth) if not ok and any(enabled(ai, s) for ai in self.writers[ci]))

    def truth(self, s: State) -> tuple[bool, ...]:
        return tuple(bool(f(s, None, self.empty)) for f in self.fns)

    def after(self, truth: tuple[bool, ...], ai: int, t: State) -> tuple[bool, ...]:
        """The truth of the conjuncts in ``t``, reached from a state with ``truth`` by action ``ai``."""
        hit = self.affected[ai]
        if not hit:
            return truth
        out = list(truth)
        for ci in hit:
            out[ci] = bool(self.fns[ci](t, None, self.empty))
        return tuple(out)


class _Walk:
    """One walk so far: its states, its steps, the states it has seen, and the truth of the conjuncts at its end."""

    def __init__(self, s: State, truth: tuple[bool, ...]) -> None:
        self.states: list[State] = [s]
        self.path: list[Step] = []
        self.seen = {s}
        self.truth = truth

    def add(self, step: Step, t: State) -> None:
        self.path.append(step)
        self.states.append(t)
        self.seen.add(t)


def simulate(
    system: System,
    prop: Property,
    ev: Evaluator,
    *,
    steps: int,
    lemmas: Sequence[Property] = (),
    walks: int = WALKS,
    seed: int = 0,
    deadline: float | None = None,
    beyond: int | None = None,
) -> RawTrace | None:
    """A path of at most ``steps`` steps from an initial state to a state satisfying target ``prop``, or None.

    Each walk takes a successor that makes more of the target's conjuncts
    true (ties broken by the seeded generator).  Where none does, small
    solver queries look for the shortest way (at most :data:`HORIZON` steps)
    from the current state to a state where more of them hold, under
    deterministic resource limits (:data:`ESCAPE_RLIMIT` per query,
    :data:`ESCAPE_BUDGET` in all, or :data:`ESCAPE_PER_CONJUNCT` per conjunct of the target when that is more);
    when there is none, the walk ends.  Cycles
    are cut out of the witness.

    With ``beyond`` (more than ``steps``), the walks that ``steps`` cut short
    (rather than ending on a plateau with no way out) go on, in order, each up
    to ``beyond`` steps, with a budget of their own for the ways out, when no
    walk found a witness within ``steps``: the witness may then be longer
    than ``steps``.  The walks within ``steps`` are the same with or without it.
    """
    rng = random.Random(seed)
    sc = _Scorer(system, prop, ev)
    allowance = max(ESCAPE_BUDGET, ESCAPE_PER_CONJUNCT * len(sc.parts))
    escape_left = [allowance]
    starts = _starts(ev, rng, STARTS)
    # the most promising initial states first: most of the target true, then most of the rest within one step
    starts.sort(key=lambda x: (-sum(sc.truth(x)), -sc.potential(x, sc.truth(x))))
    cut: list[_Walk] = []
    for w in range(min(walks, len(starts))):
        walk = _Walk(starts[w], sc.truth(starts[w]))
        found = _go(system, ev, sc, walk, steps, lemmas, seed, deadline, escape_left, rng)
        if isinstance(found, RawTrace):
            return found
        if found:
            cut.append(walk)
    if beyond is not None and beyond > steps and cut:
        escape_left = [allowance]
        for walk in cut:
            found = _go(system, ev, sc, walk, beyond, lemmas, seed, deadline, escape_left, rng)
            if isinstance(found, RawTrace):
                return found
    return None


def _go(system: System, ev: Evaluator, sc: _Scorer, walk: _Walk, steps: int, lemmas: Sequence[Property], seed: int,
        deadline: float | None, escape_left: list[int], rng: random.Random) -> RawTrace | bool:
    """Walk on to at most ``steps`` steps: the witness found, else whether the limit cut the walk short (True) or it
    ended on a plateau with no way out, or out of time (False)."""
    s = walk.states[-1]
    while True:
        budget.checkpoint()  # the query's deadline, an interrupt or the run's time limit stops a walk here
        truth = walk.truth
        if all(truth):
            return _without_loops(walk.states, walk.path)
        if deadline is not None and time.monotonic() > deadline:
            return False
        room = steps - len(walk.path)
        if room <= 0:
            return True
        here = sum(truth)
        succ = [(x, sc.after(truth, x[0], x[2])) for x in ev.successors(s) if x[2] not in walk.seen]
        top = max((sum(tr) for _x, tr in succ), default=-1)
        if top > here:
            best = [(x, tr) for x, tr in succ if sum(tr) == top]
            if len(best) > 1:  # keep the most options open
                pots = [sc.potential(x[2], tr) for x, tr in best]
                best = [b for b, pot in zip(best, pots, strict=True) if pot == max(pots)]
            (ai, ch, t), walk.truth = best[rng.randrange(len(best))]
            walk.add((ai, _ordered(system.actions[ai], ch)), t)
            s = t
            continue
        hop = _escape(system, sc, s, min(HORIZON, room), lemmas, seed, deadline, escape_left)
        if hop is None:
            return room < HORIZON  # with more steps left, a longer way out might have been found
        for step, t in zip(hop.steps, hop.states[1:], strict=True):
            walk.add(step, t)
        s = walk.states[-1]
        walk.truth = sc.truth(s)


def _escape(system: System, sc: _Scorer, s: State, horizon: int, lemmas: Sequence[Property], seed: int,
            deadline: float | None, left: list[int]) -> RawTrace | None:
    """The shortest path (at most ``horizon`` steps) from ``s`` to a state where more of the conjuncts hold.

    ``left[0]``: the Z3 resources left to the simulation (decreased by what this search uses).
    """
    if left[0] <= 0:
        return None
    here = sum(sc.truth(s))
    more = le(const(here + 1), add(*(ite(c, const(1), const(0)) for c in sc.parts)))
    better = Property("more of the target holds", PropKind.REACH, more, ())
    u = Unrolling(system, initial=False, lemmas=lemmas, seed=seed, deadline=deadline, stop=better)
    u.fix(0, s)
    r = SatResult.UNKNOWN
    for j in range(1, horizon + 1):
        u.extend()
        before = u.spent()
        r = u.check(u.holds(better, j), rlimit=min(ESCAPE_RLIMIT, left[0]))
        left[0] -= u.spent() - before
        if r is not SatResult.UNSAT or left[0] <= 0:
            break
    if r is not SatResult.SAT:
        return None
    raw = u.trace()
    for i, t in enumerate(raw.states):
        if sum(sc.truth(t)) > here:
            return RawTrace(raw.states[: i + 1], raw.steps[:i])
    return None  # pragma: no cover - the solver's path reaches a better state


def _ordered(a: Action, ch: Mapping[str, Value]) -> tuple[tuple[str, Value], ...]:
    return tuple((c.name, ch[c.name]) for c in a.choices)


def _without_loops(states: list[State], path: list[Step]) -> RawTrace:
    """The path with every cycle cut out (a state seen twice: the steps between are dropped)."""
    out_states = [states[0]]
    out_steps: list[Step] = []
    where = {states[0]: 0}
    for i, step in enumerate(path):
        t = states[i + 1]
        j = where.get(t)
        if j is None:
            out_steps.append(step)
            where[t] = len(out_states)
            out_states.append(t)
        else:
            for dropped in out_states[j + 1:]:
                del where[dropped]
            del out_states[j + 1:]
            del out_steps[j:]
    return RawTrace(tuple(out_states), tuple(out_steps))
