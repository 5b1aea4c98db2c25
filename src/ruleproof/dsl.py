"""The rules DSL: game rules written as Python, compiled to the IR.

A model file defines ``build(**params) -> Model``.  Inside it a rules author
declares finite sorts, static scenario data, typed state, initial states,
guarded parameterised actions and properties::

    m = Model("gold")
    Player = m.sort("Player", ["p1", "p2"], labels=["player 1", "player 2"])
    gold = m.var("gold", Int(0, 40), index=Player, init=Range(0, 5))
    treasury = m.var("treasury", Int(0, 80), init=50)

    @m.action(Player, describe="{p} collects 1 gold")
    def collect(a: Step, p: Term) -> None:
        a.require(treasury >= 1)
        a.set(gold[p], gold[p] + 1)
        a.set(treasury, treasury - 1)

    m.invariant("gold is conserved", Sum(gold[p] for p in Player) + treasury == 50 + ...,
                cites=["Treasury"])

Actions are grounded when they are declared: the decorated function runs once
per parameter tuple, with constant parameters.  Every mistake (an unknown
name, a type mismatch, a constant outside its range, an assignment to static
data) raises :class:`ruleproof.errors.InputError` at once, naming the model
file and line.

The API is typed for the model author's editor and for mypy: an expression
is a :class:`Term`, an assignable place is a :class:`Cell` (``m.var`` without an
index gives one), and anything indexed by sorts is an :class:`Array`
(``m.var`` with an index, ``m.static``, ``a.choose`` with an index), which
gives a term for each index.  What Python's types cannot see, the model's own
types (Int ranges, Bool, which sort), is checked when the model is built.
``m.v.<name>`` looks a declaration up by name; Python cannot know from the
name whether it is an array, so every declaration is also a term: an array
used where a value is needed, or a scalar indexed, is an error naming the
model's line.
"""

from __future__ import annotations

import difflib
import functools
import itertools
import os
import string
import sys
from dataclasses import dataclass, replace
from pathlib import Path
from typing import (
    TYPE_CHECKING,
    Any,
    Callable,
    Generic,
    Iterable,
    Iterator,
    Mapping,
    Sequence,
    TypeVar,
    Union,
    overload,
)

from . import ir
from .errors import InputError, SourceLoc
from .ir import BoolT, EnumT, Expr, IntT, Op, PropKind, Type, Value, show_expr

if TYPE_CHECKING:
    from .consistency import Declared, Resolution

__all__ = [
    "Model",
    "Term",
    "Cell",
    "Array",
    "VarArray",
    "StaticArray",
    "ChoiceArray",
    "Sort",
    "Step",
    "Transition",
    "Bool",
    "Int",
    "Range",
    "OneOf",
    "And",
    "Or",
    "Not",
    "Implies",
    "If",
    "Sum",
    "Min",
    "Max",
    "ForAll",
    "Exists",
    "Count",
    "lift",
    "user_loc",
]

_PKG_DIR = str(Path(__file__).resolve().parent)

Bool = ir.BOOL


def Int(lo: int, hi: int) -> IntT:
    """A bounded integer type ``lo..hi``."""
    if lo > hi:
        raise InputError(f"empty integer range {lo}..{hi}", user_loc())
    return IntT(lo, hi)


def display_path(path: str) -> str:
    """``path`` relative to the working directory when it lies below it."""
    try:
        return str(Path(path).resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return path


@functools.lru_cache(maxsize=1024)
def _is_user_file(fn: str) -> bool:
    return not str(Path(fn).resolve()).startswith(_PKG_DIR) and not fn.startswith("<frozen")


@functools.lru_cache(maxsize=1024)
def _display(fn: str, cwd: str) -> str:
    """``display_path(fn)``, cached per working directory ``cwd`` (what the path is shown relative to)."""
    return display_path(fn)


def user_loc() -> SourceLoc | None:
    """The innermost stack frame outside ruleproof's own package."""
    f = sys._getframe(1)
    while f is not None:
        fn = f.f_code.co_filename
        if _is_user_file(fn):
            return SourceLoc(_display(fn, os.getcwd()), f.f_lineno)
        f = f.f_back  # type: ignore[assignment]
    return None


def _err(msg: str, info: tuple[str, ...] = ()) -> InputError:
    return InputError(msg, user_loc(), info)


def _suggest(name: str, known: Iterable[str]) -> str:
    close = difflib.get_close_matches(name, list(known), n=1)
    return f" (did you mean '{close[0]}'?)" if close else ""


def _arity(fn: Callable[..., Any]) -> int:
    """The number of positional parameters ``fn`` takes (0 when it cannot be told)."""
    import inspect

    try:
        params = inspect.signature(fn).parameters.values()
    except (TypeError, ValueError):
        return 0
    return sum(1 for p in params if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD))


@dataclass(frozen=True)
class Range:
    """Initial values ``lo..hi`` (inclusive), e.g. "gold anywhere in 0..30"."""

    lo: int
    hi: int

    def __post_init__(self) -> None:
        if not all(isinstance(x, int) and not isinstance(x, bool) for x in (self.lo, self.hi)):
            raise _err(f"Range needs whole numbers, got Range({self.lo!r}, {self.hi!r})")


@dataclass(frozen=True)
class OneOf:
    """Initial values: any of the listed ones."""

    values: tuple[int | bool | str | Term, ...]

    def __init__(self, *values: int | bool | str | Term) -> None:
        object.__setattr__(self, "values", tuple(values))


# --------------------------------------------------------------------------- terms

Operand = Union["Term", int, bool, str]
"""What a rule expression accepts: a term, or a Python constant (a string names a value of a sort)."""
Index = Union["Term", str, tuple[Union["Term", str], ...]]
"""What an array is indexed with: one term (or value name) per index sort; a tuple for several sorts."""
InitValue = Union[int, bool, str, "Term", Range, OneOf]
"""An initial value (or static value): a constant, a constant term, ``Range(lo, hi)`` or ``OneOf(...)``."""


