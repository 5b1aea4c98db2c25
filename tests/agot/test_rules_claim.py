"""Claim (military, intrigue, power), saves, kills and the dead pile: model/agot/claim.py.

Tests named ``test_review_*`` each reproduce a finding of the AGoT rules review
(``../shared/reviews/agot-rules-review.md``, commit 3e7e81c).  Each was run
against commit 3e7e81c's ``model/agot/claim.py`` and ``properties/agot/claim.py``
(``git checkout 3e7e81c -- model/agot/claim.py properties/agot/claim.py``)
and failed there; it passes on this model.
"""

from __future__ import annotations

import pytest
from agot_rules_helpers import (
    Concrete,
    assert_caught,
    check,
    drop_guard_label,
    full_check,
    ir_mutant_violates,
    load,
    mutant_names,
)

from ruleproof.results import Verdict

SATISFIED = "military claim is always satisfied as fully as possible"
LOSER = "military claim is applied against the player who lost the military challenge"
AT_MOST = "no more characters are chosen than the claim value"
SIMULTANEOUS = "the chosen characters are killed simultaneously"
KILL_EACH = "kill each character kills every character in play that can be killed and was not saved, and nothing else"
SAVE = "a save discards one duplicate and the character is saved from the imminent kill"
WOULD = "a duplicate saves only a character that would leave play"

# every rule mutant of claim.py and a property that catches it (consistency mutants: tests/core/test_consistency.py)
CAUGHT_BY = [
    ("fewer_ok", SATISFIED),
    ("overkill", "military claim only chooses characters the losing defender controls"),
    ("kill_immune", "a character that cannot be killed is never chosen for military claim"),
    ("kill_immune", "a character that cannot be killed never reaches the dead pile"),
    ("choose_extra", AT_MOST),
    ("claim_of_defender", AT_MOST),
    ("winner_kills", LOSER),
    ("saved_not_counted", "a saved character still counts toward the claim, or is saved from 'kill each'"),
    ("save_no_discard", SAVE),
    ("save_twice", SAVE),
    ("save_anytime", WOULD),
    ("save_only_from_claim", "sanity: a duplicate saves a character from 'kill each character'"),
    ("one_at_a_time", SIMULTANEOUS),
    ("dups_stay", "duplicates are only on unique characters in play"),
    ("dead_to_controller", "a killed character is placed in its owner's dead pile"),
    ("claim_never_ends", "after the chosen characters are killed the claim result is over"),
    ("intrigue_all_or_nothing", "intrigue claim discards as many cards as possible, up to the claim value"),
    ("power_copied", "power claim moves power from the loser's faction card to the winner's"),
    ("power_gained", "power moved by claim is not gained"),
    ("power_gained", "all power on faction cards was gained once"),
    ("power_after_victory", "no power changes hands once a player has won (gain_power)"),
    ("valar_kills_immune", KILL_EACH),
    ("valar_ignores_saves", KILL_EACH),
    ("valar_does_nothing", "a revealed 'kill each character in play' must resolve"),
    ("unreachable_save", "a duplicate may save the card it is on whenever that card would leave play"),
]
CONSISTENCY = {"exact_claim", "no_cannot_rule"}


@pytest.fixture(scope="module")
def default_results():
    return full_check("claim", "default")


def test_every_claim_property_is_proved_at_two_players_six_characters(default_results):
    bad = [(r.property, r.verdict.value, r.reason) for r in default_results if r.verdict is not Verdict.PROVED]
    assert bad == []
    assert {r.property for r in default_results} >= {SATISFIED, LOSER, KILL_EACH, "power moved by claim is not gained"}


def test_every_claim_action_fires_within_the_checked_depth(default_results):
    cov = default_results[0].coverage
    assert cov is not None and cov.never == () and cov.unknown == ()
    assert "kill_chosen" in cov.fired and "save_with_duplicate" in cov.fired


