"""Run a whole system: engine selection, lemma reuse, coverage.

Properties are checked in declaration order, the targets last (they never
become lemmas).  Every property proved is added to the lemmas of later
queries on the same system; a property left open is tried again only when
lemmas arrived after its last attempt, until nothing changes (its result's
``seconds`` counts every attempt).  ``auto`` runs the stages of
:data:`~ruleproof.engines.registry.AUTO`: proofs first (k-induction, then
Spacer), BMC to the requested depth last.

Budgets: each property check and each coverage search is one query of
:mod:`ruleproof.budget` (the ``timeout`` of the options as its wall-clock
deadline, ``rlimit`` as the solver's resource limit per call); a query
stopped past its deadline or out of memory is an UNKNOWN result with that
reason, and the other properties are still checked.  Interrupts and the
run's time limit propagate to the caller.
"""

from __future__ import annotations

from dataclasses import replace
from functools import partial
from typing import Callable, Mapping, Sequence

from .. import budget
from ..consistency import explain
from ..encoder import Cond, SatResult, Unrolling, fresh_context
from ..evaluator import Evaluator
from ..ir import TRUE, Expr, Property, PropKind, System, or_, show_expr
from ..results import Coverage, Result, RuleCoverage, Verdict
from . import explicit
from .common import Clock, Options, ProgressFn, result
from .registry import AUTO, EXHAUST_FIRST, EXHAUST_STATES, REGISTRY, Stage, few_initial_states

__all__ = ["check_property", "check_guarded", "check_system", "coverage"]


def check_property(
    system: System,
    prop: Property,
    engine: str,
    opts: Options,
    lemmas: Sequence[Property] = (),
    progress: ProgressFn | None = None,
    evaluator: Evaluator | None = None,
) -> Result:
    """Check one property with one engine (or ``auto``: the stages of :data:`~.registry.AUTO`)."""
    ev = evaluator or Evaluator(system)
    if engine != "auto":
        return REGISTRY[engine].check(system, prop, opts, lemmas, progress, ev)
    return _stages(system, prop, opts, lemmas, progress, ev, early=False)


def check_guarded(system: System, prop: Property, engine: str, opts: Options, lemmas: Sequence[Property] = (),
                  evaluator: Evaluator | None = None) -> Result:
    """:func:`check_property` as one budget query: ``opts.rlimit`` bounds each solver call, ``opts.timeout``
    is the wall-clock safety net (past it, or out of memory, the result is UNKNOWN with that reason)."""
    return _guarded(system, prop, engine, opts,
                    partial(check_property, system, prop, engine, opts, lemmas, None, evaluator))


def _stages(system: System, prop: Property, opts: Options, lemmas: Sequence[Property], progress: ProgressFn | None,
            ev: Evaluator, early: bool) -> Result:
    """``auto``'s stages for ``prop`` (the ``early`` ones, or the others) in order until one decides.

    Undecided: the early stages' last answer (a system's lemma fixpoint runs
    the other stages later), or the answer of :func:`_fallback`.
    """
    clock = Clock(opts.timeout)
    tried: list[tuple[Stage, Result]] = []
    for stage in AUTO[prop.kind]:
        if stage.early != early:
            continue
        left = clock.left()
        if (stage.when is not None and not stage.when(system)) or (left is not None and left < stage.min_left):
            continue
        # with a resource limit bounding each solver call, a stage may use what is left of the property's time
        # (then the verdict does not depend on the machine's speed); else its share
        if stage.share is None or opts.timeout is None or opts.rlimit is not None:
            run = replace(opts, timeout=left)
        else:
            run = replace(opts, timeout=_min(opts.timeout * stage.share, left))
        use = _earlier(system, prop, lemmas) if stage.earlier_lemmas else lemmas
        r = REGISTRY[stage.engine].check(system, prop, stage.options(run) if stage.options else run, use,
                                         progress, ev)
        if r.verdict in stage.accept:
            return _auto(r, clock)
        tried.append((stage, r))
    if not tried:  # (no early stage for this kind of property: the others decide)
        return result(system, prop, Verdict.UNKNOWN, 0, "auto", clock, reason="not checked yet")
    return _auto(tried[-1][1] if early else _fallback(tried), clock)


