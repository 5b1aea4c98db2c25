"""The IR and its two interpreters.

* one walker: every interpreter (the folding builders, the concrete
  evaluator, the Z3 encoder, the printer) has a handler for every operator;
* the two semantics agree: random expressions over every operator and sort
  evaluate to the same value in the evaluator and in the encoder, and the
  folding builders never change a value;
* nodes are hash-consed, so deep expressions (a symbolic index into a large
  sort) are hashed, compared, walked and checked without recursion.
"""

from __future__ import annotations

import io
import pickle
import sys
from pathlib import Path
from typing import Mapping

from hypothesis import given, settings
from hypothesis import strategies as st

from ruleproof import ir
from ruleproof.cli import run
from ruleproof.cli_support import DEFAULT_RLIMIT
from ruleproof.dsl import Model, Step
from ruleproof.encoder import Z3_OPS, evaluate
from ruleproof.evaluator import EVAL, Evaluator
from ruleproof.export import PROMELA
from ruleproof.ir import BOOL, App, Choice, Const, EnumT, Expr, IntT, Op, Value, Var

FIX = Path(__file__).resolve().parents[1] / "fixtures"


def test_every_interpreter_handles_every_operator() -> None:
    tables: dict[str, Mapping[Op, object]] = {"builders (ir.mk)": ir.BUILDERS, "evaluator": EVAL, "encoder": Z3_OPS,
                                              "printer": ir.SHOW, "Promela export": PROMELA}
    for name, table in tables.items():
        assert set(table) == set(Op), f"{name} misses {sorted(o.name for o in set(Op) - set(table))}"


# --------------------------------------------------------------------------- differential test

E = EnumT("E", ("e1", "e2", "e3"))
INT = IntT(-3, 3)
VARS: dict[str, ir.Type] = {"x": INT, "y": INT, "b": BOOL, "z": E}
CHOICES: dict[str, ir.Type] = {"k": IntT(0, 2), "c": BOOL, "q": E}
NUM = IntT(0, 0)  # the nominal type of arithmetic results (as the builders give it)
SYSTEM = ir.System(
    "differential",
    tuple(ir.StateVar(n, t, n, (), n) for n, t in VARS.items()),
    (),
    tuple(ir.InitVar(n, (False,) if t == BOOL else (0,) if isinstance(t, IntT) else ("e1",)) for n, t in VARS.items()),
    (),
    (),
)


def _leaf(draw: st.DrawFn, kind: str) -> Expr:
    names = [n for n, t in VARS.items() if _kind(t) == kind]
    choices = [n for n, t in CHOICES.items() if _kind(t) == kind]
    pick = draw(st.sampled_from(["const", "var", "primed", "choice"]))
    if pick == "var":
        n = draw(st.sampled_from(names))
        return Var(n, VARS[n])
    if pick == "primed":
        n = draw(st.sampled_from(names))
        return Var(n, VARS[n], True)
    if pick == "choice":
        n = draw(st.sampled_from(choices))
        return Choice(n, CHOICES[n])
    if kind == "int":
        return ir.const(draw(st.integers(-4, 4)))
    if kind == "bool":
        return ir.const(draw(st.booleans()))
    return Const(draw(st.sampled_from(E.values)), E)


def _kind(t: ir.Type) -> str:
    return "bool" if t == BOOL else "int" if isinstance(t, IntT) else "enum"


@st.composite
def exprs(draw: st.DrawFn, kind: str, depth: int) -> Expr:
    """A random well-typed expression built with raw :class:`App` nodes (no folding), so every operator occurs."""
    if depth == 0 or draw(st.integers(0, 3)) == 0:
        return _leaf(draw, kind)
    sub = depth - 1
    if kind == "enum":
        return App(Op.ITE, (draw(exprs("bool", sub)), draw(exprs("enum", sub)), draw(exprs("enum", sub))), E)
    if kind == "int":
        op = draw(st.sampled_from([Op.ADD, Op.SUB, Op.MUL, Op.DIV, Op.NEG, Op.MIN, Op.MAX, Op.ITE]))
        if op in (Op.ADD, Op.MIN, Op.MAX):
            n = draw(st.integers(2, 3))
            return App(op, tuple(draw(exprs("int", sub)) for _ in range(n)), NUM)
        if op is Op.NEG:
            return App(op, (draw(exprs("int", sub)),), NUM)
        if op is Op.DIV:
            return App(op, (draw(exprs("int", sub)), ir.const(draw(st.integers(1, 3)))), NUM)
        if op is Op.ITE:
            return App(op, (draw(exprs("bool", sub)), draw(exprs("int", sub)), draw(exprs("int", sub))), NUM)
        return App(op, (draw(exprs("int", sub)), draw(exprs("int", sub))), NUM)
    op = draw(st.sampled_from([Op.EQ, Op.NE, Op.LT, Op.LE, Op.AND, Op.OR, Op.NOT, Op.IMPLIES, Op.ITE]))
    if op in (Op.EQ, Op.NE):
        k = draw(st.sampled_from(["int", "bool", "enum"]))
        return App(op, (draw(exprs(k, sub)), draw(exprs(k, sub))), BOOL)
    if op in (Op.LT, Op.LE):
        return App(op, (draw(exprs("int", sub)), draw(exprs("int", sub))), BOOL)
    if op in (Op.AND, Op.OR):
        n = draw(st.integers(2, 3))
        return App(op, tuple(draw(exprs("bool", sub)) for _ in range(n)), BOOL)
    if op is Op.NOT:
        return App(op, (draw(exprs("bool", sub)),), BOOL)
    if op is Op.IMPLIES:
        return App(op, (draw(exprs("bool", sub)), draw(exprs("bool", sub))), BOOL)
    return App(op, (draw(exprs("bool", sub)), draw(exprs("bool", sub)), draw(exprs("bool", sub))), BOOL)


