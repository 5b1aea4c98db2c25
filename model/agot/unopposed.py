"""AGoT 2.0 challenge resolution: STR, the challenge winner, the unopposed bonus and when claim applies.

Rules Reference sections: Unopposed, Unopposed Challenge; Winning a
Challenge; Strength, Strength Modifiers; Modifiers; Negative Quantities;
Participating; Attacker, Attacking Character, Attacking Player; Defender,
Defending Character, Defending Player; Appendix I steps 4.2 (Active player
may initiate a challenge), 4.2.1 (Defending player declares defenders), 4.2.2
(Compare STR to determine challenge winner) and 4.2.3 (Gain challenge
bonuses); FAQ (2.10) Characters contributing their STR and the quick
reference "Challenge Application Timing Sequence" (D.U.C.K.: determine the
result, then the unopposed bonus, then claim).

A challenge runs through ``stage``: ``initiate`` (the attacking player
declares standing attackers with the challenge icon and kneels them),
``declare_defenders`` (the defending player may declare standing defenders
with the icon), an action window in which STR modifiers are applied
(``modify_str``), characters are removed from the challenge
(``remove_from_challenge``) or a non-participating character is made to
contribute its STR to one side (``contribute``, FAQ 2.10: the most recent effect prevails, so
a character counts for one side only), then
``determine`` (step 4.2.2) records both sides' STR, the winner and whether the
challenge is unopposed, ``gain_bonuses`` (step 4.2.3) gives the unopposed
bonus, ``apply_claim`` (step 4.2.4) applies the claim result when the
attacking player won, and ``end_challenge`` ends the challenge (its modifiers
expire).  What a claim result does (kills, discards, moved power) is
claim.py's; here the claim step is reached (stage ``claimed``) or not, which
is what the properties state step 4.2.4 on (no count of claim results is
kept: the game shows none).  Keywords are left to other systems.

Each character's base STR (``base``), challenge icon and standing status are
symbolic (any combination), and so is the number of challenges each player
has already initiated; each STR modifier is any amount within bounds, so
a character's modified STR may fall below zero.  The result of step 4.2.2
(winner, unopposed, both sides' STR) is shown from that step until the
challenge ends (``observable=``).  Challenge types are not
distinguished: each player may initiate at most three challenges (one of each
type) in the challenges phase modelled.  Following step 4.2.2 the unopposed
flag is set when the defending side counts 0 STR; the unopposed bonus also
requires the attacker to win.

FAQ (2.10): a character contributes its STR to one side at a time, the most
recent contribution prevails, and removing a character from the challenge
ends only its participation: an earlier contribution by a card effect
counts again.  The model keeps the side each character counts for in
``side`` (updated at each event); what happened is recorded as it happens:
whether the character participates and the side a card effect made it
contribute to (``effect_side``; such effects choose characters that are
not participating, so a character's participation is always its most
recent contribution).  The properties recompute the side from that record.  The deliberately broken rules are edits in
``mutants/agot/unopposed.py``.
"""

from __future__ import annotations

from ruleproof.dsl import Bool, Count, If, Int, Max, Model, OneOf, Or, Range, Step, Sum, Term

__all__ = ["SCENARIOS", "CHECKED", "build"]

SCENARIOS = {
    "default": {"players": 2, "chars": 6, "max_str": 3, "max_mod": 2, "max_power": 5},
    "small": {"players": 2, "chars": 3, "max_str": 2, "max_mod": 2, "max_power": 4},
}
CHECKED = ("default",)


CHALLENGES = 3  # one military, one intrigue and one power challenge per player (step 4.2)


