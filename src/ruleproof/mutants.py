"""Rule mutants: does the property suite notice a broken rule?

Mutants are made on the ground IR of a system, family by family, so that they
mean something to a rules designer:

* ``drop-update``: an action no longer changes one state array (e.g. marshal
  stops returning gold to the treasury);
* ``drop-guard``: an action loses one of its requirements, named by the line of
  the model that states it (``require at claim.py:159``; a requirement with
  several conditions gives one mutant per condition, ``part 2 of 3``);
* ``off-by-one``: an action's update to one Int array is one too high;
* ``rule``: one of the system's own rule mutants, a rule broken by hand
  (built with ``mutant=NAME``; :mod:`ruleproof.scale.mutants` adds them).

A mutant is judged in every checked scenario of its system (labels name the
same rule in each scenario):

``killed``
    some property is violated (a replayed trace) in some scenario, or a sanity
    target the rules reach is unreachable.  Kills are searched before any proof
    is attempted, so a proof attempt that runs out of budget never hides one.
``equivalent``
    proved to agree with the rules on what the game shows, in every scenario:
    from the same initial state, taking the same action with the same choices,
    the observable state (:meth:`ruleproof.dsl.Model.var` ``observable=``) stays
    equal and an action is allowed by the mutant exactly when the rules allow it.
``survived``
    no property notices it, and it is not proved equivalent: a hole in the
    property suite, with a trace on which the mutant and the rules differ when
    one was found.
``unknown``
    some property could be neither violated nor cleared within the budget.

Small systems are judged exactly by exhaustive search on the concrete
evaluator (no solver budget, so the verdict cannot depend on machine load);
larger ones by BMC to the depth and, for equivalence, by the engines on the
product system (:func:`product`).
"""

from __future__ import annotations

import itertools
from collections import deque
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Callable, Iterator, Mapping, Sequence

from . import ir
from .consistency import DEADLOCK, DETERMINISM, Consistency, consistency_properties, enabled_expr
from .encoder import initial_state
from .engines.common import Options, replay, show_value
from .engines.explicit import Parent, trace_path
from .engines.registry import EARLY_KMAX, few_initial_states
from .engines.runner import check_guarded, check_system
from .evaluator import Evaluator, Fn, State, domain
from .ir import Action, Expr, IntT, Property, PropKind, System, Value
from .report import show_expr
from .results import RawTrace, Result, Trace, Verdict

__all__ = [
    "STATUSES",
    "RULE",
    "Mutant",
    "MutantResult",
    "Judgement",
    "Baseline",
    "mutants_of",
    "baseline",
    "kill",
    "equivalence",
    "judge",
    "combine",
    "product",
    "alike",
    "AGREES",
    "EXHAUST_STATES",
]

STATUSES = ("killed", "equivalent", "survived", "unknown")

RULE = "rule"
"""The kind of a system's own rule mutant (``mutant=NAME``: a rule broken on purpose, by hand)."""

EXHAUST_STATES = 60_000
"""States an exhaustive search of a system (or of the rules and a mutant side by side) may visit."""

AGREES = "the mutant agrees with the rules on what the game shows"
"""The invariant of the product system (:func:`product`)."""


@dataclass(frozen=True)
class Mutant:
    """One broken rule: ``kind`` of change, action ``family``, what it targets, and the broken system."""

    kind: str
    family: str
    target: str
    system: System
    detail: str = ""  # what was dropped or changed, as text (the first ground instance's)

    @property
    def label(self) -> str:
        return f"{self.kind} {self.family}: {self.target}" if self.family else f"{self.kind}: {self.target}"


@dataclass(frozen=True)
class MutantResult:
    """The verdict on one mutant over every checked scenario of its system."""

    label: str
    status: str  # one of STATUSES
    killed_by: tuple[str, ...] = ()
    reason: str = ""
    scenario: str = ""  # the scenario that decided it (killed / survived), "" when all did
    trace: Trace | None = None  # killed: the counterexample; survived: where the mutant and the rules differ
    detail: str = ""


# --------------------------------------------------------------------------- generation


class _Enabled:
    """:func:`~ruleproof.consistency.enabled_expr` remembered by guard and choices (all it reads but for the
    error message): the mutants of one system share all but a few actions, and a mutant that edits only
    updates keeps every guard; expanding every guard again for each mutant was most of the generation's time."""

    def __init__(self) -> None:
        self._memo: dict[tuple[Expr, tuple[ir.ChoiceVar, ...]], Expr] = {}

    def __call__(self, a: Action) -> Expr:
        key = (a.guard, a.choices)
        hit = self._memo.get(key)
        if hit is None:
            hit = self._memo[key] = enabled_expr(a)
        return hit


def _with_actions(system: System, fam: str, fn: Callable[[Action], Action], enabled: _Enabled) -> System:
    """``system`` with the actions of ``fam`` edited, and its consistency checks made for the edited actions."""
    acts = tuple(fn(a) if a.family == fam else a for a in system.actions)
    decl = Consistency(ends=tuple((e, ()) for e in system.ends))
    made = {p.check: p for p in consistency_properties(acts, decl, enabled)}
    props = tuple(replace(made[p.check], name=p.name, cites=p.cites, doc=p.doc)
                  if p.check in (DEADLOCK, DETERMINISM) and p.check in made else p for p in system.properties)
    return replace(system, actions=acts, properties=props)


def _site(r: ir.Requirement) -> str:
    return f"{Path(r.loc.file).name}:{r.loc.line}" if r.loc is not None else "requirement"


