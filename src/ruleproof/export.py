"""``ruleproof export``: a system as Promela (for SPIN) or as SMT-LIB 2 (for any SMT solver).

Promela (:func:`to_promela`), written so that SPIN checks what ruleproof checks:

* every state variable is a global (an array per declared array, flattened
  to one dimension), of the narrowest type that holds its declared range
  (``bool``, ``byte``, ``short``, ``int``; enum values are ``#define``
  constants ``Sort_value``, numbered from 0) when the built-in range property
  is exported, else ``int`` for every Int variable;
* only the variables the exported properties depend on (:func:`cone`; the
  others, and the actions that write only those, are left out, as a SPIN
  user would leave them out by hand; the header names them);
* one process: the initial state is chosen in one ``atomic`` block (a
  nondeterministic counting loop or ``if`` per variable; a variable that an
  initial equality fixes is computed from the others, :func:`_solved`; then
  the initial constraints; an excluded combination ends the run), so that
  SPIN stores each reachable state once, plus the process's start state;
  then one ``do`` loop
  with a ``d_step`` branch per ground action and choice vector (the choices
  are expanded, at most :data:`MAX_CHOICES` vectors per action): its guard,
  the new values computed into ``hidden`` temporaries from the pre-state
  (the DSL's updates are simultaneous), with the range property an
  ``assert`` that each new Int value is within its declared range (before
  the assignment, so a narrow type never wraps), the assignments, the action
  properties of the step, and every invariant (``invariants()``, also
  asserted on the initial state);
* the loop head is a valid end state: a stuck state is not an error for SPIN
  by itself, the exported deadlock property (an invariant) is;
* a target is exported only when named, as ``assert(!(target))``: SPIN's
  counterexample is then its witness.

``spin -a FILE && gcc -O2 -DSAFETY -o pan pan.c && ./pan -m100000`` checks it.

SMT-LIB 2: :func:`ruleproof.encoder.smtlib_queries` (the transition relation
and each property's induction query).
"""

from __future__ import annotations

import itertools
import re
from dataclasses import replace
from pathlib import Path
from typing import Callable, Sequence

import click

from .errors import InputError
from .evaluator import domain
from .ir import (
    FALSE,
    App,
    BoolT,
    Choice,
    Const,
    EnumT,
    Expr,
    IntT,
    Op,
    Property,
    PropKind,
    StateVar,
    System,
    Type,
    Value,
    Var,
    fold,
    free_vars,
    substitute,
)

__all__ = ["to_promela", "PROMELA", "MAX_CHOICES", "export_command"]

MAX_CHOICES = 4096
"""Most choice vectors of one ground action the Promela export expands."""

_KEYWORDS = frozenset(
    "active assert atomic bit bool break byte c_code c_decl c_expr c_state c_track chan d_proctype d_step do else "
    "empty enabled eval false fi for full get_priority goto hidden if in init inline int len local ltl mtype "
    "nempty never nfull notrace np_ od of pc_value pid print printf printm priority proctype provided run "
    "select set_priority short show skip timeout trace true typedef unless unsigned xr xs".split()
)


def _ident(name: str) -> str:
    s = re.sub(r"\W", "_", name)
    if not s or s[0].isdigit() or s in _KEYWORDS or s.startswith("_"):
        s = "v_" + s
    return s


def _nary(sym: str) -> Callable[[list[str]], str]:
    return lambda xs: "(" + f" {sym} ".join(xs) + ")"


def _chain(cmp: str) -> Callable[[list[str]], str]:
    """min (``<``) or max (``>``) of the arguments, as nested conditional expressions."""

    def build(xs: list[str]) -> str:
        r = xs[0]
        for x in xs[1:]:
            r = f"(({x}) {cmp} ({r}) -> ({x}) : ({r}))"
        return r

    return build


def _div(xs: list[str]) -> str:
    a, b = xs  # b is a positive constant; Promela's / truncates, the IR's division floors
    return f"(({a}) >= 0 -> ({a}) / {b} : -((-({a}) + {b} - 1) / {b}))"