class Term:
    """A rule expression; Python operators build IR nodes.

    A term has no truth value in Python: write ``If(c, a, b)``, ``And(...)``
    rather than ``if``/``and``.
    """

    __slots__ = ("expr",)
    __hash__ = None  # type: ignore[assignment]

    def __init__(self, expr: Expr) -> None:
        self.expr = expr

    @property
    def type(self) -> Type:
        return self.expr.type

    # constants of a sort carry a name and a label
    @property
    def name(self) -> str:
        if isinstance(self.expr, ir.Const) and isinstance(self.expr.type, EnumT):
            return str(self.expr.value)
        raise _err("only a constant element of a sort has a name")

    @property
    def label(self) -> str:
        if isinstance(self.expr, ir.Const) and isinstance(self.expr.type, EnumT):
            return self.expr.type.label(str(self.expr.value))
        raise _err("only a constant element of a sort has a label")

    def __bool__(self) -> bool:
        raise _err(
            "a rule expression has no truth value in Python; use If(...), And(...), Or(...) "
            "or a.require(...) instead of if/and/or"
        )

    def __repr__(self) -> str:
        return f"Term({self.expr!r})"

    def __str__(self) -> str:
        return show_expr(self.expr)

    # arithmetic
    def __add__(self, o: Operand) -> Term:
        return _arith(Op.ADD, self, o)

    def __radd__(self, o: Operand) -> Term:
        return _arith(Op.ADD, o, self)

    def __sub__(self, o: Operand) -> Term:
        return _arith(Op.SUB, self, o)

    def __rsub__(self, o: Operand) -> Term:
        return _arith(Op.SUB, o, self)

    def __mul__(self, o: Operand) -> Term:
        return _arith(Op.MUL, self, o)

    def __rmul__(self, o: Operand) -> Term:
        return _arith(Op.MUL, o, self)

    def __floordiv__(self, o: Operand) -> Term:
        b = lift(o)
        if not (isinstance(b.expr, ir.Const) and isinstance(b.expr.value, int) and b.expr.value > 0):
            raise _err("// divides only by a positive constant")
        _need_int(self, "//")
        return Term(ir.div(self.expr, b.expr))

    def __neg__(self) -> Term:
        _need_int(self, "-")
        return Term(ir.neg(self.expr))

    # comparisons
    def __eq__(self, o: object) -> Term:  # type: ignore[override]
        return _compare(Op.EQ, self, o)

    def __ne__(self, o: object) -> Term:  # type: ignore[override]
        return _compare(Op.NE, self, o)

    def __lt__(self, o: Operand) -> Term:
        return _order(Op.LT, self, o)

    def __le__(self, o: Operand) -> Term:
        return _order(Op.LE, self, o)

    def __gt__(self, o: Operand) -> Term:
        return _order(Op.LT, o, self)

    def __ge__(self, o: Operand) -> Term:
        return _order(Op.LE, o, self)

    # logic (Python's &, | and ~ bind tighter than comparisons: the errors say so)
    def __and__(self, o: Operand) -> Term:
        return _logic_operator("&", And, self, o)

    def __rand__(self, o: Operand) -> Term:
        return _logic_operator("&", And, o, self)

    def __or__(self, o: Operand) -> Term:
        return _logic_operator("|", Or, self, o)

    def __ror__(self, o: Operand) -> Term:
        return _logic_operator("|", Or, o, self)

    def __invert__(self) -> Term:
        return _logic_operator("~", Not, self)

    def __getitem__(self, idx: Index) -> Term:
        """Only an :class:`Array` takes an index: a term that is not one says so at the model's line."""
        raise _err(f"'{self}' is not an array: it takes no index")

    def __iter__(self) -> Iterator[Term]:
        raise _err(f"'{self}' is a single value: there is nothing to iterate over")


class Cell(Term):
    """A readable and assignable place: a state variable, or an array entry."""

    __slots__ = ("array", "indices")

    def __init__(self, expr: Expr, array: VarArray, indices: tuple[Term, ...]) -> None:
        super().__init__(expr)
        self.array = array
        self.indices = indices


def lift(x: Operand, hint: Type | None = None) -> Term:
    """Turn a Python constant into a term (strings need an enum ``hint``).

    >>> lift(3).type, lift(True).type
    (IntT(lo=3, hi=3), BoolT())
    """
    if isinstance(x, Array):
        raise x.not_a_value()
    if isinstance(x, Term):
        return x
    if isinstance(x, bool):
        return Term(ir.Const(x, ir.BOOL))
    if isinstance(x, int):
        return Term(ir.const(x))
    if isinstance(x, str):
        if isinstance(hint, EnumT):
            if x not in hint.values:
                raise _err(f"'{x}' is not a value of {hint.name}{_suggest(x, hint.values)}")
            return Term(ir.Const(x, hint))
        raise _err(f"the string '{x}' needs an enumeration on the other side to have a meaning")
    raise _err(f"cannot use {type(x).__name__} value {x!r} in a rule expression")


def _need_int(t: Term, op: str) -> None:
    if isinstance(t, Array):
        raise t.not_a_value()
    if not isinstance(t.type, IntT):
        raise _err(f"type mismatch: '{op}' needs Int operands, got {ir.type_name(t.type)}")


def _need_bool(t: Term, what: str) -> None:
    if isinstance(t, Array):
        raise t.not_a_value()
    if not isinstance(t.type, BoolT):
        raise _err(f"type mismatch: {what} needs a Bool, got {ir.type_name(t.type)}")


def _arith(op: Op, a: Operand, b: Operand) -> Term:
    ta, tb = lift(a), lift(b)
    _need_int(ta, op.value)
    _need_int(tb, op.value)
    return Term(ir.mk(op, ta.expr, tb.expr))


def _compare(op: Op, a: object, b: object) -> Term:
    ta = lift(a) if not isinstance(a, str) else None  # type: ignore[arg-type]
    tb = lift(b) if not isinstance(b, str) else None  # type: ignore[arg-type]
    if ta is None and tb is None:
        raise _err("cannot compare two strings in a rule expression")
    if ta is None:
        ta = lift(a, tb.type)  # type: ignore[arg-type,union-attr]
    if tb is None:
        tb = lift(b, ta.type)  # type: ignore[arg-type]
    if not ir.same_kind(ta.type, tb.type):
        raise _err(
            f"type mismatch: cannot compare {ir.type_name(ta.type)} with {ir.type_name(tb.type)}"
        )
    return Term(ir.mk(op, ta.expr, tb.expr))


def _order(op: Op, a: Operand, b: Operand) -> Term:
    ta, tb = lift(a), lift(b)
    _need_int(ta, op.value)
    _need_int(tb, op.value)
    return Term(ir.mk(op, ta.expr, tb.expr))


Operands = Union[Operand, Iterable[Operand]]
"""The arguments of ``And``, ``Or``, ``Sum``, ``Min`` and ``Max``: operands, or one iterable of them."""


def _terms(args: tuple[Operands, ...]) -> list[Term]:
    if len(args) == 1 and not isinstance(args[0], (Term, int, bool, str)):
        return [lift(a) for a in args[0]]
    out: list[Term] = []
    for a in args:
        if not isinstance(a, (Term, int, bool, str)):
            raise _err(f"cannot use {type(a).__name__} value {a!r} in a rule expression")
        out.append(lift(a))
    return out


def And(*args: Operands) -> Term:
    """Conjunction of Bool terms (or of one iterable of them)."""
    ts = _terms(args)
    for t in ts:
        _need_bool(t, "And")
    return Term(ir.and_(*(t.expr for t in ts)))


def Or(*args: Operands) -> Term:
    """Disjunction of Bool terms (or of one iterable of them)."""
    ts = _terms(args)
    for t in ts:
        _need_bool(t, "Or")
    return Term(ir.or_(*(t.expr for t in ts)))


def Not(a: Operand) -> Term:
    """Negation of a Bool term."""
    t = lift(a)
    _need_bool(t, "Not")
    return Term(ir.not_(t.expr))


_PRECEDENCE_HINT = (
    "; Python's {op} binds tighter than a comparison: put parentheses around each comparison, "
    "as in (a >= 0) {op} (b >= 0), or write {fn}(a >= 0, b >= 0)"
)


def _logic_operator(op: str, fn: Callable[..., Term], *args: Operand) -> Term:
    """``&``/``|``/``~`` on terms: like ``And``/``Or``/``Not``, with a hint when an operand is not a Bool.

    ``gold[p1] >= 0 & gold[p2] >= 0`` reads as ``gold[p1] >= (0 & gold[p2]) >= 0`` in Python,
    so the operand that is not a Bool is almost always a comparison missing its parentheses.
    """
    for a in args:
        t = lift(a)
        if not isinstance(t.type, BoolT):
            name = {"&": "And", "|": "Or", "~": "Not"}[op]
            hint = _PRECEDENCE_HINT.format(op=op, fn=name) if op != "~" else (
                "; Python's ~ binds tighter than a comparison: write ~(a >= 0) or Not(a >= 0)"
            )
            raise _err(f"type mismatch: '{op}' needs Bool operands, got {ir.type_name(t.type)}{hint}")
    return fn(*args)


def Implies(a: Operand, b: Operand) -> Term:
    ta, tb = lift(a), lift(b)
    _need_bool(ta, "Implies")
    _need_bool(tb, "Implies")
    return Term(ir.implies(ta.expr, tb.expr))


