"""A lasting "is killed if its STR is 0", on real cards (Rules Reference: Lasting Effects; Save).

Dracarys! (01176: "Action: Kneel a «Dragon» character or Daenerys Targaryen to choose a participating character. Until
the end of the phase, that character gets -4 STR and is killed if its STR is 0.") with Drogon (01161) to kneel and
Robert Baratheon (01048, unique, with a duplicate) attacking: the loop model does not track STR, so the kill happens
when the effect resolves or not (the player's pick, a widening the result names), and it cannot be saved, not even by
a duplicate: a save that does not remedy the ongoing condition cannot be initiated (Save).  The table's rule has a
mutant (the kill can be saved) that a step catches.  Dracarys! alone, unsupported before ("lasting effects are not
modelled"), is "not a loop": its cost kneels the «Dragon» and nothing of the cycle stands it (Costs).  Beside another
STR change of the cycle the reading is refused: a STR lowered later could meet the condition at a moment the model
does not run it.
"""

from __future__ import annotations

from realcards import Run, encoding, model

from ruleproof.loops.encode import Unsupported, encode
from ruleproof.loops.encode.accept import Direction
from ruleproof.loops.lasso import Category, classify, unsupported_result

DRACARYS, DROGON, ROBERT = "01176", "01161", "01048"


def _dracarys(mutant: str = "") -> Run:
    enc = encoding([(DRACARYS, 0)], named=[DROGON, ROBERT])
    (cond,) = [x for x in enc.left_out if "effect kill: its condition" in x.phrase]
    assert cond.direction is Direction.WIDENS
    return Run(model(enc, mutant), zone={DRACARYS: "hand", DROGON: "play", ROBERT: "play"},
               standing={DROGON: True, ROBERT: True}, role={ROBERT: "attacking"}, dups={ROBERT: 1}, gold={"you": 1},
               pos=0)


def test_the_kill_resolves_or_not_and_cannot_be_saved() -> None:
    killed, kept = _dracarys(), _dracarys()
    assert killed.step(0, cost0=DROGON, target0=ROBERT, cond1=True, dup_kill_c01048=True)
    assert killed.get("zone", ROBERT) == "dead" and killed.get("dups", ROBERT) == 0  # the duplicate cannot save it
    assert kept.step(0, cost0=DROGON, target0=ROBERT, cond1=False)
    assert kept.get("zone", ROBERT) == "play" and kept.get("standing", DROGON) is False


def test_mutant_ongoing_kill_saveable_is_caught() -> None:
    run = _dracarys("ongoing_kill_saveable")
    assert run.step(0, cost0=DROGON, target0=ROBERT, cond1=True, dup_kill_c01048=True)
    assert run.get("zone", ROBERT) == "play"


def test_dracarys_alone_is_not_a_loop() -> None:
    r = classify(encoding([(DRACARYS, 0)]))
    assert r.category is Category.NOT_A_LOOP, r.reason
    assert "spends standing" in r.reason


def test_beside_another_str_change_it_is_refused() -> None:
    """Dracarys! with Consuming Flames (08034: the same text with -3 STR): each lowers a STR that could meet the
    other's condition later."""
    from realcards import keyed

    from ruleproof.cards.graph import Candidate

    abil, cards = keyed([DRACARYS, "08034"])
    cand = Candidate((DRACARYS, "08034"), ((DRACARYS, 0), ("08034", 0)), (), (), False, True)
    u = encode(cand, abil, cards)
    assert isinstance(u, Unsupported) and "beside another STR change" in u.reason, u
    assert unsupported_result(u).category is Category.UNSUPPORTED
