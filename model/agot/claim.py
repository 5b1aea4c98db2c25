"""AGoT 2.0 claim: military, intrigue and power claim, saves, kills and the dead pile.

Rules Reference sections: Claim or Claim Value, Military Claim, Intrigue
Claim, Power Claim, Save, Kill, Killed, Dead Pile, Moving Power, Gains,
Power, Winning the Game, Tokens, Running out of, Ownership and Control,
Duplicates, Unique Cards, The word "Would", When Revealed; FAQ (2.1)
"Cannot be {Variable}ed".

A won challenge is abstracted to its claim result (Appendix I, 4.2.4 Apply
claim result): ``win_military`` opens the military claim of the attacking
player against the losing defender, who then chooses characters one by one
(``choose_for_claim``).  Once the choice is complete the kill of the chosen
characters is imminent: a duplicate's interrupt may save a chosen character
that would leave play (``save_with_duplicate``: "Interrupt: When the
overlapping unique card would leave play, discard this duplicate to save
that card"), and ``kill_chosen`` kills every chosen character that was not
saved, all at once.  The plot Valar Morghulis ("When Revealed: Kill each
character in play") works the same way: ``reveal_kill_each`` makes the kill
of each character in play that can be killed imminent, duplicates may save
them, and ``kill_each`` kills the others.  While a claim or a forced kill
resolves, no player takes an action.  Intrigue claim discards cards
from the hand (their identity is random, so only the count is modelled);
power claim moves power between faction cards.

Power is unlimited (Tokens, Running out of): a gain is never refused for
lack of tokens.  The game ends when a player has 15 power (Winning the
Game): no power is gained or moved after that.  Hands are bounded by the
scenario (``max_hand``).  Every character's "cannot be killed" status and
each player's claim value are symbolic (any combination), so the properties
hold for all of them.  Every other character of a player is unique (only a
unique character its owner controls takes duplicates).

"Kill each character in play" is a forced obligation; "cannot be killed" is
absolute (Cannot, and FAQ (2.1)), so the model declares that "cannot" wins
and the must-vs-cannot check verifies that no step kills a character that
cannot be killed while the obligation is carried out.  The model's
deliberately broken rules are edits in ``mutants/agot/claim.py``.
"""

from __future__ import annotations

from ruleproof.dsl import Bool, Count, Exists, Int, Min, Model, OneOf, Range, Step, Term

__all__ = ["SCENARIOS", "CHECKED", "VICTORY", "build"]

SCENARIOS = {
    "default": {"players": 2, "chars": 6, "max_claim": 3, "max_hand": 5},
    "melee": {"players": 3, "chars": 4, "max_claim": 2, "max_hand": 4},
    # not in CHECKED (it takes minutes): every property is proved here as well
    "melee6": {"players": 3, "chars": 6, "max_claim": 2, "max_hand": 4},
    "small": {"players": 2, "chars": 3, "max_claim": 3, "max_hand": 3},
}
CHECKED = ("default", "melee")

VICTORY = 15
"""Winning the Game: the first player to have 15 (or more) power wins; the game ends."""


