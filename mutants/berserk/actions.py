"""Deliberately broken rules of ``model/berserk/actions.py``, each an edit of the built model.

Several breaks change which reserved tap the payment stage waives; their edits give the payment
stage's tap a new value (:func:`_pay_tap`), computed like the model's with one clause changed.
``tests/berserk/test_berserk_actions.py`` shows the property that catches each.
"""

from __future__ import annotations

from typing import Callable

from ruleproof.dsl import And, If, Model, Not, Or, Step, Term
from ruleproof.rule_mutants import RuleMutants

MUTANTS = RuleMutants()


def _alive(m: Model, c: Term) -> Term:
    return m.v.wounds[c] < m.v.lives[c]


def _heals(m: Model, c: Term) -> Term:
    v = m.v
    return Or(v.feat[c] == "heal_strike", v.feat[c] == "heal_assault")


def _waived(m: Model, c: Term, *, mod_att: Term | None = None, mod_def: Term | None = None,
            defender_heals: Callable[[Term], Term] | None = None, assault_defence_free: bool | None = None,
            no_tap_defence: bool | None = None) -> Term:
    """The model's waiver of ``c``'s reserved tap (539.1-539.4.1), with the named clause replaced."""
    v = m.v
    last_use_taps = bool(m.params["last_use_taps"])
    per_turn_free = Not(And(last_use_taps, v.uses[c] + 1 >= v.limit[c]))
    att = v.mod_att if mod_att is None else mod_att
    dfd = v.mod_def if mod_def is None else mod_def
    def_trigger = (v.feat[c] == "heal_strike") if defender_heals is None else defender_heals(c)
    assault_free = bool(m.params["assault_defence_free"]) if assault_defence_free is None else assault_defence_free
    no_tap_def = bool(m.params["no_tap_defence"]) if no_tap_defence is None else no_tap_defence
    as_actor = (v.kind == "attack") & (
        (v.feat[c] == "no_tap_attack") | ((v.feat[c] == "x_per_turn") & per_turn_free) | (_heals(m, c) & att)
    )
    as_defender = ((def_trigger & dfd) | ((v.feat[c] == "taps_after_assault") & assault_free)
                   | ((v.feat[c] == "no_tap_attack") & no_tap_def))
    return If(v.actor == c, as_actor, as_defender)


def _pay_tap(m: Model, due: Callable[[Term], Term]) -> None:
    """The payment stage taps ``due(c)`` (with what was tapped) instead of the reserved tap not waived."""
    v = m.v

    @m.amend("pay")
    def _(a: Step) -> None:
        for c in m.sorts.Card:
            a.set(v.tapped[c], v.tapped[c] | due(c))


@MUTANTS("ignore_modifier", "539.2: the payment stage taps even when a 539 feature waives the tap")
def _ignore_modifier(m: Model) -> None:
    _pay_tap(m, lambda c: m.v.rsv_tap[c])


@MUTANTS("skip_reservation_check", "539.2: a card whose feature waives the tap may declare an attack while tapped")
def _skip_reservation_check(m: Model) -> None:
    v = m.v
    m.replace_require("declare_attack", lambda c, t: ~v.tapped[c] & ~v.rsv_tap[c],
                      lambda c, t: (~v.tapped[c] & ~v.rsv_tap[c]) | (v.feat[c] == "no_tap_attack"))


@MUTANTS("no_reserve_when_waived", "539.2: a waived resource is not reserved at declaration")
def _no_reserve_when_waived(m: Model) -> None:
    v = m.v

    @m.amend("declare_attack")
    def _(a: Step, c: Term, t: Term) -> None:
        a.set(v.rsv_tap[c], ~(v.feat[c] == "no_tap_attack"))


def _may_act(m: Model, c: Term, repeat_ok: Term | bool) -> Term:
    return Or(~m.v.acted[c], repeat_ok)


@MUTANTS("acted_may_declare", "539.3: an acted card may declare another action")
def _acted_may_declare(m: Model) -> None:
    v = m.v
    m.drop_require("declare_attack", lambda c, t: _may_act(
        m, c, (v.feat[c] == "x_per_turn") & (v.uses[c] < v.limit[c])))
    m.drop_require("declare_move", lambda c: _may_act(m, c, False))
    m.drop_require("declare_ability", lambda c, t: _may_act(m, c, False))


@MUTANTS("acted_keeps_movement", "539.3: an acted card keeps its movement points")
def _acted_keeps_movement(m: Model) -> None:
    v = m.v

    @m.amend("pay")
    def _(a: Step) -> None:
        for c in m.sorts.Card:
            a.set(v.move[c], v.move[c] - If(v.rsv_move[c], 1, 0))


@MUTANTS("no_limit", "539.1.3: «X раз за ход» is not counted at declaration")
def _no_limit(m: Model) -> None:
    v = m.v

    def per_turn(c: Term) -> Term:
        return v.feat[c] == "x_per_turn"

    m.drop_require("declare_attack", lambda c, t: ~per_turn(c) | (v.uses[c] < v.limit[c]))
    m.replace_require("declare_attack", lambda c, t: _may_act(m, c, per_turn(c) & (v.uses[c] < v.limit[c])),
                      lambda c, t: _may_act(m, c, per_turn(c)))


