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
