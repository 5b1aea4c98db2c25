"""AGoT 2.0 modifiers: one quantity (a character's STR) and its active modifiers.

Rules Reference sections: Modifiers, Base Value, Negative Quantities, Set.

The quantity has a symbolic base value and bounded slots of each modifier
kind: additive/subtractive slots with symbolic amounts, doubling and halving
slots, and set slots with symbolic values.  Set slots carry an application
rank (1 = applied first; the highest active rank is the most recent), kept
dense when a set modifier is removed.  The model keeps running totals
(``add_total``, ``doublings``, ``halvings``) and recomputes ``value`` from the
base value and those totals on every change; the properties compare it with
the rule recomputed from the individual slots.

The order in which the active set modifiers were applied is recorded, at the
moment each is applied, in ``later`` (``later[s, t]``: set modifier ``s``
was applied after ``t``, both active).  The model itself never reads it: it
orders set modifiers by ``set_rank``; the properties judge ``value``
against ``later``.  The deliberately broken rules are edits in
``mutants/agot/modifiers.py``.

Two set modifiers that start at the same moment cannot both be "the most
recent": the first player chooses the order in which they are applied
(Priority of Simultaneous Resolution; FAQ: Varys's Riddle and Summer
Harvest), and the one applied last takes precedence.
"""

from __future__ import annotations

from ruleproof.dsl import Bool, Count, If, Int, Max, Model, Range, Step, Term, lift

__all__ = ["SCENARIOS", "CHECKED", "build", "scaled"]

SCENARIOS = {
    "default": {"adds": 3, "mults": 2, "sets": 3, "max_base": 8, "max_amount": 3},
    "small": {"adds": 2, "mults": 1, "sets": 2, "max_base": 4, "max_amount": 2},
}
# small: explored exhaustively, it shows a target unreachable where the default scenario is too large for Spacer
# within its resource limit (the rule mutant zero_refused: no +/- modifier of 0 is ever active)
CHECKED = ("default", "small")


