"""Deliberately broken rules of ``model/agot/unique.py``, each an edit of the built model.

``tests/agot/test_rules_unique.py`` shows the property that catches each.
"""

from __future__ import annotations

from typing import Callable

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


# ------------------------------------------------------------------ misreadings of Unique Cards / Duplicates (F15)
# Each reads a rule wrongly rather than dropping a requirement; a property stated independently of the requirement
# catches it (tests/agot/test_rules_unique.py).


def _unique(m: Model, c: Term) -> bool:
    st = m.statics
    return bool(st.unique.value(str(st.title.value(c.name))))


def _add_duplicate_action(m: Model, name: str, host: Callable[[Term, Term], Term]) -> None:
    """A new way to marshal a player's card as a duplicate on another in-play copy ``u`` with ``host(p, u)``."""
    v = m.v

    @m.action(m.sorts.Player, m.sorts.Card, m.sorts.Card, name=name, describe="{p} marshals {c} as a duplicate on {u}",
              where=lambda p, c, u: (c.name != u.name) & (_owner(m, c) == p.name) & _unique(m, c)
              & (m.statics.title.value(c.name) == m.statics.title.value(u.name)))
    def _(a: Step, p: Term, c: Term, u: Term) -> None:
        a.require((v.zone[c] == "hand") & (v.zone[u] == "play") & host(p, u) & ~_dead_copy(m, p.name, c))
        a.set(v.zone[c], "dup")
        a.set(v.under[c], u)


@MUTANTS("duplicate_on_opponents_copy", "a card marshalled while an opponent's copy of its unique title is in play "
         "enters as a duplicate on that copy")
def _duplicate_on_opponents_copy(m: Model) -> None:
    v = m.v
    _add_duplicate_action(m, "marshal_duplicate_on_opponent", lambda p, u: (v.owner[u] != p) & (v.controller[u] != p))


@MUTANTS("duplicate_on_controlled_copy", "a duplicate may be placed on any copy its owner controls, an opponent's "
         "copy taken under control included")
def _duplicate_on_controlled_copy(m: Model) -> None:
    v = m.v
    _add_duplicate_action(m, "marshal_duplicate_on_controlled", lambda p, u: (v.owner[u] != p) & (v.controller[u] == p))


@MUTANTS("second_copy_put_into_play", "the limit of one instance holds for marshalling only: an ability puts a "
         "second copy of a player's unique card into play")
def _second_copy_put_into_play(m: Model) -> None:
    m.drop_require("put_into_play", lambda p, c: ~_has_in_play(m, p.name, c))


@MUTANTS("only_controlled_copies_count", "only the copies a player controls count: the player marshals a copy while "
         "an opponent controls another copy the player owns")
def _only_controlled_copies_count(m: Model) -> None:
    v = m.v

    def controls(p: Term, c: Term) -> Term:
        return Or(False, *((v.zone[d] == "play") & (v.controller[d] == p) for d in _others(m, c)))

    m.replace_require("marshal", lambda p, c: ~_has_in_play(m, p.name, c), lambda p, c: ~controls(p, c))
