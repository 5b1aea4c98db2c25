"""Ruling files: loading, validation, and compiling each ruling against its system.

A file names a model (a bundled system such as ``agot/claim`` or a model
file), a scenario and parameters, says what variables the situation does not
name may be (``unnamed: initial`` or ``symbolic``) and lists rulings.  A ruling
is a situation plus either steps (with ``refused: true`` and ``expect:``) or a
question (``reachable``, ``never``, ``always_after``), with the expected answer
and its source.  Everything is checked when the file is loaded: the schema
(``ruling.schema.json``, shipped beside this module), every variable, label,
value, action, parameter and choice, and every expression, so that a mistake
is one ``file:line: error: ...`` before anything runs.
"""

from __future__ import annotations

import inspect
import json
import re
from dataclasses import dataclass, field, replace
from functools import lru_cache
from pathlib import Path
from typing import Any, Mapping, Sequence

from .. import ir
from ..dsl import display_path
from ..errors import InputError, SourceLoc
from ..evaluator import domain
from ..ir import Action, BoolT, EnumT, Expr, IntT, Property, PropKind, StateVar, System, Value
from ..loader import SystemSpec, bundled_model_dir, discover, load_system
from .expr import Compiler, ExprError, Names, Ref, parse, suggest
from .expr import Name as NameNode
from .source import Node, load_yaml

__all__ = [
    "SCHEMA_FILE",
    "DEFAULT_DEPTH",
    "Expectation",
    "Step",
    "Question",
    "Ruling",
    "load_rulings",
    "ruling_files",
    "bundled_rulings_dir",
]

SCHEMA_FILE = Path(__file__).resolve().parent / "ruling.schema.json"
DEFAULT_DEPTH = 12
_PKG = Path(__file__).resolve().parent.parent


# --------------------------------------------------------------------------- compiled rulings


@dataclass(frozen=True)
class Expectation:
    """A condition that must hold, as written and compiled."""

    text: str
    expr: Expr
    line: int


@dataclass(frozen=True)
class Step:
    """One step of a ruling: a ground action (None: its parameters never allow it) and the named choices."""

    text: str
    line: int
    action: int | None
    choices: tuple[tuple[str, Value], ...]
    refused: bool
    expect: tuple[Expectation, ...] = ()
    answers: bool = False  # says 'refused' (true or false) or 'expect' explicitly


@dataclass(frozen=True)
class Question:
    """A question over every continuation of the situation.

    ``kind`` is ``reachable``, ``never`` or ``always_after``; ``prop`` is the
    property the engines check (a target, an invariant, an action property);
    ``expected`` is the ruling's answer (it can happen / it never happens /
    it always holds); ``depth`` is None when the ruling does not bound it.
    """

    kind: str
    text: str
    prop: Property
    expected: bool
    depth: int | None
    step_text: str = ""
    step_conds: tuple[tuple[int, Expr], ...] = ()  # always_after: ground action -> the choices it names


@dataclass(frozen=True)
class Ruling:
    """One ruling, compiled against its system (``system`` starts in the ruling's situation)."""

    name: str
    source: str
    quote: str
    file: str
    line: int
    model: str
    scenario: str
    unnamed: str
    system: System
    situation: tuple[tuple[str, str], ...]  # (label, value as written) in file order
    steps: tuple[Step, ...] = ()
    expect: tuple[Expectation, ...] = ()
    question: Question | None = None
    params: tuple[tuple[str, Any], ...] = field(default=(), compare=False)
    assume: tuple[str, ...] = ()

    @property
    def where(self) -> str:
        return f"{self.file}:{self.line}"


# --------------------------------------------------------------------------- files


def bundled_rulings_dir() -> Path:
    """The bundled rulings (in the wheel, or in a source checkout)."""
    for root in (_PKG / "_bundled", _PKG.parent.parent):
        d = root / "rulings"
        if d.is_dir():
            return d
    raise InputError("the bundled rulings are missing from this installation")


def ruling_files(paths: Sequence[str | Path]) -> list[Path]:
    """The ruling files named: files as given, directories searched for ``*.yaml`` / ``*.yml`` (sorted)."""
    out: list[Path] = []
    for p in paths:
        path = Path(p)
        if path.is_dir():
            found = sorted(f for f in path.rglob("*") if f.suffix in (".yaml", ".yml") and f.is_file())
            if not found:
                raise InputError(f"no ruling files (*.yaml) in {display_path(str(path))}")
            out.extend(found)
        elif path.is_file():
            out.append(path)
        else:
            raise InputError(f"no such ruling file or directory: {p}")
    return out


