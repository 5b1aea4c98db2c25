"""Expressions in ruling files, with the DSL's operators, parsed safely (never ``eval``).

A ruling names what must hold in game terms, by the labels traces show::

    zone[character 2 of player 1] == dead and gold[player 1] >= 2
    Count(c in zone, zone[c] == dead) == 2
    not (phase == challenges) => claim[player 1] + 1 > 2

Grammar (loosest first)::

    expr     := implies
    implies  := or ('=>' implies)?
    or       := and (('or' | '|') and)*
    and      := not (('and' | '&') not)*
    not      := ('not' | '~') not | compare
    compare  := sum (('==' | '!=' | '<' | '<=' | '>' | '>=') sum)?
    sum      := product (('+' | '-') product)*
    product  := unary (('*' | '//') unary)*
    unary    := '-' unary | atom
    atom     := NUMBER | 'true' | 'false' | '(' expr ')' | NAME '[' index, ... ']'
              | FUNCTION '(' args ')' | words | 'quoted words'

``&`` and ``|`` mean ``and`` and ``or`` (they bind looser than comparisons,
unlike Python's).  Functions: ``And Or Not Implies If Sum Min Max ForAll
Exists Count`` (``ForAll(c in zone, ...)`` ranges over the elements that
index an array, or over a sort's values), and ``before(x)``, which reads
``x`` before the step in an ``always_after`` question.  A run of words
(``player 2``, ``character 1 of player 1``) is one name: a variable's label
or a value's label; quote a name that has operator characters in it.

The text is parsed into a small syntax tree, then compiled against one
system's state variables into IR expressions, so the concrete evaluator and
the Z3 encoder read them like any rule.  Unknown names get "did you mean".
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass
from typing import Mapping, Sequence, Union

from .. import ir
from ..ir import BoolT, EnumT, Expr, IntT, StateVar, System, Type

__all__ = ["ExprError", "parse", "Compiler", "Names", "suggest"]


class ExprError(Exception):
    """A mistake in an expression: the message and the 1-based column."""

    def __init__(self, message: str, col: int) -> None:
        super().__init__(message)
        self.message = message
        self.col = col


def suggest(name: str, known: Sequence[str]) -> str:
    """`` (did you mean 'x'?)`` for the closest known name, or nothing."""
    close = difflib.get_close_matches(name, list(known), n=1, cutoff=0.6)
    return f" (did you mean '{close[0]}'?)" if close else ""


# --------------------------------------------------------------------------- tokens

_OPS = ("==", "!=", "<=", ">=", "=>", "//", "<", ">", "+", "-", "*", "&", "|", "~", "(", ")", ",")
_KEYWORDS = {"and", "or", "not", "in", "true", "false"}
FUNCTIONS = ("And", "Or", "Not", "Implies", "If", "Sum", "Min", "Max", "ForAll", "Exists", "Count", "before")
_BINDERS = {"ForAll", "Exists", "Count", "Sum", "Min", "Max", "And", "Or"}


@dataclass(frozen=True)
class _Tok:
    kind: str  # num, word, str, index, op, end
    text: str
    col: int


def _tokens(text: str) -> list[_Tok]:
    out: list[_Tok] = []
    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        if ch.isspace():
            i += 1
            continue
        col = i + 1
        if ch.isdigit():
            j = i
            while j < n and text[j].isdigit():
                j += 1
            if j < n and (text[j].isalpha() or text[j] == "_"):
                while j < n and (text[j].isalnum() or text[j] == "_"):
                    j += 1
                out.append(_Tok("word", text[i:j], col))
            else:
                out.append(_Tok("num", text[i:j], col))
            i = j
            continue
        if ch.isalpha() or ch == "_":
            j = i
            while j < n and (text[j].isalnum() or text[j] == "_"):
                j += 1
            out.append(_Tok("word", text[i:j], col))
            i = j
            continue
        if ch in "'\"":
            j = text.find(ch, i + 1)
            if j < 0:
                raise ExprError(f"the quote {ch} is not closed", col)
            out.append(_Tok("str", text[i + 1 : j], col))
            i = j + 1
            continue
        if ch == "[":
            depth, j = 1, i + 1
            while j < n and depth:
                depth += {"[": 1, "]": -1}.get(text[j], 0)
                j += 1
            if depth:
                raise ExprError("the bracket [ is not closed", col)
            out.append(_Tok("index", text[i + 1 : j - 1], col))
            i = j
            continue
        if ch == "]":
            raise ExprError("a ] without its [", col)
        for op in _OPS:
            if text.startswith(op, i):
                out.append(_Tok("op", op, col))
                i += len(op)
                break
        else:
            if ch == "=":
                raise ExprError("'=' is not an operator: compare with '=='", col)
            raise ExprError(f"unexpected character '{ch}'", col)
    out.append(_Tok("end", "", n + 1))
    return out


# --------------------------------------------------------------------------- syntax tree


@dataclass(frozen=True)
class Num:
    value: int
    col: int


@dataclass(frozen=True)
class Lit:
    value: bool
    col: int


@dataclass(frozen=True)
class Name:
    """Words: a scalar variable, a value's label, or a bound variable (quoted: a value only)."""

    text: str
    col: int
    quoted: bool = False