def test_every_rule_mutant_has_a_catching_property():
    assert {m for m, _ in CAUGHT_BY} | CONSISTENCY == mutant_names("claim")


@pytest.mark.parametrize(("mutant", "prop"), CAUGHT_BY)
def test_mutant_is_caught_with_a_replayed_trace(mutant, prop):
    if prop.startswith("sanity: "):  # the behaviour is lost: the target is no longer reached
        bad = load("claim", "small", mutant=mutant)
        assert check(bad, prop, depth=6).verdict is not Verdict.PROVED
        assert check(load("claim", "small"), prop, depth=6).verdict is Verdict.PROVED
        return
    assert_caught("claim", mutant, prop)


def test_overkill_mutant_also_breaks_full_satisfaction_at_default_size():
    """Killing `claim` characters although fewer are controlled over-satisfies the claim."""
    assert_caught("claim", "overkill", SATISFIED, scenario="default", depth=6)


# ------------------------------------------------------------------ rulings as scenarios
# default scenario: c1..c6 belong to player 1, c7..c12 to player 2; c1, c3, c5, c7, c9, c11 are unique.


def _board(c: Concrete, in_play: list[str], **extra):
    values = {f"zone[c{i}]": "hand" for i in range(1, 13)}
    values.update({f"zone[{x}]": "play" for x in in_play})
    values.update(extra)
    return c.state(values)


def test_fewer_characters_than_claim_kills_all_of_them():
    """Rules Reference, Military Claim: "If the player controls fewer characters than would satisfy
    claim, as much of the claim as possible must be satisfied." Claim 3, two characters: both die."""
    c = Concrete(load("claim", "default"))
    s = _board(c, ["c1", "c7", "c8"], **{"claim[p1]": 3})
    s = c.step("win_military(p1, p2)", s)
    assert not c.enabled("kill_chosen", s)  # nothing chosen yet: claim not satisfied
    s = c.step("choose_for_claim(c7)", s)
    assert not c.enabled("kill_chosen", s)  # one more character can still be chosen
    assert not c.enabled("choose_for_claim(c1)", s)  # the attacker's character is not the defender's
    s = c.step("choose_for_claim(c8)", s)
    assert c.enabled("kill_chosen", s)
    s = c.step("kill_chosen", s)
    assert [c.get(s, f"zone[{x}]") for x in ("c1", "c7", "c8")] == ["play", "dead", "dead"]


def test_a_character_that_cannot_be_killed_cannot_be_chosen_for_claim():
    """FAQ (2.1) Cannot be {Variable}ed: "A card that 'cannot be killed' cannot be chosen to be killed
    to satisfy military challenge claim." Claim 2, defender has c7 (cannot be killed) and c8."""
    c = Concrete(load("claim", "default"))
    s = _board(c, ["c7", "c8"], **{"claim[p1]": 2, "cannot_be_killed[c7]": True})
    s = c.step("win_military(p1, p2)", s)
    assert c.step("choose_for_claim(c7)", s) is None
    s = c.step("choose_for_claim(c8)", s)
    s = c.step("kill_chosen", s)  # as much as possible: only c8 could be chosen
    assert s is not None
    assert (c.get(s, "zone[c7]"), c.get(s, "zone[c8]")) == ("play", "dead")


def test_a_saved_character_still_counts_toward_claim():
    """Rules Reference, Save: "If a card is saved from [military] claim, the card was still chosen, and
    therefore is still counted towards the fulfillment of the claim." Claim 1: c7 is chosen and saved by
    discarding its duplicate; the claim is satisfied and c8 is not killed."""
    c = Concrete(load("claim", "default"))
    s = _board(c, ["c7", "c8"], **{"claim[p1]": 1, "dups[c7]": 1})
    s = c.step("choose_for_claim(c7)", c.step("win_military(p1, p2)", s))
    s = c.step("save_with_duplicate(c7)", s)
    assert not c.enabled("choose_for_claim(c8)", s)
    s = c.step("kill_chosen", s)
    assert (c.get(s, "zone[c7]"), c.get(s, "dups[c7]"), c.get(s, "zone[c8]")) == ("play", 0, "play")