def _parts(a: Action) -> list[tuple[str, tuple[Expr, ...]]]:
    """The guard of ``a`` as ``(site, conditions)``: one entry per ``require`` line when the model recorded them."""
    reqs = a.requires
    if reqs and ir.and_(*(r.expr for r in reqs)) == a.guard:
        out: list[tuple[str, tuple[Expr, ...]]] = []
        seen: dict[str, int] = {}
        for r in reqs:
            site = _site(r)
            seen[site] = seen.get(site, 0) + 1
            key = f"require at {site}" + (f" #{seen[site]}" if seen[site] > 1 else "")
            out.append((key, tuple(c for c in ir.conjuncts(r.expr) if c != ir.TRUE)))
        return out
    return [(f"condition {i + 1}", (c,)) for i, c in enumerate(ir.conjuncts(a.guard)) if c != ir.TRUE]


def _drop(a: Action, site: str, part: int | None) -> Action:
    """``a`` without the requirement at ``site`` (only its condition ``part`` when given)."""
    kept: list[Expr] = []
    for key, cs in _parts(a):
        if key != site:
            kept.extend(cs)
        elif part is not None and len(cs) > part:
            kept.extend(c for j, c in enumerate(cs) if j != part)
    return replace(a, guard=ir.and_(*kept), requires=())


def _without_update(arrays: Mapping[str, str], arr: str) -> Callable[[Action], Action]:
    def edit(a: Action) -> Action:
        return replace(a, updates=tuple(u for u in a.updates if arrays[u.var] != arr),
                       writes=tuple(w for w in a.writes if arrays[w.var] != arr))
    return edit


def _plus_one(arrays: Mapping[str, str], arr: str) -> Callable[[Action], Action]:
    def edit(a: Action) -> Action:
        return replace(a, updates=tuple(
            ir.Update(u.var, ir.add(u.expr, ir.const(1))) if arrays[u.var] == arr else u for u in a.updates),
            writes=tuple(replace(w, value=ir.add(w.value, ir.const(1))) if arrays[w.var] == arr else w
                         for w in a.writes))
    return edit


def _without(site: str, part: int | None) -> Callable[[Action], Action]:
    def edit(a: Action) -> Action:
        return _drop(a, site, part)
    return edit


def mutants_of(system: System) -> Iterator[Mutant]:
    """Every generated mutant of ``system``, in a fixed order (per family: updates, requirements, off-by-one)."""
    arrays = {v.name: v.array for v in system.vars}
    types = {v.name: v.type for v in system.vars}
    enabled = _Enabled()
    for fam in system.families():
        insts = [a for a in system.actions if a.family == fam]
        if not insts:
            continue
        updated: dict[str, None] = {}
        for a in insts:
            for u in a.updates:
                updated.setdefault(arrays[u.var], None)
        for arr in updated:
            yield Mutant("drop-update", fam, arr, _with_actions(system, fam, _without_update(arrays, arr), enabled))
        sites: dict[str, list[tuple[Expr, ...]]] = {}
        for a in insts:
            for key, cs in _parts(a):
                if cs:
                    sites.setdefault(key, []).append(cs)
        for key, found in sites.items():
            n = len(found[0])
            if n > 1 and all(len(cs) == n for cs in found):
                for j in range(n):
                    yield Mutant("drop-guard", fam, f"{key} (part {j + 1} of {n})",
                                 _with_actions(system, fam, _without(key, j), enabled), show_expr(found[0][j]))
            else:
                text = " and ".join(show_expr(c) for c in found[0])
                yield Mutant("drop-guard", fam, key, _with_actions(system, fam, _without(key, None), enabled), text)
        for arr in updated:
            if any(isinstance(types[u.var], IntT) and arrays[u.var] == arr for a in insts for u in a.updates):
                yield Mutant("off-by-one", fam, arr, _with_actions(system, fam, _plus_one(arrays, arr), enabled))


# --------------------------------------------------------------------------- exhaustive search


Edge = tuple[int, int, State]
"""One step of an explored system: action index, index of the choice vector (:meth:`Evaluator.choice_space`),
successor."""

Graph = Mapping[State, tuple[Edge, ...]]
"""An exhaustive search's steps: every visited state's edges, in the order :meth:`Evaluator.successors` gives."""

_NO_GRAPH: Graph = {}


@dataclass(frozen=True)
class _Search:
    complete: bool  # every reachable state was visited
    violated: tuple[tuple[str, RawTrace], ...]  # property, shortest counterexample (BFS order)
    reached: frozenset[str]  # sanity targets reached
    states: frozenset[State]  # the states visited
    graph: Graph = field(default_factory=dict, compare=False, repr=False)  # the steps of every state expanded


@dataclass(frozen=True)
class _Known:
    """What the rules' own search established: their reachable states keep every shared property.

    A mutant can violate a shared invariant only in a state the rules do not reach, and a shared
    action property only on a step the rules do not take (same action, choices and successor).
    ``graph``: the rules' own steps from each of their reachable states; an action the mutant has
    unchanged takes the same steps there, so only the mutant's changed actions are evaluated.
    """

    rules: System
    states: frozenset[State]
    shared: frozenset[str]  # properties the mutant states exactly as the rules do
    graph: Graph = field(default_factory=dict, compare=False, repr=False)


def _same_vars(a: System, b: System) -> bool:
    """The same state variables in the same order (a state of one is a state of the other)."""
    return a.vars is b.vars or [(v.name, v.type) for v in a.vars] == [(v.name, v.type) for v in b.vars]


def _unchanged(rules: System, mutant: System) -> tuple[dict[int, int], dict[int, int]]:
    """The mutant's actions that are the rules' own (the same object, or equal), by the rules' index; and
    those that differ only in their updates (the same guard and choices: enabled exactly where the rules' are)."""
    ri = {a.label: i for i, a in enumerate(rules.actions)}
    same: dict[int, int] = {}
    guarded: dict[int, int] = {}
    for ai, a in enumerate(mutant.actions):
        i = ri.get(a.label)
        if i is None:
            continue
        b = rules.actions[i]
        if b is a or b == a:
            same[i] = ai
        elif (b.guard is a.guard or b.guard == a.guard) and b.choices == a.choices:
            guarded[i] = ai
    return same, guarded


