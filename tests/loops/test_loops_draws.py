"""Gold discarded from a card, "draw it" and "draw that many", on real cards (Rules Reference: Bestow, Gold; Drawing
Cards).

Balerion (00316: "Action: Kneel Balerion to discard 1 gold from a card.") with Stone Crows (06009, Bestow: gold on
it); Nightfort Builder (11105: "Reaction: After Nightfort Builder is knelt, reveal the top card of your deck. If it is
a [thenightswatch] location or attachment, draw it."): its owner draws the top card, when it is one (a condition the
model leaves to the player, a widening); Oldtown Scholar (10041: "Reaction: After an opponent draws 1 or more cards,
if it is not the draw phase, kneel Oldtown Scholar to draw that many cards."): "1 or more" is any draw, and "that
many" any number from 1 (a widening).  The gold entry has a mutant (the gold stays) that a step catches, and so has
the rule of amounts ("that many" read as 1).
"""

from __future__ import annotations

from realcards import Run, encoding, model

from ruleproof.loops.encode.accept import Direction

BALERION, CROWS, BUILDER, SCHOLAR = "00316", "06009", "11105", "10041"


def _balerion(mutant: str = "") -> Run:
    enc = encoding([(BALERION, 3)], named=[CROWS])
    return Run(model(enc, mutant), zone={BALERION: "play", CROWS: "play"}, standing={BALERION: True},
               cgold={CROWS: 2}, pos=0)


def test_gold_discarded_from_a_card_returns_to_the_treasury() -> None:
    run = _balerion()
    assert run.step(0, target0=CROWS)
    assert run.get("cgold", CROWS) == 1
    assert not _balerion().set(cgold={CROWS: 0}).step(0, target0=CROWS)  # no gold on it: nothing to discard


def test_mutant_gold_discard_untracked_is_caught() -> None:
    run = _balerion("gold_discard_untracked")
    assert run.step(0, target0=CROWS)
    assert run.get("cgold", CROWS) == 2


def test_draw_it_is_the_owner_drawing_the_top_card_when_it_fits() -> None:
    enc = encoding([(BUILDER, 0)])
    cond = [x for x in enc.left_out if "condition" in x.phrase]
    assert cond and all(x.direction is Direction.WIDENS for x in cond), enc.left_out
    run = Run(model(enc), zone={BUILDER: "play"}, standing={BUILDER: False}, pending={"a0": True},
              deck={"you": 3}, hand={"you": 0}, pos=0)
    assert run.step(0, cond1=True)
    assert run.get("deck", "you") == 2 and run.get("hand", "you") == 1


def test_draw_that_many_is_any_number_from_one() -> None:
    enc = encoding([(SCHOLAR, 0)])
    phrases = [x.phrase for x in enc.left_out if x.direction is Direction.WIDENS]
    assert any("as many as its triggering condition's" in p for p in phrases), phrases
    assert not any("or more" in p for p in phrases)  # "1 or more" is every draw
    for n, drawn in ((1, 1), (3, 3), (9, 5)):  # as many as there are
        run = Run(model(enc), zone={SCHOLAR: "play"}, standing={SCHOLAR: True}, pending={"a0": True},
                  deck={"you": 5}, hand={"you": 0}, pos=0)
        assert run.step(0, target0_many=n)
        assert run.get("hand", "you") == drawn and run.get("standing", SCHOLAR) is False


def _scholar_draws(n: int, mutant: str = "") -> int:
    """Cards in hand after Oldtown Scholar answers an opponent's draw and draws ``n`` (its choice of "that many")."""
    run = Run(model(encoding([(SCHOLAR, 0)]), mutant), zone={SCHOLAR: "play"}, standing={SCHOLAR: True},
              pending={"a0": True}, deck={"you": 5}, hand={"you": 0}, pos=0)
    assert run.step(0, target0_many=n)
    return int(run.get("hand", "you"))


def test_mutant_that_many_is_one_is_caught() -> None:
    assert _scholar_draws(3) == 3
    assert _scholar_draws(3, "that_many_is_one") == 1  # the choice is gone: it draws 1
