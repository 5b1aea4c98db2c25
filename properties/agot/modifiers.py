"""Properties of modifiers: the rule recomputed from the individual modifier slots."""

from __future__ import annotations

from ruleproof.dsl import And, Count, Exists, ForAll, If, Implies, Max, Model, Sum, Term

__all__ = ["register"]


def register(m: Model) -> None:
    """Add the modifier properties to ``m``."""
    v, s = m.v, m.sorts
    Add, Mult, SetS = s.Add, s.Mult, s.SetSlot
    mults = m.params["mults"]

    total = Sum(If(v.add_on[a], v.amount[a], 0) for a in Add)
    dbl = Count(Mult, lambda x: v.double_on[x])
    hlv = Count(Mult, lambda x: v.halve_on[x])
    any_set = Exists(SetS, lambda x: v.set_rank[x] > 0)
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
        return And(v.set_rank[x] > 0, ForAll(SetS, lambda y: v.set_rank[y] <= v.set_rank[x]))

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
    m.invariant(
        "active set modifiers have distinct application order (strengthening)",
        ForAll(
            SetS,
            lambda x: And(
                v.set_rank[x] >= 0,
                v.set_rank[x] <= Count(SetS, lambda y: v.set_rank[y] > 0),
                ForAll(SetS, lambda y: Implies(And(v.set_rank[x] > 0, v.set_rank[x] == v.set_rank[y]), _same(x, y))),
            ),
        ),
        cites=["Modifiers", "Set"],
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
    m.invariant(
        "with no modifier active a value is its base value",
        Implies(no_mods, v.value == v.base),
        cites=["Modifiers", "Base Value"],
    )
    m.reachable(
        "sanity: two set modifiers and a halving can be active at once",
        And(Count(SetS, lambda x: v.set_rank[x] > 0) >= 2, hlv >= 1, total != 0),
        cites=["Modifiers"],
    )


def _same(x: Term, y: Term) -> bool:
    return x.name == y.name
