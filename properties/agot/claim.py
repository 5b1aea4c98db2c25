"""Properties of claim (military, intrigue, power), saves and the dead pile.

Each property restates a rule independently of how the model implements it:
"can be chosen" below is spelled out from the Military Claim section and FAQ
(2.1), not taken from the model.  Properties marked *strengthening* are also
rules in their own right; they make the others provable by induction.
"""

from __future__ import annotations

from ruleproof.dsl import And, Count, ForAll, If, Implies, Max, Model, Sum, Term, Transition

__all__ = ["register"]


def register(m: Model) -> None:
    """Add the claim properties to ``m``."""
    v, s = m.v, m.sorts
    Player, Char = s.Player, s.Char
    max_power = m.params["max_power"]

    def can_be_chosen(c: Term) -> Term:
        """A character the losing defender controls, in play, that can be killed."""
        return And(v.zone[c] == "play", v.controller[c] == v.defender, ~v.cannot_be_killed[c])

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
    m.invariant(
        "military claim only chooses characters the losing defender controls",
        ForAll(Char, lambda c: Implies(v.chosen[c],
                                       And(v.pending, v.zone[c] == "play", v.controller[c] == v.defender))),
        cites=["Military Claim", "Ownership and Control"],
    )
    m.invariant(
        "no more characters are chosen than the claim value (strengthening)",
        Count(Char, lambda c: v.chosen[c]) <= v.due,
        cites=["Military Claim", "Claim or Claim Value"],
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
        lambda t: Count(Char, lambda c: v.chosen[c]) == _min(v.due, Count(Char, can_be_chosen)),
        cites=["Military Claim", "Claim or Claim Value", "Save"],
        doc="Exactly min(claim, characters the defender controls that can be chosen) different characters "
        "are chosen; a chosen character that was saved still counts.",
    )
    m.invariant(
        "a character that cannot be killed never reaches the dead pile",
        ForAll(Char, lambda c: Implies(v.cannot_be_killed[c], v.zone[c] != "dead")),
        cites=["Kill, Killed", "Dead Pile"],
    )
    m.invariant(
        "a character saved from military claim still counts toward the claim",
        ForAll(Char, lambda c: Implies(v.saved[c], v.chosen[c])),
        cites=["Save", "Military Claim"],
        doc="Save: if a card is saved from military claim, it was still chosen, and still counts.",
    )
    m.action_property(
        "the chosen characters are killed simultaneously",
        "kill_chosen",
        lambda t: ForAll(
            Char, lambda c: t.post(v.zone[c]) == If(And(v.chosen[c], ~v.saved[c]), "dead", v.zone[c])
        ),
        cites=["Military Claim", "Kill, Killed"],
        doc="Every chosen character that was not saved is killed in the same step; nothing else is.",
    )
    m.action_property(
        "kill each character kills every character in play that can be killed, and nothing else",
        "kill_each",
        lambda t: ForAll(
            Char, lambda c: t.post(v.zone[c]) == If(And(v.zone[c] == "play", ~v.cannot_be_killed[c]), "dead", v.zone[c])
        ),
        cites=["Kill, Killed", "Cannot"],
        doc="The forced 'kill each character in play' is carried out for every character it can be carried out for.",
    )
    m.action_property(
        "a save discards a duplicate and keeps the character in play",
        "save_with_duplicate",
        lambda t, c: And(t.post(v.zone[c]) == "play", t.post(v.dups[c]) == v.dups[c] - 1),
        cites=["Save", "Duplicates"],
    )
    m.invariant(
        "a killed character is placed in its owner's dead pile",
        ForAll(Char, lambda c: Implies(v.zone[c] != "play", v.controller[c] == v.owner[c])),
        cites=["Dead Pile", "Kill, Killed", "Ownership and Control"],
        doc="A card out of play (hand, dead pile) is in its owner's area, so under its owner's control.",
    )
    m.invariant(
        "duplicates are only on characters in play (strengthening)",
        ForAll(Char, lambda c: Implies(v.dups[c] > 0, v.zone[c] == "play")),
        cites=["Duplicates", "Leaves Play"],
    )

    # ---------------------------------------------------------------- intrigue claim
    m.action_property(
        "intrigue claim discards as many cards as possible, up to the claim value",
        "intrigue_claim",
        lambda t, att, dfn: t.post(v.hand[dfn]) == Max(0, v.hand[dfn] - v.claim[att]),
        cites=["Intrigue Claim", "Claim or Claim Value"],
    )

    # ---------------------------------------------------------------- power claim
    def moved(t: Transition, att: Term, dfn: Term) -> Term:
        n = v.power[dfn] - t.post(v.power[dfn])
        return And(
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
    m.invariant(
        "all power on faction cards was gained once",
        Sum(v.power[p] for p in Player) == Sum(v.gained[p] for p in Player),
        cites=["Power", "Gains", "Moving Power"],
        doc="Power enters the game only by being gained; moving it neither creates nor gains power.",
    )
    m.invariant(
        "the power in the game stays within the supply (strengthening)",
        Sum(v.power[p] for p in Player) <= max_power,
        cites=["Power"],
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
        Count(Char, lambda c: v.saved[c]) >= 1,
        cites=["Save"],
    )


def _min(a: Term, b: Term) -> Term:
    """``min(a, b)`` spelled out (the property does not reuse the model's Min)."""
    return If(a <= b, a, b)
