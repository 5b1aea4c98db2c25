"""AGoT 2.0 gold economy: treasury, gold pools, marshaling, costs and tokens.

Rules Reference sections: Treasury, Gold, Marshal, Costs, Tokens (Treasury:
"When a card with any tokens ... leaves play"), Event Cards, Put into Play,
Income, Taxation Phase (7.2 Return unspent gold), Active Player.

State: each player's gold pool, the treasury, where each card is, gold
tokens on cards, one pending cost reduction per player (a cost modifier such
as "reduce the cost of the next card you marshal by 1"), the phase and the
active player.  Gold in the game is a scenario constant: the treasury starts
with whatever the pools do not hold.
"""

from __future__ import annotations

from ruleproof.dsl import Bool, Int, Max, Model, OneOf, Range, Step, Sum, Term

SCENARIOS = {
    "default": {"players": 2, "cards": 6, "max_start_gold": 30, "total_gold": 60},
    "melee": {"players": 3, "cards": 6, "max_start_gold": 10, "total_gold": 45},
    "small": {"players": 2, "cards": 2, "max_start_gold": 3, "total_gold": 6},
}
CHECKED = ("default", "melee")

CARD_TYPES = ("character", "location", "attachment", "event")

#: Deliberately broken rules, for the tests that show each property catches its rule being broken.
MUTANTS = (
    "spend_without_return",  # marshal pays, but the gold does not go back to the treasury
    "overspend",  # marshal without enough gold
    "tokens_lost",  # a card leaving play keeps its tokens
    "marshal_events",  # events can be marshalled
    "double_pay",  # marshal charges the cost twice
    "marshal_any_phase",  # marshal outside the marshaling phase / by a non-active player
    "put_into_play_pays",  # putting into play charges the cost
    "no_cost_floor",  # a cost reduction can take the cost below zero
)


