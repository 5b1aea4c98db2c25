"""Generate a rules-DSL transition system from a timing declaration and a scenario.

The generated :class:`~ruleproof.dsl.Model` holds, per nesting slot (sort
``Level``): the step of the open triggering condition (or ``idle``), the
conditions it groups (shared windows), whose opportunity it is, consecutive
passes, whether the window just opened, how often each ability was used for
this condition, the ability resolving, and whether the condition occurred
or was cancelled.  ``top`` counts open sequences and ``cur`` is the active
one (equal to ``top`` under LIFO).

Every action family is one move kind of the declaration (``proceed``,
``pass``, ``initiate``, ``resolve``, ``cancel``, ``change``, ``nest``,
``return``) and every guard and update comes from the declaration's steps,
moves and window rules: changing the declaration changes the system.

Static data lets properties talk about the declaration without a copy of
it: ``step_kind[Step]`` (the :class:`StepKind` value of a step, ``idle``
for an unused slot), ``completes[Step]`` (a closed step whose outcome is
"completed"), ``ab_kind[Ability]`` (the step kind an ability answers),
``ab_cond[Ability]`` and ``idx[Level]``.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Any

from ..dsl import And, Bool, Int, Min, Model, Not, OneOf, Or, Term
from ..dsl import ForAll as ForAll_
from ..dsl import Implies as Implies_
from ..dsl import Step as DslStep
from ..errors import InputError
from .declaration import (
    CALLER,
    FORCED_KINDS,
    WINDOW_KINDS,
    Actor,
    Declaration,
    MoveKind,
    Outcome,
    QueueOrder,
    StepKind,
)

__all__ = ["Ability", "Effect", "Scenario", "build_system", "IDLE", "NONE"]

IDLE = "idle"
"""The step value of an unused nesting slot."""
NONE = "none"
"""The resolving value when no ability is resolving."""


class Effect(enum.Enum):
    """What an ability does to the triggering condition it answers."""

    NONE = "none"
    CANCEL = "cancel"
    CHANGE = "change"
    RAISE = "raise"


@dataclass(frozen=True)
class Ability:
    """A scenario ability: who controls it, which step kind it answers, to which condition.

    ``effect``: ``CHANGE`` replaces the condition with ``into``; ``RAISE``
    raises ``into`` as a new triggering condition (a nested sequence).
    ``limit``: a printed limit on uses over the whole scenario (None: none).
    """

    name: str
    owner: int
    timing: StepKind
    condition: str
    effect: Effect = Effect.NONE
    into: str = ""
    limit: int | None = None


@dataclass(frozen=True)
class Scenario:
    """Players (1..n, player 1 listed first), triggering conditions and abilities.

    ``start``: the conditions one occurrence creates at once.  ``max_depth``:
    the deepest nesting the scenario's abilities should produce (the bound a
    property checks); the system has ``max_depth + 1`` slots.
    """

    players: int
    conditions: tuple[str, ...]
    start: tuple[str, ...]
    abilities: tuple[Ability, ...]
    max_depth: int

    def problems(self) -> list[str]:
        out: list[str] = []
        if self.players < 1:
            out.append("a scenario needs at least one player")
        known = set(self.conditions)
        for c in self.start:
            if c not in known:
                out.append(f"start condition '{c}' is not declared")
        for a in self.abilities:
            if a.condition not in known:
                out.append(f"ability '{a.name}' answers unknown condition '{a.condition}'")
            if a.effect in (Effect.CHANGE, Effect.RAISE) and a.into not in known:
                out.append(f"ability '{a.name}' leads to unknown condition '{a.into}'")
            if not 1 <= a.owner <= self.players:
                out.append(f"ability '{a.name}' belongs to player {a.owner}, but there are {self.players}")
        if self.max_depth < 1:
            out.append("max_depth must be at least 1")
        if not self.shared_slots_ok():
            out.append("more simultaneous start conditions than nesting slots")
        return out

    def shared_slots_ok(self) -> bool:
        return len(self.start) <= self.max_depth + 1


def _step_for(decl: Declaration, kind: StepKind) -> str | None:
    steps = decl.steps_of(kind)
    if len(steps) > 1:
        raise InputError(f"timing declaration '{decl.name}' has {len(steps)} steps of kind {kind.value}; an ability cannot tell which it answers")
    return steps[0].name if steps else None


def build_system(decl: Declaration, scen: Scenario, name: str = "timing", doc: str = "") -> Model:
    """The transition system of ``decl`` played out on scenario ``scen``."""
    problems = scen.problems()
    if problems:
        raise InputError("the timing scenario is malformed", None, tuple(problems))
    m = Model(name, doc=doc or (f"Timing system generated from declaration '{decl.name}'."))
    lifo = decl.queue_order is QueueOrder.LIFO
    slots = scen.max_depth + 1
    P = scen.players

    Player = m.sort("Player", [f"p{i}" for i in range(1, P + 1)], labels=[f"player {i}" for i in range(1, P + 1)])
    Level = m.sort("Level", [f"l{i}" for i in range(1, slots + 1)], labels=[f"condition {i}" for i in range(1, slots + 1)])
    Cond = m.sort("Cond", list(scen.conditions))
    step_names = [s.name for s in decl.steps]
    if IDLE in step_names:
        raise InputError(f"a timing step may not be called '{IDLE}'")
    StepS = m.sort("Step", step_names + [IDLE], labels=[s.label for s in decl.steps] + ["(no open condition)"])
    Ab = m.sort("Ability", [a.name for a in scen.abilities])
    AbOrNone = m.sort("AbilityOrNone", [a.name for a in scen.abilities] + [NONE])
    Kind = m.sort("StepKindS", [k.value for k in StepKind] + [IDLE])
    abil = {a.name: a for a in scen.abilities}

    m.static("step_kind", Kind, StepS, lambda s: decl.step(s.name).kind.value if s.name != IDLE else IDLE)
    m.static("completes", Bool, StepS, lambda s: s.name != IDLE and decl.step(s.name).outcome is Outcome.COMPLETED)
    m.static("ab_kind", Kind, Ab, lambda a: abil[a.name].timing.value)
    m.static("ab_cond", Cond, Ab, lambda a: abil[a.name].condition)
    m.static("idx", Int(1, slots), Level, lambda k: int(k.name[1:]))

    # initial open sequences: one for the whole occurrence (shared windows), else one per condition
    groups: list[tuple[str, ...]] = [tuple(scen.start)] if decl.shared_windows else [(c,) for c in scen.start]
    n0 = len(groups)
    top = m.var("top", Int(0, slots), init=n0)
    cur = m.var("cur", Int(0, slots), init=n0 if lifo else 1)
    first = m.var("first", Player, init=OneOf(*[p.name for p in Player]))
    active = m.var("active", Player, init=OneOf(*[p.name for p in Player]))

    def level_no(k: Term) -> int:
        return int(k.name[1:])

    step = m.var("step", StepS, index=Level, init=lambda k: decl.entry if level_no(k) <= n0 else IDLE)
    has = m.var("has", Bool, index=(Level, Cond), init=lambda k, c: level_no(k) <= n0 and c.name in groups[level_no(k) - 1])
    turn = m.var("turn", Player, index=Level, init="p1")
    passes = m.var("passes", Int(0, P), index=Level, init=0)
    fresh = m.var("fresh", Bool, index=Level, init=False)
    used = m.var("used", Int(0, 2), index=(Level, Ab), init=0)
    resolving = m.var("resolving", AbOrNone, index=Level, init=NONE)
    raised = m.var("raised", Bool, index=Level, init=False)
    occurred = m.var("occurred", Bool, index=Level, init=False)
    cancelled = m.var("cancelled", Bool, index=Level, init=False)
    limits = [a.limit for a in scen.abilities if a.limit is not None]
    total = m.var("total", Int(0, max(limits)), index=Ab, init=0) if limits else None

    players = list(Player)

    def nxt(p: Term) -> Term:
        i = [q.name for q in players].index(p.name)
        return players[(i + 1) % P]

    def actor(kind: Actor) -> Term:
        return first if kind is Actor.FIRST_PLAYER else active

    def enter(a: DslStep, k: Term, target: str, when: Any = None) -> None:
        """Updates for entering step ``target`` at level ``k`` (as the declaration says)."""
        s = decl.step(target)
        a.set(step[k], target, when=when)
        if s.kind in WINDOW_KINDS and s.window is not None:
            a.set(turn[k], actor(s.window.first), when=when)
            a.set(passes[k], 0, when=when)
            a.set(fresh[k], True, when=when)
        if s.kind is StepKind.OCCURS:
            a.set(occurred[k], True, when=when)
        if s.kind is StepKind.CLOSED and s.outcome is Outcome.CANCELLED:
            a.set(cancelled[k], True, when=when)

    def at(a: DslStep, k: Term, name: str) -> None:
        a.require(cur == level_no(k))
        a.require(step[k] == name)

    def effect_move(a: Ability, kind: MoveKind) -> str | None:
        """Target of the move of ``kind`` from the resolving step of ``a``'s step, if declared."""
        res = _resolving(a)
        if res is None:
            return None
        for mv in decl.moves_from(res, kind):
            return mv.target
        return None

    def _answers(a: Ability) -> str | None:
        return _step_for(decl, a.timing)

    def _resolving(a: Ability) -> str | None:
        s = _answers(a)
        return decl.resolving_of(s) if s is not None else None

    def eligible(k: Term, a: Ability) -> Term:
        """Ability ``a`` may still be initiated for the condition at level ``k`` (if its step is open)."""
        s = _answers(a)
        assert s is not None
        w = decl.step(s).window
        conds = [has[k, a.condition]]
        if w is None or w.once_per_condition:
            conds.append(used[k, a.name] < 1)  # "< 1", not "== 0": robust in induction steps that ignore ranges
        if a.limit is not None and total is not None:
            conds.append(total[a.name] < a.limit)
        return And(*conds)

    def norm(x: str) -> str:
        return "".join(ch if ch.isalnum() else "_" for ch in x)

    # --- proceed -----------------------------------------------------------------------------
    proceeds = decl.moves_of(MoveKind.PROCEED)
    if proceeds:
        PM = m.sort("ProceedMove", [f"{norm(mv.source)}__{norm(mv.target)}" for mv in proceeds], labels=[f"{mv.source} -> {mv.target}" for mv in proceeds])
        pmap = dict(zip((x.name for x in PM), proceeds))

        @m.action(Level, PM, describe=lambda k, mv: f"{k.label}: {pmap[mv.name].label or 'proceed'} ({mv.label})", cites=list(decl.cites))
        def proceed(a: DslStep, k: Term, mv: Term) -> None:
            move = pmap[mv.name]
            src = decl.step(move.source)
            at(a, k, move.source)
            if src.kind in FORCED_KINDS:
                # every eligible forced ability to this condition has resolved
                for ab in scen.abilities:
                    if _answers(ab) == move.source:
                        a.require(Not(eligible(k, ab)))
            enter(a, k, move.target)

    # --- pass --------------------------------------------------------------------------------
    passes_mv = decl.moves_of(MoveKind.PASS)
    if passes_mv:
        WM = m.sort("PassMove", [f"{norm(mv.source)}__{norm(mv.target)}" for mv in passes_mv], labels=[f"{mv.source} -> {mv.target}" for mv in passes_mv])
        wmap = dict(zip((x.name for x in WM), passes_mv))

        @m.action(Level, WM, Player, name="pass", describe=lambda k, mv, p: f"{k.label}: {p.label} passes in {wmap[mv.name].source}", cites=["Pass", *decl.cites])
        def pass_(a: DslStep, k: Term, mv: Term, p: Term) -> None:
            move = wmap[mv.name]
            w = decl.step(move.source).window
            at(a, k, move.source)
            a.require(turn[k] == p)
            need = w.closes_after(P) if w is not None else P
            a.set(passes[k], Min(passes[k] + 1, P))
            a.set(turn[k], nxt(p))
            a.set(fresh[k], False)
            enter(a, k, move.target, when=passes[k] + 1 >= need)

    # --- initiate / resolve / cancel / change / nest ----------------------------------------
    @m.action(Level, Ab, describe=lambda k, ab: f"{k.label}: {ab.label} is initiated", cites=list(decl.cites))
    def initiate(a: DslStep, k: Term, ab: Term) -> None:
        spec = abil[ab.name]
        s = _answers(spec)
        res = _resolving(spec)
        if s is None or res is None:
            a.require(False)  # the declaration has no step where this ability could be initiated
            return
        window = decl.step(s).kind in WINDOW_KINDS
        at(a, k, s)
        a.require(eligible(k, spec))
        if window:
            a.require(turn[k] == f"p{spec.owner}")
        a.set(used[k, ab], Min(used[k, ab] + 1, 2))
        a.set(resolving[k], ab.name)
        a.set(raised[k], False)
        a.set(step[k], res)
        if window:
            a.set(passes[k], 0)
            a.set(turn[k], nxt(players[spec.owner - 1]))
            a.set(fresh[k], False)
        if total is not None and spec.limit is not None:
            a.set(total[ab], total[ab] + 1)

    @m.action(Level, Ab, describe=lambda k, ab: f"{k.label}: {ab.label} resolves", cites=list(decl.cites))
    def resolve(a: DslStep, k: Term, ab: Term) -> None:
        spec = abil[ab.name]
        res = _resolving(spec)
        back = [mv.target for mv in decl.moves_from(res, MoveKind.RESOLVE)] if res else []
        if res is None or not back:
            a.require(False)
            return
        at(a, k, res)
        a.require(resolving[k] == ab.name)
        if spec.effect is Effect.CANCEL and effect_move(spec, MoveKind.CANCEL) is not None:
            a.require(False)
        if spec.effect is Effect.CHANGE and effect_move(spec, MoveKind.CHANGE) is not None:
            a.require(False)
        if spec.effect is Effect.RAISE and effect_move(spec, MoveKind.NEST) is not None:
            a.require(raised[k])
        a.set(resolving[k], NONE)
        enter(a, k, back[0])

    if any(s.effect is Effect.CANCEL for s in scen.abilities):

        @m.action(Level, Ab, describe=lambda k, ab: f"{k.label}: {ab.label} cancels its condition", cites=["Cancel", *decl.cites])
        def cancel(a: DslStep, k: Term, ab: Term) -> None:
            spec = abil[ab.name]
            target = effect_move(spec, MoveKind.CANCEL)
            res = _resolving(spec)
            if spec.effect is not Effect.CANCEL or target is None or res is None:
                a.require(False)
                return
            back = [mv.target for mv in decl.moves_from(res, MoveKind.RESOLVE)]
            at(a, k, res)
            a.require(resolving[k] == ab.name)
            others = Or(*[has[k, c] for c in Cond if c.name != spec.condition]) if len(Cond) > 1 else Not(True)
            a.set(has[k, spec.condition], False)
            a.set(resolving[k], NONE)
            a.set(cancelled[k], True, when=Not(others))
            enter(a, k, target, when=Not(others))
            if back:
                enter(a, k, back[0], when=others)

    if any(s.effect is Effect.CHANGE for s in scen.abilities):

        @m.action(Level, Ab, describe=lambda k, ab: f"{k.label}: {ab.label} changes its condition", cites=[*decl.cites])
        def change(a: DslStep, k: Term, ab: Term) -> None:
            spec = abil[ab.name]
            target = effect_move(spec, MoveKind.CHANGE)
            res = _resolving(spec)
            if spec.effect is not Effect.CHANGE or target is None or res is None:
                a.require(False)
                return
            at(a, k, res)
            a.require(resolving[k] == ab.name)
            a.set(has[k, spec.condition], False)
            a.set(has[k, spec.into], True)
            a.set(resolving[k], NONE)
            a.set(occurred[k], False)
            for other in scen.abilities:
                if other.condition == spec.into:
                    a.set(used[k, other.name], 0)
            enter(a, k, target)

    if any(s.effect is Effect.RAISE for s in scen.abilities):

        @m.action(Level, Level, Ab, describe=lambda k, j, ab: f"{k.label}: {ab.label} raises a new condition ({j.label})", cites=["Nested Ability Sequences", *decl.cites])
        def nest(a: DslStep, k: Term, j: Term, ab: Term) -> None:
            spec = abil[ab.name]
            target = effect_move(spec, MoveKind.NEST)
            res = _resolving(spec)
            ok_slot = level_no(j) == level_no(k) + 1 if lifo else level_no(j) > level_no(k)
            if spec.effect is not Effect.RAISE or target is None or res is None or not ok_slot:
                a.require(False)
                return
            at(a, k, res)
            a.require(resolving[k] == ab.name)
            a.require(Not(raised[k]))
            a.require(top + 1 == level_no(j))
            a.set(raised[k], True)
            a.set(top, top + 1)
            if lifo:
                a.set(cur, level_no(j))
            for c in Cond:
                a.set(has[j, c], c.name == spec.into)
            for other in Ab:
                a.set(used[j, other], 0)
            a.set(resolving[j], NONE)
            a.set(raised[j], False)
            a.set(occurred[j], False)
            a.set(cancelled[j], False)
            a.set(passes[j], 0)
            a.set(fresh[j], False)
            enter(a, j, target)

    # --- return ------------------------------------------------------------------------------
    returns = decl.moves_of(MoveKind.RETURN)
    if returns:
        RM = m.sort("ReturnMove", [f"{norm(mv.source)}__{norm(mv.target)}" for mv in returns], labels=[f"{mv.source} -> {mv.target}" for mv in returns])
        rmap = dict(zip((x.name for x in RM), returns))

        @m.action(Level, RM, name="return", describe=lambda k, mv: f"{k.label}: the game returns to where it left off", cites=["Nested Ability Sequences"])
        def return_(a: DslStep, k: Term, mv: Term) -> None:
            move = rmap[mv.name]
            i = level_no(k)
            at(a, k, move.source)
            if lifo:
                if i == 1:
                    a.require(False)  # the outermost sequence has no caller
                    return
                caller = Level[i - 2]
                a.require(top == i)
                a.set(top, top - 1)
                a.set(cur, i - 1)
                a.set(step[k], IDLE)
                for c in Cond:
                    a.set(has[k, c], False)
                for other in Ab:
                    a.set(used[k, other], 0)
                a.set(resolving[k], NONE)
                a.set(raised[k], False)
                a.set(occurred[k], False)
                a.set(cancelled[k], False)
                a.set(fresh[k], False)
                a.set(passes[k], 0)
                if move.target != CALLER:
                    a.set(resolving[caller], NONE)
                    enter(a, caller, move.target)
            else:
                if i == slots:
                    a.require(False)  # no slot after the last one: nothing can wait there
                    return
                a.require(top > i)
                a.set(cur, i + 1)

    closed = [x.name for x in decl.steps if x.kind is StepKind.CLOSED]
    settled = And(*(Or(step[k] == IDLE, *(step[k] == c for c in closed)) for k in Level))
    m.game_end(
        And(settled, top == 1) if lifo else And(settled, cur == top),
        cites=["Triggering Condition"],
        doc="Every triggering condition raised has been closed, and no sequence is waiting: the scenario is over.",
    )
    for x in decl.steps:
        m.cover(f"timing step: {x.label}", Or(*(step[k] == x.name for k in Level)))
    _lemmas(m, decl, scen, groups, slots)
    return m


