"""Gold moved between the players' gold pools (and the opponent's pools in the model), ending a challenge, and a
choice of effects ("either: ..., or ..."), on real cards (Rules Reference: Move; Gold; Gains; Effects).

Cards: Clydas (17117: "Action: Kneel Clydas or a Raven card to move 1 gold from an opponent's gold pool to your
own. (Limit twice per round.)"), I Shall Win No Glory (07024: "Reaction: After a challenge is initiated against you,
kneel 3 Builder characters, 3 Ranger characters, or 3 Steward characters to end the challenge immediately with no
winner or loser."), Ser Barristan Selmy (00246, below).  The gold and the choice rules have a mutant each (the
semantics table with its entry swapped) that the same steps catch.
"""

from __future__ import annotations

from realcards import Run, encoding, model

from ruleproof.loops import Category
from ruleproof.loops.lasso import classify

CLYDAS, GLORY = "17117", "07024"


def _clydas(mutant: str = "", opp_gold: int = 2) -> Run:
    enc = encoding([(CLYDAS, 0)])
    assert enc.players == ("you", "opp")  # the opponent's gold pool is in the model
    return Run(model(enc, mutant), zone={CLYDAS: "play"}, standing={CLYDAS: True}, gold={"you": 0, "opp": opp_gold},
               pos=0)


def test_moved_gold_leaves_the_opponents_pool() -> None:
    run = _clydas()
    assert run.step(0)
    assert run.get("gold", "you") == 1 and run.get("gold", "opp") == 1


def test_no_gold_to_move_means_no_change_and_the_ability_cannot_be_initiated() -> None:
    assert not _clydas(opp_gold=0).step(0)


def test_mutant_move_gold_from_treasury_is_caught() -> None:
    run = _clydas("move_gold_from_treasury", opp_gold=0)
    assert run.step(0)
    assert run.get("gold", "you") == 1 and run.get("gold", "opp") == 0


def test_ending_a_challenge_is_a_change_the_model_does_not_track() -> None:
    """I Shall Win No Glory alone: ending the challenge is named as not tracked, and the cycle cannot repeat (its
    kneeling cost is restored by nothing), which the report says without the solver."""
    enc = encoding([(GLORY, 0)])
    assert any("challenge in progress" in x.phrase and x.direction.value == "untracked" for x in enc.left_out)
    assert "spends standing that nothing in the cycle restores" in enc.static


BARRISTAN, JAIME = "00246", "00151"


def _barristan(option: int, mutant: str = "") -> Run:
    """Ser Barristan Selmy (00246: "Reaction: After you win a challenge in which Ser Barristan Selmy is participating,
    discard 1 card from your hand to, either: stand each defending Knight character, or raise the claim value on your
    revealed plot card by 1 until the end of the challenge.") with a kneeling defending Knight, Ser Jaime Lannister."""
    enc = encoding([(BARRISTAN, 1)], named=[JAIME])
    run = Run(model(enc, mutant), zone={BARRISTAN: "play", JAIME: "play"}, standing={JAIME: False},
              role={JAIME: "defending"}, pending={"a0": True}, hand={"you": 2}, pos=0)
    assert run.step(0, target0_option=option)
    assert run.get("hand", "you") == 1  # the cost is paid whichever option
    return run


def test_a_choice_resolves_the_option_the_player_picks() -> None:
    assert _barristan(0).get("standing", JAIME) is True
    assert _barristan(1).get("standing", JAIME) is False  # the claim raise: not tracked, nothing stands


def test_mutant_choice_untracked_is_caught() -> None:
    assert _barristan(0, "choice_untracked").get("standing", JAIME) is False


NORTH, WYMAN, CROWS = "06042", "17122", "opp:08033"


def _north(mutant: str = "") -> tuple[Run, bool]:
    """The North Remembers (06042: "Challenges Action: Each player sacrifices a character or location.") with your
    Wyman Manderly and the opponent's Stormcrows in play."""
    enc = encoding([(NORTH, 0)], named=[WYMAN, CROWS])
    run = Run(model(enc, mutant), zone={NORTH: "hand", WYMAN: "play", CROWS: "play"}, gold={"you": 5}, pos=0)
    return run, run.step(0, target0_you=WYMAN, target0_opp=CROWS, target0=WYMAN)


