"""The ability graph and loop candidates."""

from __future__ import annotations

import networkx as nx

from ruleproof.cards.abilities import (
    Ability,
    AbilityType,
    CardKind,
    Cost,
    CostKind,
    Effect,
    EffectKind,
    EventKind,
    Limit,
    Period,
    Phase,
    Scope,
    Subject,
    Target,
    TargetRef,
    Trigger,
)
from ruleproof.cards.compiler import compile_text
from ruleproof.cards.graph import CardFacts, build_ability_graph, facts_from_pool, find_candidates
from ruleproof.cards.overrides import compile_pool
from ruleproof.cards.pool import load_pool

SELF = Target(TargetRef.SELF, Subject(Scope.SELF, CardKind.CHARACTER))


def stand_other(scope: Scope, trait: str = "") -> Ability:
    """Action: kneel this character to stand another character (filtered)."""
    return Ability(AbilityType.ACTION,
                   costs=(Cost(CostKind.KNEEL, SELF),),
                   effects=(Effect(EffectKind.STAND, 1, Target(TargetRef.CHOSEN, Subject(
                       scope, CardKind.CHARACTER, (trait,) if trait else (), other=True))),))


FACTS = {
    "A": CardFacts("A", "Alpha", "character", "stark", ("Knight",)),
    "B": CardFacts("B", "Beta", "character", "stark", ("Lord",)),
}


def test_mutual_standing_is_two_cycle() -> None:
    g = build_ability_graph({"A": (stand_other(Scope.YOU_CONTROL),), "B": (stand_other(Scope.YOU_CONTROL),)}, FACTS)
    assert set(g.edges()) == {(("A", 0), ("B", 0)), (("B", 0), ("A", 0))}  # "other" forbids self-loops
    (cand,) = find_candidates(g)
    assert cand.cards == ("A", "B") and cand.abilities == (("A", 0), ("B", 0))
    assert all(e.kind == "enables" and "re-enables cost kneel" in e.reason for e in cand.edges)
    assert cand.bounded_by == () and not cand.forced


def test_opponent_filter_gives_no_edge() -> None:
    g = build_ability_graph({"A": (stand_other(Scope.OPPONENT_CONTROLS),), "B": (stand_other(Scope.YOU_CONTROL),)},
                            FACTS)
    assert not g.has_edge(("A", 0), ("B", 0))
    assert g.has_edge(("B", 0), ("A", 0))
    assert find_candidates(g) == ()


def test_trait_filter_prunes() -> None:
    g = build_ability_graph({"A": (stand_other(Scope.YOU_CONTROL, "Lord"),),
                             "B": (stand_other(Scope.YOU_CONTROL, "Lord"),)}, FACTS)
    # A stands only Lords: B is a Lord, A is not
    assert g.has_edge(("A", 0), ("B", 0)) and not g.has_edge(("B", 0), ("A", 0))


def test_reaction_trigger_edges_and_phase() -> None:
    knelt = Ability(AbilityType.REACTION, Trigger(EventKind.KNELT, Subject(Scope.YOU_CONTROL, CardKind.CHARACTER)),
                    effects=(Effect(EffectKind.STAND, 1, SELF),), limit=Limit(1, Period.PHASE))
    stood = Ability(AbilityType.FORCED_REACTION, Trigger(EventKind.STOOD, Subject(Scope.SELF, CardKind.CHARACTER)),
                    effects=(Effect(EffectKind.KNEEL, 1, Target(TargetRef.CHOSEN, Subject(Scope.YOU_CONTROL,
                                                                                          CardKind.CHARACTER))),))
    g = build_ability_graph({"A": (knelt,), "B": (stood,)}, FACTS)
    assert "effect stand -> stood" not in g.edges[("B", 0), ("A", 0)]["reason"]
    assert "effect kneel -> knelt" in g.edges[("B", 0), ("A", 0)]["reason"]
    # A stands itself, B only answers B standing: no A -> B edge
    assert not g.has_edge(("A", 0), ("B", 0))
    # a dominance-only action cannot set off a challenges-phase trigger
    dom = Ability(AbilityType.ACTION, phase=Phase.DOMINANCE, effects=(Effect(EffectKind.KNEEL, 1, Target(
        TargetRef.CHOSEN, Subject(Scope.ANY, CardKind.CHARACTER))),))
    chal = Ability(AbilityType.REACTION, Trigger(EventKind.KNELT, Subject(Scope.ANY, CardKind.CHARACTER),
                                                 Phase.CHALLENGES), effects=(Effect(EffectKind.DRAW, 1),))
    g2 = build_ability_graph({"A": (dom,), "B": (chal,)}, FACTS)
    assert not g2.has_edge(("A", 0), ("B", 0))


