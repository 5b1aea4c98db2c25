"""AGoT 2.0 power and moves: gaining power, moving power and moving attachments.

Rules Reference sections: Move, Moving Power, Gains, Power, Attachment Cards,
Leaves Play, In Play and Out of Play, Reactions;
FAQ (1.4) Control of Tokens and the ruling on "A Cask of Ale" (power may be
moved to a revealed plot card, never to an agenda, which is not in play).

Each player has a faction card, a revealed plot card and an agenda (never in
play), ``chars`` characters (in play or in hand) and ``atts`` attachments.
Power comes from the treasury: ``gain_power`` takes one token for a card in
play and opens the gaining player's "when you
gain power" reaction (``reaction``, closed by ``react_to_gain``).  A card
leaving play returns its power to the treasury and its attachments to their
owner's hand.  ``total`` is each player's power total, kept by the model as a
running count that the properties compare with the power on the cards the
player controls.  Control changes are not modelled here (every card is under
its owner's control; see claim.py for Ownership and Control), so a move
between two players' cards is a move between two players' power totals.

A move is an ability whose only effect is the move: it is initiated
(``initiate_power_move``: which card, how much power, and whether the ability
moves it to a character or to any card; ``initiate_attachment_move``) and
then resolved by choosing the destination (``resolve_power_move``,
``resolve_attachment_move``).  A pending power move is held on its source
alone: ``moving_pow`` is the power the ability moves off each card (0: none),
so the amount is never kept apart from the move it belongs to.  While a move
is resolving nothing else happens.  Power moved is not gained: no "when you
gain power" reaction opens.

Power is unlimited (Tokens, Running out of): the treasury starts with more
power than the cards can hold before the game ends, and the game ends when
a player has 15 power (Winning the Game): no power is gained or moved after
that.  The game may be observed at any point before a player won: each
faction card starts with any power below 15.  Whether a power move ability
moves to a character (``to_char``) is shown only while a power move resolves
(an attachment move names no kind of destination), and where
an attachment is attached only while it is in play (``observable=``).  The
deliberately broken rules are edits in ``mutants/agot/power.py``.
"""

from __future__ import annotations

from ruleproof.dsl import Bool, Exists, If, Int, Model, OneOf, Or, Range, Step, Sum, Term

__all__ = ["SCENARIOS", "CHECKED", "VICTORY", "build"]

SCENARIOS = {
    "default": {"players": 2, "chars": 6, "atts": 2, "max_move": 2},
    "small": {"players": 2, "chars": 2, "atts": 1, "max_move": 2},
}
CHECKED = ("default",)

VICTORY = 15
"""Winning the Game: the first player to have 15 (or more) power wins; the game ends."""


KINDS = ("faction", "plot", "agenda", "character")


