"""Tokens placed on cards, and cards moved from the top of a deck, on real cards (Rules Reference: Influence Tokens;
Shadows).

Dark and Full of Terrors (20003: "Action: Choose a kneeling character with STR 3 or lower and place it in shadows
with a shadow token on it. While that card is in shadows, it gains shadow (X). X is its printed cost."): the move to
shadows is modelled, the token is a value the loop model does not track (an ability that reads tokens is refused or
named), so the candidate is decided.  We Light the Way (20040: "Action: Kneel a House Hightower or Oldtown card to place
the top card of your deck in shadows with a shadow token on it. ..."): the top card of your deck is any card of it,
one of the model's or one of the deck's others (which one is on top is not tracked: a widening named), so with Ser
Eldon Estermont the candidate is decided: the event goes to the discard pile once played, not a loop.  The top card
of an opponent's deck (The Tickler, 01088) is still refused rather than run on the model's own cards only.
"""

from __future__ import annotations

from realcards import keyed

from ruleproof.cards.graph import Candidate
from ruleproof.loops.encode import Encoding, Unsupported, encode
from ruleproof.loops.encode.accept import Direction
from ruleproof.loops.lasso import Category, classify

TERRORS, FINGER, LIGHT, ELDON = "20003", "16017", "20040", "13047"


def test_a_token_placed_is_a_change_the_model_does_not_track() -> None:
    abil, cards = keyed([FINGER, TERRORS])
    enc = encode(Candidate((FINGER, TERRORS), ((FINGER, 2), (TERRORS, 1)), (), (), False, True), abil, cards)
    assert isinstance(enc, Encoding), enc
    (token,) = [x for x in enc.left_out if "place_token" in x.phrase]
    assert token.direction is Direction.UNTRACKED
    r = classify(enc)
    assert r.category is Category.NOT_A_LOOP, r.reason  # Littlefinger's kneel is never restored


def test_the_top_card_of_your_deck_is_any_card_of_it() -> None:
    abil, cards = keyed([LIGHT, ELDON])
    enc = encode(Candidate((ELDON, LIGHT), ((ELDON, 0), (LIGHT, 0)), (), (), False, True), abil, cards)
    assert isinstance(enc, Encoding), enc
    (top,) = [x for x in enc.left_out if "which card is at the top of the deck" in x.phrase]
    assert top.direction is Direction.WIDENS
    r = classify(enc)
    assert r.category is Category.NOT_A_LOOP, r.reason


def test_the_top_card_of_an_opponents_deck_is_not_one_the_model_holds() -> None:
    abil, cards = keyed(["01088"])
    got = encode(Candidate(("01088",), (("01088", 0),), (), (), False, True), abil, cards)
    assert isinstance(got, Unsupported) and "top or bottom card of a deck" in got.reason, got