@lru_cache(maxsize=1)
def _schema() -> dict[str, Any]:
    return dict(json.loads(SCHEMA_FILE.read_text(encoding="utf-8")))


def load_rulings(paths: Sequence[str | Path], params: Mapping[str, Any] | None = None) -> list[Ruling]:
    """Every ruling of the named files and directories, compiled (raises :class:`InputError`).

    ``params`` override every ruling's scenario parameters (e.g. ``{"mutant": "kill_immune"}``: which rulings does
    a broken rule contradict?).
    """
    cache = _Systems(dict(params or {}))
    out: list[Ruling] = []
    for f in ruling_files(paths):
        out.extend(_load_file(f, cache))
    return out


def _load_file(path: Path, cache: "_Systems") -> list[Ruling]:
    shown = display_path(str(path))
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        raise InputError(f"cannot read the ruling file: {e}", SourceLoc(shown)) from None
    root = load_yaml(text, shown)
    _validate(root)
    rulings_node = root.get("rulings")
    assert rulings_node is not None
    return [_compile(root, r, path, cache) for r in rulings_node.value]


# --------------------------------------------------------------------------- schema validation

_KINDS = {"string": "a text", "integer": "a whole number", "boolean": "true or false", "array": "a list",
          "object": "a mapping (key: value)", "number": "a number", "null": "empty"}


def _validate(root: Node) -> None:
    import jsonschema

    validator = jsonschema.Draft202012Validator(_schema())
    errors = sorted(validator.iter_errors(root.plain()), key=lambda e: (len(list(e.absolute_path)), str(e.message)))
    if not errors:
        return
    err = min(errors, key=lambda e: (root.at(list(e.absolute_path)).line, -len(list(e.absolute_path))))
    err = _deepest(err)
    path = list(err.absolute_path)
    node = root.at(path)
    where = _describe_path(path)
    v = err.validator
    if v == "additionalProperties" and isinstance(node.value, dict):
        allowed = sorted((err.schema.get("properties") or {}).keys()) if isinstance(err.schema, dict) else []
        extra = [k for k in node.value if k not in allowed]
        key = extra[0] if extra else "?"
        raise InputError(f"unknown key '{key}'{where}{suggest(key, allowed)} (allowed: {', '.join(allowed)})",
                         SourceLoc(node.file, node.key_line(key)))
    if v == "required":
        missing = [str(k) for k in err.validator_value if isinstance(node.value, dict) and k not in node.value]
        what = missing[0] if missing else err.validator_value[0]
        raise InputError(f"missing '{what}'{where}{_REQUIRED_HINT.get(what, '')}", node.loc)
    if v == "type":
        kinds = err.validator_value if isinstance(err.validator_value, list) else [err.validator_value]
        want = " or ".join(_KINDS.get(str(k), str(k)) for k in kinds)
        raise InputError(f"wrong type{where}: expected {want}, got {_shown(node.value)}", node.loc)
    if v == "enum":
        opts = ", ".join(str(x) for x in err.validator_value)
        raise InputError(f"'{node.value}' is not allowed{where} (one of: {opts})", node.loc)
    if v in ("minimum", "maximum"):
        raise InputError(f"{node.value} is out of range{where} ({v} {err.validator_value})", node.loc)
    if v == "minItems" and isinstance(node.value, list) and not node.value:
        raise InputError(f"empty list{where}", node.loc)
    if v in ("minItems", "maxItems") and path and path[-1] == "always_after":
        raise InputError("always_after takes [step, condition]", node.loc)
    if v == "minLength":
        raise InputError(f"empty text{where}", node.loc)
    raise InputError(f"{err.message}{where}", node.loc)


_REQUIRED_HINT = {
    "unnamed": ": say what the variables a situation does not name may be ('initial': their declared initial "
               "values; 'symbolic': any value)",
    "source": ": where does the ruling come from (Rules Reference section, FAQ entry, tournament ruling)?",
    "quote": ": quote the words of the source that make the ruling",
    "rulings": ": a list of rulings",
    "model": ": the system the rulings are about, e.g. 'agot/claim'",
    "do": ": the action, e.g. 'marshal(player 1, character 3 of player 1)'",
    "ruling": ": the ruling's name",
}


