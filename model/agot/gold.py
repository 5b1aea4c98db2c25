"""AGoT 2.0 gold economy: treasury, gold pools, income, marshaling, costs and tokens.

Rules Reference sections: Treasury, Gold, Income, Marshal, Costs, Tokens
(Treasury: "When a card with any tokens ... leaves play"), Tokens, Running
out of, Event Cards, Put into Play, Taxation Phase (7.2 Return unspent
gold), Active Player, Player Order; Appendix I "3. Marshaling phase" (3.2
Active player collects income, 3.3 Next player becomes active player).

State: each player's gold pool, the treasury, where each card is, gold
tokens on cards, one pending cost reduction per player (a lasting cost
modifier such as "until the end of the round, reduce the cost of the next
card you marshal by 1": used by the next card marshalled, gone at the end of
the round), the phase, the
first player, the active player and who has been active this marshaling
phase.  In the marshaling phase the first player is active first; the
active player collects income (the full gold value of the plot: 3.2) before
marshaling, then the next player in player order becomes active, until
every player has been active once (3.3).  Taxation returns unspent gold and
the next round's marshaling phase starts with the first player the plot
phase chose.

The treasury is unlimited (Tokens, Running out of): the scenario's
treasury starts with more gold than the pools and cards can ever hold, so
income is always paid in full and a gain is never refused (the property
"the treasury never runs out" proves it).  What the scenario bounds is what
its cards do, on the gold the game shows: card abilities add gold to a
player's pool (a gain, or gold moved from a card, 1 gold each) only while
the pool holds less than its starting gold, its income once collected and
``ability_gold`` more (gold spent makes room again), and a card holds at
most ``card_gold`` gold (abilities may place gold on a card whenever it has
room).  These bounds are not rules; they keep the game finite.  The
deliberately broken rules are edits in ``mutants/agot/gold.py``.
"""

from __future__ import annotations

from ruleproof.dsl import Bool, Count, If, Int, Max, Model, OneOf, Range, Step, Sum, Term

__all__ = ["SCENARIOS", "CHECKED", "CARD_TYPES", "MAX_INCOME", "build"]

SCENARIOS = {
    "default": {"players": 2, "cards": 6, "max_start_gold": 20},
    "melee": {"players": 3, "cards": 6, "max_start_gold": 8},
    "small": {"players": 2, "cards": 2, "max_start_gold": 2, "ability_gold": 1, "card_gold": 1},
}
CHECKED = ("default", "melee")

CARD_TYPES = ("character", "location", "attachment", "event")
MAX_INCOME = 9


