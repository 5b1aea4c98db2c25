"""Explicit-state breadth-first search over the concrete evaluator.

For small scenarios and for cross-checking the symbolic engines: it finds a
shortest counterexample, and when the reachable state space is exhausted
within the bound it proves the property (every reachable state was checked).
"""

from __future__ import annotations

from typing import Mapping, Sequence

from .. import budget
from ..evaluator import Evaluator, State
from ..ir import Property, PropKind, System, Value
from ..results import RawTrace, Result, Verdict
from .common import Clock, Options, Progress, ProgressFn, replay, result

__all__ = ["check", "explore", "first_steps", "trace_path", "Parent"]

Parent = tuple[State | None, int, tuple[tuple[str, Value], ...]]


def trace_path(parents: Mapping[State, Parent], s: State,
          extra: tuple[int, tuple[tuple[str, Value], ...], State] | None = None) -> RawTrace:
    """The steps from an initial state to ``s`` by the search's ``parents`` links (then ``extra``'s step)."""
    states: list[State] = []
    steps: list[tuple[int, tuple[tuple[str, Value], ...]]] = []
    cur: State | None = s
    while cur is not None:
        states.append(cur)
        p, ai, ch = parents[cur]
        if p is not None:
            steps.append((ai, ch))
        cur = p
    states.reverse()
    steps.reverse()
    if extra is not None:
        ai, ch, t = extra
        steps.append((ai, ch))
        states.append(t)
    return RawTrace(tuple(states), tuple(steps))


def check(
    system: System,
    prop: Property,
    opts: Options,
    lemmas: Sequence[Property] = (),
    progress: ProgressFn | None = None,
    evaluator: Evaluator | None = None,
) -> Result:
    """BFS to ``opts.depth``; lemmas are not needed (states are concrete)."""
    clock = Clock(opts.timeout)
    ev = evaluator or Evaluator(system)
    reach = prop.kind is PropKind.REACH
    action_prop = prop.kind is PropKind.ACTION

    def bad(s: State) -> bool:
        if action_prop:
            return False
        return ev.holds(prop, s) if reach else not ev.holds(prop, s)

    parents: dict[State, Parent] = {}
    frontier: list[State] = []
    for s in ev.initial_states():
        parents[s] = (None, -1, ())
        frontier.append(s)
        if bad(s):
            return _found(system, prop, ev, trace_path(parents, s), 0, clock)
        if len(parents) > opts.max_states:
            return result(system, prop, Verdict.UNKNOWN, 0, "explicit", clock,
                          reason=f"more than {opts.max_states} initial states")
    for depth in range(1, opts.depth + 1):
        if progress:
            progress(Progress(system.name, prop.name, "explicit", depth, opts.depth))
        nxt: list[State] = []
        for s in frontier:
            for ai, ch, t in ev.successors(s):
                chs = tuple(sorted(ch.items()))
                if action_prop and not ev.step_ok(prop, system.actions[ai], s, t, ch):
                    return _found(system, prop, ev, trace_path(parents, s, (ai, chs, t)), depth, clock)
                if t in parents:
                    continue
                parents[t] = (s, ai, chs)
                if bad(t):
                    return _found(system, prop, ev, trace_path(parents, t), depth, clock)
                nxt.append(t)
            if len(parents) > opts.max_states:
                return _bounded(system, prop, depth - 1, clock, f"state cap {opts.max_states} reached at depth {depth}")
            if clock.deadline is not None and clock.left() == 0:
                return _bounded(system, prop, depth - 1, clock, f"timeout at depth {depth}")
        frontier = nxt
        if not frontier:
            n = len(parents)
            if reach:
                return result(system, prop, Verdict.VIOLATED, depth, "explicit", clock,
                              reason=f"target is unreachable: all {n} reachable states explored")
            return result(system, prop, Verdict.PROVED, depth, "explicit", clock,
                          reason=f"all {n} reachable states explored")
    if reach:
        return result(system, prop, Verdict.UNKNOWN, opts.depth, "explicit", clock,
                      reason=f"target not reached within {opts.depth} steps")
    return result(system, prop, Verdict.HOLDS_TO_DEPTH, opts.depth, "explicit", clock,
                  reason=f"{len(parents)} states explored")


def _bounded(system: System, prop: Property, depth: int, clock: Clock, why: str) -> Result:
    if prop.kind is PropKind.REACH or depth < 1:
        return result(system, prop, Verdict.UNKNOWN, max(depth, 0), "explicit", clock, reason=why)
    return result(system, prop, Verdict.HOLDS_TO_DEPTH, depth, "explicit", clock, reason=why)


def _found(system: System, prop: Property, ev: Evaluator, raw: RawTrace, depth: int, clock: Clock) -> Result:
    trace = replay(system, ev, raw, prop)
    if prop.kind is PropKind.REACH:
        return result(system, prop, Verdict.PROVED, depth, "explicit", clock, trace=trace,
                      reason=f"target reached in {depth} step{'' if depth == 1 else 's'}")
    return result(system, prop, Verdict.VIOLATED, depth, "explicit", clock, trace=trace)


def explore(system: System, depth: int, max_states: int,
            evaluator: Evaluator | None = None) -> tuple[set[str], int, bool]:
    """Families fired within ``depth``, states seen, and whether the space was exhausted."""
    found = _layers(system, evaluator or Evaluator(system), depth, max_states, strict=False)
    assert found is not None  # only a strict search gives up
    first, n, done = found
    return set(first), n, done


def first_steps(system: System, max_states: int, evaluator: Evaluator | None = None) -> dict[str, int] | None:
    """For each family that fires in some reachable state, the fewest steps of a path that ends with one of its
    actions; None as soon as more than ``max_states`` states are reachable (the search stops there)."""
    found = _layers(system, evaluator or Evaluator(system), None, max_states, strict=True)
    return None if found is None else found[0]


def _layers(system: System, ev: Evaluator, depth: int | None, max_states: int,
            strict: bool) -> tuple[dict[str, int], int, bool] | None:
    """Breadth-first search, one layer per step, to ``depth`` (None: until exhausted): each fired family's fewest
    steps, the states seen, whether the space was exhausted.  Past ``max_states`` states a strict search gives up
    at once (None); otherwise it stops after the layer that passed the cap."""
    seen: set[State] = set()
    for s in ev.initial_states():
        seen.add(s)
        if strict and len(seen) > max_states:
            return None
    frontier = list(seen)
    first: dict[str, int] = {}
    steps = 0
    while frontier and (depth is None or steps < depth):
        steps += 1
        nxt: list[State] = []
        for s in frontier:
            budget.checkpoint()  # the query's deadline, an interrupt or the run's time limit stops the search here
            for ai, _ch, t in ev.successors(s):
                first.setdefault(system.actions[ai].family, steps)
                if t not in seen:
                    seen.add(t)
                    if strict and len(seen) > max_states:
                        return None
                    nxt.append(t)
        frontier = nxt
        if len(seen) > max_states:
            break
    return first, len(seen), not frontier
