"""Deliberately broken rules of ``model/agot/gold.py``, each an edit of the built model.

``tests/core/test_core_gold.py`` and ``tests/agot/test_rules_gold.py`` show the property that catches each.
"""

from __future__ import annotations

from ruleproof.dsl import Count, Max, Model, Step, Sum, Term
from ruleproof.rule_mutants import RuleMutants

MUTANTS = RuleMutants()


def _due(m: Model, p: Term, c: Term) -> Term:
    return Max(m.v.cost[c] - m.v.reduction[p], 0)


@MUTANTS("spend_without_return", "marshal pays, but the gold does not go back to the treasury")
def _spend_without_return(m: Model) -> None:
    m.drop_set("marshal", "treasury")


@MUTANTS("overspend", "a card can be marshalled without enough gold")
def _overspend(m: Model) -> None:
    m.drop_require("marshal", lambda p, c: m.v.gold[p] >= _due(m, p, c))


@MUTANTS("tokens_lost", "a card leaving play keeps its tokens")
def _tokens_lost(m: Model) -> None:
    m.drop_set("leave_play", "tokens")
    m.drop_set("leave_play", "treasury")


@MUTANTS("marshal_events", "events can be marshalled")
def _marshal_events(m: Model) -> None:
    v, Card = m.v, m.sorts.Card

    @m.action(m.sorts.Player, Card, describe="{p} marshals event {c}",
              where=lambda p, c: (v.owner[c] == p) & (v.ctype[c] == "event"))
    def marshal_event(a: Step, p: Term, c: Term) -> None:
        a.require(v.phase == "marshaling", v.active == p, v.collected[p], v.zone[c] == "hand", v.gold[p] >= v.cost[c])
        a.set(v.gold[p], v.gold[p] - v.cost[c])
        a.set(v.treasury, v.treasury + v.cost[c])
        a.set(v.zone[c], "play")
        a.set(v.entered[c], True)


@MUTANTS("double_pay", "marshal charges the cost twice")
def _double_pay(m: Model) -> None:
    v = m.v

    @m.amend("marshal")
    def _(a: Step, p: Term, c: Term) -> None:
        due = _due(m, p, c)
        a.require(v.gold[p] >= due + due)
        a.set(v.gold[p], v.gold[p] - due - due)
        a.set(v.treasury, v.treasury + due + due)


@MUTANTS("marshal_any_phase", "cards are marshalled outside the marshaling phase")
def _marshal_any_phase(m: Model) -> None:
    m.drop_require("marshal", lambda p, c: m.v.phase == "marshaling")


@MUTANTS("marshal_not_active", "a player who is not the active player marshals")
def _marshal_not_active(m: Model) -> None:
    m.drop_require("marshal", lambda p, c: m.v.active == p)


@MUTANTS("marshal_before_income", "the active player marshals before collecting income (review F12)")
def _marshal_before_income(m: Model) -> None:
    m.drop_require("marshal", lambda p, c: m.v.collected[p])


@MUTANTS("active_twice", "a player becomes active a second time in one marshaling phase (review F12)")
def _active_twice(m: Model) -> None:
    v, Player = m.v, m.sorts.Player
    m.drop_require("next_player", lambda: ~(Count(Player, lambda p: v.been_active[p]) == len(Player)))


@MUTANTS("short_income", "income is one gold short of the plot's gold value (review F5)")
def _short_income(m: Model) -> None:
    v = m.v

    @m.amend("collect_income")
    def _(a: Step, p: Term) -> None:
        a.set(v.gold[p], v.gold[p] + v.income[p] - 1)
        a.set(v.treasury, v.treasury - v.income[p] + 1)


@MUTANTS("put_into_play_pays", "putting into play charges the cost")
def _put_into_play_pays(m: Model) -> None:
    v = m.v

    @m.amend("put_into_play")
    def _(a: Step, p: Term, c: Term) -> None:
        a.require(v.gold[p] >= v.cost[c])
        a.set(v.gold[p], v.gold[p] - v.cost[c])
        a.set(v.treasury, v.treasury + v.cost[c])


@MUTANTS("no_cost_floor", "a cost reduction can take the cost below zero")
def _no_cost_floor(m: Model) -> None:
    v = m.v

    @m.amend("marshal")
    def _(a: Step, p: Term, c: Term) -> None:
        due = v.cost[c] - v.reduction[p]
        a.set(v.gold[p], v.gold[p] - due)
        a.set(v.treasury, v.treasury + due)


# ------------------------------------------------------------ misreadings of the marshaling phase (review F12/F15)
# Each reads a rule of 3.2/3.3 wrongly rather than dropping a requirement; a property stated independently of the
# requirement catches it (tests/agot/test_rules_gold.py).


@MUTANTS("marshal_after_turn", "a player who has been active and collected income goes on marshaling after the "
         "turn has passed")
def _marshal_after_turn(m: Model) -> None:
    v = m.v
    m.replace_require("marshal", lambda p, c: v.active == p, lambda p, c: v.been_active[p])


@MUTANTS("income_at_phase_start", "every player collects income when the marshaling phase begins, not on "
         "becoming the active player")
def _income_at_phase_start(m: Model) -> None:
    v, Player = m.v, m.sorts.Player

    @m.amend("taxation")
    def _(a: Step, f: Term) -> None:
        a.set(v.treasury, v.treasury + Sum(v.gold[p] for p in Player) - Sum(v.income[p] for p in Player))
        for p in Player:
            a.set(v.gold[p], v.income[p])
            a.set(v.collected[p], True)


@MUTANTS("pass_without_income", "the active player may pass the turn without collecting income (income read as "
         "optional)")
def _pass_without_income(m: Model) -> None:
    v = m.v
    m.drop_require("next_player", lambda: v.collected[v.active])
