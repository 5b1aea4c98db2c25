"""Searching a deck, on real cards (Rules Reference: Search; Copy (of a card)).

Margaery Tyrell (06003: "Reaction: After a unique «King» or «Lord» character you control is killed, search your deck
for a unique «King» or «Lord» character and put it into play. Shuffle your deck.") with Robert Baratheon (01048, a
unique «King» «Lord»): the search looks at the whole deck, so it may find a card of the deck the loop model does not
hold (one of its count of the deck's other cards, which then has one fewer), and the player is not obliged to find
one even when Robert is there.  Skagos (11082: "Action: Kneel Skagos and sacrifice a standing [stark] card to search
your deck for a card with the same title as the sacrificed card and put it into play.") with two printings of Bear
Island Scout (11081 and 17124: one title) and Crannogmen (23011, another title): a copy is defined by title, whatever
the printing.  Each reading has a mutant of the semantics table that a step catches.

Whole candidates that were unknown before ("only the model's cards in the deck can be found", "the filter
'same_title' is not modelled") now have the answer the rules give: Skagos alone is not a loop (its cost kneels it and
nothing of the cycle stands it: Costs), and neither is Margaery alone (nothing of the cycle kills a «King» or «Lord»
again: Triggering Condition).
"""

from __future__ import annotations

from realcards import Run, encoding, model

from ruleproof.loops.encode.accept import Direction
from ruleproof.loops.lasso import Category, classify

MARGAERY, ROBERT = "06003", "01048"
SKAGOS, SCOUT, SCOUT2, CRANNOGMEN = "11082", "11081", "17124", "23011"


def _margaery(mutant: str = "", robert: str = "discard") -> Run:
    enc = encoding([(MARGAERY, 1)], named=[ROBERT])
    return Run(model(enc, mutant), zone={MARGAERY: "play", ROBERT: robert}, pending={"a0": True}, deck={"you": 3},
               pos=0)


def test_a_search_may_find_a_card_of_the_deck_the_model_does_not_hold() -> None:
    run = _margaery()
    assert run.step(0, target1_found=1)
    assert run.get("deck", "you") == 2 and run.get("zone", ROBERT) == "discard"
    empty = _margaery().set(deck={"you": 0})
    assert not empty.step(0, target1_found=1)  # an empty deck has no other card to find


def test_mutant_search_model_cards_only_is_caught() -> None:
    run = _margaery("search_model_cards_only")
    assert not run.step(0, target1_found=1)
    assert run.get("deck", "you") == 3


def test_a_player_is_not_obliged_to_find_a_card_that_fits() -> None:
    found, declined = _margaery(robert="deck"), _margaery(robert="deck")
    assert found.step(0, target1_found=0, target1=ROBERT) and found.get("zone", ROBERT) == "play"
    assert declined.step(0, target1_found=2)
    assert declined.get("zone", ROBERT) == "deck" and declined.get("deck", "you") == 3


def test_mutant_search_must_find_is_caught() -> None:
    assert not _margaery("search_must_find", robert="deck").step(0, target1_found=2)


def _skagos(mutant: str = "") -> Run:
    enc = encoding([(SKAGOS, 1)], named=[SCOUT, SCOUT2, CRANNOGMEN])
    return Run(model(enc, mutant), zone={SKAGOS: "play", SCOUT: "play", SCOUT2: "deck", CRANNOGMEN: "deck"},
               standing={SKAGOS: True, SCOUT: True}, deck={"you": 0}, pos=0)


def test_same_title_as_the_sacrificed_card_is_a_copy_by_title() -> None:
    enc = encoding([(SKAGOS, 1)], named=[SCOUT, SCOUT2, CRANNOGMEN])
    assert not any("same_title" in x.phrase for x in enc.left_out), enc.left_out
    run = _skagos()
    assert run.step(0, cost1=SCOUT, target1_found=0, target1=SCOUT2)
    assert run.get("zone", SCOUT) == "discard" and run.get("zone", SCOUT2) == "play"
    assert not _skagos().step(0, cost1=SCOUT, target1_found=0, target1=CRANNOGMEN)  # another title


