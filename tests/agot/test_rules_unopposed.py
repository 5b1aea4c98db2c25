"""Challenge resolution: STR, the challenge winner and the unopposed bonus: model/agot/unopposed.py.

``test_review_f4_*`` and ``test_review_f11_*`` reproduce findings F4 and F11 of the AGoT rules review: run
against commit 3e7e81c's model (``RULEPROOF_AGOT_MODEL=<3e7e81c checkout>/model/agot``) they fail (the defender
won the FAQ's own example; there was no claim step); they pass on this model.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from agot_rules_helpers import (
    Concrete,
    assert_caught,
    drop_guard_label,
    full_check,
    ir_mutant_violates,
    load,
    mutant_names,
)

from ruleproof.ir import free_vars
from ruleproof.results import Verdict

REFERENCE = Path(__file__).resolve().parents[2] / "docs" / "reference" / "agot-rules-reference.txt"

UNOPPOSED = "a challenge is unopposed exactly when the defending STR is 0"
BONUS = "an unopposed challenge won by the attacker gains 1 power for the attacker"
SUM = "a side's STR is the sum of its characters' STR, each counted at zero or more"
NEG = "a character's negative STR never lowers its side's total"
FLOOR = "STR never counts below zero"
WINNER = "the challenge is won by the higher STR, ties to the attacker, with 1 STR and a participant"
TIES = "the attacker wins ties at 1 STR or more"
STR1 = "the attacker needs STR 1 or more to win"
PARTICIPANT = "a player needs a participating character to win"
RECENT = "each character's STR counts for the side of its most recent contribution"
CLAIM = "the claim result is applied after the challenge bonuses, only for a challenge the attacking player won"
CLAIM_END = "a challenge the attacking player won ends only after its claim result"
CLAIM_WON = "a claim result is applied only in a challenge the attacking player won"


@pytest.fixture(scope="module")
def default_results():
    return full_check("unopposed", "default", coverage_depth=5)


def test_every_unopposed_property_is_proved_at_two_players_six_characters(default_results):
    bad = [(r.property, r.verdict.value, r.reason) for r in default_results if r.verdict is not Verdict.PROVED]
    assert bad == []
    assert {r.property for r in default_results} >= {UNOPPOSED, BONUS, SUM, NEG, FLOOR, WINNER, TIES, STR1, PARTICIPANT}


def test_every_challenge_action_fires_within_the_checked_depth(default_results):
    cov = default_results[0].coverage
    assert cov is not None and cov.never == () and cov.unknown == ()
    assert {"determine", "gain_bonuses", "end_challenge", "contribute"} <= set(cov.fired)


def test_every_cited_section_is_a_rules_reference_section():
    sections = set(re.findall(r"^## (.+?)\s*$", REFERENCE.read_text(), flags=re.M))
    s = load("unopposed", "small")
    cited = {c for p in s.properties for c in p.cites} | {c for a in s.actions for c in a.cites}
    assert cited and cited <= sections, cited - sections


@pytest.mark.parametrize(
    ("mutant", "prop"),
    [
        ("unopposed_no_defenders", UNOPPOSED),
        ("no_floor", NEG),
        ("no_floor", SUM),
        ("side_floor", NEG),
        ("defender_wins_ties", TIES),
        ("zero_str_wins", STR1),
        ("contributors_win", PARTICIPANT),
        ("bonus_without_win", BONUS),
        ("bonus_any_win", BONUS),
        ("removal_wipes_contribution", RECENT),
        ("claim_without_win", CLAIM),
        ("claim_before_bonus", CLAIM),
        ("claim_without_win", CLAIM_WON),
    ],
)
def test_mutant_is_caught_with_a_replayed_trace(mutant, prop):
    assert_caught("unopposed", mutant, prop, depth=6)


def test_every_rule_mutant_has_a_catching_property():
    assert mutant_names("unopposed") == {
        "unopposed_no_defenders",
        "no_floor",
        "side_floor",
        "defender_wins_ties",
        "zero_str_wins",
        "contributors_win",
        "bonus_without_win",
        "bonus_any_win",
        "removal_wipes_contribution",
        "claim_without_win",
        "claim_before_bonus",
    }


def test_winner_mutants_also_break_the_exact_winner_rule():
    """Each mutant of the winner rules also violates the property that states the whole rule."""
    for mutant in ("defender_wins_ties", "zero_str_wins", "contributors_win"):
        assert_caught("unopposed", mutant, WINNER, depth=6)


# ------------------------------------------------------------------ rulings as scenarios
# default scenario: c1..c6 belong to player 1, c7..c12 to player 2; every character starts standing
# with the challenge icon unless a test says otherwise.


def _start(c: Concrete, base: dict[str, int], **extra):
    values = {f"standing[c{i}]": True for i in range(1, 13)}
    values.update({f"icon[c{i}]": True for i in range(1, 13)})
    values.update({f"base[c{i}]": 0 for i in range(1, 13)})
    values.update({f"base[{k}]": b for k, b in base.items()})
    values.update(extra)
    return c.state(values)


def _attack(c: Concrete, s, attackers: list[str], defenders: list[str]):
    s = c.step("initiate(p1, p2)", s, {f"attack_c{i}": f"c{i}" in attackers for i in range(1, 7)})
    assert s is not None
    s = c.step("declare_defenders(p2)", s, {f"defend_c{i}": f"c{i}" in defenders for i in range(7, 13)})
    assert s is not None
    return s


def _resolve(c: Concrete, s):
    s = c.step("determine", s)
    decided = (c.get(s, "winner"), c.get(s, "unopposed"), c.get(s, "att_str"), c.get(s, "def_str"))
    s = c.step("gain_bonuses", s)
    return decided, s


def test_defenders_with_zero_total_str_leave_the_challenge_unopposed():
    """Unopposed: "This can occur if the defending player controls no participating characters, or if
    there are defending characters but the total defending STR is 0." A STR 1 defender given -2 STR counts
    0 (Modifiers: any resultant value below zero is treated as zero): the attacker wins unopposed and gains
    1 power (4.2.3)."""
    c = Concrete(load("unopposed", "default"))
    s = _attack(c, _start(c, {"c1": 2, "c7": 1}, **{"power[p1]": 1}), ["c1"], ["c7"])
    s = c.step("modify_str(c7)", s, {"amount": -2})
    decided, s = _resolve(c, s)
    assert decided == ("attacker", True, 2, 0)
    assert (c.get(s, "power[p1]"), c.get(s, "power[p2]")) == (2, 0)


def test_no_defenders_and_an_attacker_with_zero_str_wins_nothing():
    """Winning a Challenge: "A player must count at least 1 total STR ... in order to win a challenge";
    with no defenders the defending side counts 0 STR, but the attacker at 0 STR does not win, so no
    unopposed bonus is gained."""
    c = Concrete(load("unopposed", "default"))
    s = _attack(c, _start(c, {"c1": 0}), ["c1"], [])
    decided, s = _resolve(c, s)
    assert decided == ("nobody", True, 0, 0)
    assert c.get(s, "power[p1]") == 0


def test_a_tie_goes_to_the_attacker_and_is_not_unopposed():
    """4.2.2: in the case of a tie the challenge is won by the attacking player; the defending side
    counted 2 STR, so there is no unopposed bonus."""
    c = Concrete(load("unopposed", "default"))
    s = _attack(c, _start(c, {"c1": 2, "c7": 2}), ["c1"], ["c7"])
    decided, s = _resolve(c, s)
    assert decided == ("attacker", False, 2, 2)
    assert c.get(s, "power[p1]") == 0


def test_negative_str_of_one_defender_does_not_cancel_another():
    """Modifiers: a card cannot have negative STR. Defenders at 3 and at 1-2: the defending side counts 3,
    beating the attacker's 2."""
    c = Concrete(load("unopposed", "default"))
    s = _attack(c, _start(c, {"c1": 2, "c7": 3, "c8": 1}), ["c1"], ["c7", "c8"])
    s = c.step("modify_str(c8)", s, {"amount": -2})
    decided, _ = _resolve(c, s)
    assert decided == ("defender", False, 2, 3)


