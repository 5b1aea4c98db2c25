"""Finding and loading rules models (model files in the DSL) and their properties.

A *model* is a directory such as ``model/agot/``: every ``*.py`` in it whose
name does not start with ``_`` is one *system* module defining
``build(**params) -> Model`` and optionally ``SCENARIOS`` (name -> params,
``"default"`` first) and ``CHECKED`` (the scenarios ``ruleproof check`` runs).
A model file may declare its properties itself; more properties live in a
properties file defining ``register(m)``, found for ``D/x.py`` at
(:func:`properties_candidates`):

1. ``D/properties/x.py`` (beside the model);
2. ``<root>/properties/<game>/x.py`` of the project layout, when ``D`` is
   ``<root>/model/<game>`` (as for the bundled models).

``--properties PATH`` names the file (a one-system model) or the directory
of ``<system>.py`` files instead.  Nothing is ignored silently: a file the
lookup passes over (a second candidate, a file in ``D/properties/`` that
matches no system) is named in a warning (:attr:`SystemSpec.notes`).  A
single ``.py`` file is a model of one system.

A system's deliberately broken rules (rule mutants) are not in its model
file: ``D/mutants/x.py`` (beside the model) or ``<root>/mutants/<game>/x.py``
(the project layout) defines ``MUTANTS`` (a
:class:`ruleproof.rule_mutants.RuleMutants`).  The ``mutant`` parameter names
one; it is applied as an edit of the built model before the properties are
registered (a ``build`` that takes ``mutant`` itself gets it as before).

Any mistake while loading is reported as :class:`InputError` with the file
and line of the user's code that raised it.
"""

from __future__ import annotations

import difflib
import hashlib
import importlib.util
import inspect
import json
import os
import posix
import sys
import sysconfig
import traceback
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any, Mapping, NoReturn

from . import budget
from .dsl import Model, display_path
from .errors import InputError, SourceLoc, clip
from .ir import System

__all__ = ["SystemSpec", "bundled_model_dir", "discover", "import_file", "plan", "load_system", "load_all",
           "named_mutants", "graph_check_results", "properties_candidates", "build_parameters", "BuildParameter",
           "rule_mutants"]

_PKG = Path(__file__).resolve().parent
# where the interpreter's own code and installed packages live: a frame there is never "the model's line"
_LIBRARY = tuple(sorted({str(Path(p).resolve()) for k in ("stdlib", "platstdlib", "purelib", "platlib")
                         if (p := sysconfig.get_paths().get(k))}))


def bundled_model_dir(game: str = "agot") -> Path:
    """The bundled model directory (in the wheel, or in a source checkout)."""
    for root in (_PKG / "_bundled", _PKG.parent.parent):
        d = root / "model" / game
        if d.is_dir():
            return d
    raise InputError(f"the bundled model '{game}' is missing from this installation")


def properties_candidates(model_file: Path) -> tuple[Path, Path | None]:
    """Where the properties of ``D/x.py`` are looked for, in order: beside the model, then the project layout.

    The project layout applies to ``<root>/model/<game>/x.py`` only: ``<root>/properties/<game>/x.py``.
    """
    d = model_file.resolve().parent
    layout = d.parent.parent / "properties" / d.name / model_file.name if d.parent.name == "model" else None
    return d / "properties" / model_file.name, layout


def _find_mutants(model_file: Path) -> Path | None:
    """The rule-mutants file of ``D/x.py``: ``D/mutants/x.py``, else ``<root>/mutants/<game>/x.py``."""
    d = model_file.resolve().parent
    beside = d / "mutants" / model_file.name
    if beside.is_file():
        return beside
    layout = d.parent.parent / "mutants" / d.name / model_file.name if d.parent.name == "model" else None
    return layout if layout is not None and layout.is_file() else None


def _shown(p: Path) -> str:
    return display_path(str(p))


