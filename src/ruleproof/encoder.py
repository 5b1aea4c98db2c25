"""The Z3 encoder: the IR's semantics as SMT formulas (the only module that imports z3).

It offers the engines three things, all in terms of the IR:

* :class:`Unrolling`, one incremental solver over a path ``s0 .. sk`` (with or
  without the initial condition, with lemmas at every state), on which BMC,
  k-induction and coverage queries are asked with assumption literals;
* :func:`chc_prove`, a constrained-Horn-clause query on Z3's Spacer engine,
  which returns the inductive invariant it synthesised;
* :meth:`Unrolling.trace`, the path of a model as plain data
  (:class:`ruleproof.results.RawTrace`), for concrete replay.

Enumerations (sorts, zones) are encoded as integers ``0..n-1`` with a domain
constraint at every state; integers are mathematical integers (declared
ranges are checked as a property, not assumed).  Translation is a cached,
stack-based walk, so deep expressions do not hit Python's recursion limit.
Solver seeds are fixed, so the same input gives the same answer.
"""

from __future__ import annotations

import enum
import time
from dataclasses import dataclass
from functools import partial
from typing import Callable, Mapping, Sequence, TypeVar

import z3  # type: ignore[import-untyped]

from . import budget
from .ir import (
    Action,
    App,
    BoolT,
    Choice,
    Const,
    EnumT,
    Expr,
    IntT,
    Op,
    Property,
    PropKind,
    System,
    Type,
    Value,
    Var,
    const,
    fold,
)
from .results import RawTrace

__all__ = ["SatResult", "Unrolling", "OneStep", "one_step", "ReversedUnrolling", "chc_prove", "Cond",
           "fresh_context", "new_solver", "evaluate", "writers", "Z3_OPS", "smtlib_queries", "initial_state"]

SEED = 0
_T = TypeVar("_T")


def fresh_context() -> None:
    """Make the next Z3 terms and solvers live in a new main context.

    Z3's choice among satisfying models depends on every term created before
    in the same context; starting each unit of work (a system, a mutant, a
    loop candidate) in a fresh context makes its answers a function of the
    unit alone, in one process or on a Dask worker.  Objects of the old
    context keep it alive, so nothing built before breaks, but they must not
    be mixed with new ones.
    """
    z3.z3._main_ctx = None  # z3.main_ctx() creates a new context on next use


class SatResult(enum.Enum):
    SAT = "sat"
    UNSAT = "unsat"
    UNKNOWN = "unknown"


class Cond:
    """An opaque condition over an unrolling (a Z3 formula the engines never look into)."""

    __slots__ = ("z",)

    def __init__(self, z: z3.BoolRef) -> None:
        self.z = z


