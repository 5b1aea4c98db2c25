"""Playing events in the loop model, on real cards (Rules Reference: Shadows; Replacement Effects; Event Cards).

An event is played from its owner's hand for its printed cost or from shadows for its shadow cost; one whose printed
cost is "-" can only come out of shadows.  Once resolved it goes to its owner's discard pile, unless its own text
sends it elsewhere instead.

Cards: Shadow of the Wall (13026: "Shadow (0). Action: Choose and stand a character with 1 or fewer challenge icons.
If there is a Winter plot card revealed, return Shadow of the Wall to your hand instead of placing it in your discard
pile."; its printed cost is "-"), Wyman Manderly (17122, a character to stand).  Each rule has a mutant (the
semantics table with one entry swapped) that the same steps catch.
"""

from __future__ import annotations

from realcards import Run, encoding, model

from ruleproof.loops.encode.accept import Direction

SHADOW, WYMAN = "13026", "17122"


def _played(mutant: str = "", instead: bool = True) -> Run:
    """Shadow of the Wall, in shadows, stands the kneeling Wyman for its shadow cost 0."""
    enc = encoding([(SHADOW, 1)], named=[WYMAN])
    run = Run(model(enc, mutant), zone={SHADOW: "shadows", WYMAN: "play"}, standing={WYMAN: False},
              gold={"you": 0}, pos=0)
    assert run.step(0, target0=WYMAN, instead1=instead)
    assert run.get("standing", WYMAN) is True
    return run


def test_a_shadow_event_is_played_from_shadows_and_its_replacement_sends_it_to_hand() -> None:
    run = _played()
    assert run.get("zone", SHADOW) == "hand"
    assert _played(instead=False).get("zone", SHADOW) == "discard"  # the Winter condition, not modelled: either way


def test_the_unmodelled_condition_of_the_replacement_is_a_widening() -> None:
    enc = encoding([(SHADOW, 1)], named=[WYMAN])
    assert [x.direction for x in enc.left_out if "instead of the discard pile" in x.phrase] == [Direction.WIDENS]
    assert not any("not a printed number" in x.phrase for x in enc.left_out)  # its shadow cost is printed


def test_an_event_with_a_dash_cost_cannot_be_played_from_hand_and_the_mutant_is_caught() -> None:
    """Back in hand, Shadow of the Wall cannot be played again (Shadows: a "-" card only comes out of shadows); the
    mutant that plays it from hand for 0 stands Wyman again."""
    for mutant, again in (("", False), ("dash_event_from_hand", True)):
        run = _played(mutant)
        run.set(standing={WYMAN: False}, pos=0)
        assert run.step(0, target0=WYMAN, instead1=True) is again, mutant


def test_mutant_event_replacement_ignored_is_caught() -> None:
    assert _played("event_replacement_ignored").get("zone", SHADOW) == "discard"


BRIBERY, CROWS, LORD = "15045", "opp:08033", "opp:17122"


def _bribe(target: str, instead: bool, mutant: str = "") -> Run | None:
    """Bribery (15045: "Action: Choose and kneel a character with printed cost X or lower. If that character has the
    Ally or Mercenary trait, you may take control of it instead.") on a standing character of the opponent:
    Stormcrows (a Mercenary) or Wyman Manderly (a Lord)."""
    enc = encoding([(BRIBERY, 0)], named=[CROWS, LORD])
    run = Run(model(enc, mutant), zone={BRIBERY: "hand", CROWS: "play", LORD: "play"},
              standing={CROWS: True, LORD: True}, ctl={BRIBERY: "you", CROWS: "opp", LORD: "opp"}, gold={"you": 0},
              pos=0)
    return run if run.step(0, target0=target, instead1=instead) else None


def test_instead_replaces_the_effect_before_it_when_its_condition_holds() -> None:
    """Taking control of the Mercenary replaces kneeling it (one or the other, never both); a Lord has no Ally or
    Mercenary trait, so he can only be knelt (the condition is read from his printed traits)."""
    took = _bribe(CROWS, True)
    assert took is not None and took.get("ctl", CROWS) == "you" and took.get("standing", CROWS) is True
    knelt = _bribe(CROWS, False)
    assert knelt is not None and knelt.get("ctl", CROWS) == "opp" and knelt.get("standing", CROWS) is False
    assert _bribe(LORD, True) is None
    lord = _bribe(LORD, False)
    assert lord is not None and lord.get("standing", LORD) is False and lord.get("ctl", LORD) == "opp"
    enc = encoding([(BRIBERY, 0)], named=[CROWS, LORD])
    assert not any("instead" in x.phrase or "condition" in x.phrase for x in enc.left_out), enc.left_out


def test_mutant_instead_adds_is_caught() -> None:
    both = _bribe(CROWS, True, "instead_adds")
    assert both is not None and both.get("ctl", CROWS) == "you" and both.get("standing", CROWS) is False
