"""Plots and when revealed abilities: a when revealed ability that reveals a new plot makes that plot's when revealed
ability initiate; the plot deck is a finite resource within the chain (Plot Card; When Revealed; FAQ "At Prince
Doran's Behest").

Cards: At Prince Doran's Behest (10046: "When Revealed: Choose and reveal a new plot card.", an override until the
card reader reads it) and Filthy Accusations (01011: "When Revealed: Choose and kneel a character.").
"""

from __future__ import annotations

from realcards import POOL, Run, encoding, model

from ruleproof.cards.overrides import parse_overrides
from ruleproof.loops import Category, find_loops

BEHEST, FILTHY = "10046", "01011"
BEHEST_TEXT = """
"10046":
  - type: when_revealed
    cannot_be_canceled: true
    effects: [{kind: reveal, target: {ref: chosen, subject: {scope: you, card_type: plot, zone: plot_deck}}}]
"""


def _behest(mutant: str = "") -> Run:
    """Behest is revealed; its ability reveals Filthy Accusations from the plot deck (no other plot is left)."""
    enc = encoding([(BEHEST, 0), (FILTHY, 0)], overrides=BEHEST_TEXT)
    run = Run(model(enc, mutant), zone={BEHEST: "revealed", FILTHY: "plot_deck"}, plots={"you": 0},
              pending={"a0": True}, pos=0)
    assert run.step(0, target0_other=False, target0_plot=FILTHY)
    return run


def test_a_revealed_plot_makes_its_when_revealed_ability_initiate() -> None:
    run = _behest()
    assert run.get("zone", FILTHY) == "revealed" and run.get("zone", BEHEST) == "used"
    assert run.get("pending", "a1")  # Filthy Accusations' ability must now resolve


def test_the_plot_deck_does_not_come_back_in_the_middle_of_the_chain_and_the_mutant_is_caught() -> None:
    assert _behest().get("zone", BEHEST) == "used"
    assert _behest("plot_deck_recycles").get("zone", BEHEST) == "plot_deck"


def test_behest_is_not_a_loop_the_plot_deck_runs_out() -> None:
    rep = find_loops(POOL, codes=[BEHEST, FILTHY], overrides=parse_overrides(BEHEST_TEXT, "b.yaml"), timeout=60)
    assert rep.results and all(r.category is Category.NOT_A_LOOP for r in rep.results)
    (own,) = [r for r in rep.results if r.abilities == ((BEHEST, 0),)]
    assert "plot cards in the plot deck" in own.reason, own.reason


def test_revealing_a_card_that_is_not_a_plot_only_shows_it() -> None:
    """Oldtown City Watch (24023: "After Oldtown City Watch enters play, reveal the top card of each player's
    deck."): no plot is revealed, so the model has no plot deck and the reveal changes no card's place (the
    encoder is the table's 'look at' entry, not the plot reveal's)."""
    enc = encoding([("24023", 0)])
    m = model(enc)
    assert not any(v.var.startswith("plots[") for v in m.init_vars)
    run = Run(m, zone={"24023": "play"}, pending={"a0": True}, trig={"a0": "24023"}, pos=0)
    before = {k: v for k, v in run.state.items() if k.startswith(("zone[", "deck[", "hand["))}
    assert run.step(0)  # the reaction answers its trigger ...
    assert not run.get("pending", "a0") and run.get("used", "a0") == 1
    assert {k: v for k, v in run.state.items() if k in before} == before  # ... and moves no card


def test_revealing_a_card_that_is_not_a_plot_is_encoded_as_showing_it_not_as_a_plot_reveal() -> None:
    """Alerie Tyrell (05037) searches the deck for a «Tyrell» character and reveals it: the table reads that
    'reveal' as looking at a card (semantics.entry_of), and the encoder must encode the same entry.  It used
    the plot-reveal encoder, which needs a plot deck the model does not have: an internal error (KeyError
    ('plots', 'you')) that stopped the whole-pool run at candidate 01104 + 05037."""
    enc = encoding([("01104", 0), ("05037", 0)])
    system = model(enc)
    assert not any(v.name.startswith("plots[") for v in system.vars)  # no plot card, no plot reveal: no plot deck
    res = find_loops(POOL, ["01104", "05037"])  # raised KeyError before
    pair = [r for r in res.results if set(r.cards) == {"01104", "05037"}]
    assert len(pair) == 1 and pair[0].category is not Category.UNSUPPORTED, pair  # the pair was encoded
