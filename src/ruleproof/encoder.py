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
from typing import Mapping, Sequence

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
)
from .results import RawTrace

__all__ = ["SatResult", "Unrolling", "chc_prove", "Cond", "fresh_context", "new_solver"]

SEED = 0


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


def _limit(s: z3.Solver, deadline: float | None) -> str | None:
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
    if rl is None:
        return ""
    s.set("rlimit", rl)
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


def _domain(t: Type, z: z3.ExprRef) -> z3.BoolRef | None:
    if isinstance(t, EnumT):
        return z3.And(z >= 0, z < len(t.values))
    return None


def _from_z3(t: Type, v: z3.ExprRef) -> Value:
    if isinstance(t, BoolT):
        return z3.is_true(v)
    n = v.as_long()  # type: ignore[attr-defined]
    if isinstance(t, EnumT):
        return t.values[n]
    return int(n)


class _Translator:
    """IR -> Z3 for one step: ``pre``/``post`` state maps and the step's choices."""

    def __init__(self, pre: Mapping[str, z3.ExprRef], post: Mapping[str, z3.ExprRef] | None,
                 choices: Mapping[str, z3.ExprRef]):
        self.pre = pre
        self.post = post
        self.choices = choices
        self.cache: dict[Expr, z3.ExprRef] = {}

    def __call__(self, root: Expr) -> z3.ExprRef:
        cache = self.cache
        stack: list[tuple[Expr, bool]] = [(root, False)]
        steps = 0
        while stack:
            steps += 1
            if steps % 4096 == 0:
                budget.checkpoint()  # a huge expression: the query's deadline or an interrupt stops it here
            e, done = stack.pop()
            if e in cache:
                continue
            if isinstance(e, App) and not done:
                stack.append((e, True))
                stack.extend((a, False) for a in e.args if a not in cache)
                continue
            cache[e] = self._node(e)
        return cache[root]

    def _node(self, e: Expr) -> z3.ExprRef:
        if isinstance(e, Const):
            if isinstance(e.type, BoolT):
                return z3.BoolVal(bool(e.value))
            if isinstance(e.type, EnumT):
                return z3.IntVal(e.type.values.index(str(e.value)))
            return z3.IntVal(int(e.value))
        if isinstance(e, Var):
            if e.primed:
                if self.post is None:
                    raise ValueError("post-state read outside a step")
                return self.post[e.name]
            return self.pre[e.name]
        if isinstance(e, Choice):
            return self.choices[e.name]
        assert isinstance(e, App)
        a = [self.cache[x] for x in e.args]
        op = e.op
        if op is Op.AND:
            return z3.And(*a)
        if op is Op.OR:
            return z3.Or(*a)
        if op is Op.NOT:
            return z3.Not(a[0])
        if op is Op.IMPLIES:
            return z3.Implies(a[0], a[1])
        if op is Op.ITE:
            return z3.If(a[0], a[1], a[2])
        if op is Op.EQ:
            return a[0] == a[1]
        if op is Op.NE:
            return a[0] != a[1]
        if op is Op.ADD:
            return z3.Sum(*a)
        if op is Op.SUB:
            return a[0] - a[1]
        if op is Op.NEG:
            return -a[0]
        if op is Op.MUL:
            return a[0] * a[1]
        if op is Op.DIV:
            return a[0] / a[1]  # Z3 integer division: floor for a positive divisor
        if op is Op.LE:
            return a[0] <= a[1]
        if op is Op.LT:
            return a[0] < a[1]
        if op is Op.MIN:
            r = a[0]
            for x in a[1:]:
                r = z3.If(x < r, x, r)
            return r
        if op is Op.MAX:
            r = a[0]
            for x in a[1:]:
                r = z3.If(x > r, x, r)
            return r
        raise ValueError(op)  # pragma: no cover


def _state_consts(system: System, tag: str) -> dict[str, z3.ExprRef]:
    return {v.name: z3.Const(f"{v.name}@{tag}", _sort(v.type)) for v in system.vars}


def _choice_consts(a: Action, ai: int, tag: str) -> dict[str, z3.ExprRef]:
    return {c.name: z3.Const(f"{c.name}@{tag}#{ai}", _sort(c.type)) for c in a.choices}


