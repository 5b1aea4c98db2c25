"""The report of ``ruleproof mutants`` (the command is in :mod:`ruleproof.cli`): lines, JSON, scores.

A system's score is killed / (total - equivalent): mutants proved equivalent
change nothing the game shows and are not counted.  The exit status
(:func:`exit_code`): 1 some system's score is below ``--min-score`` even
counting every unknown mutant as killed; else 3 some mutant is unknown; else
1 a score below ``--min-score``; else 0.
"""

from __future__ import annotations

from typing import Any, Sequence

from .mutants import STATUSES, MutantResult
from .report import render_trace, trace_json

__all__ = ["Score", "scores", "exit_code", "result_json", "result_text"]


class Score:
    """Counts of one system's mutants by status."""

    def __init__(self, system: str, results: Sequence[MutantResult]) -> None:
        self.system = system
        self.counts = {st: sum(1 for r in results if r.status == st) for st in STATUSES}
        self.total = len(results)

    @property
    def judged(self) -> int:
        """Mutants that change what the game shows: total minus the proved equivalent ones."""
        return self.total - self.counts["equivalent"]

    def score(self, unknown_killed: bool = False) -> float | None:
        killed = self.counts["killed"] + (self.counts["unknown"] if unknown_killed else 0)
        return killed / self.judged if self.judged else None

    def line(self) -> str:
        c = self.counts
        sc = self.score()
        pct = f"{c['killed']}/{self.judged} = {100 * sc:.1f}%" if sc is not None else "n/a (every mutant is equivalent)"
        return (f"{self.system}: {self.total} mutants: {c['killed']} killed, {c['equivalent']} equivalent, "
                f"{c['survived']} survived, {c['unknown']} unknown; score {pct}")


def scores(res: Sequence[tuple[str, MutantResult]]) -> list[Score]:
    """One :class:`Score` per system, in the order of ``res``."""
    by: dict[str, list[MutantResult]] = {}
    for sy, r in res:
        by.setdefault(sy, []).append(r)
    return [Score(sy, rs) for sy, rs in by.items()]


def exit_code(ss: Sequence[Score], min_score: float | None) -> int:
    """1 below ``min_score`` for sure, else 3 with an unknown mutant, else 1 below it, else 0."""
    if min_score is not None:
        for s in ss:
            hi = s.score(unknown_killed=True)
            if hi is not None and hi < min_score:
                return 1
    if any(s.counts["unknown"] for s in ss):
        return 3
    if min_score is not None:
        for s in ss:
            lo = s.score()
            if lo is not None and lo < min_score:
                return 1
    return 0


def result_json(system: str, r: MutantResult) -> dict[str, Any]:
    """One mutant's verdict as JSON (with its trace when it has one)."""
    out: dict[str, Any] = {"system": system, "mutant": r.label, "status": r.status, "killed_by": list(r.killed_by)}
    for key, val in (("scenario", r.scenario), ("detail", r.detail), ("reason", r.reason)):
        if val:
            out[key] = val
    if r.trace is not None:
        out["trace"] = trace_json(r.trace)
    return out


def result_text(res: Sequence[tuple[str, MutantResult]], ss: Sequence[Score] | None) -> str:
    """Mutants' verdicts as text (a survivor with its reason and trace), then the scores ``ss`` if given."""
    lines: list[str] = []
    for sy, r in res:
        detail = f"  [{r.detail}]" if r.detail and r.status != "killed" else ""
        if r.status == "killed":
            by = r.killed_by[0] + (f" +{len(r.killed_by) - 1}" if len(r.killed_by) > 1 else "")
            extra = f"  (by: {by}, in {r.scenario})"
        else:
            extra = ""
        lines.append(f"{r.status:<10}  {sy}  {r.label}{detail}{extra}")
        if r.status in ("survived", "unknown") and r.reason:
            where = f"in {r.scenario}: " if r.scenario and r.status == "survived" else ""
            lines.append(f"    {where}{r.reason}")
        if r.status == "survived" and r.trace is not None:
            lines.extend(render_trace(r.trace, "      "))
    if ss is not None:
        lines.append("")
        lines.extend(s.line() for s in ss)
    return "\n".join(lines) + "\n"