def test_compiled_text_self_loop_and_export() -> None:
    a = compile_text("<b>Action:</b> Kneel Foo to stand a character you control. (Limit once per phase.)", "Foo")
    g = build_ability_graph({"F": a}, {"F": CardFacts("F", "Foo", "character", "stark")})
    (cand,) = find_candidates(g)
    assert cand.abilities == (("F", 0),) and cand.bounded_by == ("F#0: limit 1 per phase",)
    assert cand.fully_compiled
    for _, data in g.nodes(data=True):
        assert all(isinstance(v, str) for v in data.values())
    for _, _, data in g.edges(data=True):
        assert all(isinstance(v, str) for v in data.values())
    assert "<graphml" in "\n".join(nx.generate_graphml(nx.relabel_nodes(g, lambda n: f"{n[0]}#{n[1]}")))


def test_real_pool_candidates() -> None:
    """The whole pool's graph and its short cycles (its speed is measured by benchmarks/bench_loops.py)."""
    pool = load_pool()
    g = build_ability_graph(compile_pool(pool), facts_from_pool(pool))
    cands = find_candidates(g, max_length=2, max_candidates=200)
    assert g.number_of_nodes() > 1000 and cands
    for c in cands:
        assert len(c.abilities) in (1, 2) and len(c.edges) == len(c.abilities)
        for e in c.edges:
            assert g.has_edge(e.src, e.dst)
    # Robb Stark (01146) stands your characters after a [stark] one is killed/sacrificed; nothing
    # an opponent-only filter on its trigger would let an opponent's card answer it
    robb = ("01146", 1)
    assert g.has_node(robb)
    assert find_candidates(g, max_length=2, focus=["01146"]) == tuple(
        c for c in find_candidates(g, max_length=2, max_candidates=10**6) if "01146" in c.cards)


def test_cross_player_edges_and_costs_paid_by_their_controller() -> None:
    """Scopes are read per controller; a cost is paid only with its payer's own cards (Costs)."""
    from ruleproof.cards.graph import split_key, two_player_abilities

    mine = stand_other(Scope.YOU_CONTROL)
    anyone = stand_other(Scope.ANY)
    g = build_ability_graph(two_player_abilities({"A": (mine,), "B": (anyone,)}, ["A"], ["B"]), FACTS)
    assert {n: d["controller"] for n, d in g.nodes(data=True)} == {("A", 0): "you", ("opp:B", 0): "opponent"}
    # the opponent's B stands any other character, e.g. your A (whose kneel cost it re-enables) ...
    assert g.edges[("opp:B", 0), ("A", 0)]["cross_player"] == "true"
    # ... but your A stands only your characters, never the opponent's B
    assert not g.has_edge(("A", 0), ("opp:B", 0))
    assert split_key("opp:B") == ("opponent", "B") and find_candidates(g, focus=["B"]) == ()


def test_discard_from_hand_by_the_opponent_answers_your_hand_trigger() -> None:
    """Ser Waymar Royce discards from each opponent's hand: only the opponent's "discarded from your hand"
    reaction answers it, never its own controller's (nor a discard from play)."""
    pool = load_pool()
    waymar = compile_pool(pool, codes=["01128"])["01128"]
    hand = compile_text("<b>Reaction:</b> After a card is discarded from your hand, draw 1 card.", "Reader")
    g = build_ability_graph({"01128": waymar, "R": hand, "opp:R": hand}, facts_from_pool(pool))
    assert g.has_edge(("01128", 1), ("opp:R", 0)) and not g.has_edge(("01128", 1), ("R", 0))
    reason = g.edges[("01128", 1), ("opp:R", 0)]["reason"]
    assert "effect discard_from_hand -> discarded (the opponent's hand)" in reason
    discarder = compile_text("<b>Action:</b> Kneel Foo to choose and discard a character from play.", "Foo")
    g2 = build_ability_graph({"F": discarder, "opp:R": hand}, FACTS)
    assert not g2.has_edge(("F", 0), ("opp:R", 0))