def test_mutant_same_title_by_printing_is_caught() -> None:
    assert not _skagos("same_title_by_printing").step(0, cost1=SCOUT, target1_found=0, target1=SCOUT2)


def test_candidates_that_were_unknown_have_the_rules_answer() -> None:
    for cycle in ([(SKAGOS, 1)], [(MARGAERY, 1)]):
        enc = encoding(cycle)
        assert not any(x.direction is Direction.NARROWS for x in enc.left_out), enc.left_out
        r = classify(enc)
        assert r.category is Category.NOT_A_LOOP, r.reason
    skagos = classify(encoding([(SKAGOS, 1)]))
    assert "spends standing" in skagos.reason
    margaery = classify(encoding([(MARGAERY, 1)]))
    assert "raises its triggering condition" in margaery.reason


def test_a_card_found_outside_the_model_that_a_trigger_would_answer_stays_a_narrowing() -> None:
    """Ser Boros Blount (00161: "... search the top 10 cards of your deck for a «Kingsguard» character or a
    non-[lannister] «Knight» character and put it into play") with Ser Balon Swann (08069: "Reaction: After a
    non-[lannister] «Knight» character enters play under your control, gain 2 gold."): a card found outside the model
    would answer Ser Balon's trigger, and the model raises nothing about it, so a "not a loop" cannot rest on it."""
    enc = encoding([("00161", 2), ("08069", 1)])
    narrow = [x.phrase for x in enc.left_out if x.direction is Direction.NARROWS]
    assert any("would answer the trigger 'enters_play'" in p for p in narrow), enc.left_out
    assert classify(enc).category is not Category.NOT_A_LOOP


WAY, HIGHTOWER_SPY, CRANNOGMEN2 = "20040", "08063", "00238"


def _way(mutant: str = "", deck: int = 2) -> Run:
    """We Light the Way (20040: "Action: Kneel a «House Hightower» or «Oldtown» card to place the top card of your deck
    in shadows with a shadow token on it.") with Hightower Spy (08063) to kneel and Crannogmen (00238) in the deck."""
    enc = encoding([(WAY, 0)], named=[HIGHTOWER_SPY, CRANNOGMEN2])
    widen = [x.phrase for x in enc.left_out if x.direction is Direction.WIDENS]
    assert any("which card is at the top of the deck is not tracked" in p for p in widen), enc.left_out
    return Run(model(enc, mutant), zone={WAY: "hand", HIGHTOWER_SPY: "play", CRANNOGMEN2: "deck"},
               standing={HIGHTOWER_SPY: True}, gold={"you": 0}, deck={"you": deck}, pos=0)


def test_the_top_card_of_a_deck_is_any_card_of_it_and_it_must_move() -> None:
    other, own = _way(), _way()
    assert other.step(0, cost0=HIGHTOWER_SPY, target0_found=1)
    assert other.get("deck", "you") == 1 and other.get("zone", CRANNOGMEN2) == "deck"
    assert own.step(0, cost0=HIGHTOWER_SPY, target0_found=0, target0=CRANNOGMEN2)
    assert own.get("zone", CRANNOGMEN2) == "shadows" and own.get("deck", "you") == 2
    assert not _way().step(0, cost0=HIGHTOWER_SPY, target0_found=2)  # the deck holds cards: one moves
    empty = _way(deck=0).set(zone={CRANNOGMEN2: "discard"})
    assert not empty.step(0, cost0=HIGHTOWER_SPY, target0_found=2)  # no card to move: nothing would change


def test_mutant_search_model_cards_only_is_caught_on_the_top_card() -> None:
    assert not _way("search_model_cards_only").step(0, cost0=HIGHTOWER_SPY, target0_found=1)
