"""Properties of the game round (Appendix I), the first player and the active player.

Each property restates a rule independently of how the model implements it:
the phase order, player order and the winner of a challenge or of dominance
are spelled out here from the Rules Reference, not taken from the model.
Properties marked *strengthening* are also rules in their own right; they make
the others provable by induction.
"""

from __future__ import annotations

from typing import Callable

from ruleproof.dsl import And, ForAll, If, Implies, Model, Not, Or, Sum, Term, Transition

__all__ = ["register", "APPENDIX_ORDER", "TITLE_SUPPORTS", "TITLE_RIVALS", "TITLE_CHALLENGE_STR", "REGENT_STR"]

#: The phases of a round as Appendix I lists them (1. Plot phase ... 7. Taxation phase).
APPENDIX_ORDER = ("plot", "draw", "marshaling", "challenges", "dominance", "standing", "taxation")

#: The melee title cards (Core Set 01206 to 01211), read from their printed text: "Supports: X" and "Rivals: Y, Z".
#: (The Crown Regent reads "Supports: None", "Rivals: None".)
TITLE_SUPPORTS = {
    "master_of_whispers": "hand_of_the_king",
    "master_of_ships": "master_of_whispers",
    "hand_of_the_king": "master_of_laws",
    "master_of_coin": "master_of_ships",
    "master_of_laws": "master_of_coin",
}
TITLE_RIVALS = {
    "master_of_whispers": ("master_of_laws", "master_of_coin"),
    "master_of_ships": ("master_of_laws", "hand_of_the_king"),
    "hand_of_the_king": ("master_of_coin", "master_of_ships"),
    "master_of_coin": ("hand_of_the_king", "master_of_whispers"),
    "master_of_laws": ("master_of_whispers", "master_of_ships"),
}
#: Title Cards, Title Pool: "The Hand of the King contributes 1 additional STR to its bearer's total during any [power]
#: challenge in which he or she controls a participating character" (the Master of Ships: [military]; the Master of
#: Whispers: [intrigue]); "The Crown Regent contributes 2 additional STR to its bearer's total for dominance."
TITLE_CHALLENGE_STR = {"hand_of_the_king": "power", "master_of_ships": "military", "master_of_whispers": "intrigue"}
REGENT_STR = 2


def side_totals(m: Model) -> tuple[Term, Term]:
    """The attacking and defending players' STR totals in the challenge under way (4.2.2): their participating
    characters' STR and, in a melee game, 1 STR for a player whose title names the challenge's type and who controls a
    participating character (Title Cards)."""
    v, Player, Char = m.v, m.sorts.Player, m.sorts.Char
    att: Term = Sum(If(v.attacking[c], v.strength[c], 0) for c in Char)
    dfn: Term = Sum(If(v.defending[c], v.strength[c], 0) for c in Char)
    if len(list(Player)) < 3:
        return att, dfn

    def bonus(p: Term) -> Term:
        takes_part = Or(*(Or(v.attacking[c], v.defending[c]) for c in Char
                          if m.statics.owner.value(c.name) == p.name))
        typed = Or(*(And(v.title[p] == ti, v.ctype == ty) for ti, ty in TITLE_CHALLENGE_STR.items()))
        return If(And(takes_part, typed), 1, 0)

    att = att + Sum(If(v.attacker == p, bonus(p), 0) for p in Player)
    dfn = dfn + Sum(If(v.defender == p, bonus(p), 0) for p in Player)
    return att, dfn


def challenge_winner(m: Model, att: Term, dfn: Term) -> Term:
    """The challenge's winner for the sides' STR totals ``att`` and ``dfn`` (Winning a Challenge): a side needs a
    participating character and STR 1 or more; a tie goes to the attacker."""
    v, Char, Outcome = m.v, m.sorts.Char, m.sorts.Outcome
    att_chars = Or(*(v.attacking[c] for c in Char))
    def_chars = Or(*(v.defending[c] for c in Char))
    return If(And(att_chars, att >= 1, att >= dfn), Outcome.attacker,
              If(And(def_chars, dfn >= 1, dfn > att), Outcome.defender, Outcome.nobody))