@MUTANTS("assault_on_counter", "539.4.1: a «при нападении» trigger also fires on a defender's counter-strike")
def _assault_on_counter(m: Model) -> None:
    v, Stage = m.v, m.sorts.Stage

    @m.amend("counter")
    def _(a: Step) -> None:
        fires = v.has_def & _alive(m, v.defender) & _heals(m, v.defender)
        a.set(v.stage, If(fires, Stage.trig_d, Stage.payment))

    _pay_tap(m, lambda c: v.rsv_tap[c] & ~_waived(m, c, defender_heals=lambda x: _heals(m, x)))


@MUTANTS("recheck_at_payment", "539.4: the Келе waiver is re-checked at payment (no wounds then) instead of locked in")
def _recheck_at_payment(m: Model) -> None:
    v = m.v
    _pay_tap(m, lambda c: v.rsv_tap[c] & ~_waived(m, c, mod_att=v.wounds[c] == 0, mod_def=v.wounds[c] == 0))


@MUTANTS("pay_interrupted", "526.1: an interrupted action is paid")
def _pay_interrupted(m: Model) -> None:
    v = m.v

    @m.amend("interrupt")
    def _(a: Step) -> None:
        for c in m.sorts.Card:
            a.set(v.tapped[c], v.tapped[c] | v.rsv_tap[c])


@MUTANTS("blocked_unpaid", "RP 3.1-1: a blocked ability is not paid")
def _blocked_unpaid(m: Model) -> None:
    v = m.v
    _pay_tap(m, lambda c: v.rsv_tap[c] & ~_waived(m, c) & ~v.blocked)


def _legal(m: Model, reserved_checked: bool) -> Term:
    """Whether the action in flight is still legal (526.1), with or without 539.2's check of reserved resources."""
    v, Card = m.v, m.sorts.Card
    reserved_there = And(*(((~v.rsv_tap[c]) | ~v.tapped[c]) & ((~v.rsv_move[c]) | (~v.tapped[c] & (v.move[c] >= 1)))
                           for c in Card))
    performed = If(
        v.kind == "attack",
        _alive(m, v.actor) & _alive(m, v.target),
        If(v.kind == "ability", _alive(m, v.target) & (v.lives[v.target] - v.wounds[v.target] <= v.finish[v.actor]),
           True),
    )
    return reserved_there & performed if reserved_checked else performed


@MUTANTS("reservation_unchecked", "539.2: a reserved resource lost in response does not make the action illegal")
def _reservation_unchecked(m: Model) -> None:
    m.replace_require("interrupt", lambda: ~_legal(m, True), lambda: ~_legal(m, False))
    m.replace_require("perform", lambda: _legal(m, True), lambda: _legal(m, False))


@MUTANTS("condition_at_declaration",
         "539.4: the Келе condition is read when the heal is declared, not when it resolves")
def _condition_at_declaration(m: Model) -> None:
    v = m.v

    @m.amend("trigger_attacker")
    def _(a: Step) -> None:
        a.set(v.mod_att, a.choice("излечиться") & (v.wounds[v.actor] <= 2))

    m.drop_set("resolve_heal_a", "mod_att")


@MUTANTS("last_attack_free", "539.1.3: the X-th attack of «X раз за ход» does not tap, even where it should")
def _last_attack_free(m: Model) -> None:
    v = m.v

    def free(c: Term) -> Term:
        return (v.actor == c) & (v.kind == "attack") & (v.feat[c] == "x_per_turn")

    _pay_tap(m, lambda c: v.rsv_tap[c] & ~_waived(m, c) & ~free(c))


@MUTANTS("healed_defender_taps", "539.4.1: a «при ударе» defender healed to no wounds taps all the same")
def _healed_defender_taps(m: Model) -> None:
    v = m.v
    _pay_tap(m, lambda c: v.rsv_tap[c] & ~_waived(m, c, mod_def=Or(False)))


def _counterstrike(m: Model, closed_strikes: bool) -> None:
    v = m.v
    victim = If(v.has_def, v.defender, v.target)
    back = _alive(m, victim) if closed_strikes else _alive(m, victim) & ~v.tapped[victim]

    @m.amend("counter")
    def _(a: Step) -> None:
        a.set(v.wounds[v.actor], If(v.wounds[v.actor] + If(back, v.strength[victim], 0) >= v.lives[v.actor],
                                    v.lives[v.actor], v.wounds[v.actor] + If(back, v.strength[victim], 0)))


@MUTANTS("closed_no_counterstrike", "review F9, setting closed_counterstrikes=true: a closed attacked creature "
         "deals no counter-strike")
def _closed_no_counterstrike(m: Model) -> None:
    _counterstrike(m, closed_strikes=False)


