"""Rendering results: human text, versioned JSON, and ITF traces.

Pure functions from results to strings/objects; nothing here prints.  The
human report shows timings only as ``12.3s`` (:func:`mask_times` replaces
them, for comparisons and golden files).
"""

from __future__ import annotations

import json
import re
import textwrap
from dataclasses import dataclass, field
from typing import Any, Iterable, Mapping, Sequence

from .ir import Value, show_expr
from .results import Coverage, Result, Trace, TraceStep, Verdict

__all__ = [
    "JSON_VERSION",
    "show_expr",
    "trace_json",
    "trace_itf",
    "result_json",
    "results_json",
    "render_trace",
    "render_step",
    "render_initial",
    "render_results",
    "TextOptions",
    "summary_table",
    "property_table",
    "result_details",
    "coverage_lines",
    "totals_line",
    "wrap_line",
    "mask_times",
    "exit_status",
    "render_head",
    "render_tail",
    "summary_head",
    "system_row",
    "property_head",
    "property_row",
    "summary_json",
    "result_line_json",
]

JSON_VERSION = 1

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


def result_json(r: Result, model: str, trace_format: str = "text",
                ids: Mapping[str, str] | None = None) -> dict[str, Any]:
    """One result as JSON (``id``: the property's short id, when ``ids`` has it)."""
    trace: Any = None
    if r.trace is not None:
        trace = trace_itf(r.trace, model, r.property) if trace_format == "itf" else trace_json(r.trace)
    return {
        "property": r.property,
        **({"id": ids[r.property]} if ids and r.property in ids else {}),
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


def results_json(model: str, results: Sequence[Result], trace_format: str = "text",
                 ids: Mapping[str, str] | None = None, *, status: int | None = None,
                 not_run: Sequence[tuple[str, str, str]] = (), stopped: str = "",
                 budget: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The ``--json`` object of ``ruleproof check`` (witness traces included).

    ``interrupted`` is true when SIGINT/SIGTERM stopped the run; a stopped
    run (interrupted, or its time limit reached: ``stopped`` says why) lists
    what it did ``not_run``.  ``budget``: the limits the run had.
    """
    out = summary_json(model, results, status=status, not_run=not_run, stopped=stopped, budget=budget)
    del out["type"]
    out["results"] = [result_json(r, model, trace_format, ids) for r in results]
    return out


def summary_json(model: str, results: Sequence[Result], *, status: int | None = None,
                 not_run: Sequence[tuple[str, str, str]] = (), stopped: str = "",
                 budget: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The last object of ``--jsonl`` (``"type": "summary"``): counts, status, what was not run, the budget."""
    counts = {v.value: sum(1 for r in results if r.verdict is v) for v in Verdict}
    return {
        "version": JSON_VERSION,
        "type": "summary",
        "model": model,
        "status": exit_status(results) if status is None else status,
        "counts": counts,
        "interrupted": stopped.startswith("interrupted"),
        "stopped": stopped or None,
        "not_run": [{"system": sy, "scenario": sc, "property": p} for sy, sc, p in not_run],
        "budget": dict(budget or {}),
    }


def result_line_json(r: Result, model: str, trace_format: str = "text",
                     ids: Mapping[str, str] | None = None) -> dict[str, Any]:
    """One line of ``--jsonl``: a result as soon as it is known (``"type": "result"``)."""
    return {"version": JSON_VERSION, "type": "result", **result_json(r, model, trace_format, ids)}


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


def render_step(i: int, s: TraceStep, indent: str = "    ") -> str:
    """One step of a trace: ``3. player 1 marshals card 3 [choosing ...]: gold[player 1] 5 -> 1, ...``."""
    changes = ", ".join(f"{c.var} {_fmt(c.old)} -> {_fmt(c.new)}" for c in s.changes) or "no change"
    choices = f" [choosing {', '.join(f'{k}={_fmt(v)}' for k, v in s.choices)}]" if s.choices else ""
    return f"{indent}{i}. {s.description}{choices}: {changes}"


def render_trace(t: Trace, indent: str = "    ") -> list[str]:
    """A trace as game steps: ``1. player 1 marshals card 3: gold[player 1] 5 -> 1, ...``."""
    lines = _initial_lines(t.initial, indent)
    for i, s in enumerate(t.steps, 1):
        lines.append(render_step(i, s, indent))
    return lines


def render_initial(initial: Sequence[tuple[str, Value]], indent: str = "    ") -> list[str]:
    """A trace's initial state (arrays by their commonest value and the exceptions)."""
    return _initial_lines(initial, indent)


def _verdict_cell(r: Result) -> str:
    text = _VERDICT_TEXT[r.verdict]
    if r.verdict is Verdict.HOLDS_TO_DEPTH:
        return f"{text}({r.depth})"
    return text


@dataclass(frozen=True)
class TextOptions:
    """How much the human report shows.

    ``verbosity``: -1 (``-q``: what failed and the totals), 0 (a summary
    table, one line per system, and details of what is not proved), 1
    (``-v``: one line per property, the inductive invariants, the properties
    files).  ``witnesses``: the witness traces of reached sanity targets.
    ``width``: lines are wrapped to it.  ``ids``: short property ids.
    ``trace_format``: ``itf`` shows traces as ITF JSON.  ``sources``:
    ``(system, properties file or "")`` for ``-v``.
    """

    verbosity: int = 0
    witnesses: bool = False
    width: int = 100
    ids: Mapping[str, str] = field(default_factory=dict)
    trace_format: str = "text"
    sources: tuple[tuple[str, str], ...] = ()


_NUMBERED = re.compile(r"^(\s*)(\d+\. )")
_TIMES = re.compile(r"\b\d+\.\ds\b")


def mask_times(text: str) -> str:
    """The report with every time (``12.3s``) replaced by ``N.Ns``: equal for equal results."""
    return _TIMES.sub("N.Ns", text)


def wrap_line(line: str, width: int) -> list[str]:
    """``line`` wrapped to ``width``; continuation lines hang under its text (numbered steps: after the number)."""
    if len(line) <= width:
        return [line]
    m = _NUMBERED.match(line)
    lead = len(line) - len(line.lstrip(" "))
    hang = " " * (len(m.group(1)) + len(m.group(2)) if m else lead + 4)
    return textwrap.wrap(line, width, subsequent_indent=hang, break_long_words=False, break_on_hyphens=False) or [line]


def _seconds(x: float) -> str:
    return f"{x:.1f}s"


def _by_system(results: Sequence[Result]) -> dict[str, list[Result]]:
    groups: dict[str, list[Result]] = {}
    for r in results:
        groups.setdefault(f"{r.system}[{r.scenario}]", []).append(r)
    return groups


def summary_table(results: Sequence[Result]) -> list[str]:
    """One line per system and scenario: how many properties proved, held, violated, unknown, and the time."""
    rows = []
    for key, rs in _by_system(results).items():
        n = {v: sum(1 for r in rs if r.verdict is v) for v in Verdict}
        rows.append((key, n[Verdict.PROVED], n[Verdict.HOLDS_TO_DEPTH], n[Verdict.VIOLATED], n[Verdict.UNKNOWN],
                     _seconds(sum(r.seconds for r in rs))))
    w = max([len("system"), *(len(r[0]) for r in rows)])
    return [summary_head(w)] + [system_row(key, rs, w) for key, rs in _by_system(results).items()]


def summary_head(w: int) -> str:
    """The head of the summary table, its system column ``w`` wide."""
    return f"{'system':<{w}}  proved  held  violated  unknown    time"


def system_row(key: str, rs: Sequence[Result], w: int) -> str:
    """One system's line of the summary table (printed as soon as the system is done)."""
    n = {v: sum(1 for r in rs if r.verdict is v) for v in Verdict}
    t = _seconds(sum(r.seconds for r in rs))
    return (f"{key:<{w}}  {n[Verdict.PROVED]:>6}  {n[Verdict.HOLDS_TO_DEPTH]:>4}  {n[Verdict.VIOLATED]:>8}  "
            f"{n[Verdict.UNKNOWN]:>7}  {t:>6}")


Widths = tuple[int, int, int, int, int]
"""Column widths of the ``-v`` property table: system, verdict, engine, time, id."""

STREAM_WIDTHS = (len("verdict"), len("auto/kind"), len("time"))
"""Widths of the verdict, engine and time columns when the table is printed before the results are known: those
of a run whose properties are all proved quickly by k-induction (a longer cell, such as ``VIOLATED`` or
``auto/explicit``, pushes the rest of its line right)."""


def property_head(systems: Iterable[str], ids: Iterable[str]) -> tuple[str, Widths]:
    """The head of the ``-v`` table for a run whose system keys and property ids are known in advance."""
    ws: Widths = (max([len("system"), *(len(x) for x in systems)]), *STREAM_WIDTHS,
                  max([len("id"), *(len(x) for x in ids)]))
    head = ("system", "verdict", "engine", "time", "id", "property")
    return "  ".join(f"{h:<{ws[i]}}" if i < 5 else h for i, h in enumerate(head)), ws


def property_row(r: Result, ids: Mapping[str, str], ws: Widths, width: int) -> list[str]:
    """One property's line of the ``-v`` table (wrapped to ``width``)."""
    row = (f"{r.system}[{r.scenario}]", _verdict_cell(r), r.engine, _seconds(r.seconds), ids.get(r.property, ""),
           r.property)
    hang = " " * (sum(ws) + 2 * 5)
    line = "  ".join(f"{c:<{ws[i]}}" if i < 5 else c for i, c in enumerate(row))
    return textwrap.wrap(line, max(width, len(hang) + 20), subsequent_indent=hang, break_long_words=False,
                         break_on_hyphens=False) or [line]


def property_table(results: Sequence[Result], ids: Mapping[str, str], width: int) -> list[str]:
    """One line per property (``-v``): system, verdict, engine, time, short id and the property's sentence."""
    rows = [(f"{r.system}[{r.scenario}]", _verdict_cell(r), r.engine, _seconds(r.seconds), ids.get(r.property, ""),
             r.property) for r in results]
    heads = ("system", "verdict", "engine", "time", "id")
    ws = [max([len(h), *(len(x[i]) for x in rows)]) for i, h in enumerate(heads)]
    head = ("system", "verdict", "engine", "time", "id", "property")
    out = ["  ".join(f"{h:<{ws[i]}}" if i < 5 else h for i, h in enumerate(head))]
    hang = " " * (sum(ws) + 2 * 5)
    for row in rows:
        line = "  ".join(f"{c:<{ws[i]}}" if i < 5 else c for i, c in enumerate(row))
        out += textwrap.wrap(line, max(width, len(hang) + 20), subsequent_indent=hang, break_long_words=False,
                             break_on_hyphens=False) or [line]
    return out


def _trace_lines(r: Result, model: str, o: TextOptions) -> list[str]:
    if r.trace is None:
        return []
    if o.trace_format == "itf":  # JSON: not wrapped
        body = json.dumps(trace_itf(r.trace, model, r.property), indent=1, ensure_ascii=False)
        return ["    trace (ITF):", *("      " + x for x in body.splitlines())]
    return _wrapped(render_trace(r.trace), o.width)


def _wrapped(lines: Iterable[str], width: int) -> list[str]:
    return [w for line in lines for w in wrap_line(line, width)]


def result_details(r: Result, model: str, o: TextOptions) -> list[str]:
    """What the report says about one result beyond its table line (nothing for a plain proof)."""
    head = f"{r.system}[{r.scenario}] / {r.property}"
    if r.verdict is Verdict.VIOLATED:
        out = [f"{head}: VIOLATED" + (f" ({r.reason})" if r.reason else "")]
        out += [f"    rules: {', '.join(r.cites)}"] if r.cites else []
        return _wrapped(out, o.width) + _trace_lines(r, model, o)
    if r.verdict is Verdict.UNKNOWN:
        return wrap_line(f"{head}: UNKNOWN: {r.reason}", o.width)
    if r.verdict is Verdict.HOLDS_TO_DEPTH:
        return wrap_line(f"{head}: HOLDS_TO_DEPTH({r.depth}): no violation within {r.depth} steps; not proved for all "
                         "depths", o.width)
    if r.trace is not None and o.witnesses:
        return wrap_line(f"{head}: reached ({r.reason})", o.width) + _trace_lines(r, model, o)
    if r.invariant and o.verbosity > 0:
        inv = r.invariant if len(r.invariant) <= 300 else r.invariant[:300] + " ..."
        return wrap_line(f"{head}: proved by the inductive invariant: {inv}", o.width)
    return []


def _rule_coverage(key: str, c: Coverage) -> list[str]:
    n_reached = sum(1 for x in c.rules if x.status == "reached")
    out = ["", f"rule coverage: {key} within {c.depth} steps: {n_reached} of {len(c.rules)} rules reached"]
    for x in c.rules:
        where = f" ({x.where})" if x.where else ""
        out.append(f"  {x.status.upper() if x.status != 'reached' else x.status:<9}  {x.kind:<6}  {x.name}{where}")
    missed = [f"{x.kind} {x.name}" for x in c.rules if x.status == "unreached" and x.kind != "action"]
    if missed:
        out.append(f"warning: {key}: rules never reached within {c.depth} steps "
                   f"(properties over them hold vacuously): {'; '.join(missed)}")
    return out


def coverage_lines(results: Sequence[Result]) -> list[str]:
    """Rule coverage (``--coverage``) and the actions never enabled, each explained.

    An action family that one scenario never enables but another scenario of
    the same system in this run fires is a note (that scenario's setup does
    not use the rule, the other one covers it); one that no scenario of the
    run fires is a warning: properties about it hold vacuously.
    """
    cov: dict[str, tuple[Result, Coverage]] = {}
    for r in results:
        if r.coverage is not None:
            cov.setdefault(f"{r.system}[{r.scenario}]", (r, r.coverage))
    fired: dict[str, dict[str, str]] = {}  # system -> action family -> the first scenario that fires it
    for r, c in cov.values():
        for f in c.fired:
            fired.setdefault(r.system, {}).setdefault(f, r.scenario)
    out: list[str] = []
    for key, (r, c) in cov.items():
        if c.rules:
            out += _rule_coverage(key, c)
        several = sum(1 for x, _ in cov.values() if x.system == r.system) > 1
        out += _never_enabled(key, r.system, c, fired.get(r.system, {}), several)
        if c.unknown:
            out.append(f"warning: {key}: coverage unknown for: {', '.join(c.unknown)}")
    return out


def _never_enabled(key: str, system: str, c: Coverage, fired: Mapping[str, str], several: bool) -> list[str]:
    """The actions ``c`` never saw enabled: a warning for those no scenario fires, a note for the others."""
    within = "in any reachable state" if c.exhaustive else f"within {c.depth} steps"
    nowhere = [f for f in c.never if f not in fired]
    elsewhere = [f for f in c.never if f in fired]
    out = []
    if nowhere:
        out.append(f"warning: {key}: actions never enabled {within}"
                   f"{' (nor in any other scenario of this run)' if several else ''}, so properties about them hold "
                   f"vacuously: {', '.join(nowhere)}")
    if elsewhere:
        covered = ", ".join(f"{f} in {fired[f]}" for f in elsewhere)
        out.append(f"note: {key}: this scenario's setup never enables {', '.join(elsewhere)} ({within}); other "
                   f"scenarios of {system} in this run cover them: {covered}")
    return out


def totals_line(results: Sequence[Result]) -> str:
    counts = {v: sum(1 for r in results if r.verdict is v) for v in Verdict}
    return (f"{len(results)} {'property' if len(results) == 1 else 'properties'}: {counts[Verdict.PROVED]} proved, "
            f"{counts[Verdict.HOLDS_TO_DEPTH]} held to a depth, {counts[Verdict.VIOLATED]} violated, "
            f"{counts[Verdict.UNKNOWN]} unknown")


def render_results(model: str, results: Sequence[Result], o: TextOptions | None = None) -> str:
    """The human report of ``ruleproof check`` (see :class:`TextOptions`).

    The same text as :func:`render_head`, the table, and :func:`render_tail`;
    ``ruleproof check`` prints these parts as the results come.
    """
    o = o or TextOptions()
    out = render_head(model, o)
    if o.verbosity >= 0:
        out += ["", *(property_table(results, o.ids, o.width) if o.verbosity > 0 else summary_table(results))]
    return "\n".join(out) + "\n" + render_tail(model, results, o)


def render_head(model: str, o: TextOptions) -> list[str]:
    """The lines before the table: the model (``-v``: and the properties file of each system)."""
    out = [f"model: {model}"]
    if o.verbosity > 0:
        out += _wrapped((f"properties of {sy}: {f or 'only those in the model file'}" for sy, f in o.sources), o.width)
    return out


def render_tail(model: str, results: Sequence[Result], o: TextOptions, not_run: Sequence[tuple[str, str, str]] = (),
                stopped: str = "") -> str:
    """The text after the table: details of what is not proved, coverage notes, the totals.

    For a run that was stopped (``stopped``: why: an interrupt or the run's
    time limit), what was ``not_run`` is named after the totals.
    """
    out: list[str] = []
    quiet = o if o.verbosity >= 0 else TextOptions(-1, False, o.width, o.ids, o.trace_format)
    details = [x for r in results for x in result_details(r, model, quiet)]
    if details:
        out += ["", *details]
    notes = [x for x in coverage_lines(results) if o.verbosity >= 0 or not x.startswith("note:")]
    if notes:
        out += _wrapped(["", *notes] if notes[0] else notes, o.width)
    out += ["", *wrap_line(totals_line(results), o.width)]
    if stopped:
        out += wrap_line(f"{stopped}: {len(not_run)} not run", o.width)
        out += _wrapped((f"  not run: {sy}[{sc}] / {p}" for sy, sc, p in not_run), o.width)
    return "\n".join(out) + "\n"


def exit_status(results: Iterable[Result]) -> int:
    """0 all proved/held, 1 some violation, 3 some unknown (a violation wins)."""
    vs = {r.verdict for r in results}
    if Verdict.VIOLATED in vs:
        return 1
    if Verdict.UNKNOWN in vs:
        return 3
    return 0
