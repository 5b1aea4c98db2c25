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
)

__all__ = ["State", "Fn", "Evaluator", "domain", "in_range"]

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
        hit = self._cache.get(e)
        if hit is None:
            hit = self._compile(e)
            self._cache[e] = hit
        return hit

    def _compile(self, e: Expr) -> Fn:
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
        if isinstance(e, Choice):
            n = e.name
            return lambda s, t, c: c[n]
        assert isinstance(e, App)
        fs = [self.compile(a) for a in e.args]
        op = e.op
        if op is Op.AND:
            return lambda s, t, c: all(f(s, t, c) for f in fs)
        if op is Op.OR:
            return lambda s, t, c: any(f(s, t, c) for f in fs)
        if op is Op.NOT:
            (f,) = fs
            return lambda s, t, c: not f(s, t, c)
        if op is Op.IMPLIES:
            f, g = fs
            return lambda s, t, c: (not f(s, t, c)) or bool(g(s, t, c))
        if op is Op.ITE:
            f, g, h = fs
            return lambda s, t, c: g(s, t, c) if f(s, t, c) else h(s, t, c)
        if op is Op.EQ:
            f, g = fs
            return lambda s, t, c: f(s, t, c) == g(s, t, c)
        if op is Op.NE:
            f, g = fs
            return lambda s, t, c: f(s, t, c) != g(s, t, c)
        if op is Op.ADD:
            return lambda s, t, c: sum(int(f(s, t, c)) for f in fs)
        if op is Op.SUB:
            f, g = fs
            return lambda s, t, c: int(f(s, t, c)) - int(g(s, t, c))
        if op is Op.NEG:
            (f,) = fs
            return lambda s, t, c: -int(f(s, t, c))
        if op is Op.MUL:
            f, g = fs
            return lambda s, t, c: int(f(s, t, c)) * int(g(s, t, c))
        if op is Op.DIV:
            f, g = fs
            return lambda s, t, c: int(f(s, t, c)) // int(g(s, t, c))
        if op is Op.LE:
            f, g = fs
            return lambda s, t, c: int(f(s, t, c)) <= int(g(s, t, c))
        if op is Op.LT:
            f, g = fs
            return lambda s, t, c: int(f(s, t, c)) < int(g(s, t, c))
        if op is Op.MIN:
            return lambda s, t, c: min(int(f(s, t, c)) for f in fs)
        if op is Op.MAX:
            return lambda s, t, c: max(int(f(s, t, c)) for f in fs)
        raise ValueError(op)  # pragma: no cover

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
    def initial_states(self) -> Iterator[State]:
        """Every initial state, in a fixed (lexicographic) order."""
        sysm = self.system
        values = {iv.var: iv.values for iv in sysm.init_vars}
        cons = [self.compile(e) for e in sysm.init_constraints]
        empty: dict[str, Value] = {}
        for combo in itertools.product(*(values[v.name] for v in sysm.vars)):
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

    def out_of_range(self, s: State) -> list[str]:
        """Names of variables whose value is outside their declared type."""
        return [v.name for v, x in zip(self.system.vars, s, strict=False) if not in_range(v.type, x)]

    def as_dict(self, s: Sequence[Value]) -> dict[str, Value]:
        return {v.name: x for v, x in zip(self.system.vars, s, strict=False)}

    def from_dict(self, d: Mapping[str, Value]) -> State:
        return tuple(d[v.name] for v in self.system.vars)