PROMELA: dict[Op, Callable[[list[str]], str]] = {
    Op.ADD: _nary("+"),
    Op.SUB: _nary("-"),
    Op.MUL: _nary("*"),
    Op.DIV: _div,
    Op.NEG: lambda xs: f"(-{xs[0]})",
    Op.MIN: _chain("<"),
    Op.MAX: _chain(">"),
    Op.EQ: _nary("=="),
    Op.NE: _nary("!="),
    Op.LT: _nary("<"),
    Op.LE: _nary("<="),
    Op.AND: _nary("&&"),
    Op.OR: _nary("||"),
    Op.NOT: lambda xs: f"(!{xs[0]})",
    Op.IMPLIES: lambda xs: f"(!{xs[0]} || {xs[1]})",
    Op.ITE: lambda xs: f"({xs[0]} -> {xs[1]} : {xs[2]})",
}
"""Each operator as a Promela expression."""


class _Names:
    """Promela names of the state variables (``arr[i]`` over a flattened array) and of enum values."""

    def __init__(self, system: System) -> None:
        self.cells: dict[str, str] = {}
        self.arrays: dict[str, list[StateVar]] = {}
        for v in system.vars:
            self.arrays.setdefault(v.array, []).append(v)
        for arr, cells in self.arrays.items():
            name = _ident(arr)
            for i, v in enumerate(cells):
                self.cells[v.name] = f"{name}[{i}]" if v.index else name
        self.enums: dict[str, EnumT] = {}
        for v in system.vars:
            if isinstance(v.type, EnumT):
                self.enums.setdefault(v.type.name, v.type)
        for a in system.actions:
            for c in a.choices:
                if isinstance(c.type, EnumT):
                    self.enums.setdefault(c.type.name, c.type)

    def value(self, t: Type, v: Value) -> str:
        if isinstance(t, BoolT):
            return "true" if v else "false"
        if isinstance(t, EnumT):
            self.enums.setdefault(t.name, t)
            return f"{_ident(t.name)}_{_ident(str(v))}"
        return str(int(v))


def _type(t: Type) -> str:
    if isinstance(t, BoolT):
        return "bool"
    if isinstance(t, EnumT):
        return "byte" if len(t.values) <= 256 else "short"
    if 0 <= t.lo and t.hi <= 255:
        return "byte"
    if -32768 <= t.lo and t.hi <= 32767:
        return "short"
    return "int"


class _Printer:
    """IR expressions as Promela; ``pre`` maps written variables to the saved pre-state copy (action properties)."""

    def __init__(self, names: _Names, pre: dict[str, str] | None = None) -> None:
        self.names = names
        self.pre = pre or {}

    def __call__(self, e: Expr) -> str:
        return fold(e, self._leaf, self._app)

    def _leaf(self, e: Expr) -> str:
        if isinstance(e, Const):
            return self.names.value(e.type, e.value)
        if isinstance(e, Var):
            if not e.primed and e.name in self.pre:
                return self.pre[e.name]
            return self.names.cells[e.name]
        assert isinstance(e, Choice)
        raise InputError(f"choice '{e.name}' left in an expression (internal: choices are expanded)")

    @staticmethod
    def _app(e: App, args: list[str]) -> str:
        return PROMELA[e.op](args)


def _choice_vectors(system: System, ai: int) -> list[dict[str, Expr]]:
    a = system.actions[ai]
    spaces = [domain(c.type) for c in a.choices]
    n = 1
    for sp in spaces:
        n *= len(sp)
    if n > MAX_CHOICES:
        raise InputError(f"action {a.label} has {n} choice vectors; the Promela export expands at most {MAX_CHOICES}")
    return [{c.name: Const(v, c.type) for c, v in zip(a.choices, vals, strict=True)}
            for vals in itertools.product(*spaces)]


def cone(system: System, props: Sequence[Property]) -> set[str]:
    """The state variables the verdicts of ``props`` depend on (the cone of influence).

    What the properties read (every Int variable under the built-in range
    property, which bounds them all), then, until nothing is added: what the
    guards and the updates of those variables read in the actions that write
    them, and every variable of an initial constraint that reads one of them.
    A variable outside it never influences a property, a guard or an update
    of a variable inside it, so leaving it out of the Promela model changes
    no verdict (a SPIN user leaves it out by hand).
    """
    keep: set[str] = set()
    for p in props:
        if p.builtin and p.kind is PropKind.INVARIANT:
            keep |= {v.name for v in system.vars if isinstance(v.type, IntT)}
        keep |= free_vars(p.expr)
        for _label, c in p.conds:
            keep |= free_vars(c)
    while True:
        before = len(keep)
        for a in system.actions:
            ups = [u for u in a.updates if u.var in keep]
            if ups or any(p.applies_to(a) and dict(p.conds).get(a.label) is not None for p in props):
                keep |= free_vars(a.guard)
                for u in ups:
                    keep |= free_vars(u.expr)
        for c in system.init_constraints:
            fv = free_vars(c)
            if fv & keep:
                keep |= fv
        if len(keep) == before:
            return keep