@dataclass(frozen=True)
class Ref:
    """``array[index, ...]``: one element of an array variable."""

    array: str
    parts: tuple[str, ...]
    col: int


@dataclass(frozen=True)
class Un:
    op: str  # not, neg
    arg: "Node"
    col: int


@dataclass(frozen=True)
class Bin:
    op: str
    left: "Node"
    right: "Node"
    col: int


@dataclass(frozen=True)
class Call:
    fn: str
    args: tuple["Node", ...]
    col: int


@dataclass(frozen=True)
class Bind:
    """``Fn(x in domain, body)``."""

    fn: str
    var: str
    domain: str
    body: "Node"
    col: int


Node = Union[Num, Lit, Name, Ref, Un, Bin, Call, Bind]


MAX_NESTING = 40
"""Most nested parentheses, ``not``s, minus signs and calls in one expression."""

MAX_TREE_DEPTH = 100
"""Deepest syntax tree (a chain of ``a or b or c ...`` is as deep as it is long)."""


class _Parser:
    def __init__(self, text: str) -> None:
        self.toks = _tokens(text)
        self.i = 0
        self.nesting = 0

    def enter(self, col: int) -> None:
        """One more level of nesting; refused past :data:`MAX_NESTING` (a recursive parser's stack is finite)."""
        self.nesting += 1
        if self.nesting > MAX_NESTING:
            raise ExprError(f"the expression nests more than {MAX_NESTING} levels deep "
                            "(parentheses, 'not', '-' and calls)", col)

    @property
    def tok(self) -> _Tok:
        return self.toks[self.i]

    def take(self) -> _Tok:
        t = self.toks[self.i]
        self.i += 1
        return t

    def is_op(self, *ops: str) -> bool:
        return self.tok.kind == "op" and self.tok.text in ops

    def is_word(self, *words: str) -> bool:
        return self.tok.kind == "word" and self.tok.text in words

    def expect(self, op: str) -> _Tok:
        if not self.is_op(op):
            raise ExprError(f"expected '{op}' here, found {self.found()}", self.tok.col)
        return self.take()

    def found(self) -> str:
        return "the end of the expression" if self.tok.kind == "end" else f"'{self.tok.text}'"

    def parse(self) -> Node:
        e = self.implies()
        if self.tok.kind != "end":
            raise ExprError(f"unexpected {self.found()} (an operator is missing?)", self.tok.col)
        return e

    def implies(self) -> Node:
        left = self.or_()
        if self.is_op("=>"):
            t = self.take()
            return Bin("=>", left, self.implies(), t.col)
        return left

    def or_(self) -> Node:
        left = self.and_()
        while self.is_op("|") or self.is_word("or"):
            t = self.take()
            left = Bin("or", left, self.and_(), t.col)
        return left

    def and_(self) -> Node:
        left = self.not_()
        while self.is_op("&") or self.is_word("and"):
            t = self.take()
            left = Bin("and", left, self.not_(), t.col)
        return left

    def not_(self) -> Node:
        if self.is_op("~") or self.is_word("not"):
            t = self.take()
            self.enter(t.col)
            inner = self.not_()
            self.nesting -= 1
            return Un("not", inner, t.col)
        return self.compare()

    def compare(self) -> Node:
        left = self.sum()
        if self.is_op("==", "!=", "<", "<=", ">", ">="):
            t = self.take()
            right = self.sum()
            if self.is_op("==", "!=", "<", "<=", ">", ">="):
                raise ExprError("comparisons do not chain: write 'a < b and b < c'", self.tok.col)
            return Bin(t.text, left, right, t.col)
        return left

    def sum(self) -> Node:
        left = self.product()
        while self.is_op("+", "-"):
            t = self.take()
            left = Bin(t.text, left, self.product(), t.col)
        return left

    def product(self) -> Node:
        left = self.unary()
        while self.is_op("*", "//"):
            t = self.take()
            left = Bin(t.text, left, self.unary(), t.col)
        return left

    def unary(self) -> Node:
        if self.is_op("-"):
            t = self.take()
            self.enter(t.col)
            inner = self.unary()
            self.nesting -= 1
            return Un("neg", inner, t.col)
        return self.atom()

    def atom(self) -> Node:
        t = self.tok
        if t.kind == "num":
            self.take()
            return Num(int(t.text), t.col)
        if t.kind == "str":
            self.take()
            return Name(t.text, t.col, quoted=True)
        if self.is_op("("):
            self.enter(self.take().col)
            e = self.implies()
            self.expect(")")
            self.nesting -= 1
            return e
        if t.kind == "word":
            if t.text in ("true", "false"):
                self.take()
                return Lit(t.text == "true", t.col)
            if t.text in _KEYWORDS:
                raise ExprError(f"'{t.text}' cannot start a value here", t.col)
            nxt = self.toks[self.i + 1]
            if nxt.kind == "index":
                self.take()
                self.take()
                return Ref(t.text, tuple(p.strip() for p in _split(nxt.text)), t.col)
            if nxt.kind == "op" and nxt.text == "(" and t.text in FUNCTIONS:
                self.enter(t.col)
                e = self.call()
                self.nesting -= 1
                return e
            words = [self.take().text]
            while self.tok.kind in ("word", "num") and self.tok.text not in _KEYWORDS:
                if self.toks[self.i + 1].kind == "index":
                    raise ExprError(f"'{self.tok.text}[...]' follows the name '{' '.join(words)}' without an operator",
                                    self.tok.col)
                words.append(self.take().text)
            return Name(" ".join(words), t.col)
        raise ExprError(f"expected a value, found {self.found()}", t.col)

    def call(self) -> Node:
        fn = self.take()
        self.expect("(")
        if fn.text in _BINDERS and self.tok.kind == "word" and self.toks[self.i + 1].kind == "word" \
                and self.toks[self.i + 1].text == "in":
            var = self.take().text
            self.take()
            dom = self.tok
            if dom.kind not in ("word", "str"):
                raise ExprError(f"expected an array or sort name after 'in', found {self.found()}", dom.col)
            self.take()
            self.expect(",")
            body = self.implies()
            self.expect(")")
            return Bind(fn.text, var, dom.text, body, fn.col)
        args: list[Node] = []
        if not self.is_op(")"):
            args.append(self.implies())
            while self.is_op(","):
                self.take()
                args.append(self.implies())
        self.expect(")")
        return Call(fn.text, tuple(args), fn.col)