def If(c: Operand, t: Operand, e: Operand) -> Term:
    """``t`` when ``c`` holds, else ``e``."""
    tc = lift(c)
    _need_bool(tc, "If")
    tt = lift(t) if not isinstance(t, str) else None
    te = lift(e) if not isinstance(e, str) else None
    if tt is None and te is None:
        raise _err("If(...) needs at least one branch that is not a bare string")
    if tt is None:
        tt = lift(t, te.type)  # type: ignore[union-attr]
    if te is None:
        te = lift(e, tt.type)
    if not ir.same_kind(tt.type, te.type):
        raise _err(f"type mismatch: If branches are {ir.type_name(tt.type)} and {ir.type_name(te.type)}")
    return Term(ir.ite(tc.expr, tt.expr, te.expr))


def Sum(*args: Operands) -> Term:
    """Sum of Int terms (or of one iterable of them); 0 when empty."""
    ts = _terms(args)
    for t in ts:
        _need_int(t, "Sum")
    return Term(ir.add(*(t.expr for t in ts))) if ts else Term(ir.const(0))


def Min(*args: Operands) -> Term:
    ts = _terms(args)
    if not ts:
        raise _err("Min of nothing")
    for t in ts:
        _need_int(t, "Min")
    return Term(ir.min_(*(t.expr for t in ts)))


def Max(*args: Operands) -> Term:
    ts = _terms(args)
    if not ts:
        raise _err("Max of nothing")
    for t in ts:
        _need_int(t, "Max")
    return Term(ir.max_(*(t.expr for t in ts)))


def ForAll(sort: Sort, fn: Callable[[Term], Operand]) -> Term:
    """``fn(x)`` for every element ``x`` of ``sort``."""
    return And(*(lift(fn(x)) for x in sort))


def Exists(sort: Sort, fn: Callable[[Term], Operand]) -> Term:
    """``fn(x)`` for some element ``x`` of ``sort``."""
    return Or(*(lift(fn(x)) for x in sort))


def Count(sort: Sort, fn: Callable[[Term], Operand]) -> Term:
    """How many elements ``x`` of ``sort`` satisfy ``fn(x)``."""
    return Sum(If(lift(fn(x)), 1, 0) for x in sort)


# --------------------------------------------------------------------------- sorts & arrays


class Sort:
    """A finite sort (players, card slots) or enumeration (zones)."""

    def __init__(self, t: EnumT) -> None:
        self.type = t

    @property
    def name(self) -> str:
        return self.type.name

    def __iter__(self) -> Iterator[Term]:
        return (Term(ir.Const(v, self.type)) for v in self.type.values)

    def __len__(self) -> int:
        return len(self.type.values)

    def __getattr__(self, value: str) -> Term:
        if value.startswith("__"):
            raise AttributeError(value)
        if value in self.type.values:
            return Term(ir.Const(value, self.type))
        raise _err(f"'{value}' is not a value of {self.type.name}{_suggest(value, self.type.values)}")

    def __getitem__(self, key: int | str) -> Term:
        if isinstance(key, int):
            return Term(ir.Const(self.type.values[key], self.type))
        return self.__getattr__(key)

    def ordinal(self, value: Term | str) -> int:
        """The position of a constant value in the sort, counting from 1 (the second value gives 2).

        For use while an action is grounded (its parameters are constants), instead of reading
        a number back out of a value's name.

        >>> m = Model("x")
        >>> Char = m.sort("Char", ["c1", "c2", "c3"])
        >>> Char.ordinal(Char.c3), Char.ordinal("c1")
        (3, 1)
        """
        name = value if isinstance(value, str) else _const_name(value, self)
        if name not in self.type.values:
            raise _err(f"'{name}' is not a value of {self.type.name}{_suggest(name, self.type.values)}")
        return self.type.values.index(name) + 1

    def __repr__(self) -> str:
        return f"Sort({self.type.name}, {list(self.type.values)})"


def _const_name(value: Term, sort: Sort) -> str:
    if not isinstance(value.expr, ir.Const) or value.type != sort.type:
        raise _err(f"ordinal needs a constant value of {sort.name}, got {ir.type_name(value.type)}")
    return str(value.expr.value)


def _check_indices(name: str, sorts: tuple[Sort, ...], index: Index) -> tuple[Term, ...]:
    idx = index if isinstance(index, tuple) else (index,)
    if len(idx) != len(sorts):
        raise _err(f"'{name}' takes {len(sorts)} index(es), got {len(idx)}")
    out: list[Term] = []
    for s, i in zip(sorts, idx, strict=True):
        t = lift(i, s.type) if isinstance(i, str) else lift(i)
        if t.type != s.type:
            raise _err(f"type mismatch: '{name}' is indexed by {s.name}, got {ir.type_name(t.type)}")
        out.append(t)
    return tuple(out)


def _select(table: Mapping[tuple[str, ...], Expr], sorts: tuple[Sort, ...], idx: tuple[Term, ...]) -> Expr:
    """Read ``table`` at possibly symbolic indices (an if-then-else chain)."""
    consts = [t.expr for t in idx if isinstance(t.expr, ir.Const)]
    if len(consts) == len(idx):
        return table[tuple(str(c.value) for c in consts)]
    keys = list(itertools.product(*(s.type.values for s in sorts)))
    result = table[keys[-1]]
    for key in reversed(keys[:-1]):
        cond = ir.and_(*(ir.eq(t.expr, ir.Const(k, s.type)) for t, k, s in zip(idx, key, sorts, strict=True)))
        result = ir.ite(cond, table[key], result)
    return result


class Array(Term):
    """Something indexed by sorts: index it (``a[x]``, ``a[x, y]``) to get a term.

    An array is a :class:`Term` only so that ``m.v.<name>`` has one type for
    every declaration: used where a value is needed it is an error naming the
    model's line ("index it"), like every other misuse the model's types catch.
    """

    __slots__ = ("_name", "_type", "index")

    def __init__(self, name: str, t: Type, index: tuple[Sort, ...]) -> None:  # no expr: an array is not a value
        self._name = name
        self._type = t
        self.index = index

    @property
    def name(self) -> str:
        return self._name

    @property
    def type(self) -> Type:
        """The type of each entry."""
        return self._type

    @property
    def expr(self) -> Expr:  # type: ignore[override]
        raise self.not_a_value()

    @property
    def label(self) -> str:
        raise self.not_a_value()

    def not_a_value(self) -> InputError:
        """The error for an array used where a value is needed."""
        if not self.index:
            return _err(f"'{self.name}' takes no index: write {self.name}[()]")
        idx = ", ".join(s.name for s in self.index)
        example = ", ".join(s.name[0].lower() for s in self.index)
        return _err(f"'{self.name}' is an array over {idx}: index it, as in {self.name}[{example}]")

    def __getitem__(self, idx: Index) -> Term:
        raise NotImplementedError  # pragma: no cover (every array defines it)

    def __iter__(self) -> Iterator[Term]:
        raise _err(f"'{self.name}' is an array: iterate over its index sort instead")

    def __str__(self) -> str:
        return self.name

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.name})"


class VarArray(Array):
    """A declared state variable (scalar when ``index`` is empty): each entry is a :class:`Cell`."""

    __slots__ = ("model", "loc", "cells")

    def __init__(self, model: Model, name: str, t: Type, index: tuple[Sort, ...], loc: SourceLoc | None) -> None:
        super().__init__(name, t, index)
        self.model = model
        self.loc = loc
        self.cells: dict[tuple[str, ...], ir.Var] = {}
        for key in itertools.product(*(s.type.values for s in index)):
            gname = f"{name}[{','.join(key)}]" if key else name
            self.cells[key] = ir.Var(gname, t)

    def __getitem__(self, idx: Index) -> Cell:
        terms = _check_indices(self.name, self.index, idx)
        return Cell(_select(self.cells, self.index, terms), self, terms)


