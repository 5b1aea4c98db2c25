"""Ruling results as text (game terms, no timings: stable for golden files) and as versioned JSON."""

from __future__ import annotations

from typing import Any, Sequence

from ..report import JSON_VERSION, render_initial, render_step, trace_json
from .check import Outcome, RulingResult
from .model import Ruling

__all__ = ["render_results", "results_json", "exit_status", "ruling_title"]

_QUESTION = {
    "reachable": ("can this happen?", {True: "yes, it can happen", False: "no, it cannot happen"}),
    "never": ("does this never happen?", {True: "yes, it never happens", False: "no, it can happen"}),
    "always_after": ("does this always hold after the step?", {True: "yes, always", False: "no, not always"}),
}


def ruling_title(r: Ruling) -> str:
    """``file: name (source)``: how a ruling is named in test ids and summaries."""
    return f"{r.file.rsplit('/', 1)[-1]}: {r.name} ({r.source})"


def exit_status(results: Sequence[RulingResult]) -> int:
    """0 every ruling passes, 1 some ruling contradicts the model, 3 some unknown (none failed)."""
    outs = {x.outcome for x in results}
    if Outcome.FAIL in outs:
        return 1
    if Outcome.UNKNOWN in outs:
        return 3
    return 0


def _model_line(r: Ruling) -> str:
    params = ", ".join(f"{k}={v}" for k, v in r.params)
    others = "their initial values" if r.unnamed == "initial" else "any value (symbolic)"
    return (f"  model: {r.model}, scenario {r.scenario}" + (f" ({params})" if params else "")
            + f"; variables the situation does not name: {others}")


def render_one(x: RulingResult) -> list[str]:
    r = x.ruling
    lines = [f"{x.outcome.name:<7} {r.name}", f"  file: {r.where}", f"  source: {r.source}", f"  quote: {r.quote}",
             _model_line(r)]
    if r.situation:
        lines.append("  situation: " + ", ".join(f"{k}={v}" for k, v in r.situation))
    if r.assume:
        lines.append("  assuming: " + "; ".join(r.assume))
    if r.question is not None:
        q = r.question
        ask, answers = _QUESTION[q.kind]
        step = f" after every '{q.step_text}'" if q.kind == "always_after" else ""
        depth = f" (within {q.depth} steps)" if q.depth is not None else ""
        lines.append(f"  question: {ask}{step} {q.text}{depth}; the ruling answers: {answers[q.expected]}")
        lines.append(f"  answer: {x.answer} [{x.engine}]: {x.reason}")
        if x.trace is not None:
            lines.append("  " + ("witness:" if q.kind == "reachable" else "counterexample:"))
            lines.extend(render_initial(x.trace.initial, "    "))
            lines.extend(render_step(i, s, "    ") for i, s in enumerate(x.trace.steps, 1))
        return lines
    if x.checked:
        lines.append(f"  checked: {x.checked}")
    if x.trace is not None:
        lines.extend(render_initial(x.trace.initial, "    "))
    for ev in x.events:
        if ev.kind == "done" and x.trace is not None:
            lines.append(render_step(ev.step, x.trace.steps[ev.index], "    "))
        elif ev.kind == "refused":
            lines.append(f"    {ev.step}. refused, as the ruling says: {ev.text}")
        elif ev.kind == "expect":
            where = "at the end" if ev.step > len(r.steps) else f"after step {ev.step}"
            lines.append(f"       {where}: {ev.text}: holds")
        elif ev.kind == "fail":
            if ev.text:
                lines.append(f"    {ev.step}. {ev.text}")
            lines.append(f"  {x.outcome.name} {ev.where}: {x.reason}")
    if x.outcome is Outcome.UNKNOWN:
        lines.append(f"  UNKNOWN: {x.reason}")
    return lines


def render_results(results: Sequence[RulingResult]) -> str:
    """The report of ``ruleproof ruling``: each ruling with its trace in game terms, then a summary."""
    out: list[str] = []
    for x in results:
        out.extend(render_one(x))
        out.append("")
    counts = {o: sum(1 for x in results if x.outcome is o) for o in Outcome}
    n = len(results)
    out.append(f"{n} ruling{'s' if n != 1 else ''}: {counts[Outcome.PASS]} passed, {counts[Outcome.FAIL]} failed, "
               f"{counts[Outcome.UNKNOWN]} unknown")
    return "\n".join(out) + "\n"


def result_json(x: RulingResult) -> dict[str, Any]:
    r = x.ruling
    obj: dict[str, Any] = {
        "ruling": r.name,
        "file": r.file,
        "line": r.line,
        "source": r.source,
        "quote": r.quote,
        "model": r.model,
        "scenario": r.scenario,
        "params": {k: v for k, v in r.params},
        "unnamed": r.unnamed,
        "situation": {k: v for k, v in r.situation},
        "assume": list(r.assume),
        "outcome": x.outcome.value,
        "reason": x.reason,
        "engine": x.engine,
    }
    if r.question is not None:
        obj["question"] = {"kind": r.question.kind, "condition": r.question.text, "step": r.question.step_text or None,
                           "expected": r.question.expected, "depth": r.question.depth}
        obj["answer"] = x.answer
    else:
        obj["steps"] = [
            {"do": st.text, "choosing": {k: v for k, v in st.choices}, "refused": st.refused,
             "expect": [e.text for e in st.expect]}
            for st in r.steps
        ]
        obj["expect"] = [e.text for e in r.expect]
        obj["failed_step"] = x.failed_at
        obj["checked"] = x.checked
    obj["trace"] = trace_json(x.trace) if x.trace is not None else None
    return obj


def results_json(results: Sequence[RulingResult]) -> dict[str, Any]:
    """The ``--json`` object of ``ruleproof ruling``."""
    counts = {o.value: sum(1 for x in results if x.outcome is o) for o in Outcome}
    return {"version": JSON_VERSION, "status": exit_status(results), "counts": counts,
            "rulings": [result_json(x) for x in results]}
