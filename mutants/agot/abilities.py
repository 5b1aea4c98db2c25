"""Deliberately broken rules of ``model/agot/abilities.py``, each an edit of the built model.

Several rules are play restrictions checked while a declaration is resolved (the declaration is a step
either way; the restrictions decide whether the ability starts), so their mutants give ``initiate`` or
``play_event`` a new body (:func:`_declare`), built like the model's with one restriction changed.
``tests/agot/test_rules_abilities.py`` shows the property that catches each.
"""

from __future__ import annotations

from typing import Callable

from ruleproof.dsl import Exists, Model, Or, Step, Sum, Term
from ruleproof.rule_mutants import RuleMutants

MUTANTS = RuleMutants()

Check = Callable[[Model, Term], Term]


def _chars(m: Model) -> list[Term]:
    return [c for c in m.sorts.Card if not m.statics.is_event.value(c.name)]


def _forced(m: Model, c: Term) -> bool:
    return bool(m.statics.forced.value(c.name))


def _char_allowed(
    m: Model, c: Term, *, limit: Check | None = None, once: bool = True, effect: bool = True, cost: bool = True
) -> Term:
    v = m.v
    ok = (v.zone[c] == "play") & (limit(m, c) if limit else v.uses[c] < v.printed[v.title[c]])
    if once:
        ok = ok & ~v.answered[c]
    if effect:
        ok = ok & (v.deck[v.owner[c]] >= 1)
    if cost and not _forced(m, c):
        ok = ok & ~v.knelt[c]
    return ok


def _forced_due(m: Model) -> Term:
    return Or(False, *(_char_allowed(m, c) for c in _chars(m) if _forced(m, c)))


def _declare_char(m: Model, *, pays: bool = True, priority: bool = True, **allowed: object) -> None:
    v, st = m.v, m.statics

    @m.redefine("initiate")
    def _(a: Step, c: Term) -> None:
        if st.is_event.value(c.name):
            a.require(False)
        a.require(v.open & ~v.busy)
        a.set(v.declared, ~v.declared)
        go = _char_allowed(m, c, **allowed)  # type: ignore[arg-type]
        if priority and not _forced(m, c):
            go = go & ~_forced_due(m)
        a.set(v.busy, True, when=go)
        a.set(v.src, c, when=go)
        if pays and not _forced(m, c):
            a.set(v.knelt[c], True, when=go)
        a.set(v.uses[c], v.uses[c] + 1, when=go)
        a.set(v.answered[c], True, when=go)
        a.set(v.g_period[c], v.g_period[c] + 1, when=go)
        a.set(v.g_occ[c], v.g_occ[c] + 1, when=go)


def _declare_event(
    m: Model, *, count: str = "player", effect: bool = True, cost: bool = True, pays: bool = True, priority: bool = True
) -> None:
    v, Player, st = m.v, m.sorts.Player, m.statics

    @m.redefine("play_event")
    def _(a: Step, e: Term) -> None:
        if not st.is_event.value(e.name):
            a.require(False)
        a.require(v.open & ~v.busy)
        a.set(v.declared, ~v.declared)
        p, t = v.owner[e], v.title[e]
        if count == "copy":
            ok = v.uses[e] < v.printed[t]
        elif count == "everyone":
            ok = Sum(*(v.max_used[q, t] for q in Player)) < v.printed[t]
        else:
            ok = v.max_used[p, t] < v.printed[t]
        go = (v.zone[e] == "hand") & ok
        if effect:
            go = go & (v.deck[p] >= 1)
        if cost:
            go = go & (v.gold[p] >= v.cost[e])
        if priority:
            go = go & ~_forced_due(m)
        a.set(v.busy, True, when=go)
        a.set(v.src, e, when=go)
        a.set(v.zone[e], "playing", when=go)
        if pays:
            a.set(v.gold[p], v.gold[p] - v.cost[e], when=go)
        if count == "copy":
            a.set(v.uses[e], v.uses[e] + 1, when=go)
        a.set(v.max_used[p, t], v.max_used[p, t] + 1, when=go)
        a.set(v.g_title[p, t], v.g_title[p, t] + 1, when=go)


@MUTANTS("limit_per_title", "a limit is counted over all copies of the title a player controls, not per copy")
def _limit_per_title(m: Model) -> None:
    def per_title(m: Model, c: Term) -> Term:
        v, st = m.v, m.statics
        same = [
            d
            for d in _chars(m)
            if st.title.value(d.name) == st.title.value(c.name) and st.owner.value(d.name) == st.owner.value(c.name)
        ]
        return Sum(*(v.uses[d] for d in same)) < v.printed[v.title[c]]

    _declare_char(m, limit=per_title)


