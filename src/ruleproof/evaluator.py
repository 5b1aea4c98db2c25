"""The concrete evaluator: the IR's semantics on explicit values.

Expressions are compiled once into Python closures over a state tuple (in
the order of :attr:`System.vars`), an optional post-state tuple and a dict of
choice values.  The explicit-state engine runs on it, and every trace a
solver returns is replayed through it (:func:`ruleproof.engines.common.replay`).
"""

from __future__ import annotations

import itertools
from typing import Callable, Iterator, Mapping, Sequence

from .ir import (
    Action,
    App,
    BoolT,
    Choice,
    ChoiceVar,
    Const,
    Expr,
    IntT,
    Op,
    Property,
    System,
    Type,
    Value,
    Var,
    fold,
)

__all__ = ["State", "Fn", "Evaluator", "EVAL", "domain", "in_range"]

State = tuple[Value, ...]
Fn = Callable[[State, "State | None", Mapping[str, Value]], Value]


def domain(t: Type) -> tuple[Value, ...]:
    """All values of a finite type, in a fixed order."""
    if isinstance(t, BoolT):
        return (False, True)
    if isinstance(t, IntT):
        return tuple(range(t.lo, t.hi + 1))
    return t.values


def in_range(t: Type, v: Value) -> bool:
    """Whether ``v`` is a value of ``t`` (ranges included)."""
    if isinstance(t, BoolT):
        return isinstance(v, bool)
    if isinstance(t, IntT):
        return isinstance(v, int) and not isinstance(v, bool) and t.lo <= v <= t.hi
    return v in t.values


def _nary(op: Callable[[list[Value]], Value]) -> Callable[[list[Fn]], Fn]:
    def build(fs: list[Fn]) -> Fn:
        return lambda s, t, c: op([f(s, t, c) for f in fs])

    return build


def _binary(op: Callable[[Value, Value], Value]) -> Callable[[list[Fn]], Fn]:
    def build(fs: list[Fn]) -> Fn:
        f, g = fs
        return lambda s, t, c: op(f(s, t, c), g(s, t, c))

    return build


def _and(fs: list[Fn]) -> Fn:
    return lambda s, t, c: all(f(s, t, c) for f in fs)


def _or(fs: list[Fn]) -> Fn:
    return lambda s, t, c: any(f(s, t, c) for f in fs)


def _not(fs: list[Fn]) -> Fn:
    (f,) = fs
    return lambda s, t, c: not f(s, t, c)


def _implies(fs: list[Fn]) -> Fn:
    f, g = fs
    return lambda s, t, c: (not f(s, t, c)) or bool(g(s, t, c))


def _ite(fs: list[Fn]) -> Fn:
    f, g, h = fs
    return lambda s, t, c: g(s, t, c) if f(s, t, c) else h(s, t, c)


def _neg(fs: list[Fn]) -> Fn:
    (f,) = fs
    return lambda s, t, c: -int(f(s, t, c))


