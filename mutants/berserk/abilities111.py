"""Deliberately broken rules of ``model/berserk/abilities111.py``, each an edit of the built model.

``tests/berserk/test_berserk_abilities111.py`` shows the property that catches each.
"""

from __future__ import annotations

from pathlib import Path
from typing import Callable

from ruleproof.dsl import Bool, If, Min, Model, Or, Step, Term
from ruleproof.loader import import_file
from ruleproof.rule_mutants import RuleMutants

MUTANTS = RuleMutants()

_MODEL = Path(__file__).resolve().parents[2] / "model" / "berserk" / "abilities111.py"


def _taken(m: Model) -> Term:
    """The entry of the Очередь that resolves now (the newest under LIFO, the oldest under FIFO)."""
    v, slots = m.v, list(m.sorts.Slot)
    if m.params["order"] == "lifo":
        return If(v.qlen == 1, v.queue[slots[0]], If(v.qlen == 2, v.queue[slots[1]], v.queue[slots[2]]))
    return v.queue[slots[0]]


def _vail_ryvok(m: Model) -> tuple[Term, Term]:
    return m.sorts.Creature.vail, m.sorts.Ability.ryvok


def _has(m: Model, c: Term, ab: Term) -> Term:
    """The abilities ``c`` has now, by the model's own reading (its module-level ``has``, 111.2)."""
    return import_file(_MODEL).has(m.v, c, ab)


def _push(m: Model, a: Step, item: str, when: Term | bool = True) -> None:
    v = m.v
    a.require(v.qlen < 3)
    for i, sl in enumerate(m.sorts.Slot):
        a.set(v.queue[sl], item, when=(v.qlen == i) & when)
    a.set(v.qlen, v.qlen + If(when, 1, 0))


@MUTANTS("first_applied_wins", "111.3 reversed: a grant or removal is ignored once another effect on that ability "
         "was applied (the first applied wins)")
def _first_applied_wins(m: Model) -> None:
    v = m.v
    vail, ryvok = _vail_ryvok(m)
    Last = m.enum("Last", ["none", "grant", "remove"], labels=["нет", "наделение", "удаление"])
    # which kind of effect was applied first: the history this broken rule needs
    last = m.var("last", Last, index=(m.sorts.Creature, m.sorts.Ability), init="none", observable=False)

    @m.amend("resolve")
    def _(a: Step) -> None:
        taken = _taken(m)
        granted, removed = Or(taken == "grant_hero", taken == "grant_horn"), taken == "remove"
        a.set(last[vail, ryvok], "grant", when=granted)
        a.set(last[vail, ryvok], "remove", when=removed)
        ignored = (granted | removed) & (last[vail, ryvok] != "none")
        a.set(v.grants[vail, ryvok], v.grants[vail, ryvok], when=ignored)
        a.set(v.lost[vail, ryvok], v.lost[vail, ryvok], when=ignored)


@MUTANTS("remove_one_instance", "111.3: a removal effect removes only one instance of the ability")
def _remove_one_instance(m: Model) -> None:
    v = m.v
    vail, ryvok = _vail_ryvok(m)

    @m.amend("resolve")
    def _(a: Step) -> None:
        removed = _taken(m) == "remove"
        g = v.grants[vail, ryvok]
        a.set(g, g - If(g >= 1, 1, 0), when=removed)
        a.set(v.lost[vail, ryvok], g <= 1, when=removed)


@MUTANTS("copy_abilities", "111.1: Талос copies abilities (including ones effects gave), not printed features")
def _copy_abilities(m: Model) -> None:
    v, C = m.v, m.sorts.Creature

    @m.amend("resolve")
    def _(a: Step) -> None:
        taken = _taken(m)
        for src, item in ((C.berserk, "copy_berserk"), (C.vail, "copy_vail")):
            for ab in m.sorts.Ability:
                a.set(v.copied[ab], _has(m, src, ab), when=taken == item)


