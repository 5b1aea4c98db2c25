"""Deliberately broken rules of ``model/agot/marshal.py``, each an edit of the built model.

``tests/agot/test_rules_marshal.py`` shows the property that catches each.
"""

from __future__ import annotations

from ruleproof.dsl import Count, Min, Model, Step, Sum, Term
from ruleproof.rule_mutants import RuleMutants

MUTANTS = RuleMutants()


def _seat(m: Model, p: Term, steps: int) -> Term:
    order = list(m.sorts.Player)
    return order[([q.name for q in order].index(p.name) + steps) % len(order)]


@MUTANTS("marshal_any_phase", "cards can be marshalled outside the marshaling phase")
def _marshal_any_phase(m: Model) -> None:
    m.drop_require("marshal", lambda p, c: m.v.phase == "marshaling")


@MUTANTS("marshal_not_active", "a player who is not the active player can marshal")
def _marshal_not_active(m: Model) -> None:
    m.drop_require("marshal", lambda p, c: m.v.active == p)


@MUTANTS("marshal_before_income", "the active player may marshal before collecting income")
def _marshal_before_income(m: Model) -> None:
    m.drop_require("marshal", lambda p, c: m.v.collected[p])


@MUTANTS("marshal_free", "marshalling does not pay the card's cost")
def _marshal_free(m: Model) -> None:
    m.drop_set("marshal", "gold")
    m.drop_set("marshal", "treasury")


@MUTANTS("overspend", "a card can be marshalled without enough gold to pay its cost")
def _overspend(m: Model) -> None:
    v = m.v
    m.drop_require("marshal", lambda p, c: v.gold[p] >= v.cost[c])

    @m.amend("marshal")
    def _(a: Step, p: Term, c: Term) -> None:
        paid = Min(v.cost[c], v.gold[p])
        a.set(v.gold[p], v.gold[p] - paid)
        a.set(v.treasury, v.treasury + paid)


@MUTANTS("put_into_play_pays", "putting a card into play by an ability charges its cost")
def _put_into_play_pays(m: Model) -> None:
    v = m.v

    @m.amend("put_into_play")
    def _(a: Step, p: Term, c: Term) -> None:
        a.require(v.gold[p] >= v.cost[c])
        a.set(v.gold[p], v.gold[p] - v.cost[c])
        a.set(v.treasury, v.treasury + v.cost[c])


@MUTANTS("put_counts_as_marshal", "a card put into play counts as marshalled")
def _put_counts_as_marshal(m: Model) -> None:
    @m.amend("put_into_play")
    def _(a: Step, p: Term, c: Term) -> None:
        a.set(m.v.marshalled[c], True)


@MUTANTS("marshal_events", "event cards can be marshalled into play")
def _marshal_events(m: Model) -> None:
    v = m.v

    @m.action(m.sorts.Player, m.sorts.Card, describe="{p} marshals event {c}",
              where=lambda p, c: (v.owner[c] == p) & (v.ctype[c] == "event"))
    def marshal_event(a: Step, p: Term, c: Term) -> None:
        a.require(v.zone[c] == "hand", v.phase == "marshaling", v.active == p, v.collected[p], v.gold[p] >= v.cost[c])
        a.set(v.gold[p], v.gold[p] - v.cost[c])
        a.set(v.treasury, v.treasury + v.cost[c])
        a.set(v.zone[c], "play")
        a.set(v.marshalled[c], True)


@MUTANTS("event_into_play", "a played event is placed in play rather than in the discard pile")
def _event_into_play(m: Model) -> None:
    @m.amend("play_event")
    def _(a: Step, p: Term, c: Term) -> None:
        a.set(m.v.zone[c], "play")


@MUTANTS("cancel_refunds", "an event whose effects are canceled returns its cost")
def _cancel_refunds(m: Model) -> None:
    v = m.v

    @m.amend("play_event")
    def _(a: Step, p: Term, c: Term) -> None:
        canceled = a.choice("canceled")
        a.set(v.gold[p], v.gold[p], when=canceled)
        a.set(v.treasury, v.treasury, when=canceled)
        a.set(v.zone[c], v.zone[c], when=canceled)