EVAL: dict[Op, Callable[[list[Fn]], Fn]] = {
    Op.ADD: _nary(lambda xs: sum(int(x) for x in xs)),
    Op.SUB: _binary(lambda x, y: int(x) - int(y)),
    Op.MUL: _binary(lambda x, y: int(x) * int(y)),
    Op.DIV: _binary(lambda x, y: int(x) // int(y)),
    Op.NEG: _neg,
    Op.MIN: _nary(lambda xs: min(int(x) for x in xs)),
    Op.MAX: _nary(lambda xs: max(int(x) for x in xs)),
    Op.EQ: _binary(lambda x, y: x == y),
    Op.NE: _binary(lambda x, y: x != y),
    Op.LT: _binary(lambda x, y: int(x) < int(y)),
    Op.LE: _binary(lambda x, y: int(x) <= int(y)),
    Op.AND: _and,
    Op.OR: _or,
    Op.NOT: _not,
    Op.IMPLIES: _implies,
    Op.ITE: _ite,
}
"""The concrete semantics of each operator: closures of the arguments' closures."""


class Evaluator:
    """Compiled concrete semantics of one :class:`System`."""

    def __init__(self, system: System) -> None:
        self.system = system
        self.index = {v.name: i for i, v in enumerate(system.vars)}
        self._cache: dict[Expr, Fn] = {}
        self._guards = [self.compile(a.guard) for a in system.actions]
        self._updates = [
            tuple((self.index[u.var], self.compile(u.expr)) for u in a.updates) for a in system.actions
        ]
        self._choice_cache: dict[int, list[dict[str, Value]]] = {}

    # ------------------------------------------------------------------ compile
    def compile(self, e: Expr) -> Fn:
        """Compile ``e`` into a closure ``f(pre, post, choices)``."""
        return fold(e, self._leaf, self._app, self._cache)

    def _leaf(self, e: Expr) -> Fn:
        if isinstance(e, Const):
            val = e.value
            return lambda s, t, c: val
        if isinstance(e, Var):
            i = self.index[e.name]
            if e.primed:

                def post(s: State, t: State | None, c: Mapping[str, Value]) -> Value:
                    if t is None:
                        raise ValueError("post-state read outside an action property")
                    return t[i]

                return post
            return lambda s, t, c: s[i]
        assert isinstance(e, Choice)
        n = e.name
        return lambda s, t, c: c[n]

    def _app(self, e: App, fs: list[Fn]) -> Fn:
        if e.op is Op.ITE and isinstance(e.args[2], App) and e.args[2].op is Op.ITE:
            return self._ite_chain(e)
        return EVAL[e.op](fs)

    def _ite_chain(self, e: App) -> Fn:
        """``if c1 then v1 else if c2 then v2 ... else w`` as one loop (a symbolic index over a large sort)."""
        arms: list[tuple[Fn, Fn]] = []
        x: Expr = e
        while isinstance(x, App) and x.op is Op.ITE:
            arms.append((self._cache[x.args[0]], self._cache[x.args[1]]))
            x = x.args[2]
        last = self._cache[x]

        def chain(s: State, t: State | None, c: Mapping[str, Value]) -> Value:
            for cond, val in arms:
                if cond(s, t, c):
                    return val(s, t, c)
            return last(s, t, c)

        return chain

    def _choice_space(self, ai: int) -> list[dict[str, Value]]:
        """Every choice vector of action ``ai`` (built on first use: it can be large)."""
        hit = self._choice_cache.get(ai)
        if hit is None:
            hit = self._choices(self.system.actions[ai].choices)
            self._choice_cache[ai] = hit
        return hit

    @staticmethod
    def _choices(cs: tuple[ChoiceVar, ...]) -> list[dict[str, Value]]:
        names = [c.name for c in cs]
        return [dict(zip(names, vals, strict=True)) for vals in itertools.product(*(domain(c.type) for c in cs))]

    # ------------------------------------------------------------------ states
    def initial_states(self, scan: int | None = None) -> Iterator[State]:
        """Every initial state, in a fixed (lexicographic) order (among the first ``scan`` candidates)."""
        sysm = self.system
        values = {iv.var: iv.values for iv in sysm.init_vars}
        cons = [self.compile(e) for e in sysm.init_constraints]
        empty: dict[str, Value] = {}
        combos = itertools.product(*(values[v.name] for v in sysm.vars))
        for combo in combos if scan is None else itertools.islice(combos, scan):
            if all(f(combo, None, empty) for f in cons):
                yield combo

    def is_initial(self, s: State) -> bool:
        sysm = self.system
        values = {iv.var: iv.values for iv in sysm.init_vars}
        if any(s[i] not in values[v.name] for i, v in enumerate(sysm.vars)):
            return False
        return all(self.compile(e)(s, None, {}) for e in sysm.init_constraints)

    def apply(self, ai: int, s: State, choices: Mapping[str, Value]) -> State | None:
        """Successor of ``s`` under action ``ai`` with ``choices``; None if disabled."""
        if not self._guards[ai](s, None, choices):
            return None
        nxt = list(s)
        for i, f in self._updates[ai]:
            nxt[i] = f(s, None, choices)
        return tuple(nxt)

    def step(self, a: Action, s: State, choices: Mapping[str, Value]) -> State | None:
        """Successor of ``s`` under any ground action ``a`` over this system's variables (None if disabled).

        Like :meth:`apply`, for an action that need not be one of the system's (compiled on first use).
        """
        if not self.compile(a.guard)(s, None, choices):
            return None
        nxt = list(s)
        for u in a.updates:
            nxt[self.index[u.var]] = self.compile(u.expr)(s, None, choices)
        return tuple(nxt)

    def successors(self, s: State) -> Iterator[tuple[int, Mapping[str, Value], State]]:
        """All ``(action index, choices, successor)`` of ``s`` in a fixed order."""
        for ai in range(len(self.system.actions)):
            g = self._guards[ai]
            ups = self._updates[ai]
            for ch in self._choice_space(ai):
                if g(s, None, ch):
                    nxt = list(s)
                    for i, f in ups:
                        nxt[i] = f(s, None, ch)
                    yield ai, ch, tuple(nxt)

    def update(self, ai: int, s: State, choices: Mapping[str, Value]) -> State:
        """The successor of ``s`` under action ``ai`` with ``choices``, its guard not evaluated (known to hold)."""
        nxt = list(s)
        for i, f in self._updates[ai]:
            nxt[i] = f(s, None, choices)
        return tuple(nxt)

    def choice_space(self, ai: int) -> Sequence[Mapping[str, Value]]:
        """Every choice vector of action ``ai``, in the order :meth:`successors` tries them."""
        return self._choice_space(ai)

    def edges(self, s: State, actions: Sequence[int] | None = None) -> list[tuple[int, int, State]]:
        """``(action index, choice vector index, successor)`` of ``s`` in the order of :meth:`successors`.

        ``actions``: only these actions (in increasing order); the index is into :meth:`choice_space`.
        """
        out: list[tuple[int, int, State]] = []
        for ai in range(len(self.system.actions)) if actions is None else actions:
            g = self._guards[ai]
            for ci, ch in enumerate(self._choice_space(ai)):
                if g(s, None, ch):
                    out.append((ai, ci, self.update(ai, s, ch)))
        return out

    def enabled(self, ai: int, s: State) -> bool:
        g = self._guards[ai]
        return any(g(s, None, ch) for ch in self._choice_space(ai))

    # ------------------------------------------------------------------ properties
    def holds(self, prop: Property, s: State) -> bool:
        """Invariant or reach target at ``s``."""
        return bool(self.compile(prop.expr)(s, None, {}))

    def step_ok(self, prop: Property, action: Action, s: State, t: State, choices: Mapping[str, Value]) -> bool:
        """Action property on the step ``s -> t`` of ``action`` (True if another family)."""
        if not prop.applies_to(action):
            return True
        cond = dict(prop.conds).get(action.label)
        if cond is None:
            return True
        return bool(self.compile(cond)(s, t, choices))

    def as_dict(self, s: Sequence[Value]) -> dict[str, Value]:
        return {v.name: x for v, x in zip(self.system.vars, s, strict=True)}

    def from_dict(self, d: Mapping[str, Value]) -> State:
        return tuple(d[v.name] for v in self.system.vars)