def test_an_action_applies_no_0_str_modifier_but_applies_one_in_excess_of_str():
    """The challenge's STR modifiers are Actions initiated in its action window (Action Windows), and "a card ability
    can only be initiated if its effect has the potential to change the game state" (Abilities): a 0 STR modifier is
    refused.  A -1 STR modifier on c7 at 0 STR leaves its STR at 0 but is applied (Modifiers: negative modifiers in
    excess of a value's current quantity can be applied): after a +1 STR modifier c7 still counts 0, and the
    attacker wins unopposed.  modifiers.py's "+X STR" with X = 0 is a constant ability's, never initiated, and is
    active (``test_rules_modifiers``)."""
    c = Concrete(load("unopposed", "default"))
    s = _attack(c, _start(c, {"c1": 2, "c7": 0}), ["c1"], ["c7"])
    assert c.step("modify_str(c7)", s, {"amount": 0}) is None
    s = c.step("modify_str(c7)", s, {"amount": -1})
    assert s is not None and c.get(s, "mod[c7]") == -1
    s = c.step("modify_str(c7)", s, {"amount": 1})
    assert s is not None and c.get(s, "mod[c7]") == 0
    decided, _ = _resolve(c, s)
    assert decided == ("attacker", True, 2, 0)


def test_a_contributing_character_makes_the_challenge_opposed_but_cannot_win_it():
    """FAQ (2.10): the STR of a character contributing its STR to a side is added to that player's total.
    No defenders are declared, but player 2's c9 (STR 3, not participating) contributes to the defending
    side: the defending player counts 3 STR, so the challenge is not unopposed; the defending side has
    no participating character, so it cannot win either (Winning a Challenge) and neither player wins."""
    c = Concrete(load("unopposed", "default"))
    s = _attack(c, _start(c, {"c1": 2, "c9": 3}), ["c1"], [])
    s = c.step("contribute(c9, defending)", s)
    decided, s = _resolve(c, s)
    assert decided == ("nobody", False, 2, 3)
    assert c.get(s, "power[p1]") == 0