@MUTANTS("start_not_first", "the player after the first player is active first")
def _start_not_first(m: Model) -> None:
    v = m.v

    @m.amend("begin_marshaling")
    def _(a: Step, f: Term) -> None:
        starter = _seat(m, f, 1)
        a.set(v.active, starter)
        for p in m.sorts.Player:
            a.set(v.been_active[p], p == starter)


@MUTANTS("skip_player", "the turn passes two players on in melee")
def _skip_player(m: Model) -> None:
    _rotate(m, 2)


@MUTANTS("counter_clockwise", "the turn passes counter-clockwise")
def _counter_clockwise(m: Model) -> None:
    _rotate(m, -1)


def _rotate(m: Model, steps: int) -> None:
    v = m.v

    @m.amend("next_active")
    def _(a: Step) -> None:
        for p in m.sorts.Player:
            usual, nxt = _seat(m, p, 1), _seat(m, p, steps)
            a.set(v.been_active[usual], v.been_active[usual], when=v.active == p)
            a.set(v.active, nxt, when=v.active == p)
            a.set(v.been_active[nxt], True, when=v.active == p)


@MUTANTS("end_early", "the marshaling phase may end before every player was active")
def _end_early(m: Model) -> None:
    v, Player = m.v, m.sorts.Player
    m.drop_require("end_marshaling", lambda: Count(Player, lambda p: v.been_active[p]) == len(Player))


@MUTANTS("collect_twice", "income can be collected twice in one marshaling phase")
def _collect_twice(m: Model) -> None:
    m.drop_require("collect_income", lambda p: ~m.v.collected[p])


@MUTANTS("short_income", "income is one gold short of the plot's gold value (review F5: the treasury runs low)")
def _short_income(m: Model) -> None:
    v = m.v

    @m.amend("collect_income")
    def _(a: Step, p: Term) -> None:
        a.set(v.gold[p], v.gold[p] + v.income[p] - 1)
        a.set(v.treasury, v.treasury - v.income[p] + 1)


@MUTANTS("restart_marshaling", "a new marshaling phase can begin in the middle of a round")
def _restart_marshaling(m: Model) -> None:
    m.drop_require("begin_marshaling", lambda f: m.v.phase == "plot")


@MUTANTS("keep_unspent_gold", "unspent gold stays in the pools when the round ends")
def _keep_unspent_gold(m: Model) -> None:
    m.drop_set("end_round", "gold")
    m.drop_set("end_round", "treasury")


# ------------------------------------------------------------------ misreadings of Marshal and 3.2/3.3 (review F15)
# Each reads a rule wrongly rather than dropping a requirement; a property stated independently of the requirement
# catches it (tests/agot/test_rules_marshal.py).


@MUTANTS("marshal_after_turn", "a player who has been active and collected income goes on marshaling after the "
         "turn has passed")
def _marshal_after_turn(m: Model) -> None:
    v = m.v
    m.replace_require("marshal", lambda p, c: v.active == p, lambda p, c: v.been_active[p])


@MUTANTS("first_player_pays", "the first player's pool pays for every card marshalled")
def _first_player_pays(m: Model) -> None:
    v = m.v
    m.drop_require("marshal", lambda p, c: v.gold[p] >= v.cost[c])

    @m.amend("marshal")
    def _(a: Step, p: Term, c: Term) -> None:
        a.require(v.gold[v.first] >= v.cost[c])
        a.set(v.gold[p], v.gold[p])
        a.set(v.gold[v.first], v.gold[v.first] - v.cost[c])


@MUTANTS("income_at_phase_start", "every player collects income when the marshaling phase begins, not on "
         "becoming the active player")
def _income_at_phase_start(m: Model) -> None:
    v, Player = m.v, m.sorts.Player

    @m.amend("begin_marshaling")
    def _(a: Step, f: Term) -> None:
        a.set(v.treasury, v.treasury - Sum(v.income[p] for p in Player))
        for p in Player:
            a.set(v.gold[p], v.gold[p] + v.income[p])
            a.set(v.collected[p], True)


@MUTANTS("pass_without_income", "the active player may pass the turn without collecting income (income read as "
         "optional)")
def _pass_without_income(m: Model) -> None:
    v = m.v
    m.drop_require("next_active", lambda: v.collected[v.active])
