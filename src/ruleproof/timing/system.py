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
``ab_cond[Ability]``, ``ab_owner[Ability]`` (the player who controls it) and
``idx[Level]``.
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

__all__ = ["Ability", "Effect", "Scenario", "build_system", "priority_shown_in_windows", "IDLE", "NONE"]

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
        raise InputError(
            f"timing declaration '{decl.name}' has {len(steps)} steps of kind {kind.value}; "
            "an ability cannot tell which it answers"
        )
    return steps[0].name if steps else None


def build_system(decl: Declaration, scen: Scenario, name: str = "timing", doc: str = "") -> Model:
    """The transition system of ``decl`` played out on scenario ``scen``."""
    problems = scen.problems()
    if problems:
        raise InputError("the timing scenario is malformed", None, tuple(problems))
    m = Model(name, doc=doc or (f"Timing system generated from declaration '{decl.name}'."))
    b = _Builder(m, decl, scen)
    b.proceed_moves()
    b.pass_moves()
    b.initiate_and_resolve()
    if any(s.effect is Effect.CANCEL for s in scen.abilities):
        b.cancel_move()
    if any(s.effect is Effect.CHANGE for s in scen.abilities):
        b.change_move()
    if any(s.effect is Effect.RAISE for s in scen.abilities):
        b.nest_move()
    b.return_moves()
    b.game_end_and_covers()
    _lemmas(m, decl, scen, b.groups, b.slots)
    return m


def _norm(x: str) -> str:
    return "".join(ch if ch.isalnum() else "_" for ch in x)


def _level_no(k: Term) -> int:
    return int(k.name[1:])


