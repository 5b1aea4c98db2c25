"""Berserk. Heroes section 111 (model/berserk/abilities111.py): features vs abilities,
effects granting/removing abilities, copying, and the Очередь (LIFO and FIFO)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from ruleproof.engines.common import Options
from ruleproof.engines.runner import check_system
from ruleproof.evaluator import Evaluator
from ruleproof.ir import PropKind, System
from ruleproof.loader import discover, load_system
from ruleproof.results import Verdict

MODEL = Path(__file__).resolve().parents[2] / "model" / "berserk"
SPEC = next(s for s in discover(MODEL) if s.name == "abilities111")
RYVOK = "[vail,ryvok]"


def load(scenario: str, **over: Any) -> System:
    return load_system(SPEC, scenario, over)


class Run:
    """A concrete run from the single initial state, applying actions by label."""

    def __init__(self, system: System) -> None:
        self.ev = Evaluator(system)
        (self.state,) = list(self.ev.initial_states())
        self.labels = {a.label: i for i, a in enumerate(system.actions)}

    def can(self, label: str, **choices: Any) -> bool:
        return self.ev.apply(self.labels[label], self.state, choices) is not None

    def do(self, label: str, **choices: Any) -> "Run":
        nxt = self.ev.apply(self.labels[label], self.state, choices)
        assert nxt is not None, f"{label} is not enabled"
        self.state = nxt
        return self

    def __getitem__(self, name: str) -> Any:
        return self.ev.as_dict(self.state)[name]

    def has_ryvok(self) -> bool:
        return not self["lost" + RYVOK] and self["grants" + RYVOK] >= 1


@pytest.mark.parametrize("order", ["lifo", "fifo"])
def test_removal_removes_both_instances_and_a_later_grant_wins(order: str) -> None:
    r = Run(load(order))
    r.do("activate_hero")
    assert r["grants" + RYVOK] == 0 and r["qlen"] == 1  # the effect waits in the Очередь
    r.do("resolve").do("start_turn").do("resolve")
    assert r["grants" + RYVOK] == 2  # Рывок from the hero and from a second effect
    r.do("activate_caster").do("resolve")
    assert r["grants" + RYVOK] == 0 and not r.has_ryvok()  # both instances are gone
    r.do("start_turn").do("resolve")
    assert r.has_ryvok() and r["last" + RYVOK] == "grant"  # the last applied effect wins


@pytest.mark.parametrize("order,has_after", [("lifo", True), ("fifo", False)])
def test_queue_order_decides_which_effect_is_applied_last(order: str, has_after: bool) -> None:
    r = Run(load(order))
    r.do("activate_hero").do("activate_caster")  # the removal is activated in response
    r.do("resolve").do("resolve")
    assert r["qlen"] == 0
    assert r.has_ryvok() is has_after
    assert r["last" + RYVOK] == ("grant" if has_after else "remove")


def test_talos_copies_printed_features_not_granted_abilities() -> None:
    r = Run(load("lifo"))
    r.do("activate_hero").do("resolve")
    assert r.has_ryvok()
    r.do("play_talos", **{"копировать": "vail"}).do("resolve")
    assert not any(r[f"copied[{ab}]"] for ab in ("ryvok", "opyt", "napr"))  # Вайл has no such feature
    r2 = Run(load("lifo")).do("play_talos", **{"копировать": "berserk"}).do("resolve")
    assert r2["copied[napr]"] and not r2["copied[ryvok]"]


def test_copy_abilities_mutant_copies_the_granted_ryvok() -> None:
    r = Run(load("lifo", mutant="copy_abilities"))
    r.do("activate_hero").do("resolve").do("play_talos", **{"копировать": "vail"}).do("resolve")
    assert r["copied[ryvok]"]


def test_optional_trigger_may_be_declined() -> None:
    r = Run(load("fifo")).do("play_talos", **{"копировать": "decline"})
    assert r["talos_in_play"] and r["qlen"] == 0


def test_static_ability_applies_at_once_and_vanishes_with_its_source() -> None:
    r = Run(load("lifo")).do("banner_enters")
    assert r["static_opyt"] and r["qlen"] == 0
    r.do("banner_leaves")
    assert not r["static_opyt"]


def test_activated_ability_needs_its_cost() -> None:
    r = Run(load("lifo")).do("activate_hero")
    assert r["hero_tapped"] and not r.can("activate_hero")


@pytest.mark.parametrize("order", ["lifo", "fifo"])
def test_every_property_is_proved(order: str) -> None:
    results = check_system(load(order), "explicit", Options(depth=40))
    safety = [r for r in results if r.kind != PropKind.REACH.value]
    assert len(safety) == 14 and all(r.verdict is Verdict.PROVED for r in safety)  # 12 rules + deadlock, determinism
    reach = [r for r in results if r.kind == PropKind.REACH.value]
    assert reach and all(r.verdict is Verdict.PROVED and r.trace is not None for r in reach)


def test_symbolic_engines_prove_the_same_properties() -> None:
    results = check_system(load("fifo"), "kind", Options(depth=6, kmax=6, timeout=60))
    safety = [r for r in results if r.kind != PropKind.REACH.value]
    assert len(safety) == 14  # 12 rules + deadlock, determinism
    assert [(r.property, r.reason) for r in safety if r.verdict is not Verdict.PROVED] == []


MUTANT_CASES = [
    ("first_applied_wins", "lifo", "111.3: из эффектов, дающих и удаляющих способность, побеждает наложенный последним"),
    ("remove_one_instance", "fifo", "111.3: после удаления способности не остаётся ни одного её экземпляра"),
    ("copy_abilities", "lifo", "111.1: копирование даёт только напечатанные особенности"),
    ("apply_on_activation", "fifo", "111.2: эффект способности (activate_hero) применяется только после разрешения в Очереди"),
    ("static_via_queue", "lifo", "111.2: постоянная способность действует, пока её источник в игре"),
    ("mandatory_declinable", "fifo", "111.2: обязательная срабатывающая способность всегда попадает в Очередь"),
]


@pytest.mark.parametrize("mutant,scenario,prop_name", MUTANT_CASES)
def test_mutant_is_caught(mutant: str, scenario: str, prop_name: str) -> None:
    from berserk_helpers import assert_mutant_caught

    assert_mutant_caught(load(scenario, mutant=mutant), prop_name, depth=10)


def test_every_mutant_has_a_case() -> None:
    from berserk_helpers import model_mutants

    assert model_mutants("abilities111.py") == {c[0] for c in MUTANT_CASES}
