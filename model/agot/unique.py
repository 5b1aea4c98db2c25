"""AGoT 2.0 unique cards, duplicates and the dead pile.

Rules Reference sections: Unique Cards, Duplicates, Dead Pile, Ownership and
Control, Copy (of a card), Put into Play, Marshal, Costs, Save, Leaves Play,
Discard Pile; FAQ (1.2) Duplicates and (1.3) Unique cards in play and in the
dead pile.

Cards are copies of titles (a sort): every player owns ``copies`` copies of
each title, the same titles for every player.  The first ``unique_titles``
titles are unique; the others are not.  A card is in its owner's hand, in
play as the card itself, in play as a duplicate under another copy
(``under`` names that copy), in its owner's dead pile or discard pile.  Each
player has a gold pool to pay costs.  Timing (which phase, which player is
active) is left to ``marshal.py``: here any player may marshal their cards.

Actions: marshal a card (paying its cost) or marshal it as a duplicate (for
no cost); an ability puts a card into play from its owner's hand or discard
pile (or from an opponent's discard pile under the acting player's control),
or as a duplicate; an ability returns a card from its owner's dead pile to
play, as a duplicate when its owner owns and controls a copy in play (the
effect fails when the rules forbid it); an ability places a card from its
owner's hand or discard pile in its dead pile (several cards do, e.g. after
a pillage discard); take control of a card, and control reverting to the
owner; a card would leave play (killed to its owner's dead pile, discarded,
or returned to its owner's hand): its controller may interrupt by
discarding one duplicate on it to save it, otherwise it leaves play with
its duplicates; discard from hand; gain gold.

The deliberately broken rules are edits in ``mutants/agot/unique.py``.
"""

from __future__ import annotations

from ruleproof.dsl import Bool, Int, Model, Or, Range, Step, Term

__all__ = ["SCENARIOS", "CHECKED", "build"]

SCENARIOS = {
    "default": {"players": 2, "unique_titles": 2, "plain_titles": 1, "copies": 2, "max_gold": 4},
    "melee": {"players": 3, "unique_titles": 1, "plain_titles": 0, "copies": 2, "max_gold": 3},
    "small": {"players": 2, "unique_titles": 1, "plain_titles": 0, "copies": 3, "max_gold": 3},
}
# small (3 copies of one title): a duplicate can enter while a copy is dead, and a card can have two duplicates
CHECKED = ("default", "melee", "small")


