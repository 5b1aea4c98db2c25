"""``ruleproof loops --workers/--scheduler``: loop candidates classified on a Dask cluster.

The parent lists the candidates with :func:`ruleproof.loops.search.search_space`
and encodes them (:func:`ruleproof.loops.encode.encode`), as
:func:`ruleproof.loops.search.find_loops` does; both are fast and need no
solver.  Candidates the encoder refuses get their ``unsupported`` result at
once.  Each accepted candidate is one work unit: its :class:`~ruleproof.loops.encode.Encoding`
is plain data (the cards and abilities of the cycle, frozen dataclasses), so
a worker needs neither the card pool nor the override files; it classifies
the encoding (:func:`ruleproof.loops.lasso.classify`, the Z3 lasso check) in
a fresh solver context.  A unit whose worker dies or that times out is an
UNKNOWN result with the reason.  The report is assembled as ``find_loops``
assembles it, so its JSON is the same apart from ``seconds``.
"""

from __future__ import annotations

import time
from collections import Counter
from dataclasses import dataclass
from typing import Iterable

from ..cards.coverage import coverage, coverage_json
from ..cards.overrides import Overrides
from ..cards.pool import Deck, Pool
from ..loops.encode import Encoding, Unsupported, encode
from ..loops.lasso import Category, LoopResult, classify, unsupported_result
from ..loops.search import LoopReport, ProgressCallback, search_space
from .check import GRACE
from .executor import Fault, run_units
from .isolation import fresh_solver_context

__all__ = ["LoopUnit", "run_loop_unit", "find_loops_on_cluster", "QUERIES_PER_CANDIDATE"]

#: A generous bound on the solver queries :func:`ruleproof.loops.lasso.classify` makes for one candidate.
QUERIES_PER_CANDIDATE = 40


@dataclass(frozen=True)
class LoopUnit:
    """Classify the encoded candidate number ``index`` of a search."""

    index: int
    encoding: Encoding
    timeout: float | None

    @property
    def label(self) -> str:
        return f"candidate {self.index + 1}: {'+'.join(self.encoding.candidate.cards)}"


def run_loop_unit(unit: LoopUnit) -> LoopResult:
    """Worker side: the lasso check of one candidate, in a fresh Z3 context."""
    fresh_solver_context()
    return classify(unit.encoding, timeout=unit.timeout)


def find_loops_on_cluster(
    pool: Pool,
    codes: Iterable[str] | None = None,
    deck: Deck | None = None,
    opponent_codes: Iterable[str] = (),
    progress: ProgressCallback | None = None,
    *,
    overrides: Overrides | None = None,
    max_length: int = 3,
    max_candidates: int = 5000,
    timeout: float | None = 20.0,
    workers: int | None = None,
    scheduler: str | None = None,
    fault: Fault | None = None,
) -> LoopReport:
    """What :func:`ruleproof.loops.search.find_loops` returns, with the candidates classified on a Dask cluster.

    ``fault`` is the test hook of :func:`ruleproof.scale.run_units` (its
    index counts the candidates that reach the solver).
    """
    t0 = time.monotonic()
    space = search_space(pool, codes, deck, opponent_codes, overrides=overrides, max_length=max_length,
                         max_candidates=max_candidates)
    cands = space.candidates
    results: dict[int, LoopResult] = {}
    units: list[LoopUnit] = []
    for i, cand in enumerate(cands):
        enc = encode(cand, space.abilities, space.cards, space.bystanders)
        if isinstance(enc, Unsupported):
            results[i] = unsupported_result(enc)
        else:
            units.append(LoopUnit(i, enc, timeout))
    by_label = {u.label: u for u in units}
    finished = len(results)

    def failed(u: LoopUnit, reason: str) -> LoopResult:
        enc = u.encoding
        return LoopResult(cards=enc.candidate.cards, abilities=enc.candidate.abilities, category=Category.UNKNOWN,
                          reason=reason, phase=enc.phase.value if enc.phase else "")

    def tick(_done: int, _total: int, label: str) -> None:
        nonlocal finished
        finished += 1
        if progress is not None:
            progress(finished, len(cands), cands[by_label[label].index])

    limit = None if timeout is None else timeout * QUERIES_PER_CANDIDATE + GRACE
    out = run_units(units, run_loop_unit, failed, workers=workers, scheduler=scheduler, timeout=limit,
                    progress=tick, fault=fault)
    results.update((u.index, r) for u, r in zip(units, out))
    ordered = [results[i] for i in range(len(cands))]
    per = Counter(r.category for r in ordered)
    compiled = space.compiled
    cov = coverage_json(coverage(compiled, top=10, overridden=sum(1 for c in compiled if overrides and c in overrides)))
    return LoopReport(tuple(ordered), len(compiled), len(cands), tuple((c.value, per[c]) for c in Category),
                      tuple(sorted(cov.items())), round(time.monotonic() - t0, 3))
