"""Classic Berserk 503.2-503.3 (model/berserk/rule_effects.py): rule effects are performed
off the stack with no priority, and a cyclic chain is cut off before its first repetition."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from ruleproof.engines.common import Options
from ruleproof.engines.runner import check_system
from ruleproof.evaluator import Evaluator, State
from ruleproof.ir import PropKind, System
from ruleproof.loader import discover, load_system
from ruleproof.results import Verdict

MODEL = Path(__file__).resolve().parents[2] / "model" / "berserk"
SPEC = next(s for s in discover(MODEL) if s.name == "rule_effects")


def load(scenario: str, **over: Any) -> System:
    return load_system(SPEC, scenario, over)


def run_chain(system: System) -> list[str]:
    """Declare and perform one action, then follow the (deterministic) chain until priority returns."""
    ev = Evaluator(system)
    (s,) = list(ev.initial_states())
    labels = {a.label: i for i, a in enumerate(system.actions)}
    for lab in ("declare_action", "perform_top"):
        nxt = ev.apply(labels[lab], s, {})
        assert nxt is not None
        s = nxt
    seen: list[str] = []
    for _ in range(10):
        succ = list(ev.successors(s))
        assert len(succ) == 1, "inside a chain exactly one rule step is possible (no player has priority)"
        ai, _ch, s = succ[0]
        seen.append(system.actions[ai].label)
        if ev.as_dict(s)["priority"]:
            return seen
    raise AssertionError(f"the chain did not end: {seen}")


@pytest.mark.parametrize(
    "scenario,expected",
    [
        ("loop2", ["rule_effect(e_a)", "rule_effect(e_b)", "cut_off"]),
        ("lasso", ["rule_effect(e_a)", "rule_effect(e_b)", "rule_effect(e_c)", "cut_off"]),
        ("chain", ["rule_effect(e_a)", "rule_effect(e_b)", "chain_ends"]),
    ],
)
def test_chain_is_cut_off_before_the_first_repetition(scenario: str, expected: list[str]) -> None:
    assert run_chain(load(scenario)) == expected


def test_without_the_cut_off_the_loop_never_returns_priority() -> None:
    with pytest.raises(AssertionError, match="did not end"):
        run_chain(load("loop2", mutant="no_cutoff"))


@pytest.mark.parametrize("scenario", ["loop2", "lasso", "chain"])
def test_every_chain_ends_within_the_number_of_effects(scenario: str) -> None:
    """Bounded liveness over every reachable state: without priority, every path regains it
    within |effects| + 1 steps (explicit search over the whole reachable space)."""
    system = load(scenario)
    ev = Evaluator(system)
    reach: set[State] = set(ev.initial_states())
    frontier = list(reach)
    while frontier:
        nxt = {t for s in frontier for _ai, _c, t in ev.successors(s)} - reach
        reach |= nxt
        frontier = list(nxt)
    assert any(not ev.as_dict(s)["priority"] for s in reach)
    bound = 3 + 1
    for s in reach:
        if ev.as_dict(s)["priority"]:
            continue
        layer = {s}
        for _ in range(bound):
            layer = {t for u in layer for _ai, _c, t in ev.successors(u) if not ev.as_dict(t)["priority"]}
            if not layer:
                break
        assert not layer, f"a chain from {ev.as_dict(s)} runs longer than {bound} steps"


@pytest.mark.parametrize("scenario", ["loop2", "lasso", "chain"])
def test_every_property_is_proved(scenario: str) -> None:
    results = check_system(load(scenario), "auto", Options(depth=10, kmax=4, timeout=60))
    safety = [r for r in results if r.kind != PropKind.REACH.value]
    assert len(safety) == 11  # 9 rules + deadlock, determinism
    assert [(r.property, r.reason) for r in safety if r.verdict is not Verdict.PROVED] == []


MUTANT_CASES = [
    ("no_cutoff", "loop2", "503.3: эффект правил не повторяется в одной цепочке"),
    ("no_cutoff", "lasso", "503.3: цепочка эффектов правил конечна (не длиннее числа эффектов)"),
    ("priority_in_chain", "loop2", "503.2: игрок действует (declare_action) только с приоритетом и вне цепочки эффектов правил"),
    ("on_stack", "chain", "503.2: эффекты правил выполняются вне стека"),
]


@pytest.mark.parametrize("mutant,scenario,prop_name", MUTANT_CASES)
def test_mutant_is_caught(mutant: str, scenario: str, prop_name: str) -> None:
    from berserk_helpers import assert_mutant_caught

    assert_mutant_caught(load(scenario, mutant=mutant), prop_name, depth=10)