def build(
    players: int = 2,
    unique_titles: int = 2,
    plain_titles: int = 1,
    copies: int = 2,
    max_gold: int = 4,
) -> Model:
    """``players`` players, each owning ``copies`` copies of every title."""
    titles = unique_titles + plain_titles
    if titles < 1 or copies < 1:
        raise ValueError("a scenario needs at least one title and one copy of it")
    per = titles * copies
    m = Model("unique", doc=__doc__ or "")
    m.params.update(max_gold=max_gold, copies=copies, plain_titles=plain_titles)
    Player = m.sort(
        "Player", [f"p{i}" for i in range(1, players + 1)], labels=[f"player {i}" for i in range(1, players + 1)]
    )
    Title = m.sort(
        "Title",
        [f"t{i}" for i in range(1, titles + 1)],
        labels=[f"title {i}{' (unique)' if i <= unique_titles else ''}" for i in range(1, titles + 1)],
    )
    names = [f"c{i}" for i in range(1, players * per + 1)]

    def owner_of(i: int) -> str:
        return f"p{i // per + 1}"

    def title_of(i: int) -> str:
        return f"t{(i % per) // copies + 1}"

    def copy_of(i: int) -> int:
        return i % copies

    Card = m.sort(
        "Card",
        names,
        labels=[
            f"copy {copy_of(i) + 1} of title {title_of(i)[1:]} of player {owner_of(i)[1:]}" for i in range(len(names))
        ],
    )
    m.enum("Zone", ["hand", "play", "dup", "dead", "discard"])
    Dest = m.enum("Dest", ["dead", "discard", "hand"])

    owners = {n: owner_of(i) for i, n in enumerate(names)}
    titles_of = {n: title_of(i) for i, n in enumerate(names)}
    is_unique = {f"t{i}": i <= unique_titles for i in range(1, titles + 1)}

    owner = m.static("owner", Player, Card, lambda c: owners[c.name])
    m.static("title", Title, Card, lambda c: titles_of[c.name])
    costs = {n: 1 + ((i % per) // copies + copy_of(i)) % 3 for i, n in enumerate(names)}
    cost = m.static("cost", Int(0, 9), Card, lambda c: costs[c.name])
    m.static("unique", Bool, Title, lambda t: is_unique[t.name])

    zone = m.var("zone", m.sorts.Zone, index=Card, init="hand")
    controller = m.var("controller", Player, index=Card, init=lambda c: owners[c.name])
    under = m.var("under", Card, index=Card, init=lambda c: c.name)
    gold = m.var("gold", Int(0, max_gold), index=Player, init=Range(0, max_gold))

    def others(c: Term) -> list[Term]:
        """The other copies (same title, any owner) of card ``c``."""
        return [d for d in Card if d.name != c.name and titles_of[d.name] == titles_of[c.name]]

    def uniq(c: Term) -> bool:
        return is_unique[titles_of[c.name]]

    def has_in_play(x: str, c: Term) -> Term:
        """Player ``x`` owns or controls another copy of ``c`` that is in play (not as a duplicate)."""
        return Or(False, *((zone[d] == "play") & ((owner[d] == x) | (controller[d] == x)) for d in others(c)))

    def dead_copy(x: str, c: Term) -> Term:
        """Another copy of ``c`` is in player ``x``'s dead pile."""
        return Or(False, *(zone[d] == "dead" for d in others(c) if owners[d.name] == x))

    @m.action(Player, describe="{p} gains 1 gold", cites=["Gold"])
    def gain_gold(a: Step, p: Term) -> None:
        a.require(gold[p] < max_gold)
        a.set(gold[p], gold[p] + 1)

    @m.action(Player, Card, describe="{p} marshals {c}", cites=["Marshal", "Costs", "Unique Cards", "Dead Pile"])
    def marshal(a: Step, p: Term, c: Term) -> None:
        if owners[c.name] != p.name:
            a.require(False)
            return
        a.require((zone[c] == "hand") & (gold[p] >= cost[c]))
        if uniq(c):
            a.require(~has_in_play(p.name, c))
            a.require(~dead_copy(p.name, c))
        a.set(zone[c], "play")
        a.set(controller[c], p)
        a.set(gold[p], gold[p] - cost[c])

    @m.action(
        Player,
        Card,
        Card,
        describe="{p} marshals {c} as a duplicate on {u}",
        cites=["Duplicates", "Unique Cards", "Marshal"],
    )
    def marshal_duplicate(a: Step, p: Term, c: Term, u: Term) -> None:
        if not _duplicable(owners, titles_of, is_unique, p, c, u):
            a.require(False)
            return
        a.require((zone[c] == "hand") & (zone[u] == "play") & (controller[u] == p) & ~dead_copy(p.name, c))
        a.set(zone[c], "dup")
        a.set(under[c], u)

    @m.action(
        Player,
        Card,
        describe="an ability puts {c} into play under {p}'s control",
        cites=["Put into Play", "Unique Cards", "Dead Pile", "Ownership and Control"],
    )
    def put_into_play(a: Step, p: Term, c: Term) -> None:
        if owners[c.name] == p.name:
            a.require((zone[c] == "hand") | (zone[c] == "discard"))
        else:
            a.require(zone[c] == "discard")  # e.g. "put into play a character from an opponent's discard pile"
        if uniq(c):
            a.require(~has_in_play(p.name, c) & ~dead_copy(p.name, c))
            if owners[c.name] != p.name:
                a.require(~has_in_play(owners[c.name], c))
                a.require(~dead_copy(owners[c.name], c))
        a.set(zone[c], "play")
        a.set(controller[c], p)

    @m.action(
        Player,
        Card,
        Card,
        describe="an ability puts {c} into play for {p}: it enters as a duplicate on {u}",
        cites=["Put into Play", "Duplicates", "Unique Cards"],
    )
    def put_into_play_duplicate(a: Step, p: Term, c: Term, u: Term) -> None:
        if not _duplicable(owners, titles_of, is_unique, p, c, u):
            a.require(False)
            return
        a.require(((zone[c] == "hand") | (zone[c] == "discard")) & (zone[u] == "play") & (controller[u] == p))
        a.require(~dead_copy(p.name, c))
        a.set(zone[c], "dup")
        a.set(under[c], u)

    @m.action(
        Player,
        Card,
        describe="an ability puts {c} into play from {p}'s dead pile (it fails if the rules forbid it)",
        cites=["Dead Pile", "Put into Play", "Unique Cards", "Duplicates"],
    )
    def return_from_dead(a: Step, p: Term, c: Term) -> None:
        if owners[c.name] != p.name:
            a.require(False)
            return
        a.require(zone[c] == "dead")
        if not uniq(c):
            a.set(zone[c], "play")
            return
        hosts = [u for u in others(c) if owners[u.name] == p.name]
        host_cond = {u.name: (zone[u] == "play") & (controller[u] == p) for u in hosts}
        as_dup = Or(False, *host_cond.values())
        dead_ok = ~dead_copy(p.name, c)  # the card itself is the single instance the exception allows
        # a copy in play that the player owns and controls takes the returned card as a duplicate;
        # any other copy the player owns or controls in play makes the effect fail
        ok = dead_ok & (as_dup | ~has_in_play(p.name, c))
        a.set(zone[c], "play", when=ok & ~as_dup)
        for u in hosts:
            a.set(zone[c], "dup", when=ok & host_cond[u.name])
            a.set(under[c], u, when=ok & host_cond[u.name])

    @m.action(
        Player, Card, describe="{p} takes control of {c}", cites=["Ownership and Control", "Unique Cards", "Dead Pile"]
    )
    def take_control(a: Step, p: Term, c: Term) -> None:
        a.require((zone[c] == "play") & (controller[c] != p))
        if uniq(c):
            a.require(~has_in_play(p.name, c))
            a.require(~dead_copy(p.name, c))
        a.set(controller[c], p)

    @m.action(Card, describe="control of {c} reverts to its owner", cites=["Ownership and Control"])
    def revert_control(a: Step, c: Term) -> None:
        a.require((zone[c] == "play") & (controller[c] != owner[c]))
        a.set(controller[c], owner[c])

    @m.action(
        Card,
        describe="{c} would leave play; its controller may discard a duplicate on it to save it",
        cites=["Leaves Play", "Kill, Killed", "Dead Pile", "Discard Pile", "Duplicates", "Save"],
    )
    def leave_play(a: Step, c: Term) -> None:
        dest = a.choose("to", Dest)
        save = a.choose("save", Bool)
        dup = a.choose("duplicate", Card)
        a.require(zone[c] == "play")
        # Interrupt: when the overlapping unique card would leave play, discard this duplicate to save that card
        mine = [d for d in others(c) if owners[d.name] == owners[c.name] and uniq(c)]
        a.require(~save | Or(False, *((dup == d) & (zone[d] == "dup") & (under[d] == c) for d in mine)))
        for d in mine:
            a.set(zone[d], "discard", when=save & (dup == d))
        gone = ~save
        for x in Dest:
            a.set(zone[c], x.name, when=gone & (dest == x))
        a.set(controller[c], owner[c], when=gone)
        for d in mine:  # leaving play, the card takes its duplicates to the discard pile
            a.set(zone[d], "discard", when=gone & (zone[d] == "dup") & (under[d] == c))

    @m.action(
        Card,
        describe="an ability places {c} from its owner's hand or discard pile in their dead pile",
        cites=["Dead Pile"],
    )
    def place_in_dead_pile(a: Step, c: Term) -> None:
        a.require((zone[c] == "hand") | (zone[c] == "discard"))
        a.set(zone[c], "dead")

    @m.action(Card, describe="{c} is discarded from its owner's hand", cites=["Discard Pile"])
    def discard_from_hand(a: Step, c: Term) -> None:
        a.require(zone[c] == "hand")
        a.set(zone[c], "discard")

    return m


def _duplicable(
    owners: dict[str, str], titles_of: dict[str, str], is_unique: dict[str, bool], p: Term, c: Term, u: Term
) -> bool:
    """Static part of "``c`` may be a duplicate on ``u`` for ``p``": both owned by ``p``, same unique title."""
    return (
        c.name != u.name
        and owners[c.name] == p.name
        and owners[u.name] == p.name
        and titles_of[c.name] == titles_of[u.name]
        and is_unique[titles_of[c.name]]
    )