def _deepest(err: Any) -> Any:
    """For 'anyOf' errors, the sub-error that went deepest into the value (the most specific)."""
    while err.context:
        best = max(err.context, key=lambda e: (len(list(e.absolute_path)), e.validator != "type"))
        if len(list(best.absolute_path)) <= len(list(err.absolute_path)) and err.validator != "anyOf":
            break
        if len(list(best.absolute_path)) < len(list(err.absolute_path)):
            break
        if len(list(best.absolute_path)) == len(list(err.absolute_path)):
            return err
        err = best
    return err


def _describe_path(path: Sequence[Any]) -> str:
    if not path:
        return ""
    parts: list[str] = []
    for p in path:
        parts.append(f"[{p + 1}]" if isinstance(p, int) else (("." if parts else "") + str(p)))
    return f" in '{''.join(parts)}'"


def _shown(v: Any) -> str:
    if isinstance(v, dict):
        return "a mapping"
    if isinstance(v, list):
        return "a list"
    if isinstance(v, bool):
        return "true" if v else "false"
    if v is None:
        return "nothing"
    return repr(v) if isinstance(v, str) else str(v)


# --------------------------------------------------------------------------- models and systems


class _Systems:
    """Systems built once per (model file, scenario, parameters) in one load."""

    def __init__(self, overrides: dict[str, Any]) -> None:
        self.overrides = overrides
        self.specs: dict[Path, SystemSpec] = {}
        self.systems: dict[tuple[Path, str, str], tuple[System, Names]] = {}

    def spec(self, node: Node, ruling_file: Path) -> tuple[SystemSpec, str]:
        name = str(node.value)
        path = _model_path(name, node, ruling_file)
        if path not in self.specs:
            try:
                specs = discover(path)
            except InputError as e:
                raise node.error(f"cannot load the model '{name}': {e.render()}") from None
            self.specs[path] = specs[0]
        return self.specs[path], name

    def system(self, spec: SystemSpec, scenario: str, params: Mapping[str, Any], where: Node) -> tuple[System, Names]:
        key = (spec.file, scenario, json.dumps(params, sort_keys=True, default=str))
        hit = self.systems.get(key)
        if hit is None:
            try:
                sy = load_system(spec, scenario, params)
            except InputError as e:
                raise where.error(f"cannot build '{spec.name}' at scenario '{scenario}'"
                                  f"{' with ' + _params_text(params) if params else ''}: {e.render()}") from None
            hit = (sy, Names(sy))
            self.systems[key] = hit
        return hit


def _params_text(params: Mapping[str, Any]) -> str:
    return ", ".join(f"{k}={v!r}" for k, v in params.items())


def _bundled_games() -> dict[str, Path]:
    try:
        root = bundled_model_dir("agot").parent
    except InputError:
        return {}
    return {d.name: d for d in sorted(root.iterdir()) if d.is_dir() and not d.name.startswith(("_", "."))}


def _model_path(name: str, node: Node, ruling_file: Path) -> Path:
    if name.endswith(".py"):
        for base in (Path.cwd(), ruling_file.resolve().parent):
            p = Path(name) if Path(name).is_absolute() else base / name
            if p.is_file():
                return p.resolve()
        raise node.error(f"no such model file: {name} (a path is read from the current directory, "
                         "then from the ruling file's directory)")
    game, sep, system = name.partition("/")
    games = _bundled_games()
    if not sep or not system or "/" in system:
        raise node.error(f"unknown system '{name}': name a bundled system as 'game/system' (e.g. 'agot/claim') "
                         "or a model file ending in .py")
    if game not in games:
        raise node.error(f"unknown system '{name}': no bundled game '{game}'{suggest(game, list(games))}")
    known = sorted(f.stem for f in games[game].glob("*.py") if not f.name.startswith("_"))
    if system not in known:
        hint = suggest(f"{game}/{system}", [f"{game}/{k}" for k in known])
        raise node.error(f"unknown system '{name}'{hint}" + ("" if hint else f" ({game} has: {', '.join(known)})"))
    return (games[game] / f"{system}.py").resolve()


