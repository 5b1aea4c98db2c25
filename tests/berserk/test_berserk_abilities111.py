"""Berserk. Heroes section 111 (model/berserk/abilities111.py): features vs abilities,
effects granting/removing abilities, copying, and the Очередь (LIFO and FIFO).

The scenario of the notes (9) and the seed's examples are rulings (rulings/berserk/abilities111.yaml)."""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

import pytest

from ruleproof.cli_support import DEFAULT_RLIMIT
from ruleproof.engines.common import Options
from ruleproof.engines.runner import check_system
from ruleproof.ir import PropKind, System
from ruleproof.loader import discover, load_system
from ruleproof.results import Result, Verdict

MODEL = Path(__file__).resolve().parents[2] / "model" / "berserk"
SPEC = next(s for s in discover(MODEL) if s.name == "abilities111")


def load(scenario: str, **over: Any) -> System:
    return load_system(SPEC, scenario, over)


@cache
def explicit(scenario: str) -> tuple[Result, ...]:
    """The exhaustive check of a scenario (explicit engine, depth 40), run once in this module: several tests read
    the same results (the statics scenario's takes some 25 s of CPU)."""
    return tuple(check_system(load(scenario), "explicit", Options(depth=40)))


@pytest.mark.parametrize("order", ["lifo", "fifo", "printed", "statics"])
def test_every_property_is_proved(order: str) -> None:
    results = explicit(order)
    safety = [r for r in results if r.kind != PropKind.REACH.value]
    # 22 rules (statics: 25, with a removal against the static grant, the static ability removed, the hero
    # leaving play) + deadlock, determinism
    assert len(safety) == (27 if order == "statics" else 24)
    assert all(r.verdict is Verdict.PROVED for r in safety)
    reach = [r for r in results if r.kind == PropKind.REACH.value]
    assert reach and all(r.verdict is Verdict.PROVED and r.trace is not None for r in reach)


def test_symbolic_engines_prove_the_same_properties() -> None:
    results = check_system(load("fifo"), "kind", Options(depth=6, kmax=6, rlimit=DEFAULT_RLIMIT, timeout=600))
    safety = [r for r in results if r.kind != PropKind.REACH.value]
    assert len(safety) == 24  # 22 rules + deadlock, determinism
    assert [(r.property, r.reason) for r in safety if r.verdict is not Verdict.PROVED] == []


# the static grant of Знамя tied to the game state (its record static_opyt is written only by the model)
TIE = "111.2: эффект постоянной способности Знамени действует ровно пока Знамя в игре со своей способностью"

MUTANT_CASES = [
    ("first_applied_wins", "lifo",
     "111.3: из эффектов, дающих и удаляющих способность, побеждает наложенный последним"),
    ("remove_one_instance", "fifo", "111.3: после удаления способности не остаётся ни одного её экземпляра"),
    ("copy_abilities", "lifo", "111.1: копирование даёт только напечатанные особенности"),
    ("apply_on_activation", "fifo",
     "111.2: эффект способности (activate_hero) применяется только после разрешения в Очереди"),
    # the static grant stated on the game state (Знамя in play with its ability), tied to the model's record of it
    ("static_via_queue", "lifo", TIE),
    ("mandatory_declinable", "fifo", "111.2: обязательная срабатывающая способность всегда попадает в Очередь"),
    ("copy_wrong_source", "printed", "111.1: копирование даёт только напечатанные особенности"),
    # review F13: a removal against the static grant, the static ability removed, an effect outliving its source
    ("static_beats_removal", "statics",
     "111.3: удаление, наложенное после постоянного наделения, побеждает: Вайл теряет Опыт, Знамя в игре"),
    ("static_survives_silence", "statics", TIE),
    ("static_not_reapplied", "statics",
     "111.2: постоянная способность применяется сразу, как её источник появляется (Знамя: Вайл имеет Опыт)"),
    ("effect_leaves_with_source", "statics",
     "111.3: эффект принадлежит карте, к которой применён: он остаётся, когда его источник покидает игру"),
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
    r = next(r for r in explicit("printed")
             if r.property == "sanity: Вайл потерял напечатанный Рывок")
    assert r.verdict is Verdict.PROVED and r.trace is not None


@pytest.mark.parametrize("target", [
    "sanity: Знамя в игре, а у Вайла нет Опыта в атаке (удаление наложено позже)",
    "sanity: Знамя в игре без своей способности",
    "sanity: Свирепый резак покинул игру, а Рывок остался у Вайла",
])
def test_the_statics_scenario_reaches_each_case(target: str) -> None:
    """Review F13: scenario ``statics`` (checked) reaches a removal against the static grant, the static ability
    removed with its source in play, and the hero gone with its effect kept."""
    assert "statics" in SPEC.checked
    r = next(r for r in explicit("statics") if r.property == target)
    assert r.verdict is Verdict.PROVED and r.trace is not None


def test_only_the_tie_property_reads_the_record_of_the_static_grant() -> None:
    """Issue 13: ``static_opyt`` is written only by the model's actions to record Знамя's grant; the properties
    state what Вайл has from the game state (Знамя in play with its ability), and one invariant ties the record
    to that state."""
    from ruleproof.ir import free_vars

    readers = {p.name for p in load("statics").properties
               if not p.builtin and not p.check
               and any("static_opyt" in free_vars(e) for e in (p.expr, *(c for _, c in p.conds)))}
    assert readers == {TIE}
