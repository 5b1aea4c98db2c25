"""Properties of claim (military, intrigue, power), saves and the dead pile.

Each property restates a rule from the rule text, independently of how the
model implements it: "can be chosen" is spelled out from the Military Claim
section and FAQ (2.1), and the number of characters a military claim kills
is read from the claim value on the attacking player's plot (``claim``),
not from any count the model keeps.  The challenge's attacking and defending
players (``attacker``, ``defender``) and whether a character was saved
(``saved``) are state the model's steps write; the properties
"military claim is applied against the player who lost ..." and "a save
discards one duplicate ..." tie them to the step that creates them.
Properties marked *strengthening* are rules in their own right that make the
others provable by induction.
"""

from __future__ import annotations

from ruleproof.dsl import And, Count, Exists, ForAll, If, Implies, Max, Model, Not, Or, Sum, Term, Transition

__all__ = ["register"]


def register(m: Model) -> None:
    """Add the claim properties to ``m``."""
    v, s = m.v, m.sorts
    Player, Char = s.Player, s.Char
    victory = m.params["victory"]
    players = len(Player)
    nobody_won = ForAll(Player, lambda p: v.power[p] < victory)

    def can_be_chosen(c: Term) -> Term:
        """A character the losing defender controls, in play, that can be killed (FAQ 2.1)."""
        return And(v.zone[c] == "play", v.controller[c] == v.defender, ~v.cannot_be_killed[c])

    n_chosen = Count(Char, lambda c: v.chosen[c])
    claim_value = v.claim[v.attacker]  # the claim value on the attacking player's revealed plot
    choice_complete = Or(n_chosen >= claim_value, Count(Char, lambda c: And(can_be_chosen(c), Not(v.chosen[c]))) == 0)

    def kill_imminent(c: Term) -> Term:
        """A kill of ``c`` is about to happen: chosen for a complete military claim, or a forced 'kill each'."""
        return Or(
            And(v.pending, choice_complete, v.chosen[c]),
            And(v.valar, v.zone[c] == "play", ~v.cannot_be_killed[c]),
        )

    m.invariant(
        "claim values, hands and power are never negative (strengthening)",
        ForAll(
            Player,
            lambda p: And(
                v.claim[p] >= 0, v.claim[p] <= m.params["max_claim"], v.hand[p] >= 0, v.power[p] >= 0, v.gained[p] >= 0
            ),
        ),
        cites=["Negative Quantities", "Claim or Claim Value"],
    )
    m.invariant(
        "a forced kill and a claim are never resolved at the same time (strengthening)",
        ~(v.valar & v.pending),
        cites=["Kill, Killed", "Military Claim"],
        doc="Each resolves completely before anything else happens.",
    )

    # ---------------------------------------------------------------- military claim
    m.action_property(
        "military claim is applied against the player who lost the military challenge",
        "win_military",
        lambda t, att, dfn: And(
            Not(att == dfn),
            t.post(v.pending),
            t.post(v.attacker) == att,
            t.post(v.defender) == dfn,
            ForAll(Char, lambda c: And(Not(t.post(v.chosen[c])), Not(t.post(v.saved[c])))),
        ),
        cites=["Military Claim", "Claim or Claim Value", "Defender, Defending Character, Defending Player"],
        doc="The losing defending player chooses, against the claim value of the attacking player's plot; "
        "no character is chosen yet.",
    )
    m.invariant(
        "military claim only chooses characters the losing defender controls",
        ForAll(
            Char, lambda c: Implies(v.chosen[c], And(v.pending, v.zone[c] == "play", v.controller[c] == v.defender))
        ),
        cites=["Military Claim", "Ownership and Control"],
    )
    m.invariant(
        "no more characters are chosen than the claim value",
        n_chosen <= If(v.pending, claim_value, 0),
        cites=["Military Claim", "Claim or Claim Value"],
        doc="The defender chooses a number of different characters equal to the claim value on the attacking "
        "player's revealed plot card.",
    )
    m.action_property(
        "each character chosen for military claim is a different one",
        "choose_for_claim",
        lambda t, c: And(
            t.post(v.chosen[c]),
            Count(Char, lambda d: t.post(v.chosen[d])) == n_chosen + 1,
        ),
        cites=["Military Claim", "Claim or Claim Value"],
        doc="The defender chooses a number of different characters: each choice adds one character to those "
        "chosen (choosing a character already chosen would not).",
    )
    m.invariant(
        "a character that cannot be killed is never chosen for military claim",
        ForAll(Char, lambda c: Implies(v.chosen[c], ~v.cannot_be_killed[c])),
        cites=["Military Claim", "Kill, Killed"],
        doc="FAQ (2.1): a card that cannot be killed cannot be chosen to be killed to satisfy military claim.",
    )
    m.action_property(
        "military claim is always satisfied as fully as possible",
        "kill_chosen",
        lambda t: And(v.pending, n_chosen == _min(claim_value, Count(Char, can_be_chosen))),
        cites=["Military Claim", "Claim or Claim Value", "Save"],
        doc="Exactly min(claim value, characters the defender controls that can be chosen) different characters "
        "are chosen; a chosen character that was saved still counts.",
    )
    m.invariant(
        "a character that cannot be killed never reaches the dead pile",
        ForAll(Char, lambda c: Implies(v.cannot_be_killed[c], v.zone[c] != "dead")),
        cites=["Kill, Killed", "Dead Pile"],
    )
    m.action_property(
        "the chosen characters are killed simultaneously",
        "kill_chosen",
        lambda t: ForAll(
            Char, lambda c: t.post(v.zone[c]) == If(And(v.chosen[c], ~v.saved[c]), "dead", v.zone[c])
        ),
        cites=["Military Claim", "Kill, Killed", "Save"],
        doc="Every chosen character that was not saved is killed in the same step; nothing else is.",
    )
    m.action_property(
        "after the chosen characters are killed the claim result is over",
        "kill_chosen",
        lambda t: And(
            Not(t.post(v.pending)), ForAll(Char, lambda c: And(Not(t.post(v.chosen[c])), Not(t.post(v.saved[c]))))
        ),
        cites=["Military Claim", "4.2.4 Apply claim result."],
        doc="The claim result is applied once; the next challenge starts afresh.",
    )

    # ---------------------------------------------------------------- saves
    m.action_property(
        "a duplicate saves only a character that would leave play",
        "save_with_duplicate",
        lambda t, c: kill_imminent(c),
        cites=["Duplicates", "Save", 'The word "Would"'],
        doc="Interrupt: when the overlapping unique card would leave play (its kill is imminent: the claim's "
        "choice is complete, or 'kill each character' resolves), discard this duplicate to save that card.",
    )
    m.invariant(
        "a duplicate may save the card it is on whenever that card would leave play",
        ForAll(
            Char,
            lambda c: Implies(
                And(kill_imminent(c), v.dups[c] >= 1, Not(v.saved[c])), m.enabled("save_with_duplicate", c)
            ),
        ),
        cites=["Duplicates", "Save", 'The word "Would"'],
        doc="A duplicate grants its controller 'Interrupt: When the overlapping unique card would leave play, "
        "discard this duplicate to save that card': the option is there whenever the kill is imminent, until the "
        "card has been saved from it.",
    )
    m.action_property(
        "a save discards one duplicate and the character is saved from the imminent kill",
        "save_with_duplicate",
        lambda t, c: And(
            Not(v.saved[c]), t.post(v.saved[c]), t.post(v.zone[c]) == "play", t.post(v.dups[c]) == v.dups[c] - 1
        ),
        cites=["Save", "Duplicates", 'The word "Would"'],
        doc="The word 'Would': once an interrupt saves the character, no further interrupt to the original "
        "kill may be used, so a second duplicate is not spent on it.",
    )
    m.invariant(
        "a saved character still counts toward the claim, or is saved from 'kill each'",
        ForAll(
            Char,
            lambda c: Implies(
                v.saved[c], Or(And(v.pending, v.chosen[c]), And(v.valar, v.zone[c] == "play", ~v.cannot_be_killed[c]))
            ),
        ),
        cites=["Save", "Military Claim"],
        doc="Save: if a card is saved from military claim, it was still chosen, and still counts.",
    )

    # ---------------------------------------------------------------- kill each character in play
    m.action_property(
        "a revealed 'kill each character in play' must resolve",
        "reveal_kill_each",
        lambda t: t.post(v.valar),
        cites=["When Revealed", "Kill, Killed"],
        doc="Such an ability must resolve whenever a plot card bearing it is revealed.",
    )
    m.action_property(
        "kill each character kills every character in play that can be killed and was not saved, and nothing else",
        "kill_each",
        lambda t: ForAll(
            Char,
            lambda c: t.post(v.zone[c])
            == If(And(v.zone[c] == "play", ~v.cannot_be_killed[c], ~v.saved[c]), "dead", v.zone[c]),
        ),
        cites=["Kill, Killed", "Cannot", "Save", "Duplicates"],
        doc="The forced kill is carried out for every character it can be carried out for; a duplicate saves "
        "the card it is under from it too.",
    )
    m.action_property(
        "'kill each character' resolves once, only after a plot bearing it was revealed",
        "kill_each",
        lambda t: And(v.valar, Not(t.post(v.valar)), ForAll(Char, lambda c: Not(t.post(v.saved[c])))),
        cites=["Kill, Killed", "When Revealed"],
        doc="A when revealed ability resolves when its plot card is revealed, and is then over.",
    )

    # ---------------------------------------------------------------- kills, duplicates, control
    m.invariant(
        "a killed character is placed in its owner's dead pile",
        ForAll(Char, lambda c: Implies(v.zone[c] != "play", v.controller[c] == v.owner[c])),
        cites=["Dead Pile", "Kill, Killed", "Ownership and Control"],
        doc="A card out of play (hand, dead pile) is in its owner's area, so under its owner's control.",
    )
    m.invariant(
        "duplicates are only on unique characters in play",
        ForAll(Char, lambda c: Implies(v.dups[c] > 0, And(v.zone[c] == "play", v.unique[c]))),
        cites=["Duplicates", "Leaves Play", "Unique Cards"],
        doc="All duplicates on a card are discarded when it leaves play.",
    )
    m.action_property(
        "a duplicate is placed on a unique character its owner controls",
        "add_duplicate",
        lambda t, c: And(
            v.unique[c], v.zone[c] == "play", v.controller[c] == v.owner[c], t.post(v.dups[c]) == v.dups[c] + 1
        ),
        cites=["Duplicates", "Unique Cards", "Ownership and Control"],
        doc="A player may use additional copies of a unique card he or she owns and controls in play as duplicates.",
    )

    m.action_property(
        "a character enters play from its owner's hand under its owner's control",
        "enter_play",
        lambda t, c: And(v.zone[c] == "hand", t.post(v.zone[c]) == "play", t.post(v.controller[c]) == v.owner[c]),
        cites=["Ownership and Control", "Enters Play"],
        doc="Cards by default enter play under their owner's control; a killed character stays in the dead pile.",
    )
    m.action_property(
        "a player who takes control of a character in play controls it",
        "take_control",
        lambda t, p, c: And(v.zone[c] == "play", t.post(v.controller[c]) == p, t.post(v.zone[c]) == "play"),
        cites=["Ownership and Control"],
    )
    m.action_property(
        "taking control of a character changes who controls it",
        "take_control",
        lambda t, p, c: Not(t.post(v.controller[c]) == v.controller[c]),
        cites=["Abilities", "Ownership and Control"],
        doc="A card ability can only be initiated if its effect has the potential to change the game state: "
        "no player takes control of a character he or she already controls.",
    )
    m.action_property(
        "a player who draws a card adds it to his or her hand",
        "draw",
        lambda t, p: ForAll(Player, lambda q: t.post(v.hand[q]) == v.hand[q] + If(q == p, 1, 0)),
        cites=["Drawing Cards"],
        doc="Drawn cards are added to a player's hand.",
    )

    # ---------------------------------------------------------------- nothing else happens meanwhile
    for fam in ("win_military", "intrigue_claim", "power_claim", "gain_power", "draw", "enter_play", "add_duplicate",
                "take_control", "reveal_kill_each"):
        m.action_property(
            f"no player acts while a claim or a forced kill resolves ({fam})",
            fam,
            lambda t, *ps: And(Not(v.pending), Not(v.valar)),
            cites=["4.2.4 Apply claim result.", "Kill, Killed"],
            doc="A claim result, and a forced 'kill each character', resolve completely before players act again.",
        )

    # ---------------------------------------------------------------- intrigue claim
    m.action_property(
        "intrigue claim discards as many cards as possible, up to the claim value",
        "intrigue_claim",
        lambda t, att, dfn: And(
            Not(att == dfn),
            ForAll(Player, lambda p: t.post(v.hand[p]) == If(p == dfn, Max(0, v.hand[dfn] - v.claim[att]), v.hand[p])),
        ),
        cites=["Intrigue Claim", "Claim or Claim Value"],
    )

    # ---------------------------------------------------------------- power claim, gains, the end of the game
    def moved(t: Transition, att: Term, dfn: Term) -> Term:
        n = v.power[dfn] - t.post(v.power[dfn])
        return And(
            Not(att == dfn),
            t.post(v.power[dfn]) == Max(0, v.power[dfn] - v.claim[att]),
            t.post(v.power[att]) == v.power[att] + n,
        )

    m.action_property(
        "power claim moves power from the loser's faction card to the winner's",
        "power_claim",
        moved,
        cites=["Power Claim", "Moving Power"],
    )
    m.action_property(
        "power moved by claim is not gained",
        "power_claim",
        lambda t, att, dfn: ForAll(Player, lambda p: t.post(v.gained[p]) == v.gained[p]),
        cites=["Moving Power", "Gains"],
        doc="A 'when you gain power' trigger does not fire on a move: the gained-power counter is unchanged.",
    )
    m.action_property(
        "a gain adds exactly 1 power for the player",
        "gain_power",
        lambda t, p: ForAll(
            Player,
            lambda q: And(
                t.post(v.power[q]) == v.power[q] + If(q == p, 1, 0),
                t.post(v.gained[q]) == v.gained[q] + If(q == p, 1, 0),
            ),
        ),
        cites=["Gains", "Power"],
    )
    m.invariant(
        "all power on faction cards was gained once",
        Sum(v.power[p] for p in Player) == Sum(v.gained[p] for p in Player),
        cites=["Power", "Gains", "Moving Power"],
        doc="Power enters the game only by being gained; moving it neither creates nor gains power.",
    )
    for fam in ("gain_power", "power_claim"):
        m.action_property(
            f"no power changes hands once a player has won ({fam})",
            fam,
            lambda t, *ps: nobody_won,
            cites=["Winning the Game"],
            doc="The game ends immediately when a player has 15 (or more) power.",
        )
    m.invariant(
        "power grows one gain at a time until a player wins (strengthening)",
        Sum(v.power[p] for p in Player) <= players * (victory - 1) + 1,
        cites=["Power", "Winning the Game", "Tokens, Running out of"],
        doc="There is no limit to the power tokens: the only bound is the end of the game.",
    )

    # ---------------------------------------------------------------- sanity
    m.reachable(
        "sanity: military claim can kill a character",
        # the losing defender has chosen as many characters as the attacker's claim value and one of them is
        # not saved: the claim kills it next ("kill each character" alone does not reach this)
        And(v.pending, Count(Char, lambda c: v.chosen[c]) == v.claim[v.attacker],
            Count(Char, lambda c: And(v.chosen[c], ~v.saved[c])) >= 1),
        cites=["Military Claim"],
    )
    m.reachable(
        "sanity: a character chosen for claim can be saved",
        Exists(Char, lambda c: And(v.saved[c], v.chosen[c])),
        cites=["Save"],
    )
    m.reachable(
        "sanity: a duplicate saves a character from 'kill each character'",
        Exists(Char, lambda c: And(v.saved[c], v.valar)),
        cites=["Save", "Duplicates"],
    )
    m.reachable(
        "sanity: a player wins with 15 power",
        Exists(Player, lambda p: v.power[p] >= victory),
        cites=["Winning the Game", "Tokens, Running out of"],
    )


def _min(a: Term, b: Term) -> Term:
    """``min(a, b)`` spelled out (the property does not reuse the model's Min)."""
    return If(a <= b, a, b)