def test_each_player_sacrifices_one_of_their_own_cards() -> None:
    run, ok = _north()
    assert ok and run.get("zone", WYMAN) == "discard" and run.get("zone", CROWS) == "discard"
    assert run.get("gold", "you") == 3  # the event's printed cost


def test_mutant_initiator_chooses_for_all_is_caught() -> None:
    """Read as the initiator's choice, only a card of yours can be sacrificed (Sacrifice: a card you control)."""
    run, ok = _north("initiator_chooses_for_all")
    assert ok and run.get("zone", WYMAN) == "discard" and run.get("zone", CROWS) == "play"


GATES, STATUE = "11038", "13058"


def test_a_card_that_discards_itself_from_hand_as_a_cost_is_used_from_hand() -> None:
    """City Gates (11038: "Action: Pay 1 gold and discard City Gates from your hand to draw 1 card."): from hand it
    draws a card and goes to the discard pile (raising "discarded from your hand"); in play it cannot be used."""
    enc = encoding([(GATES, 1)])
    assert not enc.left_out, enc.left_out
    run = Run(model(enc), zone={GATES: "hand"}, gold={"you": 1}, deck={"you": 3}, hand={"you": 0}, pos=0)
    assert run.step(0)
    assert run.get("zone", GATES) == "discard" and run.get("hand", "you") == 1 and run.get("gold", "you") == 0
    assert not Run(model(enc), zone={GATES: "play"}, gold={"you": 1}, deck={"you": 3}, pos=0).step(0)


def test_mutant_hand_cost_from_play_is_caught() -> None:
    enc = encoding([(GATES, 1)])
    run = Run(model(enc, "hand_cost_from_play"), zone={GATES: "hand"}, gold={"you": 1}, deck={"you": 3}, pos=0)
    assert not run.step(0)


def test_power_discarded_from_a_card_you_control_pays_to_stand_it() -> None:
    """Statue of Baelor (13058: "Action: Kneel Statue of Baelor and discard 1 power from another character or location
    you control to stand that character or location."): the power comes off the card that then stands."""
    enc = encoding([(STATUE, 0)], named=[WYMAN])
    run = Run(model(enc), zone={STATUE: "play", WYMAN: "play"}, standing={STATUE: True, WYMAN: False},
              power={WYMAN: 1}, pos=0)
    assert run.step(0, cost1=WYMAN)
    assert run.get("power", WYMAN) == 0 and run.get("standing", WYMAN) is True
    assert run.get("standing", STATUE) is False
    broke = Run(model(enc), zone={STATUE: "play", WYMAN: "play"}, standing={STATUE: True, WYMAN: False},
                power={WYMAN: 0}, pos=0)
    assert not broke.step(0, cost1=WYMAN)


GOLDENGROVE, SMALL_COUNCIL, BOYS, MERCENARY = "21024", "02107", "00237", "08033"


def test_a_cost_paid_by_this_card_or_a_chosen_one_and_the_mutant_first_alternative_only_is_caught() -> None:
    """Goldengrove (21024: "Action: Kneel Goldengrove or a Small Council character to choose another card you own ...
    Stand that card and take control of it."): a standing Small Council character (Ser Barristan Selmy) pays while
    Goldengrove kneels; read with the first alternative only, he cannot."""
    enc = encoding([(GOLDENGROVE, 0)], named=[SMALL_COUNCIL, WYMAN])
    assert not any(x.direction.value == "narrows" for x in enc.left_out), enc.left_out
    for mutant, ok in (("", True), ("first_alternative_only", False)):
        run = Run(model(enc, mutant), zone={GOLDENGROVE: "play", SMALL_COUNCIL: "play", WYMAN: "play"},
                  standing={GOLDENGROVE: False, SMALL_COUNCIL: True, WYMAN: False}, pos=0)
        assert run.step(0, cost0=SMALL_COUNCIL, target0=WYMAN) is ok, mutant
        if ok:
            assert run.get("standing", SMALL_COUNCIL) is False and run.get("standing", WYMAN) is True


def test_alternatives_share_the_place_the_text_names_once() -> None:
    """The Bastard's Boys (00237: "Challenges Action: Sacrifice The Bastard's Boys to put a House Bolton or
    non-[stark] character with printed cost 5 or lower into play from your hand."): a non-[stark] character from your
    hand (Stormcrows) is one of the alternatives, both from hand; the mutant reading only the first refuses him."""
    enc = encoding([(BOYS, 1)], named=[MERCENARY])
    assert not any(x.direction.value == "narrows" for x in enc.left_out), enc.left_out
    for mutant, ok in (("", True), ("first_alternative_only", False)):
        run = Run(model(enc, mutant), zone={BOYS: "play", MERCENARY: "hand"}, pos=0)
        assert run.step(0, target0=MERCENARY) is ok, mutant
        if ok:
            assert run.get("zone", MERCENARY) == "play" and run.get("zone", BOYS) == "discard"