def _level_graph(decl: Declaration) -> Any:
    """Moves within one sequence as a networkx graph (a return to a named step jumps from each spawner)."""
    import networkx as nx

    g = nx.DiGraph()
    g.add_nodes_from(s.name for s in decl.steps)
    nests = decl.moves_of(MoveKind.NEST)
    for mv in decl.moves:
        if mv.kind is MoveKind.NEST:
            continue
        if mv.kind is MoveKind.RETURN:
            if mv.target != CALLER:
                for n in nests:
                    g.add_edge(n.source, mv.target, kind=mv.kind.value)
            continue
        g.add_edge(mv.source, mv.target, kind=mv.kind.value)
    return g


def _lemmas(m: Model, decl: Declaration, scen: Scenario, groups: list[tuple[str, ...]], slots: int) -> None:
    """Invariants that follow from the declaration's shape, named "lemma: ...".

    They are checked like any property (a mutant can violate them) and, once
    proved, help k-induction prove the rule properties.
    """
    import networkx as nx

    v, st = m.v, m.sorts
    Level, Ab = st.Level, st.Ability
    g = _level_graph(decl)
    reach = set(nx.descendants(g, decl.entry)) | {decl.entry}
    dom = nx.immediate_dominators(g, decl.entry)

    def dominated_by(x: str) -> set[str]:
        out = set()
        for n in reach:
            cur = n
            while True:
                if cur == x:
                    out.add(n)
                    break
                nxt_ = dom.get(cur, cur)
                if nxt_ == cur:
                    break
                cur = nxt_
        return out

    no_change = g.copy()
    no_change.remove_edges_from([(a, b) for a, b, d in g.edges(data=True) if d["kind"] == MoveKind.CHANGE.value])
    occurs = [x.name for x in decl.steps_of(StepKind.OCCURS)]
    after: set[str] = set()
    for o in occurs:
        after |= dominated_by(o)
    maybe = set(occurs)
    for o in occurs:
        maybe |= nx.descendants(no_change, o)
    never = (reach - maybe) | {IDLE}

    def in_steps(k: Term, names: set[str]) -> Term:
        return Or(*[v.step[k] == n for n in sorted(names)]) if names else Not(True)

    lifo = decl.queue_order is QueueOrder.LIFO
    m.invariant(
        "lemma: open sequences fill the slots from the bottom",
        And(
            v.cur == v.top if lifo else And(v.cur <= v.top, v.cur >= 1),
            ForAll_(Level, lambda k: (v.step[k] == IDLE) == (v.top < int(k.name[1:]))),
        ),
        cites=["Nested Ability Sequences"],
    )
    m.invariant(
        "lemma: the occurrence flag matches the step",
        ForAll_(Level, lambda k: And(Implies_(in_steps(k, after), v.occurred[k]), Implies_(in_steps(k, never), Not(v.occurred[k])))),
        cites=["Triggering Condition"],
    )
    abil = {a.name: a for a in scen.abilities}

    def res_of(a: Ability) -> str | None:
        s = _step_for(decl, a.timing)
        return decl.resolving_of(s) if s else None

    m.invariant(
        "lemma: a resolving ability sits at its resolving step and answers an open condition",
        ForAll_(
            Level,
            lambda k: And(
                *[
                    Implies_(v.resolving[k] == a.name, And(v.step[k] == (res_of(abil[a.name]) or IDLE), v.has[k, abil[a.name].condition]))
                    for a in Ab
                ],
                Implies_(v.resolving[k] == NONE, Not(Or(*[v.step[k] == r.name for r in decl.steps_of(StepKind.RESOLVING)]))),
            ),
        ),
        cites=["Interrupts", "Reactions"],
    )
    terms = []
    for a in scen.abilities:
        s = _step_for(decl, a.timing)
        if s is None:
            continue
        where = (set(nx.descendants(g, s)) | {s}) & reach
        terms.append((a.name, where))
    m.invariant(
        "lemma: a used ability's sequence is at or after the step it answers",
        ForAll_(Level, lambda k: And(*[Implies_(v.used[k, name] >= 1, in_steps(k, where)) for name, where in terms])),
        cites=["Interrupts", "Reactions"],
    )
    forced_terms = []
    for f in scen.abilities:
        fs = _step_for(decl, f.timing)
        if fs is None or f.timing not in FORCED_KINDS or f.limit is not None:
            continue
        later = dominated_by(fs) - {fs, decl.resolving_of(fs) or ""}
        forced_terms.append((f, later))
    m.invariant(
        "lemma: past a forced step, its eligible forced abilities have resolved",
        ForAll_(
            Level,
            lambda k: And(*[Implies_(And(in_steps(k, later), v.has[k, f.condition]), v.used[k, f.name] >= 1) for f, later in forced_terms]),
        ),
        cites=["Forced Interrupts / Forced Reactions"],
    )
    cancel_to: set[str] = set()
    for mv in decl.moves_of(MoveKind.CANCEL):
        cancel_to |= set(nx.descendants(g, mv.target)) | {mv.target}
    for x in decl.steps:
        if x.kind is StepKind.CLOSED and x.outcome is Outcome.CANCELLED:
            cancel_to |= set(nx.descendants(g, x.name)) | {x.name}
    m.invariant(
        "lemma: a cancelled condition stays on the cancelled path",
        ForAll_(Level, lambda k: Implies_(v.cancelled[k], in_steps(k, cancel_to))),
        cites=["Cancel"],
    )
    # which conditions each slot can hold (an over-approximation from the scenario)
    possible: list[set[str]] = [set() for _ in range(slots)]
    for i, grp in enumerate(groups):
        possible[i] |= set(grp)
    changed = True
    while changed:
        changed = False
        for i in range(slots):
            before = len(possible[i])
            for a in scen.abilities:
                if a.condition in possible[i] and a.effect is Effect.CHANGE:
                    possible[i].add(a.into)
            if len(possible[i]) != before:
                changed = True
            for a in scen.abilities:
                if a.condition in possible[i] and a.effect is Effect.RAISE:
                    for j in ([i + 1] if lifo else range(i + 1, slots)):
                        if j < slots and a.into not in possible[j]:
                            possible[j].add(a.into)
                            changed = True
    m.invariant(
        "lemma: each slot holds only conditions the scenario can raise there",
        ForAll_(Level, lambda k: And(*[Not(v.has[k, c]) for c in st.Cond if c.name not in possible[int(k.name[1:]) - 1]])),
        cites=["Nested Ability Sequences"],
    )