def test_a_stolen_character_killed_for_claim_goes_to_its_owners_dead_pile():
    """Rules Reference, Military Claim (characters he or she controls) and Dead Pile (placed on top of
    its owner's dead pile): player 2 controls player 1's c1 and must kill it for claim 1."""
    c = Concrete(load("claim", "default"))
    s = _board(c, ["c1"], **{"claim[p1]": 1, "controller[c1]": "p2"})
    s = c.step("choose_for_claim(c1)", c.step("win_military(p1, p2)", s))
    s = c.step("kill_chosen", s)
    assert (c.get(s, "zone[c1]"), c.get(s, "controller[c1]")) == ("dead", "p1")


def test_power_claim_moves_what_there_is_and_nothing_is_gained():
    """Rules Reference, Power Claim ("as much of the claim as possible") and Moving Power ("Power that
    is moved is not considered 'gained'"): claim 3 against 2 power moves 2."""
    c = Concrete(load("claim", "default"))
    s = c.state({"claim[p1]": 3, "power[p2]": 2, "gained[p2]": 2, "power[p1]": 1, "gained[p1]": 1})
    s = c.step("power_claim(p1, p2)", s)
    assert [c.get(s, k) for k in ("power[p1]", "power[p2]", "gained[p1]", "gained[p2]")] == [3, 0, 1, 2]


def test_intrigue_claim_with_a_short_hand_discards_the_whole_hand():
    """Rules Reference, Intrigue Claim: fewer cards in hand than claim: as much as possible."""
    c = Concrete(load("claim", "default"))
    s = c.step("intrigue_claim(p2, p1)", c.state({"claim[p2]": 3, "hand[p1]": 2}))
    assert c.get(s, "hand[p1]") == 0


# ------------------------------------------------------------------ review findings (commit 3e7e81c)


def test_review_f1_a_duplicate_saves_from_kill_each_character():
    """F1 (high). Duplicates: "Interrupt: When the overlapping unique card would leave play, discard this
    duplicate to save that card." Valar Morghulis kills each character in play; player 2's unique c7 has a
    duplicate, so player 2 may discard it and c7 stays in play (c8 dies).  At 3e7e81c the save was not
    enabled and a PROVED property said c7 must die."""
    c = Concrete(load("claim", "default"))
    s = _board(c, ["c7", "c8"], **{"dups[c7]": 1})
    s = c.step("reveal_kill_each", s)
    assert c.enabled("save_with_duplicate(c7)", s)
    s = c.step("save_with_duplicate(c7)", s)
    s = c.step("kill_each", s)
    assert (c.get(s, "zone[c7]"), c.get(s, "dups[c7]"), c.get(s, "zone[c8]")) == ("play", 0, "dead")


def test_review_f2_claim_is_tied_to_the_loser_by_a_property():
    """F2 (high). Military Claim: the player who lost as the defender chooses.  The IR mutant that stops
    ``win_military`` from recording the defender makes the winner kill their own characters; at 3e7e81c
    it survived every property (they measured against the model's own ``defender``)."""
    s = load("claim", "small")
    names = [p.name for p in s.properties if p.kind.value == "action"]
    assert ir_mutant_violates(s, "drop-update win_military: defender", names, depth=3)


def test_review_f2_claim_count_comes_from_the_attackers_claim_value():
    """F2 (high). "... a number of different characters ... equal to the claim value on the attacking
    player's revealed plot card".  A model reading the defender's claim value is caught by a property that
    reads the claim value (at 3e7e81c the properties compared with the model's own ``due``)."""
    assert_caught("claim", "claim_of_defender", AT_MOST)