def _edge_order(e: Edge) -> tuple[int, int]:
    return e[0], e[1]


def _explore(system: System, ev: Evaluator, names: Sequence[str], stop_at_first: bool,
             known: _Known | None = None) -> _Search:
    """Breadth-first search of every reachable state, checking the named properties on the way."""
    props = [p for p in system.properties if p.name in set(names)]
    shared = known.shared if known is not None else frozenset()
    invs = [(p.name, ev.compile(p.expr), p.name in shared) for p in props if p.kind is PropKind.INVARIANT]
    tgts = [(p.name, ev.compile(p.expr)) for p in props if p.kind is PropKind.REACH]
    per_action: list[list[tuple[str, Fn, bool]]] = [[] for _ in system.actions]
    for p in props:
        if p.kind is PropKind.ACTION:
            conds = dict(p.conds)
            for ai, a in enumerate(system.actions):
                if p.applies_to(a) and a.label in conds:
                    per_action[ai].append((p.name, ev.compile(conds[a.label]), p.name in shared))
    seen_before = known.states if known is not None else frozenset()
    rules_ev = Evaluator(known.rules) if known is not None else None
    rules_index = {a.label: i for i, a in enumerate(known.rules.actions)} if known is not None else {}
    same_step: list[int | None] = [rules_index.get(a.label) for a in system.actions]
    # from a state the rules reach, an action the mutant has unchanged takes the rules' recorded steps
    rules_graph = known.graph if known is not None and _same_vars(known.rules, system) else _NO_GRAPH
    same_as, same_guard = _unchanged(known.rules, system) if known is not None and rules_graph else ({}, {})
    reused = frozenset(same_as.values())
    fresh = [ai for ai in range(len(system.actions)) if ai not in reused and ai not in same_guard.values()]
    fresh_set = frozenset(fresh)
    spaces = [ev.choice_space(ai) for ai in range(len(system.actions))]
    parents: dict[State, Parent] = {}
    graph: dict[State, tuple[Edge, ...]] = {}
    violated: dict[str, RawTrace] = {}
    reached: set[str] = set()
    empty: dict[str, Value] = {}

    def visit(s: State) -> None:
        old = s in seen_before
        for name, f, sh in invs:
            if not (old and sh) and name not in violated and not f(s, None, empty):
                violated[name] = trace_path(parents, s)
        for name, f in tgts:
            if name not in reached and f(s, None, empty):
                reached.add(name)

    def done(complete: bool) -> _Search:
        return _Search(complete, tuple(violated.items()), frozenset(reached), frozenset(parents), graph)

    queue: deque[State] = deque()
    for s in ev.initial_states():
        if s in parents:
            continue
        parents[s] = (None, -1, ())
        visit(s)
        queue.append(s)
        if stop_at_first and violated:
            return done(False)
    while queue:
        s = queue.popleft()
        old = s in seen_before
        theirs = rules_graph.get(s) if rules_graph else None
        agreed: set[tuple[int, int]] = set()  # the mutant's steps from s that are the rules' own steps
        if theirs is None:
            edges = ev.edges(s)
        else:
            edges = []
            for rj, ci, tr in theirs:
                mine = same_as.get(rj)
                if mine is not None:
                    edges.append((mine, ci, tr))
                    agreed.add((mine, ci))
                    continue
                mine = same_guard.get(rj)
                if mine is not None:  # enabled as the rules' action is: only its updates differ
                    tm = ev.update(mine, s, spaces[mine][ci])
                    edges.append((mine, ci, tm))
                    if tm == tr:
                        agreed.add((mine, ci))
            if fresh or same_guard:
                edges += ev.edges(s, fresh)
                edges.sort(key=_edge_order)
        graph[s] = tuple(edges)
        for ai, ci, t in edges:
            ch = spaces[ai][ci]
            chs = tuple(sorted(ch.items()))
            checks = per_action[ai]
            if checks and old and rules_ev is not None:
                if (ai, ci) in agreed:  # the rules' own step: shared ones hold
                    checks = [c for c in checks if not c[2]]
                elif theirs is None or ai in fresh_set:
                    ri = same_step[ai]
                    if ri is not None and rules_ev.apply(ri, s, ch) == t:  # a step the rules take
                        checks = [c for c in checks if not c[2]]
            for name, f, _sh in checks:
                if name not in violated and not f(s, t, ch):
                    violated[name] = trace_path(parents, s, (ai, chs, t))
            if t not in parents:
                parents[t] = (s, ai, chs)
                visit(t)
                queue.append(t)
            if stop_at_first and violated:
                return done(False)
            if len(parents) > EXHAUST_STATES:
                return done(False)
    return done(True)


# --------------------------------------------------------------------------- the rules' own verdicts


@dataclass(frozen=True)
class Baseline:
    """What the rules themselves do in one scenario: a mutant is judged only against properties they keep.

    ``ignored``: properties the rules violate, and sanity targets they do not
    reach (within the depth): neither can kill a mutant.  ``exhaustive``: the
    rules' whole state space was explored (mutants are then searched the same way).
    """

    scenario: str
    ignored: tuple[str, ...]
    exhaustive: bool
    reasons: tuple[tuple[str, str], ...] = ()
    states: frozenset[State] = frozenset()  # the rules' reachable states (exhaustive only)
    proved: tuple[str, ...] = ()  # invariants and action properties the rules keep at every depth
    graph: Graph = field(default_factory=dict, compare=False, repr=False)  # the rules' steps (exhaustive only)