def _find_properties(f: Path, explicit: Path | None) -> tuple[Path | None, tuple[str, ...]]:
    """The properties file of model file ``f`` and the notes about the files passed over."""
    if explicit is not None:
        if explicit.is_dir():
            cand = explicit / f.name
            return (cand if cand.is_file() else None), ()
        return explicit, ()
    beside, layout_file = properties_candidates(f)
    layout = layout_file if layout_file is not None and layout_file.is_file() else None
    if beside.is_file():
        notes = (f"{_shown(layout)} is not loaded: the properties beside the model, {_shown(beside)}, come first",) \
            if layout is not None else ()
        return beside, notes
    if _holds_properties(beside.parent):
        found = f"loaded {_shown(layout)} instead" if layout is not None else \
            "this system has only the properties its model file declares"
        return layout, (f"{_shown(beside.parent)}/ has no {f.name}: {found}",)
    return layout, ()


def _holds_properties(pdir: Path) -> bool:
    """``pdir`` is a folder of properties files (not the project layout's folder of game folders)."""
    return pdir.is_dir() and any(not f.name.startswith("_") for f in pdir.glob("*.py"))


def _stray_properties(d: Path, systems: list[Path]) -> tuple[str, ...]:
    """Notes for the files of ``d/properties/`` that no system of the folder would load."""
    import difflib

    pdir = d / "properties"
    if not pdir.is_dir():
        return ()
    models = sorted(f.name for f in d.glob("*.py") if not f.name.startswith("_"))
    out = []
    for pf in sorted(pdir.glob("*.py")):
        if pf.name.startswith("_") or pf.name in models:
            continue
        close = difflib.get_close_matches(pf.name, [f.name for f in systems] or models, n=1)
        hint = f" (did you mean {close[0]}?)" if close else ""
        out.append(f"{_shown(pf)} matches no model file in {_shown(d)}/ and is not loaded{hint}")
    return tuple(out)


@dataclass(frozen=True)
class SystemSpec:
    """One system module of a model and its scenarios.

    ``notes`` are warnings about the properties lookup (files passed over);
    ``mutants_file`` holds the system's rule mutants (None: it has none).
    """

    name: str
    file: Path
    properties_file: Path | None
    scenarios: tuple[tuple[str, tuple[tuple[str, Any], ...]], ...]
    checked: tuple[str, ...]
    notes: tuple[str, ...] = ()
    mutants_file: Path | None = None

    def params(self, scenario: str) -> dict[str, Any]:
        for n, p in self.scenarios:
            if n == scenario:
                return dict(p)
        known = ", ".join(n for n, _ in self.scenarios)
        raise InputError(f"system '{self.name}' has no scenario '{clip(scenario)}' (it has: {known})",
                         SourceLoc(display_path(str(self.file))))


_MODULES: dict[tuple[str, int, int], ModuleType] = {}
"""Model modules imported in this process, by (resolved path, modification time, size)."""


def import_file(path: Path) -> ModuleType:
    """Import a model (or properties, or timing) file, once per process.

    The module's top-level code runs the first time only; an edited file
    (another modification time or size) is imported again.  Anything it
    raises, ``SystemExit`` and ``KeyboardInterrupt`` included, is an
    :class:`InputError` at the line of the file that raised it.
    """
    try:
        resolved = path.resolve()
        st = resolved.stat()
    except (OSError, RuntimeError) as exc:
        raise InputError(f"cannot read {clip(str(path))}: {getattr(exc, 'strerror', None) or exc}") from None
    key = (str(resolved), st.st_mtime_ns, st.st_size)
    if key in _MODULES:
        return _MODULES[key]
    digest = hashlib.sha1(str(resolved).encode("utf-8", "surrogateescape")).hexdigest()[:12]  # any file name
    modname = f"_ruleproof_user_{path.stem}_{digest}"
    spec = importlib.util.spec_from_file_location(modname, path)
    if spec is None or spec.loader is None:
        raise InputError("cannot load this file as Python", SourceLoc(display_path(str(path))))
    mod = importlib.util.module_from_spec(spec)
    sys.modules[modname] = mod  # dataclasses and pickling look modules up by name
    with _user_code(path), budget.stage(f"loading {path}"):
        sys.path.insert(0, str(path.parent))
        try:
            spec.loader.exec_module(mod)
        except BaseException:
            sys.modules.pop(modname, None)
            raise
        finally:
            sys.path.remove(str(path.parent))
    _MODULES[key] = mod
    return mod