def _split(raw: str) -> list[str]:
    """Index text split at top-level commas."""
    parts, depth, cur = [], 0, ""
    for ch in raw:
        if ch == "," and depth == 0:
            parts.append(cur)
            cur = ""
            continue
        depth += {"[": 1, "(": 1, "]": -1, ")": -1}.get(ch, 0)
        cur += ch
    parts.append(cur)
    return parts


def parse(text: str) -> Node:
    """The syntax tree of ``text`` (raises :class:`ExprError`)."""
    if not text.strip():
        raise ExprError("the expression is empty", 1)
    tree = _Parser(text).parse()
    _check_depth(tree)
    return tree


def _check_depth(tree: Node) -> None:
    """Refuse a tree deeper than :data:`MAX_TREE_DEPTH` (compiling it recurses once per level)."""
    stack: list[tuple[Node, int]] = [(tree, 1)]
    while stack:
        node, depth = stack.pop()
        if depth > MAX_TREE_DEPTH:
            raise ExprError(f"the expression is too long: more than {MAX_TREE_DEPTH} operators in a chain; "
                            "split it, or use ForAll/Exists over a domain", node.col)
        if isinstance(node, Un):
            stack.append((node.arg, depth + 1))
        elif isinstance(node, Bin):
            stack += [(node.left, depth + 1), (node.right, depth + 1)]
        elif isinstance(node, Call):
            stack += [(a, depth + 1) for a in node.args]
        elif isinstance(node, Bind):
            stack.append((node.body, depth + 1))


