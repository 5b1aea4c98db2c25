"""Deliberately broken rules of ``model/berserk/actions.py``, each an edit of the built model.

No edit restates a rule of the model: a break of a rule parameter's setting takes the bodies the model's own
rules have under the other setting (:func:`_as_setting`); a break of a waiver clause evaluates the model's own
waiver (its module-level ``waiver``) with one input read differently (:class:`_Reading`), and the payment stage
taps what that gives (:func:`_pay_tap`).  ``tests/berserk/test_berserk_actions.py`` shows the property that
catches each.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable

from ruleproof.dsl import And, If, Model, Or, Step, Term
from ruleproof.loader import import_file
from ruleproof.rule_mutants import RuleMutants

MUTANTS = RuleMutants()

_MODEL = Path(__file__).resolve().parents[2] / "model" / "berserk" / "actions.py"


def _alive(m: Model, c: Term) -> Term:
    return m.v.wounds[c] < m.v.lives[c]


def _settings(m: Model) -> dict[str, Any]:
    """The rule parameters of the built model (its scenario's settings)."""
    return {k: val for k, val in m.params.items() if k != "mutant"}


def _rules() -> Any:
    """The model module itself: its own rules, reused by the edits below."""
    return import_file(_MODEL)


def _waiver(m: Model, c: Term, v: Any = None) -> Term:
    """The model's own waiver of ``c``'s reserved tap (539.1-539.4.1), reading ``v`` (default: the model's
    variables) under the scenario's settings."""
    p = _settings(m)
    return _rules().waiver(m.v if v is None else v, c, last_use_taps=bool(p["last_use_taps"]),
                           assault_defence_free=bool(p["assault_defence_free"]),
                           no_tap_defence=bool(p["no_tap_defence"]))


class _Reading:
    """The model's variables and static data, with the named ones read as other terms (the broken reading)."""

    def __init__(self, v: Any, **instead: Any) -> None:
        self._v, self._instead = v, instead

    def __getattr__(self, name: str) -> Any:
        return self._instead[name] if name in self._instead else getattr(self._v, name)


def _as_setting(families: tuple[str, ...], **setting: bool) -> Callable[[Model], None]:
    """The edit that gives ``families`` the bodies the model's own rules have under ``setting`` (the other
    reading of a rule parameter): no copy of a rule, so the mutant cannot drift from the model."""

    def edit(m: Model) -> None:
        other = _rules().build(**{**_settings(m), **setting})
        for family in families:
            m.redefine(family)(other._decls[family].body)

    return edit


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


class _FeatureAs:
    """The features read with ``old`` taken for ``new`` (a broken reading of a feature's text)."""

    def __init__(self, m: Model, old: str, new: str) -> None:
        self._feat, self._old, self._new = m.v.feat, old, m.sorts.Feature[new]

    def __getitem__(self, c: Term) -> Term:
        return If(self._feat[c] == self._old, self._new, self._feat[c])


@MUTANTS("assault_on_counter", "539.4.1: a «при нападении» trigger also fires on a defender's counter-strike")
def _assault_on_counter(m: Model) -> None:
    v, Stage = m.v, m.sorts.Stage
    victim = If(v.has_def, v.defender, v.target)

    @m.amend("counter")
    def _(a: Step) -> None:
        a.set(v.stage, Stage.trig_d, when=(v.feat[victim] == "heal_assault") & _alive(m, victim))

    _pay_tap(m, lambda c: v.rsv_tap[c] & ~_waiver(m, c, _Reading(v, feat=_FeatureAs(m, "heal_assault", "heal_strike"))))


@MUTANTS("recheck_at_payment", "539.4: the Келе waiver is re-checked at payment (no wounds then) instead of locked in")
def _recheck_at_payment(m: Model) -> None:
    v = m.v
    _pay_tap(m, lambda c: v.rsv_tap[c] & ~_waiver(m, c, _Reading(v, mod_att=v.wounds[c] == 0,
                                                                 mod_def=v.wounds[c] == 0)))


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
    _pay_tap(m, lambda c: v.rsv_tap[c] & ~_waiver(m, c) & ~v.blocked)


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


MUTANTS("last_attack_free", "539.1.3: the X-th attack of «X раз за ход» does not tap, even where it should "
        "(the payment stage of the setting last_use_taps=false)")(_as_setting(("pay",), last_use_taps=False))


@MUTANTS("healed_defender_taps", "539.4.1: a «при ударе» defender healed to no wounds taps all the same")
def _healed_defender_taps(m: Model) -> None:
    v = m.v
    _pay_tap(m, lambda c: v.rsv_tap[c] & ~_waiver(m, c, _Reading(v, mod_def=Or(False))))


# review F9: the strike and the counter-strike of the other setting of closed_counterstrikes
MUTANTS("closed_no_counterstrike", "review F9, setting closed_counterstrikes=true: a closed attacked creature "
        "deals no counter-strike")(_as_setting(("strike", "counter"), closed_counterstrikes=False))
MUTANTS("closed_counterstrikes_anyway", "review F9, setting closed_counterstrikes=false: a closed attacked creature "
        "strikes back all the same")(_as_setting(("strike", "counter"), closed_counterstrikes=True))


@MUTANTS("counter_trigger_defender_only", "539.4.1 (review F7): «при ударе» fires on a counter-strike only when the "
         "attacked card is a defender, not when it is the target")
def _counter_trigger_defender_only(m: Model) -> None:
    v, Stage = m.v, m.sorts.Stage

    @m.amend("counter")
    def _(a: Step) -> None:
        a.set(v.stage, Stage.payment, when=~v.has_def)  # an attacked target's trigger does not fire


@MUTANTS("any_times_taps", "539.1.3 (review F11): «Может атаковать любое количество раз за ход» does not spare the "
         "attack's tap (the feature read as none at payment)")
def _any_times_taps(m: Model) -> None:
    v = m.v
    _pay_tap(m, lambda c: v.rsv_tap[c] & ~_waiver(m, c, _Reading(v, feat=_FeatureAs(m, "any_per_turn", "none"))))


@MUTANTS("exception_ignored", "539.3 (review F11): a card whose feature says it is not подействовавшая counts as "
         "acted after its attack all the same (loses its movement, declares nothing else)")
def _exception_ignored(m: Model) -> None:
    v = m.v

    @m.amend("pay")
    def _(a: Step) -> None:
        for c in m.sorts.Card:
            performed = (v.actor == c) & (v.kind != "move")
            a.set(v.acted[c], True, when=performed)
            a.set(v.move[c], 0, when=performed)


# reviews F4, F5, F6 and F8: for each rule parameter, one mutant per setting, breaking the rule as that setting
# states it (each caught in the checked scenario with that setting)
_SETTING_MUTANTS: tuple[tuple[str, str, Callable[[Model], None]], ...] = (
    ("strikes_together_anyway", "review F4, setting strikes_together=false: the counter-strike is dealt with the "
     "strike, before the attacker's «при ударе» trigger", _as_setting(("strike", "counter"), strikes_together=True)),
    ("strikes_in_turn_anyway", "review F4, setting strikes_together=true: the counter-strike comes after the "
     "attacker's «при ударе» trigger", _as_setting(("strike", "counter"), strikes_together=False)),
    ("assault_defender_taps", "539.1.2 (review F5), setting assault_defence_free=true: the card with «Закрывается "
     "после нападения» taps as a defender", _as_setting(("pay",), assault_defence_free=False)),
    ("assault_defender_free", "539.1.2 (review F5), setting assault_defence_free=false: the card with «Закрывается "
     "после нападения» does not tap as a defender", _as_setting(("pay",), assault_defence_free=True)),
    ("no_tap_defender_free", "539.1.1 (review F8), setting no_tap_defence=false: «Не закрывается после атаки» "
     "waives a defender's tap too", _as_setting(("pay",), no_tap_defence=True)),
    ("no_tap_defender_taps", "539.1.1 (review F8), setting no_tap_defence=true: a defender with «Не закрывается "
     "после атаки» taps", _as_setting(("pay",), no_tap_defence=False)),
    ("defender_acts_anyway", "539.3 (review F6), setting defender_acts=false: a defender whose tap a feature "
     "waived counts as acted", _as_setting(("pay",), defender_acts=True)),
    ("defender_never_acts", "539.3 (review F6), setting defender_acts=true: a defender whose tap a feature waived "
     "does not count as acted", _as_setting(("pay",), defender_acts=False)),
)
for _name, _doc, _edit in _SETTING_MUTANTS:
    MUTANTS(_name, _doc)(_edit)
