"""AGoT 2.0 marshaling: the marshaling phase, the active player, costs, events and put into play.

Rules Reference sections: Marshal, Marshaling Phase, Active Player, Costs,
Event Cards, Put into Play, Enters Play, Player Order, First Player, First
Player Token, Income, Treasury, Gold; Appendix I "3. Marshaling phase" (3.1
Marshaling phase begins, 3.2 Active player collects income, Marshaling phase
player action window, 3.3 Next player becomes active player, 3.4 Marshaling
phase ends); FAQ (1.5) Playing Events.

A round is abstracted to three phases: ``plot`` (where the first player is
determined), ``marshaling`` and ``challenges`` (standing for the rest of the
round; taxation returns unspent gold to the treasury at its end).  In the
marshaling phase the first player becomes the active player, collects income
(3.2), may marshal cards from hand while active, and then the next player in
player order (clockwise: p1, p2, ..., pN, p1) becomes active (3.3) until every
player has been active (3.4).  Each player owns ``chars`` characters plus one
location, one attachment and one event.  Events are played (at any time here:
their own ability text says when), card abilities put cards into play, and
gold moves between the pools and the treasury.

The treasury is unlimited (Tokens, Running out of): the scenario's treasury
holds more gold than the pools can (each pool holds at most its starting
gold and one income per round), so income is always the plot's full gold
value.  The deliberately broken rules are edits in
``mutants/agot/marshal.py``.
"""

from __future__ import annotations

from ruleproof.dsl import Bool, Count, Int, Model, OneOf, Range, Step, Sum, Term

__all__ = ["SCENARIOS", "CHECKED", "build"]

SCENARIOS = {
    "default": {"players": 2, "chars": 6, "max_start_gold": 8},
    "melee": {"players": 3, "chars": 2, "max_start_gold": 4},
    "small": {"players": 2, "chars": 1, "max_start_gold": 3},
    "small_melee": {"players": 3, "chars": 1, "max_start_gold": 3},
}
CHECKED = ("default", "melee")


#: the card types of each player's cards after the characters
_OTHER_TYPES = ("location", "attachment", "event")