_import = import_file


_REAL_OS_EXIT = os._exit


class _OsExit(SystemExit):
    """``os._exit`` called by a model's code: reported at its line like ``sys.exit``."""


def _refuse_os_exit(status: int) -> NoReturn:
    raise _OsExit(status)


class _user_code:
    """Turn anything raised by user code into an InputError at its line.

    That includes ``SystemExit`` (a model calling ``sys.exit(0)`` must not
    end ruleproof with status 0) and a ``KeyboardInterrupt`` the model
    raises itself; a real interrupt (a signal ruleproof received) and the
    run's own budget exceptions pass through.
    """

    depth = 0
    """How many ``_user_code`` blocks are open (they nest: a properties file is imported while a model builds)."""

    def __init__(self, *files: Path) -> None:
        self.files = {str(f.resolve()) for f in files}

    def __enter__(self) -> None:
        if _user_code.depth == 0:  # ``os._exit(0)`` would end ruleproof with status 0 and no report
            os._exit = posix._exit = _refuse_os_exit
        _user_code.depth += 1
        return None

    def __exit__(self, et: type[BaseException] | None, e: BaseException | None, tb: Any) -> None:
        _user_code.depth -= 1
        if _user_code.depth == 0:
            os._exit = posix._exit = _REAL_OS_EXIT
        if e is None or isinstance(e, InputError):
            return
        if budget.passes_through(e) and not isinstance(e, budget.StageTimeout):
            return
        if isinstance(e, SyntaxError):
            f = display_path(e.filename) if e.filename else "?"
            raise InputError(f"syntax error: {e.msg}", SourceLoc(f, e.lineno or 0)) from None
        loc = _user_line(traceback.extract_tb(tb), self.files)
        if loc is None and self.files:
            loc = SourceLoc(display_path(sorted(self.files)[0]))
        if isinstance(e, budget.StageTimeout):
            limit = budget.stage_limit()
            within = f" within {limit:g} s (the --timeout budget)" if limit else ""
            msg = f"loading or building the model did not finish{within}; stopped here"
        elif isinstance(e, _OsExit):
            msg = f"the model called os._exit({e.code!r}) (a model must return from build(), not end the process)"
        elif isinstance(e, SystemExit):
            msg = f"the model called sys.exit({e.code!r}) (a model must return from build(), not end the process)"
        elif isinstance(e, KeyboardInterrupt):
            msg = "the model raised KeyboardInterrupt"
        elif isinstance(e, MemoryError):
            msg = "out of memory while running the model's code (see --memory-limit)"
        elif isinstance(e, (NameError, AttributeError)):
            msg = clip(e)
        else:
            msg = f"{type(e).__name__}: {clip(e)}"
        raise InputError(msg, loc) from None


def _user_line(frames: traceback.StackSummary, files: set[str]) -> SourceLoc | None:
    """The innermost line of the model's own files, else of any other user code.

    Frames of ruleproof itself, of the standard library and of installed packages are never the
    answer: a budget or an interrupt can land inside any of them (a weakref callback, the
    garbage collector), and the user needs the line of their model that was running then.
    """
    mine: SourceLoc | None = None
    other: SourceLoc | None = None
    for fs in frames:
        if fs.filename.startswith("<"):
            continue
        where = str(Path(fs.filename).resolve())
        loc = SourceLoc(display_path(fs.filename), fs.lineno or 0)
        if where in files:
            mine = loc
        elif not where.startswith(str(_PKG)) and not where.startswith(_LIBRARY):
            other = loc
    return mine or other


def _model_path(path: str | Path) -> Path:
    """The model argument as a path that exists (bad input otherwise)."""
    text = str(path)
    if not text or "\0" in text:
        raise InputError(f"no such model: '{clip(text)}' (give a model directory such as model/agot, or a .py file)")
    p = Path(text)
    try:
        exists = p.exists()
    except (OSError, ValueError) as exc:  # a name too long for the file system, ...
        raise InputError(f"no such model: {clip(text)} ({getattr(exc, 'strerror', None) or exc})") from None
    if not exists:
        raise InputError(f"no such model: {clip(text)} (give a model directory such as model/agot, or a .py file)")
    return p