# --------------------------------------------------------------------------- compiling one ruling


def _inherit(root: Node, r: Node, key: str) -> Node | None:
    got = r.get(key)
    return got if got is not None else root.get(key)


def _compile(root: Node, r: Node, path: Path, cache: _Systems) -> Ruling:
    name_node = r.get("ruling")
    assert name_node is not None
    model_node = _inherit(root, r, "model")
    assert model_node is not None
    spec, model_name = cache.spec(model_node, path)
    scen_node = _inherit(root, r, "scenario")
    known_scen = [n for n, _ in spec.scenarios]
    scenario = str(scen_node.value) if scen_node is not None else spec.checked[0]
    if scenario not in known_scen:
        assert scen_node is not None
        raise scen_node.error(f"system '{model_name}' has no scenario '{scenario}'{suggest(scenario, known_scen)} "
                              f"(it has: {', '.join(known_scen)})")
    params: dict[str, Any] = {}
    for pn in (root.get("params"), r.get("params")):
        if pn is not None:
            params.update(pn.plain())
    if params:
        _check_params(spec, params, r.get("params") or root.get("params") or r)
    params.update(cache.overrides)
    unnamed_node = _inherit(root, r, "unnamed")
    assert unnamed_node is not None
    unnamed = str(unnamed_node.value)
    system, names = cache.system(spec, scenario, params, scen_node or model_node)

    situation, shown = _situation(names, [n for n in (root.get("situation"), r.get("situation")) if n is not None])
    assume = tuple(_conditions(names, r.get("assume")))
    sys_s = _situated(system, situation, unnamed, tuple(e.expr for e in assume))

    steps_node, expect_node = r.get("steps"), r.get("expect")
    questions = [k for k in ("reachable", "never", "always_after") if r.get(k) is not None]
    base = dict(name=str(name_node.value), source=str(r.get("source").value),  # type: ignore[union-attr]
                quote=_one_line(str(r.get("quote").value)), file=r.file, line=r.line,  # type: ignore[union-attr]
                model=model_name, scenario=scenario, unnamed=unnamed, situation=shown,
                params=tuple(sorted(params.items())), assume=tuple(e.text for e in assume))
    if steps_node is not None and questions:
        raise r.error(f"ruling '{name_node.value}' has both steps and a question ({questions[0]}): "
                      "a ruling is either a sequence of steps or one question")
    if len(questions) > 1:
        raise r.error(f"ruling '{name_node.value}' asks two questions ({questions[0]}, {questions[1]}): "
                      "one per ruling")
    if steps_node is not None:
        steps = tuple(_step(names, s) for s in steps_node.value)
        final = tuple(_conditions(names, expect_node))
        if r.get("expected") is not None:
            raise r.get("expected").error(  # type: ignore[union-attr]
                "'expected' answers a question (reachable, never, always_after); a sequence of steps states its "
                "answer with 'expect' and 'refused'")
        if r.get("depth") is not None:
            raise r.get("depth").error("'depth' bounds a question; a sequence has its own length")  # type: ignore[union-attr]
        if not final and not any(s.answers for s in steps):
            raise r.error(f"ruling '{name_node.value}' states no expected answer: add 'expect:' (after a step or at "
                          "the end), or 'refused: true' on a step that the rules do not allow ('refused: false' on "
                          "one they allow)")
        return Ruling(system=sys_s, steps=steps, expect=final, **base)  # type: ignore[arg-type]
    if expect_node is not None:
        raise expect_node.error("'expect' needs steps; a question states its answer with 'expected: true' or 'false'")
    if not questions:
        raise r.error(f"ruling '{name_node.value}' has neither steps nor a question: add 'steps:' or one of "
                      "'reachable:', 'never:', 'always_after:'")
    q = _question(names, r, questions[0], sys_s)
    return Ruling(system=replace(sys_s, properties=(q.prop,)), question=q, **base)  # type: ignore[arg-type]


def _one_line(text: str) -> str:
    return " ".join(text.split())


