"""Helpers shared by the Berserk tests."""

from __future__ import annotations

from importlib import util
from pathlib import Path

MODEL = Path(__file__).resolve().parents[2] / "model" / "berserk"


def model_mutants(system_file: str) -> set[str]:
    """The non-empty names in a Berserk system module's ``MUTANTS``."""
    spec = util.spec_from_file_location(f"berserk_{Path(system_file).stem}_for_test", MODEL / system_file)
    assert spec is not None and spec.loader is not None
    mod = util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return {m for m in mod.MUTANTS if m}


def assert_mutant_caught(system, prop_name: str, depth: int) -> None:  # type: ignore[no-untyped-def]
    """BMC finds a violation of ``prop_name`` in the mutant ``system``, with a replayed trace."""
    from ruleproof.engines.common import Options
    from ruleproof.engines.runner import check_property
    from ruleproof.results import Verdict

    r = check_property(system, system.prop(prop_name), "bmc", Options(depth=depth))
    assert r.verdict is Verdict.VIOLATED, (prop_name, r.verdict, r.reason)
    assert r.trace is not None and r.trace.steps
