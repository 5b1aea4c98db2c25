"""``ruleproof mutants --workers/--scheduler``: one work unit per mutant.

The parent enumerates the mutants of each system (cheap: IR rewrites) for
their labels and order; a worker rebuilds the system (cached per process),
takes the mutant at the unit's index, checks that its label is the expected
one, and runs :func:`ruleproof.mutants.check_mutant`.  A unit whose worker
dies or that times out is an ``unknown`` mutant with the reason.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

from ..engines.common import Options, Progress, ProgressFn
from ..errors import InternalError
from ..ir import System
from ..loader import discover
from ..mutants import Mutant, MutantResult, check_mutant, mutants_of
from .check import unit_timeout
from .executor import Fault, run_units
from .systems import cached_system, model_ref

__all__ = ["MutantUnit", "run_mutant_unit", "mutants_on_cluster"]


@dataclass(frozen=True)
class MutantUnit:
    """Check mutant number ``index`` (labelled ``mutant``) of a system at a scenario."""

    model: str | None
    system: str
    scenario: str
    index: int
    mutant: str
    system_label: str
    options: Options

    @property
    def label(self) -> str:
        return f"{self.system_label} {self.mutant}"


@functools.lru_cache(maxsize=8)
def _mutants(model: str | None, system: str, scenario: str) -> tuple[Mutant, ...]:
    """Every mutant of a system, built once per process."""
    return tuple(mutants_of(cached_system(model, system, scenario, ())))


def run_mutant_unit(unit: MutantUnit) -> MutantResult:
    """Worker side: rebuild the mutant and check it."""
    ms = _mutants(unit.model, unit.system, unit.scenario)
    if unit.index >= len(ms) or ms[unit.index].label != unit.mutant:
        raise InternalError(f"{unit.system_label}: mutant {unit.index} is not '{unit.mutant}' on this worker")
    return check_mutant(ms[unit.index], unit.options)


def mutants_on_cluster(
    model: str | Path | None,
    systems: Sequence[System],
    opts: Options,
    limit: int | None = None,
    progress: ProgressFn | None = None,
    *,
    workers: int | None = None,
    scheduler: str | None = None,
    fault: Fault | None = None,
) -> list[tuple[str, MutantResult]]:
    """What :func:`ruleproof.mutants.run_mutants` returns, computed on a Dask cluster.

    ``systems`` are the systems of ``model`` at their first checked scenario,
    in :func:`ruleproof.loader.discover` order (as ``ruleproof mutants`` loads them).
    """
    ref = model_ref(model)
    specs = [spec.name for spec in discover(model)]
    if len(specs) != len(systems):
        raise InternalError(f"{len(systems)} systems loaded but the model has {len(specs)}")
    units: list[MutantUnit] = []
    for name, s in zip(specs, systems):
        for n, m in enumerate(mutants_of(s)):
            if limit is not None and n >= limit:
                break
            units.append(MutantUnit(ref, name, s.scenario, n, m.label, f"{s.name}[{s.scenario}]", opts))
    most = max((len(s.properties) for s in systems), default=0)

    def failed(u: MutantUnit, reason: str) -> MutantResult:
        return MutantResult(u.mutant, "unknown", (), reason)

    def tick(done: int, total: int, label: str) -> None:
        if progress is not None:
            progress(Progress(label, f"{done} of {total} mutants checked", "dask", done, total))

    out = run_units(units, run_mutant_unit, failed, workers=workers, scheduler=scheduler,
                    timeout=unit_timeout(opts.timeout, most), progress=tick, fault=fault)
    return [(u.system_label, r) for u, r in zip(units, out)]
