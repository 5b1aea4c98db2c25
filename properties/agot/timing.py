"""Properties of the generated AGoT timing system, each citing the rule it comes from.

They read the declaration only through the system's static data
(``step_kind``, ``completes``, ``ab_kind``, ``ab_cond``, ``idx``), so the
same properties judge the AGoT declaration and every mutant of it.
"""

from __future__ import annotations

from ruleproof.dsl import And, Exists, ForAll, Implies, Model, Not, Or, Term, Transition

TC = "Triggering Condition"
NESTED = "Nested Ability Sequences"
FORCED = "Forced Interrupts / Forced Reactions"

INTERRUPTS = ("cancel_interrupts", "would_interrupts", "forced_interrupts", "interrupt_window")
WINDOWS = ("cancel_interrupts", "would_interrupts", "interrupt_window", "reaction_window")
REACTIONS = ("forced_reactions", "reaction_window")
FORCED_KINDS = ("forced_interrupts", "forced_reactions")


def register(m: Model) -> None:
    v, s, statics = m.v, m.sorts, m.statics
    Level, Ab, Player = s.Level, s.Ability, s.Player
    players = len(Player)
    max_depth = int(m.params.get("max_depth", len(Level) - 1))

    def kind_of(a: Term) -> str:
        return str(statics.ab_kind.value(a.name))

    def cond_of(a: Term) -> str:
        return str(statics.ab_cond.value(a.name))

    def idx(k: Term) -> int:
        return int(statics.idx.value(k.name))

    seats = list(Player)
    levels = list(Level)

    def in_window(x: Term) -> Term:
        return Or(*[v.step_kind[x] == w for w in WINDOWS])

    def nxt(p: Term) -> Term:
        """The player after ``p`` in player order (clockwise)."""
        return seats[([q.name for q in seats].index(p.name) + 1) % players]

    m.action_property(
        "a window closes only after every player has passed consecutively",
        "pass",
        lambda t, k, mv, p: Implies(t.post(v.step[k]) != v.step[k], v.passes[k] + 1 >= players),
        cites=["Pass", "Interrupts", "Reactions", TC],
        doc="A pass that moves the sequence on is the last of a run of consecutive passes by all players.",
    )
    m.action_property(
        "only the player with the opportunity passes; while the window stays open the next player in player order "
        "has it, after one more consecutive pass",
        "pass",
        lambda t, k, mv, p: And(
            v.turn[k] == p,
            (t.post(v.step[k]) != v.step[k]) == (v.passes[k] + 1 >= players),
            Implies(
                t.post(v.step[k]) == v.step[k],
                And(t.post(v.turn[k]) == nxt(p), t.post(v.passes[k]) == v.passes[k] + 1),
            ),
        ),
        cites=["Pass", "Interrupts", "Reactions"],
        doc="Opportunities to perform or pass go clockwise in player order; the window closes when all players have "
        "passed consecutively, and not before.",
    )

    def opens_fresh(t: Transition) -> Term:
        """Every window that opens (not one resumed after its ability resolved) starts with the first player."""
        return And(*[
            Implies(
                And(
                    t.post(in_window(v.step[k])), t.post(v.step[k]) != v.step[k], v.step_kind[v.step[k]] != "resolving"
                ),
                And(t.post(v.turn[k]) == v.first, t.post(v.passes[k]) == 0),
            )
            for k in levels
        ])

    for fam in ("proceed", "pass", "initiate", "resolve", "cancel", "change", "nest", "return"):
        m.action_property(
            f"the first player has the first opportunity in every window, nested or not ({fam})",
            fam,
            lambda t, *_: opens_fresh(t),
            cites=[NESTED, "First Player, First Player Token", "Interrupts", "Reactions", "Pass"],
            doc="Whenever a window opens, at any nesting level, the first player has the first opportunity and no "
            "player has passed in it yet.",
        )
    m.action_property(
        "only the player with the opportunity initiates an ability in a window, an ability he or she controls",
        "initiate",
        lambda t, k, ab: Implies(in_window(v.step[k]), v.turn[k] == v.ab_owner[ab]),
        cites=["Pass", "Interrupts", "Reactions"],
    )

    def after(ab: Term) -> Term:
        """The player after the controller of ``ab`` in player order (clockwise)."""
        owner = str(statics.ab_owner.value(ab.name))
        i = [p.name for p in seats].index(owner)
        return seats[(i + 1) % players]

    m.invariant(
        "while an ability initiated in a window resolves, the next player in player order holds the turn and "
        "nobody has passed since (strengthening)",
        ForAll(
            Level,
            lambda k: And(
                *[
                    Implies(v.resolving[k] == ab.name, And(v.turn[k] == after(ab), v.passes[k] == 0))
                    for ab in Ab
                    if kind_of(ab) in WINDOWS
                ]
            ),
        ),
        cites=["Pass", "Interrupts", "Reactions"],
    )
    m.action_property(
        "after an ability resolves in a window, the next player in player order has the next opportunity",
        "resolve",
        lambda t, k, ab: Implies(
            Or(*[t.post(v.step_kind[v.step[k]]) == w for w in WINDOWS]),
            And(t.post(v.turn[k]) == after(ab), t.post(v.passes[k]) == 0),
        ),
        cites=["Pass", "Interrupts", "Reactions"],
        doc="Should one player perform the function during his or her opportunity, opportunities continue "
        "clockwise in player order until all players consecutively pass (the passes before it no longer count); "
        "clockwise in player order until all players consecutively pass.",
    )
    cancels = [a for a in Ab if kind_of(a) == "cancel_interrupts"]
    woulds = [a for a in Ab if kind_of(a) == "would_interrupts"]
    m.invariant(
        "once a 'would' interrupt was used, the cancel window of its triggering condition is past (strengthening)",
        ForAll(
            Level,
            lambda k: And(
                *[
                    Implies(
                        v.used[k, w] >= 1,
                        And(
                            v.step_kind[v.step[k]] != "cancel_interrupts", *[v.resolving[k] != c.name for c in cancels]
                        ),
                    )
                    for w in woulds
                ]
            ),
        ),
        cites=["Cancel", 'The word "Would"', TC],
    )
    m.invariant(
        "a cancel interrupt never follows a 'would' interrupt to the same triggering condition",
        ForAll(
            Level,
            lambda k: And(*[Implies(v.resolving[k] == c.name, v.used[k, w] < 1) for c in cancels for w in woulds]),
        ),
        cites=["Cancel", 'The word "Would"', TC],
        doc="Cancel abilities have timing priority over all other interrupts; once a 'would' interrupt changed the "
        "condition, the original is no longer imminent and nothing can cancel it.",
    )
    m.invariant(
        "each ability is used at most once per triggering condition",
        ForAll(Level, lambda k: ForAll(Ab, lambda a: v.used[k, a] <= 1)),
        cites=["Interrupts", "Reactions"],
    )
    m.invariant(
        "nesting depth stays within the scenario's bound",
        v.top <= max_depth,
        cites=[NESTED, TC],
        doc="Simultaneous conditions share one sequence, so only raised conditions nest.",
    )
    m.invariant(
        "no reaction before its triggering condition occurs",
        ForAll(
            Level, lambda k: And(*[Implies(v.used[k, a] >= 1, v.occurred[k]) for a in Ab if kind_of(a) in REACTIONS])
        ),
        cites=["Reactions", TC],
    )
    m.invariant(
        "no interrupt resolves after its triggering condition occurred",
        ForAll(
            Level,
            lambda k: And(
                *[Implies(v.resolving[k] == a.name, Not(v.occurred[k])) for a in Ab if kind_of(a) in INTERRUPTS]
            ),
        ),
        cites=["Interrupts", TC],
    )
    completes = [st for st in s.Step if bool(statics.completes.value(st.name))]
    m.invariant(
        "every eligible forced ability has resolved when its sequence completes",
        ForAll(
            Level,
            lambda k: And(
                *[
                    Implies(
                        And(Or(*[v.step[k] == st.name for st in completes]), v.has[k, cond_of(a)]), v.used[k, a] >= 1
                    )
                    for a in Ab
                    if kind_of(a) in FORCED_KINDS
                ]
            ),
        ),
        cites=[FORCED, TC],
    )

    def forced_before(k: Term, plain: str, forced: str) -> Term:
        pairs = [
            Implies(And(v.used[k, a] >= 1, v.has[k, cond_of(f)]), v.used[k, f] >= 1)
            for a in Ab
            if kind_of(a) == plain
            for f in Ab
            if kind_of(f) == forced
        ]
        return And(*pairs)

    m.invariant(
        "forced abilities take priority over non-forced ones",
        ForAll(
            Level,
            lambda k: And(
                forced_before(k, "interrupt_window", "forced_interrupts"),
                forced_before(k, "reaction_window", "forced_reactions"),
            ),
        ),
        cites=[FORCED],
    )
    m.invariant(
        "an open triggering condition below the newest waits at the ability that raised it",
        ForAll(
            Level,
            lambda k: Implies(v.top > idx(k), And(v.step_kind[v.step[k]] == "resolving", v.raised[k])),
        ),
        cites=[NESTED],
        doc="Nested sequences are resolved last in, first out.",
    )
    m.invariant(
        "a cancelled triggering condition never occurs",
        ForAll(Level, lambda k: Implies(v.cancelled[k], Not(v.occurred[k]))),
        cites=["Cancel", TC],
    )
    # -- the scenario's abilities that change or raise a triggering condition (scenario data: save_a would save the
    #    first character, so "kill_a" becomes "saved_a"; the two draw reactions draw a card, a new condition)
    changes = {"save_a": ("kill_a", "saved_a")}
    raises = {"react_draw": "draw", "react_saved": "draw"}
    conds = list(s.Cond)
    m.action_property(
        "a 'would' interrupt replaces the triggering condition it answers by the changed one",
        "change",
        lambda t, k, ab: And(
            v.resolving[k] == ab.name,
            *([Not(t.post(v.has[k, changes[ab.name][0]])), t.post(v.has[k, changes[ab.name][1]])]
              if ab.name in changes else [Not(True)]),
        ),
        cites=['The word "Would"', TC],
        doc="The word \"Would\": an interrupt to a 'would' condition can change what is about to occur; the changed "
        "condition is then the one about to occur.",
    )
    m.action_property(
        "a cancel interrupt cancels its triggering condition as it resolves",
        "cancel",
        lambda t, k, ab: And(v.resolving[k] == ab.name, Not(t.post(v.has[k, cond_of(ab)]))),
        cites=["Cancel", TC],
    )
    m.action_property(
        "an ability just initiated has not raised a new triggering condition yet",
        "initiate",
        lambda t, k, ab: Not(t.post(v.raised[k])),
        cites=[NESTED],
    )
    m.action_property(
        "an ability that raises a triggering condition opens a nested sequence holding that condition alone",
        "nest",
        lambda t, k, j, ab: And(
            v.resolving[k] == ab.name,
            Not(v.raised[k]),
            t.post(v.raised[k]),
            t.post(v.top) == v.top + 1,
            t.post(v.step[j]) == "imminent",
            *[t.post(v.has[j, c]) == (c.name == raises.get(ab.name)) for c in conds],
        ),
        cites=[NESTED, TC],
        doc="Nested Ability Sequences: a triggering condition that occurs during the resolution of an ability starts "
        "a new sequence of interrupt and reaction opportunities of its own.",
    )
    for fam in ("proceed", "pass", "initiate", "resolve", "cancel", "change", "return"):
        m.action_property(
            f"only opening a nested sequence records that an ability raised a triggering condition ({fam})",
            fam,
            lambda t, *_: And(*[Implies(t.post(v.raised[k]), v.raised[k]) for k in levels]),
            cites=[NESTED],
        )
    m.action_property(
        "an ability that raises a triggering condition resolves only after its nested sequence",
        "resolve",
        lambda t, k, ab: v.raised[k] if ab.name in raises else Not(False),
        cites=[NESTED],
        doc="The nested sequence is resolved before the game returns to the ability that raised the condition.",
    )
    closed = [st for st in s.Step if str(statics.step_kind.value(st.name)) == "closed"]
    m.action_property(
        "the game returns to where it left off only once the nested sequence is over",
        "return",
        lambda t, k, mv: Or(*[v.step[k] == st.name for st in closed]),
        cites=[NESTED],
    )
    m.invariant(
        "an empty place of the sequence holds no triggering condition",
        ForAll(Level, lambda k: Implies(v.step[k] == "idle", ForAll(s.Cond, lambda c: Not(v.has[k, c])))),
        cites=[NESTED],
        doc="A nested sequence that is over leaves nothing behind.",
    )
    m.reachable(
        "sanity: the outermost sequence completes",
        Or(*[v.step[Level[0]] == st.name for st in completes]),
        cites=[TC],
    )
    m.reachable("sanity: a nested sequence opens", v.top >= 2, cites=[NESTED])
    m.reachable(
        "sanity: a triggering condition is cancelled", Exists(Level, lambda k: v.cancelled[k]), cites=["Cancel"]
    )
    m.reachable(
        "sanity: a reaction is initiated",
        Exists(Level, lambda k: Or(*[v.used[k, a] >= 1 for a in Ab if kind_of(a) in REACTIONS])),
        cites=["Reactions"],
    )