def baseline(system: System, opts: Options) -> Baseline:
    """The rules' own verdicts, by exhaustive search for a small system, otherwise by the engines."""
    names = [p.name for p in system.properties if p.check not in opts.skip_checks]
    if few_initial_states(system):
        found = _explore(system, Evaluator(system), names, stop_at_first=False)
        if found.complete:
            bad = {n for n, _ in found.violated}
            unreached = {p.name for p in system.properties if p.kind is PropKind.REACH and p.name not in found.reached}
            kept = tuple(p.name for p in system.properties if p.name in names and p.kind is not PropKind.REACH
                         and p.name not in bad)
            return Baseline(system.scenario, tuple(n for n in names if n in bad | unreached), True,
                            states=found.states, proved=kept, graph=found.graph)
    results = check_system(system, "auto", opts, names, with_coverage=False)  # (a mutant is judged on properties)
    ignored = [r.property for r in results if r.verdict is Verdict.VIOLATED
               or (r.kind == PropKind.REACH.value and r.verdict is not Verdict.PROVED)]
    proved = tuple(r.property for r in results if r.verdict is Verdict.PROVED and r.kind != PropKind.REACH.value)
    return Baseline(system.scenario, tuple(ignored), False,
                    tuple((r.property, r.reason) for r in results if r.property in ignored), proved=proved)


# --------------------------------------------------------------------------- judging one scenario


@dataclass(frozen=True)
class Judgement:
    """A mutant in one scenario: ``killed`` / ``equivalent`` / ``differs`` / ``open`` / ``unknown``.

    ``differs``: not killed and shown to differ from the rules (trace when found);
    ``open``: not killed, equivalence neither proved nor refuted.
    """

    scenario: str
    status: str
    killed_by: tuple[str, ...] = ()
    trace: Trace | None = None
    reason: str = ""
    proved: tuple[str, ...] = ()  # the mutant's own properties proved by the kill search (lemmas for equivalence)
    graph: Graph = field(default_factory=dict, compare=False, repr=False)  # the mutant's steps (exhaustive search)


def _shared(rules: System, mutant: System) -> frozenset[str]:
    """Properties the mutant states exactly as the rules do (the same object, or equal)."""
    theirs = {p.name: p for p in rules.properties}
    return frozenset(p.name for p in mutant.properties if theirs.get(p.name) is p or theirs.get(p.name) == p)


def _kill_exhaustive(rules: System, mutant: System, base: Baseline, names: Sequence[str]) -> Judgement | None:
    ev = Evaluator(mutant)
    known = _Known(rules, base.states, _shared(rules, mutant), base.graph)
    found = _explore(mutant, ev, [n for n in names if n not in base.ignored], stop_at_first=True, known=known)
    if found.violated:
        name, raw = found.violated[0]
        return Judgement(base.scenario, "killed", (name,), replay(mutant, ev, raw, mutant.prop(name)))
    if not found.complete:
        return None  # too many states: the engines decide
    lost = [p.name for p in mutant.properties if p.kind is PropKind.REACH and p.name in names
            and p.name not in base.ignored and p.name not in found.reached]
    if lost:
        return Judgement(base.scenario, "killed", tuple(lost),
                         reason=f"sanity target unreachable: all {len(found.states)} reachable states explored")
    return Judgement(base.scenario, "open", graph=found.graph)


def _kill_symbolic(mutant: System, base: Baseline, names: Sequence[str], opts: Options) -> Judgement:
    """Every property in declaration order: the first one the mutant violates within the depth kills it.

    An invariant or action property is first tried by a shallow k-induction (k <= :data:`EARLY_KMAX`) with the
    properties proved of the mutant before it as lemmas: proved, it cannot be violated at any depth and becomes a
    lemma; its base case violated, that is a violation within the depth.  Otherwise BMC to the depth, with the
    lemmas (true in every reachable state of the mutant, so no path is lost and the solver has less to search).
    A target: BMC, then Spacer to show it unreachable.  Kills are searched before any equivalence proof.
    """
    unknown: dict[str, str] = {}
    lemmas: list[Property] = []
    shallow = replace(opts, kmax=max(0, min(opts.kmax, EARLY_KMAX, opts.depth - 1)))
    tried: dict[str, int] = {}  # lemmas at a property's last BMC

    def killed(p: Property, r: Result) -> Judgement:
        return Judgement(base.scenario, "killed", (p.name,), r.trace, reason=r.reason if r.trace is None else "")

    def bounded(p: Property) -> Judgement | None:
        """A shallow proof, else BMC: killed, or None (cleared, proved or unknown, noted)."""
        r = check_guarded(mutant, p, "kind", shallow, lemmas)
        if r.verdict is Verdict.PROVED:
            lemmas.append(p)
            unknown.pop(p.name, None)
            return None
        if r.verdict is Verdict.VIOLATED:
            return killed(p, r)
        tried[p.name] = len(lemmas)
        r = check_guarded(mutant, p, "bmc", opts, lemmas)
        if r.verdict is Verdict.VIOLATED:
            return killed(p, r)
        if r.verdict is Verdict.UNKNOWN:
            unknown[p.name] = r.reason
        else:
            unknown.pop(p.name, None)
        return None

    for p in mutant.properties:
        if p.name not in names or p.name in base.ignored:
            continue
        if p.kind is PropKind.REACH:
            r = check_guarded(mutant, p, "bmc", opts, lemmas)
            if r.verdict is Verdict.PROVED:
                continue
            r = check_guarded(mutant, p, "chc", opts, lemmas)
            if r.verdict is Verdict.VIOLATED:
                return Judgement(base.scenario, "killed", (p.name,), reason=r.reason)
            unknown[p.name] = f"target not reached within {opts.depth} steps, not proved unreachable"
            continue
        j = bounded(p)
        if j is not None:
            return j
    # what no query decided is tried again with the lemmas proved after it (a later property may make it inductive)
    again = True
    while again:
        again = False
        for p in mutant.properties:
            if p.name in unknown and p.kind is not PropKind.REACH and tried.get(p.name, -1) < len(lemmas):
                before = len(lemmas)
                j = bounded(p)
                if j is not None:
                    return j
                again = again or len(lemmas) > before
    proved = tuple(p.name for p in lemmas)
    if unknown:
        return Judgement(base.scenario, "unknown", reason="; ".join(f"{n}: {w}" for n, w in unknown.items()),
                         proved=proved)
    return Judgement(base.scenario, "open", proved=proved)