def _choice_domain(a: Action, ch: Mapping[str, z3.ExprRef]) -> list[z3.BoolRef]:
    out: list[z3.BoolRef] = []
    for c in a.choices:
        z = ch[c.name]
        if isinstance(c.type, EnumT):
            out.append(z3.And(z >= 0, z < len(c.type.values)))
        elif isinstance(c.type, IntT):
            out.append(z3.And(z >= c.type.lo, z <= c.type.hi))
    return out


def _step_formula(
    system: System,
    ai: int,
    pre: Mapping[str, z3.ExprRef],
    post: Mapping[str, z3.ExprRef],
    ch: Mapping[str, z3.ExprRef],
) -> z3.BoolRef:
    a = system.actions[ai]
    tr = _Translator(pre, post, ch)
    parts = [tr(a.guard), *_choice_domain(a, ch)]
    updated = set()
    for u in a.updates:
        parts.append(post[u.var] == tr(u.expr))
        updated.add(u.var)
    for v in system.vars:
        if v.name not in updated:
            parts.append(post[v.name] == pre[v.name])
    return z3.And(*parts)


def _bad_step(prop: Property, system: System, ai: int, pre: Mapping[str, z3.ExprRef], post: Mapping[str, z3.ExprRef],
              ch: Mapping[str, z3.ExprRef]) -> z3.BoolRef | None:
    a = system.actions[ai]
    if not prop.applies_to(a):
        return None
    cond = dict(prop.conds).get(a.label)
    if cond is None:
        return None
    return z3.Not(_Translator(pre, post, ch)(cond))


def _init_formula(system: System, st: Mapping[str, z3.ExprRef]) -> z3.BoolRef:
    tr = _Translator(st, None, {})
    parts: list[z3.BoolRef] = []
    types = {v.name: v.type for v in system.vars}
    for iv in system.init_vars:
        t = types[iv.var]
        z = st[iv.var]
        lo = iv.values[0]
        if isinstance(t, IntT) and len(iv.values) > 2 and iv.values == tuple(range(int(lo), int(lo) + len(iv.values))):
            parts.append(z3.And(z >= int(lo), z <= int(iv.values[-1])))
        else:
            parts.append(z3.Or(*(z == tr(Const(x, t)) for x in iv.values)))
    parts.extend(tr(c) for c in system.init_constraints)  # type: ignore[misc]
    return z3.And(*parts)


