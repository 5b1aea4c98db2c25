"""Classic Berserk action lifecycle and section 539 (model/berserk/actions.py).

Scenario tests drive the concrete evaluator step by step (the notes'
scenarios 1-7 and 10); property tests run the engines; every property has a
mutant that an engine catches with VIOLATED and a replayed trace.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from ruleproof.engines.common import Options
from ruleproof.engines.runner import check_property, check_system
from ruleproof.evaluator import Evaluator
from ruleproof.ir import PropKind, System
from ruleproof.loader import discover, load_system
from ruleproof.results import Verdict

MODEL = Path(__file__).resolve().parents[2] / "model" / "berserk"
SPEC = next(s for s in discover(MODEL) if s.name == "actions")


def load(scenario: str, **over: Any) -> System:
    return load_system(SPEC, scenario, over)


class Game:
    """A concrete run: pick an initial state, then apply actions by label."""

    def __init__(self, system: System, **init: Any) -> None:
        self.sys = system
        self.ev = Evaluator(system)
        want = {k.replace("__", "[").replace("_of_", ","): v for k, v in init.items()}
        states = [s for s in self.ev.initial_states() if all(self.ev.as_dict(s)[k] == v for k, v in want.items())]
        assert states, f"no initial state with {want}"
        self.state = states[0]
        self.labels = {a.label: i for i, a in enumerate(system.actions)}

    def can(self, label: str) -> bool:
        i = self.labels.get(label)
        return i is not None and self.ev.enabled(i, self.state)

    def do(self, label: str, **choices: Any) -> "Game":
        assert label in self.labels, f"no action {label}"
        nxt = self.ev.apply(self.labels[label], self.state, choices)
        assert nxt is not None, f"{label} is not enabled"
        self.state = nxt
        return self

    def __getitem__(self, name: str) -> Any:
        return self.ev.as_dict(self.state)[name]


def kele_attack(g: Game, heal: bool) -> Game:
    g.do("declare_attack(kele, foe)").do("perform").do("strike")
    g.do("trigger_attacker", **{"излечиться": heal})
    return g.do("counter")


# ---------------------------------------------------------------- scenarios 1-3: Келе attacks


def test_kele_healed_to_full_does_not_tap_even_if_wounded_again() -> None:
    g = kele_attack(Game(load("kele_attacks"), **{"wounds[kele]": 2}), heal=True)
    assert g["mod_att"] and g["wounds[kele]"] == 1  # the counter-strike wounded Келе again
    g.do("pay")
    assert not g["tapped[kele]"]
    assert g["acted[kele]"] and g["move[kele]"] == 0  # 539.3
    assert not g.can("declare_attack(kele, foe)") and not g.can("declare_move(kele)")


def test_kele_healed_partly_taps() -> None:
    g = kele_attack(Game(load("kele_attacks"), **{"wounds[kele]": 3}), heal=True)
    assert not g["mod_att"]
    g.do("pay")
    assert g["tapped[kele]"] and g["acted[kele]"]


def test_kele_declining_the_optional_heal_taps() -> None:
    g = kele_attack(Game(load("kele_attacks"), **{"wounds[kele]": 2}), heal=False)
    assert g["wounds[kele]"] == 3
    g.do("pay")
    assert g["tapped[kele]"]


def test_recheck_at_payment_mutant_would_tap_kele() -> None:
    g = kele_attack(Game(load("kele_attacks", mutant="recheck_at_payment"), **{"wounds[kele]": 2}), heal=True)
    g.do("pay")
    assert g["tapped[kele]"]  # the wrong reading: the modifier is re-checked after the new wound


# ---------------------------------------------------------------- scenario 4: defenders


def defend(g: Game, d: str) -> Game:
    g.do("declare_attack(foe, ally)").do(f"assign_defender({d})").do("perform").do("strike").do("counter")
    return g


def test_kele_as_defender_does_not_tap_after_full_heal() -> None:
    g = defend(Game(load("kele_defends"), **{"wounds[kele]": 0}), "kele")
    assert g["stage"] == "trig_d" and g["wounds[kele]"] == 1
    g.do("trigger_defender", **{"излечиться": True}).do("pay")
    assert not g["tapped[kele]"] and g["tapped[foe]"]


def test_defender_with_assault_modifier_taps() -> None:
    g = defend(Game(load("kele_defends"), **{"wounds[ward]": 0}), "ward")
    assert g["stage"] == "payment"  # «при нападении» does not trigger on a counter-strike
    g.do("pay")
    assert g["tapped[ward]"]


def test_assault_on_counter_mutant_lets_the_assault_modifier_fire() -> None:
    g = defend(Game(load("kele_defends", mutant="assault_on_counter"), **{"wounds[ward]": 0}), "ward")
    g.do("trigger_defender", **{"излечиться": True}).do("pay")
    assert not g["tapped[ward]"]


def test_taps_after_assault_card_does_not_tap_when_defending_but_taps_after_its_assault() -> None:
    g = Game(load("static"), **{"tapped[steady]": False})
    g.do("declare_attack(steady, plain)").do("assign_defender(sentry)").do("perform").do("strike").do("counter")
    g.do("pay")
    assert not g["tapped[sentry]"] and not g["tapped[steady]"]
    g.do("end_turn").do("declare_attack(sentry, steady)").do("perform").do("strike").do("counter").do("pay")
    assert g["tapped[sentry]"]


def test_plain_defender_taps() -> None:
    g = Game(load("static"), **{"tapped[steady]": False})
    g.do("declare_attack(steady, sentry)").do("assign_defender(plain)").do("perform").do("strike").do("counter")
    g.do("pay")
    assert g["tapped[plain]"]


# ---------------------------------------------------------------- scenario 5: a tapped card


def test_tapped_card_cannot_declare_even_with_no_tap_feature() -> None:
    g = Game(load("static"), **{"tapped[steady]": True})
    assert not g.can("declare_attack(steady, sentry)") and not g.can("declare_attack(steady, plain)")
    open_g = Game(load("static"), **{"tapped[steady]": False})
    open_g.do("declare_attack(steady, plain)").do("perform").do("strike").do("counter").do("pay")
    assert not open_g["tapped[steady]"] and open_g["acted[steady]"]
    assert not open_g.can("declare_attack(steady, plain)")  # acted: no second attack (539.3)


def test_skip_reservation_mutant_lets_a_tapped_card_declare() -> None:
    g = Game(load("static", mutant="skip_reservation_check"), **{"tapped[steady]": True})
    assert g.can("declare_attack(steady, plain)")


# ---------------------------------------------------------------- scenario 6: "2 раза за ход"


def raider_attack(g: Game) -> Game:
    return g.do("declare_attack(raider, foe)").do("perform").do("strike").do("counter").do("pay")


@pytest.mark.parametrize("scenario,last_taps", [("twice", True), ("twice_no_last_tap", False)])
def test_two_attacks_per_turn(scenario: str, last_taps: bool) -> None:
    g = raider_attack(Game(load(scenario)))
    assert not g["tapped[raider]"] and g["acted[raider]"] and g["move[raider]"] == 0
    assert not g.can("declare_move(raider)")  # other action types are barred
    assert g.can("declare_attack(raider, foe)")
    raider_attack(g)
    assert g["uses[raider]"] == 2 and g["tapped[raider]"] is last_taps
    assert not g.can("declare_attack(raider, foe)")  # the third is refused
    g.do("end_turn").do("end_turn")
    assert g["uses[raider]"] == 0 and g.can("declare_attack(raider, foe)")  # the count resets [I]


# ---------------------------------------------------------------- scenarios 7 and 10


@pytest.mark.parametrize("scenario,acted", [("finish", False), ("finish_interrupted_acts", True)])
def test_interrupted_action_is_not_paid(scenario: str, acted: bool) -> None:
    g = Game(load(scenario))
    g.do("declare_ability(finisher, foe)")
    assert g["rsv_tap[finisher]"]
    g.do("respond_heal(foe)")
    assert not g.can("perform") and g.can("interrupt")
    g.do("interrupt")
    assert not g["tapped[finisher]"] and g["stage"] == "idle"
    assert g["acted[finisher]"] is acted  # the unresolved rule, as a parameter


def test_blocked_ability_is_still_paid() -> None:
    g = Game(load("finish"))
    g.do("declare_ability(finisher, foe)").do("respond_block").do("perform")
    assert g["wounds[foe]"] == 1  # a blocked ability applies no effect
    g.do("pay")
    assert g["tapped[finisher]"] and g["acted[finisher]"]


def test_unblocked_finishing_blow_destroys_and_taps() -> None:
    g = Game(load("finish"))
    g.do("declare_ability(finisher, foe)").do("perform").do("pay")
    assert g["wounds[foe]"] == 3 and g["tapped[finisher]"]


# ---------------------------------------------------------------- properties: proofs


@pytest.mark.parametrize("scenario", ["kele_attacks", "kele_defends", "static", "twice_no_last_tap", "finish_interrupted_acts"])
def test_every_property_is_proved(scenario: str) -> None:
    system = load(scenario)
    results = check_system(system, "kind", Options(depth=6, kmax=8, timeout=60))
    open_ = [(r.property, r.verdict, r.reason) for r in results if r.kind != PropKind.REACH.value and r.verdict is not Verdict.PROVED]
    assert not open_
    assert len([r for r in results if r.kind != PropKind.REACH.value]) == 22  # 18 rules + the range check + deadlock, determinism, 539.2 cannot-vs-must


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
    ("ignore_modifier", "kele_attacks", "539.2: этап оплаты расходует ровно положенные ресурсы с учётом особенностей 539"),
    ("skip_reservation_check", "static", "539.2: нападение заявляется только открытой картой, и ресурсы резервируются"),
    ("no_reserve_when_waived", "static", "539.2: нападение заявляется только открытой картой, и ресурсы резервируются"),
    ("acted_may_declare", "kele_attacks", "539.3: подействовавшая карта не заявляет другого нападения, кроме разрешённого особенностью"),
    ("acted_keeps_movement", "kele_attacks", "539.3: подействовавшая карта теряет все очки движения"),
    ("no_limit", "twice_no_last_tap", "539.1.3: «X раз за ход» никогда не превышается"),
    ("assault_on_counter", "kele_defends", "539.4.1: модификатор «при нападении» никогда не применяется к ответному удару"),
    ("assault_on_counter", "kele_defends", "539.4.1: модификатор «при нападении» не освобождает защитника от закрытия"),
    ("recheck_at_payment", "kele_attacks", "539.4: модификатор, наложенный срабатыванием, действует даже если карта снова ранена"),
    ("pay_interrupted", "finish", "526.1: прерванное действие ничего не оплачивает"),
    ("blocked_unpaid", "finish", "Блокирование (RP 3.1-1): заблокированная способность всё равно оплачивается"),
]


@pytest.mark.parametrize("mutant,scenario,prop_name", MUTANT_CASES)
def test_mutant_is_caught(mutant: str, scenario: str, prop_name: str) -> None:
    from berserk_helpers import assert_mutant_caught

    assert_mutant_caught(load(scenario, mutant=mutant), prop_name, depth=16)


def test_every_mutant_has_a_case() -> None:
    from berserk_helpers import model_mutants

    assert model_mutants("actions.py") == {c[0] for c in MUTANT_CASES}


def test_unknown_roster_is_an_input_error() -> None:
    from ruleproof.errors import InputError

    with pytest.raises(InputError, match="unknown roster"):
        load("kele_attacks", roster="nope")
