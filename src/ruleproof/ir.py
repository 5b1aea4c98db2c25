"""The intermediate representation: one semantics for every engine.

A rules model written in the DSL (:mod:`ruleproof.dsl`) is grounded into a
:class:`System`: scalar state variables, ground actions (one per parameter
tuple) with a guard, per-step choices and simultaneous updates, an initial
condition and properties.  Two interpreters read it: the concrete evaluator
(:mod:`ruleproof.evaluator`) and the Z3 encoder (:mod:`ruleproof.encoder`).

Every node is a frozen dataclass.  Expressions are built through the helper
functions at the bottom of this module, which type-check their arguments and
fold trivial cases (constant arithmetic, ``x + 0``, ``And(True, p)``...).
Source locations live on declarations, not on expression nodes, so that two
structurally equal expressions compare equal.
"""

from __future__ import annotations

import enum
import weakref
from dataclasses import dataclass, field
from typing import Callable, TypeVar, Union

from .errors import SourceLoc

__all__ = [
    "BoolT",
    "IntT",
    "EnumT",
    "Type",
    "Value",
    "Op",
    "Expr",
    "Const",
    "Var",
    "Choice",
    "App",
    "StateVar",
    "ChoiceVar",
    "Update",
    "Write",
    "Requirement",
    "Action",
    "InitVar",
    "PropKind",
    "Property",
    "System",
    "BOOL",
    "TRUE",
    "FALSE",
    "const",
    "mk",
    "and_",
    "or_",
    "not_",
    "implies",
    "ite",
    "eq",
    "add",
    "sub",
    "neg",
    "mul",
    "div",
    "le",
    "lt",
    "min_",
    "max_",
    "type_name",
    "walk",
    "free_vars",
    "substitute",
    "prime",
    "conjuncts",
    "same_kind",
    "ne",
    "fold",
    "show_expr",
    "BUILDERS",
    "SHOW",
]


# --------------------------------------------------------------------------- types


@dataclass(frozen=True)
class BoolT:
    """The Boolean type."""

    def __str__(self) -> str:
        return "Bool"


@dataclass(frozen=True)
class IntT:
    """A bounded integer type ``lo..hi`` (inclusive).

    The bound is a declared range, checked as the built-in property
    "state stays within declared ranges"; arithmetic itself is unbounded in
    both interpreters, so an overflow is reported, never wrapped.
    """

    lo: int
    hi: int

    def __str__(self) -> str:
        return f"Int({self.lo}..{self.hi})"


@dataclass(frozen=True)
class EnumT:
    """A finite sort or enumeration: players, card slots, zones."""

    name: str
    values: tuple[str, ...]
    labels: tuple[str, ...] = field(default=(), compare=False)

    def __post_init__(self) -> None:
        # a sort of many values is hashed at every lookup of a node typed by it: hash once
        object.__setattr__(self, "_hash", hash((self.name, self.values)))

    def __hash__(self) -> int:
        return self._hash  # type: ignore[attr-defined]

    def label(self, value: str) -> str:
        """Human label of ``value`` (``"player 1"`` for ``"p1"`` if declared)."""
        if self.labels:
            return self.labels[self.values.index(value)]
        return value

    def __str__(self) -> str:
        return self.name


Type = Union[BoolT, IntT, EnumT]
Value = Union[bool, int, str]
BOOL = BoolT()


def type_name(t: Type) -> str:
    """Short name of a type for error messages."""
    if isinstance(t, BoolT):
        return "Bool"
    if isinstance(t, IntT):
        return "Int"
    return t.name


def same_kind(a: Type, b: Type) -> bool:
    """True when values of ``a`` and ``b`` may be compared or assigned."""
    if isinstance(a, IntT) and isinstance(b, IntT):
        return True
    return a == b


# --------------------------------------------------------------------------- expressions