def build(players: int = 2, chars: int = 6, max_start_gold: int = 8) -> Model:
    """``players`` players, each owning ``chars`` characters, a location, an attachment and an event."""
    if players < 2:
        raise ValueError("a game has at least two players")
    per = chars + len(_OTHER_TYPES)
    m = Model("marshal", doc=__doc__ or "")
    max_income = 1 + players
    total_gold = players * (max_start_gold + max_income) + 1  # more than the pools can ever hold
    m.params.update(total_gold=total_gold, players=players, max_start_gold=max_start_gold)
    Player = m.sort(
        "Player", [f"p{i}" for i in range(1, players + 1)], labels=[f"player {i}" for i in range(1, players + 1)]
    )
    types = ["character"] * chars + list(_OTHER_TYPES)
    names = [f"c{i}" for i in range(1, players * per + 1)]
    Card = m.sort(
        "Card",
        names,
        labels=[
            f"{types[i % per]} {i % per + 1 if i % per < chars else ''}".rstrip() + f" of player {i // per + 1}"
            for i in range(len(names))
        ],
    )
    m.enum("Zone", ["hand", "play", "discard"])
    m.enum("CardType", ["character", "location", "attachment", "event"])
    m.enum("Phase", ["plot", "marshaling", "challenges"])

    owners = {n: f"p{i // per + 1}" for i, n in enumerate(names)}
    ctypes = {n: types[i % per] for i, n in enumerate(names)}
    owner = m.static("owner", Player, Card, lambda c: owners[c.name])
    ctype = m.static("ctype", m.sorts.CardType, Card, lambda c: ctypes[c.name])
    cost = m.static("cost", Int(0, 9), Card, lambda c: (names.index(c.name) % per + 1) % 4)
    income = m.static("income", Int(0, 9), Player, lambda p: 1 + int(p.name[1:]))

    # the game starts in any phase; a marshaling phase starts with player 1 first and active, before income
    phase = m.var("phase", m.sorts.Phase, init=OneOf("plot", "marshaling", "challenges"))
    first = m.var("first", Player, init=Player[0].name)
    active = m.var("active", Player, init=Player[0].name)
    been_active = m.var("been_active", Bool, index=Player, init=lambda p: p.name == Player[0].name)
    collected = m.var("collected", Bool, index=Player, init=False)
    gold = m.var("gold", Int(0, total_gold), index=Player, init=Range(0, max_start_gold))
    treasury = m.var("treasury", Int(0, total_gold), init=Range(0, total_gold))
    zone = m.var("zone", m.sorts.Zone, index=Card, init="hand")
    marshalled = m.var("marshalled", Bool, index=Card, init=False)
    resolved = m.var("resolved", Bool, index=Card, init=False)
    m.init_constraint(treasury + Sum(gold[p] for p in Player) == total_gold)

    order = [p.name for p in Player]

    def after(p: Term, steps: int) -> str:
        """The player ``steps`` places after ``p`` in player order (clockwise)."""
        return order[(order.index(p.name) + steps) % len(order)]

    everyone_was_active = Count(Player, lambda p: been_active[p]) == len(order)

    @m.action(
        Player,
        describe="plot phase: {f} becomes the first player; the marshaling phase begins",
        cites=["First Player, First Player Token", "Marshaling Phase", "3.2 Active player collects income"],
    )
    def begin_marshaling(a: Step, f: Term) -> None:
        a.require(phase == "plot")
        a.set(phase, "marshaling")
        a.set(first, f)
        a.set(active, f)
        for p in Player:
            a.set(been_active[p], p == f)
            a.set(collected[p], False)

    @m.action(
        Player,
        describe="{p}, the active player, collects income",
        cites=["3.2 Active player collects income", "Income", "Treasury"],
    )
    def collect_income(a: Step, p: Term) -> None:
        a.require(phase == "marshaling", active == p, ~collected[p])
        a.set(gold[p], gold[p] + income[p])
        a.set(treasury, treasury - income[p])
        a.set(collected[p], True)

    @m.action(
        Player,
        Card,
        describe="{p} marshals {c}",
        cites=["Marshal", "Costs", "Active Player", "Marshaling Phase"],
        where=lambda p, c: (owner[c] == p) & (ctype[c] != "event"),
    )
    def marshal(a: Step, p: Term, c: Term) -> None:
        a.require(zone[c] == "hand")
        a.require(phase == "marshaling", active == p, collected[p])
        a.require(gold[p] >= cost[c])
        a.set(gold[p], gold[p] - cost[c])
        a.set(treasury, treasury + cost[c])
        a.set(zone[c], "play")
        a.set(marshalled[c], True)

    @m.action(
        Player,
        Card,
        describe="{p} plays {c}",
        cites=["Event Cards", "Costs"],
        where=lambda p, c: (owner[c] == p) & (ctype[c] == "event"),
    )
    def play_event(a: Step, p: Term, c: Term) -> None:
        canceled = a.choose("canceled", Bool)
        a.require(zone[c] == "hand", gold[p] >= cost[c])
        a.set(gold[p], gold[p] - cost[c])
        a.set(treasury, treasury + cost[c])
        a.set(zone[c], "discard")
        a.set(resolved[c], ~canceled)

    @m.action(
        Player,
        Card,
        describe="an ability puts {c} into play for {p}",
        cites=["Put into Play", "Marshal", "Enters Play"],
        where=lambda p, c: (owner[c] == p) & (ctype[c] != "event"),
    )
    def put_into_play(a: Step, p: Term, c: Term) -> None:
        a.require(zone[c] == "hand")
        a.set(zone[c], "play")

    @m.action(Card, describe="{c} leaves play", cites=["Leaves Play"])
    def leave_play(a: Step, c: Term) -> None:
        a.require(zone[c] == "play")
        a.set(zone[c], "discard")
        a.set(marshalled[c], False)

    @m.action(
        describe="the next player becomes the active player",
        cites=["3.3 Next player becomes active player", "Player Order"],
    )
    def next_active(a: Step) -> None:
        a.require((phase == "marshaling") & collected[active])
        a.require(~everyone_was_active)
        for p in Player:
            nxt = after(p, 1)
            a.set(active, nxt, when=active == p)
            a.set(been_active[Player[nxt]], True, when=active == p)

    @m.action(
        describe="every player has been active: the marshaling phase ends",
        cites=["3.4 Marshaling phase ends", "3.3 Next player becomes active player"],
    )
    def end_marshaling(a: Step) -> None:
        a.require((phase == "marshaling") & collected[active])
        a.require(everyone_was_active)
        a.set(phase, "challenges")

    @m.action(describe="the round ends: unspent gold returns to the treasury", cites=["Taxation Phase", "Gold"])
    def end_round(a: Step) -> None:
        a.require(phase == "challenges")
        a.set(treasury, treasury + Sum(gold[p] for p in Player))
        for p in Player:
            a.set(gold[p], 0)
        a.set(phase, "plot")

    return m
