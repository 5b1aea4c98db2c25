""""Put into play" takes the card from the zone its text names (Put into Play; Dead Pile; Kill; Sacrifice).

Alpha pays a cost that sends it out of play (kill: dead pile; sacrifice: discard pile; return: hand) to stand
a character; Beta kneels to put a character into play from one zone.  The pair loops exactly when Alpha's cost
sends it to the zone Beta takes cards from.
"""

from __future__ import annotations

import dataclasses

import pytest

from ruleproof.cards.abilities import EffectKind, Zone
from ruleproof.cards.compiler import compile_card, compile_text
from ruleproof.cards.graph import CardFacts, build_ability_graph, find_candidates
from ruleproof.cards.pool import load_pool
from ruleproof.engines import bmc
from ruleproof.engines.common import Options
from ruleproof.loops.encode import Encoding, LoopCard, ModelSpec, Unsupported, build_model, encode
from ruleproof.loops.lasso import Category, classify
from ruleproof.results import Verdict

ALPHA = {"kill": "Kill Alpha", "sacrifice": "Sacrifice Alpha", "return": "Return Alpha to your hand"}
ZONE = {"dead": "your dead pile", "discard": "your discard pile", "hand": "your hand",
        "hand_or_discard": "your hand or discard pile"}
GOES_TO = {"kill": "dead", "sacrifice": "discard", "return": "hand"}


def _pair(cost: str, zone: str) -> Encoding | Unsupported:
    a = compile_text(f"<b>Action:</b> {ALPHA[cost]} to choose and stand a character.", "Alpha")
    b = compile_text(f"<b>Action:</b> Kneel Beta to put a character into play from {ZONE[zone]}.", "Beta")
    cards = {"A": LoopCard("A", "Alpha", "character", "stark", cost=2, strength=2),
             "B": LoopCard("B", "Beta", "character", "stark", cost=2, strength=2)}
    facts = {k: CardFacts(k, c.name, "character", "stark") for k, c in cards.items()}
    (cand,) = find_candidates(build_ability_graph({"A": a, "B": b}, facts))
    return encode(cand, {"A": a, "B": b}, cards)


@pytest.mark.parametrize(("cost", "zone"), [("kill", "dead"), ("sacrifice", "discard"), ("return", "hand"),
                                            ("sacrifice", "hand_or_discard")])
def test_the_card_comes_back_from_the_zone_its_cost_sent_it_to(cost: str, zone: str) -> None:
    enc = _pair(cost, zone)
    assert isinstance(enc, Encoding), enc
    r = classify(enc, timeout=30)
    assert r.category is Category.UNBOUNDED, r.reason
    assert r.trace is not None
    zones = [c.new for s in r.trace.steps for c in s.changes if c.var == "zone[Alpha (A)]"]
    assert zones == [GOES_TO[cost], "play"] * 2


@pytest.mark.parametrize(("cost", "zone"), [("kill", "hand"), ("kill", "discard"), ("sacrifice", "dead"),
                                            ("return", "dead"), ("kill", "hand_or_discard")])
def test_a_card_in_another_zone_cannot_be_put_into_play(cost: str, zone: str) -> None:
    """From the dead pile never takes a card in hand, from hand never one in the dead pile, and so on."""
    enc = _pair(cost, zone)
    assert isinstance(enc, Encoding)
    r = classify(enc, timeout=30)
    assert r.category is Category.NOT_A_LOOP
    # the semantics table sees that nothing in the cycle sends a card where Beta takes it from; the solver agrees
    assert r.reason.startswith("Beta (B#0): no effect can change the game state again (put into play needs in")
    solved = classify(dataclasses.replace(enc, static=""), timeout=30)
    assert solved.reason.startswith("Beta (B#0) can never fire after Alpha (A#0)")


def test_mutant_put_into_play_from_any_zone_is_caught() -> None:
    """Mutant of Put into Play: taking the card from any out-of-play zone makes the kill/hand pair loop."""
    enc = _pair("kill", "hand")
    assert isinstance(enc, Encoding)
    right = build_model(enc, ModelSpec(passes=(2,)))
    r = bmc.check(right, right.prop("passes>=2"), Options(depth=2 * enc.n))
    assert r.verdict is Verdict.UNKNOWN and r.reason.startswith("target not reached")
    wrong = build_model(enc, ModelSpec(passes=(2,), mutant="put_into_play_any_zone"))
    w = bmc.check(wrong, wrong.prop("passes>=2"), Options(depth=2 * enc.n))
    assert w.verdict is Verdict.PROVED and w.trace is not None
    assert [c.new for s in w.trace.steps for c in s.changes if c.var == "zone[Alpha (A)]"] == ["dead", "play"] * 2
    with pytest.raises(ValueError):
        ModelSpec(mutant="no such mutant")


def test_zones_the_encoder_does_not_model_are_unsupported_with_the_reason() -> None:
    b = compile_text("<b>Action:</b> Kneel Beta to put Beta into play from shadows.", "Beta")
    assert b[0].effects[0].from_zones == (Zone.SHADOWS,)
    a = compile_text("<b>Action:</b> Kill Alpha to choose and stand a character.", "Alpha")
    cards = {"A": LoopCard("A", "Alpha", "character", "stark", cost=2, strength=2),
             "B": LoopCard("B", "Beta", "character", "stark", cost=2, strength=2)}
    g = build_ability_graph({"A": a, "B": b}, {k: CardFacts(k, c.name, "character", "stark") for k, c in cards.items()})
    for cand in find_candidates(g):
        if ("B", 0) in cand.abilities:
            u = encode(cand, {"A": a, "B": b}, cards)
            assert isinstance(u, Unsupported) and "from shadows is not modelled" in u.reason


def test_real_cards_record_the_zone() -> None:
    pool = load_pool()

    def zones(code: str) -> list[tuple[Zone, ...]]:
        return [e.from_zones for a in compile_card(pool.get(code).raw) for e in a.effects  # type: ignore[union-attr]
                if e.kind is EffectKind.PUT_INTO_PLAY]

    assert zones("01065") == [(Zone.DEAD_PILE,)]  # Aeron Damphair: "... into play from your dead pile"
    assert zones("15034") == [(Zone.HAND,)]  # Cage of Ravens: "from your hand"
    assert zones("15008") == [(Zone.DISCARD_PILE,)]  # The Shavepate: "from your discard pile"
    assert zones("00152") == [(Zone.HAND, Zone.DISCARD_PILE)]  # Ser Lancel Lannister: "from your hand or discard pile"
    assert zones("13065") == [(Zone.SHADOWS,)]  # Forest Patrol: "put Forest Patrol into play from shadows"