def kill(rules: System, mutant: System, base: Baseline, opts: Options) -> Judgement:
    """Does some property of the mutant fail in this scenario?  ``killed``, ``open`` (no) or ``unknown``."""
    names = [p.name for p in mutant.properties if p.check not in opts.skip_checks]
    j: Judgement | None = None
    if base.exhaustive and few_initial_states(mutant):
        j = _kill_exhaustive(rules, mutant, base, names)
    return j if j is not None else _kill_symbolic(mutant, base, names, opts)


Scenario = tuple[System, "System | None", Baseline]
"""One checked scenario of a system: the rules, the mutant there (None: not made there), the rules' verdicts."""


def judge(label: str, scenarios: Sequence[Scenario], opts: Options, detail: str = "",
          reuse: bool = True) -> MutantResult:
    """The verdict on one mutant over the scenarios: kills are searched in all of them before any equivalence.

    ``reuse``: an exhaustive search of the mutant takes the rules' recorded steps for the actions it has
    unchanged, and the side-by-side exploration reads both sides' recorded steps instead of evaluating
    them again (the same verdicts, reasons and traces as without; ``False`` evaluates every step afresh).
    """
    present = [(r, m, b) for r, m, b in scenarios if m is not None]
    if not present:
        return MutantResult(label, "unknown", reason="the mutant exists in no checked scenario", detail=detail)
    kills: list[Judgement] = []
    for r, m, b in present:
        assert m is not None
        j = kill(r, m, b if reuse else replace(b, graph=_NO_GRAPH), opts)
        if j.status == "killed":
            return combine(label, [j], detail)
        kills.append(j)
    out: list[Judgement] = []
    for (r, m, b), k in zip(present, kills, strict=True):
        assert m is not None
        eq = equivalence(r, m, opts, b.proved, k.proved, *((b.graph, k.graph) if reuse else ()))
        if k.status == "unknown" and eq.status != "equivalent":
            eq = replace(k, reason=f"{k.reason}; {eq.reason}" if eq.reason else k.reason)
        out.append(eq)
        if eq.status == "differs" and not any(x.status == "unknown" for x in kills):
            break  # a difference: the mutant survived, whatever the other scenarios say
    return combine(label, out, detail)


# --------------------------------------------------------------------------- equivalence


def _observed(system: System, ev: Evaluator) -> list[tuple[int, Fn | None]]:
    """The observable variables and, for each, the condition under which the game shows it (None: always)."""
    return [(i, ev.compile(v.shown) if v.shown is not None else None)
            for i, v in enumerate(system.vars) if v.observable]


def _pairing(rules: System, mutant: System) -> list[tuple[int | None, int | None]]:
    """Ground actions of the rules and of the mutant, paired by label (the same game action)."""
    mi = {a.label: i for i, a in enumerate(mutant.actions)}
    ri = {a.label: i for i, a in enumerate(rules.actions)}
    out: list[tuple[int | None, int | None]] = [(i, mi.get(a.label)) for i, a in enumerate(rules.actions)]
    out += [(None, j) for j, a in enumerate(mutant.actions) if a.label not in ri]
    return out


def _choice_vectors(rules: System, mutant: System, io: int | None, im: int | None) -> list[dict[str, Value]]:
    cs: dict[str, ir.ChoiceVar] = {}
    for sysm, i in ((rules, io), (mutant, im)):
        if i is not None:
            for c in sysm.actions[i].choices:
                cs.setdefault(c.name, c)
    names = list(cs)
    return [dict(zip(names, vals, strict=True)) for vals in itertools.product(*(domain(cs[n].type) for n in names))]


def equivalence(rules: System, mutant: System, opts: Options, rules_proved: Sequence[str] = (),
                mutant_proved: Sequence[str] = (), rules_graph: Graph = _NO_GRAPH,
                mutant_graph: Graph = _NO_GRAPH) -> Judgement:
    """Do the mutant and the rules agree on what the game shows?  ``equivalent``, ``differs`` or ``open``.

    ``rules_proved`` / ``mutant_proved``: invariants proved of the rules / of the mutant, assumed of each side
    of the product system (each side of it runs only its own reachable states).  ``rules_graph`` /
    ``mutant_graph``: each side's steps recorded by its exhaustive search (read instead of evaluated again).
    """
    start = _same_start(rules, mutant)
    if start is not None:
        return start
    if few_initial_states(rules):
        j = _paired_search(rules, mutant, rules_graph, mutant_graph)
        if j is not None:
            return j
    return _product_check(rules, mutant, opts, rules_proved, mutant_proved)


def _initial_condition(system: System) -> Expr:
    """The initial condition of ``system`` as one expression over its variables."""
    types = {v.name: v.type for v in system.vars}
    return ir.and_(*(ir.or_(*(ir.eq(ir.Var(iv.var, types[iv.var]), ir.Const(x, types[iv.var])) for x in iv.values))
                     for iv in system.init_vars), *system.init_constraints)


def _start_outside(a: System, b: System, also: Sequence[Expr] = ()) -> State | None:
    """An initial state of ``a`` (where ``also`` holds) that is not an initial state of ``b``; None: there is none.

    ``a`` and ``b`` declare the same variables.  One small solver query on the initial conditions alone.
    """
    cond = ir.not_(_initial_condition(b)) if b is not a else ir.TRUE
    probe = replace(a, actions=(), properties=(), init_constraints=a.init_constraints + (cond, *also))
    return initial_state(probe)