class _Builder:
    """Declares the state of a timing system, then one action family per move kind of the declaration.

    Each ``*_move(s)`` method adds the family of one :class:`MoveKind`; the helpers
    (:meth:`enter`, :meth:`at`, :meth:`eligible`...) read the declaration, so every guard and
    update comes from it.
    """

    def __init__(self, m: Model, decl: Declaration, scen: Scenario) -> None:
        self.m, self.decl, self.scen = m, decl, scen
        self.lifo = decl.queue_order is QueueOrder.LIFO
        self.slots = slots = scen.max_depth + 1
        self.P = P = scen.players
        self.Player = m.sort(
            "Player", [f"p{i}" for i in range(1, P + 1)], labels=[f"player {i}" for i in range(1, P + 1)]
        )
        self.Level = m.sort(
            "Level", [f"l{i}" for i in range(1, slots + 1)], labels=[f"condition {i}" for i in range(1, slots + 1)]
        )
        self.Cond = m.sort("Cond", list(scen.conditions))
        step_names = [s.name for s in decl.steps]
        if IDLE in step_names:
            raise InputError(f"a timing step may not be called '{IDLE}'")
        StepS = m.sort("Step", step_names + [IDLE], labels=[s.label for s in decl.steps] + ["(no open condition)"])
        self.Ab = m.sort("Ability", [a.name for a in scen.abilities])
        m.sort("AbilityOrNone", [a.name for a in scen.abilities] + [NONE])
        Kind = m.sort("StepKindS", [k.value for k in StepKind] + [IDLE])
        self.abil = abil = {a.name: a for a in scen.abilities}

        m.static("step_kind", Kind, StepS, lambda s: decl.step(s.name).kind.value if s.name != IDLE else IDLE)
        m.static("completes", Bool, StepS, lambda s: s.name != IDLE and decl.step(s.name).outcome is Outcome.COMPLETED)
        m.static("ab_kind", Kind, self.Ab, lambda a: abil[a.name].timing.value)
        m.static("ab_cond", self.Cond, self.Ab, lambda a: abil[a.name].condition)
        m.static("ab_owner", self.Player, self.Ab, lambda a: f"p{abil[a.name].owner}")
        m.static("idx", Int(1, slots), self.Level, lambda k: _level_no(k))

        # initial open sequences: one for the whole occurrence (shared windows), else one per condition
        self.groups: list[tuple[str, ...]] = [tuple(scen.start)] if decl.shared_windows else [(c,) for c in scen.start]
        groups = self.groups
        n0 = len(groups)
        Player, Level, Cond = self.Player, self.Level, self.Cond
        self.top = m.var("top", Int(0, slots), init=n0)
        self.cur = m.var("cur", Int(0, slots), init=n0 if self.lifo else 1)
        self.first = m.var("first", Player, init=OneOf(*[p.name for p in Player]))
        self.active = m.var("active", Player, init=OneOf(*[p.name for p in Player]))
        self.step = m.var("step", StepS, index=Level, init=lambda k: decl.entry if _level_no(k) <= n0 else IDLE)
        self.has = m.var(
            "has",
            Bool,
            index=(Level, Cond),
            init=lambda k, c: _level_no(k) <= n0 and c.name in groups[_level_no(k) - 1],
        )
        self.turn = m.var("turn", Player, index=Level, init="p1")
        self.passes = m.var("passes", Int(0, P), index=Level, init=0)
        self.fresh = m.var("fresh", Bool, index=Level, init=False)
        self.used = m.var("used", Int(0, 2), index=(Level, self.Ab), init=0)
        self.resolving = m.var("resolving", m.sorts.AbilityOrNone, index=Level, init=NONE)
        self.raised = m.var("raised", Bool, index=Level, init=False)
        self.occurred = m.var("occurred", Bool, index=Level, init=False)
        self.cancelled = m.var("cancelled", Bool, index=Level, init=False)
        limits = [a.limit for a in scen.abilities if a.limit is not None]
        self.total = m.var("total", Int(0, max(limits)), index=self.Ab, init=0) if limits else None
        self.players = list(Player)

    # --- helpers read from the declaration ---------------------------------------------------

    def nxt(self, p: Term) -> Term:
        i = [q.name for q in self.players].index(p.name)
        return self.players[(i + 1) % self.P]

    def actor(self, kind: Actor) -> Term:
        return self.first if kind is Actor.FIRST_PLAYER else self.active

    def enter(self, a: DslStep, k: Term, target: str, when: Any = None, resume: bool = False) -> None:
        """Updates for entering step ``target`` at level ``k`` (as the declaration says).

        ``resume``: back in a window after one of its abilities resolved; a window that
        ``continues`` keeps the turn (the player after the one who initiated it).
        """
        s = self.decl.step(target)
        a.set(self.step[k], target, when=when)
        if resume and s.window is not None and s.window.continues:
            pass
        elif s.kind in WINDOW_KINDS and s.window is not None:
            a.set(self.turn[k], self.actor(s.window.first), when=when)
            a.set(self.passes[k], 0, when=when)
            a.set(self.fresh[k], True, when=when)
        if s.kind is StepKind.OCCURS:
            a.set(self.occurred[k], True, when=when)
        if s.kind is StepKind.CLOSED and s.outcome is Outcome.CANCELLED:
            a.set(self.cancelled[k], True, when=when)

    def at(self, a: DslStep, k: Term, name: str) -> None:
        a.require(self.cur == _level_no(k))
        a.require(self.step[k] == name)

    def answers(self, a: Ability) -> str | None:
        return _step_for(self.decl, a.timing)

    def resolving_step(self, a: Ability) -> str | None:
        s = self.answers(a)
        return self.decl.resolving_of(s) if s is not None else None

    def effect_move(self, a: Ability, kind: MoveKind) -> str | None:
        """Target of the move of ``kind`` from the resolving step of ``a``'s step, if declared."""
        res = self.resolving_step(a)
        if res is None:
            return None
        for mv in self.decl.moves_from(res, kind):
            return mv.target
        return None

    def eligible(self, k: Term, a: Ability) -> Term:
        """Ability ``a`` may still be initiated for the condition at level ``k`` (if its step is open)."""
        s = self.answers(a)
        assert s is not None
        w = self.decl.step(s).window
        conds: list[Term] = [self.has[k, a.condition]]
        if w is None or w.once_per_condition:
            conds.append(self.used[k, a.name] < 1)  # "< 1", not "== 0": robust in induction steps that ignore ranges
        if a.limit is not None and self.total is not None:
            conds.append(self.total[a.name] < a.limit)
        return And(*conds)

    def open_level(self, a: DslStep, k: Term) -> None:
        """Reset the per-condition bookkeeping of slot ``k`` for a new sequence (conditions and step: the caller)."""
        for other in self.Ab:
            a.set(self.used[k, other], 0)
        a.set(self.resolving[k], NONE)
        a.set(self.raised[k], False)
        a.set(self.occurred[k], False)
        a.set(self.cancelled[k], False)
        a.set(self.passes[k], 0)
        a.set(self.fresh[k], False)

    # --- one action family per move kind -------------------------------------------------------

    def proceed_moves(self) -> None:
        m, decl, scen = self.m, self.decl, self.scen
        proceeds = decl.moves_of(MoveKind.PROCEED)
        if not proceeds:
            return
        PM = m.sort(
            "ProceedMove",
            [f"{_norm(mv.source)}__{_norm(mv.target)}" for mv in proceeds],
            labels=[f"{mv.source} -> {mv.target}" for mv in proceeds],
        )
        pmap = dict(zip((x.name for x in PM), proceeds, strict=True))

        @m.action(
            self.Level,
            PM,
            describe=lambda k, mv: f"{k.label}: {pmap[mv.name].label or 'proceed'} ({mv.label})",
            cites=list(decl.cites),
        )
        def proceed(a: DslStep, k: Term, mv: Term) -> None:
            move = pmap[mv.name]
            src = decl.step(move.source)
            self.at(a, k, move.source)
            if src.kind in FORCED_KINDS:
                # every eligible forced ability to this condition has resolved
                for ab in scen.abilities:
                    if self.answers(ab) == move.source:
                        a.require(Not(self.eligible(k, ab)))
            self.enter(a, k, move.target)

    def pass_moves(self) -> None:
        m, decl, P = self.m, self.decl, self.P
        passes_mv = decl.moves_of(MoveKind.PASS)
        if not passes_mv:
            return
        WM = m.sort(
            "PassMove",
            [f"{_norm(mv.source)}__{_norm(mv.target)}" for mv in passes_mv],
            labels=[f"{mv.source} -> {mv.target}" for mv in passes_mv],
        )
        wmap = dict(zip((x.name for x in WM), passes_mv, strict=True))

        @m.action(
            self.Level,
            WM,
            self.Player,
            name="pass",
            describe=lambda k, mv, p: f"{k.label}: {p.label} passes in {wmap[mv.name].source}",
            cites=["Pass", *decl.cites],
        )
        def pass_(a: DslStep, k: Term, mv: Term, p: Term) -> None:
            move = wmap[mv.name]
            w = decl.step(move.source).window
            self.at(a, k, move.source)
            a.require(self.turn[k] == p)
            need = w.closes_after(P) if w is not None else P
            closes = self.passes[k] + 1 >= need
            # the window stays open (the next player's opportunity) or closes (the next step, which may be a
            # window whose turn-taking starts afresh)
            a.set(self.passes[k], Min(self.passes[k] + 1, P), when=~closes)
            a.set(self.turn[k], self.nxt(p), when=~closes)
            a.set(self.fresh[k], False, when=~closes)
            if self.decl.step(move.target).kind not in WINDOW_KINDS:
                a.set(self.passes[k], Min(self.passes[k] + 1, P), when=closes)
                a.set(self.turn[k], self.nxt(p), when=closes)
                a.set(self.fresh[k], False, when=closes)
            self.enter(a, k, move.target, when=closes)

    def initiate_and_resolve(self) -> None:
        m, decl, abil = self.m, self.decl, self.abil

        @m.action(
            self.Level, self.Ab, describe=lambda k, ab: f"{k.label}: {ab.label} is initiated", cites=list(decl.cites)
        )
        def initiate(a: DslStep, k: Term, ab: Term) -> None:
            spec = abil[ab.name]
            s = self.answers(spec)
            res = self.resolving_step(spec)
            if s is None or res is None:
                a.require(False)  # the declaration has no step where this ability could be initiated
                return
            window = decl.step(s).kind in WINDOW_KINDS
            self.at(a, k, s)
            a.require(self.eligible(k, spec))
            if window:
                a.require(self.turn[k] == f"p{spec.owner}")
            a.set(self.used[k, ab], Min(self.used[k, ab] + 1, 2))
            a.set(self.resolving[k], ab.name)
            a.set(self.raised[k], False)
            a.set(self.step[k], res)
            if window:
                a.set(self.passes[k], 0)
                a.set(self.turn[k], self.nxt(self.players[spec.owner - 1]))
                a.set(self.fresh[k], False)
            if self.total is not None and spec.limit is not None:
                a.set(self.total[ab], self.total[ab] + 1)

        @m.action(self.Level, self.Ab, describe=lambda k, ab: f"{k.label}: {ab.label} resolves", cites=list(decl.cites))
        def resolve(a: DslStep, k: Term, ab: Term) -> None:
            spec = abil[ab.name]
            res = self.resolving_step(spec)
            back = [mv.target for mv in decl.moves_from(res, MoveKind.RESOLVE)] if res else []
            if res is None or not back:
                a.require(False)
                return
            self.at(a, k, res)
            a.require(self.resolving[k] == ab.name)
            if spec.effect is Effect.CANCEL and self.effect_move(spec, MoveKind.CANCEL) is not None:
                a.require(False)
            if spec.effect is Effect.CHANGE and self.effect_move(spec, MoveKind.CHANGE) is not None:
                a.require(False)
            if spec.effect is Effect.RAISE and self.effect_move(spec, MoveKind.NEST) is not None:
                a.require(self.raised[k])
            a.set(self.resolving[k], NONE)
            self.enter(a, k, back[0], resume=True)

    def cancel_move(self) -> None:
        m, decl, abil, Cond = self.m, self.decl, self.abil, self.Cond

        @m.action(
            self.Level,
            self.Ab,
            describe=lambda k, ab: f"{k.label}: {ab.label} cancels its condition",
            cites=["Cancel", *decl.cites],
        )
        def cancel(a: DslStep, k: Term, ab: Term) -> None:
            spec = abil[ab.name]
            target = self.effect_move(spec, MoveKind.CANCEL)
            res = self.resolving_step(spec)
            if spec.effect is not Effect.CANCEL or target is None or res is None:
                a.require(False)
                return
            back = [mv.target for mv in decl.moves_from(res, MoveKind.RESOLVE)]
            self.at(a, k, res)
            a.require(self.resolving[k] == ab.name)
            others = Or(*[self.has[k, c] for c in Cond if c.name != spec.condition]) if len(Cond) > 1 else Not(True)
            a.set(self.has[k, spec.condition], False)
            a.set(self.resolving[k], NONE)
            a.set(self.cancelled[k], True, when=Not(others))
            self.enter(a, k, target, when=Not(others))
            if back:
                self.enter(a, k, back[0], when=others, resume=True)

    def change_move(self) -> None:
        m, decl, abil, scen = self.m, self.decl, self.abil, self.scen

        @m.action(
            self.Level,
            self.Ab,
            describe=lambda k, ab: f"{k.label}: {ab.label} changes its condition",
            cites=[*decl.cites],
        )
        def change(a: DslStep, k: Term, ab: Term) -> None:
            spec = abil[ab.name]
            target = self.effect_move(spec, MoveKind.CHANGE)
            res = self.resolving_step(spec)
            if spec.effect is not Effect.CHANGE or target is None or res is None:
                a.require(False)
                return
            self.at(a, k, res)
            a.require(self.resolving[k] == ab.name)
            a.set(self.has[k, spec.condition], False)
            a.set(self.has[k, spec.into], True)
            a.set(self.resolving[k], NONE)
            a.set(self.occurred[k], False)
            for other in scen.abilities:
                if other.condition == spec.into:
                    a.set(self.used[k, other.name], 0)
            self.enter(a, k, target)

    def nest_move(self) -> None:
        m, decl, abil, lifo = self.m, self.decl, self.abil, self.lifo

        @m.action(
            self.Level,
            self.Level,
            self.Ab,
            describe=lambda k, j, ab: f"{k.label}: {ab.label} raises a new condition ({j.label})",
            cites=["Nested Ability Sequences", *decl.cites],
        )
        def nest(a: DslStep, k: Term, j: Term, ab: Term) -> None:
            spec = abil[ab.name]
            target = self.effect_move(spec, MoveKind.NEST)
            res = self.resolving_step(spec)
            ok_slot = _level_no(j) == _level_no(k) + 1 if lifo else _level_no(j) > _level_no(k)
            if spec.effect is not Effect.RAISE or target is None or res is None or not ok_slot:
                a.require(False)
                return
            self.at(a, k, res)
            a.require(self.resolving[k] == ab.name)
            a.require(Not(self.raised[k]))
            a.require(self.top + 1 == _level_no(j))
            a.set(self.raised[k], True)
            a.set(self.top, self.top + 1)
            if lifo:
                a.set(self.cur, _level_no(j))
            for c in self.Cond:
                a.set(self.has[j, c], c.name == spec.into)
            self.open_level(a, j)
            self.enter(a, j, target)

    def return_moves(self) -> None:
        m, decl, lifo, slots, Level = self.m, self.decl, self.lifo, self.slots, self.Level
        returns = decl.moves_of(MoveKind.RETURN)
        if not returns:
            return
        RM = m.sort(
            "ReturnMove",
            [f"{_norm(mv.source)}__{_norm(mv.target)}" for mv in returns],
            labels=[f"{mv.source} -> {mv.target}" for mv in returns],
        )
        rmap = dict(zip((x.name for x in RM), returns, strict=True))

        @m.action(
            Level,
            RM,
            name="return",
            describe=lambda k, mv: f"{k.label}: the game returns to where it left off",
            cites=["Nested Ability Sequences"],
        )
        def return_(a: DslStep, k: Term, mv: Term) -> None:
            move = rmap[mv.name]
            i = _level_no(k)
            self.at(a, k, move.source)
            if lifo:
                if i == 1:
                    a.require(False)  # the outermost sequence has no caller
                    return
                caller = Level[i - 2]
                a.require(self.top == i)
                a.set(self.top, self.top - 1)
                a.set(self.cur, i - 1)
                a.set(self.step[k], IDLE)
                for c in self.Cond:
                    a.set(self.has[k, c], False)
                for other in self.Ab:
                    a.set(self.used[k, other], 0)
                a.set(self.resolving[k], NONE)
                a.set(self.raised[k], False)
                a.set(self.occurred[k], False)
                a.set(self.cancelled[k], False)
                a.set(self.fresh[k], False)
                a.set(self.passes[k], 0)
                if move.target != CALLER:
                    a.set(self.resolving[caller], NONE)
                    self.enter(a, caller, move.target)
            else:
                if i == slots:
                    a.require(False)  # no slot after the last one: nothing can wait there
                    return
                a.require(self.top > i)
                a.set(self.cur, i + 1)

    def game_end_and_covers(self) -> None:
        m, decl, step = self.m, self.decl, self.step
        closed = [x.name for x in decl.steps if x.kind is StepKind.CLOSED]
        settled = And(*(Or(step[k] == IDLE, *(step[k] == c for c in closed)) for k in self.Level))
        m.game_end(
            And(settled, self.top == 1) if self.lifo else And(settled, self.cur == self.top),
            cites=["Triggering Condition"],
            doc="Every triggering condition raised has been closed, and no sequence is waiting: the scenario is over.",
        )
        for x in decl.steps:
            m.cover(f"timing step: {x.label}", Or(*(step[k] == x.name for k in self.Level)))


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