def build(players: int = 2, chars: int = 6, max_str: int = 3, max_mod: int = 2, max_power: int = 5) -> Model:
    """Challenges between ``players`` players with ``chars`` characters each."""
    if max_power < CHALLENGES:
        raise ValueError(f"max_power must be at least {CHALLENGES}")
    m = Model("unopposed", doc=__doc__ or "")
    pl = range(1, players + 1)
    Player = m.sort("Player", [f"p{i}" for i in pl], labels=[f"player {i}" for i in pl])
    n = players * chars
    Char = m.sort(
        "Char",
        [f"c{i}" for i in range(1, n + 1)],
        labels=[f"character {(i - 1) % chars + 1} of player {(i - 1) // chars + 1}" for i in range(1, n + 1)],
    )
    Stage = m.enum("Stage", ["idle", "attackers", "defenders", "decided", "bonuses", "claimed"])
    Side = m.enum("Side", ["none", "attacking", "defending"])
    Outcome = m.enum("Outcome", ["nobody", "attacker", "defender"])

    owner = m.static("owner", Player, Char, lambda c: f"p{(int(c.name[1:]) - 1) // chars + 1}")

    hi = n * (max_str + max_mod)
    stage = m.var("stage", Stage, init="idle")
    att_player = m.var("att_player", Player, init=Player[0].name)
    def_player = m.var("def_player", Player, init=Player[1].name)
    side = m.var("side", Side, index=Char, init="none")
    participating = m.var("participating", Bool, index=Char, init=False)
    # FAQ (2.10) as it happened: the side a card effect made the character contribute to
    effect_side = m.var("effect_side", Side, index=Char, init="none")
    standing = m.var("standing", Bool, index=Char, init=OneOf(False, True))
    icon = m.var("icon", Bool, index=Char, init=OneOf(False, True))
    base = m.var("base", Int(0, max_str), index=Char, init=Range(0, max_str))
    mod = m.var("mod", Int(-max_mod, max_mod), index=Char, init=0)
    # the result of step 4.2.2, shown from then until the challenge ends
    def decided() -> Term:
        return (stage == "decided") | (stage == "bonuses") | (stage == "claimed")

    winner = m.var("winner", Outcome, init="nobody", observable=decided)
    unopposed = m.var("unopposed", Bool, init=False, observable=decided)
    att_str = m.var("att_str", Int(0, hi), init=0, observable=decided)
    def_str = m.var("def_str", Int(0, hi), init=0, observable=decided)
    power = m.var("power", Int(0, max_power), index=Player, init=Range(0, max_power - CHALLENGES))
    # the game may be observed at any point of the challenges phase: any number of challenges already initiated
    initiated = m.var("initiated", Int(0, CHALLENGES), index=Player, init=Range(0, CHALLENGES))

    window = (stage == "attackers") | (stage == "defenders")

    def can_attack(p: Term) -> Term:
        eligible = [standing[c] & icon[c] for c in Char if owner.value(c.name) == p.name]
        return (initiated[p] < CHALLENGES) & Or(*eligible)

    m.game_end(
        (stage == "idle") & ~Or(*(can_attack(p) for p in Player)),
        cites=["4.2 Active player may initiate a challenge", "4.4 Challenges phase ends"],
        doc="No player can initiate a challenge (no challenge left, or no standing character with the icon): "
        "the challenges phase ends.",
    )

    def side_str(s: str) -> Term:
        """The total STR counted for side ``s``."""
        return Sum(If(side[c] == s, Max(base[c] + mod[c], 0), 0) for c in Char)

    def participants(s: str) -> Term:
        return Count(Char, lambda c: participating[c] & (side[c] == s))

    @m.action(
        Player,
        Player,
        describe="{p} initiates a challenge against {q}",
        cites=["Attacker, Attacking Character, Attacking Player", "4.2 Active player may initiate a challenge"],
    )
    def initiate(a: Step, p: Term, q: Term) -> None:
        if p.name == q.name:
            a.require(False)
        own = [c for c in Char if owner.value(c.name) == p.name]
        attack = {c.name: a.choose(f"attack_{c.name}", Bool) for c in own}
        a.require((stage == "idle") & (initiated[p] < CHALLENGES))
        a.require(Or(*attack.values()))
        for c in own:
            x = attack[c.name]
            a.require(~x | (standing[c] & icon[c]))
            a.set(side[c], "attacking", when=x)
            a.set(participating[c], True, when=x)
            a.set(standing[c], False, when=x)
        a.set(att_player, p)
        a.set(def_player, q)
        a.set(initiated[p], initiated[p] + 1)
        a.set(stage, "attackers")

    @m.action(
        Player,
        describe="{q} declares defenders",
        cites=["Defender, Defending Character, Defending Player", "4.2.1 Defending player declares defenders"],
    )
    def declare_defenders(a: Step, q: Term) -> None:
        own = [c for c in Char if owner.value(c.name) == q.name]
        defend = {c.name: a.choose(f"defend_{c.name}", Bool) for c in own}
        a.require((stage == "attackers") & (def_player == q))
        for c in own:
            x = defend[c.name]
            a.require(~x | (standing[c] & icon[c] & ~participating[c]))
            a.set(side[c], "defending", when=x)
            a.set(participating[c], True, when=x)
            a.set(standing[c], False, when=x)
        a.set(stage, "defenders")

    @m.action(Char, describe="a STR modifier is applied to {c}",
              cites=["Modifiers", "Strength, Strength Modifiers", "Action Windows", "Abilities"])
    def modify_str(a: Step, c: Term) -> None:
        # an Action initiated in the challenge's action window: it can only be initiated if its effect has the
        # potential to change the game state (Abilities), so never with a 0 STR modifier. A constant ability's
        # "+X STR" with X = 0 is an active modifier all the same (modifiers.py); none is modelled here
        k = a.choose("amount", Int(-max_mod, max_mod))
        a.require(window & (k != 0) & (mod[c] + k >= -max_mod) & (mod[c] + k <= max_mod))
        a.set(mod[c], mod[c] + k)

    @m.action(Char, describe="{c} is removed from the challenge", cites=["Participating"])
    def remove_from_challenge(a: Step, c: Term) -> None:
        a.require(window & participating[c])
        a.set(participating[c], False)
        a.set(side[c], effect_side[c])  # FAQ (2.10): a contribution by a card effect stays

    @m.action(
        Char,
        Side,
        describe="{c} contributes its STR to the {s} side",
        cites=["Participating", "Winning a Challenge"],
        where=lambda c, s: s != "none",
    )
    def contribute(a: Step, c: Term, s: Term) -> None:
        a.require(window & ~participating[c] & (side[c] != s))
        a.set(side[c], s)
        a.set(effect_side[c], s)

    @m.action(
        describe="STR is compared and the challenge winner determined",
        cites=[
            "4.2.2 Compare STR to determine challenge winner",
            "Winning a Challenge",
            "Unopposed, Unopposed Challenge",
        ],
    )
    def determine(a: Step) -> None:
        a.require(stage == "defenders")
        att, dfn = side_str("attacking"), side_str("defending")
        att_ok = (att >= 1) & (participants("attacking") >= 1)
        dfn_ok = (dfn >= 1) & (participants("defending") >= 1)
        att_higher = att >= dfn
        o = {x.name: x for x in Outcome}
        a.set(winner, If(att_higher, If(att_ok, o["attacker"], o["nobody"]), If(dfn_ok, o["defender"], o["nobody"])))
        a.set(unopposed, dfn == 0)
        a.set(att_str, att)
        a.set(def_str, dfn)
        a.set(stage, "decided")

    @m.action(
        describe="challenge bonuses are gained",
        cites=["4.2.3 Gain challenge bonuses", "Unopposed, Unopposed Challenge"],
    )
    def gain_bonuses(a: Step) -> None:
        a.require(stage == "decided")
        bonus = unopposed & (winner == "attacker")
        for p in Player:
            a.set(power[p], power[p] + 1, when=bonus & (att_player == p))
        a.set(stage, "bonuses")

    @m.action(
        describe="the claim result is applied",
        cites=["4.2.4 Apply claim result.", "Claim or Claim Value"],
    )
    def apply_claim(a: Step) -> None:
        a.require(stage == "bonuses")
        a.require(winner == "attacker")
        a.set(stage, "claimed")

    @m.action(describe="the challenge ends", cites=["Participating", "Modifiers", "4.2.6 Challenge ends"])
    def end_challenge(a: Step) -> None:
        a.require((stage == "claimed") | ((stage == "bonuses") & (winner != "attacker")))
        for c in Char:
            a.set(side[c], "none")
            a.set(participating[c], False)
            a.set(effect_side[c], "none")
            a.set(mod[c], 0)
        a.set(winner, "nobody")
        a.set(unopposed, False)
        a.set(att_str, 0)
        a.set(def_str, 0)
        a.set(stage, "idle")

    return m
