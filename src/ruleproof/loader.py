"""Finding and loading rules models (model files in the DSL) and their properties.

A *model* is a directory such as ``model/agot/``: every ``*.py`` in it whose
name does not start with ``_`` is one *system* module defining
``build(**params) -> Model`` and optionally ``SCENARIOS`` (name -> params,
``"default"`` first) and ``CHECKED`` (the scenarios ``ruleproof check`` runs).
Its properties live in ``properties/<model>/<system>.py`` beside ``model/``,
each defining ``register(m)``; a model file may also declare properties
itself.  A single ``.py`` file is a model of one system (its properties, if
any, in the same ``properties/<model>/`` place as for a directory).

Any mistake while loading is reported as :class:`InputError` with the file
and line of the user's code that raised it.
"""

from __future__ import annotations

import hashlib
import importlib.util
import inspect
import sys
import traceback
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any, Mapping

from .dsl import Model, display_path
from .errors import InputError, SourceLoc
from .ir import System

__all__ = ["SystemSpec", "bundled_model_dir", "discover", "load_system", "load_all", "graph_check_results"]

_PKG = Path(__file__).resolve().parent


def bundled_model_dir(game: str = "agot") -> Path:
    """The bundled model directory (in the wheel, or in a source checkout)."""
    for root in (_PKG / "_bundled", _PKG.parent.parent):
        d = root / "model" / game
        if d.is_dir():
            return d
    raise InputError(f"the bundled model '{game}' is missing from this installation")


def _properties_dir(model_dir: Path) -> Path:
    return model_dir.parent.parent / "properties" / model_dir.name


@dataclass(frozen=True)
class SystemSpec:
    """One system module of a model and its scenarios."""

    name: str
    file: Path
    properties_file: Path | None
    scenarios: tuple[tuple[str, tuple[tuple[str, Any], ...]], ...]
    checked: tuple[str, ...]

    def params(self, scenario: str) -> dict[str, Any]:
        for n, p in self.scenarios:
            if n == scenario:
                return dict(p)
        known = ", ".join(n for n, _ in self.scenarios)
        raise InputError(f"system '{self.name}' has no scenario '{scenario}' (it has: {known})", SourceLoc(display_path(str(self.file))))


def _import(path: Path) -> ModuleType:
    digest = hashlib.sha1(str(path.resolve()).encode()).hexdigest()[:12]
    modname = f"_ruleproof_user_{path.stem}_{digest}"
    spec = importlib.util.spec_from_file_location(modname, path)
    if spec is None or spec.loader is None:
        raise InputError("cannot load this file as Python", SourceLoc(display_path(str(path))))
    mod = importlib.util.module_from_spec(spec)
    sys.modules[modname] = mod  # dataclasses and pickling look modules up by name
    with _user_code(path):
        sys.path.insert(0, str(path.parent))
        try:
            spec.loader.exec_module(mod)
        finally:
            sys.path.remove(str(path.parent))
    return mod


class _user_code:
    """Turn any exception raised by user code into an InputError at its line."""

    def __init__(self, *files: Path) -> None:
        self.files = {str(f.resolve()) for f in files}

    def __enter__(self) -> None:
        return None

    def __exit__(self, et: type[BaseException] | None, e: BaseException | None, tb: Any) -> bool:
        if e is None or isinstance(e, InputError) or not isinstance(e, Exception):
            return False
        if isinstance(e, SyntaxError):
            raise InputError(f"syntax error: {e.msg}", SourceLoc(display_path(e.filename or "?"), e.lineno or 0)) from None
        loc = None
        for fs in traceback.extract_tb(tb):
            if str(Path(fs.filename).resolve()) in self.files or not str(Path(fs.filename).resolve()).startswith(str(_PKG)):
                if not fs.filename.startswith("<"):
                    loc = SourceLoc(display_path(fs.filename), fs.lineno or 0)
        msg = str(e) if isinstance(e, (NameError, AttributeError)) else f"{type(e).__name__}: {e}"
        raise InputError(msg, loc) from None


