"""``ruleproof check``: one work unit per (system, scenario), in this process or on a Dask cluster.

:func:`plan_check` loads the systems a run checks (once per process:
:func:`~ruleproof.scale.systems.cached_system`) and cuts the work into
units; :func:`run_check` runs them with :func:`~ruleproof.scale.run_units`,
in this process or on a cluster, the one driver of both.  A whole system is
one unit, not one property: :func:`~ruleproof.engines.runner.check_system`
assumes the properties it proved as lemmas of the later ones, and keeping
that inside one worker gives exactly the in-process results.  Each unit's
results come back in the order they were decided (so the report reads the
same both ways); in this process each is passed on as soon as it is known,
from a cluster each unit's as soon as the unit is done.  A unit whose
worker dies or that times out becomes one UNKNOWN result per selected
property of its system, with the reason.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any, Callable, Mapping, Sequence

from ..engines.common import Options, ProgressFn
from ..engines.runner import check_system
from ..ir import Property, System
from ..loader import SystemSpec, plan
from ..results import Result, Verdict
from .executor import Fault, UnitProgress, run_units
from .isolation import fresh_solver_context
from .systems import cached_system, encode_params, model_ref

__all__ = ["CheckUnit", "CheckPlan", "plan_check", "run_check", "run_check_unit", "selected", "unit_timeout",
           "GRACE"]

#: Seconds added to every unit's computed time limit (start-up, model loading).
GRACE = 60.0


@dataclass(frozen=True)
class CheckUnit:
    """Check the ``properties`` (all when empty) of one system at one scenario."""

    model: str | None
    system: str
    scenario: str
    params: tuple[tuple[str, str], ...]
    properties: tuple[str, ...]
    engine: str
    options: Options
    properties_path: str | None = None  # ``check --properties`` (absolute), else the lookup beside the model

    @property
    def label(self) -> str:
        return f"{self.system}[{self.scenario}]"


def run_check_unit(unit: CheckUnit, on_result: Callable[[Result], None] | None = None,
                   progress: ProgressFn | None = None) -> list[Result]:
    """Check one unit (on a worker, or here): its results in the order they were decided."""
    system = cached_system(unit.model, unit.system, unit.scenario, unit.params, unit.properties_path)
    fresh_solver_context()
    decided: list[Result] = []

    def emit(r: Result) -> None:
        decided.append(r)
        if on_result is not None:
            on_result(r)

    check_system(system, unit.engine, unit.options, unit.properties, progress, on_result=emit)
    return decided


def unit_timeout(per_property: float | None, properties: int) -> float | None:
    """Wall-clock limit of a unit checking ``properties`` properties.

    The lemma fixpoint of ``check_system`` checks at most ``n (n + 1) / 2``
    properties (each round retries only the open ones, and a round happens
    only when the previous one proved something), plus the coverage query;
    each is bounded by the per-property timeout.  The limit is that bound
    plus :data:`GRACE`: it catches a hung worker, never a slow but legal run.
    """
    if per_property is None:
        return None
    return per_property * (properties * (properties + 1) / 2 + 1) + GRACE


def _unknown(system: System, names: Sequence[str], skip_checks: Sequence[str], engine: str,
             reason: str) -> list[Result]:
    return [Result(system=system.name, scenario=system.scenario, property=p.name, kind=p.kind.value, cites=p.cites,
                   verdict=Verdict.UNKNOWN, depth=0, engine=engine, reason=reason, builtin=p.builtin)
            for p in selected(system, names, skip_checks)]


def selected(system: System, names: Sequence[str], skip_checks: Sequence[str] = ()) -> list[Property]:
    """The properties of ``system`` a run checks (``names``, or all), in declaration order."""
    return [p for p in system.properties if (not names or p.name in names) and p.check not in skip_checks]


@dataclass(frozen=True)
class CheckPlan:
    """What a ``check`` run does: the systems it loaded, and its units (systems with a selected property)."""

    systems: tuple[System, ...]
    units: tuple[CheckUnit, ...]
    names: tuple[str, ...]
    unit_systems: tuple[System, ...] = ()  # the system of each unit

    def expected(self) -> list[tuple[str, str, str]]:
        """``(system, scenario, property)`` of every result the run will report, in plan order."""
        out: list[tuple[str, str, str]] = []
        for u, sy in zip(self.units, self.unit_systems, strict=True):
            out.extend((sy.name, sy.scenario, p.name) for p in selected(sy, self.names, u.options.skip_checks))
        return out


def plan_check(model: str | Path | None, scenario: str | None, overrides: Mapping[str, Any] | None,
               names: Sequence[str], engine: str, opts: Options, properties: str | Path | None = None,
               specs: list[SystemSpec] | None = None) -> CheckPlan:
    """Load the systems of a run (each once per process) and cut it into units.

    ``names`` are the properties selected (the full sentences; all when
    empty); ``properties`` is ``check --properties``; ``specs`` the model's
    systems as :func:`ruleproof.loader.discover` found them (else it is called).
    """
    ref = model_ref(model)
    pref = model_ref(properties)
    params = encode_params(overrides)
    refs = [(spec.name, scen) for spec, scen in plan(model, scenario, properties, specs)]
    systems = tuple(cached_system(ref, name, scen, params, pref) for name, scen in refs)
    chosen = [(CheckUnit(ref, name, scen, params, tuple(names), engine, opts, pref), sy)
              for (name, scen), sy in zip(refs, systems, strict=True)
              if not names or any(p.name in names for p in sy.properties)]
    return CheckPlan(systems, tuple(u for u, _ in chosen), tuple(names), tuple(sy for _, sy in chosen))


def run_check(
    check: CheckPlan,
    on_result: Callable[[Result], None] | None = None,
    progress: UnitProgress | None = None,
    *,
    engine_progress: ProgressFn | None = None,
    workers: int | None = None,
    scheduler: str | None = None,
    fault: Fault | None = None,
    properties: str | None = None,
) -> list[Result]:
    """Every result of the plan (each unit's in the order decided), in this process or on a Dask cluster.

    ``on_result`` sees each result as soon as it is known (in this process)
    or as soon as its unit is done and every unit before it (on a cluster);
    ``engine_progress`` sees the engines' progress events (in this process).
    An interrupt or the run's time limit propagates; what ``on_result`` saw
    before is what finished.
    """
    by_unit = dict(zip(check.units, check.unit_systems, strict=True))
    names = check.names

    def failed(u: CheckUnit, reason: str) -> list[Result]:
        return _unknown(by_unit[u], names, u.options.skip_checks, u.engine, reason)

    most = max((len(selected(sy, names)) for sy in check.unit_systems), default=0)
    per = check.units[0].options.timeout if check.units else None
    limit = unit_timeout(per, most)
    if workers is None and scheduler is None:
        out = run_units(check.units, partial(run_check_unit, on_result=on_result, progress=engine_progress), failed,
                        timeout=limit, progress=progress)
    else:
        def each(_i: int, rs: list[Result]) -> None:
            for r in rs:
                if on_result is not None:
                    on_result(r)

        out = run_units(check.units, run_check_unit, failed, workers=workers, scheduler=scheduler, timeout=limit,
                        progress=progress, fault=fault, on_result=each)
    return [r for rs in out for r in rs]