# --------------------------------------------------------------------------- names of a system


class Names:
    """A system's state variables and values by the names and labels traces show."""

    def __init__(self, system: System) -> None:
        self.system = system
        self.by_name: dict[str, StateVar] = {v.name: v for v in system.vars}
        self.by_label: dict[str, StateVar] = {v.label: v for v in system.vars}
        self.arrays: dict[str, list[StateVar]] = {}
        for v in system.vars:
            if v.index:
                self.arrays.setdefault(v.array, []).append(v)
        self.scalars = {v.array: v for v in system.vars if not v.index}
        self._pos: dict[str, tuple[str, ...]] = {}
        for v in system.vars:
            if v.index:
                inner = v.label[len(v.array) + 1 : -1] if v.label.startswith(v.array + "[") else ""
                labels = tuple(inner.split(", ")) if inner else ()
                self._pos[v.name] = labels if len(labels) == len(v.index) else v.index
        types: dict[str, EnumT] = {}
        for v in system.vars:
            if isinstance(v.type, EnumT):
                types.setdefault(v.type.name, v.type)
        for a in system.actions:
            for c in a.choices:
                if isinstance(c.type, EnumT):
                    types.setdefault(c.type.name, c.type)
        self.sorts = types

    def domains(self) -> list[dict[str, str]]:
        """Every known set of elements (value -> label): the sorts, and what indexes each array position."""
        out: list[dict[str, str]] = [{v: t.label(v) for v in t.values} for t in self.sorts.values()]
        for cells in self.arrays.values():
            for i in range(len(cells[0].index)):
                out.append({v.index[i]: self.position_labels(v)[i] for v in cells})
        return out

    def domain_of(self, seen: set[str]) -> dict[str, str]:
        """The largest known set of elements that holds every value in ``seen`` (value -> label)."""
        fits = [d for d in self.domains() if seen <= set(d)]
        return max(fits, key=len) if fits else {}

    def position_labels(self, v: StateVar) -> tuple[str, ...]:
        """The label of each index of ``v`` (``("character 1 of player 1",)``)."""
        return self._pos.get(v.name, v.index)

    def var_names(self) -> list[str]:
        """Every name a variable can be written by (for suggestions)."""
        return sorted({*self.scalars, *self.arrays, *self.by_label})

    def element(self, array: str, parts: Sequence[str], bound: Mapping[str, str] | None = None) -> StateVar:
        """The ground variable ``array[parts]`` (each part an element's label or name); raises ExprError (col 0)."""
        cells = self.arrays.get(array)
        if cells is None:
            if array in self.scalars:
                raise ExprError(f"'{array}' is not an array: write it without [...]", 0)
            raise ExprError(f"unknown variable '{array}'{suggest(array, sorted({*self.arrays, *self.scalars}))}", 0)
        arity = len(cells[0].index)
        if len(parts) != arity:
            raise ExprError(f"'{array}' takes {arity} index{'es' if arity != 1 else ''}, got {len(parts)}", 0)
        cands = cells
        for i, part in enumerate(parts):
            val = (bound or {}).get(part)
            if val is not None:
                keep = [v for v in cands if v.index[i] == val]
            else:
                keep = [v for v in cands if v.index[i] == part or self.position_labels(v)[i] == part]
            if not keep:
                known = sorted({self.position_labels(v)[i] for v in cells})
                raise ExprError(f"'{part}' does not index '{array}'{suggest(part, known)}"
                                + ("" if suggest(part, known) else f" (it takes: {_few(known)})"), 0)
            cands = keep
        return cands[0]

    def value(self, t: EnumT, text: str) -> str | None:
        """The value of enumeration ``t`` named or labelled ``text``."""
        if text in t.values:
            return text
        for v in t.values:
            if t.label(v) == text:
                return v
        return None

    def domain(self, name: str) -> tuple[tuple[str, ...], EnumT | None]:
        """Elements a bound variable ranges over: a sort's values or the elements that index a 1-index array."""
        if name in self.sorts:
            t = self.sorts[name]
            return t.values, t
        cells = self.arrays.get(name)
        if cells is None:
            raise ExprError(f"unknown array or sort '{name}'{suggest(name, sorted({*self.arrays, *self.sorts}))}", 0)
        if len(cells[0].index) != 1:
            raise ExprError(f"'{name}' has {len(cells[0].index)} indexes: a bound variable ranges over an array "
                            "with one index, or over a sort", 0)
        values = tuple(dict.fromkeys(v.index[0] for v in cells))
        for t in self.sorts.values():
            if set(values) <= set(t.values):
                return values, t
        return values, None


