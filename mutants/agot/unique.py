"""Deliberately broken rules of ``model/agot/unique.py``, each an edit of the built model.

``tests/agot/test_rules_unique.py`` shows the property that catches each.
"""

from __future__ import annotations

from ruleproof.dsl import Model, Or, Step, Term
from ruleproof.rule_mutants import RuleMutants

MUTANTS = RuleMutants()


def _others(m: Model, c: Term) -> list[Term]:
    title = m.statics.title
    return [d for d in m.sorts.Card if d.name != c.name and title.value(d.name) == title.value(c.name)]


def _has_in_play(m: Model, x: str, c: Term) -> Term:
    v = m.v
    return Or(False, *((v.zone[d] == "play") & ((v.owner[d] == x) | (v.controller[d] == x)) for d in _others(m, c)))


def _dead_copy(m: Model, x: str, c: Term) -> Term:
    v, st = m.v, m.statics
    return Or(False, *(v.zone[d] == "dead" for d in _others(m, c) if st.owner.value(d.name) == x))


def _owner(m: Model, c: Term) -> str:
    return str(m.statics.owner.value(c.name))


@MUTANTS("second_copy", "a player may marshal another copy of a unique title while owning or controlling one in play")
def _second_copy(m: Model) -> None:
    m.drop_require("marshal", lambda p, c: ~_has_in_play(m, p.name, c))


@MUTANTS("duplicate_costs", "marshalling a duplicate costs the card's gold cost")
def _duplicate_costs(m: Model) -> None:
    v = m.v

    @m.amend("marshal_duplicate")
    def _(a: Step, p: Term, c: Term, u: Term) -> None:
        a.require(v.gold[p] >= v.cost[c])
        a.set(v.gold[p], v.gold[p] - v.cost[c])


@MUTANTS("marshal_free", "marshalling a card does not pay its cost")
def _marshal_free(m: Model) -> None:
    m.drop_set("marshal", "gold")


@MUTANTS("marshal_while_dead", "a unique card may be marshalled while a copy is in its owner's dead pile")
def _marshal_while_dead(m: Model) -> None:
    m.drop_require("marshal", lambda p, c: ~_dead_copy(m, p.name, c))


@MUTANTS("take_second_copy", "a player may take control of a unique card while owning or controlling a copy in play")
def _take_second_copy(m: Model) -> None:
    m.drop_require("take_control", lambda p, c: ~_has_in_play(m, p.name, c))


@MUTANTS("take_while_dead", "a player may take control of a unique card while a copy is in their dead pile")
def _take_while_dead(m: Model) -> None:
    m.drop_require("take_control", lambda p, c: ~_dead_copy(m, p.name, c))


@MUTANTS("put_ignores_owner", "putting an opponent's unique card into play ignores the copies its owner has in play")
def _put_ignores_owner(m: Model) -> None:
    m.drop_require("put_into_play", lambda p, c: ~_has_in_play(m, _owner(m, c), c))


@MUTANTS("put_ignores_owner_dead", "putting an opponent's unique card into play ignores its owner's dead pile")
def _put_ignores_owner_dead(m: Model) -> None:
    m.drop_require("put_into_play", lambda p, c: ~_dead_copy(m, _owner(m, c), c))


@MUTANTS("save_keeps_duplicate", "a save does not discard the duplicate")
def _save_keeps_duplicate(m: Model) -> None:
    v = m.v

    @m.amend("leave_play")
    def _(a: Step, c: Term) -> None:
        save = a.choice("save")
        for d in _others(m, c):
            a.set(v.zone[d], v.zone[d], when=save)


@MUTANTS("dups_survive_kill", "the duplicates of a card that leaves play stay behind")
def _dups_survive_kill(m: Model) -> None:
    v = m.v

    @m.amend("leave_play")
    def _(a: Step, c: Term) -> None:
        save = a.choice("save")
        for d in _others(m, c):
            a.set(v.zone[d], v.zone[d], when=~save)


@MUTANTS("save_all_dups", "a save discards every duplicate on the card, not one")
def _save_all_dups(m: Model) -> None:
    v = m.v

    @m.amend("leave_play")
    def _(a: Step, c: Term) -> None:
        save = a.choice("save")
        for d in _others(m, c):
            a.set(v.zone[d], "discard", when=save & (v.zone[d] == "dup") & (v.under[d] == c))


@MUTANTS("no_dead_exception", "an effect cannot bring the only copy of a unique card back from the dead pile")
def _no_dead_exception(m: Model) -> None:
    v, st = m.v, m.statics

    @m.amend("return_from_dead")
    def _(a: Step, p: Term, c: Term) -> None:
        if st.unique.value(str(st.title.value(c.name))):  # the card's own copy in the dead pile is counted
            a.set(v.zone[c], "dead")
            a.set(v.under[c], v.under[c])


@MUTANTS("return_with_copy_dead", "an effect brings a unique card back from a dead pile where another copy stays")
def _return_with_copy_dead(m: Model) -> None:
    v, st = m.v, m.statics

    @m.amend("return_from_dead")
    def _(a: Step, p: Term, c: Term) -> None:
        hosts = [u for u in _others(m, c) if st.owner.value(u.name) == p.name]
        as_dup = Or(False, *((v.zone[u] == "play") & (v.controller[u] == p) for u in hosts))
        ok = as_dup | ~_has_in_play(m, p.name, c)
        a.set(v.zone[c], "play", when=ok & ~as_dup)
        for u in hosts:
            host = (v.zone[u] == "play") & (v.controller[u] == p)
            a.set(v.zone[c], "dup", when=ok & host)
            a.set(v.under[c], u, when=ok & host)
