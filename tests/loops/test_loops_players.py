"""Both players in a loop: "any player may initiate", abilities set off by the other player's, and who must agree to
continue (Abilities; FAQ 2.7; FAQ 1.1).  The cross-player cases of Left Hand Lew and Archmaester Ebrose are in
test_loops_cross_player.py.

Cards: Bronn (02089: "Marshaling Action: Pay 1 gold to take control of Bronn. (Any player may initiate this
ability.)", an override until "take control" is read).
"""

from __future__ import annotations

from realcards import POOL, Run, encoding, model
from test_loops_ownership import BRONN, BRONN_TEXT

from ruleproof.cards.overrides import parse_overrides
from ruleproof.loops import Category, find_loops


def test_either_player_may_take_bronn_and_each_pays_from_their_own_gold() -> None:
    enc = encoding([(BRONN, 0)], overrides=BRONN_TEXT)
    assert enc.players == ("you", "opp")  # any player may initiate: the opponent is in the model
    system = model(enc)
    run = Run(system, zone={BRONN: "play"}, ctl={BRONN: "you"}, gold={"you": 1, "opp": 1}, pos=0)
    assert not run.step(0, by="you")  # you control him already: nothing would change
    assert run.step(0, by="opp")
    assert run.get("ctl", BRONN) == "opp" and run.state["gold[opp]"] == 0
    assert run.step(0, by="you") and run.get("ctl", BRONN) == "you"


def test_mutant_controller_only_is_caught() -> None:
    enc = encoding([(BRONN, 0)], overrides=BRONN_TEXT)
    system = model(enc, "controller_only")
    run = Run(system, zone={BRONN: "play"}, ctl={BRONN: "you"}, gold={"you": 1, "opp": 1}, pos=0)
    assert not run.step(0, by="opp")


def test_taking_bronn_back_and_forth_is_no_loop_each_taking_costs_gold() -> None:
    """Each player pays from their own gold pool: nothing gives it back, so no cycle forms (a complete answer)."""
    rep = find_loops(POOL, codes=[BRONN], overrides=parse_overrides(BRONN_TEXT, "bronn.yaml"), timeout=60)
    assert rep.complete and rep.candidates == 0
    enc = encoding([(BRONN, 0)], overrides=BRONN_TEXT)  # the self-cycle, checked anyway: gold runs down
    from ruleproof.loops.lasso import classify

    r = classify(enc, timeout=60)
    assert r.category is Category.NOT_A_LOOP, r.reason
