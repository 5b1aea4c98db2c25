"""Properties of marshaling, the active player, costs, events and put into play (model/agot/marshal.py).

Each property restates a rule from the Rules Reference (Marshal, Active
Player, Costs, Event Cards, Put into Play, Player Order) or Appendix I
"3. Marshaling phase".  The player order is spelled out here from the list of
players (clockwise: player 1, player 2, ..., back to player 1), independently
of the model's own turn-passing code.  Properties marked *strengthening* are
rules in their own right that make the others provable by induction.
"""

from __future__ import annotations

from ruleproof.dsl import And, Exists, ForAll, If, Implies, Model, Not, Or, Sum, Term, Transition

__all__ = ["register"]


def register(m: Model) -> None:
    """Add the marshaling properties to ``m``."""
    v, s = m.v, m.sorts
    Player, Card = s.Player, s.Card
    total = m.params["total_gold"]
    seats = list(Player)
    n = len(seats)

    def seat(i: int) -> Term:
        return seats[i % n]

    # ------------------------------------------------------------------ gold
    m.invariant(
        "gold is conserved (strengthening)",
        v.treasury + Sum(v.gold[p] for p in Player) == total,
        cites=["Treasury", "Gold"],
    )
    m.invariant(
        "in the plot phase a pool holds at most its starting gold (strengthening)",
        ForAll(Player, lambda p: Implies(v.phase == "plot", v.gold[p] <= m.params["max_start_gold"])),
        cites=["Taxation Phase", "Gold"],
        doc="Unspent gold returns to the treasury at the end of each round: a player enters a plot phase with "
        "no more than the gold they started the game with.",
    )
    m.invariant(
        "a pool holds at most its starting gold and one income (strengthening)",
        ForAll(Player, lambda p: v.gold[p] <= m.params["max_start_gold"] + If(v.collected[p], v.income[p], 0)),
        cites=["Income", "Taxation Phase"],
    )
    m.invariant(
        "no gold pool or treasury goes below zero",
        And(v.treasury >= 0, ForAll(Player, lambda p: v.gold[p] >= 0)),
        cites=["Gold", "Costs", "Negative Quantities", "Tokens, Running out of"],
        doc="The treasury never runs out: there is no limit to the number of gold tokens.",
    )

    # ------------------------------------------------------------------ the active player and player order
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
        doc="3.2: the first player is first to be the active player; 3.3: the next player (in player order) becomes "
        "the active player, until all players have been the active player this phase.",
    )
    m.invariant(
        "only a player who has been active this phase has collected income (strengthening)",
        Implies(v.phase == "marshaling", ForAll(Player, lambda p: Implies(v.collected[p], v.been_active[p]))),
        cites=["3.2 Active player collects income", "Income"],
    )
    m.invariant(
        "outside the marshaling phase no player's marshaling turn is under way",
        Implies(
            v.phase != "marshaling",
            Or(ForAll(Player, lambda p: v.been_active[p]), ForAll(Player, lambda p: Not(v.collected[p]))),
        ),
        cites=["3.2 Active player collects income", "3.3 Next player becomes active player",
               "3.4 Marshaling phase ends", "Marshaling Phase"],
        doc="Income is collected in step 3.2 of the marshaling phase, and the phase ends (3.4) only once every "
        "player has been the active player (3.3): outside it, either the phase has ended with every player having "
        "been active, or no player has collected income (a game observed before its first marshaling phase). So "
        "the turn never passes there.",
    )
    m.action_property(
        "the marshaling phase begins once per round, after the plot phase",
        "begin_marshaling",
        lambda t, f: v.phase == "plot",
        cites=["3.1 Marshaling phase begins", "Marshaling Phase"],
        doc="Appendix I: the round's phases follow one another (plot, draw, marshaling, ...); 3.1 begins the phase.",
    )
    m.action_property(
        "the first player is the first active player of the marshaling phase",
        "begin_marshaling",
        lambda t, f: And(t.post(v.first) == f, t.post(v.active) == f, t.post(v.phase) == "marshaling"),
        cites=["3.2 Active player collects income", "First Player, First Player Token"],
    )
    m.action_property(
        "the turn passes to the next player in player order",
        "next_active",
        lambda t: And(*(Implies(v.active == seat(i), t.post(v.active) == seat(i + 1)) for i in range(n))),
        cites=["3.3 Next player becomes active player", "Player Order"],
    )
    m.action_property(
        "the marshaling phase ends only after every player has been the active player",
        "end_marshaling",
        lambda t: ForAll(Player, lambda p: v.been_active[p]),
        cites=["3.3 Next player becomes active player", "3.4 Marshaling phase ends"],
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
        "the marshaling phase ends in the marshaling phase, once every player collected income, and the challenges "
        "phase follows",
        "end_marshaling",
        lambda t: And(
            v.phase == "marshaling",
            ForAll(Player, lambda p: v.collected[p]),
            t.post(v.phase) == "challenges",
        ),
        cites=["3.2 Active player collects income", "3.4 Marshaling phase ends", "4.1 Challenges phase begins"],
        doc="Appendix I: every player is the active player once (3.3) and collects income on becoming active "
        "(3.2) before the phase ends (3.4); the challenges phase comes next.",
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
        cites=["3.2 Active player collects income", "Income", "Active Player", "Tokens, Running out of"],
        doc="Income: gaining an amount of gold from the treasury equal to the gold value on the plot (the "
        "treasury cannot run out, so never less).",
    )

    # ------------------------------------------------------------------ marshal
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
        "marshalled (putting into play pays nothing), so the step happens only then. A cost that cannot be paid "
        "is not paid in part: 'marshalling returns the card's cost' and 'no gold pool goes below zero' together "
        "say the card entered play only with its whole cost paid (Costs).",
    )
    m.action_property(
        "marshalling returns the card's cost from the gold pool to the treasury",
        "marshal",
        lambda t, p, c: And(
            t.post(v.gold[p]) == v.gold[p] - v.cost[c],
            t.post(v.treasury) == v.treasury + v.cost[c],
            t.post(v.zone[c]) == "play",
            v.owner[c] == p,
        ),
        cites=["Marshal", "Costs", "Treasury"],
    )
    m.action_property(
        "a card is marshalled from its owner's hand",
        "marshal",
        lambda t, p, c: And(v.zone[c] == "hand", v.owner[c] == p),
        cites=["Marshal", "In Play and Out of Play"],
        doc="Marshal: the active player can marshal a character, location, or attachment card from his or her "
        "hand; a card already in play, or in the discard pile, is not marshalled again.",
    )
    m.invariant(
        "event cards never enter play",
        ForAll(Card, lambda c: Implies(v.ctype[c] == "event", v.zone[c] != "play")),
        cites=["Event Cards"],
    )
    m.invariant(
        "a card counted as marshalled is a non-event card in play (strengthening)",
        ForAll(Card, lambda c: Implies(v.marshalled[c], And(v.zone[c] == "play", v.ctype[c] != "event"))),
        cites=["Marshal", "Enters Play"],
    )

    m.action_property(
        "a card leaves play only from play, to an out of play state",
        "leave_play",
        lambda t, c: And(v.zone[c] == "play", t.post(v.zone[c]) != "play"),
        cites=["Leaves Play", "In Play and Out of Play"],
        doc="Leaves Play: a card makes a transition from an in play state to an out of play state.",
    )
    m.action_property(
        "the round ends after the challenges phase: unspent gold returns to the treasury and a new round begins "
        "with the plot phase",
        "end_round",
        lambda t: And(
            v.phase == "challenges",
            ForAll(Player, lambda p: t.post(v.gold[p]) == 0),
            t.post(v.treasury) == v.treasury + Sum(v.gold[p] for p in Player),
            t.post(v.phase) == "plot",
        ),
        cites=["7.2 Return unspent gold", "7.5 Taxation phase ends", "Taxation Phase"],
        doc="Here the challenges phase stands for the rest of the round (challenges to taxation): 7.2 returns each "
        "player's unspent gold; 7.5 ends the round and play proceeds to the plot phase of the next round.",
    )

    # ------------------------------------------------------------------ put into play
    m.action_property(
        "putting a card into play by an ability pays nothing",
        "put_into_play",
        lambda t, p, c: And(t.post(v.treasury) == v.treasury, *(t.post(v.gold[q]) == v.gold[q] for q in Player)),
        cites=["Put into Play"],
    )
    m.action_property(
        "a card put into play is not marshalled",
        "put_into_play",
        lambda t, p, c: And(t.post(v.zone[c]) == "play", Not(t.post(v.marshalled[c]))),
        cites=["Put into Play", "Marshal"],
    )

    # ------------------------------------------------------------------ events
    m.action_property(
        "a played event is paid for and placed in its owner's discard pile, even when canceled",
        "play_event",
        lambda t, p, c: And(
            v.zone[c] == "hand",
            v.gold[p] >= v.cost[c],
            t.post(v.gold[p]) == v.gold[p] - v.cost[c],
            t.post(v.treasury) == v.treasury + v.cost[c],
            t.post(v.zone[c]) == "discard",
        ),
        cites=["Event Cards", "Costs"],
        doc="Event Cards: costs are paid and the card is placed in its owner's discard pile; if its effects are "
        "canceled it is still played and its costs remain paid. FAQ (1.5) Playing Events.",
    )

    m.action_property(
        "a played event's effects resolve unless they are canceled",
        "play_event",
        lambda t, p, c: t.post(v.resolved[c]) == Not(t.choice("canceled")),
        cites=["Event Cards"],
        doc="Event Cards: when a player plays an event card, its costs are paid, its effects are resolved (or "
        "canceled).",
    )

    # ------------------------------------------------------------------ sanity
    last = seat(n - 1)
    m.reachable(
        "sanity: the last player in player order becomes active after the first player",
        And(v.phase == "marshaling", v.first == seat(0), v.active == last, v.collected[last]),
        cites=["Player Order"],
    )
    m.reachable(
        "sanity: a marshalled card and a card put into play are in play together",
        And(
            Exists(Card, lambda c: v.marshalled[c]),
            Exists(Card, lambda c: And(v.zone[c] == "play", Not(v.marshalled[c]))),
        ),
        cites=["Marshal", "Put into Play"],
    )
    m.reachable(
        "sanity: the marshaling phase ends after the last player in player order marshalled a card",
        And(
            v.phase == "challenges",
            Exists(Card, lambda c: And(v.owner[c] == last, v.marshalled[c])),
        ),
        cites=["Marshaling Phase"],
    )
    m.reachable(
        "sanity: a canceled event is in the discard pile",
        Exists(Card, lambda c: And(v.ctype[c] == "event", v.zone[c] == "discard", Not(v.resolved[c]))),
        cites=["Event Cards"],
    )