class Op(enum.Enum):
    """Operators of :class:`App` nodes."""

    ADD = "+"
    SUB = "-"
    MUL = "*"
    DIV = "div"  # floor division by a positive constant
    NEG = "neg"
    MIN = "min"
    MAX = "max"
    EQ = "=="
    NE = "!="
    LT = "<"
    LE = "<="
    AND = "and"
    OR = "or"
    NOT = "not"
    IMPLIES = "=>"
    ITE = "ite"


# Expression nodes are hash-consed: building a node that already exists returns
# the existing object.  Structural equality is therefore identity, and each node's
# hash is computed once, from its children's hashes, when it is built: dictionary
# lookups (the interpreters' caches) cost O(1) whatever the depth of the
# expression, and nothing recurses over a deep expression to hash or compare it.
# The table holds nodes weakly; a node lives as long as something uses it.
_NODES: weakref.WeakValueDictionary[tuple[object, ...], object] = weakref.WeakValueDictionary()


def _type_key(t: Type) -> object:
    # labels do not take part in type equality, but a node keeps the type it was built with
    return (t, t.labels) if isinstance(t, EnumT) else t


_N = TypeVar("_N", bound="_Node")


def _interned(cls: type[_N], key: tuple[object, ...], fields: dict[str, object]) -> _N:
    hit = _NODES.get(key)
    if hit is not None:
        return hit  # type: ignore[return-value]
    node = object.__new__(cls)
    for k, v in fields.items():
        object.__setattr__(node, k, v)
    object.__setattr__(node, "_hash", hash(key))
    _NODES[key] = node
    return node


class _Node:
    """Identity equality and the hash computed at construction (see :data:`_NODES`)."""

    _hash: int

    def __hash__(self) -> int:
        return self._hash

    def __eq__(self, other: object) -> bool:
        return self is other

    def __ne__(self, other: object) -> bool:
        return self is not other


@dataclass(frozen=True, eq=False, init=False)
class Const(_Node):
    """A literal value of a type."""

    value: Value
    type: Type

    def __new__(cls, value: Value, type: Type) -> Const:  # noqa: A002 - the field's name
        return _interned(cls, (Const, value, value.__class__, _type_key(type)), {"value": value, "type": type})

    def __reduce__(self) -> tuple[object, ...]:
        return (Const, (self.value, self.type))


@dataclass(frozen=True, eq=False, init=False)
class Var(_Node):
    """A ground state variable; ``primed`` reads the post-state of a step."""

    name: str
    type: Type
    primed: bool = False

    def __new__(cls, name: str, type: Type, primed: bool = False) -> Var:  # noqa: A002
        return _interned(cls, (Var, name, _type_key(type), primed), {"name": name, "type": type, "primed": primed})

    def __reduce__(self) -> tuple[object, ...]:
        return (Var, (self.name, self.type, self.primed))


@dataclass(frozen=True, eq=False, init=False)
class Choice(_Node):
    """A per-step nondeterministic input of one ground action."""

    name: str
    type: Type

    def __new__(cls, name: str, type: Type) -> Choice:  # noqa: A002
        return _interned(cls, (Choice, name, _type_key(type)), {"name": name, "type": type})

    def __reduce__(self) -> tuple[object, ...]:
        return (Choice, (self.name, self.type))


@dataclass(frozen=True, eq=False, init=False)
class App(_Node):
    """An operator applied to arguments; ``type`` is the result type."""

    op: Op
    args: tuple[Expr, ...]
    type: Type

    def __new__(cls, op: Op, args: tuple[Expr, ...], type: Type) -> App:  # noqa: A002
        return _interned(cls, (App, op, args, _type_key(type)), {"op": op, "args": args, "type": type})

    def __reduce__(self) -> tuple[object, ...]:
        return (App, (self.op, self.args, self.type))


Expr = Union[Const, Var, Choice, App]

TRUE = Const(True, BOOL)
FALSE = Const(False, BOOL)


def const(value: Value, t: Type | None = None) -> Const:
    """A constant; the type of a Python int defaults to ``Int(value..value)``."""
    if t is not None:
        return Const(value, t)
    if isinstance(value, bool):
        return Const(value, BOOL)
    if isinstance(value, int):
        return Const(value, IntT(value, value))
    raise TypeError(f"cannot infer the type of {value!r}")


