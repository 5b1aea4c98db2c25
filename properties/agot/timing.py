"""Properties of the generated AGoT timing system, each citing the rule it comes from.

They read the declaration only through the system's static data
(``step_kind``, ``completes``, ``ab_kind``, ``ab_cond``, ``idx``), so the
same properties judge the AGoT declaration and every mutant of it.
"""

from __future__ import annotations

from ruleproof.dsl import And, Exists, ForAll, Implies, Model, Not, Or, Term

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

    m.action_property(
        "a window closes only after every player has passed consecutively",
        "pass",
        lambda t, k, mv, p: Implies(t.post(v.step[k]) != v.step[k], v.passes[k] + 1 >= players),
        cites=["Pass", "Interrupts", "Reactions", TC],
        doc="A pass that moves the sequence on is the last of a run of consecutive passes by all players.",
    )
    m.invariant(
        "the first player has the first opportunity in every window, nested or not",
        ForAll(Level, lambda k: Implies(v.fresh[k], v.turn[k] == v.first)),
        cites=[NESTED, "First Player, First Player Token", "Interrupts", "Reactions"],
    )
    seats = list(Player)

    def after(ab: Term) -> Term:
        """The player after the controller of ``ab`` in player order (clockwise)."""
        owner = str(statics.ab_owner.value(ab.name))
        i = [p.name for p in seats].index(owner)
        return seats[(i + 1) % players]

    m.invariant(
        "while an ability initiated in a window resolves, the next player in player order holds the turn "
        "(strengthening)",
        ForAll(
            Level,
            lambda k: And(
                *[Implies(v.resolving[k] == ab.name, v.turn[k] == after(ab)) for ab in Ab if kind_of(ab) in WINDOWS]
            ),
        ),
        cites=["Pass", "Interrupts", "Reactions"],
    )
    m.action_property(
        "after an ability resolves in a window, the next player in player order has the next opportunity",
        "resolve",
        lambda t, k, ab: Implies(
            Or(*[t.post(v.step_kind[v.step[k]]) == w for w in WINDOWS]), t.post(v.turn[k]) == after(ab)
        ),
        cites=["Pass", "Interrupts", "Reactions"],
        doc="Should one player perform the function during his or her opportunity, opportunities continue "
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