def _scenarios(mod: ModuleType, where: SourceLoc) -> tuple[tuple[tuple[str, tuple[tuple[str, Any], ...]], ...],
                                                            tuple[str, ...]]:
    """The module's ``SCENARIOS`` and ``CHECKED``, checked for shape."""
    scen = getattr(mod, "SCENARIOS", {"default": {}})
    if not isinstance(scen, Mapping) or not scen:
        raise InputError("SCENARIOS must be a non-empty dict of name -> params", where)
    out: list[tuple[str, tuple[tuple[str, Any], ...]]] = []
    for name, params in scen.items():
        if not isinstance(name, str) or not name:
            raise InputError(f"SCENARIOS: a scenario name must be a non-empty string, got {clip(repr(name))}", where)
        if not isinstance(params, Mapping) or not all(isinstance(k, str) for k in params):
            raise InputError(f"SCENARIOS['{clip(name)}'] must be a dict of parameter name -> value, "
                             f"got {clip(repr(params))}", where)
        out.append((name, tuple(sorted(params.items()))))
    raw = getattr(mod, "CHECKED", (next(iter(scen)),))
    if isinstance(raw, str) or not isinstance(raw, (list, tuple)) or not raw:
        raise InputError(f"CHECKED must be a non-empty list of scenario names, got {clip(repr(raw))}", where)
    for c in raw:
        if not isinstance(c, str) or c not in scen:
            raise InputError(f"CHECKED names an unknown scenario {clip(repr(c))}", where)
    twice = sorted({c for c in raw if raw.count(c) > 1})
    if twice:
        raise InputError(f"CHECKED names the scenario {clip(repr(twice[0]))} twice", where)
    return tuple(out), tuple(raw)


def _explicit_properties(properties: str | Path | None, files: list[Path]) -> Path | None:
    if properties is None:
        return None
    pp = Path(properties)
    if not pp.exists():
        raise InputError(f"no such properties file or directory: {properties}")
    if pp.is_file() and pp.suffix != ".py":
        raise InputError(f"a properties file must be Python (.py): {properties}")
    if pp.is_file() and len(files) > 1:
        raise InputError(f"--properties names one file but this model has {len(files)} systems: give a directory "
                         "of <system>.py properties files")
    if pp.is_dir() and not any((pp / f.name).is_file() for f in files):
        names = ", ".join(f.name for f in files)
        raise InputError(f"the properties directory {properties} has no file for any system of this model ({names})")
    return pp


def discover(path: str | Path | None, properties: str | Path | None = None) -> list[SystemSpec]:
    """The systems of the model at ``path`` (None: the bundled AGoT model).

    ``properties``: a properties file (a one-system model) or a directory of
    ``<system>.py`` files to load instead of the lookup beside the model.
    """
    p = bundled_model_dir() if path is None else _model_path(path)
    try:
        if p.is_dir():
            files = sorted(f for f in p.glob("*.py") if not f.name.startswith("_") and f.is_file())
            if not files:
                raise InputError(f"model directory {clip(display_path(str(p)))} has no model files (*.py)")
        else:
            if p.suffix != ".py":
                raise InputError(f"a model file must be Python (.py): {clip(str(path))}")
            files = [p]
    except OSError as exc:
        raise InputError(f"cannot read the model {clip(str(path))}: {exc.strerror or exc}") from None
    explicit = _explicit_properties(properties, files)
    stray = () if explicit is not None else _stray_properties(files[0].resolve().parent, files)
    specs: list[SystemSpec] = []
    for f in files:
        mod = _import(f)
        build = getattr(mod, "build", None)
        where = SourceLoc(display_path(str(f)))
        if not callable(build):
            raise InputError("a model file must define build(**params) -> Model", SourceLoc(where.file, 1))
        scenarios, checked = _scenarios(mod, where)
        pf, notes = _find_properties(f, explicit)
        if not specs:
            notes = notes + stray
        specs.append(SystemSpec(f.stem, f, pf, scenarios, checked, notes, _find_mutants(f)))
    return specs