def _value(draw: st.DrawFn, t: ir.Type) -> Value:
    if t == BOOL:
        return draw(st.booleans())
    if isinstance(t, IntT):
        return draw(st.integers(t.lo, t.hi))
    assert isinstance(t, EnumT)
    return draw(st.sampled_from(t.values))


@st.composite
def valuations(draw: st.DrawFn) -> tuple[dict[str, Value], dict[str, Value], dict[str, Value]]:
    pre = {n: _value(draw, t) for n, t in VARS.items()}
    post = {n: _value(draw, t) for n, t in VARS.items()}
    ch = {n: _value(draw, t) for n, t in CHOICES.items()}
    return pre, post, ch


def _refold(e: Expr) -> Expr:
    """``e`` rebuilt bottom-up through the folding builders."""
    return ir.fold(e, lambda x: x, lambda x, args: ir.mk(x.op, *args))


@settings(max_examples=400)
@given(kind=st.sampled_from(["int", "bool", "enum"]), data=st.data())
def test_evaluator_and_encoder_agree_on_random_expressions(kind: str, data: st.DataObject) -> None:
    e = data.draw(exprs(kind, 4))
    pre, post, ch = data.draw(valuations())
    ev = Evaluator(SYSTEM)
    types = {**VARS, **CHOICES}
    concrete = ev.compile(e)(ev.from_dict(pre), ev.from_dict(post), ch)
    symbolic = evaluate(e, pre, post, ch, types)
    assert concrete == symbolic and isinstance(concrete, bool) == isinstance(symbolic, bool), (
        ir.show_expr(e), pre, post, ch, concrete, symbolic)
    folded = _refold(e)
    assert ev.compile(folded)(ev.from_dict(pre), ev.from_dict(post), ch) == concrete, ir.show_expr(folded)


def test_every_operator_occurs_in_the_differential_test() -> None:
    """The generator reaches every operator (so the agreement test above covers each one)."""
    seen: set[Op] = set()

    @settings(max_examples=200)
    @given(kind=st.sampled_from(["int", "bool", "enum"]), data=st.data())
    def collect(kind: str, data: st.DataObject) -> None:
        e = data.draw(exprs(kind, 4))
        seen.update(x.op for x in ir.walk(e) if isinstance(x, App))

    collect()
    assert seen == set(Op)


# --------------------------------------------------------------------------- hash-consing


def test_equal_nodes_are_one_object() -> None:
    x = Var("x", INT)
    a = ir.add(x, ir.const(1))
    b = ir.add(Var("x", INT), ir.const(1))
    assert a is b and hash(a) == hash(b)
    assert ir.add(x, ir.const(2)) is not a
    assert Const(1, IntT(1, 1)) is not Const(True, IntT(1, 1))  # 1 == True in Python, not in the IR
    assert pickle.loads(pickle.dumps(a)) is a


def _deep_chain(n: int) -> Expr:
    """``if i == s1 then v[s1] else if i == s2 then ...``: a symbolic index into an ``n``-element sort."""
    sort = EnumT("S", tuple(f"s{j}" for j in range(1, n + 1)))
    i = Var("i", sort)
    e: Expr = Var(f"v[s{n}]", INT)
    for j in range(n - 1, 0, -1):
        e = ir.ite(ir.eq(i, Const(f"s{j}", sort)), Var(f"v[s{j}]", INT), e)
    return e


def test_deep_expressions_need_no_recursion() -> None:
    n = 3 * sys.getrecursionlimit()
    e, again = _deep_chain(n), _deep_chain(n)
    assert e is again and hash(e) == hash(again) and e == again
    assert {e: 1}[again] == 1
    assert ir.prime(e) is not e and ir.free_vars(ir.prime(e)) == ir.free_vars(e)
    assert ir.substitute(e, {}) is e
    assert ir.show_expr(e).startswith("(if (i == s1) then v[s1] else (if (i == s2)")


def test_a_symbolic_index_into_a_300_element_sort_is_checked() -> None:
    """Regression: checking this model raised RecursionError (hashing and comparing the index chain)."""
    out, err = io.StringIO(), io.StringIO()
    code = run(["check", str(FIX / "deep_index_model.py"), "--engine", "bmc", "--depth", "2"], out, err)
    assert code == 0, err.getvalue()
    assert "4 properties: 0 proved, 4 held to a depth" in out.getvalue()


# --------------------------------------------------------------------------- the DSL


def test_action_property_parameters_keep_their_sort_when_two_sorts_share_value_names() -> None:
    """Regression: an action property over a Char family was given Card constants ("cannot compare Char with Card")."""
    m = Model("overlap")
    m.sort("Card", 2)  # values c1, c2, like Char's
    char = m.sort("Char", 2)
    sel = m.var("sel", char, init="c1")

    @m.action(char)
    def pick(a: Step, c) -> None:  # type: ignore[no-untyped-def]
        a.set(sel, c)

    m.action_property("pick selects its parameter", "pick", lambda t, c: t.post(sel) == c)
    m.action_property("pick selects c1 (false)", "pick", lambda t, c: t.post(sel) == char.c1)
    s = m.finish()
    from ruleproof.engines.common import Options
    from ruleproof.engines.runner import check_property
    from ruleproof.results import Verdict

    opts = Options(depth=3, kmax=2, rlimit=DEFAULT_RLIMIT, timeout=600)
    assert check_property(s, s.prop("pick selects its parameter"), "auto", opts).verdict is Verdict.PROVED
    assert check_property(s, s.prop("pick selects c1 (false)"), "auto", opts).verdict is Verdict.VIOLATED