def _same_start(rules: System, mutant: System) -> Judgement | None:
    """None when the mutant has the rules' state variables and initial states, else why it is not compared.

    Equivalence (and the product system, whose sides assume what was proved of each from its own initial
    states) is judged from the same initial state: a mutant that starts elsewhere is not equivalent.  When
    it starts in a state that no initial state of the other side matches on what the game shows, that state
    is the difference (``differs``, a trace of no step); otherwise it is left ``open``.
    """
    if [(v.name, v.type) for v in rules.vars] != [(v.name, v.type) for v in mutant.vars]:
        return Judgement(rules.scenario, "open", reason="the mutant declares other state variables than the rules "
                         "(equivalence is judged on the same variables: not attempted)")
    if rules.init_vars == mutant.init_vars and rules.init_constraints == mutant.init_constraints:
        return None
    for a, b, who in ((mutant, rules, "the mutant may start in this state, the rules may not"),
                      (rules, mutant, "the rules may start in this state, the mutant may not")):
        s = _start_outside(a, b)
        if s is None:
            continue
        shown = tuple(ir.eq(ir.Var(v.name, v.type), ir.Const(s[i], v.type))
                      for i, v in enumerate(rules.vars) if v.observable and v.shown is None)
        if _start_outside(b, b, shown) is not None:  # the other side may start alike in what the game shows
            return Judgement(rules.scenario, "open", reason=f"the initial states differ ({who}, in variables the "
                             "game does not show): equivalence from other initial states is not attempted")
        trace = replay(a, Evaluator(a), RawTrace((s,), ()), None)
        return Judgement(rules.scenario, "differs", trace=trace, reason=f"{who} (their initial states differ)")
    return None


def _aligned(rules: System, mutant: System, pairs: Sequence[tuple[int | None, int | None]]) -> bool:
    """Each paired action's choice vectors are its own on each side (the same choices, in the same order)."""
    for io, im in pairs:
        if io is not None and im is not None:
            a, b = rules.actions[io].choices, mutant.actions[im].choices
            if [(c.name, c.type) for c in a] != [(c.name, c.type) for c in b]:
                return False
    return True


def _paired_search(rules: System, mutant: System, rules_graph: Graph = _NO_GRAPH,
                   mutant_graph: Graph = _NO_GRAPH) -> Judgement | None:
    """Explore the rules and the mutant side by side (same action, same choices) from each initial state.

    Each side's steps from a state are read from its recorded graph when there (an exhaustive search of that
    side recorded them), otherwise evaluated; the pairs are visited in the same order either way.
    """
    evr, evm = Evaluator(rules), Evaluator(mutant)
    obs = _observed(rules, evr)
    obs_m = dict(_observed(mutant, evm))
    empty: dict[str, Value] = {}
    shown_m = {v.name: v.shown for v in mutant.vars}
    # twins (equal states) agree on what is shown when each observable variable is shown under the same condition
    twins_agree = _same_vars(rules, mutant) and all(v.shown == shown_m.get(v.name)
                                                    for v in rules.vars if v.observable)

    def unequal(sr: State, sm: State) -> list[int]:
        if twins_agree and sr == sm:
            return []
        out: list[int] = []
        for i, f in obs:
            g = obs_m.get(i)
            if f is None or g is None:
                if sr[i] != sm[i]:
                    out.append(i)
            elif f(sr, None, empty) != g(sm, None, empty) or (f(sr, None, empty) and sr[i] != sm[i]):
                out.append(i)
        return out
    pairs = _pairing(rules, mutant)
    vectors = [_choice_vectors(rules, mutant, io, im) for io, im in pairs]
    same = [io is not None and im is not None and (rules.actions[io] is mutant.actions[im]
                                                   or rules.actions[io] == mutant.actions[im]) for io, im in pairs]
    Pair = tuple[State, State]
    parents: dict[Pair, tuple[Pair | None, int, tuple[tuple[str, Value], ...]]] = {}

    def differs(p: Pair, why: str, last: tuple[int, dict[str, Value]] | None = None) -> Judgement:
        states: list[State] = []
        steps: list[tuple[int, tuple[tuple[str, Value], ...]]] = []
        cur: Pair | None = p
        while cur is not None:
            states.append(cur[0])
            prev, k, ch = parents[cur]
            if prev is not None:
                io = pairs[k][0]
                assert io is not None
                names = {c.name for c in rules.actions[io].choices}
                steps.append((io, tuple((n, v) for n, v in ch if n in names)))
            cur = prev
        states.reverse()
        steps.reverse()
        trace = replay(rules, evr, RawTrace(tuple(states), tuple(steps)), None)
        return Judgement(rules.scenario, "differs", trace=trace, reason=why)

    queue: deque[Pair] = deque()
    for s in evr.initial_states():  # the mutant's are the same (_same_start)
        parents[(s, s)] = (None, -1, ())
        queue.append((s, s))
    fast = _aligned(rules, mutant, pairs)
    k_of_m = {im: k for k, (_io, im) in enumerate(pairs) if im is not None}  # the rules' action io is pair io

    def steps_r(sr: State) -> dict[tuple[int, int], State]:
        es = rules_graph.get(sr)
        return {(io, ci): t for io, ci, t in (es if es is not None else evr.edges(sr))}

    def steps_m(sm: State) -> dict[tuple[int, int], State]:
        es = mutant_graph.get(sm)
        return {(k_of_m[im], ci): t for im, ci, t in (es if es is not None else evm.edges(sm))}

    while queue:
        p = queue.popleft()
        sr, sm = p
        bad = unequal(sr, sm)
        if bad:
            diff = ", ".join(f"{rules.vars[i].label} is {_show(rules, i, sr[i])} by the rules, "
                             f"{_show(rules, i, sm[i])} in the mutant" for i in bad)
            return differs(p, f"then {diff}")
        if fast:  # the steps both sides allow, in the order of (pair, choice vector), as the loop below visits them
            rs = steps_r(sr)
            ms = steps_m(sm)
            for key in sorted(rs.keys() | ms.keys()):
                nr, nm = rs.get(key), ms.get(key)
                k, ci = key
                if nr is None or nm is None:
                    io, im = pairs[k]
                    ch = vectors[k][ci]
                    a = (rules.actions[io] if io is not None else mutant.actions[im])  # type: ignore[index]
                    chosen = f" ({', '.join(f'{n}={v}' for n, v in ch.items())})" if ch else ""
                    who = ("the mutant allows it, the rules do not" if nr is None
                           else "the rules allow it, the mutant does not")
                    return differs(p, f"then '{a.description}'{chosen}: {who}")
                q = (nr, nm)
                if q not in parents:
                    parents[q] = (p, k, tuple(sorted(vectors[k][ci].items())))
                    queue.append(q)
                    if len(parents) > EXHAUST_STATES:
                        return None
            continue
        twins = sr == sm
        for k, (io, im) in enumerate(pairs):
            for ch in vectors[k]:
                nr = evr.apply(io, sr, ch) if io is not None else None
                if twins and same[k]:
                    nm = nr  # the same state and the same rule: the same step
                else:
                    nm = evm.apply(im, sm, ch) if im is not None else None
                if (nr is None) != (nm is None):
                    a = (rules.actions[io] if io is not None else mutant.actions[im])  # type: ignore[index]
                    chosen = f" ({', '.join(f'{n}={v}' for n, v in ch.items())})" if ch else ""
                    who = ("the mutant allows it, the rules do not" if nr is None
                           else "the rules allow it, the mutant does not")
                    return differs(p, f"then '{a.description}'{chosen}: {who}")
                if nr is None or nm is None:
                    continue
                q = (nr, nm)
                if q not in parents:
                    parents[q] = (p, k, tuple(sorted(ch.items())))
                    queue.append(q)
                    if len(parents) > EXHAUST_STATES:
                        return None
    return Judgement(rules.scenario, "equivalent",
                     reason=f"all {len(parents)} reachable pairs of states explored side by side")


