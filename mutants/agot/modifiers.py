"""Deliberately broken rules of ``model/agot/modifiers.py``, each an edit of the built model.

``tests/agot/test_rules_modifiers.py`` shows the property that catches each.
"""

from __future__ import annotations

from typing import cast

from ruleproof.dsl import Count, If, Int, Max, Model, Step, Term
from ruleproof.ir import IntT
from ruleproof.rule_mutants import RuleMutants

MUTANTS = RuleMutants()


def _set_value_or(m: Model, otherwise: Term) -> Term:
    """The value an active set modifier gives (by the model's ranking), else ``otherwise``."""
    v, SetS = m.v, m.sorts.SetSlot
    n = Count(SetS, lambda s: v.set_on[s])
    out = otherwise
    for s in SetS:
        out = If(v.set_on[s] & (v.set_rank[s] == n), v.set_value[s], out)
    return out


@MUTANTS("halve_first", "doubling/halving is applied to the base before the additive modifiers")
def _halve_first(m: Model) -> None:
    v = m.v

    @m.amend("apply_halve")
    def _(a: Step, x: Term) -> None:
        b = v.base * If(v.doublings >= 1, 2, 1)
        halved = If(v.halvings >= 1, -((-b) // 4), -((-b) // 2))
        a.set(v.value, _set_value_or(m, Max(halved + v.add_total, 0)))


@MUTANTS("round_each", "each halving is rounded up at once, not after all modifiers")
def _round_each(m: Model) -> None:
    v = m.v

    @m.amend("apply_double")
    def _(a: Step, x: Term) -> None:
        x0 = v.base + v.add_total
        once = -((-x0) // 2)
        # doubling a value already halved (rounded) instead of doubling, then halving once at the end
        rounded = If(v.halvings == 1, once * 2, x0 * 2)
        a.set(v.value, _set_value_or(m, Max(If(v.doublings == 0, rounded, v.value * 2), 0)))


@MUTANTS("no_floor", "a value below zero is not treated as zero")
def _no_floor(m: Model) -> None:
    v = m.v

    @m.amend("apply_add")
    def _(a: Step, s: Term) -> None:
        k = a.choice("amount")
        raw = v.base + v.add_total + k
        a.set(v.value, _set_value_or(m, If((v.doublings == 0) & (v.halvings == 0), raw, v.value)))


@MUTANTS("first_set_wins", "the first applied set modifier wins over later ones")
def _first_set_wins(m: Model) -> None:
    v, SetS = m.v, m.sorts.SetSlot

    @m.amend("apply_set")
    def _(a: Step, s: Term) -> None:
        others = Count(SetS, lambda t: v.set_on[t])
        a.set(v.value, If(others >= 1, v.value, a.choice("to")))


@MUTANTS("set_ignores_later", "a non-set modifier added while a set modifier is active applies on top of it")
def _set_ignores_later(m: Model) -> None:
    v = m.v

    @m.amend("apply_add")
    def _(a: Step, s: Term) -> None:
        a.set(v.value, Max(v.value + a.choice("amount"), 0))


@MUTANTS("incremental", "a new modifier is applied to the current value instead of recomputing from the base")
def _incremental(m: Model) -> None:
    v = m.v

    @m.amend("apply_double")
    def _(a: Step, x: Term) -> None:
        a.set(v.value, _set_value_or(m, v.value * 2))


@MUTANTS("stale_remove", "an expiring +/- modifier leaves the value as it was")
def _stale_remove(m: Model) -> None:
    m.drop_set("remove_add", "value")


@MUTANTS("rank_reversed", "when a set modifier expires the others are re-ranked in reverse (the review's F3 demo)")
def _rank_reversed(m: Model) -> None:
    v, SetS = m.v, m.sorts.SetSlot

    @m.amend("remove_set")
    def _(a: Step, s: Term) -> None:
        left = Count(SetS, lambda t: v.set_on[t]) - 1
        new: dict[str, Term] = {}
        for t in SetS:
            if t.name == s.name:
                continue
            dense = If(v.set_rank[t] > v.set_rank[s], v.set_rank[t] - 1, v.set_rank[t])
            new[t.name] = If(v.set_on[t], left + 1 - dense, 0)
            a.set(v.set_rank[t], new[t.name])
        for t in SetS:
            if t.name != s.name:
                a.set(v.value, v.set_value[t], when=v.set_on[t] & (left >= 1) & (new[t.name] == left))


@MUTANTS("simultaneous_no_order", "two set modifiers applied at the same moment are both written, no one ordering them")
def _simultaneous_no_order(m: Model) -> None:
    v, SetS = m.v, m.sorts.SetSlot
    max_base = cast(IntT, v.base.type).hi  # base is declared Int(0, max_base)

    @m.redefine("apply_two_sets")
    def _(a: Step, s: Term, t: Term) -> None:
        a.require(s.name < t.name)
        k1 = a.choose("to_1", Int(0, max_base))
        k2 = a.choose("to_2", Int(0, max_base))
        n = Count(SetS, lambda x: v.set_on[x])
        a.require(~v.set_on[s] & ~v.set_on[t])
        a.set(v.set_on[s], True)
        a.set(v.set_on[t], True)
        a.set(v.set_value[s], k1)
        a.set(v.set_value[t], k2)
        a.set(v.set_rank[s], n + 1)
        a.set(v.set_rank[t], n + 2)
        a.set(v.value, k1)
        a.set(v.value, k2)  # which of the two wins is decided by the order of these lines alone


@MUTANTS("zero_refused", "a +/- modifier of 0 is never applied")
def _zero_refused(m: Model) -> None:
    @m.amend("apply_add")
    def _(a: Step, s: Term) -> None:
        a.require(a.choice("amount") != 0)
