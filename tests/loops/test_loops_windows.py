"""Phases and windows, "cannot", and resources that run out (Actions: phase actions; Cannot; FAQ 2.1; Gold; Drawing
Cards; Power).

Cards: Victarion Greyjoy (17102: "Challenges Action: Kneel a Warship location to stand Victarion Greyjoy."),
Northern Encampment (06088: "Marshaling Action: Kneel Northern Encampment to gain 2 gold."), Filthy Accusations
(01011, plot: "When Revealed: Choose and kneel a character."), Ygritte (06017: "Ygritte cannot be knelt by card
effects.", an override until the card reader reads "cannot"), Jalabhar Xho (25037: "Marshaling Action: Discard 1
power from your faction card to take control of Jalabhar Xho. (Any player may initiate this ability.)", an
override), Queensguard (11054: "Action: Discard 1 card from your hand to stand attached character.") and The New
Gift (07017: "Challenges Action: Kneel a Steward character to draw 1 card.").
"""

from __future__ import annotations

from realcards import POOL, Run, encoding, keyed, model

from ruleproof.cards.graph import Candidate
from ruleproof.cards.overrides import parse_overrides
from ruleproof.loops import Category, find_loops
from ruleproof.loops.encode import Encoding, encode
from ruleproof.loops.lasso import classify

VICTARION, ENCAMPMENT, FILTHY, YGRITTE, JALABHAR = "17102", "06088", "01011", "06017", "25037"
YGRITTE_TEXT = """
"06017":
  - type: constant
    effects: [{kind: prohibit, prohibited: knelt, target: {ref: self, subject: {scope: self, card_type: character}}}]
"""
JALABHAR_TEXT = """
"25037":
  - type: action
    phase: marshaling
    any_player: true
    costs: [{kind: discard_power, amount: 1, target: {ref: faction_card, subject: {card_type: faction_card}}}]
    effects: [{kind: take_control, target: {ref: self, subject: {scope: self, card_type: character}}}]
"""


def test_abilities_of_different_phases_never_repeat_within_one() -> None:
    """A challenges action and a marshaling action cannot both fire in one phase: no pass repeats in a phase."""
    abil, cards = keyed([VICTARION, ENCAMPMENT])
    cand = Candidate((ENCAMPMENT, VICTARION), ((VICTARION, 0), (ENCAMPMENT, 2)), (), (), False, True)
    enc = encode(cand, abil, cards)
    assert isinstance(enc, Encoding) and "different phases (challenges, marshaling)" in enc.static


def _kneel_ygritte(mutant: str = "") -> bool:
    enc = encoding([(FILTHY, 0)], named=[YGRITTE], overrides=YGRITTE_TEXT)
    run = Run(model(enc, mutant), zone={FILTHY: "revealed", YGRITTE: "play"}, standing={YGRITTE: True},
              pending={"a0": True}, pos=0)
    return run.step(0, target0=YGRITTE)


def test_a_card_that_cannot_be_knelt_cannot_be_chosen_and_the_mutant_is_caught() -> None:
    assert not _kneel_ygritte()
    assert _kneel_ygritte("cannot_ignored")


def test_power_runs_out() -> None:
    """Jalabhar Xho taken back and forth: each taking discards power from the taker's faction card."""
    rep = find_loops(POOL, codes=[JALABHAR], overrides=parse_overrides(JALABHAR_TEXT, "j.yaml"), timeout=60)
    assert rep.complete and rep.candidates == 0  # nothing gives the power back: no cycle
    r = classify(encoding([(JALABHAR, 0)], overrides=JALABHAR_TEXT), timeout=60)
    assert r.category is Category.NOT_A_LOOP and "power" in r.reason, r.reason


def test_the_draw_deck_runs_out() -> None:
    """The New Gift draws with a kneeling Steward that Queensguard stands by discarding a card: hand even, the
    deck shrinks, so the pair cannot repeat for ever."""
    rep = find_loops(POOL, codes=["11054", "07017"], timeout=60)
    (draw,) = [r for r in rep.results if ("07017", 2) in r.abilities]
    assert draw.category is Category.NOT_A_LOOP and "deck" in draw.reason, draw.reason