def build(
    players: int = 2, cards: int = 6, max_start_gold: int = 30, total_gold: int = 60, mutant: str = ""
) -> Model:
    if players * max_start_gold > total_gold:
        raise ValueError("the players' starting gold cannot exceed the gold in the game")
    if mutant and mutant not in MUTANTS:
        raise ValueError(f"unknown mutant {mutant!r}; known: {', '.join(MUTANTS)}")
    m = Model("gold", doc=__doc__ or "")
    m.params["total_gold"] = total_gold
    Player = m.sort("Player", [f"p{i}" for i in range(1, players + 1)], labels=[f"player {i}" for i in range(1, players + 1)])
    Card = m.sort("Card", [f"c{i}" for i in range(1, cards + 1)], labels=[f"card {i}" for i in range(1, cards + 1)])
    Zone = m.enum("Zone", ["hand", "play", "discard"])
    CardType = m.enum("CardType", list(CARD_TYPES))
    Phase = m.enum("Phase", ["marshaling", "challenges", "taxation"])

    # static scenario data: a deterministic spread of costs and card types, owners round-robin
    owner = m.static("owner", Player, Card, lambda c: f"p{(int(c.name[1:]) - 1) % players + 1}")
    cost = m.static("cost", Int(0, 9), Card, lambda c: (int(c.name[1:]) * 2) % 7)
    ctype = m.static("ctype", CardType, Card, lambda c: CARD_TYPES[(int(c.name[1:]) - 1) % len(CARD_TYPES)])
    income = m.static("income", Int(0, 9), Player, lambda p: 3 + int(p.name[1:]))

    gold = m.var("gold", Int(0, total_gold), index=Player, init=Range(0, max_start_gold))
    treasury = m.var("treasury", Int(0, total_gold), init=Range(0, total_gold))
    zone = m.var("zone", Zone, index=Card, init="hand")
    tokens = m.var("tokens", Int(0, total_gold), index=Card, init=0)
    entered = m.var("entered", Bool, index=Card, init=False)
    reduction = m.var("reduction", Int(0, 3), index=Player, init=0)
    phase = m.var("phase", Phase, init=OneOf("marshaling", "challenges"))
    active = m.var("active", Player, init=OneOf(*[p.name for p in Player]))
    collected = m.var("collected", Bool, index=Player, init=False)

    all_gold = treasury + Sum(gold[p] for p in Player) + Sum(tokens[c] for c in Card)
    m.init_constraint(all_gold == total_gold)

    def effective_cost(p: Term, c: Term) -> Term:
        """Printed cost after the pending cost modifier; never below zero (Negative Quantities)."""
        if mutant == "no_cost_floor":
            return cost[c] - reduction[p]
        return Max(cost[c] - reduction[p], 0)

    @m.action(Player, describe="{p} collects income", cites=["Income", "Gold", "Treasury"])
    def collect_income(a: Step, p: Term) -> None:
        a.require((phase == "marshaling") & (active == p) & ~collected[p])
        n = Max(0, income[p] - Max(0, income[p] - treasury))  # all the treasury can give
        a.set(gold[p], gold[p] + n)
        a.set(treasury, treasury - n)
        a.set(collected[p], True)

    @m.action(Player, describe="{p} gains 1 gold from a card ability", cites=["Gold", "Treasury"])
    def gain_gold(a: Step, p: Term) -> None:
        a.require(treasury >= 1)
        a.set(gold[p], gold[p] + 1)
        a.set(treasury, treasury - 1)

    @m.action(Player, describe="{p} pays gold for a card ability", cites=["Costs", "Treasury"])
    def pay_ability(a: Step, p: Term) -> None:
        n = a.choose("amount", Int(1, 3))
        a.require(gold[p] >= n)
        a.set(gold[p], gold[p] - n)
        a.set(treasury, treasury + n)

    @m.action(Player, describe="{p} gains a cost reduction", cites=["Costs", "Modifiers"])
    def gain_reduction(a: Step, p: Term) -> None:
        a.require(reduction[p] < 3)
        a.set(reduction[p], reduction[p] + 1)

    @m.action(Player, Card, describe="{p} marshals {c}", cites=["Marshal", "Costs", "Treasury", "Active Player"])
    def marshal(a: Step, p: Term, c: Term) -> None:
        a.require(owner[c] == p)
        if mutant != "marshal_events":
            a.require(ctype[c] != "event")
        if mutant != "marshal_any_phase":
            a.require((phase == "marshaling") & (active == p))
        a.require(zone[c] == "hand")
        due = effective_cost(p, c)
        if mutant == "double_pay":
            due = due + due
        if mutant != "overspend":
            a.require(gold[p] >= due)
        a.set(gold[p], gold[p] - due)
        if mutant != "spend_without_return":
            a.set(treasury, treasury + due)
        a.set(reduction[p], 0)
        a.set(zone[c], "play")
        a.set(entered[c], True)

    @m.action(Player, Card, describe="{p} plays event {c}", cites=["Event Cards", "Costs", "Treasury"])
    def play_event(a: Step, p: Term, c: Term) -> None:
        a.require((owner[c] == p) & (ctype[c] == "event") & (zone[c] == "hand"))
        a.require(gold[p] >= cost[c])
        a.set(gold[p], gold[p] - cost[c])
        a.set(treasury, treasury + cost[c])
        a.set(zone[c], "discard")

    @m.action(Player, Card, describe="an ability puts {c} into play for {p}", cites=["Put into Play", "Marshal"])
    def put_into_play(a: Step, p: Term, c: Term) -> None:
        a.require((owner[c] == p) & (ctype[c] != "event") & (zone[c] == "hand"))
        if mutant == "put_into_play_pays":
            a.require(gold[p] >= cost[c])
            a.set(gold[p], gold[p] - cost[c])
            a.set(treasury, treasury + cost[c])
        a.set(zone[c], "play")
        a.set(entered[c], True)

    @m.action(Card, describe="an ability places 1 gold from the treasury on {c}", cites=["Treasury"])
    def place_gold(a: Step, c: Term) -> None:
        a.require((zone[c] == "play") & (treasury >= 1))
        a.set(tokens[c], tokens[c] + 1)
        a.set(treasury, treasury - 1)

    @m.action(Card, describe="{c}'s controller moves its gold to their pool", cites=["Gold"])
    def take_gold(a: Step, c: Term) -> None:
        a.require((zone[c] == "play") & (tokens[c] >= 1))
        for p in Player:
            a.set(gold[p], gold[p] + tokens[c], when=owner[c] == p)
        a.set(tokens[c], 0)

    @m.action(Card, describe="{c} leaves play", cites=["Treasury", "Leaves Play"])
    def leave_play(a: Step, c: Term) -> None:
        a.require(zone[c] == "play")
        a.set(zone[c], "discard")
        if mutant != "tokens_lost":
            a.set(treasury, treasury + tokens[c])
            a.set(tokens[c], 0)

    @m.action(describe="the active player passes; the next player becomes active", cites=["Marshaling Phase"])
    def next_player(a: Step) -> None:
        a.require(phase == "marshaling")
        order = list(Player)
        for i, p in enumerate(order):
            a.set(active, order[(i + 1) % len(order)], when=active == p)

    @m.action(describe="the phase advances", cites=["Appendix I: Timing and Gameplay"])
    def next_phase(a: Step) -> None:
        a.require(phase != "taxation")
        a.set(phase, "challenges", when=phase == "marshaling")
        a.set(phase, "taxation", when=phase == "challenges")

    @m.action(describe="taxation: every player returns unspent gold", cites=["Taxation Phase", "Gold"])
    def taxation(a: Step) -> None:
        a.require(phase == "taxation")
        a.set(treasury, treasury + Sum(gold[p] for p in Player))
        for p in Player:
            a.set(gold[p], 0)
            a.set(collected[p], False)
            a.set(reduction[p], 0)
        a.set(phase, "marshaling")

    return m