def _sliced(system: System, props: Sequence[Property]) -> System:
    """``system`` on the variables of :func:`cone` only: the actions that write none of them and no property
    constrains are left out (in the sliced model they change nothing), the other actions' updates of the
    variables outside it too."""
    keep = cone(system, props)
    if len(keep) == len(system.vars):
        return system
    actions = tuple(
        replace(a, updates=tuple(u for u in a.updates if u.var in keep))
        for a in system.actions
        if any(u.var in keep for u in a.updates)
        or any(p.applies_to(a) and dict(p.conds).get(a.label) is not None for p in props)
    )
    return replace(system, vars=tuple(v for v in system.vars if v.name in keep), actions=actions,
                   init_vars=tuple(iv for iv in system.init_vars if iv.var in keep))


def to_promela(system: System, props: Sequence[Property] | None = None) -> str:
    """The system as a Promela model (see the module docstring).

    ``props``: the properties asserted (default: every invariant and action property).
    """
    if props is None:
        props = [p for p in system.properties if p.kind is not PropKind.REACH]
    full = system
    system = _sliced(system, props)
    names = _Names(system)
    show = _Printer(names)
    invariants = [p for p in props if p.kind is PropKind.INVARIANT]
    targets = [p for p in props if p.kind is PropKind.REACH]
    action_props = [p for p in props if p.kind is PropKind.ACTION]
    # the built-in range property is checked where a value could leave its range: on each assignment, before it
    # (narrow types then never wrap); without it every Int variable is an int and nothing is asserted about ranges
    ranged = any(p.builtin for p in invariants)
    invariants = [p for p in invariants if not p.builtin]
    inv_text = [f"    assert({show(p.expr)}); /* {p.name} */" for p in invariants]
    inv_text += [f"    assert(!({show(p.expr)})); /* target (a violation is its witness): {p.name} */"
                 for p in targets]
    branches: list[str] = []
    temps = 0
    saved = 0
    int_vars = {v.name: v.type for v in system.vars if isinstance(v.type, IntT)} if ranged else {}
    for ai, a in enumerate(system.actions):
        conds = [(p, dict(p.conds).get(a.label)) for p in action_props if p.applies_to(a)]
        written = [u.var for u in a.updates]
        for ch in _choice_vectors(system, ai):
            guard = substitute(a.guard, ch)
            if guard is FALSE:
                continue
            body = [f"{show(guard)} ->"]
            for i, u in enumerate(a.updates):
                body.append(f"_t{i} = {show(substitute(u.expr, ch))};")
            temps = max(temps, len(a.updates))
            reads = set().union(*(free_vars(c) for _p, c in conds if c is not None)) if conds else set()
            pre: dict[str, str] = {}
            for var in written:
                if var in reads:
                    pre[var] = f"_p{len(pre)}"
                    body.append(f"{pre[var]} = {names.cells[var]};")
            saved = max(saved, len(pre))
            for i, u in enumerate(a.updates):
                rng = int_vars.get(u.var)
                if rng is not None:
                    body.append(f"assert({rng.lo} <= _t{i} && _t{i} <= {rng.hi}); /* {u.var}: declared range */")
            body += [f"{names.cells[u.var]} = _t{i};" for i, u in enumerate(a.updates)]
            after = _Printer(names, pre)
            for p, c in conds:
                if c is not None:
                    body.append(f"assert({after(substitute(c, ch))}); /* {p.name} */")
            body.append("invariants()")
            label = a.label + (" [" + ", ".join(f"{k}={show(v)}" for k, v in ch.items()) + "]" if ch else "")
            head = "  :: d_step { /* " + _comment(label) + " */\n       "
            branches.append(head + "\n       ".join(body) + "\n     }")
    initial = _initial(system, names, show)  # (before the enums' #defines: it may name more enum values)
    out = [f"/* ruleproof export: {system.name}[{system.scenario}] as Promela ({len(system.vars)} state variables, "
           f"{len(system.actions)} ground actions) */",
           "/* check: spin -a FILE && gcc -O2 -DSAFETY -o pan pan.c && ./pan -m100000 */"]
    if system is not full:
        dropped = [v.label for v in full.vars if v.name not in {x.name for x in system.vars}]
        out.append(f"/* left out (no exported property depends on them): {len(dropped)} state variables ("
                   + _comment(", ".join(dropped[:8])) + (" ..." if len(dropped) > 8 else "")
                   + f"), {len(full.actions) - len(system.actions)} ground actions that write only those */")
    out.append("")
    for et in list(names.enums.values()):
        out += [f"#define {names.value(et, v)} {i}" for i, v in enumerate(et.values)]
    out.append("")
    for arr, cells in names.arrays.items():
        pt = _type(cells[0].type) if ranged or not isinstance(cells[0].type, IntT) else "int"
        if cells[0].index:
            out.append(f"{pt} {_ident(arr)}[{len(cells)}]; /* {arr}: " + ", ".join(c.label for c in cells[:8])
                       + (" ..." if len(cells) > 8 else "") + " */")
        else:
            out.append(f"{pt} {_ident(arr)};")
    out += [f"hidden int _t{i};" for i in range(temps)] + [f"hidden int _p{i};" for i in range(saved)]
    out += ["hidden int _fix;"] if _solved(system) is not None else []
    out += ["", "inline invariants() {", *(inv_text or ["    skip"]), "}", ""]
    out += ["active proctype rules() {", "  atomic {"]
    out += [f"    {line}" for line in initial]
    if ranged:
        bounds = [f"{t.lo} <= {names.cells[v]} && {names.cells[v]} <= {t.hi}" for v, t in int_vars.items()]
        out += ["    assert(" + " && ".join(bounds) + "); /* state stays within declared ranges */"] if bounds else []
    out += ["    invariants()", "  };", "end_loop:", "  do", *branches, "  od;", "end_excluded:", "  skip", "}", ""]
    return "\n".join(out)