class Unrolling:
    """An incremental solver over the path ``s0 .. sk`` of a system.

    ``initial`` asserts the initial condition on ``s0`` (BMC); without it the
    path starts anywhere (the induction step of k-induction).  ``lemmas`` are
    properties already proved; they are asserted at every state (invariants)
    or on every step (action properties).
    """

    def __init__(
        self,
        system: System,
        *,
        initial: bool,
        lemmas: Sequence[Property] = (),
        seed: int = SEED,
        deadline: float | None = None,
    ) -> None:
        self.system = system
        self.deadline = deadline
        self.solver = new_solver(seed)
        self.lemmas = tuple(lemmas)
        self.states: list[dict[str, z3.ExprRef]] = []
        self.acts: list[z3.ArithRef] = []
        self.choices: list[list[dict[str, z3.ExprRef]]] = []
        self.reason = ""
        self._new_state()
        if initial:
            self.solver.add(_init_formula(system, self.states[0]))

    @property
    def k(self) -> int:
        """Index of the last state of the path."""
        return len(self.states) - 1

    def _new_state(self) -> None:
        k = len(self.states)
        st = _state_consts(self.system, str(k))
        self.states.append(st)
        for v in self.system.vars:
            d = _domain(v.type, st[v.name])
            if d is not None:
                self.solver.add(d)
        for lem in self.lemmas:
            if lem.kind is PropKind.INVARIANT:
                self.solver.add(_Translator(st, None, {})(lem.expr))

    def extend(self) -> None:
        """Add state ``k+1`` and the transition ``k -> k+1``."""
        budget.checkpoint()
        k = self.k
        self._new_state()
        pre, post = self.states[k], self.states[k + 1]
        act = z3.Int(f"act@{k}")
        self.acts.append(act)
        n = len(self.system.actions)
        self.solver.add(act >= 0, act < n) if n else self.solver.add(z3.BoolVal(False))
        chs: list[dict[str, z3.ExprRef]] = []
        for ai, a in enumerate(self.system.actions):
            if ai % 64 == 63:
                budget.checkpoint()
            ch = _choice_consts(a, ai, str(k))
            chs.append(ch)
            self.solver.add(z3.Implies(act == ai, _step_formula(self.system, ai, pre, post, ch)))
            for lem in self.lemmas:
                if lem.kind is PropKind.ACTION:
                    bad = _bad_step(lem, self.system, ai, pre, post, ch)
                    if bad is not None:
                        self.solver.add(z3.Implies(act == ai, z3.Not(bad)))
        self.choices.append(chs)

    # conditions ------------------------------------------------------------
    def holds(self, prop: Property, k: int) -> Cond:
        """Invariant/target ``prop`` at state ``k``, or action property on step ``k-1 -> k``."""
        if prop.kind is PropKind.ACTION:
            return Cond(z3.Not(self._bad_action(prop, k).z))
        return Cond(_Translator(self.states[k], None, {})(prop.expr))  # type: ignore[arg-type]

    def violated(self, prop: Property, k: int) -> Cond:
        """``prop`` fails at state ``k`` (for action properties: on step ``k-1 -> k``)."""
        if prop.kind is PropKind.ACTION:
            return self._bad_action(prop, k)
        return Cond(z3.Not(_Translator(self.states[k], None, {})(prop.expr)))

    def _bad_action(self, prop: Property, k: int) -> Cond:
        if k == 0:
            return Cond(z3.BoolVal(False))
        j = k - 1
        pre, post = self.states[j], self.states[j + 1]
        parts = []
        for ai in range(len(self.system.actions)):
            bad = _bad_step(prop, self.system, ai, pre, post, self.choices[j][ai])
            if bad is not None:
                parts.append(z3.And(self.acts[j] == ai, bad))
        return Cond(z3.Or(*parts) if parts else z3.BoolVal(False))

    def fired(self, family: str) -> Cond:
        """Some step of the path so far is an action of ``family``."""
        idx = [i for i, a in enumerate(self.system.actions) if a.family == family]
        parts = [act == i for act in self.acts for i in idx]
        return Cond(z3.Or(*parts) if parts else z3.BoolVal(False))

    def fired_where(self, conds: Mapping[int, Expr]) -> Cond:
        """Some step of the path is ground action ``ai`` with ``conds[ai]`` true (pre-state and choices)."""
        parts = []
        for j, act in enumerate(self.acts):
            for ai, e in conds.items():
                tr = _Translator(self.states[j], self.states[j + 1], self.choices[j][ai])
                parts.append(z3.And(act == ai, tr(e)))
        return Cond(z3.Or(*parts) if parts else z3.BoolVal(False))

    def took(self, j: int, ai: int, choices: Mapping[str, Value] | None = None) -> Cond:
        """Step ``j`` of the path (state ``j`` to ``j+1``) is ground action ``ai`` with these choice values
        (choices not given are free)."""
        a = self.system.actions[ai]
        types = {c.name: c.type for c in a.choices}
        ch = self.choices[j][ai]
        tr = _Translator({}, None, {})
        parts = [self.acts[j] == ai]
        parts += [ch[n] == tr(Const(v, types[n])) for n, v in (choices or {}).items()]
        return Cond(z3.And(*parts))

    def at(self, e: Expr, k: int) -> Cond:
        """The state expression ``e`` holds at state ``k``."""
        return Cond(_Translator(self.states[k], None, {})(e))  # type: ignore[arg-type]

    def reached(self, e: Expr) -> Cond:
        """Some state of the path satisfies ``e``."""
        return Cond(z3.Or(*(_Translator(st, None, {})(e) for st in self.states)))

    def distinct(self, i: int, j: int) -> Cond:
        """States ``i`` and ``j`` differ (simple-path constraint)."""
        a, b = self.states[i], self.states[j]
        return Cond(z3.Or(*(a[v.name] != b[v.name] for v in self.system.vars)))

    def assert_(self, c: Cond) -> None:
        self.solver.add(c.z)

    def check(self, *assumptions: Cond) -> SatResult:
        """Satisfiability of the path with ``assumptions`` (under the deadline and the resource limit).

        UNKNOWN sets :attr:`reason`: ``timeout``, ``resource limit reached
        (...)``, ``out of memory`` or ``solver: <Z3's reason>``.  An interrupt
        or the run's time limit raises (:mod:`ruleproof.budget`).
        """
        limit = _limit(self.solver, self.deadline)
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
        return SatResult.UNKNOWN

    def trace(self) -> RawTrace:
        """The path of the last SAT answer, as plain data."""
        m = self.solver.model()
        states = []
        for st in self.states:
            states.append(tuple(_from_z3(v.type, m.eval(st[v.name], model_completion=True)) for v in self.system.vars))
        steps = []
        for j, act in enumerate(self.acts):
            ai = m.eval(act, model_completion=True).as_long()
            a = self.system.actions[ai]
            ch = self.choices[j][ai]
            vals = tuple((c.name, _from_z3(c.type, m.eval(ch[c.name], model_completion=True))) for c in a.choices)
            steps.append((int(ai), vals))
        return RawTrace(tuple(states), tuple(steps))


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
    """Ask Spacer for an inductive invariant that implies ``prop`` (``REACH``: excludes it)."""
    pre = {v.name: z3.Const(v.label, _sort(v.type)) for v in system.vars}
    post = {v.name: z3.Const(v.label + "'", _sort(v.type)) for v in system.vars}
    inv = z3.Function("Inv", *[_sort(v.type) for v in system.vars], z3.BoolSort())
    s = new_solver(seed, horn=True)
    deadline = None if timeout is None else time.monotonic() + timeout
    xs = [pre[v.name] for v in system.vars]
    ys = [post[v.name] for v in system.vars]

    def dom(st: Mapping[str, z3.ExprRef]) -> list[z3.BoolRef]:
        out = [_domain(v.type, st[v.name]) for v in system.vars]
        tr = _Translator(st, None, {})
        out += [tr(lem.expr) for lem in lemmas if lem.kind is PropKind.INVARIANT]  # type: ignore[misc]
        return [d for d in out if d is not None]

    init = _init_formula(system, pre)
    s.add(z3.ForAll(xs, z3.Implies(z3.And(init, *dom(pre)), inv(*xs))))
    bad_rules = []
    for ai, a in enumerate(system.actions):
        if ai % 64 == 63:
            budget.checkpoint()  # encoding a big system: the query's deadline or an interrupt stops it here
        ch = _choice_consts(a, ai, "chc")
        body = [inv(*xs), *dom(pre), _step_formula(system, ai, pre, post, ch)]
        for lem in lemmas:
            if lem.kind is PropKind.ACTION:
                bad = _bad_step(lem, system, ai, pre, post, ch)
                if bad is not None:
                    body.append(z3.Not(bad))
        qv = xs + ys + list(ch.values())
        s.add(z3.ForAll(qv, z3.Implies(z3.And(*body), inv(*ys))))
        if prop.kind is PropKind.ACTION:
            bad = _bad_step(prop, system, ai, pre, post, ch)
            if bad is not None:
                bad_rules.append(z3.ForAll(qv, z3.Implies(z3.And(*body, bad), z3.BoolVal(False))))
    if prop.kind is PropKind.ACTION:
        for r in bad_rules:
            s.add(r)
    else:
        p = _Translator(pre, None, {})(prop.expr)
        target = p if prop.kind is PropKind.REACH else z3.Not(p)
        s.add(z3.ForAll(xs, z3.Implies(z3.And(inv(*xs), *dom(pre), target), z3.BoolVal(False))))
    limit = _limit(s, deadline)
    if limit is None:
        return ChcAnswer(SatResult.UNKNOWN, "", "timeout")
    r = _check(s)
    if r == z3.sat:
        m = s.model()
        interp = m[inv]
        inv_body = interp.else_value() if isinstance(interp, z3.FuncInterp) and interp.num_entries() == 0 else None
        if inv_body is None:
            text = str(interp)
        else:
            text = _show_invariant(system, z3.substitute_vars(inv_body, *xs))
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
