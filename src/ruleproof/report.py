"""Rendering results: human text, versioned JSON, and ITF traces.

Pure functions from results to strings/objects; nothing here prints.  Human
output leaves out timings so that it can be compared with golden files.
"""

from __future__ import annotations

import re
from typing import Any, Iterable, Sequence

from .ir import App, Choice, Const, Expr, Op, Value, Var
from .results import Coverage, Result, Trace, Verdict

__all__ = [
    "JSON_VERSION",
    "show_expr",
    "trace_json",
    "trace_itf",
    "result_json",
    "results_json",
    "render_trace",
    "render_results",
    "exit_status",
]

JSON_VERSION = 1

_INFIX = {Op.ADD: "+", Op.SUB: "-", Op.MUL: "*", Op.DIV: "//", Op.EQ: "==", Op.NE: "!=", Op.LT: "<", Op.LE: "<=",
          Op.AND: "and", Op.OR: "or", Op.IMPLIES: "=>"}


def show_expr(e: Expr) -> str:
    """A readable rendering of an IR expression."""
    if isinstance(e, Const):
        return str(e.value)
    if isinstance(e, Var):
        return e.name + ("'" if e.primed else "")
    if isinstance(e, Choice):
        return f"?{e.name}"
    assert isinstance(e, App)
    parts = [show_expr(a) for a in e.args]
    if e.op in _INFIX:
        return "(" + f" {_INFIX[e.op]} ".join(parts) + ")"
    if e.op is Op.NOT:
        return f"not {parts[0]}"
    if e.op is Op.NEG:
        return f"-{parts[0]}"
    if e.op is Op.ITE:
        return f"(if {parts[0]} then {parts[1]} else {parts[2]})"
    return f"{e.op.value}({', '.join(parts)})"


# --------------------------------------------------------------------------- JSON


def trace_json(t: Trace) -> dict[str, Any]:
    """A trace as JSON: the initial state, then per step the action and the changed variables."""
    return {
        "initial": {k: v for k, v in t.initial},
        "steps": [
            {
                "action": s.action,
                "params": {k: v for k, v in s.params},
                "choices": {k: v for k, v in s.choices},
                "description": s.description,
                "changes": {c.var: [c.old, c.new] for c in s.changes},
            }
            for s in t.steps
        ],
    }


_GROUND = re.compile(r"^(?P<arr>[A-Za-z_][A-Za-z0-9_]*)\[(?P<idx>[^\]]*)\]$")


def _itf_value(v: Value) -> Any:
    if isinstance(v, bool):
        return v
    if isinstance(v, int):
        return {"#bigint": str(v)}
    return v


def trace_itf(t: Trace, model: str, prop: str) -> dict[str, Any]:
    """A trace in the ITF format (Apalache/Quint): arrays become ``#map`` values."""
    groups: dict[str, list[tuple[str, int]]] = {}
    order: list[str] = []
    for i, name in enumerate(t.var_names):
        m = _GROUND.match(name)
        arr, key = (m["arr"], m["idx"]) if m else (name, "")
        if arr not in groups:
            groups[arr] = []
            order.append(arr)
        groups[arr].append((key, i))
    states = []
    for n, st in enumerate(t.states):
        obj: dict[str, Any] = {"#meta": {"index": n}}
        if n:
            obj["#meta"]["action"] = t.steps[n - 1].action
        for arr in order:
            cells = groups[arr]
            if len(cells) == 1 and cells[0][0] == "":
                obj[arr] = _itf_value(st[cells[0][1]])
            else:
                entries = []
                for key, i in cells:
                    ks = key.split(",")
                    k: Any = ks[0] if len(ks) == 1 else {"#tup": ks}
                    entries.append([k, _itf_value(st[i])])
                obj[arr] = {"#map": entries}
        states.append(obj)
    return {
        "#meta": {"format": "ITF", "format-description": "https://apalache-mc.org/docs/adr/015adr-trace.html",
                  "source": model, "description": f"trace for property: {prop}"},
        "vars": order,
        "states": states,
    }