def _comment(s: str) -> str:
    return s.replace("*/", "* /")


def _solved(system: System) -> tuple[str, Expr] | None:
    """An initial variable that an initial equality constraint fixes, and its value from the others.

    For a constraint ``x + rest == rhs`` (or ``rhs == x + rest``), ``x`` a
    multi-valued Int initial variable read nowhere else in it: ``x`` is
    ``rhs - rest``.  The export then computes ``x`` instead of choosing it
    and excluding every choice that breaks the constraint (SPIN would store
    each excluded combination as an end state).  The variable with the most
    initial values is taken.
    """
    choose = {iv.var: iv for iv in system.init_vars if len(iv.values) > 1}
    best: tuple[int, str, Expr] | None = None
    for c in system.init_constraints:
        if not (isinstance(c, App) and c.op is Op.EQ):
            continue
        for side, other in ((c.args[0], c.args[1]), (c.args[1], c.args[0])):
            terms = side.args if isinstance(side, App) and side.op is Op.ADD else (side,)
            for i, t in enumerate(terms):
                if not (isinstance(t, Var) and not t.primed and isinstance(t.type, IntT) and t.name in choose):
                    continue
                rest = terms[:i] + terms[i + 1:]
                if t.name in free_vars(other) or any(t.name in free_vars(r) for r in rest):
                    continue
                value: Expr = other if not rest else App(Op.SUB, (other, *rest[:1]), t.type)
                for r in rest[1:]:
                    value = App(Op.SUB, (value, r), t.type)
                size = len(choose[t.name].values)
                if best is None or size > best[0]:
                    best = (size, t.name, value)
    return None if best is None else (best[1], best[2])


