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

from ..consistency import explain
from ..encoder import Cond, SatResult, Unrolling, fresh_context
from ..evaluator import Evaluator
from ..ir import TRUE, Expr, Property, PropKind, System, or_
from ..results import Coverage, Result, RuleCoverage, Verdict
from . import bmc, chc, explicit, kind
from .common import Clock, Options, ProgressFn

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
    if _few_initial_states(system):
        # a small system: exploring every reachable state is a proof (or finds the shortest violation)
        e = explicit.check(system, prop, replace(opts, depth=1_000_000, max_states=EXHAUST_STATES,
                                                 timeout=_min(share, clock.left())), lemmas, progress, ev)
        if e.verdict in (Verdict.PROVED, Verdict.VIOLATED):
            return _auto(e, clock)
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


def _branches(system: System) -> list[tuple[str, str, dict[int, Expr]]]:
    """Conditional effects: per (family, ``set`` site), the ground actions and conditions under which it applies."""
    from ..report import show_expr

    groups: dict[tuple[str, str], tuple[str, dict[int, list[Expr]]]] = {}
    for ai, a in enumerate(system.actions):
        for w in a.writes:
            key = (a.family, str(w.loc) if w.loc else f"#{w.site}")
            if key not in groups:
                arr = system.var(w.var).array
                where = f"at {w.loc}" if w.loc else f"when {_short(show_expr(w.when))}"
                groups[key] = (f"{a.family}: the conditional effect on {arr} {where}", {})
            groups[key][1].setdefault(ai, []).append(w.when)
    out: list[tuple[str, str, dict[int, Expr]]] = []
    for (fam, _site), (label, per) in groups.items():
        conds = {ai: or_(*ws) for ai, ws in per.items()}
        if all(c == TRUE for c in conds.values()):
            continue  # unconditional: reached exactly when the action fires
        out.append((label, fam, conds))
    return out


def _short(text: str, n: int = 60) -> str:
    return text if len(text) <= n else text[: n - 3] + "..."


def coverage(system: System, depth: int, opts: Options, engine: str, evaluator: Evaluator | None = None,
             rules: bool = False) -> Coverage:
    """Which action families can fire within ``depth`` steps.

    With ``rules``, also every conditional effect and declared coverage point
    (:meth:`ruleproof.dsl.Model.cover`), by BMC to ``depth``.
    """
    fams = system.families()
    if rules:
        return _rule_coverage(system, depth, opts)
    whole = _exhaustive_fired(system, evaluator)
    if whole is not None:
        return Coverage(depth, tuple(f for f in fams if f in whole), tuple(f for f in fams if f not in whole),
                        exhaustive=True)
    if engine == "explicit":
        fired, _n, _done = explicit.explore(system, depth, opts.max_states, evaluator)
        return Coverage(depth, tuple(f for f in fams if f in fired), tuple(f for f in fams if f not in fired))
    status = _reach(system, depth, opts, [(f, lambda u, f=f: u.fired(f)) for f in fams])
    return Coverage(
        depth,
        tuple(f for f in fams if status[f] == "reached"),
        tuple(f for f in fams if status[f] == "unreached"),
        tuple(f for f in fams if status[f] == "unknown"),
    )


EXHAUST_INITIAL = 1_000
"""Most initial states for which coverage first tries to explore the whole state space."""
EXHAUST_STATES = 20_000
"""State cap of that exploration (past it, coverage is bounded by the depth, by BMC)."""


def _few_initial_states(system: System) -> bool:
    """At most :data:`EXHAUST_INITIAL` initial states (an upper bound: constraints not applied)."""
    n = 1
    for iv in system.init_vars:
        n *= len(iv.values)
        if n > EXHAUST_INITIAL:
            return False
    return True


def _exhaustive_fired(system: System, evaluator: Evaluator | None) -> set[str] | None:
    """Families fired in some reachable state, when the whole (small) state space can be explored."""
    if not _few_initial_states(system):
        return None
    fired, _n, done = explicit.explore(system, 1_000_000, EXHAUST_STATES, evaluator)
    return fired if done else None