def register(m: Model) -> None:
    """Add the round properties to ``m``."""
    v, s, st = m.v, m.sorts, m.statics
    Player, Char, ChType = s.Player, s.Char, s.ChType
    seats = list(Player)
    n = len(seats)
    max_value = m.params["max_value"]

    def left_of(p: Term) -> Term:
        """The next player clockwise (Player Order), for a possibly state-dependent ``p``."""
        out: Term = seats[1 % n]
        for i in range(n - 1, 0, -1):
            out = If(p == seats[i], seats[(i + 1) % n], out)
        return out

    def has_been_active(f: str, a: str) -> set[str]:
        """The players who have been active when the rotation began at ``f`` and reached ``a``."""
        i = [x.name for x in seats].index(f)
        out = []
        while True:
            out.append(seats[i % n].name)
            if seats[i % n].name == a:
                return set(out)
            i += 1

    def been_active(p: Term) -> Term:
        """``p`` has been the active player this phase (Player Order, 3.3, 4.3): the rotation began at the first
        player and went clockwise, one player at a time, to the active player."""
        return Or(*(And(v.first == f, v.active == a) for f in seats for a in seats
                    if p.name in has_been_active(f.name, a.name)))

    turning = Or(v.phase == "marshaling", v.phase == "challenges")

    def controls(p: Term, c: Term) -> bool:
        return st.owner.value(c.name) == p.name

    # ---------------------------------------------------------------- the phases
    def follows(t: Transition) -> Term:
        nxt = v.phase
        for i, ph in enumerate(APPENDIX_ORDER):
            nxt = If(v.phase == ph, APPENDIX_ORDER[(i + 1) % len(APPENDIX_ORDER)], nxt)
        new_round = And(v.phase == "taxation", v.round < m.params["max_rounds"])
        return And(t.post(v.phase) == nxt, t.post(v.round) == If(new_round, v.round + 1, v.round))

    m.action_property(
        "phases follow the Appendix I order",
        "next_phase",
        follows,
        cites=["Appendix I: Timing and Gameplay", "Framework Event Details", "1.1 Plot phase begins",
               "7.5 Taxation phase ends"],
        doc="Plot, draw, marshaling, challenges, dominance, standing, taxation, then the plot phase of the next round.",
    )
    m.invariant(
        "a challenge resolves only during the challenges phase (strengthening)",
        Implies(v.stage != "none", And(v.phase == "challenges", v.attacker == v.active)),
        cites=["4.2 Active player may initiate a challenge", "Challenges Phase"],
    )

    # ---------------------------------------------------------------- 1. plot phase
    m.action_property(
        "the plot phase ends only after plots are revealed and a first player chosen",
        "next_phase",
        lambda t: Implies(v.phase == "plot", v.revealed),
        cites=["1.3 Reveal plots", "First Player, First Player Token", "Plot Phase"],
    )
    m.action_property(
        "the first player is chosen by a player with the highest initiative",
        "reveal_plots",
        lambda t, w, f: And(
            ForAll(Player, lambda q: t.post(v.initiative[w]) >= t.post(v.initiative[q])), t.post(v.first) == f
        ),
        cites=["Initiative", "1.3 Reveal plots", "First Player, First Player Token"],
    )
    m.action_property(
        "a tie for initiative is won by the tied player with the lowest power total",
        "reveal_plots",
        lambda t, w, f: And(*(
            Implies(t.post(v.initiative[w]) == t.post(v.initiative[q]),
                    v.power[w] <= v.power[q])
            for q in Player
        )),
        cites=["Initiative", "1.3 Reveal plots"],
        doc="If the lowest power total is also tied, a random method breaks the tie: any of those players may win.",
    )
    m.action_property(
        "a plot revealed by a card ability does not change the first player",
        "ability_reveals_plot",
        lambda t, p: t.post(v.first) == v.first,
        cites=["1.3 Reveal plots", "First Player, First Player Token"],
        doc="FAQ, At Prince Doran's Behest: initiative was already compared in step I, so the first player "
        "does not change when a card ability reveals a new plot.",
    )
    m.action_property(
        "plots are revealed once per plot phase",
        "reveal_plots",
        lambda t, w, f: And(v.phase == "plot", Not(v.revealed), t.post(v.revealed), t.post(v.phase) == v.phase),
        cites=["1.3 Reveal plots", "Plot Phase"],
        doc="Each player reveals one plot in step 1.3; the plot phase goes on (the first player is chosen next).",
    )
    m.action_property(
        "each revealed plot gives its player its initiative, gold and reserve values",
        "reveal_plots",
        lambda t, w, f: And(*(
            And(t.post(v.initiative[q]) == t.choice(f"initiative[{q.name}]"),
                t.post(v.income[q]) == t.choice(f"gold[{q.name}]"),
                t.post(v.reserve[q]) == t.choice(f"reserve[{q.name}]"))
            for q in seats)),
        cites=["1.3 Reveal plots", "Initiative", "Income", "Reserve Value"],
    )
    m.action_property(
        "a plot revealed by a card ability, in the plot phase after the plots, gives its values to its player only",
        "ability_reveals_plot",
        lambda t, p: And(
            v.phase == "plot", v.revealed,
            *(And(t.post(v.initiative[q]) == (t.choice("initiative") if q.name == p.name else v.initiative[q]),
                  t.post(v.income[q]) == (t.choice("gold") if q.name == p.name else v.income[q]),
                  t.post(v.reserve[q]) == (t.choice("reserve") if q.name == p.name else v.reserve[q]))
              for q in seats)),
        cites=["1.3 Reveal plots", "Revealed Plot"],
        doc="FAQ, At Prince Doran's Behest: the new plot is revealed during step 1.3, after the plots.",
    )
    m.invariant(
        "plots are revealed only in the plot phase (strengthening)",
        Implies(v.revealed, v.phase == "plot"),
        cites=["1.3 Reveal plots"],
    )

    # ---------------------------------------------------------------- 2. draw phase
    m.action_property(
        "each player draws 2 cards in the draw phase",
        "next_phase",
        lambda t: Implies(
            t.post(v.phase) == "draw", ForAll(Player, lambda p: t.post(v.hand[p]) == v.hand[p] + 2)
        ),
        cites=["2.2 Draw", "Draw Phase", "Drawing Cards"],
    )
    m.invariant(
        "hands are within the largest reserve from taxation to the draw (strengthening)",
        ForAll(
            Player,
            lambda p: And(
                v.hand[p] >= 0,
                v.reserve[p] >= 0,
                v.reserve[p] <= max_value,
                Implies(Or(v.phase == "plot", v.phase == "taxation"), v.hand[p] <= max_value),
            ),
        ),
        cites=["7.3 Check reserve", "2.2 Draw"],
    )

    # ---------------------------------------------------------------- active player
    m.action_property(
        "the first player is active first",
        "next_phase",
        lambda t: Implies(
            Or(t.post(v.phase) == "marshaling", t.post(v.phase) == "challenges"),
            And(t.post(v.active) == v.first, t.post(v.first) == v.first),
        ),
        cites=["First Player, First Player Token", "3.2 Active player collects income",
               "4.2 Active player may initiate a challenge"],
    )
    m.action_property(
        "the next player in player order becomes the active player",
        "end_turn",
        lambda t, p: And(turning, v.active == p, t.post(v.active) == left_of(p), t.post(v.phase) == v.phase,
                         t.post(v.first) == v.first),
        cites=["3.3 Next player becomes active player", "4.3 Next player becomes active player", "Player Order"]
        + (["Melee Game"] if n >= 3 else []),
        doc="Only the active player passes, during the marshaling or challenges phase; the phase goes on.",
    )
    m.action_property(
        "a player is active at most once per phase",
        "end_turn",
        lambda t, p: Not(been_active(left_of(p))),
        cites=["3.3 Next player becomes active player", "4.3 Next player becomes active player", "Active Player"],
        doc="The player who becomes the active player has not been the active player this phase.",
    )
    m.action_property(
        "each player is active exactly once per marshaling and challenges phase",
        "next_phase",
        lambda t: Implies(turning, ForAll(Player, lambda p: been_active(p))),
        cites=["3.3 Next player becomes active player", "4.3 Next player becomes active player", "Active Player"]
        + (["Melee Game"] if n >= 3 else []),
        doc="The marshaling or challenges phase ends only when every player has been the active player.",
    )

    # ---------------------------------------------------------------- 3. marshaling
    def owner_of(c: Term) -> Term:
        return next(p for p in seats if controls(p, c))

    m.step_property(
        "a character enters play only in the marshaling phase, from the hand of its owner while they are the active "
        "player",
        lambda t: And(*(Implies(
            And(Not(v.in_play[c]), t.post(v.in_play[c])),
            And(v.phase == "marshaling", v.active == owner_of(c), t.post(v.hand[owner_of(c)]) < v.hand[owner_of(c)]),
        ) for c in Char)),
        cites=["Active Player", "Marshal", "Marshaling Phase"],
        doc="Marshal: the active player marshals cards from hand in the marshaling phase (the round's only way into "
        "play).  Stated over every step, whatever action takes it, not as the marshal action's requirement.",
    )
    m.action_property(
        "marshalling a card pays its cost and puts it into play standing",
        "marshal",
        lambda t, p, c: And(
            Not(v.in_play[c]), t.post(v.in_play[c]), Not(t.post(v.knelt[c])),
            t.post(v.hand[p]) == v.hand[p] - 1, t.post(v.gold[p]) == v.gold[p] - v.cost[c],
        ),
        cites=["Marshal", "Marshaling Phase", "Costs"],
        doc="The card comes from the hand (one card fewer) into play, upright; its cost in gold is paid.",
    )
    m.action_property(
        "the active player collects income on becoming active",
        "end_turn",
        lambda t, p: Implies(
            v.phase == "marshaling",
            ForAll(Player, lambda q: t.post(v.gold[q]) == If(q == left_of(p), v.gold[q] + v.income[q], v.gold[q])),
        ),
        cites=["3.2 Active player collects income", "Income"],
    )
    m.action_property(
        "the first player collects income as the marshaling phase begins",
        "next_phase",
        lambda t: Implies(
            t.post(v.phase) == "marshaling",
            ForAll(Player, lambda q: t.post(v.gold[q]) == If(q == v.first, v.gold[q] + v.income[q], v.gold[q])),
        ),
        cites=["3.2 Active player collects income", "Income"],
    )
    m.invariant(
        "gold is collected once per round, as income (strengthening)",
        ForAll(
            Player,
            lambda p: And(
                v.gold[p] >= 0,
                v.gold[p] <= v.income[p],
                v.income[p] >= 0,
                v.income[p] <= max_value,
                Implies(Or(v.phase == "taxation", v.phase == "plot", v.phase == "draw"), v.gold[p] == 0),
                Implies(v.phase == "marshaling", Implies(Not(been_active(p)), v.gold[p] == 0)),
            ),
        ),
        cites=["3.2 Active player collects income", "7.2 Return unspent gold"],
    )

    # ---------------------------------------------------------------- 4. challenges
    m.step_property(
        "a challenge begins only in the challenges phase, with the active player attacking",
        lambda t: Implies(
            And(v.stage == "none", t.post(v.stage) != "none"),
            And(v.phase == "challenges", t.post(v.attacker) == v.active),
        ),
        cites=["Active Player", "4.2 Active player may initiate a challenge", "Challenges Phase"],
        doc="4.2: the active player may initiate a challenge, in the challenges phase.  Stated over every step, "
        "whatever action takes it, not as the initiating action's requirement.",
    )
    m.action_property(
        "a challenge of its type is initiated by the active player against the chosen opponent, one at a time",
        "initiate_challenge",
        lambda t, p, q, ty: And(
            v.stage == "none", t.post(v.stage) == "attack",
            t.post(v.ctype) == ty, t.post(v.attacker) == p, t.post(v.defender) == q,
        ),
        cites=["4.2 Active player may initiate a challenge", "4.2.1 Defending player declares defenders"],
        doc="No challenge is under way when one is initiated; the defending player declares defenders next.",
    )
    m.action_property(
        "a player never challenges themselves",
        "initiate_challenge",
        lambda t, p, q, ty: Not(p == q),
        cites=["4.2 Active player may initiate a challenge", "Defender, Defending Character, Defending Player"],
        doc="The challenge is initiated against an opponent.",
    )
    m.invariant(
        "the challenges a player initiated this phase match their used challenge types (strengthening)",
        ForAll(
            Player,
            lambda p: ForAll(
                ChType,
                lambda ty: And(
                    v.initiated[p, ty] >= 0,
                    v.initiated[p, ty] <= 1,
                    Implies(v.phase == "challenges", Implies(Not(been_active(p)), v.initiated[p, ty] == 0)),
                    Implies(And(v.phase == "challenges", v.active == p), (v.initiated[p, ty] == 1) == v.used[ty]),
                ),
            ),
        ),
        cites=["4.2 Active player may initiate a challenge"],
    )
    # ``initiated`` is bookkeeping: these two tie it to the challenges initiated (and the invariant above to the
    # challenge types the active player has used)
    m.action_property(
        "a challenge initiated is counted for its attacking player and type (bookkeeping)",
        "initiate_challenge",
        lambda t, p, q, ty: ForAll(Player, lambda r: ForAll(ChType, lambda u: t.post(v.initiated[r, u]) == If(
            And(r == p, u == ty), v.initiated[r, u] + 1, v.initiated[r, u]))),
        cites=["4.2 Active player may initiate a challenge"],
    )
    m.action_property(
        "the challenges counted start afresh when the challenges phase begins (bookkeeping)",
        "next_phase",
        lambda t: ForAll(Player, lambda r: ForAll(ChType, lambda u: t.post(v.initiated[r, u]) == If(
            t.post(v.phase) == "challenges", 0, v.initiated[r, u]))),
        cites=["4.2 Active player may initiate a challenge", "Challenges Phase"],
    )
    m.invariant(
        "no challenge type is used when the marshaling phase is under way (strengthening)",
        Implies(v.phase == "marshaling", ForAll(ChType, lambda ty: Not(v.used[ty]))),
        cites=["4.2 Active player may initiate a challenge", "Marshaling Phase"],
        doc="Challenges are initiated only in the challenges phase: a player active in the marshaling phase has "
        "initiated none this phase.",
    )
    m.invariant(
        "at most one challenge of each type per player per phase",
        ForAll(Player, lambda p: ForAll(ChType, lambda ty: v.initiated[p, ty] <= 1)),
        cites=["4.2 Active player may initiate a challenge"],
    )
    m.action_property(
        "attackers are standing characters the attacker controls with the challenge's icon, and kneel",
        "initiate_challenge",
        lambda t, p, q, ty: And(
            *(
                Implies(
                    t.post(v.attacking[c]),
                    And(controls(p, c), v.in_play[c], Not(v.knelt[c]), v.icon[c, ty], t.post(v.knelt[c])),
                )
                for c in Char
            ),
            Or(*(t.post(v.attacking[c]) for c in Char)),
        ),
        cites=["4.2 Active player may initiate a challenge", "Kneel, Kneeling, Knelt"],
    )
    m.action_property(
        "defenders are standing characters the defending player controls with the challenge's icon, and kneel",
        "declare_defenders",
        lambda t, q: And(
            *(
                Implies(
                    t.post(v.defending[c]),
                    And(controls(q, c), v.in_play[c], Not(v.knelt[c]), v.icon[c, v.ctype], t.post(v.knelt[c])),
                )
                for c in Char
            ),
            v.defender == q,
        ),
        cites=["4.2.1 Defending player declares defenders"],
    )

    m.action_property(
        "the characters the defending player chooses defend, after the attackers are declared",
        "declare_defenders",
        lambda t, q: And(
            v.stage == "attack", t.post(v.stage) == "defend",
            *(t.post(v.defending[c]) == (t.choice(f"defenders[{c.name}]") if controls(q, c) else False)
              for c in Char),
        ),
        cites=["4.2.1 Defending player declares defenders", "Defender, Defending Character, Defending Player"],
    )

    if n >= 3:
        # a title's bonus goes to a side by who controls the participating characters: state it (the joust's
        # properties do not need it)
        m.invariant(
            "a challenge is between two players, each side's participating characters its own player's "
            "(strengthening)",
            And(Implies(v.stage != "none", v.attacker != v.defender),
                ForAll(Char, lambda c: And(*(And(Implies(v.attacking[c], And(v.stage != "none", v.attacker == p)),
                                                 Implies(v.defending[c], And(v.stage == "defend", v.defender == p)))
                                             for p in seats if controls(p, c))))),
            cites=["4.2 Active player may initiate a challenge", "4.2.1 Defending player declares defenders",
                   "Participating"],
        )

    def winner(t: Transition) -> Term:
        expected = challenge_winner(m, *side_totals(m))
        ends = ForAll(Char, lambda c: And(Not(t.post(v.attacking[c])), Not(t.post(v.defending[c]))))
        return And(v.stage == "defend", t.post(v.outcome) == expected, ends, t.post(v.stage) == "none")

    m.action_property(
        "the challenge is won by the side with the higher STR, ties to the attacker",
        "resolve_challenge",
        winner,
        cites=["Winning a Challenge", "4.2.2 Compare STR to determine challenge winner", "4.2.6 Challenge ends"]
        + (["Title Cards, Title Pool (Melee game only)"] if n >= 3 else []),
        doc="Each side counts its participating characters' STR; a side needs STR 1 or more to win."
        + (" In a melee game the Hand of the King, Master of Ships and Master of Whispers add 1 STR to their "
           "bearer's total in a power, military or intrigue challenge in which the bearer controls a participating "
           "character." if n >= 3 else ""),
    )
    m.invariant(
        "only characters of the attacking and defending players participate (strengthening)",
        ForAll(
            Char,
            lambda c: And(
                Implies(Or(v.attacking[c], v.defending[c]), And(v.stage != "none", v.in_play[c], v.knelt[c])),
                Implies(v.defending[c], v.stage == "defend"),
            ),
        ),
        cites=["Participating"],
    )

    m.action_property(
        "a card ability kneels a standing card in play",
        "kneel",
        lambda t, c: And(v.in_play[c], Not(v.knelt[c]), t.post(v.knelt[c])),
        cites=["Kneel, Kneeling, Knelt"],
        doc="A card that is already kneeling cannot kneel.",
    )
    m.invariant(
        "only cards in play kneel",
        ForAll(Char, lambda c: Implies(v.knelt[c], v.in_play[c])),
        cites=["Kneel, Kneeling, Knelt", "Stand, Standing"],
    )

    # ---------------------------------------------------------------- 5. dominance
    def dominance(t: Transition) -> Term:
        def total(p: Term) -> Term:
            standing = Sum(If(And(v.in_play[c], Not(v.knelt[c])), v.strength[c], 0) for c in Char if controls(p, c))
            regent = If(v.title[p] == "crown_regent", REGENT_STR, 0) if n >= 3 else 0  # Title Cards
            return standing + v.gold[p] + regent

        return Implies(
            t.post(v.phase) == "dominance",
            ForAll(Player,
                   lambda p: t.post(v.dominance[p]) == And(*(total(p) > total(q) for q in seats if q.name != p.name))),
        )

    m.action_property(
        "dominance is won by the single highest total of standing STR and gold",
        "next_phase",
        dominance,
        cites=["5.2 Determine dominance", "Dominance Phase"]
        + (["Title Cards, Title Pool (Melee game only)"] if n >= 3 else []),
        doc="On a tie for the highest total, no player wins dominance."
        + (" In a melee game the Crown Regent's bearer counts 2 more STR." if n >= 3 else ""),
    )

    # ---------------------------------------------------------------- 6. standing
    m.action_property(
        "after the standing phase begins every card stands",
        "next_phase",
        lambda t: Implies(t.post(v.phase) == "standing", ForAll(Char, lambda c: Not(t.post(v.knelt[c])))),
        cites=["6.2 Stand cards", "Standing Phase", "Stand, Standing"],
    )

    # ---------------------------------------------------------------- 7. taxation
    m.action_property(
        "after taxation no player has gold",
        "next_phase",
        lambda t: Implies(t.post(v.phase) == "taxation", ForAll(Player, lambda p: t.post(v.gold[p]) == 0)),
        cites=["7.2 Return unspent gold", "Taxation Phase"],
    )
    m.invariant(
        "no gold is carried into a new round",
        Implies(v.phase == "plot", ForAll(Player, lambda p: v.gold[p] == 0)),
        cites=["7.2 Return unspent gold", "Taxation Phase"],
    )
    m.action_property(
        "taxation discards down to the reserve value and no further",
        "next_phase",
        lambda t: Implies(
            t.post(v.phase) == "taxation",
            ForAll(Player, lambda p: t.post(v.hand[p]) == If(v.hand[p] <= v.reserve[p], v.hand[p], v.reserve[p])),
        ),
        cites=["7.3 Check reserve", "Taxation Phase"],
    )

    # ---------------------------------------------------------------- melee titles
    if n == 2:
        m.invariant(
            "no player bears a title in a joust game",
            ForAll(Player, lambda p: v.title[p] == "none"),
            cites=["Joust Game", "Title Cards, Title Pool (Melee game only)"],
            doc="Melee title cards and their framework steps 1.4 and 7.4 are not used in a joust game.",
        )
    else:
        _melee_titles(m, been_active)

    # ---------------------------------------------------------------- sanity
    m.reachable(
        "sanity: a full round completes and a second round begins",
        And(v.round == 2, v.phase == "plot"),
        cites=["Appendix I: Timing and Gameplay", "7.5 Taxation phase ends"],
    )
    m.reachable(
        "sanity: the attacker wins a challenge",
        v.outcome == "attacker",
        cites=["Winning a Challenge"],
    )
    m.reachable(
        "sanity: the defender wins a challenge",
        v.outcome == "defender",
        cites=["Winning a Challenge"],
    )
    m.reachable(
        "sanity: a player wins dominance",
        Or(*(v.dominance[p] for p in seats)),
        cites=["5.2 Determine dominance"],
    )
    m.reachable(
        "sanity: every player has been active in the challenges phase",
        And(v.phase == "challenges", ForAll(Player, lambda p: been_active(p))),
        cites=["4.3 Next player becomes active player"],
    )


