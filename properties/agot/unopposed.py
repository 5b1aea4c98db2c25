"""Properties of challenge resolution: STR counted, the challenge winner, the unopposed bonus and claim.

Each property restates a rule (Unopposed, Unopposed Challenge; Winning a
Challenge; Strength, Strength Modifiers; Modifiers; Appendix I 4.2.2,
4.2.3 and 4.2.4) from the characters' base STR, modifiers and sides, spelled out here
rather than taken from the model.  Properties marked *strengthening* are
rules in their own right that make the others provable by induction.
"""

from __future__ import annotations

from ruleproof.dsl import And, Count, ForAll, If, Implies, Model, Not, Or, Sum, Term, Transition

__all__ = ["register"]


def register(m: Model) -> None:
    """Add the challenge-resolution properties to ``m``."""
    v, s = m.v, m.sorts
    Player, Char = s.Player, s.Char
    challenges = 3  # one military, one intrigue and one power challenge per player (step 4.2)
    max_power = m.params["max_power"]

    def strength(c: Term) -> Term:
        """A character's STR: base value plus modifiers, treated as zero below zero."""
        raw = v.base[c] + v.mod[c]
        return If(raw < 0, 0, raw)

    def role(c: Term) -> Term:
        """The side a participating character is on: attackers are the attacking player's characters."""
        return If(v.owner[c] == v.att_player, s.Side.attacking, s.Side.defending)

    def counts_for(c: Term) -> Term:
        """FAQ (2.10): the side of the character's most recent contribution (its participation, else a card effect)."""
        return If(v.participating[c], role(c), v.effect_side[c])

    def total(side: str) -> Term:
        return Sum(If(counts_for(c) == side, strength(c), 0) for c in Char)

    def participants(side: str) -> Term:
        return Count(Char, lambda c: And(v.participating[c], role(c) == side))

    in_challenge = Or(v.stage == "attackers", v.stage == "defenders", v.stage == "decided")

    # ---------------------------------------------------------------- strengthening
    m.invariant(
        "participants are the attacking and defending players' characters (strengthening)",
        ForAll(
            Char,
            lambda c: And(
                Implies(v.participating[c], Or(v.owner[c] == v.att_player, v.owner[c] == v.def_player)),
                Not(v.att_player == v.def_player),
                Implies(v.stage == "idle", And(Not(v.participating[c]), v.effect_side[c] == "none", v.mod[c] == 0)),
            ),
        ),
        cites=[
            "Participating",
            "Attacker, Attacking Character, Attacking Player",
            "Defender, Defending Character, Defending Player",
        ],
    )
    m.invariant(
        "each character's STR counts for the side of its most recent contribution",
        ForAll(Char, lambda c: v.side[c] == counts_for(c)),
        cites=["Participating", "Winning a Challenge"],
        doc="FAQ (2.10): a character contributes its STR to one side; the most recent effect prevails, becoming a "
        "participant included; removing a character from the challenge affects only its participation, not an "
        "earlier contribution by a card ability.",
    )
    m.action_property(
        "a card effect records the side the character contributes to",
        "contribute",
        lambda t, c, sd: And(Not(v.participating[c]), t.post(v.effect_side[c]) == sd, Not(t.post(v.participating[c]))),
        cites=["Participating"],
        doc="FAQ (2.10): an effect that makes a character contribute its STR does not make it participate.",
    )
    m.action_property(
        "removing a character from the challenge ends only its participation",
        "remove_from_challenge",
        lambda t, c: And(
            v.participating[c], Not(t.post(v.participating[c])), t.post(v.effect_side[c]) == v.effect_side[c]
        ),
        cites=["Participating"],
        doc="FAQ (2.10): an ability that removes a character from a challenge only affects its participating status.",
    )
    m.invariant(
        "each player gains at most one unopposed bonus per challenge initiated (strengthening)",
        ForAll(
            Player,
            lambda p: And(
                v.power[p] >= 0,
                v.initiated[p] >= 0,
                v.power[p] + (challenges - v.initiated[p]) + If(And(in_challenge, v.att_player == p), 1, 0)
                <= max_power,
            ),
        ),
        cites=["4.2 Active player may initiate a challenge", "4.2.3 Gain challenge bonuses"],
        doc="Each player initiates at most one challenge of each type; each challenge gives at most 1 power "
        "as its unopposed bonus.",
    )
    m.invariant(
        "STR never counts below zero",
        And(v.att_str >= 0, v.def_str >= 0),
        cites=["Modifiers", "Negative Quantities", "Strength, Strength Modifiers"],
    )

    # ---------------------------------------------------------------- counting STR (step 4.2.2)
    m.action_property(
        "a side's STR is the sum of its characters' STR, each counted at zero or more",
        "determine",
        lambda t: And(t.post(v.att_str) == total("attacking"), t.post(v.def_str) == total("defending")),
        cites=["Winning a Challenge", "Strength, Strength Modifiers", "Modifiers"],
        doc="Negative modifiers in excess of a character's STR can be applied, but its STR is then treated "
        "as zero; FAQ (2.10): a character contributing its STR counts once, for one side.",
    )
    m.action_property(
        "a character's negative STR never lowers its side's total",
        "determine",
        lambda t: ForAll(
            Char,
            lambda c: And(
                Implies(v.side[c] == "attacking", t.post(v.att_str) >= v.base[c] + v.mod[c]),
                Implies(v.side[c] == "defending", t.post(v.def_str) >= v.base[c] + v.mod[c]),
            ),
        ),
        cites=["Modifiers", "Negative Quantities"],
        doc="A side counts at least the STR of each of its characters: a character at negative STR counts zero.",
    )

    # ---------------------------------------------------------------- winning
    def expected_winner(t: Transition) -> Term:
        a, d = total("attacking"), total("defending")
        att_can = And(a >= 1, participants("attacking") >= 1)
        dfn_can = And(d >= 1, participants("defending") >= 1)
        return And(
            Implies(And(a >= d, att_can), t.post(v.winner) == "attacker"),
            Implies(And(a >= d, Not(att_can)), t.post(v.winner) == "nobody"),
            Implies(And(d > a, dfn_can), t.post(v.winner) == "defender"),
            Implies(And(d > a, Not(dfn_can)), t.post(v.winner) == "nobody"),
        )

    m.action_property(
        "the challenge is won by the higher STR, ties to the attacker, with 1 STR and a participant",
        "determine",
        expected_winner,
        cites=["Winning a Challenge", "4.2.2 Compare STR to determine challenge winner"],
        doc="The side with the higher total STR wins (ties: the attacker); if that side counts less than 1 STR "
        "or has no participating character, neither player wins.",
    )
    m.action_property(
        "the attacker wins ties at 1 STR or more",
        "determine",
        lambda t: Implies(
            And(total("attacking") == total("defending"), total("attacking") >= 1, participants("attacking") >= 1),
            t.post(v.winner) == "attacker",
        ),
        cites=["Winning a Challenge", "4.2.2 Compare STR to determine challenge winner"],
    )
    m.action_property(
        "the attacker needs STR 1 or more to win",
        "determine",
        lambda t: Implies(t.post(v.winner) == "attacker", total("attacking") >= 1),
        cites=["Winning a Challenge", "Strength, Strength Modifiers"],
        doc="A player is not able to win a challenge with a total STR of zero.",
    )
    m.action_property(
        "a player needs a participating character to win",
        "determine",
        lambda t: And(
            Implies(t.post(v.winner) == "attacker", participants("attacking") >= 1),
            Implies(t.post(v.winner) == "defender", participants("defending") >= 1),
        ),
        cites=["Winning a Challenge", "Participating"],
    )

    # ---------------------------------------------------------------- unopposed
    m.action_property(
        "a challenge is unopposed exactly when the defending STR is 0",
        "determine",
        lambda t: t.post(v.unopposed) == (total("defending") == 0),
        cites=["Unopposed, Unopposed Challenge", "4.2.2 Compare STR to determine challenge winner"],
        doc="Whether no defenders were declared (or all were removed) or the defenders' total STR is 0.",
    )
    m.action_property(
        "an unopposed challenge won by the attacker gains 1 power for the attacker",
        "gain_bonuses",
        lambda t: ForAll(
            Player,
            lambda p: (
                t.post(v.power[p]) == v.power[p] + If(And(v.att_player == p, v.unopposed, v.winner == "attacker"), 1, 0)
            ),
        ),
        cites=["Unopposed, Unopposed Challenge", "4.2.3 Gain challenge bonuses"],
        doc="Only the attacker, only for winning, only when unopposed, and exactly 1 power.",
    )

    # ---------------------------------------------------------------- the challenge's steps (Appendix I, 4.2)
    steps = {
        "initiate": ("idle", "attackers"),
        "declare_defenders": ("attackers", "defenders"),
        "determine": ("defenders", "decided"),
        "gain_bonuses": ("decided", "bonuses"),
    }
    for fam, (before, after) in steps.items():
        m.action_property(
            f"a challenge's framework steps come in the order of Appendix I ({fam})",
            fam,
            lambda t, *ps, before=before, after=after: And(v.stage == before, t.post(v.stage) == after),
            cites=["4.2 Active player may initiate a challenge", "4.2.1 Defending player declares defenders",
                   "4.2.2 Compare STR to determine challenge winner", "4.2.3 Gain challenge bonuses"],
            doc="A challenge is initiated when none is resolving; defenders are declared once, then STR is "
            "compared, then the challenge bonuses are gained.",
        )
    for fam in ("modify_str", "remove_from_challenge", "contribute"):
        m.action_property(
            f"STR changes only before the challenge winner is determined ({fam})",
            fam,
            lambda t, *ps: Or(v.stage == "attackers", v.stage == "defenders"),
            cites=["4.2.2 Compare STR to determine challenge winner", "Participating"],
            doc="Modifiers, removals and contributions act in the action windows of the challenge, before the STR "
            "comparison that decides it.",
        )
    m.action_property(
        "a STR modifier is applied only if it changes the character's modifiers",
        "modify_str",
        lambda t, c: Not(t.post(v.mod[c]) == v.mod[c]),
        cites=["Abilities", "Modifiers"],
        doc="A card ability can only be initiated if its effect has the potential to change the game state: a "
        "modifier of 0 changes nothing.",
    )
    m.action_property(
        "a card effect makes a character contribute its STR only to a side it does not count for",
        "contribute",
        lambda t, c, sd: Not(counts_for(c) == sd),
        cites=["Abilities", "Participating"],
        doc="A card ability can only be initiated if its effect has the potential to change the game state: "
        "making a character contribute to the side it already counts for changes nothing (FAQ 2.10).",
    )
    m.action_property(
        "a STR modifier changes the character's STR by its amount",
        "modify_str",
        lambda t, c: ForAll(Char, lambda d: t.post(v.mod[d]) == v.mod[d] + If(d == c, t.choice("amount"), 0)),
        cites=["Modifiers", "Strength, Strength Modifiers"],
    )

    def declared(t: Transition, p: Term) -> Term:
        """Every character newly participating is ``p``'s, was standing with the challenge icon, and is knelt."""
        return ForAll(
            Char,
            lambda c: Implies(
                And(t.post(v.participating[c]), Not(v.participating[c])),
                And(v.owner[c] == p, v.standing[c], v.icon[c], Not(t.post(v.standing[c]))),
            ),
        )

    m.action_property(
        "attackers are standing characters of the attacking player with the challenge icon, knelt, at least one",
        "initiate",
        lambda t, p, q: And(declared(t, p), Count(Char, lambda c: t.post(v.participating[c])) >= 1),
        cites=["4.2 Active player may initiate a challenge", "Attacker, Attacking Character, Attacking Player"],
        doc="To be eligible as an attacker, a character must have the challenge icon and be standing; attackers "
        "are knelt; at least one character must be declared as an attacker to initiate a challenge.",
    )
    m.action_property(
        "defenders are standing characters of the defending player with the challenge icon, knelt",
        "declare_defenders",
        lambda t, q: And(v.def_player == q, declared(t, q)),
        cites=["4.2.1 Defending player declares defenders", "Defender, Defending Character, Defending Player"],
    )

    # ---------------------------------------------------------------- claim (step 4.2.4, D.U.C.K.)
    # Stated on the challenge's framework step (``stage``) and its winner, what the game shows: the claim step is
    # reached only from the bonuses step of a challenge the attacking player won, and it is then over.
    m.action_property(
        "the claim result is applied after the challenge bonuses, only for a challenge the attacking player won",
        "apply_claim",
        lambda t: And(
            v.stage == "bonuses",
            v.winner == "attacker",
            t.post(v.stage) == "claimed",
        ),
        cites=["4.2.4 Apply claim result.", "4.2.3 Gain challenge bonuses", "Claim or Claim Value"],
        doc="If the attacking player is the challenge winner, the claim result is now applied (after the "
        "unopposed bonus: Determine, Unopposed, Claim); if the defending player wins, no claim result occurs. "
        "The claim step is over once applied (stage 'claimed'), so it is applied once per challenge.",
    )
    m.action_property(
        "a challenge the attacking player won ends only after its claim result",
        "end_challenge",
        lambda t: And(
            Implies(v.winner == "attacker", v.stage == "claimed"),
            Implies(Not(v.winner == "attacker"), v.stage == "bonuses"),
        ),
        cites=["4.2.4 Apply claim result.", "4.2.6 Challenge ends"],
        doc="A challenge ends after step 4.2.4: with its claim result when the attacking player won, without one "
        "otherwise.",
    )
    m.invariant(
        "a claim result is applied only in a challenge the attacking player won",
        Implies(v.stage == "claimed", v.winner == "attacker"),
        cites=["4.2.4 Apply claim result."],
    )

    # ---------------------------------------------------------------- sanity
    m.reachable(
        "sanity: an attacker wins unopposed against declared defenders with 0 STR",
        And(v.stage == "decided", v.unopposed, v.winner == "attacker", participants("defending") >= 1),
        cites=["Unopposed, Unopposed Challenge"],
    )
    m.reachable(
        "sanity: the defender wins a challenge",
        And(v.stage == "decided", v.winner == "defender"),
        cites=["Winning a Challenge"],
    )