def test_a_contributing_character_counts_once_for_the_most_recent_side():
    """FAQ (2.10): a character contributes its STR to one side only; the most recent effect prevails.
    c3 (STR 2) is made to contribute to the defending side, then to the attacking side: it counts 2 for the
    attacker and nothing for the defender, who has no STR left, so the attacker wins unopposed."""
    c = Concrete(load("unopposed", "default"))
    s = _attack(c, _start(c, {"c1": 1, "c3": 2}), ["c1"], [])
    s = c.step("contribute(c3, defending)", s)
    s = c.step("contribute(c3, attacking)", s)
    decided, s = _resolve(c, s)
    assert decided == ("attacker", True, 3, 0)
    assert c.get(s, "power[p1]") == 1


def test_the_unopposed_bonus_is_gained_after_the_result_and_before_the_challenge_ends():
    """FAQ quick reference (D.U.C.K.): determine the challenge result, then the unopposed bonus. Power
    is unchanged when the winner is determined; the bonus comes in step 4.2.3; the challenge cannot end
    before it."""
    c = Concrete(load("unopposed", "default"))
    s = _attack(c, _start(c, {"c1": 1}), ["c1"], [])
    s = c.step("determine", s)
    assert c.get(s, "power[p1]") == 0
    assert not c.enabled("end_challenge", s)
    s = c.step("gain_bonuses", s)
    assert c.get(s, "power[p1]") == 1
    assert not c.enabled("end_challenge", s)  # the attacker won: claim comes next (4.2.4)
    s = c.step("apply_claim", s)
    assert c.get(s, "stage") == "claimed"
    s = c.step("end_challenge", s)
    assert (c.get(s, "stage"), c.get(s, "side[c1]"), c.get(s, "participating[c1]")) == ("idle", "none", False)