def _melee_titles(m: Model, been_active: Callable[[Term], Term]) -> None:
    """Titles in a melee game (three or more players): 1.4, 7.4, Supports, Rivals and the rivals bonus (4.2.3)."""
    v, Player, Char, ChType = m.v, m.sorts.Player, m.sorts.Char, m.sorts.ChType
    seats = list(Player)
    n = len(seats)
    cap = m.params["max_value"]  # the model's bound on a power total

    def bears(p: Term) -> Term:
        return v.title[p] != "none"

    def supports(x: Term, y: Term) -> Term:
        """Title ``x`` supports title ``y`` (the cards' text)."""
        return Or(*(And(x == a, y == b) for a, b in TITLE_SUPPORTS.items()))

    def rival_of(x: Term, y: Term) -> Term:
        """Title ``y`` is a rival on title ``x`` (the cards' text)."""
        return Or(*(And(x == a, y == b) for a, bs in TITLE_RIVALS.items() for b in bs))

    def previous(p: Term) -> Term:
        """The player before ``p`` in player order."""
        return seats[([x.name for x in seats].index(p.name) - 1) % n]

    def before(f: Term, p: Term) -> set[str]:
        """The players seated from ``f`` (the first player), in player order, up to ``p`` (not included)."""
        i, out = [x.name for x in seats].index(f.name), []
        while seats[i % n].name != p.name:
            out.append(seats[i % n].name)
            i += 1
        return set(out)

    titles = ["1.4 Select titles (melee format only)", "7.4 Return melee title cards (melee format only)",
              "Title Cards, Title Pool (Melee game only)", "Melee Game"]
    m.invariant(
        "in a melee game each player bears one title from step 1.4 to step 7.4, no two players the same title",
        And(
            ForAll(Player, lambda p: Implies(v.phase != "plot", bears(p))),
            ForAll(Player, lambda p: Implies(And(v.phase == "plot", Not(v.revealed)), Not(bears(p)))),
            *(Implies(bears(p), v.title[p] != v.title[q]) for i, p in enumerate(seats) for q in seats[i + 1:]),
        ),
        cites=titles,
        doc="Titles are selected after the plots are revealed (1.4), borne throughout the round and returned to the "
        "title pool in the taxation phase (7.4); a title in the pool is taken by one player at a time.",
    )
    m.invariant(
        "in the plot phase the players who bear titles are the first player and the players after them (strengthening)",
        ForAll(Player, lambda p: Implies(And(bears(p), v.first != p), bears(previous(p)))),
        cites=["1.4 Select titles (melee format only)"],
    )
    m.action_property(
        "titles are selected in player order from the first player, each from the titles no player bears",
        "select_title",
        lambda t, p, ti: And(
            v.phase == "plot", v.revealed,
            Or(*(And(v.first == f, *(bears(q) == (q.name in before(f, p)) for q in seats)) for f in seats)),
            *(v.title[q] != ti for q in seats),
            *(t.post(v.title[q]) == (ti if q.name == p.name else v.title[q]) for q in seats),
        ),
        cites=["1.4 Select titles (melee format only)", "Title Cards, Title Pool (Melee game only)"],
        doc="After the plots are revealed, the first player takes a title, then each player in player order; the "
        "players before them have taken theirs, the players after them not yet.",
    )
    m.action_property(
        "a player never initiates a challenge against the bearer of the title their title supports",
        "initiate_challenge",
        lambda t, p, q, ty: Not(supports(v.title[p], v.title[q])),
        cites=["Supports (Melee game only)"],
    )

    def rivals_bonus(t: Transition) -> Term:
        att, dfn = side_totals(m)
        att_won = And(Or(*(v.attacking[c] for c in Char)), att >= 1, att >= dfn)
        def_won = And(Or(*(v.defending[c] for c in Char)), dfn >= 1, dfn > att)

        def gains(p: Term) -> Term:
            return Or(*(
                And(Or(And(att_won, v.attacker == p, v.defender == q), And(def_won, v.defender == p, v.attacker == q)),
                    rival_of(v.title[p], v.title[q]), v.rivals[p, q] == 0)
                for q in seats if q.name != p.name))

        return And(*(t.post(v.power[p]) == If(gains(p), If(v.power[p] >= cap, cap, v.power[p] + 1), v.power[p])
                     for p in seats))

    m.action_property(
        "the challenge winner gains 1 power for winning against the bearer of a rival title, once per opponent per "
        "round",
        "resolve_challenge",
        rivals_bonus,
        cites=["4.2.3 Gain challenge bonuses", "Rivals (Melee game only)"],
        doc="The rivals bonus goes to the winner (attacker or defender) when the loser bears a title the winner's "
        "title lists as a rival, unless the winner already gained it against that opponent this round; nobody else "
        "gains power.  (A power total stays at the model's bound once there.)",
    )
    m.invariant(
        "at most one rivals bonus per rival opponent per round",
        ForAll(Player, lambda p: ForAll(Player, lambda q: v.rivals[p, q] <= 1)),
        cites=["Rivals (Melee game only)", "4.2.3 Gain challenge bonuses"],
    )
    # ``rivals`` is bookkeeping: these two tie it to the power gained and to the round
    m.action_property(
        "a rivals bonus is recorded for its winner against the losing opponent when the winner gains power "
        "(bookkeeping)",
        "resolve_challenge",
        lambda t: And(*(And(
            Implies(t.post(v.rivals[p, q]) != v.rivals[p, q],
                    And(t.post(v.rivals[p, q]) == v.rivals[p, q] + 1,
                        Or(And(v.attacker == p, v.defender == q), And(v.defender == p, v.attacker == q)))),
            Implies(v.power[p] < cap,
                    (t.post(v.power[p]) > v.power[p]) == Or(*(t.post(v.rivals[p, r]) != v.rivals[p, r]
                                                                for r in seats))))
            for p in seats for q in seats)),
        cites=["Rivals (Melee game only)", "4.2.3 Gain challenge bonuses"],
    )
    m.action_property(
        "the rivals bonuses recorded start afresh each round (bookkeeping)",
        "next_phase",
        lambda t: ForAll(Player, lambda p: ForAll(Player, lambda q: t.post(v.rivals[p, q]) == If(
            v.phase == "taxation", 0, v.rivals[p, q]))),
        cites=["Rivals (Melee game only)", "7.5 Taxation phase ends"],
    )
    att_str, dfn_str = side_totals(m)
    raw_att = Sum(If(v.attacking[c], v.strength[c], 0) for c in Char)
    raw_dfn = Sum(If(v.defending[c], v.strength[c], 0) for c in Char)
    m.reachable(
        "sanity: a title's STR bonus decides a challenge about to be resolved",
        And(v.stage == "defend", challenge_winner(m, att_str, dfn_str) != challenge_winner(m, raw_att, raw_dfn)),
        cites=["Title Cards, Title Pool (Melee game only)", "4.2.2 Compare STR to determine challenge winner"],
    )

    def dominance_total(p: Term) -> Term:
        return Sum(If(And(v.in_play[c], Not(v.knelt[c])), v.strength[c], 0) for c in Char
                   if m.statics.owner.value(c.name) == p.name) + v.gold[p]

    m.reachable(
        "sanity: the Crown Regent's bonus decides dominance as the dominance phase begins",
        And(v.phase == "challenges", v.stage == "none", Or(*(
            And(v.title[p] == "crown_regent",
                Not(And(*(dominance_total(p) > dominance_total(q) for q in seats if q.name != p.name))),
                And(*(dominance_total(p) + REGENT_STR > dominance_total(q) for q in seats if q.name != p.name)))
            for p in seats))),
        cites=["Title Cards, Title Pool (Melee game only)", "5.2 Determine dominance"],
    )
    m.reachable(
        "sanity: an attacker is about to win against the bearer of a rival title for the first time this round",
        Or(*(And(v.stage == "defend", v.attacker == p, v.defender == q, att_str >= 1, att_str >= dfn_str,
                 rival_of(v.title[p], v.title[q]), v.rivals[p, q] == 0, v.power[p] < cap)
             for p in seats for q in seats if p.name != q.name)),
        cites=["Rivals (Melee game only)", "4.2.3 Gain challenge bonuses"],
    )
    m.reachable(
        "sanity: a support keeps the active player from a challenge they could otherwise initiate",
        Or(*(And(v.phase == "challenges", v.stage == "none", v.active == p, supports(v.title[p], v.title[q]),
                 Not(v.used[ty]),
                 Or(*(And(v.in_play[c], Not(v.knelt[c]), v.icon[c, ty]) for c in Char
                      if m.statics.owner.value(c.name) == p.name)))
             for p in seats for q in seats if p.name != q.name for ty in ChType)),
        cites=["Supports (Melee game only)"],
    )