def _check_params(spec: SystemSpec, params: Mapping[str, Any], node: Node) -> None:
    from ..loader import _import

    mod = _import(spec.file)
    sig = inspect.signature(mod.build)
    if any(p.kind is inspect.Parameter.VAR_KEYWORD for p in sig.parameters.values()):
        return
    known = [k for k in sig.parameters]
    if spec.mutants_file is not None and "mutant" not in known:
        known.append("mutant")  # a rule mutant of the system's mutants file (ruleproof.rule_mutants)
    for k in params:
        if k not in known:
            line = node.key_line(k) if isinstance(node.value, dict) else node.line
            raise InputError(f"system '{spec.name}' has no parameter '{k}'{suggest(k, known)} "
                             f"(it has: {', '.join(known)})", SourceLoc(node.file, line))


# --------------------------------------------------------------------------- situations


def _type_text(t: ir.Type) -> str:
    if isinstance(t, BoolT):
        return "true or false"
    if isinstance(t, IntT):
        return f"a whole number in {t.lo}..{t.hi}"
    return f"a value of {t.name} ({', '.join(t.label(v) for v in t.values[:8])}{', ...' if len(t.values) > 8 else ''})"


def _value(v: StateVar | ir.ChoiceVar, label: str, node: Node, names: Names) -> Value:
    """The YAML scalar ``node`` as a value of ``v``'s type."""
    t, x = v.type, node.value
    if isinstance(t, BoolT):
        if not isinstance(x, bool):
            raise node.error(f"wrong type: '{label}' is true or false, got {_shown(x)}")
        return x
    if isinstance(t, IntT):
        if isinstance(x, bool) or not isinstance(x, int):
            raise node.error(f"wrong type: '{label}' is a whole number ({t.lo}..{t.hi}), got {_shown(x)}")
        if not t.lo <= x <= t.hi:
            raise node.error(f"value {x} is out of range: '{label}' takes {t.lo}..{t.hi}")
        return x
    assert isinstance(t, EnumT)
    text = node.text if node.text is not None and not isinstance(x, str) else x
    if not isinstance(text, (str, int)):
        raise node.error(f"wrong type: '{label}' is {_type_text(t)}, got {_shown(x)}")
    val = names.value(t, str(text))
    if val is None:
        known = list(t.values) + [t.label(y) for y in t.values]
        hint = suggest(str(text), known)
        raise node.error(f"unknown value '{text}' for '{label}'{hint}"
                         + ("" if hint else f" (it is {_type_text(t)})"))
    return val


def _situation(names: Names, nodes: Sequence[Node]) -> tuple[dict[str, tuple[Value, ...]], tuple[tuple[str, str], ...]]:
    """Variable name -> allowed values.  Each mapping (the file's, then the ruling's) sets whole arrays first,
    then single elements; a later mapping overrides an earlier one."""
    merged: dict[str, tuple[Value, ...]] = {}
    shown: dict[str, str] = {}
    for node in nodes:
        whole: dict[str, tuple[Value, ...]] = {}
        single: dict[str, tuple[Value, ...]] = {}
        lines: dict[str, int] = {}
        for key, val in node.items():
            line = node.key_line(key)
            targets = _targets(names, key, Node(key, node.file, line))
            vals = val.value if isinstance(val.value, list) else [val]
            got = tuple(dict.fromkeys(_value(targets[0], key, x, names) for x in vals))
            table = whole if key in names.arrays and key not in names.by_label else single
            for t in targets:
                if t.name in table:
                    raise InputError(f"'{t.label}' is given twice in this situation (also at line {lines[t.name]})",
                                     SourceLoc(node.file, line))
                table[t.name] = got
                lines[t.name] = line
            shown[key] = ", ".join(_shown_value(targets[0], g) for g in got)
        merged.update(whole)
        merged.update(single)
    return merged, tuple(shown.items())


def _shown_value(v: StateVar, x: Value) -> str:
    if isinstance(v.type, EnumT):
        return v.type.label(str(x))
    if isinstance(x, bool):
        return "true" if x else "false"
    return str(x)


def _targets(names: Names, key: str, node: Node) -> list[StateVar]:
    """The ground variables a situation key names: one element, a scalar, or every element of an array."""
    if key in names.by_label:
        return [names.by_label[key]]
    if key in names.by_name:
        return [names.by_name[key]]
    if key in names.arrays:
        return list(names.arrays[key])
    try:
        tree = parse(key)
    except ExprError as e:
        raise node.error(f"'{key}' is not a variable: {e.message}") from None
    if isinstance(tree, Ref):
        try:
            return [names.element(tree.array, tree.parts)]
        except ExprError as e:
            raise node.error(e.message) from None
    if isinstance(tree, NameNode):
        raise node.error(f"unknown variable '{key}'{suggest(key, names.var_names())}")
    raise node.error(f"'{key}' is not a variable (write a variable's label, e.g. 'zone[character 1 of player 1]')")