def _initial(system: System, names: _Names, show: _Printer) -> list[str]:
    """The nondeterministic choice of an initial state, then its constraints (see :func:`_solved`)."""
    types = {v.name: v.type for v in system.vars}
    solved = _solved(system)
    out = []
    for iv in system.init_vars:
        cell = names.cells[iv.var]
        t = types[iv.var]
        vals = iv.values
        if solved is not None and iv.var == solved[0]:
            continue
        if len(vals) == 1:
            out.append(f"{cell} = {names.value(t, vals[0])};")
        elif isinstance(t, IntT) and vals == tuple(range(int(vals[0]), int(vals[0]) + len(vals))):
            out.append(f"{cell} = {vals[0]}; do :: {cell} < {vals[-1]} -> {cell}++ :: break od;")
        else:
            out.append("if " + " ".join(f":: {cell} = {names.value(t, x)}" for x in vals) + " fi;")
    if solved is None and not system.init_constraints:
        return out
    # an excluded combination becomes one allowed initial state (found by the solver), so that it adds no state
    # of its own: SPIN stores each reachable state once; without an initial state the run ends
    from .encoder import initial_state  # (z3 is loaded only when needed)

    allowed_state = initial_state(system)
    excluded = "end_excluded" if allowed_state is None else "excluded"
    if solved is not None:
        var, value = solved
        cell = names.cells[var]
        allowed = next(iv.values for iv in system.init_vars if iv.var == var)
        member = " || ".join(f"_fix == {int(x)}" for x in allowed)
        if allowed == tuple(range(int(allowed[0]), int(allowed[0]) + len(allowed))):
            member = f"{allowed[0]} <= _fix && _fix <= {allowed[-1]}"
        out += [f"_fix = {show(value)}; /* {var}: fixed by an initial constraint */",
                f"if :: ({member}) -> {cell} = _fix :: else -> goto {excluded} fi;"]
    cond = " && ".join(show(c) for c in system.init_constraints) or "true"
    if allowed_state is None:
        return out + [f"if :: ({cond}) -> skip :: else -> goto end_excluded fi;"]
    out += [f"if :: ({cond}) -> goto chosen :: else -> skip fi;",
            "excluded: /* a combination the initial constraints exclude: an allowed initial state instead */"]
    out += [f"{names.cells[v.name]} = {names.value(v.type, x)};"
            for v, x in zip(system.vars, allowed_state, strict=True)]
    return out + ["chosen:"]


# --------------------------------------------------------------------------- the command


@click.command("export")
@click.argument("model", required=False)
@click.option("--system", "system_name", default=None,
              help="The system to export (needed when the model has several).")
@click.option("--scenario", default=None, help="Its scenario (default: its first checked scenario).")
@click.option("--param", "params", multiple=True, help="Override a build() parameter, NAME=VALUE (repeatable).")
@click.option("--property", "-p", "props", multiple=True,
              help="Export only this property (sentence or short id; repeatable). Default: every invariant and "
                   "action property; a target only when named.")
@click.option("--properties", default=None, metavar="PATH", help="Properties file or directory (as for check).")
@click.option("--format", "fmt", type=click.Choice(["promela", "smt2"]), required=True,
              help="promela: a model for SPIN; smt2: the transition relation and each property's induction query.")
@click.option("--out", "out_path", required=True, type=click.Path(dir_okay=False), help="The file to write.")
def export_command(model: str | None, system_name: str | None, scenario: str | None, params: tuple[str, ...],
                   props: tuple[str, ...], properties: str | None, fmt: str, out_path: str) -> int:
    """Write one system of MODEL as Promela (for SPIN) or SMT-LIB 2, exactly as ruleproof checks it."""
    from .catalog import select_properties, short_ids
    from .cli_support import parse_params, streams
    from .files import write_atomic
    from .loader import discover, load_system

    s = streams()
    specs = discover(model, properties)
    names = [sp.name for sp in specs]
    if system_name is None and len(specs) > 1:
        raise InputError(f"this model has {len(specs)} systems: name one with --system ({', '.join(names)})")
    spec = specs[0] if system_name is None else next((sp for sp in specs if sp.name == system_name), None)
    if spec is None:
        raise InputError(f"no system '{system_name}' in this model (it has: {', '.join(names)})")
    system = load_system(spec, scenario, parse_params(params))
    chosen: list[Property] | None = None
    if props:
        ids = short_ids((p.name, p.check) for p in system.properties)
        wanted = set(select_properties(props, ids))
        chosen = [p for p in system.properties if p.name in wanted]
    if fmt == "promela":
        text = to_promela(system, chosen)
    else:
        from .encoder import smtlib_queries

        text = smtlib_queries(system, chosen if chosen is not None else system.properties)
    write_atomic(Path(out_path), text)
    s.err.write(f"wrote {out_path}: {system.name}[{system.scenario}] as {fmt}\n")
    return 0
