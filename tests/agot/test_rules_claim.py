"""Claim (military, intrigue, power), saves, kills and the dead pile: model/agot/claim.py."""

from __future__ import annotations

import pytest
from agot_rules_helpers import Concrete, assert_caught, full_check, load

from ruleproof.results import Verdict

SATISFIED = "military claim is always satisfied as fully as possible"


@pytest.fixture(scope="module")
def default_results():
    return full_check("claim", "default")


def test_every_claim_property_is_proved_at_two_players_six_characters(default_results):
    bad = [(r.property, r.verdict.value, r.reason) for r in default_results if r.verdict is not Verdict.PROVED]
    assert bad == []
    assert {r.property for r in default_results} >= {SATISFIED, "power moved by claim is not gained"}


def test_every_claim_action_fires_within_the_checked_depth(default_results):
    cov = default_results[0].coverage
    assert cov is not None and cov.never == () and cov.unknown == ()
    assert "kill_chosen" in cov.fired and "save_with_duplicate" in cov.fired


def test_melee_claim_invariants_are_proved():
    names = [
        "claim values, hands and power are never negative (strengthening)",
        "a forced kill and a claim are never resolved at the same time (strengthening)",
        "military claim only chooses characters the losing defender controls",
        "no more characters are chosen than the claim value (strengthening)",
        "a character that cannot be killed is never chosen for military claim",
        SATISFIED,
        "power moved by claim is not gained",
    ]
    from ruleproof.engines.common import Options
    from ruleproof.engines.runner import check_property

    s = load("claim", "melee")
    lemmas = []
    for n in names:
        r = check_property(s, s.prop(n), "kind", Options(depth=10, kmax=2, timeout=60), lemmas)
        assert r.verdict is Verdict.PROVED, (n, r.reason)
        if r.kind != "action":
            lemmas.append(s.prop(n))


@pytest.mark.parametrize(
    ("mutant", "prop"),
    [
        ("fewer_ok", SATISFIED),
        ("overkill", "military claim only chooses characters the losing defender controls"),
        ("kill_immune", "a character that cannot be killed is never chosen for military claim"),
        ("kill_immune", "a character that cannot be killed never reaches the dead pile"),
        ("saved_not_counted", "a character saved from military claim still counts toward the claim"),
        ("one_at_a_time", "the chosen characters are killed simultaneously"),
        ("save_no_discard", "a save discards a duplicate and keeps the character in play"),
        ("dead_to_controller", "a killed character is placed in its owner's dead pile"),
        ("choose_extra", "no more characters are chosen than the claim value (strengthening)"),
        ("dups_stay", "duplicates are only on characters in play (strengthening)"),
        ("intrigue_all_or_nothing", "intrigue claim discards as many cards as possible, up to the claim value"),
        ("power_copied", "power claim moves power from the loser's faction card to the winner's"),
        ("power_gained", "power moved by claim is not gained"),
        ("power_gained", "all power on faction cards was gained once"),
        ("valar_kills_immune", "kill each character kills every character in play that can be killed, and nothing else"),
    ],
)
def test_mutant_is_caught_with_a_replayed_trace(mutant, prop):
    assert_caught("claim", mutant, prop)


def test_overkill_mutant_also_breaks_full_satisfaction_at_default_size():
    """Killing `claim` characters although fewer are controlled over-satisfies the claim."""
    assert_caught("claim", "overkill", SATISFIED, scenario="default", depth=6)


# ------------------------------------------------------------------ rulings as scenarios
# default scenario: c1..c6 belong to player 1, c7..c12 to player 2.


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