def scaled(x: Term, doublings: Term, halvings: Term, mults: int) -> Term:
    """``ceil(x * 2**doublings / 2**halvings)`` for ``0 <= doublings, halvings <= mults``."""
    out: Term = x
    for d in range(mults + 1):
        for h in range(mults + 1):
            num = x * (2**d)
            val = -((-num) // (2**h)) if h else num
            out = If((doublings == d) & (halvings == h), val, out)
    return out


def build(adds: int = 3, mults: int = 2, sets: int = 3, max_base: int = 8, max_amount: int = 3) -> Model:
    """One quantity with ``adds`` +/- slots, ``mults`` doubling and halving slots and ``sets`` set slots."""
    m = Model("modifiers", doc=__doc__ or "")
    m.params.update(mults=mults, sets=sets)
    hi = (max_base + adds * max_amount) * 2**mults
    Add = m.sort("Add", [f"a{i}" for i in range(1, adds + 1)],
                 labels=[f"+/- modifier {i}" for i in range(1, adds + 1)])
    Mult = m.sort("Mult", [f"x{i}" for i in range(1, mults + 1)],
                  labels=[f"doubling/halving slot {i}" for i in range(1, mults + 1)])
    SetS = m.sort("SetSlot", [f"s{i}" for i in range(1, sets + 1)],
                  labels=[f"set modifier {i}" for i in range(1, sets + 1)])

    base = m.var("base", Int(0, max_base), init=Range(0, max_base))
    add_on = m.var("add_on", Bool, index=Add, init=False)
    amount = m.var("amount", Int(-max_amount, max_amount), index=Add, init=0)
    double_on = m.var("double_on", Bool, index=Mult, init=False)
    halve_on = m.var("halve_on", Bool, index=Mult, init=False)
    set_on = m.var("set_on", Bool, index=SetS, init=False)
    # the model's own ranking of the set modifiers: bookkeeping (the game shows which are active and the value)
    set_rank = m.var("set_rank", Int(0, sets), index=SetS, init=0, observable=False)
    # the value a set modifier sets: the game shows it only while that modifier is active (an expired one sets
    # nothing, so what its slot keeps then is not part of the game)
    set_value = m.var("set_value", Int(0, max_base), index=SetS, init=0, observable=lambda s: set_on[s])
    # the order of application of the active set modifiers (written when one is applied; the model never reads
    # it, the properties do): part of what the game shows, since it decides which set modifier takes precedence
    # when the most recent one expires; it holds only of two active set modifiers
    later = m.var("later", Bool, index=(SetS, SetS), init=False, observable=lambda s, t: set_on[s] & set_on[t])
    # running totals of the active modifiers (bookkeeping: the modifiers themselves are what the game shows)
    add_total = m.var("add_total", Int(-adds * max_amount, adds * max_amount), init=0, observable=False)
    doublings = m.var("doublings", Int(0, mults), init=0, observable=False)
    halvings = m.var("halvings", Int(0, mults), init=0, observable=False)
    value = m.var("value", Int(-hi, hi), init=Range(0, max_base))
    m.init_constraint(value == base)

    n_sets = Count(SetS, lambda s: set_on[s])

    def compute(a: Step, b: Term, tot: Term, dbl: Term, hlv: Term, rank: dict[str, Term], n: Term) -> None:
        """Set ``value`` from the base value and the active modifiers (post-state values given)."""
        v = Max(scaled(b + tot, dbl, hlv, mults), 0)
        for s in SetS:
            v = If((n >= 1) & (rank[s.name] == n), set_value[s], v)
        a.set(value, v)

    def applied_last(a: Step, s: Term, others: list[Term]) -> None:
        """Record that set modifier ``s`` is applied now, after every active one except ``others``."""
        for t in SetS:
            if t.name != s.name and all(t.name != o.name for o in others):
                a.set(later[s, t], set_on[t])
                a.set(later[t, s], False)

    ranks: dict[str, Term] = {s.name: set_rank[s] for s in SetS}

    @m.action(Add, describe="a +/- modifier is applied ({s})", cites=["Modifiers", "Constant Abilities"])
    def apply_add(a: Step, s: Term) -> None:
        # any amount, 0 included: "+X STR" with X = 0 (e.g. +1 for each of no cards) is a modifier too. A modifier
        # here comes from any source, a constant ability among them, which is active while its card is in play and
        # applies whatever X is (Constant Abilities; Abilities: its application is mandatory); only the initiation
        # of a triggered ability needs an effect with the potential to change the game state (Abilities), and that
        # is unopposed.py's action-window modifier (modify_str), which refuses a 0 STR modifier
        k = a.choose("amount", Int(-max_amount, max_amount))
        a.require(~add_on[s])
        a.set(add_on[s], True)
        a.set(amount[s], k)
        a.set(add_total, add_total + k)
        compute(a, base, add_total + k, doublings, halvings, ranks, n_sets)

    @m.action(Add, describe="a +/- modifier expires ({s})", cites=["Modifiers"])
    def remove_add(a: Step, s: Term) -> None:
        a.require(add_on[s])
        a.set(add_on[s], False)
        a.set(amount[s], 0)
        a.set(add_total, add_total - amount[s])
        compute(a, base, add_total - amount[s], doublings, halvings, ranks, n_sets)

    @m.action(Mult, describe="a doubling modifier is applied ({x})", cites=["Modifiers"])
    def apply_double(a: Step, x: Term) -> None:
        a.require(~double_on[x])
        a.set(double_on[x], True)
        a.set(doublings, doublings + 1)
        compute(a, base, add_total, doublings + 1, halvings, ranks, n_sets)

    @m.action(Mult, describe="a halving modifier is applied ({x})", cites=["Modifiers"])
    def apply_halve(a: Step, x: Term) -> None:
        a.require(~halve_on[x])
        a.set(halve_on[x], True)
        a.set(halvings, halvings + 1)
        compute(a, base, add_total, doublings, halvings + 1, ranks, n_sets)

    @m.action(Mult, describe="a doubling or halving modifier expires ({x})", cites=["Modifiers"])
    def remove_mult(a: Step, x: Term) -> None:
        which = a.choose("halving", Bool)
        a.require(If(which, halve_on[x], double_on[x]))
        a.set(halve_on[x], False, when=which)
        a.set(double_on[x], False, when=~which)
        d = If(which, doublings, doublings - 1)
        h = If(which, halvings - 1, halvings)
        a.set(doublings, d)
        a.set(halvings, h)
        compute(a, base, add_total, d, h, ranks, n_sets)

    @m.action(SetS, describe="a set modifier is applied ({s})", cites=["Modifiers", "Set"])
    def apply_set(a: Step, s: Term) -> None:
        k = a.choose("to", Int(0, max_base))
        a.require(~set_on[s])
        a.set(set_on[s], True)
        a.set(set_rank[s], n_sets + 1)
        a.set(set_value[s], k)
        a.set(value, k)  # the most recent set modifier takes precedence
        applied_last(a, s, [])

    @m.action(SetS, SetS,
              describe="two set modifiers start at the same moment ({s}, {t}); the first player orders them",
              cites=["Modifiers", "Set", "Priority of Simultaneous Resolution"])
    def apply_two_sets(a: Step, s: Term, t: Term) -> None:
        a.require(s.name < t.name)  # one action per unordered pair of slots
        k1 = a.choose("to_1", Int(0, max_base))
        k2 = a.choose("to_2", Int(0, max_base))
        t_last = a.choose("first player applies the second last", Bool)
        a.require(~set_on[s] & ~set_on[t])
        a.set(set_on[s], True)
        a.set(set_on[t], True)
        a.set(set_value[s], k1)
        a.set(set_value[t], k2)
        a.set(set_rank[s], If(t_last, n_sets + 1, n_sets + 2))
        a.set(set_rank[t], If(t_last, n_sets + 2, n_sets + 1))
        a.set(value, If(t_last, k2, k1))
        applied_last(a, s, [t])
        applied_last(a, t, [s])
        a.set(later[t, s], t_last)
        a.set(later[s, t], ~t_last)

    @m.action(SetS, describe="a set modifier expires ({s})", cites=["Modifiers", "Set"])
    def remove_set(a: Step, s: Term) -> None:
        a.require(set_on[s])
        new: dict[str, Term] = {}
        for t in SetS:
            nr = If(set_rank[t] > set_rank[s], set_rank[t] - 1, set_rank[t]) if t.name != s.name else lift(0)
            new[t.name] = nr
            a.set(set_rank[t], nr)
            a.set(later[s, t], False)
            a.set(later[t, s], False)
        a.set(set_on[s], False)
        a.set(set_value[s], 0)
        compute(a, base, add_total, doublings, halvings, new, n_sets - 1)

    @m.action(describe="the base value changes (e.g. a different printed value)", cites=["Base Value"])
    def change_base(a: Step) -> None:
        b = a.choose("to", Int(0, max_base))
        a.require(b != base)
        a.set(base, b)
        compute(a, b, add_total, doublings, halvings, ranks, n_sets)

    return m