@dataclass(frozen=True)
class BuildParameter:
    """One parameter of a system's ``build()``: its name, type (as written) and default (``required`` if none)."""

    name: str
    type: str
    default: Any
    required: bool


_TYPES: dict[str, tuple[type, ...]] = {"int": (int,), "bool": (bool,), "str": (str,), "float": (int, float)}


def build_parameters(build: Any) -> tuple[list[BuildParameter], bool]:
    """The parameters of ``build`` and whether it also takes any keyword (``**params``)."""
    out = []
    any_kw = False
    for k, p in inspect.signature(build).parameters.items():
        if p.kind is inspect.Parameter.VAR_KEYWORD:
            any_kw = True
            continue
        if p.kind is inspect.Parameter.VAR_POSITIONAL:
            continue
        ann = p.annotation
        text = "" if ann is inspect.Parameter.empty else \
            (ann if isinstance(ann, str) else getattr(ann, "__name__", str(ann)))
        req = p.default is inspect.Parameter.empty
        out.append(BuildParameter(k, text, None if req else p.default, req))
    return out, any_kw


def _check_overrides(spec: SystemSpec, build: Any, overrides: Mapping[str, Any]) -> None:
    """``--param`` names and value types against ``build()``'s signature: bad input with a suggestion."""
    import difflib

    params, any_kw = build_parameters(build)
    by_name = {p.name: p for p in params}
    loc = SourceLoc(display_path(str(spec.file)), getattr(getattr(build, "__code__", None), "co_firstlineno", 0))
    for k, v in overrides.items():
        p = by_name.get(k)
        if p is None and k == "mutant" and spec.mutants_file is not None:
            if not isinstance(v, str):
                raise InputError(f"--param mutant takes str, got {v!r} (a string value is written in JSON quotes: "
                                 "--param NAME='\"text\"')", loc)
            continue
        if p is None:
            if any_kw:
                continue
            close = difflib.get_close_matches(k, list(by_name), n=1)
            hint = f" (did you mean '{close[0]}'?)" if close else ""
            known = ", ".join(by_name) or "none"
            raise InputError(f"--param {k}: system '{spec.name}' has no build parameter '{k}'{hint}; "
                             f"its parameters: {known}", loc)
        want = _TYPES.get(p.type)
        if want is not None and (not isinstance(v, want) or (bool not in want and isinstance(v, bool))):
            shown = v if isinstance(v, str) else json.dumps(v)
            hint = " (a string value is written in JSON quotes: --param NAME='\"text\"')" if p.type == "str" else ""
            raise InputError(f"--param {k} takes {p.type}, got {clip(repr(shown))}{hint}", loc)


def rule_mutants(spec: SystemSpec) -> Any:
    """The rule mutants of a system (a :class:`ruleproof.rule_mutants.RuleMutants`; empty without a file)."""
    from .rule_mutants import RuleMutants

    if spec.mutants_file is None:
        return RuleMutants()
    mod = _import(spec.mutants_file)
    muts = getattr(mod, "MUTANTS", None)
    if not isinstance(muts, RuleMutants):
        raise InputError("a mutants file must define MUTANTS = RuleMutants()",
                         SourceLoc(display_path(str(spec.mutants_file)), 1))
    return muts


