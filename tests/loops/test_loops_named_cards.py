"""Every named card is in the loop model, on the cycle or not: it can pay a cost, be a target, host an attachment;
a deck's cards join a model where a target of the cycle needs them (Costs; Target).

Cards: Wyman Manderly (17122: "Action: Kill a standing character you control."), Healing Expertise (03044:
"Interrupt: When a non-Army character you control would be killed, kneel a Maester character to save it."),
Maester Cressen (01046, a Maester), Archmaester Ebrose (09039: "Action: Kneel a Maester character to choose and
stand another Maester character.").
"""

from __future__ import annotations

from realcards import POOL, Run, encoding, model

from ruleproof.cards.pool import Deck, DeckEntry
from ruleproof.errors import SourceLoc
from ruleproof.loops import find_loops

WYMAN, HEALING, CRESSEN, EBROSE = "17122", "03044", "01046", "09039"
#: Healing Expertise as printed: "it" is the character that would be killed (the card reader, on 2026-12-01, reads
#: "save it" as the Maester that paid the cost: an override keeps the test about the rule).
HEALING_TEXT = """
"03044":
  - type: interrupt
    trigger: {event: would_be_killed, subject: {scope: you_control, card_type: character, not_traits: [Army]}}
    costs: [{kind: kneel, target: {ref: chosen, subject: {scope: you_control, card_type: character,
                                                          traits: [Maester]}}}]
    effects: [{kind: save, target: {ref: trigger, subject: {card_type: character}}}]
"""


def _save_with_a_maester(mutant: str = "") -> Run:
    """Wyman kills himself; Healing Expertise (in hand) saves him by kneeling Maester Cressen, a card off the cycle."""
    enc = encoding([(WYMAN, 0), (HEALING, 0)], named=[CRESSEN], overrides=HEALING_TEXT)
    assert [c.code for c in enc.cards] == [HEALING, WYMAN, CRESSEN]
    run = Run(model(enc, mutant), zone={WYMAN: "play", HEALING: "hand", CRESSEN: "play"},
              standing={WYMAN: True, CRESSEN: True}, pos=0)
    assert run.step(0, target0=WYMAN)
    return run


def test_a_named_card_off_the_cycle_pays_a_cost() -> None:
    run = _save_with_a_maester()
    assert run.step(1, cost0=CRESSEN)
    assert run.get("zone", WYMAN) == "play" and run.get("standing", CRESSEN) is False
    assert run.get("zone", HEALING) == "discard"  # an event goes to its owner's discard pile


def test_mutant_chosen_on_the_cycle_only_is_caught() -> None:
    """Read as "only the cycle's cards can be chosen", Healing Expertise has no Maester to kneel."""
    run = _save_with_a_maester("chosen_on_cycle")
    assert not run.step(1, cost0=CRESSEN)


def test_without_another_maester_named_ebrose_cannot_fire() -> None:
    """Archmaester Ebrose kneels a Maester (himself) to stand *another* Maester: alone, there is none."""
    alone = find_loops(POOL, codes=[EBROSE], timeout=30)
    named = find_loops(POOL, codes=[EBROSE, CRESSEN], timeout=30)
    (a,) = [r for r in alone.results if r.abilities == ((EBROSE, 0),)]
    (b,) = [r for r in named.results if r.abilities == ((EBROSE, 0),)]
    assert "can never fire" in a.reason and "Maester" in a.reason
    assert b.bystanders == (CRESSEN,) and "can never fire" not in b.reason


def test_a_decks_cards_join_where_a_target_needs_them() -> None:
    """With Maester Cressen in the deck list (not named), the model takes him for Ebrose's target."""
    card = POOL.get(CRESSEN)
    assert card is not None
    deck = Deck((DeckEntry(card, 1, SourceLoc("deck.txt", 1)),), "deck.txt")
    rep = find_loops(POOL, codes=[EBROSE], deck=deck, timeout=30)
    (r,) = [r for r in rep.results if r.abilities == ((EBROSE, 0),)]
    assert r.bystanders == (CRESSEN,) and "can never fire" not in r.reason


def test_the_other_players_named_card_is_a_target_too() -> None:
    """Archmaester Ebrose alone stands "another Maester": the opponent's Ebrose, named, is one."""
    rep = find_loops(POOL, codes=[EBROSE], opponent_codes=[EBROSE], timeout=30)
    (mine,) = [r for r in rep.results if r.abilities == ((EBROSE, 0),)]
    assert mine.bystanders == (f"opp:{EBROSE}",) and "cannot run twice" in mine.reason