def _whole_coverage(depth: int, fams: Sequence[str], whole: set[str]) -> Coverage:
    """Coverage from the whole state space: a family that never fired there never fires at any depth."""
    return Coverage(depth, tuple(f for f in fams if f in whole), tuple(f for f in fams if f not in whole),
                    exhaustive=True)


def _earlier(system: System, prop: Property, lemmas: Sequence[Property]) -> Sequence[Property]:
    """The ``lemmas`` declared before ``prop`` in ``system`` (all of them for a property it does not declare)."""
    order = {p.name: i for i, p in enumerate(system.properties)}
    mine = order.get(prop.name)
    if mine is None:
        return lemmas
    return [lem for lem in lemmas if order.get(lem.name, -1) < mine]


def _fallback(tried: Sequence[tuple[Stage, Result]]) -> Result:
    """No stage decided: the last stage's answer, unless an earlier one held to a larger depth; every reason noted."""
    last = tried[-1][1]
    held = [r for _s, r in tried if r.verdict is Verdict.HOLDS_TO_DEPTH]
    if last.verdict is Verdict.UNKNOWN and held and held[0].depth >= last.depth:
        return held[0]
    notes = [f"{s.note}: {r.reason}" if s.note else r.reason for s, r in tried if s.note is not None and r.reason]
    return replace(last, reason="; ".join(notes))


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

    By BMC (by explicit search with ``engine="explicit"``); a family it does
    not see fire in a system with few initial states is looked for in the
    whole state space (:func:`_exhaustive_fired`).  A system with few initial
    states and at most :data:`~.registry.EXHAUST_FIRST` reachable states is
    explored whole first, with the same answer BMC and that search would give
    (a family fires within ``depth`` steps exactly when BMC sees it fire).  With ``rules``, also
    every conditional effect and declared coverage point
    (:meth:`ruleproof.dsl.Model.cover`), by BMC to ``depth``.
    """
    fams = system.families()
    if rules:
        return _rule_coverage(system, depth, opts)
    if engine == "explicit":
        whole = _exhaustive_fired(system, evaluator)
        if whole is not None:
            return _whole_coverage(depth, fams, whole)
        fired, _n, _done = explicit.explore(system, depth, opts.max_states, evaluator)
        return Coverage(depth, tuple(f for f in fams if f in fired), tuple(f for f in fams if f not in fired))
    if few_initial_states(system):
        # a small state space, explored whole at once: BMC would see exactly the families that fire within
        # ``depth`` steps, and where it misses one the coverage is the whole space's (below), without a query
        first = explicit.first_steps(system, EXHAUST_FIRST, evaluator)
        if first is not None:
            if all(first.get(f, depth + 1) <= depth for f in fams):
                return Coverage(depth, fams, (), ())
            return _whole_coverage(depth, fams, set(first))
    status = _reach(system, depth, opts, [(f, partial(_fired, f)) for f in fams])
    if any(v != "reached" for v in status.values()):
        # a family BMC did not see fire: exploring a small system's whole state space can say "never, at any depth"
        # (or find it deeper); when BMC saw every family fire, that search (up to 20,000 states) is not needed
        whole = _exhaustive_fired(system, evaluator)
        if whole is not None:
            return _whole_coverage(depth, fams, whole)
    return Coverage(
        depth,
        tuple(f for f in fams if status[f] == "reached"),
        tuple(f for f in fams if status[f] == "unreached"),
        tuple(f for f in fams if status[f] == "unknown"),
    )


def _exhaustive_fired(system: System, evaluator: Evaluator | None) -> set[str] | None:
    """Families fired in some reachable state, when the whole (small) state space can be explored."""
    if not few_initial_states(system):
        return None
    fired, _n, done = explicit.explore(system, 1_000_000, EXHAUST_STATES, evaluator)
    return fired if done else None


def _reach(system: System, depth: int, opts: Options,
           targets: Sequence[tuple[str, Callable[[Unrolling], Cond]]]) -> dict[str, str]:
    """``reached`` / ``unreached`` / ``unknown`` for each target within ``depth`` steps.

    The path grows one step at a time and the targets not yet reached are
    asked at every length, so that a target is found on a path that ends
    early (a declared end of the game) as well as on a long one.  At each
    length one query asks for any of them; every target the path it finds
    reaches is reached, and the query is repeated for the others until none
    is (a query that cannot decide is asked again per target).
    """
    clock = Clock(opts.timeout)
    fresh_context()
    u = Unrolling(system, initial=True, seed=opts.seed, deadline=clock.deadline)
    out: dict[str, str] = {}
    open_: dict[str, Callable[[Unrolling], Cond]] = dict(targets)
    unknown: set[str] = set()
    for _ in range(depth):
        if not open_:
            break
        u.extend()
        feasible = u.check()
        if feasible is SatResult.UNSAT:
            break  # no path is this long: nothing more can be reached
        if feasible is SatResult.UNKNOWN and u.reason == "timeout":
            unknown.update(open_)
            break  # the budget is spent: a longer path will not be decided either
        conds = {name: fn(u) for name, fn in open_.items()}
        while conds:
            r = u.check(u.any(list(conds.values())))
            if r is SatResult.UNSAT:
                break
            if r is SatResult.UNKNOWN:
                _each(u, conds, open_, out, unknown)
                break
            hit = [name for name, c in conds.items() if u.satisfied(c)]
            if not hit:  # (a model that satisfies the disjunction satisfies one of its parts)
                _each(u, conds, open_, out, unknown)
                break
            for name in hit:
                out[name] = "reached"
                del open_[name], conds[name]
                unknown.discard(name)
        if clock.deadline is not None and clock.left() == 0:
            unknown.update(open_)
            break
    for name in open_:
        out[name] = "unknown" if name in unknown else "unreached"
    return out


def _each(u: Unrolling, conds: dict[str, Cond], open_: dict[str, Callable[[Unrolling], Cond]], out: dict[str, str],
          unknown: set[str]) -> None:
    """Ask for each of ``conds`` alone (at the unrolling's present length)."""
    for name, c in list(conds.items()):
        r = u.check(c)
        if r is SatResult.SAT:
            out[name] = "reached"
            del open_[name]
            unknown.discard(name)
        elif r is SatResult.UNKNOWN:
            unknown.add(name)


def _fired(family: str, u: Unrolling) -> Cond:
    return u.fired(family)


def _fired_where(conds: Mapping[int, Expr], u: Unrolling) -> Cond:
    return u.fired_where(conds)


def _reached(e: Expr, u: Unrolling) -> Cond:
    return u.reached(e)


def _rule_coverage(system: System, depth: int, opts: Options) -> Coverage:
    fams = system.families()
    targets: list[tuple[str, Callable[[Unrolling], Cond]]] = [(f"action:{f}", partial(_fired, f)) for f in fams]
    branches = _branches(system)
    targets += [(f"branch:{label}", partial(_fired_where, conds)) for label, _fam, conds in branches]
    targets += [(f"cover:{name}", partial(_reached, e)) for name, e in system.covers]
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
    on_result: Callable[[Result], None] | None = None,
    with_coverage: bool = True,
) -> list[Result]:
    """Check the named properties (all, built-in ones included, when empty) of ``system``, in order.

    Consistency checks named in ``opts.skip_checks`` are left out; with
    ``opts.rule_coverage`` the coverage lists every rule (actions,
    conditional effects, coverage points).  ``on_result`` sees each result
    as soon as it is final (proved or violated at once; the others when the
    lemma fixpoint ends), so a caller can report it while the rest runs.
    Without ``with_coverage`` no coverage is searched (each result's coverage is empty).
    """
    ev = Evaluator(system)
    props = [p for p in system.properties if (not names or p.name in names) and p.check not in opts.skip_checks]
    depth = min(opts.depth, coverage_depth or opts.depth)
    cov = _guarded_coverage(system, depth, opts, engine, ev) if with_coverage else Coverage(depth, (), (), ())
    retry = engine == "auto" or REGISTRY[engine].uses_lemmas
    results: dict[str, Result] = {}
    lemmas: list[Property] = []
    tried_with: dict[tuple[str, bool], int] = {}  # lemmas at a property's last attempt: early stages, the others
    spent: dict[str, float] = {}
    emitted: set[str] = set()

    def attempt(p: Property, early: bool) -> None:
        tried_with[p.name, early] = len(lemmas)
        if engine == "auto":
            check = partial(_stages, system, p, opts, lemmas, progress, ev, early)
        else:
            check = partial(check_property, system, p, engine, opts, lemmas, progress, ev)
        r = _guarded(system, p, engine, opts, check)
        if p.check and r.verdict is Verdict.VIOLATED and r.trace is not None:
            why, cites = explain(system, p, r.trace.states, r.trace.steps[-1].action if r.trace.steps else None, ev)
            r = replace(r, reason="; ".join(x for x in (why, r.reason) if x), cites=cites or r.cites)
        spent[p.name] = spent.get(p.name, 0.0) + r.seconds
        results[p.name] = replace(r, coverage=cov, seconds=round(spent[p.name], 3))
        if r.verdict is Verdict.PROVED and p.kind is not PropKind.REACH:
            lemmas.append(p)
        if r.verdict in (Verdict.VIOLATED, Verdict.PROVED) and on_result is not None:
            emitted.add(p.name)
            on_result(results[p.name])

    def open_(p: Property, early: bool) -> bool:
        decided = p.name in results and results[p.name].verdict in (Verdict.VIOLATED, Verdict.PROVED)
        return not decided and tried_with.get((p.name, early), -1) < len(lemmas)  # never tried, or new lemmas

    # The lemma fixpoint over the properties that can become lemmas: with ``auto``, their early stages (a shallow
    # k-induction) until no new lemma comes, then the other stages of what is still open, and all again while
    # those bring lemmas; then each target once, with all of them.
    fixpoint = [p for p in props if p.kind is not PropKind.REACH]
    early = [p for p in fixpoint if engine == "auto" and any(s.early for s in AUTO[p.kind])]
    again = True
    while again:
        more = bool(early)
        while more:
            before = len(lemmas)
            for p in early:
                if open_(p, True):
                    attempt(p, True)
            more = len(lemmas) > before
        before = len(lemmas)
        for p in fixpoint:
            if open_(p, False):
                attempt(p, False)
        again = retry and len(lemmas) > before
    for p in props:
        if p.kind is PropKind.REACH and open_(p, False):
            attempt(p, False)
    if on_result is not None:
        for p in props:
            if p.name not in emitted:
                on_result(results[p.name])
    return [results[p.name] for p in props]