def _int_hull(args: tuple[Expr, ...]) -> IntT:
    # Result type of arithmetic: Int with a nominal range; ranges of
    # intermediate values are not checked, only state variables are.
    return IntT(0, 0)


def _is(e: Expr, v: Value) -> bool:
    return isinstance(e, Const) and e.value == v and type(e.value) is type(v)


def and_(*args: Expr) -> Expr:
    flat: list[Expr] = []
    for a in args:
        if _is(a, True):
            continue
        if _is(a, False):
            return FALSE
        if isinstance(a, App) and a.op is Op.AND:
            flat.extend(a.args)
        else:
            flat.append(a)
    if not flat:
        return TRUE
    if len(flat) == 1:
        return flat[0]
    return App(Op.AND, tuple(flat), BOOL)


def or_(*args: Expr) -> Expr:
    flat: list[Expr] = []
    for a in args:
        if _is(a, False):
            continue
        if _is(a, True):
            return TRUE
        if isinstance(a, App) and a.op is Op.OR:
            flat.extend(a.args)
        else:
            flat.append(a)
    if not flat:
        return FALSE
    if len(flat) == 1:
        return flat[0]
    return App(Op.OR, tuple(flat), BOOL)


def not_(a: Expr) -> Expr:
    if isinstance(a, Const):
        return Const(not a.value, BOOL)
    if isinstance(a, App) and a.op is Op.NOT:
        return a.args[0]
    return App(Op.NOT, (a,), BOOL)


def implies(a: Expr, b: Expr) -> Expr:
    if _is(a, True):
        return b
    if _is(a, False) or _is(b, True):
        return TRUE
    return App(Op.IMPLIES, (a, b), BOOL)


def ite(c: Expr, t: Expr, e: Expr) -> Expr:
    if _is(c, True):
        return t
    if _is(c, False):
        return e
    if t == e:
        return t
    rt = t.type if not isinstance(t.type, IntT) else IntT(0, 0)
    return App(Op.ITE, (c, t, e), rt)


def eq(a: Expr, b: Expr) -> Expr:
    if isinstance(a, Const) and isinstance(b, Const):
        return Const(a.value == b.value, BOOL)
    if a == b:
        return TRUE
    return App(Op.EQ, (a, b), BOOL)


def ne(a: Expr, b: Expr) -> Expr:
    return not_(eq(a, b))


def add(*args: Expr) -> Expr:
    total = 0
    rest: list[Expr] = []
    for a in args:
        if isinstance(a, Const):
            total += int(a.value)
        elif isinstance(a, App) and a.op is Op.ADD:
            for b in a.args:
                if isinstance(b, Const):
                    total += int(b.value)
                else:
                    rest.append(b)
        else:
            rest.append(a)
    if not rest:
        return const(total)
    if total:
        rest.append(const(total))
    if len(rest) == 1:
        return rest[0]
    return App(Op.ADD, tuple(rest), _int_hull(tuple(rest)))


def sub(a: Expr, b: Expr) -> Expr:
    if isinstance(a, Const) and isinstance(b, Const):
        return const(int(a.value) - int(b.value))
    if _is(b, 0):
        return a
    if a == b:
        return const(0)
    return App(Op.SUB, (a, b), IntT(0, 0))


def neg(a: Expr) -> Expr:
    if isinstance(a, Const):
        return const(-int(a.value))
    return App(Op.NEG, (a,), IntT(0, 0))


def mul(a: Expr, b: Expr) -> Expr:
    if isinstance(a, Const) and isinstance(b, Const):
        return const(int(a.value) * int(b.value))
    if _is(a, 1):
        return b
    if _is(b, 1):
        return a
    if _is(a, 0) or _is(b, 0):
        return const(0)
    return App(Op.MUL, (a, b), IntT(0, 0))


