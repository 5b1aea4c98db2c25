"""Classic Berserk 503.2-503.3 (model/berserk/rule_effects.py): rule effects are performed
off the stack with no priority, and a cyclic chain is cut off before its first repetition.

The chains of the notes' scenario 8, step by step, are rulings (rulings/berserk/rule_effects.yaml)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from ruleproof.cli_support import DEFAULT_RLIMIT
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
    results = check_system(load(scenario), "auto", Options(depth=10, kmax=4, rlimit=DEFAULT_RLIMIT, timeout=600))
    safety = [r for r in results if r.kind != PropKind.REACH.value]
    assert len(safety) == 17  # 15 rules + deadlock, determinism
    assert [(r.property, r.reason) for r in safety if r.verdict is not Verdict.PROVED] == []


MUTANT_CASES = [
    ("no_cutoff", "loop2", "503.3: эффект правил не повторяется в одной цепочке"),
    ("no_cutoff", "lasso", "503.3: цепочка эффектов правил конечна (не длиннее числа эффектов)"),
    ("priority_in_chain", "loop2",
     "503.2: игрок действует (declare_action) только с приоритетом и вне цепочки эффектов правил"),
    ("on_stack", "chain", "503.2: эффекты правил выполняются вне стека"),
]


@pytest.mark.parametrize("mutant,scenario,prop_name", MUTANT_CASES)
def test_mutant_is_caught(mutant: str, scenario: str, prop_name: str) -> None:
    from berserk_helpers import assert_mutant_caught

    assert_mutant_caught(load(scenario, mutant=mutant), prop_name, depth=10)