class StaticArray(Array):
    """Static scenario data (cost, STR, owner...): read-only, known per element."""

    __slots__ = ("table",)

    def __init__(self, name: str, t: Type, index: tuple[Sort, ...], table: dict[tuple[str, ...], Expr]) -> None:
        super().__init__(name, t, index)
        self.table = table

    def __getitem__(self, idx: Index) -> Term:
        terms = _check_indices(self.name, self.index, idx)
        return Term(_select(self.table, self.index, terms))

    def value(self, *key: str) -> Value:
        """The concrete value at element names ``key``."""
        e = self.table[tuple(key)]
        assert isinstance(e, ir.Const)
        return e.value


class ChoiceArray(Array):
    """Choices indexed by a sort (e.g. which characters to kill): see :meth:`Step.choose`."""

    __slots__ = ("cells",)

    def __init__(self, name: str, t: Type, index: Sort, cells: dict[str, Term]) -> None:
        super().__init__(name, t, (index,))
        self.cells = cells

    def __getitem__(self, idx: Index) -> Term:
        terms = _check_indices(self.name, self.index, idx)
        return Term(_select({(k,): v.expr for k, v in self.cells.items()}, self.index, terms))


# --------------------------------------------------------------------------- actions


class Step:
    """What an action body builds: guard, choices and updates of one ground action."""

    def __init__(self, model: Model, family: str) -> None:
        self._model = model
        self._family = family
        self.guard: list[Expr] = []
        self.requires: list[ir.Requirement] = []
        self.choices: dict[str, ir.ChoiceVar] = {}
        self.updates: dict[str, Expr] = {}
        self.writes: list[ir.Write] = []
        self._order: list[str] = []
        self._site = 0
        # edits of the built model (rule mutants, see Model.drop_require and friends)
        self._require_edits: list[_RequireEdit] = []
        self._dropped_sets: list[_SetEdit] = []
        self._precedence = ""

    def require(self, *conds: Operand) -> None:
        """The action is enabled only when every one of ``conds`` holds (choices included)."""
        if not conds:
            raise _err("require needs at least one condition")
        f = sys._getframe(1)  # the line that states the requirement (in the model, or in a generator)
        where = SourceLoc(_display(f.f_code.co_filename, os.getcwd()), f.f_lineno)
        for cond in conds:
            t = lift(cond)
            _need_bool(t, "require")
            e = t.expr
            for edit in self._require_edits:
                e = edit.apply(e)
            self.guard.append(e)
            self.requires.append(ir.Requirement(e, where))

    @overload
    def choose(self, name: str, t: Type | Sort, index: None = None) -> Term: ...

    @overload
    def choose(self, name: str, t: Type | Sort, index: Sort) -> ChoiceArray: ...

    def choose(self, name: str, t: Type | Sort, index: Sort | None = None) -> Term | ChoiceArray:
        """A value the acting player picks at this step (one per ``index`` element: an array of choices)."""
        tt = t.type if isinstance(t, Sort) else t
        if not isinstance(tt, (BoolT, IntT, EnumT)):
            raise _err(f"choice '{name}' needs a type (Bool, Int(lo, hi) or a sort)")
        if index is None:
            if name in self.choices:
                raise _err(f"choice '{name}' is declared twice in action '{self._family}'")
            self.choices[name] = ir.ChoiceVar(name, tt, name)
            return Term(ir.Choice(name, tt))
        out: dict[str, Term] = {}
        for el in index.type.values:
            cname = f"{name}[{el}]"
            if cname in self.choices:
                raise _err(f"choice '{name}' is declared twice in action '{self._family}'")
            self.choices[cname] = ir.ChoiceVar(cname, tt, f"{name}[{index.type.label(el)}]")
            out[el] = Term(ir.Choice(cname, tt))
        return ChoiceArray(name, tt, index, out)

    def choice(self, name: str) -> Term:
        """A choice this step already declared (e.g. for an :meth:`Model.amend` edit of the body)."""
        if name not in self.choices:
            raise _err(f"action '{self._family}' has no choice '{name}'{_suggest(name, self.choices)}")
        c = self.choices[name]
        return Term(ir.Choice(c.name, c.type))

    def set(self, target: Term, value: Operand, when: Operand | None = None, precedence: str = "") -> None:
        """``target' = value`` (read in the pre-state); later ``set``s of a cell win.

        Two ``set``s of one cell that can both apply with different values
        are an ambiguity the determinism check reports, unless the later one
        states in ``precedence`` the rule that makes it win (a documented
        tie-break, e.g. "the most recently applied set modifier wins").
        """
        if isinstance(target, VarArray):
            if target.index:
                raise _err(f"'{target.name}' is an array: assign to one entry, e.g. {target.name}[x]")
            target = target[()]
        if isinstance(target, Term) and not isinstance(target, Cell):
            what = target.name if isinstance(target, Array) else str(target)
            raise _err(f"cannot assign to '{what}': only state variables can change (static data is fixed)")
        if not isinstance(target, Cell):
            raise _err(f"cannot assign to {target!r}")
        arr = target.array
        precedence = precedence or self._precedence
        for drop in self._dropped_sets:
            if drop.array == arr.name:
                drop.hits += 1
                return
        v = lift(value, arr.type) if isinstance(value, str) else lift(value)
        if not ir.same_kind(v.type, arr.type):
            raise _err(
                f"type mismatch: cannot assign {ir.type_name(v.type)} to '{arr.name}' of type {ir.type_name(arr.type)}"
            )
        if isinstance(arr.type, IntT) and isinstance(v.expr, ir.Const):
            if not arr.type.lo <= int(v.expr.value) <= arr.type.hi:
                raise _err(f"constant {v.expr.value} is outside the range {arr.type.lo}..{arr.type.hi} of '{arr.name}'")
        cond: Expr = ir.TRUE
        if when is not None:
            w = lift(when)
            _need_bool(w, "when=")
            cond = w.expr
        idx = target.indices
        self._site += 1
        loc = user_loc()
        # each index is compared with each of its values once, not once per cell (a set on one card of a big array
        # built the same comparisons for every cell); a cell that some index cannot match is skipped, as the
        # conjunction of its comparisons is false
        eqs: list[dict[str, Expr]] = [{} for _ in idx]

        def compare(i: int, t: Term, k: str, s: Sort) -> Expr:
            e = eqs[i].get(k)
            if e is None:
                e = eqs[i][k] = ir.eq(t.expr, ir.Const(k, s.type))
            return e

        for key, var in arr.cells.items():
            parts = [compare(i, t, k, s) for i, (t, k, s) in enumerate(zip(idx, key, arr.index, strict=True))]
            if ir.FALSE in parts:
                continue
            c = ir.and_(cond, ir.and_(*parts))
            if c == ir.FALSE:
                continue
            self.writes.append(ir.Write(var.name, c, v.expr, self._site, precedence, loc))
            prev = self.updates.get(var.name, var)
            self.updates[var.name] = ir.ite(c, v.expr, prev)
            if var.name not in self._order:
                self._order.append(var.name)


@dataclass
class _RequireEdit:
    """Drop (or replace) one precondition of a family's ground actions: the conjuncts ``find()`` gives.

    ``find`` and ``replace`` are read when the body states its first precondition, so they may read
    the step's choices (declared before).
    """

    find: Callable[[], Expr]
    replace: Callable[[], Expr | None]
    hits: list[int]
    _terms: tuple[tuple[Expr, ...], Expr | None] | None = None

    def apply(self, e: Expr) -> Expr:
        if self._terms is None:
            self._terms = (ir.conjuncts(self.find()), self.replace())
        find, replace = self._terms
        cs = list(ir.conjuncts(e))
        if not find or any(x not in cs for x in find):
            return e
        at = cs.index(find[0])
        kept = [x for x in cs if x not in find]
        if replace is not None:
            kept.insert(min(at, len(kept)), replace)
        self.hits[0] += 1
        return ir.and_(*kept)