def build(players: int = 2, chars: int = 6, atts: int = 2, max_move: int = 2) -> Model:
    """Power and moves: ``players`` players with ``chars`` characters and ``atts`` attachments each."""
    m = Model("power", doc=__doc__ or "")
    # power grows one gain at a time while every player has less than VICTORY: the treasury never runs out
    supply = players * (VICTORY - 1) + 2
    m.params.update(supply=supply, victory=VICTORY)
    pl = range(1, players + 1)
    Player = m.sort("Player", [f"p{i}" for i in pl], labels=[f"player {i}" for i in pl])

    names: list[str] = []
    labels: list[str] = []
    kinds: dict[str, str] = {}
    owners: dict[str, str] = {}
    for i in pl:
        for prefix, what, text in (
            ("f", "faction", "faction card"),
            ("pl", "plot", "revealed plot"),
            ("ag", "agenda", "agenda"),
        ):
            names.append(f"{prefix}{i}")
            labels.append(f"{text} of player {i}")
            kinds[names[-1]] = what
            owners[names[-1]] = f"p{i}"
    for n in range(1, players * chars + 1):
        names.append(f"c{n}")
        labels.append(f"character {(n - 1) % chars + 1} of player {(n - 1) // chars + 1}")
        kinds[names[-1]] = "character"
        owners[names[-1]] = f"p{(n - 1) // chars + 1}"
    Card = m.sort("Card", names, labels=labels)
    anames = [f"a{n}" for n in range(1, players * atts + 1)]
    Att = m.sort(
        "Att",
        anames,
        labels=[f"attachment {(n - 1) % atts + 1} of player {(n - 1) // atts + 1}" for n in range(1, len(anames) + 1)],
    )
    Kind = m.enum("Kind", list(KINDS))

    owner = m.static("owner", Player, Card, lambda c: owners[c.name])
    kind = m.static("kind", Kind, Card, lambda c: kinds[c.name])
    first_char = {f"p{i}": f"c{(i - 1) * chars + 1}" for i in pl}
    att_owner = m.static("att_owner", Player, Att, lambda x: f"p{(int(x.name[1:]) - 1) // atts + 1}")

    def init_in_play(c: Term) -> OneOf | bool:
        k = kinds[c.name]
        return OneOf(False, True) if k == "character" else k != "agenda"

    def init_power(c: Term) -> Range | int:
        # the game may be observed at any point before a player won: any power below 15 on the faction cards
        return Range(0, VICTORY - 1) if kinds[c.name] == "faction" else 0

    in_play = m.var("in_play", Bool, index=Card, init=init_in_play)
    power = m.var("power", Int(0, supply), index=Card, init=init_power)
    treasury = m.var("treasury", Int(0, supply), init=Range(supply - players * (VICTORY - 1), supply))
    total = m.var("total", Int(0, supply), index=Player, init=Range(0, VICTORY - 1))
    reaction = m.var("reaction", Bool, index=Player, init=False)
    att_in_play = m.var("att_in_play", Bool, index=Att, init=False)
    # where an attachment is attached is shown only while it is in play
    attached_to = m.var("attached_to", Card, index=Att, init=lambda x: first_char[str(att_owner.value(x.name))],
                        observable=lambda x: att_in_play[x])
    moving_att = m.var("moving_att", Bool, index=Att, init=False)
    # the power a pending move ability moves off each card, its source (0: no power move off it): the amount
    # is part of the pending move, not a record of its own that could outlive it
    moving_pow = m.var("moving_pow", Int(0, max_move), index=Card, init=0)
    power_moving = Or(*(moving_pow[c] >= 1 for c in Card))
    busy = Or(*(moving_att[x] for x in Att), power_moving)
    # whether a power move ability moves to a character: its text, shown while it resolves (not while an
    # attachment moves: that ability names no kind of destination)
    to_char = m.var("to_char", Bool, init=False, observable=lambda: power_moving)
    m.init_constraint(treasury + Sum(power[c] for c in Card) == supply)
    for p in Player:
        m.init_constraint(total[p] == Sum(power[c] for c in Card if owners[c.name] == p.name))

    won = Exists(Player, lambda p: total[p] >= VICTORY)
    m.game_end(won, cites=["Winning the Game"], doc="A player has 15 power: the game ends.")
    is_char = {c.name: kinds[c.name] == "character" for c in Card}

    def power_destination(src: Term, dst: Term, only_chars: Term) -> Term:
        """``dst`` (possibly chosen) is a valid destination for power moved off ``src``."""
        return ((kind[dst] == "character") | ~only_chars) & (dst != src) & in_play[dst]

    def attachment_destination(x: Term, c: Term) -> Term:
        """Card ``c`` (possibly chosen) is a valid destination for attachment ``x``."""
        return (kind[c] == "character") & in_play[c] & (attached_to[x] != c)

    # ------------------------------------------------------------------ gains
    @m.action(Card, describe="{c}'s controller gains 1 power for it", cites=["Gains", "Power"])
    def gain_power(a: Step, c: Term) -> None:
        a.require(~busy, ~won, in_play[c])
        a.set(power[c], power[c] + 1)
        a.set(treasury, treasury - 1)
        for p in Player:
            a.set(total[p], total[p] + 1, when=owner[c] == p)
            a.set(reaction[p], True, when=owner[c] == p)

    @m.action(Player, describe="{p} initiates a 'when you gain power' reaction", cites=["Reactions", "Gains"])
    def react_to_gain(a: Step, p: Term) -> None:
        a.require(~busy & reaction[p])
        a.set(reaction[p], False)

    # ------------------------------------------------------------------ moving power
    @m.action(Card, describe="an ability to move power off {src} is initiated", cites=["Move", "Moving Power"])
    def initiate_power_move(a: Step, src: Term) -> None:
        n = a.choose("amount", Int(1, max_move))
        only_chars = a.choose("to_character", Bool)
        a.require(~busy, ~won, in_play[src], power[src] >= n)
        a.require(Or(*(power_destination(src, d, only_chars) for d in Card)))
        a.set(moving_pow[src], n)
        a.set(to_char, only_chars)

    @m.action(Card, describe="the power on {src} is moved", cites=["Move", "Moving Power"])
    def resolve_power_move(a: Step, src: Term) -> None:
        dst = a.choose("to", Card)
        n = moving_pow[src]
        a.require((n >= 1) & power_destination(src, dst, to_char))
        for c in Card:
            taken = n if c.name == src.name else 0
            a.set(power[c], power[c] - taken + If(dst == c, n, 0))
        for p in Player:
            into = If(owner[dst] == p, n, 0)
            out = If(owner[src] == p, n, 0)
            a.set(total[p], total[p] - out + into)
        a.set(moving_pow[src], 0)
        a.set(to_char, False)

    # ------------------------------------------------------------------ moving attachments
    @m.action(
        Att, describe="an ability to move {x} to another character is initiated", cites=["Move", "Attachment Cards"]
    )
    def initiate_attachment_move(a: Step, x: Term) -> None:
        a.require(~busy & att_in_play[x])
        a.require(Or(*(attachment_destination(x, c) for c in Card)))
        a.set(moving_att[x], True)

    @m.action(Att, describe="{x} is moved", cites=["Move", "Attachment Cards"])
    def resolve_attachment_move(a: Step, x: Term) -> None:
        c = a.choose("to", Card)
        a.require(moving_att[x] & attachment_destination(x, c))
        a.set(attached_to[x], c)
        a.set(moving_att[x], False)

    @m.action(Att, describe="{x} enters play attached to a character", cites=["Attachment Cards"])
    def attach(a: Step, x: Term) -> None:
        c = a.choose("to", Card)
        a.require(~busy & ~att_in_play[x] & (kind[c] == "character") & in_play[c])
        a.set(att_in_play[x], True)
        a.set(attached_to[x], c)

    # ------------------------------------------------------------------ entering and leaving play
    @m.action(
        Card,
        describe="{c} enters play under its owner's control",
        cites=["In Play and Out of Play", "Ownership and Control"],
    )
    def enter_play(a: Step, c: Term) -> None:
        if not is_char[c.name]:
            a.require(False)
        a.require(~busy & ~in_play[c])
        a.set(in_play[c], True)

    @m.action(Card, describe="{c} leaves play", cites=["Leaves Play", "Attachment Cards"])
    def leave_play(a: Step, c: Term) -> None:
        if not is_char[c.name]:
            a.require(False)
        a.require(~busy & in_play[c])
        a.set(in_play[c], False)
        a.set(power[c], 0)
        a.set(treasury, treasury + power[c])
        for p in Player:
            a.set(total[p], total[p] - power[c], when=owner[c] == p)
        for x in Att:
            a.set(att_in_play[x], False, when=attached_to[x] == c)

    return m