def new_solver(seed: int = SEED, *, horn: bool = False) -> z3.Solver:
    """A solver with ruleproof's settings, registered so that the run can stop it.

    Fixed seed; Z3's own Ctrl-C handling off (ruleproof's watchdog stops the
    query instead: :mod:`ruleproof.budget`); the memory limit of the run.
    The current context is what :func:`ruleproof.budget.set_interruptor`
    stops on an interrupt, a run time limit or a query past its deadline.
    """
    s = z3.SolverFor("HORN") if horn else z3.Solver()
    s.set("random_seed", seed)
    s.set("ctrl_c", False)
    memory = budget.memory_limit()
    if memory is not None and _MEMORY.get("limit") != memory:
        # Z3 counts its own heap only; leave a quarter of the limit to Python
        z3.set_param("memory_max_size", max(64, memory * 3 // 4 // 2**20))
        _MEMORY["limit"] = memory
    budget.set_interruptor(z3.main_ctx().interrupt)
    return s


_MEMORY: dict[str, int] = {}
"""The memory limit last given to Z3 (a global Z3 parameter)."""


def _limit(s: z3.Solver, deadline: float | None, rlimit: int | None = None) -> str | None:
    """Set the solver's timeout (from ``deadline``) and resource limit for the next call.

    Returns None when the deadline has passed already, else the description
    of the resource limit (for the reason of an UNKNOWN), "" without one.
    """
    budget.checkpoint()  # an interrupt, the run's time limit, or the query past its grace stops here
    if deadline is not None:
        left = deadline - time.monotonic()
        if left <= 0:
            return None
        s.set("timeout", max(1, min(int(left * 1000), 2**32 - 1)))
    rl = budget.rlimit()
    if rlimit is not None and (rl is None or rlimit < rl):
        rl = rlimit  # this call's own, smaller limit
    s.set("rlimit", rl or 0)  # 0: none (a solver keeps the last value set)
    if rl is None:
        return ""
    return f"resource limit reached (rlimit {rl:,} per solver call)"


def _unknown_reason(s: z3.Solver, budget_text: str) -> str:
    """Why the solver said unknown: a budget (resource limit, timeout, memory) or the solver's own reason.

    An interrupt or the run's time limit is raised here, never reported as
    an UNKNOWN result.
    """
    reason = s.reason_unknown() or "solver returned unknown"
    budget.checkpoint()
    if reason == "canceled" and budget_text:
        return budget_text
    if reason in ("canceled", "timeout", "interrupted", "interrupted from keyboard"):
        return "timeout"
    if "memory" in reason:
        return "out of memory"
    return f"solver: {reason}"


def _check(s: z3.Solver, *assumptions: z3.BoolRef) -> z3.CheckSatResult:
    """``s.check``; Z3 running out of memory is a ``MemoryError`` (the query becomes UNKNOWN "out of memory")."""
    try:
        return s.check(*assumptions)
    except z3.Z3Exception as exc:
        budget.checkpoint()
        if "memory" in str(exc).lower():
            raise MemoryError(str(exc)) from None
        raise


def _sort(t: Type) -> z3.SortRef:
    return z3.BoolSort() if isinstance(t, BoolT) else z3.IntSort()


# Hot paths of building an unrolling.  z3's Python layer checks the sort of every argument of ``And``/``Or`` and of
# both sides of every pair of ``substitute`` (a new Python object per check): over a whole-pool loop search that was
# most of the time spent outside the solver.  These make the same Z3 calls on the same terms (so the same terms, and
# the same answers), with the checks done once where the terms are built (same sorts by construction).


def _connective(mk: Callable[..., object], plain: Callable[..., z3.BoolRef],
                args: Sequence[z3.ExprRef]) -> z3.BoolRef:
    """``plain(*args)`` (``z3.And``, ``z3.Or``: the same term); Boolean terms go straight to Z3's ``mk``, without
    z3's per-argument sort coercion."""
    if args and all(isinstance(a, z3.BoolRef) for a in args):
        ctx = args[0].ctx
        arr = (z3.Ast * len(args))(*(a.as_ast() for a in args))
        return z3.BoolRef(mk(ctx.ref(), len(args), arr), ctx)
    return plain(*args)


def _and(args: Sequence[z3.ExprRef]) -> z3.BoolRef:
    """``z3.And(*args)``: :func:`_connective`."""
    return _connective(z3.Z3_mk_and, z3.And, args)


def _or(args: Sequence[z3.ExprRef]) -> z3.BoolRef:
    """``z3.Or(*args)``: :func:`_connective`."""
    return _connective(z3.Z3_mk_or, z3.Or, args)


class _Subst:
    """A substitution ``from -> to`` applied to many terms: ``z3.substitute``'s arrays built once.

    Each pair maps a generic constant of a :class:`_Relation` to a state's or a
    step's constant of the same IR variable or choice, so the sorts agree by
    construction (``z3.substitute`` would check them again on every call).
    """

    __slots__ = ("_keep", "_n", "_from", "_to")

    def __init__(self, pairs: Sequence[tuple[z3.ExprRef, z3.ExprRef]]) -> None:
        self._keep = tuple(pairs)  # the terms stay alive as long as the arrays point to them
        self._n = len(self._keep)
        self._from = (z3.Ast * self._n)(*(a.as_ast() for a, _ in self._keep))
        self._to = (z3.Ast * self._n)(*(b.as_ast() for _, b in self._keep))

    def __call__(self, t: z3.ExprRef) -> z3.ExprRef:
        ctx = t.ctx
        return z3.z3._to_expr_ref(z3.Z3_substitute(ctx.ref(), t.as_ast(), self._n, self._from, self._to), ctx)


def _domain(t: Type, z: z3.ExprRef) -> z3.BoolRef | None:
    if isinstance(t, EnumT):
        return _and([z >= 0, z < len(t.values)])
    return None


def _from_z3(t: Type, v: z3.ExprRef) -> Value:
    if isinstance(t, BoolT):
        return z3.is_true(v)
    n = v.as_long()
    if isinstance(t, EnumT):
        return t.values[n]
    return int(n)


def _min(xs: list[z3.ExprRef]) -> z3.ExprRef:
    r = xs[0]
    for x in xs[1:]:
        r = z3.If(x < r, x, r)
    return r


def _max(xs: list[z3.ExprRef]) -> z3.ExprRef:
    r = xs[0]
    for x in xs[1:]:
        r = z3.If(x > r, x, r)
    return r


Z3_OPS: dict[Op, Callable[[list[z3.ExprRef]], z3.ExprRef]] = {
    Op.ADD: lambda a: z3.Sum(*a),
    Op.SUB: lambda a: a[0] - a[1],
    Op.MUL: lambda a: a[0] * a[1],
    Op.DIV: lambda a: a[0] / a[1],  # Z3 integer division: floor for a positive divisor
    Op.NEG: lambda a: -a[0],
    Op.MIN: _min,
    Op.MAX: _max,
    Op.EQ: lambda a: a[0] == a[1],
    Op.NE: lambda a: a[0] != a[1],
    Op.LT: lambda a: a[0] < a[1],
    Op.LE: lambda a: a[0] <= a[1],
    Op.AND: _and,
    Op.OR: _or,
    Op.NOT: lambda a: z3.Not(a[0]),
    Op.IMPLIES: lambda a: z3.Implies(a[0], a[1]),
    Op.ITE: lambda a: z3.If(a[0], a[1], a[2]),
}
"""The SMT semantics of each operator (enums are integers ``0..n-1``)."""


def _const(e: Const) -> z3.ExprRef:
    if isinstance(e.type, BoolT):
        return z3.BoolVal(bool(e.value))
    if isinstance(e.type, EnumT):
        return z3.IntVal(e.type.values.index(str(e.value)))
    return z3.IntVal(int(e.value))


class _Translator:
    """IR -> Z3 over one state (``pre``), or one step (``pre``, ``post`` and the step's choices).

    The translation of each distinct node is kept, so a translator shared by
    the expressions of one step translates their common parts once.
    """

    def __init__(
        self,
        pre: Mapping[str, z3.ExprRef],
        post: Mapping[str, z3.ExprRef] | None = None,
        choices: Mapping[str, z3.ExprRef] | None = None,
    ) -> None:
        self.pre = pre
        self.post = post
        self.choices = choices or {}
        self.cache: dict[Expr, z3.ExprRef] = {}

    def __call__(self, root: Expr) -> z3.ExprRef:
        # a huge expression: the query's deadline or an interrupt stops it every 4,096 nodes
        return fold(root, self._leaf, self._app, self.cache, tick=budget.checkpoint)

    def _leaf(self, e: Expr) -> z3.ExprRef:
        if isinstance(e, Const):
            return _const(e)
        if isinstance(e, Var):
            if e.primed:
                if self.post is None:
                    raise ValueError("post-state read outside a step")
                return self.post[e.name]
            return self.pre[e.name]
        assert isinstance(e, Choice)
        return self.choices[e.name]

    @staticmethod
    def _app(e: App, args: list[z3.ExprRef]) -> z3.ExprRef:
        return Z3_OPS[e.op](args)


def evaluate(
    e: Expr,
    pre: Mapping[str, Value],
    post: Mapping[str, Value] | None = None,
    choices: Mapping[str, Value] | None = None,
    types: Mapping[str, Type] | None = None,
) -> Value:
    """The value of ``e`` under this module's semantics, on concrete values.

    Variables and choices are replaced by their values (``types`` gives the
    type of each name, for enums) and Z3 simplifies the result to a literal.
    This is how tests check that the encoder and the concrete evaluator give
    every operator the same meaning.
    """
    types = types or {}

    def lit(name: str, v: Value) -> z3.ExprRef:
        t = types.get(name)
        return _const(Const(v, t) if t is not None else const(v))

    tr = _Translator(
        {k: lit(k, v) for k, v in pre.items()},
        None if post is None else {k: lit(k, v) for k, v in post.items()},
        {k: lit(k, v) for k, v in (choices or {}).items()},
    )
    z = z3.simplify(tr(e))
    if isinstance(e.type, BoolT):
        if not (z3.is_true(z) or z3.is_false(z)):
            raise ValueError(f"not a literal: {z}")
        return z3.is_true(z)
    return _from_z3(e.type, z)


class _Consts:
    """``z3.Const(name, _sort(t))`` for many constants of the current context: the sorts made once, and the Python
    object made directly (a Boolean or an arithmetic term, as ``z3.Const`` would make it) rather than by asking Z3
    the new term's kind and sort."""

    def __init__(self) -> None:
        self.ctx = z3.main_ctx()
        self.boolean = z3.BoolSort(self.ctx)
        self.integer = z3.IntSort(self.ctx)

    def __call__(self, name: str, t: Type) -> z3.ExprRef:
        ctx = self.ctx
        if isinstance(t, BoolT):
            return z3.BoolRef(z3.Z3_mk_const(ctx.ref(), z3.to_symbol(name, ctx), self.boolean.ast), ctx)
        return z3.ArithRef(z3.Z3_mk_const(ctx.ref(), z3.to_symbol(name, ctx), self.integer.ast), ctx)


def _state_consts(system: System, tag: str) -> dict[str, z3.ExprRef]:
    mk = _Consts()
    return {v.name: mk(f"{v.name}@{tag}", v.type) for v in system.vars}


def _choice_consts(a: Action, ai: int, tag: str) -> dict[str, z3.ExprRef]:
    mk = _Consts()
    return {c.name: mk(f"{c.name}@{tag}#{ai}", c.type) for c in a.choices}


def _choice_domain(a: Action, ch: Mapping[str, z3.ExprRef]) -> list[z3.BoolRef]:
    out: list[z3.BoolRef] = []
    for c in a.choices:
        z = ch[c.name]
        if isinstance(c.type, EnumT):
            out.append(z3.And(z >= 0, z < len(c.type.values)))
        elif isinstance(c.type, IntT):
            out.append(z3.And(z >= c.type.lo, z <= c.type.hi))
    return out


def writers(system: System) -> dict[str, list[int]]:
    """For each state variable, the ground actions (indices) that update it."""
    out: dict[str, list[int]] = {v.name: [] for v in system.vars}
    for ai, a in enumerate(system.actions):
        for u in a.updates:
            out[u.var].append(ai)
    return out


def _action_conds(prop: Property) -> dict[str, Expr]:
    return dict(prop.conds)


def _effect(system: System, ai: int, tr: _Translator, post: Mapping[str, z3.ExprRef],
            ch: Mapping[str, z3.ExprRef], lemmas: Sequence[Property]) -> list[z3.BoolRef]:
    """What ground action ``ai`` requires and does: guard, choice domains, its updates, action lemmas."""
    a = system.actions[ai]
    parts = [tr(a.guard), *_choice_domain(a, ch)]
    parts += [post[u.var] == tr(u.expr) for u in a.updates]
    for lem in lemmas:
        if lem.kind is PropKind.ACTION and lem.applies_to(a):
            cond = _action_conds(lem).get(a.label)
            if cond is not None:
                parts.append(tr(cond))
    return parts


def _state_formula(system: System, st: Mapping[str, z3.ExprRef], lemmas: Sequence[Property]) -> list[z3.BoolRef]:
    """What holds at every state: enum domains and the invariant lemmas."""
    out = [d for v in system.vars if (d := _domain(v.type, st[v.name])) is not None]
    tr = _Translator(st)
    out += [tr(lem.expr) for lem in lemmas if lem.kind is PropKind.INVARIANT]
    return out


def _init_formula(system: System, st: Mapping[str, z3.ExprRef]) -> z3.BoolRef:
    tr = _Translator(st)
    parts: list[z3.BoolRef] = []
    types = {v.name: v.type for v in system.vars}
    for iv in system.init_vars:
        t = types[iv.var]
        z = st[iv.var]
        lo = iv.values[0]
        if isinstance(t, IntT) and len(iv.values) > 2 and iv.values == tuple(range(int(lo), int(lo) + len(iv.values))):
            parts.append(_and([z >= int(lo), z <= int(iv.values[-1])]))
        else:
            parts.append(_or([z == tr(Const(x, t)) for x in iv.values]))
    parts.extend(tr(c) for c in system.init_constraints)
    return _and(parts)


def initial_state(system: System) -> tuple[Value, ...] | None:
    """One initial state of ``system`` (values in the order of its variables), or None when it has none.

    A deterministic answer (fixed seed, fresh context); no deadline: the
    initial condition is small beside any query on the transitions.
    """
    fresh_context()
    st = _state_consts(system, "0")
    s = new_solver()
    s.add(_init_formula(system, st), *_state_formula(system, st, ()))
    if _check(s) != z3.sat:
        return None
    m = s.model()
    return tuple(_from_z3(v.type, m.eval(st[v.name], model_completion=True)) for v in system.vars)


class _Relation:
    """A system's transition relation over generic constants, built once and instantiated per step.

    ``trans`` relates the generic state ``pre`` to ``post`` through the
    action index ``act`` (in range when ``acts`` holds; a larger index changes
    nothing) and the choices of each action: the chosen action's
    guard, choice domains, updates and action lemmas, and for each variable a
    frame condition over the actions that write it only ("unless one of its
    writers acted, it keeps its value").  ``state`` is what holds at every
    state (enum domains, invariant lemmas).  An :class:`Unrolling` copies both
    onto its own constants with ``z3.substitute``, and translates each
    property once per query the same way.
    """

    def __init__(self, system: System, lemmas: Sequence[Property]) -> None:
        self.system = system
        self.lemmas = tuple(lemmas)
        self.pre = _state_consts(system, "pre")
        self.post = _state_consts(system, "post")
        self.act = z3.Int("act@step")
        self.choices = [_choice_consts(a, ai, "step") for ai, a in enumerate(system.actions)]
        n = len(system.actions)
        self.is_act = [self.act == ai for ai in range(n)]
        self.state = _and(_state_formula(system, self.pre, lemmas))
        self.acts = z3.And(self.act >= 0, self.act < n) if n else z3.BoolVal(False)
        parts: list[z3.BoolRef] = []
        self._tr = [_Translator(self.pre, self.post, ch) for ch in self.choices]
        for ai in range(n):
            budget.checkpoint()  # a big system: the query's deadline or an interrupt stops the build here
            parts.append(z3.Implies(self.is_act[ai], _and(_effect(system, ai, self._tr[ai], self.post,
                                                                self.choices[ai], lemmas))))
        for v, ws in writers(system).items():
            keep = self.post[v] == self.pre[v]
            if not ws:
                parts.append(keep)
            elif len(ws) < n:
                parts.append(_or([*(self.is_act[ai] for ai in ws), keep]))
            else:
                parts.append(_or([self.acts, keep]))
        self.trans = _and(parts)
        self._props: dict[tuple[object, ...], z3.BoolRef] = {}

    def step_tr(self, ai: int) -> _Translator:
        """The translator of action ``ai``'s step (pre, post and its choices)."""
        return self._tr[ai]

    def expr(self, e: Expr) -> z3.BoolRef:
        """``e`` over the generic pre-state."""
        return _Translator(self.pre)(e)

    def _constrained(self, prop: Property) -> list[tuple[int, z3.BoolRef]]:
        """Each ground action that action property ``prop`` constrains, with its condition on the generic step."""
        conds = _action_conds(prop)
        out = []
        for ai, a in enumerate(self.system.actions):
            cond = conds.get(a.label) if prop.applies_to(a) else None
            if cond is not None:
                out.append((ai, self.step_tr(ai)(cond)))
        return out

    def bad_step(self, prop: Property) -> z3.BoolRef:
        """Action property ``prop`` fails on the generic step (some action it constrains breaks it)."""
        key = ("bad", prop.name, prop.conds)
        hit = self._props.get(key)
        if hit is None:
            parts = [z3.And(self.is_act[ai], z3.Not(c)) for ai, c in self._constrained(prop)]
            hit = z3.Or(*parts) if parts else z3.BoolVal(False)
            self._props[key] = hit
        return hit

    def invariant(self, prop: Property) -> z3.BoolRef:
        """Invariant or target ``prop`` over the generic pre-state."""
        key = ("inv", prop.expr)
        hit = self._props.get(key)
        if hit is None:
            hit = self.expr(prop.expr)
            self._props[key] = hit
        return hit

    def keeps_step(self, prop: Property) -> z3.BoolRef:
        """Action property ``prop`` holds on the generic step (each action it constrains meets its condition)."""
        key = ("keep", prop.name, prop.conds)
        hit = self._props.get(key)
        if hit is None:
            hit = z3.And(*(z3.Implies(self.is_act[ai], c) for ai, c in self._constrained(prop)))
            self._props[key] = hit
        return hit


def _in_context(ctx: z3.Context, build: Callable[[], _T]) -> _T:
    """``build()`` with ``ctx`` as Z3's main context (the terms it makes live there)."""
    saved = z3.z3._main_ctx
    z3.z3._main_ctx = ctx
    try:
        return build()
    finally:
        z3.z3._main_ctx = saved


class _Base:
    """A system's :class:`_Relation` without lemmas, in a Z3 context of its own, kept across queries.

    Every query starts in a fresh main context (:func:`fresh_context`); it
    gets the relation by translating these terms into its context (one call
    into Z3) instead of building them again from the IR.  The terms are a
    function of the system alone, so what a query sees does not depend on
    the queries before it.
    """

    def __init__(self, system: System) -> None:
        self.system = system
        self.ctx = z3.Context()
        self.rel = _in_context(self.ctx, lambda: _Relation(system, ()))

    def terms(self, build: Callable[[_Relation], Sequence[z3.AstRef]], target: z3.Context) -> list[z3.AstRef]:
        """``build(relation)`` (made in this context) translated into ``target``."""
        made = _in_context(self.ctx, lambda: build(self.rel))
        vec = z3.AstVector(ctx=self.ctx)
        for x in made:
            vec.push(x)
        out = vec.translate(target)
        return [out[i] for i in range(len(out))]


_BASES: list[_Base] = []
"""The relations of the systems checked last (a few: a run checks its systems one after another)."""
_BASES_KEPT = 4


def _base(system: System) -> _Base:
    for b in _BASES:
        if b.system is system:
            return b
    b = _Base(system)
    _BASES.insert(0, b)
    del _BASES[_BASES_KEPT:]
    return b


class _View:
    """A system's relation with ``lemmas`` in the current main context (translated from its :class:`_Base`).

    The same fields and methods as :class:`_Relation`: ``state`` holds the
    invariant lemmas, ``trans`` the action lemmas.
    """

    def __init__(self, system: System, lemmas: Sequence[Property]) -> None:
        self.system = system
        self.lemmas = tuple(lemmas)
        self.base = _base(system)
        self.ctx = z3.main_ctx()
        names = [v.name for v in system.vars]
        sizes = [len(a.choices) for a in system.actions]
        inv = [lem for lem in lemmas if lem.kind is PropKind.INVARIANT]
        act = [lem for lem in lemmas if lem.kind is PropKind.ACTION]

        def build(rel: _Relation) -> list[z3.AstRef]:
            state = z3.And(rel.state, *(rel.invariant(lem) for lem in inv)) if inv else rel.state
            trans = z3.And(rel.trans, *(rel.keeps_step(lem) for lem in act)) if act else rel.trans
            out: list[z3.AstRef] = [state, trans, rel.acts, rel.act]
            out += [rel.pre[n] for n in names] + [rel.post[n] for n in names]
            out += [z for ch in rel.choices for z in ch.values()]
            return out

        got = self.base.terms(build, self.ctx)
        self.state, self.trans, self.acts, self.act = got[:4]
        k = len(names)
        self.pre = dict(zip(names, got[4:4 + k], strict=True))
        self.post = dict(zip(names, got[4 + k:4 + 2 * k], strict=True))
        rest = got[4 + 2 * k:]
        self.choices: list[dict[str, z3.ExprRef]] = []
        i = 0
        for a, n in zip(system.actions, sizes, strict=True):
            self.choices.append({c.name: rest[i + j] for j, c in enumerate(a.choices)})
            i += n
        self.is_act = [self.act == ai for ai in range(len(system.actions))]
        self._tr: dict[int, _Translator] = {}
        self._props: dict[tuple[object, ...], z3.BoolRef] = {}
        self._initial: z3.BoolRef | None = None

    def initial(self, st0: Mapping[str, z3.ExprRef]) -> z3.BoolRef:
        """The initial condition over the first state ``st0`` of an unrolling, in this context (every unrolling
        names its constants alike, so the terms are the same ones: built once per view)."""
        if self._initial is None:
            self._initial = _init_formula(self.system, st0)
        return self._initial

    def step_tr(self, ai: int) -> _Translator:
        """The translator of action ``ai``'s step (pre, post and its choices), in this context."""
        tr = self._tr.get(ai)
        if tr is None:
            tr = self._tr[ai] = _Translator(self.pre, self.post, self.choices[ai])
        return tr

    def expr(self, e: Expr) -> z3.BoolRef:
        """``e`` over the generic pre-state."""
        return _Translator(self.pre)(e)

    def _cached(self, key: tuple[object, ...], build: Callable[[_Relation], z3.AstRef]) -> z3.BoolRef:
        hit = self._props.get(key)
        if hit is None:
            hit = self._props[key] = self.base.terms(lambda rel: [build(rel)], self.ctx)[0]
        return hit

    def bad_step(self, prop: Property) -> z3.BoolRef:
        """Action property ``prop`` fails on the generic step (some action it constrains breaks it)."""
        return self._cached(("bad", prop.name, prop.conds), lambda rel: rel.bad_step(prop))

    def invariant(self, prop: Property) -> z3.BoolRef:
        """Invariant or target ``prop`` over the generic pre-state."""
        return self._cached(("inv", prop.expr), lambda rel: rel.invariant(prop))

    def keeps_step(self, prop: Property) -> z3.BoolRef:
        """Action property ``prop`` holds on the generic step."""
        return self._cached(("keep", prop.name, prop.conds), lambda rel: rel.keeps_step(prop))


_VIEWS: list[tuple[z3.Context, dict[tuple[int, ...], _View]]] = []


def _relation(system: System, lemmas: Sequence[Property]) -> _View:
    """The relation of ``system`` with ``lemmas`` in the current Z3 context (translated on first use)."""
    ctx = z3.main_ctx()
    if not _VIEWS or _VIEWS[0][0] is not ctx:
        _VIEWS.clear()
        _VIEWS.append((ctx, {}))
    table = _VIEWS[0][1]
    key = (id(system), *(id(lem) for lem in lemmas))
    hit = table.get(key)
    if hit is None or hit.system is not system:
        hit = _View(system, lemmas)
        table[key] = hit
    return hit


class Unrolling:
    """An incremental solver over the path ``s0 .. sk`` of a system.

    ``initial`` asserts the initial condition on ``s0`` (BMC); without it the
    path starts anywhere (the induction step of k-induction).  ``lemmas`` are
    properties already proved; they are asserted at every state (invariants)
    or on every step (action properties).  Each state and step is a copy of
    the system's :class:`_Relation` on fresh constants.

    With ``stop`` (a target), a path may also stand still from a state where
    the target holds: "the target holds at state ``k``" then means "within
    ``k`` steps", even when no action is enabled after it (a path that ends
    early).  :meth:`trace` cuts the path at its first standing step.
    """

    def __init__(
        self,
        system: System,
        *,
        initial: bool,
        lemmas: Sequence[Property] = (),
        seed: int = SEED,
        deadline: float | None = None,
        stop: Property | None = None,
    ) -> None:
        self.system = system
        self.deadline = deadline
        self.solver = new_solver(seed)
        self.lemmas = tuple(lemmas)
        self.rel = _relation(system, self.lemmas)
        self.stop = stop
        self.states: list[dict[str, z3.ExprRef]] = []
        self.acts: list[z3.ArithRef] = []
        self.choices: list[list[dict[str, z3.ExprRef]]] = []
        self._state_pairs: list[_Subst] = []
        self._step_pairs: list[_Subst] = []
        self.reason = ""
        self._new_state()
        if initial:
            self.solver.add(self.rel.initial(self.states[0]))

    @property
    def k(self) -> int:
        """Index of the last state of the path."""
        return len(self.states) - 1

    def _new_state(self) -> None:
        k = len(self.states)
        st = _state_consts(self.system, str(k))
        self.states.append(st)
        self._state_pairs.append(_Subst([(self.rel.pre[v.name], st[v.name]) for v in self.system.vars]))
        self.solver.add(self._at_state(self.rel.state, k))

    def fix(self, k: int, values: Sequence[Value]) -> None:
        """Assert that state ``k`` is the concrete state ``values`` (in the order of the system's variables)."""
        st = self.states[k]
        vs = self.system.vars
        self.solver.add(*(st[v.name] == _const(Const(x, v.type)) for v, x in zip(vs, values, strict=True)))

    def _at_state(self, z: z3.ExprRef, k: int) -> z3.ExprRef:
        return self._state_pairs[k](z)

    def _at_step(self, z: z3.ExprRef, j: int) -> z3.ExprRef:
        return self._step_pairs[j](z)

    def extend(self) -> None:
        """Add state ``k+1`` and the transition ``k -> k+1``."""
        budget.checkpoint()
        k = self.k
        self._new_state()
        pre, post = self.states[k], self.states[k + 1]
        act = z3.Int(f"act@{k}")
        self.acts.append(act)
        chs = [_choice_consts(a, ai, str(k)) for ai, a in enumerate(self.system.actions)]
        self.choices.append(chs)
        rel = self.rel
        pairs = [(rel.pre[v.name], pre[v.name]) for v in self.system.vars]
        pairs += [(rel.post[v.name], post[v.name]) for v in self.system.vars]
        pairs.append((rel.act, act))
        for generic, mine in zip(rel.choices, chs, strict=True):
            pairs += [(generic[name], z) for name, z in mine.items()]
        self._step_pairs.append(_Subst(pairs))
        self.solver.add(self._at_step(rel.trans, k))
        if self.stop is None:
            self.solver.add(self._at_step(rel.acts, k))
        else:
            n = len(self.system.actions)
            done = z3.And(act == n, self._at_state(rel.invariant(self.stop), k))
            self.solver.add(z3.Or(self._at_step(rel.acts, k), done))

    # conditions ------------------------------------------------------------
    def holds(self, prop: Property, k: int) -> Cond:
        """Invariant/target ``prop`` at state ``k``, or action property on step ``k-1 -> k``."""
        if prop.kind is PropKind.ACTION:
            return Cond(z3.Not(self._bad_action(prop, k).z))
        return Cond(self._at_state(self.rel.invariant(prop), k))

    def violated(self, prop: Property, k: int) -> Cond:
        """``prop`` fails at state ``k`` (for action properties: on step ``k-1 -> k``)."""
        if prop.kind is PropKind.ACTION:
            return self._bad_action(prop, k)
        return Cond(z3.Not(self._at_state(self.rel.invariant(prop), k)))

    def _bad_action(self, prop: Property, k: int) -> Cond:
        if k == 0:
            return Cond(z3.BoolVal(False))
        return Cond(self._at_step(self.rel.bad_step(prop), k - 1))

    def fired(self, family: str) -> Cond:
        """Some step of the path so far is an action of ``family``."""
        idx = [i for i, a in enumerate(self.system.actions) if a.family == family]
        parts = [act == i for act in self.acts for i in idx]
        return Cond(z3.Or(*parts) if parts else z3.BoolVal(False))

    def fired_where(self, conds: Mapping[int, Expr]) -> Cond:
        """Some step of the path is ground action ``ai`` with ``conds[ai]`` true (pre-state and choices)."""
        rel = self.rel
        generic = z3.Or(*(z3.And(rel.is_act[ai], rel.step_tr(ai)(e)) for ai, e in conds.items())) if conds else None
        if generic is None or not self.acts:
            return Cond(z3.BoolVal(False))
        return Cond(z3.Or(*(self._at_step(generic, j) for j in range(len(self.acts)))))

    def took(self, j: int, ai: int, choices: Mapping[str, Value] | None = None) -> Cond:
        """Step ``j`` of the path (state ``j`` to ``j+1``) is ground action ``ai`` with these choice values
        (choices not given are free)."""
        a = self.system.actions[ai]
        types = {c.name: c.type for c in a.choices}
        ch = self.choices[j][ai]
        parts = [self.acts[j] == ai]
        parts += [ch[n] == _const(Const(v, types[n])) for n, v in (choices or {}).items()]
        return Cond(z3.And(*parts))

    def at(self, e: Expr, k: int) -> Cond:
        """The state expression ``e`` holds at state ``k``."""
        return Cond(self._at_state(self.rel.expr(e), k))

    def reached(self, e: Expr) -> Cond:
        """Some state of the path satisfies ``e``."""
        generic = self.rel.expr(e)
        return Cond(z3.Or(*(self._at_state(generic, k) for k in range(len(self.states)))))

    def distinct(self, i: int, j: int) -> Cond:
        """States ``i`` and ``j`` differ (simple-path constraint)."""
        a, b = self.states[i], self.states[j]
        return Cond(z3.Or(*(a[v.name] != b[v.name] for v in self.system.vars)))

    def any(self, conds: Sequence[Cond]) -> Cond:
        """Some of ``conds`` holds."""
        return Cond(z3.Or(*(c.z for c in conds)) if conds else z3.BoolVal(False))

    def satisfied(self, c: Cond) -> bool:
        """``c`` holds in the model of the last SAT answer."""
        return bool(z3.is_true(self.solver.model().eval(c.z, model_completion=True)))

    def assert_(self, c: Cond) -> None:
        self.solver.add(c.z)

    def check(self, *assumptions: Cond, rlimit: int | None = None) -> SatResult:
        """Satisfiability of the path with ``assumptions`` (under the deadline and the resource limit).

        ``rlimit`` bounds this call further than the run's resource limit
        (the smaller one applies).  UNKNOWN sets :attr:`reason`: ``timeout``,
        ``resource limit reached (...)``, ``out of memory`` or ``solver: <Z3's
        reason>``.  An interrupt or the run's time limit raises
        (:mod:`ruleproof.budget`).
        """
        limit = _limit(self.solver, self.deadline, rlimit)
        if limit is None:
            self.reason = "timeout"
            return SatResult.UNKNOWN
        lits = []
        for c in assumptions:
            lit = z3.FreshBool("assume")
            self.solver.add(z3.Implies(lit, c.z))
            lits.append(lit)
        r = _check(self.solver, *lits)
        if r == z3.sat:
            return SatResult.SAT
        if r == z3.unsat:
            return SatResult.UNSAT
        self.reason = _unknown_reason(self.solver, limit)
        if self.reason == limit and self._past_deadline():
            self.reason = "timeout"
        return SatResult.UNKNOWN

    def spent(self) -> int:
        """Z3's resource count of this solver so far (what ``rlimit`` bounds)."""
        st = self.solver.statistics()
        return int(st.get_key_value("rlimit count")) if "rlimit count" in st.keys() else 0

    def _past_deadline(self) -> bool:
        return self.deadline is not None and time.monotonic() >= self.deadline

    def trace(self) -> RawTrace:
        """The path of the last SAT answer, as plain data."""
        m = self.solver.model()
        states = []
        for st in self.states:
            states.append(tuple(_from_z3(v.type, m.eval(st[v.name], model_completion=True)) for v in self.system.vars))
        steps = []
        for j, act in enumerate(self.acts):
            ai = m.eval(act, model_completion=True).as_long()
            if ai == len(self.system.actions):  # standing still at the target: the path ends here
                states = states[: j + 1]
                break
            a = self.system.actions[ai]
            ch = self.choices[j][ai]
            vals = tuple((c.name, _from_z3(c.type, m.eval(ch[c.name], model_completion=True))) for c in a.choices)
            steps.append((int(ai), vals))
        return RawTrace(tuple(states), tuple(steps))


class OneStep:
    """The 1-induction queries of one system on one incremental solver, in a Z3 context of its own.

    k-induction's first round asks two questions of every property: does an
    initial state violate it (the base case at depth 0), and does a step
    from a state where it holds (and every lemma holds) lead to one where it
    fails (the step case, 1-induction)?  Asked as separate queries, each
    builds its relation and solver again in a fresh context (what a
    counterexample's model must depend on).  Here both are asked, for every
    property of a run, on two solvers kept per system: the base solver holds
    the initial condition on the generic pre-state, the step solver the
    transition relation from the pre- to the post-state; each lemma and each
    property is guarded by assumption literals (so any set of lemmas can be
    assumed), and the solvers keep what they learnt from one query to the
    next.  Only an UNSAT answer is used (:meth:`proves`): a model found here
    is never shown (the engine asks its own fresh query for that), so the
    answers of the other queries stay a function of their own input alone.
    """

    def __init__(self, system: System, seed: int) -> None:
        self.system = system
        self.seed = seed
        self.ctx = z3.Context()
        self.reason = ""
        _in_context(self.ctx, self._build)

    def _build(self) -> None:
        system = self.system
        self.view = _View(system, ())
        v = self.view
        self.to_post = _Subst([(v.pre[x.name], v.post[x.name]) for x in system.vars])
        self.base = new_solver(self.seed)
        self.base.add(v.state, v.initial(v.pre))
        self.step = new_solver(self.seed)
        self.step.add(v.state, self.to_post(v.state), v.trans, v.acts)
        self.distinct = z3.FreshBool("distinct")
        self.step.add(z3.Implies(self.distinct, _or([v.pre[x.name] != v.post[x.name] for x in system.vars])))
        self._lits: dict[tuple[object, ...], z3.BoolRef] = {}

    def _lit(self, solver: z3.Solver, key: tuple[object, ...], build: Callable[[], z3.BoolRef]) -> z3.BoolRef:
        """A literal that implies ``build()`` on ``solver`` (made once per key)."""
        lit = self._lits.get(key)
        if lit is None:
            lit = self._lits[key] = z3.FreshBool("lit")
            solver.add(z3.Implies(lit, build()))
        return lit

    def _holds(self, solver: z3.Solver, tag: str, prop: Property, post: bool = False, negate: bool = False
               ) -> z3.BoolRef:
        """The literal of invariant ``prop`` (or its negation) at the pre- (or post-) state, on ``solver``."""
        def build() -> z3.BoolRef:
            z = self.view.invariant(prop)
            z = self.to_post(z) if post else z
            return z3.Not(z) if negate else z
        return self._lit(solver, (tag, post, negate, prop.kind, prop.expr), build)

    def _lemmas(self, lemmas: Sequence[Property], step: bool) -> list[z3.BoolRef]:
        out: list[z3.BoolRef] = []
        for lem in lemmas:
            if lem.kind is PropKind.INVARIANT:
                if step:
                    out.append(self._holds(self.step, "step", lem))
                    out.append(self._holds(self.step, "step", lem, post=True))
                else:
                    out.append(self._holds(self.base, "base", lem))
            elif lem.kind is PropKind.ACTION and step:
                out.append(self._lit(self.step, ("keep", lem.name, lem.conds), partial(self.view.keeps_step, lem)))
        return out

    def proves(self, prop: Property, lemmas: Sequence[Property], deadline: float | None) -> bool:
        """No initial state violates ``prop``, and it is 1-inductive relative to ``lemmas`` (as
        :mod:`ruleproof.engines.kind` asks it at k = 0: with the simple-path constraint for an invariant).

        False means "not shown here" (a violation, a step out of it, or an UNKNOWN; :attr:`reason` says which).
        """
        return _in_context(self.ctx, lambda: self._proves(prop, lemmas, deadline))

    def _proves(self, prop: Property, lemmas: Sequence[Property], deadline: float | None) -> bool:
        if prop.kind is PropKind.INVARIANT:
            base = [*self._lemmas(lemmas, False), self._holds(self.base, "base", prop, negate=True)]
            if not self._unsat(self.base, base, deadline):
                return False
            step = [*self._lemmas(lemmas, True), self.distinct, self._holds(self.step, "step", prop),
                    self._holds(self.step, "step", prop, post=True, negate=True)]
        elif prop.kind is PropKind.ACTION:  # (the base case at depth 0 has no step to violate)
            bad = self._lit(self.step, ("bad", prop.name, prop.conds), partial(self.view.bad_step, prop))
            step = [*self._lemmas(lemmas, True), bad]
        else:
            self.reason = "not an invariant or action property"
            return False
        return self._unsat(self.step, step, deadline)

    def _unsat(self, solver: z3.Solver, lits: Sequence[z3.BoolRef], deadline: float | None) -> bool:
        limit = _limit(solver, deadline)
        if limit is None:
            self.reason = "timeout"
            return False
        budget.set_interruptor(self.ctx.interrupt)
        r = _check(solver, *lits)
        if r == z3.unsat:
            return True
        self.reason = "sat" if r == z3.sat else _unknown_reason(solver, limit)
        return False


_ONE_STEP: list[OneStep] = []
_ONE_STEP_KEPT = 2


def one_step(system: System, seed: int = SEED) -> OneStep:
    """The :class:`OneStep` solvers of ``system`` (kept for the systems checked last)."""
    for o in _ONE_STEP:
        if o.system is system and o.seed == seed:
            return o
    o = OneStep(system, seed)
    _ONE_STEP.insert(0, o)
    del _ONE_STEP[_ONE_STEP_KEPT:]
    return o


class ReversedUnrolling:
    """BMC's question "is there a first violation of ``prop`` at depth ``k``?" on a path unrolled from its end.

    State ``r0`` is the last state of the path and ``r_j`` the state ``j``
    steps before it: going one depth deeper adds the step ``r_k -> r_(k-1)``
    before the first state, and the query asks for an initial ``r_k`` under an
    assumption literal.  What stays asserted is what every deeper query
    shares: the violation at the end of the path and, before it, the property
    (a first violation at depth ``k`` has the property hold at every earlier
    state once the shallower depths are known to have none: :meth:`extend`
    may only be called after the current depth's query was unsatisfiable).
    So the clauses the solver learns about the end of the path serve every
    later depth, where on a forward unrolling the violation moves to fresh
    constants at each depth.  The solver lives in a Z3 context of its own, so
    that it changes nothing in the forward unrolling's context (whose models
    give the counterexamples).  Only unsatisfiability is read from it: it
    builds no traces.
    """

    def __init__(self, system: System, prop: Property, depth: int, *, lemmas: Sequence[Property] = (),
                 seed: int = SEED, deadline: float | None = None) -> None:
        if prop.kind not in (PropKind.INVARIANT, PropKind.ACTION):
            raise ValueError(f"a reversed unrolling checks invariants and action properties, not {prop.kind}")
        if prop.kind is PropKind.ACTION and depth < 1:
            raise ValueError("an action property's violation needs a step")
        self.system = system
        self.prop = prop
        self.deadline = deadline
        self.reason = ""
        self.ctx = z3.Context()
        outer = z3.main_ctx()
        self.solver: z3.Solver = _in_context(self.ctx, lambda: new_solver(seed))
        mine = self.ctx

        def stop_both() -> None:  # the forward unrolling's query or this one: whichever is running
            outer.interrupt()
            mine.interrupt()

        budget.set_interruptor(stop_both)
        self.rel: _View = _in_context(self.ctx, lambda: _View(system, tuple(lemmas)))
        self.states: list[dict[str, z3.ExprRef]] = []
        self._state_pairs: list[_Subst] = []
        self._steps = 0
        _in_context(self.ctx, self._start)
        for _ in range(depth):
            self.extend()

    @property
    def k(self) -> int:
        """The depth asked about: the number of steps of the path."""
        return self._steps

    def _start(self) -> None:
        self._init = _init_formula(self.system, self.rel.pre)
        self._new_state()
        if self.prop.kind is PropKind.INVARIANT:
            self.solver.add(z3.Not(self._at_state(self.rel.invariant(self.prop), 0)))

    def _new_state(self) -> None:
        j = len(self.states)
        st = _state_consts(self.system, f"r{j}")
        self.states.append(st)
        self._state_pairs.append(_Subst([(self.rel.pre[v.name], st[v.name]) for v in self.system.vars]))
        self.solver.add(self._at_state(self.rel.state, j))

    def _at_state(self, z: z3.ExprRef, j: int) -> z3.ExprRef:
        return self._state_pairs[j](z)

    def extend(self) -> None:
        """Add the step before the first state (one depth deeper); the property holds at the old first state."""
        budget.checkpoint()
        _in_context(self.ctx, self._extend)

    def _extend(self) -> None:
        j = self._steps
        self._new_state()
        pre, post = self.states[j + 1], self.states[j]
        rel = self.rel
        pairs = [(rel.pre[v.name], pre[v.name]) for v in self.system.vars]
        pairs += [(rel.post[v.name], post[v.name]) for v in self.system.vars]
        pairs.append((rel.act, z3.Int(f"act@r{j}")))
        for ai, (generic, a) in enumerate(zip(rel.choices, self.system.actions, strict=True)):
            mine = _choice_consts(a, ai, f"r{j}")
            pairs += [(generic[name], mine[name]) for name in generic]
        step = _Subst(pairs)
        self.solver.add(step(rel.trans), step(rel.acts))
        if self.prop.kind is PropKind.INVARIANT:
            self.solver.add(self._at_state(rel.invariant(self.prop), j + 1))
        else:
            bad = step(rel.bad_step(self.prop))
            self.solver.add(bad if j == 0 else z3.Not(bad))
        self._steps = j + 1

    def check(self, rlimit: int | None = None) -> SatResult:
        """Is there a path of :attr:`k` steps from an initial state to a first violation?

        UNKNOWN sets :attr:`reason` as :meth:`Unrolling.check` does.
        """
        return _in_context(self.ctx, lambda: self._check(rlimit))

    def _check(self, rlimit: int | None) -> SatResult:
        limit = _limit(self.solver, self.deadline, rlimit)
        if limit is None:
            self.reason = "timeout"
            return SatResult.UNKNOWN
        lit = z3.FreshBool("initial")
        self.solver.add(z3.Implies(lit, self._at_state(self._init, self._steps)))
        r = _check(self.solver, lit)
        if r == z3.sat:
            return SatResult.SAT
        if r == z3.unsat:
            return SatResult.UNSAT
        self.reason = _unknown_reason(self.solver, limit)
        if self.reason == limit and self.deadline is not None and time.monotonic() >= self.deadline:
            self.reason = "timeout"
        return SatResult.UNKNOWN

    def spent(self) -> int:
        """Z3's resource count of this solver so far (what ``rlimit`` bounds)."""
        st = self.solver.statistics()
        return int(st.get_key_value("rlimit count")) if "rlimit count" in st.keys() else 0


# --------------------------------------------------------------------------- SMT-LIB export


def smtlib_queries(system: System, props: Sequence[Property]) -> str:
    """SMT-LIB 2 text: the system's transition relation and each property's induction query.

    The state is encoded as in every query of this module (enums as integers
    ``0..n-1`` with a domain constraint).  For each invariant: a base case
    ("an initial state violates it") and a step case ("a state where it
    holds steps to one where it does not"); for an action property, the step
    case ("some step of its family breaks it").  Each query assumes the
    properties listed before it (as ruleproof assumes the properties it
    proved earlier); it is ``unsat`` exactly when k-induction with k = 1 and
    those lemmas proves the property.  Targets have no induction query.
    """
    fresh_context()
    rel = _Relation(system, ())
    consts: list[z3.ExprRef] = [*rel.pre.values(), *rel.post.values(), rel.act]
    consts += [z for ch in rel.choices for z in ch.values()]
    to_post = [(rel.pre[v.name], rel.post[v.name]) for v in system.vars]
    out = [
        f"; ruleproof export: {system.name}[{system.scenario}] as SMT-LIB 2",
        f"; {len(system.vars)} state variables, {len(system.actions)} ground actions; enums are integers 0..n-1",
        "; each property: its induction query (k = 1), assuming the properties before it; unsat = proved",
        "(set-option :produce-models true)",
    ]
    out += [f"(declare-fun {z.sexpr()} () {z.sort().sexpr()})" for z in consts]
    out.append("; act: the index of the ground action taken by the step " + ", ".join(
        f"{ai}={a.label}" for ai, a in enumerate(system.actions[:20])) + (" ..." if len(system.actions) > 20 else ""))
    out.append(f"(define-fun init () Bool {_init_formula(system, rel.pre).sexpr()})")
    out.append(f"(define-fun trans () Bool {z3.And(rel.trans, rel.acts).sexpr()})")
    out.append(f"(define-fun domain_pre () Bool {rel.state.sexpr()})")
    out.append(f"(define-fun domain_post () Bool {z3.substitute(rel.state, *to_post).sexpr()})")
    pre_lemmas: list[str] = []
    post_lemmas: list[str] = []
    step_lemmas: list[str] = []
    for i, p in enumerate(q for q in props if q.kind is not PropKind.REACH):
        out.append(f"; p{i}: {p.name} ({p.kind.value})")
        if p.kind is PropKind.ACTION:
            out.append(f"(define-fun p{i}_step () Bool {z3.Not(rel.bad_step(p)).sexpr()})")
            out.append(f"; p{i} base case: a step property has none")
            out += [f'(echo "p{i} step")', "(push 1)", "(assert trans)", "(assert domain_pre)",
                    "(assert domain_post)"]
            out += [f"(assert {x})" for x in pre_lemmas + post_lemmas + step_lemmas]
            out += [f"(assert (not p{i}_step))", "(check-sat)", "(pop 1)"]
            step_lemmas.append(f"p{i}_step")
            continue
        inv = rel.invariant(p)
        out.append(f"(define-fun p{i}_pre () Bool {inv.sexpr()})")
        out.append(f"(define-fun p{i}_post () Bool {z3.substitute(inv, *to_post).sexpr()})")
        out += [f'(echo "p{i} base")', "(push 1)", "(assert init)", "(assert domain_pre)"]
        out += [f"(assert {x})" for x in pre_lemmas]
        out += [f"(assert (not p{i}_pre))", "(check-sat)", "(pop 1)"]
        out += [f'(echo "p{i} step")', "(push 1)", "(assert trans)", "(assert domain_pre)", "(assert domain_post)"]
        out += [f"(assert {x})" for x in pre_lemmas + post_lemmas + step_lemmas]
        out += [f"(assert p{i}_pre)", f"(assert (not p{i}_post))", "(check-sat)", "(pop 1)"]
        pre_lemmas.append(f"p{i}_pre")
        post_lemmas.append(f"p{i}_post")
    return "\n".join(out) + "\n"


# --------------------------------------------------------------------------- CHC


@dataclass(frozen=True)
class ChcAnswer:
    """Spacer's answer: ``SAT`` means the property holds (an invariant exists)."""

    result: SatResult
    invariant: str
    reason: str


def chc_prove(
    system: System,
    prop: Property,
    lemmas: Sequence[Property] = (),
    *,
    seed: int = SEED,
    timeout: float | None = None,
) -> ChcAnswer:
    """Ask Spacer for an inductive invariant that implies ``prop`` (``REACH``: excludes it).

    One rule per ground action; a variable the action does not write appears
    in the rule's head as its pre-state value (no frame equations), and the
    domain constraints and lemmas of the pre-state are translated once.
    """
    pre = {v.name: z3.Const(v.label, _sort(v.type)) for v in system.vars}
    post = {v.name: z3.Const(v.label + "'", _sort(v.type)) for v in system.vars}
    inv = z3.Function("Inv", *[_sort(v.type) for v in system.vars], z3.BoolSort())
    s = new_solver(seed, horn=True)
    deadline = None if timeout is None else time.monotonic() + timeout
    xs = [pre[v.name] for v in system.vars]
    dom = _state_formula(system, pre, lemmas)
    inv_pre = inv(*xs)

    init = _init_formula(system, pre)
    s.add(z3.ForAll(xs, z3.Implies(z3.And(init, *dom), inv_pre)))
    bad_rules = []
    conds = _action_conds(prop) if prop.kind is PropKind.ACTION else {}
    for ai, a in enumerate(system.actions):
        if ai % 64 == 63:
            budget.checkpoint()  # encoding a big system: the query's deadline or an interrupt stops it here
        ch = _choice_consts(a, ai, "chc")
        written = {u.var for u in a.updates}
        after = {v.name: post[v.name] if v.name in written else pre[v.name] for v in system.vars}
        tr = _Translator(pre, after, ch)
        body = [inv_pre, *dom, *_effect(system, ai, tr, after, ch, lemmas)]
        qv = xs + [post[v.name] for v in system.vars if v.name in written] + list(ch.values())
        s.add(z3.ForAll(qv, z3.Implies(z3.And(*body), inv(*after.values()))))
        cond = conds.get(a.label) if prop.applies_to(a) else None
        if cond is not None:
            bad_rules.append(z3.ForAll(qv, z3.Implies(z3.And(*body, z3.Not(tr(cond))), z3.BoolVal(False))))
    if prop.kind is PropKind.ACTION:
        for r in bad_rules:
            s.add(r)
    else:
        p = _Translator(pre)(prop.expr)
        target = p if prop.kind is PropKind.REACH else z3.Not(p)
        s.add(z3.ForAll(xs, z3.Implies(z3.And(inv_pre, *dom, target), z3.BoolVal(False))))
    limit = _limit(s, deadline)
    if limit is None:
        return ChcAnswer(SatResult.UNKNOWN, "", "timeout")
    r = _check(s)
    if r == z3.sat:
        m = s.model()
        interp = m[inv]
        fn = interp.else_value() if isinstance(interp, z3.FuncInterp) and interp.num_entries() == 0 else None
        text = str(interp) if fn is None else _show_invariant(system, z3.substitute_vars(fn, *xs))
        return ChcAnswer(SatResult.SAT, text, "")
    if r == z3.unsat:
        return ChcAnswer(SatResult.UNSAT, "", "")
    return ChcAnswer(SatResult.UNKNOWN, "", _unknown_reason(s, limit))


def _show_invariant(system: System, e: z3.ExprRef) -> str:
    """Spacer's invariant with enum indices shown as value names where compared to a constant."""
    enums = {v.label: v.type for v in system.vars if isinstance(v.type, EnumT)}
    e = z3.simplify(e)

    def show(x: z3.ExprRef) -> str:
        if z3.is_and(x):
            return " and ".join(_paren(show(c)) for c in x.children())
        if z3.is_or(x):
            return " or ".join(_paren(show(c)) for c in x.children())
        if z3.is_not(x):
            (c,) = x.children()
            flip = {z3.Z3_OP_LE: ">", z3.Z3_OP_GE: "<", z3.Z3_OP_LT: ">=", z3.Z3_OP_GT: "<="}
            if z3.is_app(c) and c.decl().kind() in flip:
                a, b = c.children()
                return f"{show(a)} {flip[c.decl().kind()]} {_val(a, b)}"
            if z3.is_eq(c):
                a, b = c.children()
                return f"{show(a)} != {_val(a, b)}"
            return f"not {_paren(show(c))}"
        if z3.is_eq(x) or z3.is_le(x) or z3.is_ge(x) or z3.is_lt(x) or z3.is_gt(x):
            a, b = x.children()
            sym = {z3.Z3_OP_EQ: "==", z3.Z3_OP_LE: "<=", z3.Z3_OP_GE: ">=", z3.Z3_OP_LT: "<", z3.Z3_OP_GT: ">"}[
                x.decl().kind()
            ]
            return f"{show(a)} {sym} {_val(a, b)}"
        if z3.is_app(x) and x.num_args() == 0:
            return str(x)
        if z3.is_add(x):
            return " + ".join(show(c) for c in x.children())
        if z3.is_mul(x):
            cs = x.children()
            if len(cs) == 2 and z3.is_int_value(cs[0]) and cs[0].as_long() == -1:
                return f"-{_paren(show(cs[1]))}"
            return " * ".join(_paren(show(c)) for c in cs)
        return str(x)

    def _val(a: z3.ExprRef, b: z3.ExprRef) -> str:
        if z3.is_const(a) and str(a) in enums and z3.is_int_value(b):
            t = enums[str(a)]
            n = b.as_long()
            if 0 <= n < len(t.values):
                return t.values[n]
        return show(b)

    return show(e)


def _paren(s: str) -> str:
    return f"({s})" if " and " in s or " or " in s else s
