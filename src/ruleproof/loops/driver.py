"""``ruleproof loops``: loop candidates classified in this process or on a Dask cluster (one driver).

The driver lives in the loops package, above :mod:`ruleproof.scale` (whose
executor it uses), so that nothing in :mod:`ruleproof.scale` imports the loop
search (ARCHITECTURE.md, "Layers and gates").

:func:`search_loops` lists the candidates with
:func:`ruleproof.loops.search.search_space` and encodes them with
:func:`ruleproof.loops.search.plan` (the named cards, and a deck's where a
target needs them, join each candidate's model); both are fast and need no
solver.  Candidates the encoder refuses get their ``unsupported`` result at
once.  Each accepted candidate is one work unit for
:func:`~ruleproof.scale.run_units`: its :class:`~ruleproof.loops.encode.Encoding`
is plain data (the cards and abilities of the cycle, frozen dataclasses), so
a worker needs neither the card pool nor the override files; it classifies
the encoding (:func:`ruleproof.loops.lasso.classify`, the Z3 lasso check) in
a fresh solver context, as one budget query (:mod:`ruleproof.budget`).  A
unit whose worker dies, that times out or runs out of memory is an UNKNOWN
result with the reason.  The report, complete or what finished before a stop,
says what was not read (:func:`ruleproof.loops.search.assemble`).
:func:`find_loops` is this driver in this process.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Callable, Iterable

from .. import budget
from ..cards.overrides import Overrides
from ..cards.pool import Deck, Pool
from ..scale.check import GRACE
from ..scale.executor import Fault, run_units
from ..scale.isolation import fresh_solver_context
from .encode import Encoding
from .lasso import Category, LoopResult, classify
from .search import MAX_CANDIDATES, LoopReport, ProgressCallback, assemble, plan, search_space

__all__ = ["LoopUnit", "find_loops", "run_loop_unit", "search_loops", "QUERIES_PER_CANDIDATE"]

#: A generous bound on the solver queries :func:`ruleproof.loops.lasso.classify` makes for one candidate.
QUERIES_PER_CANDIDATE = 40


@dataclass(frozen=True)
class LoopUnit:
    """Classify the encoded candidate number ``index`` of a search."""

    index: int
    encoding: Encoding
    timeout: float | None
    rlimit: int | None = None

    @property
    def label(self) -> str:
        return f"candidate {self.index + 1}: {'+'.join(self.encoding.candidate.cards)}"


def run_loop_unit(unit: LoopUnit) -> LoopResult:
    """The lasso check of one candidate (on a worker, or here), in a fresh Z3 context, as one budget query."""
    fresh_solver_context()
    limit = None if unit.timeout is None else unit.timeout * QUERIES_PER_CANDIDATE
    try:
        with budget.query(limit, unit.label, rlimit=unit.rlimit):
            return classify(unit.encoding, timeout=unit.timeout)
    except budget.QueryTimeout:
        return _unknown(unit, f"timeout: still running {limit:g} s after it started, stopped")
    except MemoryError:
        memory = budget.memory_limit()
        return _unknown(unit, "out of memory" + (f" (the memory limit is {memory // 2**20} MiB)" if memory else ""))
    except Exception as exc:
        budget.reraise_pending(exc)
        raise


def _unknown(unit: LoopUnit, reason: str) -> LoopResult:
    enc = unit.encoding
    return LoopResult(cards=enc.candidate.cards, abilities=enc.candidate.abilities, category=Category.UNKNOWN,
                      reason=reason, phase=enc.phase.value if enc.phase else "")


def find_loops(
    pool: Pool,
    codes: Iterable[str] | None = None,
    deck: Deck | None = None,
    opponent_codes: Iterable[str] = (),
    progress: ProgressCallback | None = None,
    *,
    overrides: Overrides | None = None,
    max_length: int | None = None,
    max_candidates: int = MAX_CANDIDATES,
    timeout: float | None = 20.0,
) -> LoopReport:
    """Search ``pool`` (or only ``codes``, a deck and opponent cards) for loops.

    Parameters
    ----------
    pool
        The card pool.
    codes, deck
        Restrict the search to these cards (their union); neither means the
        whole pool.
    opponent_codes
        Cards owned (and controlled) by the opponent; they are searched too,
        as the opponent's copies (a code also in ``codes`` has a copy on each
        side), and cycles may run through both players' abilities.
    progress
        Called as ``progress(done, total, candidate)`` before each candidate.
    overrides
        Hand-written abilities that take precedence over the compiler.
    max_length, max_candidates
        Longest cycle (in abilities; default 3 for named cards, 2 for the
        whole pool) and most candidates examined.
    timeout
        Seconds per solver path (None: no limit).

    Raises
    ------
    InputError
        A code not in the pool.
    """
    return search_loops(pool, codes, deck, opponent_codes, progress, overrides=overrides, max_length=max_length,
                        max_candidates=max_candidates, timeout=timeout)


def search_loops(
    pool: Pool,
    codes: Iterable[str] | None = None,
    deck: Deck | None = None,
    opponent_codes: Iterable[str] = (),
    progress: ProgressCallback | None = None,
    *,
    overrides: Overrides | None = None,
    max_length: int | None = None,
    max_candidates: int = MAX_CANDIDATES,
    timeout: float | None = 20.0,
    rlimit: int | None = None,
    workers: int | None = None,
    scheduler: str | None = None,
    fault: Fault | None = None,
    on_result: Callable[[LoopResult], None] | None = None,
) -> LoopReport:
    """Search ``pool`` (or the named cards) for loops, in this process or on a Dask cluster.

    See :func:`find_loops` for the parameters;
    ``rlimit`` is the solver's resource limit per call, ``on_result`` sees
    each candidate's result in candidate order as soon as it is known, and
    ``fault`` is the test hook of :func:`ruleproof.scale.run_units` (its
    index counts the candidates that reach the solver).  ``progress(done,
    total, candidate)`` is called before each candidate is classified and
    once more at the end.
    """
    t0 = time.monotonic()
    space = search_space(pool, codes, deck, opponent_codes, overrides=overrides, max_length=max_length,
                         max_candidates=max_candidates)
    cands = space.candidates
    results: dict[int, LoopResult] = {}
    units: list[LoopUnit] = []
    for i, item in enumerate(plan(space)):  # the named cards (and the deck's) join each candidate's model
        if isinstance(item, LoopResult):
            results[i] = item
        else:
            units.append(LoopUnit(i, item, timeout, rlimit))
    emitted = 0

    def flush() -> None:  # pass on every result known, in candidate order
        nonlocal emitted
        while emitted in results:
            if on_result is not None:
                on_result(results[emitted])
            emitted += 1
            if progress is not None and emitted < len(cands):
                progress(emitted, len(cands), cands[emitted])

    if progress is not None and cands:
        progress(0, len(cands), cands[0])
    flush()

    def each(k: int, r: LoopResult) -> None:
        results[units[k].index] = r
        flush()

    limit = None if timeout is None else timeout * QUERIES_PER_CANDIDATE + GRACE
    try:
        run_units(units, run_loop_unit, lambda u, reason: _unknown(u, reason), workers=workers, scheduler=scheduler,
                  timeout=limit, fault=fault, on_result=each)
    except budget.BudgetEvent as event:
        # stopped (interrupt, time limit): the candidates classified so far, in order, for the caller's report
        partial = assemble(space, [results[i] for i in range(emitted)], t0, overrides)
        event.partial = partial  # type: ignore[attr-defined]
        raise
    if progress is not None and cands:
        progress(len(cands), len(cands), cands[-1])
    return assemble(space, [results[i] for i in range(len(cands))], t0, overrides)