def _show(system: System, i: int, v: Value) -> str:
    x = show_value(system.vars[i].type, v)
    return str(x).lower() if isinstance(x, bool) else str(x)


def _rename(e: Expr, names: Mapping[str, str], memo: dict[int, Expr]) -> Expr:
    hit = memo.get(id(e))
    if hit is not None:
        return hit
    out: Expr
    if isinstance(e, ir.Var):
        out = ir.Var(names[e.name], e.type, e.primed)
    elif isinstance(e, ir.App):
        out = ir.App(e.op, tuple(_rename(a, names, memo) for a in e.args), e.type)
    else:
        out = e
    memo[id(e)] = out
    return out


MUTANT_PREFIX = "mutant:"
DIVERGED = "diverged"


def product(rules: System, mutant: System) -> System:
    """The rules and the mutant side by side, from the same initial state, taking the same steps.

    State: the rules' variables, a copy of each for the mutant (``mutant:x``)
    and ``diverged``.  For each game action (paired by label) one step moves
    both with the same choices; two more steps set ``diverged`` when only one
    side allows the action.  Its one property, :data:`AGREES`, says the
    observable variables stay equal and nothing diverged.
    """
    names = {v.name: MUTANT_PREFIX + v.name for v in mutant.vars}
    memo: dict[int, Expr] = {}
    copy = tuple(replace(v, name=names[v.name], array=MUTANT_PREFIX + v.array, label=f"mutant: {v.label}")
                 for v in mutant.vars)
    div = ir.StateVar(DIVERGED, ir.BOOL, DIVERGED, (), "one side allows a step the other does not")
    dv = ir.Var(DIVERGED, ir.BOOL)
    flag = (ir.Update(DIVERGED, ir.TRUE),)
    acts: list[Action] = []
    for io, im in _pairing(rules, mutant):
        a = rules.actions[io] if io is not None else None
        b = mutant.actions[im] if im is not None else None
        base = a if a is not None else b
        assert base is not None
        chs: dict[str, ir.ChoiceVar] = {}
        for x in (a, b):
            for c in x.choices if x is not None else ():
                chs.setdefault(c.name, c)
        gr = a.guard if a is not None else ir.FALSE
        gm = _rename(b.guard, names, memo) if b is not None else ir.FALSE
        common = dict(family=base.family, params=base.params, choices=tuple(chs.values()), cites=base.cites,
                      param_labels=base.param_labels, loc=base.loc)
        if a is not None and b is not None:
            ups = a.updates + tuple(ir.Update(names[u.var], _rename(u.expr, names, memo)) for u in b.updates)
            acts.append(Action(label=base.label, guard=ir.and_(ir.not_(dv), gr, gm), updates=ups,
                               description=base.description, **common))  # type: ignore[arg-type]
        acts.append(Action(label=f"{base.label} [rules only]", guard=ir.and_(ir.not_(dv), gr, ir.not_(gm)),
                           updates=flag,
                           description=f"{base.description} (the rules allow it, the mutant does not)",
                           **common))  # type: ignore[arg-type]
        acts.append(Action(label=f"{base.label} [mutant only]", guard=ir.and_(ir.not_(dv), ir.not_(gr), gm),
                           updates=flag,
                           description=f"{base.description} (the mutant allows it, the rules do not)",
                           **common))  # type: ignore[arg-type]
    shown_m = {v.name: v.shown for v in mutant.vars}
    parts: list[Expr] = [ir.not_(dv)]
    for v in rules.vars:
        if not v.observable:
            continue
        same_value = ir.eq(ir.Var(v.name, v.type), ir.Var(names[v.name], v.type))
        sm = shown_m.get(v.name)
        if v.shown is None or sm is None:
            parts.append(same_value)
        else:  # shown in the same states, and equal where shown
            mine = _rename(sm, names, memo)
            parts += [ir.eq(v.shown, mine), ir.implies(v.shown, same_value)]
    agree = ir.and_(*parts)
    prop = ir.Property(AGREES, PropKind.INVARIANT, agree, (),
                       "From the same initial state, taking the same steps, the observable state stays equal.")
    same = tuple(ir.eq(ir.Var(v.name, v.type), ir.Var(names[v.name], v.type)) for v in rules.vars)
    return System(
        name=f"{rules.name} x mutant",
        vars=rules.vars + copy + (div,),
        actions=tuple(acts),
        init_vars=rules.init_vars + tuple(ir.InitVar(names[iv.var], iv.values) for iv in mutant.init_vars)
        + (ir.InitVar(DIVERGED, (False,)),),
        init_constraints=rules.init_constraints + tuple(_rename(c, names, memo) for c in mutant.init_constraints)
        + same,
        properties=(prop,),
        doc="the rules and a mutant side by side",
        scenario=rules.scenario,
        file=rules.file,
        family_names=rules.families(),
    )


