"""Properties of modifiers: the rule recomputed from the individual modifier slots.

"Most recently applied" is read from the order of application (``later``,
written when a set modifier is applied), never from the model's own ranking
(``set_rank``); the properties "a set modifier just applied is the most
recently applied ..." tie that order to the step that applies it.
"""

from __future__ import annotations

from ruleproof.dsl import And, Count, Exists, ForAll, If, Implies, Max, Model, Not, Or, Sum, Term

__all__ = ["register"]


def register(m: Model) -> None:
    """Add the modifier properties to ``m``."""
    v, s = m.v, m.sorts
    Add, Mult, SetS = s.Add, s.Mult, s.SetSlot
    mults = m.params["mults"]

    total = Sum(If(v.add_on[a], v.amount[a], 0) for a in Add)
    dbl = Count(Mult, lambda x: v.double_on[x])
    hlv = Count(Mult, lambda x: v.halve_on[x])
    any_set = Exists(SetS, lambda x: v.set_on[x])
    no_mods = And(
        ForAll(Add, lambda a: ~v.add_on[a]),
        ForAll(Mult, lambda x: And(~v.double_on[x], ~v.halve_on[x])),
        ~any_set,
    )

    def ceil_scaled(x: Term) -> Term:
        """ceil(x * 2^dbl / 2^hlv): doubling and halving together, rounded up once at the end."""
        out: Term = x
        for d in range(mults + 1):
            for h in range(mults + 1):
                num = x * (2**d)
                out = If(And(dbl == d, hlv == h), -((-num) // (2**h)), out)
        return out

    def latest(x: Term) -> Term:
        """``x`` is the most recently applied active set modifier."""
        return And(v.set_on[x], *(Implies(v.set_on[y], v.later[x, y]) for y in SetS if y.name != x.name))

    expected = If(any_set, 0, Max(0, ceil_scaled(v.base + total)))
    for x in SetS:
        expected = If(latest(x), v.set_value[x], expected)

    # strengthening invariants: the model's running totals and set-modifier order
    m.invariant(
        "the running totals match the active modifiers (strengthening)",
        And(
            v.add_total == total,
            v.doublings == dbl,
            v.halvings == hlv,
            ForAll(Add, lambda a: Implies(~v.add_on[a], v.amount[a] == 0)),
            v.base >= 0,
            ForAll(SetS, lambda x: v.set_value[x] >= 0),
        ),
        cites=["Modifiers"],
    )
    pairs = [(x, y) for x in SetS for y in SetS if x.name != y.name]
    m.invariant(
        "the active set modifiers were applied one after another (strengthening)",
        And(
            *(Implies(v.later[x, y], And(v.set_on[x], v.set_on[y], Not(v.later[y, x]))) for x, y in pairs),
            *(Implies(And(v.set_on[x], v.set_on[y]), Or(v.later[x, y], v.later[y, x])) for x, y in pairs),
            *(
                Implies(And(v.later[x, y], v.later[y, z]), v.later[x, z])
                for x, y in pairs
                for z in SetS
                if z.name not in (x.name, y.name)
            ),
            *(Not(v.later[x, x]) for x in SetS),
        ),
        cites=["Modifiers", "Set"],
        doc="Of two active set modifiers, one was applied after the other.",
    )
    m.invariant(
        "the model's ranking of set modifiers follows their order of application (strengthening)",
        And(
            *(v.set_on[x] == (v.set_rank[x] > 0) for x in SetS),
            *(
                Implies(And(v.set_on[x], v.set_on[y]), v.later[x, y] == (v.set_rank[x] > v.set_rank[y]))
                for x, y in pairs
            ),
            *(v.set_rank[x] <= Count(SetS, lambda y: v.set_on[y]) for x in SetS),
            *(v.set_rank[x] >= 0 for x in SetS),
        ),
        cites=["Modifiers", "Set"],
    )
    m.action_property(
        "a set modifier just applied is the most recently applied, and the others keep their order",
        "apply_set",
        lambda t, x: And(
            Not(v.set_on[x]),
            t.post(v.set_on[x]),
            *(Implies(v.set_on[y], t.post(v.later[x, y])) for y in SetS if y.name != x.name),
            *(t.post(v.later[y, z]) == v.later[y, z] for y, z in pairs if x.name not in (y.name, z.name)),
        ),
        cites=["Modifiers", "Set"],
    )
    m.action_property(
        "two set modifiers started at once are applied in the order the first player chooses, after all others",
        "apply_two_sets",
        lambda t, x, y: And(
            t.post(v.set_on[x]),
            t.post(v.set_on[y]),
            Or(t.post(v.later[x, y]), t.post(v.later[y, x])),
            *(
                Implies(v.set_on[z], And(t.post(v.later[x, z]), t.post(v.later[y, z])))
                for z in SetS
                if z.name not in (x.name, y.name)
            ),
            *(
                t.post(v.later[z, w]) == v.later[z, w]
                for z, w in pairs
                if z.name not in (x.name, y.name) and w.name not in (x.name, y.name)
            ),
        ),
        cites=["Modifiers", "Set", "Priority of Simultaneous Resolution"],
        doc="Priority of Simultaneous Resolution / FAQ (1.6): the first player determines the order in which "
        "conflicting lasting effects are applied.",
    )
    m.action_property(
        "an expired set modifier is no longer active; the others keep their order",
        "remove_set",
        lambda t, x: And(
            v.set_on[x],
            Not(t.post(v.set_on[x])),
            *(t.post(v.later[y, z]) == v.later[y, z] for y, z in pairs if x.name not in (y.name, z.name)),
        ),
        cites=["Modifiers", "Set"],
    )
    m.action_property(
        "an applied +/- modifier becomes active",
        "apply_add",
        lambda t, x: And(Not(v.add_on[x]), t.post(v.add_on[x])),
        cites=["Modifiers"],
    )
    m.action_property(
        "an expired +/- modifier was active and is no longer active",
        "remove_add",
        lambda t, x: And(v.add_on[x], Not(t.post(v.add_on[x]))),
        cites=["Modifiers"],
    )
    for fam, on, what in (("apply_double", "double_on", "doubling"), ("apply_halve", "halve_on", "halving")):
        m.action_property(
            f"an applied {what} modifier becomes active",
            fam,
            lambda t, x, on=on: And(Not(v[on][x]), t.post(v[on][x])),
            cites=["Modifiers"],
        )
    m.action_property(
        "an expired doubling or halving modifier was active and is no longer active; the other kind stays",
        "remove_mult",
        lambda t, x: If(
            t.choice("halving"),
            And(v.halve_on[x], Not(t.post(v.halve_on[x])), t.post(v.double_on[x]) == v.double_on[x]),
            And(v.double_on[x], Not(t.post(v.double_on[x])), t.post(v.halve_on[x]) == v.halve_on[x]),
        ),
        cites=["Modifiers"],
    )
    m.invariant(
        "a value depends only on its base value and the active modifiers, not their order",
        v.value == expected,
        cites=["Modifiers", "Base Value"],
        doc="Any time a modifier is applied or removed the quantity is recalculated from the base value "
        "and all active modifiers, treated as simultaneous: the order of application is irrelevant.",
    )
    m.invariant(
        "a value never functions below zero",
        v.value >= 0,
        cites=["Modifiers", "Negative Quantities"],
    )
    m.invariant(
        "additive modifiers apply before halving",
        Implies(And(~any_set, dbl == 0, hlv == 1), v.value == Max(0, -((-(v.base + total)) // 2))),
        cites=["Modifiers"],
    )
    m.invariant(
        "fractions are rounded up only after all modifiers",
        Implies(And(~any_set, dbl == 1, hlv == 1), v.value == Max(0, v.base + total)),
        cites=["Modifiers"],
        doc="Doubled and halved, a value comes back to itself: rounding each step would not.",
    )
    m.invariant(
        "the most recently applied set modifier overrides all others",
        ForAll(SetS, lambda x: Implies(latest(x), v.value == v.set_value[x])),
        cites=["Modifiers", "Set"],
    )
    for fam, what in (("apply_add", "+/-"), ("apply_double", "doubling"), ("apply_halve", "halving")):
        m.action_property(
            f"a {what} modifier applied while a value is set does not change it",
            fam,
            lambda t, x: Implies(any_set, t.post(v.value) == v.value),
            cites=["Modifiers", "Set"],
            doc="A set modifier overrides all non-set modifiers, including new ones added while it lasts.",
        )
    m.action_property(
        "a change of the base value changes it",
        "change_base",
        lambda t: t.post(v.base) != v.base,
        cites=["Base Value", "Abilities"],
        doc="Abilities: a card ability can only be initiated if its effect has the potential to change the game "
        "state; an effect that would change a base value to the value it already has changes nothing.",
    )
    m.invariant(
        "with no modifier active a value is its base value",
        Implies(no_mods, v.value == v.base),
        cites=["Modifiers", "Base Value"],
    )
    m.reachable(
        "sanity: a +/- modifier of 0 can be active",
        Exists(Add, lambda a: And(v.add_on[a], v.amount[a] == 0)),
        cites=["Modifiers"],
        doc="A modifier such as '+X STR' applies whatever X is, 0 included; it changes no value.",
    )
    m.reachable(
        "sanity: two set modifiers and a halving can be active at once",
        And(Count(SetS, lambda x: v.set_on[x]) >= 2, hlv >= 1, total != 0),
        cites=["Modifiers"],
    )