@dataclass
class _SetEdit:
    """Ignore every ``set`` of state array ``array`` in a family's body."""

    array: str
    hits: int = 0


@dataclass
class _ActionDecl:
    """What ``@m.action`` declared: enough to ground the family again after an edit."""

    params: tuple["Sort", ...]
    body: Callable[..., None]
    describe: str | Callable[..., str] | None
    cites: tuple[str, ...]
    loc: SourceLoc | None
    pnames: tuple[str, ...]
    where: Callable[..., Operand] | None = None
    distinct: bool = False


MUTANT_PRECEDENCE = "a deliberately broken rule (a rule mutant) overrides the rule"
"""The precedence an :meth:`Model.amend` edit states for its writes (the determinism check accepts them)."""


class Transition:
    """A view of one ground step for action properties: pre, post and choices."""

    def __init__(self, action: ir.Action) -> None:
        self._action = action

    def pre(self, t: Operand) -> Term:
        return lift(t)

    def post(self, t: Operand) -> Term:
        """``t`` read in the state after the step.

        The whole expression is read after the step, indices included:
        ``t.post(x[i])`` with a state-dependent ``i`` reads ``i`` after the step
        too.  Quantify over the index sort (``ForAll``) to pin an index to its
        pre-state value.
        """
        return Term(_prime(lift(t).expr))

    def choice(self, name: str) -> Term:
        for c in self._action.choices:
            if c.name == name:
                return Term(ir.Choice(c.name, c.type))
        raise _err(
            f"action '{self._action.family}' has no choice '{name}'"
            f"{_suggest(name, [c.name for c in self._action.choices])}"
        )


_prime = ir.prime


_D = TypeVar("_D")
_Body = TypeVar("_Body", bound=Callable[..., None])


class _Names(Generic[_D]):
    """Attribute access to a model's declarations with helpful errors (``m.v.gold``, ``m.sorts.Player``)."""

    def __init__(self, kind: str, table: Mapping[str, _D]) -> None:
        object.__setattr__(self, "_kind", kind)
        object.__setattr__(self, "_table", table)

    def __getattr__(self, name: str) -> _D:
        table: Mapping[str, _D] = object.__getattribute__(self, "_table")
        if name in table:
            return table[name]
        kind = object.__getattribute__(self, "_kind")
        raise _err(f"unknown {kind} '{name}'{_suggest(name, table)}")

    def __getitem__(self, name: str) -> _D:
        return self.__getattr__(name)


# --------------------------------------------------------------------------- the model


def _grounded(
    fam: str,
    params: tuple[Sort, ...],
    combo: tuple[Term, ...],
    where: Callable[..., Operand] | None,
    distinct: bool,
    loc: SourceLoc | None,
) -> bool:
    """Whether an action family is grounded for this parameter tuple (``where=``, ``distinct=``)."""
    if distinct:
        seen: set[tuple[str, str]] = set()
        for p, c in zip(params, combo, strict=True):
            key = (p.name, c.name)
            if key in seen:
                return False
            seen.add(key)
    if where is None:
        return True
    t = lift(where(*combo))
    if not isinstance(t.type, BoolT):
        raise InputError(f"where= of action '{fam}' must give a Bool, got {ir.type_name(t.type)}", loc)
    if not isinstance(t.expr, ir.Const):
        raise InputError(f"where= of action '{fam}' may read only the parameters and static data, not state", loc)
    return bool(t.expr.value)


