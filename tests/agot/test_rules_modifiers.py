"""Modifiers, base value, set modifiers and negative quantities: model/agot/modifiers.py."""

from __future__ import annotations

import pytest
from agot_rules_helpers import Concrete, assert_caught, full_check, load

from ruleproof.results import Verdict

ORDER = "a value depends only on its base value and the active modifiers, not their order"


@pytest.fixture(scope="module")
def results():
    return full_check("modifiers", "default")


def test_every_modifier_property_is_proved_for_all_values(results):
    bad = [(r.property, r.verdict.value, r.reason) for r in results if r.verdict is not Verdict.PROVED]
    assert bad == []
    assert all(r.engine.startswith("auto/kind") or r.kind == "reachable" for r in results)


def test_every_modifier_action_fires_within_the_checked_depth(results):
    cov = results[0].coverage
    assert cov is not None and cov.never == () and cov.unknown == ()


@pytest.mark.parametrize(
    ("mutant", "prop"),
    [
        ("halve_first", "additive modifiers apply before halving"),
        ("round_each", "fractions are rounded up only after all modifiers"),
        ("no_floor", "a value never functions below zero"),
        ("first_set_wins", "the most recently applied set modifier overrides all others"),
        ("set_ignores_later", "a +/- modifier applied while a value is set does not change it"),
        ("incremental", ORDER),
        ("stale_remove", "with no modifier active a value is its base value"),
    ],
)
def test_mutant_is_caught_with_a_replayed_trace(mutant, prop):
    assert_caught("modifiers", mutant, prop)


def test_conflicting_set_modifiers_most_recent_wins_and_later_non_set_modifiers_are_ignored():
    """Rules Reference, Modifiers: "the set modifier overrides all non-set modifiers (including any new
    non-set modifiers ...). If multiple set modifiers are in conflict, the most recently applied set
    modifier takes precedence." Base 5; set to 2, then set to 7; +3 while set; then they expire."""
    c = Concrete(load("modifiers", "default"))
    s = c.state({"base": 5, "value": 5})
    s = c.step("apply_set(s1)", s, {"to": 2})
    s = c.step("apply_set(s2)", s, {"to": 7})
    assert c.get(s, "value") == 7
    s = c.step("apply_add(a1)", s, {"amount": 3})
    assert c.get(s, "value") == 7
    s = c.step("remove_set(s2)", s)
    assert c.get(s, "value") == 2  # the earlier set modifier applies again
    s = c.step("remove_set(s1)", s)
    assert c.get(s, "value") == 8  # 5 + 3, recomputed from the base value


def test_negative_modifiers_in_excess_count_as_zero_and_halving_rounds_up():
    """Rules Reference, Modifiers: negative modifiers in excess can be applied, the result is treated as
    zero; additive before halving; fractions rounded up after all modifiers. Base 3: -3-3 gives 0;
    back to +2 and halved: ceil(5 / 2) = 3; doubled too: 5."""
    c = Concrete(load("modifiers", "default"))
    s = c.state({"base": 3, "value": 3})
    s = c.step("apply_add(a1)", s, {"amount": -3})
    s = c.step("apply_add(a2)", s, {"amount": -3})
    assert c.get(s, "value") == 0
    s = c.step("remove_add(a2)", s)
    s = c.step("remove_add(a1)", s)
    s = c.step("apply_add(a1)", s, {"amount": 2})
    s = c.step("apply_halve(x1)", s)
    assert c.get(s, "value") == 3
    s = c.step("apply_double(x1)", s)
    assert c.get(s, "value") == 5
