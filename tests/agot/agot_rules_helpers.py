"""Shared helpers for the AGoT rules-model tests (tests/agot/test_rules_*.py)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, Mapping

from ruleproof.cli_support import DEFAULT_RLIMIT
from ruleproof.engines.common import Options
from ruleproof.engines.runner import check_property, check_system
from ruleproof.evaluator import Evaluator, State
from ruleproof.ir import System
from ruleproof.loader import discover, load_system
from ruleproof.mutants import mutants_of
from ruleproof.results import Result, Verdict

__all__ = ["MODEL", "load", "full_check", "check", "assert_caught", "Concrete", "mutant_names", "ir_mutant_violates",
           "drop_guard_label", "rule_mutant_violates"]

# RULEPROOF_AGOT_MODEL points the tests at another copy of the model (e.g. commit 3e7e81c's, to see that a
# review-finding test fails there); by default the bundled model of this checkout.
MODEL = Path(os.environ.get("RULEPROOF_AGOT_MODEL") or Path(__file__).resolve().parents[2] / "model" / "agot")

# Wall-clock budget per query: only a safety net. These checks take seconds of CPU; on a loaded shared
# machine (load 8 on 2 cores) a 60 s wall-clock budget ran out and turned a coverage search into "unknown".
SAFETY = 600

# The solver's resource limit per call, as `ruleproof check` uses by default: the same on any machine. Without
# one, a k-induction query that the command line gives up on (and then proves by the next engine) ran for 318 s
# of CPU here ("power grows one gain at a time until a player wins", power at its default scenario).
RLIMIT = DEFAULT_RLIMIT


def load(name: str, scenario: str = "default", **overrides: Any) -> System:
    """Load system ``name`` of the bundled AGoT model at ``scenario``."""
    spec = next(s for s in discover(MODEL) if s.name == name)
    return load_system(spec, scenario, overrides)


def mutant_names(name: str) -> set[str]:
    """The names of system ``name``'s rule mutants (``mutants/agot/<name>.py``)."""
    from ruleproof.loader import rule_mutants  # (imported here: the review tests also run against older code)

    spec = next(s for s in discover(MODEL) if s.name == name)
    return set(rule_mutants(spec))


def drop_guard_label(name: str, family: str, require: str) -> str:
    """The label of the IR mutant that drops the requirement ``require`` (its source text) of action ``family``."""
    lines = (MODEL / f"{name}.py").read_text(encoding="utf-8").splitlines()
    (line,) = [i for i, x in enumerate(lines, 1) if x.strip() == require]
    return f"drop-guard {family}: require at {name}.py:{line}"


def ir_mutant_violates(system: System, label: str, props: list[str], depth: int = 6) -> list[str]:
    """The properties among ``props`` that the IR mutant ``label`` of ``system`` violates (BMC to ``depth``)."""
    (mut,) = [x for x in mutants_of(system) if x.label == label]
    rs = check_system(mut.system, "bmc", Options(depth=depth, rlimit=DEFAULT_RLIMIT, timeout=SAFETY), props)
    return [r.property for r in rs if r.verdict is Verdict.VIOLATED]


def rule_mutant_violates(name: str, mutant: str, scenario: str = "small", depth: int = 6) -> set[str]:
    """Every property (sanity targets aside) that rule mutant ``mutant`` of system ``name`` violates (BMC to
    ``depth``): which properties catch a misreading, and that no other does."""
    system = load(name, scenario, mutant=mutant)
    props = [p.name for p in system.properties if p.kind.value != "reachable"]
    rs = check_system(system, "bmc", Options(depth=depth, rlimit=DEFAULT_RLIMIT, timeout=SAFETY), props)
    return {r.property for r in rs if r.verdict is Verdict.VIOLATED}


def full_check(name: str, scenario: str = "default", coverage_depth: int = 4) -> list[Result]:
    """Every property of a system with the auto engine at depth 10.

    Coverage is computed to ``coverage_depth`` (<= 10): an action that fires
    within it fires within the checked depth too.
    """
    return check_system(load(name, scenario), "auto", Options(depth=10, timeout=SAFETY, rlimit=RLIMIT),
                        coverage_depth=coverage_depth)


def check(system: System, prop: str, engine: str = "bmc", depth: int = 8) -> Result:
    """Check one property of ``system``."""
    return check_property(system, system.prop(prop), engine,
            Options(depth=depth, rlimit=DEFAULT_RLIMIT, timeout=SAFETY))


def assert_caught(name: str, mutant: str, prop: str, scenario: str = "small", depth: int = 8) -> Result:
    """The mutant violates ``prop`` with a replayed trace; the correct model does not (to ``depth``)."""
    bad = check(load(name, scenario, mutant=mutant), prop, depth=depth)
    assert bad.verdict is Verdict.VIOLATED, (mutant, prop, bad.verdict, bad.reason)
    assert bad.trace is not None and bad.trace.steps
    good = check(load(name, scenario), prop, depth=min(depth, len(bad.trace.steps)))
    assert good.verdict is not Verdict.VIOLATED, (prop, good.trace)
    return bad


class Concrete:
    """Concrete states and steps of a system, for scenario (FAQ) tests."""

    def __init__(self, system: System) -> None:
        self.system = system
        self.ev = Evaluator(system)

    def state(self, values: Mapping[str, Any]) -> State:
        """A state: each variable at its first initial value unless given in ``values``."""
        base = {iv.var: iv.values[0] for iv in self.system.init_vars}
        unknown = set(values) - set(base)
        assert not unknown, unknown
        base.update(values)
        return self.ev.from_dict(base)

    def step(self, label: str, s: State, choices: Mapping[str, Any] | None = None) -> State | None:
        """The successor of ``s`` under the ground action ``label`` (None: not enabled)."""
        ai = next(i for i, a in enumerate(self.system.actions) if a.label == label)
        return self.ev.apply(ai, s, dict(choices or {}))

    def enabled(self, label: str, s: State) -> bool:
        ai = [i for i, a in enumerate(self.system.actions) if a.label == label]
        return bool(ai) and self.ev.enabled(ai[0], s)

    def get(self, s: State, var: str) -> Any:
        return self.ev.as_dict(s)[var]

    def holds(self, prop: str, s: State) -> bool:
        return self.ev.holds(self.system.prop(prop), s)
