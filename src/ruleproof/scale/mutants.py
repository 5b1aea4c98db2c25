"""``ruleproof mutants``: one work unit per mutant, in this process or on a Dask cluster.

:func:`plan_mutants` enumerates the mutants of each system (cheap: IR
rewrites) for their labels and order; :func:`run_mutants` runs the units
with :func:`~ruleproof.scale.run_units` (the one driver of both ways).  A
unit rebuilds the system (cached per process: in this process it is the
one the plan loaded), takes the mutant at the unit's index, checks that its
label is the expected one, and runs :func:`ruleproof.mutants.check_mutant`.
A unit whose worker dies or that times out is an ``unknown`` mutant with the
reason.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from ..engines.common import Options, Progress, ProgressFn
from ..errors import InternalError
from ..ir import System
from ..loader import discover
from ..mutants import Mutant, MutantResult, check_mutant, mutants_of
from .check import unit_timeout
from .executor import Fault, run_units
from .systems import cached_system, model_ref

__all__ = ["MutantUnit", "MutantPlan", "plan_mutants", "run_mutant_unit", "run_mutants"]


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


@dataclass(frozen=True)
class MutantPlan:
    """The mutant units of a run: the systems of a model at their first checked scenario, each one's mutants."""

    systems: tuple[System, ...]
    units: tuple[MutantUnit, ...]


def plan_mutants(model: str | Path | None, opts: Options, limit: int | None = None) -> MutantPlan:
    """Load each system of ``model`` (once per process) and list its mutants (at most ``limit`` per system)."""
    ref = model_ref(model)
    specs = discover(model)
    systems = tuple(cached_system(ref, spec.name, spec.checked[0], ()) for spec in specs)
    units: list[MutantUnit] = []
    for spec, s in zip(specs, systems, strict=True):
        for n, m in enumerate(_mutants(ref, spec.name, s.scenario)):
            if limit is not None and n >= limit:
                break
            units.append(MutantUnit(ref, spec.name, s.scenario, n, m.label, f"{s.name}[{s.scenario}]", opts))
    return MutantPlan(systems, tuple(units))


def run_mutants(
    mplan: MutantPlan,
    on_result: Callable[[str, MutantResult], None] | None = None,
    progress: ProgressFn | None = None,
    *,
    workers: int | None = None,
    scheduler: str | None = None,
    fault: Fault | None = None,
) -> list[tuple[str, MutantResult]]:
    """Check every mutant of the plan, in this process or on a Dask cluster: ``(system label, result)`` in order.

    ``on_result(system label, result)`` sees each mutant's result as soon as
    it and every mutant before it are done.  An interrupt or the run's time
    limit propagates; what ``on_result`` saw before is what finished.
    """
    units = mplan.units
    most = max((len(s.properties) for s in mplan.systems), default=0)
    opts = units[0].options if units else Options()

    def failed(u: MutantUnit, reason: str) -> MutantResult:
        return MutantResult(u.mutant, "unknown", (), reason)

    def tick(done: int, total: int, label: str) -> None:
        if progress is not None:
            progress(Progress(label, f"{done} of {total} mutants checked", "mutants", done, total))

    def each(i: int, r: MutantResult) -> None:
        if on_result is not None:
            on_result(units[i].system_label, r)

    out = run_units(units, run_mutant_unit, failed, workers=workers, scheduler=scheduler,
                    timeout=unit_timeout(opts.timeout, most), progress=tick, fault=fault, on_result=each)
    return [(u.system_label, r) for u, r in zip(units, out, strict=True)]