class Model:
    """A rules model under construction; :meth:`finish` grounds it into an IR system."""

    def __init__(self, name: str, doc: str = "", scenario: str = "default") -> None:
        self.name = name
        self.doc = doc
        self.scenario = scenario
        self.params: dict[str, Any] = {}
        loc = user_loc()
        self.file = loc.file if loc else ""
        self._sorts: dict[str, Sort] = {}
        self._vars: dict[str, VarArray] = {}
        self._statics: dict[str, StaticArray] = {}
        self._init: dict[str, tuple[Value, ...]] = {}
        self._init_constraints: list[Expr] = []
        self._actions: list[ir.Action] = []
        self._families: dict[str, SourceLoc | None] = {}
        self._family_sorts: dict[str, tuple[Sort, ...]] = {}
        self._decls: dict[str, _ActionDecl] = {}
        self._props: list[ir.Property] = []
        self._ends: list[tuple[Expr, tuple[str, ...]]] = []
        self._declared: list[Declared] = []
        self._resolutions: list[Resolution] = []
        self._skipped: list[tuple[str, str]] = []
        self._covers: list[tuple[str, Expr]] = []
        self._hidden: set[str] = set()
        self._shown: dict[str, Callable[..., Operand]] = {}
        self.consistency_checks = True
        self._names: dict[str, Term] = {}
        self.v: _Names[Term] = _Names("variable or static data", self._names)
        """Variables and static data by name: a scalar variable is a :class:`Cell`, the rest are arrays."""
        self.statics: _Names[StaticArray] = _Names("static data", self._statics)
        """Static data by name, for reading its values while the model is built (``m.statics.cost.value("c1")``)."""
        self.sorts: _Names[Sort] = _Names("sort", self._sorts)

    def _declare(self, name: str) -> None:
        if not name.isidentifier():
            raise _err(f"'{name}' is not a valid name")
        if name in self._names or name in self._sorts:
            raise _err(f"'{name}' is declared twice")

    # declarations ------------------------------------------------------------
    def sort(self, name: str, values: Sequence[str] | int, labels: Sequence[str] | None = None) -> Sort:
        """A finite sort; ``values`` may be a count (``c1..cN``)."""
        self._declare(name)
        if isinstance(values, int):
            vals = tuple(f"{name[0].lower()}{i}" for i in range(1, values + 1))
        else:
            vals = tuple(values)
        if not vals:
            raise _err(f"sort '{name}' is empty")
        if len(set(vals)) != len(vals):
            raise _err(f"sort '{name}' lists a value twice")
        for v in vals:
            if not v.isidentifier():
                raise _err(f"'{v}' is not a valid value name for sort '{name}'")
        labs = tuple(labels) if labels is not None else ()
        if labs and len(labs) != len(vals):
            raise _err(f"sort '{name}' has {len(vals)} values but {len(labs)} labels")
        s = Sort(EnumT(name, vals, labs))
        self._sorts[name] = s
        return s

    enum = sort

    @overload
    def var(
        self,
        name: str,
        t: Type | Sort,
        index: Sort | Sequence[Sort],
        init: InitValue | Callable[..., InitValue] | None = None,
        observable: bool | Callable[..., Operand] = True,
    ) -> VarArray: ...

    @overload
    def var(self, name: str, t: Type | Sort, *, init: InitValue | None = None,
            observable: bool | Callable[..., Operand] = True) -> Cell: ...

    def var(
        self,
        name: str,
        t: Type | Sort,
        index: Sort | Sequence[Sort] = (),
        init: InitValue | Callable[..., InitValue] | None = None,
        observable: bool | Callable[..., Operand] = True,
    ) -> Cell | VarArray:
        """A state variable: a :class:`Cell`, or an array of them over the ``index`` sorts.

        ``init`` is its initial value (a constant, ``Range(lo, hi)`` or ``OneOf(...)``); for an
        array it may be a function of the index elements.

        ``observable=False`` marks bookkeeping (a stage flag, a record of what
        an action did, a ghost): not part of what the game shows, so mutation
        testing does not require a mutant to agree with the rules on it.  A
        function returning a condition (``lambda: stage != "idle"``, read once
        every variable is declared) makes it observable only where that holds;
        for an array, a function of its indices (``lambda k: step[k] != "idle"``)
        gives each cell its own condition.
        """
        self._declare(name)
        tt = t.type if isinstance(t, Sort) else t
        if not isinstance(tt, (BoolT, IntT, EnumT)):
            raise _err(f"variable '{name}' needs a type (Bool, Int(lo, hi) or a sort)")
        idx = (index,) if isinstance(index, Sort) else tuple(index)
        arr = VarArray(self, name, tt, idx, user_loc())
        if callable(observable):
            self._shown[name] = observable
        elif not observable:
            self._hidden.add(name)
        self._vars[name] = arr
        declared = arr if idx else arr[()]
        self._names[name] = declared
        if init is None:
            raise _err(f"variable '{name}' needs an initial value: init=value, Range(lo, hi) or OneOf(...)")
        for key, var in arr.cells.items():
            spec = init(*(Term(ir.Const(k, s.type)) for k, s in zip(key, idx, strict=True))) if callable(init) else init
            self._init[var.name] = self._init_values(name, tt, spec)
        return declared

    def _init_values(self, name: str, t: Type, spec: InitValue) -> tuple[Value, ...]:
        vals: tuple[int | bool | str | Term, ...]
        if isinstance(spec, Range):
            vals = tuple(range(spec.lo, spec.hi + 1))
        elif isinstance(spec, OneOf):
            vals = spec.values
        else:
            vals = (spec,)
        out: list[Value] = []
        for v in vals:
            if isinstance(v, Term):
                if not isinstance(v.expr, ir.Const):
                    raise _err(f"the initial value of '{name}' must be a constant")
                v = v.expr.value
            if isinstance(t, IntT):
                if isinstance(v, bool) or not isinstance(v, int):
                    raise _err(f"type mismatch: initial value {v!r} of '{name}' is not an Int")
                if not t.lo <= v <= t.hi:
                    raise _err(f"initial value {v} of '{name}' is outside its range {t.lo}..{t.hi}")
            elif isinstance(t, BoolT):
                if not isinstance(v, bool):
                    raise _err(f"type mismatch: initial value {v!r} of '{name}' is not a Bool")
            elif v not in t.values:
                raise _err(f"'{v}' is not a value of {t.name}{_suggest(str(v), t.values)}")
            out.append(v)
        if not out:
            raise _err(f"'{name}' has no initial value")
        return tuple(out)

    def static(
        self,
        name: str,
        t: Type | Sort,
        index: Sort | Sequence[Sort],
        values: Mapping[Any, InitValue] | Callable[..., InitValue],
    ) -> StaticArray:
        """Static scenario data: ``values`` is a dict by element name(s) or a function of the elements."""
        self._declare(name)
        tt = t.type if isinstance(t, Sort) else t
        idx = (index,) if isinstance(index, Sort) else tuple(index)
        table: dict[tuple[str, ...], Expr] = {}
        for key in itertools.product(*(s.type.values for s in idx)):
            if callable(values):
                raw = values(*(Term(ir.Const(k, s.type)) for k, s in zip(key, idx, strict=True)))
            else:
                k1: str | tuple[str, ...] = key[0] if len(key) == 1 else key
                if k1 not in values:
                    raise _err(f"static '{name}' has no value for {k1!r}")
                raw = values[k1]
            (val,) = self._init_values(name, tt, raw)
            table[key] = ir.Const(val, tt)
        arr = StaticArray(name, tt, idx, table)
        self._statics[name] = arr
        self._names[name] = arr
        return arr

    def init_constraint(self, cond: Operand) -> None:
        """An extra constraint on initial states (over declared variables)."""
        t = lift(cond)
        _need_bool(t, "init_constraint")
        self._init_constraints.append(t.expr)

    def action(
        self,
        *params: Sort,
        name: str | None = None,
        describe: str | Callable[..., str] | None = None,
        cites: Sequence[str] = (),
        where: Callable[..., Operand] | None = None,
        distinct: bool = False,
    ) -> Callable[[_Body], _Body]:
        """Declare a guarded action family, grounded over ``params``.

        ``where(*params)``: only the parameter tuples it holds for are grounded (it may read
        the parameters and static data, not state). ``distinct=True``: parameters of the same
        sort take different values (an attacker is never its own defender).
        """
        loc = user_loc()

        def deco(fn: _Body) -> _Body:
            fam = name or fn.__name__
            if fam in self._families:
                raise InputError(f"action '{fam}' is declared twice", loc)
            if any(p.kind is PropKind.ACTION and not p.family for p in self._props):
                raise InputError(f"action '{fam}' is declared after a step property: declare the actions first", loc)
            self._families[fam] = loc
            self._family_sorts[fam] = params
            pnames = fn.__code__.co_varnames[1 : 1 + len(params)]
            if len(pnames) != len(params) or fn.__code__.co_argcount != len(params) + 1:
                sorts = ", ".join(p.name for p in params)
                raise InputError(
                    f"action '{fam}' takes the step and {len(params)} parameter(s) ({sorts})",
                    loc,
                )
            decl = _ActionDecl(tuple(params), fn, describe, tuple(cites), loc, tuple(pnames), where, distinct)
            self._decls[fam] = decl
            self._actions.extend(self._ground(fam, decl))
            return fn

        return deco

    def _ground(self, fam: str, decl: _ActionDecl) -> list[ir.Action]:
        """The ground actions of family ``fam``: its body run once per parameter tuple."""
        out: list[ir.Action] = []
        for combo in itertools.product(*(list(p) for p in decl.params)):
            if not _grounded(fam, decl.params, combo, decl.where, decl.distinct, decl.loc):
                continue
            step = Step(self, fam)
            decl.body(step, *combo)
            guard = ir.and_(*step.guard)
            if guard == ir.FALSE:
                continue
            label = f"{fam}({', '.join(c.name for c in combo)})" if combo else fam
            out.append(
                ir.Action(
                    family=fam,
                    params=tuple((pn, c.name) for pn, c in zip(decl.pnames, combo, strict=True)),
                    label=label,
                    guard=guard,
                    choices=tuple(step.choices.values()),
                    updates=tuple(ir.Update(v, step.updates[v]) for v in step._order),
                    description=_describe(decl.describe, fam, decl.pnames, combo),
                    cites=decl.cites,
                    param_labels=tuple(c.label for c in combo),
                    loc=decl.loc,
                    writes=tuple(step.writes),
                    requires=tuple(step.requires),
                )
            )
        return out

    # edits of the built model (deliberately broken rules) ---------------------
    def _edit(self, family: str, body: Callable[..., None]) -> None:
        """Ground ``family`` again with ``body``, in the place its actions had."""
        if family not in self._decls:
            raise _err(f"cannot edit unknown action '{family}'{_suggest(family, self._decls)}")
        if any(p.kind is PropKind.ACTION and p.family in (family, "") for p in self._props):
            raise _err(f"action '{family}' is edited after a property over it was declared: edit the model first")
        decl = self._decls[family]
        decl.body = body
        new = self._ground(family, decl)
        before = next((i for i, a in enumerate(self._actions) if a.family == family), len(self._actions))
        kept = [a for a in self._actions if a.family != family]
        k = sum(1 for a in self._actions[:before] if a.family != family)
        self._actions = kept[:k] + new + kept[k:]

    def _params_of(self, family: str) -> int:
        if family not in self._decls:
            raise _err(f"cannot edit unknown action '{family}'{_suggest(family, self._decls)}")
        return len(self._decls[family].params)

    def redefine(self, family: str) -> Callable[[Callable[..., None]], Callable[..., None]]:
        """Replace the body of action ``family`` (same parameters) with the decorated one."""
        n = self._params_of(family)

        def deco(fn: Callable[..., None]) -> Callable[..., None]:
            if fn.__code__.co_argcount != n + 1:
                raise _err(f"a new body of action '{family}' takes the step and {n} parameter(s)")
            self._edit(family, fn)
            return fn

        return deco

    def amend(self, family: str) -> Callable[[Callable[..., None]], Callable[..., None]]:
        """Run the decorated body after the body of action ``family``: more preconditions, later writes.

        Its writes win over the rule's (a later ``set`` of a cell wins) and state
        :data:`MUTANT_PRECEDENCE`, so the determinism check accepts them.
        """
        n = self._params_of(family)
        prev = self._decls[family].body

        def deco(fn: Callable[..., None]) -> Callable[..., None]:
            if fn.__code__.co_argcount != n + 1:
                raise _err(f"an amendment of action '{family}' takes the step and {n} parameter(s)")

            def body(a: Step, *ps: Term) -> None:
                prev(a, *ps)
                saved, a._precedence = a._precedence, MUTANT_PRECEDENCE
                try:
                    fn(a, *ps)
                finally:
                    a._precedence = saved

            self._edit(family, body)
            return fn

        return deco

    def drop_require(self, family: str, cond: Callable[..., Operand]) -> None:
        """Remove the precondition ``cond(*params)`` (all its conjuncts) from action ``family``.

        ``cond`` may also take the step first, ``cond(a, *params)``, to name the step's choices
        (``a.choice("to")``).
        """
        self._replace_require(family, cond, None)

    def replace_require(self, family: str, cond: Callable[..., Operand], new: Callable[..., Operand]) -> None:
        """Replace the precondition ``cond(*params)`` of action ``family`` with ``new(*params)``."""
        self._replace_require(family, cond, new)

    def _replace_require(self, family: str, cond: Callable[..., Operand], new: Callable[..., Operand] | None) -> None:
        n_params = self._params_of(family)
        prev = self._decls[family].body
        hits = [0]

        def call(fn: Callable[..., Operand], a: Step, ps: tuple[Term, ...], what: str) -> Expr:
            # fn(*params), or fn(step, *params) to read the step's choices (a.choice(name))
            t = lift(fn(a, *ps) if fn.__code__.co_argcount == n_params + 1 else fn(*ps))
            _need_bool(t, what)
            return t.expr

        def body(a: Step, *ps: Term) -> None:
            a._require_edits.append(
                _RequireEdit(
                    lambda: call(cond, a, ps, f"the precondition of '{family}' to edit"),
                    lambda: None if new is None else call(new, a, ps, f"the new precondition of '{family}'"),
                    hits,
                )
            )
            prev(a, *ps)

        self._edit(family, body)
        if not hits[0]:
            raise _err(f"action '{family}' has no such precondition to edit")

    def drop_set(self, family: str, array: str) -> None:
        """Action ``family`` no longer changes state array ``array`` (every ``set`` of it is ignored)."""
        self._params_of(family)
        if array not in self._vars:
            raise _err(f"unknown variable '{array}'{_suggest(array, self._vars)}")
        prev = self._decls[family].body
        edits: list[_SetEdit] = []

        def body(a: Step, *ps: Term) -> None:
            e = _SetEdit(array)
            edits.append(e)
            a._dropped_sets.append(e)
            prev(a, *ps)

        self._edit(family, body)
        if not any(e.hits for e in edits):
            raise _err(f"action '{family}' never sets '{array}'")

    def drop_declaration(self, kind: str, outcome: str) -> None:
        """Remove the ``must``, ``cannot`` or ``resolve`` declarations of ``outcome``."""
        if kind == "resolve":
            before = len(self._resolutions)
            self._resolutions = [r for r in self._resolutions if r.outcome != outcome]
            gone = before - len(self._resolutions)
        elif kind in ("must", "cannot"):
            before = len(self._declared)
            self._declared = [d for d in self._declared if not (d.kind == kind and d.outcome == outcome)]
            gone = before - len(self._declared)
        else:
            raise _err(f"drop_declaration takes 'must', 'cannot' or 'resolve', got {kind!r}")
        if not gone:
            raise _err(f"no '{kind}' declaration of '{outcome}' to drop")

    # properties --------------------------------------------------------------
    def _check_prop_name(self, name: str) -> None:
        if any(p.name == name for p in self._props):
            raise _err(f"property '{name}' is declared twice")

    def invariant(
        self, name: str, cond: Operand | Callable[[], Operand], cites: Sequence[str] = (), doc: str = ""
    ) -> None:
        """A property of every reachable state."""
        self._check_prop_name(name)
        t = lift(cond() if callable(cond) else cond)
        _need_bool(t, f"invariant '{name}'")
        self._props.append(ir.Property(name, PropKind.INVARIANT, t.expr, tuple(cites), doc, loc=user_loc()))

    def reachable(self, name: str, cond: Operand, cites: Sequence[str] = (), doc: str = "") -> None:
        """A sanity target: some reachable state satisfies ``cond``."""
        self._check_prop_name(name)
        t = lift(cond)
        _need_bool(t, f"reachable '{name}'")
        self._props.append(ir.Property(name, PropKind.REACH, t.expr, tuple(cites), doc, loc=user_loc()))

    def action_property(
        self,
        name: str,
        family: str,
        cond: Callable[..., Operand],
        cites: Sequence[str] = (),
        doc: str = "",
    ) -> None:
        """A pre/post property of every step of action ``family``: ``cond(t, *params)``."""
        self._check_prop_name(name)
        if family not in self._families:
            raise _err(f"property '{name}' names an unknown action '{family}'{_suggest(family, self._families)}")
        conds: list[tuple[str, Expr]] = []
        sorts = self._family_sorts[family]
        for a in self._actions:
            if a.family != family:
                continue
            args = [Term(ir.Const(v, s.type)) for (_pn, v), s in zip(a.params, sorts, strict=True)]
            t = lift(cond(Transition(a), *args))
            _need_bool(t, f"action property '{name}'")
            conds.append((a.label, t.expr))
        self._props.append(
            ir.Property(name, PropKind.ACTION, ir.TRUE, tuple(cites), doc, family=family, conds=tuple(conds),
                        loc=user_loc())
        )

    def step_property(self, name: str, cond: Callable[[Transition], Operand], cites: Sequence[str] = (),
                      doc: str = "") -> None:
        """A pre/post property of every step of every action: ``cond(t)``.

        For a rule about what a step does to the game (a card entering play, gold leaving a pool) whichever
        action takes it: it does not name the action, so it also constrains an action a mutant adds or renames.
        """
        self._check_prop_name(name)
        conds: list[tuple[str, Expr]] = []
        for a in self._actions:
            t = lift(cond(Transition(a)))
            _need_bool(t, f"step property '{name}'")
            conds.append((a.label, t.expr))
        self._props.append(
            ir.Property(name, PropKind.ACTION, ir.TRUE, tuple(cites), doc, family="", conds=tuple(conds),
                        loc=user_loc())
        )

    def enabled(self, family: str, *params: Any, choosing: dict[str, Operand] | None = None) -> Term:
        """"Action ``family`` (with these parameters) can be taken now": its guard, for some choices.

        For properties that state an option the rules give ("a player *may* ...": the step is possible)
        rather than what a step does.  ``choosing`` fixes some of the step's choices (the option to take the
        effect, or to decline it); the others may be anything.
        """
        from .consistency import enabled_expr

        if family not in self._families:
            raise _err(f"unknown action '{family}'{_suggest(family, self._families)}")
        names = [p.name if isinstance(p, Term) else str(p) for p in params]
        out: list[Expr] = []
        for a in self._actions:
            if a.family != family or [v for _, v in a.params][: len(names)] != names:
                continue
            fixed: dict[str, Expr] = {}
            for k, val in (choosing or {}).items():
                ch = next((c for c in a.choices if c.name == k), None)
                if ch is None:
                    raise _err(f"action '{family}' has no choice '{k}'{_suggest(k, [c.name for c in a.choices])}")
                fixed[k] = lift(val, ch.type).expr
            guard = ir.substitute(a.guard, fixed) if fixed else a.guard
            rest = tuple(c for c in a.choices if c.name not in fixed)
            out.append(enabled_expr(replace(a, guard=guard, choices=rest)))
        return Term(ir.or_(*out))

    # consistency declarations -----------------------------------------------
    def game_end(self, cond: Operand, cites: Sequence[str] = (), doc: str = "") -> None:
        """States where the game (or the bounded scenario) is over: no action needs to be enabled there."""
        t = lift(cond)
        _need_bool(t, "game_end")
        self._ends.append((t.expr, tuple(cites)))

    def _per_element(self, what: str, over: Sort | None, fn: Callable[..., Operand]) -> tuple[tuple[str, Expr], ...]:
        out: list[tuple[str, Expr]] = []
        elems = [("", ())] if over is None else [(x.name, (x,)) for x in over]
        for key, args in elems:
            t = lift(fn(*args))
            _need_bool(t, what)
            out.append((key, t.expr))
        return tuple(out)

    def must(self, outcome: str, over: Sort | None, obliged: Callable[..., Operand], cites: Sequence[str] = (),
             doc: str = "") -> None:
        """A rule obliges ``outcome`` (for each element of ``over``) in states where ``obliged`` holds."""
        from .consistency import Declared

        self._declared.append(Declared(outcome, "must", self._per_element(f"must '{outcome}'", over, obliged),
                                       tuple(cites), doc, user_loc()))

    def cannot(self, outcome: str, over: Sort | None, forbidden: Callable[..., Operand], cites: Sequence[str] = (),
               doc: str = "") -> None:
        """An absolute prohibition of ``outcome`` (for each element of ``over``) where ``forbidden`` holds."""
        from .consistency import Declared

        self._declared.append(Declared(outcome, "cannot", self._per_element(f"cannot '{outcome}'", over, forbidden),
                                       tuple(cites), doc, user_loc()))

    def resolve(self, outcome: str, over: Sort | None, wins: str, happened: Callable[..., Operand],
                cites: Sequence[str] = (), doc: str = "") -> None:
        """Which of "must" and "cannot" wins for ``outcome``; ``happened`` says the outcome has come about."""
        from .consistency import Resolution

        if wins not in ("must", "cannot"):
            raise _err(f"resolve('{outcome}') takes wins='must' or wins='cannot', got {wins!r}")
        hap = self._per_element(f"resolve '{outcome}'", over, happened)
        self._resolutions.append(Resolution(outcome, wins, tuple((k, e, _prime(e)) for k, e in hap), tuple(cites), doc,
                                            user_loc()))

    def observable_where(self, name: str, cond: Callable[..., Operand]) -> None:
        """Make a declared variable observable only where ``cond`` holds, as ``var(..., observable=cond)`` does.

        For a variable a generator declared: ``cond`` takes no argument, or one per index of the array.
        """
        if name not in self._vars:
            raise _err(f"unknown variable '{name}'{_suggest(name, self._vars)}")
        self._hidden.discard(name)
        self._shown[name] = cond

    def bookkeeping(self, *names: str) -> None:
        """Mark declared variables as bookkeeping, as ``var(..., observable=False)`` does (e.g. a generator's)."""
        for n in names:
            if n not in self._vars:
                raise _err(f"unknown variable '{n}'{_suggest(n, self._vars)}")
            self._hidden.add(n)

    def cover(self, name: str, cond: Operand) -> None:
        """A coverage point: ``ruleproof check --coverage`` reports whether some state within the bound has ``cond``."""
        t = lift(cond)
        _need_bool(t, f"cover '{name}'")
        if any(n == name for n, _ in self._covers):
            raise _err(f"coverage point '{name}' is declared twice")
        self._covers.append((name, t.expr))

    def skip_check(self, check: str, reason: str) -> None:
        """Switch a consistency check off for this model, saying why (shown in the module's docs)."""
        from .consistency import CHECKS

        if check not in CHECKS:
            raise _err(f"unknown consistency check '{check}'{_suggest(check, CHECKS)}")
        if not reason.strip():
            raise _err(f"skip_check('{check}') needs a reason")
        self._skipped.append((check, reason))

    # grounding ---------------------------------------------------------------
    def finish(self) -> ir.System:
        """Ground the model into an :class:`ir.System`."""
        svars: list[ir.StateVar] = []
        for arr in self._vars.values():
            cond = self._shown.get(arr.name)
            per_cell = cond is not None and arr.index and _arity(cond) == len(arr.index)
            shown = None
            if cond is not None and not per_cell:
                t = lift(cond())
                _need_bool(t, f"observable= of '{arr.name}'")
                shown = t.expr
            for key, var in arr.cells.items():
                if cond is not None and per_cell:
                    t = lift(cond(*(Term(ir.Const(k, s.type)) for k, s in zip(key, arr.index, strict=True))))
                    _need_bool(t, f"observable= of '{arr.name}'")
                    shown = t.expr
                labels = [s.type.label(k) for s, k in zip(arr.index, key, strict=True)]
                label = f"{arr.name}[{', '.join(labels)}]" if key else arr.name
                svars.append(ir.StateVar(var.name, arr.type, arr.name, key, label, arr.loc,
                                         arr.name not in self._hidden, shown))
        if not svars:
            raise InputError(f"model '{self.name}' declares no state variable",
                             SourceLoc(self.file) if self.file else None)
        props = list(self._props)
        bounds = [
            ir.and_(ir.le(ir.const(v.type.lo), ir.Var(v.name, v.type)),
                    ir.le(ir.Var(v.name, v.type), ir.const(v.type.hi)))
            for v in svars
            if isinstance(v.type, IntT)
        ]
        if bounds:
            props.append(
                ir.Property(
                    "state stays within declared ranges",
                    PropKind.INVARIANT,
                    ir.and_(*bounds),
                    (),
                    "Every Int variable stays within the range its declaration gives.",
                    builtin=True,
                )
            )
        if self.consistency_checks:
            from .consistency import Consistency, consistency_properties

            decl = Consistency(tuple(self._ends), tuple(self._declared), tuple(self._resolutions), tuple(self._skipped))
            props.extend(consistency_properties(self._actions, decl))
        return ir.System(
            name=self.name,
            vars=tuple(svars),
            actions=tuple(self._actions),
            init_vars=tuple(ir.InitVar(v.name, self._init[v.name]) for v in svars),
            init_constraints=tuple(self._init_constraints),
            properties=tuple(props),
            doc=self.doc,
            scenario=self.scenario,
            file=self.file,
            family_names=tuple(self._families),
            covers=tuple(self._covers),
            ends=tuple(e for e, _ in self._ends),
        )


def _describe(describe: str | Callable[..., str] | None, fam: str, pnames: Sequence[str], combo: Sequence[Term]) -> str:
    if describe is None:
        return f"{fam}({', '.join(c.label for c in combo)})" if combo else fam
    if callable(describe):
        return describe(*combo)
    fields = {pn: c.label for pn, c in zip(pnames, combo, strict=True)}
    try:
        return describe.format(**fields)
    except (KeyError, IndexError) as e:
        used = [f[1] for f in string.Formatter().parse(describe) if f[1]]
        raise _err(f"describe of '{fam}' uses {used}, but the parameters are {list(pnames)}") from e
