"""AGoT 2.0 claim: military, intrigue and power claim, saves, kills and the dead pile.

Rules Reference sections: Claim or Claim Value, Military Claim, Intrigue
Claim, Power Claim, Save, Kill, Killed, Dead Pile, Moving Power, Gains,
Ownership and Control, Duplicates; FAQ (2.1) "Cannot be {Variable}ed".

A won challenge is abstracted to its claim result (Appendix I, 4.2.4 Apply
claim result): ``win_military`` opens a military claim, the losing defender
then chooses characters one by one (``choose_for_claim``); once the choice is
complete, interrupts may save chosen characters by discarding a duplicate
(``save_with_duplicate``), and ``kill_chosen`` kills every chosen character
that was not saved, all at once.  While a claim is being applied nothing else
happens.  Intrigue claim discards cards from the hand (their identity is
random, so only the count is modelled); power claim moves power between
faction cards.

Every character's "cannot be killed" status and each player's claim value are
symbolic (any combination), so the properties hold for all of them.

Mutants (``mutant=``), each a deliberately broken version of one rule:

* ``fewer_ok``: the defender may stop choosing before the claim is satisfied.
* ``overkill``: when the defender runs out, characters they do not control are
  taken to make up the claim.
* ``kill_immune``: a character that cannot be killed may be chosen.
* ``saved_not_counted``: a saved character is no longer counted; the defender
  must choose another one.
* ``one_at_a_time``: only one chosen character dies; the others are left in play.
* ``intrigue_all_or_nothing``: with fewer cards than claim, nothing is discarded.
* ``power_gained``: power moved by claim is counted as gained by the winner.
* ``save_no_discard``: a save does not discard the duplicate.
* ``power_copied``: power claim gives the winner power without taking it from
  the loser.
* ``choose_extra``: one character more than the claim value may be chosen.
* ``dups_stay``: a killed character keeps its duplicates in the dead pile.
* ``dead_to_controller``: a killed character keeps its controller (it goes to
  the controller's dead pile rather than its owner's).
* ``exact_claim``: the defender must choose exactly ``claim`` characters, even
  when fewer can be chosen (the game is stuck: a deadlock).
* ``valar_kills_immune``: "kill each character" also kills characters that
  cannot be killed.
* ``no_cannot_rule``: the model does not say whether "cannot be killed" or a
  forced "kill each character" wins (the must-vs-cannot check finds the
  state where both apply).
* ``unreachable_save``: the save needs more duplicates than a card can have
  (the rule is never reached: rule coverage names it).

"Kill each character in play" (the when revealed ability of the plot Valar
Morghulis) is a forced obligation; "cannot be killed" is absolute (Cannot,
and FAQ (2.1)), so the model declares that "cannot" wins and the
must-vs-cannot check verifies that no step kills a character that cannot be
killed while the obligation is carried out.
"""

from __future__ import annotations

from ruleproof.dsl import Bool, Count, If, Int, Min, Model, OneOf, Or, Range, Step, Sum, Term

__all__ = ["SCENARIOS", "CHECKED", "MUTANTS", "build"]

SCENARIOS = {
    "default": {"players": 2, "chars": 6, "max_claim": 3, "max_power": 8, "max_hand": 5},
    "melee": {"players": 3, "chars": 4, "max_claim": 2, "max_power": 6, "max_hand": 4},
    # not in CHECKED (it takes about 2.5 minutes): every property is proved here as well
    "melee6": {"players": 3, "chars": 6, "max_claim": 2, "max_power": 6, "max_hand": 4},
    "small": {"players": 2, "chars": 3, "max_claim": 3, "max_power": 4, "max_hand": 3},
}
CHECKED = ("default", "melee")

MUTANTS = (
    "fewer_ok",
    "overkill",
    "kill_immune",
    "saved_not_counted",
    "one_at_a_time",
    "intrigue_all_or_nothing",
    "power_gained",
    "dead_to_controller",
    "save_no_discard",
    "power_copied",
    "choose_extra",
    "dups_stay",
    "exact_claim",
    "valar_kills_immune",
    "no_cannot_rule",
    "unreachable_save",
)


