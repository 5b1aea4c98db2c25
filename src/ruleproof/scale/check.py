"""``ruleproof check --workers/--scheduler``: one work unit per (system, scenario).

A whole system is one unit, not one property: :func:`~ruleproof.engines.runner.check_system`
assumes the properties it proved as lemmas of the later ones, and keeping
that inside one worker gives exactly the in-process results.  A unit whose
worker dies or that times out becomes one UNKNOWN result per selected
property of its system, with the reason.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Mapping, Sequence

from ..engines.common import Options, Progress, ProgressFn
from ..engines.runner import check_system
from ..errors import InternalError
from ..ir import System
from ..results import Result, Verdict
from .executor import Fault, run_units
from .isolation import fresh_solver_context
from .systems import cached_system, encode_params, model_ref, system_refs

__all__ = ["CheckUnit", "run_check_unit", "check_on_cluster", "unit_timeout", "GRACE"]

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


def run_check_unit(unit: CheckUnit) -> list[Result]:
    """Worker side: rebuild the system (cached per process) and check it."""
    system = cached_system(unit.model, unit.system, unit.scenario, unit.params, unit.properties_path)
    fresh_solver_context()
    return check_system(system, unit.engine, unit.options, unit.properties)


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


def _unknown(system: System, names: Sequence[str], engine: str, reason: str) -> list[Result]:
    return [Result(system=system.name, scenario=system.scenario, property=p.name, kind=p.kind.value, cites=p.cites,
                   verdict=Verdict.UNKNOWN, depth=0, engine=engine, reason=reason, builtin=p.builtin)
            for p in system.properties if not names or p.name in names]


def check_on_cluster(
    model: str | Path | None,
    scenario: str | None,
    overrides: Mapping[str, Any] | None,
    systems: Sequence[System],
    engine: str,
    opts: Options,
    names: Sequence[str] = (),
    progress: ProgressFn | None = None,
    *,
    workers: int | None = None,
    scheduler: str | None = None,
    fault: Fault | None = None,
    properties: str | None = None,
) -> list[Result]:
    """What the in-process loop over ``check_system`` returns, computed on a Dask cluster.

    ``systems`` are the systems :func:`ruleproof.loader.load_all` loaded for
    ``model``, ``scenario`` and ``overrides`` (the caller has them already);
    they give the order and the properties of the UNKNOWN results of failed
    units.  Systems without a selected property are skipped, as in-process.
    """
    refs = system_refs(model, scenario, properties)
    if len(refs) != len(systems):
        raise InternalError(f"{len(systems)} systems loaded but {len(refs)} system references made")
    ref = model_ref(model)
    pref = model_ref(properties)
    params = encode_params(overrides)
    units: list[CheckUnit] = []
    by_label: dict[str, System] = {}
    for (name, scen), sy in zip(refs, systems, strict=True):
        if names and not any(p.name in names for p in sy.properties):
            continue
        u = CheckUnit(ref, name, scen, params, tuple(names), engine, opts, pref)
        units.append(u)
        by_label[u.label] = sy
    most = max((sum(1 for p in sy.properties if not names or p.name in names) for sy in by_label.values()), default=0)

    def failed(u: CheckUnit, reason: str) -> list[Result]:
        return _unknown(by_label[u.label], names, engine, reason)

    def tick(done: int, total: int, label: str) -> None:
        if progress is not None:
            progress(Progress(label, f"{done} of {total} systems checked", "dask", done, total))

    out = run_units(units, run_check_unit, failed, workers=workers, scheduler=scheduler,
                    timeout=unit_timeout(opts.timeout, most), progress=tick, fault=fault)
    return [r for rs in out for r in rs]
