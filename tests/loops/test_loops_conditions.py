"""An effect's condition the loop model cannot evaluate, on real cards (Rules Reference: Effects; Abilities).

Ours is the Fury (01063: "Action: Choose a kneeling [baratheon] character you control. That character is now
participating as a defender. If you win this challenge, stand that character."): whether you win the challenge is not
part of the loop model, so the stand may resolve or not, the player's pick in the model: a superset of what the card
does, so a "not a loop" over it stands and a loop found through it is named as a widening.  Stannis Baratheon (01052)
is the kneeling character.  The table's rule has a mutant (the effect always resolves) that the same step catches.
"""

from __future__ import annotations

from realcards import Run, encoding, model

from ruleproof.loops.encode.accept import Direction

FURY, STANNIS = "01063", "01052"


def _fury(mutant: str = "") -> Run:
    enc = encoding([(FURY, 1)], named=[STANNIS])
    (cond,) = [x for x in enc.left_out if "condition" in x.phrase]
    assert cond.direction is Direction.WIDENS, cond
    return Run(model(enc, mutant), zone={FURY: "hand", STANNIS: "play"}, standing={STANNIS: False},
               gold={"you": 2}, pos=0)


def test_a_condition_not_evaluated_lets_the_effect_resolve_or_not() -> None:
    won, lost = _fury(), _fury()
    assert won.step(0, target0=STANNIS, cond1=True) and won.get("standing", STANNIS) is True
    assert lost.step(0, target0=STANNIS, cond1=False) and lost.get("standing", STANNIS) is False
    assert lost.get("zone", FURY) == "discard" and lost.get("gold", "you") == 0  # played all the same


def test_mutant_unknown_condition_holds_is_caught() -> None:
    run = _fury("unknown_condition_holds")
    assert run.step(0, target0=STANNIS, cond1=False)
    assert run.get("standing", STANNIS) is True


def test_the_reason_of_an_unknown_names_what_makes_it_one() -> None:
    """Ours is the Fury with Bonds of Chivalry (11064: "... you may kneel another «Knight» character you control to
    have it participate in the challenge on your side", not read: an optional effect left out): the answer is unknown
    because the stand's condition is widened and Bonds of Chivalry narrowed; the untracked participation of Ours is
    the Fury is kept in the result's clauses but not in the reason, which starts with what makes it unknown."""
    from ruleproof.loops.lasso import Category, classify

    enc = encoding([(FURY, 1), ("11064", 0)])
    r = classify(enc)
    assert r.category is Category.UNKNOWN, r.reason
    assert "(untracked)" not in r.reason and "Bonds of Chivalry" in r.reason and "(widens)" in r.reason
    assert any(x.endswith("(untracked)") for x in r.left_out)