@MUTANTS("closed_counterstrikes_anyway", "review F9, setting closed_counterstrikes=false: a closed attacked creature "
         "strikes back all the same")
def _closed_counterstrikes_anyway(m: Model) -> None:
    _counterstrike(m, closed_strikes=True)


@MUTANTS("counter_trigger_defender_only", "539.4.1 (review F7): «при ударе» fires on a counter-strike only when the "
         "attacked card is a defender, not when it is the target")
def _counter_trigger_defender_only(m: Model) -> None:
    v, Stage = m.v, m.sorts.Stage

    @m.amend("counter")
    def _(a: Step) -> None:
        fires = v.has_def & _alive(m, v.defender) & (v.feat[v.defender] == "heal_strike")
        a.set(v.stage, If(fires, Stage.trig_d, Stage.payment))


def _strike_order(m: Model, together: bool) -> None:
    """The strike step deals the counter-strike too (``together``), or leaves it to the counter step (no edit
    where the scenario's setting already says so)."""
    v = m.v
    if bool(m.params["strikes_together"]) == together:
        return
    victim = If(v.has_def, v.defender, v.target)
    back = _alive(m, victim)
    if not bool(m.params["closed_counterstrikes"]):
        back = back & ~v.tapped[victim]
    hit = If(v.wounds[v.actor] + If(back, v.strength[victim], 0) >= v.lives[v.actor], v.lives[v.actor],
             v.wounds[v.actor] + If(back, v.strength[victim], 0))

    @m.amend("strike" if together else "counter")
    def _(a: Step) -> None:
        a.set(v.wounds[v.actor], hit)

    if together:
        m.drop_set("counter", "wounds")
    else:
        m.drop_set("strike", "wounds")

        @m.amend("strike")
        def _victim(a: Step) -> None:
            a.set(v.wounds[victim], If(v.wounds[victim] + v.strength[v.actor] >= v.lives[victim], v.lives[victim],
                                       v.wounds[victim] + v.strength[v.actor]))


def _waiver_setting(assault_defence_free: bool | None = None, no_tap_defence: bool | None = None
                    ) -> Callable[[Model], None]:
    """The payment stage waives a defender's tap as the given setting of a defence parameter says."""
    return lambda m: _pay_tap(m, lambda c: m.v.rsv_tap[c] & ~_waived(
        m, c, assault_defence_free=assault_defence_free, no_tap_defence=no_tap_defence))


def _defender_acted(m: Model, acts: bool) -> None:
    """The payment stage makes a defender whose tap was waived acted (``acts``, 539.3), or not."""
    v = m.v

    @m.amend("pay")
    def _(a: Step) -> None:
        for c in m.sorts.Card:
            performed = (v.actor == c) & (v.kind != "move")
            if acts:
                performed = performed | (v.has_def & (v.defender == c) & v.rsv_tap[c] & _waived(m, c))
            a.set(v.acted[c], v.acted[c] | performed)
            a.set(v.move[c], If(performed, 0, v.move[c] - If(v.rsv_move[c], 1, 0)))


# reviews F4, F5, F6 and F8: for each rule parameter, one mutant per setting, breaking the rule as that setting
# states it (each caught in the checked scenario with that setting)
_SETTING_MUTANTS: tuple[tuple[str, str, Callable[[Model], None]], ...] = (
    ("strikes_together_anyway", "review F4, setting strikes_together=false: the counter-strike is dealt with the "
     "strike, before the attacker's «при ударе» trigger", lambda m: _strike_order(m, together=True)),
    ("strikes_in_turn_anyway", "review F4, setting strikes_together=true: the counter-strike comes after the "
     "attacker's «при ударе» trigger", lambda m: _strike_order(m, together=False)),
    ("assault_defender_taps", "539.1.2 (review F5), setting assault_defence_free=true: the card with «Закрывается "
     "после нападения» taps as a defender", _waiver_setting(assault_defence_free=False)),
    ("assault_defender_free", "539.1.2 (review F5), setting assault_defence_free=false: the card with «Закрывается "
     "после нападения» does not tap as a defender", _waiver_setting(assault_defence_free=True)),
    ("no_tap_defender_free", "539.1.1 (review F8), setting no_tap_defence=false: «Не закрывается после атаки» "
     "waives a defender's tap too", _waiver_setting(no_tap_defence=True)),
    ("no_tap_defender_taps", "539.1.1 (review F8), setting no_tap_defence=true: a defender with «Не закрывается "
     "после атаки» taps", _waiver_setting(no_tap_defence=False)),
    ("defender_acts_anyway", "539.3 (review F6), setting defender_acts=false: a defender whose tap a feature "
     "waived counts as acted", lambda m: _defender_acted(m, acts=True)),
    ("defender_never_acts", "539.3 (review F6), setting defender_acts=true: a defender whose tap a feature waived "
     "does not count as acted", lambda m: _defender_acted(m, acts=False)),
)
for _name, _doc, _edit in _SETTING_MUTANTS:
    MUTANTS(_name, _doc)(_edit)
