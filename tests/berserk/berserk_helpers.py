"""Helpers shared by the Berserk tests."""

from __future__ import annotations

from pathlib import Path

MODEL = Path(__file__).resolve().parents[2] / "model" / "berserk"


def model_mutants(system_file: str) -> set[str]:
    """The names of a Berserk system's rule mutants (``mutants/berserk/<system>.py``)."""
    from ruleproof.loader import discover, rule_mutants

    spec = next(s for s in discover(MODEL) if s.name == Path(system_file).stem)
    return set(rule_mutants(spec))


def assert_mutant_caught(system, prop_name: str, depth: int) -> None:  # type: ignore[no-untyped-def]
    """BMC finds a violation of ``prop_name`` in the mutant ``system``, with a replayed trace."""
    from ruleproof.engines.common import Options
    from ruleproof.engines.runner import check_property
    from ruleproof.results import Verdict

    r = check_property(system, system.prop(prop_name), "bmc", Options(depth=depth))
    assert r.verdict is Verdict.VIOLATED, (prop_name, r.verdict, r.reason)
    assert r.trace is not None and r.trace.steps
