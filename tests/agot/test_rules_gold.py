"""The gold economy (model/agot/gold.py): the review's findings F5 and F12 and the rule mutants.

``tests/core/test_core_gold.py`` proves every property and catches the original mutants.  The
``test_review_*`` tests reproduce findings of the AGoT rules review: each was run against commit 3e7e81c's
model (``RULEPROOF_AGOT_MODEL=<3e7e81c checkout>/model/agot``) and failed there; they pass on this model.
"""

from __future__ import annotations

import pytest
from agot_rules_helpers import (
    Concrete,
    assert_caught,
    drop_guard_label,
    ir_mutant_violates,
    load,
    mutant_names,
    rule_mutant_violates,
)

INCOME = "the active player collects income equal to the plot's gold value, once, from the treasury"
ROTATION = "in the marshaling phase players become active one at a time in player order from the first player"
MARSHAL_WHEN = ("a card enters play paid for from its owner's pool only in the marshaling phase, while its owner is "
                "the active player and has collected income")
ONLY_ACTIVE_COLLECTED = "only a player who has been active this phase has collected income (strengthening)"
EARLIER_COLLECTED = ("in the marshaling phase every player who was active before the active player collected income "
                     "(strengthening)")
ENDS = "the marshaling phase ends only after every player has been active and collected income"
PAID = "a marshalled card is in its owner's play area and its cost was paid exactly once"

CAUGHT_BY = [
    ("spend_without_return", "gold is conserved"),
    ("overspend", "no gold pool, treasury or token count goes below zero"),
    ("tokens_lost", "a card out of play carries no tokens"),
    ("marshal_events", "event cards are never in play"),
    ("double_pay", PAID),
    ("marshal_any_phase", MARSHAL_WHEN),
    ("marshal_not_active", MARSHAL_WHEN),
    ("marshal_before_income", MARSHAL_WHEN),
    ("active_twice", ROTATION),
    ("short_income", INCOME),
    ("put_into_play_pays", "putting a card into play by an ability pays nothing"),
    ("no_cost_floor", PAID),
    ("marshal_after_turn", MARSHAL_WHEN),
    ("income_at_phase_start", ONLY_ACTIVE_COLLECTED),
    ("pass_without_income", EARLIER_COLLECTED),
    ("pass_without_income", ENDS),
]


def test_every_rule_mutant_has_a_catching_property():
    assert {m for m, _ in CAUGHT_BY} == mutant_names("gold")


NEW = {"marshal_not_active", "marshal_before_income", "active_twice", "short_income", "marshal_any_phase",
       "marshal_after_turn", "income_at_phase_start", "pass_without_income"}


@pytest.mark.parametrize(("mutant", "prop"), [x for x in CAUGHT_BY if x[0] in NEW])
def test_new_mutant_is_caught_with_a_replayed_trace(mutant, prop):
    assert_caught("gold", mutant, prop, scenario="small", depth=6)


def _richest(c: Concrete) -> dict[str, int]:
    """Both players start the marshaling phase with the most gold the scenario allows; the rest is in the treasury."""
    top = {iv.var: max(iv.values) for iv in c.system.init_vars if iv.var in ("gold[p1]", "gold[p2]", "treasury")}
    return {"gold[p1]": top["gold[p1]"], "gold[p2]": top["gold[p2]"],
            "treasury": top["treasury"] - top["gold[p1]"] - top["gold[p2]"]}


def test_review_f5_income_is_paid_in_full_and_gains_are_not_refused():
    """F5 (medium). Income: "gaining an amount of gold from the treasury equal to the gold value on his or her
    revealed plot card"; Tokens, Running out of: "There is no limit to the number of gold ... tokens".  With the
    players holding all the gold they may start with, player 1 still collects the full income of 4 and may gain
    gold from a card ability (at 3e7e81c the treasury was empty there: income 0, gains refused)."""
    c = Concrete(load("gold", "default"))
    start = c.state(_richest(c))
    s = c.step("collect_income(p1)", start)
    assert c.get(s, "gold[p1]") == c.get(start, "gold[p1]") + 4
    assert c.get(s, "treasury") == c.get(start, "treasury") - 4
    assert c.enabled("gain_gold(p1)", s)


def test_review_f12_each_player_is_active_once_and_collects_income_before_marshaling():
    """F12 (medium). 3.2: the active player collects income; 3.3: "If upon reaching this step all players have been
    the active player this phase, proceed to step 3.4."  Player 1 cannot marshal before collecting income, and after
    players 1 and 2 have been active the turn does not come back to player 1 (at 3e7e81c it did, and player 1
    marshalled again)."""
    c = Concrete(load("gold", "default"))
    first_active = {"been_active[p1]": True} if any(v.name == "been_active[p1]" for v in c.system.vars) else {}
    s = c.state({"gold[p1]": 5, "gold[p2]": 5, "treasury": 30, **first_active})
    assert not c.enabled("marshal(p1, c1)", s)  # c1 costs 2: gold is there, income is not collected
    s = c.step("collect_income(p1)", s)
    assert c.enabled("marshal(p1, c1)", s)
    s = c.step("next_player", s)
    assert c.get(s, "active") == "p2" and not c.enabled("marshal(p1, c1)", s)
    s = c.step("next_player", c.step("collect_income(p2)", s))
    assert s is None or c.get(s, "active") != "p1"