def _guarded(system: System, prop: Property, engine: str, opts: Options, check: Callable[[], Result]) -> Result:
    """``check()`` as one budget query: past its deadline (and the grace) or out of memory it is UNKNOWN."""
    clock = Clock(opts.timeout)
    try:
        with budget.query(opts.timeout, f"{system.name}[{system.scenario}] / {prop.name}", rlimit=opts.rlimit):
            return check()
    except budget.QueryTimeout:
        why = f"timeout: still running {opts.timeout:g} s after it started, stopped" if opts.timeout else "timeout"
        return result(system, prop, Verdict.UNKNOWN, 0, engine, clock, reason=why)
    except MemoryError:
        return result(system, prop, Verdict.UNKNOWN, 0, engine, clock, reason=_out_of_memory())
    except Exception as exc:
        budget.reraise_pending(exc)  # an interrupt that surfaced as another exception
        raise


def _out_of_memory() -> str:
    limit = budget.memory_limit()
    return "out of memory" + (f" (the memory limit is {limit // 2**20} MiB: --memory-limit)" if limit else "")


def _guarded_coverage(system: System, depth: int, opts: Options, engine: str, ev: Evaluator) -> Coverage:
    """:func:`coverage` as one budget query; stopped or out of memory, every action's coverage is unknown."""
    try:
        with budget.query(opts.timeout, f"{system.name}[{system.scenario}] / coverage", rlimit=opts.rlimit):
            return coverage(system, depth, opts, engine, ev, rules=opts.rule_coverage)
    except (budget.QueryTimeout, MemoryError):
        fams = system.families()
        rules = tuple(RuleCoverage("action", f, "", "unknown") for f in fams) if opts.rule_coverage else ()
        return Coverage(depth, (), (), tuple(fams), rules)
    except Exception as exc:
        budget.reraise_pending(exc)
        raise
