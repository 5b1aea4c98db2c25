"""Ruling expressions: the DSL's operators parsed safely, compiled against a system by the labels traces show."""

from __future__ import annotations

from pathlib import Path

import pytest

from ruleproof.evaluator import Evaluator
from ruleproof.ir import App, Const
from ruleproof.loader import discover, load_system
from ruleproof.rulings.expr import Compiler, ExprError, Names, parse

ROOT = Path(__file__).resolve().parents[2]

SPEC = next(s for s in discover(ROOT / "model" / "agot") if s.name == "claim")
SYSTEM = load_system(SPEC, "small")
NAMES = Names(SYSTEM)
EV = Evaluator(SYSTEM)


def value(text: str, **state: object) -> object:
    """``text`` evaluated in the first initial state with ``state`` (variable name -> value) changed."""
    e = Compiler(NAMES).compile_bool(parse(text))
    s = dict(EV.as_dict(next(iter(EV.initial_states()))))
    s.update(state)
    return EV.compile(e)(EV.from_dict(s), None, {})


def test_labels_names_and_values():
    assert value("zone[character 1 of player 2] == play", **{"zone[c4]": "play"}) is True
    assert value("zone[c4] == 'play'", **{"zone[c4]": "play"}) is True  # element and value by name, quoted value
    assert value("controller[character 1 of player 1] == player 1") is True
    assert value("controller[character 1 of player 1] == p2") is False


def test_precedence_and_or_not_and_implies_bind_looser_than_comparisons():
    st = {"claim[p1]": 2, "hand[p2]": 1}
    assert value("claim[player 1] == 2 & hand[player 2] == 1", **st) is True
    assert value("claim[player 1] == 1 | hand[player 2] == 1 and not pending", **st) is True
    assert value("not claim[player 1] == 2 => pending", **st) is True
    assert value("claim[player 1] + 2 * hand[player 2] - 3 // 2 == 3", **st) is True
    assert value("-claim[player 1] < -1 and claim[player 1] >= 2 and claim[player 1] != 3", **st) is True


def test_functions_and_bound_variables():
    st = {"zone[c1]": "play", "zone[c4]": "dead", "zone[c5]": "dead", "claim[p1]": 3, "hand[p1]": 1}
    assert value("Count(c in zone, zone[c] == dead) == 2", **st) is True
    assert value("Exists(c in zone, zone[c] == play) and not ForAll(c in zone, zone[c] == dead)", **st) is True
    assert value("Sum(p in Player, claim[p]) == 3 and Max(claim[player 1], hand[player 1]) == 3", **st) is True
    assert value("If(pending, 1, Min(claim[player 1], hand[player 1])) == 1", **st) is True
    assert value("Implies(pending, valar) and Or(pending, Not(valar)) and And(true, not false)", **st) is True


@pytest.mark.parametrize(
    "text,message,col",
    [
        ("zone[character 1 of player 2] == deadd", "unknown name 'deadd' (did you mean 'dead'?)", 34),
        ("zon[character 1 of player 2] == dead", "unknown variable 'zon' (did you mean 'zone'?)", 1),
        ("claim[player 1] == play", "type mismatch: 'play' is a value of Zone, compared with Int", 20),
        ("pending + 1 == 2", "type mismatch: '+' needs a number, got Bool", 1),
        ("claim[player 1]", "this is a Int, not a condition", 1),
        ("claim[player 1] = 2", "'=' is not an operator: compare with '=='", 17),
        ("1 < claim[player 1] < 3", "comparisons do not chain", 21),
        ("(pending", "expected ')' here, found the end of the expression", 9),
        ("pending valar", "unknown name 'pending valar'", 1),
        ("zone == play", "'zone' is an array: name one element", 1),
        ("claim[player 1] * claim[player 2] == 0", "'*' multiplies by a constant only", 17),
        ("ForAll(c in zones, zone[c] == play)", "unknown array or sort 'zones' (did you mean 'zone'?)", 1),
        ("__import__ == 1", "unknown name '__import__'", 1),
        ("os.system('ls')", "unexpected character '.'", 3),
    ],
)
def test_mistakes_say_what_and_where(text, message, col):
    with pytest.raises(ExprError) as e:
        Compiler(NAMES).compile_bool(parse(text))
    assert message in e.value.message
    assert e.value.col == col


def test_a_name_that_is_a_variable_and_a_value_of_the_other_side_is_the_value():
    rsys = load_system(next(s for s in discover(ROOT / "model" / "agot") if s.name == "round"), "small")
    e = Compiler(Names(rsys)).compile_bool(parse("outcome == attacker"))  # 'attacker' is also a Player variable
    assert isinstance(e, App) and e.args[1] == Const("attacker", e.args[0].type)


def test_a_name_that_is_a_variable_and_a_value_of_its_own_type_must_be_quoted_for_the_value():
    duel = load_system(discover(ROOT / "tests" / "rulings" / "fixtures" / "duel_model.py")[0])
    names = Names(duel)
    with pytest.raises(ExprError, match="'attacker' is both a variable and a value of Side: write 'attacker' in "):
        Compiler(names).compile_bool(parse("attacker == attacker"))
    e = Compiler(names).compile_bool(parse("attacker == 'attacker'"))
    assert isinstance(e, App) and e.args[1] == Const("attacker", e.args[0].type)


def test_before_reads_the_state_before_the_step():
    e = Compiler(NAMES, post=True).compile_bool(parse("hand[player 1] <= before(hand[player 1])"))
    pre = EV.from_dict({**EV.as_dict(next(iter(EV.initial_states()))), "hand[p1]": 2})
    post = EV.from_dict({**EV.as_dict(pre), "hand[p1]": 0})
    assert EV.compile(e)(pre, post, {}) is True
    assert EV.compile(e)(post, pre, {}) is False
