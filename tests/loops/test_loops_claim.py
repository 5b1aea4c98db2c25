"""Applying another claim instead, on real cards (Rules Reference: Claim; Challenges).

Mya Stone (08117: "Interrupt: When claim is applied for a [military] or [intrigue] challenge in which you are the
defending player, kneel Mya Stone to apply [power] claim instead."): the claim a challenge applies is not tracked by
the loop model, but replacing it changes the game state, so Mya Stone initiates when claim is applied; and a
challenge applies its claim once, in its resolution: applying another claim instead replaces that one and raises no
new "claim is applied".  With At Night They Howl (08003: "Challenges Action: Choose and stand any number of «Direwolf»
characters ..."), unsupported before ("apply_claim is not modelled"), nothing of the cycle raises Mya Stone's
triggering condition again: not a loop.  The table's entry has a mutant (applying claim instead is a new "claim is
applied") that the same reading catches.
"""

from __future__ import annotations

from realcards import Run, encoding, keyed, model

from ruleproof.cards.graph import Candidate
from ruleproof.cards.semantics import mutant
from ruleproof.loops.encode import Encoding, encode
from ruleproof.loops.lasso import Category, classify

MYA, HOWL = "08117", "08003"


def test_another_claim_instead_is_a_change_of_the_game_state() -> None:
    run = Run(model(encoding([(MYA, 0)])), zone={MYA: "play"}, standing={MYA: True}, pending={"a0": True}, pos=0)
    assert run.step(0)
    assert run.get("standing", MYA) is False and run.get("pending", "a0") is False


def _pair(rules_name: str = "") -> Encoding:
    abil, cards = keyed([HOWL, MYA])
    cand = Candidate((HOWL, MYA), ((HOWL, 0), (MYA, 0)), (), (), False, True)
    enc = encode(cand, abil, cards, rules=mutant(rules_name))
    assert isinstance(enc, Encoding), enc
    return enc


def test_the_claim_applied_instead_raises_no_new_claim() -> None:
    enc = _pair()
    assert "nothing in the cycle raises its triggering condition (claim_applied) again" in enc.static
    r = classify(encoding([(HOWL, 0), (MYA, 0)]))
    assert r.category is Category.NOT_A_LOOP, r.reason
    assert "claim_applied" in r.reason


def test_mutant_claim_applied_again_is_caught() -> None:
    assert "claim_applied" not in _pair("claim_applied_again").static