def test_review_f16_a_saved_character_is_not_saved_twice():
    """F16 / The word "Would": after a save no further interrupt to the original kill may be used.
    With two duplicates, one is discarded and the second stays (at 3e7e81c no property pinned this: the
    IR mutant dropping the guard spent both)."""
    c = Concrete(load("claim", "default"))
    s = _board(c, ["c7"], **{"dups[c7]": 2, "claim[p1]": 1})
    s = c.step("choose_for_claim(c7)", c.step("win_military(p1, p2)", s))
    s = c.step("save_with_duplicate(c7)", s)
    assert not c.enabled("save_with_duplicate(c7)", s)
    s = c.step("kill_chosen", s)
    assert (c.get(s, "zone[c7]"), c.get(s, "dups[c7]")) == ("play", 1)
    label = drop_guard_label("claim", "save_with_duplicate", "a.require(~saved[c])")
    assert ir_mutant_violates(load("claim", "small"), label, [SAVE], depth=5)


def test_review_f5_power_is_never_refused_for_lack_of_tokens():
    """F5 (medium). Tokens, Running out of: "There is no limit to the number of gold, power, or influence
    tokens".  With 27 power on the faction cards a player still gains power (at 3e7e81c the claim model
    refused gains above 8 tokens in all); only a player at 15 power ends the game (Winning the Game)."""
    c = Concrete(load("claim", "default"))
    s = c.state({"power[p1]": 13, "gained[p1]": 13, "power[p2]": 14, "gained[p2]": 14})
    assert c.enabled("gain_power(p1)", s)
    s = c.step("gain_power(p2)", s)
    assert c.get(s, "power[p2]") == 15
    assert not c.enabled("gain_power(p1)", s)


def test_review_row7_9_10_claim_and_forced_kill_end_and_start():
    """Review section 3, rows 7, 9 and 10: a claim that never ends, a 'kill each' that kills nobody and one
    that never ends survived every property at 3e7e81c; each IR mutant is now caught."""
    s = load("claim", "small")
    names = [p.name for p in s.properties if p.kind.value == "action"]
    assert ir_mutant_violates(s, "drop-update kill_chosen: pending", names, depth=4)
    assert ir_mutant_violates(s, "drop-update reveal_kill_each: valar", names, depth=2)
    assert ir_mutant_violates(s, "drop-update kill_each: valar", names, depth=3)


# ------------------------------------------------------------------ steps around the claim (IR mutants)
AROUND = [
    ("drop-update draw: hand", "a player who draws a card adds it to his or her hand"),
    ("off-by-one draw: hand", "a player who draws a card adds it to his or her hand"),
    ("drop-update enter_play: zone", "a character enters play from its owner's hand under its owner's control"),
    (("enter_play", 'a.require(zone[c] == "hand")'),
     "a character enters play from its owner's hand under its owner's control"),
    ("drop-update take_control: controller", "a player who takes control of a character in play controls it"),
    (("kill_each", "a.require(valar)"),
     "'kill each character' resolves once, only after a plot bearing it was revealed"),
    (("choose_for_claim", "a.require(eligible(c))", 2), "each character chosen for military claim is a different one"),
    (("take_control", "a.require(controller[c] != p)"), "taking control of a character changes who controls it"),
]


@pytest.mark.parametrize(("mutant", "prop"), AROUND)
def test_a_step_around_the_claim_that_goes_wrong_is_caught(mutant, prop):
    """Each of these mutants survived every claim property before these were added (judged by reading the model, the
    last two measured by `ruleproof mutants`): a draw that adds nothing (or 2 cards), a character that 'enters play'
    but stays in hand or comes back from the dead pile, a take control that changes nothing, 'kill each character'
    resolving with no plot revealed, a character chosen twice for one claim (part 2 of 4 of the requirement
    `eligible(c)`: not chosen yet), control taken by the player who already has it."""
    if isinstance(mutant, str):
        label = mutant
    else:
        label = drop_guard_label("claim", *mutant[:2])
        if len(mutant) == 3:
            label += f" (part {mutant[2]} of 4)"
    assert ir_mutant_violates(load("claim", "small"), label, [prop], depth=4) == [prop]