class _Shape:
    """Where a sequence can be, read off the declaration's move graph within one nesting level."""

    def __init__(self, decl: Declaration) -> None:
        import networkx as nx

        self._nx = nx
        self.decl = decl
        self.graph = g = _level_graph(decl)
        self.reach: set[str] = set(nx.descendants(g, decl.entry)) | {decl.entry}
        self._dom = nx.immediate_dominators(g, decl.entry)

    def from_(self, x: str) -> set[str]:
        """``x`` and every step reachable from it."""
        return set(self._nx.descendants(self.graph, x)) | {x}

    def dominated_by(self, x: str) -> set[str]:
        """The reachable steps every path from the entry reaches only through ``x``."""
        out = set()
        for n in self.reach:
            cur = n
            while True:
                if cur == x:
                    out.add(n)
                    break
                up = self._dom.get(cur, cur)
                if up == cur:
                    break
                cur = up
        return out

    def occurrence(self) -> tuple[set[str], set[str]]:
        """Steps where the condition has surely occurred, and steps (with ``idle``) where it never has."""
        occurs = [x.name for x in self.decl.steps_of(StepKind.OCCURS)]
        after: set[str] = set()
        for o in occurs:
            after |= self.dominated_by(o)
        no_change = self.graph.copy()
        no_change.remove_edges_from(
            [(a, b) for a, b, d in self.graph.edges(data=True) if d["kind"] == MoveKind.CHANGE.value]
        )
        maybe = set(occurs)
        for o in occurs:
            maybe |= self._nx.descendants(no_change, o)
        return after, (self.reach - maybe) | {IDLE}

    def cancelled_path(self) -> set[str]:
        """Steps a cancelled condition can be at: after a cancel move or a cancelled closing step."""
        out: set[str] = set()
        for mv in self.decl.moves_of(MoveKind.CANCEL):
            out |= self.from_(mv.target)
        for x in self.decl.steps:
            if x.kind is StepKind.CLOSED and x.outcome is Outcome.CANCELLED:
                out |= self.from_(x.name)
        return out