def test_review_f11_claim_is_applied_only_for_an_attacker_win_after_the_bonus():
    """F11 (medium). 4.2.4: "If the attacking player is the challenge winner, the claim result of the challenge
    is now applied. [...] If the defending player wins the challenge, no claim result occurs." D.U.C.K.:
    Determine, Unopposed, Claim, Keywords. At 3e7e81c the challenge stopped at the bonus (no claim step at
    all; claim.py's claims fire without a challenge)."""
    c = Concrete(load("unopposed", "default"))
    # the attacker wins: claim only after the bonus, once, and the challenge cannot end without it
    s = _attack(c, _start(c, {"c1": 2, "c7": 1}), ["c1"], ["c7"])
    s = c.step("determine", s)
    assert not c.enabled("apply_claim", s)
    s = c.step("gain_bonuses", s)
    assert c.enabled("apply_claim", s) and not c.enabled("end_challenge", s)
    s = c.step("apply_claim", s)
    assert (c.get(s, "stage"), c.get(s, "winner"), c.get(s, "att_player")) == ("claimed", "attacker", "p1")
    assert not c.enabled("apply_claim", s)  # once per challenge
    # the defender wins: no claim result, and the challenge ends
    s = _attack(c, _start(c, {"c1": 1, "c7": 2}), ["c1"], ["c7"])
    decided, s = _resolve(c, s)
    assert decided[0] == "defender"
    assert not c.enabled("apply_claim", s)
    assert c.get(s, "stage") == "bonuses"
    s = c.step("end_challenge", s)
    assert c.get(s, "stage") == "idle"


def test_only_standing_characters_with_the_icon_can_be_declared():
    """4.2 and 4.2.1: an attacker or defender must be standing and have the challenge icon."""
    c = Concrete(load("unopposed", "default"))
    s0 = _start(c, {"c1": 2}, **{"standing[c2]": False, "icon[c3]": False})
    no = {f"attack_c{i}": False for i in range(1, 7)}
    assert c.step("initiate(p1, p2)", s0, {**no, "attack_c2": True}) is None
    assert c.step("initiate(p1, p2)", s0, {**no, "attack_c3": True}) is None
    assert c.step("initiate(p1, p2)", s0, no) is None  # at least one attacker
    s = c.step("initiate(p1, p2)", s0, {**no, "attack_c1": True})
    assert (
        c.step("declare_defenders(p2)", s, {**{f"defend_c{i}": False for i in range(7, 13)}, "defend_c7": True})
        is not None
    )
    s_knelt = c.state({**c.ev.as_dict(s), "standing[c7]": False})
    assert (
        c.step("declare_defenders(p2)", s_knelt, {**{f"defend_c{i}": False for i in range(7, 13)}, "defend_c7": True})
        is None
    )


def test_review_f4_removal_keeps_an_earlier_card_effect_contribution():
    """F4 (high). FAQ (2.10): "If an ability explicitly removes a character from a challenge, that ability only
    affects the participating status of that character. It will not remove the STR contribution of a character
    that is contributing its STR to a challenge by the effects of a card ability."  The FAQ's example: Anya
    makes Richard's Pycelle (c7, STR 2) contribute to Dennis's (the attacker's) side; My Mind Is My Weapon makes
    him participate for Richard (declared as a defender, beside c8, STR 2); Areo Hotah removes him.  Anya's
    effect is again the most recent: attacker 1 + 2 = 3 against 2, the attacker wins (at 3e7e81c the defender
    won, 1 against 2)."""
    c = Concrete(load("unopposed", "default"))
    s = c.step(
        "initiate(p1, p2)", _start(c, {"c1": 1, "c7": 2, "c8": 2}), {f"attack_c{i}": i == 1 for i in range(1, 7)}
    )
    s = c.step("contribute(c7, attacking)", s)
    s = c.step("declare_defenders(p2)", s, {f"defend_c{i}": i in (7, 8) for i in range(7, 13)})
    assert s is not None and c.get(s, "side[c7]") == "defending"
    s = c.step("remove_from_challenge(c7)", s)
    decided, _ = _resolve(c, s)
    assert decided == ("attacker", False, 3, 2)