def build(
    players: int = 2, cards: int = 6, max_start_gold: int = 20, ability_gold: int = 2, card_gold: int = 2
) -> Model:
    """``players`` players, ``cards`` cards dealt round-robin; pools start with up to ``max_start_gold``."""
    m = Model("gold", doc=__doc__ or "")
    # gold in pools and on cards never exceeds this: starting gold, a full income and the abilities' gold per
    # player, and every card full
    most = players * (max_start_gold + MAX_INCOME + ability_gold) + cards * card_gold
    total_gold = most + 1
    m.params.update(total_gold=total_gold, max_start_gold=max_start_gold, ability_gold=ability_gold,
                    card_gold=card_gold)
    pl = range(1, players + 1)
    Player = m.sort("Player", [f"p{i}" for i in pl], labels=[f"player {i}" for i in pl])
    Card = m.sort("Card", [f"c{i}" for i in range(1, cards + 1)], labels=[f"card {i}" for i in range(1, cards + 1)])
    Zone = m.enum("Zone", ["hand", "play", "discard"])
    CardType = m.enum("CardType", list(CARD_TYPES))
    m.enum("Phase", ["marshaling", "challenges", "taxation"])

    # static scenario data: a deterministic spread of costs and card types, owners round-robin
    owner = m.static("owner", Player, Card, lambda c: f"p{(int(c.name[1:]) - 1) % players + 1}")
    cost = m.static("cost", Int(0, 9), Card, lambda c: (int(c.name[1:]) * 2) % 7)
    ctype = m.static("ctype", CardType, Card, lambda c: CARD_TYPES[(int(c.name[1:]) - 1) % len(CARD_TYPES)])
    income = m.static("income", Int(0, MAX_INCOME), Player, lambda p: 3 + int(p.name[1:]))

    gold = m.var("gold", Int(0, total_gold), index=Player, init=Range(0, max_start_gold))
    treasury = m.var("treasury", Int(0, total_gold), init=Range(0, total_gold))
    zone = m.var("zone", Zone, index=Card, init="hand")
    tokens = m.var("tokens", Int(0, card_gold), index=Card, init=0)
    # a record that the card entered play (the game shows where the card is, not this record)
    entered = m.var("entered", Bool, index=Card, init=False, observable=False)
    reduction = m.var("reduction", Int(0, 3), index=Player, init=Range(0, 3))
    phase = m.var("phase", m.sorts.Phase, init=OneOf("marshaling", "challenges", "taxation"))
    first = m.var("first", Player, init=OneOf(*[p.name for p in Player]))
    active = m.var("active", Player, init=OneOf(*[p.name for p in Player]))
    been_active = m.var("been_active", Bool, index=Player, init=OneOf(False, True))
    collected = m.var("collected", Bool, index=Player, init=OneOf(False, True))

    all_gold = treasury + Sum(gold[p] for p in Player) + Sum(tokens[c] for c in Card)
    m.init_constraint(all_gold == total_gold)
    # the game is observed at the start of a marshaling phase (the first player is active first, nobody has
    # collected income), or later in the round
    starting = phase == "marshaling"
    m.init_constraint(~starting | (active == first))
    for p in Player:
        m.init_constraint(~starting | ((been_active[p] == (p == first)) & ~collected[p]))

    order = list(Player)
    everyone_was_active = Count(Player, lambda p: been_active[p]) == len(order)

    def room_for_ability_gold(p: Term) -> Term:
        """The scenario's bound (not a rule): abilities add gold to a pool holding less than its starting gold, its
        income once collected and ``ability_gold`` more."""
        return gold[p] < max_start_gold + If(collected[p], income[p], 0) + ability_gold

    def effective_cost(p: Term, c: Term) -> Term:
        """Printed cost after the pending cost modifier; never below zero (Negative Quantities)."""
        return Max(cost[c] - reduction[p], 0)

    @m.action(Player, describe="{p}, the active player, collects income", cites=["Income", "Gold", "Treasury"])
    def collect_income(a: Step, p: Term) -> None:
        a.require(phase == "marshaling", active == p, ~collected[p])
        a.set(gold[p], gold[p] + income[p])
        a.set(treasury, treasury - income[p])
        a.set(collected[p], True)

    @m.action(Player, describe="{p} gains 1 gold from a card ability", cites=["Gold", "Treasury", "Gains"])
    def gain_gold(a: Step, p: Term) -> None:
        a.require(room_for_ability_gold(p))
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

    @m.action(Player, Card, describe="{p} marshals {c}", cites=["Marshal", "Costs", "Treasury", "Active Player"],
              where=lambda p, c: (owner[c] == p) & (ctype[c] != "event"))
    def marshal(a: Step, p: Term, c: Term) -> None:
        a.require(phase == "marshaling", active == p, collected[p])
        a.require(zone[c] == "hand")
        due = effective_cost(p, c)
        a.require(gold[p] >= due)
        a.set(gold[p], gold[p] - due)
        a.set(treasury, treasury + due)
        a.set(reduction[p], 0)
        a.set(zone[c], "play")
        a.set(entered[c], True)

    @m.action(Player, Card, describe="{p} plays event {c}", cites=["Event Cards", "Costs", "Treasury"],
              where=lambda p, c: (owner[c] == p) & (ctype[c] == "event"))
    def play_event(a: Step, p: Term, c: Term) -> None:
        a.require(zone[c] == "hand", gold[p] >= cost[c])
        a.set(gold[p], gold[p] - cost[c])
        a.set(treasury, treasury + cost[c])
        a.set(zone[c], "discard")

    @m.action(Player, Card, describe="an ability puts {c} into play for {p}", cites=["Put into Play", "Marshal"],
              where=lambda p, c: (owner[c] == p) & (ctype[c] != "event"))
    def put_into_play(a: Step, p: Term, c: Term) -> None:
        a.require(zone[c] == "hand")
        a.set(zone[c], "play")
        a.set(entered[c], True)

    @m.action(Card, describe="an ability places 1 gold from the treasury on {c}", cites=["Treasury", "Gains"])
    def place_gold(a: Step, c: Term) -> None:
        a.require(zone[c] == "play", tokens[c] < card_gold)
        a.set(tokens[c], tokens[c] + 1)
        a.set(treasury, treasury - 1)

    @m.action(Card, describe="{c}'s controller moves 1 gold from it to their pool", cites=["Gold"])
    def take_gold(a: Step, c: Term) -> None:
        p = owner[c]
        a.require(zone[c] == "play", tokens[c] >= 1, room_for_ability_gold(p))
        a.set(gold[p], gold[p] + 1)
        a.set(tokens[c], tokens[c] - 1)

    @m.action(Card, describe="{c} leaves play", cites=["Treasury", "Leaves Play"])
    def leave_play(a: Step, c: Term) -> None:
        a.require(zone[c] == "play")
        a.set(zone[c], "discard")
        a.set(treasury, treasury + tokens[c])
        a.set(tokens[c], 0)

    @m.action(describe="the active player passes; the next player becomes active",
              cites=["3.3 Next player becomes active player", "Player Order"])
    def next_player(a: Step) -> None:
        a.require(phase == "marshaling", collected[active], ~everyone_was_active)
        for i, p in enumerate(order):
            nxt = order[(i + 1) % len(order)]
            a.set(active, nxt, when=active == p)
            a.set(been_active[nxt], True, when=active == p)

    @m.action(describe="the phase advances", cites=["Appendix I: Timing and Gameplay", "3.4 Marshaling phase ends"])
    def next_phase(a: Step) -> None:
        a.require(phase != "taxation")
        a.require((phase != "marshaling") | (everyone_was_active & collected[active]))
        a.set(phase, "challenges", when=phase == "marshaling")
        a.set(phase, "taxation", when=phase == "challenges")

    @m.action(Player, describe="taxation: every player returns unspent gold; {f} is the next round's first player",
              cites=["Taxation Phase", "7.2 Return unspent gold", "First Player, First Player Token"])
    def taxation(a: Step, f: Term) -> None:
        a.require(phase == "taxation")
        a.set(treasury, treasury + Sum(gold[p] for p in Player))
        for p in Player:
            a.set(gold[p], 0)
            a.set(collected[p], False)
            a.set(reduction[p], 0)
            a.set(been_active[p], p == f)
        a.set(first, f)
        a.set(active, f)
        a.set(phase, "marshaling")

    return m
