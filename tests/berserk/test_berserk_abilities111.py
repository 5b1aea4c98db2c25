"""Berserk. Heroes section 111 (model/berserk/abilities111.py): features vs abilities,
effects granting/removing abilities, copying, and the Очередь (LIFO and FIFO).

The scenario of the notes (9) and the seed's examples are rulings (rulings/berserk/abilities111.yaml)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from ruleproof.engines.common import Options
from ruleproof.engines.runner import check_system
from ruleproof.ir import PropKind, System
from ruleproof.loader import discover, load_system
from ruleproof.results import Verdict

MODEL = Path(__file__).resolve().parents[2] / "model" / "berserk"
SPEC = next(s for s in discover(MODEL) if s.name == "abilities111")


def load(scenario: str, **over: Any) -> System:
    return load_system(SPEC, scenario, over)


@pytest.mark.parametrize("order", ["lifo", "fifo", "printed"])
def test_every_property_is_proved(order: str) -> None:
    results = check_system(load(order), "explicit", Options(depth=40))
    safety = [r for r in results if r.kind != PropKind.REACH.value]
    assert len(safety) == 21 and all(r.verdict is Verdict.PROVED for r in safety)  # 19 rules + deadlock, determinism
    reach = [r for r in results if r.kind == PropKind.REACH.value]
    assert reach and all(r.verdict is Verdict.PROVED and r.trace is not None for r in reach)


def test_symbolic_engines_prove_the_same_properties() -> None:
    results = check_system(load("fifo"), "kind", Options(depth=6, kmax=6, timeout=60))
    safety = [r for r in results if r.kind != PropKind.REACH.value]
    assert len(safety) == 21  # 19 rules + deadlock, determinism
    assert [(r.property, r.reason) for r in safety if r.verdict is not Verdict.PROVED] == []


MUTANT_CASES = [
    ("first_applied_wins", "lifo",
     "111.3: из эффектов, дающих и удаляющих способность, побеждает наложенный последним"),
    ("remove_one_instance", "fifo", "111.3: после удаления способности не остаётся ни одного её экземпляра"),
    ("copy_abilities", "lifo", "111.1: копирование даёт только напечатанные особенности"),
    ("apply_on_activation", "fifo",
     "111.2: эффект способности (activate_hero) применяется только после разрешения в Очереди"),
    ("static_via_queue", "lifo", "111.2: постоянная способность действует, пока её источник в игре"),
    ("mandatory_declinable", "fifo", "111.2: обязательная срабатывающая способность всегда попадает в Очередь"),
    ("copy_wrong_source", "printed", "111.1: копирование даёт только напечатанные особенности"),
]


@pytest.mark.parametrize("mutant,scenario,prop_name", MUTANT_CASES)
def test_mutant_is_caught(mutant: str, scenario: str, prop_name: str) -> None:
    from berserk_helpers import assert_mutant_caught

    assert_mutant_caught(load(scenario, mutant=mutant), prop_name, depth=10)


def test_every_mutant_has_a_case() -> None:
    from berserk_helpers import model_mutants

    assert model_mutants("abilities111.py") == {c[0] for c in MUTANT_CASES}


def test_a_removal_meets_a_printed_instance_in_some_checked_scenario() -> None:
    """Review F13: with no printed Рывок anywhere, the record of a removed printed instance was never exercised;
    scenario ``printed`` (Вайл prints Рывок) is checked, and its sanity target is reached."""
    assert "printed" in SPEC.checked
    system = load("printed")
    r = next(r for r in check_system(system, "explicit", Options(depth=40))
             if r.property == "sanity: Вайл потерял напечатанный Рывок")
    assert r.verdict is Verdict.PROVED and r.trace is not None