@MUTANTS("copy_wrong_source", "111.1: Талос copying Вайл gets Берсерк's printed features (review W5)")
def _copy_wrong_source(m: Model) -> None:
    v, C = m.v, m.sorts.Creature

    @m.amend("resolve")
    def _(a: Step) -> None:
        for ab in m.sorts.Ability:
            a.set(v.copied[ab], v.printed[C.berserk, ab], when=_taken(m) == "copy_vail")


@MUTANTS("apply_on_activation", "table: the hero's activated ability applies its effect at once, not on resolution")
def _apply_on_activation(m: Model) -> None:
    v = m.v
    vail, ryvok = _vail_ryvok(m)

    @m.redefine("activate_hero")
    def _(a: Step) -> None:
        a.require(~v.hero_tapped)
        a.set(v.hero_tapped, True)
        a.require(v.qlen < 3)
        a.set(v.grants[vail, ryvok], Min(v.grants[vail, ryvok] + 1, 3))
        a.set(v.lost[vail, ryvok], False)


@MUTANTS("static_via_queue", "table: the static ability goes into the Очередь instead of applying at once")
def _static_via_queue(m: Model) -> None:
    v = m.v

    @m.redefine("banner_enters")
    def _(a: Step) -> None:
        a.require(~v.banner)
        a.set(v.banner, True)
        _push(m, a, "static_opyt")

    @m.amend("resolve")
    def _(a: Step) -> None:
        a.set(v.static_opyt, v.banner, when=_taken(m) == "static_opyt")


@MUTANTS("mandatory_declinable", "table: the mandatory «В начале хода» trigger may be skipped")
def _mandatory_declinable(m: Model) -> None:
    v = m.v

    @m.redefine("start_turn")
    def _(a: Step) -> None:
        a.require((v.qlen == 0) & (v.turn_no < int(m.params["turns"])))
        a.set(v.turn_no, v.turn_no + 1)
        a.set(v.hero_tapped, False)
        a.set(v.caster_tapped, False)
        skip = a.choose("пропустить", Bool)
        _push(m, a, "grant_horn", ~skip)


def _keep_lost_opyt(m: Model, family: str, when: Callable[[], Term | bool]) -> None:
    """Action ``family`` leaves Вайл's removed-or-not Опыт в атаке as it was, when ``when()`` holds."""
    v = m.v
    cell = v.lost[m.sorts.Creature.vail, m.sorts.Ability.opyt]

    @m.amend(family)
    def _(a: Step) -> None:
        a.set(cell, cell, when=when())


@MUTANTS("static_beats_removal", "111.3 (review F13): a removal of Вайл's Опыт does not hold while Знамя's static "
         "ability gives it (the static grant wins, though applied earlier)")
def _static_beats_removal(m: Model) -> None:
    _keep_lost_opyt(m, "resolve", lambda: (_taken(m) == "remove_opyt") & m.v.banner)


@MUTANTS("static_survives_silence", "table (review F13): the effect of Знамя's static ability stays when the ability "
         "itself is removed")
def _static_survives_silence(m: Model) -> None:
    v = m.v

    @m.amend("resolve")
    def _(a: Step) -> None:
        a.set(v.static_opyt, v.static_opyt, when=_taken(m) == "silence_banner")


@MUTANTS("static_not_reapplied", "111.3 (review F13): Знамя entering play anew does not give Вайл back the Опыт an "
         "earlier removal took (the static effect is not the last applied)")
def _static_not_reapplied(m: Model) -> None:
    _keep_lost_opyt(m, "banner_enters", lambda: True)


@MUTANTS("effect_leaves_with_source", "111.3 (review F13): Вайл loses the Рывок Свирепый резак gave when the hero "
         "leaves play (the effect treated as its source's)")
def _effect_leaves_with_source(m: Model) -> None:
    v = m.v
    vail, ryvok = _vail_ryvok(m)
    if not m.params.get("statics"):
        return  # the hero leaves play only in scenario statics

    @m.amend("hero_leaves")
    def _(a: Step) -> None:
        a.set(v.grants[vail, ryvok], 0)