def load_system(spec: SystemSpec, scenario: str | None = None, overrides: Mapping[str, Any] | None = None) -> System:
    """Build and ground one system at a scenario (with parameter overrides and, ``mutant``, a rule mutant).

    Building is bounded by the run's stage limit (:func:`ruleproof.budget.stage`).
    """
    name = scenario or spec.checked[0]
    mod = _import(spec.file)
    try:
        build_params = build_parameters(mod.build)[0]
    except (TypeError, ValueError):  # a build() whose signature cannot be read
        build_params = []
    params = {p.name: p.default for p in build_params if not p.required}
    params.update(spec.params(name))
    _check_overrides(spec, mod.build, overrides or {})
    params.update(overrides or {})
    mutant = ""
    if "mutant" in params and not any(p.name == "mutant" for p in build_params):
        mutant = str(params.pop("mutant") or "")
    files = [spec.file] + [f for f in (spec.properties_file, spec.mutants_file) if f is not None]
    with _user_code(*files), budget.stage(f"building {spec.name}[{name}]"):
        m = mod.build(**params)
        if not isinstance(m, Model):
            raise InputError("build() must return a ruleproof.dsl.Model", SourceLoc(display_path(str(spec.file))))
        m.scenario = name
        m.params = {**m.params, **params}  # keys build() set itself stay; the scenario's values win
        if mutant:
            rule_mutants(spec).apply(m, mutant)
        if spec.properties_file is not None:
            pmod = _import(spec.properties_file)
            reg = getattr(pmod, "register", None)
            if not callable(reg):
                raise InputError("a properties file must define register(m)",
                                 SourceLoc(display_path(str(spec.properties_file)), 1))
            reg(m)
        return m.finish()


def plan(path: str | Path | None, scenario: str | None = None, properties: str | Path | None = None,
         specs: list[SystemSpec] | None = None) -> list[tuple[SystemSpec, str]]:
    """Which (system, scenario) pairs a run loads, in order: ``scenario`` if given, else each checked one.

    ``specs``: the model's systems as :func:`discover` found them (else it
    is called).  Raises :class:`InputError` for an empty ``scenario`` or one
    no system has.
    """
    if scenario is not None and not scenario.strip():
        raise InputError("--scenario needs a scenario name (omit it to check each system's checked scenarios)")
    out: list[tuple[SystemSpec, str]] = []
    known: set[str] = set()
    for spec in specs if specs is not None else discover(path, properties):
        known.update(n for n, _ in spec.scenarios)
        if scenario is None:
            out.extend((spec, n) for n in spec.checked)
        elif scenario in dict(spec.scenarios):
            out.append((spec, scenario))
    if scenario is not None and not out:
        close = difflib.get_close_matches(scenario, sorted(known), n=1)
        hint = f" (did you mean '{clip(close[0])}'?)" if close else ""
        listed = ", ".join(sorted(known)[:20]) + (", ..." if len(known) > 20 else "")
        raise InputError(f"no system of this model has a scenario '{clip(scenario)}'{hint}; its scenarios: "
                         f"{clip(listed)}")
    return out


def load_all(path: str | Path | None, scenario: str | None = None, overrides: Mapping[str, Any] | None = None,
             properties: str | Path | None = None, specs: list[SystemSpec] | None = None) -> list[System]:
    """Every system of a model: at ``scenario`` if given, else at each checked scenario (see :func:`plan`).

    ``specs``: the model's systems as :func:`discover` found them (else it is called).
    """
    return [load_system(spec, n, overrides) for spec, n in plan(path, scenario, properties, specs)]


def named_mutants(spec: SystemSpec) -> tuple[tuple[str, str], ...]:
    """The system's rule mutants as ``(name, the rule it breaks)``: each is built with ``--param mutant=NAME``.

    They are the edits its rule-mutants file registers (:func:`rule_mutants`, with what each breaks),
    else the names of a ``MUTANTS`` tuple of the system module (names its ``build(mutant=...)``
    takes; the empty name is the rules themselves).
    """
    if spec.mutants_file is not None:
        muts = rule_mutants(spec)
        return tuple((n, muts.doc(n)) for n in muts.names())
    named = getattr(import_file(spec.file), "MUTANTS", ())
    return tuple((str(x), "") for x in named if x) if isinstance(named, (tuple, list)) else ()


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
            from .results import Result

            with _user_code(spec.file):
                found = list(hook())
            wrong = next((x for x in found if not isinstance(x, Result)), None)
            if wrong is not None:
                raise InputError(f"graph_checks() must return ruleproof.results.Result objects, got "
                                 f"{clip(repr(wrong))}", SourceLoc(display_path(str(spec.file))))
            out.extend(found)
    return out