def discover(path: str | Path | None) -> list[SystemSpec]:
    """The systems of the model at ``path`` (None: the bundled AGoT model)."""
    if path is None:
        p = bundled_model_dir()
    else:
        p = Path(path)
        if not p.exists():
            raise InputError(f"no such model: {path} (give a model directory such as model/agot, or a .py file)")
    if p.is_dir():
        files = sorted(f for f in p.glob("*.py") if not f.name.startswith("_"))
        if not files:
            raise InputError(f"model directory {display_path(str(p))} has no model files (*.py)")
        pdir = _properties_dir(p)
    else:
        if p.suffix != ".py":
            raise InputError(f"a model file must be Python (.py): {path}")
        files = [p]
        pdir = _properties_dir(p.resolve().parent)
    specs = []
    for f in files:
        mod = _import(f)
        build = getattr(mod, "build", None)
        if not callable(build):
            raise InputError("a model file must define build(**params) -> Model", SourceLoc(display_path(str(f)), 1))
        scen = getattr(mod, "SCENARIOS", {"default": {}})
        if not isinstance(scen, Mapping) or not scen:
            raise InputError("SCENARIOS must be a non-empty dict of name -> params", SourceLoc(display_path(str(f))))
        checked = tuple(getattr(mod, "CHECKED", (next(iter(scen)),)))
        for c in checked:
            if c not in scen:
                raise InputError(f"CHECKED names an unknown scenario '{c}'", SourceLoc(display_path(str(f))))
        pf = pdir / f.name if pdir is not None and (pdir / f.name).is_file() else None
        specs.append(
            SystemSpec(
                f.stem, f, pf, tuple((n, tuple(sorted(dict(v).items()))) for n, v in scen.items()), checked
            )
        )
    return specs


def load_system(spec: SystemSpec, scenario: str | None = None, overrides: Mapping[str, Any] | None = None) -> System:
    """Build and ground one system at a scenario (with parameter overrides)."""
    name = scenario or spec.checked[0]
    mod = _import(spec.file)
    params = {
        k: p.default
        for k, p in inspect.signature(mod.build).parameters.items()
        if p.default is not inspect.Parameter.empty
    }
    params.update(spec.params(name))
    params.update(overrides or {})
    files = [spec.file] + ([spec.properties_file] if spec.properties_file else [])
    with _user_code(*files):
        m = mod.build(**params)
        if not isinstance(m, Model):
            raise InputError("build() must return a ruleproof.dsl.Model", SourceLoc(display_path(str(spec.file))))
        m.scenario = name
        m.params = {**m.params, **params}  # keys build() set itself stay; the scenario's values win
        if spec.properties_file is not None:
            pmod = _import(spec.properties_file)
            reg = getattr(pmod, "register", None)
            if not callable(reg):
                raise InputError("a properties file must define register(m)", SourceLoc(display_path(str(spec.properties_file)), 1))
            reg(m)
        return m.finish()


def load_all(path: str | Path | None, scenario: str | None = None, overrides: Mapping[str, Any] | None = None) -> list[System]:
    """Every system of a model: at ``scenario`` if given, else at each checked scenario."""
    out = []
    for spec in discover(path):
        names = [scenario] if scenario else list(spec.checked)
        for n in names:
            if scenario and n not in dict(spec.scenarios):
                continue
            out.append(load_system(spec, n, overrides))
    if scenario and not out:
        raise InputError(f"no system of this model has a scenario '{scenario}'")
    return out


def graph_check_results(path: str | Path | None) -> list[Any]:
    """Results of the ``graph_checks()`` hooks of a model's system modules.

    A system module may define ``graph_checks() -> list[Result]``: exhaustive
    checks over a finite graph (such as the timing-window graph) that
    ``ruleproof check`` reports beside the properties.
    """
    out: list[Any] = []
    for spec in discover(path):
        mod = _import(spec.file)
        hook = getattr(mod, "graph_checks", None)
        if callable(hook):
            with _user_code(spec.file):
                out.extend(hook())
    return out
