"""Properties of the AGoT gold economy, each citing the rule it comes from."""

from __future__ import annotations

from ruleproof.dsl import And, ForAll, Implies, Max, Model, Sum, Term, Transition


def register(m: Model) -> None:
    v, s = m.v, m.sorts
    Player, Card = s.Player, s.Card
    total = m.params["total_gold"]

    m.invariant(
        "gold is conserved",
        v.treasury + Sum(v.gold[p] for p in Player) + Sum(v.tokens[c] for c in Card) == total,
        cites=["Treasury", "Gold"],
        doc="Gold is only ever moved between the treasury, gold pools and cards: the total never changes.",
    )
    m.invariant(
        "no gold pool, treasury or token count goes below zero",
        And(v.treasury >= 0, ForAll(Player, lambda p: v.gold[p] >= 0), ForAll(Card, lambda c: v.tokens[c] >= 0)),
        cites=["Gold", "Costs", "Negative Quantities"],
    )
    m.invariant(
        "a card out of play carries no tokens",
        ForAll(Card, lambda c: Implies(v.zone[c] != "play", v.tokens[c] == 0)),
        cites=["Treasury", "Leaves Play"],
        doc="When a card with tokens leaves play, its tokens return to the treasury.",
    )
    m.invariant(
        "event cards are never in play",
        ForAll(Card, lambda c: Implies(v.ctype[c] == "event", v.zone[c] != "play")),
        cites=["Event Cards", "Marshal"],
    )

    def paid_once(t: Transition, p: Term, c: Term) -> Term:
        due = Max(v.cost[c] - v.reduction[p], 0)
        return And(
            t.post(v.zone[c]) == "play",
            v.owner[c] == p,
            t.post(v.entered[c]),
            t.post(v.gold[p]) == v.gold[p] - due,
            t.post(v.treasury) == v.treasury + due,
        )

    m.action_property(
        "a marshalled card is in its owner's play area and its cost was paid exactly once",
        "marshal",
        paid_once,
        cites=["Marshal", "Costs", "Treasury"],
    )
    m.action_property(
        "marshalling happens only in the marshaling phase, by the active player",
        "marshal",
        lambda t, p, c: And(v.phase == "marshaling", v.active == p),
        cites=["Marshal", "Active Player"],
    )
    m.action_property(
        "putting a card into play by an ability pays nothing",
        "put_into_play",
        lambda t, p, c: And(
            *(t.post(v.gold[q]) == v.gold[q] for q in Player), t.post(v.treasury) == v.treasury
        ),
        cites=["Put into Play", "Marshal"],
    )
    m.reachable(
        "sanity: every card can end up in play or played",
        ForAll(Card, lambda c: v.zone[c] != "hand"),
        cites=["Marshal", "Event Cards"],
    )