# ------------------------------------------------------------------ the challenge's steps (IR mutants)
ORDER = "a challenge's framework steps come in the order of Appendix I ({})"
BEFORE = "STR changes only before the challenge winner is determined ({})"
ATTACKERS = "attackers are standing characters of the attacking player with the challenge icon, knelt, at least one"
DEFENDERS = "defenders are standing characters of the defending player with the challenge icon, knelt"
MODIFIER = "a STR modifier changes the character's STR by its amount"
NO_CHANGE_MOD = "a STR modifier is applied only if it changes the character's modifiers"
NO_CHANGE_SIDE = "a card effect makes a character contribute its STR only to a side it does not count for"
STEPS = [
    ("drop-update initiate: standing", ATTACKERS),
    (("initiate", 'a.require((stage == "idle") & (initiated[p] < CHALLENGES))', " (part 1 of 2)"),
     ORDER.format("initiate")),
    (("initiate", 'a.require((stage == "idle") & (initiated[p] < CHALLENGES))', " (part 2 of 2)"),
     "state stays within declared ranges"),
    (("initiate", "a.require(Or(*attack.values()))", ""), ATTACKERS),
    (("initiate", "a.require(~x | (standing[c] & icon[c]))", ""), ATTACKERS),
    ("drop-update declare_defenders: standing", DEFENDERS),
    ("drop-update declare_defenders: stage", ORDER.format("declare_defenders")),
    (("declare_defenders", "a.require(~x | (standing[c] & icon[c] & ~participating[c]))", ""), DEFENDERS),
    ("drop-update modify_str: mod", MODIFIER),
    ("off-by-one modify_str: mod", MODIFIER),
    (("modify_str", "a.require(window & (k != 0) & (mod[c] + k >= -max_mod) & (mod[c] + k <= max_mod))",
      " (part 1 of 4)"), BEFORE.format("modify_str")),
    (("remove_from_challenge", "a.require(window & participating[c])", " (part 1 of 2)"),
     BEFORE.format("remove_from_challenge")),
    (("determine", 'a.require(stage == "defenders")', ""), ORDER.format("determine")),
    (("gain_bonuses", 'a.require(stage == "decided")', ""), ORDER.format("gain_bonuses")),
    (("modify_str", "a.require(window & (k != 0) & (mod[c] + k >= -max_mod) & (mod[c] + k <= max_mod))",
      " (part 2 of 4)"), NO_CHANGE_MOD),
    (("contribute", "a.require(window & ~participating[c] & (side[c] != s))", " (part 3 of 3)"), NO_CHANGE_SIDE),
    ("drop-update apply_claim: stage", CLAIM),
    (("apply_claim", 'a.require(stage == "bonuses")', ""), CLAIM),
    (("apply_claim", 'a.require(winner == "attacker")', ""), CLAIM),
    (("end_challenge", 'a.require((stage == "claimed") | ((stage == "bonuses") & (winner != "attacker")))', ""),
     CLAIM_END),
]


@pytest.mark.parametrize(("mutant", "prop"), STEPS)
def test_a_step_of_the_challenge_that_goes_wrong_is_caught(mutant, prop):
    """Each of these mutants survived every challenge property before these were added (judged by reading the
    model): attackers or defenders not knelt, or not standing with the icon, or none at all; a challenge initiated
    while one resolves, or a fourth one; defenders declared twice; a STR modifier that changes nothing (or one too
    much), or one applied after the winner was determined; STR compared before defenders, bonuses before the
    winner. And, found by ``ruleproof mutants`` at cd5f752: a STR modifier of 0, or a contribution to the side the
    character already counts for, initiated although it cannot change the game state (Abilities); and step 4.2.4's
    own mutants: a claim step that does not end (applied again), applied from another step, without a win, or a
    challenge that ends without its claim result."""
    if isinstance(mutant, str):
        label = mutant
    else:
        family, require, part = mutant
        label = drop_guard_label("unopposed", family, require) + part
    assert ir_mutant_violates(load("unopposed", "small"), label, [prop], depth=5) == [prop]


def test_step_4_2_4_is_stated_on_the_challenge_stage_and_winner():
    """Step 4.2.4 is stated on what the game shows: the challenge's step (stage) and its winner. The model keeps no
    count of claim results (a record only its own claim step would write); the claim properties read the stage and
    the winner, and the claim's own IR mutants are caught by them (above)."""
    s = load("unopposed", "small")
    assert not [x for x in s.vars if "claim" in x.name]
    claim = [p for p in s.properties if p.name in (CLAIM, CLAIM_END, CLAIM_WON)]
    assert len(claim) == 3
    for p in claim:
        read = free_vars(p.expr).union(*(free_vars(c) for _, c in p.conds))
        assert {"stage", "winner"} <= read <= {"stage", "winner", "att_player", "def_player"}, (p.name, read)
