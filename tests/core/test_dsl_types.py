"""The DSL's types: what a model author's editor and mypy see, and the errors for what they cannot see.

The ``assert_type`` lines are checked by mypy (this file is part of the mypy
gate in ``.ci/run``); at run time they return their argument.  The other
assertions are the errors at build time, with the model's line, for misuses
Python's types let through (``m.v.<name>`` cannot tell an array from a scalar).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import assert_type

import pytest

from ruleproof.dsl import (
    And,
    Array,
    Bool,
    Cell,
    ChoiceArray,
    Count,
    ForAll,
    Int,
    Model,
    Range,
    Sort,
    StaticArray,
    Step,
    Term,
    VarArray,
)
from ruleproof.errors import InputError


def _model() -> tuple[Model, Sort, VarArray, Cell, StaticArray]:
    m = Model("types")
    Card = m.sort("Card", 2)
    zone = m.var("zone", m.sort("Zone", ["hand", "play"]), index=Card, init="hand")
    gold = m.var("gold", Int(0, 5), init=0)
    cost = m.static("cost", Int(0, 3), Card, {"c1": 1, "c2": 3})
    return m, Card, zone, gold, cost


def test_declarations_have_the_types_the_runtime_gives() -> None:
    m, Card, zone, gold, cost = _model()
    c1 = assert_type(Card.c1, Term)
    assert_type(zone, VarArray)
    assert_type(gold, Cell)
    assert_type(cost, StaticArray)
    assert_type(zone[c1], Cell)
    assert_type(cost[c1], Term)
    assert_type(m.v.zone, Term)
    assert_type(m.sorts.Card, Sort)
    assert_type(m.statics.cost, StaticArray)
    assert_type(Count(Card, lambda c: zone[c] == "play"), Term)
    assert isinstance(zone, Array) and isinstance(zone[c1], Cell) and isinstance(gold, Cell)
    assert m.v.zone is zone and m.v.gold is not None and m.statics.cost is cost
    assert m.statics.cost.value("c2") == 3

    @m.action(Card)
    def play(a: Step, c: Term) -> None:
        pay = a.choose("pay", Bool)
        kill = a.choose("kill", Bool, index=Card)
        assert_type(pay, Term)
        assert_type(kill, ChoiceArray)
        a.require(zone[c] == "hand", gold >= cost[c], pay, ~kill[c])
        a.set(zone[c], "play")
        a.set(gold, gold - cost[c])

    body: Callable[[Step, Term], None] = play  # the decorator keeps the body's type
    assert body is play
    assert {a.label for a in m.finish().actions} == {"play(c1)", "play(c2)"}


def test_an_array_used_as_a_value_is_an_error_at_the_models_line() -> None:
    m, Card, zone, gold, cost = _model()
    with pytest.raises(InputError, match=r"'zone' is an array over Card: index it, as in zone\[c\]") as e:
        m.invariant("forgot the index", m.v.zone == "play")
    assert e.value.render().startswith("tests/core/test_dsl_types.py:")
    with pytest.raises(InputError, match="'cost' is an array over Card: index it"):
        m.invariant("forgot the index", And(m.v.cost >= 0))
    with pytest.raises(InputError, match="'cost' is an array over Card: index it"):
        m.invariant("forgot the index", gold <= m.v.cost)


def test_a_scalar_indexed_or_iterated_is_an_error() -> None:
    m, Card, zone, gold, cost = _model()
    with pytest.raises(InputError, match="'gold' is not an array: it takes no index"):
        m.v.gold[Card.c1]
    with pytest.raises(InputError, match="is a single value: there is nothing to iterate over"):
        And(*gold)
    with pytest.raises(InputError, match="'zone' is an array: iterate over its index sort instead"):
        list(zone)


def test_static_data_and_choice_arrays_cannot_be_assigned() -> None:
    m, Card, zone, gold, cost = _model()
    with pytest.raises(InputError, match="cannot assign to 'cost': only state variables can change"):

        @m.action()
        def bad(a: Step) -> None:
            a.set(m.v.cost, 2)

    with pytest.raises(InputError, match="cannot assign to '1': only state variables can change"):

        @m.action(Card)
        def worse_still(a: Step, c: Term) -> None:
            a.set(cost[c], 2)  # an entry of static data is a constant once c is

    with pytest.raises(InputError, match="cannot assign to 'pick': only state variables can change"):

        @m.action()
        def worse(a: Step) -> None:
            a.set(a.choose("pick", Bool, index=Card), True)


def test_misuses_mypy_reports_are_also_refused_when_the_model_is_built() -> None:
    """Each misuse below is an error mypy reports in a model file: the ``type: ignore[code]`` names it, and
    mypy runs on this file with ``warn_unused_ignores`` (pyproject), so a public API that went back to
    returning ``Any`` (mypy silent) fails the gate.  At run time the build refuses each one at the model's line."""
    m, Card, zone, gold, cost = _model()
    with pytest.raises(InputError, match="variable 'x' needs a type"):
        m.var("x", 3, init=0)  # type: ignore[call-overload]
    with pytest.raises(InputError, match="cannot use float value 1.5 in a rule expression"):
        gold + 1.5  # type: ignore[operator]
    with pytest.raises(InputError, match="cannot use float value 3.0"):
        m.invariant("a float is no condition", 3.0)  # type: ignore[arg-type]
    with pytest.raises(InputError, match="cannot use NoneType value None"):
        ForAll(Card, lambda c: None)  # type: ignore[arg-type, return-value]
    with pytest.raises(InputError, match="cannot use NoneType value None") as e:

        @m.action(Card)
        def unset(a: Step, c: Term) -> None:
            a.set(gold, None)  # type: ignore[arg-type]

    assert e.value.render().startswith("tests/core/test_dsl_types.py:")
    with pytest.raises(InputError, match="Range needs whole numbers"):
        m.var("y", Int(0, 3), init=Range(0, "3"))  # type: ignore[arg-type]