def _coverage_json(c: Coverage | None) -> Any:
    if c is None:
        return None
    out: dict[str, Any] = {"depth": c.depth, "fired": list(c.fired), "never": list(c.never), "unknown": list(c.unknown),
                           "exhaustive": c.exhaustive}
    if c.rules:
        out["rules"] = [{"kind": x.kind, "rule": x.name, "where": x.where, "status": x.status} for x in c.rules]
    return out


def result_json(r: Result, model: str, trace_format: str = "text") -> dict[str, Any]:
    trace: Any = None
    if r.trace is not None:
        trace = trace_itf(r.trace, model, r.property) if trace_format == "itf" else trace_json(r.trace)
    return {
        "property": r.property,
        "system": r.system,
        "scenario": r.scenario,
        "kind": r.kind,
        "builtin": r.builtin,
        "cites": list(r.cites),
        "verdict": r.verdict.value,
        "depth": r.depth,
        "engine": r.engine,
        "seconds": r.seconds,
        "reason": r.reason,
        "invariant": r.invariant or None,
        "coverage": _coverage_json(r.coverage),
        "trace": trace,
    }


def results_json(model: str, results: Sequence[Result], trace_format: str = "text") -> dict[str, Any]:
    """The ``--json`` object of ``ruleproof check``."""
    return {
        "version": JSON_VERSION,
        "model": model,
        "status": exit_status(results),
        "results": [result_json(r, model, trace_format) for r in results],
    }


# --------------------------------------------------------------------------- text

_VERDICT_TEXT = {
    Verdict.PROVED: "PROVED",
    Verdict.HOLDS_TO_DEPTH: "HOLDS_TO_DEPTH",
    Verdict.VIOLATED: "VIOLATED",
    Verdict.UNKNOWN: "UNKNOWN",
}


def _fmt(v: Value) -> str:
    return str(v).lower() if isinstance(v, bool) else str(v)


def _initial_lines(initial: Sequence[tuple[str, Value]], indent: str) -> list[str]:
    """The initial state, one line per variable; an array shows its commonest value once.

    ``zone: hand, except card 2=play, card 5=dead`` instead of one entry per
    element (``--json`` keeps every element).
    """
    scalars: list[str] = []
    arrays: dict[str, list[tuple[str, Value]]] = {}
    for k, v in initial:
        name, sep, rest = k.partition("[")
        if sep and rest.endswith("]"):
            arrays.setdefault(name, []).append((rest[:-1], v))
        else:
            scalars.append(f"{k}={_fmt(v)}")
    lines = [f"{indent}initial state:" + (" " + ", ".join(scalars) if scalars else "")]
    for name, items in arrays.items():
        counts: dict[str, int] = {}
        for _i, v in items:
            counts[_fmt(v)] = counts.get(_fmt(v), 0) + 1
        common = max(counts, key=lambda x: counts[x])  # first of the most frequent (dicts keep order)
        if counts[common] < 2 or len(items) < 3:
            body = ", ".join(f"{i}={_fmt(v)}" for i, v in items)
        else:
            odd = [f"{i}={_fmt(v)}" for i, v in items if _fmt(v) != common]
            body = f"{common} for all {len(items)}" if not odd else f"{common}, except " + ", ".join(odd)
        lines.append(f"{indent}  {name}: {body}")
    return lines


def render_trace(t: Trace, indent: str = "    ") -> list[str]:
    """A trace as game steps: ``1. player 1 marshals card 3: gold[player 1] 5 -> 1, ...``."""
    lines = _initial_lines(t.initial, indent)
    for i, s in enumerate(t.steps, 1):
        changes = ", ".join(f"{c.var} {_fmt(c.old)} -> {_fmt(c.new)}" for c in s.changes) or "no change"
        choices = f" [choosing {', '.join(f'{k}={_fmt(v)}' for k, v in s.choices)}]" if s.choices else ""
        lines.append(f"{indent}{i}. {s.description}{choices}: {changes}")
    return lines


def _verdict_cell(r: Result) -> str:
    text = _VERDICT_TEXT[r.verdict]
    if r.verdict is Verdict.HOLDS_TO_DEPTH:
        return f"{text}({r.depth})"
    return text