WESTEROS, RAIDER, LOCATION = "17109", "02091", "21024"


def test_a_revealed_plots_action_puts_a_location_into_play_under_your_control() -> None:
    """We Take Westeros! (17109, a plot: "Challenges Action: Kneel a Raider character to choose a location with lower
    printed cost in a discard pile and put it into play under your control. (Limit once per phase.)"): usable while it
    is the revealed plot (in play), not from the used pile; the location enters play under your control.  (The reader
    gives "put it into play" the scope "you own", so the opponent's locations are not among its targets.)"""
    enc = encoding([(WESTEROS, 0)], named=[RAIDER, LOCATION])
    for plot_zone, ok in (("revealed", True), ("used", False)):
        run = Run(model(enc), zone={WESTEROS: plot_zone, RAIDER: "play", LOCATION: "discard"},
                  standing={RAIDER: True}, ctl={WESTEROS: "you", RAIDER: "you", LOCATION: "you"}, pos=0)
        assert run.step(0, cost0=RAIDER, target0=LOCATION, target1=LOCATION) is ok, plot_zone
        if ok:
            assert run.get("zone", LOCATION) == "play" and run.get("ctl", LOCATION) == "you"
            assert run.get("standing", RAIDER) is False


OBARA, ARIANNE, SCAVENGER = "10005", "01104", "01110"


def test_a_printed_cost_compared_with_the_card_paying_the_cost() -> None:
    """Obara Sand (10005: "Challenges Action: Return a Sand Snake character to your hand to put a [martell] character
    with lower printed cost into play from your hand."): returning herself (printed cost 5) she can put Desert
    Scavenger (1) into play, not Arianne Martell (5); with Arianne (01104: "put a character with printed cost 5 or
    lower into play from your hand. Then, return Arianne Martell to your hand.") the two are no loop (before, the
    comparison was not read and the model found an unbounded loop, answered as unknown)."""
    enc = encoding([(OBARA, 0)], named=[ARIANNE, SCAVENGER])
    assert not any("compare" in x.phrase for x in enc.left_out), enc.left_out
    for card, ok in ((SCAVENGER, True), (ARIANNE, False)):
        run = Run(model(enc), zone={OBARA: "play", ARIANNE: "hand", SCAVENGER: "hand"}, pos=0)
        assert run.step(0, cost0=OBARA, target0=card) is ok, card
        if ok:
            assert run.get("zone", OBARA) == "hand" and run.get("zone", SCAVENGER) == "play"
    assert classify(encoding([(ARIANNE, 0), (OBARA, 0)]), timeout=60).category is Category.NOT_A_LOOP


MUSTER, KNIGHT, BOROS = "00019", "00151", "00161"


def test_a_search_looks_at_the_deck_not_at_the_cards_in_play() -> None:
    """Muster (00019: "Marshaling Action: Kneel a Knight character to search your deck for a Knight character, reveal
    it, and add it to your hand. Shuffle your deck."): Ser Jaime Lannister kneels and the search finds Ser Boros Blount
    in the deck (the search and the reveal look at the deck, not at the cards in play); the whole deck is searched, so
    no amount is left out.  Ser Boros's own search looks at the top 10 cards only: named as a widening."""
    enc = encoding([(MUSTER, 0)], named=[KNIGHT, BOROS])
    assert not any("X cards" in x.phrase or "top" in x.phrase for x in enc.left_out), enc.left_out
    run = Run(model(enc), zone={MUSTER: "hand", KNIGHT: "play", BOROS: "deck"}, standing={KNIGHT: True},
              gold={"you": 0}, pos=0)
    assert run.step(0, cost0=KNIGHT, target2=BOROS)  # (the card the search found: "add it to your hand")
    assert run.get("zone", BOROS) == "hand" and run.get("standing", KNIGHT) is False
    boros = encoding([(BOROS, 2)], named=[KNIGHT])
    assert any("top 10 cards only" in x.phrase and x.direction.value == "widens" for x in boros.left_out)
