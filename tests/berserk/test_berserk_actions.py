"""Classic Berserk action lifecycle and section 539 (model/berserk/actions.py).

Property tests run the engines; every property has a mutant that an engine
catches with VIOLATED and a replayed trace.  The notes' scenarios 1-7 and 10
are rulings (rulings/berserk/actions.yaml, run by tests/rulings/).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from ruleproof.cli_support import DEFAULT_RLIMIT
from ruleproof.engines.common import Options
from ruleproof.engines.runner import check_property, check_system
from ruleproof.ir import PropKind, System
from ruleproof.loader import discover, load_system
from ruleproof.results import Verdict

MODEL = Path(__file__).resolve().parents[2] / "model" / "berserk"
SPEC = next(s for s in discover(MODEL) if s.name == "actions")


def load(scenario: str, **over: Any) -> System:
    return load_system(SPEC, scenario, over)


# ---------------------------------------------------------------- properties: proofs


@pytest.mark.parametrize("scenario",
                         ["kele_attacks", "kele_attacks_together", "kele_defends", "static", "static_closed_no_counter",
                          "twice_no_last_tap", "finish_interrupted_acts", "defence", "defence_alt", "any_times"])
def test_every_property_is_proved(scenario: str) -> None:
    system = load(scenario)
    results = check_system(system, "kind", Options(depth=6, kmax=8, rlimit=DEFAULT_RLIMIT, timeout=600))
    open_ = [(r.property, r.verdict, r.reason) for r in results
             if r.kind != PropKind.REACH.value and r.verdict is not Verdict.PROVED]
    assert not open_
    # 47 rules (static: 48, with the response that taps the acting card; kele_*: 49, with the response to the
    # declared heal and its block) + the range check + deadlock, determinism, 539.2 cannot-vs-must
    expected = {"static": 52, "static_closed_no_counter": 52, "kele_attacks": 53, "kele_attacks_together": 53,
                "kele_defends": 53}.get(scenario, 51)
    assert len([r for r in results if r.kind != PropKind.REACH.value]) == expected


@pytest.mark.parametrize(
    "scenario,target",
    [
        ("kele_attacks", "sanity: Келе подействовала, не закрылась и снова ранена"),
        ("kele_defends", "sanity: Келе-защитник избавлена от закрытия"),
        ("twice", "sanity: карта с «2 раза за ход» атаковала дважды"),
    ],
)
def test_sanity_targets_are_reached(scenario: str, target: str) -> None:
    system = load(scenario)
    prop = next(p for p in system.properties if p.name == target)
    r = check_property(system, prop, "bmc", Options(depth=12))
    assert r.verdict is Verdict.PROVED and r.trace is not None


# ---------------------------------------------------------------- mutants


MUTANT_CASES = [
    ("ignore_modifier", "kele_attacks", "539.4: Келе не закрывается после атаки, если излечение оставило её без ран"),
    ("ignore_modifier", "static",
     "539.1.1: «Не закрывается после атаки»: атаковавшая карта не закрывается; защитник закрывается"),
    ("last_attack_free", "twice",
     "539.1.3: «Может атаковать X раз за ход»: закрывается только X-я атака (если last_use_taps)"),
    ("healed_defender_taps", "kele_defends",
     "539.4.1: защитник «при ударе» не закрывается после излечения без ран; «при нападении» закрывается"),
    ("healed_defender_taps", "kele_defends", "'cannot' prevails over 'must': tapped by the payment stage"),
    ("acted_keeps_movement", "kele_attacks",
     "539.2: этап оплаты оплачивает только зарезервированное: движение, использование «за ход»"),
    ("counter_trigger_defender_only", "kele_defends",
     "539.4.1: «при ударе» атакованной карты срабатывает на её ответный удар, защитник она или цель"),
    ("closed_no_counterstrike", "static",
     "ответный удар: жертва, оставшаяся в игре, наносит нападающему раны, равные своей силе"),
    ("closed_counterstrikes_anyway", "static_closed_no_counter",
     "ответный удар: жертва, оставшаяся в игре, наносит нападающему раны, равные своей силе, если она не закрыта"),
    ("skip_reservation_check", "static", "539.2: нападение заявляется только открытой картой, и ресурсы резервируются"),
    ("no_reserve_when_waived", "static", "539.2: нападение заявляется только открытой картой, и ресурсы резервируются"),
    ("acted_may_declare", "kele_attacks",
     "539.3: подействовавшая карта не заявляет другого нападения, кроме разрешённого особенностью"),
    ("acted_keeps_movement", "kele_attacks", "539.3: подействовавшая карта теряет все очки движения"),
    ("no_limit", "twice_no_last_tap", "539.1.3: «X раз за ход» никогда не превышается"),
    ("assault_on_counter", "kele_defends",
     "539.4.1: модификатор «при нападении» никогда не применяется к ответному удару"),
    ("assault_on_counter", "kele_defends", "539.4.1: модификатор «при нападении» не освобождает защитника от закрытия"),
    ("recheck_at_payment", "kele_attacks",
     "539.4: модификатор, наложенный срабатыванием, действует даже если карта снова ранена"),
    ("pay_interrupted", "finish", "526.1: прерванное действие ничего не оплачивает"),
    ("blocked_unpaid", "finish", "Блокирование (RP 3.1-1): заблокированная способность всё равно оплачивается"),
    ("reservation_unchecked", "static", "526.1: выполняется только легальное заявленное действие"),
    ("condition_at_declaration", "kele_attacks",
     "539.4: Келе излечивается на 2 при разрешении; модификатор — только если после этого нет ран"),
    # reviews F4, F5, F6, F8: one rule mutant per setting of each parameter, caught in the scenario with that setting
    ("strikes_together_anyway", "kele_attacks",
     "удар: жертва (защитник, иначе цель) получает раны, равные силе нападающего; ответный удар — позже"),
    ("strikes_in_turn_anyway", "kele_attacks_together",
     "удар: жертва (защитник, иначе цель) получает раны, равные силе нападающего; ответный удар наносится "
     "одновременно"),
    ("assault_defender_taps", "defence",
     "539.1.2: «Закрывается после нападения»: карта закрывается после своего нападения, не после защиты"),
    ("assault_defender_free", "defence_alt",
     "539.1.2: «Закрывается после нападения»: карта закрывается после своего нападения, и после защиты, как любая "
     "карта"),
    ("no_tap_defender_free", "defence",
     "539.1.1: «Не закрывается после атаки»: атаковавшая карта не закрывается; защитник закрывается"),
    ("no_tap_defender_taps", "defence_alt",
     "539.1.1: «Не закрывается после атаки»: атаковавшая карта не закрывается; защитник тоже не закрывается (его "
     "ответный удар — атака)"),
    ("defender_acts_anyway", "defence",
     "539.3: после этапа оплаты подействовавшей считается карта, выполнившая нападение или способность; защитник — "
     "нет"),
    # review F11: «любое количество раз за ход» and 539.3's exception
    ("any_times_taps", "any_times",
     "539.1.3: «Может атаковать любое количество раз за ход»: атака не закрывает карту; защитник закрывается"),
    ("exception_ignored", "any_times",
     "539.3: после этапа оплаты подействовавшей считается карта, выполнившая нападение или способность; защитник — "
     "нет"),
    ("defender_never_acts", "defence_alt",
     "539.3: после этапа оплаты подействовавшей считается карта, выполнившая нападение или способность, и защитник, "
     "чьё закрытие отменила особенность"),
]


@pytest.mark.parametrize("mutant,scenario,prop_name", MUTANT_CASES)
def test_mutant_is_caught(mutant: str, scenario: str, prop_name: str) -> None:
    from berserk_helpers import assert_mutant_caught

    assert_mutant_caught(load(scenario, mutant=mutant), prop_name, depth=16)


def test_every_mutant_has_a_case() -> None:
    from berserk_helpers import model_mutants

    assert model_mutants("actions.py") == {c[0] for c in MUTANT_CASES}


def test_reservation_has_a_behavioural_meaning() -> None:
    """Review F1/W2: 539.2 checks the reserved resources for legality while the action is pending.  A
    feature's waived tap that is not reserved (mutant) lets an attacker tapped in response still attack:
    the legality property, stated on the resources the action needs (not on the reservation flags), notices."""
    from berserk_helpers import assert_mutant_caught

    assert_mutant_caught(load("static", mutant="no_reserve_when_waived"),
                         "526.1: выполняется только легальное заявленное действие", depth=8)
    system = load("static")
    target = "sanity: ответ закрыл нападающую карту, и нападение будет прервано"
    r = check_property(system, system.prop(target), "bmc", Options(depth=8))
    assert r.verdict is Verdict.PROVED and r.trace is not None


def test_unknown_roster_is_an_input_error() -> None:
    from ruleproof.errors import InputError

    with pytest.raises(InputError, match="unknown roster"):
        load("kele_attacks", roster="nope")


@pytest.mark.parametrize("scenario,families", [
    ("kele_attacks_together", {"strike", "trigger_attacker", "resolve_heal_a", "counter", "pay"}),
    ("defence", {"assign_defender", "strike", "counter", "pay", "end_turn"}),
    ("defence_alt", {"assign_defender", "strike", "counter", "pay", "end_turn"}),
])
def test_the_parameter_scenarios_reach_their_actions(scenario: str, families: set[str]) -> None:
    """Reviews F4-F8: the behaviour each new parameter decides happens in the scenario that checks it (no property
    over it holds vacuously)."""
    rs = check_system(load(scenario), "kind", Options(depth=8, kmax=8, timeout=60), coverage_depth=8)
    cov = rs[0].coverage
    assert cov is not None and families <= set(cov.fired), (families - set(cov.fired), cov.never, cov.unknown)


@pytest.mark.parametrize("scenario,target", [
    ("kele_attacks_together", "sanity: Келе получила ответный удар до излечения: излечилась, но с раной, и закрылась"),
    ("defence", "sanity: Часовой защищает и доходит до этапа оплаты"),
    ("defence", "sanity: Стойкий защищает и доходит до этапа оплаты"),
    ("defence_alt", "sanity: защитник подействовал в чужой ход (его закрытие отменено особенностью)"),
])
def test_the_parameter_sanity_targets_are_reached(scenario: str, target: str) -> None:
    system = load(scenario)
    r = check_property(system, system.prop(target), "bmc", Options(depth=14))
    assert r.verdict is Verdict.PROVED and r.trace is not None


def test_any_number_of_attacks_and_the_539_3_exception_are_checked() -> None:
    """Review F11: 3e7e81c's model had no «любое количество раз за ход» (539.1.3), capped «X раз» at 3, and could
    not state 539.3's «(если иного не указано в тексте особенности)».  The checked scenario ``any_times`` has both:
    a card that attacks again after three attacks (its tap never paid), and one whose feature says it is not
    подействовавшая; its sanity targets are reached."""
    assert "any_times" in SPEC.checked
    system = load("any_times")
    for target in ("sanity: подействовавший Берсерк («любое количество раз») заявляет ещё одно нападение",
                   "sanity: атака Неутомимого доходит до этапа оплаты, открытой картой"):
        r = check_property(system, system.prop(target), "explicit", Options(depth=40))
        assert r.verdict is Verdict.PROVED and r.trace is not None, (target, r.reason)


def test_a_response_wounding_a_destroyed_healer_is_caught() -> None:
    """With the strikes dealt together, Келе can be destroyed by the counter-strike and still have her «при ударе»
    heal declared; the response that wounds the healer then has no creature in play to wound.  The generated mutant
    that drops that requirement (the only survivor of the actions row at 046af79) breaks the respond_wound property."""
    from ruleproof.mutants import mutants_of

    name = "539.4: ответ на излечение: противник наносит излечивающейся карте 1 рану, один раз за действие"
    rules = load("kele_attacks_together")
    (m,) = [m for m in mutants_of(rules) if m.kind == "drop-guard" and m.family == "respond_wound"
            and m.detail.endswith("< (if ((if (stage == heal_a) then actor else (if has_def then defender else "
                                  "target)) == kele) then 5 else 4))")]
    r = check_property(m.system, m.system.prop(name), "explicit", Options(depth=60))
    assert r.verdict is Verdict.VIOLATED and r.trace is not None
    before = dict(zip(r.trace.var_names, r.trace.states[-2], strict=True))
    assert r.trace.steps[-1].family == "respond_wound" and before["wounds[kele]"] == 5, (before, r.trace.steps[-1])
    assert check_property(rules, rules.prop(name), "explicit", Options(depth=60)).verdict is Verdict.PROVED
