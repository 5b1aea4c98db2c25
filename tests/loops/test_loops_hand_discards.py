"""Whose hand a "discarded from ... hand" trigger answers, on real cards (Rules Reference: Triggering Condition;
Discard Pile).

Ser Daven Lannister (00150: "Reaction: After Ser Daven Lannister gains 1 or more power, each opponent must choose and
discard 1 card from their hand. Then, if you have more cards in hand than each opponent, draw 1 card.") makes the
opponent discard from their hand; Cersei Lannister (05001: "Reaction: After 1 or more cards are discarded from an
opponent's hand, ... Cersei Lannister gains 1 power.") answers that, not a discard from her own player's hand: the
ability graph links the two, and in the loop model the discard sets Cersei's reaction off.  The table's rule of hands
has a mutant (an opponent's hand read as the trigger's own player's) that the same step catches.
"""

from __future__ import annotations

from realcards import POOL, Run, encoding, keyed, model

from ruleproof.cards.graph import build_ability_graph, facts_from_pool

DAVEN, CERSEI, FANATIC = "00150", "05001", "17106"


def test_a_discard_from_the_opponents_hand_answers_an_opponents_hand_trigger() -> None:
    abil, _ = keyed([DAVEN, CERSEI])
    g = build_ability_graph(abil, facts_from_pool(POOL))
    assert g.has_edge((DAVEN, 1), (CERSEI, 1)), list(g.edges)
    assert "the opponent's hand" in g.edges[(DAVEN, 1), (CERSEI, 1)]["reason"]
    enc = encoding([(DAVEN, 1), (CERSEI, 1)])
    run = Run(model(enc), zone={DAVEN: "play", CERSEI: "play"}, pending={"a0": True}, hand={"you": 1, "opp": 2},
              deck={"you": 3}, power={CERSEI: 0}, pos=0)
    assert run.step(0, cond1=False)
    assert run.get("hand", "opp") == 1 and run.get("pending", "a1") is True
    assert run.step(1)
    assert run.get("power", CERSEI) == 1


def test_mutant_opponent_hand_as_own_is_caught() -> None:
    """Read as its own player's hand, Cersei's trigger would miss Ser Daven's discard from the opponent's hand."""
    enc = encoding([(DAVEN, 1), (CERSEI, 1)])
    run = Run(model(enc, "opponent_hand_as_own"), zone={DAVEN: "play", CERSEI: "play"}, pending={"a0": True},
              hand={"you": 1, "opp": 2}, deck={"you": 3}, power={CERSEI: 0}, pos=0)
    assert run.step(0, cond1=False)
    assert run.get("hand", "opp") == 1 and run.get("pending", "a1") is False
    assert not run.step(1)


def test_a_discard_from_your_own_hand_does_not() -> None:
    """Drowned God Fanatic (17106: "Interrupt: ... discard Drowned God Fanatic from your hand to cancel those
    effects.") discards from its own player's hand: that never answers Cersei's trigger."""
    abil, _ = keyed([FANATIC, CERSEI])
    g = build_ability_graph(abil, facts_from_pool(POOL))
    assert not g.has_edge((FANATIC, 1), (CERSEI, 1)), g.edges[(FANATIC, 1), (CERSEI, 1)]["reason"]


WARDEN, FLAMES, THORNS = "23006", "01064", "09004"


def test_a_trigger_on_a_discard_from_an_opponents_hand_or_deck() -> None:
    """The Warden of the West (23006: "Reaction: After 1 or more cards are discarded from an opponent's hand or deck
    during a challenge in which attached character is participating, draw that many cards."): it answers a discard
    from the opponent's hand (Seen In Flames, 01064: "... choose and discard 1 card from that hand") and from their
    deck, never from play; with a card of the cycle that takes cards out of a deck (The Queen of Thorns, 09004), where
    the model moves only its own cards, the candidate is refused rather than answered."""
    from ruleproof.cards.graph import Candidate
    from ruleproof.cards.semantics import Place, answers, trigger_of
    from ruleproof.loops.encode import Unsupported, encode
    from ruleproof.loops.search import _bystanders

    abil, cards = keyed([FLAMES, WARDEN, THORNS])
    trig = trigger_of(abil[WARDEN][2])
    assert trig is not None
    assert answers(trig, trig.event, Place.HAND) and answers(trig, trig.event, Place.DECK)
    assert not answers(trig, trig.event, Place.PLAY)
    g = build_ability_graph(abil, facts_from_pool(POOL))
    assert g.has_edge((FLAMES, 1), (WARDEN, 2)), list(g.edges)
    hosts = _bystanders(POOL, [])
    ok = encode(Candidate((FLAMES, WARDEN), ((FLAMES, 1), (WARDEN, 2)), (), (), False, True), abil, cards, hosts)
    assert not isinstance(ok, Unsupported), ok
    refused = encode(Candidate((THORNS, WARDEN), ((THORNS, 1), (WARDEN, 2)), (), (), False, True), abil, cards,
                     hosts)
    assert isinstance(refused, Unsupported) and "discard from a deck" in refused.reason