def div(a: Expr, b: Expr) -> Expr:
    """Floor division by a positive constant ``b``."""
    if not (isinstance(b, Const) and isinstance(b.value, int) and b.value > 0):
        raise ValueError("division is only by a positive constant")
    if isinstance(a, Const):
        return const(int(a.value) // int(b.value))
    if b.value == 1:
        return a
    return App(Op.DIV, (a, b), IntT(0, 0))


def le(a: Expr, b: Expr) -> Expr:
    if isinstance(a, Const) and isinstance(b, Const):
        return Const(int(a.value) <= int(b.value), BOOL)
    return App(Op.LE, (a, b), BOOL)


def lt(a: Expr, b: Expr) -> Expr:
    if isinstance(a, Const) and isinstance(b, Const):
        return Const(int(a.value) < int(b.value), BOOL)
    return App(Op.LT, (a, b), BOOL)


def min_(*args: Expr) -> Expr:
    if all(isinstance(a, Const) for a in args):
        return const(min(int(a.value) for a in args))  # type: ignore[union-attr]
    if len(args) == 1:
        return args[0]
    return App(Op.MIN, tuple(args), IntT(0, 0))


def max_(*args: Expr) -> Expr:
    if all(isinstance(a, Const) for a in args):
        return const(max(int(a.value) for a in args))  # type: ignore[union-attr]
    if len(args) == 1:
        return args[0]
    return App(Op.MAX, tuple(args), IntT(0, 0))


BUILDERS: dict[Op, Callable[..., Expr]] = {
    Op.ADD: add, Op.SUB: sub, Op.MUL: mul, Op.DIV: div, Op.NEG: neg, Op.MIN: min_, Op.MAX: max_,
    Op.EQ: eq, Op.NE: ne, Op.LT: lt, Op.LE: le,
    Op.AND: and_, Op.OR: or_, Op.NOT: not_, Op.IMPLIES: implies, Op.ITE: ite,
}
"""The folding builder of each operator (what :func:`mk` dispatches on)."""


def mk(op: Op, *args: Expr) -> Expr:
    """Build an application with folding of constant and trivial cases."""
    return BUILDERS[op](*args)


# --------------------------------------------------------------------------- walking

R = TypeVar("R")


def fold(
    root: Expr,
    leaf: Callable[[Expr], R],
    app: Callable[[App, list[R]], R],
    memo: dict[Expr, R] | None = None,
    tick: Callable[[], None] | None = None,
) -> R:
    """Bottom-up interpretation of ``root``: the one walker every interpreter uses.

    ``leaf`` interprets a :class:`Const`, :class:`Var` or :class:`Choice`;
    ``app`` an :class:`App` given its arguments' interpretations.  Each
    distinct node is interpreted once (``memo``, which a caller may keep
    across calls), children before parents, with an explicit stack: deep
    expressions never meet Python's recursion limit.  ``tick``, when given,
    is called every 4,096 nodes (the encoder passes the run's budget
    checkpoint, so a deadline or an interrupt stops a huge translation).
    """
    if memo is None:
        memo = {}
    hit = memo.get(root, _MISSING)
    if hit is not _MISSING:
        return hit  # type: ignore[return-value]
    stack: list[tuple[Expr, bool]] = [(root, False)]
    steps = 0
    while stack:
        if tick is not None:
            steps += 1
            if steps % 4096 == 0:
                tick()
        e, expanded = stack.pop()
        if e in memo:
            continue
        if isinstance(e, App):
            if not expanded:
                stack.append((e, True))
                stack.extend((x, False) for x in reversed(e.args) if x not in memo)
                continue
            memo[e] = app(e, [memo[x] for x in e.args])
        else:
            memo[e] = leaf(e)
    return memo[root]


_MISSING = object()


def walk(e: Expr) -> list[Expr]:
    """All sub-expressions of ``e`` (iterative, pre-order, no duplicates)."""
    seen: set[int] = set()
    out: list[Expr] = []
    stack: list[Expr] = [e]
    while stack:
        x = stack.pop()
        if id(x) in seen:
            continue
        seen.add(id(x))
        out.append(x)
        if isinstance(x, App):
            stack.extend(reversed(x.args))
    return out


def free_vars(e: Expr) -> set[str]:
    """Names of state variables read by ``e`` (primed or not)."""
    return {x.name for x in walk(e) if isinstance(x, Var)}


# --------------------------------------------------------------------------- declarations


@dataclass(frozen=True)
class StateVar:
    """A ground (scalar) state variable.

    ``array`` and ``index`` say which declared array it comes from
    (``gold`` and ``("p1",)`` for ``gold[p1]``); ``label`` is its display name.
    """

    name: str
    type: Type
    array: str
    index: tuple[str, ...]
    label: str
    loc: SourceLoc | None = field(default=None, compare=False)
    observable: bool = True  # part of what the game shows (not bookkeeping or a ghost): mutant equivalence compares it
    shown: Expr | None = None  # observable only in states where this holds (e.g. while an action is in flight)


@dataclass(frozen=True)
class ChoiceVar:
    """A nondeterministic input of a ground action, chosen afresh at each step."""

    name: str
    type: Type
    label: str


@dataclass(frozen=True)
class Update:
    """``var' = expr`` (expr is read in the pre-state)."""

    var: str
    expr: Expr


@dataclass(frozen=True)
class Write:
    """One ``set`` of a cell by an action, as the model wrote it.

    ``updates`` merge every write to a cell (a later write wins where its
    condition holds); ``writes`` keeps them apart so that the determinism
    check can find two rules that set one value differently at once.
    ``site`` numbers the ``set`` calls of the action body; ``precedence``
    is the model's stated reason why this write overrides earlier ones
    (a documented tie-break), empty when it states none.
    """

    var: str
    when: Expr
    value: Expr
    site: int
    precedence: str = ""
    loc: SourceLoc | None = field(default=None, compare=False)


@dataclass(frozen=True)
class Requirement:
    """One ``require`` of an action body, as grounded, and the line that states it.

    The guard of an action is the conjunction of its requirements; mutation
    testing drops them one at a time, naming each by its source line (the
    same in every scenario of a model).
    """

    expr: Expr
    loc: SourceLoc | None = None


@dataclass(frozen=True)
class Action:
    """A ground action: one parameter tuple of a declared action family."""

    family: str
    params: tuple[tuple[str, Value], ...]
    label: str
    guard: Expr
    choices: tuple[ChoiceVar, ...]
    updates: tuple[Update, ...]
    description: str
    cites: tuple[str, ...] = ()
    param_labels: tuple[str, ...] = ()
    loc: SourceLoc | None = field(default=None, compare=False)
    writes: tuple[Write, ...] = ()
    requires: tuple[Requirement, ...] = field(default=(), compare=False)  # provenance of ``guard`` (may be empty)


@dataclass(frozen=True)
class InitVar:
    """The initial values a variable may take: a tuple of allowed values."""

    var: str
    values: tuple[Value, ...]


class PropKind(enum.Enum):
    """What a property constrains."""

    INVARIANT = "invariant"  # holds in every reachable state
    ACTION = "action"  # holds on every step of one action family (pre/post)
    REACH = "reachable"  # some reachable state satisfies it (sanity target)


@dataclass(frozen=True)
class Property:
    """A property of a system.

    For ``ACTION`` properties ``conds`` maps each ground action label of
    ``family`` to its pre/post condition; ``expr`` is unused (``TRUE``).
    An empty ``family`` means the labels in ``conds`` may be of any family.
    For a ``must-cannot`` invariant, ``conds`` lists each element with the
    condition that it is both obliged and prohibited (for explanations).
    ``check`` names the consistency check that generated the property
    (``deadlock``, ``determinism``, ``must-cannot``); empty for properties a
    model states itself.
    """

    name: str
    kind: PropKind
    expr: Expr
    cites: tuple[str, ...]
    doc: str = ""
    family: str = ""
    conds: tuple[tuple[str, Expr], ...] = ()
    builtin: bool = False
    loc: SourceLoc | None = field(default=None, compare=False)
    check: str = ""

    def applies_to(self, action: "Action") -> bool:
        """An action property constrains steps of ``action``."""
        return self.kind is PropKind.ACTION and (not self.family or self.family == action.family)


@dataclass(frozen=True)
class System:
    """A ground transition system with its properties."""

    name: str
    vars: tuple[StateVar, ...]
    actions: tuple[Action, ...]
    init_vars: tuple[InitVar, ...]
    init_constraints: tuple[Expr, ...]
    properties: tuple[Property, ...]
    doc: str = ""
    scenario: str = "default"
    file: str = ""
    family_names: tuple[str, ...] = ()
    covers: tuple[tuple[str, Expr], ...] = ()
    ends: tuple[Expr, ...] = ()  # the declared ends of the game (``Model.game_end``), for regenerating checks

    def var(self, name: str) -> StateVar:
        for v in self.vars:
            if v.name == name:
                return v
        raise KeyError(name)

    def families(self) -> tuple[str, ...]:
        """Action family names in declaration order (with ones that have no ground instance)."""
        seen: dict[str, None] = dict.fromkeys(self.family_names)
        for a in self.actions:
            seen.setdefault(a.family, None)
        return tuple(seen)

    def prop(self, name: str) -> Property:
        for p in self.properties:
            if p.name == name:
                return p
        raise KeyError(name)


def substitute(e: Expr, values: dict[str, Expr]) -> Expr:
    """``e`` with each choice named in ``values`` replaced (and folded again)."""

    def leaf(x: Expr) -> Expr:
        return values.get(x.name, x) if isinstance(x, Choice) else x

    def app(x: App, args: list[Expr]) -> Expr:
        if all(n is o for n, o in zip(args, x.args, strict=True)):
            return x
        return mk(x.op, *args)

    return fold(e, leaf, app)


def prime(e: Expr) -> Expr:
    """``e`` read in the post-state of a step: every state variable primed (indices too)."""

    def leaf(x: Expr) -> Expr:
        return Var(x.name, x.type, True) if isinstance(x, Var) else x

    return fold(e, leaf, lambda x, args: App(x.op, tuple(args), x.type))


_INFIX = {Op.ADD: "+", Op.SUB: "-", Op.MUL: "*", Op.DIV: "//", Op.EQ: "==", Op.NE: "!=", Op.LT: "<", Op.LE: "<=",
          Op.AND: "and", Op.OR: "or", Op.IMPLIES: "=>"}

def _infix(sym: str) -> Callable[[list[str]], str]:
    return lambda xs: "(" + f" {sym} ".join(xs) + ")"


SHOW: dict[Op, Callable[[list[str]], str]] = {
    **{op: _infix(sym) for op, sym in _INFIX.items()},
    Op.NOT: lambda xs: f"not {xs[0]}",
    Op.NEG: lambda xs: f"-{xs[0]}",
    Op.ITE: lambda xs: f"(if {xs[0]} then {xs[1]} else {xs[2]})",
    Op.MIN: lambda xs: f"min({', '.join(xs)})",
    Op.MAX: lambda xs: f"max({', '.join(xs)})",
}
"""The printer of each operator (:func:`show_expr`)."""


def _show_leaf(e: Expr) -> str:
    if isinstance(e, Const):
        return str(e.value)
    if isinstance(e, Var):
        return e.name + ("'" if e.primed else "")
    assert isinstance(e, Choice)
    return f"?{e.name}"


def show_expr(e: Expr) -> str:
    """A readable rendering of an IR expression."""
    return fold(e, _show_leaf, lambda x, parts: SHOW[x.op](parts))


def conjuncts(e: Expr) -> tuple[Expr, ...]:
    """The top-level conjuncts of ``e`` (``e`` itself when it is not a conjunction)."""
    return e.args if isinstance(e, App) and e.op is Op.AND else (e,)
