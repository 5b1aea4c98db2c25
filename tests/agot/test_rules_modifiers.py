"""Modifiers, base value, set modifiers and negative quantities: model/agot/modifiers.py.

``test_review_f3_*`` reproduces finding F3 of the AGoT rules review.  Run against commit 3e7e81c's model and
properties (``RULEPROOF_AGOT_MODEL=<3e7e81c checkout>/model/agot``) it fails: that model has no record of the
order of application for a property to read, so the review's rank-reversal bug cannot even be stated
against it (the review showed the bug passed all 15 properties there); it passes on this model.
"""

from __future__ import annotations

import pytest
from agot_rules_helpers import MODEL, Concrete, assert_caught, check, drop_guard_label, full_check, load, mutant_names

from ruleproof.cli_support import DEFAULT_RLIMIT
from ruleproof.engines.common import Options
from ruleproof.loader import discover
from ruleproof.mutants import MutantResult
from ruleproof.results import Verdict
from ruleproof.scale.mutants import MutantUnit, run_mutant_unit
from ruleproof.scale.systems import model_ref

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


CAUGHT_BY = [
    ("halve_first", "additive modifiers apply before halving"),
    ("round_each", "fractions are rounded up only after all modifiers"),
    ("no_floor", "a value never functions below zero"),
    ("first_set_wins", "the most recently applied set modifier overrides all others"),
    ("set_ignores_later", "a +/- modifier applied while a value is set does not change it"),
    ("incremental", ORDER),
    ("stale_remove", "with no modifier active a value is its base value"),
    ("rank_reversed", ORDER),  # needs three set modifiers: the default scenario
    ("zero_refused", "sanity: a +/- modifier of 0 can be active"),
]
CONSISTENCY = {"simultaneous_no_order"}  # the determinism check: tests/core/test_consistency.py


def test_every_rule_mutant_has_a_catching_property():
    assert {m for m, _ in CAUGHT_BY} | CONSISTENCY == mutant_names("modifiers")


@pytest.mark.parametrize(("mutant", "prop"), CAUGHT_BY)
def test_mutant_is_caught_with_a_replayed_trace(mutant, prop):
    if prop.startswith("sanity: "):  # the behaviour is lost: the target is proved unreachable
        assert check(load("modifiers", "small", mutant=mutant), prop, engine="chc").verdict is Verdict.VIOLATED
        assert check(load("modifiers", "small"), prop, depth=2).verdict is Verdict.PROVED
        return
    if mutant == "rank_reversed":
        assert_caught("modifiers", mutant, prop, scenario="default", depth=4)
        return
    assert_caught("modifiers", mutant, prop)


def test_review_f3_most_recent_set_modifier_is_judged_by_the_order_of_application():
    """F3 (high). Modifiers: "If multiple set modifiers are in conflict, the most recently applied set
    modifier takes precedence."  From base 5: set to 1, then to 2, then to 3; the oldest (set to 1) expires.
    A model that re-ranks the remaining set modifiers in reverse gives 2 although set-to-3 is the most
    recent.  At 3e7e81c every property compared with the model's own ranking and all held; now the
    properties read the order of application, and the bug is a violation with a replayed trace."""
    c = Concrete(load("modifiers", "default", mutant="rank_reversed"))
    s = c.state({"base": 5, "value": 5})
    for slot, to in (("s1", 1), ("s2", 2), ("s3", 3)):
        s = c.step(f"apply_set({slot})", s, {"to": to})
    s = c.step("remove_set(s1)", s)
    assert c.get(s, "value") == 2 and not c.holds(ORDER, s)
    good = Concrete(load("modifiers", "default"))
    g = good.state({"base": 5, "value": 5})
    for slot, to in (("s1", 1), ("s2", 2), ("s3", 3)):
        g = good.step(f"apply_set({slot})", g, {"to": to})
    g = good.step("remove_set(s1)", g)
    assert good.get(g, "value") == 3 and good.holds(ORDER, g)
    bad = check(load("modifiers", "default", mutant="rank_reversed"), ORDER, depth=4)
    assert bad.verdict is Verdict.VIOLATED


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


ACTIVE = [
    ("drop-update remove_add: add_on", "an expired +/- modifier was active and is no longer active"),
    ("drop-update apply_add: add_on", "an applied +/- modifier becomes active"),
    ("drop-update apply_double: double_on", "an applied doubling modifier becomes active"),
    ("drop-update apply_halve: halve_on", "an applied halving modifier becomes active"),
    ("drop-update remove_mult: double_on",
     "an expired doubling or halving modifier was active and is no longer active; the other kind stays"),
]


