"""Properties of the AGoT gold economy, each citing the rule it comes from.

The player order is spelled out here from the list of players (clockwise:
player 1, player 2, ..., back to player 1), independently of the model's own
turn-passing code; "has been active this phase" (``been_active``) is tied to
the first and the active player by the rotation invariant.
"""

from __future__ import annotations

from ruleproof.dsl import And, ForAll, If, Implies, Max, Model, Not, Or, Sum, Term, Transition

__all__ = ["register"]


def register(m: Model) -> None:
    v, s = m.v, m.sorts
    Player, Card = s.Player, s.Card
    total = m.params["total_gold"]
    seats = list(Player)
    n = len(seats)

    def seat(i: int) -> Term:
        return seats[i % n]

    m.invariant(
        "gold is conserved",
        v.treasury + Sum(v.gold[p] for p in Player) + Sum(v.tokens[c] for c in Card) == total,
        cites=["Treasury", "Gold"],
        doc="Gold is only ever moved between the treasury, gold pools and cards: the total never changes.",
    )
    m.invariant(
        "a pool holds at most its starting gold, one income and the gold the scenario's abilities may add "
        "(strengthening)",
        ForAll(
            Player,
            lambda p: v.gold[p]
            <= m.params["max_start_gold"] + If(v.collected[p], v.income[p], 0) + m.params["ability_gold"],
        ),
        cites=["Income", "Taxation Phase"],
        doc="Unspent gold returns to the treasury at the end of each round (7.2) and income is collected once (3.2); "
        "what card abilities add is the scenario's bound (model/agot/gold.py), not a rule.",
    )
    m.invariant(
        "no gold pool, treasury or token count goes below zero",
        And(v.treasury >= 0, ForAll(Player, lambda p: v.gold[p] >= 0), ForAll(Card, lambda c: v.tokens[c] >= 0)),
        cites=["Gold", "Costs", "Negative Quantities", "Tokens, Running out of"],
        doc="The treasury never runs out: there is no limit to the number of gold tokens.",
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

    # ------------------------------------------------------------------ the marshaling phase: income, turns
    def turn_order_state() -> Term:
        """From the first player, the first k players in player order have been active and the k-th is active."""
        options = []
        for i in range(n):
            for k in range(1, n + 1):
                options.append(
                    And(
                        v.first == seat(i),
                        v.active == seat(i + k - 1),
                        *(v.been_active[seat(i + j)] for j in range(k)),
                        *(Not(v.been_active[seat(i + j)]) for j in range(k, n)),
                    )
                )
        return Or(*options)

    m.invariant(
        "in the marshaling phase players become active one at a time in player order from the first player",
        Implies(v.phase == "marshaling", turn_order_state()),
        cites=["3.2 Active player collects income", "3.3 Next player becomes active player", "Player Order"],
        doc="Each player is the active player once per marshaling phase, the first player first.",
    )
    m.invariant(
        "only a player who has been active this phase has collected income (strengthening)",
        Implies(v.phase == "marshaling", ForAll(Player, lambda p: Implies(v.collected[p], v.been_active[p]))),
        cites=["3.2 Active player collects income", "Income"],
    )
    m.action_property(
        "the active player collects income equal to the plot's gold value, once, from the treasury",
        "collect_income",
        lambda t, p: And(
            v.phase == "marshaling",
            v.active == p,
            Not(v.collected[p]),
            t.post(v.collected[p]),
            t.post(v.gold[p]) == v.gold[p] + v.income[p],
            t.post(v.treasury) == v.treasury - v.income[p],
        ),
        cites=["Income", "3.2 Active player collects income", "Tokens, Running out of"],
        doc="Income: the player gains an amount of gold from the treasury equal to the gold value on the plot "
        "(never less: the treasury cannot run out).",
    )
    m.action_property(
        "the turn passes to the next player in player order, after the active player collected income",
        "next_player",
        lambda t: And(
            v.phase == "marshaling",
            ForAll(Player, lambda p: Implies(v.active == p, v.collected[p])),
            *(Implies(v.active == seat(i), t.post(v.active) == seat(i + 1)) for i in range(n)),
        ),
        cites=["3.3 Next player becomes active player", "Player Order"],
    )
    m.invariant(
        "in the marshaling phase every player who was active before the active player collected income "
        "(strengthening)",
        Implies(
            v.phase == "marshaling",
            ForAll(Player, lambda p: Implies(And(v.been_active[p], v.active != p), v.collected[p])),
        ),
        cites=["3.2 Active player collects income", "3.3 Next player becomes active player"],
        doc="3.3 returns to 3.2 for each new active player: a player stops being the active player only after "
        "step 3.2, where that player collected income.",
    )
    m.action_property(
        "the marshaling phase ends only after every player has been active and collected income",
        "next_phase",
        lambda t: Implies(
            v.phase == "marshaling", ForAll(Player, lambda p: And(v.been_active[p], v.collected[p]))
        ),
        cites=["3.2 Active player collects income", "3.3 Next player becomes active player",
               "3.4 Marshaling phase ends"],
        doc="Every player, not only the last active one, collected income: each became active in turn (3.3) and "
        "collected income on becoming active (3.2).",
    )
    m.action_property(
        "the phases follow in order: marshaling, challenges, taxation",
        "next_phase",
        lambda t: Or(
            And(v.phase == "marshaling", t.post(v.phase) == "challenges"),
            And(v.phase == "challenges", t.post(v.phase) == "taxation"),
        ),
        cites=["Appendix I: Timing and Gameplay", "3.4 Marshaling phase ends", "7.5 Taxation phase ends"],
        doc="Appendix I: the marshaling phase ends and the challenges phase begins (here standing for the phases "
        "up to taxation); that one ends and the taxation phase begins; the taxation phase is the last of the round "
        "and ends only by returning unspent gold (7.2, 7.5: the `taxation` step), so a phase step never leaves the "
        "phase where it is.",
    )
    m.action_property(
        "a cost reduction lasts until the end of the round",
        "taxation",
        lambda t, f: ForAll(Player, lambda p: t.post(v.reduction[p]) == 0),
        cites=["Lasting Effects", "Taxation Phase"],
        doc="An 'until the end of the round' lasting effect expires when the round ends.",
    )
    m.action_property(
        "a cost reduction gained lowers the next cost by 1 more",
        "gain_reduction",
        lambda t, p: ForAll(Player, lambda q: t.post(v.reduction[q]) == v.reduction[q] + If(q == p, 1, 0)),
        cites=["Costs", "Modifiers"],
    )
    m.action_property(
        "a new marshaling phase starts with the chosen first player active",
        "taxation",
        lambda t, f: And(
            t.post(v.phase) == "marshaling",
            t.post(v.first) == f,
            t.post(v.active) == f,
            ForAll(Player, lambda p: And(t.post(v.been_active[p]) == (p == f), Not(t.post(v.collected[p])))),
        ),
        cites=["3.2 Active player collects income", "First Player, First Player Token"],
    )
    m.action_property(
        "taxation returns every player's unspent gold to the treasury",
        "taxation",
        lambda t, f: And(
            v.phase == "taxation",
            ForAll(Player, lambda p: t.post(v.gold[p]) == 0),
            t.post(v.treasury) == v.treasury + Sum(v.gold[p] for p in Player),
        ),
        cites=["7.2 Return unspent gold", "Taxation Phase"],
    )

    # ------------------------------------------------------------------ marshal, events, put into play
    def paid_once(t: Transition, p: Term, c: Term) -> Term:
        due = Max(v.cost[c] - v.reduction[p], 0)
        return And(
            v.zone[c] == "hand",
            t.post(v.zone[c]) == "play",
            v.owner[c] == p,
            v.ctype[c] != "event",
            t.post(v.gold[p]) == v.gold[p] - due,
            t.post(v.treasury) == v.treasury + due,
            t.post(v.reduction[p]) == 0,
        )

    m.action_property(
        "a marshalled card is in its owner's play area and its cost was paid exactly once",
        "marshal",
        paid_once,
        cites=["Marshal", "Costs", "Treasury", "Modifiers"],
        doc="The cost after the pending cost modifier, never below zero, returned from the pool to the treasury.",
    )
    def paid_into_play(t: Transition, c: Term) -> Term:
        """``c`` goes from its owner's hand into play and its owner's gold pool pays for it."""
        o = v.owner[c]
        return And(v.zone[c] == "hand", t.post(v.zone[c]) == "play", t.post(v.gold[o]) < v.gold[o])

    m.step_property(
        "a card enters play paid for from its owner's pool only in the marshaling phase, while its owner is the "
        "active player and has collected income",
        lambda t: ForAll(
            Card,
            lambda c: Implies(
                paid_into_play(t, c),
                And(v.phase == "marshaling", v.active == v.owner[c], v.collected[v.owner[c]]),
            ),
        ),
        cites=["Marshal", "Active Player", "Marshaling Phase", "3.2 Active player collects income"],
        doc="Marshal: the active player marshals a card by paying its gold cost and placing it in his or her play "
        "area, in the marshaling phase; 3.2: the active player collects income first. Stated over every step, "
        "whatever action takes it: a card that enters play from hand with gold leaving its owner's pool was "
        "marshalled (putting into play pays nothing), so the step happens only then.",
    )
    m.action_property(
        "a played event is paid for and placed in its owner's discard pile",
        "play_event",
        lambda t, p, c: And(
            v.zone[c] == "hand",
            v.ctype[c] == "event",
            t.post(v.zone[c]) == "discard",
            t.post(v.gold[p]) == v.gold[p] - v.cost[c],
            t.post(v.treasury) == v.treasury + v.cost[c],
        ),
        cites=["Event Cards", "Costs", "Treasury"],
    )
    m.action_property(
        "putting a card into play by an ability pays nothing",
        "put_into_play",
        lambda t, p, c: And(
            v.zone[c] == "hand",
            t.post(v.zone[c]) == "play",
            *(t.post(v.gold[q]) == v.gold[q] for q in Player),
            t.post(v.treasury) == v.treasury,
        ),
        cites=["Put into Play", "Marshal"],
    )

    # ------------------------------------------------------------------ gains, payments, tokens
    m.action_property(
        "a gain takes exactly 1 gold from the treasury to the pool",
        "gain_gold",
        lambda t, p: And(t.post(v.gold[p]) == v.gold[p] + 1, t.post(v.treasury) == v.treasury - 1),
        cites=["Gains", "Gold", "Treasury"],
    )
    m.action_property(
        "paying for an ability returns the gold to the treasury",
        "pay_ability",
        lambda t, p: And(
            t.post(v.gold[p]) < v.gold[p], t.post(v.treasury) - v.treasury == v.gold[p] - t.post(v.gold[p])
        ),
        cites=["Costs", "Treasury"],
    )
    m.action_property(
        "gold placed on a card comes from the treasury",
        "place_gold",
        lambda t, c: And(
            v.zone[c] == "play", t.post(v.tokens[c]) == v.tokens[c] + 1, t.post(v.treasury) == v.treasury - 1
        ),
        cites=["Treasury", "Gains"],
    )
    m.action_property(
        "gold moved from a card goes to its controller's pool",
        "take_gold",
        lambda t, c: ForAll(
            Player,
            lambda p: t.post(v.gold[p]) == v.gold[p] + If(v.owner[c] == p, v.tokens[c] - t.post(v.tokens[c]), 0),
        ),
        cites=["Gold"],
    )
    m.action_property(
        "a card leaving play returns its tokens to the treasury",
        "leave_play",
        lambda t, c: And(
            v.zone[c] == "play", t.post(v.zone[c]) == "discard", t.post(v.treasury) == v.treasury + v.tokens[c]
        ),
        cites=["Treasury", "Leaves Play"],
    )

    # ------------------------------------------------------------------ sanity
    m.reachable(
        "sanity: every card can end up in play or played",
        ForAll(Card, lambda c: v.zone[c] != "hand"),
        cites=["Marshal", "Event Cards"],
    )
    last = seat(n - 1)
    m.reachable(
        "sanity: the last player in player order marshals a card after the first player",
        And(v.phase == "marshaling", v.first == seat(0), v.active == last, v.collected[last]),
        cites=["Player Order", "Marshal"],
    )
