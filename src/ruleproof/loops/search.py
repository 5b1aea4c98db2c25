"""Loop search over a card pool: candidates from the ability graph, then the lasso check.

:func:`find_loops` compiles the cards (override files first), builds the
ability graph (:mod:`ruleproof.cards.graph`), takes its short cycles as
candidates, encodes each one (:mod:`ruleproof.loops.encode`) and classifies it
(:mod:`ruleproof.loops.lasso`).  It returns a frozen :class:`LoopReport`;
nothing is printed (a ``progress`` callback sees each candidate).
"""

from __future__ import annotations

import time
from collections import Counter
from dataclasses import dataclass
from typing import Any, Callable, Iterable

from ruleproof.cards.coverage import coverage, coverage_json
from ruleproof.cards.graph import Candidate, build_ability_graph, facts_from_pool, find_candidates
from ruleproof.cards.overrides import Overrides, compile_pool
from ruleproof.cards.pool import Card, Deck, Pool
from ruleproof.errors import InputError
from ruleproof.loops.encode import LoopCard, Unsupported, encode
from ruleproof.loops.lasso import Category, LoopResult, classify, trace_json, unsupported_result

__all__ = ["LoopReport", "ProgressCallback", "find_loops", "loop_card", "report_json"]

ProgressCallback = Callable[[int, int, Candidate], None]


@dataclass(frozen=True)
class LoopReport:
    """Every candidate examined, with its classification, and how much was analysable.

    ``counts``: results per category (``(category, count)`` pairs, in
    :class:`Category` order).  ``ability_coverage``: the compiler coverage of
    the cards searched (JSON-ready, from :func:`ruleproof.cards.coverage.coverage_json`).
    """

    results: tuple[LoopResult, ...]
    cards: int
    candidates: int
    counts: tuple[tuple[str, int], ...]
    ability_coverage: tuple[tuple[str, Any], ...]
    seconds: float

    def loops(self) -> tuple[LoopResult, ...]:
        """The results that are loops (unbounded, mandatory or limited)."""
        keep = {Category.UNBOUNDED, Category.MANDATORY, Category.LIMITED}
        return tuple(r for r in self.results if r.category in keep)


def loop_card(card: Card, owner: str = "you") -> LoopCard:
    """The encoder's view of a pool card."""
    return LoopCard(card.code, card.name, card.type, card.faction, card.traits, card.cost, card.strength,
                    card.unique, card.loyal, card.icons, card.keywords, owner)


def find_loops(
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
        Cards owned (and controlled) by the opponent; they are searched too.
    progress
        Called as ``progress(done, total, candidate)`` before each candidate.
    overrides
        Hand-written abilities that take precedence over the compiler.
    max_length, max_candidates
        Longest cycle (in abilities) and most candidates examined.
    timeout
        Seconds per solver query (None: no limit).

    Raises
    ------
    InputError
        A code not in the pool.
    """
    t0 = time.monotonic()
    opp = tuple(dict.fromkeys(opponent_codes))
    chosen = list(codes or ()) + (list(deck.codes()) if deck is not None else []) + list(opp)
    for c in chosen:
        if pool.get(c) is None:
            raise InputError(f"unknown card code {c}")
    wanted = tuple(dict.fromkeys(chosen)) or None
    abilities = compile_pool(pool, overrides, wanted)
    facts = {k: v for k, v in facts_from_pool(pool).items() if k in abilities}
    graph = build_ability_graph(abilities, facts)
    cands = find_candidates(graph, max_length=max_length, max_candidates=max_candidates)
    opp_set = set(opp)
    cards = {c.code: loop_card(c, "opp" if c.code in opp_set else "you") for c in pool.cards if c.code in abilities}
    results: list[LoopResult] = []
    for i, cand in enumerate(cands):
        if progress is not None:
            progress(i, len(cands), cand)
        enc = encode(cand, abilities, cards)
        if isinstance(enc, Unsupported):
            results.append(unsupported_result(enc))
        else:
            results.append(classify(enc, timeout=timeout))
    if progress is not None and cands:
        progress(len(cands), len(cands), cands[-1])
    per = Counter(r.category for r in results)
    cov = coverage_json(coverage(abilities, top=10, overridden=sum(1 for c in abilities if overrides and c in overrides)))
    return LoopReport(tuple(results), len(abilities), len(cands), tuple((c.value, per[c]) for c in Category),
                      tuple(sorted(cov.items())), round(time.monotonic() - t0, 3))


def _result_json(r: LoopResult) -> dict[str, Any]:
    return {
        "cards": list(r.cards),
        "abilities": [f"{c}#{i}" for c, i in r.abilities],
        "category": r.category.value,
        "passes": r.passes,
        "net_gain": dict(r.net_gain),
        "binding": list(r.binding),
        "reason": r.reason,
        "phase": r.phase or None,
        "trace_passes": r.trace_passes,
        "trace": trace_json(r.trace),
    }


def report_json(report: LoopReport) -> dict[str, Any]:
    """The JSON object of ``ruleproof loops --json`` (``version`` 1).

    ``loops`` lists every candidate (not-a-loop and unsupported ones too, with
    the reason); ``coverage`` says how many were analysable.
    """
    counts = dict(report.counts)
    analysed = sum(v for k, v in counts.items() if k not in (Category.UNSUPPORTED.value, Category.UNKNOWN.value))
    return {
        "version": 1,
        "loops": [_result_json(r) for r in report.results],
        "coverage": {
            "cards": report.cards,
            "candidates": report.candidates,
            "analysed": analysed,
            "by_category": counts,
            "abilities": dict(report.ability_coverage),
        },
        "seconds": report.seconds,
    }