def _situated(system: System, situation: Mapping[str, tuple[Value, ...]], unnamed: str,
              assume: tuple[Expr, ...]) -> System:
    """``system`` starting in the situation (the other variables at their initial values, or anything)."""
    init = {iv.var: iv.values for iv in system.init_vars}
    out: list[ir.InitVar] = []
    for v in system.vars:
        if v.name in situation:
            vals = situation[v.name]
        elif unnamed == "initial":
            vals = init[v.name]
        else:
            vals = tuple(domain(v.type))
        out.append(ir.InitVar(v.name, vals))
    cons = (system.init_constraints if unnamed == "initial" else ()) + assume
    return replace(system, init_vars=tuple(out), init_constraints=cons, properties=())


# --------------------------------------------------------------------------- expressions, steps, questions


def _conditions(names: Names, node: Node | None, post: bool = False) -> list[Expectation]:
    if node is None:
        return []
    items = node.value if isinstance(node.value, list) else [node]
    return [_condition(names, x, post) for x in items]


def _condition(names: Names, node: Node, post: bool = False) -> Expectation:
    text = str(node.value)
    try:
        expr = Compiler(names, post=post).compile_bool(parse(text))
    except ExprError as e:
        at = f" (column {e.col})" if e.col > 0 and "\n" not in text.strip() and len(text) > 30 else ""
        raise node.error(f"{e.message}{at} in '{_one_line(text)}'") from None
    return Expectation(_one_line(text), expr, node.line)


_DO = re.compile(r"^\s*([^\s()]+)\s*(?:\((.*)\))?\s*$", re.S)


def _parse_do(text: str, node: Node) -> tuple[str, list[str] | None]:
    m = _DO.match(text)
    if m is None:
        raise node.error(f"'{text}' is not a step: write the action and its parameters, e.g. "
                         "'marshal(player 1, character 3 of player 1)'")
    fam, args = m.group(1), m.group(2)
    if args is None:
        return fam, None
    parts = [a.strip() for a in args.split(",")] if args.strip() else []
    return fam, parts


def _ground(names: Names, text: str, node: Node, whole_family: bool = False) -> tuple[str, list[int] | None]:
    """The ground actions a ``do`` text names: ([index]) or (None: the parameters exist but never allow it)."""
    system = names.system
    fam, args = _parse_do(text, node)
    fams = list(system.families())
    if fam not in fams:
        raise node.error(f"unknown action '{fam}'{suggest(fam, fams)}"
                         + ("" if suggest(fam, fams) else f" (actions: {', '.join(fams)})"))
    acts = [(i, a) for i, a in enumerate(system.actions) if a.family == fam]
    if not acts:  # every ground action of the family was dropped (its requirements are false): never allowed
        return fam, None
    arity = len(acts[0][1].params)
    pnames = [p for p, _ in acts[0][1].params]
    if args is None:
        if arity == 0:
            return fam, [acts[0][0]]
        if whole_family:
            return fam, [i for i, _ in acts]
        raise node.error(f"'{fam}' takes {arity} parameter{'s' if arity != 1 else ''} ({', '.join(pnames)}): "
                         f"write e.g. '{acts[0][1].family}({', '.join(acts[0][1].param_labels)})'")
    if len(args) != arity:
        raise node.error(f"'{fam}' takes {arity} parameter{'s' if arity != 1 else ''} ({', '.join(pnames)}), "
                         f"got {len(args)}")
    values: list[str] = []
    for pos, arg in enumerate(args):
        seen = {str(a.params[pos][1]): a.param_labels[pos] for _, a in acts}
        dom = {**names.domain_of(set(seen)), **seen}  # grounding drops actions whose guard is false: the sort is larger
        val = arg if arg in dom else next((v for v, lab in dom.items() if lab == arg), None)
        if val is None:
            labels = list(dict.fromkeys(dom.values()))
            hint = suggest(arg, labels)
            raise node.error(f"'{arg}' is not a parameter '{pnames[pos]}' of '{fam}'{hint}"
                             + ("" if hint else f" (it takes: {', '.join(labels[:8])})"))
        values.append(val)
    hits = [i for i, a in acts if all(a.params[k][1] == v for k, v in enumerate(values))]
    return fam, hits or None