def render_results(model: str, results: Sequence[Result], show_invariants: bool = True) -> str:
    """The human report of ``ruleproof check``: a table, then traces, reasons and coverage."""
    rows: list[tuple[str, str, str, str]] = []
    for r in results:
        rows.append((f"{r.system}[{r.scenario}]", r.property, _verdict_cell(r), r.engine))
    w0 = max([len("system"), *(len(x[0]) for x in rows)])
    w1 = max([len("property"), *(len(x[1]) for x in rows)])
    w2 = max([len("verdict"), *(len(x[2]) for x in rows)])
    out = [f"model: {model}", "", f"{'system':<{w0}}  {'property':<{w1}}  {'verdict':<{w2}}  engine"]
    out.append(f"{'-' * w0}  {'-' * w1}  {'-' * w2}  ------")
    for a, b, c, d in rows:
        out.append(f"{a:<{w0}}  {b:<{w1}}  {c:<{w2}}  {d}")
    details: list[str] = []
    for r in results:
        head = f"{r.system}[{r.scenario}] / {r.property}"
        if r.verdict is Verdict.VIOLATED:
            details.append(f"{head}: VIOLATED" + (f" ({r.reason})" if r.reason else ""))
            if r.cites:
                details.append(f"    rules: {', '.join(r.cites)}")
            if r.trace is not None:
                details.extend(render_trace(r.trace))
        elif r.verdict is Verdict.UNKNOWN:
            details.append(f"{head}: UNKNOWN: {r.reason}")
        elif r.verdict is Verdict.PROVED and r.trace is not None:
            details.append(f"{head}: reached ({r.reason})")
            details.extend(render_trace(r.trace))
        elif r.verdict is Verdict.PROVED and r.invariant and show_invariants:
            inv = r.invariant if len(r.invariant) <= 300 else r.invariant[:300] + " ..."
            details.append(f"{head}: proved by the inductive invariant: {inv}")
    if details:
        out += ["", *details]
    seen: set[tuple[str, str]] = set()
    for r in results:
        key = (r.system, r.scenario)
        if key in seen or r.coverage is None:
            continue
        seen.add(key)
        c = r.coverage
        if c.rules:
            n_reached = sum(1 for x in c.rules if x.status == "reached")
            out += ["", f"rule coverage: {r.system}[{r.scenario}] within {c.depth} steps: "
                        f"{n_reached} of {len(c.rules)} rules reached"]
            for x in c.rules:
                where = f" ({x.where})" if x.where else ""
                out.append(f"  {x.status.upper() if x.status != 'reached' else x.status:<9}  {x.kind:<6}  {x.name}{where}")
            missed = [f"{x.kind} {x.name}" for x in c.rules if x.status == "unreached" and x.kind != "action"]
            if missed:
                out.append(f"warning: {r.system}[{r.scenario}]: rules never reached within {c.depth} steps "
                           f"(properties over them hold vacuously): {'; '.join(missed)}")
        if c.never:
            within = "in any reachable state" if c.exhaustive else f"within {c.depth} steps"
            out.append(
                f"warning: {r.system}[{r.scenario}]: actions never enabled {within} "
                f"(properties over them hold vacuously): {', '.join(c.never)}"
            )
        if c.unknown:
            out.append(f"warning: {r.system}[{r.scenario}]: coverage unknown for: {', '.join(c.unknown)}")
    counts = {v: sum(1 for r in results if r.verdict is v) for v in Verdict}
    out += [
        "",
        f"{len(results)} {'property' if len(results) == 1 else 'properties'}: {counts[Verdict.PROVED]} proved, {counts[Verdict.HOLDS_TO_DEPTH]} held to a depth, "
        f"{counts[Verdict.VIOLATED]} violated, {counts[Verdict.UNKNOWN]} unknown",
    ]
    return "\n".join(out) + "\n"


def exit_status(results: Iterable[Result]) -> int:
    """0 all proved/held, 1 some violation, 3 some unknown (a violation wins)."""
    vs = {r.verdict for r in results}
    if Verdict.VIOLATED in vs:
        return 1
    if Verdict.UNKNOWN in vs:
        return 3
    return 0
