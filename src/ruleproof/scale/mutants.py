"""``ruleproof mutants``: one work unit per mutant, in this process or on a Dask cluster.

:func:`plan_mutants` loads each system of the model at each of its checked
scenarios (once per process) and lists its mutants: the union of the
labels over the scenarios, in order (a label names the same broken rule in
every scenario), at most ``limit`` per system.  :func:`run_mutants` runs the
units with :func:`~ruleproof.scale.run_units` (the one driver of both ways).
A system's own rule mutants (``mutant=NAME``, :func:`ruleproof.loader.named_mutants`)
are units like the generated ones, judged by the same engine.  A unit
rebuilds, per scenario, the rules' system and the mutant (cached per
process), the rules' own verdicts (:func:`ruleproof.mutants.baseline`,
cached) and judges the mutant (:func:`ruleproof.mutants.judge`).  A unit
whose worker dies or that times out is an ``unknown`` mutant with the reason.
"""

from __future__ import annotations

import difflib
import functools
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Sequence

from ..engines.common import Options, Progress, ProgressFn
from ..errors import InputError, clip
from ..ir import System
from ..loader import discover, named_mutants
from ..mutants import RULE, Baseline, Mutant, MutantResult, baseline, judge, mutants_of
from .check import unit_timeout
from .executor import Fault, run_units
from .isolation import fresh_solver_context
from .systems import cached_system, encode_params, model_ref

__all__ = ["MutantUnit", "MutantPlan", "plan_mutants", "run_mutant_unit", "run_mutants"]


@dataclass(frozen=True)
class MutantUnit:
    """Judge the mutant labelled ``mutant`` of ``system`` in each of its checked ``scenarios``."""

    model: str | None
    system: str
    scenarios: tuple[str, ...]
    mutant: str
    system_label: str
    options: Options

    @property
    def label(self) -> str:
        return f"{self.system_label} {self.mutant}"


@functools.lru_cache(maxsize=8)
def _named(model: str | None, system: str) -> tuple[tuple[str, str], ...]:
    return next((named_mutants(s) for s in discover(model) if s.name == system), ())


@functools.lru_cache(maxsize=32)
def _mutants(model: str | None, system: str, scenario: str) -> dict[str, Mutant]:
    """Every mutant of a system at a scenario, by label, built once per process.

    The generated ones (:func:`ruleproof.mutants.mutants_of`), then the system's rule mutants, each
    built with ``mutant=NAME`` (:func:`ruleproof.loader.named_mutants`) and judged the same way.
    """
    out = {m.label: m for m in mutants_of(cached_system(model, system, scenario, ()))}
    for name, doc in _named(model, system):
        m = Mutant(RULE, "", name, cached_system(model, system, scenario, encode_params({"mutant": name})), doc)
        out[m.label] = m
    return out


@functools.lru_cache(maxsize=32)
def _baseline(model: str | None, system: str, scenario: str, opts: Options) -> Baseline:
    fresh_solver_context()
    return baseline(cached_system(model, system, scenario, ()), opts)


def run_mutant_unit(unit: MutantUnit) -> MutantResult:
    """Worker side: the mutant in every checked scenario, judged against the rules."""
    scen: list[tuple[System, System | None, Baseline]] = []
    detail = ""
    for sc in unit.scenarios:
        rules = cached_system(unit.model, unit.system, sc, ())
        m = _mutants(unit.model, unit.system, sc).get(unit.mutant)
        detail = detail or (m.detail if m is not None else "")
        scen.append((rules, m.system if m is not None else None, _baseline(unit.model, unit.system, sc, unit.options)))
    fresh_solver_context()  # the answer depends on the unit alone, in-process or on a Dask worker
    return judge(unit.mutant, scen, unit.options, detail)


@dataclass(frozen=True)
class MutantPlan:
    """The mutant units of a run: the systems of a model at their checked scenarios, each one's mutants."""

    systems: tuple[System, ...]
    units: tuple[MutantUnit, ...]


def plan_mutants(model: str | Path | None, opts: Options, limit: int | None = None,
                 only: Sequence[str] = ()) -> MutantPlan:
    """Load each system of ``model`` at each checked scenario (once per process) and list its mutants.

    ``only``: just the mutants with these names (a label as the report prints it, ``drop-update marshal:
    treasury``, or with its system before it, ``gold drop-update marshal: treasury``); a name that is no
    mutant's is bad input, with the closest names.
    """
    ref = model_ref(model)
    systems: list[System] = []
    units: list[MutantUnit] = []
    wanted = dict.fromkeys(" ".join(n.split()) for n in only)
    known: dict[str, None] = {}  # every mutant's name, bare and with its system
    for spec in discover(model):
        labels: dict[str, None] = {}
        for sc in spec.checked:
            systems.append(cached_system(ref, spec.name, sc, ()))
            labels.update(dict.fromkeys(_mutants(ref, spec.name, sc)))
        known.update(dict.fromkeys(x for lab in labels for x in (lab, f"{spec.name} {lab}")))
        hit = [lab for lab in labels if not wanted or lab in wanted or f"{spec.name} {lab}" in wanted]
        chosen = hit[:limit] if limit is not None else hit
        units += [MutantUnit(ref, spec.name, spec.checked, lab, spec.name, opts) for lab in chosen]
    missing = [n for n in wanted if n not in known]
    if missing:
        n = missing[0]
        close = difflib.get_close_matches(n, list(known), n=3, cutoff=0.5)
        hint = f"; the closest: {', '.join(repr(c) for c in close)}" if close else ""
        raise InputError(f"--only: no mutant is named {clip(repr(n))}{hint} (ruleproof mutants prints the names)")
    return MutantPlan(tuple(systems), tuple(units))


def run_mutants(
    mplan: MutantPlan,
    on_result: Callable[[str, MutantResult], None] | None = None,
    progress: ProgressFn | None = None,
    *,
    workers: int | None = None,
    scheduler: str | None = None,
    fault: Fault | None = None,
) -> list[tuple[str, MutantResult]]:
    """Judge every mutant of the plan, in this process or on a Dask cluster: ``(system, result)`` in order.

    ``on_result(system, result)`` sees each mutant's verdict as soon as it and
    every mutant before it are done.  An interrupt or the run's time limit
    propagates; what ``on_result`` saw before is what finished.
    """
    units = mplan.units
    opts = units[0].options if units else Options()
    scenarios = max((len(u.scenarios) for u in units), default=1)
    most = max((len(s.properties) for s in mplan.systems), default=0) * scenarios * 2  # kill search + equivalence

    def failed(u: MutantUnit, reason: str) -> MutantResult:
        return MutantResult(u.mutant, "unknown", (), reason)

    def tick(done: int, total: int, label: str) -> None:
        if progress is not None:
            progress(Progress(label, f"{done} of {total} mutants judged", "mutants", done, total))

    def each(i: int, r: MutantResult) -> None:
        if on_result is not None:
            on_result(units[i].system_label, r)

    out = run_units(units, run_mutant_unit, failed, workers=workers, scheduler=scheduler,
                    timeout=unit_timeout(opts.timeout, most), progress=tick, fault=fault, on_result=each)
    return [(u.system_label, r) for u, r in zip(units, out, strict=True)]