def _reach(system: System, depth: int, opts: Options,
           targets: Sequence[tuple[str, Callable[[Unrolling], Cond]]]) -> dict[str, str]:
    """``reached`` / ``unreached`` / ``unknown`` for each target within ``depth`` steps.

    The path grows one step at a time and each target not yet reached is
    asked at every length, so that a target is found on a path that ends
    early (a declared end of the game) as well as on a long one.
    """
    clock = Clock(opts.timeout)
    fresh_context()
    u = Unrolling(system, initial=True, seed=opts.seed, deadline=clock.deadline)
    out: dict[str, str] = {}
    open_: dict[str, Callable[[Unrolling], Cond]] = dict(targets)
    unknown: set[str] = set()
    for _ in range(depth):
        u.extend()
        if not open_:
            break
        feasible = u.check()
        if feasible is SatResult.UNSAT:
            break  # no path is this long: nothing more can be reached
        for name, fn in list(open_.items()):
            r = u.check(fn(u))
            if r is SatResult.SAT:
                out[name] = "reached"
                del open_[name]
                unknown.discard(name)
            elif r is SatResult.UNKNOWN:
                unknown.add(name)
    for name in open_:
        out[name] = "unknown" if name in unknown else "unreached"
    return out


def _rule_coverage(system: System, depth: int, opts: Options) -> Coverage:
    fams = system.families()
    targets: list[tuple[str, Callable[[Unrolling], Cond]]] = [(f"action:{f}", lambda u, f=f: u.fired(f)) for f in fams]
    branches = _branches(system)
    targets += [(f"branch:{label}", lambda u, c=conds: u.fired_where(c)) for label, _fam, conds in branches]
    targets += [(f"cover:{name}", lambda u, e=e: u.reached(e)) for name, e in system.covers]
    status = _reach(system, depth, opts, targets)
    rules: list[RuleCoverage] = []
    for f in fams:
        loc = next((a.loc for a in system.actions if a.family == f and a.loc), None)
        rules.append(RuleCoverage("action", f, str(loc) if loc else "", status[f"action:{f}"]))
    for label, _fam, _conds in branches:
        rules.append(RuleCoverage("branch", label, "", status[f"branch:{label}"]))
    for name, _e in system.covers:
        rules.append(RuleCoverage("cover", name, "", status[f"cover:{name}"]))
    fs = {f: status[f"action:{f}"] for f in fams}
    return Coverage(
        depth,
        tuple(f for f in fams if fs[f] == "reached"),
        tuple(f for f in fams if fs[f] == "unreached"),
        tuple(f for f in fams if fs[f] == "unknown"),
        tuple(rules),
    )


def check_system(
    system: System,
    engine: str,
    opts: Options,
    names: Sequence[str] = (),
    progress: ProgressFn | None = None,
    coverage_depth: int | None = None,
) -> list[Result]:
    """Check the named properties (all, built-in ones included, when empty) of ``system``, in order.

    Consistency checks named in ``opts.skip_checks`` are left out; with
    ``opts.rule_coverage`` the coverage lists every rule (actions,
    conditional effects, coverage points).
    """
    ev = Evaluator(system)
    props = [p for p in system.properties if (not names or p.name in names) and p.check not in opts.skip_checks]
    cov = coverage(system, min(opts.depth, coverage_depth or opts.depth), opts, engine, ev, rules=opts.rule_coverage)
    results: dict[str, Result] = {}
    lemmas: list[Property] = []
    pending = list(props)
    while pending:
        before = len(lemmas)
        still: list[Property] = []
        for p in pending:
            r = check_property(system, p, engine, opts, lemmas, progress, ev)
            if p.check and r.verdict is Verdict.VIOLATED and r.trace is not None:
                why, cites = explain(system, p, r.trace.states, r.trace.steps[-1].action if r.trace.steps else None, ev)
                r = replace(r, reason="; ".join(x for x in (why, r.reason) if x), cites=cites or r.cites)
            results[p.name] = replace(r, coverage=cov)
            if r.verdict is Verdict.PROVED and p.kind is not PropKind.REACH:
                lemmas.append(p)
            elif r.verdict not in (Verdict.VIOLATED, Verdict.PROVED):
                still.append(p)
        if len(lemmas) == before or engine in ("bmc", "explicit"):
            break
        pending = still
    return [results[p.name] for p in props]