@MUTANTS("max_per_copy", "a maximum is counted per event copy instead of by title")
def _max_per_copy(m: Model) -> None:
    _declare_event(m, count="copy")


@MUTANTS("max_not_player_specific", "a maximum is counted over all players")
def _max_not_player_specific(m: Model) -> None:
    _declare_event(m, count="everyone")


@MUTANTS("cancel_uncounted", "a cancelled ability does not count against its limit or maximum")
def _cancel_uncounted(m: Model) -> None:
    v, st = m.v, m.statics

    @m.amend("cancel")
    def _(a: Step) -> None:
        for c in m.sorts.Card:
            now = v.src == c
            if st.is_event.value(c.name):
                a.set(v.max_used[v.owner[c], v.title[c]], v.max_used[v.owner[c], v.title[c]] - 1, when=now)
            else:
                a.set(v.uses[c], v.uses[c] - 1, when=now)


@MUTANTS("cancel_refund", "a cancelled ability's cost is refunded")
def _cancel_refund(m: Model) -> None:
    v, st = m.v, m.statics

    @m.amend("cancel")
    def _(a: Step) -> None:
        for c in m.sorts.Card:
            now = v.src == c
            if st.is_event.value(c.name):
                a.set(v.gold[v.owner[c]], v.gold[v.owner[c]] + v.cost[c], when=now)
            elif not _forced(m, c):
                a.set(v.knelt[c], False, when=now)


@MUTANTS("cancelled_event_to_hand", "a cancelled event returns to its owner's hand")
def _cancelled_event_to_hand(m: Model) -> None:
    v, st = m.v, m.statics

    @m.amend("cancel")
    def _(a: Step) -> None:
        for c in m.sorts.Card:
            if st.is_event.value(c.name):
                a.set(v.zone[c], "hand", when=v.src == c)


@MUTANTS("keep_count", "a card that leaves and re-enters play keeps its old count")
def _keep_count(m: Model) -> None:
    m.drop_set("leave_play", "uses")


@MUTANTS("reset_by_phase", "the end of a phase also resets per-round limits")
def _reset_by_phase(m: Model) -> None:
    @m.amend("end_phase")
    def _(a: Step) -> None:
        for c in _chars(m):
            a.set(m.v.uses[c], 0)


@MUTANTS("twice_per_occurrence", "one copy may react twice to one occurrence")
def _twice_per_occurrence(m: Model) -> None:
    _declare_char(m, once=False)


@MUTANTS("no_cost", "initiating does not kneel the card / pay the gold")
def _no_cost(m: Model) -> None:
    _declare_char(m, pays=False)
    _declare_event(m, pays=False)


@MUTANTS("unpayable", "an ability is initiated although its cost cannot be paid")
def _unpayable(m: Model) -> None:
    _declare_char(m, cost=False)
    _declare_event(m, cost=False)


@MUTANTS("no_effect_ok", "an ability is initiated although its effect would not change the game state (empty deck)")
def _no_effect_ok(m: Model) -> None:
    _declare_char(m, effect=False)
    _declare_event(m, effect=False)


@MUTANTS("forced_skippable", "the window closes with a forced reaction unresolved")
def _forced_skippable(m: Model) -> None:
    def due(c: Term) -> Callable[[], Term]:
        return lambda: ~_char_allowed(m, c)

    for c in _chars(m):
        if _forced(m, c):
            m.drop_require("close_window", due(c))


@MUTANTS(
    "optional_before_forced",
    "an optional reaction may be initiated while a forced reaction is still due (commit 3e7e81c, review F7)",
)
def _optional_before_forced(m: Model) -> None:
    _declare_char(m, priority=False)
    _declare_event(m, priority=False)


@MUTANTS("may_mandatory", "an optional reaction must be used (no 'may'): no window closes while one is available")
def _may_mandatory(m: Model) -> None:
    v = m.v

    @m.amend("close_window")
    def _(a: Step) -> None:
        a.require(~Exists(m.sorts.Card, lambda c: ~v.forced[c] & ~v.is_event[c] & _char_allowed(m, c)))


@MUTANTS("may_effect_mandatory", "an event's 'you may draw' is compulsory: its controller cannot decline")
def _may_effect_mandatory(m: Model) -> None:
    v = m.v

    @m.amend("resolve")
    def _(a: Step) -> None:
        a.require(~v.is_event[v.src] | a.choice("draw"))


@MUTANTS("enters_knelt", "a card enters play in the state it last had, knelt if it was (the model before this fix)")
def _enters_knelt(m: Model) -> None:
    m.drop_set("enter_play", "knelt")