# ------------------------------------------------------------------ phases and cost reductions (IR mutants)
STEPS = [
    ("drop-update gain_reduction: reduction", "a cost reduction gained lowers the next cost by 1 more"),
    ("off-by-one gain_reduction: reduction", "a cost reduction gained lowers the next cost by 1 more"),
    ("drop-update taxation: reduction", "a cost reduction lasts until the end of the round"),
    ("drop-update next_phase: phase", "the phases follow in order: marshaling, challenges, taxation"),
    ('a.require(phase != "taxation")', "the phases follow in order: marshaling, challenges, taxation"),
]


@pytest.mark.parametrize(("label", "prop"), STEPS)
def test_a_phase_or_a_cost_reduction_that_goes_wrong_is_caught(label, prop):
    """Each of these mutants survived every gold property before these were added (judged by reading the model):
    a cost reduction gained that changes nothing (or counts 2), one that outlives its round, a phase that does
    not advance, and (survived at 76587f0) a phase step taken in the taxation phase, where it leaves the phase
    as it is (the taxation phase ends only by returning unspent gold, 7.2 and 7.5)."""
    if label.startswith("a.require("):
        label = drop_guard_label("gold", "next_phase", label)
    assert ir_mutant_violates(load("gold", "small"), label, [prop], depth=4) == [prop]


POOL_BOUND = ("a pool holds at most its starting gold, one income and the gold the scenario's abilities may add "
              "(strengthening)")


@pytest.mark.parametrize(("family", "require", "part"), [
    ("gain_gold", "a.require(room_for_ability_gold(p))", ""),
    ("take_gold", 'a.require(zone[c] == "play", tokens[c] >= 1, room_for_ability_gold(p))', " #3"),
])
def test_ability_gold_past_the_scenarios_bound_is_caught(family, require, part):
    """The scenario's bound (not a rule): abilities add gold to a pool only while it has room (its starting gold,
    its income once collected and ``ability_gold`` more).  A gain or a move from a card past it breaks the pool
    bound the scenario promises (at 76587f0 the bound was a per-round count the game does not show, whose mutants
    survived and which kept the engine from proving the unobservable record ``entered`` irrelevant)."""
    label = drop_guard_label("gold", family, require) + part
    assert ir_mutant_violates(load("gold", "small"), label, [POOL_BOUND], depth=5) == [POOL_BOUND]


def test_abilities_add_gold_to_a_pool_only_while_it_has_room():
    """Small scenario: player 1 starts with 2 gold (the most it may start with), has not collected income and the
    scenario's abilities may add 1: one gain fills the pool; gold on a card stays there until gold is spent."""
    s = load("gold", "small")
    c = Concrete(s)
    top = max(next(iv.values for iv in s.init_vars if iv.var == "treasury"))
    st = c.state({"phase": "challenges", "zone[c1]": "play", "gold[p1]": 2, "treasury": top - 2})
    st = c.step("gain_gold(p1)", st)
    assert c.get(st, "gold[p1]") == 3 and not c.enabled("gain_gold(p1)", st)
    st = c.step("place_gold(c1)", st)  # placing gold on a card is bounded by the card's room alone
    assert st is not None and c.get(st, "tokens[c1]") == 1
    assert not c.enabled("take_gold(c1)", st)  # the pool has no room
    st = c.step("pay_ability(p1)", st, {"amount": 1})
    st = c.step("take_gold(c1)", st)  # spent gold made room
    assert st is not None and (c.get(st, "gold[p1]"), c.get(st, "tokens[c1]")) == (3, 0)


# ------------------------------------------------------------------ review F12/F15: misreadings, not dropped guards
MISREADINGS = [
    ("marshal_after_turn", {MARSHAL_WHEN}),
    ("income_at_phase_start", {ONLY_ACTIVE_COLLECTED,
                               "a new marshaling phase starts with the chosen first player active",
                               "taxation returns every player's unspent gold to the treasury"}),
    ("pass_without_income", {EARLIER_COLLECTED, ENDS,
                             "the turn passes to the next player in player order, after the active player collected "
                             "income"}),
]


@pytest.mark.parametrize(("mutant", "props"), MISREADINGS)
def test_review_f15_a_misreading_of_the_marshaling_phase_is_caught(mutant, props):
    """F12/F15 (review): the property "marshalling happens only in the marshaling phase, by the active player, after
    collecting income" was the guard of ``marshal`` restated, so it caught a dropped guard and nothing else.  It is
    now stated over every step, on what the game shows (a card going from hand to play while gold leaves its
    owner's pool), and the end of the phase asks that every player, not only the last active one, collected income.
    Each rule mutant here misreads 3.2/3.3 (a player goes on marshaling after the turn passed; every player collects
    income when the phase begins; income is optional), and these are all the properties that catch it: the step
    property alone catches the first, so the test fails without it."""
    assert rule_mutant_violates("gold", mutant, "small", depth=6) == props


def test_review_f15_the_dropped_guards_of_marshal_are_caught_by_the_step_property():
    """Each part of ``marshal``'s requirement ``phase == "marshaling", active == p, collected[p]`` dropped (the IR
    mutants the guard-restating property used to catch) is caught by the property stated over every step."""
    line = drop_guard_label("gold", "marshal", 'a.require(phase == "marshaling", active == p, collected[p])')
    s = load("gold", "small")
    for label in (line, line + " #2", line + " #3"):
        assert MARSHAL_WHEN in ir_mutant_violates(s, label, [MARSHAL_WHEN], depth=6), label