def build(players: int = 2, chars: int = 6, max_claim: int = 3, max_hand: int = 5) -> Model:
    """The claim model: ``players`` players owning ``chars`` characters each."""
    m = Model("claim", doc=__doc__ or "")
    # power grows one gain at a time while every player has less than VICTORY
    max_power = players * (VICTORY - 1) + 1
    m.params.update(max_claim=max_claim, max_power=max_power, victory=VICTORY)
    pl = range(1, players + 1)
    Player = m.sort("Player", [f"p{i}" for i in pl], labels=[f"player {i}" for i in pl])
    names = [f"c{i}" for i in range(1, players * chars + 1)]
    labels = [f"character {(i - 1) % chars + 1} of player {(i - 1) // chars + 1}" for i in range(1, len(names) + 1)]
    Char = m.sort("Char", names, labels=labels)
    Zone = m.enum("Zone", ["hand", "play", "dead"])

    owner = m.static("owner", Player, Char, lambda c: f"p{(int(c.name[1:]) - 1) // chars + 1}")
    unique = m.static("unique", Bool, Char, lambda c: (int(c.name[1:]) - 1) % chars % 2 == 0)

    zone = m.var("zone", Zone, index=Char, init=OneOf("hand", "play"))
    controller = m.var("controller", Player, index=Char, init=lambda c: owner.value(c.name))
    dups = m.var("dups", Int(0, 2), index=Char, init=0)
    cannot_be_killed = m.var("cannot_be_killed", Bool, index=Char, init=OneOf(False, True))
    claim = m.var("claim", Int(0, max_claim), index=Player, init=Range(0, max_claim))
    # the game may be observed at any point before a player won: any power below 15, all of it gained
    power = m.var("power", Int(0, max_power), index=Player, init=Range(0, VICTORY - 1))
    gained = m.var("gained", Int(0, max_power), index=Player, init=Range(0, VICTORY - 1))
    hand = m.var("hand", Int(0, max_hand), index=Player, init=Range(0, max_hand))
    # the military claim being applied: the challenge's attacking and defending players
    pending = m.var("pending", Bool, init=False)
    attacker = m.var("attacker", Player, init=Player[0].name)
    defender = m.var("defender", Player, init=Player[1].name)
    chosen = m.var("chosen", Bool, index=Char, init=False)
    # a character saved from the imminent kill (the kill's triggering condition was changed)
    saved = m.var("saved", Bool, index=Char, init=False)
    # a forced "kill each character in play" being resolved
    valar = m.var("valar", Bool, init=False)
    for p in Player:
        m.init_constraint(gained[p] == power[p])
    busy = pending | valar
    won = Exists(Player, lambda p: power[p] >= VICTORY)
    m.game_end(won, cites=["Winning the Game"], doc="A player has 15 power: the game ends.")

    def eligible(c: Term) -> Term:
        """``c`` may be chosen for the pending military claim."""
        return (zone[c] == "play") & ~chosen[c] & (controller[c] == defender) & ~cannot_be_killed[c]

    chosen_n = Count(Char, lambda c: chosen[c])
    choosing_done = (chosen_n >= claim[attacker]) | (Count(Char, eligible) == 0)

    def would_leave(c: Term) -> Term:
        """``c`` would leave play: a kill of it is imminent."""
        by_claim = pending & choosing_done & chosen[c]
        by_valar = valar & (zone[c] == "play") & ~cannot_be_killed[c]
        return by_claim | by_valar

    def kill(a: Step, c: Term, dies: Term) -> None:
        """``c`` is killed when ``dies``: its owner's dead pile; its duplicates are discarded."""
        a.set(zone[c], "dead", when=dies)
        a.set(dups[c], 0, when=dies)
        a.set(controller[c], owner[c], when=dies)

    @m.action(Player, Player, describe="{att} wins a military challenge against {dfn}: claim is applied",
              cites=["Military Claim", "Claim or Claim Value"])
    def win_military(a: Step, att: Term, dfn: Term) -> None:
        a.require(att != dfn)
        a.require(~busy)
        a.set(pending, True)
        a.set(attacker, att)
        a.set(defender, dfn)

    @m.action(Char, describe="the losing defender chooses {c} to be killed for military claim",
              cites=["Military Claim", "Kill, Killed"])
    def choose_for_claim(a: Step, c: Term) -> None:
        a.require(pending)
        a.require(chosen_n < claim[attacker])
        a.require(eligible(c))
        a.set(chosen[c], True)

    @m.action(Char, describe="interrupt: {c} would leave play; a duplicate on it is discarded to save it",
              cites=["Save", "Duplicates", 'The word "Would"'])
    def save_with_duplicate(a: Step, c: Term) -> None:
        a.require(would_leave(c))
        a.require(~saved[c])
        a.require(dups[c] >= 1)
        a.set(dups[c], dups[c] - 1)
        a.set(saved[c], True)

    @m.action(describe="the chosen characters are killed simultaneously",
              cites=["Military Claim", "Kill, Killed", "Dead Pile"])
    def kill_chosen(a: Step) -> None:
        a.require(pending)
        a.require(choosing_done)
        for c in Char:
            kill(a, c, chosen[c] & ~saved[c])
            a.set(chosen[c], False)
            a.set(saved[c], False)
        a.set(pending, False)

    @m.action(Player, Player, describe="{att} wins an intrigue challenge against {dfn}: claim is applied",
              cites=["Intrigue Claim", "Claim or Claim Value"])
    def intrigue_claim(a: Step, att: Term, dfn: Term) -> None:
        a.require(att != dfn)
        a.require(~busy)
        a.set(hand[dfn], hand[dfn] - Min(claim[att], hand[dfn]))

    @m.action(Player, Player, describe="{att} wins a power challenge against {dfn}: claim is applied",
              cites=["Power Claim", "Moving Power"])
    def power_claim(a: Step, att: Term, dfn: Term) -> None:
        a.require(att != dfn)
        a.require(~busy)
        a.require(~won)
        n = Min(claim[att], power[dfn])
        a.set(power[dfn], power[dfn] - n)
        a.set(power[att], power[att] + n)

    @m.action(Player, describe="{p} gains 1 power for their faction",
              cites=["Gains", "Power", "Tokens, Running out of"])
    def gain_power(a: Step, p: Term) -> None:
        a.require(~busy)
        a.require(~won)
        a.set(power[p], power[p] + 1)
        a.set(gained[p], gained[p] + 1)

    @m.action(Player, describe="{p} draws a card", cites=["Drawing Cards"])
    def draw(a: Step, p: Term) -> None:
        a.require(~busy)
        a.require(hand[p] < max_hand)
        a.set(hand[p], hand[p] + 1)

    @m.action(Char, describe="{c} enters play under its owner's control",
              cites=["Enters Play", "Ownership and Control"])
    def enter_play(a: Step, c: Term) -> None:
        a.require(~busy)
        a.require(zone[c] == "hand")
        a.set(zone[c], "play")
        a.set(controller[c], owner[c])

    @m.action(Char, describe="a duplicate is placed on {c}", cites=["Duplicates", "Unique Cards"])
    def add_duplicate(a: Step, c: Term) -> None:
        a.require(unique[c])
        a.require(~busy)
        a.require(zone[c] == "play")
        a.require(controller[c] == owner[c])
        a.require(dups[c] < 2)
        a.set(dups[c], dups[c] + 1)

    @m.action(Player, Char, describe="{p} takes control of {c}", cites=["Ownership and Control"])
    def take_control(a: Step, p: Term, c: Term) -> None:
        a.require(~busy)
        a.require(zone[c] == "play")
        a.require(controller[c] != p)
        a.set(controller[c], p)

    @m.action(describe="a plot's when revealed ability: kill each character in play",
              cites=["Kill, Killed", "When Revealed"])
    def reveal_kill_each(a: Step) -> None:
        a.require(~busy)
        a.set(valar, True)

    @m.action(describe="each character in play is killed (those that cannot be killed or were saved stay)",
              cites=["Kill, Killed", "Dead Pile", "Cannot", "Save"])
    def kill_each(a: Step) -> None:
        a.require(valar)
        for c in Char:
            kill(a, c, (zone[c] == "play") & ~cannot_be_killed[c] & ~saved[c])
            a.set(saved[c], False)
        a.set(valar, False)

    m.must("killed", Char, lambda c: valar & (zone[c] == "play") & ~saved[c], cites=["Kill, Killed"],
           doc="A forced 'kill each character in play' obliges killing every character in play that was not saved.")
    m.cannot("killed", Char, lambda c: cannot_be_killed[c] & (zone[c] == "play"), cites=["Cannot"],
             doc="'Cannot be killed' is absolute.")
    m.resolve("killed", Char, wins="cannot", happened=lambda c: zone[c] == "dead", cites=["Cannot"],
              doc="The word 'cannot' is absolute and cannot be countermanded by other abilities or effects.")
    return m