def _possible_conditions(scen: Scenario, groups: list[tuple[str, ...]], slots: int, lifo: bool) -> list[set[str]]:
    """Which conditions each slot can hold (an over-approximation from the scenario's abilities)."""
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
                    for j in [i + 1] if lifo else range(i + 1, slots):
                        if j < slots and a.into not in possible[j]:
                            possible[j].add(a.into)
                            changed = True
    return possible


def _lemmas(m: Model, decl: Declaration, scen: Scenario, groups: list[tuple[str, ...]], slots: int) -> None:
    """Invariants that follow from the declaration's shape, named "lemma: ...".

    They are checked like any property (a mutant can violate them) and, once
    proved, help k-induction prove the rule properties.
    """
    v, st = m.v, m.sorts
    Level, Ab = st.Level, st.Ability
    shape = _Shape(decl)
    after, never = shape.occurrence()
    abil = {a.name: a for a in scen.abilities}
    lifo = decl.queue_order is QueueOrder.LIFO

    def in_steps(k: Term, names: set[str]) -> Term:
        return Or(*[v.step[k] == n for n in sorted(names)]) if names else Not(True)

    def res_of(a: Ability) -> str | None:
        s = _step_for(decl, a.timing)
        return decl.resolving_of(s) if s else None

    m.invariant(
        "lemma: open sequences fill the slots from the bottom",
        And(
            v.cur == v.top if lifo else And(v.cur <= v.top, v.cur >= 1),
            ForAll_(Level, lambda k: (v.step[k] == IDLE) == (v.top < _level_no(k))),
        ),
        cites=["Nested Ability Sequences"],
    )
    m.invariant(
        "lemma: the occurrence flag matches the step",
        ForAll_(
            Level,
            lambda k: And(
                Implies_(in_steps(k, after), v.occurred[k]), Implies_(in_steps(k, never), Not(v.occurred[k]))
            ),
        ),
        cites=["Triggering Condition"],
    )
    m.invariant(
        "lemma: a resolving ability sits at its resolving step and answers an open condition",
        ForAll_(
            Level,
            lambda k: And(
                *[
                    Implies_(
                        v.resolving[k] == a.name,
                        And(v.step[k] == (res_of(abil[a.name]) or IDLE), v.has[k, abil[a.name].condition]),
                    )
                    for a in Ab
                ],
                Implies_(
                    v.resolving[k] == NONE, Not(Or(*[v.step[k] == r.name for r in decl.steps_of(StepKind.RESOLVING)]))
                ),
            ),
        ),
        cites=["Interrupts", "Reactions"],
    )
    terms = []
    for a in scen.abilities:
        s = _step_for(decl, a.timing)
        if s is not None:
            terms.append((a.name, shape.from_(s) & shape.reach))
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
        forced_terms.append((f, shape.dominated_by(fs) - {fs, decl.resolving_of(fs) or ""}))
    m.invariant(
        "lemma: past a forced step, its eligible forced abilities have resolved",
        ForAll_(
            Level,
            lambda k: And(
                *[
                    Implies_(And(in_steps(k, later), v.has[k, f.condition]), v.used[k, f.name] >= 1)
                    for f, later in forced_terms
                ]
            ),
        ),
        cites=["Forced Interrupts / Forced Reactions"],
    )
    cancel_to = shape.cancelled_path()
    m.invariant(
        "lemma: a cancelled condition stays on the cancelled path",
        ForAll_(Level, lambda k: Implies_(v.cancelled[k], in_steps(k, cancel_to))),
        cites=["Cancel"],
    )
    possible = _possible_conditions(scen, groups, slots, lifo)
    m.invariant(
        "lemma: each slot holds only conditions the scenario can raise there",
        ForAll_(Level, lambda k: And(*[Not(v.has[k, c]) for c in st.Cond if c.name not in possible[_level_no(k) - 1]])),
        cites=["Nested Ability Sequences"],
    )


def priority_shown_in_windows(m: Model, decl: Declaration) -> None:
    """Declare what the game shows of a generated system's priority state (for mutation testing).

    ``fresh`` (a window was just opened) is a record the generator writes and no rule reads: bookkeeping.  Who
    may act next (``turn``) and how many players passed in a row (``passes``) exist only while the level's step is
    a window: in the other steps nobody acts or passes, and a window that opens starts afresh, so the game shows
    neither there.
    """
    windows = [s.name for s in decl.steps if s.kind in WINDOW_KINDS]
    step = m.v.step
    m.bookkeeping("fresh")

    def in_window(k: Term) -> Term:
        return Or(*(step[k] == w for w in windows))

    m.observable_where("turn", in_window)
    m.observable_where("passes", in_window)
