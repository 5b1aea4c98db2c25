"""Model references as plain data, and the per-process cache of compiled systems.

A unit names a system by ``(model, system, scenario, params)``: the model
path (absolute, or None for the bundled AGoT model), the system module's
name (its file stem), a scenario name and the parameter overrides as
``(name, JSON text)`` pairs.  :func:`cached_system` rebuilds the grounded
:class:`~ruleproof.ir.System` from that reference; the result is kept in a
``functools.lru_cache``, i.e. once per worker *process* (it is a cache of
pure, immutable values, not shared state: a hit returns the same frozen IR a
rebuild would).
"""

from __future__ import annotations

import functools
import json
from pathlib import Path
from typing import Any, Mapping

from ..errors import InternalError
from ..ir import System
from ..loader import SystemSpec, discover, load_system, plan

__all__ = ["model_ref", "encode_params", "decode_params", "cached_system", "system_refs"]


def model_ref(model: str | Path | None) -> str | None:
    """The model argument as workers see it: an absolute path (None: bundled)."""
    return None if model is None else str(Path(model).resolve())


def encode_params(overrides: Mapping[str, Any] | None) -> tuple[tuple[str, str], ...]:
    """Parameter overrides as hashable plain data (values as JSON text), sorted by name."""
    return tuple((k, json.dumps(v, sort_keys=True)) for k, v in sorted((overrides or {}).items()))


def decode_params(params: tuple[tuple[str, str], ...]) -> dict[str, Any]:
    """The inverse of :func:`encode_params`."""
    return {k: json.loads(v) for k, v in params}


def _spec(model: str | None, system: str, properties: str | None = None) -> SystemSpec:
    for spec in discover(model, properties):
        if spec.name == system:
            return spec
    raise InternalError(f"the model {model or 'agot (bundled)'} has no system '{system}' on this worker")


@functools.lru_cache(maxsize=64)
def cached_system(model: str | None, system: str, scenario: str, params: tuple[tuple[str, str], ...],
                  properties: str | None = None) -> System:
    """The grounded system of a reference, built once per process (``properties``: as ``check --properties``)."""
    return load_system(_spec(model, system, properties), scenario, decode_params(params))


def system_refs(model: str | Path | None, scenario: str | None,
                properties: str | None = None) -> list[tuple[str, str]]:
    """``(system name, scenario)`` of each system :func:`ruleproof.loader.load_all` loads, in its order."""
    return [(spec.name, scen) for spec, scen in plan(model, scenario, properties)]