def _side_lemmas(rules: System, mutant: System, rules_proved: Sequence[str],
                 mutant_proved: Sequence[str]) -> list[Property]:
    """The invariants proved of each side, stated over the product's variables (the mutant's renamed)."""
    names = {v.name: MUTANT_PREFIX + v.name for v in mutant.vars}
    memo: dict[int, Expr] = {}
    out = [p for p in rules.properties if p.name in set(rules_proved) and p.kind is PropKind.INVARIANT]
    out += [replace(p, name=f"{MUTANT_PREFIX} {p.name}", expr=_rename(p.expr, names, memo))
            for p in mutant.properties if p.name in set(mutant_proved) and p.kind is PropKind.INVARIANT]
    return out


def alike(rules: System, mutant: System) -> tuple[str, ...]:
    """The variables that every step of the product system keeps equal on both sides, in the rules' order.

    Both sides start equal (:func:`_same_start`), and a step that both take updates such a variable by the
    same expression reading only such variables (the choices are shared); a step only one side allows
    changes nothing but ``diverged``.  Bookkeeping the mutant does not touch is among them: stated with
    :data:`AGREES`, the observable state no longer depends on a difference the product could only rule
    out by a deeper induction (a counter that a guard reads, equal on both sides in every reachable state).
    """
    keep = {v.name for v in rules.vars}
    reads: dict[str, set[str]] = {}
    for io, im in _pairing(rules, mutant):
        if io is None or im is None:
            continue
        ur = {u.var: u.expr for u in rules.actions[io].updates}
        um = {u.var: u.expr for u in mutant.actions[im].updates}
        for v in ur.keys() | um.keys():
            er, em = ur.get(v), um.get(v)
            if er is None or em is None or not (er is em or er == em):
                keep.discard(v)
            else:
                reads.setdefault(v, set()).update(ir.free_vars(er))
    changed = True
    while changed:
        changed = False
        for v in sorted(keep):
            if not reads.get(v, set()) <= keep:
                keep.discard(v)
                changed = True
    return tuple(v.name for v in rules.vars if v.name in keep)


def _product_check(rules: System, mutant: System, opts: Options, rules_proved: Sequence[str] = (),
                   mutant_proved: Sequence[str] = ()) -> Judgement:
    prod = product(rules, mutant)
    agree = prod.prop(AGREES)
    types = {v.name: v.type for v in rules.vars}
    pairs = [ir.eq(ir.Var(n, types[n]), ir.Var(MUTANT_PREFIX + n, types[n])) for n in alike(rules, mutant)]
    goal = replace(agree, expr=ir.and_(agree.expr, *pairs))  # a stronger invariant, more often inductive
    r = check_guarded(prod, goal, "auto", opts, _side_lemmas(rules, mutant, rules_proved, mutant_proved))
    if r.verdict is Verdict.PROVED:
        return Judgement(rules.scenario, "equivalent", reason=f"proved on the product system ({r.engine}: {r.reason})")
    if r.verdict is Verdict.VIOLATED:
        last = r.trace.states[-1] if r.trace is not None and r.trace.states else None
        if last is None or Evaluator(prod).holds(agree, last):  # cannot be: the equalities hold where AGREES held
            return Judgement(rules.scenario, "open", reason="equivalence not proved: the product system's trace "
                             "breaks an equality of unchanged variables but not the agreement")
        return Judgement(rules.scenario, "differs", trace=r.trace,
                         reason="the mutant and the rules differ on this path (the product system's trace)")
    return Judgement(rules.scenario, "open", reason=f"equivalence not proved: {r.reason or r.verdict.value}")


# --------------------------------------------------------------------------- all scenarios


def combine(label: str, judgements: Sequence[Judgement], detail: str = "") -> MutantResult:
    """One verdict over the scenarios: killed if any kills; equivalent if proved in all; else survived or unknown."""
    for j in judgements:
        if j.status == "killed":
            return MutantResult(label, "killed", j.killed_by, j.reason, j.scenario, j.trace, detail)
    if judgements and all(j.status == "equivalent" for j in judgements):
        return MutantResult(label, "equivalent", reason="; ".join(f"{j.scenario}: {j.reason}" for j in judgements),
                            detail=detail)
    unknown = [j for j in judgements if j.status == "unknown"]
    if unknown:
        return MutantResult(label, "unknown", reason="; ".join(f"{j.scenario}: {j.reason}" for j in unknown),
                            scenario=unknown[0].scenario, detail=detail)
    differ = [j for j in judgements if j.status == "differs"]
    if differ:
        j = differ[0]
        return MutantResult(label, "survived", reason=j.reason, scenario=j.scenario, trace=j.trace, detail=detail)
    opened = [j for j in judgements if j.status == "open"]
    return MutantResult(label, "survived", reason="; ".join(f"{j.scenario}: {j.reason}" for j in opened),
                        scenario=opened[0].scenario if opened else "", detail=detail)
