"""Run a whole system: engine selection, lemma reuse, coverage.

Properties are checked in declaration order (the built-in range property
first).  Every property proved is added to the lemmas of later queries on
the same system; properties left open are tried again once new lemmas
exist, until nothing changes.  ``auto`` tries proofs first (k-induction,
then Spacer) and falls back to BMC to the requested depth.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Callable, Sequence

from ..encoder import SatResult, Unrolling
from ..evaluator import Evaluator
from ..ir import Property, PropKind, System
from ..results import Coverage, Result, Verdict
from . import bmc, chc, explicit, kind
from .common import Clock, Options, Progress, ProgressFn

__all__ = ["check_property", "check_system", "coverage"]

EngineFn = Callable[..., Result]
_SINGLE: dict[str, EngineFn] = {"bmc": bmc.check, "kind": kind.check, "chc": chc.check, "explicit": explicit.check}


def check_property(
    system: System,
    prop: Property,
    engine: str,
    opts: Options,
    lemmas: Sequence[Property] = (),
    progress: ProgressFn | None = None,
    evaluator: Evaluator | None = None,
) -> Result:
    """Check one property with one engine (or ``auto``)."""
    ev = evaluator or Evaluator(system)
    if engine != "auto":
        return _SINGLE[engine](system, prop, opts, lemmas, progress, ev)
    clock = Clock(opts.timeout)
    share = None if opts.timeout is None else opts.timeout / 3
    if prop.kind is PropKind.REACH:
        r = bmc.check(system, prop, replace(opts, timeout=clock.left()), lemmas, progress, ev)
        if r.verdict is Verdict.PROVED:
            return _auto(r, clock)
        c = chc.check(system, prop, replace(opts, timeout=_min(share, clock.left())), lemmas, progress, ev)
        return _auto(c if c.verdict is not Verdict.UNKNOWN else r, clock)
    r = kind.check(system, prop, replace(opts, timeout=_min(share, clock.left())), lemmas, progress, ev)
    if r.verdict in (Verdict.PROVED, Verdict.VIOLATED):
        return _auto(r, clock)
    c = chc.check(system, prop, replace(opts, timeout=_min(share, clock.left())), lemmas, progress, ev)
    if c.verdict in (Verdict.PROVED, Verdict.VIOLATED):
        return _auto(c, clock)
    b = bmc.check(system, prop, replace(opts, timeout=clock.left()), lemmas, progress, ev)
    if b.verdict is Verdict.UNKNOWN and r.verdict is Verdict.HOLDS_TO_DEPTH and r.depth >= b.depth:
        return _auto(r, clock)
    notes = "; ".join(x for x in (f"k-induction: {r.reason}" if r.reason else "", f"chc: {c.reason}" if c.reason else "", b.reason) if x)
    return _auto(replace(b, reason=notes), clock)


def _min(a: float | None, b: float | None) -> float | None:
    if a is None:
        return b
    if b is None:
        return a
    return min(a, b)


def _auto(r: Result, clock: Clock) -> Result:
    return replace(r, engine=f"auto/{r.engine}", seconds=round(clock.elapsed(), 3))


def coverage(system: System, depth: int, opts: Options, engine: str, evaluator: Evaluator | None = None) -> Coverage:
    """Which action families can fire within ``depth`` steps."""
    fams = system.families()
    if engine == "explicit":
        fired, _n, _done = explicit.explore(system, depth, opts.max_states, evaluator)
        return Coverage(depth, tuple(f for f in fams if f in fired), tuple(f for f in fams if f not in fired))
    clock = Clock(opts.timeout)
    u = Unrolling(system, initial=True, seed=opts.seed, deadline=clock.deadline)
    for _ in range(depth):
        u.extend()
    fired_l: list[str] = []
    never: list[str] = []
    unknown: list[str] = []
    for f in fams:
        r = u.check(u.fired(f))
        (fired_l if r is SatResult.SAT else never if r is SatResult.UNSAT else unknown).append(f)
    return Coverage(depth, tuple(fired_l), tuple(never), tuple(unknown))


def check_system(
    system: System,
    engine: str,
    opts: Options,
    names: Sequence[str] = (),
    progress: ProgressFn | None = None,
    coverage_depth: int | None = None,
) -> list[Result]:
    """Check the named properties (all, built-in ones included, when empty) of ``system``, in order."""
    ev = Evaluator(system)
    props = [p for p in system.properties if not names or p.name in names]
    cov = coverage(system, min(opts.depth, coverage_depth or opts.depth), opts, engine, ev)
    results: dict[str, Result] = {}
    lemmas: list[Property] = []
    pending = list(props)
    while pending:
        before = len(lemmas)
        still: list[Property] = []
        for p in pending:
            r = check_property(system, p, engine, opts, lemmas, progress, ev)
            results[p.name] = replace(r, coverage=cov)
            if r.verdict is Verdict.PROVED and p.kind is not PropKind.REACH:
                lemmas.append(p)
            elif r.verdict not in (Verdict.VIOLATED, Verdict.PROVED):
                still.append(p)
        if len(lemmas) == before or engine in ("bmc", "explicit"):
            break
        pending = still
    return [results[p.name] for p in props]
