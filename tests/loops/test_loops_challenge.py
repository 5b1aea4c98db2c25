"""A card's part in the current challenge, in the loop model, on real cards (Rules Reference: Challenges;
Participating; the FAQ's "removed from the challenge").

A loop happens at one moment of the game; if that moment is inside a challenge, each card in play is attacking,
defending or not participating (the attackers one player's, the defenders the other's), and that changes only when
a card is removed from the challenge or leaves play.

Cards: Septa Nysterica (08004: "Action: Kneel Septa Nysterica to choose an attacking character with STR 4 or lower.
Stand that character and remove it from the challenge."), Maester Ballabar (09014: "Action: During a challenge in
which you control a participating character, kneel Maester Ballabar to choose a character with the lowest STR among
participating characters. Stand that character and remove it from the challenge.").  The removal has a mutant (the
semantics table with its entry swapped) that the same steps catch.
"""

from __future__ import annotations

from realcards import Run, encoding, model

from ruleproof.loops import Category
from ruleproof.loops.lasso import classify

SEPTA, BALLABAR = "08004", "09014"


def _start(mutant: str = "") -> Run:
    enc = encoding([(SEPTA, 0), (BALLABAR, 0)])
    assert not any("role" in x.phrase or "during challenge" in x.phrase for x in enc.left_out), enc.left_out
    return Run(model(enc, mutant), zone={SEPTA: "play", BALLABAR: "play"}, standing={SEPTA: True, BALLABAR: False},
               role={SEPTA: "attacking", BALLABAR: "attacking"}, pos=0)


def test_a_character_removed_from_the_challenge_is_no_longer_attacking() -> None:
    run = _start()
    assert run.step(0, target0=BALLABAR)
    assert run.get("standing", BALLABAR) is True and run.get("role", BALLABAR) == "none"
    assert run.step(1, target0=SEPTA)  # Septa still participates: Ballabar's play restriction holds
    assert run.get("role", SEPTA) == "none" and run.get("standing", SEPTA) is True
    assert not run.step(0, target0=BALLABAR)  # Ballabar is no longer an attacking character


def test_the_pair_is_not_a_loop_once_both_have_left_the_challenge() -> None:
    """Each removal takes a character out of the challenge for good: the pair cannot repeat (before, with the
    challenge not in the model, the model found an unbounded loop and the answer was unknown)."""
    r = classify(encoding([(SEPTA, 0), (BALLABAR, 0)]), timeout=60)
    assert r.category is Category.NOT_A_LOOP, r.reason


def test_mutant_removal_from_challenge_untracked_is_caught() -> None:
    run = _start("removal_from_challenge_untracked")
    assert run.step(0, target0=BALLABAR)
    assert run.get("role", BALLABAR) == "attacking"


QUEEN, MARGAERY, WYMAN = "09020", "06003", "17122"


def test_removing_a_participating_card_from_the_challenge_as_a_cost() -> None:
    """Queen of the Seven Kingdoms (09020: "Action: Stand attached character and remove it from the challenge to
    choose a participating character. Stand that character and remove it from the challenge. (Limit once per
    phase.)") on Margaery Tyrell: both pay only while Margaery kneels and participates; she and the chosen Wyman
    Manderly leave the challenge standing."""
    enc = encoding([(QUEEN, 2)], named=[MARGAERY, WYMAN])
    host = next(c.host for c in enc.cards if c.code == QUEEN)
    assert host == MARGAERY, host
    for part, ok in (("attacking", True), ("none", False)):
        run = Run(model(enc), zone={QUEEN: "play", MARGAERY: "play", WYMAN: "play"},
                  standing={MARGAERY: False, WYMAN: False}, role={MARGAERY: part, WYMAN: "attacking"}, pos=0)
        assert run.step(0, target0=WYMAN) is ok, part
        if ok:
            assert run.get("role", MARGAERY) == "none" and run.get("standing", MARGAERY) is True
            assert run.get("role", WYMAN) == "none" and run.get("standing", WYMAN) is True


MACE, ARMY = "00271", "00237"


def test_a_second_cost_paid_by_the_card_of_the_first() -> None:
    """Mace Tyrell (00271: "Action: Stand a participating Army character and remove it from the challenge to choose
    another participating character with equal or lower printed cost. Stand that character and remove it from the
    challenge."): The Bastard's Boys (an Army, printed cost 5) pays both costs; the chosen Wyman Manderly (printed
    cost 7) is not one of equal or lower printed cost, Septa Nysterica (3) is."""
    enc = encoding([(MACE, 1)], named=[ARMY, WYMAN, SEPTA])
    for target, ok in ((SEPTA, True), (WYMAN, False)):
        run = Run(model(enc), zone={MACE: "play", ARMY: "play", WYMAN: "play", SEPTA: "play"},
                  standing={ARMY: False, WYMAN: False, SEPTA: False},
                  role={ARMY: "attacking", WYMAN: "attacking", SEPTA: "attacking"}, pos=0)
        assert run.step(0, cost0=ARMY, target0=target) is ok, target
        if ok:
            assert run.get("role", ARMY) == "none" and run.get("standing", ARMY) is True
            assert run.get("role", SEPTA) == "none" and run.get("standing", SEPTA) is True