def _few(items: Sequence[str], n: int = 6) -> str:
    return ", ".join(items[:n]) + (", ..." if len(items) > n else "")


# --------------------------------------------------------------------------- compiling to IR


@dataclass(frozen=True)
class _Pending:
    """Words that are not a variable: a value, once the other side of a comparison gives its type."""

    text: str
    col: int


_Val = Union[Expr, _Pending]


class Compiler:
    """Compiles syntax trees against one system into IR expressions.

    ``post``: variables are read after a step (``always_after``), except
    inside ``before(...)``.
    """

    def __init__(self, names: Names, post: bool = False) -> None:
        self.names = names
        self.post = post

    def compile_bool(self, node: Node) -> Expr:
        e = self._expr(node, {}, self.post)
        if not isinstance(e.type, BoolT):
            raise ExprError(f"this is a {ir.type_name(e.type)}, not a condition (compare it with something)",
                            _col(node))
        return e

    # ------------------------------------------------------------------
    def _expr(self, node: Node, env: Mapping[str, tuple[str, EnumT | None]], post: bool) -> Expr:
        v = self._val(node, env, post)
        if isinstance(v, _Pending):
            raise ExprError(self._unknown(v.text, None), v.col)
        return v

    def _unknown(self, text: str, hint: EnumT | None) -> str:
        known = self.names.var_names() + (list(hint.values) + [hint.label(x) for x in hint.values] if hint else [])
        hint_text = suggest(text, known)
        if hint is not None and not hint_text:
            hint_text = f" (values of {hint.name}: {_few([hint.label(x) for x in hint.values])})"
        return f"unknown name '{text}'{hint_text}"

    def _resolve(self, v: _Val, hint: Type) -> Expr:
        if not isinstance(v, _Pending):
            return v
        if isinstance(hint, EnumT):
            val = self.names.value(hint, v.text)
            if val is not None:
                return ir.Const(val, hint)
            raise ExprError(self._unknown(v.text, hint), v.col)
        for t in self.names.sorts.values():
            if self.names.value(t, v.text) is not None:
                raise ExprError(f"type mismatch: '{v.text}' is a value of {t.name}, compared with "
                                f"{ir.type_name(hint)}", v.col)
        raise ExprError(self._unknown(v.text, None), v.col)

    def _val(self, node: Node, env: Mapping[str, tuple[str, EnumT | None]], post: bool) -> _Val:
        if isinstance(node, Num):
            return ir.const(node.value)
        if isinstance(node, Lit):
            return ir.TRUE if node.value else ir.FALSE
        if isinstance(node, Name):
            if node.quoted:
                return _Pending(node.text, node.col)
            if node.text in env:
                val, t = env[node.text]
                if t is None:
                    raise ExprError(f"'{node.text}' can index arrays here, but is not a value of a known sort",
                                    node.col)
                return ir.Const(val, t)
            sv = self.names.scalars.get(node.text) or self.names.by_label.get(node.text)
            if sv is not None and not sv.index:
                return ir.Var(sv.name, sv.type, post)
            if node.text in self.names.arrays:
                raise ExprError(f"'{node.text}' is an array: name one element, e.g. {node.text}[...]", node.col)
            return _Pending(node.text, node.col)
        if isinstance(node, Ref):
            bound = {k: v for k, (v, _t) in env.items()}
            try:
                sv = self.names.element(node.array, node.parts, bound)
            except ExprError as e:
                raise ExprError(e.message, node.col) from None
            return ir.Var(sv.name, sv.type, post)
        if isinstance(node, Un):
            if node.op == "not":
                return ir.not_(self._bool(node.arg, env, post, "not"))
            return ir.neg(self._int(node.arg, env, post, "-"))
        if isinstance(node, Bin):
            return self._bin(node, env, post)
        if isinstance(node, Call):
            return self._call(node, env, post)
        assert isinstance(node, Bind)
        return self._bind(node, env, post)

    def _bool(self, node: Node, env: Mapping[str, tuple[str, EnumT | None]], post: bool, what: str) -> Expr:
        e = self._expr(node, env, post)
        if not isinstance(e.type, BoolT):
            raise ExprError(f"type mismatch: '{what}' needs a condition, got {ir.type_name(e.type)}", _col(node))
        return e

    def _int(self, node: Node, env: Mapping[str, tuple[str, EnumT | None]], post: bool, what: str) -> Expr:
        e = self._expr(node, env, post)
        if not isinstance(e.type, IntT):
            raise ExprError(f"type mismatch: '{what}' needs a number, got {ir.type_name(e.type)}", _col(node))
        return e

    def _bin(self, node: Bin, env: Mapping[str, tuple[str, EnumT | None]], post: bool) -> Expr:
        op = node.op
        if op in ("and", "or", "=>"):
            a = self._bool(node.left, env, post, op)
            b = self._bool(node.right, env, post, op)
            return ir.and_(a, b) if op == "and" else ir.or_(a, b) if op == "or" else ir.implies(a, b)
        if op in ("==", "!="):
            lv = self._val(node.left, env, post)
            rv = self._val(node.right, env, post)
            lv, rv = self._value_side(node.left, lv, rv), self._value_side(node.right, rv, lv)
            if isinstance(lv, _Pending) and isinstance(rv, _Pending):
                raise ExprError(self._unknown(lv.text, None), lv.col)
            left = self._resolve(lv, rv.type) if isinstance(lv, _Pending) and not isinstance(rv, _Pending) else lv
            right = self._resolve(rv, left.type) if isinstance(rv, _Pending) and not isinstance(left, _Pending) else rv
            assert not isinstance(left, _Pending) and not isinstance(right, _Pending)
            if not ir.same_kind(left.type, right.type):
                raise ExprError(f"type mismatch: cannot compare {ir.type_name(left.type)} with "
                                f"{ir.type_name(right.type)}", node.col)
            e = ir.eq(left, right)
            return e if op == "==" else ir.not_(e)
        if op in ("<", "<=", ">", ">="):
            a = self._int(node.left, env, post, op)
            b = self._int(node.right, env, post, op)
            return {"<": ir.lt(a, b), "<=": ir.le(a, b), ">": ir.lt(b, a), ">=": ir.le(b, a)}[op]
        a = self._int(node.left, env, post, op)
        b = self._int(node.right, env, post, op)
        if op == "+":
            return ir.add(a, b)
        if op == "-":
            return ir.sub(a, b)
        if op == "*":
            if not isinstance(a, ir.Const) and not isinstance(b, ir.Const):
                raise ExprError("'*' multiplies by a constant only", node.col)
            return ir.mul(a, b)
        if not (isinstance(b, ir.Const) and isinstance(b.value, int) and b.value > 0):
            raise ExprError("'//' divides only by a positive constant", node.col)
        return ir.div(a, b)

    def _value_side(self, node: Node, mine: _Val, other: _Val) -> _Val:
        """An unquoted name that is a variable, compared with a value of another type it names: the value."""
        if not (isinstance(node, Name) and isinstance(mine, ir.Var) and not isinstance(other, _Pending)):
            return mine
        t = other.type
        if not isinstance(t, EnumT) or self.names.value(t, node.text) is None:
            return mine
        if mine.type == t:
            raise ExprError(f"'{node.text}' is both a variable and a value of {t.name}: write '{node.text}' in quotes "
                            "for the value", node.col)
        return _Pending(node.text, node.col)

    def _call(self, node: Call, env: Mapping[str, tuple[str, EnumT | None]], post: bool) -> Expr:
        fn, args = node.fn, node.args
        if fn == "before":
            if not self.post:
                raise ExprError("before(...) reads the state before a step: only in an always_after question",
                                node.col)
            if len(args) != 1:
                raise ExprError("before(...) takes one value", node.col)
            if not post:
                raise ExprError("before(...) inside before(...)", node.col)
            return self._expr(args[0], env, False)
        if fn in ("And", "Or"):
            bs = [self._bool(a, env, post, fn) for a in args]
            return ir.and_(*bs) if fn == "And" else ir.or_(*bs)
        if fn == "Not":
            self._arity(node, 1)
            return ir.not_(self._bool(args[0], env, post, fn))
        if fn == "Implies":
            self._arity(node, 2)
            return ir.implies(self._bool(args[0], env, post, fn), self._bool(args[1], env, post, fn))
        if fn == "If":
            self._arity(node, 3)
            c = self._bool(args[0], env, post, fn)
            tv = self._val(args[1], env, post)
            ev = self._val(args[2], env, post)
            if isinstance(tv, _Pending) and isinstance(ev, _Pending):
                raise ExprError(self._unknown(tv.text, None), tv.col)
            t = self._resolve(tv, ev.type) if isinstance(tv, _Pending) and not isinstance(ev, _Pending) else tv
            e = self._resolve(ev, t.type) if isinstance(ev, _Pending) and not isinstance(t, _Pending) else ev
            assert not isinstance(t, _Pending) and not isinstance(e, _Pending)
            if not ir.same_kind(t.type, e.type):
                raise ExprError(f"type mismatch: If branches are {ir.type_name(t.type)} and {ir.type_name(e.type)}",
                                node.col)
            return ir.ite(c, t, e)
        if fn in ("Sum", "Min", "Max"):
            ns = [self._int(a, env, post, fn) for a in args]
            if not ns:
                return ir.const(0) if fn == "Sum" else _raise(f"{fn} of nothing", node.col)
            return ir.add(*ns) if fn == "Sum" else ir.min_(*ns) if fn == "Min" else ir.max_(*ns)
        raise ExprError(f"{fn}(...) takes a bound variable: {fn}(x in <array or sort>, ...)", node.col)

    @staticmethod
    def _arity(node: Call, n: int) -> None:
        if len(node.args) != n:
            raise ExprError(f"{node.fn} takes {n} argument{'s' if n != 1 else ''}, got {len(node.args)}", node.col)

    def _bind(self, node: Bind, env: Mapping[str, tuple[str, EnumT | None]], post: bool) -> Expr:
        try:
            values, t = self.names.domain(node.domain)
        except ExprError as err:
            raise ExprError(err.message, node.col) from None
        bodies = [self._val(node.body, {**env, node.var: (v, t)}, post) for v in values]
        exprs = [self._expr_of(b) for b in bodies]
        fn = node.fn
        if fn in ("ForAll", "Exists", "Count", "And", "Or"):
            for e in exprs:
                if not isinstance(e.type, BoolT):
                    raise ExprError(f"type mismatch: {fn} needs a condition, got {ir.type_name(e.type)}",
                                    _col(node.body))
            if fn in ("ForAll", "And"):
                return ir.and_(*exprs)
            if fn in ("Exists", "Or"):
                return ir.or_(*exprs)
            return ir.add(*(ir.ite(e, ir.const(1), ir.const(0)) for e in exprs))
        for e in exprs:
            if not isinstance(e.type, IntT):
                raise ExprError(f"type mismatch: {fn} needs numbers, got {ir.type_name(e.type)}", _col(node.body))
        return ir.add(*exprs) if fn == "Sum" else ir.min_(*exprs) if fn == "Min" else ir.max_(*exprs)

    def _expr_of(self, v: _Val) -> Expr:
        if isinstance(v, _Pending):
            raise ExprError(self._unknown(v.text, None), v.col)
        return v


def _raise(msg: str, col: int) -> Expr:
    raise ExprError(msg, col)


def _col(node: Node) -> int:
    return node.col