def build(
    players: int = 2,
    chars: int = 6,
    max_claim: int = 3,
    max_power: int = 8,
    max_hand: int = 5,
    mutant: str = "",
) -> Model:
    """The claim model: ``players`` players owning ``chars`` characters each."""
    if mutant and mutant not in MUTANTS:
        raise ValueError(f"unknown mutant '{mutant}' (known: {', '.join(MUTANTS)})")
    m = Model("claim", doc=__doc__ or "")
    m.params.update(max_claim=max_claim, max_power=max_power, mutant=mutant)
    Player = m.sort("Player", [f"p{i}" for i in range(1, players + 1)], labels=[f"player {i}" for i in range(1, players + 1)])
    names = [f"c{i}" for i in range(1, players * chars + 1)]
    Char = m.sort(
        "Char", names, labels=[f"character {(i - 1) % chars + 1} of player {(i - 1) // chars + 1}" for i in range(1, len(names) + 1)]
    )
    Zone = m.enum("Zone", ["hand", "play", "dead"])

    owner = m.static("owner", Player, Char, lambda c: f"p{(int(c.name[1:]) - 1) // chars + 1}")

    zone = m.var("zone", Zone, index=Char, init=OneOf("hand", "play"))
    controller = m.var("controller", Player, index=Char, init=lambda c: owner.value(c.name))
    dups = m.var("dups", Int(0, 2), index=Char, init=0)
    cannot_be_killed = m.var("cannot_be_killed", Bool, index=Char, init=OneOf(False, True))
    claim = m.var("claim", Int(0, max_claim), index=Player, init=Range(0, max_claim))
    power = m.var("power", Int(0, max_power), index=Player, init=0)
    gained = m.var("gained", Int(0, max_power), index=Player, init=0)
    hand = m.var("hand", Int(0, max_hand), index=Player, init=Range(0, max_hand))
    # the military claim being applied
    pending = m.var("pending", Bool, init=False)
    attacker = m.var("attacker", Player, init=Player[0].name)
    defender = m.var("defender", Player, init=Player[1].name)
    due = m.var("due", Int(0, max_claim), init=0)
    chosen = m.var("chosen", Bool, index=Char, init=False)
    saved = m.var("saved", Bool, index=Char, init=False)
    # a forced "kill each character in play" being resolved
    valar = m.var("valar", Bool, init=False)
    busy = pending | valar

    def eligible(c: Term) -> Term:
        """``c`` may be chosen for the pending military claim."""
        ok = (zone[c] == "play") & ~chosen[c]
        if mutant != "overkill":
            ok = ok & (controller[c] == defender)
        if mutant != "kill_immune":
            ok = ok & ~cannot_be_killed[c]
        return ok

    chosen_n = Count(Char, lambda c: chosen[c])
    choosing_done = (chosen_n >= due) | (Count(Char, eligible) == 0)
    if mutant == "exact_claim":
        choosing_done = chosen_n >= due
    if mutant == "fewer_ok":
        choosing_done = chosen_n <= due

    @m.action(Player, Player, describe="{att} wins a military challenge against {dfn}: claim is applied", cites=["Military Claim", "Claim or Claim Value"])
    def win_military(a: Step, att: Term, dfn: Term) -> None:
        a.require(~busy)
        if att.name == dfn.name:
            a.require(False)
        a.set(pending, True)
        a.set(attacker, att)
        a.set(defender, dfn)
        a.set(due, claim[att])

    @m.action(Char, describe="the losing defender chooses {c} to be killed for military claim", cites=["Military Claim", "Kill, Killed"])
    def choose_for_claim(a: Step, c: Term) -> None:
        a.require(pending & (chosen_n < due + (1 if mutant == "choose_extra" else 0)) & eligible(c))
        a.set(chosen[c], True)

    @m.action(Char, describe="interrupt: a duplicate on {c} is discarded to save it", cites=["Save", "Duplicates"])
    def save_with_duplicate(a: Step, c: Term) -> None:
        a.require(pending & choosing_done & chosen[c] & ~saved[c] & (dups[c] >= (3 if mutant == "unreachable_save" else 1)))
        if mutant != "save_no_discard":
            a.set(dups[c], dups[c] - 1)
        a.set(saved[c], True)
        if mutant == "saved_not_counted":
            a.set(chosen[c], False)

    @m.action(describe="the chosen characters are killed simultaneously", cites=["Military Claim", "Kill, Killed", "Dead Pile"])
    def kill_chosen(a: Step) -> None:
        a.require(pending & choosing_done)
        earlier: list[Term] = []
        for c in Char:
            dies = chosen[c] & ~saved[c]
            if mutant == "one_at_a_time":
                dies = dies & ~Or(False, *earlier)
                earlier.append(chosen[c] & ~saved[c])
            a.set(zone[c], "dead", when=dies)
            if mutant != "dups_stay":
                a.set(dups[c], 0, when=dies)
            if mutant != "dead_to_controller":
                a.set(controller[c], owner[c], when=dies)
            a.set(chosen[c], False)
            a.set(saved[c], False)
        a.set(pending, False)
        a.set(due, 0)

    @m.action(Player, Player, describe="{att} wins an intrigue challenge against {dfn}: claim is applied", cites=["Intrigue Claim", "Claim or Claim Value"])
    def intrigue_claim(a: Step, att: Term, dfn: Term) -> None:
        a.require(~busy)
        if att.name == dfn.name:
            a.require(False)
        n = Min(claim[att], hand[dfn])
        if mutant == "intrigue_all_or_nothing":
            n = If(hand[dfn] >= claim[att], claim[att], 0)
        a.set(hand[dfn], hand[dfn] - n)

    @m.action(Player, Player, describe="{att} wins a power challenge against {dfn}: claim is applied", cites=["Power Claim", "Moving Power"])
    def power_claim(a: Step, att: Term, dfn: Term) -> None:
        a.require(~busy)
        if att.name == dfn.name:
            a.require(False)
        n = Min(claim[att], power[dfn])
        if mutant != "power_copied":
            a.set(power[dfn], power[dfn] - n)
        if mutant == "power_copied":
            a.set(power[att], Min(power[att] + n, max_power))
        else:
            a.set(power[att], power[att] + n)
        if mutant == "power_gained":
            a.set(gained[att], Min(gained[att] + n, max_power))

    @m.action(Player, describe="{p} gains 1 power for their faction", cites=["Gains", "Power"])
    def gain_power(a: Step, p: Term) -> None:
        a.require(~busy & (Sum(power[q] for q in Player) < max_power))
        a.set(power[p], power[p] + 1)
        a.set(gained[p], gained[p] + 1)

    @m.action(Player, describe="{p} draws a card", cites=["Drawing Cards"])
    def draw(a: Step, p: Term) -> None:
        a.require(~busy & (hand[p] < max_hand))
        a.set(hand[p], hand[p] + 1)

    @m.action(Char, describe="{c} enters play under its owner's control", cites=["Enters Play", "Ownership and Control"])
    def enter_play(a: Step, c: Term) -> None:
        a.require(~busy & (zone[c] == "hand"))
        a.set(zone[c], "play")
        a.set(controller[c], owner[c])

    @m.action(Char, describe="a duplicate is placed on {c}", cites=["Duplicates"])
    def add_duplicate(a: Step, c: Term) -> None:
        a.require(~busy & (zone[c] == "play") & (dups[c] < 2))
        a.set(dups[c], dups[c] + 1)

    @m.action(Player, Char, describe="{p} takes control of {c}", cites=["Ownership and Control"])
    def take_control(a: Step, p: Term, c: Term) -> None:
        a.require(~busy & (zone[c] == "play") & (controller[c] != p))
        a.set(controller[c], p)

    @m.action(describe="a plot's when revealed ability: kill each character in play", cites=["Kill, Killed", "Plot Card"])
    def reveal_kill_each(a: Step) -> None:
        a.require(~busy)
        a.set(valar, True)

    @m.action(describe="each character in play is killed (those that cannot be killed stay)", cites=["Kill, Killed", "Dead Pile", "Cannot"])
    def kill_each(a: Step) -> None:
        a.require(valar)
        for c in Char:
            dies = zone[c] == "play"
            if mutant != "valar_kills_immune":
                dies = dies & ~cannot_be_killed[c]
            a.set(zone[c], "dead", when=dies)
            a.set(dups[c], 0, when=dies)
            a.set(controller[c], owner[c], when=dies)
        a.set(valar, False)

    m.must("killed", Char, lambda c: valar & (zone[c] == "play"), cites=["Kill, Killed"],
           doc="A forced 'kill each character in play' obliges killing every character in play.")
    m.cannot("killed", Char, lambda c: cannot_be_killed[c] & (zone[c] == "play"), cites=["Cannot"],
             doc="'Cannot be killed' is absolute.")
    if mutant != "no_cannot_rule":
        m.resolve("killed", Char, wins="cannot", happened=lambda c: zone[c] == "dead", cites=["Cannot"],
                  doc="The word 'cannot' is absolute and cannot be countermanded by other abilities or effects.")
    return m
