"""The one semantics table: what the graph and the encoder accept is what the encoder encodes, and a mutant is the
table with exactly one entry swapped."""

from __future__ import annotations

import dataclasses

import pytest

from ruleproof.cards.abilities import CostKind, EffectKind
from ruleproof.cards.semantics import MUTANTS, RULES, Res, mutant
from ruleproof.loops.encode import COST_ENCODERS, EFFECT_ENCODERS, ModelSpec


def test_the_encoders_are_keyed_exactly_like_the_table() -> None:
    assert set(COST_ENCODERS) == set(RULES.costs)
    assert set(EFFECT_ENCODERS) == set(RULES.effects)


def test_every_cost_consumes_something_and_every_move_names_its_places() -> None:
    """A cost that needs nothing could be paid forever; a move must say where its card goes."""
    for kind, e in RULES.costs.items():
        assert e.needs, kind
    for e in (*RULES.costs.values(), *RULES.effects.values()):
        if e.move is not None:
            # where it goes and where it comes from: fixed, or (only these two) the places the text names
            assert e.move.dest is not None or e.move.name == "move_card"
            assert e.move.src is not None or e.move.name == "put_into_play"


def _diff(a: object, b: object) -> list[str]:
    out: list[str] = []
    for f in dataclasses.fields(a):  # type: ignore[arg-type]
        x, y = getattr(a, f.name), getattr(b, f.name)
        if hasattr(x, "items"):
            out += [f"{f.name}[{k}]" for k in set(x) | set(y) if x.get(k) != y.get(k)]
        elif x != y:
            out.append(f.name)
    return out


@pytest.mark.parametrize("name", sorted(MUTANTS))
def test_each_mutant_swaps_exactly_one_entry(name: str) -> None:
    assert len(_diff(RULES, mutant(name))) == 1, _diff(RULES, mutant(name))
    assert ModelSpec(mutant=name).rules == mutant(name)


def test_unknown_mutant_is_refused() -> None:
    with pytest.raises(ValueError):
        ModelSpec(mutant="no_such_rule")


def test_what_the_table_says_is_the_rule_text() -> None:
    """Spot checks against the Rules Reference: Kill -> dead pile, Sacrifice -> discard pile and cannot be saved,
    Return to hand, put into play from the named place, kneel spends a standing card."""
    kill = RULES.effects[EffectKind.KILL].move
    sac = RULES.effects[EffectKind.SACRIFICE].move
    assert kill is not None and kill.dest.value == "dead" and kill.saveable
    assert sac is not None and sac.dest.value == "discard" and not sac.saveable
    assert RULES.costs[CostKind.KNEEL].needs == (Res.STANDING,) and RULES.costs[CostKind.KNEEL].makes == (Res.KNEELING,)
    enter = RULES.effects[EffectKind.PUT_INTO_PLAY].move
    assert enter is not None and enter.src is None and enter.new_copy


def test_a_cost_reduction_for_the_next_card_is_a_change_the_model_does_not_track() -> None:
    """Advisor to the Crown (13077: "Action: Kneel ~ to reduce the cost of the next «Maester» character you marshal
    this phase by 1."): the card to come is not one the model holds; the action fires (it changes the game) and
    kneels the Advisor, and the reduction is named as not tracked (it never overturns an answer)."""
    from realcards import Run, encoding, model

    enc = encoding([("13077", 0)])
    assert [x.direction.value for x in enc.left_out] == ["untracked"]
    run = Run(model(enc), zone={"13077": "play"}, standing={"13077": True}, pos=0)
    assert run.step(0) and run.get("standing", "13077") is False
    assert not Run(model(enc), zone={"13077": "play"}, standing={"13077": False}, pos=0).step(0)