@pytest.mark.parametrize(("label", "prop"), ACTIVE)
def test_applying_or_expiring_a_modifier_makes_it_active_or_not(label, prop):
    """Modifiers: a modifier is applied (active) or removed; the step that forgets to do so is caught."""
    from agot_rules_helpers import ir_mutant_violates

    assert ir_mutant_violates(load("modifiers", "small"), label, [prop], depth=3) == [prop]


def test_only_an_active_modifier_expires():
    """Before 'an expired +/- modifier was active' (measured at b78f041), a +/- modifier that was never applied
    could expire (a step the rules do not allow) and no property noticed."""
    from agot_rules_helpers import drop_guard_label, ir_mutant_violates

    label = drop_guard_label("modifiers", "remove_add", "a.require(add_on[s])")
    prop = "an expired +/- modifier was active and is no longer active"
    assert ir_mutant_violates(load("modifiers", "small"), label, [prop], depth=2) == [prop]


def _judged(label: str) -> MutantResult:
    """The verdict of ``ruleproof mutants`` on the generated mutant ``label`` (every checked scenario)."""
    ref = model_ref(MODEL)
    spec = next(s for s in discover(MODEL) if s.name == "modifiers")
    unit = MutantUnit(ref, "modifiers", spec.checked, label, "modifiers",
                      Options(depth=6, rlimit=DEFAULT_RLIMIT, timeout=600))
    return run_mutant_unit(unit)


@pytest.mark.parametrize("label", ["drop-update remove_set: set_value", "off-by-one remove_set: set_value"])
def test_what_an_expired_set_modifier_leaves_in_its_slot_is_not_shown(label):
    """Modifiers: only an active set modifier sets the value; an expired one sets nothing, so the value its slot
    keeps is not part of the game (``set_value`` is shown only while its modifier is active). The order of
    application of the active set modifiers is shown (it decides which takes precedence), which makes the two
    sides' rankings agree: a mutant that leaves a stale value in the slot is proved equivalent (both survived at
    54f0f34, when ``later`` was hidden and the product system was not k-inductive)."""
    r = _judged(label)
    assert r.status == "equivalent", (r.status, r.reason)


def test_the_value_of_an_active_set_modifier_is_shown():
    """The other side of the declaration: a set modifier applied without its value is a difference, killed."""
    r = _judged("drop-update apply_set: set_value")
    assert r.status == "killed", (r.status, r.reason)


def test_a_base_change_to_the_value_it_has_is_not_initiated():
    """Abilities: "A card ability can only be initiated if its effect has the potential to change the game state."
    The drop of ``b != base`` in ``change_base`` (a "change" of the base value to the value it has) survived at
    54f0f34 and at d237b9d (landed as 9ee58ca); the property stating the rule catches it."""
    r = _judged(drop_guard_label("modifiers", "change_base", "a.require(b != base)"))
    assert r.status == "killed", (r.status, r.reason)
    assert r.killed_by == ("a change of the base value changes it",)


def test_a_0_modifier_is_active_and_changes_no_value():
    """Modifiers and Constant Abilities: a "+X STR" with X = 0 (a constant ability's "+1 STR for each" of no cards) is
    an active modifier; it changes no value, and a later doubling still doubles the same value.  Such a modifier
    comes from any source here, a constant ability among them, which is never initiated (Abilities: its application
    is mandatory), so the rule that an initiated ability's effect must have the potential to change the game state
    does not refuse it; unopposed.py's action-window modifier, an initiated Action, refuses it
    (``test_rules_unopposed``).  The rule mutant ``zero_refused`` is caught by the sanity target (CAUGHT_BY)."""
    c = Concrete(load("modifiers", "default"))
    s = c.state({"base": 3, "value": 3})
    s = c.step("apply_add(a1)", s, {"amount": 0})
    assert s is not None and c.get(s, "add_on[a1]") and c.get(s, "value") == 3
    s = c.step("apply_double(x1)", s)
    assert s is not None and c.get(s, "value") == 6
    cites = {a.family: a.cites for a in load("modifiers", "default").actions}
    assert "Constant Abilities" in cites["apply_add"]
    assert {"Abilities", "Action Windows"} <= set({a.family: a.cites for a in load("unopposed", "default").actions}
                                                  ["modify_str"])