def _choices(names: Names, action: Action | None, node: Node | None, fam: str) -> tuple[tuple[str, Value], ...]:
    if node is None:
        return ()
    if action is None:  # never allowed with these parameters: its choices are those of the family's other actions
        action = next((a for a in names.system.actions if a.family == fam), None)
        if action is None:
            raise node.error(f"'{fam}' never applies in this scenario, so it has no choices to name")
    out: dict[str, Value] = {}
    for key, val in node.items():
        line = node.key_line(key)
        c = next((c for c in action.choices if key in (c.label, c.name)), None)
        if c is None:
            known = [c.label for c in action.choices]
            raise InputError(f"'{action.family}' has no choice '{key}'{suggest(key, known)}"
                             + ("" if suggest(key, known) else
                                f" (its choices: {', '.join(known) if known else 'none'})"),
                             SourceLoc(node.file, line))
        out[c.name] = _value(c, key, val, names)
    return tuple(out.items())


def _step(names: Names, node: Node) -> Step:
    do = node.get("do")
    assert do is not None
    text = str(do.value)
    fam, hits = _ground(names, text, do)
    refused_node = node.get("refused")
    refused = bool(refused_node.value) if refused_node is not None else False
    ai = hits[0] if hits else None
    choices = _choices(names, names.system.actions[ai] if ai is not None else None, node.get("choosing"), fam)
    if ai is None:
        choices = ()
    expect = tuple(_conditions(names, node.get("expect")))
    if refused and expect:
        raise node.get("expect").error(  # type: ignore[union-attr]
            "a refused step changes nothing: put 'expect' on the step before it, or at the end")
    return Step(_one_line(text), do.line, ai, choices, refused, expect, refused_node is not None or bool(expect))


def _question(names: Names, r: Node, kind: str, system: System) -> Question:
    q = r.get(kind)
    assert q is not None
    expected = r.get("expected")
    if expected is None:
        raise r.error(f"ruling '{r.get('ruling').value}' asks '{kind}' but gives no expected answer: "  # type: ignore[union-attr]
                      "add 'expected: true' or 'expected: false'")
    depth_node = r.get("depth")
    depth = int(depth_node.value) if depth_node is not None else None
    name = str(r.get("ruling").value)  # type: ignore[union-attr]
    if kind in ("reachable", "never"):
        cond = _condition(names, q)
        prop = Property(name, PropKind.REACH if kind == "reachable" else PropKind.INVARIANT,
                        cond.expr if kind == "reachable" else ir.not_(cond.expr), ())
        return Question(kind, cond.text, prop, bool(expected.value), depth)
    step_node, cond_node = q.value
    if isinstance(step_node.value, dict):
        for bad in ("refused", "expect"):
            if step_node.get(bad) is not None:
                raise step_node.get(bad).error(f"'{bad}' has no meaning in always_after")
        do = step_node.get("do")
        assert do is not None
        choosing = step_node.get("choosing")
    else:
        do, choosing = step_node, None
    fam, hits = _ground(names, str(do.value), do, whole_family=True)
    cond = _condition(names, cond_node, post=True)
    conds: list[tuple[str, Expr]] = []
    step_conds: list[tuple[int, Expr]] = []
    for ai in hits or []:
        a = names.system.actions[ai]
        chosen = _choices(names, a, choosing, fam)
        guard = ir.and_(*(ir.eq(ir.Choice(n, next(c.type for c in a.choices if c.name == n)),
                                ir.Const(v, next(c.type for c in a.choices if c.name == n))) for n, v in chosen))
        conds.append((a.label, ir.implies(guard, cond.expr)))
        step_conds.append((ai, guard))
    prop = Property(name, PropKind.ACTION, ir.TRUE, (), family=fam, conds=tuple(conds))
    return Question(kind, cond.text, prop, bool(expected.value), depth, step_text=_one_line(str(do.value)),
                    step_conds=tuple(step_conds))
